import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import {
  evidenceLabel, filterIsEmpty, formatTime, markerMatches, markersLine, parseFilter, sidebarStateFor, textMatches, type MarkerEntry,
} from '../../src/shared/sidebarModel';
import { MARKER_GROUP_KEYS, webviewToHostSchema, type MarkerSummary } from '../../src/shared/webviewProtocol';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

let dir: string;
let corpus: Corpus;
let markers: Map<string, MarkerEntry>;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mr-sidebar-'));
  await cp(DEMO, dir, { recursive: true, filter: (s) => path.basename(s) !== '.marker-research' });
  corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  markers = new Map();
  for (const it of corpus.items) {
    const r = await readItemMarkers(dir, it.id);
    assert.ok(r.ok, `markers of ${it.id}`);
    markers.set(it.id, { ok: true, value: r.value });
  }
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const value = (id: string): ItemMarkers => {
  const e = markers.get(id);
  assert.ok(e?.ok);
  return e.value;
};

describe('sidebarStateFor: items → marker groups → markers', () => {
  test('without markers: the corpus view of before, every item marked as having none', () => {
    const s = sidebarStateFor(corpus);
    assert.equal(s.status, 'ready');
    assert.match(s.message, /^Indexed 5 items · 772 words · 20 comments · 3 problems · 2 skipped$/);
    assert.equal(s.markersMessage, 'No markers yet');
    assert.equal(s.generating, false);
    assert.ok(s.items.every((i) => i.markers === null && i.markersProblem === null));
    assert.equal(s.problems.length, corpus.problems.length);
  });

  test('every marker of every file appears once, in its group, with kind, grounding and engine', () => {
    const s = sidebarStateFor(corpus, markers);
    for (const it of s.items) {
      const m = value(it.id);
      const view = it.markers!;
      assert.equal(view.engine, 'extractive');
      assert.equal(view.stale, false);
      const shown = view.groups.flatMap((g) => g.markers);
      const all = allMarkers(m);
      assert.equal(view.total, all.length);
      assert.equal(shown.length, all.length, it.id);
      assert.deepEqual(new Set(shown.map((x) => `${x.id}|${x.kind}`)), new Set(all.map((x) => `${x.id}|${x.kind}`)));
      assert.equal(view.grounded, all.length, 'the extractive engine grounds everything');
      assert.ok(shown.every((x) => x.engine === 'extractive' && x.grounded && x.where));
      // groups in the declared order, empty ones left out, each marker in the group of its kind
      const keys = view.groups.map((g) => g.key);
      assert.deepEqual(keys, MARKER_GROUP_KEYS.filter((k) => keys.includes(k)));
      assert.ok(view.groups.every((g) => g.markers.length || g.values.length));
      const kindOf = { facts: 'FACT', opinions: 'OPINION', data: 'DATA', commentFacts: 'FACT', commentOpinions: 'OPINION', commentData: 'DATA', engagement: 'ENGAGEMENT' } as const;
      for (const g of view.groups) for (const x of g.markers) assert.equal(x.kind, kindOf[g.key as keyof typeof kindOf], `${g.key}: ${x.id}`);
      assert.deepEqual(view.topics, m.transcript_summary?.topic_areas ?? []);
      const themes = view.groups.find((g) => g.key === 'themes');
      assert.deepEqual(themes?.values ?? [], m.comments_summary?.major_themes ?? []);
      const sentiment = view.groups.find((g) => g.key === 'sentiment');
      if (m.comments_summary) assert.equal(sentiment?.values[0], m.comments_summary.sentiment_overview.replace('_', ' '));
    }
    const total = corpus.items.reduce((a, it) => a + allMarkers(value(it.id)).length, 0);
    assert.equal(s.markersMessage, `${total} markers (extractive) · ${total} grounded`);
  });

  test('engagement markers carry likes; evidence is located as file:line · time · speaker', () => {
    const s = sidebarStateFor(corpus, markers);
    const city = s.items.find((i) => i.id === 'city-cycling-podcast')!.markers!;
    const eng = city.groups.find((g) => g.key === 'engagement')!.markers;
    assert.ok(eng.length && eng.every((x) => x.likes !== null && x.likes > 0));
    const data = city.groups.find((g) => g.key === 'data')!.markers[0]!;
    const raw = allMarkers(value('city-cycling-podcast')).find((x) => x.id === data.id)!;
    assert.equal(data.where, evidenceLabel(raw));
    assert.match(data.where!, /^transcript\.vtt:\d+ · \d+:\d\d(\.\d)? · \p{L}+/u);
  });

  test('ungrounded markers stay, flagged; unreadable files and stale markers are told apart', () => {
    const m = structuredClone(value('coffee-market-report'));
    const victim = m.transcript_summary!.key_facts[0]!;
    victim.grounded = false;
    victim.evidence = [];
    const entries = new Map(markers);
    entries.set('coffee-market-report', { ok: true, value: m });
    entries.set('remote-work-panel', { ok: false, error: 'remote-work-panel.json: transcript_summary: invalid' });
    const changed = { ...corpus, items: corpus.items.map((it) => (it.id === 'ev-winter-range' ? { ...it, contentHash: 'changed' } : it)) };
    entries.delete('food-vlog-broken');
    const s = sidebarStateFor(changed, entries);
    const coffee = s.items.find((i) => i.id === 'coffee-market-report')!.markers!;
    const flagged = coffee.groups.flatMap((g) => g.markers).find((x) => x.id === victim.id)!;
    assert.equal(flagged.grounded, false);
    assert.equal(flagged.where, null);
    assert.equal(coffee.grounded, coffee.total - 1);
    const remote = s.items.find((i) => i.id === 'remote-work-panel')!;
    assert.equal(remote.markers, null);
    assert.match(remote.markersProblem!, /invalid/);
    assert.equal(s.items.find((i) => i.id === 'ev-winter-range')!.markers!.stale, true);
    assert.equal(s.items.find((i) => i.id === 'food-vlog-broken')!.markers, null);
    const total = ['city-cycling-podcast', 'coffee-market-report', 'ev-winter-range'].reduce((a, id) => a + allMarkers(value(id)).length, 0);
    assert.equal(s.markersMessage, `${total} markers (extractive) · ${total - 1} grounded · 1 ungrounded · 2 items without markers · 1 stale · 1 unreadable`);
  });

  test('items carry what the sort and the filter need: date, likes, speakers; no confidence to show with the extractive engine', () => {
    const s = sidebarStateFor(corpus, markers);
    const city = s.items.find((i) => i.id === 'city-cycling-podcast')!;
    assert.equal(city.publishedAt, '2024-03-14T09:00:00Z');
    assert.equal(city.likes, null, 'no like_count in its meta.json');
    const raw = corpus.items.find((i) => i.id === 'city-cycling-podcast')!;
    assert.equal(city.commentLikes, raw.comments!.comments.reduce((a, c) => a + (c.likes ?? 0), 0));
    assert.ok(city.speakers.length >= 2 && new Set(city.speakers).size === city.speakers.length);
    assert.ok(city.speakers.every((sp) => raw.transcript!.segments.some((seg) => seg.speaker === sp)));
    assert.ok(s.items.every((i) => i.markers?.confidenceInformative === false));
    const withSpeaker = city.markers!.groups.flatMap((g) => g.markers).find((m) => m.speakers.length);
    assert.ok(withSpeaker && withSpeaker.where?.includes(withSpeaker.speakers[0]!));
  });

  test('a generating run says so', () => {
    const s = sidebarStateFor(corpus, markers, { generating: true, markersMessage: 'Generating markers…' });
    assert.equal(s.generating, true);
    assert.equal(s.markersMessage, 'Generating markers…');
  });

  test('markersLine with no items says nothing', () => {
    assert.equal(markersLine([]), null);
    assert.equal(markersLine([{ markers: null, markersProblem: 'x' }]), 'No markers · 1 marker file unreadable');
  });

  test('formatTime', () => {
    assert.equal(formatTime(0), '0:00');
    assert.equal(formatTime(62), '1:02');
    assert.equal(formatTime(75.4), '1:15.4');
    assert.equal(formatTime(3725.06), '1:02:05');
    assert.equal(formatTime(-3), '0:00');
  });
});

