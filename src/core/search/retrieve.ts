/**
 * Retrieval that serves research: BM25 hits re-ranked with their neighbours
 * (answers in meetings are long contiguous spans), then chosen within a word
 * budget and merged into contiguous spans.
 */
import { mapSpan, type SpanSource } from '../corpus/spans';
import type { PartKind } from '../corpus/types';
import type { Chunk } from './chunker';
import type { CorpusIndex, SearchFilters, SearchHit } from './corpusIndex';
import { tokenize, tokenizeQuery } from './tokenize';

export interface RetrieveOptions extends SearchFilters {
  /** Total words of the returned spans (default 2000). */
  budgetWords?: number;
  /** Weight of a neighbour's score in a chunk's score (0 = plain BM25). */
  neighbourWeight?: number;
  /** How many chunks on each side count as neighbours. */
  neighbourRadius?: number;
  /** Pseudo-relevance feedback: expand the query with terms of the best chunks (0 docs = off). */
  feedbackDocs?: number;
  feedbackTerms?: number;
  feedbackWeight?: number;
  /**
   * Feedback runs a second, wider search over the whole index (filters apply
   * after scoring); above this many windows in the index it is skipped to keep
   * queries fast.
   */
  feedbackMaxWindows?: number;
}

/** Defaults tuned on the QMSum and VCSum dev sets (see bench/). */
export const DEFAULT_RETRIEVE = { budgetWords: 2000, neighbourWeight: 1, neighbourRadius: 5, feedbackDocs: 3, feedbackTerms: 20, feedbackWeight: 0.5, feedbackMaxWindows: 20_000 };

/**
 * In a large index a query term found in more than this share of all windows
 * (and more than {@link MIN_PRUNED_DF}) is dropped when other terms remain:
 * it costs a long posting list and says little. Small corpora keep every term.
 */
export const MAX_QUERY_TERM_SHARE = 0.05;
export const MIN_PRUNED_DF = 5000;

/** The query's terms, weight 1 each, without the very common ones. */
export function queryWeights(index: CorpusIndex, query: string): Map<string, number> {
  const terms = tokenizeQuery(query);
  const limit = Math.max(MIN_PRUNED_DF, index.documentCount * MAX_QUERY_TERM_SHARE);
  // A speaker's name or a title word can match as many windows as a common word (every turn of "Host"): counted too.
  const kept = terms.filter((t) => index.matchFrequency(t) <= limit);
  return new Map((kept.length ? kept : terms).map((t) => [t, 1]));
}

/**
 * Scores chunks for `query`; with feedback on, a second pass adds the terms
 * that best characterise the first pass's top chunks (RM3-style expansion).
 * With `limit`, the first `limit` hits of that list (the same ones, found
 * without sorting every match).
 */
export function scoreChunks(index: CorpusIndex, query: string, options: RetrieveOptions = {}, limit = Number.POSITIVE_INFINITY): SearchHit[] {
  const fbDocs = options.feedbackDocs ?? DEFAULT_RETRIEVE.feedbackDocs;
  // Feedback reads the first pass's best `fbDocs` hits.
  const first = index.searchWeighted(queryWeights(index, query), options, Math.max(limit, fbDocs));
  if (fbDocs <= 0 || first.length === 0) return first.slice(0, limit);
  // The second search scores the whole index (filters apply after scoring), so its cost follows the index, not the scope.
  if (index.documentCount > (options.feedbackMaxWindows ?? DEFAULT_RETRIEVE.feedbackMaxWindows)) return first.slice(0, limit);
  const weights = queryWeights(index, query);
  const tf = new Map<string, number>();
  for (const h of first.slice(0, fbDocs)) {
    // The text the index kept: an item whose parsed parts are not held is not parsed again for it.
    const text = index.chunkTextOf(h.id);
    if (text === undefined) continue;
    const toks = tokenize(text);
    const norm = h.score / first[0]!.score;
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + norm / toks.length);
  }
  const n = index.documentCount;
  // Terms in more than 5 % of windows are cheap to skip: long posting lists, little information.
  const maxDf = Math.max(10, n * 0.05);
  const candidates = [...tf].filter(([t]) => !weights.has(t)).sort((a, b) => b[1] - a[1]).slice(0, 40);
  const scored = candidates
    .map(([t, f]): [string, number, number] => [t, f, index.documentFrequency(t)])
    .filter(([, , df]) => df <= maxDf)
    .map(([t, f, df]): [string, number] => [t, f * Math.log(1 + n / (1 + df))]);
  scored.sort((a, b) => b[1] - a[1]);
  const top = scored.slice(0, options.feedbackTerms ?? DEFAULT_RETRIEVE.feedbackTerms);
  const max = top[0]?.[1] ?? 1;
  const weight = options.feedbackWeight ?? DEFAULT_RETRIEVE.feedbackWeight;
  for (const [t, w] of top) weights.set(t, weight * (w / max));
  return index.searchWeighted(weights, options, limit);
}

