/**
 * The compact postings index (src/core/search/postings.ts) against MiniSearch
 * 7.2, the library it replaced, configured as CorpusIndex configured it
 * (format 5): same documents, same queries — the same hits, in the same order
 * (up to exact ties, which the postings index breaks by id), with scores equal
 * to 1e-9 relative. Then the file: a round trip answers identically, and a
 * truncated or damaged file is refused (CorpusIndex.load → undefined).
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { generateSyntheticCorpus, QUERIES_FILE, type SyntheticQuery } from '../../bench/syntheticCorpus';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { chunkItem, chunkText } from '../../src/core/search/chunker';
import { CorpusIndex, DEFAULT_INDEX_OPTIONS, indexDir } from '../../src/core/search/corpusIndex';
import { PostingsFormatError, PostingsIndex, type PostingsHit, type PostingsOptions, type QueryTerm } from '../../src/core/search/postings';
import { tokenize, tokenizeQuery } from '../../src/core/search/tokenize';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const BM25 = { k: 1.2, b: 0.75, d: 0.5 };
const POSTINGS: PostingsOptions = { fields: ['text', 'title', 'speaker'], boosts: [1, 0.3, 0.3], bm25: BM25 };

interface Doc {
  id: number;
  text: string;
  title: string;
  speaker: string;
}

/** The MiniSearch options of CorpusIndex format 5, as they were. */
function msOptions(): Options<Doc> {
  return {
    fields: ['text', 'title', 'speaker'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (t) => t,
    searchOptions: { tokenize: (q) => tokenizeQuery(q), processTerm: (t) => t, boost: { text: 1, title: 0.3, speaker: 0.3 }, bm25: BM25 },
    autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2 },
  };
}

/** The documents of `corpus`'s items, made as CorpusIndex makes them, ids from `firstId` on. */
function docsOf(corpus: Corpus, windowWords: number, firstId = 0, items = corpus.items): Doc[] {
  const docs: Doc[] = [];
  let id = firstId;
  for (const item of items) {
    const title = `${item.title} ${item.id.replace(/[-_.]+/g, ' ')}`;
    for (const c of chunkItem(item, { windowWords })) docs.push({ id: id++, text: chunkText(item, c), title, speaker: c.speakers?.join(' ') ?? '' });
  }
  return docs;
}

const addDoc = (p: PostingsIndex, d: Doc): void => p.add(d.id, [tokenize(d.text), tokenize(d.title), tokenize(d.speaker)]);

/** MiniSearch over `queries` as CorpusIndex.searchWeighted asked it: one query per term, each with its boost. */
function msQuery(ms: MiniSearch<Doc>, queries: readonly QueryTerm[], filter?: (id: number) => boolean): SearchResult[] {
  return ms.search(queries.map((q) => q.term).join(' '), {
    tokenize: (q) => q.split(' '),
    processTerm: (t) => t,
    boostTerm: (_t, i) => queries[i]!.boost,
    ...(filter ? { filter: (r: SearchResult) => filter(r.id as number) } : {}),
  });
}

const close = (a: number, b: number): boolean => a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

/** Same hits, same scores (1e-9), same order up to ties; ours ordered by score, then id. */
function assertSame(ours: readonly PostingsHit[], theirs: readonly SearchResult[], label: string): void {
  assert.equal(ours.length, theirs.length, `${label}: hit count`);
  const byId = new Map(theirs.map((r) => [r.id as number, r]));
  for (const h of ours) {
    const r = byId.get(h.id);
    assert.ok(r, `${label}: ${h.id} is not a MiniSearch hit`);
    assert.ok(close(h.score, r.score), `${label}: doc ${h.id} scores ${h.score}, MiniSearch ${r.score}`);
    assert.deepEqual([...h.terms].sort(), [...r.terms].sort(), `${label}: terms of ${h.id}`);
  }
  for (let i = 0; i < ours.length; i++) assert.ok(close(ours[i]!.score, theirs[i]!.score), `${label}: rank ${i}: ${ours[i]!.score} vs ${theirs[i]!.score}`);
  for (let i = 1; i < ours.length; i++) {
    const [a, b] = [ours[i - 1]!, ours[i]!];
    assert.ok(a.score > b.score || (a.score === b.score && a.id < b.id), `${label}: rank ${i} out of order`);
  }
}

