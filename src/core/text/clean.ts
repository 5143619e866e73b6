/**
 * Readable text from transcripts and comments: annotation tokens (`{disfmarker}`, `[Música]`,
 * `(risas)` …), filler runs (uh, um, eh, 嗯, 呃 …) and stutters ("the the", "我我", "这个这个")
 * are taken out, while spans stay exact offsets into the original so that evidence can be
 * grounded. The same rules serve marker texts, quotes, overviews and reports.
 *
 * Every function here is one linear pass over bounded regions (long texts are cut into regions
 * at whitespace), with no regular expression that can backtrack, so a 50 MB input costs time
 * and memory proportional to its length.
 */

import { countWords, isCjk } from './words';

/** A span of the original text trimmed to real content, and its readable form. */
export interface CleanSpan {
  /** Offsets into the original text: `text.slice(start, end)` begins and ends with content. */
  start: number;
  end: number;
  /** The readable form of the span: noise removed, stutters collapsed, whitespace normalised. */
  text: string;
}

/** Regions longer than this are cleaned piecewise, cut at whitespace, so memory stays bounded. */
const REGION_CHARS = 16_384;

// Token kinds.
const WORD = 1;
const CJK = 2;
const PUNCT = 3;
const ANNOTATION = 4;

/** English and Spanish fillers, lowercase (variants with repeated letters are matched by shape, see {@link isFillerWord}). */
const FILLER_WORDS = new Set(['uh', 'um', 'uhm', 'erm', 'er', 'hmm', 'hm', 'mm', 'mhm', 'ah', 'eh', 'ehm', 'em', 'mm-hmm', 'uh-huh', 'hmm-mm', 'mm-mm', 'uh-uh']);
/** First and last words of a filler written with a spaced hyphen, as QMSum does ("Mm - hmm"). */
const HYPHEN_FILLER_HEADS = new Set(['mm', 'uh', 'hmm', 'mhm', 'um', 'hm']);
const HYPHEN_FILLER_TAILS = new Set(['hmm', 'huh', 'mm', 'uh', 'hm']);
/** Chinese fillers anywhere in a sentence. */
const ZH_FILLERS_ANYWHERE = new Set(['嗯', '呃']);
/** Chinese interjections that are fillers at the start of a clause ("啊我觉得"), particles elsewhere ("好啊"). */
const ZH_FILLERS_AT_CLAUSE_START = new Set(['啊', '额', '哦', '噢', '呃', '嗯']);
/** Contents of parentheses that are annotations, lowercase. */
const PAREN_ANNOTATIONS = new Set([
  'risas', 'risa', 'laughter', 'laughs', 'laughing', 'laugh', 'applause', 'aplausos', 'música', 'musica', 'music',
  'inaudible', 'crosstalk', 'silence', 'silencio', 'cough', 'coughs', 'tos', 'sighs', 'pause', 'unintelligible',
  '笑', '笑声', '掌声', '鼓掌', '音乐', '听不清', '杂音', '众笑', '大笑',
]);
/** Symbols that stand for music in captions. */
const MUSIC_SIGNS = new Set(['♪', '♫', '♬', '🎵', '🎶']);
/** Words that are legitimately doubled ("that that", "had had") and number words read as digit strings. */
const DOUBLE_OK = new Set([
  'that', 'had', 'zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'bye', 'très', 'muy',
]);
/** Chinese characters whose doubling is a stutter ("我我", "所所以"); other doublings are words ("谢谢", "看看"). */
const ZH_STUTTER_CHARS = new Set([...'我你他她它就这那所在是也还都要会把被和跟但而因有没不对很给再又']);
/** Short real words, never taken for a cut-off fragment of the next word ("a about", "to today"). */
const SHORT_WORDS = new Set([
  'a', 'i', 'o', 'y', 'e', 'u', 'an', 'as', 'at', 'be', 'by', 'do', 'go', 'he', 'if', 'in', 'is', 'it', 'me', 'my', 'no',
  'of', 'on', 'or', 'so', 'to', 'up', 'us', 'we', 'ok', 'al', 'de', 'el', 'en', 'es', 'la', 'le', 'lo', 'mi', 'ni', 'se',
  'si', 'su', 'te', 'tu', 'ya', 'ha', 'he', 'yo', 'un', 'ir', 've', 'va', 'da', 'di', 'fe', 'os', 'eh', 'oh', 'hi',
  'ti', 'am', 'pm', 'tv', 'pa', 'ma', 'id', 'eu', 'uk', 'ex', 'vs', 'km', 'kg', 'cm', 'mm', 'ms', 'hz', 'db', 'pc', 'ai', 'ia',
]);
/** Contractions written apart in tokenised transcripts ("it 's", "I 'm"): they attach to the word before. */
const CONTRACTIONS = new Set(['s', 'm', 're', 've', 'll', 'd', 't']);

