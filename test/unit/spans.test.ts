/**
 * Span mapping (issue 10): a span of a part's normalised text maps back to the range of the
 * original file it came from, with the units it touches, their times, speakers and comment ids —
 * what every marker's evidence and every report citation stores. The expected ranges are written
 * out by hand from the fixture.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mapSpan, mapSpanInPart, storedRange } from '../../src/core/corpus/spans';
import type { CommentsPart } from '../../src/core/corpus/types';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';

const T = transcriptPart([
  { text: 'Hello there.', speaker: 'Ana', start: 0, end: 4 },
  { text: 'Range drops in winter.', speaker: 'Ben', start: 4, end: 9 },
  { text: 'Untimed aside.', speaker: 'Ana' },
  { text: 'Last words.', start: 12, end: 15 },
]);
// Offsets: "Hello there." 0–12, "\n", "Range drops in winter." 13–35, "\n", "Untimed aside." 36–50, "\n", "Last words." 51–62.

describe('mapSpanInPart: transcripts', () => {
  test('a span inside one turn: its columns on that turn\'s line, its time and speaker', () => {
    const src = mapSpanInPart(T, 19, 24); // "drops"
    assert.deepEqual(src, { file: T.file, range: { startLine: 1, startColumn: 6, endLine: 1, endColumn: 11 }, firstIndex: 1, lastIndex: 1, startTime: 4, endTime: 9, speakers: ['Ben'] });
  });

  test('a whole turn, first character to last', () => {
    assert.deepEqual(mapSpanInPart(T, 0, 12)?.range, { startLine: 0, startColumn: 0, endLine: 0, endColumn: 12 });
    assert.deepEqual(mapSpanInPart(T, 51, 62)?.range, { startLine: 3, startColumn: 0, endLine: 3, endColumn: 11 });
  });

  test('a span across turns: from the first to the last, times from the first and last timed turns, each speaker once', () => {
    const src = mapSpanInPart(T, 6, 55)!; // "there." … "Last"
    assert.deepEqual(src.range, { startLine: 0, startColumn: 6, endLine: 3, endColumn: 4 });
    assert.equal(src.firstIndex, 0);
    assert.equal(src.lastIndex, 3);
    assert.equal(src.startTime, 0);
    assert.equal(src.endTime, 15);
    assert.deepEqual(src.speakers, ['Ana', 'Ben']);
    // Times of the turns the span touches only: an untimed first turn takes the next timed start.
    const mid = mapSpanInPart(T, 36, 62)!;
    assert.equal(mid.startTime, 12);
    assert.equal(mid.endTime, 15);
    const endsUntimed = mapSpanInPart(T, 13, 50)!;
    assert.equal(endsUntimed.startTime, 4);
    assert.equal(endsUntimed.endTime, 9, 'the end of the last timed turn the span touches');
    const untimed = mapSpanInPart(T, 36, 50)!;
    assert.equal(untimed.startTime, undefined);
    assert.equal(untimed.endTime, undefined);
    assert.deepEqual(untimed.speakers, ['Ana']);
  });

  test('a span starting on the newline between turns starts at the next turn', () => {
    const src = mapSpanInPart(T, 12, 18)!; // "\nRange"
    assert.equal(src.firstIndex, 1);
    assert.deepEqual(src.range, { startLine: 1, startColumn: 0, endLine: 1, endColumn: 5 });
  });

  test('spans are clamped to the text; empty and out-of-range spans map to nothing', () => {
    assert.deepEqual(mapSpanInPart(T, -5, 5)?.range, { startLine: 0, startColumn: 0, endLine: 0, endColumn: 5 });
    assert.deepEqual(mapSpanInPart(T, 55, 999)?.range, { startLine: 3, startColumn: 4, endLine: 3, endColumn: 11 });
    assert.equal(mapSpanInPart(T, 5, 5), undefined);
    assert.equal(mapSpanInPart(T, 9, 3), undefined);
    assert.equal(mapSpanInPart(T, 62, 70), undefined);
    assert.equal(mapSpanInPart(transcriptPart([]), 0, 1), undefined);
  });

  test('the last character of a turn maps to a one-character range', () => {
    assert.deepEqual(mapSpanInPart(T, 34, 35)?.range, { startLine: 1, startColumn: 21, endLine: 1, endColumn: 22 });
    assert.deepEqual(mapSpanInPart(T, 13, 14)?.range, { startLine: 1, startColumn: 0, endLine: 1, endColumn: 1 });
  });
});

describe('mapSpanInPart: comments', () => {
  const withEmpty = (): CommentsPart => {
    const c = commentsPart(['Great video!', 'Range matters most.', 'Agreed, range.']);
    // A comment with no text (counted, kept out of the text): offsets of the others are unchanged.
    c.comments.splice(1, 0, { index: 9, id: 'empty', text: '', offset: 13, author: 'ghost', source: { startLine: 9, startColumn: 0, endLine: 9, endColumn: 0 }, pieces: [] });
    return c;
  };

  test('a comments span names its comments and authors; empty comments are skipped', () => {
    const c = withEmpty();
    const src = mapSpanInPart(c, 6, 26)!; // "video!" … "Range matters"
    assert.deepEqual(src.commentIds, ['1', '2']);
    assert.deepEqual(src.speakers, ['user1', 'user2']);
    assert.deepEqual(src.range, { startLine: 0, startColumn: 6, endLine: 1, endColumn: 13 });
    assert.equal(src.startTime, undefined);
    const one = mapSpanInPart(c, 13, 18)!;
    assert.deepEqual(one.commentIds, ['2']);
    assert.equal(one.firstIndex, 1);
  });

  test('blank comments, in the middle or at the end, are never part of a span', () => {
    const c = commentsPart(['abc', '   ', 'def', '  ']);
    // Text: "abc\n   \ndef\n  ": a span over everything names the two real comments only.
    const all = mapSpanInPart(c, 0, c.text.length)!;
    assert.deepEqual(all.commentIds, ['1', '3']);
    assert.deepEqual(all.range, { startLine: 0, startColumn: 0, endLine: 2, endColumn: 3 });
    const tail = mapSpanInPart(c, 8, c.text.length)!;
    assert.deepEqual(tail.commentIds, ['3']);
  });

  test('a comment without an author adds no speaker', () => {
    const c = commentsPart(['one', 'two']);
    delete c.comments[1]!.author;
    assert.deepEqual(mapSpanInPart(c, 0, 7)!.speakers, ['user1']);
    assert.deepEqual(mapSpanInPart(c, 4, 7)!.speakers, []);
  });
});

describe('mapSpan and storedRange', () => {
  const item = itemOf('ev', { transcript: T, comments: commentsPart(['Great video!']) });

  test('mapSpan picks the part; an item without it maps to nothing', () => {
    assert.equal(mapSpan(item, { part: 'transcript', start: 19, end: 24 })?.range.startColumn, 6);
    assert.deepEqual(mapSpan(item, { part: 'comments', start: 0, end: 5 })?.commentIds, ['1']);
    assert.equal(mapSpan(itemOf('x', { transcript: T }), { part: 'comments', start: 0, end: 5 }), undefined);
    assert.equal(mapSpan(itemOf('x', { comments: commentsPart(['a']) }), { part: 'transcript', start: 0, end: 1 }), undefined);
  });

  test('storedRange: the relative file and range; time, speakers and comment ids only where known', () => {
    assert.deepEqual(storedRange(mapSpanInPart(T, 19, 24)!), { file: 't.json', startLine: 1, startColumn: 6, endLine: 1, endColumn: 11, startTime: 4, endTime: 9, speakers: ['Ben'] });
    assert.deepEqual(storedRange(mapSpanInPart(transcriptPart(['plain']), 0, 5)!), { file: 't.json', startLine: 0, startColumn: 0, endLine: 0, endColumn: 5 });
    const c = commentsPart(['Great video!']);
    delete c.comments[0]!.author;
    assert.deepEqual(storedRange(mapSpanInPart(c, 0, 5)!), { file: 'c.jsonl', startLine: 0, startColumn: 0, endLine: 0, endColumn: 5, commentIds: ['1'] });
    const zero = storedRange({ ...mapSpanInPart(T, 0, 5)!, startTime: 0, endTime: 0 });
    assert.equal(zero.startTime, 0, 'a time of 0 is kept');
    assert.equal(zero.endTime, 0);
  });
});
