/**
 * The "Across items" views' models as the extension and the panels build them (issue 24), over
 * generated corpora (en/es/zh, topics spelled many ways, markers without a topic, items without
 * markers or dates): the Markers Across Items picker offers every kind with markers and every
 * topic with the counts the generator knows, and picking a row shows exactly that topic's markers;
 * typed words become a "contains" query; the Compare Items picker lists every item once with its
 * date, ticking the preselected; the timeline's rows fold runs of empty buckets without losing a
 * bucket, and its bars are shares; a marker's place reads as the readable view numbers it (a
 * caption transcript's paragraph and caption lines, a meeting's turns); the panels' messages are
 * checked before the host acts on them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markersAcross } from '../../src/core/across/markersAcross';
import { itemTimeline } from '../../src/core/across/timeline';
import type { TimelineBucketEntry } from '../../src/shared/acrossModel';
import { acrossToHostSchema } from '../../src/shared/acrossWebviewProtocol';
import { acrossPickRows, comparePickRows, queryLabel, typedTopicQuery, type PickWords } from '../../src/extension/acrossViewPicks';
import { placeText } from '../../src/webview/acrossParts';
import { barSegments, timelineRows } from '../../src/webview/timelineRows';
import { acrossCorpus, NO_TOPIC, readableParagraph } from '../support/acrossCorpus';
import { rng } from '../support/testing';

const SEEDS = [2, 11, 23, 37];
const KINDS = ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] as const;

const words: PickWords = {
  kinds: 'Kinds',
  topics: 'Topics',
  kindHelp: { FACT: 'f', OPINION: 'o', DATA: 'd', ENGAGEMENT: 'e' },
  markersInItems: (m, i) => `${m} markers in ${i} items`,
  markers: (n) => `${n} markers`,
  alsoWritten: (v) => `also: ${v}`,
  noDate: 'no date',
  noMarkers: 'no markers',
};

describe('Markers Across Items: the picker', () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}: every kind with markers and every topic, with the generator's counts; a topic row shows that topic's markers`, () => {
      const g = acrossCorpus({ seed, items: 14 });
      const counts = markersAcross(g, { detail: 'counts' });
      const rows = acrossPickRows(counts, Object.fromEntries(KINDS.map((k) => [k, markersAcross(g, { kinds: [k], detail: 'counts' })])), words);
      const choices = rows.filter((r) => !r.separator);
      // Kinds: the ones the generator made, with their markers and items.
      for (const k of KINDS) {
        const ms = g.truth.markers.filter((m) => m.kind === k);
        const row = choices.find((r) => r.label === k);
        if (!ms.length) {
          assert.equal(row, undefined, `${k} has no markers: no row`);
          continue;
        }
        assert.ok(row && !row.separator);
        assert.equal(row.description, `${ms.length} markers in ${new Set(ms.map((m) => m.itemId)).size} items`);
        assert.deepEqual(row.value, { kinds: [k] });
      }
      // Topics: one row per concept with markers (none for markers without a topic).
      const concepts = new Map<string, typeof g.truth.markers>();
      for (const m of g.truth.markers) if (m.concept !== NO_TOPIC) concepts.set(m.concept, [...(concepts.get(m.concept) ?? []), m]);
      const topicRows = choices.filter((r) => !KINDS.includes(r.label as (typeof KINDS)[number]));
      assert.equal(topicRows.length, concepts.size);
      for (const row of topicRows) {
        assert.ok(!row.separator);
        const shown = markersAcross(g, row.value);
        assert.equal(shown.topics.length, 1, `“${row.label}” is one topic`);
        const ids = shown.topics[0]!.items.flatMap((it) => it.markers.map((m) => m.markerId)).sort();
        const concept = [...concepts.values()].find((ms) => ms.some((m) => m.markerId === ids[0]))!;
        assert.deepEqual(ids, concept.map((m) => m.markerId).sort(), `“${row.label}”: the concept's markers, every spelling`);
        assert.equal(row.description, `${concept.length} markers in ${new Set(concept.map((m) => m.itemId)).size} items`);
        assert.ok(queryLabel(row.value).startsWith(row.label));
      }
      // Separators head each section.
      assert.equal(rows[0]!.separator, true);
      assert.equal(rows.filter((r) => r.separator).length, concepts.size ? 2 : 1);
    });
  }

  test('typed words no row matches: markers whose topic holds them; nothing typed: nothing', () => {
    assert.deepEqual(typedTopicQuery('  bike '), { topic: 'bike', topicMatch: 'contains' });
    assert.equal(typedTopicQuery('   '), undefined);
    assert.equal(typedTopicQuery('x'.repeat(500))!.topic!.length, 200);
    assert.equal(queryLabel({ topic: 'bike', topicMatch: 'contains' }), '“bike”…');
    assert.equal(queryLabel({ kinds: ['FACT', 'DATA'] }), 'FACT, DATA');
  });
});

describe('Compare Items: the picker', () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}: every item once (dated by date, then the undated), its date and markers; the preselected ticked`, () => {
      const g = acrossCorpus({ seed, items: 16 });
      const t = itemTimeline(g);
      const pre = [g.items[3]!.id, g.items[7]!.id];
      const rows = comparePickRows(t, words, pre);
      assert.deepEqual(rows.map((r) => r.value).sort(), g.items.map((it) => it.id).sort());
      for (const r of rows) {
        const truth = g.truth.items.find((it) => it.itemId === r.value)!;
        assert.equal(r.picked, pre.includes(r.value));
        assert.ok(r.description.startsWith(truth.day ?? 'no date'), r.description);
        const n = g.truth.markers.filter((m) => m.itemId === r.value).length;
        assert.ok(r.description.endsWith(truth.hasMarkers ? `${n} markers` : 'no markers'), r.description);
      }
      const dated = rows.filter((r) => !r.description.startsWith('no date')).map((r) => r.description.slice(0, 10));
      assert.deepEqual(dated, [...dated].sort(), 'dated items by date');
    });
  }
});

describe('Items Timeline: rows and bars', () => {
  /** Random buckets: runs of empty and full ones. */
  function buckets(seed: number): TimelineBucketEntry[] {
    const r = rng(seed);
    const out: TimelineBucketEntry[] = [];
    for (let i = 0; i < 60; i++) {
      const full = r() < 0.4;
      const byKind = { FACT: full ? Math.floor(r() * 5) : 0, OPINION: full ? Math.floor(r() * 5) : 0, DATA: full ? Math.floor(r() * 3) : 0, ENGAGEMENT: full ? Math.floor(r() * 2) : 0 };
      const total = Object.values(byKind).reduce((a, n) => a + n, 0);
      const day = `2024-01-${String((i % 28) + 1).padStart(2, '0')}`;
      out.push({ key: `k${i}`, start: day, end: day, total, byKind, items: full ? [{ itemId: `i${i}`, title: `t${i}`, date: day, rawDate: day, hasMarkers: true, total, byKind }] : [] });
    }
    return out;
  }

  for (const seed of SEEDS) {
    test(`seed ${seed}: every run of empty buckets is one gap row; no bucket lost; the fullest bar is whole`, () => {
      const bs = buckets(seed);
      const rows = timelineRows(bs, 'week');
      let covered = 0;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (row.type === 'gap') {
          covered += row.buckets;
          assert.notEqual(rows[i + 1]?.type, 'gap', 'two gap rows in a row');
          assert.equal(row.unit, 'week');
        } else {
          covered++;
          assert.ok(row.entry.items.length > 0);
          assert.ok(row.barShare >= 0 && row.barShare <= 1);
        }
      }
      assert.equal(covered, bs.length);
      const full = rows.filter((r) => r.type === 'bucket');
      if (full.some((r) => r.entry.total > 0)) assert.equal(Math.max(...full.map((r) => r.barShare)), 1);
      for (const b of bs) {
        const segs = barSegments(b.byKind);
        if (b.total) assert.ok(Math.abs(segs.reduce((a, s) => a + s.share, 0) - 1) < 1e-9);
        else assert.deepEqual(segs, []);
      }
    });
  }

  test('buckets whose items have no markers: bars by items', () => {
    const zero = { FACT: 0, OPINION: 0, DATA: 0, ENGAGEMENT: 0 };
    const mk = (n: number): TimelineBucketEntry => ({ key: `k${n}`, start: '2024-01-01', end: '2024-01-01', total: 0, byKind: zero, items: Array.from({ length: n }, (_, i) => ({ itemId: `i${n}-${i}`, title: 't', date: null, rawDate: null, hasMarkers: false, total: 0, byKind: zero })) });
    const rows = timelineRows([mk(1), mk(2)], 'day');
    assert.deepEqual(rows.map((r) => (r.type === 'bucket' ? r.barShare : -1)), [0.5, 1]);
  });
});

