/**
 * The chunks' texts the search index keeps beside it (chunkTexts.ts): what a
 * loaded index reads back is each chunk's text as indexed, a texts file not
 * saved with the manifest is never read, and an index still answers without it.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { mapSpan } from '../../src/core/corpus/spans';
import type { Corpus } from '../../src/core/corpus/types';
import { chunkText } from '../../src/core/search/chunker';
import { CorpusIndex, indexDir } from '../../src/core/search/corpusIndex';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

describe('chunk texts kept by the search index', () => {
  let dir: string;
  let corpus: Corpus;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-chunk-texts-'));
    await cp(DEMO, dir, { recursive: true, filter: (s) => path.basename(s) !== '.marker-research' });
    corpus = await loadCorpus(dir);
    await CorpusIndex.open(corpus);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a loaded index gives every chunk its text and place as indexed (English and Chinese)', async () => {
    const index = (await CorpusIndex.load(dir))!;
    assert.ok(index);
    let checked = 0;
    for (const item of corpus.items) {
      for (const id of index.itemChunkIds(item.id)) {
        const c = index.chunk(id)!;
        assert.equal(index.storedChunkText(id), chunkText(item, c), `${item.id} chunk ${id}`);
        const src = mapSpan(item, c)!;
        assert.deepEqual(c.range, [src.range.startLine, src.range.startColumn, src.range.endLine, src.range.endColumn]);
        checked++;
      }
    }
    assert.ok(checked > 10);
    assert.ok(corpus.items.some((i) => /[\u4e00-\u9fff]/.test(i.transcript?.text ?? '')), 'a Chinese item is among them');
  });

  test('a texts file not saved with the manifest is not read: the texts are missing, the search still answers', async () => {
    await writeFile(path.join(indexDir(dir), 'chunks.txt'), 'another-token\nsome bytes that belong to no manifest');
    const index = (await CorpusIndex.load(dir))!;
    assert.ok(index, 'the index itself loads');
    const first = index.itemChunkIds(corpus.items[0]!.id)[0]!;
    assert.equal(index.storedChunkText(first), undefined);
    assert.ok(index.search('coffee').length > 0);
  });

  test('texts of items re-indexed after a load are held until the next save, then read from the file', async () => {
    const index = (await CorpusIndex.load(dir))!;
    const changed = { ...corpus, items: corpus.items.map((it, i) => (i === 0 ? { ...it, contentHash: 'changed' } : it)) };
    index.update(changed);
    const id = index.itemChunkIds(corpus.items[0]!.id)[0]!;
    const text = chunkText(corpus.items[0]!, index.chunk(id)!);
    assert.equal(index.storedChunkText(id), text, 'held in memory');
    await index.save(dir);
    const reloaded = (await CorpusIndex.load(dir))!;
    assert.equal(reloaded.storedChunkText(id), text, 'read from the file saved with the manifest');
    // The texts lost in the test before were taken from their items at the save: every chunk has its text again.
    for (const item of corpus.items) for (const cid of reloaded.itemChunkIds(item.id)) assert.equal(reloaded.storedChunkText(cid), chunkText(item, reloaded.chunk(cid)!));
  });
});
