/**
 * The flat vector store of the vector retrieval strategy: cosine ranking and filters, the
 * binary files it persists, and syncVectors over the demo corpus with an in-process embedding
 * client — unchanged chunks never re-embedded, a changed item re-embeds only its changed
 * chunks, removed items dropped, corrupt files rebuilt and reported.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FlatVectorStore, textKey, vectorModelKey, vectorsDir, type VectorEntry, type VectorModelInfo } from '../../src/core/ask/vectorStore';
import { syncVectors } from '../../src/core/ask/vectorSync';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import type { EmbeddingClient } from '../../src/core/llm/embeddings';
import { chunkText } from '../../src/core/search/chunker';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { CancelledError } from '../../src/core/util/abort';
import { fakeEmbedding } from '../support/fakeModelServer';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const INFO: VectorModelInfo = { provider: 'ollama', model: 'fake-embed' };
/** Hashed bags of words need room: at 64 dimensions a long chunk is close to noise for a short query. */
const DIMS = 256;
const embedQuery = (text: string, dims = DIMS): Float32Array => Float32Array.from(fakeEmbedding(text, dims));

/** An in-process embedding client: fakeEmbedding of each text; records every call. */
function fakeClient(options: { dims?: number } = {}): EmbeddingClient & { calls: string[][]; dims: number } {
  const client = {
    provider: 'ollama' as const,
    model: 'fake-embed',
    dimensions: undefined,
    dims: options.dims ?? DIMS,
    calls: [] as string[][],
    async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
      if (signal?.aborted) throw new CancelledError();
      client.calls.push([...texts]);
      return texts.map((t) => Float32Array.from(fakeEmbedding(t, client.dims)));
    },
  };
  return client;
}

const embedded = (c: { calls: string[][] }): string[] => c.calls.flat();

function entry(chunkId: number, vector: number[], part: VectorEntry['part'] = 'transcript'): VectorEntry {
  return { chunkId, key: textKey(String(chunkId)), part, vector: Float32Array.from(vector) };
}

describe('FlatVectorStore', () => {
  test('ranks by cosine, best first, ties by chunk id; vectors and queries are normalised', () => {
    const store = new FlatVectorStore(INFO);
    store.upsertItem('a', 'h-a', [entry(1, [1, 0, 0]), entry(2, [0, 3, 0]), entry(3, [2, 2, 0])]);
    store.upsertItem('b', 'h-b', [entry(4, [0, 0, 5]), entry(5, [1, 0, 0])]);
    assert.equal(store.dimensions, 3);
    assert.equal(store.size, 5);
    const hits = store.search(Float32Array.from([10, 0, 0]), 3);
    assert.deepEqual(hits.map((h) => h.chunkId), [1, 5, 3]);
    assert.ok(Math.abs(hits[0]!.score - 1) < 1e-6);
    assert.ok(Math.abs(hits[2]!.score - Math.SQRT1_2) < 1e-6);
    assert.deepEqual(hits.map((h) => h.itemId), ['a', 'b', 'a']);
    assert.deepEqual(store.search(Float32Array.from([0, 1, 0]), 10).map((h) => h.chunkId), [2, 3, 1, 4, 5]);
    assert.equal(store.search(Float32Array.from([1, 0, 0]), 0).length, 0);
    assert.throws(() => store.search(Float32Array.from([1, 0]), 3), /dimensions/);
  });

  test('filters: items, part, accept', () => {
    const store = new FlatVectorStore(INFO);
    store.upsertItem('a', 'h', [entry(1, [1, 0]), entry(2, [1, 0.1], 'comments')]);
    store.upsertItem('b', 'h', [entry(3, [1, 0]), entry(4, [0.9, 0.2], 'comments')]);
    const q = Float32Array.from([1, 0]);
    assert.deepEqual(store.search(q, 10, { itemIds: ['b'] }).map((h) => h.chunkId), [3, 4]);
    assert.deepEqual(store.search(q, 10, { itemIds: ['b', 'b', 'nope'] }).map((h) => h.chunkId), [3, 4]);
    assert.deepEqual(store.search(q, 10, { itemIds: [] }), []);
    assert.deepEqual(store.search(q, 10, { part: 'comments' }).map((h) => h.chunkId), [2, 4]);
    assert.deepEqual(store.search(q, 10, { itemIds: ['a'], part: 'transcript' }).map((h) => h.chunkId), [1]);
    assert.deepEqual(store.search(q, 2, { accept: (id) => id !== 1 }).map((h) => h.chunkId), [3, 2]);
  });

  test('upsert replaces an item, remove drops it, dimensions must agree', () => {
    const store = new FlatVectorStore(INFO);
    store.upsertItem('a', 'h1', [entry(1, [1, 0]), entry(2, [0, 1])]);
    store.upsertItem('b', 'h1', [entry(3, [1, 1])]);
    store.upsertItem('a', 'h2', [entry(7, [0, 1])]);
    assert.equal(store.size, 2);
    assert.deepEqual(store.item('a'), { contentHash: 'h2', chunkIds: [7], keys: [textKey('7')] });
    assert.deepEqual(store.search(Float32Array.from([1, 0]), 5).map((h) => h.chunkId), [3, 7]);
    assert.ok(store.vectorForKey(textKey('7')));
    assert.equal(store.vectorForKey(textKey('1')), undefined);
    assert.equal(store.removeItem('a'), true);
    assert.equal(store.removeItem('a'), false);
    assert.deepEqual(store.itemIds(), ['b']);
    assert.throws(() => store.upsertItem('c', 'h', [entry(9, [1, 0, 0])]), /dimensions/);
    store.clear();
    assert.equal(store.dimensions, undefined);
    store.upsertItem('c', 'h', [entry(9, [1, 0, 0])]);
    assert.equal(store.dimensions, 3);
  });

  test('a vector shared by two items survives the removal of one', () => {
    const store = new FlatVectorStore(INFO);
    const shared = { chunkId: 1, key: textKey('first!'), part: 'comments' as const, vector: Float32Array.from([0, 1]) };
    store.upsertItem('a', 'h', [shared]);
    store.upsertItem('b', 'h', [{ ...shared, chunkId: 2 }]);
    store.removeItem('a');
    assert.deepEqual(Array.from(store.vectorForKey(textKey('first!'))!), [0, 1]);
  });

  test('many vectors: the top k equal a full sort', () => {
    const store = new FlatVectorStore(INFO);
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const all: { id: number; v: number[] }[] = [];
    for (let item = 0; item < 50; item++) {
      const entries: VectorEntry[] = [];
      for (let j = 0; j < 40; j++) {
        const id = item * 40 + j;
        const v = Array.from({ length: 16 }, rand);
        all.push({ id, v });
        entries.push(entry(id, v));
      }
      store.upsertItem(`item-${item}`, 'h', entries);
    }
    const q = Array.from({ length: 16 }, rand);
    const cos = (a: number[], b: number[]): number => {
      const dot = a.reduce((s, x, i) => s + x * b[i]!, 0);
      return dot / Math.hypot(...a) / Math.hypot(...b);
    };
    const expected = all.map(({ id, v }) => ({ id, s: cos(q, v) })).sort((a, b) => b.s - a.s).slice(0, 25).map((x) => x.id);
    assert.deepEqual(store.search(Float32Array.from(q), 25).map((h) => h.chunkId), expected);
  });
});