describe('a marker’s place, in the readable view’s words', () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}: captions by paragraph and caption lines, meetings by turns (once, in the label's words when untimed), comments by their author`, () => {
      const g = acrossCorpus({ seed, items: 14, captions: 0.4 });
      const m = markersAcross(g, {});
      let captions = 0;
      let turns = 0;
      for (const t of m.topics) {
        for (const it of t.items) {
          for (const x of it.markers) {
            const truth = g.truth.markers.find((y) => y.markerId === x.markerId)!;
            const text = placeText(x.place);
            if (!x.place) {
              assert.equal(text, '');
              continue;
            }
            if (truth.part === 'comments') {
              assert.match(text, /^@/u, text);
              continue;
            }
            const lines = truth.turnEnd !== truth.turn ? `caption lines ${truth.turn}–${truth.turnEnd}` : `caption line ${truth.turn}`;
            const item = g.items.find((i) => i.id === x.itemId)!;
            if (truth.caption) {
              captions++;
              assert.ok(text.includes(`¶ ${readableParagraph(item, truth.start!)} · ${lines}`), `${text} (want ¶ ${readableParagraph(item, truth.start!)}, ${lines})`);
              assert.doesNotMatch(text, /\bturns? \d/u, text);
            } else {
              turns++;
              assert.doesNotMatch(text, /¶/u);
              if (truth.startTime === null) {
                // The label names the turns already, in the item's language (turn 3, turno 3, 第 3 次发言): nothing added.
                assert.equal(text, x.place.label);
                assert.ok(text.includes(String(truth.turn)), text);
              } else {
                const want = truth.turnEnd !== truth.turn ? `turns ${truth.turn}–${truth.turnEnd}` : `turn ${truth.turn}`;
                assert.ok(text.startsWith(`${x.place.label} · `), text);
                assert.equal(text.split(want).length - 1, 1, `${text}: “${want}” once`);
              }
            }
          }
        }
      }
      assert.ok(captions > 0 && turns > 0, `${captions} caption and ${turns} meeting markers`);
    });
  }
});

