/**
 * Sentences of a part with their offsets in the part's normalised text. A
 * sentence never crosses a segment (turn, cue, comment) boundary.
 */
import type { CommentsPart, TranscriptPart } from '../corpus/types';

export interface Sentence {
  /** Offsets in the part's normalised text. */
  start: number;
  end: number;
  text: string;
  /** Index of the segment or comment it belongs to. */
  unit: number;
}

/**
 * A sentence longer than this many characters (text without sentence ends, such
 * as an unpunctuated auto-caption) is cut into pieces of at most this length, at
 * a space where there is one, so every consumer of sentences stays bounded.
 */
export const MAX_SENTENCE_CHARS = 4_000;

/** Characters that end a sentence. */
const ENDS = new Set(['.', '!', '?', '。', '！', '？', ';', '；']);
/** Closing quotes and brackets that belong to the sentence they follow. */
const CLOSERS = new Set(['"', "'", '”', '’', ')', '）']);
/** After a full stop, these mean it is inside a number or a web address ("2.31", "youtu.be/x"). */
const CONTINUES = /^[\p{L}\p{N}/_~-]/u;

/**
 * Splits text into sentences, trimmed, with offsets relative to `base`.
 *
 * A sentence is a run of text up to one or more sentence ends (plus closing
 * quotes) or the end of the text; a full stop inside a number or a web address
 * does not end it, and text before a line break without a sentence end is left
 * out (cut at its last inner full stop, if any). One linear pass, no regular
 * expression backtracking, so an arbitrarily long text cannot overflow it.
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
    let z = b;
    if (b - a > MAX_SENTENCE_CHARS) {
      z = a + MAX_SENTENCE_CHARS;
      const space = text.lastIndexOf(' ', z - 1);
      if (space > a + MAX_SENTENCE_CHARS / 2) z = space + 1;
      else if (/[\udc00-\udfff]/.test(text[z] ?? '')) z--; // do not cut a surrogate pair
    }
    const raw = text.slice(a, z);
    const t = raw.trim();
    if (t) {
      const start = base + a + (raw.length - raw.trimStart().length);
      out.push({ start, end: start + t.length, text: t, unit });
    }
    a = z;
  }
}

/** All sentences of a transcript or comments part, in order. */
export function partSentences(part: TranscriptPart | CommentsPart): Sentence[] {
  const out: Sentence[] = [];
  if (part.kind === 'transcript') {
    for (const s of part.segments) out.push(...splitSentences(s.text, s.offset, s.index));
  } else {
    for (const c of part.comments) if (c.text.trim()) out.push(...splitSentences(c.text, c.offset, c.index));
  }
  return out;
}
