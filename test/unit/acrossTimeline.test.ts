/**
 * The timeline of items by date (issue 24): generated items whose dates are written in several
 * formats, or missing, or no dates at all; every item is on the timeline or among the undated,
 * each in the bucket its day falls in (weeks computed here another way: from the Monday of the
 * week holding 4 January), with its marker counts; the bucket size follows the span of dates.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readDay } from '../../src/core/across/itemDate';
import { bucketOf, itemTimeline } from '../../src/core/across/timeline';
import { MARKER_KINDS } from '../../src/core/markers/schema';
import { itemTimelineSchema, TIMELINE_MAX_BUCKETS, type ItemTimeline, type TimelineBucket } from '../../src/shared/acrossModel';
import { acrossCorpus, type GeneratedAcrossCorpus } from '../support/acrossCorpus';

const DAY = 86_400_000;
const t = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** ISO week key of a day: weeks from the Monday of the week holding 4 January of the week's year. */
function isoWeek(day: string): string {
  const ms = t(day);
  const y = new Date(ms).getUTCFullYear();
  for (const year of [y + 1, y, y - 1]) {
    const jan4 = Date.UTC(year, 0, 4);
    const monday1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    if (ms >= monday1) return `${year}-W${String(Math.floor((ms - monday1) / DAY / 7) + 1).padStart(2, '0')}`;
  }
  throw new Error('unreachable');
}

function keyOf(day: string, unit: TimelineBucket): string {
  return unit === 'day' ? day : unit === 'month' ? day.slice(0, 7) : isoWeek(day);
}

/** Every item exactly once, in its bucket, with its counts; buckets consecutive. */
function assertTimeline(c: GeneratedAcrossCorpus, tl: ItemTimeline): void {
  assert.deepEqual(itemTimelineSchema.parse(JSON.parse(JSON.stringify(tl))), tl, 'valid model');
  const placed = [...tl.buckets.flatMap((b) => b.items.map((i) => i.itemId)), ...tl.undated.map((i) => i.itemId)];
  assert.deepEqual([...placed].sort(), c.items.map((i) => i.id).sort(), 'every item once, none dropped');
  const truth = new Map(c.truth.items.map((x) => [x.itemId, x]));
  assert.deepEqual(tl.undated.map((u) => u.itemId), c.truth.items.filter((x) => x.day === null).map((x) => x.itemId), 'undated in corpus order');
  for (const u of tl.undated) assert.equal(u.rawDate, truth.get(u.itemId)!.raw, 'the value that was no date is kept');
  const days = c.truth.items.map((x) => x.day).filter((d): d is string => d !== null).sort();
  assert.equal(tl.first, days[0] ?? null);
  assert.equal(tl.last, days[days.length - 1] ?? null);
  for (const b of tl.buckets) {
    for (const it of b.items) {
      const x = truth.get(it.itemId)!;
      assert.equal(it.date, x.day);
      assert.equal(keyOf(x.day!, tl.bucket), b.key, `${x.day} in ${b.key}`);
      assert.ok(b.start <= x.day! && x.day! <= b.end);
      const mine = c.truth.markers.filter((m) => m.itemId === it.itemId);
      assert.equal(it.total, mine.length);
      for (const k of MARKER_KINDS) assert.equal(it.byKind[k], mine.filter((m) => m.kind === k).length);
    }
    assert.equal(b.total, b.items.reduce((a, i) => a + i.total, 0));
    const dates = b.items.map((i) => i.date!);
    assert.deepEqual(dates, [...dates].sort(), 'by date within a bucket');
  }
  if (!tl.gapsOmitted) {
    for (let i = 1; i < tl.buckets.length; i++) assert.equal(tl.buckets[i]!.start, iso(t(tl.buckets[i - 1]!.end) + DAY), 'consecutive buckets, empty ones included');
    if (tl.first) {
      assert.equal(tl.buckets[0]!.key, keyOf(tl.first, tl.bucket));
      assert.equal(tl.buckets[tl.buckets.length - 1]!.key, keyOf(tl.last!, tl.bucket));
    }
  }
  assert.equal(tl.totals.dated + tl.totals.undated, c.items.length);
  assert.equal(tl.totals.markers, c.truth.markers.length);
}

