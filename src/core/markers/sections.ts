/**
 * Sections of an item for the extractive engine, so its markers spread over the whole item:
 * chapters from the video's description where there are any (by time), and topic shifts found
 * by lexical cohesion (TextTiling: where the words of the text before a point and after it have
 * least in common), at about one section per `targetWords` words. A section never holds more than
 * `maxUnits` units, and the work is linear in the units (issue 19: no loop over pairs).
 */

import { firstIndex } from '../util/sortedSearch';
import { countWork } from './workMeter';

/** What sectioning needs of a sentence: its words, its content terms and (when known) its time. */
export interface SectionUnit {
  words: number;
  terms: readonly string[];
  /** Seconds from the start of the media. */
  time?: number;
}

export interface SectionOptions {
  /** Words per section to aim at (default 1,000). */
  targetWords?: number;
  /** Chapter start times in seconds (two or more), from the description. */
  chapters?: readonly number[];
  /** Words per block of the cohesion comparison (default 100). */
  blockWords?: number;
  /** Units per section at most (default {@link MAX_SECTION_UNITS}): a longer run is cut evenly. */
  maxUnits?: number;
}

/**
 * Units (sentences) a section holds at most: a section of 1,000 words of one-word sentences still
 * fits; what would be more (sentences the cleaner counts no word in) is cut, so that every
 * per-section computation of the extractive engine has a hard bound.
 */
export const MAX_SECTION_UNITS = 1024;

/** Prefix sums of the units' words: `p[b] - p[a]` is the words of `units[a..b)`. */
function prefixWords(units: readonly SectionUnit[]): Float64Array {
  const p = new Float64Array(units.length + 1);
  for (let i = 0; i < units.length; i++) p[i + 1] = p[i]! + units[i]!.words;
  return p;
}

/** Cosine similarity of two term-count maps. */
function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function counts(units: readonly SectionUnit[], a: number, b: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = a; i < b; i++) for (const t of units[i]!.terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * Topic-shift boundaries inside `units[from..to)`: `k` unit indices where cohesion dips deepest,
 * at least `minWords` apart and from either end.
 */
function tileBoundaries(units: readonly SectionUnit[], p: Float64Array, from: number, to: number, k: number, blockWords: number, minWords: number): number[] {
  if (k <= 0) return [];
  // Blocks of about `blockWords` words; a boundary can only fall at a block start.
  const starts: number[] = [];
  let acc = blockWords;
  for (let i = from; i < to; i++) {
    if (acc >= blockWords) {
      starts.push(i);
      acc = 0;
    }
    acc += units[i]!.words;
  }
  if (starts.length < 3) return [];
  const blockEnd = (j: number): number => (j + 1 < starts.length ? starts[j + 1]! : to);
  const window = 2;
  // Gap g sits before block g (g = 1..n-1): cohesion of the blocks before it with the blocks after it.
  const sims: number[] = [];
  for (let g = 1; g < starts.length; g++) {
    const left = counts(units, starts[Math.max(0, g - window)]!, starts[g]!);
    const right = counts(units, starts[g]!, blockEnd(Math.min(starts.length - 1, g + window - 1)));
    sims.push(cosine(left, right));
  }
  // Depth of each gap's valley: how far cohesion rises on both sides before it falls again. The
  // climb from gap i to the left goes on exactly as the climb from gap i - 1 when it can step
  // there, so both peaks are computed in one pass each.
  const m = sims.length;
  const leftPeak = new Float64Array(m);
  for (let i = 0; i < m; i++) leftPeak[i] = i > 0 && sims[i - 1]! >= sims[i]! ? leftPeak[i - 1]! : sims[i]!;
  const rightPeak = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) rightPeak[i] = i + 1 < m && sims[i + 1]! >= sims[i]! ? rightPeak[i + 1]! : sims[i]!;
  countWork('sections', 2 * m);
  const depth = sims.map((v, i) => leftPeak[i]! - v + (rightPeak[i]! - v));
  const order = depth.map((d, i) => ({ d, at: starts[i + 1]! })).sort((a, b) => b.d - a.d || a.at - b.at);
  // The edges so far (the ends and the boundaries chosen), in order: word positions only grow with
  // the index, so a candidate is far enough from all of them when it is from its two neighbours.
  const edges = [from, to];
  let chosen = 0;
  for (const { at } of order) {
    if (chosen >= k) break;
    const lo = firstIndex(edges.length, (i) => edges[i]! >= at);
    countWork('sections', 2);
    if ((lo < edges.length && Math.abs(p[at]! - p[edges[lo]!]!) < minWords) || (lo > 0 && Math.abs(p[at]! - p[edges[lo - 1]!]!) < minWords)) continue;
    edges.splice(lo, 0, at);
    chosen++;
  }
  return edges.slice(1, -1);
}

/**
 * Section start indices into `units` (the first is always 0): chapters when they are given and
 * the units carry times, each long chapter (and a text without chapters) split further at its
 * deepest topic shifts, about one section per `targetWords` words.
 */
export function splitSections(units: readonly SectionUnit[], opts: SectionOptions = {}): number[] {
  if (!units.length) return [];
  const target = Math.max(100, opts.targetWords ?? 1000);
  const blockWords = Math.max(20, opts.blockWords ?? Math.min(120, Math.round(target / 6)));
  const p = prefixWords(units);
  const starts = new Set<number>([0]);
  if (opts.chapters && opts.chapters.length >= 2 && units.some((u) => u.time !== undefined)) {
    // The latest time up to each unit only grows: the first unit at or after a chapter's start is found by halving.
    const latest = new Float64Array(units.length);
    let best = -Infinity;
    units.forEach((u, i) => {
      if (u.time !== undefined && u.time >= best) best = u.time;
      latest[i] = best;
    });
    for (const c of opts.chapters) {
      const i = firstIndex(units.length, (k) => latest[k]! >= c);
      if (i > 0 && i < units.length) starts.add(i);
    }
  }
  const coarse = [...starts].sort((a, b) => a - b);
  const out: number[] = [];
  coarse.forEach((a, j) => {
    const b = j + 1 < coarse.length ? coarse[j + 1]! : units.length;
    out.push(a);
    const words = p[b]! - p[a]!;
    const k = Math.round(words / target) - 1;
    for (const at of tileBoundaries(units, p, a, b, k, blockWords, target / 2)) out.push(at);
  });
  const sorted = [...new Set(out)].sort((a, b) => a - b);
  // A section of more units than the bound is cut evenly.
  const maxUnits = Math.max(1, Math.floor(opts.maxUnits ?? MAX_SECTION_UNITS));
  const bounded: number[] = [];
  sorted.forEach((a, j) => {
    const b = j + 1 < sorted.length ? sorted[j + 1]! : units.length;
    const pieces = Math.ceil((b - a) / maxUnits);
    for (let i = 0; i < pieces; i++) bounded.push(a + Math.round((i * (b - a)) / pieces));
  });
  return bounded;
}
