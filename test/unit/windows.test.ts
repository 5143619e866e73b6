/**
 * Windows and coverage (issue 10), on parts of uniform units whose windows can be worked out by
 * hand: the size and overlap of every window, a unit longer than a window cut at its sentences,
 * the smallest window size that honours a window limit, splits for context-length retries, and
 * the coverage report of what was sent. (test/unit/windowLimit.test.ts checks the window limit
 * over random parts, test/unit/coverageUnion.test.ts the coverage union.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { coverageOf, planWindows, renderWindow, shrinkWindow, splitWindow, unionOfRanges, type PartWindow } from '../../src/core/markers/windows';
import { countWords } from '../../src/core/text/words';
import { commentsPart, transcriptPart } from '../support/parts';

/** `n` turns of `words` words each, one sentence each, words numbered through the part. */
function uniform(n: number, words: number): string[] {
  let k = 0;
  return Array.from({ length: n }, () => `${Array.from({ length: words }, () => `w${k++}`).join(' ')}.`);
}

const spans = (ws: readonly PartWindow[]): [number, number][] => ws.map((w) => [w.startWord, w.endWord]);

describe('planWindows: sizes and overlaps', () => {
  test('windows of at most windowWords, each starting overlapWords back, in whole units', () => {
    const part = transcriptPart(uniform(40, 5)); // 200 words
    const ws = planWindows(part, { windowWords: 60, overlapWords: 10, windowLimit: 0 });
    assert.deepEqual(spans(ws), [[0, 60], [50, 110], [100, 160], [150, 200]]);
    ws.forEach((w, i) => {
      assert.equal(w.index, i);
      assert.equal(w.words, w.endWord - w.startWord);
      assert.equal(w.start, part.segments[w.startWord / 5]!.offset, 'starts at a unit');
      assert.equal(w.end, part.segments[w.endWord / 5 - 1]!.offset + part.segments[w.endWord / 5 - 1]!.text.length, 'ends at a unit');
      assert.equal(w.pieces.length, w.words / 5);
    });
  });

  test('the overlap is at most a quarter of the window', () => {
    const part = transcriptPart(uniform(40, 5));
    assert.deepEqual(spans(planWindows(part, { windowWords: 100, overlapWords: 1000, windowLimit: 0 })), [[0, 100], [75, 175], [150, 200]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 100, overlapWords: 0, windowLimit: 0 })), [[0, 100], [100, 200]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 100, overlapWords: -5, windowLimit: 0 })), [[0, 100], [100, 200]]);
  });

  test('windows are at least 50 words; a unit that fits exactly is taken', () => {
    const part = transcriptPart(uniform(10, 25)); // 250 words
    assert.deepEqual(spans(planWindows(part, { windowWords: 10, overlapWords: 0, windowLimit: 0 })), [[0, 50], [50, 100], [100, 150], [150, 200], [200, 250]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 75, overlapWords: 0, windowLimit: 0 })), [[0, 75], [75, 150], [150, 225], [225, 250]]);
  });

  test('a unit longer than a window is cut at its sentences, grouped up to the window size', () => {
    // One turn of 30 sentences of 10 words: windows of 50 words are five whole sentences each.
    const sentences = Array.from({ length: 30 }, (_, s) => `${Array.from({ length: 10 }, (_, k) => `s${s}w${k}`).join(' ')}.`);
    const part = transcriptPart(['Short intro here.', sentences.join(' '), 'Short outro here.']);
    const ws = planWindows(part, { windowWords: 50, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(ws.map((w) => w.words), [3, 50, 50, 50, 50, 50, 50, 3]);
    for (const w of ws) {
      assert.ok(w.words <= 50, `${w.words} words`);
      const text = part.text.slice(w.start, w.end);
      assert.equal(countWords(text), w.words, 'the window holds what it counts');
    }
    // Every cut is at a sentence end: each window of the long turn starts at "s<k>w0".
    const long = ws.filter((w) => w.pieces.every((p) => p.unit === 1));
    for (const w of long) assert.match(part.text.slice(w.start, w.end), /^s\d+w0 .*s\d+w9\.$/);
    assert.equal(ws.reduce((a, w) => a + w.words, 0), part.wordCount, 'no overlap, no word twice');
    const pieceWords = ws.flatMap((w) => w.pieces).filter((p) => p.unit === 1).map((p) => p.words);
    assert.deepEqual(pieceWords, [50, 50, 50, 50, 50, 50]);
  });

  test('a unit that fits is kept whole, line breaks and all', () => {
    // Exactly 50 words, its first line without a sentence end.
    const first = Array.from({ length: 25 }, (_, k) => `a${k}`).join(' ');
    const second = `${Array.from({ length: 25 }, (_, k) => `b${k}`).join(' ')}.`;
    const part = transcriptPart([`${first}\n${second}`]);
    const ws = planWindows(part, { windowWords: 50, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(spans(ws), [[0, 50]]);
    assert.equal(part.text.slice(ws[0]!.start, ws[0]!.end), `${first}\n${second}`);
  });

  test('a sentence longer than a window (an unpunctuated caption) is a window of its own, never dropped', () => {
    const caption = Array.from({ length: 120 }, (_, k) => `c${k}`).join(' ');
    const part = transcriptPart(['Intro words here.', `${caption}. Then a short end.`]);
    const ws = planWindows(part, { windowWords: 50, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(ws.map((w) => w.words), [3, 120, 4]);
    assert.equal(ws.reduce((a, w) => a + w.words, 0), part.wordCount);
  });

  // Known bug (reported; windows.ts and sentences.ts not changed here): a unit longer than a window
  // is cut at its sentences, and splitSentences leaves out text before a line break that has no
  // sentence end — so such lines are never sent, and a model run fails its coverage check
  // (a JSON turn holding a whole unpunctuated caption with line breaks, for instance).
  test('a long unit with line breaks but no sentence ends is read whole', () => {
    const lines = Array.from({ length: 12 }, (_, l) => Array.from({ length: 10 }, (_, k) => `l${l}w${k}`).join(' '));
    const part = transcriptPart([lines.join('\n')]);
    const ws = planWindows(part, { windowWords: 50, overlapWords: 0, windowLimit: 0 });
    assert.equal(coverageOf(ws, part.wordCount).complete, true, JSON.stringify(coverageOf(ws, part.wordCount)));
  });

  test('comments: blank comments are no piece; pieces carry comment id and likes', () => {
    const part = commentsPart(['first comment here', '   ', 'third one']);
    part.comments[2]!.likes = 4;
    const [w] = planWindows(part, { windowWords: 100, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(w!.pieces.map((p) => [p.commentId, p.likes, p.words]), [['1', undefined, 3], ['3', 4, 2]]);
  });

  test('an empty part has no windows', () => {
    assert.deepEqual(planWindows(transcriptPart([]), { windowWords: 100, overlapWords: 0, windowLimit: 0 }), []);
    assert.deepEqual(planWindows(transcriptPart([]), { windowWords: 100, overlapWords: 0, windowLimit: 2 }), []);
  });
});

describe('planWindows: a window limit', () => {
  const part = transcriptPart(uniform(100, 10)); // 1000 words

  test('too many windows at windowWords: the smallest size that fits the limit', () => {
    // 200-word windows would be 5; a third of the part (334) still gives 4 in 10-word units; 340 gives 3.
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 0, windowLimit: 3 })), [[0, 340], [340, 680], [680, 1000]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 0, windowLimit: 1 })), [[0, 1000]]);
  });

  test('the first guess (the part spread over the limit, plus the overlap) is kept when it fits', () => {
    // 6 windows needed; 1000 / 2 + 20 = 520 fits in 2 windows (510 would too).
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 20, windowLimit: 2 })), [[0, 520], [500, 1000]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 0, windowLimit: 4 })), [[0, 250], [250, 500], [500, 750], [750, 1000]]);
  });

  test('exactly as many windows as the limit: unchanged', () => {
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 0, windowLimit: 5 })), [[0, 200], [200, 400], [400, 600], [600, 800], [800, 1000]]);
    assert.deepEqual(spans(planWindows(part, { windowWords: 210, overlapWords: 10, windowLimit: 5 })), [[0, 210], [200, 410], [400, 610], [600, 810], [800, 1000]]);
  });

  test('one-word units: the first guess is kept exactly when it fits; windowWords when the limit is just enough', () => {
    let k = 0;
    const words = (n: number) => transcriptPart(Array.from({ length: n }, () => `w${k++}`));
    const thousand = words(1000);
    assert.deepEqual(spans(planWindows(thousand, { windowWords: 200, overlapWords: 20, windowLimit: 2 })), [[0, 520], [500, 1000]]);
    // 1100 words in windows of 200 overlapping by 20 are exactly 6: the limit 6 changes nothing.
    const more = words(1100);
    assert.deepEqual(spans(planWindows(more, { windowWords: 200, overlapWords: 20, windowLimit: 6 })), [[0, 200], [180, 380], [360, 560], [540, 740], [720, 920], [900, 1100]]);
    assert.deepEqual(spans(planWindows(more, { windowWords: 200, overlapWords: 20, windowLimit: 5 })), [[0, 240], [220, 460], [440, 680], [660, 900], [880, 1100]]);
  });

  test('a fractional limit counts as its whole part', () => {
    assert.deepEqual(spans(planWindows(part, { windowWords: 200, overlapWords: 0, windowLimit: 3.9 })), [[0, 340], [340, 680], [680, 1000]]);
  });
});

