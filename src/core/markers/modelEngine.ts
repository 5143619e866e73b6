/**
 * Markers from a language model: every window of every part is sent (full
 * coverage); each claim the model returns is aligned to a source span; claims
 * are merged across windows. A window rejected for context length is retried
 * once as windows of 0.75× its size.
 */
import type { CommentsPart, CorpusItem, TranscriptPart } from '../corpus/types';
import type { ChatMessage, StructuredRequest, StructuredResult } from '../llm/types';
import { isContextLengthError } from '../llm/types';
import { throwIfAborted } from '../util/abort';
import { dedupeMarkers, evidenceFor, makeMarker } from './build';
import { WindowAligner } from './grounding';
import {
  commentsWindowReplySchema, transcriptWindowReplySchema,
  type CommentsSummary, type CommentsWindowReply, type Coverage, type Marker, type MarkerKind, type TranscriptSummary, type TranscriptWindowReply,
} from './schema';
import { coverageOf, planWindows, renderWindow, shrinkWindow, type PartWindow, type WindowSettings } from './windows';

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

/** Sends every window of a part, shrinking a window once on a context-length rejection. */
export async function readPart<R>(
  item: CorpusItem,
  part: TranscriptPart | CommentsPart,
  opts: ModelEngineOptions,
  promptName: PromptName,
  schema: StructuredRequest<R>['schema'],
  phase = 'markers',
): Promise<{ outcomes: WindowOutcome<R>[]; coverage: Coverage; promptVersion: string }> {
  const prompt = await opts.prompts(promptName, opts.lang);
  const windows = planWindows(part, opts.windows);
  let shrunk = 0;
  const processed: PartWindow[] = [];
  const call = (w: PartWindow, label: string): Promise<StructuredResult<R>> =>
    opts.model.complete({
      messages: prompt.render({ title: item.title, window_label: label, text: renderWindow(part, w) }),
      schema,
      schemaName: promptName.replace('-', '_'),
      phase,
      step: item.id,
      signal: opts.signal,
    });
  const label = (w: PartWindow, i: number, n: number): string => `window ${i + 1} of ${n}, words ${w.startWord}–${w.endWord} of ${part.wordCount}`;
  const results = await Promise.all(
    windows.map(async (w, i): Promise<WindowOutcome<R>[]> => {
      throwIfAborted(opts.signal);
      try {
        const r = await call(w, label(w, i, windows.length));
        processed.push(w);
        opts.onWindow?.({ itemId: item.id, part: part.kind, window: i, windows: windows.length });
        return [{ window: w, reply: r.value }];
      } catch (e) {
        if (!isContextLengthError(e)) throw e;
        shrunk++;
        const smaller = shrinkWindow(w, 0.75);
        const out: WindowOutcome<R>[] = [];
        for (const [k, s] of smaller.entries()) {
          const r = await call(s, `${label(s, i, windows.length)} (part ${k + 1} of ${smaller.length})`);
          processed.push(s);
          out.push({ window: s, reply: r.value });
        }
        opts.onWindow?.({ itemId: item.id, part: part.kind, window: i, windows: windows.length });
        return out;
      }
    }),
  );
  return { outcomes: results.flat(), coverage: coverageOf(processed, part.wordCount, shrunk), promptVersion: prompt.version };
}

/** One aligner per window: its sentences are tokenised once for all of its claims. */
const aligners = new WeakMap<PartWindow, WindowAligner>();

/** The aligner of a window (one per window, reused by all its claims). */
export function alignerFor(part: TranscriptPart | CommentsPart, window: PartWindow): WindowAligner {
  let aligner = aligners.get(window);
  if (!aligner) aligners.set(window, (aligner = new WindowAligner(part, window.start, window.end)));
  return aligner;
}

function ground(item: CorpusItem, partKind: 'transcript' | 'comments', window: PartWindow, c: Claim): Marker {
  const part = partKind === 'transcript' ? item.transcript! : item.comments!;
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
      dedupeMarkers(outcomes.flatMap((o) => pick(o.reply).map((c) => ground(item, 'transcript', o.window, { ...c, kind }))));
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
  if (item.comments && item.comments.wordCount > 0) {
    const { outcomes, coverage, promptVersion } = await readPart<CommentsWindowReply>(item, item.comments, opts, 'markers-comments', commentsWindowReplySchema);
    versions.push(promptVersion);
    cCov = coverage;
    const g = (kind: MarkerKind, pick: (r: CommentsWindowReply) => CommentsWindowReply['facts']): Marker[] =>
      dedupeMarkers(outcomes.flatMap((o) => pick(o.reply).map((c) => ground(item, 'comments', o.window, { ...c, kind }))));
    const engagement = dedupeMarkers(
      outcomes.flatMap((o) =>
        o.reply.engagement.map((c) => {
          const m = ground(item, 'comments', o.window, { ...c, kind: 'ENGAGEMENT', commentIds: c.comment_ids });
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
    };
    comments.total_markers = comments.key_facts_from_comments.length + comments.key_opinions_from_comments.length + comments.key_datapoints_from_comments.length + comments.top_engagement_markers.length;
  }
  return { transcript_summary: transcript, comments_summary: comments, coverage: { transcript: tCov, comments: cCov }, promptVersions: versions };
}
