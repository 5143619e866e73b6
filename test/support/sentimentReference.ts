/**
 * Pre-optimisation reference of src/core/markers/sentiment.ts (polarity, sentimentLanguage), copied
 * verbatim before its fast path, kept only for the equivalence tests (test/unit/sentimentFastPath.test.ts):
 * the optimised functions must return exactly what these return. Do not change or optimise this copy.
 */
/**
 * Lexicon sentiment of comments in English, Spanish and Chinese, with
 * negation: "not good", "no me gusta", "不喜欢" are negative, "not bad",
 * "no está mal", "不差" positive. One point per sentiment word (or emoji),
 * its sign flipped when a negator of the comment's language stands shortly
 * before it.
 *
 * @example
 * polarity('Not good at all') // -1
 * polarity('No está nada mal, me encanta') // 2
 * polarity('我不太喜欢这个视频') // -1
 */
import {
  LIKE_AFTER_EN, NEGATIVE_EMOJI, NEGATIVE_EN, NEGATIVE_ES, NEGATIVE_ZH, NEGATORS_EN, NEGATORS_ES, NEGATORS_ZH, NEUTRAL_ZH, PHRASES_EN, PHRASES_ES,
  POSITIVE_EMOJI, POSITIVE_EN, POSITIVE_ES, POSITIVE_ZH,
} from '../../src/core/markers/commentLexicons';
import type { CommentsSummary } from '../../src/core/markers/schema';

export type SentimentLanguage = 'en' | 'es' | 'zh';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/gu;

/** Lower-case, accents removed ("Increíble" → "increible"), apostrophes dropped ("don't" → "dont"). */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '');
}

const fromList = (words: readonly string[]): Map<string, number> => new Map(words.map((w) => [fold(w), 0]));
const LEX: Record<'en' | 'es', { pos: Map<string, number>; neg: Map<string, number>; negators: Set<string>; phrases: readonly [string, number][] }> = {
  en: { pos: fromList(POSITIVE_EN), neg: fromList(NEGATIVE_EN), negators: new Set(NEGATORS_EN.map(fold)), phrases: PHRASES_EN.map(([p, v]) => [fold(p), v] as [string, number]) },
  es: { pos: fromList(POSITIVE_ES), neg: fromList(NEGATIVE_ES), negators: new Set(NEGATORS_ES.map(fold)), phrases: PHRASES_ES.map(([p, v]) => [fold(p), v] as [string, number]) },
};
/** The idioms each language reads, its own first, each padded with spaces as it is looked for. */
const IDIOMS: Record<'en' | 'es', readonly { padded: string; length: number; value: number }[]> = {
  en: [...LEX.en.phrases, ...LEX.es.phrases].map(([p, v]) => ({ padded: ` ${p} `, length: p.length, value: v })),
  es: [...LEX.es.phrases, ...LEX.en.phrases].map(([p, v]) => ({ padded: ` ${p} `, length: p.length, value: v })),
};
const LIKE_AFTER = new Set(LIKE_AFTER_EN);
const CONTRAST = new Set(['but', 'however', 'pero', 'aunque', 'sino']);

/** Spanish function words and letters: enough of them and a Latin-script comment is Spanish. */
const ES_CUES = new Set(['que', 'de', 'el', 'la', 'los', 'las', 'es', 'muy', 'y', 'pero', 'por', 'para', 'con', 'una', 'un', 'lo', 'se', 'me', 'mi', 'te', 'su', 'mas', 'esta', 'este', 'como', 'del', 'al', 'tan', 'eso', 'esto', 'hay', 'son', 'gracias', 'buen', 'bueno']);
const EN_CUES = new Set(['the', 'is', 'and', 'to', 'of', 'it', 'this', 'that', 'you', 'i', 'was', 'for', 'with', 'but', 'not', 'my', 'so', 'very', 'are', 'be', 'have', 'in', 'on', 'they', 'he', 'she', 'what', 'just', 'its', 'im', 'dont', 'love', 'song']);

/** The language of a comment for the sentiment lexicons: Chinese by script, Spanish or English by function words and ñ/¿/¡/accents. */
export function sentimentLanguage(text: string): SentimentLanguage {
  const han = text.match(HAN)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (CJK.test(text) && han >= latin / 4) return 'zh';
  let es = /[ñ¿¡]|[áéíóú]/iu.test(text) ? 1 : 0;
  let en = 0;
  for (const w of fold(text).match(/\p{L}+/gu) ?? []) {
    if (ES_CUES.has(w)) es++;
    if (EN_CUES.has(w)) en++;
  }
  return es > en ? 'es' : 'en';
}

