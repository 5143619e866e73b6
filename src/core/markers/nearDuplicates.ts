/**
 * Near-duplicate texts in bounded memory: MinHash signatures of each text's
 * character shingles, banded (locality-sensitive hashing), so that two texts
 * whose shingle sets overlap by about {@link NEAR_DUPLICATE_JACCARD} or more
 * land in a common bucket with high probability; candidates are confirmed by
 * their signatures' agreement. Memory: a fixed-size signature per text and one
 * map entry per distinct band value; work: linear in the texts (each text is
 * compared with the first text of each of its buckets only).
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

/** FNV-1a over a string's UTF-16 code units. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: an independent-looking hash of `x` per seed. */
function mix(x: number, seed: number): number {
  let h = (x ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The MinHash signature of a text's shingles (a text shorter than a shingle is its own one shingle). */
function signature(text: string): Uint32Array {
  const sig = new Uint32Array(HASHES).fill(0xffffffff);
  const shingles = new Set<number>();
  if (text.length <= SHINGLE) shingles.add(fnv(text));
  else for (let i = 0; i + SHINGLE <= text.length; i++) shingles.add(fnv(text.slice(i, i + SHINGLE)));
  for (const s of shingles) {
    for (let k = 0; k < HASHES; k++) {
      const h = mix(s, k + 1);
      if (h < sig[k]!) sig[k] = h;
    }
  }
  return sig;
}

function agreement(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let k = 0; k < HASHES; k++) if (a[k] === b[k]) same++;
  return same / HASHES;
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
  const buckets = new Map<string, number>();
  const sigs: (Uint32Array | undefined)[] = [];
  texts.forEach((t, i) => {
    if (!t) {
      sigs.push(undefined);
      return;
    }
    const sig = signature(t);
    sigs.push(sig);
    for (let b = 0; b < HASHES / ROWS; b++) {
      const key = `${b}:${Array.prototype.join.call(sig.subarray(b * ROWS, (b + 1) * ROWS), ',')}`;
      const first = buckets.get(key);
      if (first === undefined) buckets.set(key, i);
      else if (agreement(sig, sigs[first]!) >= NEAR_DUPLICATE_JACCARD) union(i, first);
    }
  });
  return texts.map((_, i) => find(i));
}
