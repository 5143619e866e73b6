/**
 * Tokenisation for search, for English (and other space-separated languages)
 * and Chinese/Japanese: lower-cased NFKC text; letter/digit runs become words
 * (light English stemming, stopwords dropped); CJK runs become overlapping
 * character bigrams (a single character stays a unigram).
 */

import { foldHash, SpanMemo } from './spanMemo';

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const TOKEN_RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}]+)?/gu;
/** Splits a letter run into its CJK and non-CJK parts ("ev续航500" → "ev", "续航", "500"). */
const SCRIPT_PARTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** English function words: never indexed or searched. */
export const STOPWORDS = new Set(
  ('a an and are as at be been but by can could did do does doing for from had has have having he her here hers him his how i if in into is it its ' +
    "it's itself just me more most my no nor not of off on once only or other our ours out over own same she should so some such than that the their " +
    'theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will with ' +
    "would you your yours yourself um uh yeah okay ok mm hmm oh gonna wanna let's i'm don't that's it's we're they're you're i've i'd i'll s t re ve ll d m " +
    'de la el en y los las del se que por un una con para es al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también ' +
    'me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él ' +
    'tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas nosotras vosotros')
    .split(/\s+/),
);

/**
 * Words that carry no topic in a question ("What did the group discuss about
 * X?"): dropped from queries only, so documents that use them still match the rest.
 */
export const QUERY_STOPWORDS = new Set(
  ('discuss discussed discussion discussing talk talked talking say said says mention mentioned mentions think thought thinks opinion opinions ' +
    'group team meeting meetings summarize summarise summary what whats why how when who which whether did does do decide decided decision ' +
    'speaker speakers people person everyone anyone member members question questions regarding about towards toward according consider considered ' +
    '讨论 什么 如何 怎么 为什么 哪些 关于 认为 觉得 会议 大家 我们 他们 你们 这个 那个 一个 就是 然后 所以 因为 但是 还是 可以 没有 这样 那么 的话')
    .split(/\s+/),
);

/** Chinese particles and conjunctions: a query bigram that spans one ("链的", "的有") is noise. */
const CJK_PARTICLE = /[的了和与及着吗呢吧啊或]/u;

/** A light English suffix stripper: plurals, -ing, -ed, -ly; leaves short words alone. */
export function stem(w: string): string {
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Tokens of a CJK run: overlapping bigrams, or the character itself when alone. */
function cjkTokens(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Bits of a character's class for the token scanner: a letter, digit or mark (a word character), a letter, CJK script. */
const WORD_CHAR = 1;
const LETTER = 2;
const CJK_CHAR = 4;
/** Set on a class that was found (0: not yet). */
const KNOWN = 8;
const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}]/u;
const LETTER_RE = /\p{L}/u;
const CJK_CHAR_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** The classes of the Basic Multilingual Plane's characters (and of lone surrogates), each found once when first met. */
const BMP_CLASS = new Uint8Array(0x10000);
/** The classes of characters beyond it, found once; bounded. */
const ASTRAL_CLASS = new Map<number, number>();

function classOf(ch: string): number {
  return KNOWN | (WORD_CHAR_RE.test(ch) ? WORD_CHAR : 0) | (LETTER_RE.test(ch) ? LETTER : 0) | (CJK_CHAR_RE.test(ch) ? CJK_CHAR : 0);
}

function astralClass(code: number): number {
  let c = ASTRAL_CLASS.get(code);
  if (c === undefined) {
    c = classOf(String.fromCodePoint(code));
    if (ASTRAL_CLASS.size >= MEMO_WORDS) ASTRAL_CLASS.clear();
    ASTRAL_CLASS.set(code, c);
  }
  return c;
}

/** The class of the character at `i` of `s` (a code point, as a `u` regex reads it); its width in code units goes to {@link width}. */
let width = 1;
function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      width = 2;
      return astralClass((c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000);
    }
  }
  width = 1;
  return BMP_CLASS[c] || (BMP_CLASS[c] = classOf(String.fromCharCode(c)));
}