describe('FlatVectorStore persistence', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-vectors-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('round trip: save, open, same search; removed items leave the disk', async () => {
    const { store, problems } = await FlatVectorStore.open(root, INFO);
    assert.deepEqual(problems, []);
    assert.equal(store.size, 0);
    store.upsertItem('item/with:odd chars', 'h1', [entry(1, [1, 2, 3]), entry(2, [3, 2, 1], 'comments')]);
    store.upsertItem('b', 'h2', [entry(3, [0, 0, 1])]);
    store.upsertItem('gone', 'h3', [entry(4, [1, 1, 1])]);
    await store.save();
    store.removeItem('gone');
    await store.save();
    const dir = vectorsDir(root, INFO);
    assert.equal(path.basename(dir), vectorModelKey(INFO));
    assert.match(path.basename(dir), /^ollama-fake-embed-[0-9a-f]{8}$/);
    assert.equal((await readdir(path.join(dir, 'items'))).length, 2);
    const reopened = await FlatVectorStore.open(root, INFO);
    assert.deepEqual(reopened.problems, []);
    assert.deepEqual(reopened.store.itemIds().sort(), ['b', 'item/with:odd chars']);
    assert.deepEqual(reopened.store.item('item/with:odd chars'), store.item('item/with:odd chars'));
    const q = Float32Array.from([1, 2, 2.5]);
    assert.deepEqual(reopened.store.search(q, 5), store.search(q, 5));
    assert.deepEqual(reopened.store.search(q, 5, { part: 'comments' }).map((h) => h.chunkId), [2]);
    // Another model's vectors live elsewhere.
    assert.equal((await FlatVectorStore.open(root, { ...INFO, model: 'other' })).store.size, 0);
    assert.equal((await FlatVectorStore.open(root, { ...INFO, dimensions: 3 })).store.size, 0);
  });

  test('an item without chunks, saved before any vector, reopens cleanly', async () => {
    const info = { ...INFO, model: 'empty-first' };
    const store = (await FlatVectorStore.open(root, info)).store;
    store.upsertItem('no-chunks', 'h0', []);
    await store.save();
    store.upsertItem('some', 'h1', [entry(1, [1, 0])]);
    await store.save();
    const reopened = await FlatVectorStore.open(root, info);
    assert.deepEqual(reopened.problems, []);
    assert.deepEqual(reopened.store.itemIds().sort(), ['no-chunks', 'some']);
    assert.deepEqual(reopened.store.item('no-chunks')?.chunkIds, []);
  });

  test('a corrupt item file is reported and dropped; a corrupt manifest falls back to the item files', async () => {
    const dir = vectorsDir(root, INFO);
    const files = (await readdir(path.join(dir, 'items'))).sort();
    const victim = path.join(dir, 'items', files[0]!);
    const bytes = await readFile(victim);
    await writeFile(victim, bytes.subarray(0, bytes.length - 5));
    const opened = await FlatVectorStore.open(root, INFO);
    assert.equal(opened.problems.length, 1);
    assert.match(opened.problems[0]!, /bytes of vectors|embedded again/);
    assert.equal(opened.store.itemIds().length, 1);

    await writeFile(path.join(dir, 'manifest.json'), '{"version": 1, "items": tru');
    const scanned = await FlatVectorStore.open(root, INFO);
    assert.ok(scanned.problems.some((p) => /manifest/.test(p)));
    assert.ok(scanned.problems.some((p) => /embedded again/.test(p)), 'the truncated file is still reported');
    assert.equal(scanned.store.itemIds().length, 1, 'the good item file is read without a manifest');

    await writeFile(victim, 'not a vector file at all');
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify({ hello: 'world' }));
    const again = await FlatVectorStore.open(root, INFO);
    assert.equal(again.store.itemIds().length, 1);
    await again.store.save();
    const healed = await FlatVectorStore.open(root, INFO);
    assert.deepEqual(healed.problems, [], 'saving rewrites the manifest and deletes the bad file');
    assert.equal((await readdir(path.join(dir, 'items'))).length, 1);
  });
});

