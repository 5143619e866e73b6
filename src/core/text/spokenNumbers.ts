/**
 * Numbers as people say and write them, in English, Spanish and Chinese, with what they count:
 * digits ("64 percent", "$2.5M", "3.5亿", "en 2019"), spoken numbers ("ninety hertz", "twenty
 * five percent", "two point five million dollars", "nineteen ninety eight", "cuarenta y cinco
 * minutos", "tres millones de euros") and Chinese numerals ("百分之三十", "三个月", "两千元",
 * "二十多个人").
 *
 * A number is a data point when it has a unit: percent, money, a date, a duration, a measure, or
 * a count noun ("four meetings"). Pronoun and article uses of "one" / "a" / "un" / "一" ("the
 * one that", "一个问题"), "a couple", ordinals ("first of all", "第一") and Chinese words made of
 * numerals ("一下", "十分", "万一", "千万别") are not numbers.
 *
 * Linear: one pass over tokens of bounded regions; no backtracking regular expression.
 */

export type NumberKind = 'percent' | 'money' | 'date' | 'duration' | 'count' | 'measure' | 'number';

/** A number found in a text, with its unit words: `text === source.slice(start, end)`. */
export interface NumberMention {
  start: number;
  end: number;
  text: string;
  kind: NumberKind;
  /** The number's value (a year for a spoken year, the percentage for a percent, the amount for money). */
  value?: number;
}

// ---------------------------------------------------------------------------------------------
// Lexicons

const EN_SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const EN_TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const EN_SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12, dozen: 12 };

const ES_SMALL: Record<string, number> = {
  cero: 0, uno: 1, un: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
  once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, dieciseis: 16, diecisiete: 17, dieciocho: 18, diecinueve: 19,
  veintiuno: 21, veintiún: 21, veintiun: 21, veintiuna: 21, veintidós: 22, veintidos: 22, veintitrés: 23, veintitres: 23, veinticuatro: 24,
  veinticinco: 25, veintiséis: 26, veintiseis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29,
};
const ES_TENS: Record<string, number> = { veinte: 20, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 };
const ES_HUNDREDS: Record<string, number> = {
  cien: 100, ciento: 100, doscientos: 200, doscientas: 200, trescientos: 300, trescientas: 300, cuatrocientos: 400, cuatrocientas: 400,
  quinientos: 500, quinientas: 500, seiscientos: 600, seiscientas: 600, setecientos: 700, setecientas: 700, ochocientos: 800,
  ochocientas: 800, novecientos: 900, novecientas: 900,
};
const ES_SCALES: Record<string, number> = { mil: 1e3, millón: 1e6, millon: 1e6, millones: 1e6, billón: 1e12, billon: 1e12, billones: 1e12 };

/** Words that are 1 only as an article: a number only before a scale ("a million", "un millón"). */
const ARTICLES = new Set(['a', 'an', 'un', 'una']);
/** Words that read as numbers in one language and as something else in the other ("once" = 11 in Spanish): numbers only with a unit. */
const NEEDS_UNIT = new Set(['once', 'un', 'una', 'uno', 'one', 'a', 'an']);

const PERCENT_WORDS = new Set(['percent', 'percentage', 'pct', 'porciento']);
const MONEY_WORDS = new Set([
  'dollars', 'dollar', 'bucks', 'cents', 'cent', 'euros', 'euro', 'pounds', 'quid', 'yen', 'yuan', 'rmb', 'usd', 'eur', 'gbp',
  'dólares', 'dolares', 'dólar', 'dolar', 'pesos', 'peso', 'libras', 'céntimos', 'centimos', 'centavos', 'pavos', 'k€',
]);
const DURATION_WORDS = new Set([
  'seconds', 'second', 'secs', 'sec', 'minutes', 'minute', 'mins', 'min', 'hours', 'hour', 'hrs', 'hr', 'days', 'day', 'weeks', 'week',
  'months', 'month', 'years', 'year', 'yrs', 'decades', 'decade', 'centuries', 'century', 'milliseconds', 'millisecond', 'ms',
  'microseconds', 'nanoseconds', 'quarters', 'semesters', 'nights', 'night', 'weekends',
  'segundos', 'segundo', 'minutos', 'minuto', 'horas', 'hora', 'días', 'dias', 'día', 'dia', 'semanas', 'semana', 'meses', 'mes',
  'años', 'año', 'anos', 'décadas', 'decadas', 'década', 'siglos', 'siglo', 'milisegundos', 'noches', 'noche', 'trimestres',
]);
const MEASURE_WORDS = new Set([
  'hertz', 'hz', 'khz', 'kilohertz', 'mhz', 'megahertz', 'ghz', 'gigahertz', 'meters', 'metres', 'meter', 'metre', 'km', 'kilometers',
  'kilometres', 'kilometer', 'miles', 'mile', 'feet', 'foot', 'ft', 'inches', 'inch', 'cm', 'centimeters', 'centimetres', 'mm',
  'millimeters', 'millimetres', 'kg', 'kilograms', 'kilos', 'kilo', 'grams', 'gram', 'lbs', 'lb', 'ounces', 'oz', 'tons', 'tonnes',
  'ton', 'liters', 'litres', 'liter', 'litre', 'ml', 'gallons', 'degrees', 'degree', 'celsius', 'fahrenheit', 'volts', 'volt',
  'watts', 'watt', 'kw', 'kilowatts', 'kwh', 'megawatts', 'mw', 'gigawatts', 'gw', 'decibels', 'db', 'bits', 'bit', 'bytes', 'byte',
  'kb', 'mb', 'gb', 'tb', 'kilobytes', 'megabytes', 'gigabytes', 'terabytes', 'pixels', 'pixel', 'px', 'frames', 'fps', 'mph', 'kph',
  'calories', 'kcal', 'x', 'k', 'megs', 'gigs', 'dimensions', 'dimensional', 'samples', 'bps', 'kbps', 'mbps',
  'metros', 'metro', 'kilómetros', 'kilometros', 'kilogramos', 'gramos', 'toneladas', 'litros', 'grados', 'hercios', 'megas',
  'gigas', 'centímetros', 'centimetros', 'milímetros', 'vatios', 'voltios', 'caballos', 'plantas', 'pisos',
]);
/** Count nouns irregular in the plural. */
const PLURAL_NOUNS = new Set(['people', 'persons', 'children', 'men', 'women', 'staff', 'gente', 'personal', 'feet', 'mice', 'teeth']);
/** Words ending in -s after a number that are not count nouns, or too vague to count ("two things"). */
const NOT_COUNT = new Set([
  'is', 'was', 'has', 'does', 'this', 'his', 'its', 'yes', 'us', 'thus', 'plus', 'minus', 'always', 'sometimes', 'perhaps', 'as',
  'less', 'unless', 'across', 'whereas', 'besides', 'towards', 'afterwards', 'things', 'ones', 'guys', 'others', 'kinds', 'sorts',
  'ways', 'bits', 'lots', 'tons', 'times', 'steps', 'sides', 'words', 'questions', 'points', 'parts', 'aspects', 'issues', 'cases',
  'más', 'mas', 'menos', 'veces', 'las', 'los', 'unas', 'unos', 'tus', 'sus', 'mis', 'nos', 'les', 'pues', 'después', 'despues',
  'antes', 'además', 'entonces', 'jamás', 'quizás', 'atrás', 'detrás', 'es', 'eres', 'estás', 'vas', 'das', 'cosas', 'tipos',
  'partes', 'formas', 'maneras', 'chicos', 'tíos', 'tios', 'ellos', 'ellas', 'nosotros', 'vosotros', 'ustedes', 'demás', 'tres',
  'dos', 'seis', 'mientras', 'has', 'hemos', 'vamos', 'tienes', 'puedes', 'sabes', 'dices', 'crees', 'quieres', 'estamos', 'somos',
  'mas', 'hours', 'years', 'days', 'gracias', 'besos', 'abrazos', 'thanks',
]);
/** Words between a number and its unit that do not break it ("two more years", "tres grandes empresas"). */
const UNIT_ADJECTIVES = new Set(['more', 'extra', 'additional', 'new', 'full', 'whole', 'straight', 'different', 'separate', 'major', 'big', 'small',
  'más', 'mas', 'nuevos', 'nuevas', 'grandes', 'pequeñas', 'pequeños', 'diferentes', 'distintos', 'distintas', 'primeros', 'primeras', 'últimos', 'ultimos']);

