/**
 * Markers from a language model: every window of every part is sent (full
 * coverage); each claim the model returns is aligned to a source span; claims
 * are merged across windows. A window rejected for context length is split
 * (0.75× its size, or to fit the limit the server states) and retried, again if
 * need be, down to MIN_WINDOW_WORDS; the smaller size carries to the rest of the
 * run through a shared ContextLimit.
 */
import type { CommentsPart, CorpusItem, TranscriptPart } from '../corpus/types';
import type { ChatMessage, StructuredRequest, StructuredResult } from '../llm/types';
import { estimateMessagesTokens, estimateTokens } from '../llm/tokens';
import { isContextLengthError } from '../llm/types';
import { throwIfAborted } from '../util/abort';
import { dedupeMarkers, evidenceFor, makeMarker } from './build';
import { WindowAligner } from './grounding';
import { spamFreeComments } from './spamFree';
import {
  commentsWindowReplySchema, transcriptWindowReplySchema,
  type CommentsSummary, type CommentsWindowReply, type Coverage, type Marker, type MarkerKind, type TranscriptSummary, type TranscriptWindowReply,
} from './schema';
import { coverageOf, MIN_WINDOW_WORDS, planWindows, renderWindow, splitWindow, type PartWindow, type WindowSettings } from './windows';

/** What the marker engine needs of a model client. */
export interface MarkerModel {
  readonly provider: 'openai' | 'ollama';
  readonly model: string;
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>>;
}

/** A loaded prompt template. */
export interface PromptTemplate {
  /** `name@N`: goes into cache keys. */
  version: string;
  render(vars: Record<string, string>): ChatMessage[];
}

export type PromptName = 'markers-transcript' | 'markers-comments' | 'condense';
export type PromptSource = (name: PromptName, lang: 'en' | 'zh') => Promise<PromptTemplate>;

export interface ModelEngineOptions {
  model: MarkerModel;
  prompts: PromptSource;
  windows: WindowSettings;
  signal?: AbortSignal;
  /** Called after each window with words read so far. */
  onWindow?: (info: { itemId: string; part: 'transcript' | 'comments'; window: number; windows: number }) => void;
  /** Language of the item, picks the prompt variant. */
  lang: 'en' | 'zh';
  /** What the run learned about the model's context (shared by its items); a part-local one when absent. */
  context?: ContextLimit;
  /** Notes on context-length retries. */
  log?: (message: string) => void;
  /** The comments the model reads: the item's comments without spam decided over the corpus (`spamFreeComments(item, corpus)`); default: decided on the item alone. */
  comments?: CommentsPart;
}

interface Claim {
  kind: MarkerKind;
  text: string;
  quote: string;
  topic: string;
  confidence: number;
  commentIds?: string[];
}

interface WindowOutcome<R> {
  window: PartWindow;
  reply: R;
}

/** What a context-length error says: the model's context and the prompt's size, when stated. */
export interface StatedContext {
  /** The model's context in the server's tokens ("maximum context length is 4096 tokens"). */
  limit?: number;
  /** The rejected prompt in the server's tokens ("your messages resulted in 5000 tokens"). */
  requested?: number;
}

const LIMIT_PATTERNS = [
  /maximum context (?:length|size|window) (?:is|of) (\d+)/i,
  /context (?:size|length|window)(?: of the model)?(?: is| of)?\s*\(?(\d+)\s*tokens?/i,
  /"?n_ctx"?\s*[:=]\s*(\d+)/i,
  /\bn_ctx_slot\s*=\s*(\d+)/i,
];
const REQUESTED_PATTERNS = [
  /resulted in (\d+) tokens/i,
  /request \((\d+) tokens\)/i,
  /"?n_prompt_tokens"?\s*[:=]\s*(\d+)/i,
  /prompt (?:is|has|of) (\d+) tokens/i,
  /(\d+) tokens? (?:exceeds?|is longer than|>)/i,
];

/** Parses the context size (and the rejected prompt's size) from a context-length error and its causes. */
export function statedContext(error: unknown): StatedContext {
  const texts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Error) texts.push(e.message);
    else if (typeof e === 'string') texts.push(e);
  }
  const find = (patterns: readonly RegExp[]): number | undefined => {
    for (const t of texts) for (const re of patterns) {
      const n = Number(re.exec(t)?.[1]);
      if (Number.isFinite(n) && n > 0) return n;
    }
    return undefined;
  };
  const limit = find(LIMIT_PATTERNS);
  const requested = find(REQUESTED_PATTERNS);
  return { ...(limit ? { limit } : {}), ...(requested && requested !== limit ? { requested } : {}) };
}

