/**
 * The chunk rows of the index manifest (src/core/search/chunkRows.ts): chunks
 * come back as a JSON round trip of the objects gives them (the manifest's
 * form before), and a table that is not rows is refused.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { chunkItem, type Chunk } from '../../src/core/search/chunker';
import { fromRows, toRows, type ChunkRows } from '../../src/core/search/chunkRows';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

describe('chunk rows', () => {
  test('every chunk of the demo corpus round-trips through JSON as its object did', async () => {
    const corpus = await loadCorpus(DEMO);
    const chunks: [number, Chunk][] = corpus.items.flatMap((item) => chunkItem(item, { windowWords: 40 })).map((c, i) => [i * 3 + 1, c]);
    assert.ok(chunks.some(([, c]) => c.part === 'comments' && c.likes !== undefined && c.commentId !== undefined));
    assert.ok(chunks.some(([, c]) => c.part === 'transcript' && c.speakers?.length && c.startTime !== undefined));
    const table = JSON.parse(JSON.stringify(toRows(chunks))) as ChunkRows;
    assert.equal(table.itemIds.length, corpus.items.length, 'one entry per item');
    assert.deepEqual(fromRows(table), JSON.parse(JSON.stringify(chunks)));
    assert.ok(JSON.stringify(table).length < JSON.stringify(chunks).length * 0.7);
  });

  test('a table that is not rows is refused', () => {
    const good = toRows([[7, { itemId: 'a', part: 'comments', seq: 0, start: 0, end: 4, firstIndex: 0, lastIndex: 0, words: 1, likes: 3 }]]);
    assert.equal(fromRows(good)[0]![1].likes, 3);
    const bad: unknown[] = [
      { itemIds: ['a'] },
      { itemIds: [1], rows: [] },
      { itemIds: ['a'], rows: [[7, 0, 'comments', 0, 0, 4]] },
      { itemIds: ['a'], rows: [[7, 1, 'comments', 0, 0, 4, 0, 0, 1]] },
      { itemIds: ['a'], rows: [[7.5, 0, 'comments', 0, 0, 4, 0, 0, 1]] },
      { itemIds: ['a'], rows: [[7, 0, 'comments', 0, '0', 4, 0, 0, 1]] },
      { itemIds: ['a'], rows: [[7, 0, 'comments', 0, 0, 4, 0, 0, 1, null, null, null, null, null, null, null, null, null, 'extra']] },
      { itemIds: ['a'], rows: ['row'] },
    ];
    for (const table of bad) assert.throws(() => fromRows(table as ChunkRows), /chunk rows/, JSON.stringify(table));
  });
});
