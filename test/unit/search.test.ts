import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { chunkItem, chunkText } from '../../src/core/search/chunker';
import { CorpusIndex, indexDir } from '../../src/core/search/corpusIndex';
import { evalRetrieval, percentile } from '../../src/core/search/evalRetrieval';
import { retrieve } from '../../src/core/search/retrieve';
import { stem, tokenize, tokenizeQuery } from '../../src/core/search/tokenize';
import { countWords } from '../../src/core/text/words';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

describe('tokenize', () => {
  test('English: lower-case, stopwords out, light stemming', () => {
    assert.deepEqual(tokenize('The Remote Controls were COSTING 12 euros'), ['remote', 'control', 'cost', '12', 'euro']);
    assert.equal(stem('batteries'), 'battery');
    assert.equal(stem('running'), 'run');
    assert.equal(stem('bus'), 'bus');
  });
  test('Chinese: CJK runs become bigrams, never whitespace-split blobs', () => {
    assert.deepEqual(tokenize('电动车续航'), ['电动', '动车', '车续', '续航']);
    assert.deepEqual(tokenize('车'), ['车']);
    assert.deepEqual(tokenize('EV续航500公里'), ['ev', '续航', '500', '公里']);
  });
  test('full-width forms are normalised', () => {
    assert.deepEqual(tokenize('ＡＢＣ１２３'), ['abc123']);
  });
  test('queries drop question words and particle bigrams', () => {
    assert.deepEqual(tokenizeQuery('What did the group discuss about the remote control?'), ['remote', 'control']);
    assert.deepEqual(tokenizeQuery('电池的问题'), ['电池', '问题']);
    assert.deepEqual(tokenizeQuery('discussion'), ['discussion'], 'a query of only question words is kept as is');
    // General question words only: the roles and departments of one dataset are topics elsewhere.
    assert.deepEqual(tokenizeQuery('user interface design guidelines'), ['user', 'interface', 'design', 'guideline']);
    assert.deepEqual(tokenizeQuery('What did the professor say about the marketing budget of the project manager?'), ['professor', 'market', 'budget', 'project', 'manager']);
    assert.deepEqual(tokenizeQuery('industrial designer students'), ['industrial', 'designer', 'student']);
  });
});

