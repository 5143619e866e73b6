/**
 * The models of the "Across items" views (issue 24), typed once for the engine, the extension and
 * the webviews: all markers of a kind or a topic across items ({@link markersAcrossSchema}), two or
 * more items side by side ({@link itemsComparisonSchema}) and a timeline of items by date
 * ({@link itemTimelineSchema}), with the queries that ask for them. zod is the source of truth; the
 * engine builds the models in `src/core/across/` and may validate them before sending.
 *
 * Every marker keeps where it is ({@link markerPlaceSchema}): the view opens it with the existing
 * `openMarker` (item id + marker id) or `openHit` (item, part, start, end) messages.
 */
import { z } from 'zod';
import { markerKindSchema } from '../core/markers/schema';

const count = z.number().int().nonnegative();
const itemId = z.string().min(1).max(1000);
const part = z.enum(['transcript', 'comments']);
/** A calendar day, `YYYY-MM-DD`. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/u);

/** Markers per kind; every kind present (0 when none). */
export const kindCountsSchema = z.record(markerKindSchema, count);
export type KindCounts = z.infer<typeof kindCountsSchema>;

/**
 * Where a marker's first evidence is: enough to open it (part and offsets into the part's
 * normalised text) and to say where it is (turn numbers as the readable view numbers them, from 1;
 * media times in seconds; the file and its one-based line; `label` as the sidebar writes it).
 */
export const markerPlaceSchema = z.object({
  part,
  start: count,
  end: count,
  /** Path relative to the corpus root. */
  file: z.string(),
  /** One-based line of the original file. */
  line: z.number().int().positive(),
  /**
   * First and last transcript turn of the span (from 1, as the readable view numbers a meeting's
   * turns; for a caption transcript, its caption lines); null for comments or when the item's text
   * no longer fits the span.
   */
  turn: z.number().int().positive().nullable(),
  turnEnd: z.number().int().positive().nullable(),
  /** A caption transcript's paragraph the span starts in, as the readable view numbers them (`¶ 12`); null for other transcripts and comments. */
  paragraph: z.number().int().positive().nullable(),
  /** Media time of the span in seconds, where the transcript has timestamps. */
  startTime: z.number().nonnegative().nullable(),
  endTime: z.number().nonnegative().nullable(),
  /** Transcript speakers of the span, or the authors of the comments behind it. */
  speakers: z.array(z.string()),
  /** `Daniel · 1:29`, `Daniel · turn 12`, `@lena · 12 likes · 2024-03-14`: as the sidebar shows it. */
  label: z.string(),
});
export type MarkerPlace = z.infer<typeof markerPlaceSchema>;

/** One marker as the across-items views show it. */
export const acrossMarkerSchema = z.object({
  itemId,
  /** The marker's id in its item's marker file (`openMarker`). */
  markerId: z.string(),
  kind: markerKindSchema,
  text: z.string(),
  /** The marker's own topic, as written. */
  topic: z.string(),
  confidence: z.number().min(0).max(1),
  grounded: z.boolean(),
  /** Null when the marker has no evidence span (ungrounded). */
  place: markerPlaceSchema.nullable(),
});
export type AcrossMarker = z.infer<typeof acrossMarkerSchema>;

/** Which markers a view takes: kinds, a part, a topic, some items. Every field narrows; none given: all markers. */
export const acrossQuerySchema = z.object({
  /** Marker kinds kept (absent or empty: every kind). */
  kinds: z.array(markerKindSchema).max(8).optional(),
  /** Only markers grounded in this part (transcript, or the comments). */
  part: part.optional(),
  /**
   * A topic: markers whose own topic folds (case, accents, width, traditional/simplified Chinese)
   * to the same text, or (with `topicMatch: 'contains'`) contains it.
   */
  topic: z.string().trim().min(1).max(200).optional(),
  topicMatch: z.enum(['exact', 'contains']).optional(),
  /** Only these items (absent: the whole corpus). */
  itemIds: z.array(itemId).max(100_000).optional(),
  /** Leave out ungrounded markers. */
  groundedOnly: z.boolean().optional(),
  /** `counts`: topics and items with their counts but no markers (a topic picker); default `markers`. */
  detail: z.enum(['markers', 'counts']).optional(),
});
export type AcrossQuery = z.infer<typeof acrossQuerySchema>;

