/**
 * The sentences an extractive answer chooses from (issue 22): the units of the top hits' spans,
 * each with its place, its speaker and the best hit it came from.
 *
 * - A caption transcript (auto-captions, SRT/VTT: see `speechUnits.ts`) gives its reading
 *   sentences (`readingSentences`), never a caption line.
 * - A meeting transcript gives the sentences of its turns (`segmentSentences` per turn, a
 *   sentence never crossing a turn), each with the turn's speaker.
 * - Comments give one unit per comment, spam left out (`spamFreeCommentsIn`).
 *
 * A unit is taken when it overlaps a hit's span; a unit two hits share is taken once, with the
 * better hit's rank. A turn is split into sentences once (`partMemos.ts`, shared with hit focus).
 */
import type { CorpusItem, PartKind } from '../corpus/types';
import { corpusSpam, spamFreeCommentsIn } from '../markers/spamFree';
import type { SpamDecision } from '../markers/spam';
import { isCaptionTranscript, readingSentences, segmentAtOffset } from '../markers/speechUnits';
import { firstIndex } from '../util/sortedSearch';
import { turnSentences } from './partMemos';
import type { AskContext, AskHit } from './types';

/** One candidate unit of an answer: offsets into its part's normalised text. */
export interface AnswerUnit {
  item: CorpusItem;
  part: PartKind;
  start: number;
  end: number;
  /** `text.slice(start, end)` of the part. */
  text: string;
  /** The turn's speaker (transcripts), or the comment's author (comments). */
  speaker?: string;
  /** The rank (1-based) of the best hit whose span holds it. */
  hitRank: number;
  /** Inside that hit's focus (what the retriever found best in the span). */
  inFocus: boolean;
  /** Around the hit's span rather than inside it. */
  around: boolean;
}

const overlaps = (a: { start: number; end: number }, start: number, end: number): boolean => a.start < end && start < a.end;

/** Receives a unit: its offsets, text and speaker (or author). */
type UnitSink = (start: number, end: number, text: string, speaker: string | undefined) => void;

/** The corpus's spam decision, taken once by the first comments span that needs it. */
type SpamOnce = () => ReadonlyMap<string, SpamDecision>;
const spamOnce = (ctx: AskContext): SpamOnce => {
  let spam: ReadonlyMap<string, SpamDecision> | undefined;
  return () => (spam ??= corpusSpam(ctx.corpus));
};

/** The units of a span of a part. */
function unitsOfSpan(item: CorpusItem, h: { part: PartKind; start: number; end: number }, spam: SpamOnce, out: UnitSink): void {
  if (h.part === 'comments') {
    const free = spamFreeCommentsIn(item, spam());
    if (!free) return;
    const cs = free.comments;
    let i = Math.max(0, firstIndex(cs.length, (k) => cs[k]!.offset > h.start) - 1);
    for (; i < cs.length && cs[i]!.offset < h.end; i++) {
      const c = cs[i]!;
      const start = c.offset + (c.text.length - c.text.trimStart().length);
      const end = c.offset + c.text.trimEnd().length;
      if (end > start && start < h.end && h.start < end) out(start, end, free.text.slice(start, end), c.author || undefined);
    }
    return;
  }
  const t = item.transcript;
  if (!t || !t.segments.length) return;
  if (isCaptionTranscript(t)) {
    const ss = readingSentences(t);
    for (let i = firstIndex(ss.length, (k) => ss[k]!.end > h.start); i < ss.length && ss[i]!.start < h.end; i++) {
      const x = ss[i]!;
      out(x.start, x.end, x.text, t.segments[segmentAtOffset(t.segments, x.start)]?.speaker);
    }
    return;
  }
  const segs = t.segments;
  for (let i = segmentAtOffset(segs, h.start); i < segs.length && segs[i]!.offset < h.end; i++) {
    const seg = segs[i]!;
    if (seg.offset + seg.text.length <= h.start) continue;
    for (const x of turnSentences(t, i)) if (x.start < h.end && h.start < x.end) out(x.start, x.end, x.text, seg.speaker);
  }
}

