/**
 * Every message between the extension host and the Chat webview view
 * (`markerResearch.chat`), typed once. The webview is untrusted: the host
 * parses what it receives with {@link chatToHostSchema}. The host posts
 * nothing before `ready`, and answers `ready` with the whole state.
 *
 * A conversation is about a research run (its report answers follow-up
 * questions; `[n]` continues the report's citation numbers) or about the whole
 * corpus. Answers stream in as deltas, then the finished turn replaces them.
 */
import { z } from 'zod';

/** Limits of the `ask` message (the input box enforces them too). */
export const CHAT_MAX_QUESTION_CHARS = 2000;

/** One numbered citation of a conversation, as a chip shows it (and opens it). */
export interface ChatCitationView {
  number: number;
  itemId: string;
  /** The item's title, or the id when the item is not in the indexed corpus. */
  title: string;
  part: 'transcript' | 'comments';
  /** The file (relative to the corpus root), one-based line and column where the span starts: `city-cycling-podcast/transcript.vtt:6:18`. */
  where: string;
  /** Where the span is, in words (what the chip's tooltip leads with; `where` follows): `Daniel · 0:33`, `Daniel · turn 215`, `@lena · 12 likes · 2024-03-14`. */
  location: string;
  /** `1:02–1:30` where the format has timestamps, else null. */
  time: string | null;
  /** Speaker label(s) or comment author(s), or null. */
  speaker: string | null;
  /** A short quote of the span (the chip's tooltip), or null when the corpus is not indexed. */
  quote: string | null;
}

/** A cited original loaded for a citation question: verbatim, with a little of what surrounds it. */
export interface ChatLoadedView {
  number: number;
  text: string;
  before: string;
  after: string;
}

export type ChatMode = 'report' | 'citation' | 'corpus';

/** One question and its answer. */
export interface ChatTurnView {
  turn: number;
  question: string;
  /** Markdown; every `[n]` is one of the conversation's citations. */
  answer: string;
  mode: ChatMode;
  engine: 'model' | 'extractive';
  /** How the question was understood, in one line (`summary · rules`). */
  understood: string;
  /** The citation numbers this answer cites. */
  cited: number[];
  loaded: ChatLoadedView[];
  /** The answer was stopped: kept as far as it got. */
  cancelled: boolean;
  notes: string[];
  ms: number;
  createdAt: string;
}

/** The run a conversation is about. */
export interface ChatRunView {
  runId: string;
  /** The run's goal, or null when the run is gone from the corpus. */
  goal: string | null;
  status: string | null;
}

/** A conversation as the view shows it. `id` is null for a conversation not yet started (no question asked: nothing on disk). */
export interface ChatConversationView {
  id: string | null;
  title: string;
  /** Null: the whole corpus. */
  run: ChatRunView | null;
  createdAt: string | null;
  turns: ChatTurnView[];
  /** Every citation number known in the conversation (the report's, then the answers'). */
  citations: ChatCitationView[];
}

/** An earlier conversation in the list. */
export interface ChatHistoryEntry {
  id: string;
  title: string;
  runId: string | null;
  /** The run's goal when it is known. */
  runGoal: string | null;
  createdAt: string;
  turns: number;
  lastQuestion: string | null;
}

/** The question being answered: the answer so far. */
export interface ChatPendingView {
  /** Host-assigned, increasing. */
  askId: number;
  conversationId: string;
  question: string;
  text: string;
}

export interface ChatState {
  conversation: ChatConversationView;
  history: ChatHistoryEntry[];
  pending: ChatPendingView | null;
  /** One line about the corpus or the last failure, or null. */
  message: string | null;
}

/** Host → webview. */
export type HostToChat =
  /** The whole state (after `ready`, a switch of conversation, a finished turn). */
  | { type: 'state'; state: ChatState }
  /** A question started being answered. */
  | { type: 'turnStart'; pending: ChatPendingView }
  /** More of the answer being streamed: appended to what is shown. */
  | { type: 'delta'; askId: number; text: string }
  /** The question was not answered (error); the input gets the question back. */
  | { type: 'turnError'; askId: number; question: string; message: string }
  /** "Ask Follow-up" from the palette: focus the input; with a question, ask it. */
  | { type: 'focus'; question: string | null };

/** Run ids are folder names: no separators, no dot-dot. */
const runId = z.string().min(1).max(200).regex(/^[\w.-]+$/u).refine((v) => v !== '.' && v !== '..', 'not a run id');
/** Conversation ids are file names: letters, digits, `-` and `_`. */
const conversationId = z.string().min(1).max(100).regex(/^[\w-]+$/u);

