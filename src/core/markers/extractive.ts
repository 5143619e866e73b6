/**
 * The extractive engine: grounded markers without a model. Every sentence of
 * the item is read; sentences with numbers become DATA, sentences with opinion
 * cues OPINION, central declaratives FACT; topics are tf × idf keyphrases;
 * comment sentiment comes from a lexicon weighted by likes; engagement from
 * likes and replies. Every marker's evidence is its own sentence, so every
 * marker is grounded by construction.
 */
import type { CommentRecord, CorpusItem } from '../corpus/types';
import { countWords } from '../text/words';
import { evidenceFor, makeMarker, dedupeMarkers } from './build';
import { topicCandidates, topTopics, type TopicStats } from './keyphrases';
import {
  DIGIT_NUMBER, NEGATIVE_EN, NEGATIVE_ES, NEGATIVE_ZH, OPINION_CUES_EN, OPINION_CUES_ES, OPINION_CUES_ZH, POSITIVE_EN, POSITIVE_ES, POSITIVE_ZH, ZH_NUMBER,
} from './lexicons';
import type { CommentsSummary, Coverage, Marker, MarkerKind, TranscriptSummary } from './schema';
import { partSentences, type Sentence } from './sentences';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Bracketed transcription noise ({vocalsound}, [laughter]) is not content. */
const NOISE = /\{[^}]*\}|\[[^\]]*\]/g;

export interface ExtractiveResult {
  transcript_summary: TranscriptSummary | null;
  comments_summary: CommentsSummary | null;
  coverage: { transcript: Coverage | null; comments: Coverage | null };
}

/** How many markers of a kind an item of `words` words gets: about one per 2,500 words, 2 to 8. */
export function markersPerKind(words: number): number {
  return Math.max(2, Math.min(8, Math.round(words / 2500)));
}

function contentWords(text: string): number {
  return countWords(text.replace(NOISE, ' '));
}

function hasNumber(text: string): boolean {
  return DIGIT_NUMBER.test(text.replace(NOISE, ' ')) || ZH_NUMBER.test(text);
}

function isOpinion(text: string): boolean {
  const lower = ` ${text.toLowerCase()} `;
  if (CJK.test(text)) return OPINION_CUES_ZH.some((c) => text.includes(c));
  return OPINION_CUES_EN.some((c) => lower.includes(` ${c} `) || lower.includes(` ${c},`)) || OPINION_CUES_ES.some((c) => lower.includes(` ${c} `));
}