/** Share of a stated context the prompt may fill (the rest is left for the reply). */
const PROMPT_SHARE = 0.8;

/**
 * What a run learned about the model's context, shared by every item and window of the run:
 * once a window is rejected for context length, later windows start at the size that works
 * (in words, and, when the server stated its limit, in estimated prompt tokens). A window
 * larger than any that succeeded since the last rejection (by more than 10 %) goes alone, as a
 * probe, so a too-small context costs one rejection, not one per window in flight.
 */
export class ContextLimit {
  /** Ceiling of window words (lowered by rejections; none until the first). */
  maxWords = Infinity;
  /** Ceiling of a prompt's estimated tokens (see {@link estimateMessagesTokens}), when a limit was stated. */
  maxPromptTokens: number | undefined;
  /** The stated context of the server, in its tokens. */
  statedLimit: number | undefined;
  /** Context-length rejections so far. */
  rejections = 0;
  /** Largest window (words) that succeeded since the last rejection. */
  #proven = 0;
  #gate: Promise<void> | undefined;

  /** True when a call of `words` may go without waiting for a probe. */
  #free(words: number): boolean {
    return words <= this.#proven * 1.1;
  }

  /** Runs `call` for a window of `words` words, one probe at a time while the size is unproven. */
  async run<T>(words: number, call: () => Promise<T>, fits: () => boolean): Promise<T> {
    for (;;) {
      if (this.#free(words)) return this.#settle(words, call);
      if (!this.#gate) break;
      await this.#gate.catch(() => undefined);
      // The ceiling may have dropped while waiting: let the caller split again.
      if (!fits()) throw new NeedsSplit();
    }
    let release!: () => void;
    this.#gate = new Promise<void>((r) => (release = r));
    try {
      return await this.#settle(words, call);
    } finally {
      this.#gate = undefined;
      release();
    }
  }

  async #settle<T>(words: number, call: () => Promise<T>): Promise<T> {
    const r = await call();
    this.#proven = Math.max(this.#proven, words);
    return r;
  }

  /**
   * Records a rejection of a window of `words` words whose prompt was about `promptEstimate`
   * estimated tokens (`textEstimate` of them the window's text), and returns the size to retry
   * at: at most 0.75× the rejected window, smaller when the server stated its limit.
   */
  reject(error: unknown, words: number, promptEstimate: number, textEstimate: number): number {
    this.rejections++;
    this.#proven = 0;
    let next = Math.floor(words * 0.75);
    const stated = statedContext(error);
    if (stated.limit) {
      this.statedLimit = Math.min(this.statedLimit ?? Infinity, stated.limit);
      // Server tokens per estimated token, from the rejected prompt when the server gave its size.
      const ratio = stated.requested && promptEstimate > 0 ? Math.max(0.25, stated.requested / promptEstimate) : 1;
      const maxPrompt = Math.floor((stated.limit * PROMPT_SHARE) / ratio);
      this.maxPromptTokens = Math.min(this.maxPromptTokens ?? Infinity, maxPrompt);
      const room = this.maxPromptTokens - (promptEstimate - textEstimate);
      if (textEstimate > 0) next = Math.min(next, Math.floor((words * Math.max(0, room)) / textEstimate));
    }
    next = Math.max(0, next);
    this.maxWords = Math.max(MIN_WINDOW_WORDS, Math.min(this.maxWords, next));
    return next;
  }
}

/** Thrown inside {@link ContextLimit.run} when a waiting window no longer fits the lowered ceiling. */
class NeedsSplit extends Error {}