function scoreLatin(text: string, lang: 'en' | 'es'): number {
  const primary = LEX[lang];
  const other = LEX[lang === 'en' ? 'es' : 'en'];
  let t = ` ${fold(text).replace(/\s+/g, ' ')} `;
  let score = 0;
  // Idioms first; their words then no longer count.
  for (const { padded, length, value } of IDIOMS[lang]) {
    const at = t.indexOf(padded);
    if (at < 0) continue;
    score += value;
    t = `${t.slice(0, at)} , ${t.slice(at + length + 2)}`;
  }
  // Tokens and clause breaks: punctuation and "but/pero" end a negation's reach.
  const tokens = t.match(/\p{L}+|[.,;:!?¡¿()\n]+|\p{Extended_Pictographic}|[♥❤]/gu) ?? [];
  let negatedFor = 0;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!;
    if (/^[.,;:!?¡¿()\n]+$/.test(w) || CONTRAST.has(w)) {
      negatedFor = 0;
      continue;
    }
    if (primary.negators.has(w)) {
      negatedFor = 3;
      continue;
    }
    let v = 0;
    if (primary.pos.has(w) || other.pos.has(w)) v = 1;
    else if (primary.neg.has(w) || other.neg.has(w)) v = -1;
    else if (w === 'like' && i > 0 && (LIKE_AFTER.has(tokens[i - 1]!) || primary.negators.has(tokens[i - 1]!))) v = 1;
    else if (POSITIVE_EMOJI.some((e) => w.startsWith(e))) v = 1;
    else if (NEGATIVE_EMOJI.some((e) => w.startsWith(e))) v = -1;
    if (v !== 0) {
      score += negatedFor > 0 ? -v : v;
      negatedFor = 0;
    } else if (negatedFor > 0) negatedFor--;
  }
  return score;
}

/** Chinese entries, longest first, each with its value (neutral words 0). */
const ZH_ENTRIES: readonly [string, number][] = [
  ...NEUTRAL_ZH.map((w) => [w, 0] as [string, number]),
  ...POSITIVE_ZH.map((w) => [w, 1] as [string, number]),
  ...NEGATIVE_ZH.map((w) => [w, -1] as [string, number]),
].sort((a, b) => b[0].length - a[0].length);
const ZH_NEGATION_BEFORE = new RegExp(`(?:${[...NEGATORS_ZH].sort((a, b) => b.length - a.length).join('|')})(?:太|很|是|是很|够|怎么|那么|算|大|再|会|也)?$`, 'u');

function scoreChinese(text: string): number {
  let score = 0;
  for (let i = 0; i < text.length; ) {
    const hit = ZH_ENTRIES.find(([w]) => text.startsWith(w, i));
    if (!hit) {
      const ch = text.codePointAt(i)!;
      const c = String.fromCodePoint(ch);
      if (POSITIVE_EMOJI.includes(c)) score++;
      else if (NEGATIVE_EMOJI.includes(c)) score--;
      i += c.length;
      continue;
    }
    const [w, v] = hit;
    if (v !== 0) {
      // A negator right before the word flips it, unless the word carries its own ("不错", "不好", "没用").
      const before = text.slice(Math.max(0, i - 5), i);
      const negated = !/^[不没无别]/u.test(w) && ZH_NEGATION_BEFORE.test(before);
      score += negated ? -v : v;
    }
    i += w.length;
  }
  return score;
}

const MAX_CHARS = 5_000;

/**
 * Lexicon polarity of a comment: positive > 0, negative < 0, one point per
 * sentiment word or emoji, flipped under negation, read over the first 5,000
 * characters. `lang` defaults to {@link sentimentLanguage}.
 */
export function polarity(text: string, lang?: SentimentLanguage): number {
  // Bounded work: a comment's first 5,000 characters carry its sentiment.
  const t = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  const l = lang ?? sentimentLanguage(t);
  return l === 'zh' ? scoreChinese(t) : scoreLatin(t, l);
}

/** mostly_positive / mostly_negative when ≥ 60 % of the likes-weighted opinionated comments lean that way, else mixed. */
export function sentimentOf(comments: readonly { text: string; likes?: number }[]): CommentsSummary['sentiment_overview'] {
  let pos = 0;
  let neg = 0;
  for (const c of comments) {
    const p = polarity(c.text);
    const w = 1 + Math.log1p(c.likes ?? 0);
    if (p > 0) pos += w;
    else if (p < 0) neg += w;
  }
  if (pos + neg === 0) return 'mixed';
  if (pos / (pos + neg) >= 0.6) return 'mostly_positive';
  if (neg / (pos + neg) >= 0.6) return 'mostly_negative';
  return 'mixed';
}
