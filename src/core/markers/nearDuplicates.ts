/**
 * Near-duplicate texts in bounded memory: MinHash signatures of each text's
 * character shingles, banded (locality-sensitive hashing), so that two texts
 * whose shingle sets overlap by about {@link NEAR_DUPLICATE_JACCARD} or more
 * land in a common bucket with high probability; candidates are confirmed by
 * their signatures' agreement. Memory: a fixed-size signature per distinct
 * text and one map entry per distinct band value; work: linear in the texts
 * (each text is compared with the first text of each of its buckets only; a
 * text that comes again is not signed again, it meets the buckets its first
 * copy met).
 *
 * @example
 * nearDuplicateGroups(['check out this video on youtube', 'check out this video on youtube!!', 'nice'])
 * // [0, 0, 2]: texts 0 and 1 are one group
 */

/** Hash functions of a signature. */
const HASHES = 24;
/** Rows per band (HASHES / ROWS = 8 bands): a pair with Jaccard s shares a band with probability 1 − (1 − s^ROWS)^bands (0.97 at s = 0.7). */
const ROWS = 3;
/** Signature agreement (an estimate of Jaccard similarity) from which two texts are near duplicates. */
export const NEAR_DUPLICATE_JACCARD = 0.6;
/** Shingle length in characters. */
const SHINGLE = 5;

// Hashes are kept as 32-bit signed integers (fast arithmetic); a signature holds each value with
// its top bit flipped, so that comparing them signed orders them as the unsigned values they stand for.

/** FNV-1a over `s`'s UTF-16 code units from `from` to `to` (its bits, as a signed integer). */
function fnv(s: string, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** murmur3's finaliser: an independent-looking hash of `x` per seed (`seeded`: the seed × 0x9e3779b1), top bit flipped. */
function mix(x: number, seeded: number): number {
  let h = x ^ seeded;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h ^ 0x80000000;
}

/** The seeds of the signature's hash functions (1 … HASHES), multiplied as {@link mix} takes them. */
const SEEDS = Array.from({ length: HASHES }, (_, k) => Math.imul(k + 1, 0x9e3779b1));

/**
 * The MinHash signature of a text's shingles (a text shorter than a shingle is its own one
 * shingle), written at `at` in `sig`. A shingle that comes twice changes no minimum: they are not
 * told apart.
 */
function signature(text: string, sig: Int32Array, at: number): void {
  sig.fill(0x7fffffff, at, at + HASHES);
  const shingles = text.length <= SHINGLE ? 1 : text.length - SHINGLE + 1;
  for (let i = 0; i < shingles; i++) {
    const s = fnv(text, i, Math.min(text.length, i + SHINGLE));
    for (let k = 0; k < HASHES; k++) {
      const h = mix(s, SEEDS[k]!);
      if (h < sig[at + k]!) sig[at + k] = h;
    }
  }
}

/**
 * Groups near-duplicate texts: the result gives each text the index of its
 * group's first text (a text without a near duplicate is its own group). Texts
 * should be normalised by the caller (lower case, disguises undone); empty
 * texts are never grouped.
 */
export function nearDuplicateGroups(texts: readonly string[]): number[] {
  const parent = texts.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number): void => {
    const x = find(a);
    const y = find(b);
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
  };
  const bands = HASHES / ROWS;
  // A bucket is a band's ROWS values: found by a hash of them, the first text of the bucket
  // checked to have the very values; another bucket with the same hash is kept by its values written out.
  const buckets = Array.from({ length: bands }, () => new Map<number, number>());
  const others = new Map<string, number>();
  // Signatures, HASHES values each, by place (a text's place: its index among the signed texts).
  let sigs = new Int32Array(HASHES * 1024);
  const placeOf = new Int32Array(texts.length);
  let places = 0;
  // A text seen before (the same words) meets the buckets its first copy met: it joins that copy's
  // group when the copy is in one or began a bucket, and is on its own otherwise.
  const firstCopy = new Map<string, number>();
  const joined = new Uint8Array(texts.length);
  const sameBand = (p: number, q: number, from: number): boolean => {
    for (let r = from; r < from + ROWS; r++) if (sigs[p * HASHES + r] !== sigs[q * HASHES + r]) return false;
    return true;
  };
  texts.forEach((t, i) => {
    if (!t) return;
    const copy = firstCopy.get(t);
    if (copy !== undefined) {
      if (joined[copy]) union(i, copy);
      return;
    }
    firstCopy.set(t, i);
    if ((places + 1) * HASHES > sigs.length) {
      const grown = new Int32Array(sigs.length * 2);
      grown.set(sigs);
      sigs = grown;
    }
    const p = places++;
    placeOf[i] = p;
    signature(t, sigs, p * HASHES);
    for (let b = 0; b < bands; b++) {
      const from = b * ROWS;
      let h = b;
      for (let r = from; r < from + ROWS; r++) h = Math.imul(h ^ sigs[p * HASHES + r]!, 0x9e3779b1) ^ (h >>> 15);
      h >>>= 2;
      let first = buckets[b]!.get(h);
      if (first === undefined) {
        buckets[b]!.set(h, i);
        joined[i] = 1;
        continue;
      }
      if (!sameBand(placeOf[first]!, p, from)) {
        const key = `${b}:${Array.prototype.join.call(sigs.subarray(p * HASHES + from, p * HASHES + from + ROWS), ',')}`;
        first = others.get(key);
        if (first === undefined) {
          others.set(key, i);
          joined[i] = 1;
          continue;
        }
      }
      if (agreement(sigs, p, placeOf[first]!) >= NEAR_DUPLICATE_JACCARD) {
        union(i, first);
        joined[i] = 1;
      }
    }
  });
  return texts.map((_, i) => find(i));
}

/** The share of equal values of the signatures at places `p` and `q`. */
function agreement(sigs: Int32Array, p: number, q: number): number {
  let same = 0;
  for (let k = 0; k < HASHES; k++) if (sigs[p * HASHES + k] === sigs[q * HASHES + k]) same++;
  return same / HASHES;
}