function isQuestion(text: string): boolean {
  return /[?？]["'”’)）]*$/.test(text);
}

/** A sentence long enough to be a claim and short enough to read as one. */
function claimSized(s: Sentence): boolean {
  const w = contentWords(s.text);
  return w >= (CJK.test(s.text) ? 6 : 6) && w <= 45;
}

interface Scored {
  s: Sentence;
  score: number;
  topic: string;
}

function scoreSentences(sentences: readonly Sentence[], weights: ReadonlyMap<string, number>, boost: (s: Sentence) => number = () => 1): Scored[] {
  return sentences.filter(claimSized).map((s) => {
    let score = 0;
    let topic = '';
    let best = 0;
    for (const c of new Set(topicCandidates(s.text))) {
      const w = weights.get(c) ?? 0;
      score += w;
      if (w > best) {
        best = w;
        topic = c;
      }
    }
    return { s, score: (score / Math.sqrt(contentWords(s.text) + 1)) * boost(s), topic };
  });
}

/** The best `n` sentences, at most one per unit (turn or comment), best first. */
function pick(scored: readonly Scored[], n: number, used: Set<number>): Scored[] {
  const out: Scored[] = [];
  for (const x of [...scored].sort((a, b) => b.score - a.score || a.s.start - b.s.start)) {
    if (out.length >= n) break;
    if (used.has(x.s.start) || out.some((o) => o.s.unit === x.s.unit)) continue;
    out.push(x);
    used.add(x.s.start);
  }
  return out;
}

function toMarkers(item: CorpusItem, part: 'transcript' | 'comments', kind: MarkerKind, picked: readonly Scored[], topScore: number, fallbackTopic: string): Marker[] {
  return picked.map((x) => {
    const ev = evidenceFor(item, part, x.s.start, x.s.end, 'extractive');
    return makeMarker(item.id, kind, x.s.text, x.topic || fallbackTopic, topScore > 0 ? 0.5 + 0.5 * (x.score / topScore) : 0.5, ev ? [ev] : []);
  });
}

function fullCoverage(words: number): Coverage {
  return { windows: words > 0 ? 1 : 0, totalWords: words, wordsSeen: words, duplicationRatio: words > 0 ? 1 : 0, complete: true, shrunkWindows: 0 };
}

function weightsOf(text: string, stats: TopicStats, k: number): { topics: string[]; weights: Map<string, number> } {
  const candidates = topicCandidates(text);
  const top = topTopics(candidates, stats, k);
  const weights = new Map<string, number>();
  // Every candidate gets its tf·idf weight, not only the top topics: centrality needs them all.
  const tf = new Map<string, number>();
  for (const c of candidates) tf.set(c, (tf.get(c) ?? 0) + 1);
  for (const [c, f] of tf) weights.set(c, Math.log(1 + f) * stats.idf(c));
  return { topics: top.map((t) => t.topic), weights };
}

/** Transcript markers of one item. */
export function extractTranscript(item: CorpusItem, stats: TopicStats): { summary: TranscriptSummary; coverage: Coverage } | undefined {
  const t = item.transcript;
  if (!t) return undefined;
  const sentences = partSentences(t);
  const { topics, weights } = weightsOf(t.text, stats, 8);
  const n = markersPerKind(t.wordCount);
  const scored = scoreSentences(sentences, weights);
  const top = Math.max(0, ...scored.map((x) => x.score));
  const used = new Set<number>();
  const fallback = topics[0] ?? item.title;
  const data = toMarkers(item, 'transcript', 'DATA', pick(scored.filter((x) => hasNumber(x.s.text) && !isQuestion(x.s.text)), n, used), top, fallback);
  const opinions = toMarkers(item, 'transcript', 'OPINION', pick(scored.filter((x) => isOpinion(x.s.text)), n, used), top, fallback);
  const facts = toMarkers(item, 'transcript', 'FACT', pick(scored.filter((x) => !isQuestion(x.s.text) && !isOpinion(x.s.text)), n, used), top, fallback);
  const summary: TranscriptSummary = {
    key_facts: dedupeMarkers(facts),
    key_opinions: dedupeMarkers(opinions),
    key_datapoints: dedupeMarkers(data),
    topic_areas: topics,
    word_count: t.wordCount,
    total_markers: 0,
  };
  summary.total_markers = summary.key_facts.length + summary.key_opinions.length + summary.key_datapoints.length;
  return { summary, coverage: fullCoverage(t.wordCount) };
}

/** Lexicon polarity of a comment: positive > 0, negative < 0. */
export function polarity(text: string): number {
  const lower = text.toLowerCase();
  let score = 0;
  if (CJK.test(text)) {
    for (const w of POSITIVE_ZH) if (text.includes(w)) score++;
    for (const w of NEGATIVE_ZH) if (text.includes(w)) score--;
    if (/不(?:好|错|行)/.test(text)) score += text.includes('不错') ? 2 : 0;
    return score;
  }
  const words = new Set(lower.match(/[\p{L}']+/gu) ?? []);
  for (const w of [...POSITIVE_EN, ...POSITIVE_ES]) if (w.includes(' ') ? lower.includes(w) : words.has(w)) score++;
  for (const w of [...NEGATIVE_EN, ...NEGATIVE_ES]) if (w.includes(' ') ? lower.includes(w) : words.has(w)) score--;
  if (/\b(?:not|no|never|don't|isn't|wasn't)\s+(?:good|great|bad|helpful|useful)\b/.test(lower)) score = -score;
  return score;
}

/** mostly_positive / mostly_negative when ≥ 60 % of the likes-weighted opinionated comments lean that way. */
export function sentimentOf(comments: readonly CommentRecord[]): CommentsSummary['sentiment_overview'] {
  let pos = 0;
  let neg = 0;
  for (const c of comments) {
    const p = polarity(c.text);
    const w = 1 + Math.log1p(c.likes ?? 0);
    if (p > 0) pos += w;
    else if (p < 0) neg += w;
  }
  if (pos + neg === 0) return 'mixed';
  if (pos / (pos + neg) >= 0.6) return 'mostly_positive';
  if (neg / (pos + neg) >= 0.6) return 'mostly_negative';
  return 'mixed';
}

/** Comment markers of one item. */
export function extractComments(item: CorpusItem, stats: TopicStats): { summary: CommentsSummary; coverage: Coverage } | undefined {
  const cp = item.comments;
  if (!cp) return undefined;
  const live = cp.comments.filter((c) => c.text.trim() !== '');
  const byIndex = new Map(cp.comments.map((c) => [c.index, c]));
  const replies = new Map<string, number>();
  for (const c of cp.comments) if (c.parentId) replies.set(c.parentId, (replies.get(c.parentId) ?? 0) + 1);
  const repliesOf = (c: CommentRecord): number => Math.max(replies.get(c.id) ?? 0, c.replyCount ?? 0);
  const sentences = partSentences(cp);
  const { topics, weights } = weightsOf(cp.text, stats, 6);
  const n = markersPerKind(cp.wordCount);
  const likesBoost = (s: Sentence): number => 1 + Math.log1p(byIndex.get(s.unit)?.likes ?? 0) + Math.log1p(repliesOf(byIndex.get(s.unit)!));
  const scored = scoreSentences(sentences, weights, likesBoost);
  const top = Math.max(0, ...scored.map((x) => x.score));
  const used = new Set<number>();
  const fallback = topics[0] ?? item.title;
  const data = toMarkers(item, 'comments', 'DATA', pick(scored.filter((x) => hasNumber(x.s.text) && !isQuestion(x.s.text)), n, used), top, fallback);
  const opinions = toMarkers(item, 'comments', 'OPINION', pick(scored.filter((x) => isOpinion(x.s.text) || polarity(x.s.text) !== 0), n, used), top, fallback);
  const facts = toMarkers(item, 'comments', 'FACT', pick(scored.filter((x) => !isQuestion(x.s.text) && !isOpinion(x.s.text)), n, used), top, fallback);

  const engagement = [...live]
    .sort((a, b) => (b.likes ?? 0) + 2 * repliesOf(b) - ((a.likes ?? 0) + 2 * repliesOf(a)) || a.index - b.index)
    .slice(0, Math.max(2, Math.min(8, Math.round(live.length / 20))))
    .filter((c) => (c.likes ?? 0) + repliesOf(c) > 0)
    .map((c) => {
      const first = sentences.find((s) => s.unit === c.index) ?? { start: c.offset, end: c.offset + c.text.length, text: c.text, unit: c.index };
      const ev = evidenceFor(item, 'comments', first.start, first.end, 'extractive');
      const topic = topicCandidates(c.text).find((t) => weights.has(t)) ?? fallback;
      return makeMarker(item.id, 'ENGAGEMENT', first.text, topic, 0.6, ev ? [ev] : [], { likes: c.likes ?? 0, replies: repliesOf(c) });
    });

  const summary: CommentsSummary = {
    key_facts_from_comments: dedupeMarkers(facts),
    key_opinions_from_comments: dedupeMarkers(opinions),
    key_datapoints_from_comments: dedupeMarkers(data),
    major_themes: topics,
    sentiment_overview: sentimentOf(live),
    top_engagement_markers: dedupeMarkers(engagement),
    total_comments: cp.comments.length,
    total_markers: 0,
  };
  summary.total_markers = summary.key_facts_from_comments.length + summary.key_opinions_from_comments.length + summary.key_datapoints_from_comments.length + summary.top_engagement_markers.length;
  return { summary, coverage: fullCoverage(cp.wordCount) };
}

/** Both parts of an item with the extractive engine. */
export function extractItem(item: CorpusItem, stats: TopicStats): ExtractiveResult {
  const t = extractTranscript(item, stats);
  const c = extractComments(item, stats);
  return {
    transcript_summary: t?.summary ?? null,
    comments_summary: c?.summary ?? null,
    coverage: { transcript: t?.coverage ?? null, comments: c?.coverage ?? null },
  };
}
