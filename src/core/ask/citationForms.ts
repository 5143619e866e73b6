/**
 * Citation numbers in a question: `[3]`, `[1][5]`, `[2, 4]`, `引用3`, `引用 3`,
 * `来源3`, `來源 3`, `出处3`, `source 3`, `sources 2 and 5`, `citation #3`,
 * `reference 3`, `fuente 3`, `fuentes 2 y 5`, `cita 3`, `引用第三条`.
 */
import { NUMBER_PATTERN, parseNumber } from './numbers';

const NUM = `(?:${NUMBER_PATTERN})`;
/** Words that name a citation, in the three languages (simplified and traditional Chinese). */
const CITE_WORD = '(?:citations?|cites?|sources?|references?|refs?\\.?|footnotes?|fuentes?|citas?|referencias?|引用|引文|来源|來源|出处|出處|参考|參考|文献|文獻|脚注|腳注)';
/** A list continuation: "2 and 5", "2, 5", "2 y 5", "2和5", "2、5", "2 or 5". */
const LIST_SEP = '(?:\\s*(?:,|，|、|and|y|e|or|o|和|与|與|及|或|跟|&)\\s*(?:#|no\\.?\\s*|n\\.?º\\s*|第)?\\s*)';

const BRACKETS = /\[\s*(\d{1,4}(?:\s*[,，、]\s*\d{1,4})*)\s*\]/gu;
const WORDED = new RegExp(`${CITE_WORD}\\s*(?:#|no\\.?\\s*|n\\.?º\\s*|number\\s+|número\\s+|第)?\\s*(${NUM})(?![下些点點种種句段])(?:\\s*[条條个個处處])?((?:${LIST_SEP}(?:${CITE_WORD}\\s*)?(?:${NUM})(?:\\s*[条條个個])?)*)`, 'giu');
/** "第3条引用", "the third source" is not supported; "第3个来源" is. */
const ORDINAL_ZH = new RegExp(`第\\s*(${NUM})\\s*[条條个個处處]?\\s*${CITE_WORD}`, 'gu');

/** Citation numbers in `text`, in order of appearance, without repeats; the matched character ranges alongside. */
export function findCitationNumbers(text: string): { numbers: number[]; ranges: [number, number][] } {
  const numbers: number[] = [];
  const ranges: [number, number][] = [];
  const add = (n: number): void => {
    if (Number.isInteger(n) && n > 0 && n < 10_000 && !numbers.includes(n)) numbers.push(n);
  };
  for (const m of text.matchAll(BRACKETS)) {
    // "[3]" right after a letter is an index ("a[3]"), not a citation.
    if (m.index! > 0 && /[A-Za-z_]/.test(text[m.index! - 1]!)) continue;
    for (const d of m[1]!.split(/[,，、]/u)) add(Number(d.trim()));
    ranges.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of text.matchAll(WORDED)) {
    add(parseNumber(m[1]!));
    if (m[2]) for (const n of m[2].matchAll(new RegExp(NUM, 'giu'))) add(parseNumber(n[0]));
    ranges.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of text.matchAll(ORDINAL_ZH)) {
    add(parseNumber(m[1]!));
    ranges.push([m.index!, m.index! + m[0].length]);
  }
  return { numbers, ranges };
}
