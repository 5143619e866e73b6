/**
 * The findings of an offline step: the sentences of what the step was served that speak most to
 * its question, best first — not in the order the markers or passages came in.
 *
 * - Candidates are the sentences (`partSentences`: whole sentences of a turn or comment; caption
 *   transcripts' sentences across lines) inside the served spans, once each.
 * - A sentence scores by the share of the question's weighted terms it holds (tokenized as the
 *   index tokenizes), plus the speaker the question names, a marker of the step's kinds it rests
 *   on (by the marker's confidence), a figure when the step asks for data, and its neighbours'
 *   share of the terms (talk about the topic around it); very short and very long sentences
 *   count less. Content-free sentences (`isContentFree`, strict: a finding stands alone) are never
 *   candidates; spam never is either (the served comments are spam-free).
 * - One finding per turn or comment (a comment is never split into two findings): the turn's best
 *   sentence, with the sentences next to it in the same unit that also hold terms (a short
 *   comment whole), up to about 60 words.
 * - Then the best first, each new one kept only when it does not overlap one already kept (or
 *   quoted by another step of the run); one that says the same claim in the same words and numbers
 *   as a kept one is merged into it (cited as another place it was said); within a limit per step
 *   and per item, and above a share of the best score.
 */
import type { CommentsPart, CorpusItem, TranscriptPart } from '../corpus/types';
import { isOpinion } from '../markers/extractiveShared';
import type { MarkerKind } from '../markers/schema';
import { partSentences, type Sentence } from '../markers/sentences';
import { isCaptionTranscript, readingSentences } from '../markers/speechUnits';
import { tokenize } from '../search/tokenize';
import { cleanSpan } from '../text/clean';
import { contentLang, isContentFree, type ContentLang } from '../text/contentFree';
import { hasDataPoint } from '../text/spokenNumbers';
import { countWords } from '../text/words';
import { sameFinding } from './citations';
import { fold, type StepQuestion } from './stepQuestion';

/** A span a step was served (offsets into the part's text). */
export interface ServedSpan {
  item: CorpusItem;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
  /** How strongly the search that served it ranked it, 0–1 (a topic search's best passage 1); sentences inside weigh more. */
  prior?: number;
}

/** A marker's evidence the step read: sentences resting on it weigh more when its kind is one the step asks for. */
export interface EvidenceHint {
  itemId: string;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
  kind: MarkerKind;
  confidence: number;
}

/** What {@link selectFindings} needs besides the spans. */
export interface SelectionOptions {
  question: StepQuestion;
  /** The step's marker kinds (FACT, DATA for a facts step; OPINION for an opinions step…). */
  kinds: readonly MarkerKind[];
  /** The part as it is served (comments without spam). */
  partOf: (item: CorpusItem, part: 'transcript' | 'comments') => TranscriptPart | CommentsPart | undefined;
  /** Terms an item is read for when the question names no topic (its own topics); none by default. */
  itemTerms?: (itemId: string) => ReadonlyMap<string, number>;
  /** Findings at most (default {@link FINDING_LIMITS}.perStep). */
  limit?: number;
  /** Findings per item at most (default {@link FINDING_LIMITS}.perItem). */
  perItem?: number;
  /** Spans other steps of the run already quote: a finding never overlaps one (the run's steps do not quote the same words twice). */
  exclude?: readonly { itemId: string; part: string; start: number; end: number }[];
}

/** A chosen finding: a span of one turn or comment (or of consecutive caption lines), its readable text and score. */
export interface SelectedFinding {
  itemId: string;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
  /** The span cleaned of fillers and noise marks (`cleanSpan`), one line. */
  text: string;
  score: number;
  /** Other places the same claim was said in the same words (a repeat merged into this finding), each a span to cite. */
  also?: Place[];
}

/** Bounds of a step's findings and of each one. */
export const FINDING_LIMITS = {
  perStep: 8,
  perItem: 4,
  /** A finding is kept when its score is at least this share of the best one's. */
  minShareOfBest: 0.35,
  /** Words of a finding at most when it takes in the sentences around its best one (CJK: two characters a word). */
  maxWords: 60,
  /** Characters of a finding's text at most (then "…"). */
  maxChars: 480,
  /** Similarity (`sameFinding`: words, and the same numbers) at which two findings say the same. */
  repeat: 0.6,
  /** Places one finding cites at most when the same claim was said in several. */
  placesPerFinding: 5,
} as const;

