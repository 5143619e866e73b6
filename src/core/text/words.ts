/**
 * Word counting and position helpers shared by every part of Marker Research.
 *
 * One rule everywhere so that figures compare: a run of letters or digits is one
 * word, and every two CJK characters count as one word (so 2,000 words ≈ 4,000
 * Chinese characters).
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/** True when the character is Chinese, Japanese or Korean script. */
export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}

/**
 * Counts words in `text`: runs of non-CJK letters/digits count one each, CJK
 * characters count one half each (rounded up per run).
 *
 * @example countWords('Hello world 2024') === 3; countWords('你好世界') === 2
 */
export function countWords(text: string): number {
  let words = 0;
  let inRun = false;
  let cjkRun = 0;
  for (const ch of text) {
    if (CJK.test(ch)) {
      if (inRun) { words++; inRun = false; }
      cjkRun++;
    } else {
      if (cjkRun) { words += Math.ceil(cjkRun / 2); cjkRun = 0; }
      if (LETTER_OR_DIGIT.test(ch)) inRun = true;
      else if (inRun) { words++; inRun = false; }
    }
  }
  if (inRun) words++;
  if (cjkRun) words += Math.ceil(cjkRun / 2);
  return words;
}

/** Offsets of line starts in `text` (index 0 is always 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** A zero-based line/column position. */
export interface LineCol { line: number; column: number }

/** Converts an offset into a zero-based line/column using precomputed `lineStarts`. */
export function offsetToLineCol(starts: readonly number[], offset: number): LineCol {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
  }
  return { line: lo, column: offset - starts[lo]! };
}