const terms = (...list: (string | [string, number])[]): QueryTerm[] => list.map((t) => (typeof t === 'string' ? { term: t, boost: 1 } : { term: t[0], boost: t[1] }));

describe('postings index = MiniSearch 7.2 as CorpusIndex used it', () => {
  let synDir: string;
  let demo: Corpus;
  let syn: Corpus;
  let synQueries: SyntheticQuery[];
  before(async () => {
    synDir = await mkdtemp(path.join(tmpdir(), 'mr-postings-syn-'));
    await generateSyntheticCorpus(synDir, { items: 12, wordsPerItem: 3000, seed: 3 });
    [demo, syn] = await Promise.all([loadCorpus(DEMO), loadCorpus(synDir)]);
    synQueries = (await readFile(path.join(synDir, QUERIES_FILE), 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as SyntheticQuery);
  });
  after(() => rm(synDir, { recursive: true, force: true }));

  /** Both indexes over the demo corpus (small windows: many documents) and the synthetic one. */
  function buildBoth(): { ms: MiniSearch<Doc>; p: PostingsIndex; docs: Doc[] } {
    const docs = [...docsOf(demo, 30), ...docsOf(syn, 60, 10_000)];
    const ms = new MiniSearch<Doc>(msOptions());
    ms.addAll(docs);
    const p = new PostingsIndex(POSTINGS);
    for (const d of docs) addDoc(p, d);
    return { ms, p, docs };
  }

  /** Every kind of query, on both indexes. */
  function compareAll(ms: MiniSearch<Doc>, p: PostingsIndex, label: string): number {
    const texts = [
      'protected bike lanes injuries', '热泵 续航', '钵钵鸡', '电池的问题', 'bakery parking', 'What did the engineer say about the battery in winter?',
      'remote onboarding hybrid', 'coffee prices harvest market', 'zzzz nothing matches', 'lane', 'cycling safety 自行车',
      ...synQueries.slice(0, 60).map((q) => q.query),
    ];
    assert.ok(synQueries.some((q) => q.language === 'zh'), 'the synthetic corpus has Chinese queries');
    let hits = 0;
    for (const q of texts) {
      const ours = p.search(tokenizeQuery(q).map((term) => ({ term, boost: 1 })));
      assertSame(ours, ms.search(q), `${label} "${q}"`);
      hits += ours.length;
    }
    const weighted: QueryTerm[][] = [
      terms('lane', 'lane', 'bike'),
      terms('续航', '续航', '热泵'),
      terms(['battery', 2], ['winter', 0.5], ['续航', 1.5], ['nosuchterm', 3]),
      terms(['cycling', 0], 'lane'),
      terms(['coffee', 0.25], ['coffee', 2], 'price'),
      terms(...synQueries.slice(0, 12).flatMap((q) => q.needle_terms.flatMap((t) => tokenize(t)).map((t, i): [string, number] => [t, 1 / (i + 1)]))),
    ];
    for (const [i, q] of weighted.entries()) {
      assertSame(p.search(q), msQuery(ms, q), `${label} weighted #${i}`);
      const filter = (id: number): boolean => id % 3 !== 1;
      assertSame(p.search(q, filter), msQuery(ms, q, filter), `${label} weighted #${i}, filtered`);
    }
    return hits;
  }

  test('same hits, scores and order on English and Chinese text, repeated, unknown and weighted terms, filters', () => {
    const { ms, p } = buildBoth();
    assert.equal(p.documentCount, ms.documentCount);
    assert.ok(p.documentCount > 800);
    assert.ok(compareAll(ms, p, 'built') > 900, 'the queries hit many documents');
  });

  test('document frequencies match, per field', () => {
    const { ms, p } = buildBoth();
    const internals = ms as unknown as { _index: Map<string, Map<number, Map<number, number>>> & { get(t: string): Map<number, Map<number, number>> | undefined } };
    for (const term of ['lane', '续航', 'battery', 'zzzz', 'winter', ...synQueries.slice(0, 20).flatMap((q) => q.needle_terms.flatMap((t) => tokenize(t)))]) {
      for (let f = 0; f < 3; f++) assert.equal(p.documentFrequency(term, f), internals._index.get(term)?.get(f)?.size ?? 0, `${term} in field ${f}`);
    }
  });

  // MiniSearch discards lazily: until a vacuum, a discarded document still counts in a term's
  // document frequency for the documents scored before it is met (scores depend on map order).
  // The postings index never counts it. After a vacuum MiniSearch counts live documents only,
  // which is what the index converged to, so that is the reference here.
  test('after discarding and adding documents (before and after sealing, and with seals along the way)', async () => {
    const { ms, docs } = buildBoth();
    const p = new PostingsIndex({ ...POSTINGS, sealAt: 500 });
    let added = 0;
    for (const d of docs) {
      addDoc(p, d);
      added += [d.text, d.title, d.speaker].reduce((n, f) => n + new Set(tokenize(f)).size, 0);
    }
    assert.ok(p.pendingPostings > 0 && p.pendingPostings < added / 2, `seals happened while adding (${p.pendingPostings} of ${added} postings pending)`);
    // Re-index three items as CorpusIndex does: discard their documents, add them again under new ids.
    const changed = syn.items.slice(0, 2).map((i) => i.id);
    const gone = docs.filter((d) => d.id < 10_000 ? d.title.includes('coffee') : changed.some((c) => d.title.includes(c.replace(/[-_.]+/g, ' '))));
    assert.ok(gone.length > 10);
    ms.discardAll(gone.map((d) => d.id));
    for (const d of gone) p.discard(d.id);
    const again = gone.map((d, i) => ({ ...d, id: 50_000 + i, text: i % 2 ? d.text : `${d.text} cardamom tonic 新品` }));
    ms.addAll(again);
    for (const d of again) addDoc(p, d);
    await ms.vacuum();
    assert.equal(p.documentCount, ms.documentCount);
    compareAll(ms, p, 'churned');
    p.seal();
    assert.equal(p.pendingPostings, 0);
    compareAll(ms, p, 'churned, sealed');
    assert.equal(p.documentFrequency('cardamom', 0), Math.ceil(gone.length / 2));
  });

  test('field lengths count distinct tokens, empty ones included, and empty fields', () => {
    // A tokenizer that yields empty tokens ("a  b"): not indexed, but counted in the length (MiniSearch's rule).
    const split = (s: string): string[] => s.split(' ');
    const ms = new MiniSearch<Doc>({ ...msOptions(), tokenize: split, searchOptions: { ...msOptions().searchOptions, tokenize: split } });
    const docs: Doc[] = [
      { id: 0, text: 'a  b b c', title: '', speaker: 'x' },
      { id: 1, text: 'a', title: 'a b', speaker: '' },
      { id: 2, text: 'c c c c   d', title: 'b', speaker: 'x y' },
      { id: 3, text: '', title: '', speaker: '' },
      { id: 7, text: 'b d e f g', title: 'a', speaker: 'y' },
    ];
    ms.addAll(docs);
    const p = new PostingsIndex(POSTINGS);
    for (const d of docs) p.add(d.id, [split(d.text), split(d.title), split(d.speaker)]);
    for (const q of [terms('a'), terms('b', 'c'), terms('x', 'y', 'd'), terms(['e', 3], 'a', 'a')]) assertSame(p.search(q), msQuery(ms, q), JSON.stringify(q));
  });

  test('CorpusIndex answers as MiniSearch did: search, searchWeighted with filters, frequencies', () => {
    const options = { ...DEFAULT_INDEX_OPTIONS, chunk: { windowWords: 30 } };
    const index = CorpusIndex.build(demo, options);
    const ms = new MiniSearch<Doc>(msOptions());
    ms.addAll(docsOf(demo, 30));
    const asPostings = (hits: ReturnType<CorpusIndex['search']>): PostingsHit[] => hits.map((h) => ({ id: h.id, score: h.score, terms: h.terms }));
    for (const q of ['protected bike lanes injuries', '热泵 续航', 'parking', 'lanes', 'zzzz']) {
      assertSame(asPostings(index.searchAll(q)), ms.search(q), q);
      assertSame(asPostings(index.search(q, { k: 3 })), ms.search(q).slice(0, 3), `${q}, k=3`);
      const comments = (r: SearchResult): boolean => index.chunk(r.id as number)?.part === 'comments';
      assertSame(asPostings(index.searchAll(q, { part: 'comments' })), ms.search(q, { filter: comments }), `${q}, comments`);
    }
    const weights = new Map([['lane', 2], ['bike', 1], ['续航', 0.5]]);
    const w = terms(...[...weights]);
    assertSame(asPostings(index.searchWeighted(weights)), msQuery(ms, w), 'weighted');
    const inItem = (id: number): boolean => index.chunk(id)?.itemId === 'city-cycling-podcast';
    const oneItem = index.searchWeighted(weights, { itemIds: ['city-cycling-podcast'] });
    assert.ok(oneItem.length > 0);
    assertSame(asPostings(oneItem), msQuery(ms, w, inItem), 'weighted, one item');
    assert.equal(index.documentCount, ms.documentCount);
    const internals = ms as unknown as { _index: { get(t: string): Map<number, Map<number, number>> | undefined } };
    const df = (t: string, f: number): number => internals._index.get(t)?.get(f)?.size ?? 0;
    for (const t of ['lane', '续航', 'cycling', 'zzzz']) {
      assert.equal(index.documentFrequency(t), df(t, 0));
      assert.equal(index.matchFrequency(t), Math.max(df(t, 0), df(t, 1), df(t, 2)));
    }
  });
});

describe('postings index', () => {
  test('terms left without postings are dropped at a seal when many, and answers stay those of a fresh index', () => {
    const p = new PostingsIndex(POSTINGS);
    const fresh = new PostingsIndex(POSTINGS);
    const doc = (i: number): string[][] => [[`only${i}`, 'common', i % 7 ? 'odd' : 'seven'], [`title${i % 3}`], []];
    for (let i = 0; i < 3000; i++) p.add(i, doc(i));
    p.seal();
    assert.equal(p.termCount, 3000 + 3 + 3);
    for (let i = 0; i < 3000; i++) if (i % 10) p.discard(i);
    for (let i = 0; i < 3000; i += 10) fresh.add(i, doc(i));
    p.seal();
    assert.equal(p.termCount, 300 + 3 + 3, 'the emptied terms are gone');
    for (const q of [terms('common'), terms('only20', 'only21', 'seven'), terms('title1', ['odd', 2]), terms('only0', 'only0')]) assert.deepEqual(p.search(q), fresh.search(q));
    p.add(5000, [['only21', 'common'], [], []]);
    assert.deepEqual(p.search(terms('only21')).map((h) => h.id), [5000]);
  });

  test('a filter that throws or searches again leaves later searches right', () => {
    const p = new PostingsIndex(POSTINGS);
    for (let i = 0; i < 50; i++) p.add(i, [[`t${i % 5}`, 'all'], [], []]);
    const q = terms('t1', 'all', 't2');
    const expected = p.search(q);
    assert.throws(() => p.search(q, () => {
      throw new Error('boom');
    }), /boom/);
    assert.deepEqual(p.search(q), expected);
    const nested = p.search(q, (id) => p.search(terms('t3')).length > 0 && id % 2 === 0);
    assert.deepEqual(nested, expected.filter((h) => h.id % 2 === 0));
    assert.deepEqual(p.search(q), expected);
  });

  test('bad ids and token lists are refused', () => {
    const p = new PostingsIndex(POSTINGS);
    assert.throws(() => p.add(-1, [[], [], []]), /bad document id/);
    assert.throws(() => p.add(1.5, [[], [], []]), /bad document id/);
    assert.throws(() => p.add(0, [[], []]), /token lists/);
    p.add(0, [['a'], [], []]);
    assert.throws(() => p.add(0, [['a'], [], []]), /used before/);
    assert.throws(() => p.discard(1), /not in the index/);
    p.discard(0);
    assert.throws(() => p.discard(0), /not in the index/);
    assert.equal(p.documentCount, 0);
    assert.deepEqual(p.search(terms('a')), []);
  });
});

describe('postings file', () => {
  const concat = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

  function sample(): PostingsIndex {
    const p = new PostingsIndex(POSTINGS);
    const texts = ['bike lanes and parking', '热泵 续航 冬天', 'coffee prices, coffee harvest', 'parking on harbor avenue', '电池 续航'];
    texts.forEach((t, i) => p.add(i * 2, [tokenize(t), tokenize(`item ${i % 2}`), tokenize(i % 2 ? 'Host' : '')]));
    p.discard(4);
    return p;
  }
  const QUERIES = [terms('parking'), terms('续航', ['coffee', 2]), terms('item', 'host', 'nosuch'), terms('lane', 'lane')];

  test('a round trip answers identically, and the loaded index takes changes like the original', () => {
    const p = sample();
    const { parts, checksum } = p.serialize();
    const q = PostingsIndex.fromBytes(concat(parts), POSTINGS, checksum);
    assert.equal(q.documentCount, p.documentCount);
    assert.equal(q.has(4), false);
    for (const query of QUERIES) assert.deepEqual(q.search(query), p.search(query));
    assert.throws(() => q.add(4, [[], [], []]), /used before/, 'a discarded id is not reused');
    for (const x of [p, q]) {
      x.add(11, [tokenize('parking garage 续航'), [], []]);
      x.discard(0);
    }
    for (const query of QUERIES) assert.deepEqual(q.search(query), p.search(query));
    const r = PostingsIndex.fromBytes(concat(q.serialize().parts), POSTINGS);
    for (const query of QUERIES) assert.deepEqual(r.search(query), p.search(query));
  });

  test('the parts of a save do not change when the index changes while they are written', () => {
    const p = sample();
    const { parts, checksum } = p.serialize();
    const before = concat(parts);
    p.discard(2);
    p.add(1, [tokenize('parking'), [], []]);
    p.add(3, [tokenize('coffee'), [], []]);
    p.seal();
    assert.deepEqual(concat(parts), before);
    assert.equal(PostingsIndex.fromBytes(concat(parts), POSTINGS, checksum).documentCount, 4);
  });

  test('an empty index round-trips', () => {
    const p = new PostingsIndex(POSTINGS);
    const q = PostingsIndex.fromBytes(concat(p.serialize().parts), POSTINGS);
    assert.equal(q.documentCount, 0);
    assert.deepEqual(q.search(terms('x')), []);
  });

  test('truncated, damaged, foreign or mismatched bytes are refused', () => {
    const { parts, checksum } = sample().serialize();
    const bytes = concat(parts);
    const refused = (b: Uint8Array, options = POSTINGS, sum?: string): void => assert.throws(() => PostingsIndex.fromBytes(b, options, sum), PostingsFormatError);
    refused(new Uint8Array(0));
    refused(bytes.subarray(0, 3));
    refused(bytes.subarray(0, 40));
    refused(bytes.subarray(0, bytes.length - 1));
    refused(bytes.subarray(0, bytes.length - 4));
    refused(concat([bytes, new Uint8Array(4)]));
    for (const at of [parts[0]!.length + 1, bytes.length - 1, Math.floor(bytes.length * 0.7)]) {
      const flipped = Uint8Array.from(bytes);
      flipped[at]! ^= 0x40;
      refused(flipped);
    }
    const header = Uint8Array.from(bytes);
    header[6]! ^= 0x01; // inside the JSON header
    refused(header);
    refused(new TextEncoder().encode('{"not": "postings"}'));
    refused(bytes, { ...POSTINGS, fields: ['text', 'title'], boosts: [1, 0.3] });
    refused(bytes, POSTINGS, 'another checksum');
    assert.equal(PostingsIndex.fromBytes(bytes.slice(), POSTINGS, checksum).documentCount, 4);
    // An unaligned copy is read too (the arrays are copied then).
    const unaligned = new Uint8Array(bytes.length + 1).subarray(1);
    unaligned.set(bytes);
    assert.equal(PostingsIndex.fromBytes(unaligned, POSTINGS).documentCount, 4);
  });

  test('a term with a line break cannot be saved', () => {
    const p = new PostingsIndex(POSTINGS);
    p.add(0, [['a\nb'], [], []]);
    assert.throws(() => p.serialize(), /line break/);
  });
});

describe('CorpusIndex files', () => {
  let dir: string;
  let corpus: Corpus;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-postings-'));
    await cp(DEMO, dir, { recursive: true });
    corpus = await loadCorpus(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const file = (name: string): string => path.join(indexDir(dir), name);
  const QUERIES = ['protected bike lanes injuries', '热泵 续航', 'bakery parking', 'zzzz'];

  test('save writes postings.bin and the manifest, removes the MiniSearch files, and loads back identical', async () => {
    const built = CorpusIndex.build(corpus);
    await built.save(dir);
    await writeFile(file('minisearch.jsonl'), 'old');
    await writeFile(file('minisearch.json'), 'older');
    await built.save(dir);
    await assert.rejects(readFile(file('minisearch.jsonl')), { code: 'ENOENT' });
    await assert.rejects(readFile(file('minisearch.json')), { code: 'ENOENT' });
    const loaded = await CorpusIndex.load(dir);
    assert.ok(loaded);
    assert.deepEqual(loaded.size, built.size);
    // Chunks come back from JSON: compared as JSON (no keys with undefined values).
    const same = (a: unknown, b: unknown, label: string): void => assert.deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)), label);
    for (const q of QUERIES) same(loaded.searchAll(q), built.searchAll(q), q);
    same(loaded.searchWeighted(new Map([['lane', 2], ['续航', 1]])), built.searchWeighted(new Map([['lane', 2], ['续航', 1]])), 'weighted');
    assert.ok(built.searchAll('bakery parking').length > 0);
    assert.equal(loaded.matchFrequency('lane'), built.matchFrequency('lane'));
  });

  test('a truncated, damaged, missing or unpaired postings file makes load return undefined, and open rebuild', async () => {
    const index = CorpusIndex.build(corpus);
    await index.save(dir);
    const good = await readFile(file('postings.bin'));
    const manifest = await readFile(file('manifest.json'));
    const damaged = Buffer.from(good);
    damaged[Math.floor(good.length / 2)]! ^= 0xff;
    for (const [label, bytes] of [['truncated', good.subarray(0, good.length - 100)], ['cut in the header', good.subarray(0, 20)], ['damaged', damaged], ['empty', Buffer.alloc(0)]] as const) {
      await writeFile(file('postings.bin'), bytes);
      assert.equal(await CorpusIndex.load(dir), undefined, label);
    }
    await rm(file('postings.bin'));
    assert.equal(await CorpusIndex.load(dir), undefined, 'missing');
    // A whole postings file of another save (another index) with this manifest.
    const fewer = CorpusIndex.build({ ...corpus, items: corpus.items.slice(1) });
    await fewer.save(dir);
    await writeFile(file('manifest.json'), manifest);
    assert.equal(await CorpusIndex.load(dir), undefined, 'unpaired');
    await writeFile(file('manifest.json'), '{"version": 6, trunc');
    assert.equal(await CorpusIndex.load(dir), undefined, 'corrupt manifest');
    const { report, index: rebuilt } = await CorpusIndex.open(corpus);
    assert.equal(report.mode, 'built');
    assert.deepEqual(rebuilt.searchAll('bakery parking'), index.searchAll('bakery parking'));
    assert.equal((await CorpusIndex.open(corpus)).report.mode, 'loaded');
  });
});
