import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countWords, lineStarts, offsetToLineCol, walkWords } from '../../src/core/text/words';
import { rng as seeded } from '../support/testing';

describe('countWords', () => {
  test('counts runs of letters or digits in English', () => {
    assert.equal(countWords('Hello, world! It is 2024.'), 5);
    assert.equal(countWords('   '), 0);
    assert.equal(countWords("don't stop"), 3);
  });
  test('counts two CJK characters as one word', () => {
    assert.equal(countWords('你好世界'), 2);
    assert.equal(countWords('你好世'), 2);
    assert.equal(countWords('零下十度，掉电三成。'), 4);
  });
  test('mixes scripts without merging runs', () => {
    assert.equal(countWords('电动车EV续航500公里'), 1 + 1 + 1 + 1 + 1 + 1);
    assert.equal(countWords('Café naïve résumé'), 3);
  });
  test('counts as walkWords does on generated texts of every script (its own loop reads code units: surrogate pairs, lone surrogates, marks, kana, hangul)', () => {
    const r = seeded(7);
    const pieces = ['word', 'Wörter', 'año', '2024', '3.5', "don't", 'e\u0301', '电池', '价格', '。', '，', 'カタカナ', 'ひらがな', '한국어', '𠀀', '𝐀𝐁', '😀', '👍🏽', '\ud83d', '\ude00', '\ud800x', ' ', '  ', '\n', '\t', '-', '—', '…', '¿', '¡', '\u200b', '\u0300'];
    let n = 0;
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      const len = Math.floor(r() * 12);
      for (let i = 0; i < len; i++) text += pieces[Math.floor(r() * pieces.length)]!;
      // And random code units of every plane, surrogate halves included.
      if (k % 4 === 0) for (let i = 0; i < 6; i++) text += String.fromCharCode(Math.floor(r() * 0x10000));
      assert.equal(countWords(text), walkWords(text, 0, text.length).words, JSON.stringify(text));
      n++;
    }
    assert.equal(n, 20_000);
  });
});

describe('lineStarts', () => {
  test('every offset after a newline, on generated texts (CR, CRLF and no newline at all)', () => {
    const r = seeded(11);
    for (let k = 0; k < 2_000; k++) {
      let text = '';
      for (let i = Math.floor(r() * 30); i > 0; i--) text += ['a', '\n', '\r\n', '\r', '电', ' ', '\n\n'][Math.floor(r() * 7)]!;
      const want = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n') want.push(i + 1);
      assert.deepEqual(lineStarts(text), want, JSON.stringify(text));
    }
  });
});

describe('offsetToLineCol', () => {
  test('maps offsets to zero-based line and column', () => {
    const text = 'ab\ncde\n\nf';
    const starts = lineStarts(text);
    assert.deepEqual(starts, [0, 3, 7, 8]);
    assert.deepEqual(offsetToLineCol(starts, 0), { line: 0, column: 0 });
    assert.deepEqual(offsetToLineCol(starts, 4), { line: 1, column: 1 });
    assert.deepEqual(offsetToLineCol(starts, 8), { line: 3, column: 0 });
  });
});
