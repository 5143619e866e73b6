import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseComments, parseCsvRows } from '../../src/core/corpus/commentParsers';
import { decodeText } from '../../src/core/corpus/decode';
import { normaliseCommentFields } from '../../src/core/corpus/schemas';
import { parseTimestamp } from '../../src/core/corpus/timestamps';
import { parseTranscript } from '../../src/core/corpus/transcriptParsers';
import type { TextRange } from '../../src/core/corpus/types';

/** The text an original-file range covers. */
function slice(text: string, r: TextRange): string {
  const lines = text.split('\n');
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  return [lines[r.startLine]!.slice(r.startColumn), ...lines.slice(r.startLine + 1, r.endLine), lines[r.endLine]!.slice(0, r.endColumn)].join('\n');
}

describe('transcript parsers', () => {
  test('json turns keep speaker and map the text back to its exact place', () => {
    const src = '{"title":"T","turns":[\n  {"speaker":"A","text":"Hello there."},\n  {"speaker":"B","text":"你好，世界。","start":1.5,"end":"3"}\n]}';
    const r = parseTranscript(src, 'json', 't.json');
    assert.equal(r.problems.length, 0);
    assert.equal(r.title, 'T');
    assert.deepEqual(r.segments.map((s) => [s.speaker, s.text, s.start, s.end]), [['A', 'Hello there.', undefined, undefined], ['B', '你好，世界。', 1.5, 3]]);
    for (const s of r.segments) assert.equal(slice(src, s.source), s.text);
  });

  test('json segments with timestamps', () => {
    const src = '{"segments":[{"start":0,"end":2.5,"text":"one"},{"start":"00:00:02,500","end":"00:00:04,000","text":"two"}]}';
    const r = parseTranscript(src, 'json', 's.json');
    assert.deepEqual(r.segments.map((s) => [s.text, s.start, s.end]), [['one', 0, 2.5], ['two', 2.5, 4]]);
  });

  test('broken json is reported with line and column, not thrown', () => {
    const src = '{"turns":[\n{"text":"ok"},\n{"text":"no comma"}\n{"text":"x"}]}';
    const r = parseTranscript(src, 'json', 'bad.json');
    assert.equal(r.problems[0]!.code, 'invalid-json');
    assert.equal(r.problems[0]!.file, 'bad.json');
    assert.equal(r.problems[0]!.line, 3);
  });

  test('a turn without text is skipped and reported, the others load', () => {
    const r = parseTranscript('{"turns":[{"speaker":"A"},{"text":"kept"}]}', 'json', 'x.json');
    assert.equal(r.segments.length, 1);
    assert.equal(r.skipped, 1);
    assert.match(r.problems[0]!.message, /turns\[0\] skipped: text/);
  });

  test('json of the wrong shape is a clear problem', () => {
    const r = parseTranscript('[1,2,3]', 'json', 'x.json');
    assert.equal(r.segments.length, 0);
    assert.equal(r.problems[0]!.code, 'invalid-transcript');
  });

  test('srt: multi-line cues, timestamps, a cue without timing reported', () => {
    const src = '1\n00:00:01,000 --> 00:00:04,000\nFirst line\nsecond line\n\n2\nno timing here\n\n3\n00:01:00,500 --> 00:01:02,000\nLast.\n';
    const r = parseTranscript(src, 'srt', 'a.srt');
    assert.deepEqual(r.segments.map((s) => [s.text, s.start, s.end]), [['First line second line', 1, 4], ['Last.', 60.5, 62]]);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0]!.line, 5);
    assert.deepEqual(r.segments[0]!.source, { startLine: 2, startColumn: 0, endLine: 3, endColumn: 11 });
  });

  test('vtt: header, NOTE blocks, voice tags become speakers, inline tags stripped', () => {
    const src = 'WEBVTT\n\nNOTE a note\n\ncue-1\n00:05.000 --> 00:07.250 align:start\n<v Maya>Hello <b>all</b> &amp; welcome\n\n00:00:08.000 --> 00:00:09.000\nBye\n';
    const r = parseTranscript(src, 'vtt', 'a.vtt');
    assert.deepEqual(r.segments.map((s) => [s.speaker, s.text, s.start, s.end]), [['Maya', 'Hello all & welcome', 5, 7.25], [undefined, 'Bye', 8, 9]]);
    assert.equal(r.problems.length, 0);
  });

  test('txt and md: one segment per non-empty line with exact columns', () => {
    const src = 'First line.\n\n   Indented line.  \n';
    const r = parseTranscript(src, 'txt', 'a.txt');
    assert.deepEqual(r.segments.map((s) => s.text), ['First line.', 'Indented line.']);
    for (const s of r.segments) assert.equal(slice(src, s.source), s.text);
    const md = parseTranscript('---\ntitle: x\n---\n# Heading\nBody', 'md', 'a.md');
    assert.deepEqual(md.segments.map((s) => s.text), ['# Heading', 'Body']);
  });

  test('parseTimestamp', () => {
    assert.equal(parseTimestamp('01:02:03,500'), 3723.5);
    assert.equal(parseTimestamp('02:03.25'), 123.25);
    assert.equal(parseTimestamp('nope'), undefined);
  });
});

