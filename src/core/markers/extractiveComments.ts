/** The extractive engine's comments pass: facts, opinions, data, themes, sentiment and engagement of one item's comments. */
import type { CommentRecord, CorpusItem } from '../corpus/types';
import { dedupeMarkers, evidenceFor, makeMarker } from './build';
import { CJK, fullCoverage, hasNumber, isOpinion, isQuestion, markersPerKind, pick, scoreSentences, toMarkers, weightsOf } from './extractiveShared';
import { topicCandidates, type TopicStats } from './keyphrases';
import { NEGATIVE_EN, NEGATIVE_ES, NEGATIVE_ZH, POSITIVE_EN, POSITIVE_ES, POSITIVE_ZH } from './lexicons';
import type { CommentsSummary, Coverage } from './schema';
import { partSentences, type Sentence } from './sentences';

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

