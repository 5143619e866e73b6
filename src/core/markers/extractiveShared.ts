/**
 * What the extractive engine's transcript and comment passes share: sentence
 * scoring by keyphrase weight, picking at most one sentence per unit, markers
 * from picked sentences, the cue tests (number, opinion, question).
 */
import type { CorpusItem } from '../corpus/types';
import { countWords } from '../text/words';
import { evidenceFor, makeMarker } from './build';
import { topicCandidates, topicCounts, topicLanguage, topTopicsOfCounts, type TopicLang, type TopicStats } from './keyphrases';
import { DIGIT_NUMBER, OPINION_CUES_EN, OPINION_CUES_ES, OPINION_CUES_ZH, ZH_NUMBER } from './lexicons';
import type { Coverage, Marker, MarkerKind } from './schema';
import type { Sentence } from './sentences';

export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Bracketed transcription noise ({vocalsound}, [laughter]) is not content. */
const NOISE = /\{[^}]*\}|\[[^\]]*\]/g;

/** How many markers of a kind an item of `words` words gets: about one per 2,500 words, 2 to 8. */
export function markersPerKind(words: number): number {
  return Math.max(2, Math.min(8, Math.round(words / 2500)));
}

export function contentWords(text: string): number {
  return countWords(text.replace(NOISE, ' '));
}

export function hasNumber(text: string): boolean {
  return DIGIT_NUMBER.test(text.replace(NOISE, ' ')) || ZH_NUMBER.test(text);
}

/** The cues as they are looked for: a whole phrase, followed by a space or a comma (Spanish: a space). */
const PADDED_EN = OPINION_CUES_EN.flatMap((c) => [` ${c} `, ` ${c},`]);
const PADDED_ES = OPINION_CUES_ES.map((c) => ` ${c} `);

export function isOpinion(text: string): boolean {
  if (CJK.test(text)) return OPINION_CUES_ZH.some((c) => text.includes(c));
  const lower = ` ${text.toLowerCase()} `;
  return PADDED_EN.some((c) => lower.includes(c)) || PADDED_ES.some((c) => lower.includes(c));
}

export function isQuestion(text: string): boolean {
  return /[?？]["'”’)）]*$/.test(text);
}

/** A sentence long enough to be a claim and short enough to read as one. */
export function claimSized(s: Sentence): boolean {
  const w = contentWords(s.text);
  return w >= (CJK.test(s.text) ? 6 : 6) && w <= 45;
}

export interface Scored {
  s: Sentence;
  score: number;
  topic: string;
}

/**
 * Claim-sized sentences scored by the weights of their topic candidates (`model`: the item's, see
 * {@link weightsOf}); each sentence's topic is its best-weighted candidate that may be a topic.
 */
export function scoreSentences(sentences: readonly Sentence[], model: TopicModel, boost: (s: Sentence) => number = () => 1): Scored[] {
  return sentences.filter(claimSized).map((s) => {
    let score = 0;
    let topic = '';
    let best = 0;
    for (const c of new Set(topicCandidates(s.text, model.lang))) {
      const w = model.weights.get(c) ?? 0;
      score += w;
      if (w > best && model.isTopic(c)) {
        best = w;
        topic = c;
      }
    }
    return { s, score: (score / Math.sqrt(contentWords(s.text) + 1)) * boost(s), topic };
  });
}

/**
 * The best `n` sentences, at most one per unit (turn or comment), best first. `accept` is asked
 * only about sentences that would be picked otherwise (best first, until `n` are picked), so a
 * costly test such as `isContentFree` runs on a few sentences, not on all.
 */
export function pick(scored: readonly Scored[], n: number, used: Set<number>, accept: (x: Scored) => boolean = () => true): Scored[] {
  const out: Scored[] = [];
  for (const x of [...scored].sort((a, b) => b.score - a.score || a.s.start - b.s.start)) {
    if (out.length >= n) break;
    if (used.has(x.s.start) || out.some((o) => o.s.unit === x.s.unit) || !accept(x)) continue;
    out.push(x);
    used.add(x.s.start);
  }
  return out;
}

export function toMarkers(item: CorpusItem, part: 'transcript' | 'comments', kind: MarkerKind, picked: readonly Scored[], topScore: number, fallbackTopic: string): Marker[] {
  return picked.map((x) => {
    const ev = evidenceFor(item, part, x.s.start, x.s.end, 'extractive');
    return makeMarker(item.id, kind, x.s.text, x.topic || fallbackTopic, topScore > 0 ? 0.5 + 0.5 * (x.score / topScore) : 0.5, ev ? [ev] : []);
  });
}

export function fullCoverage(words: number): Coverage {
  return { windows: words > 0 ? 1 : 0, totalWords: words, wordsSeen: words, duplicationRatio: words > 0 ? 1 : 0, complete: true, shrunkWindows: 0 };
}

/** The topics of one item's part and the weights its sentences are scored and labelled by. */
export interface TopicModel {
  /** The language its candidates are judged in. */
  lang: TopicLang;
  /** The `k` best topics of the text, best first (none a stopword, none common to nearly every item of the corpus). */
  topics: string[];
  /** tf × idf of every candidate of the text (sentence scores need them all, topics or not). */
  weights: Map<string, number>;
  /** Whether a candidate may be a topic: not common to nearly every item of the corpus ({@link TopicStats.common}). */
  isTopic(candidate: string): boolean;
}

/**
 * The topic model of a text (an item's transcript, or its comments): candidates counted in the
 * text's language (`lang`, default read from the text), weighted by tf × idf over the corpus.
 */
export function weightsOf(text: string, stats: TopicStats, k: number, lang: TopicLang = topicLanguage(text)): TopicModel {
  // Counted as they come: the candidates of a long item are never all held at once.
  const tf = topicCounts(text, lang);
  const top = topTopicsOfCounts(tf, stats, k);
  const weights = new Map<string, number>();
  // Every candidate gets its tf·idf weight, not only the top topics: centrality needs them all.
  for (const [c, f] of tf) weights.set(c, Math.log(1 + f) * stats.idf(c));
  return { lang, topics: top.map((t) => t.topic), weights, isTopic: (c) => !stats.common(c) };
}

/** The topic of one sentence of the text `model` was made of: its best-weighted candidate that may be a topic; '' when it has none. */
export function topicOf(model: TopicModel, text: string): string {
  let topic = '';
  let best = 0;
  for (const c of new Set(topicCandidates(text, model.lang))) {
    const w = model.weights.get(c) ?? 0;
    if (w > best && model.isTopic(c)) {
      best = w;
      topic = c;
    }
  }
  return topic;
}

