/**
 * The approximate index built in the background (issue 25): a store opened with `annInBackground`
 * comes out of `prepareAnn` (what syncVectors runs) with every vector pending and searches
 * exactly; `buildAnn` then adds the vectors in steps with the event loop running in between, so a
 * search issued while it runs is answered — exactly, from the scan — before it ends; items larger
 * than a step are added over several steps without a search ever seeing a vector twice or
 * missing one; the build reports progress, stops when its signal aborts (keeping what it added)
 * and picks up where it stopped.
 */
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { FlatVectorStore, textKey, type VectorEntry, type VectorModelInfo } from '../../src/core/ask/vectorStore';
import { CancelledError, type ProgressUpdate } from '../../src/core/util/abort';
import { mulberry32 } from '../../src/core/util/seededRandom';

const INFO: VectorModelInfo = { provider: 'test', model: 'background' };
const DIMS = 32;
/** Items of different sizes, several larger than a catch-up's first step (64 vectors). */
const SIZES = [300, 20, 180, 1, 450, 70, 64, 65, 250, 120];
const ITEMS = 40;
/** Far below the store's 12k+ vectors × 32: the store wants an index; scans until ~600 vectors are left. */
const MIN_WORK = 20_000;
const K = 20;

function generator(seed: number): () => Float32Array {
  const rand = mulberry32(seed);
  const centres = Array.from({ length: 40 }, () => Float32Array.from({ length: DIMS }, () => rand() * 2 - 1));
  return () => {
    const c = centres[Math.floor(rand() * centres.length)]!;
    return Float32Array.from(c, (x) => x + (rand() * 2 - 1) * 0.7);
  };
}

function entries(item: number, n: number, chunkBase: number, next: () => Float32Array): VectorEntry[] {
  return Array.from({ length: n }, (_, j) => ({ chunkId: chunkBase + j, key: textKey(`${item}/${j}/${chunkBase}`), part: j % 3 === 0 ? 'transcript' : 'comments', vector: next() }));
}

/** A store above the ANN size, opened for a background build; the vectors it holds. */
function bigStore(): { store: FlatVectorStore; total: number } {
  const store = new FlatVectorStore(INFO, undefined, { annMinWork: MIN_WORK, annInBackground: true });
  const next = generator(7);
  let chunk = 0;
  for (let i = 0; i < ITEMS; i++) {
    const n = SIZES[i % SIZES.length]!;
    store.upsertItem(`item-${i}`, `h${i}`, entries(i, n, chunk, next));
    chunk += n;
  }
  return { store, total: chunk };
}

const queries = ((): Float32Array[] => {
  const next = generator(99);
  return Array.from({ length: 8 }, () => next());
})();

/** Every query's results: k of them, no chunk twice, best first. */
function assertWellFormed(store: FlatVectorStore, label: string): void {
  for (const q of queries) {
    const hits = store.search(q, K);
    assert.equal(hits.length, K, label);
    assert.equal(new Set(hits.map((h) => h.chunkId)).size, K, `${label}: no vector twice`);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, label);
  }
}

describe('the approximate index built in the background', () => {
  test('prepareAnn of a background store sets the index up and returns with every vector pending; searches are exact', async () => {
    const { store, total } = bigStore();
    const status = await store.prepareAnn();
    assert.deepEqual(status, { mode: 'scan', indexed: 0, pending: total });
    for (const q of queries) assert.deepEqual(store.search(q, K), store.searchExact(q, K));
  });

  test('a search issued while buildAnn runs is answered, exactly, before the build ends', async () => {
    const { store, total } = bigStore();
    await store.prepareAnn();
    const events: string[] = [];
    const progress: ProgressUpdate[] = [];
    const build = store.buildAnn({ onProgress: (p) => void progress.push({ ...p }) }).then((s) => {
      events.push('build ended');
      return s;
    });
    let scanTicks = 0;
    let ticks = 0;
    // Searches between the build's steps, until it ends (bounded: a step adds at least 8 vectors).
    while (!events.includes('build ended') && ticks < total) {
      await tick();
      ticks++;
      const status = store.annStatus;
      if (status.building !== true) continue;
      if (status.mode === 'scan') {
        for (const q of queries) assert.deepEqual(store.search(q, K), store.searchExact(q, K), 'while most vectors are pending the search is the exact scan');
        scanTicks++;
        if (events.length === 0) events.push(`search answered at ${progress.at(-1)?.done ?? 0} of ${total} added`);
      } else {
        assertWellFormed(store, `through the index with ${status.pending} pending`);
      }
    }
    const final = await build;
    assert.match(events[0] ?? '', /^search answered at \d+ of \d+ added$/);
    assert.equal(events.at(-1), 'build ended', events.join(' → '));
    const firstAt = Number(/at (\d+) of/.exec(events[0]!)![1]);
    assert.ok(firstAt > 0 && firstAt < total, `the first search came between steps (${firstAt} of ${total} added)`);
    assert.ok(scanTicks >= 3, `searches answered on ${scanTicks} turns of the loop while the build ran`);
    assert.deepEqual(final, { mode: 'ann', indexed: total, pending: 0 });
    assert.deepEqual(store.annStatus, final, 'building is cleared');
    // Progress: several steps, done rising to the total.
    assert.ok(progress.length >= 5, `${progress.length} steps`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.done > progress[i - 1]!.done);
    assert.deepEqual(progress.at(-1), { done: total, total, message: 'vector index' });
    assert.ok(progress.every((p) => p.total === total));
    assertWellFormed(store, 'built');
  });

  test('an aborted build keeps what it added and stops; items changed meanwhile are seen; a second build finishes', async () => {
    const { store, total } = bigStore();
    await store.prepareAnn();
    const controller = new AbortController();
    let steps = 0;
    const stopped = store.buildAnn({
      signal: controller.signal,
      onProgress: () => {
        if (++steps === 3) controller.abort();
      },
    });
    await assert.rejects(stopped, CancelledError);
    const mid = store.annStatus;
    assert.equal(mid.building, undefined);
    assert.equal(mid.mode, 'scan');
    assert.ok(mid.indexed > 0 && mid.pending > 0 && mid.indexed + mid.pending <= total, JSON.stringify(mid));
    for (const q of queries) assert.deepEqual(store.search(q, K), store.searchExact(q, K));
    // Replace and drop items, among them (likely) one added only in part.
    const next = generator(1234);
    store.upsertItem('item-0', 'h0b', entries(0, 300, 900_000, next));
    store.upsertItem('item-4', 'h4b', entries(4, 450, 901_000, next));
    store.removeItem('item-2');
    const status = await store.buildAnn();
    const left = total - 180;
    assert.deepEqual(status, { mode: 'ann', indexed: left, pending: 0 });
    assertWellFormed(store, 'rebuilt');
    // The new vectors are found through the index: a stored vector as the query finds itself first.
    const probe = store.vectorForKey(textKey(`4/17/901000`))!;
    assert.equal(store.search(probe, 1)[0]?.chunkId, 901_017);
    assert.ok(!store.search(probe, 500).some((h) => h.itemId === 'item-2'), 'a removed item is never found');
  });

  test('a store without annInBackground still builds inside prepareAnn', async () => {
    const store = new FlatVectorStore(INFO, undefined, { annMinWork: MIN_WORK });
    const next = generator(3);
    for (let i = 0; i < 20; i++) store.upsertItem(`item-${i}`, `h${i}`, entries(i, 100, i * 100, next));
    assert.deepEqual(await store.prepareAnn(), { mode: 'ann', indexed: 2000, pending: 0 });
  });
});
