/**
 * The extractive answer to a question (issue 22): two to six sentences of the corpus, chosen from
 * the top hits, that answer it — each with its citation (item, part, exact offsets, where in
 * words, speaker, the hit it came from). No model: the sentences are the source's own words,
 * whitespace collapsed, never rewritten.
 *
 * - **Candidates** are the units of the top hits' spans and of the text around the first of them
 *   (`answerSentences.ts`: reading sentences of captions, sentences of meeting turns, whole
 *   spam-free comments).
 * - **Relevance** (`answerScoring.ts`): the question's content terms — kept whatever the intent —,
 *   the speakers asked about, the time window, where the sentence is among the hits, and whether
 *   it states something rather than talks around it.
 * - **Selection** by maximal marginal relevance (`mmr.ts`, cosine over tokens): near repeats are
 *   never chosen; content-free units (`isContentFree`) and units with fewer than
 *   {@link MIN_CONTENT_WORDS} content words never; a unit that no longer fits the budget
 *   ({@link ANSWER_BUDGET}: words and CJK characters counted apart) is passed over. The question's
 *   own words are kept whatever the intent: when enough candidates hold one of its terms, at least
 *   half the sentences hold one (the first among them), and a comment that holds none is not
 *   chosen — it stands alone, so it is not about the question. Past the least number of
 *   sentences, selection stops at a sentence much less relevant than the best.
 * - **Order**: sentences of one item in source order; of several items grouped by item (the item
 *   of the best sentence first), each group in source order.
 */
import { locationLabel } from '../corpus/locationLabel';
import { mapSpan, type SpanSource } from '../corpus/spans';
import type { PartKind } from '../corpus/types';
import { contentProfile, MIN_CONTENT_WORDS, profileIsContentFree } from '../text/contentFree';
import { answerUnits, type AnswerUnit } from './answerSentences';
import { ANSWER_TUNING, scoreUnits, type AnswerTuning, type ScoredUnit } from './answerScoring';
import { mmrSelect } from './mmr';
import { spanJudgement } from './partMemos';
import type { ParsedQuery } from './query';
import type { AskContext, AskHit } from './types';

export interface AnswerCitation {
  itemId: string;
  title: string;
  part: PartKind;
  /** offsets into the part's normalised text: exactly the sentence */
  start: number;
  end: number;
  source: SpanSource | null;
  /** who and where in words, from locationLabel(item, part, start, end, { title: false }): "Daniel · 0:33", "@lena · 12 likes · 2024-03-14" */
  location: string;
  /** the turn's speaker, when the transcript has one */
  speaker?: string;
  /** the hit the sentence came from (1-based) */
  hitRank?: number;
}

export interface AnswerSentence {
  text: string;
  citation: AnswerCitation;
}

export interface AnswerOptions {
  /** Most words (English, Spanish: runs of letters or digits) of the whole answer. */
  maxWords?: number;
  /** Most CJK characters of the whole answer. */
  maxCjkChars?: number;
  maxSentences?: number;
  /** Sentences chosen, when that many qualify, however weak the later ones. */
  minSentences?: number;
}

/** Candidates maximal marginal relevance chooses from (the most relevant). */
const MMR_POOL = 200;

/** The answer's budget: 2–6 sentences, ≤ 120 words and ≤ 240 CJK characters. */
export const ANSWER_BUDGET: Required<AnswerOptions> = { maxWords: 120, maxCjkChars: 240, maxSentences: 6, minSentences: 2 };

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}]+)?/gu;

/**
 * Words (letter/digit runs outside CJK) and CJK characters of `text`: the two budgets.
 *
 * @example answerSize('The price is 25 €, 价格') // { words: 4, cjk: 2 }
 */
export function answerSize(text: string): { words: number; cjk: number } {
  const cjk = text.match(CJK_CHAR)?.length ?? 0;
  const words = (cjk ? text.replace(CJK_CHAR, ' ') : text).match(WORD)?.length ?? 0;
  return { words, cjk };
}

/** What a unit costs and whether it says something, judged once per loaded part. */
const judged = new WeakMap<object, Map<number, { words: number; cjk: number; says?: boolean }>>();
const MEMO_UNITS = 50_000;

function judgementOf(u: AnswerUnit): { words: number; cjk: number; says?: boolean } {
  const part = (u.part === 'transcript' ? u.item.transcript : u.item.comments) ?? u.item;
  let memo = judged.get(part);
  if (!memo) judged.set(part, (memo = new Map()));
  let j = memo.get(u.start);
  if (!j) {
    j = answerSize(u.text);
    if (memo.size >= MEMO_UNITS) memo.clear();
    memo.set(u.start, j);
  }
  return j;
}

/** True when a unit says something: not content-free, and at least {@link MIN_CONTENT_WORDS} content words. */
function saysSomething(u: AnswerUnit): boolean {
  const j = judgementOf(u);
  if (j.says === undefined) {
    const part = u.part === 'transcript' ? u.item.transcript : u.item.comments;
    if (part) {
      const said = spanJudgement(part, u.start, u.end);
      j.says = !said.empty && said.content >= MIN_CONTENT_WORDS;
    } else {
      const p = contentProfile(u.text);
      j.says = !profileIsContentFree(p) && p.content.length >= MIN_CONTENT_WORDS;
    }
  }
  return j.says;
}

