/**
 * How relevant each candidate sentence of an extractive answer is to the question (issue 22).
 * The relevance of a sentence adds up:
 * - **the question's terms** it holds: the query's keywords, search text and entity texts,
 *   tokenized as the index does and kept whatever the intent (a reception question about "la
 *   pelea" is answered with sentences about the fight), each weighted by its inverse frequency in
 *   the index and among the candidates (a term every candidate holds, the meeting's own subject,
 *   tells them apart less); a little more for repeats and for terms close together;
 * - **the speakers and authors asked about**: a sentence of their turns (comments) scores;
 * - **where it is**: the rank of the hit it came from as a prior, the other top hits near it, how
 *   much of the question that hit's span holds, the question's terms in the sentences around it
 *   (a stretch about the question), inside the hit's focus, inside the question's time window
 *   (outside it, relevance is cut);
 * - **what it is like**: its likeness to the candidates as a whole (what the hits keep talking
 *   about), less for talk (`spokenShare`: fillers, hedges, I/you/we) and for a question (it asks,
 *   it does not answer), scaled down when short.
 * In the ablation on the dev corpora (bench/answers.ts `--tune`) the likeness to the candidates,
 * the share of talk, the hit's share of the question and the terms around the sentence weigh the
 * most; the other terms are small corrections.
 * The weights ({@link ANSWER_TUNING}) were tuned on qmsum-dev and checked on vcsum-zh-dev and
 * back (bench/answers.ts `--tune`); nothing is fitted per question.
 */
import type { CorpusItem } from '../corpus/types';
import { tokenize, tokenizeQuery } from '../search/tokenize';
import { spokenShare } from '../text/spokenShare';
import { wordsToChars, type AnswerUnit } from './answerSentences';
import { spanTokens } from './partMemos';
import { MMR_LAMBDA, termVector, type TermVector } from './mmr';
import type { ParsedQuery } from './query';
import { timeOfSpan } from './strategies/timeMap';
import type { AskContext, AskHit } from './types';

/** The weights of relevance and the bounds of reading and choosing (see the module comment). */
export const ANSWER_TUNING = {
  /** Holding every term of the question (weighted) adds this much. */
  terms: 1,
  /** Repeats of the terms (saturating). */
  frequency: 0.15,
  /** Two or more distinct terms close together. */
  proximity: 0.2,
  /** A comment stands alone: when enough candidates hold a term, a comment that holds none is not chosen. */
  commentsNeedTerm: true,
  /** At least this share of the chosen sentences hold a term of the question (while candidates that do remain). */
  termQuota: 0.5,
  /** Terms weighted by their inverse frequency among the candidates too. */
  localIdf: true,
  /** A speaker's name among the terms (their own turns score by `speaker`; an introduction that names them is no answer). */
  speakerName: 0.1,
  /** A turn (comment) of a speaker (author) the question asks about. */
  speaker: 0.35,
  /** The hit's rank as a prior: hit r adds rank / (1 + rankDecay · (r − 1)). */
  rank: 0.5,
  rankDecay: 0.25,
  /** The other top hits near the sentence (their priors summed). */
  support: 0.2,
  /** The share of the question's terms the hit's own span holds, over the best hit's. */
  region: 1,
  /** The question's terms in the `contextSpan` sentences on each side (mean share). */
  context: 1,
  contextSpan: 3,
  /** Inside the hit's focus. */
  focus: 0.1,
  /** Inside the question's time window; outside, relevance is multiplied by `outsideTime`. */
  time: 0.2,
  outsideTime: 0.25,
  /** Likeness to the candidates as a whole (cosine of idf-weighted token vectors with their sum). */
  centrality: 2,
  /** Subtracted in proportion to the sentence's share of talk. */
  spoken: 2,
  /** Subtracted from a question. */
  question: 0.4,
  /** Content tokens at which a sentence counts as full length: a shorter one's relevance is scaled down, to `shortScale` at the least. */
  fullTokens: 8,
  shortScale: 0.5,
  /** The hits read, and the first hits whose surroundings are read too, this many words on each side. */
  hits: 10,
  aroundHits: 10,
  aroundWords: 300,
  /** Relevance's weight against novelty in maximal marginal relevance. */
  lambda: MMR_LAMBDA,
  /** A candidate is a repeat of a chosen sentence at or above this cosine similarity. */
  repeat: 0.8,
  /** Past the least number of sentences, selection stops at a sentence below this share of the best relevance. */
  stopShare: 0.35,
};
export type AnswerTuning = typeof ANSWER_TUNING;