export interface RankedChunk {
  id: number;
  chunk: Chunk;
  /** BM25 score of the chunk itself. */
  bm25: number;
  /** Score after adding neighbours' evidence: what passages are chosen by. */
  score: number;
  /** Score for the result list: mostly the chunk's own, a little of its direct neighbours'. */
  listScore: number;
}

/** Hits (best first) that neighbour smoothing considers. */
const SMOOTHING_CANDIDATES = 400;

/** Weight of the direct neighbours in a chunk's place in the result list. */
const LIST_NEIGHBOUR_WEIGHT = 0.25;

export interface RetrievedSpan {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
  firstIndex: number;
  lastIndex: number;
  words: number;
  /** Best chunk score inside the span. */
  score: number;
  chunkIds: number[];
  source?: SpanSource;
}

export interface RetrieveResult {
  /** Chunks best first, the first ones from different passages. */
  ranked: RankedChunk[];
  spans: RetrievedSpan[];
  /** Words of the chosen spans. */
  words: number;
}

/** Ranks chunks for `query`, adding neighbour evidence within the same item and part. */
export function rankChunks(index: CorpusIndex, query: string, options: RetrieveOptions = {}): RankedChunk[] {
  const weight = options.neighbourWeight ?? DEFAULT_RETRIEVE.neighbourWeight;
  const radius = options.neighbourRadius ?? DEFAULT_RETRIEVE.neighbourRadius;
  // Only the best hits take part in smoothing: further down the list neighbours cannot lift a window into the budget.
  const hits = scoreChunks(index, query, options, SMOOTHING_CANDIDATES);
  const bm25 = new Map<number, number>(hits.map((h) => [h.id, h.score]));
  const candidates = new Map<number, Chunk>();
  for (const h of hits) {
    candidates.set(h.id, h.chunk);
    if (weight > 0 && h.chunk.part === 'transcript') {
      const ids = index.itemChunkIds(h.chunk.itemId);
      for (let d = -radius; d <= radius; d++) {
        const nid = ids[h.chunk.seq + d];
        const n = nid === undefined ? undefined : index.chunk(nid);
        if (n && n.part === 'transcript' && !candidates.has(nid!)) candidates.set(nid!, n);
      }
    }
  }
  const ranked: RankedChunk[] = [];
  for (const [id, chunk] of candidates) {
    const own = bm25.get(id) ?? 0;
    let score = own;
    let listScore = own;
    if (chunk.part === 'transcript') {
      // Transcript windows come first among an item's chunk ids, in order: ids[seq] is this chunk.
      const ids = index.itemChunkIds(chunk.itemId);
      const seq = chunk.seq;
      for (let d = 1; d <= radius; d++) score += (weight / d) * (scoreAt(bm25, ids, seq - d) + scoreAt(bm25, ids, seq + d));
      listScore += LIST_NEIGHBOUR_WEIGHT * (scoreAt(bm25, ids, seq - 1) + scoreAt(bm25, ids, seq + 1));
    }
    ranked.push({ id, chunk, bm25: own, score, listScore });
  }
  ranked.sort((a, b) => b.score - a.score || a.id - b.id);
  return ranked;
}

