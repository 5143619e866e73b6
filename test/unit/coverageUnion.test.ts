/**
 * Coverage is the union of the word ranges actually sent and answered (issue 10): a run that
 * skips a window in the middle reports the gap and is never `complete`, whatever the last
 * window's end is.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { coverageOf, unionOfRanges, type PartWindow } from '../../src/core/markers/windows';

function win(index: number, startWord: number, endWord: number): PartWindow {
  return { index, start: startWord * 6, end: endWord * 6, startWord, endWord, words: endWord - startWord, pieces: [] };
}

describe('coverage from the union of word ranges sent', () => {
  test('a skipped middle window leaves a gap: not complete, words seen counts only what was sent', () => {
    const c = coverageOf([win(0, 0, 100), win(2, 200, 300)], 300);
    assert.equal(c.complete, false);
    assert.equal(c.wordsSeen, 200);
    assert.deepEqual(c.missingRanges, [[100, 200]]);
    assert.equal(c.windows, 2);
  });

  test('a missing first or last window is a gap too', () => {
    assert.deepEqual(coverageOf([win(1, 50, 300)], 300).missingRanges, [[0, 50]]);
    const tail = coverageOf([win(0, 0, 250)], 300);
    assert.equal(tail.complete, false);
    assert.deepEqual(tail.missingRanges, [[250, 300]]);
  });

  test('overlapping windows in any order cover the part; duplication counts every word sent', () => {
    const c = coverageOf([win(2, 180, 300), win(0, 0, 110), win(1, 100, 190)], 300);
    assert.equal(c.complete, true);
    assert.equal(c.wordsSeen, 300);
    assert.equal(c.missingRanges, undefined);
    assert.equal(c.duplicationRatio, Math.round((120 + 110 + 90) / 300 * 1000) / 1000);
  });

  test('touching ranges join; nothing sent of a non-empty part is a full gap; an empty part is complete', () => {
    assert.deepEqual(unionOfRanges([[10, 20], [0, 10], [30, 40], [35, 38]]), [[0, 20], [30, 40]]);
    assert.deepEqual(coverageOf([], 40).missingRanges, [[0, 40]]);
    assert.equal(coverageOf([], 0).complete, true);
  });

  test('a window reaching past the part is clipped to it', () => {
    const c = coverageOf([win(0, 0, 80), win(1, 60, 140)], 120);
    assert.equal(c.wordsSeen, 120);
    assert.equal(c.complete, true);
  });
});
