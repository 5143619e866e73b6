/**
 * What an Ask hit quotes and opens (its focus), issue 21: whole sentences that carry the
 * question's words, never a scrap and never a content-free unit.
 *
 * - In a caption transcript (auto-captions, SRT/VTT: short speakerless lines, see
 *   `speechUnits.ts`) the units are the segmenter's sentences, never a caption line: the focus is
 *   one to {@link MAX_CAPTION_SENTENCES} consecutive sentences, at least {@link MIN_QUOTE_WORDS}
 *   words long and over {@link MIN_CAPTION_LINES} lines (when the transcript has them).
 * - In a meeting the units are turns: one to {@link MAX_TURNS} consecutive turns, a turn cut by
 *   the span's edge reaching to its sentence's edge; when those turns are longer than
 *   {@link NARROW_WORDS} words, the focus is one to {@link MAX_TURN_SENTENCES} of their consecutive
 *   sentences (issue 22: the sentence with the price, not the long turn it is in).
 * - The units chosen are those that carry the question's terms, the rarer terms counting more
 *   (weights from the caller: "price" over "remote control" in a meeting about a remote control),
 *   then the densest; a span without any of them is quoted by its units that say the most
 *   (content words), never simply by its first lines.
 * - A question about a speaker is answered in their own consecutive turns that carry its terms,
 *   else in a window with one of their turns and another's that carries them, else by whoever
 *   carries them; without the terms, by their own turns that say the most.
 * - A unit that is content-free (`isContentFree`: "Yeah .", "Mm-hmm .", "{vocalsound}", "sí",
 *   "vale", "嗯", "对对对") never begins or ends a focus, and a focus says something: it has at
 *   least {@link MIN_CONTENT_WORDS} content words (`contentWords`), taking in a neighbour outside
 *   the span if need be ("Uh, this is Italian mismatched." alone is two). A span where no such
 *   focus can be found has none at all: the hit is left out.
 * - A comment is its own focus (none when it is content-free).
 *
 * The focus may reach past the span to finish a sentence the span cuts: the hit's span then grows
 * to hold it (see {@link focusedSpan}).
 */
import type { CorpusItem, PartKind, TranscriptPart } from '../corpus/types';
import { segmentSentences, type Sentence } from '../markers/sentences';
import { isCaptionTranscript, readingSentences, segmentAtOffset } from '../markers/speechUnits';
import { MIN_CONTENT_WORDS } from '../text/contentFree';
import { firstIndex } from '../util/sortedSearch';
import { partLang, spanJudgement, spanTokens, spanWords, turnSentences, type SpanJudgement } from './partMemos';

/** A focus: offsets into the part's normalised text. */
export interface Focus {
  start: number;
  end: number;
}

/** Sentences of a caption transcript a focus may hold. */
export const MAX_CAPTION_SENTENCES = 3;
/** Turns of a meeting a focus may hold. */
export const MAX_TURNS = 3;
/** A caption focus shorter than this many words takes the next sentence too (when the span has one). */
export const MIN_QUOTE_WORDS = 8;
/** A caption focus is never a single caption line: it spans this many at least (when the transcript has them). */
export const MIN_CAPTION_LINES = 2;
/** Turns longer than this (in words, together) are narrowed to their sentences that answer. */
export const NARROW_WORDS = 30;
/** Sentences of a meeting's turns a narrowed focus may hold. */
export const MAX_TURN_SENTENCES = 3;

/**
 * The question's terms (tokenized as the index does), each with its weight (rarer terms weigh
 * more); a set weighs each term 1.
 */
export type FocusTerms = ReadonlySet<string> | ReadonlyMap<string, number>;

function weightsOf(terms: FocusTerms): ReadonlyMap<string, number> {
  return terms instanceof Map ? terms : new Map([...(terms as ReadonlySet<string>)].map((t) => [t, 1]));
}

/** A candidate span of a hit (what strategies propose). */
export interface FocusSpan {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** What the content-free judgement says of a unit: its content words, and whether it says nothing (judged once, `partMemos.ts`). */
type Said = SpanJudgement;

/** A unit of a span (a sentence or a turn), or one of its neighbours. */
class Unit {
  /** The question's terms it holds, with their weights. */
  readonly hit = new Map<string, number>();
  readonly matches: number;
  readonly tokens: number;
  private counted?: number;
  private judged?: Said;

