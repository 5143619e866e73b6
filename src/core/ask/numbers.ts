/**
 * Numbers as questions write them: digits, English and Spanish number words (one to a hundred
 * and ninety-nine, compounds included: "twenty-five", "twenty five", "veinticinco", "treinta y
 * cinco", "ciento veinte"), Chinese numerals (simplified and traditional, 〇 to 九百九十九).
 */

const EN_WORDS: Record<string, number> = {
  zero: 0, one: 1, a: 1, an: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const ES_WORDS: Record<string, number> = {
  cero: 0, un: 1, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
  once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19,
  veinte: 20, veintiuno: 21, veintiún: 21, veintiun: 21, veintiuna: 21, veintidós: 22, veintidos: 22, veintitrés: 23, veintitres: 23,
  veinticuatro: 24, veinticinco: 25, veintiséis: 26, veintiseis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29,
  treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90,
};
/** Words that multiply or add a hundred: "one hundred", "a hundred and ten" is not read; "cien", "ciento veinte". */
const HUNDRED_EN = 'hundred';
const HUNDRED_ES: Record<string, number> = { cien: 100, ciento: 100 };

/** The regex alternative matching one number written in any of the supported ways (longest first). */
export const NUMBER_PATTERN = [
  '\\d+(?:[.,]\\d+)?',
  ...Object.keys({ ...EN_WORDS, ...ES_WORDS }).filter((w) => w.length > 2).sort((a, b) => b.length - a.length),
  '[〇零一二两兩三四五六七八九十百]+',
].join('|');

const ZH_DIGITS: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** The characters a Chinese numeral is written with (as {@link parseChineseNumber} reads them). */
export const CHINESE_NUMERAL_CHARS = '〇零一二两兩三四五六七八九十百';

/** A Chinese numeral below 1,000 ("十五" → 15, "二十" → 20, "两" → 2, "一百二十" → 120); NaN when not one. */
export function parseChineseNumber(s: string): number {
  if (!/^[〇零一二两兩三四五六七八九十百]+$/u.test(s)) return Number.NaN;
  let total = 0;
  let digit = 0;
  let seen = false;
  for (const ch of s) {
    if (ch === '百') {
      total += (seen ? digit : 1) * 100;
      digit = 0;
      seen = false;
    } else if (ch === '十') {
      total += (seen ? digit : 1) * 10;
      digit = 0;
      seen = false;
    } else {
      digit = ZH_DIGITS[ch]!;
      seen = true;
    }
  }
  return total + (seen ? digit : 0);
}

/** The value of one English or Spanish number word ("twenty" → 20, "veintidós" → 22, "a" → 1); undefined when none. */
export function numberWordValue(word: string): number | undefined {
  const w = word.toLowerCase();
  return EN_WORDS[w] ?? ES_WORDS[w] ?? HUNDRED_ES[w];
}

/**
 * The longest number written in words from `words[start]` (one word a string; a hyphen may be
 * its own entry): "twenty", "-", "five" → 25 (3 words); "treinta", "y", "cinco" → 35; "one",
 * "hundred", "twenty" → 120; "ciento", "veinte" → 120. Null when `words[start]` is no number word.
 * Articles ("a", "an", "un", "una") count as 1 only alone.
 */
export function readNumberWords(words: readonly string[], start = 0): { value: number; count: number } | null {
  const at = (i: number): string => (words[i] ?? '').toLowerCase();
  const first = numberWordValue(at(start));
  if (first === undefined) return null;
  let value = first;
  let i = start + 1;
  const isEn = at(start) in EN_WORDS;
  // Hundreds: "one hundred", "a hundred", "cien", "ciento".
  if (isEn && first >= 1 && first <= 9 && at(i) === HUNDRED_EN) {
    value = first * 100;
    i++;
  }
  if (value >= 100 || at(start) in HUNDRED_ES) {
    const rest = readTens(words, i, isEn);
    if (rest) return { value: value + rest.value, count: i - start + rest.count };
    return { value, count: i - start };
  }
  if (first === 1 && /^(a|an|un|una)$/.test(at(start))) return { value: 1, count: 1 };
  const more = compound(words, start, value);
  return more ?? { value, count: 1 };
}

/** A tens word with its unit after it, or a lone number word below 100, from `words[i]` (after a hundred). */
function readTens(words: readonly string[], i: number, isEn: boolean): { value: number; count: number } | null {
  const w = (words[i] ?? '').toLowerCase();
  const v = isEn ? EN_WORDS[w] : ES_WORDS[w];
  if (v === undefined || v === 0 || /^(a|an|un|una)$/.test(w)) return null;
  return compound(words, i, v) ?? { value: v, count: 1 };
}

/** "twenty five", "twenty-five", "treinta y cinco": a tens word (≥ 20 in English, ≥ 30 in Spanish) and a unit 1–9. */
function compound(words: readonly string[], i: number, tens: number): { value: number; count: number } | null {
  const w = (words[i] ?? '').toLowerCase();
  const unitAt = (j: number, table: Record<string, number>): number | undefined => {
    const u = (words[j] ?? '').toLowerCase();
    const v = table[u];
    return v !== undefined && v >= 1 && v <= 9 && !/^(a|an)$/.test(u) ? v : undefined;
  };
  if (tens % 10 !== 0 || tens < 20) return null;
  if (w in EN_WORDS) {
    const j = words[i + 1] === '-' ? i + 2 : i + 1;
    const u = unitAt(j, EN_WORDS);
    return u === undefined ? null : { value: tens + u, count: j - i + 1 };
  }
  if (tens >= 30 && (words[i + 1] ?? '').toLowerCase() === 'y') {
    const u = unitAt(i + 2, ES_WORDS);
    return u === undefined ? null : { value: tens + u, count: 3 };
  }
  return null;
}

/** Any supported number; NaN when `s` is none. Decimal commas are read as points ("1,5" → 1.5). */
export function parseNumber(s: string): number {
  const t = s.trim().toLowerCase();
  if (/^\d+(?:[.,]\d+)?$/.test(t)) return Number(t.replace(',', '.'));
  if (t in EN_WORDS) return EN_WORDS[t]!;
  if (t in ES_WORDS) return ES_WORDS[t]!;
  if (/^[\p{L}\s-]+$/u.test(t) && !/^[〇零一二两兩三四五六七八九十百]+$/u.test(t)) {
    const words = t.split(/\s+|(?=-)|(?<=-)/u).filter(Boolean);
    const r = readNumberWords(words);
    return r && r.count === words.length ? r.value : Number.NaN;
  }
  return parseChineseNumber(t);
}
