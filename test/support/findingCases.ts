/**
 * Generated findings about generated spans, for the finding support check (issue 20): in English,
 * Spanish and Chinese, a span is a speaker's sentence about four words of one of two disjoint
 * vocabularies with a number written one way (words, thousands separators, a decimal point or
 * comma, a percentage, a year); its findings restate it with the number written another way
 * (supported), with the number changed (unsupported), or are another item's claim with the same
 * number (unsupported: no words in common). Seeded: the same seed gives the same cases.
 */
import type { CitedText } from '../../src/core/research/findingSupport';
import { rng } from './testing';

export type Lang = 'en' | 'es' | 'zh';

/** Two disjoint vocabularies per language: a finding from one about a span from the other shares no content word. */
export const VOCAB: Record<Lang, [string[], string[]]> = {
  en: [
    ['battery', 'charger', 'winter', 'tyres', 'heating', 'motorway', 'engine', 'garage', 'cable', 'station', 'highway', 'coolant'],
    ['council', 'bicycle', 'lanes', 'budget', 'parking', 'district', 'pavement', 'commuters', 'helmets', 'junction', 'traffic', 'mayor'],
  ],
  es: [
    ['batería', 'cargador', 'invierno', 'neumáticos', 'calefacción', 'autopista', 'motor', 'garaje', 'cable', 'estación', 'carretera', 'radiador'],
    ['ayuntamiento', 'bicicleta', 'carriles', 'presupuesto', 'aparcamiento', 'distrito', 'acera', 'ciclistas', 'cascos', 'cruce', 'tráfico', 'alcaldesa'],
  ],
  zh: [
    ['电池', '充电', '冬季', '轮胎', '暖气', '高速', '发动', '车库', '电缆', '车站', '公路', '冷却'],
    ['议会', '单车', '车道', '预算', '停车', '街区', '人行', '通勤', '头盔', '路口', '交通', '市长'],
  ],
};

const EN_UNITS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ES_UNITS = ['', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];
const ES_VEINTI = ['veinte', 'veintiuno', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const ES_TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const ZH_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** 21–99 in words. */
export function words(n: number, lang: Lang): string {
  const t = Math.floor(n / 10);
  const u = n % 10;
  if (lang === 'en') return u ? `${EN_TENS[t]} ${EN_UNITS[u]}` : EN_TENS[t]!;
  if (lang === 'es') return t === 2 ? ES_VEINTI[u]! : u ? `${ES_TENS[t]} y ${ES_UNITS[u]}` : ES_TENS[t]!;
  return `${t === 1 ? '' : ZH_DIGITS[t]}十${u ? ZH_DIGITS[u] : ''}`;
}

/** 1000–9999 with a thousands separator ("1,200", "1.200", "1 200"). */
function grouped(n: number, sep: string): string {
  return `${Math.floor(n / 1000)}${sep}${String(n % 1000).padStart(3, '0')}`;
}

/** One way of writing a number in a span and another in a finding, with the unit both use. */
export interface NumberForm {
  value: number;
  span: string;
  finding: string;
  /** The finding's number with another value, written the finding's way. */
  changed: string;
  unit: string;
}

/**
 * The number forms of a language: words ↔ digits, thousands separators, decimal point ↔ comma,
 * percentages, a year. The values of one call, and their changed values, are all distinct (an
 * item made of one call's sentences never states a changed value anywhere).
 */
export function numberForms(lang: Lang, r: () => number): NumberForm[] {
  const int = (a: number, b: number): number => a + Math.floor(r() * (b - a + 1));
  const n2 = int(21, 99);
  const step = int(1, 9);
  const other2 = n2 + step > 99 ? n2 - step : n2 + step;
  const thousands = int(2, 9);
  // Above every year, and in another thousand than the Chinese round thousands.
  let n4 = int(2100, 9800);
  if (Math.floor(n4 / 1000) === thousands) n4 = ((n4 + 1000) % 8000) + 2000;
  const other4 = n4 + int(1, 90);
  // A decimal with a nonzero tenth ("4.9"), changed to another nonzero tenth ("4.1"): never a whole number.
  let d = int(11, 98);
  if (d % 10 === 0) d++;
  const dec = `${Math.floor(d / 10)}.${d % 10}`;
  const decOther = `${Math.floor(d / 10)}.${((d % 10) % 9) + 1}`;
  const year = int(1990, 2024);
  const yearOther = year + int(1, 5);
  if (lang === 'zh') {
    return [
      { value: n2, span: `${words(n2, 'zh')}个人`, finding: `${n2}个人`, changed: `${other2}个人`, unit: '' },
      { value: thousands * 1000, span: `${thousands === 2 ? '两' : ZH_DIGITS[thousands]}千元`, finding: `${thousands * 1000}元`, changed: `${thousands * 1000 + 500}元`, unit: '' },
      { value: n2, span: `百分之${words(n2, 'zh')}`, finding: `${n2}%`, changed: `${other2}%`, unit: '' },
      { value: n4, span: `${grouped(n4, ',')}公里`, finding: `${n4}公里`, changed: `${other4}公里`, unit: '' },
      { value: d / 10, span: `${dec}公里`, finding: `${dec}公里`, changed: `${decOther}公里`, unit: '' },
      { value: year, span: `${year}年`, finding: `${year}年`, changed: `${yearOther}年`, unit: '' },
    ];
  }
  const sep = lang === 'en' ? ',' : '.';
  const comma = (x: string): string => x.replace('.', ',');
  const percent = lang === 'en' ? 'percent' : 'por ciento';
  const people = lang === 'en' ? 'people' : 'personas';
  const km = lang === 'en' ? 'kilometres' : 'kilómetros';
  const euros = 'euros';
  return [
    { value: n2, span: `${words(n2, lang)} ${people}`, finding: `${n2} ${people}`, changed: `${other2} ${people}`, unit: people },
    { value: n4, span: `${grouped(n4, sep)} ${euros}`, finding: `${grouped(n4, ' ')} ${euros}`, changed: `${grouped(other4, ' ')} ${euros}`, unit: euros },
    { value: n4, span: `${grouped(n4, sep)} ${km}`, finding: `${n4} ${km}`, changed: `${other4} ${km}`, unit: km },
    { value: d / 10, span: `${lang === 'en' ? dec : comma(dec)} ${km}`, finding: `${lang === 'en' ? comma(dec) : dec} ${km}`, changed: `${lang === 'en' ? comma(decOther) : decOther} ${km}`, unit: km },
    { value: n2, span: `${words(n2, lang)} ${percent}`, finding: `${n2} %`, changed: `${other2} %`, unit: percent },
    { value: year, span: `${lang === 'en' ? 'in' : 'en'} ${year}`, finding: `${lang === 'en' ? 'in' : 'en'} ${year}`, changed: `${lang === 'en' ? 'in' : 'en'} ${yearOther}`, unit: '' },
  ];
}

/** `n` distinct elements of `xs`, drawn with `r`. */
export function pick<T>(xs: readonly T[], r: () => number, n: number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(r() * pool.length), 1)[0]!);
  return out;
}

