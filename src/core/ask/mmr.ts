/**
 * Maximal marginal relevance (Carbonell & Goldstein, 1998): choose items one at a time, each the
 * best trade between its relevance and its similarity to what is already chosen, so that a
 * selection says several things instead of one thing several times. Similarity is the cosine of
 * token-count vectors.
 */

/** The usual trade: relevance weighs 0.7, novelty 0.3. */
export const MMR_LAMBDA = 0.7;

/** Token counts of a text. */
export type TermVector = ReadonlyMap<string, number>;

/** The token-count vector of `tokens`. */
export function termVector(tokens: readonly string[]): Map<string, number> {
  const v = new Map<string, number>();
  for (const t of tokens) v.set(t, (v.get(t) ?? 0) + 1);
  return v;
}

/** The Euclidean norm of a token-count vector. */
export function norm(v: TermVector): number {
  let s = 0;
  v.forEach((x) => (s += x * x));
  return Math.sqrt(s);
}

/** The dot product of two token-count vectors. */
function dot(a: TermVector, b: TermVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let d = 0;
  small.forEach((x, t) => {
    const y = large.get(t);
    if (y) d += x * y;
  });
  return d;
}

/**
 * Cosine similarity of two token-count vectors, 0 when either is empty.
 *
 * @example cosine(termVector(['price', 'euro']), termVector(['price', 'euro'])) // 1
 */
export function cosine(a: TermVector, b: TermVector): number {
  const na = norm(a);
  const nb = norm(b);
  return na && nb ? dot(a, b) / (na * nb) : 0;
}

export interface MmrOptions<T> {
  /** Relevance's weight against novelty (default {@link MMR_LAMBDA}). */
  lambda?: number;
  /** Most items chosen. */
  max: number;
  /** Relevance, any non-negative scale (normalised by the largest). */
  relevance: (c: T) => number;
  vector: (c: T) => TermVector;
  /** Similarity to a chosen item at or above which a candidate is a repeat and never chosen (default 1: none). */
  repeat?: number;
  /** Whether a candidate can still be chosen (false: dropped for good, e.g. it no longer fits a budget that only shrinks); asked of every candidate at each step, so it must be cheap. */
  fits?: (c: T) => boolean;
  /** Candidates it holds are chosen first at this step; when none remains, the others (a preference, never a dead end). */
  prefer?: (c: T, chosen: readonly T[]) => boolean;
  /** Whether the best candidate may be chosen now (false: it is passed over for good, e.g. it does not fit a budget or says nothing). */
  accept?: (c: T, chosen: readonly T[]) => boolean;
  /** Whether the selection is complete before the best candidate (e.g. enough chosen and it is much less relevant). */
  enough?: (c: T, chosen: readonly T[], relevance: number) => boolean;
}

/**
 * Chooses up to `max` of `candidates` by maximal marginal relevance: each step takes the
 * candidate with the highest `λ · relevance / best relevance − (1 − λ) · max similarity to the
 * chosen`. Linear in the candidates per step.
 *
 * @example
 * mmrSelect(sentences, { max: 4, relevance: (s) => s.score, vector: (s) => s.vector, repeat: 0.8 })
 */
export function mmrSelect<T>(candidates: readonly T[], o: MmrOptions<T>): T[] {
  const lambda = o.lambda ?? MMR_LAMBDA;
  const repeat = o.repeat ?? 1;
  const pool = candidates.map((c) => {
    const v = o.vector(c);
    return { c, rel: Math.max(0, o.relevance(c)), v, n: norm(v), sim: 0 };
  });
  const top = pool.reduce((m, p) => Math.max(m, p.rel), 0) || 1;
  const chosen: T[] = [];
  while (chosen.length < o.max && pool.length) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    let preferred = false;
    for (let i = 0; i < pool.length; i++) {
      const p = pool[i]!;
      if (o.fits && !o.fits(p.c)) {
        // Dropped: the last one takes its place (order does not matter; ties go to the earlier candidate only among those kept).
        pool[i] = pool[pool.length - 1]!;
        pool.pop();
        i--;
        continue;
      }
      const pref = !o.prefer || o.prefer(p.c, chosen);
      if (preferred && !pref) continue;
      const s = lambda * (p.rel / top) - (1 - lambda) * p.sim;
      if ((pref && !preferred) || s > bestScore) {
        bestScore = s;
        best = i;
        preferred = pref;
      }
    }
    if (best < 0) break;
    const p = pool[best]!;
    if (o.enough?.(p.c, chosen, p.rel / top)) break;
    pool.splice(best, 1);
    if (p.sim >= repeat || (o.accept && !o.accept(p.c, chosen))) continue;
    chosen.push(p.c);
    for (const q of pool) if (q.n && p.n) q.sim = Math.max(q.sim, dot(q.v, p.v) / (q.n * p.n));
  }
  return chosen;
}