describe('the filter (webview-local)', () => {
  const m = (kind: MarkerSummary['kind'], text: string, topic = ''): Pick<MarkerSummary, 'kind' | 'text' | 'topic'> => ({ kind, text, topic });

  test('an empty filter narrows nothing', () => {
    const f = parseFilter('   ');
    assert.ok(filterIsEmpty(f));
    assert.ok(markerMatches(m('FACT', 'anything'), f));
    assert.equal(filterIsEmpty(parseFilter('', ['FACT'])), false);
  });

  test('case-insensitive, every term must occur, topic counts', () => {
    const f = parseFilter('PERCENT harbor');
    assert.ok(markerMatches(m('DATA', 'Trips on Harbor Avenue rose by 48 percent'), f));
    assert.ok(!markerMatches(m('DATA', 'Sales grew 6 percent'), f));
    assert.ok(markerMatches(m('DATA', 'Sales grew 6 percent', 'harbor avenue'), f));
  });

  test('Chinese: substring match without spaces; full-width Latin folds to ASCII', () => {
    assert.ok(markerMatches(m('FACT', '第二款车配备热泵，实测续航四百零五公里'), parseFilter('续航')));
    assert.ok(!markerMatches(m('FACT', '今天带大家去成都的建设路吃小吃。'), parseFilter('续航')));
    assert.ok(markerMatches(m('DATA', 'GDP grew 5%'), parseFilter('ｇｄｐ')));
    assert.ok(textMatches(parseFilter('热泵 公里').terms, '热泵', '四百零五公里'));
  });

  test('kinds: a marker of a kind switched off is hidden', () => {
    const f = parseFilter('', ['FACT', 'OPINION']);
    assert.ok(markerMatches(m('FACT', 'x'), f));
    assert.ok(!markerMatches(m('DATA', 'x'), f));
    assert.ok(!markerMatches(m('ENGAGEMENT', 'x'), parseFilter('x', [])));
  });
});

describe('webview → host marker messages are parsed, not trusted', () => {
  test('accepts openMarker, retrieveFullItem and generateMarkers', () => {
    assert.ok(webviewToHostSchema.safeParse({ type: 'openMarker', itemId: 'a', markerId: 'a:D:1' }).success);
    assert.ok(webviewToHostSchema.safeParse({ type: 'retrieveFullItem', itemId: '电动车' }).success);
    assert.ok(webviewToHostSchema.safeParse({ type: 'generateMarkers' }).success);
  });
  test('rejects malformed ones', () => {
    for (const bad of [
      { type: 'openMarker', itemId: 'a' },
      { type: 'openMarker', itemId: 'a', markerId: 7 },
      { type: 'openMarker', itemId: '', markerId: 'x' },
      { type: 'openMarker', itemId: 'a', markerId: 'x'.repeat(1001) },
      { type: 'retrieveFullItem' },
      { type: 'retrieveFullItem', itemId: ['a'] },
      { type: 'setFilter', text: 'x' },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
