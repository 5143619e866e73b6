/**
 * Sentences of a part with their offsets in the part's normalised text.
 *
 * - Punctuated text is split with `Intl.Segmenter` (sentence granularity), fed in bounded
 *   windows so the work stays linear; a sentence never crosses a turn or comment boundary.
 * - Punctuated captions (short cues that mostly stop mid-sentence, as in SRT/VTT files) are
 *   joined into blocks of consecutive cues of one speaker before splitting, so a sentence may
 *   span several cues (`unit` … `lastUnit`).
 * - Unpunctuated transcripts (auto-captions: fewer than one sentence end per
 *   {@link UNPUNCTUATED_WORDS_PER_END} words) get pseudo-sentences: consecutive caption lines of
 *   one speaker joined up to a length bound, cut at pauses, speaker changes, lines that are only
 *   annotations ("[Música]") and discourse openers ("entonces", "so", "然后").
 *
 * `Sentence.text` is always `part.text.slice(start, end)`, trimmed of whitespace only; the
 * readable form (fillers and annotations out) is `cleanSpan` of `src/core/text/clean`.
 */
import type { CommentsPart, TranscriptPart, TranscriptSegment } from '../corpus/types';
import { cleanSpan } from '../text/clean';
import { countWords } from '../text/words';

export interface Sentence {
  /** Offsets in the part's normalised text. */
  start: number;
  end: number;
  /** `text.slice(start, end)` of the part (may hold line breaks when it spans several segments). */
  text: string;
  /** Index of the segment or comment it belongs to (the first one when it spans several). */
  unit: number;
  /** Index of the last segment, when the sentence spans several (pseudo-sentences of captions). */
  lastUnit?: number;
}

/**
 * A sentence longer than this many characters (text without sentence ends, such as an
 * unpunctuated auto-caption) is cut into pieces of at most this length, at a space where there
 * is one, so every consumer of sentences stays bounded.
 */
export const MAX_SENTENCE_CHARS = 4_000;

/** Bounds of pseudo-sentences built from unpunctuated captions. */
export const PSEUDO_SENTENCE = {
  /** Below this many words a pseudo-sentence is not cut at a length bound or an opener. */
  minWords: 12,
  /** A pseudo-sentence is cut before a line that would take it past this many words… */
  targetWords: 40,
  /** …and never grows past this many (a long line is cut inside). */
  maxWords: 60,
  /** A gap of at least this many seconds between two lines is a pause: it ends the pseudo-sentence. */
  pauseSeconds: 1.0,
} as const;

/** A transcript with fewer sentence ends than one per this many words is unpunctuated. */
export const UNPUNCTUATED_WORDS_PER_END = 40;

/** Characters that end a sentence. */
const ENDS = new Set(['.', '!', '?', '。', '！', '？', ';', '；']);
/** Closing quotes and brackets that belong to the sentence they follow. */
const CLOSERS = new Set(['"', "'", '”', '’', ')', '）']);
/** After a full stop, these mean it is inside a number or a web address ("2.31", "youtu.be/x"). */
const CONTINUES = /^[\p{L}\p{N}/_~-]/u;

/**
 * Splits text into sentences, trimmed, with offsets relative to `base`, by punctuation alone.
 *
 * A sentence is a run of text up to one or more sentence ends (plus closing
 * quotes) or the end of the text; a full stop inside a number or a web address
 * does not end it, and text before a line break without a sentence end is left
 * out (cut at its last inner full stop, if any). One linear pass, no regular
 * expression backtracking, so an arbitrarily long text cannot overflow it.
 * (Used where windows of text are cut; {@link partSentences} uses {@link segmentSentences}.)
 */
export function splitSentences(text: string, base = 0, unit = 0): Sentence[] {
  const out: Sentence[] = [];
  const n = text.length;
  /** True when text[i] belongs to the body of a sentence. */
  const isBody = (i: number): boolean => {
    const ch = text[i]!;
    if (ch === '\n') return false;
    if (ch === '.') return i + 1 < n && CONTINUES.test(text.slice(i + 1, i + 3));
    return !ENDS.has(ch);
  };
  let i = 0;
  while (i < n) {
    if (!isBody(i)) { i++; continue; }
    const p = i;
    let lastDot = -1;
    let q = p;
    while (q < n && isBody(q)) {
      if (q > p && text.charCodeAt(q) === 46) lastDot = q;
      q++;
    }
    if (q === n) {
      emit(out, text, p, n, base, unit);
      i = n;
    } else if (text[q] !== '\n') {
      let e = q;
      while (e < n && ENDS.has(text[e]!)) e++;
      while (e < n && CLOSERS.has(text[e]!)) e++;
      emit(out, text, p, e, base, unit);
      i = e;
    } else if (lastDot > p) {
      emit(out, text, p, lastDot + 1, base, unit);
      i = lastDot + 1;
    } else {
      i = q;
    }
  }
  return out;
}