const MONTHS = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre',
]);
/** Words before a year ("in 2019", "desde 1998"). */
const YEAR_CUES = new Set(['in', 'since', 'by', 'until', 'till', 'from', 'before', 'after', 'during', 'year', 'en', 'desde', 'hasta', 'del', 'año', 'antes', 'después', 'el', 'de']);
const TIME_SUFFIXES = new Set(['am', 'pm', "o'clock", 'a.m', 'p.m', 'h']);

const ZH_DIGITS: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 两: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_SMALL_UNITS: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const ZH_BIG_UNITS: Record<string, number> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 };
/** Chinese words made of numerals that are not numbers (checked at the start of a numeral run). */
const ZH_NOT_NUMBERS = [
  '一些', '一下', '一起', '一样', '一直', '一定', '一般', '一切', '一旦', '一致', '一边', '一面', '一方面', '一向', '一再', '一律', '一同',
  '一会', '一口气', '一路', '一流', '一线', '一手', '一句话', '一模一样', '一时', '一度', '一味', '一贯', '一概', '一道', '一块儿', '一带',
  '十分', '万一', '万分', '千万', '万万', '百分百', '三心二意', '七上八下', '乱七八糟', '五颜六色', '一五一十', '四处', '九州', '二手',
  '十足', '百姓', '千万别', '百度', '万物', '一头', '一身', '一刀切', '一把手', '一家人', '一点点', '一丝', '一毛', '统一', '唯一', '之一',
];
/** Characters before a numeral run that make it part of a word ("统一", "唯一", "第一", "星期三"). */
const ZH_PREFIX_NOT_NUMBER = new Set([...'第统唯之初周礼拜期某星']);

// Chinese units after a number (longest first where they share a first character).
const ZH_PERCENT_SUFFIX = ['个百分点', '个点'];
const ZH_MONEY = ['块钱', '块', '元', '美元', '美金', '欧元', '英镑', '日元', '港币', '港元', '人民币', '毛钱', '毛'];
const ZH_DURATION = ['个小时', '小时', '个钟头', '钟头', '分钟', '秒钟', '秒', '天', '个星期', '星期', '个礼拜', '礼拜', '周', '个月', '年', '个季度', '季度', '晚', '夜'];
const ZH_DATE = ['月份', '月', '日', '号', '世纪', '年代', '点钟', '点半'];
const ZH_MEASURE = [
  '平方公里', '平方米', '公里', '千米', '厘米', '毫米', '米', '公斤', '千克', '斤', '克', '吨', '平米', '亩', '度', '赫兹', '千瓦', '瓦',
  '伏', '毫升', '升', '岁', '倍', '兆', '帧', '像素', '公顷', '纳米', '微米', '英寸', '英里', '马力', '度电', '千瓦时', '兆瓦', '吉瓦',
  '分贝', '摄氏度', '华氏度',
];
const ZH_CLASSIFIERS = new Set([...'个位名家次场部台本条项款种件所户篇份张辆座套批届轮层只头棵颗人国省座间支枚架艘趟遍回集章节门']);
/** After 个, these make a duration, not a count. */
const ZH_APPROX = new Set([...'多余来几']);

// ---------------------------------------------------------------------------------------------
// Tokens

const WORD = 1;
const DIGITS = 2;
const HAN = 3;
const OTHER = 4;

interface Tok {
  s: number;
  e: number;
  k: number;
  /** Lowercase text. */
  v: string;
  /** Whitespace before the token. */
  sp: boolean;
}

const LETTER = /\p{L}/u;

function isLetter(c: number, ch: string): boolean {
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return !(c >= 0x2e80 && c <= 0x9fff) && LETTER.test(ch);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000;
}

