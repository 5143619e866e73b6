/**
 * A first build in worker threads (openCorpusForSearch with `buildWorkers`:
 * src/core/search/itemPrepPool.ts reads, parses and prepares the items,
 * itemPrepWorker.ts, each with its own token numbering; the main thread adds
 * what they send, in order) saves the index a build in one thread saves, byte
 * for byte but for the random salts and tokens, and loads the same corpus:
 * on generated corpora in English and Chinese (the synthetic generator), in
 * Spanish (written here), and of every file format (transcripts of each
 * format, comments, meta files, flat and folder layouts, broken and empty
 * files). The workers did the parsing: none of the items' parts is held
 * after the load (a build in one thread holds what fits). A worker that is
 * gone leaves its items to be parsed in the calling thread: the same items.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateSyntheticCorpus } from '../../bench/syntheticCorpus';
import { discoverItems } from '../../src/core/corpus/loader';
import { parseItemSync } from '../../src/core/corpus/itemParse';
import { openCorpusForSearch } from '../../src/core/corpus/openCorpus';
import type { CorpusProblem } from '../../src/core/corpus/types';
import { DEFAULT_CHUNK_OPTIONS } from '../../src/core/search/chunker';
import { ItemPrepPool } from '../../src/core/search/itemPrepPool';
import { PartStore } from '../../src/core/corpus/partStore';
import { decodeSections } from '../../src/core/search/binarySections';
import { ALL_FORMATS, writeFormatCorpus } from '../support/formatCorpus';

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const ES = ('los precios de las baterías subieron en invierno y los usuarios se quejan ¿qué opinan de la carga rápida? está muy caro según él ' +
  'el niño y el pingüino hablaron de la acción del camión la señora dijo que la red eléctrica no alcanza para todos durante el año').split(' ');

/** `items` Spanish items: transcript.json with speakers and times, comments.jsonl (some empty), some with a meta file. */
async function writeSpanishCorpus(dir: string, items: number, seed: number): Promise<void> {
  const r = rng(seed);
  const sentence = (): string => {
    const words = Array.from({ length: 4 + Math.floor(r() * 14) }, () => ES[Math.floor(r() * ES.length)]!);
    return `${words.join(' ')}${r() < 0.3 ? '?' : '.'}`;
  };
  for (let i = 0; i < items; i++) {
    const id = `episodio-${i}`;
    await mkdir(path.join(dir, id), { recursive: true });
    let t = 0;
    const turns = Array.from({ length: 20 + Math.floor(r() * 80) }, (_, k) => {
      const text = Array.from({ length: 1 + Math.floor(r() * (k % 17 === 0 ? 40 : 5)) }, sentence).join(' ');
      const turn = { speaker: ['Ana', 'Luis', 'Señora Pérez'][Math.floor(r() * 3)], text, start: t, end: t + 5 };
      t += 6;
      return turn;
    });
    await writeFile(path.join(dir, id, 'transcript.json'), JSON.stringify({ title: `Episodio ${i}: baterías`, language: 'es', turns }));
    const comments = Array.from({ length: Math.floor(r() * 12) }, (_, k) =>
      JSON.stringify({ comment_id: `${id}-c${k}`, author: `@usuario${Math.floor(r() * 9)}`, text: k % 5 === 4 ? '' : sentence(), likes: Math.floor(r() * 20), parent_id: null }),
    );
    if (comments.length) await writeFile(path.join(dir, id, 'comments.jsonl'), `${comments.join('\n')}\n`);
    if (i % 3 === 0) await writeFile(path.join(dir, id, 'meta.json'), JSON.stringify({ title: `Episodio ${i}`, channel: 'Energía' }));
  }
}