/** Pushes text[a, b) trimmed, cut into pieces of at most {@link MAX_SENTENCE_CHARS}. */
function emit(out: Sentence[], text: string, a: number, b: number, base: number, unit: number): void {
  while (a < b) {
    const z = b - a > MAX_SENTENCE_CHARS ? cutPoint(text, a) : b;
    const raw = text.slice(a, z);
    const t = raw.trim();
    if (t) {
      const start = base + a + (raw.length - raw.trimStart().length);
      out.push({ start, end: start + t.length, text: t, unit });
    }
    a = z;
  }
}

/** Where to cut a run longer than {@link MAX_SENTENCE_CHARS} that starts at `a`: after a space if there is one in its second half. */
function cutPoint(text: string, a: number): number {
  let z = a + MAX_SENTENCE_CHARS;
  const space = text.lastIndexOf(' ', z - 1);
  if (space > a + MAX_SENTENCE_CHARS / 2) z = space + 1;
  else if (/[\udc00-\udfff]/.test(text[z] ?? '')) z--; // do not cut a surrogate pair
  return z;
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(lang: string): Intl.Segmenter {
  let s = segmenters.get(lang);
  if (!s) {
    s = new Intl.Segmenter(lang, { granularity: 'sentence' });
    segmenters.set(lang, s);
  }
  return s;
}

/**
 * Splits text into sentences with `Intl.Segmenter`, trimmed, with offsets relative to `base`.
 *
 * Also ends a sentence at a semicolon (";", "；") and never inside a number or a web address
 * ("2.31", "youtu.be/x"). V8's segmenter costs time quadratic in the length of the string it is
 * given, so the text is fed in windows of {@link MAX_SENTENCE_CHARS} characters: each window's
 * last (possibly unfinished) sentence is read again at the start of the next; a window holding a
 * single sentence is cut like {@link splitSentences} does. Linear overall.
 *
 * @example segmentSentences('It costs 2.31 dollars. See youtu.be/x! Ok?').map((s) => s.text)
 *   // ['It costs 2.31 dollars.', 'See youtu.be/x!', 'Ok?']
 */
export function segmentSentences(text: string, base = 0, unit = 0, lang = 'en'): Sentence[] {
  const out: Sentence[] = [];
  const seg = segmenter(lang);
  const n = text.length;
  let a = 0;
  while (a < n) {
    const b = Math.min(n, a + MAX_SENTENCE_CHARS);
    const window = text.slice(a, b);
    const bounds: number[] = [];
    for (const s of seg.segment(window)) bounds.push(a + s.index);
    bounds.push(b);
    // Breaks inside a number or a web address are not sentence ends.
    const ends: number[] = [];
    for (let k = 1; k < bounds.length; k++) {
      const e = bounds[k]!;
      if (e < b && insideToken(text, e)) continue;
      ends.push(e);
    }
    let from = a;
    const complete = b === n ? ends.length : ends.length - 1;
    for (let k = 0; k < complete; k++) {
      pushSplitAtSemicolons(out, text, from, ends[k]!, base, unit);
      from = ends[k]!;
    }
    if (b === n) break;
    if (from > a) {
      a = from;
    } else {
      // One sentence fills the whole window: cut it at a space.
      const z = cutPoint(text, a);
      pushTrimmed(out, text, a, z, base, unit);
      a = z;
    }
  }
  return out;
}

/** True when offset `i` of `text` follows a full stop with no space and precedes a letter, digit or "/" ("2.31", "youtu.be"). */
function insideToken(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j === i - 1 && text[j] === '.' && CONTINUES.test(text.slice(i, i + 2));
}

function pushSplitAtSemicolons(out: Sentence[], text: string, a: number, b: number, base: number, unit: number): void {
  let from = a;
  for (let i = a; i < b; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 59 || ch === 0xff1b) {
      pushTrimmed(out, text, from, i + 1, base, unit);
      from = i + 1;
    }
  }
  pushTrimmed(out, text, from, b, base, unit);
}

