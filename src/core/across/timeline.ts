/**
 * Items by date with their marker counts (issue 24, "a timeline of items by date"). An item's date
 * is its metadata's ({@link itemDate}); items without one, or with one that does not read as a
 * date, are listed apart under `undated` — never dropped. Dated items fall into buckets of a day,
 * an ISO week (Monday to Sunday, `2024-W11`) or a month, chosen from the span of the dates unless
 * asked: a day for dates within 31 days, a week within 26 weeks (182 days), a month beyond.
 */
import type { ItemTimeline, TimelineBucket, TimelineBucketEntry, TimelineItem, TimelineQuery } from '../../shared/acrossModel';
import { TIMELINE_MAX_BUCKETS } from '../../shared/acrossModel';
import { itemDate } from './itemDate';
import { countKinds, selectItems, type AcrossCorpus } from './markerSelection';

const DAY_MS = 86_400_000;
/** Spans of dates (days from the first to the last) up to which `auto` buckets by day, then by week. */
export const AUTO_DAY_SPAN = 31;
export const AUTO_WEEK_SPAN = 182;

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const ms = (day: string): number => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const dayOf = (t: number): string => {
  const d = new Date(t);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** The bucket unit `auto` chooses for dates from `first` to `last` (see the module's comment). */
export function autoBucket(first: string, last: string): TimelineBucket {
  const span = Math.round((ms(last) - ms(first)) / DAY_MS);
  return span <= AUTO_DAY_SPAN ? 'day' : span <= AUTO_WEEK_SPAN ? 'week' : 'month';
}

/** The bucket of `day`: its key and first and last day. */
export function bucketOf(day: string, unit: TimelineBucket): { key: string; start: string; end: string } {
  if (unit === 'day') return { key: day, start: day, end: day };
  if (unit === 'month') {
    const y = Number(day.slice(0, 4));
    const m = Number(day.slice(5, 7));
    return { key: day.slice(0, 7), start: `${day.slice(0, 7)}-01`, end: dayOf(Date.UTC(y, m, 0)) };
  }
  const t = ms(day);
  const monday = t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
  // The ISO week belongs to the year of its Thursday, and is numbered from the week holding 4 January.
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7);
  return { key: `${pad(year, 4)}-W${pad(week)}`, start: dayOf(monday), end: dayOf(monday + 6 * DAY_MS) };
}

/**
 * The items of `corpus` (or of `query.itemIds`) by date, with the markers `query` keeps counted per
 * kind. Buckets run from the first date's to the last's, empty ones included (unless there would
 * be more than {@link TIMELINE_MAX_BUCKETS}: then only those with items, and `gapsOmitted`).
 *
 * @example
 * itemTimeline({ items: corpus.items, markers })
 * // { bucket: 'month', first: '2023-03-28', last: '2024-01-09', buckets: [{ key: '2023-03', items: [...], total: 41, ... }, ...], undated: [...] }
 */
export function itemTimeline(corpus: AcrossCorpus, query: TimelineQuery = {}): ItemTimeline {
  const selected = selectItems(corpus, query, query.itemIds);
  const rows = selected.map((sel) => {
    const date = itemDate(sel.item.meta);
    const row: TimelineItem = { itemId: sel.item.id, title: sel.item.title, date: date.day, rawDate: date.raw, hasMarkers: !!sel.file, total: sel.markers.length, byKind: countKinds(sel.markers) };
    return { row, order: sel.order, markers: sel.markers };
  });
  const dated = rows.filter((r) => r.row.date !== null).sort((a, b) => (a.row.date! < b.row.date! ? -1 : a.row.date! > b.row.date! ? 1 : a.order - b.order));
  const undated = rows.filter((r) => r.row.date === null).map((r) => r.row);
  const first = dated[0]?.row.date ?? null;
  const last = dated[dated.length - 1]?.row.date ?? null;
  const asked = query.bucket ?? 'auto';
  const unit: TimelineBucket = asked !== 'auto' ? asked : first && last ? autoBucket(first, last) : 'day';
  const filled = new Map<string, TimelineBucketEntry>();
  for (const r of dated) {
    const b = bucketOf(r.row.date!, unit);
    let entry = filled.get(b.key);
    if (!entry) filled.set(b.key, (entry = { ...b, total: 0, byKind: countKinds([]), items: [] }));
    entry.items.push(r.row);
    entry.total += r.row.total;
    for (const pm of r.markers) entry.byKind[pm.marker.kind]++;
  }
  let buckets = [...filled.values()];
  let gapsOmitted = false;
  if (first && last) {
    const all: TimelineBucketEntry[] = [];
    for (let b = bucketOf(first, unit); all.length <= TIMELINE_MAX_BUCKETS; b = bucketOf(dayOf(ms(b.end) + DAY_MS), unit)) {
      all.push(filled.get(b.key) ?? { ...b, total: 0, byKind: countKinds([]), items: [] });
      if (b.end >= last) break;
    }
    if (all.length <= TIMELINE_MAX_BUCKETS) buckets = all;
    else gapsOmitted = true;
  }
  const markers = rows.flatMap((r) => r.markers);
  return {
    query,
    bucket: unit,
    first,
    last,
    buckets,
    gapsOmitted,
    undated,
    totals: { dated: dated.length, undated: undated.length, markers: markers.length, byKind: countKinds(markers) },
  };
}
