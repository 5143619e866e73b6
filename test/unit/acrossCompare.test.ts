/**
 * Compare Items (issue 24): two or more generated items side by side — their markers by kind, the
 * topics they share and those only one has, and the topic similarity — all computed here from how
 * the markers were made (topic concepts, not the code's folding).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareItems } from '../../src/core/across/compareItems';
import { MARKER_KINDS } from '../../src/core/markers/schema';
import { itemsComparisonSchema } from '../../src/shared/acrossModel';
import { CONCEPTS, NO_TOPIC, acrossCorpus, type GeneratedAcrossCorpus } from '../support/acrossCorpus';
import { rng } from '../support/testing';

/** Concept of each spelling (spaces collapsed, as the model writes them). */
const CONCEPT_OF = new Map(Object.values(CONCEPTS).flat().flatMap((c) => c.spellings.map((x) => [x.replace(/\s+/g, ' ').trim(), c.id] as const)));

/** Concept → markers, per item. */
function conceptCounts(c: GeneratedAcrossCorpus, itemId: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of c.truth.markers) if (t.itemId === itemId && t.concept !== NO_TOPIC) out.set(t.concept, (out.get(t.concept) ?? 0) + 1);
  return out;
}

describe('compare items', () => {
  test('markers by kind, shared and distinct topics and the similarities are those of the truth', () => {
    let shared = 0;
    let pairs = 0;
    for (const seed of [21, 22, 23, 24, 25, 26, 27, 28]) {
      const c = acrossCorpus({ seed, items: 15 });
      const r = rng(seed * 7);
      const ids = c.items.map((i) => i.id);
      for (let round = 0; round < 6; round++) {
        const n = 2 + Math.floor(r() * 3);
        const chosen = [...ids].sort(() => r() - 0.5).slice(0, n);
        const cmp = compareItems(c, { itemIds: chosen });
        assert.deepEqual(itemsComparisonSchema.parse(JSON.parse(JSON.stringify(cmp))), cmp, 'valid model');
        assert.deepEqual(cmp.items.map((i) => i.itemId), chosen, 'in the order asked');
        const per = chosen.map((id) => conceptCounts(c, id));
        for (const [k, it] of cmp.items.entries()) {
          const mine = c.truth.markers.filter((t) => t.itemId === it.itemId);
          assert.equal(it.total, mine.length);
          assert.equal(it.hasMarkers, c.truth.items.find((t) => t.itemId === it.itemId)!.hasMarkers);
          for (const kind of MARKER_KINDS) {
            assert.equal(it.byKind[kind], mine.filter((t) => t.kind === kind).length, `${it.itemId} ${kind}`);
            assert.deepEqual(it.markers[kind].map((m) => m.markerId).sort(), mine.filter((t) => t.kind === kind).map((t) => t.markerId).sort());
          }
          assert.equal(it.topicCount, per[k]!.size);
          assert.equal(it.date, c.truth.items.find((t) => t.itemId === it.itemId)!.day);
        }
        // Shared: concepts in >= 2 items, with per-item counts; a topic's concept is read off its spellings.
        const conceptOfTopic = (spellings: readonly string[]): string => {
          const concepts = new Set(spellings.map((x) => CONCEPT_OF.get(x)));
          assert.equal(concepts.size, 1, `one concept for ${spellings.join(' | ')}`);
          return [...concepts][0]!;
        };
        const wantShared = new Map<string, number[]>();
        const all = new Set(per.flatMap((p) => [...p.keys()]));
        for (const concept of all) {
          const counts = per.map((p) => p.get(concept) ?? 0);
          if (counts.filter((x) => x > 0).length >= 2) wantShared.set(concept, counts);
        }
        assert.equal(cmp.sharedTopics.length, wantShared.size, 'shared topics');
        for (const s of cmp.sharedTopics) {
          assert.deepEqual(s.counts, wantShared.get(conceptOfTopic(s.variants)), `shared ${s.label}`);
          assert.equal(s.itemCount, s.counts.filter((x) => x > 0).length);
          shared++;
        }
        for (const [k, d] of cmp.distinctTopics.entries()) {
          const want = [...per[k]!].filter(([concept]) => per.every((p, j) => j === k || !p.has(concept)));
          assert.equal(d.topics.length, want.length, `${d.itemId}: distinct topics`);
          assert.deepEqual(new Map(d.topics.map((t) => [conceptOfTopic([t.label]), t.count])), new Map(want));
        }
        // Similarities over concept sets.
        assert.equal(cmp.similarity.pairs.length, (n * (n - 1)) / 2);
        for (const p of cmp.similarity.pairs) {
          const a = per[chosen.indexOf(p.a)]!;
          const b = per[chosen.indexOf(p.b)]!;
          const union = new Set([...a.keys(), ...b.keys()]);
          const both = [...union].filter((x) => a.has(x) && b.has(x)).length;
          const min = [...union].reduce((s, x) => s + Math.min(a.get(x) ?? 0, b.get(x) ?? 0), 0);
          const max = [...union].reduce((s, x) => s + Math.max(a.get(x) ?? 0, b.get(x) ?? 0), 0);
          assert.equal(p.shared, both);
          assert.equal(p.union, union.size);
          assert.equal(p.jaccard, union.size ? both / union.size : null);
          assert.equal(p.weighted, max ? min / max : null);
          pairs++;
        }
        const inAll = [...all].filter((x) => per.every((p) => p.has(x))).length;
        assert.equal(cmp.similarity.all, all.size ? inAll / all.size : null);
      }
    }
    assert.ok(shared > 50 && pairs > 100, `shared topics checked ${shared}, pairs ${pairs}`);
  });

  test('an item and its twin whose topics are written in the other script, case and accents have the same topics', () => {
    const c = acrossCorpus({ seed: 31, items: 9 });
    const ofTranscript = (id: string): boolean => c.truth.markers.some((m) => m.itemId === id && m.part === 'transcript' && m.concept !== NO_TOPIC);
    for (const lang of ['en', 'es', 'zh'] as const) {
      const id = c.truth.items.find((t) => t.lang === lang && ofTranscript(t.itemId))!.itemId;
      const twin = { ...c.items.find((i) => i.id === id)!, id: `${id}-twin` };
      const file = structuredClone(c.markers.get(id)!);
      const toTraditional: Record<string, string> = { 电: '電', 动: '動', 车: '車', 预: '預' };
      for (const list of [file.transcript_summary!.key_facts, file.transcript_summary!.key_opinions, file.transcript_summary!.key_datapoints]) {
        for (const m of list) m.topic = m.topic.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[电动车预]/g, (ch) => toTraditional[ch]!);
      }
      c.items.push(twin);
      c.markers.set(twin.id, { ...file, item_id: twin.id });
      const cmp = compareItems(c, { itemIds: [id, twin.id], part: 'transcript' });
      const p = cmp.similarity.pairs[0]!;
      assert.ok(p.union > 0, lang);
      assert.equal(p.jaccard, 1, lang);
      assert.equal(p.weighted, 1, lang);
      assert.deepEqual(cmp.distinctTopics.map((d) => d.topics.length), [0, 0], lang);
      assert.ok(cmp.sharedTopics.every((t) => t.counts[0] === t.counts[1] && t.itemCount === 2), lang);
    }
  });

  test('ids not in the corpus are named, an id asked twice is compared once, items without markers compare empty', () => {
    const c = acrossCorpus({ seed: 41, items: 12 });
    const without = c.truth.items.find((t) => !t.hasMarkers);
    const withM = c.truth.items.find((t) => t.hasMarkers)!;
    const ids = [withM.itemId, 'no-such-item', withM.itemId, ...(without ? [without.itemId] : [])];
    const cmp = compareItems(c, { itemIds: ids });
    assert.deepEqual(cmp.missing, ['no-such-item']);
    assert.deepEqual(cmp.items.map((i) => i.itemId), [withM.itemId, ...(without ? [without.itemId] : [])]);
    if (without) {
      const it = cmp.items[1]!;
      assert.equal(it.hasMarkers, false);
      assert.equal(it.total, 0);
      assert.deepEqual(cmp.distinctTopics[1]!.topics, []);
      assert.equal(cmp.similarity.pairs[0]!.shared, 0);
    }
  });
});