/** Tokens of text[a, b): words (letters with inner apostrophes), digit runs (with inner . , :), Han characters, other characters. */
function tokenize(text: string, a: number, b: number): Tok[] {
  const out: Tok[] = [];
  let i = a;
  let sp = true;
  while (i < b) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) { sp = true; i++; continue; }
    let j = i + 1;
    let k = OTHER;
    if (isDigit(c)) {
      k = DIGITS;
      while (j < b && (isDigit(text.charCodeAt(j)) || ((text[j] === '.' || text[j] === ',' || text[j] === ':') && j + 1 < b && isDigit(text.charCodeAt(j + 1))))) j++;
    } else if (isLetter(c, text[i]!)) {
      k = WORD;
      while (j < b) {
        const d = text.charCodeAt(j);
        if (isLetter(d, text[j]!) || (d >= 0x300 && d <= 0x36f)) { j++; continue; }
        if ((d === 39 || d === 0x2019) && j + 1 < b && isLetter(text.charCodeAt(j + 1), text[j + 1]!)) { j += 2; continue; }
        break;
      }
    } else if ((c >= 0x3400 && c <= 0x9fff) || c === 0x3007) {
      k = HAN;
    }
    out.push({ s: i, e: j, k, v: k === WORD ? text.slice(i, j).toLowerCase().replace('’', "'") : text.slice(i, j), sp });
    sp = false;
    i = j;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Number readers: each returns the value and the index after the number's last token, or undefined.

interface Read {
  value: number;
  /** Index of the first token after the number. */
  next: number;
  /** Written with digits (or digits and a Chinese scale). */
  digits: boolean;
  /** Has a scale word or character (million, millones, 万, 亿) or a decimal. */
  big: boolean;
  /** Shaped like a year: four digits 1900–2099, or a spoken year ("nineteen ninety eight"). */
  year: boolean;
  /** A clock time ("8:15"). */
  clock?: boolean;
  /** The bare word is an article or pronoun reading of 1 ("one", "a", "un"). */
  weak?: boolean;
}

/** Value of a digit token: "1,200" and "1.200" are thousands, "2.31" and "3,5" are decimals, "8:15" is a clock time. */
function digitValue(v: string): { value: number; clock: boolean; decimal: boolean } {
  if (v.includes(':')) {
    const [h, m] = v.split(':');
    return { value: Number(h) + Number(m) / 60, clock: true, decimal: false };
  }
  const parts = v.split(/[.,]/);
  if (parts.length === 1) return { value: Number(v), clock: false, decimal: false };
  const groups = parts.slice(1);
  const thousands = groups.every((g) => g.length === 3) && parts[0]!.length <= 3 && (groups.length > 1 || !(parts[0] === '0'));
  if (thousands) return { value: Number(parts.join('')), clock: false, decimal: false };
  return { value: Number(`${parts.slice(0, -1).join('')}.${parts.at(-1)}`), clock: false, decimal: true };
}

/** Digits, with a glued or following scale ("5k", "3.5亿", "2.5 million", "3 millones"). */
function readDigits(toks: Tok[], i: number): Read | undefined {
  const t = toks[i]!;
  const dv = digitValue(t.v);
  let value = dv.value;
  let next = i + 1;
  let big = dv.decimal;
  const n = toks[next];
  if (n && !dv.clock) {
    const scale = n.k === WORD ? EN_SCALES[n.v] ?? ES_SCALES[n.v] ?? (!n.sp ? GLUED_SCALES[n.v] : undefined) : n.k === HAN ? ZH_BIG_UNITS[n.v] ?? (ZH_SMALL_UNITS[n.v] && n.v !== '十' ? ZH_SMALL_UNITS[n.v] : undefined) : undefined;
    if (scale && scale !== 12) {
      value *= scale;
      next++;
      big = true;
      // "3 mil millones", "2千万", "1.5万亿".
      const m = toks[next];
      const more = m && (m.k === WORD ? ES_SCALES[m.v] ?? EN_SCALES[m.v] : m.k === HAN ? ZH_BIG_UNITS[m.v] : undefined);
      if (m && more && more > 100 && !(m.k === WORD && more === 12)) {
        value *= more;
        next++;
      }
    }
  }
  const year = !dv.clock && !dv.decimal && /^(19|20)\d\d$/.test(t.v) && next === i + 1;
  return { value, next, digits: true, big: big || value >= 1000, year, clock: dv.clock, weak: false };
}

