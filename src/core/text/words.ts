/**
 * Word counting and position helpers shared by every part of Marker Research.
 *
 * One rule everywhere so that figures compare: a run of letters or digits is one
 * word, and every two CJK characters count as one word (so 2,000 words ≈ 4,000
 * Chinese characters).
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

const CLASS_CJK = 1;
const CLASS_WORD = 2;
const CLASS_OTHER = 3;
/** A character's class for counting: CJK, else a letter or digit, else other. */
const classOf = (ch: string): number => (CJK.test(ch) ? CLASS_CJK : LETTER_OR_DIGIT.test(ch) ? CLASS_WORD : CLASS_OTHER);
/** The classes of the Basic Multilingual Plane's characters, each found once when first met (0: not yet). */
const BMP_CLASS = new Uint8Array(0x10000);

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
  // walkWords's rule in a loop of its own (a parsed part's whole text is counted: no stop to ask, code units read directly).
  let words = 0;
  let inRun = false;
  let cjkRun = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const unit = text.charCodeAt(i);
    let cls: number;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cls = classOf(text.slice(i, i + 2));
        i++;
      } else cls = BMP_CLASS[unit] || (BMP_CLASS[unit] = classOf(String.fromCharCode(unit)));
    } else cls = BMP_CLASS[unit] || (BMP_CLASS[unit] = classOf(String.fromCharCode(unit)));
    if (cls === CLASS_CJK) {
      if (inRun) {
        words++;
        inRun = false;
      }
      cjkRun++;
    } else {
      if (cjkRun) {
        words += Math.ceil(cjkRun / 2);
        cjkRun = 0;
      }
      if (cls === CLASS_WORD) inRun = true;
      else if (inRun) {
        words++;
        inRun = false;
      }
    }
  }
  return words + (inRun ? 1 : 0) + Math.ceil(cjkRun / 2);
}

/**
 * Counts the words of `text[start, end)` by the rule above, stopping as soon as `stop` says so
 * (called with the count so far after each character): the offset reached and the count. The
 * work is proportional to the distance walked, not to `end - start`.
 */
export function walkWords(text: string, start: number, end: number, stop?: (words: number) => boolean): { offset: number; words: number } {
  let words = 0;
  let inRun = false;
  let cjkRun = 0;
  let i = start;
  while (i < end) {
    const code = text.codePointAt(i)!;
    let cls: number;
    if (code > 0xffff) {
      const ch = String.fromCodePoint(code);
      i += ch.length;
      cls = classOf(ch);
    } else {
      i++;
      cls = BMP_CLASS[code] || (BMP_CLASS[code] = classOf(String.fromCharCode(code)));
    }
    if (cls === CLASS_CJK) {
      if (inRun) {
        words++;
        inRun = false;
      }
      cjkRun++;
    } else {
      if (cjkRun) {
        words += Math.ceil(cjkRun / 2);
        cjkRun = 0;
      }
      if (cls === CLASS_WORD) inRun = true;
      else if (inRun) {
        words++;
        inRun = false;
      }
    }
    if (stop && stop(words + (inRun ? 1 : 0) + Math.ceil(cjkRun / 2))) return { offset: Math.min(i, end), words: words + (inRun ? 1 : 0) + Math.ceil(cjkRun / 2) };
  }
  return { offset: end, words: words + (inRun ? 1 : 0) + Math.ceil(cjkRun / 2) };
}

/** Offsets of line starts in `text` (index 0 is always 0). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
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
