import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { classifyFile, loadCorpus } from '../../src/core/corpus/loader';
import { formatProblem } from '../../src/core/corpus/types';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

describe('loadCorpus on the demo corpus', () => {
  test('loads every item, in both layouts and both languages', async () => {
    const expected = JSON.parse(await readFile(path.join(DEMO, 'expected.json'), 'utf8')) as { titles: string[]; problemPaths: string[] };
    const c = await loadCorpus(DEMO);
    assert.deepEqual(new Set(c.items.map((i) => i.title)), new Set(expected.titles));
    const flat = c.items.find((i) => i.id === 'remote-work-panel')!;
    assert.equal(flat.transcript?.format, 'srt');
    assert.equal(flat.comments?.format, 'csv');
    assert.equal(flat.comments?.comments.length, 4);
    const zh = c.items.find((i) => i.id === 'ev-winter-range')!;
    assert.equal(zh.transcript?.segments[2]?.speaker, '工程师');
    assert.equal(zh.comments?.comments[0]?.likes, 1520);
    assert.equal(zh.comments?.comments[2]?.parentId, 'z1');
  });

  test('a broken file is reported with its path and line; the other items load', async () => {
    const c = await loadCorpus(DEMO);
    const broken = c.problems.find((p) => p.file === 'food-vlog-broken/transcript.json' && p.code === 'invalid-json')!;
    assert.equal(broken.code, 'invalid-json');
    assert.equal(broken.line, 5);
    assert.match(formatProblem(broken), /^food-vlog-broken\/transcript\.json:6:5: error: invalid JSON/);
    const badLine = c.problems.find((p) => p.file === 'coffee-market-report/comments.jsonl')!;
    assert.equal(badLine.line, 2);
    const coffee = c.items.find((i) => i.id === 'coffee-market-report')!;
    assert.equal(coffee.comments?.comments.length, 3, 'the lines around the broken one still load');
    const food = c.items.find((i) => i.id === 'food-vlog-broken')!;
    assert.equal(food.comments?.comments.length, 2, 'the item still has its comments');
    assert.equal(c.stats.items, 5);
  });

  test('empty comments are counted, not put into the text', async () => {
    const c = await loadCorpus(DEMO);
    const bike = c.items.find((i) => i.id === 'city-cycling-podcast')!;
    assert.equal(bike.comments?.emptyCount, 1);
    assert.equal(c.stats.emptyComments, 1);
    assert.ok(!bike.comments?.text.includes('\n\n'));
  });

  test('segment offsets point into the normalised text', async () => {
    const c = await loadCorpus(DEMO);
    for (const it of c.items) {
      for (const s of it.transcript?.segments ?? []) assert.equal(it.transcript!.text.slice(s.offset, s.offset + s.text.length), s.text);
    }
  });
});

describe('loadCorpus edge cases', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-loader-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a duplicate part is resolved by the documented preference, with a notice', async () => {
    const root = path.join(dir, 'dup');
    await mkdir(path.join(root, 'v1'), { recursive: true });
    await writeFile(path.join(root, 'v1', 'transcript.json'), '{"turns":[{"speaker":null,"text":"from json"}]}');
    await writeFile(path.join(root, 'v1', 'transcript.txt'), 'from txt\n');
    await writeFile(path.join(root, 'queries.jsonl'), '{"not":"an item"}\n');
    const c = await loadCorpus(root);
    assert.equal(c.items.length, 1);
    assert.equal(c.items[0]!.transcript?.text, 'from json');
    assert.equal(c.items[0]!.ignoredFiles[0]!.relPath, 'v1/transcript.txt');
    const notice = c.problems.find((p) => p.code === 'duplicate-part')!;
    assert.equal(notice.severity, 'info');
    assert.match(notice.message, /using v1\/transcript\.json, ignoring v1\/transcript\.txt/);
  });

  test('empty files and items without text are reported, never thrown', async () => {
    const root = path.join(dir, 'empty');
    await mkdir(path.join(root, 'a'), { recursive: true });
    await writeFile(path.join(root, 'a', 'transcript.txt'), '');
    await writeFile(path.join(root, 'b.comments.jsonl'), '{"text":"hi"}\n');
    await writeFile(path.join(root, 'b.meta.json'), '{"title": 42}');
    const c = await loadCorpus(root);
    assert.deepEqual(c.items.map((i) => i.id), ['b']);
    assert.equal(c.items[0]!.title, 'b', 'bad meta falls back to the id');
    const codes = c.problems.map((p) => `${p.file}:${p.code}`).sort();
    assert.deepEqual(codes, ['a/transcript.txt:empty-file', 'a/transcript.txt:item-empty', 'b.meta.json:invalid-meta']);
  });

  test('a missing folder is one clear problem', async () => {
    const c = await loadCorpus(path.join(dir, 'nope'));
    assert.equal(c.items.length, 0);
    assert.equal(c.problems[0]!.code, 'not-a-folder');
  });

  test('content hash changes with the content', async () => {
    const root = path.join(dir, 'hash');
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'x.transcript.txt'), 'one\n');
    const h1 = (await loadCorpus(root)).items[0]!.contentHash;
    assert.equal((await loadCorpus(root)).items[0]!.contentHash, h1);
    await writeFile(path.join(root, 'x.transcript.txt'), 'two\n');
    assert.notEqual((await loadCorpus(root)).items[0]!.contentHash, h1);
  });

  test('cancellation stops the load', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(loadCorpus(DEMO, { signal: controller.signal }), { name: 'CancelledError' });
  });

  test('classifyFile', () => {
    assert.deepEqual(classifyFile('transcript.srt'), { id: undefined, part: 'transcript', ext: 'srt' });
    assert.deepEqual(classifyFile('ep.01.comments.csv'), { id: 'ep.01', part: 'comments', ext: 'csv' });
    assert.equal(classifyFile('notes.txt'), undefined);
    assert.equal(classifyFile('meta.yaml'), undefined);
  });
});