/** The saved index's files with what is random per save left out: postings body and header, texts, chunk columns, manifest. */
async function savedIndex(dir: string): Promise<Record<string, string>> {
  const idx = path.join(dir, '.marker-research', 'index');
  const out: Record<string, string> = {};
  const postings = await readFile(path.join(idx, 'postings.bin'));
  const len = postings.readUInt32LE(0);
  const header = JSON.parse(postings.subarray(4, 4 + len).toString('utf8')) as Record<string, unknown>;
  delete header['salt'];
  delete header['sha1'];
  out['postings header'] = JSON.stringify(header);
  out['postings body'] = postings.subarray((4 + len + 3) & ~3).toString('base64');
  const texts = await readFile(path.join(idx, 'chunks.txt'));
  out['texts'] = texts.subarray(texts.indexOf(10)).toString('base64');
  const { meta, sections } = decodeSections(await readFile(path.join(idx, 'chunks.bin')), 'marker-research-chunks');
  out['chunks meta'] = JSON.stringify({ ...(meta as object), textsToken: null });
  for (const [name, a] of sections) out[`chunks ${name}`] = `${a.constructor.name}:${Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')}`;
  const manifest = JSON.parse(await readFile(path.join(idx, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  delete manifest['postings'];
  delete manifest['chunks'];
  out['manifest'] = JSON.stringify(manifest);
  return out;
}

/** Opens `dir` for search with `workers` build workers, saves the index; what was saved, loaded and found. */
async function build(dir: string, workers: number): Promise<{ files: Record<string, string>; corpus: string; hits: string; heldItems: number }> {
  await rm(path.join(dir, '.marker-research'), { recursive: true, force: true });
  const parts = new PartStore(1e9);
  const { corpus, searchIndex } = await openCorpusForSearch(dir, { buildWorkers: workers, parts });
  const heldItems = parts.items;
  const { index } = await searchIndex();
  const hits = ['battery prices', 'precios de las baterías', '电池 价格', 'winter', 'usuarios', 'the'].map((q) => index.search(q, { k: 20 }).map((h) => [h.id, h.score, h.terms]));
  const summary = {
    items: corpus.items.map((i) => [i.id, i.title, i.contentHash, i.wordCount, i.facts, i.meta]),
    problems: corpus.problems,
    stats: corpus.stats,
  };
  return { files: await savedIndex(dir), corpus: JSON.stringify(summary), hits: JSON.stringify(hits), heldItems };
}

describe('first build in worker threads = build in one thread', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-prep-workers-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const corpora: [string, (dir: string) => Promise<unknown>][] = [
    ['English and Chinese (synthetic)', (dir) => generateSyntheticCorpus(dir, { items: 36, wordsPerItem: 1500, seed: 2525 })],
    ['Spanish', (dir) => writeSpanishCorpus(dir, 24, 2526)],
    [
      'every file format, with broken and empty files',
      async (dir) => {
        await writeFormatCorpus(dir, { seed: 2527, formats: ALL_FORMATS, perFormat: 4 });
        await mkdir(path.join(dir, 'broken'), { recursive: true });
        await writeFile(path.join(dir, 'broken', 'transcript.json'), '{"turns": [{"speaker": "A", "text": "half a turn');
        await writeFile(path.join(dir, 'broken', 'comments.jsonl'), '{"text": "fine"}\nnot json\n');
        await mkdir(path.join(dir, 'empty'), { recursive: true });
        await writeFile(path.join(dir, 'empty', 'transcript.txt'), '   \n');
      },
    ],
  ];

  for (const [name, write] of corpora) {
    test(name, async () => {
      const dir = path.join(root, name.replace(/\W+/g, '-'));
      await write(dir);
      const one = await build(dir, 0);
      for (const workers of [1, 3]) {
        const copy = `${dir}-w${workers}`;
        await cp(dir, copy, { recursive: true, preserveTimestamps: true });
        const many = await build(copy, workers);
        assert.deepEqual(Object.keys(many.files), Object.keys(one.files));
        for (const k of Object.keys(one.files)) assert.equal(many.files[k], one.files[k], `${name}, ${workers} workers: ${k}`);
        assert.equal(many.corpus, one.corpus.split(dir).join(copy), `${name}, ${workers} workers: the corpus loaded`);
        assert.equal(many.hits, one.hits, `${name}, ${workers} workers: hits`);
        // Parsed in the workers: no item's parts came back to this thread.
        assert.equal(many.heldItems, 0);
      }
      assert.ok(one.heldItems > 0, 'a build in one thread holds the parts it parsed');
    });
  }
});

describe('item prep pool', () => {
  test('items sent to a worker that is gone are parsed in this thread: the same items and problems', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-prep-pool-'));
    try {
      await writeSpanishCorpus(dir, 12, 2528);
      const found = await discoverItems(dir, []);
      const pool = ItemPrepPool.start(2, DEFAULT_CHUNK_OPTIONS)!;
      assert.equal(pool.size, 2);
      // One worker ends while items are on their way to it.
      const gone = (pool as unknown as { workers: { worker: { terminate(): Promise<number> } }[] }).workers[0]!.worker;
      const results = Promise.all(
        found.map(async (f) => {
          const problems: CorpusProblem[] = [];
          const r = await pool.prepare(f, problems);
          return { f, r, problems };
        }),
      );
      void gone.terminate();
      const done = await results;
      await pool.close();
      let prepared = 0;
      for (const { f, r, problems } of done) {
        const own: CorpusProblem[] = [];
        const expected = parseItemSync(f, own);
        const { transcript, comments, ...shell } = expected.item!;
        const got = r.loaded.item!;
        assert.deepEqual({ ...got, transcript: undefined, comments: undefined }, { ...shell, transcript: undefined, comments: undefined }, f.id);
        if (r.prepared) {
          prepared++;
          assert.equal(got.transcript, undefined, 'a worker sends the item without its parts');
        } else assert.deepEqual([got.transcript, got.comments], [transcript, comments], 'parsed here: with its parts');
        assert.deepEqual(problems, own);
      }
      assert.ok(prepared > 0 && prepared < found.length, `${prepared} of ${found.length} prepared by the worker left`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
