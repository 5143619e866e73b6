/**
 * Top-k search (src/core/search/postings.ts `search(…, limit)`, CorpusIndex
 * `search`/`searchWeighted(…, k)`): the first k hits, ids, scores and terms,
 * are exactly those of the exhaustive search cut at k — on generated indexes
 * (sealed, with a delta tier, with discarded documents; ties made likely by a
 * small vocabulary), generated weighted queries, filters on and off, many k —
 * and the column filters of the chunk table accept exactly the chunks the
 * filters' definition on chunk objects accepts.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import type { Chunk } from '../../src/core/search/chunker';
import { CorpusIndex, DEFAULT_INDEX_OPTIONS, type SearchFilters } from '../../src/core/search/corpusIndex';
import { PostingsIndex, type PostingsOptions, type QueryTerm } from '../../src/core/search/postings';
import { scoreChunks } from '../../src/core/search/retrieve';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const OPTIONS: PostingsOptions = { fields: ['text', 'title', 'speaker'], boosts: [1, 0.3, 0.3], bm25: { k: 1.2, b: 0.75, d: 0.5 } };

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/** A generated index: `n` documents of words from a vocabulary of `vocab` (skewed: low numbers common), in the state `mode` names. */
function generated(seed: number, n: number, vocab: number, mode: 'sealed' | 'delta' | 'discarded'): PostingsIndex {
  const next = rng(seed);
  const word = (): string => `w${Math.floor(vocab * next() ** 2)}`;
  const p = new PostingsIndex({ ...OPTIONS, sealAt: mode === 'sealed' ? undefined : 1 << 30 });
  const doc = (id: number): void => {
    const len = 1 + Math.floor(next() * 12);
    p.add(id, [Array.from({ length: len }, word), next() < 0.5 ? [word()] : [], next() < 0.2 ? [word(), word()] : []]);
  };
  for (let id = 0; id < n; id++) doc(id);
  if (mode !== 'sealed') p.seal();
  // More documents after the seal (a delta tier), and some discarded.
  if (mode !== 'sealed') for (let id = n; id < n + n / 4; id++) doc(id);
  if (mode === 'discarded') for (let id = 0; id < n + n / 4; id += 3 + Math.floor(next() * 5)) p.discard(id);
  return p;
}

function query(next: () => number, vocab: number): QueryTerm[] {
  // Now and then more than 32 distinct terms (two words of matched-term bits per document).
  if (next() < 0.1) return Array.from({ length: 40 }, (_, i) => ({ term: `w${i % vocab}`, boost: 1 + (i % 3) }));
  const terms = 1 + Math.floor(next() * 6);
  // Repeated terms and weights in a few values only: equal scores are common.
  return Array.from({ length: terms }, () => ({ term: next() < 0.05 ? 'absent' : `w${Math.floor(vocab * next() ** 2)}`, boost: [1, 1, 0.5, 2, 0.25][Math.floor(next() * 5)]! }));
}

describe('top-k search', () => {
  test('PostingsIndex: the first k hits equal the exhaustive search cut at k (generated indexes, queries, filters, k)', () => {
    let compared = 0;
    let cut = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const mode = (['sealed', 'delta', 'discarded'] as const)[seed % 3]!;
      const vocab = [8, 30, 200][seed % 4 === 0 ? 0 : (seed % 2) + 1]!;
      const p = generated(seed, 60 + seed * 25, vocab, mode);
      const next = rng(seed * 7919);
      const filters: [string, ((id: number) => boolean) | undefined][] = [
        ['none', undefined],
        ['id % 3', (id) => id % 3 !== 1],
        ['rare', (id) => id % 17 === 0],
        ['none pass', () => false],
      ];
      for (let i = 0; i < 12; i++) {
        const q = query(next, vocab);
        for (const [label, filter] of filters) {
          const all = p.search(q, filter);
          for (const k of [0, 1, 2, 3, 5, 10, 37, all.length - 1, all.length, all.length + 3]) {
            if (k < 0) continue;
            assert.deepEqual(p.search(q, filter, k), all.slice(0, k), `seed ${seed} (${mode}), query ${JSON.stringify(q)}, filter ${label}, k ${k}`);
            compared++;
            if (k < all.length) cut++;
          }
        }
      }
    }
    assert.ok(compared > 5000 && cut > 2000, `${compared} comparisons, ${cut} of them cut`);
  });

  test('the filter is asked only about documents that could enter the top k', () => {
    const p = generated(99, 3000, 8, 'sealed');
    const q: QueryTerm[] = [{ term: 'w0', boost: 1 }, { term: 'w1', boost: 1 }];
    let asked = 0;
    const filter = (id: number): boolean => (asked++, id % 2 === 0);
    const hits = p.search(q).length;
    asked = 0;
    p.search(q, filter, 10);
    const topAsked = asked;
    asked = 0;
    p.search(q, filter);
    assert.equal(asked, hits, 'the exhaustive search asks about every hit');
    assert.ok(hits > 1000 && topAsked < hits / 2, `top 10 asked about ${topAsked} of ${hits} hits`);
  });
});

