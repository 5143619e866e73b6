/**
 * A generator of time phrases with their expected seconds (issue 23), for the time grammar's tests
 * and bench. It composes parts — language (en, es, zh-Hans, zh-Hant) × form (first/last N, the nth
 * unit, after/before a point, ranges with two ends, an open end or the start, halves and parts,
 * "at" a point) × the numbers in them (digits, English or Spanish words, Chinese numerals) × the
 * durations (minutes, seconds, hours, "1 hour 20 minutes", "1h20", fractions: "an hour and a
 * half", 一个半小时, "hora y media", "1,5 horas", half an hour) × a question around the phrase
 * ("What did they say about the budget between 0:10:00 and 0:15:30?") — and computes the
 * expected constraint from the values it composed, never by calling the parser. Its word lists are
 * its own (number words, units, connectors), written apart from the product's lexicon. Negative
 * cases (numbers that are no times) expect null.
 */
import { rng } from './testing';

export type TimeLang = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';
export const TIME_LANGS: readonly TimeLang[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];

export interface TimeCase {
  lang: TimeLang;
  /** The class of phrase: `first`, `last`, `nth`, `after`, `before`, `range`, `openEnd`, `fromStart`, `part`, `at`, `negative`. */
  form: string;
  /** The time phrase alone. */
  phrase: string;
  /** What the parser is given: the phrase, or a question with the phrase in it. */
  text: string;
  embedded: boolean;
  /** The item's length given with the question (for "the last N minutes" and halves). */
  durationS?: number;
  expected: { startS: number; endS: number | null } | null;
}

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: R, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
/** A word in simplified or traditional characters. */
const hz = (lang: TimeLang, hans: string, hant: string): string => (lang === 'zh-Hant' ? hant : hans);

// ---------------------------------------------------------------------------
// Numbers written out (the generator's own spelling rules)
// ---------------------------------------------------------------------------

const EN_SMALL = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function englishNumber(r: R, n: number): string {
  if (n < 20) return EN_SMALL[n]!;
  const t = EN_TENS[Math.floor(n / 10)]!;
  return n % 10 ? `${t}${r() < 0.7 ? '-' : ' '}${EN_SMALL[n % 10]}` : t;
}

const ES_SMALL = 'cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve'.split(' ');
const ES_TWENTIES = ['veinte', 'veintiuno', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const ES_TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];

/** Spanish: `m`/`f` before a noun of that gender ("un minuto", "veintiún minutos", "una hora"), `n` alone ("el minuto veintiuno"). */
function spanishNumber(n: number, g: 'm' | 'f' | 'n'): string {
  const one = g === 'm' ? 'un' : g === 'f' ? 'una' : 'uno';
  if (n === 100) return 'cien';
  if (n > 100) return `ciento ${spanishNumber(n - 100, g)}`;
  if (n === 1) return one;
  if (n < 20) return ES_SMALL[n]!;
  if (n < 30) return n === 21 ? (g === 'm' ? 'veintiún' : g === 'f' ? 'veintiuna' : 'veintiuno') : ES_TWENTIES[n - 20]!;
  const t = ES_TENS[Math.floor(n / 10)]!;
  return n % 10 ? `${t} y ${n % 10 === 1 ? one : ES_SMALL[n % 10]}` : t;
}

const ZH_DIGIT = '零一二三四五六七八九';

/** Chinese numerals below 200; `counted` before a measure word, where 2 is 两/兩. */
function chineseNumber(lang: TimeLang, n: number, counted: boolean): string {
  if (n === 2 && counted) return hz(lang, '两', '兩');
  if (n < 10) return ZH_DIGIT[n]!;
  if (n < 20) return `十${n % 10 ? ZH_DIGIT[n % 10] : ''}`;
  if (n < 100) return `${ZH_DIGIT[Math.floor(n / 10)]}十${n % 10 ? ZH_DIGIT[n % 10] : ''}`;
  const rest = n - 100;
  return `一百${rest === 0 ? '' : rest < 10 ? `零${ZH_DIGIT[rest]}` : rest < 20 ? `一十${rest % 10 ? ZH_DIGIT[rest % 10] : ''}` : chineseNumber(lang, rest, false)}`;
}

/** How numbers are written in one case: digits or words (Chinese numerals in Chinese). */
type Style = 'digits' | 'words';

function number(r: R, lang: TimeLang, style: Style, n: number, g: 'm' | 'f' | 'n' = 'n', counted = false): string {
  if (style === 'digits' || n > 199) return String(n);
  if (lang === 'en') return n > 99 ? String(n) : englishNumber(r, n);
  if (lang === 'es') return spanishNumber(n, g);
  return chineseNumber(lang, n, counted);
}