/** Spoken English or Spanish number ("twenty five", "two point five million", "nineteen ninety eight", "cuarenta y cinco", "tres millones"). */
function readWords(toks: Tok[], i: number): Read | undefined {
  const first = toks[i]!.v;
  if (ARTICLES.has(first)) {
    // An article is 1 only before a scale: "a hundred", "a million", "un millón", "a dozen".
    const n = toks[i + 1];
    const scale = n && n.k === WORD ? EN_SCALES[n.v] ?? ES_SCALES[n.v] : undefined;
    if (!scale || (n!.v === 'mil' && first !== 'un')) return undefined;
  }
  const smallOf = (v: string, at = -1): number | undefined => EN_SMALL[v] ?? ES_SMALL[v] ?? (at === i && (v === 'a' || v === 'an') ? 1 : undefined);
  const tensOf = (v: string): number | undefined => EN_TENS[v] ?? ES_TENS[v];
  let total = 0;
  let current = 0;
  let seen = false;
  let big = false;
  /** 'unit' (1–9), 'teen' (10–19 / 11–29 es), 'tens', 'hundred', 'scale', '' at start. */
  let last = '';
  let j = i;
  let lastScale = Infinity;
  let year = false;
  let weakOnly = true;
  while (j < toks.length) {
    const t = toks[j]!;
    if (t.k !== WORD) {
      // "twenty-five": a hyphen glued on both sides joins words.
      if (t.v === '-' && !t.sp && seen && j + 1 < toks.length && !toks[j + 1]!.sp && toks[j + 1]!.k === WORD && (last === 'tens')) { j++; continue; }
      break;
    }
    const v = t.v;
    const small = smallOf(v, j);
    const tens = tensOf(v);
    const hundreds = ES_HUNDREDS[v];
    const scale = EN_SCALES[v] ?? ES_SCALES[v];
    if (small !== undefined && !(ARTICLES.has(v) && seen)) {
      if (isCentury(last, total, current) && small >= 10 && !(v in ES_SMALL)) {
        // "twenty nineteen": a spoken year.
        current = current * 100 + small;
        year = true;
        seen = true;
        j++;
        break;
      }
      if (last === 'tens' && small < 10 && small > 0 && current % 10 === 0) current += small;
      else if ((last === 'hundred' || last === 'scale' || last === 'and') && current % 100 === 0) current += small;
      else if (last === '' ) current = small;
      else if (last === 'teen' || last === 'tens' || last === 'unit') {
        // "nineteen ninety" is not 19 + 90: a spoken year or two numbers.
        break;
      } else break;
      last = small >= 10 ? 'teen' : 'unit';
      if (!NEEDS_UNIT.has(v)) weakOnly = false;
    } else if (tens !== undefined) {
      if (last === '' || last === 'hundred' || last === 'scale' || last === 'and') current += tens;
      else if (isCentury(last, total, current)) {
        // A spoken year: "nineteen ninety eight", "twenty twenty".
        let y = tens;
        let k = j + 1;
        const u = toks[k];
        if (u && u.k === WORD && (smallOf(u.v) ?? 10) < 10 && (smallOf(u.v) ?? 0) > 0 && !ARTICLES.has(u.v)) { y += smallOf(u.v)!; k++; }
        current = current * 100 + y;
        year = true;
        weakOnly = false;
        seen = true;
        j = k;
        break;
      } else break;
      last = 'tens';
      weakOnly = false;
    } else if (hundreds !== undefined) {
      if (last !== '' && last !== 'scale') break;
      current += hundreds;
      last = 'hundred';
      weakOnly = false;
    } else if (scale !== undefined && seen) {
      if (scale === 12) {
        current = (current || 1) * 12;
        last = 'scale';
      } else if (scale === 100) {
        if (last === 'hundred' || last === 'scale') break;
        current = (current || 1) * 100;
        last = 'hundred';
      } else {
        // "dos mil millones" multiplies everything so far; "two million three thousand" adds.
        if (total === 0) total = (current || 1) * scale;
        else if (scale > lastScale) total = (total + current) * scale;
        else total += (current || 1) * scale;
        lastScale = scale;
        current = 0;
        last = 'scale';
        big = true;
      }
      weakOnly = false;
    } else if (scale !== undefined && !seen && (v === 'mil' || v === 'hundred' || v === 'thousand')) {
      // "mil euros" (Spanish 1,000 without "un").
      if (v !== 'mil') break;
      total = 1000;
      lastScale = 1000;
      last = 'scale';
      big = true;
      weakOnly = false;
    } else if ((v === 'and' || v === 'y') && seen && j + 1 < toks.length && toks[j + 1]!.k === WORD) {
      // "two hundred and five", "cuarenta y cinco"; not "one and a half" handled below.
      const nx = toks[j + 1]!.v;
      const ok = v === 'and' ? (last === 'hundred' || last === 'scale') && (smallOf(nx) !== undefined || tensOf(nx) !== undefined) && !ARTICLES.has(nx)
        : last === 'tens' && (smallOf(nx) ?? 10) < 10 && !ARTICLES.has(nx);
      if (!ok) break;
      last = v === 'y' ? 'tens' : 'and';
    } else if ((v === 'point' || v === 'punto' || v === 'coma') && seen && total === 0 && j + 1 < toks.length) {
      // Decimals: "two point five", "dos coma cinco".
      let k = j + 1;
      let frac = '';
      while (k < toks.length && toks[k]!.k === WORD && (smallOf(toks[k]!.v) ?? 10) < 10 && !ARTICLES.has(toks[k]!.v)) { frac += String(smallOf(toks[k]!.v)); k++; }
      if (!frac) break;
      current = Number(`${current}.${frac}`);
      big = true;
      j = k;
      seen = true;
      weakOnly = false;
      // A scale may follow: "two point five million".
      const s = toks[j];
      const sc = s && s.k === WORD ? EN_SCALES[s.v] ?? ES_SCALES[s.v] : undefined;
      if (sc && sc >= 1000) { current *= sc; j++; }
      break;
    } else {
      break;
    }
    seen = true;
    j++;
  }
  if (!seen) {
    // "point eight": a decimal without its integer part.
    if (first === 'point' && toks[i + 1]?.k === WORD && (smallOf(toks[i + 1]!.v) ?? 10) < 10 && !ARTICLES.has(toks[i + 1]!.v)) {
      let k = i + 1;
      let frac = '';
      while (k < toks.length && toks[k]!.k === WORD && (smallOf(toks[k]!.v) ?? 10) < 10 && !ARTICLES.has(toks[k]!.v)) { frac += String(smallOf(toks[k]!.v)); k++; }
      return { value: Number(`0.${frac}`), next: k, digits: false, big: false, year: false };
    }
    return undefined;
  }
  // A trailing "and" or "y" that did not lead anywhere is not part of the number.
  while (j > i && (toks[j - 1]!.v === 'and' || toks[j - 1]!.v === 'y' || toks[j - 1]!.v === '-')) j--;
  let value = total + current;
  // "one and a half", "two and a half hours", "dos y medio".
  if (toks[j]?.v === 'and' && toks[j + 1]?.v === 'a' && toks[j + 2]?.v === 'half') { value += 0.5; j += 3; }
  else if (toks[j]?.v === 'y' && (toks[j + 1]?.v === 'medio' || toks[j + 1]?.v === 'media')) { value += 0.5; j += 2; }
  return { value, next: j, digits: false, big, year, weak: weakOnly && !big };
}

/** True when the number so far can be the first half of a spoken year ("nineteen …", "twenty …"). */
function isCentury(last: string, total: number, current: number): boolean {
  return (last === 'teen' || last === 'tens') && total === 0 && current >= 11 && current <= 20;
}

/** Chinese numeral run ("三十", "两千", "一百二十", "二〇一九", "三点五", "二十多", "三四"). */
function readHan(toks: Tok[], i: number, text: string, afterPrefix = false): Read | undefined {
  let j = i;
  let chars = '';
  while (j < toks.length && toks[j]!.k === HAN && !(j > i && toks[j]!.sp)) {
    const v = toks[j]!.v;
    if (v in ZH_DIGITS || v in ZH_SMALL_UNITS || v in ZH_BIG_UNITS) { chars += v; j++; continue; }
    // A decimal point between numerals: "三点五".
    if ((v === '点' || v === '點') && chars && j + 1 < toks.length && toks[j + 1]!.v in ZH_DIGITS) { chars += '.'; j++; continue; }
    break;
  }
  if (!chars) return undefined;
  if (!/[〇零一二两兩三四五六七八九十拾]/u.test(chars)) return undefined; // "万", "千万" alone
  if (chars === '零' || chars === '〇') return undefined; // "零部件", "零售", "零几年"
  const start = toks[i]!.s;
  const rest = text.slice(start, start + 4);
  if (ZH_NOT_NUMBERS.some((w) => rest.startsWith(w)) && !rest.startsWith('十分钟')) return undefined;
  const prev = i > 0 ? toks[i - 1]! : undefined;
  if (!afterPrefix && prev && prev.k === HAN && ZH_PREFIX_NOT_NUMBER.has(prev.v)) return undefined;
  const [intPart, fracPart] = chars.split('.');
  let value = parseHanInteger(intPart!);
  if (Number.isNaN(value)) return undefined;
  let big = /[万萬亿億]/u.test(intPart!);
  if (fracPart) {
    value = Number(`${value}.${[...fracPart].map((c) => ZH_DIGITS[c] ?? '').join('')}`);
    big = true;
  }
  const year = /^[〇零一二三四五六七八九]{4}$/u.test(intPart!) && !fracPart;
  return { value, next: j, digits: false, big, year, weak: value === 1 && chars === '一' };
}

