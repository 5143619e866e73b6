/**
 * The vector store's approximate index (issue 25) on generated clustered vectors: recall@10
 * against the exact scan above a floor, filters (items, part, accept) never letting an excluded
 * vector through, changed and removed items seen at once (pending vectors are scanned), the index
 * saved beside the vectors and loaded again instead of rebuilt, syncVectors keeping it up to
 * date, and the exact scan — with a logged note — when the addon is unavailable.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { simulateAnnUnavailable } from '../../src/core/ask/annIndex';
import { ANN_DIR } from '../../src/core/ask/vectorAnn';
import { FlatVectorStore, textKey, vectorsDir, type VectorEntry, type VectorFilter, type VectorModelInfo } from '../../src/core/ask/vectorStore';
import { syncVectors } from '../../src/core/ask/vectorSync';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { PartKind } from '../../src/core/corpus/types';
import type { EmbeddingClient } from '../../src/core/llm/embeddings';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { fakeEmbedding } from '../support/fakeModelServer';

const INFO: VectorModelInfo = { provider: 'test', model: 'clustered' };
const DIMS = 32;
const ITEMS = 120;
const PER_ITEM = 50;
/** 6,000 vectors × 32 dimensions: far above this, so the store searches through the index. */
const MIN_WORK = 20_000;
/** The recall@10 the index must reach against the exact scan (HNSW on these clusters gives ~0.99). */
const RECALL_FLOOR = 0.9;

/** Clustered vectors: 60 centres, each vector a centre plus noise. */
function generator(seed: number): () => Float32Array {
  const rand = mulberry32(seed);
  const centres = Array.from({ length: 60 }, () => Float32Array.from({ length: DIMS }, () => rand() * 2 - 1));
  return () => {
    const c = centres[Math.floor(rand() * centres.length)]!;
    return Float32Array.from(c, (x) => x + (rand() * 2 - 1) * 0.7);
  };
}

const partOf = (j: number): PartKind => (j % 3 === 0 ? 'transcript' : 'comments');

function entriesFor(item: number, next: () => Float32Array, chunkBase = item * PER_ITEM): VectorEntry[] {
  return Array.from({ length: PER_ITEM }, (_, j) => ({ chunkId: chunkBase + j, key: textKey(`${item}/${j}/${chunkBase}`), part: partOf(j), vector: next() }));
}

function fill(store: FlatVectorStore, seed = 1): void {
  const next = generator(seed);
  for (let i = 0; i < ITEMS; i++) store.upsertItem(`item-${i}`, `h${i}`, entriesFor(i, next));
}

function recallAt10(store: FlatVectorStore, queries: readonly Float32Array[], filter?: (i: number) => VectorFilter): number {
  let found = 0;
  let wanted = 0;
  queries.forEach((q, i) => {
    const exact = store.searchExact(q, 10, filter?.(i)).map((m) => m.chunkId);
    const got = new Set(store.search(q, 10, filter?.(i)).map((m) => m.chunkId));
    wanted += exact.length;
    found += exact.filter((id) => got.has(id)).length;
  });
  return found / wanted;
}

const queries = ((): Float32Array[] => {
  const next = generator(99);
  return Array.from({ length: 40 }, () => next());
})();