export const chatToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** A question in the conversation shown (`conversationId` null: the one not yet started). */
  z.object({ type: z.literal('ask'), conversationId: conversationId.nullable(), question: z.string().trim().min(1).max(CHAT_MAX_QUESTION_CHARS) }),
  /** Stop the answer being streamed. */
  z.object({ type: z.literal('stop') }),
  /** A new conversation about a run, or the whole corpus (null). */
  z.object({ type: z.literal('newConversation'), runId: runId.nullable() }),
  /** Reopen an earlier conversation. */
  z.object({ type: z.literal('openConversation'), conversationId }),
  /** Open citation `number` of a conversation at its span in the original file. */
  z.object({ type: z.literal('openCitation'), conversationId: conversationId.nullable(), number: z.number().int().positive().max(100_000) }),
  /** Open the report of a run. */
  z.object({ type: z.literal('openReport'), runId }),
  /** Pin a turn's answer (its text and cited spans) to the corpus's notebook. */
  z.object({ type: z.literal('pinAnswer'), conversationId, turn: z.number().int().positive().max(100_000) }),
]);

/** Webview → host. */
export type ChatToHost = z.infer<typeof chatToHostSchema>;

// ---- the minimal Markdown of answers (parsed here so both sides and the tests agree) ----------

/** An inline piece of an answer: text, code, a citation number, or bold text (which may hold citations). */
export type InlinePiece = { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'cite'; number: number } | { kind: 'bold'; pieces: InlinePiece[] };

/** A block of an answer: a paragraph, a heading (shown bold), a quote (`>`), or a bullet / numbered list. */
export type AnswerBlock =
  | { kind: 'paragraph'; pieces: InlinePiece[] }
  | { kind: 'heading'; pieces: InlinePiece[] }
  | { kind: 'quote'; pieces: InlinePiece[] }
  | { kind: 'list'; ordered: boolean; items: InlinePiece[][] };

/** `[3]`, `[1, 2]`, `[1,2,5]`: citation numbers (a link `[text](url)` is not one). */
const CITE = /\[(\d{1,5}(?:\s*,\s*\d{1,5})*)\](?!\()/gu;

function citesAndText(text: string, out: InlinePiece[]): void {
  let last = 0;
  for (const m of text.matchAll(CITE)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    for (const n of m[1]!.split(',')) out.push({ kind: 'cite', number: Number(n.trim()) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
}

/** Inline Markdown: `**bold**`, `` `code` ``, `[n]` citations; everything else is text (never HTML). */
export function parseInline(text: string): InlinePiece[] {
  const out: InlinePiece[] = [];
  const re = /\*\*([^*]+?)\*\*|`([^`]+?)`/gu;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) citesAndText(text.slice(last, m.index), out);
    if (m[1] !== undefined) {
      const inner: InlinePiece[] = [];
      citesAndText(m[1], inner);
      out.push({ kind: 'bold', pieces: inner });
    } else out.push({ kind: 'code', text: m[2]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) citesAndText(text.slice(last), out);
  // adjacent text pieces joined
  return out.reduce<InlinePiece[]>((acc, p) => {
    const prev = acc[acc.length - 1];
    if (p.kind === 'text' && prev?.kind === 'text') prev.text += p.text;
    else acc.push(p.kind === 'text' ? { ...p } : p);
    return acc;
  }, []);
}

const BULLET = /^\s{0,3}[-*•]\s+(.*)$/u;
const NUMBERED = /^\s{0,3}\d{1,3}[.)]\s+(.*)$/u;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/u;
const QUOTE = /^\s{0,3}>\s?(.*)$/u;

/**
 * Splits an answer into blocks: paragraphs (blank lines between; single line
 * breaks join with a space), `#` headings, `>` quotes, and lists (`-`, `*`, `•` or `1.`).
 */
export function parseAnswer(markdown: string): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  let quote: string[] = [];
  const flushPara = (): void => {
    if (para.length) blocks.push({ kind: 'paragraph', pieces: parseInline(para.join(' ')) });
    para = [];
    if (quote.length) blocks.push({ kind: 'quote', pieces: parseInline(quote.join(' ')) });
    quote = [];
  };
  const flushList = (): void => {
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = undefined;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flushPara();
      flushList();
      continue;
    }
    const quoted = QUOTE.exec(line);
    if (quoted) {
      if (para.length) flushPara();
      flushList();
      if (quoted[1]!.trim()) quote.push(quoted[1]!.trim());
      continue;
    }
    if (quote.length) flushPara();
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (heading) {
      flushPara();
      flushList();
      blocks.push({ kind: 'heading', pieces: parseInline(heading[1]!) });
    } else if (bullet || numbered) {
      flushPara();
      const ordered = !bullet;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
    } else if (list && /^\s{2,}\S/u.test(raw)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`; // a continuation line of a list item
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return blocks;
}

/** The citation numbers an answer cites, in order of first appearance. */
export function citedNumbers(markdown: string): number[] {
  const seen: number[] = [];
  for (const m of markdown.matchAll(CITE)) for (const n of m[1]!.split(',')) if (!seen.includes(Number(n.trim()))) seen.push(Number(n.trim()));
  return seen;
}
