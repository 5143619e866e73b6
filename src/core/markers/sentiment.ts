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
 *
 * Read for speed (the Ask clip strategy scores thousands of turns a question), with the results of
 * the plain definition kept in test/support/sentimentReference.ts (equal on every text, checked by
 * test/unit/sentimentFastPath.test.ts): the code points' classes come from a table filled as they are
 * met; the language guess counts them in one pass; the text is folded once for the guess and the
 * score; its tokens are read from the classes and looked up by hash where they stand; the idioms are
 * searched only when two consecutive tokens begin one; the Chinese entries are tried by first character.
 */
import {
  LIKE_AFTER_EN, NEGATIVE_EMOJI, NEGATIVE_EN, NEGATIVE_ES, NEGATIVE_ZH, NEGATORS_EN, NEGATORS_ES, NEGATORS_ZH, NEUTRAL_ZH, PHRASES_EN, PHRASES_ES,
  POSITIVE_EMOJI, POSITIVE_EN, POSITIVE_ES, POSITIVE_ZH,
} from './commentLexicons';
import type { CommentsSummary } from './schema';

export type SentimentLanguage = 'en' | 'es' | 'zh';

/** Per code point, what the language guess and the tokenizer need to know of it. */
const IS_HAN = 1;
const IS_LATIN = 2;
/** Han, Hiragana or Katakana. */
const IS_CJK = 4;
/** ñ ¿ ¡ á é í ó ú in either case. */
const IS_ES_MARK = 8;
/** A letter: tokens are runs of them. */
const IS_LETTER = 16;
/** A clause break other than whitespace: tokens are runs of them too. */
const IS_BREAK = 32;
/** A pictograph (♥ ❤ included): a token alone. */
const IS_PICT = 64;
/** A combining mark: the fold drops them. */
const IS_MARK = 128;
/** Changed by NFKD: a character that decomposes, a mark, or one that canonical ordering moves. */
const TO_NORMALIZE = 256;
const KNOWN = 512;
const HAN_CHAR = /^\p{Script=Han}$/u;
const LATIN_CHAR = /^\p{Script=Latin}$/u;
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const ES_MARK_CHAR = /^(?:[ñ¿¡]|[áéíóú])$/iu;
// The tokenizer's alternatives, in its order: /\p{L}+|[.,;:!?¡¿()\n]+|\p{Extended_Pictographic}|[♥❤]/gu. It reads
// text whose whitespace is collapsed to spaces, so "\n" is never a break there: here whitespace is no token's.
const LETTER_CHAR = /^\p{L}$/u;
const BREAK_CHAR = /^[.,;:!?¡¿()\n]$/u;
const PICT_CHAR = /^(?:\p{Extended_Pictographic}|[♥❤])$/u;
const SPACE_CHAR = /^\s$/u;
const MARK_CHAR = /^\p{M}$/u;
/** Whether NFKD may change a text holding `ch`: it decomposes, is a mark, or has a combining class (moves past U+0345, ccc 240, or U+0334, ccc 1). */
const toNormalize = (ch: string): boolean =>
  ch.normalize('NFKD') !== ch || MARK_CHAR.test(ch) || `\u0345${ch}`.normalize('NFKD') !== `\u0345${ch}` || `${ch}\u0334`.normalize('NFKD') !== `${ch}\u0334`;
function flagsOf(ch: string): number {
  const known = KNOWN | (toNormalize(ch) ? TO_NORMALIZE : 0);
  if (SPACE_CHAR.test(ch)) return known;
  return (
    known |
    (HAN_CHAR.test(ch) ? IS_HAN : 0) |
    (LATIN_CHAR.test(ch) ? IS_LATIN : 0) |
    (CJK_CHAR.test(ch) ? IS_CJK : 0) |
    (ES_MARK_CHAR.test(ch) ? IS_ES_MARK : 0) |
    (LETTER_CHAR.test(ch) ? IS_LETTER : 0) |
    (BREAK_CHAR.test(ch) ? IS_BREAK : 0) |
    (PICT_CHAR.test(ch) ? IS_PICT : 0) |
    (MARK_CHAR.test(ch) ? IS_MARK : 0)
  );
}
/** The flags of the Basic Multilingual Plane's code points (lone surrogates included), worked out when first met (0: not yet). */
const BMP_FLAGS = new Uint16Array(0x10000);
/** The flags of the astral code points met, bounded. */
const ASTRAL_FLAGS = new Map<number, number>();
const MAX_ASTRAL = 4_096;
function flagsAt(code: number): number {
  if (code <= 0xffff) return BMP_FLAGS[code] || (BMP_FLAGS[code] = flagsOf(String.fromCharCode(code)));
  let f = ASTRAL_FLAGS.get(code);
  if (f === undefined) {
    f = flagsOf(String.fromCodePoint(code));
    if (ASTRAL_FLAGS.size >= MAX_ASTRAL) ASTRAL_FLAGS.clear();
    ASTRAL_FLAGS.set(code, f);
  }
  return f;
}