describe('timeline of items', () => {
  test('every item in its bucket or among the undated, with its marker counts, for spans of days, weeks and months', () => {
    const seen = new Set<TimelineBucket>();
    for (const [seed, spanDays, want] of [[51, 12, 'day'], [52, 30, 'day'], [53, 90, 'week'], [54, 170, 'week'], [55, 400, 'month'], [56, 2000, 'month']] as const) {
      const c = acrossCorpus({ seed, items: 18, spanDays });
      const tl = itemTimeline(c);
      const days = c.truth.items.map((x) => x.day).filter((d): d is string => d !== null).sort();
      const span = (t(days[days.length - 1]!) - t(days[0]!)) / DAY;
      const expected: TimelineBucket = span <= 31 ? 'day' : span <= 182 ? 'week' : 'month';
      assert.equal(tl.bucket, expected, `seed ${seed}: span ${span} days`);
      if (span > spanDays * 0.6) assert.equal(tl.bucket, want);
      seen.add(tl.bucket);
      assertTimeline(c, tl);
      for (const unit of ['day', 'week', 'month'] as const) assertTimeline(c, itemTimeline(c, { bucket: unit }));
    }
    assert.equal(seen.size, 3);
  });

  test('weeks across a year end follow ISO 8601 (2020-12-31 is in 2020-W53, 2021-01-03 too, 2024-12-30 in 2025-W01)', () => {
    const c = acrossCorpus({ seed: 61, items: 30, from: '2020-12-20', spanDays: 20, undated: 0 });
    assertTimeline(c, itemTimeline(c, { bucket: 'week' }));
    const d = acrossCorpus({ seed: 62, items: 30, from: '2024-12-20', spanDays: 20, undated: 0 });
    const tl = itemTimeline(d, { bucket: 'week' });
    assertTimeline(d, tl);
    assert.ok(tl.buckets.some((b) => b.key === '2025-W01' && b.start === '2024-12-30'));
    assert.deepEqual(bucketOf('2020-12-31', 'week'), { key: '2020-W53', start: '2020-12-28', end: '2021-01-03' });
    assert.equal(bucketOf('2021-01-03', 'week').key, '2020-W53');
    assert.equal(bucketOf('2024-12-30', 'week').key, '2025-W01');
    assert.deepEqual(bucketOf('2024-02-10', 'month'), { key: '2024-02', start: '2024-02-01', end: '2024-02-29' });
  });

  test('a corpus without dates lists every item apart; kinds narrow the counts', () => {
    const c = acrossCorpus({ seed: 71, items: 10, undated: 1 });
    const tl = itemTimeline(c);
    assert.equal(tl.buckets.length, 0);
    assert.equal(tl.first, null);
    assertTimeline(c, tl);
    const facts = itemTimeline(c, { kinds: ['FACT'] });
    assert.equal(facts.totals.markers, c.truth.markers.filter((m) => m.kind === 'FACT').length);
    assert.ok(facts.undated.every((u) => MARKER_KINDS.every((k) => k === 'FACT' || u.byKind[k] === 0)));
  });

  test('more buckets than the limit: only those with items, and said so', () => {
    const c = acrossCorpus({ seed: 81, items: 12, spanDays: 3000, undated: 0 });
    const tl = itemTimeline(c, { bucket: 'day' });
    const days = c.truth.items.map((x) => x.day!).sort();
    assert.ok((t(days[days.length - 1]!) - t(days[0]!)) / DAY + 1 > TIMELINE_MAX_BUCKETS);
    assert.equal(tl.gapsOmitted, true);
    assert.ok(tl.buckets.every((b) => b.items.length > 0));
    assertTimeline(c, tl);
  });

  test('dates read: ISO date-times and dates, YYYYMMDD, 年月日, slashes and dots, epoch seconds and milliseconds; not impossible days or words', () => {
    const ms = Date.UTC(2024, 1, 29, 23, 59);
    const cases: [unknown, string | undefined][] = [
      ['2024-02-29T23:59:00+09:00', '2024-02-29'], ['2024-02-29', '2024-02-29'], ['20240229', '2024-02-29'], [20240229, '2024-02-29'], ['2024年2月29日', '2024-02-29'],
      ['2024/2/29', '2024-02-29'], ['2024.02.29', '2024-02-29'], [ms / 1000, '2024-02-29'], [ms, '2024-02-29'], [String(ms / 1000), '2024-02-29'],
      ['2023-02-29', undefined], ['2024-13-01', undefined], ['spring 2024', undefined], ['', undefined], [null, undefined], [-5, undefined], ['29/02/2024', undefined],
    ];
    for (const [value, want] of cases) assert.equal(readDay(value), want, String(value));
  });
});
