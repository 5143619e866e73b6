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

/** A run up to a sentence end; a full stop inside a number or a web address ("2.31", "youtu.be/x") does not end it. */
const SENTENCE = /(?:[^.!?。！？;；\n]|\.(?=[\p{L}\p{N}/_~-]))+(?:[.!?。！？;；]+["'”’)）]*|$)/gu;

/** Splits text into sentences, trimmed, with offsets relative to `base`. */
export function splitSentences(text: string, base = 0, unit = 0): Sentence[] {
  const out: Sentence[] = [];
  for (const m of text.matchAll(SENTENCE)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (!t) continue;
    const start = base + m.index! + lead;
    out.push({ start, end: start + t.length, text: t, unit });
  }
  return out;
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