/** The filters' definition on chunk objects (as CorpusIndex filtered before its chunks were columns). */
function accepts(f: SearchFilters, c: Chunk): boolean {
  const speaker = f.speaker?.toLowerCase();
  if (f.itemIds && !f.itemIds.includes(c.itemId)) return false;
  if (f.part && c.part !== f.part) return false;
  if (f.timeRange) {
    if (c.startTime === undefined) return false;
    const end = c.endTime ?? c.startTime;
    if (end < f.timeRange[0] || c.startTime > f.timeRange[1]) return false;
  }
  if (speaker && !c.speakers?.some((s) => s.toLowerCase().includes(speaker))) return false;
  if (f.minLikes !== undefined && (c.likes ?? 0) < f.minLikes) return false;
  return true;
}

describe('CorpusIndex top-k and column filters', () => {
  let dir: string;
  let corpus: Corpus;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-topk-'));
    await cp(DEMO, dir, { recursive: true });
    corpus = await loadCorpus(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const FILTERS: SearchFilters[] = [
    {},
    { part: 'comments' },
    { part: 'transcript' },
    { itemIds: ['city-cycling-podcast', 'remote-work-panel', 'not-an-item'] },
    { speaker: '工程师' },
    { speaker: 'HOST' },
    { speaker: 'a' },
    { minLikes: 10 },
    { minLikes: 0 },
    { timeRange: [0, 30] },
    { timeRange: [40, 200], part: 'transcript' },
    { itemIds: [] },
  ];
  const QUERIES = ['protected bike lanes injuries', '热泵 续航', 'bakery parking', 'remote work onboarding', 'the coffee price market', 'zzzz'];

  test('search, searchWeighted and scoreChunks with k equal the full lists cut at k; filters match their definition on chunks (built, loaded, updated)', async () => {
    const small = { ...DEFAULT_INDEX_OPTIONS, chunk: { windowWords: 25 } };
    const built = CorpusIndex.build(corpus, small);
    await built.save(dir);
    const loaded = (await CorpusIndex.load(dir, small))!;
    assert.ok(loaded);
    // An update after a load: the table's columns are copied, one item removed and one re-added.
    const updated = (await CorpusIndex.load(dir, small))!;
    updated.update({ ...corpus, items: corpus.items.slice(1) });
    updated.update(corpus);
    let cut = 0;
    for (const [label, index] of [['built', built], ['loaded', loaded], ['updated', updated]] as const) {
      for (const f of FILTERS) {
        for (const q of QUERIES) {
          const all = index.searchAll(q, f);
          const unfiltered = index.searchAll(q);
          assert.deepEqual(all.map((h) => h.id), unfiltered.filter((h) => accepts(f, h.chunk)).map((h) => h.id), `${label}: filter ${JSON.stringify(f)} on "${q}"`);
          const weights = new Map(q.split(' ').map((t, i) => [t, 1 + (i % 2)] as const));
          const allWeighted = index.searchWeighted(weights, f);
          for (const k of [1, 2, 5, 10, all.length + 1]) {
            assert.deepEqual(index.search(q, { ...f, k }), all.slice(0, k), `${label}: "${q}" ${JSON.stringify(f)} k ${k}`);
            assert.deepEqual(index.searchWeighted(weights, f, k), allWeighted.slice(0, k), `${label}: weighted "${q}" ${JSON.stringify(f)} k ${k}`);
            assert.deepEqual(scoreChunks(index, q, f, k), scoreChunks(index, q, f).slice(0, k), `${label}: scoreChunks "${q}" ${JSON.stringify(f)} k ${k}`);
            if (k < all.length) cut++;
          }
        }
      }
      assert.equal(index.size.chunks, built.size.chunks, label);
      for (const item of corpus.items) assert.deepEqual(index.itemChunkIds(item.id).map((id) => index.chunk(id)), built.itemChunkIds(item.id).map((id) => built.chunk(id)), `${label}: ${item.id}`);
    }
    assert.ok(cut > 100, `${cut} cut comparisons`);
  });
});