/** Punctuation never preceded by a space in readable text. */
const NO_SPACE_BEFORE = new Set([...',.!?;:)]}…%”’»，。！？；：、）」』】》〉']);
/** Punctuation never followed by a space in readable text. */
const NO_SPACE_AFTER = new Set([...'([{“‘«¿¡（「『【《〈']);
/** Sentence-final punctuation, kept at the end of a trimmed span. */
const FINAL = new Set([...'.!?…。！？']);
/** Commas (a filler wrapped in commas takes them with it). */
const COMMAS = new Set([...',，、']);
/** Dashes (an interrupted phrase: "you know—"). */
const DASHES = new Set([...'-–—']);
const OPENERS: Record<string, string> = { '(': ')', '（': '）', '“': '”', '‘': '’', '«': '»', '「': '」', '『': '』', '【': '】', '《': '》', '"': '"', '¿': '?', '¡': '!' };
const CLOSERS = new Set(Object.values(OPENERS));

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 128) return false;
  return SPACE.test(String.fromCharCode(c));
}

/** Letters and digits that are not CJK. */
function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c >= 0xd800 && c <= 0xdfff) return false;
  if (c >= 0x4e00 && c <= 0x9fff) return false;
  const ch = String.fromCharCode(c);
  return LETTER_OR_DIGIT.test(ch) && (c < 0x2e80 || !isCjk(ch));
}

/** CJK characters (a fast path for the common Han block). */
function isCjkChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c >= 0x4e00 && c <= 0x9fff) return true;
  return c >= 0x2e80 && isCjk(ch);
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Shapes of fillers once repeated letters are squeezed ("uhhh" → "uh", "mmm" → "m", "hmmm" → "hm"). */
const FILLER_SHAPES = new Set(['uh', 'um', 'uhm', 'hm', 'm', 'mhm', 'eh', 'ah', 'er', 'erm', 'em', 'ehm']);

/** Filler words: "uh", "uhhh", "ummm", "hmmm", "mm", "ehh", "ahh", "mm-hmm" (lowercase, at most 8 letters). */
function isFillerWord(w: string): boolean {
  if (FILLER_WORDS.has(w)) return true;
  if (w.length > 8 || w.length < 2) return false;
  let squeezed = '';
  for (const ch of w) if (squeezed.at(-1) !== ch) squeezed += ch;
  return FILLER_SHAPES.has(squeezed);
}

/** The tokens of a bounded region, in typed arrays (offsets into the whole text). */
class Tokens {
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly kind: Uint8Array;
  /** 1 when the token is noise (annotation or filler). */
  readonly noise: Uint8Array;
  /** 1 for a contraction token that attaches to the word before ("'s"). */
  readonly attach: Uint8Array;
  /** A hash of the lowercase token, to compare tokens quickly (equal tokens have equal hashes). */
  readonly hash: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.noise = new Uint8Array(capacity);
    this.attach = new Uint8Array(capacity);
    this.hash = new Int32Array(capacity);
  }

  push(s: number, e: number, k: number, attach = 0): void {
    const i = this.length++;
    this.start[i] = s;
    this.end[i] = e;
    this.kind[i] = k;
    this.attach[i] = attach;
  }

  /** Hashes the tokens' lowercase text (FNV-1a over UTF-16 code units, ASCII letters folded). */
  hashAll(text: string): void {
    for (let i = 0; i < this.length; i++) {
      let h = 0x811c9dc5;
      const e = this.end[i]!;
      for (let j = this.start[i]!; j < e; j++) {
        let c = text.charCodeAt(j);
        if (c >= 65 && c <= 90) c += 32;
        else if (c >= 128) c = text[j]!.toLowerCase().charCodeAt(0);
        h = Math.imul(h ^ c, 0x01000193);
      }
      this.hash[i] = h;
    }
  }
}