describe('FlatVectorStore with the approximate index', () => {
  let store: FlatVectorStore;
  before(async () => {
    store = new FlatVectorStore(INFO, undefined, { annMinWork: MIN_WORK });
    fill(store);
    await store.prepareAnn();
  });

  test('a large store searches through the index; a small one keeps the exact scan', async () => {
    assert.deepEqual(store.annStatus, { mode: 'ann', indexed: ITEMS * PER_ITEM, pending: 0 });
    const small = new FlatVectorStore(INFO);
    fill(small);
    await small.prepareAnn();
    assert.deepEqual(small.annStatus, { mode: 'scan', indexed: 0, pending: 0 });
  });

  test(`recall@10 against the exact scan is at least ${RECALL_FLOOR}, with and without filters`, () => {
    const many = Array.from({ length: 80 }, (_, i) => `item-${i}`);
    const cases: [string, ((i: number) => VectorFilter) | undefined][] = [
      ['no filter', undefined],
      ['80 of 120 items', () => ({ itemIds: many })],
      ['part = transcript', () => ({ part: 'transcript' })],
      ['80 items and part = comments', () => ({ itemIds: many, part: 'comments' })],
    ];
    for (const [name, filter] of cases) {
      const recall = recallAt10(store, queries, filter);
      assert.ok(recall >= RECALL_FLOOR, `${name}: recall@10 ${recall.toFixed(3)} < ${RECALL_FLOOR}`);
    }
  });

  test('scores are exact and results best first', () => {
    for (const q of queries.slice(0, 10)) {
      const exact = new Map(store.searchExact(q, ITEMS * PER_ITEM).map((m) => [m.chunkId, m.score]));
      const hits = store.search(q, 20);
      assert.equal(hits.length, 20);
      for (const h of hits) assert.equal(h.score, exact.get(h.chunkId));
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    }
  });

  test('filters never let an excluded vector through (many generated filters)', () => {
    const rand = mulberry32(7);
    for (let n = 0; n < 60; n++) {
      const itemIds = rand() < 0.7 ? Array.from({ length: 1 + Math.floor(rand() * 110) }, () => `item-${Math.floor(rand() * ITEMS)}`) : undefined;
      const part = rand() < 0.5 ? partOf(Math.floor(rand() * 3)) : undefined;
      const mod = 1 + Math.floor(rand() * 4);
      const filter: VectorFilter = { itemIds, part, accept: (chunkId) => chunkId % mod === 0 };
      const k = 1 + Math.floor(rand() * 60);
      const hits = store.search(queries[n % queries.length]!, k, filter);
      const allowed = itemIds && new Set(itemIds);
      for (const h of hits) {
        assert.ok(!allowed || allowed.has(h.itemId), `filter ${n}: ${h.itemId} is not listed`);
        assert.ok(part === undefined || partOf(h.chunkId % PER_ITEM) === part, `filter ${n}: chunk ${h.chunkId} is of the other part`);
        assert.equal(h.chunkId % mod, 0, `filter ${n}: chunk ${h.chunkId} was not accepted`);
        assert.equal(h.itemId, `item-${Math.floor(h.chunkId / PER_ITEM)}`);
      }
      // As many results as the exact scan finds (the index falls back to it when too few match).
      assert.equal(hits.length, store.searchExact(queries[n % queries.length]!, k, filter).length, `filter ${n}`);
    }
  });

  test('a filter only a few vectors pass gives all of them (exact fallback)', () => {
    const few = new Set([17, 2_345, 5_999]);
    const hits = store.search(queries[0]!, 10, { accept: (chunkId) => few.has(chunkId) });
    assert.deepEqual(hits.map((h) => h.chunkId).sort((a, b) => a - b), [...few]);
  });

  test('changed and removed items are seen at once, then indexed by prepareAnn', async () => {
    const target = queries[3]!;
    // item-5 now holds vectors right at the query.
    store.upsertItem('item-5', 'changed', Array.from({ length: PER_ITEM }, (_, j) => ({ chunkId: 100_000 + j, key: textKey(`moved/${j}`), part: partOf(j), vector: Float32Array.from(target, (x) => x + j * 1e-4) })));
    store.removeItem('item-6');
    assert.equal(store.annStatus.pending, PER_ITEM);
    assert.equal(store.annStatus.mode, 'ann');
    const check = (): void => {
      const hits = store.search(target, 10);
      assert.ok(hits.every((h) => h.chunkId >= 100_000 && h.itemId === 'item-5'), 'the changed item is found first');
      const all = store.search(target, 500);
      assert.ok(!all.some((h) => h.itemId === 'item-6' || (h.itemId === 'item-5' && h.chunkId < 100_000)), 'old vectors are gone');
    };
    check();
    await store.prepareAnn();
    assert.deepEqual(store.annStatus, { mode: 'ann', indexed: (ITEMS - 1) * PER_ITEM, pending: 0 });
    check();
  });
});