/**
 * Tokens of `text` for indexing.
 *
 * The words are the matches of {@link TOKEN_RUN} (a run of letters, digits
 * and marks, with an apostrophe and the letters after it), found by one scan
 * over the characters with their classes looked up in a table rather than by
 * the regular expression: the same words, without a match object per word.
 *
 * @example tokenize('Remote controls cost 12.5 euros') → ['remote', 'control', 'cost', '12', '5', 'euro']
 * @example tokenize('电动车续航') → ['电动', '动车', '车续', '续航']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  scanTokens(text, STRING_TOKENS, out);
  return out;
}

/**
 * Numbers for tokens, each token numbered when first met (0, 1, 2, …):
 * {@link TokenNumbering.add} gives the numbers of the tokens {@link tokenize}
 * gives, found from the words' characters (a memo of its own), so a caller
 * that numbers terms (the index build) looks up no string per token.
 *
 * @example
 * const n = new TokenNumbering();
 * const out: number[] = [];
 * n.add('Batteries, batteries', out); // out → [0, 0]; n.names → ['battery']
 */
export class TokenNumbering {
  /** The token of each number. */
  readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly spans: SpanTokens<number> = {
    memo: new SpanMemo<number>(MEMO_WORDS),
    word: (run) => this.numberOf(tokenOfWord(run)),
    cjk: (chars) => this.numberOf(chars),
    none: -1,
  };

  /** Appends to `out` the numbers of the tokens of `text`, in order. */
  add(text: string, out: number[]): void {
    scanTokens(text, this.spans, out);
  }

  /** The number of `token` (numbered now when new); -1 for none (a stopword). */
  numberOf(token: string | null): number {
    if (token === null) return -1;
    let n = this.numbers.get(token);
    if (n === undefined) {
      n = this.names.push(token) - 1;
      this.numbers.set(token, n);
    }
    return n;
  }
}

/** What a scan gives for a span of text: the memo of spans met, how a word's and CJK characters' token is made, and the value of no token. */
interface SpanTokens<V> {
  memo: SpanMemo<V>;
  word: (run: string) => V;
  cjk: (chars: string) => V;
  none: V;
}

/** The scan of {@link tokenize}: the token of each word of `text`, as `to` gives them, appended to `out`. */
function scanTokens<V>(text: string, to: SpanTokens<V>, out: V[]): void {
  const norm = text.normalize('NFKC').toLowerCase();
  const n = norm.length;
  let i = 0;
  while (i < n) {
    let c = norm.charCodeAt(i);
    // Letters and digits of ASCII (most characters of most texts) need no table.
    let cls = c < 0x80 ? ASCII_CLASS[c]! : classAt(norm, i);
    if (!(cls & WORD_CHAR)) {
      i += c < 0x80 ? 1 : width;
      continue;
    }
    const start = i;
    let cjk = cls & CJK_CHAR;
    let hash = 0;
    for (;;) {
      const w = c < 0x80 ? 1 : width;
      hash = foldHash(hash, c);
      if (w === 2) hash = foldHash(hash, norm.charCodeAt(i + 1));
      i += w;
      if (i >= n) break;
      c = norm.charCodeAt(i);
      cls = c < 0x80 ? ASCII_CLASS[c]! : classAt(norm, i);
      if (!(cls & WORD_CHAR)) break;
      cjk |= cls & CJK_CHAR;
    }
    if (i + 1 < n && (c === 0x27 || c === 0x2019) && classAt(norm, i + 1) & LETTER) {
      // The apostrophe and the letters after it.
      hash = foldHash(hash, c);
      i++;
      while (i < n && (cls = classAt(norm, i)) & LETTER) {
        cjk |= cls & CJK_CHAR;
        hash = foldHash(hash, norm.charCodeAt(i));
        if (width === 2) hash = foldHash(hash, norm.charCodeAt(i + 1));
        i += width;
      }
    }
    if (!cjk) wordAt(norm, start, i, hash, to, out);
    else scriptParts(norm, start, i, to, out);
  }
}

/** Classes of the ASCII characters (the table filled for them up front). */
const ASCII_CLASS = new Uint8Array(0x80);
for (let c = 0; c < 0x80; c++) ASCII_CLASS[c] = classOf(String.fromCharCode(c));

/** The token of each word met so far (null: a stopword), and of each CJK character pair; bounded. */
const MEMO_WORDS = 100_000;
/** One string per token (a word's token made again after the memo started over is the same string). */
const tokenStrings = new Map<string, string>();