/**
 * Length of an annotation starting at `text[i]` (`{vocalsound}`, `[Música]`, `[ __ ]`,
 * `(risas)`, `<unk>`, `♪`), or 0. Looks at most ~40 characters ahead.
 */
function annotationAt(text: string, i: number, b: number): number {
  const ch = text[i]!;
  if (MUSIC_SIGNS.has(ch)) return 1;
  const cp = text.codePointAt(i)!;
  if (cp > 0xffff && MUSIC_SIGNS.has(String.fromCodePoint(cp))) return 2;
  const close = ch === '{' ? '}' : ch === '[' ? ']' : ch === '(' ? ')' : ch === '（' ? '）' : ch === '<' ? '>' : '';
  if (!close) return 0;
  // An annotation stands apart: "you[tube]" is a word, not an annotation.
  if (i > 0 && isWordCode(text.charCodeAt(i - 1))) return 0;
  const limit = Math.min(b, i + 42);
  let j = i + 1;
  while (j < limit && text[j] !== close) {
    const c = text.charCodeAt(j);
    if (c === 10 || isDigitCode(c) || text[j] === ch) return 0;
    j++;
  }
  if (j >= limit || j === i + 1) return 0;
  const inner = text.slice(i + 1, j).trim().toLowerCase();
  if (ch === '{') {
    if (!/^[a-z_ -]{1,40}$/.test(inner)) return 0;
  } else if (ch === '[') {
    // Letters, spaces, underscores (the censored "[ __ ]"), a final full stop ("[Laughter.]").
    if (!/^[\p{L}_ '.-]{1,40}$/u.test(inner) && inner !== '') return 0;
    if (inner.split(' ').length > 4) return 0;
  } else if (ch === '<') {
    if (!/^\/?[a-z_]{1,15}$/.test(inner)) return 0;
  } else if (!PAREN_ANNOTATIONS.has(inner.replace(/\.$/, ''))) {
    return 0;
  }
  return j + 1 - i;
}

/** Splits `text[a, b)` into tokens (whitespace is not a token). */
function tokenize(text: string, a: number, b: number): Tokens {
  const t = new Tokens(b - a + 1);
  let i = a;
  while (i < b) {
    const c = text.charCodeAt(i);
    if (isSpaceCode(c)) { i++; continue; }
    const ann = annotationAt(text, i, b);
    if (ann) {
      t.push(i, i + ann, ANNOTATION);
      i += ann;
      continue;
    }
    if (isWordCode(c)) {
      let j = i + 1;
      while (j < b) {
        const d = text.charCodeAt(j);
        if (isWordCode(d)) { j++; continue; }
        // Inner connectors: "uh-huh", "don't", "2.31", "8:15", "1,000".
        const next = j + 1 < b ? text.charCodeAt(j + 1) : 0;
        const connector = d === 45 || d === 39 || d === 0x2019 ? isWordCode(next) : (d === 46 || d === 44 || d === 58) && isDigitCode(text.charCodeAt(j - 1)) && isDigitCode(next);
        if (!connector) break;
        j += 2;
      }
      t.push(i, j, WORD);
      i = j;
      continue;
    }
    if ((c === 39 || c === 0x2019) && t.length > 0 && t.kind[t.length - 1] === WORD && t.end[t.length - 1]! < i) {
      // "it 's", "I 'm": a contraction written apart.
      let j = i + 1;
      while (j < b && j - i <= 3 && isWordCode(text.charCodeAt(j))) j++;
      if (j > i + 1 && (j >= b || !isWordCode(text.charCodeAt(j))) && CONTRACTIONS.has(text.slice(i + 1, j).toLowerCase())) {
        t.push(i, j, WORD, 1);
        i = j;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < b) {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      t.push(i, i + 2, isCjk(ch) ? CJK : LETTER_OR_DIGIT.test(ch) ? WORD : PUNCT);
      i += 2;
      continue;
    }
    t.push(i, i + 1, isCjkChar(text[i]!) ? CJK : PUNCT);
    i++;
  }
  return t;
}

function lower(text: string, t: Tokens, i: number): string {
  return text.slice(t.start[i], t.end[i]).toLowerCase();
}

function isPunct(text: string, t: Tokens, i: number, set: Set<string>): boolean {
  return i >= 0 && i < t.length && t.kind[i] === PUNCT && set.has(text[t.start[i]!]!);
}

/** True when token `i` begins a clause: first token, or after punctuation or noise. */
function clauseStart(t: Tokens, i: number): boolean {
  return i === 0 || t.kind[i - 1] === PUNCT || t.noise[i - 1] === 1;
}

/** Marks annotation and filler tokens as noise, in one left-to-right pass. */
function markNoise(text: string, t: Tokens): void {
  for (let i = 0; i < t.length; i++) {
    const k = t.kind[i];
    if (k === ANNOTATION) { t.noise[i] = 1; continue; }
    if (k === CJK) {
      const ch = text[t.start[i]!]!;
      if (ZH_FILLERS_ANYWHERE.has(ch) || (ZH_FILLERS_AT_CLAUSE_START.has(ch) && clauseStart(t, i))) t.noise[i] = 1;
      continue;
    }
    if (k !== WORD || t.end[i]! - t.start[i]! > 8) continue;
    const w = lower(text, t, i);
    // "5 mm" is a measure, not a filler.
    if (isFillerWord(w) && !(i > 0 && t.kind[i - 1] === WORD && isDigitCode(text.charCodeAt(t.end[i - 1]! - 1)))) {
      t.noise[i] = 1;
      // "Mm - hmm", "Uh - huh" written with a spaced hyphen.
      if (HYPHEN_FILLER_HEADS.has(w) && isPunct(text, t, i + 1, DASHES) && i + 2 < t.length && t.kind[i + 2] === WORD && HYPHEN_FILLER_TAILS.has(lower(text, t, i + 2))) {
        t.noise[i + 1] = 1;
        t.noise[i + 2] = 1;
        i += 2;
      }
      continue;
    }
    // "you know" set off by commas: ", you know ," or "You know, …" at the start of a clause.
    if (w === 'you' && i + 1 < t.length && t.kind[i + 1] === WORD && lower(text, t, i + 1) === 'know') {
      const before = i === 0 || isPunct(text, t, i - 1, COMMAS) || isPunct(text, t, i - 1, FINAL) || t.noise[i - 1] === 1;
      const after = i + 2 >= t.length || isPunct(text, t, i + 2, COMMAS) || isPunct(text, t, i + 2, FINAL) || isPunct(text, t, i + 2, DASHES) || t.kind[i + 2] === ANNOTATION;
      if (before && after) {
        t.noise[i] = 1;
        t.noise[i + 1] = 1;
        i += 1;
      }
    }
  }
}

/** Output of cleaning a region: the kept tokens in order, with their spacing. */
interface Kept {
  /** Token indices. */
  idx: number[];
  /** Whether a space (1), a line break (2), a paragraph break (3) or nothing (0) precedes. */
  gap: number[];
  /** Noise found: annotations, filler runs, stutters (as written). */
  noise: string[];
}

function keyOf(text: string, t: Tokens, i: number): string {
  return t.kind[i] === WORD ? lower(text, t, i) : text.slice(t.start[i], t.end[i]);
}

/** Gap code for the original whitespace between offsets a and b. */
function gapBetween(text: string, a: number, b: number): number {
  if (b <= a) return 0;
  let newlines = 0;
  for (let i = a; i < b && newlines < 2; i++) if (text.charCodeAt(i) === 10) newlines++;
  return newlines === 0 ? 1 : newlines === 1 ? 2 : 3;
}

/**
 * Removes noise from tokens `[from, to]` and collapses stutters, keeping the spacing of the
 * original. A filler run wrapped in commas takes its commas with it.
 */
function keep(text: string, t: Tokens, from: number, to: number, lines: boolean, collect: boolean): Kept {
  const idx: number[] = [];
  const gap: number[] = [];
  const noise: string[] = [];
  let removedSince = false;
  let runHadComma = false;
  let i = from;
  const lastKept = (): number => (idx.length ? idx[idx.length - 1]! : -1);
  // The widest whitespace met since the last kept token (each gap is looked at once: linear).
  let acc = 0;
  const gapBefore = (j: number): number => (j > from ? gapBetween(text, t.end[j - 1]!, t.start[j]!) : 0);
  while (i <= to) {
    acc = Math.max(acc, gapBefore(i));
    if (t.noise[i]) {
      // A run of noise tokens and the commas inside it.
      const runStart = i;
      runHadComma = false;
      while (i <= to && (t.noise[i] || isPunct(text, t, i, COMMAS) || isPunct(text, t, i, DASHES))) {
        if (i > runStart) acc = Math.max(acc, gapBefore(i));
        if (!t.noise[i] && isPunct(text, t, i, COMMAS)) runHadComma = true;
        i++;
      }
      // The run's own text is its noise tokens (up to the last one; commas after it go with it).
      let lastNoise = i - 1;
      while (lastNoise > runStart && !t.noise[lastNoise]) lastNoise--;
      noise.push(runNoiseText(text, t, runStart, lastNoise));
      // A cut-off fragment right before the noise ("but w uh that", "ch {disfmarker}") goes with it.
      if (idx.length && isFragment(text, t, lastKept()) && !(idx.length > 1 && isDigitCode(text.charCodeAt(t.end[idx[idx.length - 2]!]! - 1)))) {
        noise.push(text.slice(t.start[lastKept()], t.end[lastKept()]));
        idx.pop();
        gap.pop();
      }
      const lk = lastKept();
      const rightFinal = i > to || isPunct(text, t, i, FINAL);
      if (lk >= 0 && isPunct(text, t, lk, COMMAS) && (runHadComma || rightFinal)) {
        idx.pop();
        gap.pop();
      }
      removedSince = true;
      continue;
    }
    const k = t.kind[i]!;
    let g = idx.length ? acc : 0;
    if (removedSince && g === 0 && idx.length && t.kind[lastKept()] !== CJK && k !== CJK) g = 1;
    removedSince = false;
    acc = 0;
    if (k === PUNCT) {
      const ch = text[t.start[i]!]!;
      const lk = lastKept();
      if (COMMAS.has(ch) && (lk < 0 || isPunct(text, t, lk, COMMAS) || isPunct(text, t, lk, FINAL))) { i++; continue; }
      if (FINAL.has(ch) && lk >= 0 && isPunct(text, t, lk, COMMAS)) {
        idx.pop();
        gap.pop();
      }
      idx.push(i);
      gap.push(idx.length === 1 ? 0 : g);
      i++;
      continue;
    }
    // A cut-off fragment before the word it starts ("m much"): the fragment goes.
    const lk = lastKept();
    if (k === WORD && lk >= 0 && t.kind[lk] === WORD && !t.attach[i] && g > 0) {
      const f = text.slice(t.start[lk], t.end[lk]);
      const w = lower(text, t, i);
      // "it it's", "we we're": the word repeated in its contracted form.
      const contracted = f.length <= 6 && !DOUBLE_OK.has(f.toLowerCase()) && (w.startsWith(f.toLowerCase() + "'") || w.startsWith(f.toLowerCase() + '’'));
      if (contracted || isFragment(text, t, lk)) {
        if (contracted || (w.length > f.length && w.startsWith(f))) {
          noise.push(f);
          idx.pop();
          g = gap.pop()!;
        }
      }
    }
    idx.push(i);
    gap.push(idx.length === 1 ? 0 : g);
    const n = stutterAt(text, t, idx, gap, lines);
    if (n) {
      if (collect) noise.push(idx.slice(idx.length - 2 * n).map((x) => text.slice(t.start[x], t.end[x])).join(t.kind[i] === CJK ? '' : ' '));
      for (let j = 0; j < n; j++) {
        idx.pop();
        gap.pop();
      }
    }
    i++;
  }
  return { idx, gap, noise };
}

/** A cut-off word: one or two lowercase letters that are not a word of their own. */
function isFragment(text: string, t: Tokens, i: number): boolean {
  if (t.kind[i] !== WORD || t.attach[i] || t.end[i]! - t.start[i]! > 2) return false;
  const f = text.slice(t.start[i], t.end[i]);
  return /^[a-zñ]+$/.test(f) && !SHORT_WORDS.has(f);
}

/** The text of a noise run, annotations and fillers only (commas between them left out). */
function runNoiseText(text: string, t: Tokens, a: number, b: number): string {
  const parts: string[] = [];
  for (let i = a; i <= b; i++) if (t.noise[i]) parts.push(text.slice(t.start[i], t.end[i]));
  return parts.join(' ');
}

/** Longest repetition looked for, in tokens ("it 's a good it 's a good" is four). */
const MAX_STUTTER_TOKENS = 6;

/**
 * Length n (1–{@link MAX_STUTTER_TOKENS}) of an immediate repetition at the end of the kept
 * tokens, or 0. With `lines`, a repetition across a line break does not count.
 */
function stutterAt(text: string, t: Tokens, idx: number[], gap: number[], lines: boolean): number {
  const m = idx.length;
  const last = idx[m - 1]!;
  for (let n = 1; n <= MAX_STUTTER_TOKENS; n++) {
    if (m < 2 * n) return 0;
    if (lines && gap[m - 1 - (n - 1)]! >= 2) return 0;
    // A repetition starts at a word, not inside one ("'s it 's it").
    if (t.attach[idx[m - n]!] || t.hash[idx[m - n - 1]!] !== t.hash[last]) continue;
    let same = true;
    for (let j = 0; j < n && same; j++) {
      const a = idx[m - 2 * n + j]!;
      const b = idx[m - n + j]!;
      const ka = t.kind[a]!;
      if (t.hash[a] !== t.hash[b] || ka !== t.kind[b] || (ka !== WORD && ka !== CJK) || t.attach[a] !== t.attach[b]) same = false;
      else if (keyOf(text, t, a) !== keyOf(text, t, b)) same = false;
    }
    if (!same) continue;
    const k = t.kind[last]!;
    if (n === 1) {
      const w = keyOf(text, t, last);
      if (k === WORD && (DOUBLE_OK.has(w) || isDigitCode(w.charCodeAt(0)))) return 0;
      if (k === CJK && !ZH_STUTTER_CHARS.has(w)) return 0;
    }
    // A repeated run with digits is a number read out ("one two one two"), not a stutter.
    if (k === WORD && n > 1 && isDigitCode(text.charCodeAt(t.start[last]!))) return 0;
    return n;
  }
  return 0;
}

/** Renders kept tokens as readable text. `lines`: keep line breaks (else every gap is one space). */
function render(text: string, t: Tokens, kept: Kept, lines: boolean): string {
  let out = '';
  const pieces: string[] = [];
  // Straight double quotes alternate: an opening one glues to what follows, a closing one to what precedes.
  let quotes = 0;
  let prevOpensQuote = false;
  for (let j = 0; j < kept.idx.length; j++) {
    const i = kept.idx[j]!;
    const s = text.slice(t.start[i], t.end[i]);
    const isQuote = t.kind[i] === PUNCT && s === '"';
    if (j > 0) {
      const p = kept.idx[j - 1]!;
      const g = kept.gap[j]!;
      const prev = text[t.end[p]! - 1]!;
      const bothCjk = (t.kind[p] === CJK || (t.kind[p] === PUNCT && isCjkPunct(prev))) && (t.kind[i] === CJK || (t.kind[i] === PUNCT && isCjkPunct(s)));
      const closesQuote = isQuote && quotes % 2 === 1;
      const glued = t.attach[i] || (t.kind[i] === PUNCT && NO_SPACE_BEFORE.has(s)) || (t.kind[p] === PUNCT && NO_SPACE_AFTER.has(prev)) || bothCjk || closesQuote || prevOpensQuote;
      if (g >= 2 && lines) out += g === 3 ? '\n\n' : '\n';
      else if (g > 0 && !glued) out += ' ';
    }
    out += s;
    prevOpensQuote = isQuote && quotes % 2 === 0;
    if (isQuote) quotes++;
    if (out.length > 4096) {
      pieces.push(out);
      out = '';
    }
  }
  pieces.push(out);
  return pieces.join('');
}

function isCjkPunct(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef);
}

/** Index of the first content token (a word or CJK character that is not noise) at or after i, or -1. */
function firstContent(t: Tokens, i: number): number {
  for (; i < t.length; i++) if ((t.kind[i] === WORD || t.kind[i] === CJK) && !t.noise[i]) return i;
  return -1;
}

function lastContent(t: Tokens): number {
  for (let i = t.length - 1; i >= 0; i--) if ((t.kind[i] === WORD || t.kind[i] === CJK) && !t.noise[i]) return i;
  return -1;
}

/** Cleans one bounded region; token range of the trimmed span and the tokens. */
function cleanRegion(text: string, a: number, b: number): { t: Tokens; first: number; last: number } | undefined {
  const t = tokenize(text, a, b);
  t.hashAll(text);
  markNoise(text, t);
  let first = firstContent(t, 0);
  if (first < 0) return undefined;
  let last = lastContent(t);
  // Openers right before the first word ("¿Qué", "(see", "“Yes") stay when their closer is in the span.
  while (first > 0 && t.kind[first - 1] === PUNCT && !t.noise[first - 1] && t.end[first - 1] === t.start[first]) {
    const o = text[t.start[first - 1]!]!;
    const c = OPENERS[o];
    if (!c || !hasAfter(text, t, first, c)) break;
    first--;
  }
  // Sentence-final punctuation and balanced closers after the last word.
  let depth = openDepth(text, t, first, last);
  while (last + 1 < t.length && t.kind[last + 1] === PUNCT && !t.noise[last + 1]) {
    const ch = text[t.start[last + 1]!]!;
    if (FINAL.has(ch)) { last++; continue; }
    if (CLOSERS.has(ch) && depth > 0) { depth--; last++; continue; }
    break;
  }
  return { t, first, last };
}

function hasAfter(text: string, t: Tokens, from: number, ch: string): boolean {
  for (let i = from; i < t.length; i++) if (t.kind[i] === PUNCT && text[t.start[i]!] === ch) return true;
  return false;
}

/** Openers inside tokens [a, b] not closed by b (quotes count by parity). */
function openDepth(text: string, t: Tokens, a: number, b: number): number {
  let depth = 0;
  let quotes = 0;
  for (let i = a; i <= b; i++) {
    if (t.kind[i] !== PUNCT) continue;
    const ch = text[t.start[i]!]!;
    if (ch === '"') quotes++;
    else if (ch in OPENERS && ch !== '¿' && ch !== '¡') depth++;
    else if (CLOSERS.has(ch) && ch !== '?' && ch !== '!' && depth > 0) depth--;
  }
  return depth + (quotes % 2);
}

/** Cuts [a, b) into regions of at most about {@link REGION_CHARS}, at whitespace where there is some. */
function regions(text: string, a: number, b: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  while (a < b) {
    let z = b;
    if (b - a > REGION_CHARS) {
      z = a + REGION_CHARS;
      let s = z;
      while (s > a + REGION_CHARS / 2 && !isSpaceCode(text.charCodeAt(s))) s--;
      if (s > a + REGION_CHARS / 2) z = s;
      else if (text.charCodeAt(z) >= 0xdc00 && text.charCodeAt(z) <= 0xdfff) z--;
    }
    out.push([a, z]);
    a = z;
  }
  return out;
}

/**
 * The span `text[start, end)` trimmed to real content, with its readable form.
 *
 * Annotation tokens, filler runs and punctuation left dangling are trimmed from the edges
 * (sentence-final punctuation and balanced closers after the last word stay), so
 * `text.slice(r.start, r.end)` begins and ends with content; `r.text` has inner annotations and
 * fillers removed, stutters collapsed ("the the" → "the", "我我" → "我"), whitespace normalised
 * to single spaces and no space before punctuation. Undefined when nothing is left.
 *
 * @example
 * ```ts
 * const s = 'Um , so we {disfmarker} we decided , uh , to go . {vocalsound}';
 * cleanSpan(s, 0, s.length); // { start: 5, end: 49, text: 'so we decided to go.' }
 * ```
 */
export function cleanSpan(text: string, start: number, end: number): CleanSpan | undefined {
  const a = Math.max(0, Math.min(start, text.length));
  const b = Math.max(a, Math.min(end, text.length));
  let s = -1;
  let e = -1;
  const parts: string[] = [];
  for (const [ra, rb] of regions(text, a, b)) {
    const r = cleanRegion(text, ra, rb);
    if (!r) continue;
    if (s < 0) s = r.t.start[r.first]!;
    e = r.t.end[r.last]!;
    const rendered = render(text, r.t, keep(text, r.t, r.first, r.last, false, false), false);
    if (rendered) parts.push(rendered);
  }
  if (s < 0 || !parts.length) return undefined;
  return { start: s, end: e, text: parts.join(' ') };
}

/**
 * The readable form of any text, by the rules of {@link cleanSpan}, line by line: lines that are
 * only noise disappear, line breaks between the others stay (a blank line stays one blank line).
 *
 * @example cleanText('[Música]\nthe the plan is um ready') === 'the plan is ready'
 */
export function cleanText(text: string): string {
  const pieces: string[] = [];
  let out = '';
  let blank = false;
  let i = 0;
  const n = text.length;
  while (i <= n) {
    let j = text.indexOf('\n', i);
    if (j < 0) j = n;
    const r = cleanSpan(text, i, j);
    if (r) {
      if (out || pieces.length) out += blank ? '\n\n' : '\n';
      out += r.text;
      blank = false;
      if (out.length > 65_536) {
        pieces.push(out);
        out = '';
      }
    } else if (isBlank(text, i, j)) {
      blank = true;
    }
    i = j + 1;
  }
  pieces.push(out);
  return pieces.join('');
}

function isBlank(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

/**
 * The annotation and filler tokens (and stutters) found in a text, as written, in order — what
 * {@link cleanText} takes out. Empty for a clean text.
 *
 * @example noiseIn('Eh , um , {vocalsound} this this works') // ['Eh um {vocalsound}', 'this this']
 */
export function noiseIn(text: string): string[] {
  const out: string[] = [];
  for (const [a, b] of regions(text, 0, text.length)) {
    const t = tokenize(text, a, b);
    t.hashAll(text);
    markNoise(text, t);
    if (t.length) out.push(...keep(text, t, 0, t.length - 1, true, true).noise);
  }
  return out;
}

/**
 * Where the annotation tokens of `text[start, end)` are (`{disfmarker}`, `[Música]`, `[ __ ]`,
 * `(risas)`, `<unk>`, `♪`): the tokens {@link cleanText} takes out as annotations, by its own
 * rule, as offsets into `text`, in order.
 *
 * @example annotationSpans('so {vocalsound} yes [ __ ]') // [{ start: 3, end: 15 }, { start: 20, end: 26 }]
 */
export function annotationSpans(text: string, start = 0, end = text.length): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const [a, b] of regions(text, Math.max(0, start), Math.min(end, text.length))) {
    const t = tokenize(text, a, b);
    for (let i = 0; i < t.length; i++) if (t.kind[i] === ANNOTATION) out.push({ start: t.start[i]!, end: t.end[i]! });
  }
  return out;
}

/** Number of words of the text after cleaning (the rule of `countWords`: a CJK character is half a word). */
export function contentWordCount(text: string): number {
  return countWords(cleanText(text));
}

/**
 * True when `word` alone is a spoken filler by the cleaner's own rules: "uh", "ummm", "hmmm",
 * "mm-hmm", "uh-huh", "ehh" (case-insensitive), or a Chinese filler character (嗯, 呃, and the
 * clause-initial 啊, 额, 哦, 噢). The vocabulary {@link cleanText} takes out, for callers that
 * judge words rather than clean text (see `contentFree.ts`).
 *
 * @example isSpokenFiller('Mmm') === true; isSpokenFiller('嗯') === true; isSpokenFiller('mm5') === false
 */
export function isSpokenFiller(word: string): boolean {
  const w = word.trim().toLowerCase();
  if (!w) return false;
  if (ZH_FILLERS_ANYWHERE.has(w) || ZH_FILLERS_AT_CLAUSE_START.has(w)) return true;
  return isFillerWord(w);
}
