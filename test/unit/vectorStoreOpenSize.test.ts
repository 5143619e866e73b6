/**
 * An opened vector store makes its arrays once, at the size its manifest lists (issue 25): no
 * doubling while it loads (which held the old and the new array at once and left up to half of
 * the last one unused — 1.6 GB of float32 at 1 M × 768). Generated stores of several sizes and
 * dimensions, saved and opened: the store's own bytes are exactly the vectors' (float32) plus
 * 9 bytes of slot data each; searches answer as before; the store still grows after it opened.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FlatVectorStore, textKey, vectorsDir, type VectorEntry, type VectorModelInfo } from '../../src/core/ask/vectorStore';
import { mulberry32 } from '../../src/core/util/seededRandom';

const SLOT_BYTES = 4 + 4 + 1;

function entries(rand: () => number, item: number, n: number, dims: number, chunkBase: number): VectorEntry[] {
  return Array.from({ length: n }, (_, j) => ({
    chunkId: chunkBase + j,
    key: textKey(`${item}/${j}/${dims}`),
    part: j % 2 === 0 ? 'transcript' : 'comments',
    vector: Float32Array.from({ length: dims }, () => rand() * 2 - 1),
  }));
}

describe('an opened vector store is sized by its manifest', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-vec-open-size-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  for (const [vectors, dims, perItem] of [
    [1, 8, 1],
    [1023, 8, 31],
    [1025, 48, 100],
    [3000, 16, 7],
    [5000, 48, 250],
  ] as const) {
    test(`${vectors} vectors × ${dims} in items of ${perItem}`, async () => {
      const info: VectorModelInfo = { provider: 'test', model: `size-${vectors}-${dims}` };
      const rand = mulberry32(vectors * 7 + dims);
      const store = new FlatVectorStore(info, vectorsDir(root, info));
      for (let i = 0, c = 0; c < vectors; i++) {
        const n = Math.min(perItem, vectors - c);
        store.upsertItem(`item-${i}`, `h${i}`, entries(rand, i, n, dims, c));
        c += n;
      }
      await store.save();
      const queries = Array.from({ length: 5 }, () => Float32Array.from({ length: dims }, () => rand() * 2 - 1));
      const { store: opened, problems } = await FlatVectorStore.open(root, info);
      assert.deepEqual(problems, []);
      assert.equal(opened.size, vectors);
      assert.equal(opened.arrayBytes, vectors * (dims * 4 + SLOT_BYTES), 'arrays of exactly the listed vectors');
      for (const q of queries) {
        const [got, want] = [opened.search(q, 10), store.search(q, 10)];
        assert.deepEqual(got.map((m) => m.chunkId), want.map((m) => m.chunkId));
        // Float32 vectors normalised again when read: scores agree to float32 precision.
        got.forEach((m, i) => assert.ok(Math.abs(m.score - want[i]!.score) < 1e-6));
      }
      // It grows as before once open.
      opened.upsertItem('late', 'h-late', entries(rand, 99_999, 3, dims, 10_000_000));
      assert.equal(opened.size, vectors + 3);
      assert.ok(opened.arrayBytes >= (vectors + 3) * (dims * 4 + SLOT_BYTES));
      const late = opened.vectorForKey(textKey(`99999/1/${dims}`))!;
      assert.equal(opened.search(late, 1)[0]?.chunkId, 10_000_001);
    });
  }
});
