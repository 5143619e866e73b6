/**
 * Folding text for matching: what a researcher types and what the corpus says
 * compare equal when they differ only in case, accents, character width or
 * traditional/simplified Chinese script. Pure and browser-safe (the webview's
 * filter and the host may both use it).
 */
import { SIMPLIFIED, TRADITIONAL } from './hanziVariants';

/** Latin letters NFKD does not decompose, spelled as a keyboard without them would (ß → ss, ø → o, ł → l). */
const LATIN_EXTRAS: Readonly<Record<string, string>> = { ß: 'ss', ẞ: 'ss', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ł: 'l', Ł: 'l', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ı: 'i' };

let toSimplified: Map<string, string> | undefined;
function simplifiedOf(ch: string): string | undefined {
  if (!toSimplified) {
    toSimplified = new Map();
    const t = [...TRADITIONAL];
    const s = [...SIMPLIFIED];
    for (let i = 0; i < t.length; i++) toSimplified.set(t[i]!, s[i]!);
  }
  return toSimplified.get(ch);
}

const COMBINING_MARKS = /\p{M}+/gu;
const NEEDS_CHAR_MAP = /[\u3400-\u9fffßẞøØđĐłŁæÆœŒı]/u;

/**
 * Folds `text` for matching: NFKD (accents split off, compatibility forms such
 * as full-width Latin, ligatures and circled digits decomposed), combining marks
 * removed, NFKC (half-width katakana and the like composed back), lower case,
 * a few undecomposable Latin letters spelled out, and traditional Chinese
 * characters mapped to their simplified forms (see hanziVariants.ts). The
 * result is for comparison only: its offsets do not map back to `text`.
 *
 * @example
 * foldText('Nicolás') === 'nicolas'
 * foldText('ＡＢＣ') === 'abc'
 * foldText('電動車') === '电动车'
 */
export function foldText(text: string): string {
  let out = text.normalize('NFKD').replace(COMBINING_MARKS, '').normalize('NFKC').toLowerCase();
  if (NEEDS_CHAR_MAP.test(out)) {
    let mapped = '';
    for (const ch of out) mapped += LATIN_EXTRAS[ch] ?? simplifiedOf(ch) ?? ch;
    out = mapped;
  }
  return out;
}

/**
 * Where the folded `terms` occur in `text`, as sorted, merged `[start, end)`
 * ranges of `text` (UTF-16 offsets), for highlighting what the filter matched.
 * Each character is folded on its own, so a range always covers whole characters.
 *
 * @example
 * foldedMatches('El Pequeño Nicolás', ['nicolas']) // [[11, 18]]
 */
export function foldedMatches(text: string, terms: readonly string[]): [number, number][] {
  if (!terms.length || !text) return [];
  let folded = '';
  /** For each UTF-16 unit of `folded`: the start and end of the character of `text` it came from. */
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  for (const ch of text) {
    const f = foldText(ch);
    // a character that folds away (a combining accent) belongs to the one before it
    if (!f && to.length) to[to.length - 1] = i + ch.length;
    for (let k = 0; k < f.length; k++) {
      from.push(i);
      to.push(i + ch.length);
    }
    folded += f;
    i += ch.length;
  }
  const ranges: [number, number][] = [];
  for (const t of terms) {
    if (!t) continue;
    for (let at = folded.indexOf(t); at >= 0; at = folded.indexOf(t, at + t.length)) ranges.push([from[at]!, to[at + t.length - 1]!]);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}
