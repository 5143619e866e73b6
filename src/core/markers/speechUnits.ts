/**
 * The units a researcher reads in a caption transcript (issue 21): a YouTube auto-caption or an
 * SRT/VTT export is thousands of 3–8-word lines with no speaker, and a line is not a unit worth
 * reading. Its units are the sentences of `partSentences` (pseudo-sentences cut at pauses,
 * punctuation, openers and length bounds — the segmenter the markers use), grouped into
 * paragraphs of about {@link PARAGRAPH} 30–60 s (with timestamps) or 40–120 words (without).
 * Meeting transcripts, whose segments are turns of speakers, keep their turns.
 *
 * Paragraphs cut the part's text into consecutive ranges, each one character (the whitespace
 * before its first sentence) after the previous one: nothing of the text is outside a paragraph
 * but those separators, so a span of the part maps onto the paragraphs exactly.
 */
import type { TranscriptPart, TranscriptSegment } from '../corpus/types';
import { countWords } from '../text/words';
import { firstIndex } from '../util/sortedSearch';
import { partSentences, transcriptStyle, type Sentence } from './sentences';

/** Bounds of a paragraph of a caption transcript. */
export const PARAGRAPH = {
  /** With timestamps: a paragraph is not cut before this many seconds… */
  minSeconds: 30,
  /** …and is cut before a sentence that would take it past this many. */
  maxSeconds: 60,
  /** Without timestamps: the same bounds in words. */
  minWords: 40,
  maxWords: 120,
  /** With timestamps: a pause this long between two sentences ends a paragraph that has its minimum. */
  pauseSeconds: 2,
  /** With timestamps, a paragraph is cut past this many words whatever its duration (bad timestamps). */
  timedMaxWords: 240,
} as const;

/** Caption lines longer than this many words on average are turns, not captions. */
const CAPTION_LINE_WORDS = 20;

/** A paragraph of a caption transcript. */
export interface Paragraph {
  /** Offsets in the part's text, `[start, end)`; the next paragraph starts at `end + 1`. */
  start: number;
  end: number;
  /** Array positions (in `part.segments`) of the first and last segment it touches. */
  first: number;
  last: number;
  /** Starts of its sentences (offsets in the part's text), in order. */
  sentenceStarts: number[];
}

const captionCache = new WeakMap<TranscriptPart, boolean>();
const sentenceCache = new WeakMap<TranscriptPart, Sentence[]>();
const paragraphCache = new WeakMap<TranscriptPart, Paragraph[]>();

/**
 * True when the transcript is made of short caption lines (auto-captions, SRT/VTT cues, a
 * one-line-per-caption `.txt`/`.json`): its style is `captions` or `unpunctuated` and its lines
 * are short. A meeting of speakers' turns is not.
 */
export function isCaptionTranscript(part: TranscriptPart): boolean {
  let v = captionCache.get(part);
  if (v === undefined) {
    const lines = part.segments.filter((s) => s.text.trim()).length;
    // The word count first: a meeting's long turns are told without reading the whole text's style.
    v = lines > 0 && (part.wordCount || countWords(part.text)) <= lines * CAPTION_LINE_WORDS && transcriptStyle(part) !== 'turns';
    captionCache.set(part, v);
  }
  return v;
}

/** The part's sentences (`partSentences`), computed once per loaded part. */
export function readingSentences(part: TranscriptPart): readonly Sentence[] {
  let s = sentenceCache.get(part);
  if (!s) sentenceCache.set(part, (s = partSentences(part)));
  return s;
}

/** Array position of the segment holding `offset` (the last one starting at or before it). */
export function segmentAtOffset(segs: readonly TranscriptSegment[], offset: number): number {
  return Math.max(0, firstIndex(segs.length, (i) => segs[i]!.offset > offset) - 1);
}

/** When segment `i` ends: its end, else the next segment's start (a `[0:01:05]` line has only a start), else its own start. */
export function segmentEnd(segs: readonly TranscriptSegment[], i: number): number | undefined {
  return segs[i]!.end ?? segs[i + 1]?.start ?? segs[i]!.start;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/**
 * The paragraphs of a caption transcript, in order, covering its whole text (see the module
 * comment); cached per loaded part. A paragraph never holds two speakers; it is cut only before a
 * sentence that follows whitespace, so it ends and starts with whole sentences.
 *
 * @example
 * const ps = transcriptParagraphs(item.transcript);
 * item.transcript.text.slice(ps[0].start, ps[0].end)  // "[Música]\npues ya ya va a entrar el camarero\n…"
 */
export function transcriptParagraphs(part: TranscriptPart): readonly Paragraph[] {
  const cached = paragraphCache.get(part);
  if (cached) return cached;
  const text = part.text;
  const segs = part.segments;
  const out: Paragraph[] = [];
  paragraphCache.set(part, out);
  if (!segs.length || !text.length) return out;
  const timed = segs.every((s) => s.start !== undefined);
  const begin = (s: Sentence): number => segs[segmentAtOffset(segs, s.start)]!.start ?? 0;
  const finish = (s: Sentence): number => segmentEnd(segs, segmentAtOffset(segs, Math.max(s.start, s.end - 1))) ?? 0;
  const speaker = (s: Sentence): string => segs[segmentAtOffset(segs, s.start)]!.speaker ?? '';
  let cur: { start: number; starts: number[]; words: number; t0: number; t1: number; speaker: string } | undefined;
  const close = (end: number): void => {
    if (!cur) return;
    out.push({ start: cur.start, end, first: segmentAtOffset(segs, cur.start), last: segmentAtOffset(segs, Math.max(cur.start, end - 1)), sentenceStarts: cur.starts });
  };
  for (const s of readingSentences(part)) {
    const words = countWords(s.text);
    if (!cur) {
      // The first paragraph starts with the text (annotations before the first sentence included).
      cur = { start: 0, starts: [s.start], words, t0: segs[0]!.start ?? 0, t1: finish(s), speaker: speaker(s) };
      continue;
    }
    if (s.start > cur.start && isSpace(text[s.start - 1]) && cuts(cur, words, timed, begin(s), finish(s), speaker(s))) {
      close(s.start - 1);
      cur = { start: s.start, starts: [], words: 0, t0: begin(s), t1: finish(s), speaker: speaker(s) };
    }
    cur.starts.push(s.start);
    cur.words += words;
    cur.t1 = Math.max(cur.t1, finish(s));
  }
  if (!cur) cur = { start: 0, starts: [], words: 0, t0: 0, t1: 0, speaker: '' }; // only annotations: one paragraph
  close(text.length);
  return out;
}

/** True when a paragraph `cur` ends before the next sentence (of `words` words, from `t0` to `t1`, said by `who`). */
function cuts(cur: { words: number; t0: number; t1: number; speaker: string }, words: number, timed: boolean, t0: number, t1: number, who: string): boolean {
  if (who !== cur.speaker) return true;
  if (timed) {
    const seconds = cur.t1 - cur.t0;
    if (cur.words >= PARAGRAPH.timedMaxWords) return true;
    if (seconds < PARAGRAPH.minSeconds) return false;
    return seconds >= PARAGRAPH.maxSeconds || t1 - cur.t0 > PARAGRAPH.maxSeconds || t0 - cur.t1 >= PARAGRAPH.pauseSeconds;
  }
  if (cur.words < PARAGRAPH.minWords) return false;
  return cur.words + words > PARAGRAPH.maxWords;
}