  constructor(
    private readonly part: { text: string },
    readonly start: number,
    readonly end: number,
    terms: ReadonlyMap<string, number>,
    /** Inside the span (else a neighbour a thin focus may take in). */
    readonly inside: boolean,
    /** Array positions of its first and last segment. */
    readonly firstLine: number,
    readonly lastLine: number,
    readonly speaker?: string,
  ) {
    const toks = spanTokens(part, start, end);
    let matches = 0;
    if (inside) {
      for (const x of toks) {
        const w = terms.get(x);
        if (w === undefined) continue;
        this.hit.set(x, w);
        matches++;
      }
    }
    this.matches = matches;
    this.tokens = Math.max(1, toks.length);
  }

  /** Words (counted when first asked). */
  get words(): number {
    return (this.counted ??= spanWords(this.part, this.start, this.end));
  }

  /** Judged when first asked (the judgement costs more than everything else here). */
  get said(): Said {
    return (this.judged ??= spanJudgement(this.part, this.start, this.end));
  }
}

/** The sentence of `sentences` (sorted) holding `offset` strictly inside, if any. */
function sentenceAround(sentences: readonly Sentence[], offset: number): Sentence | undefined {
  const i = firstIndex(sentences.length, (k) => sentences[k]!.start > offset) - 1;
  const s = i >= 0 ? sentences[i] : undefined;
  return s && s.start < offset && offset < s.end ? s : undefined;
}

/** The units of a transcript span: how many a focus may hold, its least words, and the units themselves with or without up to `window - 1` neighbours on each side. */
interface SpanUnits {
  window: number;
  minWords: number;
  /** Segments (caption lines) a focus spans at least. */
  minLines: number;
  units(withNeighbours: boolean): Unit[];
  /** The sentences of units (turns) that hold several, when a focus of them is to be narrowed (meetings). */
  sentences?(units: readonly Unit[]): Unit[];
}

const HAS_WORD = /[\p{L}\p{N}]/u;

/** The sentences of a turn unit: a whole turn's as split once for everyone (`turnSentences`), a cut turn's split here. */
function unitSentences(t: TranscriptPart, u: Unit, tag: 'zh' | 'en'): readonly Sentence[] {
  const seg = t.segments[u.firstLine]!;
  if (u.start === seg.offset && u.end === seg.offset + seg.text.length && t.text.slice(u.start, u.end) === seg.text) return turnSentences(t, u.firstLine);
  return segmentSentences(t.text.slice(u.start, u.end), u.start, u.firstLine, tag);
}

/**
 * The units of a transcript span: its sentences (captions) or its turns (a turn cut by the span
 * reaching to its sentence's edge); with neighbours, up to `window - 1` more on each side.
 */
function transcriptUnits(t: TranscriptPart, c: FocusSpan, terms: ReadonlyMap<string, number>): SpanUnits {
  if (isCaptionTranscript(t)) {
    const sentences = readingSentences(t);
    const window = MAX_CAPTION_SENTENCES;
    const first = firstIndex(sentences.length, (k) => sentences[k]!.end > c.start);
    let last = first;
    while (last < sentences.length && sentences[last]!.start < c.end) last++;
    const made = new Map<number, Unit>();
    const unit = (i: number): Unit => {
      let u = made.get(i);
      const st = sentences[i]!;
      if (!u) made.set(i, (u = new Unit(t, st.start, st.end, terms, i >= first && i < last, segmentAtOffset(t.segments, st.start), segmentAtOffset(t.segments, Math.max(st.start, st.end - 1)))));
      return u;
    };
    return {
      window,
      minWords: MIN_QUOTE_WORDS,
      minLines: MIN_CAPTION_LINES,
      units: (wide) => {
        const out: Unit[] = [];
        for (let i = wide ? Math.max(0, first - window + 1) : first; i < (wide ? Math.min(sentences.length, last + window - 1) : last); i++) out.push(unit(i));
        return out;
      },
    };
  }
  const window = MAX_TURNS;
  const segs = t.segments;
  const tag = partLang(t) === 'zh' ? 'zh' : 'en';
  const first = segmentAtOffset(segs, c.start);
  let last = first;
  while (last < segs.length && segs[last]!.offset < c.end) last++;
  const made = new Map<number, Unit>();
  const unit = (i: number): Unit => {
    let u = made.get(i);
    if (u) return u;
    const s = segs[i]!;
    const inside = i >= first && i < last && s.offset + s.text.length > c.start;
    let a = s.offset;
    let z = s.offset + s.text.length;
    if (inside && (c.start > a || c.end < z)) {
      // A turn the span cuts: to the edges of its sentences there.
      const sentences = turnSentences(t, i);
      a = sentenceAround(sentences, Math.max(c.start, a))?.start ?? Math.max(c.start, a);
      z = sentenceAround(sentences, Math.min(c.end, z))?.end ?? Math.min(c.end, z);
    }
    made.set(i, (u = new Unit(t, a, z, terms, inside, i, i, s.speaker)));
    return u;
  };
  return {
    window,
    minWords: 0,
    minLines: 1,
    units: (wide) => {
      const out: Unit[] = [];
      for (let i = wide ? Math.max(0, first - window + 1) : first; i < (wide ? Math.min(segs.length, last + window - 1) : last); i++) {
        const u = unit(i);
        if (wide || u.inside) out.push(u);
      }
      return out;
    },
    sentences: (turns) =>
      turns.flatMap((u) =>
        unitSentences(t, u, tag)
          .filter((st) => HAS_WORD.test(st.text))
          .map((st) => new Unit(t, st.start, st.end, terms, u.inside, u.firstLine, u.lastLine, u.speaker)),
      ),
  };
}

/**
 * The focus of span `c` of `item` for a question with `terms` (tokenized as the index does) about
 * `speakers`: see the module comment. Undefined when no unit of the span says anything (the hit
 * is left out).
 *
 * @example
 * hitFocus(item, { itemId, part: 'transcript', start: 1200, end: 2400 }, new Set(['lakers']))
 * // { start: 1318, end: 1502 }: the sentence about the Lakers, whole
 */
export function hitFocus(item: CorpusItem | undefined, c: FocusSpan, terms: FocusTerms, speakers: ReadonlySet<string> = new Set()): Focus | undefined {
  const whole = { start: c.start, end: c.end };
  if (!item) return whole;
  if (c.part === 'comments') {
    const part = item.comments;
    if (!part) return whole;
    return spanJudgement(part, c.start, c.end).empty ? undefined : whole;
  }
  const t = item.transcript;
  if (!t || c.end <= c.start) return whole;
  const span = transcriptUnits(t, c, weightsOf(terms));
  // The span's own units first; its neighbours only when no focus can be found without them.
  return focusIn(span, span.units(false), speakers, false) ?? focusIn(span, span.units(true), speakers, true);
}

/** The focus among `units` (see {@link hitFocus}), or undefined when none says enough; `last`: the last try, where fewer words than the least will do when there are no more. */
function focusIn(span: SpanUnits, units: readonly Unit[], speakers: ReadonlySet<string>, last: boolean): Focus | undefined {
  const { window } = span;
  if (!units.some((u) => u.inside)) return undefined;
  const minWords = last && span.minWords ? Math.min(span.minWords, units.reduce((n, u) => n + u.words, 0)) : span.minWords;
  const minLines = last ? Math.min(span.minLines, units[units.length - 1]!.lastLine - units[0]!.firstLine + 1) : span.minLines;
  const size = { minWords, minLines };
  // A question about a speaker is answered in their own consecutive turns, when the span has any that say enough;
  // else in a window that holds one of them.
  const isOwn = (u: Unit): boolean => u.speaker !== undefined && speakers.has(u.speaker);
  const ownMode = units.some((u) => u.inside && isOwn(u));
  // Their own turns that say the question's words; else a window of them with another's turn that does; else whoever says
  // them; else (no unit holds the question's words) their units that say the most, else anyone's — never the span's first ones.
  const tries: [Rank, { must?: (u: Unit) => boolean; allowed?: (u: Unit) => boolean }][] = ownMode
    ? [['terms', { allowed: isOwn }], ['terms', { must: isOwn }], ['terms', {}], ['content', { allowed: isOwn }], ['content', { must: isOwn }], ['content', {}]]
    : [['terms', {}], ['content', {}]];
  let best: Chosen | undefined;
  let fallback: Chosen | undefined;
  for (const [mode, only] of tries) {
    const w = bestWindow(units, window, size, mode, only);
    if (w && (mode === 'content' || w.weight > 0)) {
      best = w;
      break;
    }
    fallback ??= w;
  }
  best ??= fallback;
  if (!best) return undefined;
  return narrowed(span, units.slice(best.a, best.z + 1), best, ownMode ? isOwn : undefined) ?? { start: best.start, end: best.end };
}

/**
 * Long turns narrowed to the one to {@link MAX_TURN_SENTENCES} consecutive sentences that answer
 * best (or, when none holds a term, say the most); undefined when the turns are short or no
 * sentences say enough.
 */
function narrowed(span: SpanUnits, turns: readonly Unit[], best: Chosen, own: ((u: Unit) => boolean) | undefined): Focus | undefined {
  if (!span.sentences || turns.reduce((n, u) => n + u.words, 0) <= NARROW_WORDS) return undefined;
  const sentences = span.sentences(turns);
  if (sentences.length <= 1) return undefined;
  const size = { minWords: 0, minLines: 1 };
  const pick = (mode: Rank): Chosen | undefined => bestWindow(sentences, MAX_TURN_SENTENCES, size, mode, own ? { allowed: own } : {});
  const chosen = best.weight > 0 ? pick('terms') : pick('content');
  // The sentences with the most (and rarest) of the terms, even when the turns hold more of them further apart.
  return chosen && (chosen.weight > 0 || best.weight === 0) ? { start: chosen.start, end: chosen.end } : undefined;
}

interface Window {
  a: number;
  z: number;
  weight: number;
  density: number;
}

/** How windows are ranked: by the question's terms, or (when the span has none of them) by what they say. */
type Rank = 'terms' | 'content';

/** A window chosen: its units (positions `a`..`z`), offsets and the weight of the terms it holds. */
interface Chosen {
  a: number;
  z: number;
  start: number;
  end: number;
  weight: number;
}

/**
 * The best window of one to `window` consecutive units of `units`: it holds a unit of the span,
 * begins and ends with a unit that says something, has at least {@link MIN_CONTENT_WORDS} content
 * words, `minWords` words and `minLines` segments, holds a unit `must` accepts when given, and
 * only units `allowed` accepts when given. Best (`terms`): the greatest weight of distinct
 * question terms in the span's units, then the densest, then the first; windows are judged best
 * first, so only the units of the first few are judged. Best (`content`): the one whose unit says
 * the most (content words), then the fewest units, then the first.
 */
function bestWindow(
  units: readonly Unit[],
  window: number,
  { minWords, minLines }: { minWords: number; minLines: number },
  rank: Rank = 'terms',
  { must, allowed }: { must?: (u: Unit) => boolean; allowed?: (u: Unit) => boolean } = {},
): Chosen | undefined {
  const windows: Window[] = [];
  for (let a = 0; a < units.length; a++) {
    const hit = new Map<string, number>();
    let matches = 0;
    let tokens = 0;
    let words = 0;
    let inside = false;
    let required = !must;
    for (let z = a; z < Math.min(units.length, a + window); z++) {
      const u = units[z]!;
      if (allowed && !allowed(u)) break;
      if (u.inside) {
        for (const [x, w] of u.hit) hit.set(x, w);
        matches += u.matches;
        inside = true;
      }
      required ||= !!must?.(u);
      tokens += u.tokens;
      if (minWords) words += u.words;
      let weight = 0;
      for (const w of hit.values()) weight += w;
      if (inside && required && words >= minWords && u.lastLine - units[a]!.firstLine + 1 >= minLines) windows.push({ a, z, weight, density: matches / tokens });
    }
  }
  if (rank === 'content') {
    // Every window is judged (the span has none of the question's terms to rank by): the one with the unit that says the most,
    // then the fewest units, then the first.
    let best: { w: Window; top: number } | undefined;
    for (const w of windows) {
      if (units[w.a]!.said.empty || units[w.z]!.said.empty) continue;
      let content = 0;
      let top = 0;
      for (let i = w.a; i <= w.z; i++) {
        content += units[i]!.said.content;
        top = Math.max(top, units[i]!.said.content);
      }
      if (content < MIN_CONTENT_WORDS) continue;
      if (!best || top > best.top || (top === best.top && w.z - w.a < best.w.z - best.w.a)) best = { w, top };
    }
    return best && { a: best.w.a, z: best.w.z, start: units[best.w.a]!.start, end: units[best.w.z]!.end, weight: best.w.weight };
  }
  windows.sort((x, y) => y.weight - x.weight || y.density - x.density || x.a - y.a || x.z - y.z);
  for (const w of windows) {
    if (units[w.a]!.said.empty || units[w.z]!.said.empty) continue;
    let content = 0;
    for (let i = w.a; i <= w.z && content < MIN_CONTENT_WORDS; i++) content += units[i]!.said.content;
    if (content >= MIN_CONTENT_WORDS) return { a: w.a, z: w.z, start: units[w.a]!.start, end: units[w.z]!.end, weight: w.weight };
  }
  return undefined;
}

/** The span a hit shows: `c`, grown to hold its focus (a sentence the span's edge cut in two). */
export function focusedSpan<T extends FocusSpan>(c: T, focus: Focus): T {
  if (focus.start >= c.start && focus.end <= c.end) return c;
  return { ...c, start: Math.min(c.start, focus.start), end: Math.max(c.end, focus.end) };
}