describe('comment parsers', () => {
  test('jsonl: broken line reported with its line number, the rest loads', () => {
    const src = '{"comment_id":"1","text":"good","likes":3}\n{"comment_id":"2","text":"cut off\n\n{"id":"3","textOriginal":"alias","likeCount":"1.2K","parentId":"1"}\n';
    const r = parseComments(src, 'jsonl', 'c.jsonl');
    assert.deepEqual(r.comments.map((c) => [c.id, c.text, c.likes, c.parentId]), [['1', 'good', 3, undefined], ['3', 'alias', 1200, '1']]);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0]!.line, 1);
    assert.equal(r.skipped, 1);
    for (const c of r.comments) assert.equal(slice(src, c.source), c.text);
  });

  test('json: array and {comments: [...]} with YouTube Data API names', () => {
    const arr = parseComments('[{"id":"a","authorDisplayName":"X","textOriginal":"hi","likeCount":2,"publishedAt":"2024-01-01"}]', 'json', 'c.json');
    assert.deepEqual(arr.comments.map((c) => [c.id, c.author, c.text, c.likes, c.publishedAt]), [['a', 'X', 'hi', 2, '2024-01-01']]);
    const src = '{"comments":[\n {"comment_id":"b","text":"评论内容","votes":7},\n {"no_text":true}\n]}';
    const obj = parseComments(src, 'json', 'c.json');
    assert.equal(obj.comments.length, 1);
    assert.equal(obj.comments[0]!.likes, 7);
    assert.equal(slice(src, obj.comments[0]!.source), '评论内容');
    assert.equal(obj.problems.length, 1);
    assert.equal(obj.problems[0]!.line, 2);
  });

  test('csv: quoted fields, doubled quotes and embedded newlines', () => {
    const src = 'comment_id,author,text,likes\n1,a,"line one\nline two",5\n2,b,"say ""hi""",\n3,c,plain,x1\n';
    const r = parseComments(src, 'csv', 'c.csv');
    assert.deepEqual(r.comments.map((c) => [c.id, c.text]), [['1', 'line one\nline two'], ['2', 'say "hi"']]);
    assert.equal(slice(src, r.comments[0]!.source), 'line one\nline two');
    assert.equal(r.skipped, 1, 'a non-numeric like count is a bad record');
    assert.equal(r.problems[0]!.line, 4, 'zero-based line of row 3 (row 1 spans two lines)');
  });

  test('csv: unterminated quote reported', () => {
    const r = parseCsvRows('a,b\n1,"open\n');
    assert.equal(r.unterminatedAt, 1);
  });

  test('normaliseCommentFields flattens a YouTube API commentThread', () => {
    const rec = normaliseCommentFields({ id: 'T1', snippet: { topLevelComment: { snippet: { textOriginal: 'top', authorDisplayName: 'Ann', likeCount: 4 } }, totalReplyCount: 2 } });
    assert.equal(rec['comment_id'], 'T1');
    assert.equal(rec['text'], 'top');
    assert.equal(rec['author'], 'Ann');
    assert.equal(rec['likes'], 4);
    assert.equal(rec['reply_count'], 2);
  });
});

describe('decodeText', () => {
  test('strips a UTF-8 BOM and normalises CRLF', () => {
    const d = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x62]));
    assert.equal(d.text, 'a\nb');
  });
  test('decodes UTF-16 LE with a BOM', () => {
    const body = Buffer.from('你好 hi', 'utf16le');
    const d = decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
    assert.equal(d.text, '你好 hi');
    assert.equal(d.encoding, 'utf-16le');
  });
  test('invalid UTF-8 is replaced and reported', () => {
    const d = decodeText(new Uint8Array([0x61, 0xff, 0x62]));
    assert.equal(d.text, 'a\uFFFDb');
    assert.equal(d.warnings.length, 1);
  });
});