/** Sentences of one item in source order; of several, grouped by item (best item first), each group in source order. */
function answerOrder(chosen: readonly AnswerUnit[]): AnswerUnit[] {
  const groups = new Map<string, AnswerUnit[]>();
  for (const u of chosen) {
    const g = groups.get(u.item.id);
    if (g) g.push(u);
    else groups.set(u.item.id, [u]);
  }
  const bySource = (a: AnswerUnit, b: AnswerUnit): number => (a.part === b.part ? a.start - b.start : a.part === 'transcript' ? -1 : 1);
  return [...groups.values()].flatMap((g) => g.sort(bySource));
}

/**
 * The extractive answer to `query` from its `hits` (see the module comment); [] when no sentence
 * of the top hits qualifies.
 *
 * @example
 * const r = await askCorpus(ctx, { question: 'How much will the remote control cost?', itemId: 'qmsum-ES2009b' });
 * extractiveAnswer(ctx, r.query, r.hits)
 * // [{ text: 'we want to sell this remote control for about twenty five Euros .', citation: { itemId: 'qmsum-ES2009b', location: 'Project Manager · turn 4', … } }, …]
 */
export function extractiveAnswer(ctx: AskContext, query: ParsedQuery, hits: readonly AskHit[], options: AnswerOptions = {}): AnswerSentence[] {
  return tunedAnswer(ctx, query, hits, options, ANSWER_TUNING);
}

/** {@link extractiveAnswer} with other weights (the bench tunes them). */
export function tunedAnswer(ctx: AskContext, query: ParsedQuery, hits: readonly AskHit[], options: AnswerOptions, tuning: AnswerTuning): AnswerSentence[] {
  const o = { ...ANSWER_BUDGET, ...options };
  const units = answerUnits(ctx, hits, { hits: tuning.hits, aroundHits: tuning.aroundHits, aroundWords: tuning.aroundWords });
  if (!units.length) return [];
  let scored = scoreUnits(ctx, query, units, hits, tuning);
  // The question's own words are kept whatever the intent: when enough candidates hold one, a comment that holds none is no answer
  // (a reception question about "la pelea" is answered with comments about the fight), and most sentences hold one.
  const holding = scored.filter((s) => s.hasTerm).length;
  if (tuning.commentsNeedTerm && holding >= o.minSentences) scored = scored.filter((s) => s.hasTerm || s.u.part !== 'comments');
  // Six sentences are chosen from the best few hundred: the rest would only cost time.
  if (scored.length > MMR_POOL) scored = scored.sort((a, b) => b.rel - a.rel).slice(0, MMR_POOL);
  // A unit takes at most its share of the budget, so that the least number of sentences fits (a 110-word comment would be the
  // whole answer); only when that leaves too few is a longer one taken.
  const share = { words: o.maxWords / Math.max(1, o.minSentences), cjk: o.maxCjkChars / Math.max(1, o.minSentences) };
  let chosen = choose(scored, o, tuning, share);
  if (chosen.length < o.minSentences) {
    const again = choose(scored, o, tuning, { words: o.maxWords, cjk: o.maxCjkChars });
    if (again.length > chosen.length) chosen = again;
  }
  return answerOrder(chosen.map((s) => s.u)).map((u) => ({ text: u.text.replace(/\s+/g, ' ').trim(), citation: citationOf(u) }));
}

/** Maximal marginal relevance within the budget, each unit within `most`, at least half holding a term while candidates that do remain. */
function choose(scored: readonly ScoredUnit[], o: Required<AnswerOptions>, tuning: AnswerTuning, most: { words: number; cjk: number }): ScoredUnit[] {
  /** Sentences chosen that hold a term. */
  let withTerm = 0;
  let words = 0;
  let cjk = 0;
  return mmrSelect(scored, {
    lambda: tuning.lambda,
    max: Math.max(1, o.maxSentences),
    relevance: (s) => s.rel,
    vector: (s) => s.vector,
    repeat: tuning.repeat,
    fits: (s) => {
      const j = judgementOf(s.u);
      return j.words <= most.words && j.cjk <= most.cjk && words + j.words <= o.maxWords && cjk + j.cjk <= o.maxCjkChars;
    },
    // At least half the sentences hold a term of the question, while candidates that do remain.
    prefer: (s, picked) => s.hasTerm || withTerm >= tuning.termQuota * (picked.length + 1),
    enough: (_s, picked, share) => picked.length >= o.minSentences && share < tuning.stopShare,
    accept: (s) => {
      if (!saysSomething(s.u)) return false;
      if (s.hasTerm) withTerm++;
      const j = judgementOf(s.u);
      words += j.words;
      cjk += j.cjk;
      return true;
    },
  });
}

function citationOf(u: AnswerUnit): AnswerCitation {
  return {
    itemId: u.item.id,
    title: u.item.title,
    part: u.part,
    start: u.start,
    end: u.end,
    source: mapSpan(u.item, { part: u.part, start: u.start, end: u.end }) ?? null,
    location: locationLabel(u.item, u.part, u.start, u.end, { title: false }),
    ...(u.part === 'transcript' && u.speaker ? { speaker: u.speaker } : {}),
    hitRank: u.hitRank,
  };
}