function clock(r: R, s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (v: number): string => String(v).padStart(2, '0');
  return h || r() < 0.4 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

// ---------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------

interface Dur {
  s: number;
  text: string;
  /** Spanish: the gender and number of the phrase's noun ("los primeros … minutos", "las primeras … horas", "la primera hora"). */
  es?: { g: 'm' | 'f'; plural: boolean };
}

/**
 * A duration in `lang`. `det`: written after "first", "last", an ordinal ("the first hour", "the
 * first half hour", not "the first an hour").
 */
function duration(r: R, lang: TimeLang, style: Style, det: boolean, kinds = ['min', 'min', 'min', 'sec', 'hour', 'hm', 'half', 'andHalf', 'quarter']): Dur {
  const kind = pick(r, kinds);
  const N = (n: number, g: 'm' | 'f' | 'n' = 'n', counted = false): string => number(r, lang, style, n, g, counted);
  if (kind === 'min' || kind === 'sec') {
    const n = kind === 'min' ? int(r, det ? 2 : 1, 95) : int(r, 10, 90);
    if (lang === 'en') {
      const unit = kind === 'min' ? pick(r, n === 1 ? ['minute'] : ['minutes', 'minutes', 'mins']) : pick(r, n === 1 ? ['second'] : ['seconds', 'seconds', 'secs']);
      if (style === 'digits' && r() < 0.15) return { s: kind === 'min' ? n * 60 : n, text: `${n}${kind === 'min' ? pick(r, ['min', 'm']) : 's'}` };
      return { s: kind === 'min' ? n * 60 : n, text: `${N(n)} ${unit}` };
    }
    if (lang === 'es') return { s: kind === 'min' ? n * 60 : n, text: `${N(n, 'm')} ${kind === 'min' ? (n === 1 ? 'minuto' : 'minutos') : 'segundos'}`, es: { g: 'm', plural: n > 1 } };
    const unit = kind === 'min' ? pick(r, [hz(lang, '分钟', '分鐘'), hz(lang, '分钟', '分鐘'), '分']) : pick(r, ['秒', hz(lang, '秒钟', '秒鐘')]);
    return { s: kind === 'min' ? n * 60 : n, text: `${N(n, 'n', true)}${unit}` };
  }
  if (kind === 'hour') {
    const n = int(r, 1, 3);
    if (lang === 'en') {
      if (n === 1) return { s: 3600, text: det ? 'hour' : pick(r, ['an hour', 'one hour', '1 hour']) };
      return { s: n * 3600, text: `${N(n)} ${pick(r, ['hours', 'hours', 'hrs'])}` };
    }
    if (lang === 'es') {
      if (n === 1) return { s: 3600, text: det ? 'hora' : pick(r, ['una hora', '1 hora']), es: { g: 'f', plural: false } };
      return { s: n * 3600, text: `${N(n, 'f')} horas`, es: { g: 'f', plural: true } };
    }
    return { s: n * 3600, text: `${N(n, 'n', true)}${pick(r, ['', hz(lang, '个', '個')])}${pick(r, [hz(lang, '小时', '小時'), hz(lang, '小时', '小時'), hz(lang, '钟头', '鐘頭')])}` };
  }
  if (kind === 'hm') {
    const h = int(r, 1, 2);
    const m = int(r, 5, 55);
    const s = h * 3600 + m * 60;
    if (lang === 'en') {
      if (style === 'digits' && r() < 0.4) return { s, text: pick(r, [`${h}h${m}`, `${h}h ${m}m`, `${h}h${m}m`, `${h}h ${m}min`]) };
      const hours = h === 1 ? pick(r, ['one hour', ...(style === 'digits' ? ['1 hour'] : ['an hour'])]) : `${N(h)} hours`;
      return { s, text: `${hours}${pick(r, [' ', ' and '])}${N(m)} minutes` };
    }
    if (lang === 'es') {
      if (style === 'digits' && r() < 0.3) return { s, text: pick(r, [`${h}h${m}`, `${h} h ${m} min`]), es: { g: 'f', plural: true } };
      const hours = `${N(h, 'f')} ${h === 1 ? 'hora' : 'horas'}`;
      return { s, text: `${hours}${pick(r, [' ', ' y '])}${N(m, 'm')}${r() < 0.8 ? ' minutos' : ''}`, es: { g: 'f', plural: true } };
    }
    return { s, text: `${N(h, 'n', true)}${pick(r, ['', hz(lang, '个', '個')])}${hz(lang, '小时', '小時')}${N(m)}${pick(r, ['分', hz(lang, '分钟', '分鐘')])}` };
  }
  if (kind === 'quarter') {
    // A quarter of an hour, or an hour and a quarter.
    const plus = r() < 0.4;
    if (lang === 'en') return plus ? { s: 4500, text: det ? 'hour and a quarter' : 'an hour and a quarter' } : { s: 900, text: det ? pick(r, ['quarter hour', 'quarter-hour']) : pick(r, ['a quarter of an hour', 'a quarter hour', 'a quarter-hour']) };
    if (lang === 'es') return plus ? { s: 4500, text: det ? 'hora y cuarto' : 'una hora y cuarto', es: { g: 'f', plural: false } } : { s: 900, text: det ? 'cuarto de hora' : 'un cuarto de hora', es: { g: 'm', plural: false } };
    const n = int(r, 1, 3);
    return { s: n * 900, text: `${number(r, lang, style, n, 'n', true)}${hz(lang, '刻钟', '刻鐘')}` };
  }
  if (kind === 'half') {
    if (lang === 'en') return { s: 1800, text: det ? pick(r, ['half hour', 'half-hour']) : pick(r, ['half an hour', 'half an hour', 'a half-hour']) };
    if (lang === 'es') return { s: 1800, text: 'media hora', es: { g: 'f', plural: false } };
    return { s: 1800, text: `半${pick(r, ['', hz(lang, '个', '個')])}${hz(lang, '小时', '小時')}` };
  }
  // andHalf: n and a half hours.
  const n = int(r, 1, 2);
  const s = n * 3600 + 1800;
  if (lang === 'en') {
    const forms = n === 1 ? [det ? 'hour and a half' : 'an hour and a half', 'one and a half hours', '1.5 hours', '90 minutes'] : [`${N(n)} and a half hours`, `${n}.5 hours`, `${N(n)} hours and a half`];
    return { s, text: pick(r, forms) };
  }
  if (lang === 'es') {
    const forms = n === 1 ? [det ? 'hora y media' : pick(r, ['una hora y media', 'hora y media']), '1,5 horas', '1.5 horas'] : [`${N(n, 'f')} horas y media`, `${n},5 horas`];
    const text = pick(r, forms);
    return { s, text, es: { g: 'f', plural: !/^(una )?hora y media$/.test(text) } };
  }
  return { s, text: pick(r, [`${N(n, 'n', true)}${hz(lang, '个', '個')}半${hz(lang, '小时', '小時')}`, `${n}.5${hz(lang, '小时', '小時')}`]) };
}

// ---------------------------------------------------------------------------
// Points: a position in the item
// ---------------------------------------------------------------------------

interface Pt {
  s: number;
  text: string;
  /** A duration ("20 minutes", "an hour and a half"), which "about" may soften. */
  dur?: boolean;
  /** Spanish: a point that takes "del"/"al" ("el minuto 20"), or none (a clock, a duration). */
  esMasc?: boolean;
}

function point(r: R, lang: TimeLang, style: Style, maxMin = 110): Pt {
  const kind = pick(r, ['clock', 'minute', 'minute', 'duration']);
  if (kind === 'clock') {
    const s = int(r, 30, maxMin * 60);
    return { s, text: clock(r, s) };
  }
  const m = int(r, 1, maxMin);
  if (kind === 'minute') {
    if (lang === 'en') return { s: m * 60, text: pick(r, [`minute ${number(r, lang, style, m)}`, `the ${m}-minute mark`, `the ${number(r, lang, style, m)} minute mark`]) };
    if (lang === 'es') return { s: m * 60, text: `el minuto ${number(r, lang, style, m)}`, esMasc: true };
    return { s: m * 60, text: `${hz(lang, '第', '第')}${number(r, lang, style, m)}${pick(r, [hz(lang, '分钟', '分鐘'), '分'])}` };
  }
  const d = duration(r, lang, style, false, ['min', 'hour', 'hm', 'half', 'andHalf']);
  return { s: d.s, text: d.text, dur: true };
}

// ---------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------

interface Made {
  phrase: string;
  expected: TimeCase['expected'];
  durationS?: number;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Spanish "de" + a point: "del minuto 20", "de 1:20:00", "de una hora". */
const esDe = (p: Pt): string => (p.esMasc ? `del ${p.text.replace(/^el /, '')}` : `de ${p.text}`);
const esA = (p: Pt): string => (p.esMasc ? `al ${p.text.replace(/^el /, '')}` : `a ${p.text}`);
/** Whether a Spanish point reads well after a bare "de" ("del minuto 20", "de 1:20:00"; not "de media hora … al final"). */
const esDeOk = (p: Pt): boolean => p.esMasc === true || /^\d+:\d\d/.test(p.text);

function first(r: R, lang: TimeLang, style: Style): Made {
  const d = duration(r, lang, style, true);
  if (lang === 'en') return { phrase: `${pick(r, ['in ', 'during ', 'within ', ''])}the ${pick(r, ['first', 'first', 'opening', 'initial'])} ${d.text}`, expected: { startS: 0, endS: d.s } };
  if (lang === 'es') {
    const es = d.es ?? { g: 'm', plural: true };
    const art = es.plural ? (es.g === 'm' ? 'los' : 'las') : es.g === 'm' ? 'el' : 'la';
    const adj = es.plural ? (es.g === 'm' ? 'primeros' : 'primeras') : es.g === 'm' ? 'primer' : 'primera';
    const m = /^(\S+) (minutos|segundos)$/.exec(d.text);
    const text = m && r() < 0.3 ? `${art} ${m[1]} ${m[2]} ${pick(r, ['primeros', 'iniciales'])}` : `${art} ${adj} ${d.text}`;
    return { phrase: `${pick(r, ['en ', 'durante ', ''])}${text}`, expected: { startS: 0, endS: d.s } };
  }
  const lead = pick(r, [hz(lang, '前', '前'), hz(lang, '开场', '開場'), hz(lang, '开场后', '開場後'), hz(lang, '开始后的', '開始後的'), hz(lang, '开场的', '開場的'), hz(lang, '开头', '開頭'), hz(lang, '开头的', '開頭的'), hz(lang, '最开始的', '最開始的'), hz(lang, '一开始的', '一開始的'), hz(lang, '头', '頭')]);
  return { phrase: `${pick(r, ['', '', '在'])}${lead}${d.text}${pick(r, ['', hz(lang, '里', '裡'), hz(lang, '内', '內')])}`, expected: { startS: 0, endS: d.s } };
}

function last(r: R, lang: TimeLang, style: Style): Made {
  const d = duration(r, lang, style, true);
  const total = d.s + int(r, 10, 80) * 60;
  const expected = { startS: total - d.s, endS: total };
  if (lang === 'en') return { phrase: `${pick(r, ['in ', 'during ', ''])}the ${pick(r, ['last', 'last', 'final', 'closing'])} ${d.text}`, expected, durationS: total };
  if (lang === 'es') {
    const es = d.es ?? { g: 'm', plural: true };
    const art = es.plural ? (es.g === 'm' ? 'los' : 'las') : es.g === 'm' ? 'el' : 'la';
    const adj = es.plural ? (es.g === 'm' ? 'últimos' : 'últimas') : es.g === 'm' ? 'último' : 'última';
    const m = /^(\S+) (minutos|segundos)$/.exec(d.text);
    const text = m && r() < 0.3 ? `${art} ${m[1]} ${m[2]} ${pick(r, ['finales', 'últimos'])}` : `${art} ${adj} ${d.text}`;
    return { phrase: `${pick(r, ['en ', 'durante ', ''])}${text}`, expected, durationS: total };
  }
  const lead = pick(r, [hz(lang, '最后', '最後'), hz(lang, '最后的', '最後的'), hz(lang, '结尾', '結尾'), hz(lang, '结尾的', '結尾的'), hz(lang, '末尾', '末尾')]);
  return { phrase: `${lead}${d.text}`, expected, durationS: total };
}

const EN_ORD = ['', 'first', 'second', 'third', 'fourth', 'fifth'];
const EN_ORD_DIGITS = ['', '1st', '2nd', '3rd', '4th', '5th'];
const ES_ORD_F = ['', 'primera', 'segunda', 'tercera', 'cuarta', 'quinta'];
const ES_ORD_M = ['', 'primer', 'segundo', 'tercer', 'cuarto', 'quinto'];

function nth(r: R, lang: TimeLang, style: Style): Made {
  const n = int(r, 2, 4);
  const unit = pick(r, lang === 'es' ? ['hour', 'hour', 'minute', 'half'] : lang === 'en' ? ['hour', 'hour', 'minute', 'half', 'ten'] : ['hour', 'hour', 'minute', 'ten']);
  const size = unit === 'hour' ? 3600 : unit === 'minute' ? 60 : unit === 'half' ? 1800 : 600;
  const expected = { startS: (n - 1) * size, endS: n * size };
  if (lang === 'en' && unit === 'hour' && r() < 0.3) return { phrase: `${pick(r, ['in ', 'during ', ''])}hour ${number(r, lang, style, n)}`, expected };
  if (lang === 'en') {
    const noun = unit === 'hour' ? 'hour' : unit === 'minute' ? 'minute' : unit === 'half' ? 'half hour' : `${number(r, lang, style, 10)} minutes`;
    return { phrase: `${pick(r, ['in ', 'during ', ''])}the ${style === 'digits' && r() < 0.5 ? EN_ORD_DIGITS[n] : EN_ORD[n]} ${noun}`, expected };
  }
  if (lang === 'es') {
    const noun = unit === 'hour' ? `la ${ES_ORD_F[n]} hora` : unit === 'minute' ? `el ${ES_ORD_M[n]} minuto` : `la ${ES_ORD_F[n]} media hora`;
    return { phrase: `${pick(r, ['en ', 'durante ', ''])}${noun}`, expected };
  }
  const N = number(r, lang, style === 'digits' && r() < 0.5 ? 'digits' : 'words', n);
  const noun = unit === 'hour' ? `${pick(r, ['', hz(lang, '个', '個')])}${hz(lang, '小时', '小時')}` : unit === 'minute' ? hz(lang, '分钟', '分鐘') : unit === 'half' ? `${pick(r, ['', hz(lang, '个', '個')])}半${hz(lang, '小时', '小時')}` : `${hz(lang, '个', '個')}${number(r, lang, style, 10)}${hz(lang, '分钟', '分鐘')}`;
  return { phrase: `${pick(r, ['', '在'])}第${N}${noun}`, expected };
}

function after(r: R, lang: TimeLang, style: Style): Made {
  const p = point(r, lang, style);
  const expected = { startS: p.s, endS: null };
  if (lang === 'en') {
    const f = pick(r, [...(p.dur ? ['after about {P}', 'after roughly {P}', 'after around {P}'] : []), 'after {P}', 'after {P}', 'past {P}', 'from {P} on', 'from {P} onwards', 'beyond {P}', 'since {P}', 'starting at {P}', 'later than {P}']);
    return { phrase: f.replace('{P}', p.text), expected };
  }
  if (lang === 'es') {
    const f = pick(r, [...(p.dur && /^\S+ minutos$/.test(p.text) ? ['después de unos {P}', 'tras unos {P}'] : []), 'después {DE}', 'después {DE}', 'a partir {DE}', 'desde {P} en adelante', ...(esDeOk(p) ? ['{DE} en adelante', 'pasado {P}'] : ['pasados {P}', 'transcurridos {P}']), 'tras {P}', 'luego {DE}', 'más allá {DE}']);
    return { phrase: f.replace('{DE}', esDe(p)).replace('{P}', p.text), expected };
  }
  const f = pick(r, [...(p.dur ? ['大约{P}以后', '大概{P}之后'] : []), '{P}以后', '{P}之后', '{P}后', '从{P}开始', '{P}起', '从{P}起', '{P}开始']);
  const hant = { 以后: '以後', 之后: '之後', 后: '後', 从: '從', 开始: '開始', 起: '起', 大约: '大約' } as Record<string, string>;
  const w = lang === 'zh-Hant' ? f.replace(/以后|之后|后|从|开始|大约/g, (m) => hant[m]!) : f;
  return { phrase: w.replace('{P}', p.text), expected };
}

function before(r: R, lang: TimeLang, style: Style): Made {
  const p = point(r, lang, style);
  const expected = { startS: 0, endS: p.s };
  if (lang === 'en') return { phrase: pick(r, ['before {P}', 'before {P}', 'until {P}', 'up to {P}', 'prior to {P}', 'up until {P}']).replace('{P}', p.text), expected };
  if (lang === 'es') return { phrase: pick(r, ['antes {DE}', 'antes {DE}', 'hasta {P}']).replace('{DE}', esDe(p)).replace('{P}', p.text), expected };
  const f = pick(r, ['{P}以前', '{P}之前', '{P}前', '到{P}为止', '直到{P}为止']);
  return { phrase: (lang === 'zh-Hant' ? f.replace('为止', '為止') : f).replace('{P}', p.text), expected };
}

function range(r: R, lang: TimeLang, style: Style): Made {
  const kind = pick(r, ['clock', 'clock', 'minutes', 'points']);
  let a: number;
  let b: number;
  let phrase: string;
  if (kind === 'clock') {
    a = int(r, 0, 100 * 60);
    b = a + int(r, 30, 20 * 60);
    const A = clock(r, a);
    const B = clock(r, b);
    if (lang === 'en') phrase = pick(r, [`between timestamps ${A} and ${B}`, `between ${A} & ${B}`, `between ${A} and ${B}`, `from ${A} to ${B}`, `from ${A} until ${B}`, `${A}–${B}`, `${A} - ${B}`, `${A} to ${B}`, `${A}-${B}`]);
    else if (lang === 'es') phrase = pick(r, [`entre ${A} y ${B}`, `de ${A} a ${B}`, `desde ${A} hasta ${B}`, `${A}–${B}`, `${A} - ${B}`]);
    else phrase = pick(r, [`${hz(lang, '从', '從')}${A}到${B}`, `${A}到${B}`, `${A}至${B}`, `${A}~${B}`, `${A}-${B}`, `在${A}${pick(r, ['和', hz(lang, '与', '與')])}${B}${hz(lang, '之间', '之間')}`, `${A}到${B}${hz(lang, '之间', '之間')}`]);
  } else if (kind === 'minutes') {
    const x = int(r, 1, 80);
    const y = x + int(r, 1, 30);
    a = x * 60;
    b = y * 60;
    const X = number(r, lang, style, x, 'n');
    const Y = number(r, lang, style, y, 'n');
    if (lang === 'en') phrase = pick(r, [`minutes ${x}-${y}`, `during minutes ${X} to ${Y}`, `between minute ${X} and ${Y}`, `between minutes ${X} and ${Y}`, `between minute ${X} and minute ${Y}`, `from minute ${X} to minute ${Y}`, `from minute ${X} to ${Y}`, `between ${X} and ${Y} minutes`, `from ${X} to ${Y} minutes`, `between the ${x}-minute mark and the ${y}-minute mark`]);
    else if (lang === 'es') phrase = pick(r, [`entre el minuto ${X} y el ${Y}`, `entre el minuto ${X} y el minuto ${Y}`, `entre los minutos ${X} y ${Y}`, `del minuto ${X} al ${Y}`, `del minuto ${X} al minuto ${Y}`, `desde el minuto ${X} hasta el ${Y}`, `desde el minuto ${X} hasta el minuto ${Y}`, `entre ${X} y ${Y} minutos`]);
    else {
      const fen = pick(r, [hz(lang, '分钟', '分鐘'), '分']);
      phrase = pick(r, [`第${X}到${Y}${fen}`, `第${X}到第${Y}${fen}`, `${X}到${Y}${fen}`, `${X}至${Y}${fen}`, `${hz(lang, '从', '從')}第${X}${fen}到第${Y}${fen}`, `${X}${fen}到${Y}${fen}${hz(lang, '之间', '之間')}`, `在${X}${fen}${pick(r, ['和', hz(lang, '与', '與')])}${Y}${fen}${hz(lang, '之间', '之間')}`, `${X}-${Y}${fen}`]);
    }
  } else {
    const pa = point(r, lang, style, 70);
    let pb = point(r, lang, style, 140);
    for (let k = 0; k < 10 && pb.s <= pa.s + 30; k++) pb = point(r, lang, style, 140);
    a = pa.s;
    b = pb.s;
    if (lang === 'en') phrase = pick(r, [`from ${pa.text} to ${pb.text}`, `between ${pa.text} and ${pb.text}`, `from ${pa.text} until ${pb.text}`]);
    else if (lang === 'es') phrase = pick(r, [`desde ${pa.text} hasta ${pb.text}`, `entre ${pa.text} y ${pb.text}`, ...(esDeOk(pa) && esDeOk(pb) ? [`${esDe(pa)} ${esA(pb)}`] : [])]);
    else phrase = `${hz(lang, '从', '從')}${pa.text}到${pb.text}`;
  }
  return { phrase, expected: { startS: Math.min(a, b), endS: Math.max(a, b) } };
}

function openEnd(r: R, lang: TimeLang, style: Style): Made {
  const p = point(r, lang, style);
  const expected = { startS: p.s, endS: null };
  if (lang === 'en') return { phrase: `from ${p.text} ${pick(r, ['until the end', 'to the end', 'till the end', 'through the end', 'until the end of the video'])}`, expected };
  if (lang === 'es') return { phrase: pick(r, [`desde ${p.text} hasta el final`, `desde ${p.text} hasta el fin`, ...(esDeOk(p) ? [`${esDe(p)} hasta el final`, `${esDe(p)} al final`, `a partir ${esDe(p)} hasta el final`] : [])]), expected };
  const end = pick(r, [hz(lang, '结束', '結束'), hz(lang, '最后', '最後'), hz(lang, '结尾', '結尾')]);
  return { phrase: `${pick(r, [hz(lang, '从', '從'), ''])}${p.text}${pick(r, ['到', '一直到', '直到'])}${end}`, expected };
}

function fromStart(r: R, lang: TimeLang, style: Style): Made {
  const p = point(r, lang, style);
  const expected = { startS: 0, endS: p.s };
  if (lang === 'en') return { phrase: `from the ${pick(r, ['start', 'beginning', 'outset'])} ${pick(r, ['to', 'until', 'up to'])} ${p.text}`, expected };
  if (lang === 'es') return { phrase: `desde el ${pick(r, ['principio', 'inicio', 'comienzo'])} hasta ${p.text}`, expected };
  return { phrase: `${hz(lang, '从', '從')}${pick(r, [hz(lang, '开头', '開頭'), hz(lang, '开始', '開始'), hz(lang, '开场', '開場')])}到${p.text}`, expected };
}

function part(r: R, lang: TimeLang): Made {
  const total = int(r, 20, 150) * 60;
  const which = pick(r, ['firstHalf', 'secondHalf', 'secondHalf', 'lastThird', 'lastThird', 'firstQuarter', 'lastQuarter']);
  const [a, b] = { firstHalf: [0, 0.5], secondHalf: [0.5, 1], lastThird: [2 / 3, 1], firstQuarter: [0, 0.25], lastQuarter: [0.75, 1] }[which]!;
  const expected = { startS: a! * total, endS: b! * total };
  let phrase: string;
  if (lang === 'en') {
    phrase = {
      firstHalf: pick(r, ['the first half', 'the first half of the meeting', 'the first half of the video']),
      secondHalf: pick(r, ['the second half', 'the latter half', 'the second half of the episode', 'the last half']),
      lastThird: pick(r, ['the final part', 'the last part', 'the closing part', 'the last third', 'the final third of the talk']),
      firstQuarter: pick(r, ['the first quarter', 'the first quarter of the meeting']),
      lastQuarter: pick(r, ['the last quarter', 'the final quarter of the video']),
    }[which]!;
    phrase = `${pick(r, ['in ', 'during ', ''])}${phrase}`;
  } else if (lang === 'es') {
    phrase = {
      firstHalf: 'la primera mitad',
      secondHalf: pick(r, ['la segunda mitad', 'la segunda parte']),
      lastThird: pick(r, ['la parte final', 'la última parte', 'el último tercio']),
      firstQuarter: pick(r, ['el primer cuarto', 'el primer cuarto del episodio']),
      lastQuarter: pick(r, ['el último cuarto', 'el último cuarto del vídeo']),
    }[which]!;
    phrase = `${pick(r, ['en ', 'durante ', ''])}${phrase}`;
  } else {
    phrase = {
      firstHalf: pick(r, ['前半段', hz(lang, '上半场', '上半場'), '前半部分', hz(lang, '前一半', '前一半')]),
      secondHalf: pick(r, [hz(lang, '后半段', '後半段'), hz(lang, '下半场', '下半場'), hz(lang, '后半部分', '後半部分'), hz(lang, '后一半', '後一半')]),
      lastThird: pick(r, [hz(lang, '结尾部分', '結尾部分'), hz(lang, '最后一部分', '最後一部分'), hz(lang, '最后部分', '最後部分'), hz(lang, '最后三分之一', '最後三分之一')]),
      firstQuarter: '前四分之一',
      lastQuarter: hz(lang, '最后四分之一', '最後四分之一'),
    }[which]!;
  }
  return { phrase, expected, durationS: total };
}

function at(r: R, lang: TimeLang, style: Style): Made {
  const useClock = r() < 0.6;
  const s = useClock ? int(r, 60, 100 * 60) : int(r, 1, 100) * 60;
  const expected = { startS: Math.max(0, s - 30), endS: s + 30 };
  const C = clock(r, s);
  const M = number(r, lang, style, s / 60, 'n');
  if (lang === 'en') return { phrase: useClock ? pick(r, [`at ${C}`, `around ${C}`, `at the ${C} mark`, `near ${C}`]) : pick(r, [`at minute ${M}`, `around minute ${M}`, `around the ${s / 60}-minute mark`, `at the ${s / 60} minute mark`, `${M} minutes into the ${pick(r, ['video', 'meeting', 'episode'])}`]), expected };
  if (lang === 'es') return { phrase: useClock ? pick(r, [`en ${C}`, `alrededor de ${C}`, `hacia ${C}`, `en el ${C}`]) : pick(r, [`en el minuto ${M}`, `alrededor del minuto ${M}`, `hacia el minuto ${M}`, `sobre el minuto ${M}`]), expected };
  const fen = hz(lang, '分钟', '分鐘');
  return { phrase: useClock ? pick(r, [`在${C}`, `${C}左右`, `在${C}${hz(lang, '的时候', '的時候')}`, `${C}${hz(lang, '处', '處')}`]) : pick(r, [`第${M}${fen}左右`, `在第${M}${fen}${hz(lang, '的时候', '的時候')}`, `${M}${fen}左右`]), expected };
}

/** Questions whose numbers are no times: null expected. */
function negative(r: R, lang: TimeLang, style: Style): Made {
  const n = int(r, 2, 9);
  const N = number(r, lang, style, n, 'm');
  const Z = number(r, lang, style, n, 'n', true);
  const phrase =
    lang === 'en'
      ? pick(r, [`after ${N} goals`, `the first ${N} speakers`, `between ${n} and ${n + 3} people`, `the second speaker`, `the top ${n} comments`, `a ${n * 10}-second clip`, `in 20${10 + n}`, `more than ${n * 100} likes`, `the last ${N} questions`, `the first few minutes`, `from ${n} to ${n + 4} participants`, `before ${N} votes`])
      : lang === 'es'
        ? pick(r, [`más de ${n * 100} comentarios`, `los primeros ${N} oradores`, `después de ${N} goles`, `entre ${n} y ${n + 3} personas`, `el segundo invitado`, `un clip de ${n * 10} segundos`, `en 20${10 + n}`, `los últimos ${N} comentarios`, `de ${n} a ${n + 4} participantes`, `antes de ${N} votos`])
        : pick(r, [`前${Z}${hz(lang, '个人', '個人')}`, `第二${hz(lang, '个问题', '個問題')}`, `${hz(lang, '最后', '最後')}${Z}${hz(lang, '条评论', '條評論')}`, `${hz(lang, '超过', '超過')}${n * 100}${hz(lang, '个赞', '個讚')}`, `${n * 10}${hz(lang, '秒的片段', '秒的片段')}`, `20${10 + n}${hz(lang, '年以后', '年以後')}`, `${hz(lang, '第三位嘉宾', '第三位嘉賓')}`, `${Z}${hz(lang, '个观点之后', '個觀點之後')}`]);
  return { phrase, expected: null };
}

const FORMS: Record<string, { weight: number; make: (r: R, lang: TimeLang, style: Style) => Made }> = {
  first: { weight: 3, make: first },
  last: { weight: 2, make: last },
  nth: { weight: 1, make: nth },
  after: { weight: 3, make: after },
  before: { weight: 2, make: before },
  range: { weight: 4, make: range },
  openEnd: { weight: 2, make: openEnd },
  fromStart: { weight: 1, make: fromStart },
  part: { weight: 1, make: (r, lang) => part(r, lang) },
  at: { weight: 2, make: at },
  negative: { weight: 2, make: negative },
};

// ---------------------------------------------------------------------------
// Questions around the phrase
// ---------------------------------------------------------------------------

const QUESTIONS: Record<TimeLang, readonly string[]> = {
  en: [
    'What did they say about the budget {T}?',
    '{T}, what was the main argument?',
    'Summarize the discussion {T}.',
    'Which topics come up {T}?',
    'Who spoke the most {T}?',
    'Did anyone mention the new product {T}?',
    'Give me the key points {T}, please.',
    'How did the host react {T}?',
  ],
  es: [
    '¿De qué hablan {T}?',
    '¿Qué dijo el invitado sobre la economía {T}?',
    'Resume la conversación {T}.',
    '{T}, ¿cuál fue el tema principal?',
    '¿Quién habló más {T}?',
    '¿Se menciona el presupuesto {T}?',
    'Dame los puntos clave {T}, por favor.',
  ],
  'zh-Hans': ['{T}主持人介绍了什么？', '{T}他们讨论了哪些话题？', '请总结{T}的内容。', '{T}有没有提到预算？', '{T}谁说得最多？', '嘉宾{T}说了什么？'],
  'zh-Hant': ['{T}主持人介紹了什麼？', '{T}他們討論了哪些話題？', '請總結{T}的內容。', '{T}有沒有提到預算？', '{T}誰說得最多？', '嘉賓{T}說了什麼？'],
};

function embed(r: R, lang: TimeLang, phrase: string): string {
  const q = pick(r, QUESTIONS[lang]);
  const text = q.replace('{T}', phrase);
  return q.startsWith('{T}') ? capital(text) : text;
}

/**
 * `perLanguage` cases for each language (half standalone, half in a question), the same for the same `seed`.
 * @example generateTimeCases({ seed: 1, perLanguage: 1000 }) // 4,000 cases
 */
export function generateTimeCases(opts: { seed: number; perLanguage: number; langs?: readonly TimeLang[] }): TimeCase[] {
  const r = rng(opts.seed);
  const names = Object.keys(FORMS);
  const bag = names.flatMap((n) => Array.from({ length: FORMS[n]!.weight }, () => n));
  const out: TimeCase[] = [];
  for (const lang of opts.langs ?? TIME_LANGS) {
    for (let k = 0; k < opts.perLanguage; k++) {
      const form = pick(r, bag);
      const style: Style = r() < 0.5 ? 'digits' : 'words';
      const made = FORMS[form]!.make(r, lang, style);
      const embedded = k % 2 === 1;
      const phrase = made.phrase;
      out.push({
        lang,
        form,
        phrase,
        text: embedded ? embed(r, lang, phrase) : phrase,
        embedded,
        ...(made.durationS !== undefined ? { durationS: made.durationS } : {}),
        expected: made.expected,
      });
    }
  }
  return out;
}

/** Both ends within `toleranceS` (open ends both null); null matches null. */
export function sameTime(got: { startS: number; endS: number | null } | null | undefined, want: TimeCase['expected'], toleranceS = 5): boolean {
  if (!want || !got) return !want && !got;
  if (Math.abs(got.startS - want.startS) > toleranceS) return false;
  if (want.endS === null || got.endS === null) return want.endS === null && got.endS === null;
  return Math.abs(got.endS - want.endS) <= toleranceS;
}

/** `n` written out in `lang` by the generator's own rules: English or Spanish words, Chinese numerals (2 as 两/兩 when `counted`). */
export function writtenNumber(lang: TimeLang, n: number, opts: { seed?: number; counted?: boolean; gender?: 'm' | 'f' | 'n' } = {}): string {
  return number(rng(opts.seed ?? 1), lang, 'words', n, opts.gender ?? 'n', opts.counted ?? false);
}

/** Puts `phrase` into one of the language's questions (the phrase's place in it is `text.indexOf(phrase)`, case aside). */
export function inQuestion(lang: TimeLang, phrase: string, seed: number): string {
  return embed(rng(seed), lang, phrase);
}

/** A clock as the generator writes it: `m:ss` or `h:mm:ss`. */
export function writtenClock(s: number, seed = 1): string {
  return clock(rng(seed), s);
}