/** A Chinese integer: "三十" 30, "两千" 2000, "一百二十" 120, "三万五千" 35000, "二〇一九" 2019, "三四" 3 (approximate). */
function parseHanInteger(s: string): number {
  if (!s) return Number.NaN;
  // Digit by digit ("二〇一九"), or two neighbouring digits for "three or four" ("三四").
  if (/^[〇零一二两兩三四五六七八九]+$/u.test(s)) {
    const ds = [...s].map((c) => ZH_DIGITS[c]!);
    if (ds.length === 1) return ds[0]!;
    // "三四个" (three or four), "一一" (a stutter): the first.
    if (ds.length === 2 && (ds[1] === ds[0]! + 1 || ds[1] === ds[0])) return ds[0]!;
    if (ds.length === 4) return Number(ds.join(''));
    return Number.NaN;
  }
  let total = 0;
  let section = 0;
  let digit = 0;
  let seenDigit = false;
  for (const ch of s) {
    if (ch in ZH_DIGITS) {
      digit = ZH_DIGITS[ch]!;
      seenDigit = true;
    } else if (ch in ZH_SMALL_UNITS) {
      section += (seenDigit ? digit : 1) * ZH_SMALL_UNITS[ch]!;
      digit = 0;
      seenDigit = false;
    } else if (ch in ZH_BIG_UNITS) {
      const unit = ZH_BIG_UNITS[ch]!;
      const v = (section + (seenDigit ? digit : 0)) || 1;
      total = total > 0 && unit > 1e4 && total < unit ? (total + v) * unit : total + v * unit;
      section = 0;
      digit = 0;
      seenDigit = false;
    }
  }
  return total + section + (seenDigit ? digit : 0);
}

// ---------------------------------------------------------------------------------------------
// Units

interface Unit {
  kind: NumberKind;
  /** Index after the unit's last token. */
  next: number;
  /** Factor applied to the value ("三成" → 30 %). */
  factor?: number;
}

/** The Han text starting at token i (at most n characters, no whitespace). */
function hanAhead(toks: Tok[], i: number, n: number): string {
  let s = '';
  for (let j = i; j < toks.length && s.length < n && toks[j]!.k === HAN && !(j > i && toks[j]!.sp); j++) s += toks[j]!.v;
  return s;
}

function matchHan(toks: Tok[], i: number, words: readonly string[]): string | undefined {
  const ahead = hanAhead(toks, i, 4);
  let best: string | undefined;
  for (const w of words) if (ahead.startsWith(w) && (!best || w.length > best.length)) best = w;
  return best;
}

/** Nouns too vague to make a count a data point ("三个方面"). */
const ZH_VAGUE_NOUNS = ['方面', '层面', '问题', '东西', '事情', '部分', '点', '字', '阶段', '角度', '维度'];

/** True when a demonstrative stands right before the number that ends at token i ("这两个", "那三块"). */
function demonstrativeBefore(toks: Tok[], i: number, r: Read): boolean {
  let k = i - 1;
  while (k >= 0 && toks[k]!.k === HAN && (isHanNumeral(toks[k]!.v) || ZH_APPROX.has(toks[k]!.v))) k--;
  const p = k >= 0 ? toks[k]! : undefined;
  return !r.digits && p !== undefined && p.k === HAN && '这那哪每'.includes(p.v);
}

/** The unit after a Chinese or digit number: skips an approximator ("多", "余") and reads the longest unit. */
function hanUnit(toks: Tok[], i: number, r: Read): Unit | undefined {
  let j = i;
  if (j < toks.length && toks[j]!.k === HAN && ZH_APPROX.has(toks[j]!.v) && !toks[j]!.sp) j++;
  const at = (w: string): number => j + w.length;
  const pct = matchHan(toks, j, ZH_PERCENT_SUFFIX);
  if (pct) return { kind: 'percent', next: at(pct) };
  if (toks[j]?.v === '成' && r.value <= 10 && j === i) return { kind: 'percent', next: j + 1, factor: 10 };
  const money = matchHan(toks, j, ZH_MONEY);
  // "块" alone is money only for more than one ("三块"); "这一块" is "this area".
  if (money && !(money === '块' && (r.value === 1 || demonstrativeBefore(toks, i, r)))) return { kind: 'money', next: at(money) };
  const dur = matchHan(toks, j, ZH_DURATION);
  const date = matchHan(toks, j, ZH_DATE);
  if (date && date.length > (dur?.length ?? 0)) {
    // "九十年代", "二十世纪".
    return { kind: 'date', next: at(date) };
  }
  if (dur === '年') {
    if (hanAhead(toks, j, 2) === '年级') return undefined; // "三年级": a school grade
    // "2019年", "09 年", "二〇一九年" are dates; "三年", "20 年前", "50 年来" are durations.
    const after = hanAhead(toks, j + 1, 1);
    const twoDigits = r.digits && /^\d\d$/.test(toks[i - 1]?.v ?? '');
    if (r.year || (twoDigits && !'前后来里内多间以左'.includes(after || '-') && (toks[i - 1]!.v.startsWith('0') || r.value < 30))) return { kind: 'date', next: at('年') };
    return { kind: 'duration', next: at('年') };
  }
  if (dur && (!date || dur.length >= date.length)) return { kind: 'duration', next: at(dur) };
  if (date) {
    if ((date === '月' || date === '月份') && r.value > 12) return undefined;
    if ((date === '日' || date === '号') && r.value > 31) return undefined;
    return { kind: 'date', next: at(date) };
  }
  const measure = matchHan(toks, j, ZH_MEASURE);
  if (measure) return { kind: 'measure', next: at(measure) };
  const c = toks[j];
  if (c && c.k === HAN && (!c.sp || r.digits) && ZH_CLASSIFIERS.has(c.v)) {
    // "二十多个人", "三家": a classifier (and 人 after 个); "这两个行业", "三个方面" are no data.
    if (demonstrativeBefore(toks, i, r) || ZH_VAGUE_NOUNS.some((w) => hanAhead(toks, j + 1, 2).startsWith(w))) return undefined;
    let next = j + 1;
    if (c.v === '个' && toks[next]?.v === '人' && !toks[next]!.sp) next++;
    return { kind: 'count', next };
  }
  if (toks[j]?.k === OTHER && toks[j]!.v === '%') return { kind: 'percent', next: j + 1 };
  return undefined;
}