/** A sentence that ends with a question mark (closing quotes and brackets aside). */
const QUESTION_END = /[?？][\s"'”’)）]*$/u;

/** What is measured of a unit once per loaded part (tokens, talk, question). */
interface UnitFacts {
  tokens: readonly string[];
  vector: TermVector;
  spoken: number;
  question: boolean;
  /** The vector weighted by inverse document frequency in an index (of that many chunks), as parallel arrays, and its norm. */
  weighted?: Weighted & { index: object; count: number };
}
const factMemos = new WeakMap<object, Map<number, UnitFacts>>();
const MEMO_UNITS = 50_000;

function factsOf(u: AnswerUnit): UnitFacts {
  const text = u.part === 'transcript' ? u.item.transcript : u.item.comments;
  const part = text ?? u.item;
  let memo = factMemos.get(part);
  if (!memo) factMemos.set(part, (memo = new Map()));
  let f = memo.get(u.start);
  if (!f) {
    // The unit's text is its part's (comments: a comment that is not spam reads the same in the spam-free text): tokenized once for hit focus and answers.
    const tokens = text ? spanTokens(text, u.start, u.end) : tokenize(u.text);
    f = { tokens, vector: termVector(tokens), spoken: spokenShare(u.text), question: QUESTION_END.test(u.text) };
    if (memo.size >= MEMO_UNITS) memo.clear();
    memo.set(u.start, f);
  }
  return f;
}

/** A candidate scored. */
export interface ScoredUnit {
  u: AnswerUnit;
  rel: number;
  vector: TermVector;
  /** It holds at least one of the question's terms. */
  hasTerm: boolean;
}

/**
 * The content terms of a question, tokenized as the index does, with their weights: the
 * keywords, the search text and the entity texts (a speaker's name weighs `speakerName`), each
 * weighted by its inverse document frequency in the index.
 *
 * @example answerTerms(ctx, query) // Map { 'price' => 2.9, 'remote' => 1.7, 'control' => 1.5 }
 */
export function answerTerms(ctx: AskContext, q: ParsedQuery, tuning: AnswerTuning = ANSWER_TUNING): Map<string, number> {
  const base = new Map<string, number>();
  const add = (text: string, w: number): void => {
    for (const t of tokenizeQuery(text)) base.set(t, Math.max(base.get(t) ?? 0, w));
  };
  add([...q.keywords, q.searchText].join(' '), 1);
  for (const e of q.entities) add(e.text, e.kind === 'speaker' ? tuning.speakerName : 1);
  if (!base.size) add(q.resolvedQuery || q.question, 1);
  const out = new Map<string, number>();
  for (const [t, w] of base) if (w > 0) out.set(t, w * idfOf(ctx, t));
  return out;
}

const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The speaker labels and comment authors a question asks about. */
function askedSpeakers(q: ParsedQuery): Set<string> {
  const out = new Set<string>();
  for (const e of q.entities) {
    if (e.speaker) out.add(e.speaker);
    if (e.kind === 'author') out.add(e.label.replace(/^@+/, ''));
  }
  if (q.filters.speaker) out.add(q.filters.speaker.replace(/^@+/, ''));
  return out;
}

/** The relevance of every unit (see the module comment). */
export function scoreUnits(ctx: AskContext, q: ParsedQuery, units: readonly AnswerUnit[], hits: readonly AskHit[], W: AnswerTuning = ANSWER_TUNING): ScoredUnit[] {
  const prior = (rank: number): number => 1 / (1 + W.rankDecay * (rank - 1));
  const facts = units.map(factsOf);
  const terms = answerTerms(ctx, q, W);
  if (W.localIdf) {
    const df = new Map<string, number>();
    for (const f of facts) for (const t of f.vector.keys()) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, w] of terms) terms.set(t, w * idf(Math.max(1, facts.length), df.get(t) ?? 0));
  }
  let total = 0;
  for (const w of terms.values()) total += w;
  const speakers = askedSpeakers(q);
  const tc = q.timeConstraint;
  const top = hits.slice(0, W.hits);
  // The terms each unit holds: its weight of distinct terms, of repeats, and where the first and last are.
  const held = facts.map((f) => {
    let cover = 0;
    let extra = 0;
    let first = -1;
    let last = -1;
    const seen = new Set<string>();
    f.tokens.forEach((t, i) => {
      const w = terms.get(t);
      if (w === undefined) return;
      if (first < 0) first = i;
      last = i;
      if (seen.has(t)) extra += w;
      else {
        seen.add(t);
        cover += w;
      }
    });
    return { cover, extra, first, last, distinct: seen.size };
  });
  const covers = held.map((h) => (total > 0 ? h.cover / total : 0));
  const out: ScoredUnit[] = units.map((u, k) => {
    const f = facts[k]!;
    const h = held[k]!;
    let rel = W.terms * covers[k]! + (total > 0 ? W.frequency * Math.min(1, h.extra / total) : 0);
    if (h.distinct >= 2) rel += W.proximity * Math.min(1, (h.distinct - 1) / Math.max(1, h.last - h.first));
    if (speakers.size && u.speaker && speakers.has(u.speaker.replace(/^@+/, ''))) rel += W.speaker;
    rel += W.rank * prior(u.hitRank);
    if (W.support) {
      const reach = wordsToChars(u.item, u.part, W.aroundWords);
      let near = 0;
      for (const hit of top) if (hit.rank !== u.hitRank && hit.itemId === u.item.id && hit.part === u.part && hit.start - reach < u.end && u.start < hit.end + reach) near += prior(hit.rank);
      rel += W.support * near;
    }
    if (u.inFocus) rel += W.focus;
    rel -= W.spoken * f.spoken;
    if (f.question) rel -= W.question;
    const full = Math.min(1, f.tokens.length / W.fullTokens);
    rel *= W.shortScale + (1 - W.shortScale) * full;
    if (tc && u.part === 'transcript') {
      const t = timeOfSpan(u.item, ctx.entities.item(u.item.id), u.start, u.end);
      if (t) rel = t.endS >= tc.startS && t.startS <= (tc.endS ?? Number.POSITIVE_INFINITY) ? rel + W.time : rel * W.outsideTime;
    }
    return { u, rel, vector: f.vector, hasTerm: h.distinct > 0 };
  });
  if (W.region) addRegion(out, covers, W.region);
  if (W.context) addContext(out, covers, W.context, W.contextSpan);
  if (W.centrality) addCentrality(ctx, out, facts, W.centrality);
  return out;
}