function pushTrimmed(out: Sentence[], text: string, a: number, b: number, base: number, unit: number): void {
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  if (b > a) out.push({ start: base + a, end: base + b, text: text.slice(a, b), unit });
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || c === 0x200b || c === 0xfeff;
}

/** True when the character code ends a sentence (a full stop only when not inside a number). */
function isSentenceEnd(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 46) return !(i + 1 < text.length && text.charCodeAt(i + 1) >= 48 && text.charCodeAt(i + 1) <= 57);
  return c === 33 || c === 63 || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0x2026;
}

/** Number of sentence ends in `text`. */
function countSentenceEnds(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (isSentenceEnd(text, i) && (i + 1 >= text.length || !isSentenceEnd(text, i + 1))) n++;
  return n;
}

/** How a transcript is cut into sentences: see the module comment. */
export type TranscriptStyle = 'turns' | 'captions' | 'unpunctuated';

/**
 * The style of a transcript: `unpunctuated` when it has fewer than one sentence end per
 * {@link UNPUNCTUATED_WORDS_PER_END} words; `captions` when most segments are short lines that
 * stop mid-sentence; `turns` otherwise (each segment split on its own).
 */
export function transcriptStyle(part: TranscriptPart): TranscriptStyle {
  const words = part.wordCount || countWords(part.text);
  if (words === 0) return 'turns';
  if (countSentenceEnds(part.text) * UNPUNCTUATED_WORDS_PER_END < words) return 'unpunctuated';
  let open = 0;
  let short = 0;
  let counted = 0;
  for (const s of part.segments) {
    const t = s.text.trimEnd();
    if (!t) continue;
    counted++;
    let k = t.length - 1;
    while (k > 0 && CLOSERS.has(t[k]!)) k--;
    if (!isSentenceEnd(t, k) && !ENDS.has(t[k]!)) open++;
    if (t.length <= 120) short++;
  }
  return counted >= 4 && open * 2 > counted && short * 4 >= counted * 3 ? 'captions' : 'turns';
}

/** Language tag for the segmenter: Chinese when the text starts with Han characters, else English rules (they are the same for Spanish). */
function langOf(text: string): string {
  let han = 0;
  let letters = 0;
  for (let i = 0; i < text.length && letters < 400; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x4e00 && c <= 0x9fff) { han++; letters++; } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0) letters++;
  }
  return han * 5 > letters ? 'zh' : 'en';
}

/** All sentences of a transcript or comments part, in order; sentences that are only annotations or fillers are left out. */
export function partSentences(part: TranscriptPart | CommentsPart): Sentence[] {
  const lang = langOf(part.text);
  const out: Sentence[] = [];
  if (part.kind === 'comments') {
    // (Pushed one by one: a comment can hold more sentences than a call takes arguments.)
    for (const c of part.comments) if (c.text.trim()) for (const s of segmentSentences(c.text, c.offset, c.index, lang)) out.push(s);
    return out.filter((s) => hasContent(part.text, s));
  }
  const style = transcriptStyle(part);
  if (style === 'unpunctuated') return pseudoSentences(part);
  if (style === 'captions') return captionSentences(part, lang);
  for (const seg of part.segments) for (const s of segmentSentences(seg.text, seg.offset, seg.index, lang)) out.push(s);
  return out.filter((s) => hasContent(part.text, s));
}

/** Sentences longer than this always hold content (checking costs a cleaning pass). */
const NOISE_CHECK_CHARS = 200;

function hasContent(text: string, s: Sentence): boolean {
  return plainWordIn(text, s.start, Math.min(s.end, s.start + NOISE_CHECK_CHARS)) || s.end - s.start > NOISE_CHECK_CHARS || cleanSpan(text, s.start, s.end) !== undefined;
}

/** ASCII letters and the Latin letters with accents (À–ɏ). */
function isLatinLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7);
}

/** Letters fillers are made of ("uhhh", "hmmm", "ahh"): a word of other letters is surely content. */
const FILLER_LETTERS = new Set([...'uhmerUHMER']);