describe('the approximate index on disk', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-ann-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('saved beside the vectors, loaded on open (not rebuilt); an item changed since is pending again', async () => {
    const store = new FlatVectorStore(INFO, vectorsDir(root, INFO), { annMinWork: MIN_WORK });
    fill(store);
    await store.prepareAnn();
    await store.save();
    const annFiles = await readdir(path.join(vectorsDir(root, INFO), ANN_DIR));
    assert.equal(annFiles.filter((f) => f.endsWith('.usearch')).length, 1);

    const reopened = (await FlatVectorStore.open(root, INFO, { annMinWork: MIN_WORK })).store;
    assert.deepEqual(reopened.annStatus, { mode: 'ann', indexed: ITEMS * PER_ITEM, pending: 0 });
    assert.ok(recallAt10(reopened, queries) >= RECALL_FLOOR);

    // A small change: item files are written, the index is not (below 1% / 1,000 vectors) ...
    const next = generator(5);
    reopened.upsertItem('item-9', 'h9b', entriesFor(9, next, 50_000));
    await reopened.save();
    assert.deepEqual(await readdir(path.join(vectorsDir(root, INFO), ANN_DIR)), annFiles);
    // ... so the next open finds item-9 changed and scans its vectors until they are added.
    const third = (await FlatVectorStore.open(root, INFO, { annMinWork: MIN_WORK })).store;
    assert.deepEqual(third.annStatus, { mode: 'ann', indexed: (ITEMS - 1) * PER_ITEM, pending: PER_ITEM });
    const probe = third.searchExact(third.vectorForKey(textKey(`9/0/50000`))!, 1)[0]!;
    assert.deepEqual(third.search(third.vectorForKey(textKey(`9/0/50000`))!, 1)[0], probe);
    await third.prepareAnn();
    assert.equal(third.annStatus.pending, 0);
  });

  test('a cleared store deletes its saved index', async () => {
    const { store } = await FlatVectorStore.open(root, INFO, { annMinWork: MIN_WORK });
    store.clear();
    await store.save();
    assert.deepEqual((await readdir(vectorsDir(root, INFO))).includes(ANN_DIR), false);
  });
});

describe('syncVectors and the approximate index', () => {
  test('a sync builds the index of a large store and adds only changed items later; the demo corpus answers the same', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-ann-sync-'));
    try {
      await cp(path.join(__dirname, '..', '..', 'samples', 'demo-corpus'), dir, { recursive: true });
      const corpus = await loadCorpus(dir);
      const index = (await CorpusIndex.open(corpus)).index;
      const client: EmbeddingClient = {
        provider: 'ollama',
        model: 'fake-embed',
        dimensions: undefined,
        embed: async (texts) => texts.map((t) => Float32Array.from(fakeEmbedding(t, 64))),
      };
      const info = { provider: client.provider, model: client.model };
      const store = new FlatVectorStore(info, vectorsDir(dir, info), { annMinWork: 1_000 });
      const { report } = await syncVectors(corpus, index, client, { store });
      assert.deepEqual(store.annStatus, { mode: 'ann', indexed: report.vectors, pending: 0 });
      const [q] = await client.embed(['winter range of the heat pump']);
      assert.deepEqual(store.search(q!, 5).map((m) => m.chunkId), store.searchExact(q!, 5).map((m) => m.chunkId));

      // Reopened as syncVectors opens it: the saved index is loaded, nothing pending, nothing re-added.
      const reopened = (await FlatVectorStore.open(dir, info, { annMinWork: 1_000 })).store;
      assert.deepEqual(reopened.annStatus, { mode: 'ann', indexed: report.vectors, pending: 0 });
      const again = await syncVectors(corpus, index, client, { store: reopened });
      assert.equal(again.report.embedded, 0);
      assert.deepEqual(reopened.annStatus, { mode: 'ann', indexed: report.vectors, pending: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('without the addon', () => {
  after(() => simulateAnnUnavailable(undefined));

  test('the store scans exactly and says why once in the log', async () => {
    simulateAnnUnavailable('the usearch addon does not load on test-arch (simulated)');
    const store = new FlatVectorStore(INFO, undefined, { annMinWork: MIN_WORK });
    fill(store);
    const warnings: string[] = [];
    const log = { debug: () => undefined, info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined };
    await store.prepareAnn({ log });
    await store.prepareAnn({ log });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /usearch addon does not load.*exact scan/);
    assert.deepEqual(store.annStatus, { mode: 'scan', indexed: 0, pending: 0, unavailable: 'the usearch addon does not load on test-arch (simulated)' });
    for (const q of queries.slice(0, 5)) assert.deepEqual(store.search(q, 10, { part: 'transcript' }), store.searchExact(q, 10, { part: 'transcript' }));
  });
});
