/**
 * Operation counts of the extractive engine's inner loops — sentence pairs compared, postings
 * visited, list elements written — so a test can check how the work grows with an item's size
 * without reading a clock (issue 19: every per-item algorithm near-linear, with a hard bound).
 * Counting is off unless {@link measureWork} is running: then each count costs one branch.
 *
 * @example
 * const { work } = measureWork(() => lexRank(sentences, idf));
 * work.centrality // similarity terms computed
 */

/** What is counted: one name per loop that could grow faster than the item. */
export type WorkKind =
  /** Sentence pairs whose similarity got a term (LexRank). */
  | 'centrality'
  /** Picked sentences a candidate was compared with (near-duplicate check of the transcript pass). */
  | 'clash'
  /** Markers a marker was compared with (de-duplication). */
  | 'dedupe'
  /** Steps of the topic-shift search (valley depth, boundary spacing). */
  | 'sections'
  /** List elements written or scanned while grouping comments into themes. */
  | 'themes';

export type WorkCounts = Record<WorkKind, number>;

let active: WorkCounts | undefined;

const zero = (): WorkCounts => ({ centrality: 0, clash: 0, dedupe: 0, sections: 0, themes: 0 });

/** Adds `n` operations of `kind` to the running measurement (nothing when none runs). */
export function countWork(kind: WorkKind, n = 1): void {
  if (active) active[kind] += n;
}

/** Runs `fn` and returns what it returned with the operations it counted (a nested measurement counts in its own only). */
export function measureWork<T>(fn: () => T): { result: T; work: WorkCounts } {
  const outer = active;
  const work = zero();
  active = work;
  try {
    return { result: fn(), work };
  } finally {
    active = outer;
  }
}
