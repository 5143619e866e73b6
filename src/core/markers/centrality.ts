/**
 * LexRank centrality (Erkan & Radev 2004, continuous variant) of the sentences of one section:
 * sentences are tf·idf vectors, linked by their cosine similarity; a sentence is central when
 * many sentences that are central themselves resemble it. Used by the extractive engine to pick
 * the sentences that say what a section is about.
 *
 * The work has a hard bound per sentence: a sentence is compared only with the sentences at most
 * {@link NEIGHBOURHOOD} places away (in a section of that many sentences or fewer — every section
 * of the dev corpora — that is all of them), so a section of a million one-word sentences costs a
 * million times a constant, not a million squared.
 */

import { countWork } from './workMeter';

export interface CentralityOptions {
  /** Damping of the random walk (default 0.85). */
  damping?: number;
  /** Power-iteration rounds at most (default 30). */
  iterations?: number;
  /** Links weaker than this cosine are dropped (default 0.05). */
  threshold?: number;
  /** A sentence is compared with the sentences at most this many places before and after it (default {@link NEIGHBOURHOOD}). */
  neighbourhood?: number;
}

/** Sentences compared on either side of a sentence: more than a section of 1,000 words holds (the longest of the dev corpora has 386). */
export const NEIGHBOURHOOD = 512;

/** Sparse tf·idf vector of a sentence's terms, unit length. */
function vector(terms: readonly string[], idf: (t: string) => number): Map<string, number> {
  const v = new Map<string, number>();
  for (const t of terms) v.set(t, (v.get(t) ?? 0) + 1);
  let norm = 0;
  for (const [t, tf] of v) {
    const w = tf * idf(t);
    v.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

/**
 * LexRank scores of `sentences` (each a list of terms), summing to 1; equal scores when nothing
 * links. `idf` weighs a term (e.g. its inverse document frequency over the item's sentences).
 */
export function lexRank(sentences: readonly (readonly string[])[], idf: (t: string) => number, opts: CentralityOptions = {}): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  const d = opts.damping ?? 0.85;
  const threshold = opts.threshold ?? 0.05;
  const reach = Math.max(1, Math.floor(opts.neighbourhood ?? NEIGHBOURHOOD));
  const vecs = sentences.map((s) => vector(s, idf));
  // Inverted index: sentences per term, so only sentences sharing a term are compared; `at[i]`
  // holds, for each term of sentence i (in its vector's order), where i sits in the term's list.
  const byTerm = new Map<string, number[]>();
  const at: number[][] = vecs.map((v, i) => {
    const places: number[] = [];
    for (const t of v.keys()) {
      const list = byTerm.get(t);
      if (list) {
        places.push(list.length);
        list.push(i);
      } else {
        places.push(0);
        byTerm.set(t, [i]);
      }
    }
    return places;
  });
  const links: Map<number, number>[] = vecs.map(() => new Map());
  vecs.forEach((v, i) => {
    const dots = new Map<number, number>();
    let k = 0;
    let work = 0;
    for (const [t, w] of v) {
      // The sentences after i that share t, up to `reach` places away (the lists are in sentence order).
      const list = byTerm.get(t)!;
      for (let x = at[i]![k]! + 1; x < list.length; x++) {
        const j = list[x]!;
        if (j - i > reach) break;
        dots.set(j, (dots.get(j) ?? 0) + w * vecs[j]!.get(t)!);
        work++;
      }
      k++;
    }
    countWork('centrality', work);
    for (const [j, sim] of dots) {
      if (sim < threshold) continue;
      links[i]!.set(j, sim);
      links[j]!.set(i, sim);
    }
  });
  const outSum = links.map((l) => {
    let sum = 0;
    for (const w of l.values()) sum += w;
    return sum;
  });
  let p = new Float64Array(n).fill(1 / n);
  for (let it = 0; it < (opts.iterations ?? 30); it++) {
    const next = new Float64Array(n).fill((1 - d) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (outSum[i] === 0) {
        dangling += p[i]!;
        continue;
      }
      for (const [j, w] of links[i]!) next[j]! += (d * p[i]! * w) / outSum[i]!;
    }
    // A sentence linked to nothing spreads its score evenly.
    for (let j = 0; j < n; j++) next[j]! += (d * dangling) / n;
    let delta = 0;
    for (let j = 0; j < n; j++) delta += Math.abs(next[j]! - p[j]!);
    p = next;
    if (delta < 1e-6) break;
  }
  return Array.from(p);
}
