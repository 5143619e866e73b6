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
  const at = Math.floor(frac * t.text.length);
  // Snap to the start of the segment containing it.
  let lo = 0;
  let hi = t.segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.segments[mid]!.offset <= at) lo = mid;
    else hi = mid - 1;
  }
  return t.segments[lo]!.offset;
}

/** Start and end seconds of a transcript span: real, estimated from the duration, or undefined. */
export function timeOfSpan(item: CorpusItem, ents: ItemEntities | undefined, start: number, end: number): { startS: number; endS: number; estimated: boolean } | undefined {
  const t = item.transcript;
  if (!t || !t.segments.length) return undefined;
  if (ents?.timed) {
    const segs = t.segments.filter((s) => s.offset + s.text.length > start && s.offset < end);
    const a = segs.find((s) => s.start !== undefined)?.start;
    const b = [...segs].reverse().find((s) => (s.end ?? s.start) !== undefined);
    if (a === undefined || !b) return undefined;
    return { startS: a, endS: (b.end ?? b.start)!, estimated: false };
  }
  if (!ents?.durationS || !t.text.length) return undefined;
  return { startS: (start / t.text.length) * ents.durationS, endS: (end / t.text.length) * ents.durationS, estimated: true };
}
