/**
 * The chunks' texts the search index keeps beside it (chunkTexts.ts): what a
 * loaded index reads back is each chunk's text as indexed, a texts file not
 * saved with the manifest is never read, and an index still answers without it;
 * past the memory budget texts go to a spool file and read back the same, and
 * an index built that way holds bounded texts and loads as the in-memory build.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { PartStore } from '../../src/core/corpus/partStore';
import { mapSpan } from '../../src/core/corpus/spans';
import type { Corpus } from '../../src/core/corpus/types';
import { chunkText } from '../../src/core/search/chunker';
import { ChunkTexts, chunkTextsLimits } from '../../src/core/search/chunkTexts';
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

/** A seeded generated corpus: `items` folders, each a WebVTT transcript of `turns` turns by a few speakers and a comments file. */
async function writeGeneratedCorpus(dir: string, items: number, turns: number, seed: number): Promise<void> {
  let x = seed;
  const next = (): number => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const vocab = ['battery', 'price', 'winter', 'range', 'charger', 'city', 'coffee', 'harvest', 'lane', 'bike', 'remote', 'team', '电池', '价格', 'precio', 'energía', 'market', 'growth'];
  const sentence = (n: number): string => Array.from({ length: n }, () => vocab[Math.floor(next() * vocab.length)]!).join(' ');
  const stamp = (s: number): string => `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
  for (let i = 0; i < items; i++) {
    const item = path.join(dir, `gen-${String(i).padStart(3, '0')}`);
    await mkdir(item, { recursive: true });
    const cues = Array.from({ length: turns }, (_, t) => `${stamp(t * 5)} --> ${stamp(t * 5 + 5)}\n<v ${['Maya', 'Daniel Ortega-Whitfield', '主持人'][t % 3]}>${sentence(10 + Math.floor(next() * 30))}.`);
    await writeFile(path.join(item, 'transcript.vtt'), `WEBVTT\n\n${cues.join('\n\n')}\n`);
    const comments = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, c) => JSON.stringify({ comment_id: `c${i}-${c}`, author: `viewer${c}`, text: sentence(5 + c), likes: c * 3, published_at: '2024-03-14T11:02:00Z' }));
    await writeFile(path.join(item, 'comments.jsonl'), `${comments.join('\n')}\n`);
  }
}

describe('chunk texts past the memory budget (streamed build)', () => {
  let dir: string;
  const saved = chunkTextsLimits.spillBytes;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-chunk-spool-'));
    await writeGeneratedCorpus(dir, 40, 60, 7);
  });
  after(async () => {
    chunkTextsLimits.spillBytes = saved;
    await rm(dir, { recursive: true, force: true });
  });

  test('ChunkTexts: generated texts spooled past the budget read back as given, before and after a save, and the spool goes', async () => {
    const spoolDir = await mkdtemp(path.join(tmpdir(), 'mr-spool-'));
    try {
      for (const budget of [1, 100, 5_000]) {
        chunkTextsLimits.spillBytes = budget;
        const texts = new ChunkTexts();
        texts.spoolIn(spoolDir);
        const want = new Map<number, string>();
        let longest = 0;
        for (let id = 0; id < 500; id++) {
          const t = `${id} ${'電池 battery ñ '.repeat(id % 17)}`;
          want.set(id * 2, t);
          texts.set(id * 2, t);
          longest = Math.max(longest, Buffer.byteLength(t));
          assert.ok(texts.pendingBytes <= budget + longest, `held ${texts.pendingBytes} bytes, budget ${budget}`);
        }
        for (const id of [4, 10, 998]) {
          texts.delete(id);
          want.delete(id);
        }
        assert.ok(texts.spooledCount > 0, 'some texts were spooled');
        for (const [id, t] of want) assert.equal(texts.get(id), t);
        assert.equal(texts.get(4), undefined);
        const file = path.join(spoolDir, 'chunks.txt');
        const { parts, record } = texts.serialize([...want.keys()]);
        await writeFile(file, Buffer.concat([...parts]));
        texts.markSaved(file, record());
        assert.equal(texts.spooledCount, 0);
        assert.equal(texts.pendingCount, 0);
        assert.deepEqual((await readdir(spoolDir)).filter((f) => f.startsWith('chunks.spool.')), [], 'the spool file is removed');
        for (const [id, t] of want) assert.equal(texts.get(id), t);
        texts.close();
      }
    } finally {
      await rm(spoolDir, { recursive: true, force: true });
    }
  });

  test('ChunkTexts: a text read from the file and kept is never given once deleted or set again, nor after another file is attached', async () => {
    const fileDir = await mkdtemp(path.join(tmpdir(), 'mr-recent-'));
    try {
      const texts = new ChunkTexts();
      const save = async (name: string, entries: [number, string][]): Promise<void> => {
        for (const [id, t] of entries) texts.set(id, t);
        const file = path.join(fileDir, name);
        const { parts, record } = texts.serialize(entries.map(([id]) => id));
        await writeFile(file, Buffer.concat([...parts]));
        texts.markSaved(file, record());
      };
      const entries = Array.from({ length: 3000 }, (_, id) => [id, `${id} ${'電池 battery ñ '.repeat(id % 5)}`] as [number, string]);
      await save('a.txt', entries);
      for (const round of [0, 1]) for (const [id, t] of entries) assert.equal(texts.get(id), t, `round ${round}: ${id}`);
      const last = entries[entries.length - 1]![0];
      assert.equal(texts.get(last), entries[entries.length - 1]![1]);
      texts.delete(last);
      assert.equal(texts.get(last), undefined, 'a deleted text read before is gone');
      texts.set(last, 'set again');
      assert.equal(texts.get(last), 'set again');
      await save('b.txt', [[last, 'saved again'], [5, 'five again']]);
      assert.equal(texts.get(last), 'saved again');
      assert.equal(texts.get(5), 'five again');
      assert.equal(texts.get(6), undefined, 'a text of the file attached before is not readable, even if read lately');
      texts.close();
    } finally {
      await rm(fileDir, { recursive: true, force: true });
    }
  });

  test('an index built by open() with a small budget holds bounded texts and parsed items, and loads as the in-memory build', async () => {
    chunkTextsLimits.spillBytes = 4_000;
    const parts = new PartStore(2_000);
    const corpus = await loadCorpus(dir, { itemCache: new Map(), parts });
    let mostItems = 0;
    const { index, report } = await CorpusIndex.open(corpus, undefined, undefined, () => (mostItems = Math.max(mostItems, parts.items)));
    assert.equal(report.mode, 'built');
    // Parsed items held at once: the store's bound (one item of ~1,000 words over a 2,000-word budget: at most 3), never all 40.
    assert.ok(mostItems <= 3, `${mostItems} items held at once`);
    const held = index.pendingTexts;
    assert.equal(held.bytes, 0, 'nothing held after the save');
    assert.ok(held.peakBytes <= 4_000 + 2_000, `at most ${held.peakBytes} bytes of texts held at once`);
    chunkTextsLimits.spillBytes = saved;
    const memory = CorpusIndex.build(await loadCorpus(dir));
    const loaded = (await CorpusIndex.load(dir))!;
    assert.ok(loaded);
    assert.deepEqual(loaded.size, memory.size);
    for (const item of corpus.items) {
      const ids = loaded.itemChunkIds(item.id);
      assert.deepEqual(ids, memory.itemChunkIds(item.id));
      for (const id of ids) {
        assert.deepEqual(loaded.chunk(id), JSON.parse(JSON.stringify(memory.chunk(id))) as unknown);
        assert.equal(loaded.storedChunkText(id), memory.storedChunkText(id));
      }
    }
    for (const q of ['battery price', '电池', 'precio energía', 'Daniel winter', 'coffee harvest lane']) {
      const a = loaded.search(q, { k: 50 }).map((h) => [h.id, h.score]);
      const b = memory.search(q, { k: 50 }).map((h) => [h.id, h.score]);
      assert.deepEqual(a, b, q);
      assert.ok(a.length > 0, q);
    }
    assert.deepEqual((await readdir(indexDir(dir))).filter((f) => f.startsWith('chunks.spool.')), [], 'no spool file left');
    loaded.close();
    index.close();
  });
});
