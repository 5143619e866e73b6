/**
 * Conversations on disk: `<corpus>/.marker-research/chats/<id>.jsonl` — a header line, then one
 * line per turn. Each turn rewrites the file atomically (write-then-rename), so a crash never
 * leaves half a line; a line that does not validate is reported with its number and skipped,
 * the rest of the conversation loads.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { readRun } from '../research/runStore';
import { writeFileAtomic } from '../storage/atomic';
import { isUnsafeStatePath, readStateDir, readStateFile } from '../storage/safePath';
import { chatTurnSchema, conversationHeaderSchema, type ChatCitation, type ChatTurn, type Conversation, type ConversationHeader, type ConversationSummary } from './schema';

/** Conversation ids are file names: letters, digits, `-` and `_`. */
const ID = /^[\w-]{1,100}$/u;

export function chatsDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'chats');
}

function conversationFile(root: string, id: string): string {
  if (!ID.test(id)) throw new Error(`chat: "${id}" is not a conversation id (letters, digits, "-" and "_")`);
  return path.join(chatsDir(root), `${id}.jsonl`);
}

/** A new id: the time and a random suffix, sortable. */
export function newConversationId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${t}-${randomBytes(2).toString('hex')}`;
}

/** The report's numbered citations, which a conversation about a run starts from. */
async function reportCitations(root: string, runId: string | null): Promise<ChatCitation[]> {
  if (!runId) return [];
  const run = await readRun(root, runId);
  return run.sources?.citations.map((c) => ({ number: c.number, span: c.span })) ?? [];
}

/** Starts a conversation (about a run, or the whole corpus) and writes its header. */
export async function createConversation(root: string, opts: { runId: string | null; title?: string; id?: string }): Promise<Conversation> {
  const citations = await reportCitations(root, opts.runId);
  const header: ConversationHeader = {
    kind: 'marker-research-conversation',
    version: 1,
    id: opts.id ?? newConversationId(),
    runId: opts.runId,
    createdAt: new Date().toISOString(),
    title: opts.title ?? (opts.runId ? `About run ${opts.runId}` : 'Questions about the corpus'),
  };
  const conversation: Conversation = { header, turns: [], citations };
  await saveConversation(root, conversation);
  return conversation;
}

/**
 * Loads a conversation: its header, its turns (invalid lines reported in `problems`), and every
 * citation number known — the report's, then each turn's.
 * @throws Error (`chat: …`) when there is no such conversation or its header is unreadable;
 * UnsafeStatePathError when its file (or a folder above it) is a symbolic link or not a real file.
 */
export async function loadConversation(root: string, id: string, problems: string[] = []): Promise<Conversation> {
  const file = conversationFile(root, id);
  let text: string;
  try {
    text = await readStateFile(file, 'utf8');
  } catch (e) {
    // A link or other non-file is refused unread, with what to do.
    if (isUnsafeStatePath(e)) throw e;
    throw new Error(`chat: no conversation "${id}" in ${chatsDir(root)}`);
  }
  const lines = text.split('\n');
  let header: ConversationHeader;
  try {
    header = conversationHeaderSchema.parse(JSON.parse(lines[0] ?? ''));
  } catch (e) {
    throw new Error(`chat: ${file}:1: not a conversation header (${(e as Error).message.split('\n')[0]})`);
  }
  const turns: ChatTurn[] = [];
  lines.slice(1).forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const parsed = chatTurnSchema.safeParse(JSON.parse(line));
      if (parsed.success) turns.push(parsed.data);
      else problems.push(`${file}:${i + 2}: ${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    } catch (e) {
      problems.push(`${file}:${i + 2}: ${(e as Error).message}`);
    }
  });
  const citations = await reportCitations(root, header.runId).catch((e: Error): ChatCitation[] => {
    problems.push(`the run of this conversation could not be read: ${e.message}`);
    return [];
  });
  for (const t of turns) for (const c of t.citations) if (!citations.some((k) => k.number === c.number)) citations.push(c);
  citations.sort((a, b) => a.number - b.number);
  return { header, turns, citations };
}

/** Writes the whole conversation atomically (header line, then one line per turn). */
export async function saveConversation(root: string, conversation: Conversation): Promise<void> {
  const lines = [JSON.stringify(conversation.header), ...conversation.turns.map((t) => JSON.stringify(t))];
  await writeFileAtomic(conversationFile(root, conversation.header.id), `${lines.join('\n')}\n`);
}

/** Appends a turn: to the conversation in memory (turns, citations) and on disk. */
export async function appendTurn(root: string, conversation: Conversation, turn: ChatTurn): Promise<void> {
  conversation.turns.push(turn);
  for (const c of turn.citations) if (!conversation.citations.some((k) => k.number === c.number)) conversation.citations.push(c);
  conversation.citations.sort((a, b) => a.number - b.number);
  await saveConversation(root, conversation);
}

/** Every conversation of the corpus, newest first (unreadable files are skipped). */
export async function listConversations(root: string): Promise<ConversationSummary[]> {
  const names = await readStateDir(chatsDir(root)).catch(() => [] as string[]);
  const out: ConversationSummary[] = [];
  for (const n of names) {
    if (!n.endsWith('.jsonl') || !ID.test(n.slice(0, -6))) continue;
    const c = await loadConversation(root, n.slice(0, -6)).catch(() => undefined);
    if (!c) continue;
    const last = c.turns[c.turns.length - 1];
    out.push({ id: c.header.id, runId: c.header.runId, title: c.header.title, createdAt: c.header.createdAt, turns: c.turns.length, lastQuestion: last?.question ?? null });
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
