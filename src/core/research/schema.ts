/**
 * The research pipeline's shapes (SPEC §4): goals, plan, step results,
 * retrieval requests, the trace, sources of a report and the run manifest.
 * zod is the source of truth; model replies are validated against these.
 */
import { z } from 'zod';
import { sourceRangeSchema } from '../markers/schema';

export const COMPLEXITIES = ['light', 'medium', 'deep', 'epic'] as const;
export const complexitySchema = z.enum(COMPLEXITIES);
export type Complexity = z.infer<typeof complexitySchema>;

// ---- Phase 1: goals -----------------------------------------------------------------------

export const goalSchema = z.object({
  goal_id: z.string().describe('short id, e.g. g1'),
  title: z.string().describe('the research goal in one sentence'),
  rationale: z.string().describe('why the markers support it'),
  item_ids: z.array(z.string()).min(1).describe('ids of the content items that support it'),
  marker_ids: z.array(z.string()).describe('ids of the markers that support it'),
});
export type Goal = z.infer<typeof goalSchema>;
export const goalsReplySchema = z.object({ goals: z.array(goalSchema).min(1) });
export type GoalsReply = z.infer<typeof goalsReplySchema>;

// ---- Phase 2: plan ------------------------------------------------------------------------

export const requiredDataSchema = z.enum(['transcript', 'comments', 'transcript_with_comments']);
export const retrievalStrategySchema = z.enum(['markers_only', 'full_content', 'selective_by_markers']);

export const planStepSchema = z.object({
  step_id: z.string(),
  goal: z.string().describe('what this step must find out'),
  required_content_items: z.array(z.string()).min(1),
  required_data: requiredDataSchema,
  marker_relevance: z.array(z.string()).describe('ids of the markers most relevant to the step'),
  retrieval_strategy: retrievalStrategySchema,
  /** Epic runs: the phase the step belongs to. */
  phase_name: z.string().optional(),
});
export type PlanStep = z.infer<typeof planStepSchema>;

export const planSchema = z.object({
  goal: z.string(),
  complexity: complexitySchema,
  steps: z.array(planStepSchema).min(1),
  /** Epic (and optionally deep) runs: non-overlapping phases. */
  phases: z.array(z.object({ name: z.string(), description: z.string(), item_ids: z.array(z.string()), time_range: z.tuple([z.string(), z.string()]).optional() })).optional(),
});
export type Plan = z.infer<typeof planSchema>;
export const planReplySchema = z.object({ steps: z.array(planStepSchema).min(1) });

// ---- Phase 3: requests and step replies ------------------------------------------------------

export const contentRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('full_content_item'), item_id: z.string(), part: requiredDataSchema.optional(), chunk: z.number().int().nonnegative().optional().describe('for an item sent in chunks: which chunk') }),
  z.object({ type: z.literal('by_marker'), marker_id: z.string(), context_words: z.number().int().positive().max(2000).optional() }),
  z.object({ type: z.literal('by_topic'), topic: z.string().min(1), item_ids: z.array(z.string()).optional(), max_results: z.number().int().positive().max(20).optional() }),
  z.object({ type: z.literal('selective_markers'), item_id: z.string(), kinds: z.array(z.enum(['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'])).min(1) }),
]);
export type ContentRequest = z.infer<typeof contentRequestSchema>;

/** A finding cites sources by the ids the retrieval handler gave them (`S3`) or by marker id. */
export const findingSchema = z.object({
  finding_id: z.string(),
  text: z.string(),
  confidence: z.number().min(0).max(1),
  source_ids: z.array(z.string()).describe('ids of served sources (S1, S2, …) or marker ids that support the finding'),
});
export type Finding = z.infer<typeof findingSchema>;

export const stepReplySchema = z.object({
  findings: z.array(findingSchema),
  insights: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  requests: z.array(contentRequestSchema).describe('more content you need; empty when done'),
  done: z.boolean(),
});
export type StepReply = z.infer<typeof stepReplySchema>;

// ---- What is stored ---------------------------------------------------------------------------

/** A span that served a request: what a citation resolves to. */
export const sourceSpanSchema = z.object({
  source_id: z.string(),
  item_id: z.string(),
  part: z.enum(['transcript', 'comments']),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  source: sourceRangeSchema,
  marker_id: z.string().optional(),
});
export type SourceSpan = z.infer<typeof sourceSpanSchema>;

export const stepStatusSchema = z.enum(['pending', 'running', 'retrieving', 'done', 'failed']);
export type StepStatus = z.infer<typeof stepStatusSchema>;

export const stepResultSchema = z.object({
  step_id: z.string(),
  status: stepStatusSchema,
  phase_name: z.string().optional(),
  rounds: z.number().int().nonnegative(),
  findings: z.array(findingSchema.extend({ phase_name: z.string().optional() })),
  insights: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  sources: z.array(sourceSpanSchema),
  deferred: z.array(z.string()).describe('item ids deferred for the context budget'),
  error: z.string().optional(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const requestLogEntrySchema = z.object({
  time: z.string(),
  step_id: z.string(),
  round: z.number().int().nonnegative(),
  request: z.unknown(),
  status: z.enum(['served', 'deferred', 'rejected', 'chunked']),
  reason: z.string().optional(),
  served: z.array(z.object({ source_id: z.string(), item_id: z.string(), part: z.string(), start: z.number(), end: z.number() })),
  words: z.number().int().nonnegative(),
  cited_by: z.array(z.string()),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

export const reportSourcesSchema = z.object({
  citations: z.array(z.object({ number: z.number().int().positive(), span: sourceSpanSchema })),
});
export type ReportSources = z.infer<typeof reportSourcesSchema>;

export const runManifestSchema = z.object({
  run_id: z.string(),
  created_at: z.string(),
  corpus: z.string(),
  goal: z.string(),
  complexity: complexitySchema,
  engine: z.enum(['extractive', 'openai', 'ollama']),
  model: z.string().nullable(),
  status: z.enum(['planned', 'running', 'done', 'failed', 'cancelled']),
  steps: z.record(z.string(), stepStatusSchema),
  report: z.string().nullable(),
});
export type RunManifest = z.infer<typeof runManifestSchema>;