/** One item under a topic: its markers of that topic (in reading order: transcript, then comments, by position). */
export const topicItemSchema = z.object({
  itemId,
  title: z.string(),
  count,
  /** Empty when the query asked for `counts`. */
  markers: z.array(acrossMarkerSchema),
});
export type TopicItem = z.infer<typeof topicItemSchema>;

/** The markers of one topic across items. */
export const topicGroupSchema = z.object({
  /** The folded topic every marker of the group has; '' for markers without a topic. */
  key: z.string(),
  /** The spelling most markers use (the first in code-point order on a tie); '' for markers without a topic. */
  label: z.string(),
  /** Every spelling seen (trimmed, spaces collapsed), most used first (`电池`, `電池`; `batería`, `bateria`). */
  variants: z.array(z.string()),
  count,
  itemCount: count,
  byKind: kindCountsSchema,
  /** Items with the most markers of the topic first, then in corpus order. */
  items: z.array(topicItemSchema),
});
export type TopicGroup = z.infer<typeof topicGroupSchema>;

/** All markers of a kind or a topic across items, grouped by topic, then item. */
export const markersAcrossSchema = z.object({
  query: acrossQuerySchema,
  totals: z.object({ markers: count, items: count, topics: count, byKind: kindCountsSchema }),
  /** Topics with the most markers first, then those in the most items, then by label. */
  topics: z.array(topicGroupSchema),
  /** Items in scope without readable markers (not generated yet, or unreadable): their markers cannot be counted. */
  itemsWithoutMarkers: z.array(itemId),
  /** Items whose files changed since their markers were made (places may be off). */
  staleItems: z.array(itemId),
});
export type MarkersAcross = z.infer<typeof markersAcrossSchema>;

