/**
 * Generated texts for the equivalence tests of the sentiment and talk-share fast paths
 * (test/unit/sentimentFastPath.test.ts, test/unit/spokenShareFastPath.test.ts): texts composed of
 * the lexicons' own words (sentiment words, negators, idioms, contrast and cue words, Chinese entries,
 * every emoji of the lists), talk words and fillers, and the characters the fast paths must treat
 * as the regular expressions did — emoji with skin tones and joiners, ♥❤, runs of punctuation with
 * ¡¿, apostrophes ' ’, accents precomposed and decomposed, characters NFKD changes (ligatures,
 * full-width, ①, ½), Σ and İ, Han and kana, astral letters (𝐀), lone surrogates, every kind of
 * whitespace — in every case and at every length, texts over 5,000 characters and empty ones included.
 * Seeded: the same seed gives the same texts.
 */
import {
  LIKE_AFTER_EN, NEGATIVE_EMOJI, NEGATIVE_EN, NEGATIVE_ES, NEGATIVE_ZH, NEGATORS_EN, NEGATORS_ES, NEGATORS_ZH, NEUTRAL_ZH, PHRASES_EN, PHRASES_ES,
  POSITIVE_EMOJI, POSITIVE_EN, POSITIVE_ES, POSITIVE_ZH,
} from '../../src/core/markers/commentLexicons';
import { SPOKEN_WORDS } from '../../src/core/text/stopwords';
import { mulberry32 } from '../../src/core/util/seededRandom';

const split = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** English and Latin-script pieces: the English lexicons, idioms, contrast, cue and talk words. */
const EN = [
  ...POSITIVE_EN, ...NEGATIVE_EN, ...NEGATORS_EN, ...LIKE_AFTER_EN, ...PHRASES_EN.map(([p]) => p),
  ...split(`like Like LIKE but however the is and to of it this that you i was for with not my so very are be have in on they he she what
    just its im dont love song video remote design battery people want cheap twenty five euros look at we should
    uh um uhm umm mm-hmm yeah okay ok oh well right actually really anyway mean know think guess sort kind stuff thing things
    I'm i've i'd i'll you're you've we're we'll don't can't isn't it's that's gonna wanna kinda`),
];
/** Spanish pieces. */
const ES = [
  ...POSITIVE_ES, ...NEGATIVE_ES, ...NEGATORS_ES, ...PHRASES_ES.map(([p]) => p),
  ...split(`pero aunque sino que de el la los las es muy y por para con una un lo se me mi te su mas más esta está este como del al tan eso
    esto hay son gracias buen bueno increíble Increíble INCREÍBLE está música decepción pésimo ridículo vergüenza mañana niño pingüino
    pues o sea vale tío mira oye sabes digamos tipo nada cosa cosas igual yo tú usted nosotros sí claro entonces`),
];
/** Chinese pieces: the entries, negators and the words allowed between them and a sentiment word, talk markers. */
const ZH = [
  ...POSITIVE_ZH, ...NEGATIVE_ZH, ...NEUTRAL_ZH, ...NEGATORS_ZH, ...SPOKEN_WORDS.zh,
  ...split(`太 很 是 是很 够 怎么 那么 算 大 再 会 也 我 你 他 她 我们 你们 他们 大家 嗯 呃 啊 哦 额 哈 吧 呢 呀 嘛 吗 对 就是说 我觉得 你知道
    怎么说 的话 就是 然后 那个 这个 所以 反正 其实 这样 那样 视频 价格 遥控器 设计 电池 市场 用户 功能 的 了 在 有 一 二 三 這個 喜歡`),
];
/** Emoji and pictographs: every one of the lists, with skin tones, joiners and variation selectors, and others. */
const EMOJI = [
  ...POSITIVE_EMOJI, ...NEGATIVE_EMOJI, '♥', '❤', '❤️', '♥️', '♡', '❤️‍🔥', '😂', '🎉', '🙏', '©', '®', '‼', '⁉', '⌚', '☺', '☹', '✨',
  '👍🏽', '👎🏿', '👏🏻', '💪🏾', '👨‍👩‍👧', '🏳️‍🌈', '🇪🇸', '\u{1F3FD}', '\u200d', '\ufe0f', '😍😍😍', '🔥🔥', '👍👍', '😡🤬',
];
/** Punctuation: the clause breaks alone and in runs, and other marks. */
const PUNCT = [
  '.', ',', ';', ':', '!', '?', '¡', '¿', '(', ')', '!!!', '?!', '...', '¡¿', '¿¡', '.,;', '(!)', '—', '-', '"', '…', '、', '。', '，', '！', '？',
  '\'', '’', "'like'", "rock'n'roll", "don’t", "can’t", "you’re", "it''s", "’’", "a'b'c", "x’5", "don't5",
];
/** Characters the fold, the scripts and the word runs must treat as the expressions do. */
const CORNERS = [
  'e\u0301', 'n\u0303', 'A\u0308', '\u0301', '\u0301\u0302', 'Ａｍａｚｉｎｇ', 'ｇｏｏｄ', 'ﬁne', 'ﬂ', '①', '½', '²', 'ℌ', 'ª', 'µ', 'Ǆ', 'İstanbul',
  'İ', 'ΣΟΦΟΣ', 'ΟΔΟΣ.', 'Σ', 'ß', 'STRASSE', 'ſ', 'Ω', 'жизнь', 'مرحبا', '٣', '42', '3.5', '1,000', 'カタカナ', 'ひらがな', 'ｶﾀｶﾅ', '⺀', '〇',
  '々', '𠀀', '𠮷', '𝐀', '𝐀𝐁𝐂', '𝒶𝒷', '𝟘', '\ud800', '\udc00', '\ud83d', '\ude00', '\udbff\udfff', '\u00ad', '\u200b', '\ufeff', 'ÀÉÎÕÜ', 'Ñ', 'ñ',
];
/** Whitespace between pieces. */
const SPACES = ['  ', '\n', '\t', '\u00a0', '\u3000', '\r\n', ' \n ', '\u2028', '\u000b', '\u0085'];