/** The weights of a sentence's score besides its share of the question's terms. */
const BONUS = { speaker: 0.35, marker: 0.3, data: 0.1, near: 0.2, stance: 0.15, passage: 0.2 } as const;
/** Weight of an item's own topics when the question names none. */
const ITEM_TOPIC_WEIGHT = 0.5;
/** Share of its score a sentence without the question's terms keeps. */
const OFF_TOPIC = 0.5;

const sentenceCache = new WeakMap<CommentsPart, Sentence[]>();

/** The sentences of a part, once per loaded part. */
function sentencesOf(part: TranscriptPart | CommentsPart): readonly Sentence[] {
  if (part.kind === 'transcript') return readingSentences(part);
  let s = sentenceCache.get(part);
  if (!s) sentenceCache.set(part, (s = partSentences(part)));
  return s;
}

/** The first sentence ending after `offset` (sentences are in order and do not overlap). */
function firstAfter(sents: readonly Sentence[], offset: number): number {
  let lo = 0;
  let hi = sents.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sents[mid]!.end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One part of one item, as the selection reads it. */
interface PartView {
  item: CorpusItem;
  part: 'transcript' | 'comments';
  data: TranscriptPart | CommentsPart;
  sents: readonly Sentence[];
  lang: ContentLang;
  captions: boolean;
  terms: ReadonlyMap<string, number>;
  total: number;
  /** What a full share of the terms is worth (the question's: 1; an item's own topics: less). */
  scale: number;
  cover: Map<number, number>;
}

interface Scored {
  view: PartView;
  i: number;
  cov: number;
  score: number;
}

/** Share of the weighted terms a sentence holds (0 when the question has none). */
function coverage(view: PartView, i: number): number {
  const known = view.cover.get(i);
  if (known !== undefined) return known;
  let got = 0;
  if (view.total > 0) {
    const toks = new Set(tokenize(view.sents[i]!.text));
    for (const [t, w] of view.terms) if (toks.has(t) || [...toks].some((x) => sameStem(x, t))) got += w;
  }
  const c = view.total > 0 ? (got / view.total) * view.scale : 0;
  view.cover.set(i, c);
  return c;
}

/**
 * Two Latin tokens of one word the light stemmer leaves apart ("distribut" of "distributing",
 * "distribute", "distribution"): one starts with the other, which has at least 5 letters, and they
 * differ by at most 3.
 */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.length - short.length <= 3 && long.startsWith(short) && /^[a-z\u00c0-\u024f]+$/.test(long);
}

/**
 * Whether a text holds one of the question's terms (tokenized as the index does; a word the light
 * stemmer leaves apart counts, see {@link sameStem}).
 */
export function holdsTerms(text: string, terms: ReadonlyMap<string, number>): boolean {
  if (!terms.size) return false;
  const toks = tokenize(text);
  return toks.some((x) => terms.has(x) || [...terms.keys()].some((t) => sameStem(x, t)));
}

/** Who speaks a sentence (a transcript turn's speaker, a comment's author), folded; undefined when unknown. */
function speakerOf(view: PartView, s: Sentence): string | undefined {
  if (view.data.kind === 'comments') return undefined;
  const seg = view.data.segments[s.unit];
  return seg?.speaker ? fold(seg.speaker) : undefined;
}

/** A sentence's length factor: under 5 words half, over 50 words the square root of 50/words. */
function lengthFactor(words: number): number {
  if (words < 5) return 0.5;
  return words > 50 ? Math.sqrt(50 / words) : 1;
}

/** A place of a finding (what {@link overlaps} compares). */
type Place = Pick<SelectedFinding, 'itemId' | 'part' | 'start' | 'end'>;

/** Two spans of the same part of the same item that share characters. */
function overlaps(a: Pick<Place, 'itemId' | 'start' | 'end'> & { part: string }, b: Place): boolean {
  return a.itemId === b.itemId && a.part === b.part && a.start < b.end && b.start < a.end;
}

/** The unit a sentence belongs to for "one finding per unit": a comment, a turn, or (captions) the sentence itself. */
function unitKey(view: PartView, s: Sentence): string {
  if (view.data.kind === 'comments') return `c${s.unit}`;
  return view.captions ? `s${s.start}` : `t${s.unit}`;
}

