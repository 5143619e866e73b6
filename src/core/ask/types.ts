/**
 * The hybrid retriever's vocabulary: what a strategy is given, what it
 * returns, and the hits the retriever hands back (seed 004 "HybridRetriever").
 */
import type { Corpus, PartKind } from '../corpus/types';
import type { ItemMarkers } from '../markers/schema';
import type { CorpusIndex } from '../search/corpusIndex';
import type { SpanHit } from '../search/spanHit';
import type { EntityIndex } from './entityIndex';
import type { ParsedQuery, StrategyName } from './query';

/** A span one strategy proposes, with its own score (only the order within a strategy matters: fusion is by rank). */
export interface Candidate {
  itemId: string;
  part: PartKind;
  /** Offsets into the part's normalised text. */
  start: number;
  end: number;
  score: number;
  /** Why it was proposed, shown on demand (`--explain`): e.g. "speaker PhD C", "marker DATA", "142 likes". */
  why?: string;
}

/** Nearest chunks to a text by embedding; implemented over the persisted vector store. */
export interface VectorSearcher {
  /** Embedding model name (for the explanation line). */
  readonly model: string;
  /**
   * The `k` chunks nearest to `text` (cosine, best first), limited to `itemIds`/`part` when given.
   * The embedding call goes to the provider; everything else is local.
   */
  search(text: string, options: { k: number; itemIds?: readonly string[]; part?: PartKind; signal?: AbortSignal }): Promise<{ chunkId: number; score: number }[]>;
}

/** One numbered citation of the session's last report or answer, as stored. */
export interface CitedSpan {
  n: number;
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** Everything strategies may read. Built once per loaded corpus; cheap to pass. */
export interface AskContext {
  corpus: Corpus;
  index: CorpusIndex;
  entities: EntityIndex;
  /** Markers per item id, when generated (marker and summary strategies use them). */
  markers: ReadonlyMap<string, ItemMarkers>;
  /** Present only when an embedding model is configured. */
  vectors?: VectorSearcher;
  /** The numbered spans of the session's last report or answer (citation strategy). */
  citations?: readonly CitedSpan[];
}

/** The scope a question runs in, after understanding: the items and part to search, the time range. */
export interface AskScope {
  itemIds?: readonly string[];
  part?: PartKind;
  timeRange?: [number, number];
  speaker?: string;
  minLikes?: number;
}

/**
 * What a strategy returns: its candidates best first for the hit list, and
 * optionally another order for choosing passages within a word budget
 * (keyword search smooths scores over neighbouring windows for that).
 */
export interface StrategyOutput {
  list: Candidate[];
  passages?: Candidate[];
  /** Something the user should know (e.g. "no markers generated yet"). */
  note?: string;
}

/** One retrieval strategy: a small module with one function. */
export interface RetrievalStrategy {
  readonly name: StrategyName;
  /** Candidates best first; an empty list when the strategy has nothing to say (never throws for "no match"). */
  run(query: ParsedQuery, scope: AskScope, ctx: AskContext, signal?: AbortSignal): StrategyOutput | Promise<StrategyOutput>;
}

/** A retrieved span after fusion, de-duplication, filtering and reranking (`score`: fused, or the reranker's order). */
export interface AskHit extends SpanHit {
  /**
   * The turn (or few turns) inside the span that carry the most of the question's words, to open
   * and quote; the span itself when it is one turn or comment, or when no turn stands out.
   */
  focus: { start: number; end: number };
  /** The strategies that proposed this span (or one it was merged with). */
  matchedBy: StrategyName[];
  /** One reason per strategy, for `--explain`. */
  why: string[];
}