const POOLS = { en: EN, es: ES, zh: ZH, emoji: EMOJI, punct: PUNCT, corners: CORNERS } as const;
/** Every piece the texts are made of. */
export const LEXICON_PIECES: readonly string[] = Object.values(POOLS).flat();
const ALL = LEXICON_PIECES;

/** Upper-case, capitalised, accented, decomposed or full-width variants of a piece now and then. */
export function variant(piece: string, r: () => number): string {
  const x = r();
  if (x < 0.1) return piece.charAt(0).toUpperCase() + piece.slice(1);
  if (x < 0.14) return piece.toUpperCase();
  if (x < 0.17) return piece.normalize('NFD');
  if (x < 0.2) return piece.replace(/[aeiou]/g, (v) => ({ a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' })[v]!);
  if (x < 0.21) return piece.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41));
  return piece;
}

/** `count` texts from `seed`, each mostly of one pool (English, Spanish, Chinese, emoji, punctuation or corner cases) or of all. */
export function lexiconTexts(seed: number, count: number, extra: readonly string[] = []): string[] {
  const r = mulberry32(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const pools = [...Object.values(POOLS), ALL, ALL, ...(extra.length ? [extra] : [])];
  const texts: string[] = [''];
  for (let k = 1; k < count; k++) {
    const main = pick(pools);
    const joinAll = r() < 0.25 ? '' : undefined;
    const long = r() < 0.012;
    const pieces = long ? 2_000 : r() < 0.1 ? 40 + Math.floor(r() * 300) : Math.floor(r() * 40);
    let text = '';
    for (let i = 0; i < pieces && text.length < 6_500; i++) {
      const piece = variant(r() < 0.7 ? pick(main) : pick(ALL), r);
      const gap = joinAll ?? (r() < 0.15 ? '' : r() < 0.85 ? ' ' : pick(SPACES));
      text += i === 0 ? piece : gap + piece;
    }
    // Now and then an astral character across the 5,000th code unit, where polarity cuts.
    if (long && r() < 0.5 && text.length > 5_001) text = `${text.slice(0, 4_999)}${pick(['😍', '𝐀', '👍🏽', '𠀀'])}${text.slice(4_999)}`;
    if (r() < 0.05) text = ` ${text} `;
    texts.push(text);
  }
  return texts;
}

/** The hash of the fast paths' word tables (sentiment.ts, spokenShare.ts): code units, times 31, kept to 30 bits. */
const hash30 = (s: string): number => {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) & 0x3fffffff;
  return h;
};
/** Lower-case letters NFKD leaves as they are (ß, þ, ı, Greek, Cyrillic …): a collider made of them is still itself after the fold. */
const STABLE_LOWER = new Set(
  Array.from({ length: 0x500 - 0x61 }, (_, i) => String.fromCharCode(0x61 + i)).filter(
    (c) => /^\p{Ll}$/u.test(c) && c.normalize('NFKD') === c && c.toLowerCase() === c && c.toUpperCase().toLowerCase() === c,
  ),
);

/**
 * Other words with the same hash as `word` in the fast paths' tables (one code unit raised by k, the
 * next lowered by 31·k), of letters that stay themselves when lower-cased and folded: a table that
 * took a hash for the word would count them as it.
 */
export function hashColliders(word: string): string[] {
  const out: string[] = [];
  for (let j = 0; j + 1 < word.length; j++) {
    for (let k = -40; k <= 40; k++) {
      if (k === 0) continue;
      const a = String.fromCharCode(word.charCodeAt(j) + k);
      const b = String.fromCharCode(word.charCodeAt(j + 1) - 31 * k);
      if (!STABLE_LOWER.has(a) || !STABLE_LOWER.has(b)) continue;
      const other = word.slice(0, j) + a + b + word.slice(j + 2);
      if (hash30(other) === hash30(word)) out.push(other);
    }
  }
  return out;
}
