/**
 * The rows of the Items Timeline (pure: no DOM, so they are tested as they are built): buckets in
 * order, a run of empty buckets folded into one gap row, and the width each bucket's bar takes.
 */
import type { KindCounts, TimelineBucket, TimelineBucketEntry } from '../shared/acrossModel';

export type TimelineRow = { type: 'bucket'; entry: TimelineBucketEntry; barShare: number } | { type: 'gap'; buckets: number; unit: TimelineBucket; from: string; to: string };

/**
 * The buckets as rows: each with items is a row (its bar's share of the widest: its markers ÷ the
 * most markers of a bucket, or of its items when no bucket has markers); each run of empty ones
 * one gap row saying how many.
 */
export function timelineRows(buckets: readonly TimelineBucketEntry[], unit: TimelineBucket): TimelineRow[] {
  const max = Math.max(0, ...buckets.map((b) => b.total));
  const maxItems = Math.max(0, ...buckets.map((b) => b.items.length));
  const rows: TimelineRow[] = [];
  for (const b of buckets) {
    if (!b.items.length) {
      const last = rows[rows.length - 1];
      if (last?.type === 'gap') {
        last.buckets++;
        last.to = b.end;
      } else rows.push({ type: 'gap', buckets: 1, unit, from: b.start, to: b.end });
      continue;
    }
    rows.push({ type: 'bucket', entry: b, barShare: max > 0 ? b.total / max : maxItems > 0 ? b.items.length / maxItems : 0 });
  }
  return rows;
}

/** The share of each kind in a bar (of the bucket's markers), in the kinds' order; zero kinds left out. */
export function barSegments(byKind: KindCounts): { kind: keyof KindCounts; share: number }[] {
  const total = Object.values(byKind).reduce((a, n) => a + n, 0);
  if (!total) return [];
  return (['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] as const).filter((k) => byKind[k] > 0).map((k) => ({ kind: k, share: byKind[k] / total }));
}
