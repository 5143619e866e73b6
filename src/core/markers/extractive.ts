/**
 * The extractive engine: grounded markers without a model. Every sentence of
 * the item is read; sentences with numbers become DATA, sentences with opinion
 * cues OPINION, central declaratives FACT; topics are tf × idf keyphrases;
 * comment sentiment comes from a lexicon weighted by likes; engagement from
 * likes and replies. Every marker's evidence is its own sentence, so every
 * marker is grounded by construction.
 */
import type { CorpusItem } from '../corpus/types';
import { extractComments } from './extractiveComments';
import { extractTranscript } from './extractiveTranscript';
import type { TopicStats } from './keyphrases';
import type { CommentsSummary, Coverage, TranscriptSummary } from './schema';

export { polarity, sentimentOf } from './extractiveComments';
export { markersPerKind } from './extractiveShared';

export interface ExtractiveResult {
  transcript_summary: TranscriptSummary | null;
  comments_summary: CommentsSummary | null;
  coverage: { transcript: Coverage | null; comments: Coverage | null };
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