describe('chunker', () => {
  let corpus: Corpus;
  before(async () => {
    corpus = await loadCorpus(DEMO);
  });
  test('transcript windows are turn-aligned, cover every turn once, and comments are one document each', () => {
    for (const item of corpus.items) {
      const chunks = chunkItem(item, { windowWords: 40 });
      const t = chunks.filter((c) => c.part === 'transcript');
      // Turn indices are source positions: a turn skipped as unreadable leaves a gap in them.
      const covered = t.flatMap((c) => (item.transcript?.segments ?? []).filter((s) => s.index >= c.firstIndex && s.index <= c.lastIndex).map((s) => s.index));
      assert.deepEqual(covered, item.transcript?.segments.map((s) => s.index) ?? [], item.id);
      t.forEach((c, i) => assert.equal(c.seq, i));
      const comments = chunks.filter((c) => c.part === 'comments');
      assert.equal(comments.length, (item.comments?.comments.length ?? 0) - (item.comments?.emptyCount ?? 0));
      for (const c of chunks) assert.equal(c.words, countWords(chunkText(item, c)));
    }
  });
  test('a turn longer than the window is split at sentence ends', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-chunk-'));
    try {
      const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} has exactly seven words.`).join(' ');
      await writeFile(path.join(dir, 'x.transcript.json'), JSON.stringify({ turns: [{ speaker: 'A', text: long }] }));
      const c = await loadCorpus(dir);
      const chunks = chunkItem(c.items[0]!, { windowWords: 50 });
      assert.ok(chunks.length >= 4);
      assert.ok(chunks.every((ch) => ch.words <= 60));
      assert.equal(chunks.map((ch) => chunkText(c.items[0]!, ch)).join(''), long);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CorpusIndex', () => {
  let dir: string;
  let corpus: Corpus;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-index-'));
    await cp(DEMO, dir, { recursive: true });
    corpus = await loadCorpus(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('finds English and Chinese text', () => {
    const index = CorpusIndex.build(corpus);
    assert.equal(index.search('protected bike lanes injuries')[0]!.chunk.itemId, 'city-cycling-podcast');
    assert.equal(index.search('热泵 续航')[0]!.chunk.itemId, 'ev-winter-range');
    assert.equal(index.search('钵钵鸡')[0]!.chunk.itemId, 'food-vlog-broken');
  });

  test('filters: item, part, speaker, likes, time range', () => {
    const index = CorpusIndex.build(corpus);
    assert.ok(index.search('parking', { itemIds: ['city-cycling-podcast'] }).every((h) => h.chunk.itemId === 'city-cycling-podcast'));
    const comments = index.search('lanes', { part: 'comments' });
    assert.ok(comments.length > 0 && comments.every((h) => h.chunk.part === 'comments'));
    const bySpeaker = index.search('热泵', { speaker: '工程师' });
    assert.ok(bySpeaker.length > 0 && bySpeaker.every((h) => h.chunk.speakers?.includes('工程师')));
    assert.equal(index.search('热泵', { speaker: 'nobody' }).length, 0);
    assert.ok(index.search('热泵 掉电', { minLikes: 1000 }).every((h) => (h.chunk.likes ?? 0) >= 1000));
    const early = index.search('harbor avenue cycling', { timeRange: [0, 12] });
    assert.ok(early.length > 0 && early.every((h) => (h.chunk.startTime ?? 0) <= 12));
    assert.equal(index.search('harbor avenue cycling', { timeRange: [5000, 6000] }).length, 0);
  });

  test('persists, loads as is, and re-indexes only a changed item', async () => {
    const first = await CorpusIndex.open(corpus);
    assert.equal(first.report.mode, 'built');
    const again = await CorpusIndex.open(corpus);
    assert.equal(again.report.mode, 'loaded');
    assert.deepEqual(again.index.search('bakery parking').map((h) => h.id), first.index.search('bakery parking').map((h) => h.id));
    const file = path.join(dir, 'coffee-market-report', 'transcript.txt');
    await writeFile(file, `${await readFile(file, 'utf8')}Cardamom espresso tonic is the summer special.\n`);
    const changed = await loadCorpus(dir);
    const third = await CorpusIndex.open(changed);
    assert.equal(third.report.mode, 'updated');
    assert.deepEqual(third.report.reindexed, ['coffee-market-report']);
    assert.equal(third.index.search('cardamom tonic')[0]!.chunk.itemId, 'coffee-market-report');
    assert.equal(third.index.search('bakery parking')[0]!.chunk.itemId, 'city-cycling-podcast');
    const reloaded = await CorpusIndex.load(dir);
    assert.equal(reloaded!.search('cardamom tonic')[0]!.chunk.itemId, 'coffee-market-report');
  });

  test('a removed item leaves the index', async () => {
    const fewer: Corpus = { ...corpus, items: corpus.items.filter((i) => i.id !== 'remote-work-panel') };
    const index = CorpusIndex.build(corpus);
    const { removed } = index.update(fewer);
    assert.deepEqual(removed, ['remote-work-panel']);
    assert.ok(index.search('onboarding remote hybrid').every((h) => h.chunk.itemId !== 'remote-work-panel'));
  });

  test('a corrupt persisted index is rebuilt, not fatal', async () => {
    await writeFile(path.join(indexDir(dir), 'manifest.json'), '{"version": 1, trunc');
    const { report } = await CorpusIndex.open(corpus);
    assert.equal(report.mode, 'built');
  });
});

describe('retrieve and evalRetrieval', () => {
  test('passages fit the budget, merge neighbours and map to the original file', async () => {
    const corpus = await loadCorpus(DEMO);
    const index = CorpusIndex.build(corpus, { chunk: { windowWords: 20 }, bm25: { k: 1.2, b: 0.75, d: 0.5 } });
    const res = retrieve(index, 'cyclist injuries corridor', { budgetWords: 60, itemIds: ['city-cycling-podcast'] });
    assert.ok(res.words <= 60);
    assert.ok(res.spans.length >= 1);
    const top = res.spans[0]!;
    assert.equal(top.source?.file.relPath, 'city-cycling-podcast/transcript.vtt');
    assert.ok(top.source!.startTime !== undefined);
    const text = corpus.items.find((i) => i.id === 'city-cycling-podcast')!.transcript!.text.slice(top.start, top.end);
    assert.match(text, /injuries/);
  });

  test('metrics: hit@5 and recall over gold turn ranges', async () => {
    const corpus = await loadCorpus(DEMO);
    const index = CorpusIndex.build(corpus, { chunk: { windowWords: 20 }, bm25: { k: 1.2, b: 0.75, d: 0.5 } });
    const r = evalRetrieval(index, [
      { item_id: 'city-cycling-podcast', query: 'cyclist injuries fell', relevant_turn_ranges: [[3, 3]] },
      { item_id: 'ev-winter-range', query: '热泵 续航', relevant_turn_ranges: [[5, 5]] },
      { item_id: 'city-cycling-podcast', query: 'zzzz nothing matches', relevant_turn_ranges: [[0, 1]] },
    ], { scope: 'item', budgetWords: 100 });
    assert.equal(r.queries, 3);
    assert.equal(r.hit_at_5, 0.667);
    assert.ok(r.recall_at_budget >= 0.66 && r.recall_at_budget < 0.67, String(r.recall_at_budget));
    assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
  });
});

describe('documentFrequency', () => {
  test('counts the windows that contain a term', async () => {
    const corpus = await loadCorpus(DEMO);
    const index = CorpusIndex.build(corpus);
    const withTerm = [...Array(1000).keys()].map((id) => index.chunk(id)).filter((c) => c && tokenize(chunkText(corpus.items.find((i) => i.id === c.itemId)!, c)).includes('lane'));
    assert.ok(withTerm.length > 1);
    assert.equal(index.documentFrequency('lane'), withTerm.length);
    assert.equal(index.documentFrequency('zzzz'), 0);
  });
});
