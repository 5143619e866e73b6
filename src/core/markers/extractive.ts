/**
 * The extractive engine: grounded markers without a model. Every sentence of
 * the item is read. Transcripts: sections (chapters, topic shifts), central
 * sentences of each section at about three markers per 1,000 words, DATA /
 * OPINION / FACT by cues, cleaned for reading while the evidence stays the exact
 * span ({@link extractTranscript}). Comments: spam excluded, themes, sentiment,
 * engagement ({@link extractComments}). Every marker's evidence is its own
 * sentence, so every marker is grounded by construction.
 */
import type { CorpusItem } from '../corpus/types';
import { extractComments } from './extractiveComments';
import { extractTranscript } from './extractiveTranscript';
import type { TopicStats } from './keyphrases';
import type { CommentsSummary, Coverage, TranscriptSummary } from './schema';
import type { SpamDecision } from './spam';

export { polarity, sentimentOf } from './extractiveComments';
export { markersPerKind } from './extractiveShared';

export interface ExtractiveResult {
  transcript_summary: TranscriptSummary | null;
  comments_summary: CommentsSummary | null;
  coverage: { transcript: Coverage | null; comments: Coverage | null };
}

/** What the extractive engine takes besides the item and the corpus's topic statistics. */
export interface ExtractiveOptions {
  /** Transcript markers per 1,000 words (default 3). */
  density?: number;
  /** The item's spam, decided over the whole corpus (templates repeated across items count). */
  spam?: SpamDecision;
}

/** Both parts of an item with the extractive engine. */
export function extractItem(item: CorpusItem, stats: TopicStats, opts: ExtractiveOptions = {}): ExtractiveResult {
  const t = extractTranscript(item, stats, opts.density !== undefined ? { density: opts.density } : {});
  const c = extractComments(item, stats, opts.spam ? { spam: opts.spam } : {});
  return {
    transcript_summary: t?.summary ?? null,
    comments_summary: c?.summary ?? null,
    coverage: { transcript: t?.coverage ?? null, comments: c?.coverage ?? null },
  };
}