describe('syncVectors over the demo corpus', () => {
  let dir: string;
  let corpus: Corpus;
  let index: CorpusIndex;
  const uniqueTexts = (c: Corpus, idx: CorpusIndex): Set<string> => {
    const texts = new Set<string>();
    for (const item of c.items) for (const id of idx.itemChunkIds(item.id)) texts.add(chunkText(item, idx.chunk(id)!));
    return texts;
  };

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-vsync-'));
    await cp(DEMO, dir, { recursive: true });
    corpus = await loadCorpus(dir);
    index = (await CorpusIndex.open(corpus)).index;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('first sync embeds every distinct chunk text once; a second embeds nothing', async () => {
    const client = fakeClient();
    const progress: number[] = [];
    const first = await syncVectors(corpus, index, client, { groupSize: 16, onProgress: (p) => progress.push(p.done) });
    const texts = uniqueTexts(corpus, index);
    assert.equal(first.report.embedded, texts.size);
    assert.equal(new Set(embedded(client)).size, embedded(client).length, 'no text is sent twice');
    assert.ok(client.calls.length > 1, 'sent in groups');
    assert.equal(first.report.vectors, index.size.chunks);
    assert.equal(first.report.embedded + first.report.reused, index.size.chunks);
    assert.equal(first.report.dimensions, DIMS);
    assert.equal(progress.at(-1), corpus.items.length);

    const again = fakeClient();
    const second = await syncVectors(corpus, index, again);
    assert.equal(again.calls.length, 0);
    assert.equal(second.report.embedded, 0);
    assert.equal(second.report.reused, index.size.chunks);
    assert.deepEqual(second.report.updatedItems, []);
    const q = embedQuery('arabica futures coffee prices');
    assert.deepEqual(second.store.search(q, 5), first.store.search(q, 5));
    assert.equal(index.chunk(second.store.search(q, 1)[0]!.chunkId)!.itemId, 'coffee-market-report');
  });

  test('a changed item re-embeds only its changed chunks; a removed item is dropped', async () => {
    const file = path.join(dir, 'coffee-market-report', 'transcript.txt');
    await writeFile(file, `${await readFile(file, 'utf8')}Cardamom espresso tonic is the summer special.\n`);
    const changed = (await loadCorpus(dir));
    const fewer: Corpus = { ...changed, items: changed.items.filter((i) => i.id !== 'remote-work-panel') };
    const opened = await CorpusIndex.open(fewer);
    const client = fakeClient();
    const { report, store } = await syncVectors(fewer, opened.index, client);
    assert.deepEqual(report.updatedItems, ['coffee-market-report']);
    assert.equal(report.removed, 1);
    assert.ok(report.embedded >= 1);
    const coffee = fewer.items.find((i) => i.id === 'coffee-market-report')!;
    const coffeeTexts = opened.index.itemChunkIds(coffee.id).map((id) => chunkText(coffee, opened.index.chunk(id)!));
    for (const t of embedded(client)) assert.ok(coffeeTexts.includes(t), 'only texts of the changed item are embedded');
    assert.ok(embedded(client).some((t) => t.includes('Cardamom')));
    assert.ok(report.embedded < coffeeTexts.length, 'its unchanged comments keep their vectors');
    assert.ok(!store.itemIds().includes('remote-work-panel'));
    const hit = store.search(embedQuery('cardamom espresso tonic summer special'), 1)[0]!;
    assert.equal(opened.index.chunk(hit.chunkId)!.itemId, 'coffee-market-report');
    index = opened.index;
    corpus = fewer;
  });

  test('a rebuilt index with new chunk ids needs no embedding, only a remap', async () => {
    // Build items in reverse order: same texts, different ids.
    const reversed: Corpus = { ...corpus, items: [...corpus.items].reverse() };
    const rebuilt = CorpusIndex.build(reversed);
    const client = fakeClient();
    const { report, store } = await syncVectors(reversed, rebuilt, client);
    assert.equal(client.calls.length, 0);
    assert.ok(report.updatedItems.length > 0, 'ids moved');
    const hit = store.search(embedQuery('arabica futures coffee prices'), 1)[0]!;
    assert.equal(rebuilt.chunk(hit.chunkId)!.itemId, 'coffee-market-report');
    // Back to the persisted index for the next tests.
    await syncVectors(corpus, index, fakeClient());
  });

  test('a corrupt item file is rebuilt from the model, reported, never a crash', async () => {
    const vdir = vectorsDir(dir, INFO);
    const files = await readdir(path.join(vdir, 'items'));
    for (const f of files) {
      const bytes = await readFile(path.join(vdir, 'items', f));
      if (bytes.includes(Buffer.from('"itemId":"ev-winter-range"'))) await writeFile(path.join(vdir, 'items', f), bytes.subarray(0, 40));
    }
    const client = fakeClient();
    const { report } = await syncVectors(corpus, index, client);
    assert.equal(report.problems.length, 1);
    assert.match(report.problems[0]!, /ev-winter-range/);
    assert.deepEqual(report.updatedItems, ['ev-winter-range']);
    assert.equal(report.embedded, index.itemChunkIds('ev-winter-range').length);
    const clean = await syncVectors(corpus, index, fakeClient());
    assert.deepEqual(clean.report.problems, []);
    assert.equal(clean.report.embedded, 0);
  });

  test('cancelled mid-way: throws CancelledError, keeps what it embedded', async () => {
    await rm(path.join(dir, '.marker-research', 'vectors'), { recursive: true, force: true });
    const controller = new AbortController();
    const client = fakeClient();
    const embed = client.embed.bind(client);
    client.embed = async (texts, signal) => {
      const out = await embed(texts, signal);
      if (client.calls.length === 1) controller.abort();
      return out;
    };
    await assert.rejects(syncVectors(corpus, index, client, { signal: controller.signal, groupSize: 1 }), CancelledError);
    assert.equal(client.calls.length, 1);
    const done = embedded(client).length;
    const resumed = fakeClient();
    const { report } = await syncVectors(corpus, index, resumed);
    assert.equal(report.embedded + done, uniqueTexts(corpus, index).size, 'the second sync embeds only what the first did not');
  });

  test('a model whose dimensions changed: everything is embedded again, and said so', async () => {
    // Unchanged items keep their vectors until something new must be embedded...
    const unchanged = await syncVectors(corpus, index, fakeClient({ dims: 32 }));
    assert.equal(unchanged.report.embedded, 0);
    // ...then the store is rebuilt with the new size.
    const file = path.join(dir, 'city-cycling-podcast', 'comments.jsonl');
    await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n${JSON.stringify({ comment_id: 'c-new', author: 'kai', text: 'Cargo bikes for the school run, finally.', likes: 3, published_at: '2024-03-20T10:00:00Z', parent_id: null })}\n`);
    corpus = await loadCorpus(dir);
    index = (await CorpusIndex.open(corpus)).index;
    const client = fakeClient({ dims: 32 });
    const { report, store } = await syncVectors(corpus, index, client);
    assert.equal(store.dimensions, 32);
    assert.equal(report.embedded, uniqueTexts(corpus, index).size);
    assert.ok(report.problems.some((p) => /dimensions/.test(p)));
    assert.equal(new Set(embedded(client)).size, embedded(client).length, 'nothing embedded twice across the restart');
  });

  test('an in-memory store can be synced without a folder', async () => {
    const store = new FlatVectorStore(INFO);
    const { report } = await syncVectors(corpus, index, fakeClient(), { store });
    assert.equal(report.vectors, index.size.chunks);
  });
});
