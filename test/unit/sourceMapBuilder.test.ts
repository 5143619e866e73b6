/**
 * Source maps, piece by piece (issue 10): the builder that records where every character of a
 * normalised text came from, the lookups from an offset to a line and column of the original, and
 * JSON string decoding with its map. test/unit/sourceMap.test.ts checks the round trip through
 * every parser; this file pins the pieces themselves, with expectations written out by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mapJsonString, MappedTextBuilder, pieceEnd, piecesRange, pieceStart, type SourcePiece } from '../../src/core/corpus/sourceMap';

const piece = (at: number, line: number, column: number, length: number, rawLength = length): SourcePiece => ({ at, line, column, length, rawLength });

describe('MappedTextBuilder', () => {
  test('verbatim runs that continue each other on the same line join into one piece', () => {
    const b = new MappedTextBuilder();
    b.verbatim('Hello', 2, 4);
    b.verbatim(' world', 2, 9);
    assert.equal(b.text, 'Hello world');
    assert.deepEqual(b.pieces, [piece(0, 2, 4, 11)]);
  });

  test('a gap in columns, another line, or a decoded character before starts a new piece', () => {
    const b = new MappedTextBuilder();
    b.verbatim('ab', 0, 0);
    b.verbatim('cd', 0, 5); // a gap: columns 2–4 were markup
    b.verbatim('ef', 1, 7); // the next line, the column where "cd" would have ended
    b.mapped('\n', 1, 9, 2);
    b.verbatim('gh', 1, 11); // right after the escape, but after a mapped piece
    assert.equal(b.text, 'abcdef\ngh');
    assert.deepEqual(b.pieces, [piece(0, 0, 0, 2), piece(2, 0, 5, 2), piece(4, 1, 7, 2), piece(6, 1, 9, 1, 2), piece(7, 1, 11, 2)]);
  });

  test('a run does not join a piece that does not end where the text ends', () => {
    const b = new MappedTextBuilder();
    b.verbatim('ab', 0, 0);
    b.synthetic(' ');
    b.verbatim('cd', 0, 2);
    assert.deepEqual(b.pieces, [piece(0, 0, 0, 2), piece(2, 0, 2, 1, 0), piece(3, 0, 2, 2)]);
  });

  test('empty strings add nothing', () => {
    const b = new MappedTextBuilder();
    b.verbatim('', 0, 0);
    b.mapped('', 0, 0, 3);
    b.synthetic('');
    assert.equal(b.text, '');
    assert.deepEqual(b.pieces, []);
  });

  test('a synthetic character maps to the end of the previous run; first of all, to the start of the file', () => {
    const b = new MappedTextBuilder();
    b.synthetic(' ');
    b.verbatim('abc', 3, 10);
    b.mapped('&', 3, 13, 5);
    b.synthetic(' ');
    assert.deepEqual(b.pieces, [piece(0, 0, 0, 1, 0), piece(1, 3, 10, 3), piece(4, 3, 13, 1, 5), piece(5, 3, 18, 1, 0)]);
  });

  test('appendFrom copies a range with its mapping: verbatim runs cut to the range, decoded and synthetic pieces as they are', () => {
    const src = new MappedTextBuilder();
    src.verbatim('Hello', 0, 0);
    src.synthetic(' ');
    src.mapped('&', 1, 0, 5);
    src.verbatim('world', 1, 5);
    const b = new MappedTextBuilder();
    b.appendFrom(src, 2, 10); // "llo &wor"
    assert.equal(b.text, 'llo &wor');
    assert.deepEqual(b.pieces, [piece(0, 0, 2, 3), piece(3, 0, 5, 1, 0), piece(4, 1, 0, 1, 5), piece(5, 1, 5, 3)]);
    // A joining space copied first maps to the end of what the new text has before it.
    const after = new MappedTextBuilder();
    after.verbatim('X', 7, 0);
    after.appendFrom(src, 5, 6);
    assert.deepEqual(after.pieces, [piece(0, 7, 0, 1), piece(1, 7, 1, 1, 0)]);
    const none = new MappedTextBuilder();
    none.appendFrom(src, 3, 3);
    assert.deepEqual([none.text, none.pieces], ['', []]);
  });

  test('trimmed drops leading and trailing whitespace and keeps the mapping of the rest', () => {
    const b = new MappedTextBuilder();
    b.verbatim('  padded text \t', 4, 1);
    const t = b.trimmed();
    assert.equal(t.text, 'padded text');
    assert.deepEqual(t.pieces, [piece(0, 4, 3, 11)]);
    const blank = new MappedTextBuilder();
    blank.verbatim('   ', 0, 0);
    assert.deepEqual([blank.trimmed().text, blank.trimmed().pieces], ['', []]);
    const left = new MappedTextBuilder();
    left.verbatim('  x', 0, 0);
    assert.deepEqual([left.trimmed().text, left.trimmed().pieces], ['x', [piece(0, 0, 2, 1)]]);
  });
});

describe('offsets to lines and columns', () => {
  // "ab&cd": "ab" verbatim at 5:0, "&" decoded from "&amp;" at 5:2, "cd" verbatim at 5:7.
  const pieces = [piece(0, 5, 0, 2), piece(2, 5, 2, 1, 5), piece(3, 5, 7, 2)];

  test('pieceStart: verbatim characters by their column; a decoded one at the start of its escape', () => {
    assert.deepEqual(pieceStart(pieces, 0), { line: 5, column: 0 });
    assert.deepEqual(pieceStart(pieces, 1), { line: 5, column: 1 });
    assert.deepEqual(pieceStart(pieces, 2), { line: 5, column: 2 });
    assert.deepEqual(pieceStart(pieces, 3), { line: 5, column: 7 });
    assert.deepEqual(pieceStart(pieces, 4), { line: 5, column: 8 });
  });

  test('pieceEnd: after the previous character; a decoded one ends after its whole escape', () => {
    assert.deepEqual(pieceEnd(pieces, 1), { line: 5, column: 1 });
    assert.deepEqual(pieceEnd(pieces, 2), { line: 5, column: 2 });
    assert.deepEqual(pieceEnd(pieces, 3), { line: 5, column: 7 });
    assert.deepEqual(pieceEnd(pieces, 5), { line: 5, column: 9 });
    assert.deepEqual(pieceEnd(pieces, 0), { line: 5, column: 0 }, 'an empty span ends where it starts');
  });

  test('inside a decoded run of several characters every offset maps to the start of its original', () => {
    const decoded = [piece(0, 2, 4, 2, 12)]; // e.g. two characters from "\\ud83d\\ude00"
    assert.deepEqual(pieceStart(decoded, 1), { line: 2, column: 4 });
    assert.deepEqual(pieceEnd(decoded, 1), { line: 2, column: 16 });
  });

  test('no pieces: the start of the file', () => {
    assert.deepEqual(pieceStart([], 3), { line: 0, column: 0 });
    assert.deepEqual(pieceEnd([], 3), { line: 0, column: 0 });
  });

  test('a lookup past the end stays in the last piece; many pieces are searched correctly', () => {
    assert.deepEqual(pieceEnd(pieces, 99), { line: 5, column: 9 });
    const many = Array.from({ length: 50 }, (_, k) => piece(k * 2, k, 10, 2));
    for (let at = 0; at < 100; at++) assert.deepEqual(pieceStart(many, at), { line: Math.floor(at / 2), column: 10 + (at % 2) }, `offset ${at}`);
  });

  test('piecesRange: from the first character to after the last', () => {
    assert.deepEqual(piecesRange(pieces, 5), { startLine: 5, startColumn: 0, endLine: 5, endColumn: 9 });
    assert.deepEqual(piecesRange([piece(0, 1, 3, 4), piece(4, 2, 0, 3)], 7), { startLine: 1, startColumn: 3, endLine: 2, endColumn: 3 });
  });
});

describe('mapJsonString', () => {
  test('escapes decode to their characters, each mapped to its escape', () => {
    const raw = 'a\\nb\\t\\"q\\"\\\\\\/\\u00e9z';
    const b = mapJsonString(raw, 3, 10);
    assert.equal(b.text, JSON.parse(`"${raw}"`));
    assert.deepEqual(b.pieces, [
      piece(0, 3, 10, 1), // a
      piece(1, 3, 11, 1, 2), // \n
      piece(2, 3, 13, 1), // b
      piece(3, 3, 14, 1, 2), // \t
      piece(4, 3, 16, 1, 2), // \"
      piece(5, 3, 18, 1), // q
      piece(6, 3, 19, 1, 2), // \"
      piece(7, 3, 21, 1, 2), // \\
      piece(8, 3, 23, 1, 2), // \/
      piece(9, 3, 25, 1, 6), // \u00e9
      piece(10, 3, 31, 1), // z
    ]);
  });

  test('every JSON escape; an unknown one keeps its letter; a broken \\u decodes to nothing', () => {
    assert.equal(mapJsonString('\\b\\f\\r', 0, 0).text, '\b\f\r');
    assert.equal(mapJsonString('\\x', 0, 0).text, 'x');
    const broken = mapJsonString('a\\uZZZZb', 0, 0);
    assert.equal(broken.text, 'ab');
    assert.deepEqual(broken.pieces, [piece(0, 0, 0, 1), piece(1, 0, 7, 1)]);
    assert.equal(mapJsonString('end\\', 0, 0).text, 'end');
  });

  test('plain text is one verbatim piece; empty text none', () => {
    assert.deepEqual(mapJsonString('plain 中文', 1, 2).pieces, [piece(0, 1, 2, 8)]);
    assert.deepEqual(mapJsonString('', 1, 2).pieces, []);
  });
});