/** How much of the question each hit's own span holds (its sentences' term shares summed, over the best hit's). */
function addRegion(out: ScoredUnit[], covers: readonly number[], weight: number): void {
  const byHit = new Map<number, number>();
  out.forEach((s, k) => {
    if (!s.u.around) byHit.set(s.u.hitRank, (byHit.get(s.u.hitRank) ?? 0) + covers[k]!);
  });
  let best = 0;
  for (const v of byHit.values()) best = Math.max(best, v);
  if (best > 0) for (const s of out) s.rel += (weight * (byHit.get(s.u.hitRank) ?? 0)) / best;
}

/** The question's terms in the sentences around each one (up to `span` on each side, same part): a sentence in a stretch about the question. */
function addContext(out: ScoredUnit[], covers: readonly number[], weight: number, span: number): void {
  const order = out.map((_, k) => k);
  const itemOrder = new Map<CorpusItem, number>();
  for (const s of out) if (!itemOrder.has(s.u.item)) itemOrder.set(s.u.item, itemOrder.size);
  const key = (k: number): number => itemOrder.get(out[k]!.u.item)! * 2 + (out[k]!.u.part === 'transcript' ? 0 : 1);
  order.sort((a, b) => key(a) - key(b) || out[a]!.u.start - out[b]!.u.start);
  order.forEach((k, i) => {
    let sum = 0;
    for (let j = Math.max(0, i - span); j <= Math.min(order.length - 1, i + span); j++) if (j !== i && key(order[j]!) === key(k)) sum += covers[order[j]!]!;
    out[k]!.rel += (weight * sum) / (2 * span);
  });
}

/** Inverse document frequencies of an index's terms, while its size stays the same. */
const idfMemos = new WeakMap<object, { count: number; idf: Map<string, number> }>();

function idfOf(ctx: AskContext, t: string): number {
  const n = Math.max(1, ctx.index.documentCount);
  let m = idfMemos.get(ctx.index);
  if (!m || m.count !== n || m.idf.size > MEMO_UNITS) idfMemos.set(ctx.index, (m = { count: n, idf: new Map() }));
  let v = m.idf.get(t);
  if (v === undefined) m.idf.set(t, (v = idf(n, ctx.index.documentFrequency(t))));
  return v;
}

interface Weighted {
  terms: string[];
  weights: number[];
  norm: number;
}

/** A unit's idf-weighted vector in the context's index (kept with the unit's facts while the index keeps its size). */
function weightedOf(ctx: AskContext, f: UnitFacts): Weighted {
  const count = ctx.index.documentCount;
  if (f.weighted && f.weighted.index === ctx.index && f.weighted.count === count) return f.weighted;
  const terms: string[] = [];
  const weights: number[] = [];
  let n = 0;
  f.vector.forEach((c, t) => {
    const x = c * idfOf(ctx, t);
    terms.push(t);
    weights.push(x);
    n += x * x;
  });
  f.weighted = { index: ctx.index, count, terms, weights, norm: Math.sqrt(n) };
  return f.weighted;
}

/** Likeness to the candidates as a whole: cosine of idf-weighted token vectors with their sum. */
function addCentrality(ctx: AskContext, out: ScoredUnit[], facts: readonly UnitFacts[], weight: number): void {
  const ws = facts.map((f) => weightedOf(ctx, f));
  const centroid = new Map<string, number>();
  for (const w of ws) for (let i = 0; i < w.terms.length; i++) centroid.set(w.terms[i]!, (centroid.get(w.terms[i]!) ?? 0) + w.weights[i]!);
  let cn = 0;
  centroid.forEach((x) => (cn += x * x));
  cn = Math.sqrt(cn);
  if (!cn) return;
  out.forEach((s, k) => {
    const w = ws[k]!;
    if (!w.norm) return;
    let d = 0;
    for (let i = 0; i < w.terms.length; i++) d += w.weights[i]! * centroid.get(w.terms[i]!)!;
    s.rel += (weight * d) / (w.norm * cn);
  });
}