/** Sends every window of a part; a window rejected for context length is split (0.75× or to the stated limit, again and again down to {@link MIN_WINDOW_WORDS}). */
export async function readPart<R>(
  item: CorpusItem,
  part: TranscriptPart | CommentsPart,
  opts: ModelEngineOptions,
  promptName: PromptName,
  schema: StructuredRequest<R>['schema'],
  phase = 'markers',
): Promise<{ outcomes: WindowOutcome<R>[]; coverage: Coverage; promptVersion: string }> {
  const prompt = await opts.prompts(promptName, opts.lang);
  const limit = opts.context ?? new ContextLimit();
  // Once the run has learned a smaller size, windows are planned at it (a window limit cannot make them larger).
  const windows = planWindows(part, Number.isFinite(limit.maxWords) ? { ...opts.windows, windowWords: Math.min(opts.windows.windowWords, limit.maxWords), windowLimit: 0 } : opts.windows);
  let shrunk = 0;
  const processed: PartWindow[] = [];
  // The part's calls stop together: when one window fails for good, the item fails, and its other windows' calls (in
  // flight, waiting for a slot, or about to retry) are aborted and awaited — none is sent after the item is reported failed.
  const part$ = new AbortController();
  const onRunAbort = (): void => part$.abort();
  if (opts.signal?.aborted) part$.abort();
  else opts.signal?.addEventListener('abort', onRunAbort, { once: true });
  const signal = part$.signal;
  const label = (w: PartWindow, i: number, n: number, sub?: string): string =>
    `window ${i + 1} of ${n}${sub ? ` (${sub})` : ''}, words ${w.startWord}–${w.endWord} of ${part.wordCount}`;
  const render = (w: PartWindow, lbl: string): ChatMessage[] => prompt.render({ title: item.title, window_label: lbl, text: renderWindow(part, w) });
  const textTokens = (w: PartWindow): number => estimateTokens(renderWindow(part, w));
  /** The size `w` must be split to before it is sent, or undefined when it fits what the run has learned. */
  const fitSize = (w: PartWindow, messages: readonly ChatMessage[]): number | undefined => {
    let size = w.words > limit.maxWords ? limit.maxWords : undefined;
    if (limit.maxPromptTokens !== undefined) {
      const total = estimateMessagesTokens(messages);
      if (total > limit.maxPromptTokens) {
        const text = textTokens(w);
        const room = limit.maxPromptTokens - (total - text);
        const byTokens = text > 0 ? Math.floor((w.words * Math.max(0, room)) / text) : w.words;
        size = Math.min(size ?? Infinity, byTokens, w.words - 1);
      }
    }
    return size;
  };
  const read = async (w: PartWindow, i: number, n: number, sub?: string): Promise<WindowOutcome<R>[]> => {
    throwIfAborted(signal);
    const messages = render(w, label(w, i, n, sub));
    /** Reads `w` as consecutive windows of at most `size` words (each checked and retried in turn). */
    const split = (size: number, error?: unknown): Promise<WindowOutcome<R>[]> => {
      const parts = size < w.words ? splitWindow(w, size, part) : [w];
      if (parts.length < 2) {
        if (error) throw error;
        return readOne();
      }
      return serial(parts.map((s, k) => () => read(s, i, n, `${sub ? `${sub}, ` : ''}part ${k + 1} of ${parts.length}`)));
    };
    /** Sends `w` as it is, or split first when it exceeds what the run has learned. */
    const go = (): Promise<WindowOutcome<R>[]> => {
      const size = fitSize(w, messages);
      return size !== undefined && size < w.words ? split(Math.max(size, Math.floor(MIN_WINDOW_WORDS / 2))) : readOne();
    };
    const readOne = async (): Promise<WindowOutcome<R>[]> => {
      try {
        const r = await limit.run(
          w.words,
          () => opts.model.complete({ messages, schema, schemaName: promptName.replace('-', '_'), phase, step: item.id, signal }),
          () => fitSize(w, messages) === undefined,
        );
        processed.push(w);
        return [{ window: w, reply: r.value }];
      } catch (e) {
        if (e instanceof NeedsSplit) return go();
        if (!isContextLengthError(e)) throw e;
        shrunk++;
        const next = limit.reject(e, w.words, estimateMessagesTokens(messages), textTokens(w));
        // A window at the floor is not split further: the item fails with the model's error.
        if (w.words <= MIN_WINDOW_WORDS) throw e;
        const size = Math.max(next, Math.min(MIN_WINDOW_WORDS, Math.floor(w.words * 0.75)), 1);
        opts.log?.(`markers: ${item.id} ${part.kind}: a window of ${w.words} words was rejected for context length${limit.statedLimit ? ` (the model's context is ${limit.statedLimit} tokens)` : ''}; retrying it as windows of at most ${size} words`);
        return split(size, e);
      }
    };
    return go();
  };
  let failure: { error: unknown } | undefined;
  const settled = await Promise.allSettled(
    windows.map(async (w, i): Promise<WindowOutcome<R>[]> => {
      try {
        const out = await read(w, i, windows.length);
        opts.onWindow?.({ itemId: item.id, part: part.kind, window: i, windows: windows.length });
        return out;
      } catch (e) {
        // The first failure of the part (not a call aborted because of it, nor the run's cancellation) stops the others.
        if (!failure && !signal.aborted) {
          failure = { error: e };
          part$.abort();
        }
        throw e;
      }
    }),
  );
  opts.signal?.removeEventListener('abort', onRunAbort);
  throwIfAborted(opts.signal);
  if (failure) throw failure.error;
  const results = settled.map((r) => (r.status === 'fulfilled' ? r.value : []));
  processed.sort((a, b) => a.startWord - b.startWord);
  return { outcomes: results.flat(), coverage: coverageOf(processed, part.wordCount, shrunk), promptVersion: prompt.version };
}

/** Runs the thunks one after another, concatenating their outcomes. */
async function serial<T>(thunks: readonly (() => Promise<T[]>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const t of thunks) out.push(...(await t()));
  return out;
}

/** One aligner per window: its sentences are tokenised once for all of its claims. */
const aligners = new WeakMap<PartWindow, WindowAligner>();

/** The aligner of a window (one per window, reused by all its claims). */
export function alignerFor(part: TranscriptPart | CommentsPart, window: PartWindow): WindowAligner {
  let aligner = aligners.get(window);
  if (!aligner) aligners.set(window, (aligner = new WindowAligner(part, window.start, window.end)));
  return aligner;
}

function ground(item: CorpusItem, part: TranscriptPart | CommentsPart, window: PartWindow, c: Claim): Marker {
  const partKind = part.kind;
  const aligner = alignerFor(part, window);
  const evidence = [];
  if (c.commentIds?.length && part.kind === 'comments') {
    for (const id of c.commentIds) {
      const rec = part.comments.find((x) => x.id === id || `c${x.id}` === id || x.id === id.replace(/^c/, ''));
      const ev = rec && rec.text.trim() ? evidenceFor(item, 'comments', rec.offset, rec.offset + rec.text.length, 'exact') : undefined;
      if (ev) evidence.push(ev);
    }
  }
  if (!evidence.length) {
    const a = aligner.align(c.quote, c.text);
    const ev = a ? evidenceFor(item, partKind, a.start, a.end, a.match) : undefined;
    if (ev) evidence.push(ev);
  }
  return makeMarker(item.id, c.kind, c.text.trim(), c.topic.trim(), c.confidence, evidence);
}

function rankTopics(lists: readonly string[][], k: number): string[] {
  const count = new Map<string, number>();
  for (const l of lists) for (const t of l) {
    const key = t.trim();
    if (key) count.set(key, (count.get(key) ?? 0) + 1);
  }
  return [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k).map(([t]) => t);
}

export interface ModelItemResult {
  transcript_summary: TranscriptSummary | null;
  comments_summary: CommentsSummary | null;
  coverage: { transcript: Coverage | null; comments: Coverage | null };
  promptVersions: string[];
}

/** Markers of one item from the model. Throws (LlmError, CancelledError) when a window cannot be read. */
export async function modelMarkersForItem(item: CorpusItem, opts: ModelEngineOptions): Promise<ModelItemResult> {
  const versions: string[] = [];
  let transcript: TranscriptSummary | null = null;
  let tCov: Coverage | null = null;
  if (item.transcript && item.transcript.wordCount > 0) {
    const { outcomes, coverage, promptVersion } = await readPart<TranscriptWindowReply>(item, item.transcript, opts, 'markers-transcript', transcriptWindowReplySchema);
    versions.push(promptVersion);
    tCov = coverage;
    const g = (kind: MarkerKind, pick: (r: TranscriptWindowReply) => TranscriptWindowReply['facts']): Marker[] =>
      dedupeMarkers(outcomes.flatMap((o) => pick(o.reply).map((c) => ground(item, item.transcript!, o.window, { ...c, kind }))));
    transcript = {
      key_facts: g('FACT', (r) => r.facts),
      key_opinions: g('OPINION', (r) => r.opinions),
      key_datapoints: g('DATA', (r) => r.datapoints),
      topic_areas: rankTopics(outcomes.map((o) => o.reply.topics), 8),
      word_count: item.transcript.wordCount,
      total_markers: 0,
    };
    transcript.total_markers = transcript.key_facts.length + transcript.key_opinions.length + transcript.key_datapoints.length;
  }
  let comments: CommentsSummary | null = null;
  let cCov: Coverage | null = null;
  // Spam is never sent: the model reads the comments without it (blanked, offsets unchanged), and its claims ground in them only.
  const cp = item.comments && (opts.comments ?? spamFreeComments(item));
  if (item.comments && cp && item.comments.wordCount > 0) {
    const kept = new Set(cp.comments);
    const spamIds = item.comments.comments.filter((c) => !kept.has(c) && c.text.trim()).map((c) => c.id);
    const { outcomes, coverage, promptVersion } = await readPart<CommentsWindowReply>(item, cp, opts, 'markers-comments', commentsWindowReplySchema);
    versions.push(promptVersion);
    cCov = coverage;
    const g = (kind: MarkerKind, pick: (r: CommentsWindowReply) => CommentsWindowReply['facts']): Marker[] =>
      dedupeMarkers(outcomes.flatMap((o) => pick(o.reply).map((c) => ground(item, cp, o.window, { ...c, kind }))));
    const engagement = dedupeMarkers(
      outcomes.flatMap((o) =>
        o.reply.engagement.map((c) => {
          const m = ground(item, cp, o.window, { ...c, kind: 'ENGAGEMENT', commentIds: c.comment_ids });
          const ids = new Set(m.evidence.flatMap((e) => e.source.commentIds ?? []));
          const recs = item.comments!.comments.filter((x) => ids.has(x.id));
          return { ...m, likes: recs.reduce((a, r) => a + (r.likes ?? 0), 0), replies: item.comments!.comments.filter((x) => x.parentId && ids.has(x.parentId)).length };
        }),
      ),
    );
    // Sentiment: the windows' verdicts weighted by their words.
    const votes = new Map<string, number>();
    for (const o of outcomes) votes.set(o.reply.sentiment, (votes.get(o.reply.sentiment) ?? 0) + o.window.words);
    const sentiment = ([...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'mixed') as CommentsSummary['sentiment_overview'];
    comments = {
      key_facts_from_comments: g('FACT', (r) => r.facts),
      key_opinions_from_comments: g('OPINION', (r) => r.opinions),
      key_datapoints_from_comments: g('DATA', (r) => r.datapoints),
      major_themes: rankTopics(outcomes.map((o) => o.reply.themes), 6),
      sentiment_overview: sentiment,
      top_engagement_markers: engagement,
      total_comments: item.comments.comments.length,
      total_markers: 0,
      spam: { count: spamIds.length, comment_ids: spamIds },
    };
    comments.total_markers = comments.key_facts_from_comments.length + comments.key_opinions_from_comments.length + comments.key_datapoints_from_comments.length + comments.top_engagement_markers.length;
  }
  return { transcript_summary: transcript, comments_summary: comments, coverage: { transcript: tCov, comments: cCov }, promptVersions: versions };
}
