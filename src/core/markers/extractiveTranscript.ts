/** The extractive engine's transcript pass: DATA, OPINION and FACT sentences and topic areas of one item. */
import type { CorpusItem } from '../corpus/types';
import { dedupeMarkers } from './build';
import { fullCoverage, hasNumber, isOpinion, isQuestion, markersPerKind, pick, scoreSentences, toMarkers, weightsOf } from './extractiveShared';
import type { TopicStats } from './keyphrases';
import type { Coverage, TranscriptSummary } from './schema';
import { partSentences } from './sentences';

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

