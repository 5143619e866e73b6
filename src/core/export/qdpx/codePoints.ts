/**
 * REFI-QDA counts text positions in Unicode code points (REFI-QDA 1.5, §10.2: "Selections in a
 * text file are defined by the first and the last character (Unicode codepoint) in the file. The
 * first codepoint in the file has the number 0"); JavaScript strings, and so every offset in
 * Marker Research, count UTF-16 code units. They differ by one for each character outside the
 * Basic Multilingual Plane (emoji, CJK Extension B and later ideographs such as 𠀀, …), which
 * takes two code units (a surrogate pair) and one code point.
 *
 * A lone surrogate (not well-formed UTF-16) counts as one code point, as it is written to UTF-8
 * as U+FFFD (see `wellFormed`).
 */

/** `s` with every lone surrogate replaced by U+FFFD (what UTF-8 encoding writes for it); same length. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** True when UTF-16 offset `at` of `text` falls between the two halves of a surrogate pair. */
export function splitsSurrogatePair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const hi = text.charCodeAt(at - 1);
  const lo = text.charCodeAt(at);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}

/**
 * Converts offsets of one text between UTF-16 code units and code points, in O(log p) per offset
 * for a text with p astral characters (built once per text in O(n)).
 */
export class CodePointIndex {
  /** UTF-16 offsets of the high half of every surrogate pair, ascending. */
  private readonly pairs: number[] = [];
  /** Length of the text in UTF-16 code units. */
  readonly utf16Length: number;
  /** Length of the text in code points. */
  readonly codePointLength: number;

  constructor(text: string) {
    for (let i = 0; i < text.length - 1; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.pairs.push(i);
          i++;
        }
      }
    }
    this.utf16Length = text.length;
    this.codePointLength = text.length - this.pairs.length;
  }

  /**
   * The code-point offset of UTF-16 offset `u` (0 ≤ u ≤ length). An offset inside a surrogate
   * pair (which the model refuses) maps to the pair's own code point.
   */
  toCodePoint(u: number): number {
    // pairs starting before u, each one unit shorter in code points
    let lo = 0;
    let hi = this.pairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.pairs[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return u - lo;
  }

  /** The UTF-16 offset of code-point offset `cp` (0 ≤ cp ≤ codePointLength). */
  toUtf16(cp: number): number {
    // pair k sits at code point pairs[k] - k; count the pairs before cp
    let lo = 0;
    let hi = this.pairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.pairs[mid]! - mid < cp) lo = mid + 1;
      else hi = mid;
    }
    return cp + lo;
  }
}
