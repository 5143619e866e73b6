/**
 * Hostile corpus files (issue 10, class 3): one file nested thousands of levels
 * deep, a 50 MB line or field, or a file that makes a parser fail must never take
 * the rest of the corpus down. Every case is generated here, not committed.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { parseComments, parseCsvRows } from '../../src/core/corpus/commentParsers';
import { parseTranscript } from '../../src/core/corpus/transcriptParsers';
import type { Corpus, CorpusItem, CorpusProblem } from '../../src/core/corpus/types';
import { partSentences, splitSentences } from '../../src/core/markers/sentences';
import { chunkItem } from '../../src/core/search/chunker';
import { itemOf, transcriptPart } from '../support/parts';
import { assertNearLinear } from '../support/scaling';

const MB = 1024 * 1024;

let tmp: string;
before(async () => { tmp = await mkdtemp(path.join(tmpdir(), 'mr-hostile-')); });
after(async () => { await rm(tmp, { recursive: true, force: true }); });

/** Writes `files` (relative path → content) into a fresh corpus folder and returns its path. */
async function corpus(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(tmp, name);
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
  return root;
}

const GOOD_TRANSCRIPT = JSON.stringify({ turns: [{ speaker: 'A', text: 'The battery lasts two days.' }, { speaker: 'B', text: 'Charging is slow in winter.' }] });
const GOOD_COMMENTS = '{"comment_id":"g1","author":"X","text":"Great video."}\n';

function deepArray(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}
function deepObject(levels: number): string {
  return '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

function problemsOf(c: Corpus, file: string): CorpusProblem[] {
  return c.problems.filter((p) => p.file === file);
}
function item(c: Corpus, id: string): CorpusItem {
  const it = c.items.find((i) => i.id === id);
  assert.ok(it, `item "${id}" should load; items: ${c.items.map((i) => i.id).join(', ')}; problems: ${c.problems.map((p) => `${p.file}:${p.line}:${p.code}`).join(', ')}`);
  return it;
}

/** Runs `fn` and returns its result with the growth of the resident set (time is checked by scaling, not by the clock). */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; rssGrowthMb: number }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, rssGrowthMb: (peak - rss0) / MB };
  } finally {
    clearInterval(timer);
  }
}

describe('deeply nested JSON is rejected cleanly, per file', () => {
  for (const levels of [5_000, 100_000]) {
    test(`${levels} levels in transcript.json, comments.json, a comments.jsonl line and meta.json`, async () => {
      const root = await corpus(`deep-${levels}`, {
        'good/transcript.json': GOOD_TRANSCRIPT,
        'good/comments.jsonl': GOOD_COMMENTS,
        'deep-transcript/transcript.json': `{"turns":[{"speaker":"A","text":"x","extra":${deepArray(levels)}}]}`,
        'deep-transcript/comments.jsonl': GOOD_COMMENTS,
        'deep-comments/transcript.json': GOOD_TRANSCRIPT,
        'deep-comments/comments.json': `[\n{"text":"kept?"},\n${deepObject(levels)}\n]`,
        'deep-line/transcript.txt': 'A plain line.\n',
        'deep-line/comments.jsonl': `{"comment_id":"c1","text":"first"}\n{"comment_id":"c2","text":"deep","x":${deepArray(levels)}}\n{"comment_id":"c3","text":"third"}\n`,
        'deep-meta/transcript.txt': 'Another plain line.\n',
        'deep-meta/meta.json': `{"title":"t","x":${deepArray(levels)}}`,
      });
      const c = await loadCorpus(root);

      // The healthy item and the healthy parts of the hostile items all load.
      assert.equal(item(c, 'good').transcript?.segments.length, 2);
      assert.equal(item(c, 'deep-transcript').comments?.comments.length, 1, 'the comments of an item with a deep transcript still load');
      assert.equal(item(c, 'deep-comments').transcript?.segments.length, 2, 'the transcript of an item with deep comments still loads');
      assert.deepEqual(item(c, 'deep-line').comments?.comments.map((r) => r.id), ['c1', 'c3'], 'only the deep JSONL line is skipped');
      assert.equal(item(c, 'deep-meta').transcript?.segments.length, 1);

      for (const file of ['deep-transcript/transcript.json', 'deep-comments/comments.json', 'deep-line/comments.jsonl', 'deep-meta/meta.json']) {
        const p = problemsOf(c, file).find((x) => x.code === 'json-too-deep');
        assert.ok(p, `${file}: a json-too-deep problem (got ${JSON.stringify(problemsOf(c, file))})`);
        assert.equal(typeof p.line, 'number', `${file}: the problem names a line`);
        assert.match(p.message, /nest/i);
      }
      assert.equal(problemsOf(c, 'deep-line/comments.jsonl').find((x) => x.code === 'json-too-deep')!.line, 1, 'the JSONL problem is on the deep line');
      assert.equal(problemsOf(c, 'deep-comments/comments.json').find((x) => x.code === 'json-too-deep')!.line, 2);
      assert.ok(c.stats.skipped >= 4, `skipped counts the rejected files/lines (got ${c.stats.skipped})`);
    });
  }

  test('nesting within the limit still parses (a YouTube-style nested record)', () => {
    const rec = { id: 'y1', snippet: { topLevelComment: { snippet: { textOriginal: 'nested ok', authorDisplayName: 'Y' } } } };
    const r = parseComments(JSON.stringify([rec]), 'json', 'c.json');
    assert.equal(r.comments[0]?.text, 'nested ok');
    assert.deepEqual(r.problems, []);
  });
});