/**
 * A quick sufficient test for content: an ASCII word of four letters or more, not right after an
 * annotation's opening bracket, with a letter that no filler has. (When it fails, cleaning decides.)
 */
function plainWordIn(text: string, a: number, b: number): boolean {
  let i = a;
  while (i < b) {
    const c = text.charCodeAt(i);
    if (!isLatinLetter(c)) { i++; continue; }
    let j = i;
    let plain = false;
    while (j < b && isLatinLetter(text.charCodeAt(j))) {
      if (!FILLER_LETTERS.has(text[j]!)) plain = true;
      j++;
    }
    const prev = i > 0 ? text[i - 1] : ' ';
    // ("you know" is a filler too.)
    if (plain && j - i >= 4 && prev !== '{' && prev !== '[' && prev !== '(' && prev !== '<' && text.slice(i, j).toLowerCase() !== 'know') return true;
    i = j;
  }
  return false;
}

/** True when the segment holds nothing but annotations, fillers and punctuation ("[Música]", "Mm - hmm ."). */
function isNoiseOnly(s: TranscriptSegment): boolean {
  return s.text.length <= NOISE_CHECK_CHARS && !plainWordIn(s.text, 0, s.text.length) && cleanSpan(s.text, 0, s.text.length) === undefined;
}

/** True when the gap between two segments is a pause. */
function isPause(prev: TranscriptSegment, next: TranscriptSegment): boolean {
  return prev.end !== undefined && next.start !== undefined && next.start - prev.end >= PSEUDO_SENTENCE.pauseSeconds;
}

/** Punctuated captions: blocks of consecutive cues of one speaker, split by the segmenter; a sentence may span cues. */
function captionSentences(part: TranscriptPart, lang: string): Sentence[] {
  const out: Sentence[] = [];
  const segs = part.segments;
  let i = 0;
  while (i < segs.length) {
    if (isNoiseOnly(segs[i]!)) { i++; continue; }
    let j = i;
    // A block ends at a speaker change, at a line of noise, at a long pause after a sentence end, or past a size bound.
    while (j + 1 < segs.length) {
      const a = segs[j]!;
      const b = segs[j + 1]!;
      if ((a.speaker ?? '') !== (b.speaker ?? '') || isNoiseOnly(b)) break;
      if (b.offset + b.text.length - segs[i]!.offset > 4 * MAX_SENTENCE_CHARS && endsSentence(a.text)) break;
      if (b.offset + b.text.length - segs[i]!.offset > 16 * MAX_SENTENCE_CHARS) break;
      if (isPause(a, b) && b.start! - a.end! >= 3 * PSEUDO_SENTENCE.pauseSeconds) break;
      j++;
    }
    const from = segs[i]!.offset;
    const to = segs[j]!.offset + segs[j]!.text.length;
    // Line breaks between cues are spaces inside the block (same length, so offsets hold).
    const block = part.text.slice(from, to).replace(/\n/g, ' ');
    for (const s of segmentSentences(block, from, segs[i]!.index, lang)) {
      const first = segmentAt(segs, i, j, s.start);
      const last = segmentAt(segs, i, j, s.end - 1);
      const sentence: Sentence = { start: s.start, end: s.end, text: part.text.slice(s.start, s.end), unit: segs[first]!.index };
      if (last !== first) sentence.lastUnit = segs[last]!.index;
      if (hasContent(part.text, sentence)) out.push(sentence);
    }
    i = j + 1;
  }
  return out;
}

function endsSentence(text: string): boolean {
  const t = text.trimEnd();
  return t.length > 0 && (isSentenceEnd(t, t.length - 1) || ENDS.has(t[t.length - 1]!));
}

/** Index (in `segs`, between lo and hi) of the segment holding `offset`. */
function segmentAt(segs: TranscriptSegment[], lo: number, hi: number, offset: number): number {
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid]!.offset <= offset) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** Words that open a new thought in speech; a pseudo-sentence of at least the minimum length is cut before a line starting with one. */
const OPENERS = new Set([
  'entonces', 'bueno', 'pero', 'pues', 'claro', 'vale', 'mira', 'oye', 'además', 'luego', 'después', 'osea', 'porque', 'igual',
  'so', 'but', 'well', 'okay', 'ok', 'anyway', 'now', 'because', 'actually', 'also', 'alright',
]);
const ZH_OPENERS = ['然后', '所以', '但是', '那么', '因为', '其实', '就是说', '另外', '首先', '最后', '不过'];

