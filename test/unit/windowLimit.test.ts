/**
 * A positive `windowLimit` is respected exactly: never more windows than the limit, and every
 * word of the part is still in some window (windows are made larger, never dropped).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommentRecord, CommentsPart, TranscriptPart, TranscriptSegment } from '../../src/core/corpus/types';
import { DEFAULT_WINDOW_SETTINGS, planWindows, type PartWindow, type WindowSettings } from '../../src/core/markers/windows';
import { countWords } from '../../src/core/text/words';
import { rng } from '../support/testing';

const VOCAB = ['battery', 'range', 'winter', 'heater', 'road', 'speed', 'charge', 'cold', 'test', 'drive', 'the', 'a', 'we', 'measured', 'numbers', 'car'];

/** Turns of uneven length (1 to `maxTurnWords` words, some of several sentences). */
function turns(seed: number, totalWords: number, maxTurnWords: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  let n = 0;
  let k = 0;
  while (n < totalWords) {
    const len = Math.min(totalWords - n, 1 + Math.floor(r() * maxTurnWords));
    const words: string[] = [];
    for (let i = 0; i < len; i++) words.push(`${VOCAB[Math.floor(r() * VOCAB.length)]}${k++}`);
    // Sentences of 3 to 20 words.
    let text = '';
    let i = 0;
    while (i < words.length) {
      const s = words.slice(i, i + 3 + Math.floor(r() * 18));
      text += `${text ? ' ' : ''}${s.join(' ')}.`;
      i += s.length;
    }
    out.push(text);
    n += len;
  }
  return out;
}

function transcript(texts: string[]): TranscriptPart {
  let offset = 0;
  const segments: TranscriptSegment[] = texts.map((text, index) => {
    const seg: TranscriptSegment = { index, text, offset, speaker: index % 2 ? 'B' : 'A', source: { startLine: index, startColumn: 0, endLine: index, endColumn: text.length }, pieces: [] };
    offset += text.length + 1;
    return seg;
  });
  const text = segments.map((s) => s.text).join('\n');
  return { kind: 'transcript', file: { path: '/x/t.json', relPath: 't.json' }, format: 'json', segments, text, wordCount: countWords(text) };
}

function comments(texts: string[]): CommentsPart {
  let offset = 0;
  const list: CommentRecord[] = texts.map((text, index) => {
    const c: CommentRecord = { index, id: String(index + 1), text, offset, source: { startLine: index, startColumn: 0, endLine: index, endColumn: text.length }, pieces: [] };
    offset += text.length + 1;
    return c;
  });
  const text = list.map((c) => c.text).join('\n');
  return { kind: 'comments', file: { path: '/x/c.jsonl', relPath: 'c.jsonl' }, format: 'jsonl', comments: list, text, wordCount: countWords(text), emptyCount: 0 };
}

/** Every word (non-space run) of every unit starts inside some window's piece. */
function assertEveryWordCovered(part: TranscriptPart | CommentsPart, windows: readonly PartWindow[], label: string): void {
  const ranges = windows.flatMap((w) => w.pieces.map((p) => [p.start, p.end] as const)).sort((a, b) => a[0] - b[0]);
  const units = part.kind === 'transcript' ? part.segments : part.comments;
  for (const u of units) {
    for (const m of u.text.matchAll(/\S+/g)) {
      const at = u.offset + m.index;
      const end = at + m[0].length;
      assert.ok(
        ranges.some(([s, e]) => s <= at && end <= e),
        `${label}: the word "${m[0]}" at ${at} is in no window`,
      );
    }
  }
  // Windows are consecutive in word positions, from the first word to the last.
  assert.equal(windows[0]!.startWord, 0, `${label}: starts at word 0`);
  for (let i = 1; i < windows.length; i++) assert.ok(windows[i]!.startWord <= windows[i - 1]!.endWord, `${label}: no gap before window ${i}`);
  assert.ok(windows.at(-1)!.endWord >= part.wordCount, `${label}: ends at the last word`);
}

describe('windows: a positive windowLimit', () => {
  const sizes = [60, 237, 480, 1_000, 2_345, 5_000, 12_001];
  const shapes: { name: string; maxTurnWords: number; settings: Partial<WindowSettings> }[] = [
    { name: 'short turns', maxTurnWords: 40, settings: { windowWords: 200, overlapWords: 30 } },
    { name: 'long turns', maxTurnWords: 700, settings: { windowWords: 300, overlapWords: 60 } },
    { name: 'mixed turns', maxTurnWords: 180, settings: { windowWords: 150, overlapWords: 40 } },
    { name: 'default settings', maxTurnWords: 250, settings: {} },
    { name: 'no overlap', maxTurnWords: 90, settings: { windowWords: 100, overlapWords: 0 } },
  ];

  for (const shape of shapes) {
    test(`${shape.name}: limits 1..5 over several sizes never give more windows, and every word is read`, () => {
      let seed = 7;
      for (const total of sizes) {
        for (const kind of ['transcript', 'comments'] as const) {
          const texts = turns(seed++, total, shape.maxTurnWords);
          const part = kind === 'transcript' ? transcript(texts) : comments(texts);
          const auto = planWindows(part, { ...DEFAULT_WINDOW_SETTINGS, ...shape.settings, windowLimit: 0 });
          assertEveryWordCovered(part, auto, `${shape.name} ${kind} ${total} words, auto`);
          for (let limit = 1; limit <= 5; limit++) {
            const label = `${shape.name} ${kind} ${total} words, limit ${limit}`;
            const windows = planWindows(part, { ...DEFAULT_WINDOW_SETTINGS, ...shape.settings, windowLimit: limit });
            assert.ok(windows.length >= 1, label);
            assert.ok(windows.length <= limit, `${label}: ${windows.length} windows`);
            // The limit only makes windows larger: never more windows than auto would give.
            assert.ok(windows.length <= auto.length, `${label}: ${windows.length} windows, auto gives ${auto.length}`);
            windows.forEach((w, i) => assert.equal(w.index, i, label));
            assertEveryWordCovered(part, windows, label);
          }
        }
      }
    });
  }

  test('the reported case: a limit of 3 gives at most 3 windows (not 4)', () => {
    // Four turns of 55 words: a third of the part (74 words) holds one turn, so 4 windows came out.
    const texts = Array.from({ length: 4 }, (_, i) => `${Array.from({ length: 55 }, (_, j) => `w${i}x${j}`).join(' ')}.`);
    const part = transcript(texts);
    const windows = planWindows(part, { windowWords: 100, overlapWords: 0, windowLimit: 3 });
    assert.ok(windows.length <= 3, `${windows.length} windows`);
    assertEveryWordCovered(part, windows, 'reported case');
  });

  test('a limit at or above what is needed changes nothing', () => {
    const part = transcript(turns(3, 2_000, 120));
    const settings = { windowWords: 400, overlapWords: 40 };
    const auto = planWindows(part, { ...settings, windowLimit: 0 });
    const loose = planWindows(part, { ...settings, windowLimit: auto.length + 3 });
    assert.deepEqual(loose.map((w) => [w.startWord, w.endWord]), auto.map((w) => [w.startWord, w.endWord]));
  });
});