/** A span's sentence about four words of a vocabulary, with a number. */
export function spanSentence(lang: Lang, w: string[], num: string): string {
  if (lang === 'en') return `Well, I think the ${w[0]} and the ${w[1]} changed a lot: we measured ${num} for the ${w[2]} near the ${w[3]} last month.`;
  if (lang === 'es') return `Bueno, yo creo que el ${w[0]} y la ${w[1]} cambiaron mucho: medimos ${num} para el ${w[2]} cerca de la ${w[3]} el mes pasado.`;
  return `我觉得${w[0]}和${w[1]}变化很大，上个月我们在${w[3]}附近给${w[2]}测了${num}。`;
}

/** A finding restating it (other words around the same content words). */
export function findingSentence(lang: Lang, w: string[], num: string): string {
  if (lang === 'en') return `The ${w[2]} near the ${w[3]} measured ${num}, with the ${w[0]} and ${w[1]} changing.`;
  if (lang === 'es') return `El ${w[2]} cerca de la ${w[3]}: ${num}, con cambios en ${w[0]} y ${w[1]}.`;
  return `${w[3]}附近的${w[2]}测了${num}，${w[0]}和${w[1]}变化大。`;
}

/** Another item's claim: another sentence, about other words. */
export function foreignSentence(lang: Lang, v: string[], num: string): string {
  if (lang === 'en') return `The ${v[0]} and ${v[1]} of the ${v[2]} hit ${num} beside the ${v[3]}.`;
  if (lang === 'es') return `Los ${v[0]} y ${v[1]} del ${v[2]} llegaron a ${num} junto al ${v[3]}.`;
  return `${v[0]}与${v[1]}的${v[2]}在${v[3]}旁达到${num}。`;
}

/** A sentence of another item with no number. */
export function plainSentence(lang: Lang, v: string[]): string {
  if (lang === 'en') return `People argued about the ${v[0]}, the ${v[1]} and the ${v[2]} for a while.`;
  if (lang === 'es') return `La gente discutió un rato sobre el ${v[0]}, la ${v[1]} y el ${v[2]}.`;
  return `大家讨论了一会儿${v[0]}、${v[1]}和${v[2]}。`;
}

export interface Case {
  lang: Lang;
  span: CitedText;
  /** A span of another item, without numbers. */
  noise: CitedText;
  good: string;
  changed: string;
  changedNumber: string;
  foreign: string;
}

/** The cases of one item: a sentence per number form, about words of vocabulary `side` (its foreign claims from the other). */
export function itemCases(lang: Lang, side: 0 | 1, r: () => number): Case[] {
  return numberForms(lang, r).map((form) => {
    const w = pick(VOCAB[lang][side], r, 4);
    const v = pick(VOCAB[lang][1 - side]!, r, 4);
    return {
      lang,
      span: { text: spanSentence(lang, w, form.span), labels: `Speaker ${1 + Math.floor(r() * 9)} 0:${10 + Math.floor(r() * 49)}` },
      good: findingSentence(lang, w, form.finding),
      changed: findingSentence(lang, w, form.changed),
      changedNumber: form.changed,
      // Another item's claim, with the very number the span has: only its words give it away.
      foreign: foreignSentence(lang, v, form.finding),
      noise: { text: plainSentence(lang, v) },
    };
  });
}

/** Cases for every language and number form, `rounds` times each, from one seed. */
export function cases(seed: number, rounds: number): Case[] {
  const r = rng(seed);
  const out: Case[] = [];
  for (let k = 0; k < rounds; k++) for (const lang of ['en', 'es', 'zh'] as const) out.push(...itemCases(lang, k % 2 === 0 ? 0 : 1, r));
  return out;
}