/** Lowercase first word of a text (letters only), at most 12 characters looked at. */
function firstWord(text: string, from: number): string {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  let j = i;
  while (j < text.length && j - i < 12 && /\p{L}/u.test(text[j]!)) j++;
  return text.slice(i, j).toLowerCase();
}

function startsWithOpener(text: string): boolean {
  const w = firstWord(text, 0);
  if (OPENERS.has(w)) return true;
  const t = text.trimStart();
  return ZH_OPENERS.some((o) => t.startsWith(o));
}

/** Words of a whitespace-delimited piece: one for a Latin word, half per CJK character. */
function pieceWords(text: string, a: number, b: number): number {
  let ascii = true;
  let alnum = false;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x2e80) { ascii = false; break; }
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0) alnum = true;
  }
  return ascii ? (alnum ? 1 : 0) : countWords(text.slice(a, b));
}

/** Words of a text by the rule of `countWords`, fast for text without CJK characters. */
function fastWords(text: string): number {
  let words = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    let j = i;
    while (j < n && !isSpace(text.charCodeAt(j))) j++;
    if (j > i) words += pieceWords(text, i, j);
    i = j;
  }
  return words;
}

/** A whitespace-delimited piece longer than this (a run of CJK without spaces) is cut into pieces this long. */
const MAX_PIECE_CHARS = 24;

/**
 * Pseudo-sentences of an unpunctuated transcript: consecutive lines of one speaker joined, cut at
 * pauses, speaker changes, noise-only lines, sentence ends, openers past the minimum length, and
 * length bounds ({@link PSEUDO_SENTENCE}). Linear in the text.
 */
function pseudoSentences(part: TranscriptPart): Sentence[] {
  const out: Sentence[] = [];
  const text = part.text;
  let cur: { start: number; end: number; words: number; unit: number; lastUnit: number } | undefined;
  const flush = (): void => {
    if (!cur) return;
    const s: Sentence = { start: cur.start, end: cur.end, text: text.slice(cur.start, cur.end), unit: cur.unit };
    if (cur.lastUnit !== cur.unit) s.lastUnit = cur.lastUnit;
    if (hasContent(text, s)) out.push(s);
    cur = undefined;
  };
  let prev: TranscriptSegment | undefined;
  for (const seg of part.segments) {
    if (isNoiseOnly(seg)) {
      flush();
      prev = seg;
      continue;
    }
    const segWords = fastWords(seg.text);
    if (cur && prev) {
      const cut =
        (prev.speaker ?? '') !== (seg.speaker ?? '') ||
        isPause(prev, seg) ||
        (cur.words >= PSEUDO_SENTENCE.minWords && (cur.words + segWords > PSEUDO_SENTENCE.targetWords || startsWithOpener(seg.text)));
      if (cut) flush();
    }
    // Walk the line's whitespace-delimited pieces.
    const t = seg.text;
    const base = seg.offset;
    let i = 0;
    const n = t.length;
    let remaining = segWords;
    while (i < n) {
      while (i < n && isSpace(t.charCodeAt(i))) i++;
      if (i >= n) break;
      let j = i;
      while (j < n && !isSpace(t.charCodeAt(j)) && j - i < MAX_PIECE_CHARS) j++;
      if (j < n && j - i === MAX_PIECE_CHARS && t.charCodeAt(j - 1) >= 0xd800 && t.charCodeAt(j - 1) <= 0xdbff) j++;
      const w = pieceWords(t, i, j);
      if (cur && (cur.words + w > PSEUDO_SENTENCE.maxWords || base + j - cur.start > MAX_SENTENCE_CHARS)) flush();
      else if (cur && cur.words >= PSEUDO_SENTENCE.targetWords && remaining >= PSEUDO_SENTENCE.minWords) flush();
      if (!cur) cur = { start: base + i, end: base + j, words: 0, unit: seg.index, lastUnit: seg.index };
      cur.end = base + j;
      cur.words += w;
      cur.lastUnit = seg.index;
      remaining -= w;
      // A sentence end in a mostly unpunctuated text is still a sentence end.
      if (isSentenceEnd(t, j - 1) && cur.words >= 3) flush();
      i = j;
    }
    prev = seg;
  }
  flush();
  return out;
}