/** Two or more items to compare, with the markers taken into account. */
export const compareQuerySchema = z.object({
  itemIds: z.array(itemId).min(2).max(50),
  kinds: acrossQuerySchema.shape.kinds,
  part: acrossQuerySchema.shape.part,
  groundedOnly: acrossQuerySchema.shape.groundedOnly,
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

/** One item of a comparison: its markers by kind. */
export const comparedItemSchema = z.object({
  itemId,
  title: z.string(),
  /** The item's date (`YYYY-MM-DD`), or null when it has none that reads as a date. */
  date: day.nullable(),
  hasMarkers: z.boolean(),
  stale: z.boolean(),
  total: count,
  byKind: kindCountsSchema,
  /** The markers of each kind, in reading order. */
  markers: z.record(markerKindSchema, z.array(acrossMarkerSchema)),
  /** Distinct topics of the item's markers. */
  topicCount: count,
});
export type ComparedItem = z.infer<typeof comparedItemSchema>;

/** A topic of several compared items: markers per item, aligned with `items`. */
export const sharedTopicSchema = z.object({
  key: z.string(),
  label: z.string(),
  variants: z.array(z.string()),
  /** Markers of the topic in each compared item, in the order of `items` (0 where absent). */
  counts: z.array(count),
  itemCount: count,
});
export type SharedTopic = z.infer<typeof sharedTopicSchema>;

/** A topic of one compared item only. */
export const distinctTopicSchema = z.object({ key: z.string(), label: z.string(), count });

/**
 * How alike two items' topics are, over their sets of topic keys (markers without a topic left out):
 * `jaccard` = |shared| ÷ |union| (0 nothing shared, 1 the same topics); `weighted` = Σ min(countA,
 * countB) ÷ Σ max(countA, countB) over the union (the Ruzicka similarity: topics weigh by how many
 * markers each item has of them). Null when neither item has a topic.
 */
export const topicSimilaritySchema = z.object({
  a: itemId,
  b: itemId,
  shared: count,
  union: count,
  jaccard: z.number().min(0).max(1).nullable(),
  weighted: z.number().min(0).max(1).nullable(),
});
export type TopicSimilarity = z.infer<typeof topicSimilaritySchema>;

/** Two or more items side by side. */
export const itemsComparisonSchema = z.object({
  query: compareQuerySchema,
  /** The compared items in the order asked (ids not in the corpus are in `missing`). */
  items: z.array(comparedItemSchema),
  missing: z.array(z.string()),
  /** Topics present in at least two of the items: in the most items first, then with the most markers, then by label. */
  sharedTopics: z.array(sharedTopicSchema),
  /** Topics present in only one item, per item (aligned with `items`): most markers first, then by label. */
  distinctTopics: z.array(z.object({ itemId, topics: z.array(distinctTopicSchema) })),
  similarity: z.object({
    /** Topics in every item ÷ topics in any item (the Jaccard index of all the sets); null when no item has a topic. */
    all: z.number().min(0).max(1).nullable(),
    /** Every pair of items, in the order of `items`. */
    pairs: z.array(topicSimilaritySchema),
  }),
});
export type ItemsComparison = z.infer<typeof itemsComparisonSchema>;

export const TIMELINE_BUCKETS = ['day', 'week', 'month'] as const;
export const timelineBucketSchema = z.enum(TIMELINE_BUCKETS);
export type TimelineBucket = z.infer<typeof timelineBucketSchema>;

export const timelineQuerySchema = z.object({
  /** `auto` (default): day for dates within 31 days, week within 26 weeks, month beyond. */
  bucket: z.enum(['auto', ...TIMELINE_BUCKETS]).optional(),
  kinds: acrossQuerySchema.shape.kinds,
  part: acrossQuerySchema.shape.part,
  groundedOnly: acrossQuerySchema.shape.groundedOnly,
  itemIds: acrossQuerySchema.shape.itemIds,
});
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;

/** An item on the timeline (or among the undated): its marker counts. */
export const timelineItemSchema = z.object({
  itemId,
  title: z.string(),
  date: day.nullable(),
  /** The date as the item's metadata writes it, when it has one (also when it does not read as a date). */
  rawDate: z.string().nullable(),
  hasMarkers: z.boolean(),
  total: count,
  byKind: kindCountsSchema,
});
export type TimelineItem = z.infer<typeof timelineItemSchema>;

export const timelineBucketEntrySchema = z.object({
  /** `2024-03-14`, `2024-W11` (ISO week, from Monday), `2024-03`. */
  key: z.string(),
  /** First and last day of the bucket. */
  start: day,
  end: day,
  total: count,
  byKind: kindCountsSchema,
  /** Items of the bucket by date, then in corpus order. */
  items: z.array(timelineItemSchema),
});
export type TimelineBucketEntry = z.infer<typeof timelineBucketEntrySchema>;

/** Items by date with their marker counts; items without a date are listed apart, never dropped. */
export const itemTimelineSchema = z.object({
  query: timelineQuerySchema,
  bucket: timelineBucketSchema,
  /** The first and last date of the dated items; null when none has a date. */
  first: day.nullable(),
  last: day.nullable(),
  /** From the first date's bucket to the last's; empty buckets included unless there would be more than {@link TIMELINE_MAX_BUCKETS} (then `gapsOmitted`). */
  buckets: z.array(timelineBucketEntrySchema),
  gapsOmitted: z.boolean(),
  /** Items without a date (or with one that does not read as a date), in corpus order. */
  undated: z.array(timelineItemSchema),
  totals: z.object({ dated: count, undated: count, markers: count, byKind: kindCountsSchema }),
});
export type ItemTimeline = z.infer<typeof itemTimelineSchema>;

/** Buckets a timeline lists with its empty ones; beyond this, only buckets with items. */
export const TIMELINE_MAX_BUCKETS = 500;
