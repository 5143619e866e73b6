/**
 * Time ↔ text offsets of a transcript: from its own timestamps, or — for a
 * transcript without timestamps whose item has a known duration (e.g. a
 * YouTube auto-caption dump with `duration: PT2H22M16S`) — estimated from the
 * share of words before the offset. Estimated times are said to be estimated.
 */
import type { CorpusItem } from '../../corpus/types';
import type { ItemEntities } from '../entityIndex';

/** The offset in the transcript text at `seconds`, or undefined when the item has no time at all. */
export function offsetAtTime(item: CorpusItem, ents: ItemEntities | undefined, seconds: number): number | undefined {
  const t = item.transcript;
  if (!t || !t.segments.length) return undefined;
  if (ents?.timed) {
    const seg = t.segments.find((s) => (s.end ?? s.start ?? -1) >= seconds) ?? t.segments[t.segments.length - 1]!;
    return seg.offset;
  }
  if (!ents?.durationS) return undefined;
  const frac = Math.min(1, Math.max(0, seconds / ents.durationS));
  return t.segments[segmentAt(t.segments, Math.floor(frac * t.text.length))]!.offset;
}

/** Index of the segment containing `offset` (binary search over segment offsets). */
function segmentAt(segs: readonly { offset: number }[], offset: number): number {
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid]!.offset <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Start and end seconds of a transcript span: real, estimated from the duration, or undefined. */
export function timeOfSpan(item: CorpusItem, ents: ItemEntities | undefined, start: number, end: number): { startS: number; endS: number; estimated: boolean } | undefined {
  const t = item.transcript;
  if (!t || !t.segments.length) return undefined;
  if (ents?.timed) {
    const segs = t.segments;
    const a = segmentAt(segs, start);
    const z = segmentAt(segs, Math.max(start, end - 1));
    let startS: number | undefined;
    for (let i = a; i <= z && startS === undefined; i++) startS = segs[i]!.start;
    let endS: number | undefined;
    for (let i = z; i >= a && endS === undefined; i--) endS = segs[i]!.end ?? segs[i]!.start;
    if (startS === undefined || endS === undefined) return undefined;
    return { startS, endS, estimated: false };
  }
  if (!ents?.durationS || !t.text.length) return undefined;
  return { startS: (start / t.text.length) * ents.durationS, endS: (end / t.text.length) * ents.durationS, estimated: true };
}
