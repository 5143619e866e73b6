/**
 * All markers of a kind or a topic across items (issue 24): on generated corpora in three languages
 * whose topics are spelled with and without accents, in either Chinese script, in other cases and
 * with other punctuation, the groups, counts and places are those computed here from how the
 * markers were made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markersAcross } from '../../src/core/across/markersAcross';
import { MARKER_KINDS, type MarkerKind } from '../../src/core/markers/schema';
import { markersAcrossSchema, type MarkersAcross } from '../../src/shared/acrossModel';
import { CONCEPTS, NO_TOPIC, acrossCorpus, readableParagraph, truthByConcept, type MarkerTruth } from '../support/acrossCorpus';

const SEEDS = [1, 2, 3, 4, 5, 6];

/** Group (topic key) → item → marker ids, from the model. */
function groupsOf(m: MarkersAcross): Map<string, Map<string, string[]>> {
  return new Map(m.topics.map((t) => [t.key, new Map(t.items.map((it) => [it.itemId, it.markers.map((x) => x.markerId).sort()]))]));
}

/** The same, from the truth: by concept (the concept's markers must form exactly one group). */
function expected(markers: readonly MarkerTruth[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const [concept, byItem] of truthByConcept(markers)) out.set(concept, new Map([...byItem].map(([id, ids]) => [id, [...ids].sort()])));
  return out;
}

/** Groups of the model matched to concepts: each concept's markers are exactly one group's. */
function assertGroupsMatch(model: MarkersAcross, truth: readonly MarkerTruth[], what: string): void {
  const got = groupsOf(model);
  const want = expected(truth);
  assert.equal(got.size, want.size, `${what}: one group per concept (${[...got.keys()].join(', ')})`);
  const conceptOfMarker = new Map(truth.map((t) => [t.markerId, t.concept]));
  for (const [key, byItem] of got) {
    const concepts = new Set([...byItem.values()].flat().map((id) => conceptOfMarker.get(id)));
    assert.equal(concepts.size, 1, `${what}: group "${key}" holds one concept, not ${[...concepts].join(', ')}`);
    const concept = [...concepts][0]!;
    assert.deepEqual(new Map([...byItem].sort()), new Map([...want.get(concept)!].sort()), `${what}: group "${key}" = concept ${concept}, item by item`);
    if (concept === NO_TOPIC) assert.equal(key, '', 'markers without a topic group under the empty key');
  }
}