describe('pathological sizes are bounded per line and per field', () => {
  test('a 50 MB single-line transcript.txt without punctuation: bounded time and memory, reported, the rest loads', async () => {
    const huge = 'word '.repeat(10 * MB); // 50 MB, one line, no punctuation
    const root = await corpus('huge-txt', {
      'good/transcript.json': GOOD_TRANSCRIPT,
      'huge/transcript.txt': `${huge}\nA normal second line.\n`,
      'huge/comments.jsonl': GOOD_COMMENTS,
    });
    const { value: c, rssGrowthMb } = await measured(() => loadCorpus(root));
    assert.ok(rssGrowthMb < 1_000, `resident memory grew by ${rssGrowthMb.toFixed(0)} MB`);
    item(c, 'good');
    const h = item(c, 'huge');
    assert.deepEqual(h.transcript?.segments.map((s) => s.text), ['A normal second line.']);
    assert.equal(h.comments?.comments.length, 1);
    const p = problemsOf(c, 'huge/transcript.txt').find((x) => x.code === 'line-too-long');
    assert.ok(p, `a line-too-long problem (got ${JSON.stringify(c.problems)})`);
    assert.equal(p.line, 0);
    assert.ok(c.stats.skipped >= 1);
    // Reading a line too long to keep grows linearly with it (5 MB against 20 MB).
    await assertNearLinear({
      name: 'loading a corpus with one over-long line',
      n: MB,
      prepare: (n) => corpus(`huge-txt-${n}`, { 'huge/transcript.txt': `${'word '.repeat(n)}\nA normal second line.\n` }),
      run: (dir: string) => loadCorpus(dir),
      tries: 2,
    });
  });

  test('a CSV with a 50 MB field: bounded time and memory, reported, the other records load', async () => {
    const field = 'x '.repeat(25 * MB); // 50 MB
    const csv = `comment_id,author,text\nc0,A,before\nc1,B,"${field}"\nc2,C,"after, quoted"\n`;
    const root = await corpus('huge-csv', {
      'good/transcript.json': GOOD_TRANSCRIPT,
      'csv/transcript.txt': 'A line.\n',
      'csv/comments.csv': csv,
    });
    const { value: c, rssGrowthMb } = await measured(() => loadCorpus(root));
    assert.ok(rssGrowthMb < 1_000, `resident memory grew by ${rssGrowthMb.toFixed(0)} MB`);
    item(c, 'good');
    assert.deepEqual(item(c, 'csv').comments?.comments.map((r) => [r.id, r.text]), [['c0', 'before'], ['c2', 'after, quoted']]);
    const p = problemsOf(c, 'csv/comments.csv').find((x) => x.code === 'field-too-long');
    assert.ok(p, `a field-too-long problem (got ${JSON.stringify(c.problems)})`);
    assert.equal(p.line, 2);
    assert.ok(c.stats.skipped >= 1);
  });

  test('a long line just under the limit is read whole, and sentences and search chunks of it stay bounded', async () => {
    const line = 'word '.repeat(780_000).trim(); // 3.9 M characters, no punctuation
    const root = await corpus('long-ok', { 'long/transcript.txt': line });
    const c = await loadCorpus(root);
    const it = item(c, 'long');
    assert.equal(it.transcript?.wordCount, 780_000);
    assert.deepEqual(c.problems, []);
    const sentences = partSentences(it.transcript!);
    const chunks = chunkItem(it);
    await assertNearLinear({
      name: 'sentences and search chunks of one long line',
      n: 195_000,
      prepare: (n) => itemOf('long', { transcript: transcriptPart(['word '.repeat(n).trim()]) }),
      run: (x: CorpusItem) => [partSentences(x.transcript!), chunkItem(x)],
      tries: 2,
    });
    assert.ok(sentences.every((s) => s.text.length <= 4_000));
    assert.equal(sentences.at(-1)!.end, line.length);
    assert.ok(chunks.length > 1000 && chunks.every((ch) => ch.words <= 400), `${chunks.length} chunks`);
  });

  test('parseCsvRows builds a large field in linear time', async () => {
    const csv = (n: number): string => `a,b\n1,"${'y'.repeat(n)}"\n2,${'y'.repeat(n)}\n`;
    assert.equal(parseCsvRows(csv(20 * MB)).rows.length, 3);
    await assertNearLinear({ name: 'parseCsvRows of a large field', n: 2 * MB, prepare: csv, run: (t: string) => parseCsvRows(t), tries: 2 });
  });

  test('a huge line in every line-based format (srt, vtt, md, jsonl) and a huge JSON string field are reported, the rest loads', async () => {
    const big = 'blah '.repeat(MB); // 5 MB
    const root = await corpus('huge-lines', {
      'good/transcript.json': GOOD_TRANSCRIPT,
      'srt/transcript.srt': `1\n00:00:01,000 --> 00:00:02,000\n${big}\n\n2\n00:00:03,000 --> 00:00:04,000\nSecond cue.\n`,
      'vtt/transcript.vtt': `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${big}\n\n00:00:03.000 --> 00:00:04.000\nSecond cue.\n`,
      'md/transcript.md': `# Title\n${big}\nLast line.\n`,
      'jsonl/transcript.txt': 'Line.\n',
      'jsonl/comments.jsonl': `{"comment_id":"a","text":"short"}\n{"comment_id":"b","text":"${big}"}\n{"comment_id":"c","text":"short too"}\n`,
      'jsonstr/transcript.json': JSON.stringify({ turns: [{ text: big }, { text: 'Kept turn.' }] }),
      'jsonstr/comments.json': JSON.stringify([{ id: 'k', text: 'kept' }, { id: 'h', text: big }]),
    });
    const c = await loadCorpus(root);
    item(c, 'good');
    assert.deepEqual(item(c, 'srt').transcript?.segments.map((s) => s.text), ['Second cue.']);
    assert.deepEqual(item(c, 'vtt').transcript?.segments.map((s) => s.text), ['Second cue.']);
    assert.deepEqual(item(c, 'md').transcript?.segments.map((s) => s.text), ['# Title', 'Last line.']);
    assert.deepEqual(item(c, 'jsonl').comments?.comments.map((r) => r.id), ['a', 'c']);
    assert.deepEqual(item(c, 'jsonstr').transcript?.segments.map((s) => s.text), ['Kept turn.']);
    assert.deepEqual(item(c, 'jsonstr').comments?.comments.map((r) => r.id), ['k']);
    const expectLine: Record<string, number> = { 'srt/transcript.srt': 2, 'vtt/transcript.vtt': 3, 'md/transcript.md': 1, 'jsonl/comments.jsonl': 1 };
    for (const [file, line] of Object.entries(expectLine)) {
      const p = problemsOf(c, file).find((x) => x.code === 'line-too-long');
      assert.ok(p, `${file}: line-too-long (got ${JSON.stringify(problemsOf(c, file))})`);
      assert.equal(p.line, line, file);
    }
    for (const file of ['jsonstr/transcript.json', 'jsonstr/comments.json']) {
      const p = problemsOf(c, file).find((x) => x.code === 'field-too-long');
      assert.ok(p, `${file}: field-too-long (got ${JSON.stringify(problemsOf(c, file))})`);
      assert.equal(typeof p.line, 'number');
    }
    assert.ok(c.stats.skipped >= 6, `stats.skipped = ${c.stats.skipped}`);
  });

  test('the sentence splitter never overflows and bounds sentence length (50 MB without punctuation)', async () => {
    const text = 'word '.repeat(10 * MB);
    const s = splitSentences(text, 7, 3);
    await assertNearLinear({ name: 'splitSentences without punctuation', n: MB / 2, prepare: (n) => 'word '.repeat(n), run: (t: string) => splitSentences(t, 7, 3), tries: 2 });
    assert.ok(s.length > 1, 'a sentence without end is cut into bounded pieces');
    assert.ok(s.every((x) => x.text.length <= 10_000));
    assert.equal(s[0]!.start, 7);
    assert.equal(s.at(-1)!.end, 7 + text.trimEnd().length);
    for (const x of s.slice(0, 50)) assert.equal(text.slice(x.start - 7, x.end - 7), x.text);
    // Ordinary text splits as before.
    assert.deepEqual(splitSentences('It costs 2.31 dollars. See youtu.be/x! Ok?').map((x) => x.text), ['It costs 2.31 dollars.', 'See youtu.be/x!', 'Ok?']);
  });
});

