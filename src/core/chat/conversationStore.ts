/**
 * Conversations on disk: `<corpus>/.marker-research/chats/<id>.jsonl` — a header line, then one
 * line per turn. Each turn rewrites the file atomically (write-then-rename), so a crash never
 * leaves half a line; a line that does not validate is reported with its number and skipped,
 * the rest of the conversation loads.
 *
 * Writers take the conversations' lock (`chats/conversations.lock`, see {@link withChatsLock}) and read the
 * file again inside it, so concurrent turns of one conversation (six `chat --conversation X` at
 * once, or the chat view and the CLI) each get their own turn number and citation numbers and
 * none is lost.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { readRun } from '../research/runStore';
import { writeFileAtomic } from '../storage/atomic';
import { withFileLock } from '../storage/fileLock';
import { isUnsafeStatePath, readStateDir, readStateFile } from '../storage/safePath';
import { renumberCitations } from './citationNumbering';
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

/**
 * Runs `fn` holding the lock of the corpus's conversations (`chats/conversations.lock`, the shared
 * file lock: a lock left by a dead process is taken over). Writers wait their turn instead of failing.
 * @throws FileLockedError when another live writer holds the lock through every wait (about 20 s).
 */
export function withChatsLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  return withFileLock(path.join(chatsDir(root), 'conversations'), fn);
}

/**
 * Starts a conversation (about a run, or the whole corpus) and writes its header. With an `id`
 * that another writer created meanwhile, that conversation is returned as it is (never overwritten).
 */
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
  const file = conversationFile(root, header.id);
  return withChatsLock(root, async () => {
    const exists = await readStateFile(file, 'utf8').then(() => true, () => false);
    if (exists) return loadConversation(root, header.id);
    const conversation: Conversation = { header, turns: [], citations };
    await saveConversation(root, conversation);
    return conversation;
  });
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

/** Writes the whole conversation atomically (header line, then one line per turn); callers hold {@link withChatsLock}. */
export async function saveConversation(root: string, conversation: Conversation): Promise<void> {
  const lines = [JSON.stringify(conversation.header), ...conversation.turns.map((t) => JSON.stringify(t))];
  await writeFileAtomic(conversationFile(root, conversation.header.id), `${lines.join('\n')}\n`);
}

const sameSpan = (a: ChatCitation, b: ChatCitation): boolean =>
  a.span.item_id === b.span.item_id && a.span.part === b.span.part && a.span.start === b.span.start && a.span.end === b.span.end;

/**
 * `turn` fitted to the conversation as it is on disk now: its number follows the last turn kept,
 * and a citation it added whose number another writer has taken meanwhile gets the number that
 * span already has, or the next free one — in its citation list and in every `[n]` of its answer.
 */
export function fitTurn(onDisk: Conversation, turn: ChatTurn): ChatTurn {
  const renumber = new Map<number, number>();
  let next = onDisk.citations.reduce((m, c) => Math.max(m, c.number), 0) + 1;
  for (const c of turn.citations) {
    const known = onDisk.citations.find((k) => k.number === c.number);
    if (known && sameSpan(known, c)) continue;
    const sameElsewhere = onDisk.citations.find((k) => sameSpan(k, c));
    renumber.set(c.number, sameElsewhere ? sameElsewhere.number : next++);
  }
  const to = (n: number): number => renumber.get(n) ?? n;
  return {
    ...turn,
    turn: onDisk.turns.length + 1,
    answer: renumber.size ? renumberCitations(turn.answer, to) : turn.answer,
    citations: turn.citations.map((c) => (renumber.has(c.number) ? { ...c, number: to(c.number), span: { ...c.span, source_id: `C${to(c.number)}` } } : c)),
    loaded: turn.loaded.map((l) => ({ ...l, number: to(l.number) })),
  };
}

/**
 * Appends a turn under the chats lock: the conversation is read again from disk, the turn is
 * numbered after the turns kept there ({@link fitTurn}), written, and the conversation in memory
 * becomes what is on disk. `turn` is updated in place with its final number and citations.
 */
export async function appendTurn(root: string, conversation: Conversation, turn: ChatTurn): Promise<void> {
  await withChatsLock(root, async () => {
    const current = await loadConversation(root, conversation.header.id).catch(() => ({ ...conversation, turns: [...conversation.turns] }));
    const fitted = fitTurn(current, turn);
    Object.assign(turn, fitted);
    current.turns.push(turn);
    for (const c of turn.citations) if (!current.citations.some((k) => k.number === c.number)) current.citations.push(c);
    current.citations.sort((a, b) => a.number - b.number);
    await saveConversation(root, current);
    conversation.turns = current.turns;
    conversation.citations = current.citations;
  });
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