/** The spelling most markers of a concept use (trimmed, spaces collapsed), the first in code-point order on a tie. */
function expectedLabel(truth: readonly MarkerTruth[], concept: string): string {
  const counts = new Map<string, number>();
  for (const t of truth) {
    const s = t.topic.replace(/\s+/g, ' ').trim();
    if (t.concept === concept) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const best = Math.max(...counts.values());
  return [...counts].filter(([, n]) => n === best).map(([s]) => s).sort()[0]!;
}

describe('markers across items', () => {
  test('every marker is grouped by its topic concept, then item, whatever the spelling (case, accents, script, punctuation)', () => {
    let variantsSeen = 0;
    for (const seed of SEEDS) {
      const c = acrossCorpus({ seed });
      const model = markersAcross(c);
      assertGroupsMatch(model, c.truth.markers, `seed ${seed}`);
      const conceptOf = new Map(c.truth.markers.map((t) => [t.markerId, t.concept]));
      for (const g of model.topics) {
        const concept = conceptOf.get(g.items[0]!.markers[0]!.markerId)!;
        const mine = c.truth.markers.filter((t) => t.concept === concept);
        assert.equal(g.count, mine.length, `${g.label}: count`);
        assert.equal(g.itemCount, new Set(mine.map((t) => t.itemId)).size, `${g.label}: items`);
        for (const k of MARKER_KINDS) assert.equal(g.byKind[k], mine.filter((t) => t.kind === k).length, `${g.label}: ${k}`);
        assert.equal(g.label, concept === NO_TOPIC ? '' : expectedLabel(c.truth.markers, concept), 'the label is the spelling most used');
        if (concept !== NO_TOPIC) {
          assert.deepEqual(new Set(g.variants), new Set(mine.map((t) => t.topic.replace(/\s+/g, ' ').trim())), 'every spelling is a variant');
          variantsSeen += g.variants.length > 1 ? 1 : 0;
        }
        for (let i = 1; i < g.items.length; i++) assert.ok(g.items[i - 1]!.count >= g.items[i]!.count, 'items with the most markers first');
      }
      for (let i = 1; i < model.topics.length; i++) assert.ok(model.topics[i - 1]!.count >= model.topics[i]!.count, 'topics with the most markers first');
      assert.equal(model.totals.markers, c.truth.markers.length);
      assert.equal(model.totals.items, new Set(c.truth.markers.map((t) => t.itemId)).size);
      assert.deepEqual(model.itemsWithoutMarkers, c.truth.items.filter((t) => !t.hasMarkers).map((t) => t.itemId));
      assert.deepEqual(markersAcrossSchema.parse(JSON.parse(JSON.stringify(model))), model, 'the model is valid and survives JSON');
    }
    assert.ok(variantsSeen >= 6, `concepts seen with several spellings: ${variantsSeen}`);
  });

  test('one kind across items: only that kind, every one of it', () => {
    for (const seed of SEEDS) {
      const c = acrossCorpus({ seed });
      for (const kind of MARKER_KINDS) {
        const model = markersAcross(c, { kinds: [kind] });
        const truth = c.truth.markers.filter((t) => t.kind === kind);
        assertGroupsMatch(model, truth, `seed ${seed} ${kind}`);
        assert.equal(model.totals.markers, truth.length);
        for (const k of MARKER_KINDS) assert.equal(model.totals.byKind[k], k === kind ? truth.length : 0);
      }
      const two: MarkerKind[] = ['FACT', 'ENGAGEMENT'];
      const model = markersAcross(c, { kinds: two, part: 'comments', groundedOnly: true });
      assertGroupsMatch(model, c.truth.markers.filter((t) => two.includes(t.kind) && t.part === 'comments' && t.grounded), `seed ${seed} comment facts and engagement`);
    }
  });

  test('one topic across items: any spelling of it finds all of it, and nothing else', () => {
    let asked = 0;
    for (const seed of SEEDS.slice(0, 3)) {
      const c = acrossCorpus({ seed });
      for (const concept of [...CONCEPTS.en, ...CONCEPTS.es, ...CONCEPTS.zh, ...CONCEPTS.shared]) {
        const truth = c.truth.markers.filter((t) => t.concept === concept.id);
        for (const spelling of concept.spellings) {
          const model = markersAcross(c, { topic: spelling });
          asked++;
          if (!truth.length) {
            assert.equal(model.topics.length, 0, `${spelling}: nothing`);
            continue;
          }
          assert.equal(model.topics.length, 1, `${spelling}: one group`);
          assertGroupsMatch(model, truth, `seed ${seed} topic "${spelling}"`);
        }
      }
    }
    assert.ok(asked > 50);
  });

  test('a topic asked with `contains` finds the topics holding it as whole words (Chinese: as characters)', () => {
    const c = acrossCorpus({ seed: 7, items: 24 });
    const lanes = markersAcross(c, { topic: 'LANES', topicMatch: 'contains' });
    assertGroupsMatch(lanes, c.truth.markers.filter((t) => t.concept === 'en-bike-lanes'), 'lanes');
    assert.equal(markersAcross(c, { topic: 'lane', topicMatch: 'contains' }).topics.length, 0, 'not inside a word');
    const che = markersAcross(c, { topic: '動車', topicMatch: 'contains' });
    assertGroupsMatch(che, c.truth.markers.filter((t) => t.concept === 'zh-diandongche'), '動車');
    const bici = markersAcross(c, { topic: 'bici', topicMatch: 'contains' });
    assertGroupsMatch(bici, c.truth.markers.filter((t) => t.concept === 'es-carril-bici'), 'bici');
  });

  test('each marker keeps its place: span, turns, times, file and line, a caption transcript\'s paragraph; in reading order under its item', () => {
    let timed = 0;
    let multiTurn = 0;
    let captions = 0;
    for (const seed of SEEDS) {
      const c = acrossCorpus({ seed });
      const truth = new Map(c.truth.markers.map((t) => [t.markerId, t]));
      for (const g of markersAcross(c).topics) {
        for (const it of g.items) {
          const starts = it.markers.map((m) => (m.place ? (m.place.part === 'transcript' ? 0 : 1e9) + m.place.start : Infinity));
          assert.deepEqual(starts, [...starts].sort((a, b) => a - b), 'reading order');
          for (const m of it.markers) {
            const t = truth.get(m.markerId)!;
            assert.equal(m.itemId, t.itemId);
            if (!t.grounded) {
              assert.equal(m.place, null);
              continue;
            }
            const p = m.place!;
            assert.deepEqual(
              { part: p.part, start: p.start, end: p.end, file: p.file, line: p.line, turn: p.turn, turnEnd: p.turnEnd, startTime: p.startTime, endTime: p.endTime },
              { part: t.part, start: t.start, end: t.end, file: t.file, line: t.line, turn: t.turn, turnEnd: t.turnEnd, startTime: t.startTime, endTime: t.endTime },
              `${m.markerId}`,
            );
            const item = c.items.find((i) => i.id === t.itemId)!;
            // the label's words are the item's language (locationWords.ts): turn 3, turnos 2–4, 第 11–12 次发言;
            // a transcript without speakers or times has lines, not turns: line 7, líneas 2–4, 第 3 行
            const speakerless = !item.transcript?.segments.some((s) => s.speaker);
            if (t.part === 'transcript') {
              assert.match(p.label, t.startTime !== null ? /\d+:\d\d/ : speakerless ? /lines? \d+|líneas? \d+|第 \d+(?:–\d+)? 行/ : /turns? \d+|turnos? \d+|第 \d+(?:–\d+)? 次发言/);
            }
            assert.equal(p.paragraph, t.caption ? readableParagraph(item, t.start!) : null, `${m.markerId}: the readable view's paragraph`);
            captions += t.caption ? 1 : 0;
            timed += t.startTime !== null ? 1 : 0;
            multiTurn += t.turn !== t.turnEnd ? 1 : 0;
          }
        }
      }
    }
    assert.ok(timed > 20 && multiTurn > 20 && captions > 20, `timed ${timed}, over several turns ${multiTurn}, in captions ${captions}`);
  });

  test('`counts` gives the same groups and counts without the markers; stale items are named', () => {
    const c = acrossCorpus({ seed: 11 });
    const full = markersAcross(c);
    const counts = markersAcross(c, { detail: 'counts' });
    assert.deepEqual(
      counts.topics.map((t) => [t.key, t.count, t.items.map((i) => [i.itemId, i.count])]),
      full.topics.map((t) => [t.key, t.count, t.items.map((i) => [i.itemId, i.count])]),
    );
    assert.ok(counts.topics.every((t) => t.items.every((i) => i.markers.length === 0)));
    const staleId = [...c.markers.keys()][0]!;
    c.markers.set(staleId, { ...c.markers.get(staleId)!, content_hash: 'older' });
    assert.deepEqual(markersAcross(c).staleItems, [staleId]);
    const scoped = markersAcross(c, { itemIds: [staleId] });
    assert.deepEqual(scoped.totals.markers, c.truth.markers.filter((t) => t.itemId === staleId).length, 'itemIds narrows the scope');
  });
});