describe('a parser failure in one file never takes other items down', () => {
  test('malformed files of every format: each reported with its file, every other item loads', async () => {
    const files: Record<string, string> = {
      'good/transcript.json': GOOD_TRANSCRIPT,
      'good/comments.jsonl': GOOD_COMMENTS,
      'bad-json/transcript.json': '{"turns":[{"text":"a"}, {"text": \u0000 }',
      'bad-json/meta.json': '{"title": [}',
      'bad-srt/transcript.srt': '1\n--> --> -->\n\u0000\u0001\n\n\n-->\n',
      'bad-vtt/transcript.vtt': 'WEBVTT\n\nNOTE\n<v\n00:00 --> \n<<<>>>&amp;&#39\n',
      'bad-txt/transcript.txt': '\uFFFD\u0000\u0001\n\t\n',
      'bad-md/transcript.md': '---\nunterminated front matter\n',
      'bad-jsonl/transcript.txt': 'Line.\n',
      'bad-jsonl/comments.jsonl': '{"text":\n[1,2]\n"just a string"\n{"text": 5}\n',
      'bad-cjson/transcript.txt': 'Line.\n',
      'bad-cjson/comments.json': '{"comments": {"text": "not an array"}}',
      'bad-csv/transcript.txt': 'Line.\n',
      'bad-csv/comments.csv': 'text,likes\n"open,1\n',
      'deep/transcript.json': `{"turns":${deepArray(200_000)}}`,
      'deep/comments.csv': 'text\nfine\n',
    };
    const root = await corpus('malformed', files);
    const c = await loadCorpus(root);
    assert.equal(item(c, 'good').transcript?.segments.length, 2);
    assert.equal(item(c, 'good').comments?.comments.length, 1);
    for (const id of ['bad-jsonl', 'bad-cjson', 'bad-csv']) assert.ok(item(c, id).transcript, `${id}: its transcript still loads`);
    assert.equal(item(c, 'deep').comments?.comments[0]?.text, 'fine');
    for (const file of ['bad-json/transcript.json', 'bad-json/meta.json', 'bad-jsonl/comments.jsonl', 'bad-cjson/comments.json', 'bad-csv/comments.csv', 'deep/transcript.json']) {
      assert.ok(problemsOf(c, file).length > 0, `${file} is reported`);
    }
  });

  test('the parsers themselves never throw on hostile input', () => {
    const hostile = [deepArray(100_000), deepObject(100_000), `{"turns":[${deepArray(50_000)}]}`, `[${'{"a":['.repeat(30_000)}`];
    for (const src of hostile) {
      for (const f of ['json', 'txt', 'md', 'srt', 'vtt'] as const) assert.doesNotThrow(() => parseTranscript(src, f, `t.${f}`));
      for (const f of ['json', 'jsonl', 'csv'] as const) assert.doesNotThrow(() => parseComments(src, f, `c.${f}`));
    }
    const r = parseTranscript(hostile[0]!, 'json', 't.json');
    assert.equal(r.problems[0]?.code, 'json-too-deep');
    assert.equal(r.problems[0]?.line, 0);
  });
});