/** Text of a span, cleaned and on one line, cut to {@link FINDING_LIMITS}.maxChars. */
function readable(text: string, start: number, end: number): string {
  const raw = cleanSpan(text, start, end)?.text ?? text.slice(start, end);
  const flat = raw.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length > FINDING_LIMITS.maxChars ? `${points.slice(0, FINDING_LIMITS.maxChars - 1).join('').trimEnd()}…` : flat;
}

/**
 * The step's findings from the spans it was served, best first (see the module comment).
 *
 * @example
 * selectFindings([{ item, part: 'transcript', start: 0, end: item.transcript.text.length }], [], { question, kinds: ['FACT'], partOf })
 * // [{ itemId: 'm1', part: 'transcript', start: 812, end: 901, text: 'We could sell it for twenty five Euros.', score: 1.2 }, …]
 */
export function selectFindings(spans: readonly ServedSpan[], hints: readonly EvidenceHint[], opts: SelectionOptions): SelectedFinding[] {
  const views = new Map<string, PartView>();
  const viewOf = (item: CorpusItem, part: 'transcript' | 'comments'): PartView | undefined => {
    const key = `${item.id}\u0000${part}`;
    let v = views.get(key);
    if (v) return v;
    const data = opts.partOf(item, part);
    if (!data || !data.text.trim()) return undefined;
    // A question that names no topic reads each item for its own topics, at half weight: the markers (its key points) lead.
    const asked = opts.question.weights.size > 0;
    const terms = asked ? opts.question.weights : (opts.itemTerms?.(item.id) ?? new Map<string, number>());
    v = {
      item,
      part,
      data,
      sents: sentencesOf(data),
      lang: contentLang(data.text.slice(0, 20_000)),
      captions: data.kind === 'transcript' && isCaptionTranscript(data),
      terms,
      total: [...terms.values()].reduce((a, b) => a + b, 0),
      scale: asked ? 1 : ITEM_TOPIC_WEIGHT,
      cover: new Map(),
    };
    views.set(key, v);
    return v;
  };
  // Every sentence inside a served span, once.
  const picked = new Map<PartView, Map<number, number>>();
  for (const sp of spans) {
    const v = viewOf(sp.item, sp.part);
    if (!v) continue;
    const set = picked.get(v) ?? new Map<number, number>();
    picked.set(v, set);
    for (let i = firstAfter(v.sents, sp.start); i < v.sents.length && v.sents[i]!.start < sp.end; i++) set.set(i, Math.max(set.get(i) ?? 0, sp.prior ?? 0));
  }
  const askedSpeakers = new Set(opts.question.speakers);
  const wantsData = opts.kinds.includes('DATA');
  const wantsOpinion = opts.kinds.includes('OPINION');
  const wantsFacts = opts.kinds.includes('FACT') || wantsData;
  const scored: Scored[] = [];
  const fallback: Scored[] = [];
  for (const [v, set] of picked) {
    const own = hints.filter((h) => h.itemId === v.item.id && h.part === v.part && opts.kinds.includes(h.kind));
    for (const [i, prior] of set) {
      const s = v.sents[i]!;
      const cov = coverage(v, i);
      let marker = 0;
      for (const h of own) if (h.start < s.end && h.end > s.start) marker = Math.max(marker, h.confidence);
      const speaker = speakerOf(v, s);
      const named = speaker !== undefined && askedSpeakers.has(speaker);
      if (cov <= 0 && marker <= 0 && !named) continue;
      if (isContentFree(s.text, v.lang, { strict: true })) continue;
      // A question with terms: a sentence without them is no answer to it — unless its speaker is the one asked about; the
      // markers' sentences stand in only when nothing served holds the terms (the report then says so).
      if (cov <= 0 && v.total > 0) {
        (named ? scored : fallback).push({ view: v, i, cov, score: (BONUS.marker * marker + (named ? BONUS.speaker : 0)) * OFF_TOPIC * lengthFactor(countWords(s.text)) });
        continue;
      }
      let near = 0;
      for (const d of [-2, -1, 1, 2]) {
        const j = i + d;
        if (j < 0 || j >= v.sents.length) continue;
        near = Math.max(near, coverage(v, j) * (Math.abs(d) === 1 ? 1 : 0.5));
      }
      const data = wantsData && (cov > 0 || marker > 0) && hasDataPoint(s.text) ? BONUS.data : 0;
      // An opinions step prefers what someone thinks ("I think", "creo que", "我觉得"); a facts step what is stated.
      const stance = wantsOpinion === wantsFacts ? 0 : isOpinion(s.text) === wantsOpinion ? BONUS.stance : 0;
      const score = (cov + BONUS.marker * marker + (named ? BONUS.speaker : 0) + BONUS.near * near + data + stance + BONUS.passage * prior) * lengthFactor(countWords(s.text));
      scored.push({ view: v, i, cov, score });
    }
  }
  // One finding per unit: its best sentence and the sentences next to it in the unit that hold terms too.
  const units = new Map<string, Scored[]>();
  for (const c of scored.length ? scored : fallback) {
    const key = `${c.view.item.id}\u0000${c.view.part}\u0000${unitKey(c.view, c.view.sents[c.i]!)}`;
    const group = units.get(key);
    if (group) group.push(c);
    else units.set(key, [c]);
  }
  const candidates: SelectedFinding[] = [];
  for (const group of units.values()) {
    const best = group.reduce((a, b) => (b.score > a.score ? b : a));
    const v = best.view;
    const s0 = v.sents[best.i]!;
    const key = unitKey(v, s0);
    const inUnit = (j: number): boolean => j >= 0 && j < v.sents.length && unitKey(v, v.sents[j]!) === key;
    const worth = (j: number): boolean => v.data.kind === 'comments' || coverage(v, j) > 0;
    let a = best.i;
    let z = best.i;
    let words = countWords(s0.text);
    let extra = 0;
    for (let grew = true; grew; ) {
      grew = false;
      for (const j of [z + 1, a - 1]) {
        if (!inUnit(j) || !worth(j) || isContentFree(v.sents[j]!.text, v.lang, { strict: true })) continue;
        const w = countWords(v.sents[j]!.text);
        if (words + w > FINDING_LIMITS.maxWords) continue;
        words += w;
        extra += coverage(v, j);
        if (j > z) z = j;
        else a = j;
        grew = true;
      }
    }
    const start = v.sents[a]!.start;
    const end = v.sents[z]!.end;
    const text = readable(v.data.text, start, end);
    if (!text) continue;
    candidates.push({ itemId: v.item.id, part: v.part, start, end, text, score: best.score + 0.25 * Math.min(1, extra) });
  }
  candidates.sort((x, y) => y.score - x.score || (x.itemId < y.itemId ? -1 : x.itemId > y.itemId ? 1 : 0) || x.start - y.start);
  const limit = opts.limit ?? FINDING_LIMITS.perStep;
  const perItem = opts.perItem ?? FINDING_LIMITS.perItem;
  const open = candidates.filter((c) => !(opts.exclude ?? []).some((o) => overlaps(o, c)));
  // Measured against the best open one, and against the best of all (what other steps quoted) a little: the rest of a well-quoted topic is not padded with noise.
  const top = Math.max(open[0]?.score ?? 0, 0.6 * (candidates[0]?.score ?? 0));
  const chosen: SelectedFinding[] = [];
  const byItem = new Map<string, number>();
  for (const c of open) {
    if (chosen.length >= limit || c.score < top * FINDING_LIMITS.minShareOfBest) break;
    if (chosen.some((o) => overlaps(o, c) || o.also?.some((x) => overlaps(x, c)))) continue;
    // The same claim said again (the same words and numbers, `sameFinding`) is one finding citing each place it was said.
    const same = chosen.find((o) => sameFinding(o.text, c.text, FINDING_LIMITS.repeat));
    if (same) {
      if ((same.also ??= []).length < FINDING_LIMITS.placesPerFinding - 1) same.also.push({ itemId: c.itemId, part: c.part, start: c.start, end: c.end });
      continue;
    }
    if ((byItem.get(c.itemId) ?? 0) >= perItem) continue;
    chosen.push(c);
    byItem.set(c.itemId, (byItem.get(c.itemId) ?? 0) + 1);
  }
  return chosen.map((f) => ({ ...f, score: Math.round(f.score * 1000) / 1000 }));
}
