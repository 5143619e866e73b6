/**
 * Numbers as questions write them: digits, English and Spanish number words,
 * Chinese numerals (simplified and traditional, 〇 to 九十九 and 百).
 */

const EN_WORDS: Record<string, number> = {
  zero: 0, one: 1, a: 1, an: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const ES_WORDS: Record<string, number> = {
  cero: 0, un: 1, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
  once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19,
  veinte: 20, veinticinco: 25, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90,
};

/** The regex alternative matching one number written in any of the supported ways (longest first). */
export const NUMBER_PATTERN = [
  '\\d+(?:[.,]\\d+)?',
  ...Object.keys({ ...EN_WORDS, ...ES_WORDS }).filter((w) => w.length > 2).sort((a, b) => b.length - a.length),
  '[〇零一二两兩三四五六七八九十百]+',
].join('|');

const ZH_DIGITS: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

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

/** Any supported number; NaN when `s` is none. Decimal commas are read as points ("1,5" → 1.5). */
export function parseNumber(s: string): number {
  const t = s.trim().toLowerCase();
  if (/^\d+(?:[.,]\d+)?$/.test(t)) return Number(t.replace(',', '.'));
  if (t in EN_WORDS) return EN_WORDS[t]!;
  if (t in ES_WORDS) return ES_WORDS[t]!;
  return parseChineseNumber(t);
}
