/**
 * A conversation with the corpus (SPEC §5 "Follow-up chat", seeds 003 and 004): its turns as
 * persisted in `.marker-research/chats/<id>.jsonl` — one JSON line per turn, after a header
 * line — with the question, the understood query, the answer, the spans it cites (numbers that
 * continue the report's), what was loaded verbatim, tokens, and the entities in focus.
 * zod is the source of truth; types are inferred.
 */
import { z } from 'zod';
import { parsedQuerySchema } from '../ask/query';
import { sourceSpanSchema } from '../research/schema';

/** One numbered citation of the conversation: the report's own, or a span an answer added. */
export const chatCitationSchema = z.object({
  number: z.number().int().positive(),
  span: sourceSpanSchema,
});
export type ChatCitation = z.infer<typeof chatCitationSchema>;

/** A cited original loaded on demand: the cited text verbatim, and a little of what surrounds it. */
export const loadedCitationSchema = z.object({
  number: z.number().int().positive(),
  /** The cited span's text, exactly as in the normalised part (the original file's text at its range). */
  text: z.string(),
  before: z.string(),
  after: z.string(),
});
export type LoadedCitation = z.infer<typeof loadedCitationSchema>;

/** Where an answer's context came from. */
export const CHAT_MODES = ['report', 'citation', 'corpus'] as const;
export const chatModeSchema = z.enum(CHAT_MODES);
export type ChatMode = z.infer<typeof chatModeSchema>;

export const chatUsageSchema = z.object({
  /** Tokens per phase of this turn (`understand`, `answer`); estimated when the server did not say. */
  byPhase: z.record(z.string(), z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() })),
  /** Tokens of the context given to the answer (report, loaded spans, retrieved passages). */
  contextTokens: z.number().int().nonnegative(),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

export const chatTurnSchema = z.object({
  turn: z.number().int().positive(),
  question: z.string(),
  query: parsedQuerySchema,
  mode: chatModeSchema,
  /** Markdown; every `[n]` resolves to one of `citations` (the conversation's numbering). */
  answer: z.string(),
  engine: z.enum(['model', 'extractive']),
  /** The numbered spans this answer cites. */
  citations: z.array(chatCitationSchema),
  /** Citations whose originals were loaded for this turn (citation questions). */
  loaded: z.array(loadedCitationSchema),
  usage: chatUsageSchema,
  ms: z.number().nonnegative(),
  createdAt: z.string(),
  /** Entity labels in focus after this turn (coreference for the next). */
  focus: z.array(z.string()),
  /** The answer was stopped: kept as far as it got, marked. */
  cancelled: z.boolean().default(false),
  /** Things the user should know (a model fallback, a dropped citation id). */
  notes: z.array(z.string()).default([]),
});
export type ChatTurn = z.infer<typeof chatTurnSchema>;

/** The first line of a conversation file. */
export const conversationHeaderSchema = z.object({
  kind: z.literal('marker-research-conversation'),
  version: z.literal(1),
  id: z.string(),
  /** The research run the conversation is about, or null (plain corpus Q&A). */
  runId: z.string().nullable(),
  createdAt: z.string(),
  title: z.string(),
});
export type ConversationHeader = z.infer<typeof conversationHeaderSchema>;

/** A conversation as loaded: header, turns, and every citation number known so far (the report's, then the answers'). */
export interface Conversation {
  header: ConversationHeader;
  turns: ChatTurn[];
  citations: ChatCitation[];
}

/** A conversation as listed. */
export interface ConversationSummary {
  id: string;
  runId: string | null;
  title: string;
  createdAt: string;
  turns: number;
  lastQuestion: string | null;
}
