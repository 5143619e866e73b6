/**
 * Grounding: a model may paraphrase, so every marker is aligned to its best
 * source span — the quote verbatim first, then the quote with case, width,
 * spacing and punctuation normalised, then the sentence run of the window with
 * the highest token overlap with quote and claim. A claim that aligns nowhere
 * is kept and flagged ungrounded.
 */
import type { CommentRecord, CommentsPart, TranscriptPart, TranscriptSegment } from '../corpus/types';
import { tokenize } from '../search/tokenize';
import { firstIndex } from '../util/sortedSearch';
import type { Evidence } from './schema';
import { splitSentences, type Sentence } from './sentences';

export interface Alignment {
  start: number;
  end: number;
  match: Evidence['match'];
  score: number;
}

/** Minimum token overlap (F1 of claim/quote tokens against the span) for a fuzzy alignment. */
export const FUZZY_THRESHOLD = 0.3;

/** Normalised text with, for each of its characters, the offset it came from. */
function normaliseWithMap(text: string, base: number): { norm: string; map: number[] } {
  let norm = '';
  const map: number[] = [];
  let lastSpace = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!.normalize('NFKC').toLowerCase();
    if (/[\s\p{P}\p{S}]/u.test(ch)) {
      if (!lastSpace) {
        norm += ' ';
        map.push(base + i);
        lastSpace = true;
      }
      continue;
    }
    for (const c of ch) {
      norm += c;
      map.push(base + i);
    }
    lastSpace = false;
  }
  return { norm, map };
}

function normalise(text: string): string {
  return normaliseWithMap(text, 0).norm.trim();
}

function f1(claim: readonly string[], span: ReadonlySet<string>, spanSize: number): number {
  if (!claim.length || !spanSize) return 0;
  const c = new Set(claim);
  let inter = 0;
  for (const t of c) if (span.has(t)) inter++;
  if (!inter) return 0;
  const p = inter / spanSize;
  const r = inter / c.size;
  return (2 * p * r) / (p + r);
}

/**
 * What alignment needs of a window, computed once per window and reused for
 * all its claims: its normalised text and its sentences with their tokens.
 */
export class WindowAligner {
  private normalised?: { norm: string; map: number[] };
  private sentences?: { list: Sentence[]; tokens: string[][] };

  constructor(readonly part: TranscriptPart | CommentsPart, readonly from: number, readonly to: number) {}

  normalisedText(): { norm: string; map: number[] } {
    this.normalised ??= normaliseWithMap(this.part.text.slice(this.from, this.to), this.from);
    return this.normalised;
  }

  sentenceTokens(): { list: Sentence[]; tokens: string[][] } {
    if (!this.sentences) {
      const list = unitSentences(this.part, this.from, this.to).filter((s) => s.end > this.from && s.start < this.to);
      this.sentences = { list, tokens: list.map((s) => tokenize(s.text)) };
    }
    return this.sentences;
  }

  align(quote: string, claim: string): Alignment | undefined {
    return alignClaim(this.part, this.from, this.to, quote, claim, this);
  }
}

/**
 * Aligns a claim to `[from, to)` of a part (its window), falling back to the
 * whole part for exact quotes. Returns undefined when nothing aligns.
 */
export function alignClaim(part: TranscriptPart | CommentsPart, from: number, to: number, quote: string, claim: string, aligner = new WindowAligner(part, from, to)): Alignment | undefined {
  const q = quote.trim();
  if (q.length >= 4) {
    const inWindow = part.text.indexOf(q, from);
    if (inWindow >= 0 && inWindow + q.length <= to) return { start: inWindow, end: inWindow + q.length, match: 'exact', score: 1 };
    const anywhere = part.text.indexOf(q);
    if (anywhere >= 0) return { start: anywhere, end: anywhere + q.length, match: 'exact', score: 1 };
    const nq = normalise(q);
    if (nq.length >= 4) {
      const { norm, map } = aligner.normalisedText();
      const at = norm.indexOf(nq);
      if (at >= 0) return { start: map[at]!, end: map[at + nq.length - 1]! + 1, match: 'normalised', score: 1 };
    }
  }
  return fuzzyAlign(part, aligner, `${quote} ${claim}`);
}

/** Sentences of the units overlapping `[from, to)`: the units are in offset order, so the first is found by halving (a window costs its own units, not the part's). */
function unitSentences(part: TranscriptPart | CommentsPart, from: number, to: number): Sentence[] {
  const out: Sentence[] = [];
  const units: readonly (TranscriptSegment | CommentRecord)[] = part.kind === 'transcript' ? part.segments : part.comments;
  for (let i = firstIndex(units.length, (k) => units[k]!.offset + units[k]!.text.length > from); i < units.length; i++) {
    const u = units[i]!;
    if (u.offset >= to) break;
    if (u.offset + u.text.length <= from || !u.text.trim()) continue;
    for (const s of splitSentences(u.text, u.offset, u.index)) out.push(s);
  }
  return out;
}

/** The run of one to three consecutive sentences of the window that best matches the text's tokens. */
function fuzzyAlign(part: TranscriptPart | CommentsPart, aligner: WindowAligner, text: string): Alignment | undefined {
  const claim = tokenize(text);
  if (!claim.length) return undefined;
  const claimSet = new Set(claim);
  const { list: sentences, tokens: toks } = aligner.sentenceTokens();
  let best: Alignment | undefined;
  for (let i = 0; i < sentences.length; i++) {
    if (!toks[i]!.some((t) => claimSet.has(t))) continue;
    const span = new Set<string>();
    for (let len = 1; len <= 3 && i + len <= sentences.length; len++) {
      const last = sentences[i + len - 1]!;
      if (len > 1 && last.unit !== sentences[i]!.unit && part.kind === 'comments') break;
      for (const t of toks[i + len - 1]!) span.add(t);
      const score = f1(claim, span, span.size);
      if (!best || score > best.score + 1e-9) best = { start: sentences[i]!.start, end: last.end, match: 'fuzzy', score };
    }
  }
  return best && best.score >= FUZZY_THRESHOLD ? best : undefined;
}