/** Hits whose spans an answer reads. */
export const ANSWER_HITS = 10;

/** How far an answer reads: the first `hits` hits' spans, and about `aroundWords` words on each side of the first `aroundHits` of them. */
export interface AnswerReach {
  hits: number;
  aroundHits: number;
  aroundWords: number;
}

/** Characters of an item's part that `words` words take, by the part's own ratio (Chinese counts two characters a word). */
export function wordsToChars(item: CorpusItem, part: PartKind, words: number): number {
  const p = part === 'transcript' ? item.transcript : item.comments;
  if (!p) return 0;
  return Math.round((words * p.text.length) / Math.max(1, p.wordCount || p.text.length / 5));
}

/**
 * The candidate units of the first `hits` hits, in hit order then source order, then the units
 * around the first `aroundHits` hits (`around`: true): a topic runs on past a hit's window. Each
 * unit once, with the first hit that holds it.
 *
 * @example
 * answerUnits(ctx, result.hits, { hits: 10, aroundHits: 3, aroundWords: 200 }).map((u) => u.text) // ["We could sell it for twenty five Euros .", …]
 */
export function answerUnits(ctx: AskContext, hits: readonly AskHit[], reach: AnswerReach): AnswerUnit[] {
  /** Per part, the spans that claim its units, in the order they take them: the hits' own spans by rank, then their surroundings. */
  const parts = new Map<object, { item: CorpusItem; part: PartKind; claims: { h: AskHit; start: number; end: number; around: boolean }[] }>();
  const top = hits.slice(0, reach.hits);
  const claim = (h: AskHit, start: number, end: number, around: boolean): void => {
    const item = ctx.index.item(h.itemId) ?? ctx.corpus.items.find((i) => i.id === h.itemId);
    const part = item && (h.part === 'transcript' ? item.transcript : item.comments);
    if (!item || !part) return;
    let p = parts.get(part);
    if (!p) parts.set(part, (p = { item, part: h.part, claims: [] }));
    p.claims.push({ h, start, end, around });
  };
  for (const h of top) claim(h, h.start, h.end, false);
  for (const h of top.slice(0, reach.aroundHits)) {
    const item = ctx.index.item(h.itemId);
    const chars = item ? wordsToChars(item, h.part, reach.aroundWords) : 0;
    if (chars > 0) claim(h, Math.max(0, h.start - chars), h.end + chars, true);
  }
  const out: AnswerUnit[] = [];
  const spam = spamOnce(ctx);
  for (const { item, part, claims } of parts.values()) {
    // Each unit once: the claimed ranges merged, each read once, a unit going to the first claim that holds it.
    const ranges = claims.map((c) => [c.start, c.end] as [number, number]).sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const r of ranges) {
      const last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    }
    const taken = new Set<number>();
    for (const [start, end] of merged) {
      unitsOfSpan(item, { part, start, end }, spam, (a, z, text, speaker) => {
        if (taken.has(a)) return;
        const c = claims.find((x) => x.start < z && a < x.end);
        if (!c) return;
        taken.add(a);
        const u: AnswerUnit = { item, part, start: a, end: z, text, hitRank: c.h.rank, inFocus: !c.around && overlaps(c.h.focus, a, z), around: c.around };
        if (speaker) u.speaker = speaker;
        out.push(u);
      });
    }
  }
  return out;
}

/**
 * Every unit of an item's part, split as answers split them (for a baseline over the whole item).
 *
 * @example itemUnits(ctx, item, 'transcript').length // the item's sentences
 */
export function itemUnits(ctx: AskContext, item: CorpusItem, part: PartKind): { start: number; end: number; text: string; speaker?: string }[] {
  const text = (part === 'transcript' ? item.transcript : item.comments)?.text ?? '';
  const out: { start: number; end: number; text: string; speaker?: string }[] = [];
  unitsOfSpan(item, { part, start: 0, end: text.length }, spamOnce(ctx), (start, end, t, speaker) => out.push({ start, end, text: t, ...(speaker ? { speaker } : {}) }));
  return out;
}