function internToken(t: string | null): string | null {
  if (t === null) return null;
  const known = tokenStrings.get(t);
  if (known !== undefined) return known;
  if (tokenStrings.size >= MEMO_WORDS * 2) tokenStrings.clear();
  tokenStrings.set(t, t);
  return t;
}

/** The tokens of {@link tokenize}: strings (null: a stopword). */
const STRING_TOKENS: SpanTokens<string | null> = {
  memo: new SpanMemo<string | null>(MEMO_WORDS),
  word: (run) => internToken(tokenOfWord(run)),
  cjk: internToken,
  none: null,
};

/** The token of the non-CJK word `norm[start, end)` (hashed as {@link foldHash}), unless a stopword. */
function wordAt<V>(norm: string, start: number, end: number, hash: number, to: SpanTokens<V>, out: V[]): void {
  const t = to.memo.get(norm, start, end, hash, to.word);
  if (t !== to.none) out.push(t);
}

/**
 * The tokens of a word with CJK characters, split by script ({@link SCRIPT_PARTS}:
 * "ev续航500" → "ev", "续航", "500"): a CJK part's overlapping pairs of
 * characters (its character when alone), a non-CJK part's word token.
 */
function scriptParts<V>(norm: string, start: number, end: number, to: SpanTokens<V>, out: V[]): void {
  let i = start;
  while (i < end) {
    const partStart = i;
    const cjk = classAt(norm, i) & CJK_CHAR;
    let hash = 0;
    // Where each of the part's characters starts (for the pairs), when CJK.
    let prev = -1;
    let pairs = 0;
    do {
      if (cjk) {
        if (prev >= 0) {
          // The pair of the previous character and this one.
          let h = 0;
          for (let k = prev; k < i + width; k++) h = foldHash(h, norm.charCodeAt(k));
          out.push(to.memo.get(norm, prev, i + width, h, to.cjk));
          pairs++;
        }
        prev = i;
      } else {
        hash = foldHash(hash, norm.charCodeAt(i));
        if (width === 2) hash = foldHash(hash, norm.charCodeAt(i + 1));
      }
      i += width;
    } while (i < end && (classAt(norm, i) & CJK_CHAR) === cjk);
    if (!cjk) wordAt(norm, partStart, i, hash, to, out);
    else if (pairs === 0) {
      // A single character: its own token.
      let h = 0;
      for (let k = partStart; k < i; k++) h = foldHash(h, norm.charCodeAt(k));
      out.push(to.memo.get(norm, partStart, i, h, to.cjk));
    }
  }
}

/**
 * {@link tokenize} as it was written with the regular expressions: the
 * reference the scanner is checked against (tests), not used to index.
 */
export function tokenizeByRegex(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  // A text without CJK characters (most of them) has no word to split by script.
  const cjk = CJK_RUN.test(norm);
  for (const m of norm.matchAll(TOKEN_RUN)) {
    if (!cjk || !CJK_RUN.test(m[0])) {
      wordToken(m[0], out);
      continue;
    }
    for (const part of m[0].matchAll(SCRIPT_PARTS)) {
      if (CJK_RUN.test(part[0])) cjkTokens(part[0], out);
      else wordToken(part[0], out);
    }
  }
  return out;
}

/** A non-CJK word: dropped when a stopword, otherwise stemmed (the part before an apostrophe); for {@link tokenizeByRegex}. */
function wordToken(run: string, out: string[]): void {
  const t = tokenOfWord(run);
  if (t !== null) out.push(t);
}

function tokenOfWord(run: string): string | null {
  const w = run.replace('’', "'");
  if (STOPWORDS.has(w)) return null;
  const base = w.includes("'") ? w.slice(0, w.indexOf("'")) : w;
  if (!base || STOPWORDS.has(base)) return null;
  return stem(base);
}

/** Tokens of a query: as {@link tokenize}, without question words, de-duplicated. */
export function tokenizeQuery(query: string): string[] {
  const norm = query.normalize('NFKC').toLowerCase();
  let cleaned = norm;
  for (const w of QUERY_STOPWORDS) if (/[^ -~]/.test(w)) cleaned = cleaned.split(w).join(' ');
  const tokens = tokenize(cleaned).filter((t) => !QUERY_STOPWORDS.has(t) && !(t.length === 2 && CJK_PARTICLE.test(t)));
  const unique = [...new Set(tokens)];
  return unique.length ? unique : [...new Set(tokenize(norm))];
}
