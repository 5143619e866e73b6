/**
 * The structured form of a question asked of the corpus (SPEC §5 "Ask the
 * corpus", seed 004): what query understanding produces — offline rules or
 * one model call, the same shape — and what the hybrid retriever consumes.
 * zod is the source of truth; types are inferred.
 */
import { z } from 'zod';

/** What the question wants (definitions: corpora/ASK.md). */
export const INTENTS = [
  'summary',
  'search_entity',
  'search_relation',
  'search_semantic',
  'analyze_topic',
  'analyze_reception',
  'recommend_clip',
  'citation_lookup',
] as const;
export const intentSchema = z.enum(INTENTS);
export type Intent = z.infer<typeof intentSchema>;

/** The retrieval strategies of the hybrid retriever, by name (a hit says which found it). */
export const STRATEGY_NAMES = ['keyword', 'vector', 'entity', 'relation', 'marker', 'summary', 'reception', 'clip', 'citation'] as const;
export const strategyNameSchema = z.enum(STRATEGY_NAMES);
export type StrategyName = z.infer<typeof strategyNameSchema>;

/** What an entity of the question was linked to in the corpus. */
export const ENTITY_KINDS = ['speaker', 'item', 'author', 'name', 'unlinked'] as const;
export const entityKindSchema = z.enum(ENTITY_KINDS);
export type EntityKind = z.infer<typeof entityKindSchema>;

export const linkedEntitySchema = z.object({
  /** As the question says it, or as resolved from the session ("the professor", "him"). */
  text: z.string().min(1),
  /**
   * The corpus's own name for it: a speaker label exactly as in the transcript
   * (`Professor B`), an item id, a comment author, a name as written in the text;
   * equal to `text` when unlinked.
   */
  label: z.string().min(1),
  kind: entityKindSchema,
  /** The speaker label this entity speaks as, when known (a speaker, or a name a speaker introduced themself with). */
  speaker: z.string().optional(),
  /**
   * When `speaker` is a role or an anonymous id ("Project Manager", "speaker_3"), a different person in
   * each item: the items whose speaker it is — one when an item is in focus or named, several when the
   * question has not said which (the answer then asks).
   */
  speakerItems: z.array(z.string()).optional(),
  /** Items where the entity occurs (empty when unlinked). */
  itemIds: z.array(z.string()),
  /** True when the entity came from the session (a pronoun or a role noun resolved to it). */
  fromSession: z.boolean(),
});
export type LinkedEntity = z.infer<typeof linkedEntitySchema>;

/** Seconds from the start of the media; `endS` null = open end. */
export const timeConstraintSchema = z.object({
  startS: z.number().nonnegative(),
  endS: z.number().nonnegative().nullable(),
});
export type TimeConstraint = z.infer<typeof timeConstraintSchema>;

export const queryFiltersSchema = z.object({
  /** Items the question is limited to (the item in focus, or items it names). */
  itemIds: z.array(z.string()).optional(),
  /** A speaker label or comment author the question is limited to. */
  speaker: z.string().optional(),
  minLikes: z.number().int().nonnegative().optional(),
});
export type QueryFilters = z.infer<typeof queryFiltersSchema>;

/** A question, understood. */
export const parsedQuerySchema = z.object({
  question: z.string(),
  intent: intentSchema,
  entities: z.array(linkedEntitySchema),
  /** Content words to search for (in the corpus's language where the engine could give them). */
  keywords: z.array(z.string()),
  /** What keyword search runs on: the question without its time, citation and intent phrases and speaker labels (rules), or the keywords (model). */
  searchText: z.string(),
  timeConstraint: timeConstraintSchema.nullable(),
  /** `comments`: about what viewers say; `transcript`: explicitly about what is said in the item; null: either. */
  part: z.enum(['transcript', 'comments']).nullable(),
  citationNumbers: z.array(z.number().int().positive()),
  filters: queryFiltersSchema,
  /** The question with pronouns and role nouns replaced by what they refer to. */
  resolvedQuery: z.string(),
  confidence: z.number().min(0).max(1),
  strategies: z.array(strategyNameSchema),
  /** Which engine understood it. */
  engine: z.enum(['rules', 'model']),
  /** Each intent's score (0–1) when the engine scored them all; `confidence` is the chosen one's margin-aware certainty. */
  intentScores: z.partialRecord(intentSchema, z.number()).optional(),
  /** The question's content terms in the corpus's other languages (offline bilingual dictionaries), searched with their own weight. */
  translatedKeywords: z.array(z.object({ term: z.string().min(1), lang: z.enum(['en', 'zh', 'es']), from: z.string().min(1) })).optional(),
  /** What understanding changed or refused in a model's reading ("citation 5404319552844595 is not in the question: dropped"). */
  notes: z.array(z.string()).optional(),
});
export type ParsedQuery = z.infer<typeof parsedQuerySchema>;

/** What query understanding is given besides the question. */
export interface AskInput {
  question: string;
  /** The item in focus (open in the editor / selected in the sidebar), or undefined for the whole corpus. */
  itemId?: string;
  /** Earlier questions of the same conversation, oldest first. */
  session?: readonly string[];
}