/** The flags of every code point of a text, or-ed. */
function flagsIn(text: string): number {
  let seen = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    seen |= flagsAt(code);
  }
  return seen;
}

/** Lower-case, accents removed ("Increíble" → "increible"), apostrophes dropped ("don't" → "dont"). `seen`: the text's flags (`flagsIn`). */
function fold(text: string, seen = flagsIn(text)): string {
  // A text NFKD leaves as it is has no marks either: lower-casing and dropping apostrophes is the whole fold.
  if (!(seen & TO_NORMALIZE)) return text.toLowerCase().replace(/['’]/g, '');
  return withoutMarks(text.normalize('NFKD'))
    .toLowerCase()
    .replace(/['’]/g, '');
}

/** The text without its combining marks (what `.replace(/\p{M}+/gu, '')` leaves). */
function withoutMarks(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    if (flagsAt(code) & IS_MARK) {
      if (from < i) out += text.slice(from, i);
      from = i + width;
    }
    i += width;
  }
  return from === 0 ? text : out + text.slice(from);
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
/**
 * Whether a folded text may hold an idiom, told by its tokens: an idiom (words of letters, single spaces
 * between them) stands in the text with its whitespace collapsed and a space put either side only where
 * its first two words are consecutive tokens of the text. Each idiom's first word and second word has a
 * number (1–63); a pair of them that begins an idiom is marked. Most texts hold no such pair, and are
 * read without collapsing or searching once per idiom. When the idioms are not all such, every text may.
 */
const IDIOM_FIRST = new Map<string, number>();
const IDIOM_SECOND = new Map<string, number>();
const IDIOM_PAIRS = new Uint8Array(64 * 64);
const IDIOMS_BY_PAIRS = (() => {
  for (const [p] of [...LEX.en.phrases, ...LEX.es.phrases]) {
    if (!/^\p{L}+(?: \p{L}+)+$/u.test(p)) return false;
    const [first, second] = p.split(' ') as [string, string];
    if (!IDIOM_FIRST.has(first)) IDIOM_FIRST.set(first, IDIOM_FIRST.size + 1);
    if (!IDIOM_SECOND.has(second)) IDIOM_SECOND.set(second, IDIOM_SECOND.size + 1);
    if (IDIOM_FIRST.size > 63 || IDIOM_SECOND.size > 63) return false;
    IDIOM_PAIRS[IDIOM_FIRST.get(first)! * 64 + IDIOM_SECOND.get(second)!] = 1;
  }
  return true;
})();
const LIKE_AFTER = new Set(LIKE_AFTER_EN);
const CONTRAST = new Set(['but', 'however', 'pero', 'aunque', 'sino']);

/** Spanish function words and letters: enough of them and a Latin-script comment is Spanish. */
const ES_CUES = new Set(['que', 'de', 'el', 'la', 'los', 'las', 'es', 'muy', 'y', 'pero', 'por', 'para', 'con', 'una', 'un', 'lo', 'se', 'me', 'mi', 'te', 'su', 'mas', 'esta', 'este', 'como', 'del', 'al', 'tan', 'eso', 'esto', 'hay', 'son', 'gracias', 'buen', 'bueno']);
const EN_CUES = new Set(['the', 'is', 'and', 'to', 'of', 'it', 'this', 'that', 'you', 'i', 'was', 'for', 'with', 'but', 'not', 'my', 'so', 'very', 'are', 'be', 'have', 'in', 'on', 'they', 'he', 'she', 'what', 'just', 'its', 'im', 'dont', 'love', 'song']);

/**
 * What a token is to a language, in the order its words are judged: a contrast ends a negation's
 * reach, else the language's negator, else a positive word of either language, else a negative one,
 * else "like" (positive after `LIKE_AFTER_EN` or a negator).
 */
const RESET = 1;
const NEGATOR = 2;
const POSITIVE = 3;
const NEGATIVE = 4;
const LIKE = 5;
function kindOf(w: string, lang: 'en' | 'es'): number {
  const primary = LEX[lang];
  const other = LEX[lang === 'en' ? 'es' : 'en'];
  if (CONTRAST.has(w)) return RESET;
  if (primary.negators.has(w)) return NEGATOR;
  if (primary.pos.has(w) || other.pos.has(w)) return POSITIVE;
  if (primary.neg.has(w) || other.neg.has(w)) return NEGATIVE;
  return w === 'like' ? LIKE : 0;
}
/** A word's facts, packed: its kind in English (bits 0–2) and in Spanish (3–5), then one bit each. */
const ES_SHIFT = 3;
const ES_CUE = 1 << 6;
const EN_CUE = 1 << 7;
const IS_LIKE_AFTER = 1 << 8;
const EN_NEGATOR = 1 << 9;
const ES_NEGATOR = 1 << 10;
/** Set on a token that is a run of clause breaks, not by the table. */
const BREAK_TOKEN = 1 << 11;
/** The word's number as an idiom's first word (bits 12–17) and as a second word (18–23). */
const FIRST_SHIFT = 12;
const SECOND_SHIFT = 18;
function factsOf(w: string): number {
  return (
    kindOf(w, 'en') |
    (kindOf(w, 'es') << ES_SHIFT) |
    (ES_CUES.has(w) ? ES_CUE : 0) |
    (EN_CUES.has(w) ? EN_CUE : 0) |
    (LIKE_AFTER.has(w) ? IS_LIKE_AFTER : 0) |
    (LEX.en.negators.has(w) ? EN_NEGATOR : 0) |
    (LEX.es.negators.has(w) ? ES_NEGATOR : 0) |
    ((IDIOM_FIRST.get(w) ?? 0) << FIRST_SHIFT) |
    ((IDIOM_SECOND.get(w) ?? 0) << SECOND_SHIFT)
  );
}

/**
 * Every word the scoring or the language guess looks up, by a hash of its code units, so that a
 * token of a text is looked up where it stands, without slicing it out.
 */
// Kept to 30 bits: a small integer to V8, never a boxed number.
const step = (h: number, unit: number): number => (Math.imul(h, 31) + unit) & 0x3fffffff;
const TABLE_MASK = 4_095;
const TABLE: ({ word: string; hash: number; facts: number }[] | undefined)[] = new Array<undefined>(TABLE_MASK + 1).fill(undefined);
for (const word of new Set([
  ...CONTRAST, ...LEX.en.negators, ...LEX.es.negators, ...LEX.en.pos.keys(), ...LEX.es.pos.keys(), ...LEX.en.neg.keys(), ...LEX.es.neg.keys(),
  'like', ...ES_CUES, ...EN_CUES, ...LIKE_AFTER, ...IDIOM_FIRST.keys(), ...IDIOM_SECOND.keys(),
])) {
  let hash = 0;
  for (let i = 0; i < word.length; i++) hash = step(hash, word.charCodeAt(i));
  (TABLE[hash & TABLE_MASK] ??= []).push({ word, hash, facts: factsOf(word) });
}
/** The facts of `text.slice(start, end)`, whose hash is `hash`: 0 when it is no word of the table. */
function factsAt(text: string, start: number, end: number, hash: number): number {
  const bucket = TABLE[hash & TABLE_MASK];
  if (bucket === undefined) return 0;
  for (const e of bucket) if (e.hash === hash && e.word.length === end - start && text.startsWith(e.word, start)) return e.facts;
  return 0;
}

/** Code units that begin an emoji of the lists: a token beginning with another cannot start with one. */
const EMOJI_START = new Uint8Array(0x10000);
for (const e of [...POSITIVE_EMOJI, ...NEGATIVE_EMOJI]) {
  if (e) EMOJI_START[e.charCodeAt(0)] = 1;
  else EMOJI_START.fill(1);
}
const POSITIVE_EMOJI_LIST: readonly string[] = POSITIVE_EMOJI;
const NEGATIVE_EMOJI_LIST: readonly string[] = NEGATIVE_EMOJI;

/** The flags of the last text `scriptVerdict` read, or-ed. */
let seenInLast = 0;

/**
 * The script half of {@link sentimentLanguage}, in one pass over the code points: -1 when the text is
 * Chinese (Han or kana, and Han characters at least a quarter of the Latin letters), else 1 when it
 * holds ñ/¿/¡/an accented vowel, else 0.
 */
function scriptVerdict(text: string): number {
  let han = 0;
  let latin = 0;
  let seen = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    i += code > 0xffff ? 2 : 1;
    const f = flagsAt(code);
    seen |= f;
    if (f & IS_HAN) han++;
    if (f & IS_LATIN) latin++;
  }
  seenInLast = seen;
  if (seen & IS_CJK && han >= latin / 4) return -1;
  return seen & IS_ES_MARK ? 1 : 0;
}

/** The tokens of the last text read (reused, grown as needed): where each starts and ends, and its facts. */
let tokenStart: Int32Array = new Int32Array(1_024);
let tokenEnd: Int32Array = new Int32Array(1_024);
let tokenFacts: Int32Array = new Int32Array(1_024);
/** The Spanish and English cue words among the letter runs of the last text read. */
let esCues = 0;
let enCues = 0;
/** Whether the last text read may hold an idiom. */
let mayHoldIdiom = false;

/**
 * The tokens of /\p{L}+|[.,;:!?¡¿()\n]+|\p{Extended_Pictographic}|[♥❤]/gu in a text, whitespace never
 * a break (the text as the scoring reads it, its whitespace collapsed), into the token arrays; each
 * looked up in the table as it is read; returns how many.
 */
function readTokens(text: string): number {
  let n = 0;
  let es = 0;
  let en = 0;
  let idiom = !IDIOMS_BY_PAIRS;
  let firstBefore = 0;
  for (let i = 0; i < text.length; ) {
    let code = text.codePointAt(i)!;
    const f = flagsAt(code);
    // A run of letters, a run of breaks, or one pictograph.
    const run = f & IS_LETTER ? IS_LETTER : f & IS_BREAK ? IS_BREAK : 0;
    if (run === 0 && !(f & IS_PICT)) {
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let hash = 0;
    do {
      if (code > 0xffff) {
        hash = step(step(hash, text.charCodeAt(i)), text.charCodeAt(i + 1));
        i += 2;
      } else {
        hash = step(hash, code);
        i++;
      }
      if (i >= text.length) break;
      code = text.codePointAt(i)!;
    } while (flagsAt(code) & run);
    let facts = factsAt(text, start, i, hash);
    if (run === IS_LETTER) {
      if (facts & ES_CUE) es++;
      if (facts & EN_CUE) en++;
      if (firstBefore && IDIOM_PAIRS[firstBefore * 64 + ((facts >> SECOND_SHIFT) & 63)]) idiom = true;
      firstBefore = (facts >> FIRST_SHIFT) & 63;
    } else {
      if (run === IS_BREAK) facts |= BREAK_TOKEN;
      firstBefore = 0;
    }
    if (n === tokenStart.length) {
      const grow = (a: Int32Array): Int32Array => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      tokenStart = grow(tokenStart);
      tokenEnd = grow(tokenEnd);
      tokenFacts = grow(tokenFacts);
    }
    tokenStart[n] = start;
    tokenEnd[n] = i;
    tokenFacts[n] = facts;
    n++;
  }
  esCues = es;
  enCues = en;
  mayHoldIdiom = idiom;
  return n;
}

/** The language of a comment for the sentiment lexicons: Chinese by script, Spanish or English by function words and ñ/¿/¡/accents. */
export function sentimentLanguage(text: string): SentimentLanguage {
  const verdict = scriptVerdict(text);
  if (verdict < 0) return 'zh';
  readTokens(fold(text, seenInLast));
  return verdict + esCues > enCues ? 'es' : 'en';
}

/** The score of a folded Latin-script text, in `lang` or, when it is not given, in the language its cue words tell (`es`: 1 for its Spanish letters). */
function scoreLatin(folded: string, lang: 'en' | 'es' | undefined, es: number): number {
  let n = readTokens(folded);
  const l = lang ?? (es + esCues > enCues ? 'es' : 'en');
  let text = folded;
  let score = 0;
  if (mayHoldIdiom) {
    // Idioms first; their words then no longer count.
    let t = ` ${folded.replace(/\s+/g, ' ')} `;
    for (const { padded, length, value } of IDIOMS[l]) {
      const at = t.indexOf(padded);
      if (at < 0) continue;
      score += value;
      t = `${t.slice(0, at)} , ${t.slice(at + length + 2)}`;
    }
    text = t;
    n = readTokens(t);
  }
  // Tokens and clause breaks: punctuation and "but/pero" end a negation's reach.
  const shift = l === 'en' ? 0 : ES_SHIFT;
  const negatorOrLikeAfter = (l === 'en' ? EN_NEGATOR : ES_NEGATOR) | IS_LIKE_AFTER;
  let negatedFor = 0;
  for (let k = 0; k < n; k++) {
    const facts = tokenFacts[k]!;
    const kind = facts & BREAK_TOKEN ? RESET : (facts >> shift) & 7;
    if (kind === RESET) {
      negatedFor = 0;
      continue;
    }
    if (kind === NEGATOR) {
      negatedFor = 3;
      continue;
    }
    let v = kind === POSITIVE ? 1 : kind === NEGATIVE ? -1 : 0;
    if (kind === LIKE && k > 0 && tokenFacts[k - 1]! & negatorOrLikeAfter) v = 1;
    else if (v === 0 && EMOJI_START[text.charCodeAt(tokenStart[k]!)]) {
      const w = text.slice(tokenStart[k], tokenEnd[k]);
      if (POSITIVE_EMOJI_LIST.some((e) => w.startsWith(e))) v = 1;
      else if (NEGATIVE_EMOJI_LIST.some((e) => w.startsWith(e))) v = -1;
    }
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
/** The entries by their first code unit (an index into `ZH_LISTS`, 0: none), longest first as in `ZH_ENTRIES`, each with whether it carries its own negator. */
const ZH_FIRST = new Uint16Array(0x10000);
const ZH_LISTS: { word: string; value: number; ownNegator: boolean }[][] = [[]];
for (const [word, value] of ZH_ENTRIES) {
  const first = word.charCodeAt(0);
  if (!ZH_FIRST[first]) ZH_FIRST[first] = ZH_LISTS.push([]) - 1;
  ZH_LISTS[ZH_FIRST[first]!]!.push({ word, value, ownNegator: /^[不没无别]/u.test(word) });
}
/** The emoji of the lists that are one code point, by code point: +1 or -1 (a positive one first); their first code units. */
const EMOJI_VALUE = new Map<number, number>();
const EMOJI_VALUE_START = new Uint8Array(0x10000);
for (const [list, value] of [[POSITIVE_EMOJI, 1], [NEGATIVE_EMOJI, -1]] as const) {
  for (const e of list) {
    const code = e.codePointAt(0);
    if (code === undefined || String.fromCodePoint(code) !== e || EMOJI_VALUE.has(code)) continue;
    EMOJI_VALUE.set(code, value);
    EMOJI_VALUE_START[e.charCodeAt(0)] = 1;
  }
}
const ZH_NEGATION_BEFORE = new RegExp(`(?:${[...NEGATORS_ZH].sort((a, b) => b.length - a.length).join('|')})(?:太|很|是|是很|够|怎么|那么|算|大|再|会|也)?$`, 'u');

function scoreChinese(text: string): number {
  let score = 0;
  for (let i = 0; i < text.length; ) {
    const unit = text.charCodeAt(i);
    const list = ZH_FIRST[unit] ? ZH_LISTS[ZH_FIRST[unit]]! : undefined;
    const hit = list?.find((e) => text.startsWith(e.word, i));
    if (!hit) {
      if (EMOJI_VALUE_START[unit]) {
        const ch = text.codePointAt(i)!;
        score += EMOJI_VALUE.get(ch) ?? 0;
        i += ch > 0xffff ? 2 : 1;
      } else i += unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      continue;
    }
    if (hit.value !== 0) {
      // A negator right before the word flips it, unless the word carries its own ("不错", "不好", "没用").
      const before = text.slice(Math.max(0, i - 5), i);
      const negated = !hit.ownNegator && ZH_NEGATION_BEFORE.test(before);
      score += negated ? -hit.value : hit.value;
    }
    i += hit.word.length;
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
  if (lang != null) return lang === 'zh' ? scoreChinese(t) : scoreLatin(fold(t), lang, 0);
  // The language guessed as sentimentLanguage does, from the same reading of the folded text the scoring makes.
  const verdict = scriptVerdict(t);
  return verdict < 0 ? scoreChinese(t) : scoreLatin(fold(t, seenInLast), undefined, verdict);
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
