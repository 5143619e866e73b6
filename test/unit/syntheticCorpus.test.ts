import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  createRng, ensureSyntheticCorpus, generateSyntheticCorpus, QUERIES_FILE, readSyntheticMarker, SYNTHETIC_MARKER, type SyntheticQuery,
} from '../../bench/syntheticCorpus';
import { TOPICS } from '../../bench/syntheticVocabulary';
import { loadCorpus } from '../../src/core/corpus/loader';
import { formatProblem, type Corpus } from '../../src/core/corpus/types';

const PARAMS = { items: 6, wordsPerItem: 2000, seed: 1 };

/** Every file under `dir` (relative path → bytes), hidden files included. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 3) return;
    for (const ent of await readdir(d, { withFileTypes: true })) {
      const p = path.join(d, ent.name);
      if (ent.isDirectory()) await walk(p, depth + 1);
      else files.set(path.relative(dir, p), await readFile(p));
    }
  };
  await walk(dir, 0);
  return files;
}

async function readQueries(dir: string): Promise<SyntheticQuery[]> {
  const text = await readFile(path.join(dir, QUERIES_FILE), 'utf8');
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as SyntheticQuery);
}

function contains(text: string, term: string, lang: 'en' | 'zh'): boolean {
  return lang === 'zh' ? text.includes(term) : new RegExp(`\\b${term}\\b`, 'i').test(text);
}

describe('synthetic benchmark corpus', () => {
  let root: string;
  let dirA: string;
  let corpus: Corpus;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-synthetic-'));
    dirA = path.join(root, 'a');
    await generateSyntheticCorpus(dirA, PARAMS);
    corpus = await loadCorpus(dirA);
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('the PRNG is deterministic and seeds give different streams', () => {
    const a = createRng(1, 2);
    const b = createRng(1, 2);
    const c = createRng(1, 3);
    const xs = Array.from({ length: 5 }, () => a.next());
    assert.deepEqual(Array.from({ length: 5 }, () => b.next()), xs);
    assert.notDeepEqual(Array.from({ length: 5 }, () => c.next()), xs);
    for (const x of xs) assert.ok(x >= 0 && x < 1);
  });

  test('the same seed gives identical bytes; another seed does not', async () => {
    const dirB = path.join(root, 'b');
    const dirC = path.join(root, 'c');
    await generateSyntheticCorpus(dirB, PARAMS);
    await generateSyntheticCorpus(dirC, { ...PARAMS, seed: 2 });
    const [a, b, c] = await Promise.all([snapshot(dirA), snapshot(dirB), snapshot(dirC)]);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    for (const [rel, bytes] of a) assert.ok(bytes.equals(b.get(rel)!), `${rel} differs between two runs with the same seed`);
    assert.ok(a.has(SYNTHETIC_MARKER) && a.has(QUERIES_FILE));
    assert.ok(!a.get(QUERIES_FILE)!.equals(c.get(QUERIES_FILE)!), 'another seed plants other needles');
  });

  test('the corpus loads with no errors or warnings, with the intended mix', async () => {
    const bad = corpus.problems.filter((p) => p.severity !== 'info');
    assert.deepEqual(bad.map(formatProblem), []);
    assert.equal(corpus.items.length, PARAMS.items);
    const formats = new Set(corpus.items.map((i) => i.transcript?.format));
    assert.ok(formats.has('json') && formats.size >= 2, `formats: ${[...formats].join(', ')}`);
    assert.ok(corpus.items.some((i) => i.comments), 'some items have comments');
    assert.ok(corpus.items.some((i) => !i.comments), 'some items have none');
    assert.ok(corpus.items.some((i) => /\p{Script=Han}/u.test(i.transcript!.text)), 'some items are Chinese');
    assert.ok(corpus.items.some((i) => /^[\x20-\x7e\n]*$/.test(i.transcript!.text)), 'some items are English');
    for (const it of corpus.items) {
      assert.equal(typeof it.meta.published_at, 'string');
      assert.notEqual(it.title, it.id, 'meta.json gives a title');
      for (const c of it.comments?.comments ?? []) {
        assert.equal(typeof c.likes, 'number');
        assert.match(c.publishedAt ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    }
    assert.ok(corpus.items.some((i) => i.comments?.comments.some((c) => c.parentId)), 'some comments are replies');
  });

  test('every item is within ±10 % of the word target, and the marker agrees with the loader', async () => {
    for (const it of corpus.items) {
      const dev = it.wordCount / PARAMS.wordsPerItem - 1;
      assert.ok(Math.abs(dev) <= 0.1, `${it.id}: ${it.wordCount} words`);
    }
    const marker = await readSyntheticMarker(dirA);
    assert.equal(marker?.complete, true);
    assert.deepEqual(marker?.params, PARAMS);
    assert.equal(marker?.stats?.words, corpus.stats.words);
  });

  test('queries: two per transcript.json item, ranges inside the turns, needle terms in the query and the range', async () => {
    const queries = await readQueries(dirA);
    const jsonItems = corpus.items.filter((i) => i.transcript?.format === 'json');
    assert.equal(queries.length, jsonItems.length * 2);
    assert.equal(new Set(queries.map((q) => q.query_id)).size, queries.length);
    assert.equal(new Set(queries.map((q) => q.needle_name)).size, queries.length, 'invented names are unique');
    assert.deepEqual(new Set(queries.map((q) => q.kind)), new Set(['named', 'descriptive']));
    for (const q of queries) {
      const item = corpus.items.find((i) => i.id === q.item_id);
      assert.ok(item?.transcript?.format === 'json', `${q.query_id}: item is a transcript.json item`);
      const turns = item.transcript.segments;
      assert.equal(q.needle_terms.length, q.kind === 'named' ? 3 : 2);
      assert.equal(q.needle_terms.includes(q.needle_name), q.kind === 'named');
      const inRange = new Set<number>();
      for (const [start, end] of q.relevant_turn_ranges) {
        assert.ok(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end < turns.length, `${q.query_id}: [${start}, ${end}] in 0..${turns.length - 1}`);
        assert.ok(end - start + 1 >= 3 && end - start + 1 <= 8, `${q.query_id}: 3-8 turns`);
        for (let t = start; t <= end; t++) inRange.add(t);
      }
      const rangeText = [...inRange].map((t) => turns[t]!.text).join('\n');
      for (const term of q.needle_terms) {
        assert.ok(contains(q.query, term, q.language), `${q.query_id}: "${term}" in the query`);
        assert.ok(contains(rangeText, term, q.language), `${q.query_id}: "${term}" in the relevant turns`);
      }
      const needleWords = [q.needle_name, ...q.needle_terms];
      for (const t of inRange) {
        assert.ok(needleWords.some((term) => contains(turns[t]!.text, term, q.language)), `${q.query_id}: turn ${t} mentions the needle`);
      }
      assert.ok(rangeText.includes(q.answer), `${q.query_id}: the answer is a sentence of the relevant turns`);
      // Outside the range: Chinese words can form by accident across word boundaries, so only the invented name is checked there.
      const outside = turns.filter((s) => !inRange.has(s.index)).map((s) => s.text).join('\n');
      assert.ok(contains(rangeText, q.needle_name, q.language), `${q.query_id}: the name is planted in the relevant turns`);
      for (const term of q.language === 'en' ? [q.needle_name, ...q.needle_terms] : [q.needle_name]) {
        assert.ok(!contains(outside, term, q.language), `${q.query_id}: "${term}" occurs only in the relevant turns of its item`);
      }
    }
  });

  test('ensureSyntheticCorpus reuses a corpus with the same parameters and regenerates otherwise', async () => {
    const reused = await ensureSyntheticCorpus(dirA, PARAMS);
    assert.equal(reused.reused, true);
    assert.equal(reused.words, corpus.stats.words);
    const dirD = path.join(root, 'd');
    await generateSyntheticCorpus(dirD, PARAMS);
    const regenerated = await ensureSyntheticCorpus(dirD, { ...PARAMS, items: 3 });
    assert.equal(regenerated.reused, false);
    assert.equal((await readdir(dirD)).filter((n) => n.startsWith('syn-')).length, 3, 'old items are removed');
  });

  test('refuses to write into a non-empty folder that is not a synthetic corpus', async () => {
    const foreign = path.join(root, 'foreign');
    await mkdir(foreign);
    await writeFile(path.join(foreign, 'notes.txt'), 'keep me');
    await assert.rejects(generateSyntheticCorpus(foreign, PARAMS), /refusing to overwrite/);
    assert.equal(await readFile(path.join(foreign, 'notes.txt'), 'utf8'), 'keep me');
  });

  test('vocabulary: 40 topics of 50-60 words, every word in one topic only', () => {
    assert.equal(TOPICS.length, 40);
    for (const lang of ['en', 'zh'] as const) {
      const seen = new Set<string>();
      for (const t of TOPICS) {
        assert.ok(t[lang].length >= 50 && t[lang].length <= 60, `${t.name}/${lang}: ${t[lang].length} words`);
        for (const w of t[lang]) {
          assert.ok(!seen.has(w), `${w} is in two topics`);
          seen.add(w);
        }
      }
    }
  });
});