describe('splitWindow and shrinkWindow', () => {
  const part = transcriptPart(uniform(10, 10)); // 100 words
  const [whole] = planWindows(part, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });

  test('0.75× of a 100-word window of 10-word units: 70 and 30', () => {
    assert.deepEqual(spans(shrinkWindow(whole!, undefined, part)), [[0, 70], [70, 100]]);
    assert.deepEqual(spans(shrinkWindow(whole!, 0.5, part)), [[0, 50], [50, 100]]);
    assert.deepEqual(spans(splitWindow(whole!, 30, part)), [[0, 30], [30, 60], [60, 90], [90, 100]]);
    assert.ok(shrinkWindow(whole!, 0.75, part).every((w) => w.index === whole!.index), 'the parts keep the window\'s index');
  });

  test('without the part\'s text a unit longer than the size is kept whole', () => {
    const long = transcriptPart([Array.from({ length: 40 }, (_, k) => `x${k}`).join(' '), 'a b c.']);
    const [w] = planWindows(long, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(splitWindow(w!, 10).map((x) => x.words), [40, 3]);
    assert.deepEqual(splitWindow(w!, 10, long).map((x) => x.words), [10, 10, 10, 10, 3]);
    assert.deepEqual(splitWindow(w!, 40, long).map((x) => x.words), [40, 3]);
  });

  test('a window without pieces splits into nothing; a tiny factor still makes windows of one word', () => {
    assert.deepEqual(splitWindow({ ...whole!, pieces: [] }, 10), []);
    const tiny = shrinkWindow(whole!, 0.001, part);
    assert.equal(tiny.length, 100);
    assert.ok(tiny.every((w) => w.words === 1));
  });

  test('a long unit is cut between words, never inside one; Chinese is cut between characters', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const en = transcriptPart([text]);
    const [we] = planWindows(en, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    const parts = splitWindow(we!, 3, en);
    assert.deepEqual(parts.map((p) => en.text.slice(p.start, p.end).trim()), ['alpha beta gamma', 'delta epsilon zeta', 'eta theta iota', 'kappa']);
    const halves = splitWindow(we!, 5, en);
    assert.deepEqual(halves.map((p) => en.text.slice(p.start, p.end).trim()), ['alpha beta gamma delta epsilon', 'zeta eta theta iota kappa']);
    // Each half reads as one run of text (a cut is a new line when the model reads the window).
    assert.deepEqual(halves.map((p) => renderWindow(en, p).trim()), ['alpha beta gamma delta epsilon', 'zeta eta theta iota kappa']);
    const zh = transcriptPart(['电动车的续航在冬天下降了三分之一']); // 16 characters: 8 words
    const [wz] = planWindows(zh, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.equal(wz!.words, 8);
    const zparts = splitWindow(wz!, 3, zh);
    assert.deepEqual(zparts.map((p) => zh.text.slice(p.start, p.end)), ['电动车的续航', '在冬天下降了', '三分之一']);
    assert.deepEqual(zparts.map((p) => p.words), [3, 3, 2]);
  });

  // Known bug (reported, windows.ts not changed here): a Latin word right after Chinese characters
  // is cut after its first letter ("续航r" | "ange"): the back-off stops at the CJK character.
  test('a Latin word right after Chinese characters is not cut inside', () => {
    const mixed = transcriptPart(['续航range下降了']);
    const [wm] = planWindows(mixed, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.deepEqual(splitWindow(wm!, 1, mixed).map((p) => mixed.text.slice(p.start, p.end)), ['续航', 'range', '下降', '了']);
  });
});

describe('coverage and rendering', () => {
  test('empty and reversed ranges are no coverage', () => {
    assert.deepEqual(unionOfRanges([[5, 5], [9, 3], [0, 2]]), [[0, 2]]);
  });

  test('at most twenty missing ranges are listed', () => {
    const ws: PartWindow[] = Array.from({ length: 30 }, (_, k) => ({ index: k, start: 0, end: 0, startWord: k * 10, endWord: k * 10 + 5, words: 5, pieces: [] }));
    const c = coverageOf(ws, 300);
    assert.equal(c.wordsSeen, 150);
    assert.equal(c.missingRanges?.length, 20);
    assert.deepEqual(c.missingRanges?.[0], [5, 10]);
  });

  test('a transcript window names each speaker when it changes; a comments window each comment\'s id and likes', () => {
    const t = transcriptPart([{ text: 'One.', speaker: 'Ana' }, { text: 'Two.', speaker: 'Ana' }, { text: 'Three.', speaker: 'Ben' }, { text: 'Four.' }, { text: 'Five.', speaker: 'Ana' }]);
    const [tw] = planWindows(t, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.equal(renderWindow(t, tw!), 'Ana: One.\nTwo.\nBen: Three.\nFour.\nAna: Five.');
    const c = commentsPart(['Great video', 'Range matters']);
    c.comments[1]!.likes = 12;
    const [cw] = planWindows(c, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.equal(renderWindow(c, cw!), '[c1] Great video\n[c2 likes=12] Range matters');
  });
});