/** After a date's month: a following year ("3 de enero de 2020", "3 March 2019", "March 3, 2019") joins the date. */
function withYear(toks: Tok[], i: number): number {
  let j = i;
  if (toks[j]?.v === 'de' || toks[j]?.v === 'del' || toks[j]?.v === ',') j++;
  const y = toks[j];
  return y && y.k === DIGITS && /^(19|20)\d\d$/.test(y.v) ? j + 1 : i;
}

/** True when the word looks like a count noun after a number ("meetings", "people", "empresas"). */
function isCountNoun(v: string): boolean {
  if (PLURAL_NOUNS.has(v)) return true;
  if (NOT_COUNT.has(v) || v.length < 4 || !v.endsWith('s')) return false;
  if (v in EN_SMALL || v in ES_SMALL || v in EN_TENS || v in ES_TENS || v in ES_HUNDREDS || v in EN_SCALES || v in ES_SCALES) return false;
  return !v.endsWith("'s") && !v.endsWith('ss') && !v.endsWith('ous');
}

/** The unit after an English or Spanish number (words or digits). */
function latinUnit(toks: Tok[], i: number, r: Read): Unit | undefined {
  const t = toks[i];
  if (!t) return undefined;
  if (t.k === OTHER) {
    if (t.v === '%' || t.v === '％') return { kind: 'percent', next: i + 1 };
    if (t.v === '€' || t.v === '$' || t.v === '£') return { kind: 'money', next: i + 1 };
    // "five-minute break", "a 3-hour meeting".
    if (t.v === '-' && !t.sp && toks[i + 1]?.k === WORD && !toks[i + 1]!.sp) {
      const u = latinUnit(toks, i + 1, r);
      if (u && u.kind !== 'count') return u;
    }
    return undefined;
  }
  if (t.k === HAN) return hanUnit(toks, i, r);
  if (t.k !== WORD) return undefined;
  const v = t.v;
  if (PERCENT_WORDS.has(v)) return { kind: 'percent', next: i + (toks[i + 1]?.v === 'points' ? 2 : 1) };
  if ((v === 'per' || v === 'por') && (toks[i + 1]?.v === 'cent' || toks[i + 1]?.v === 'ciento')) return { kind: 'percent', next: i + 2 };
  if (MONEY_WORDS.has(v) || (v === 'pound' && r.value === 1)) return { kind: 'money', next: i + 1 };
  if (v === 'de' && r.big && toks[i + 1]?.k === WORD && MONEY_WORDS.has(toks[i + 1]!.v)) return { kind: 'money', next: i + 2 };
  if (v === 'de' && r.big && toks[i + 1]?.k === WORD && isCountNoun(toks[i + 1]!.v)) return { kind: 'count', next: i + 2 };
  if (v === 'of' && r.big && toks[i + 1]?.k === WORD && MONEY_WORDS.has(toks[i + 1]!.v)) return { kind: 'money', next: i + 2 };
  if (DURATION_WORDS.has(v)) {
    if ((v === 'second' || v === 'segundo') && r.value === 1 && !r.digits) return undefined; // "one second" (wait)
    return { kind: 'duration', next: i + 1 };
  }
  if (TIME_SUFFIXES.has(v) && r.value <= 24) return { kind: 'date', next: i + 1 };
  if (MONTHS.has(v) && !r.big && r.value >= 1 && r.value <= 31 && Number.isInteger(r.value) && (v !== 'may' && v !== 'mar' || r.digits)) return { kind: 'date', next: withYear(toks, i + 1) };
  if (v === 'de' && MONTHS.has(toks[i + 1]?.v ?? '') && r.value >= 1 && r.value <= 31) return { kind: 'date', next: withYear(toks, i + 2) };
  if (v === 'of' && MONTHS.has(toks[i + 1]?.v ?? '') && r.value >= 1 && r.value <= 31) return { kind: 'date', next: i + 2 };
  if (MEASURE_WORDS.has(v) && !(v === 'x' && t.sp) && !(v === 'k' && t.sp)) return { kind: 'measure', next: i + 1 };
  if (UNIT_ADJECTIVES.has(v) && toks[i + 1]?.k === WORD) {
    const u = latinUnit(toks, i + 1, r);
    if (u) return u;
  }
  if (isCountNoun(v)) return { kind: 'count', next: i + 1 };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Finding numbers

interface Found extends NumberMention {
  /** A data point even without a unit: digits with three or more significant figures, a decimal, or a scale. */
  strong: boolean;
}

const REGION_CHARS = 8_192;
/** Scales glued to digits ("5k", "2bn"); "5m" and "5mm" are lengths, not millions. */
const GLUED_SCALES: Record<string, number> = { k: 1e3, bn: 1e9 };

/**
 * The numbers in a text, in order, each with its unit words and kind.
 *
 * @example
 * ```ts
 * findNumbers('about twenty five percent of four meetings');
 * // [{ text: 'twenty five percent', kind: 'percent', value: 25, … }, { text: 'four meetings', kind: 'count', value: 4, … }]
 * findNumbers('百分之三十的人用了三个月');
 * // [{ text: '百分之三十', kind: 'percent', value: 30 }, { text: '三个月', kind: 'duration', value: 3 }]
 * ```
 */
export function findNumbers(text: string): NumberMention[] {
  return findAll(text).map(({ start, end, text: t, kind, value }) => (value === undefined ? { start, end, text: t, kind } : { start, end, text: t, kind, value }));
}

/**
 * True when the text states a data point: a number with a unit (percent, money, date, duration,
 * measure, count noun), or a precise figure written in digits ("2.31", "1,200"). "The one that",
 * "a couple", "first of all", "一个问题" are not.
 */
export function hasDataPoint(text: string): boolean {
  return findAll(text).some((m) => m.kind !== 'number' || m.strong);
}

function findAll(text: string): Found[] {
  const out: Found[] = [];
  let a = 0;
  while (a < text.length) {
    let b = Math.min(text.length, a + REGION_CHARS);
    if (b < text.length) b = regionEnd(text, a, b);
    findInRegion(text, tokenize(text, a, b), out);
    a = b;
  }
  return out;
}

/** Where to end a region [a, ≤b): after a sentence end or line break in its second half, else at a space, else at b. */
function regionEnd(text: string, a: number, b: number): number {
  const half = a + REGION_CHARS / 2;
  let space = -1;
  for (let s = b - 1; s > half; s--) {
    const c = text.charCodeAt(s);
    if (c === 10 || ((c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f) && isSpace(text.charCodeAt(s + 1)))) return s + 1;
    if (space < 0 && isSpace(c)) space = s;
  }
  if (space > 0) return space;
  return text.charCodeAt(b) >= 0xdc00 && text.charCodeAt(b) <= 0xdfff ? b - 1 : b;
}

function findInRegion(text: string, toks: Tok[], out: Found[]): void {
  let i = 0;
  while (i < toks.length) {
    const t = toks[i]!;
    const found = t.k === DIGITS ? fromDigits(text, toks, i) : t.k === WORD ? fromWords(text, toks, i) : t.k === HAN ? fromHan(text, toks, i) : t.k === OTHER ? fromSymbol(text, toks, i) : undefined;
    if (found) {
      const range = found.m.kind === 'number' ? rangeEnd(text, toks, found.next) : undefined;
      if (range) {
        // "ten to a hundred hours", "三到五年": the range takes the unit of its end.
        const m = range.m;
        out.push({ ...found.m, end: m.end, text: text.slice(found.m.start, m.end), kind: m.kind, strong: found.m.strong || m.strong });
        i = range.next;
      } else {
        out.push(found.m);
        i = found.next;
      }
    } else if (t.k === HAN && isHanNumeral(t.v)) {
      // A numeral run that is a word ("万一", "第一"): skip it whole.
      i++;
      while (i < toks.length && toks[i]!.k === HAN && isHanNumeral(toks[i]!.v)) i++;
    } else {
      i++;
    }
  }
}

function isHanNumeral(v: string): boolean {
  return v in ZH_DIGITS || v in ZH_SMALL_UNITS || v in ZH_BIG_UNITS;
}

/** Words joining the two ends of a range. */
const RANGE_WORDS = new Set(['to', 'or', 'a', 'o', '-', '–', '到', '至', '~']);

/** The second half of a range after a unitless number at toks[i] ("to a hundred hours", "a 5 años", "到五年"), when it has a unit. */
function rangeEnd(text: string, toks: Tok[], i: number): { m: Found; next: number } | undefined {
  const c = toks[i];
  if (!c || !RANGE_WORDS.has(c.v)) return undefined;
  const n = toks[i + 1];
  if (!n) return undefined;
  const second = n.k === DIGITS ? fromDigits(text, toks, i + 1) : n.k === WORD ? fromWords(text, toks, i + 1) : n.k === HAN ? fromHan(text, toks, i + 1) : undefined;
  return second && second.m.kind !== 'number' ? second : undefined;
}

function mention(text: string, toks: Tok[], first: number, next: number, kind: NumberKind, value: number, strong: boolean): { m: Found; next: number } {
  const start = toks[first]!.s;
  const end = toks[next - 1]!.e;
  return { m: { start, end, text: text.slice(start, end), kind, value, strong }, next };
}

/** "$2.5 million", "€300", "¥5000". */
function fromSymbol(text: string, toks: Tok[], i: number): { m: Found; next: number } | undefined {
  const v = toks[i]!.v;
  if (!['$', '€', '£', '¥', '￥'].includes(v) || toks[i + 1]?.k !== DIGITS) return undefined;
  const r = readDigits(toks, i + 1)!;
  let next = r.next;
  // "$5 dollars" (rare) or "US$": take a currency word after too.
  if (toks[next]?.k === WORD && MONEY_WORDS.has(toks[next]!.v)) next++;
  return mention(text, toks, i, next, 'money', r.value, true);
}

function fromDigits(text: string, toks: Tok[], i: number): { m: Found; next: number } | undefined {
  const t = toks[i]!;
  // Part of a word or code ("mp3", "B2B", "x86") or a longer figure ("1/3/2020", "2020-01-03").
  if (i > 0 && !t.sp && toks[i - 1]!.k === WORD) return undefined;
  const date = digitDate(toks, i);
  if (date) return mention(text, toks, i, date, 'date', Number(t.v.replace(/[.,:]/g, '')), true);
  const r = readDigits(toks, i)!;
  // "1990s", "80s": a decade.
  const n = toks[r.next];
  if (n && n.k === WORD && !n.sp && n.v === 's' && /^\d{2,4}$/.test(t.v)) return mention(text, toks, i, r.next + 1, 'date', r.value, true);
  // Ordinals glued to digits ("1st", "3rd", "2º") are dates only next to a month; otherwise skip.
  if (n && n.k === WORD && !n.sp && ['st', 'nd', 'rd', 'th', 'º', 'ª', 'er'].includes(n.v)) {
    const m = toks[r.next + 1];
    if (m && m.k === WORD && (MONTHS.has(m.v) || (m.v === 'of' && MONTHS.has(toks[r.next + 2]?.v ?? '')))) return mention(text, toks, i, r.next + (m.v === 'of' ? 3 : 2), 'date', r.value, true);
    return { m: { start: t.s, end: n.e, text: text.slice(t.s, n.e), kind: 'number', value: r.value, strong: false }, next: r.next + 1 };
  }
  return finish(text, toks, i, r);
}

/** "1/3/2020", "2020-01-03", "03/01". Returns the index after the date, or undefined. */
function digitDate(toks: Tok[], i: number): number | undefined {
  const sep = toks[i + 1];
  if (!sep || sep.k !== OTHER || (sep.v !== '/' && sep.v !== '-') || sep.sp) return undefined;
  const b = toks[i + 2];
  if (!b || b.k !== DIGITS || b.sp) return undefined;
  const c1 = toks[i + 3];
  const c = toks[i + 4];
  if (c1 && c1.v === sep.v && !c1.sp && c && c.k === DIGITS && !c.sp) {
    const [x, y, z] = [toks[i]!.v, b.v, c.v];
    if (sep.v === '-' && /^\d{4}$/.test(x) && Number(y) <= 12 && Number(z) <= 31) return i + 5;
    if (sep.v === '/' && Number(x) <= 31 && Number(y) <= 31 && /^\d{2}(\d\d)?$/.test(z)) return i + 5;
    return undefined;
  }
  if (sep.v === '/' && Number(toks[i]!.v) <= 31 && Number(b.v) <= 12 && /^\d{1,2}$/.test(toks[i]!.v) && /^\d{1,2}$/.test(b.v) && Number(b.v) > 0) return i + 3;
  return undefined;
}

/** Words that can start a number, a date or "half an hour". */
const WORD_STARTS = new Set([
  ...Object.keys(EN_SMALL), ...Object.keys(EN_TENS), ...Object.keys(ES_SMALL), ...Object.keys(ES_TENS), ...Object.keys(ES_HUNDREDS),
  'mil', 'a', 'an', 'half', 'point', ...MONTHS,
]);

function fromWords(text: string, toks: Tok[], i: number): { m: Found; next: number } | undefined {
  const t = toks[i]!;
  if (!WORD_STARTS.has(t.v)) return undefined;
  // Month then day or year: "March 3", "March 2019", "enero de 2020", "half an hour".
  if (MONTHS.has(t.v)) {
    let j = i + 1;
    if (toks[j]?.v === 'de' || toks[j]?.v === 'del') j++;
    const d = toks[j];
    if (d && d.k === DIGITS && (t.v !== 'may' && t.v !== 'mar' || text[t.s] === 'M')) {
      const r = readDigits(toks, j)!;
      if ((r.value >= 1 && r.value <= 31 && Number.isInteger(r.value)) || r.year) {
        let next = r.next;
        // "March 3, 2019"
        if (toks[next]?.v === ',' && toks[next + 1]?.k === DIGITS && /^(19|20)\d\d$/.test(toks[next + 1]!.v)) next += 2;
        return mention(text, toks, i, next, 'date', r.value, true);
      }
    }
    return undefined;
  }
  if (t.v === 'half' && (toks[i + 1]?.v === 'an' || toks[i + 1]?.v === 'a') && toks[i + 2]?.k === WORD && DURATION_WORDS.has(toks[i + 2]!.v)) {
    return mention(text, toks, i, i + 3, 'duration', 0.5, false);
  }
  const r = readWords(toks, i);
  if (!r) return undefined;
  return finish(text, toks, i, r);
}

function fromHan(text: string, toks: Tok[], i: number): { m: Found; next: number } | undefined {
  const t = toks[i]!;
  // "百分之三十", "百分之 30".
  if (t.v === '百' && toks[i + 1]?.v === '分' && toks[i + 2]?.v === '之') {
    const j = i + 3;
    let k = j;
    while (k < toks.length && toks[k]!.k === OTHER && toks[k]!.v === ' ') k++;
    const r = toks[j]?.k === DIGITS ? readDigits(toks, j) : toks[j]?.k === HAN ? readHan(toks, j, text, true) : undefined;
    if (r && toks[j]!.v !== '百') {
      let next = r.next;
      if (toks[next]?.k === HAN && ZH_APPROX.has(toks[next]!.v)) next++;
      return mention(text, toks, i, next, 'percent', r.value, true);
    }
    return undefined;
  }
  const r = readHan(toks, i, text);
  if (!r) return undefined;
  return finish(text, toks, i, r);
}

/** Attaches the unit after a number read at toks[first, r.next) and decides its kind. */
function finish(text: string, toks: Tok[], first: number, r: Read): { m: Found; next: number } | undefined {
  const u = latinUnit(toks, r.next, r);
  let kind: NumberKind = u?.kind ?? 'number';
  let next = u?.next ?? r.next;
  const value = r.value * (u?.factor ?? 1);
  const firstTok = toks[first]!;
  const prev = first > 0 ? toks[first - 1] : undefined;
  if (r.clock && kind === 'number') kind = 'date';
  if (kind === 'number' && r.year) kind = 'date';
  // "dos mil diecinueve", "two thousand and nine" with no unit: a year.
  if (kind === 'number' && !r.digits && r.value >= 1900 && r.value < 2100 && Number.isInteger(r.value) && r.value % 1000 !== 0) kind = 'date';
  if (kind === 'number' && !r.digits && !r.year && r.value >= 1000 && r.value < 2100 && r.value === Math.floor(r.value) && prev && prev.k === WORD && YEAR_CUES.has(prev.v)) kind = 'date';
  // "a las 9", "at five": a time of day.
  if (kind === 'number' && prev && prev.k === WORD && (prev.v === 'las' || prev.v === 'at') && r.value <= 24 && Number.isInteger(r.value) && !r.big) kind = 'date';
  // A value of one in words is an article or a pronoun unless it has a real unit ("one hour", not "the one that", "one thing", "一个问题").
  const one = r.value === 1 && !r.digits && !r.big;
  if (one && (kind === 'count' || kind === 'number')) return undefined;
  if (one && r.weak && firstTok.v !== 'one' && firstTok.v !== 'uno' && kind !== 'percent' && kind !== 'money' && kind !== 'measure') return undefined;
  if (one && firstTok.k === HAN && kind === 'duration') return undefined;
  // Words that are numbers only with a unit ("once" in English, bare Chinese digits).
  if (kind === 'number' && !r.digits) {
    if (NEEDS_UNIT.has(firstTok.v) && next === first + 1) return undefined;
    if (firstTok.k === HAN && r.value < 10) return undefined;
  }
  // A count of vague things is no data point, and "a couple" never reaches here.
  if (kind === 'count' && !r.digits && toks[next - 1]?.k === WORD && NOT_COUNT.has(toks[next - 1]!.v)) { kind = 'number'; next = r.next; }
  const strong = r.digits && !r.clock ? r.big || significantDigits(firstTok.v) >= 2 || /[.,]\d/.test(firstTok.v) : false;
  return mention(text, toks, first, next, kind, value, strong);
}

function significantDigits(v: string): number {
  const d = v.replace(/\D/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return d.length;
}
