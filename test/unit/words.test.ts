import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countWords, lineStarts, offsetToLineCol } from '../../src/core/text/words';

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
