import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { mapSpanInPart } from '../../src/core/corpus/spans';
import type { CommentsPart, Corpus, TextRange, TranscriptPart } from '../../src/core/corpus/types';
import { rng } from '../support/testing';


function slice(text: string, r: TextRange): string {
  const lines = text.split('\n');
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  return [lines[r.startLine]!.slice(r.startColumn), ...lines.slice(r.startLine + 1, r.endLine), lines[r.endLine]!.slice(0, r.endColumn)].join('\n');
}

const ENT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
/** How each format's original text turns into normalised text (the inverse the map must agree with). */
const decoders: Record<string, (raw: string) => string> = {
  json: (raw) => JSON.parse(`"${raw}"`) as string,
  jsonl: (raw) => JSON.parse(`"${raw}"`) as string,
  txt: (raw) => raw,
  md: (raw) => raw,
  csv: (raw) => raw.replace(/""/g, '"'),
  srt: (raw) => raw.split('\n').map((l) => l.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENT[e]!).trim()).filter(Boolean).join(' '),
};
decoders['vtt'] = decoders['srt']!;

const FILES: Record<string, string> = {
  'a/transcript.json': '{"title":"J","turns":[\n {"speaker":"A","text":"Tab\\there, quote \\"x\\", unicode \\u4f60\\u597d and emoji \\ud83d\\ude00 end."},\n {"speaker":"B","text":"第二段：中文，没有转义。"}\n]}\n',
  'a/comments.jsonl': '{"comment_id":"1","text":"line \\"one\\" \\u00e9t\\u00e9","likes":1}\n{"comment_id":"2","textOriginal":"alias text 第二条","likes":"3"}\n',
  'b.transcript.srt': '1\n00:00:01,000 --> 00:00:03,000\n  First <i>italic</i> line &amp; more  \nsecond line\n\n2\n00:00:03,500 --> 00:00:05,000\nLast cue.\n',
  'b.comments.csv': 'comment_id,author,text,likes\nc1,ann,"multi\nline ""quoted"" text",4\nc2,bob,plain text here,2\n',
  'c.transcript.vtt': 'WEBVTT\n\n00:00.000 --> 00:02.000\n<v Maya>Hello <b>bold</b> &lt;tag&gt; world\n\n00:02.000 --> 00:04.000\n<v Dan>Second &quot;cue&quot;\n',
  'c.comments.json': '{"comments":[\n  {"id":"x","authorDisplayName":"Z","textOriginal":"nested \\\\ backslash","likeCount":2}\n]}\n',
  'd/transcript.txt': 'Plain line one.\n\n   Indented line two.   \nLine three 第三行.\n',
  'e/transcript.md': '---\ntitle: md\n---\n# Heading here\nBody text.\n',
  'f/transcript.json': '{"segments":[{"start":0,"end":1,"text":"seg \\/ slash"},{"start":1,"end":2,"text":"two"}]}',
};

describe('source map round trip on every format', () => {
  let dir: string;
  let corpus: Corpus;
  const originals = new Map<string, string>();
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-srcmap-'));
    for (const [rel, content] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), content);
    }
    corpus = await loadCorpus(dir);
    for (const rel of Object.keys(FILES)) originals.set(rel, await readFile(path.join(dir, rel), 'utf8'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('loads every file without problems', () => {
    assert.deepEqual(corpus.problems.filter((p) => p.severity !== 'info'), []);
    assert.equal(corpus.items.length, 6);
  });

  test('every unit and random spans inside it map back to original text that decodes to the span', () => {
    const random = rng(42);
    let checked = 0;
    for (const item of corpus.items) {
      for (const part of [item.transcript, item.comments].filter((p): p is TranscriptPart | CommentsPart => !!p)) {
        const original = originals.get(part.file.relPath)!;
        const decode = decoders[part.format]!;
        const list = part.kind === 'transcript' ? part.segments : part.comments;
        for (const u of list) {
          const spans: [number, number][] = [[0, u.text.length]];
          for (let k = 0; k < 8; k++) {
            const a = Math.floor(random() * u.text.length);
            const b = a + 1 + Math.floor(random() * (u.text.length - a));
            spans.push([a, b]);
          }
          for (const [a, b] of spans) {
            let sub = u.text.slice(a, b);
            // A span must not split a surrogate pair.
            if (/[\ud800-\udbff]$/.test(sub) || /^[\udc00-\udfff]/.test(sub)) continue;
            const src = mapSpanInPart(part, u.offset + a, u.offset + b)!;
            const raw = slice(original, src.range);
            if (part.format === 'srt' || part.format === 'vtt') sub = sub.trim();
            assert.equal(decode(raw), sub, `${part.file.relPath} unit ${u.index} [${a},${b}) → ${JSON.stringify(src.range)} raw=${JSON.stringify(raw)}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 100, `checked ${checked} spans`);
  });

  test('a span across units starts in the first and ends in the last, with time and speakers', () => {
    const vtt = corpus.items.find((i) => i.id === 'c')!.transcript!;
    const src = mapSpanInPart(vtt, 0, vtt.text.length)!;
    assert.equal(src.firstIndex, 0);
    assert.equal(src.lastIndex, 1);
    assert.equal(src.startTime, 0);
    assert.equal(src.endTime, 4);
    assert.deepEqual(src.speakers, ['Maya', 'Dan']);
    assert.deepEqual([src.range.startLine, src.range.endLine], [3, 6]);
    const comments = corpus.items.find((i) => i.id === 'b')!.comments!;
    const all = mapSpanInPart(comments, 0, comments.text.length)!;
    assert.deepEqual(all.commentIds, ['c1', 'c2']);
  });

  test('empty and out-of-range spans map to nothing', () => {
    const part = corpus.items[0]!.transcript!;
    assert.equal(mapSpanInPart(part, 5, 5), undefined);
    assert.equal(mapSpanInPart(part, part.text.length + 10, part.text.length + 20), undefined);
  });
});
