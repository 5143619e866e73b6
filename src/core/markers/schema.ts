/**
 * Phase 0 key-info markers: the persisted shape (per item, in the seed's
 * layout) and the shape a model replies with for one window. zod is the source
 * of truth; types are inferred; JSON schemas for structured output derive from it.
 */
import { z } from 'zod';

export const MARKER_KINDS = ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] as const;
export const markerKindSchema = z.enum(MARKER_KINDS);
export type MarkerKind = z.infer<typeof markerKindSchema>;

export const engineSchema = z.enum(['extractive', 'openai', 'ollama']);
export type EngineName = z.infer<typeof engineSchema>;

/** A span of the original file, zero-based lines and columns. */
export const sourceRangeSchema = z.object({
  file: z.string().describe('path relative to the corpus root'),
  startLine: z.number().int().nonnegative(),
  startColumn: z.number().int().nonnegative(),
  endLine: z.number().int().nonnegative(),
  endColumn: z.number().int().nonnegative(),
  startTime: z.number().optional(),
  endTime: z.number().optional(),
  speakers: z.array(z.string()).optional(),
  commentIds: z.array(z.string()).optional(),
});
export type SourceRange = z.infer<typeof sourceRangeSchema>;

/** Where a marker's claim is in the source: the quote and its span. */
export const evidenceSchema = z.object({
  quote: z.string(),
  part: z.enum(['transcript', 'comments']),
  /** Offsets into the part's normalised text. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  source: sourceRangeSchema,
  /** How the span was found: the quote verbatim, a fuzzy alignment, or by construction (extractive). */
  match: z.enum(['exact', 'normalised', 'fuzzy', 'extractive']),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const markerSchema = z.object({
  /** Stable across runs: item, kind and a hash of the normalised text. */
  id: z.string(),
  kind: markerKindSchema,
  text: z.string().min(1),
  topic: z.string(),
  confidence: z.number().min(0).max(1),
  evidence: z.array(evidenceSchema),
  /** False when no source span could be found for the marker: kept, flagged. */
  grounded: z.boolean(),
  /** Engagement markers: likes and replies of the comments behind them. */
  likes: z.number().int().nonnegative().optional(),
  replies: z.number().int().nonnegative().optional(),
});
export type Marker = z.infer<typeof markerSchema>;

export const SENTIMENTS = ['mostly_positive', 'mixed', 'mostly_negative'] as const;
export const sentimentSchema = z.enum(SENTIMENTS);

export const transcriptSummarySchema = z.object({
  key_facts: z.array(markerSchema),
  key_opinions: z.array(markerSchema),
  key_datapoints: z.array(markerSchema),
  topic_areas: z.array(z.string()),
  word_count: z.number().int().nonnegative(),
  total_markers: z.number().int().nonnegative(),
});
export type TranscriptSummary = z.infer<typeof transcriptSummarySchema>;

export const commentsSummarySchema = z.object({
  key_facts_from_comments: z.array(markerSchema),
  key_opinions_from_comments: z.array(markerSchema),
  key_datapoints_from_comments: z.array(markerSchema),
  major_themes: z.array(z.string()),
  sentiment_overview: sentimentSchema,
  top_engagement_markers: z.array(markerSchema),
  total_comments: z.number().int().nonnegative(),
  total_markers: z.number().int().nonnegative(),
  /** Comments the spam detector kept out of every marker, theme and the sentiment (extractive engine; absent in older files). */
  spam: z.object({ count: z.number().int().nonnegative(), comment_ids: z.array(z.string()) }).optional(),
});
export type CommentsSummary = z.infer<typeof commentsSummarySchema>;

/** Coverage accounting of one part: every word read, and how much was read twice. */
export const coverageSchema = z.object({
  windows: z.number().int().nonnegative(),
  totalWords: z.number().int().nonnegative(),
  wordsSeen: z.number().int().nonnegative(),
  /** Words sent ÷ words of the part (overlap makes it > 1). */
  duplicationRatio: z.number().nonnegative(),
  /** Every word of the part was inside a window that was sent and answered. */
  complete: z.boolean(),
  /** Windows retried at 0.75× after a context-length rejection. */
  shrunkWindows: z.number().int().nonnegative(),
  /** Word ranges `[start, end)` no answered window covered (the first 20), when not complete. */
  missingRanges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).optional(),
});
export type Coverage = z.infer<typeof coverageSchema>;

export const itemMarkersSchema = z.object({
  item_id: z.string(),
  title: z.string(),
  content_hash: z.string(),
  engine: engineSchema,
  model: z.string().nullable(),
  prompt_version: z.string().nullable(),
  /** Cache key: content hash + engine + model + prompt version + settings. */
  cache_key: z.string(),
  generated_at: z.string(),
  transcript_summary: transcriptSummarySchema.nullable(),
  comments_summary: commentsSummarySchema.nullable(),
  coverage: z.object({ transcript: coverageSchema.nullable(), comments: coverageSchema.nullable() }),
  usage: z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), calls: z.number().int().nonnegative() }),
});
export type ItemMarkers = z.infer<typeof itemMarkersSchema>;

/** `markers/index.json`: one line per item. */
export const markersIndexSchema = z.object({
  version: z.literal(1),
  items: z.record(z.string(), z.object({ file: z.string(), cache_key: z.string(), engine: engineSchema, total_markers: z.number().int(), grounded: z.number().int() })),
});
export type MarkersIndex = z.infer<typeof markersIndexSchema>;

// ---- What a model returns for one window -------------------------------------------------

const windowClaim = z.object({
  text: z.string().describe('the claim, one sentence, in the language of the source'),
  quote: z.string().describe('a short verbatim quote from the window that supports it'),
  topic: z.string().describe('two to four words'),
  confidence: z.number().min(0).max(1),
});

export const transcriptWindowReplySchema = z.object({
  facts: z.array(windowClaim),
  opinions: z.array(windowClaim),
  datapoints: z.array(windowClaim),
  topics: z.array(z.string()),
});
export type TranscriptWindowReply = z.infer<typeof transcriptWindowReplySchema>;

export const commentsWindowReplySchema = z.object({
  facts: z.array(windowClaim),
  opinions: z.array(windowClaim),
  datapoints: z.array(windowClaim),
  themes: z.array(z.string()),
  sentiment: sentimentSchema,
  engagement: z.array(windowClaim.extend({ comment_ids: z.array(z.string()).describe('ids of the comments behind it') })),
});
export type CommentsWindowReply = z.infer<typeof commentsWindowReplySchema>;