describe('the panels’ messages', () => {
  test('what the host acts on is checked; anything else is refused', () => {
    const good = [
      { type: 'ready' },
      { type: 'openMarker', itemId: 'a', markerId: 'm1' },
      { type: 'openHit', itemId: 'a', part: 'comments', start: 3, end: 9 },
      { type: 'openItem', itemId: 'a' },
      { type: 'setKinds', kinds: [] },
      { type: 'setKinds', kinds: ['FACT', 'DATA'] },
      { type: 'setBucket', bucket: 'month' },
      { type: 'change' },
      { type: 'showTopic', topic: '電池' },
    ];
    for (const m of good) assert.ok(acrossToHostSchema.safeParse(m).success, JSON.stringify(m));
    const bad = [
      { type: 'openMarker', itemId: '', markerId: 'm1' },
      { type: 'openHit', itemId: 'a', part: 'transcript', start: 9, end: 9 },
      { type: 'openHit', itemId: 'a', part: 'notes', start: 1, end: 9 },
      { type: 'setKinds', kinds: ['FACTS'] },
      { type: 'setBucket', bucket: 'year' },
      { type: 'showTopic', topic: '   ' },
      { type: 'showTopic', topic: 'x'.repeat(201) },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      'openMarker',
      null,
    ];
    for (const m of bad) assert.ok(!acrossToHostSchema.safeParse(m).success, JSON.stringify(m));
  });
});