/** The BM25 score of the chunk at position `seq` of `ids` (0 when none or not a hit). A function, not a closure per chunk: rankChunks runs it for thousands of chunks a query. */
function scoreAt(bm25: ReadonlyMap<number, number>, ids: readonly number[], seq: number): number {
  return bm25.get(ids[seq] ?? -1) ?? 0;
}

/**
 * Orders chunks so that the first ones come from different places: a chunk
 * within `radius` of an already listed one waits for a second pass. Scores
 * smoothed over neighbours make adjacent chunks near-equal; listing them
 * one after another would spend the top of the list on a single passage.
 */
export function diversify(ranked: RankedChunk[], radius: number): RankedChunk[] {
  if (radius <= 0) return ranked;
  // Per item and part, the blocked positions.
  const blocked = new Map<string, Set<number>>();
  const first: RankedChunk[] = [];
  const rest: RankedChunk[] = [];
  for (const r of ranked) {
    const key = `${r.chunk.itemId}\u0000${r.chunk.part}`;
    let seqs = blocked.get(key);
    if (seqs?.has(r.chunk.seq)) {
      rest.push(r);
      continue;
    }
    first.push(r);
    if (!seqs) blocked.set(key, (seqs = new Set()));
    for (let d = -radius; d <= radius; d++) seqs.add(r.chunk.seq + d);
  }
  return first.concat(rest);
}

/**
 * Chooses the best chunks within `budgetWords` and merges neighbours into spans,
 * each mapped back to its original file when the index knows the item.
 */
export function retrieve(index: CorpusIndex, query: string, options: RetrieveOptions = {}): RetrieveResult {
  const budget = options.budgetWords ?? DEFAULT_RETRIEVE.budgetWords;
  const scored = rankChunks(index, query, options);
  const ranked = diversify([...scored].sort((a, b) => b.listScore - a.listScore || a.id - b.id), 1);
  const chosen: RankedChunk[] = [];
  let words = 0;
  for (const r of scored) {
    if (words + r.chunk.words > budget) continue;
    chosen.push(r);
    words += r.chunk.words;
    if (words >= budget) break;
  }
  return { ranked, spans: mergeSpans(index, chosen), words };
}

function mergeSpans(index: CorpusIndex, chosen: RankedChunk[]): RetrievedSpan[] {
  const sorted = [...chosen].sort((a, b) => (a.chunk.itemId < b.chunk.itemId ? -1 : a.chunk.itemId > b.chunk.itemId ? 1 : 0) || (a.chunk.part < b.chunk.part ? -1 : a.chunk.part > b.chunk.part ? 1 : 0) || a.chunk.seq - b.chunk.seq);
  const spans: RetrievedSpan[] = [];
  let prev: RankedChunk | undefined;
  for (const r of sorted) {
    const c = r.chunk;
    const last = spans[spans.length - 1];
    if (last && prev && prev.chunk.itemId === c.itemId && prev.chunk.part === c.part && c.part === 'transcript' && c.seq === prev.chunk.seq + 1) {
      last.end = c.end;
      last.lastIndex = c.lastIndex;
      last.words += c.words;
      last.score = Math.max(last.score, r.score);
      last.chunkIds.push(r.id);
    } else {
      spans.push({ itemId: c.itemId, part: c.part, start: c.start, end: c.end, firstIndex: c.firstIndex, lastIndex: c.lastIndex, words: c.words, score: r.score, chunkIds: [r.id] });
    }
    prev = r;
  }
  for (const s of spans) {
    const item = index.item(s.itemId);
    if (item) s.source = mapSpan(item, { part: s.part, start: s.start, end: s.end });
  }
  spans.sort((a, b) => b.score - a.score);
  return spans;
}
