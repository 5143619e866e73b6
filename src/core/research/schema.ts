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

/**
 * Why an item of a goal's scope is in no step: it has no text to read (`no_text`); nothing in it
 * (text or markers) matches the goal (`no_matching_part`); the run would need more steps than
 * `max_plan_steps` (`over_budget`); a reviewed plan's steps no longer name it (`not_in_plan`).
 */
export const NOT_COVERED_REASONS = ['no_text', 'no_matching_part', 'over_budget', 'not_in_plan'] as const;
export const notCoveredSchema = z.object({ item_id: z.string(), reason: z.enum(NOT_COVERED_REASONS), detail: z.string().optional() });
export type NotCovered = z.infer<typeof notCoveredSchema>;

export const goalSchema = z.object({
  goal_id: z.string().describe('short id, e.g. g1'),
  title: z.string().describe('the research goal in one sentence'),
  rationale: z.string().describe('why the markers support it'),
  item_ids: z.array(z.string()).min(1).describe('ids of the content items that support it'),
  marker_ids: z.array(z.string()).describe('ids of the markers that support it'),
  /** Items in reach that the goal is not about, with the reason (a goal the user wrote: the items that mention none of its terms). */
  left_out: z.array(notCoveredSchema).optional(),
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
  /** What planning could not do as asked, said at the top of the report: a model call that failed and the extractive goals or plan used instead; an epic run with one phase, and why. */
  notes: z.array(z.string()).optional(),
  /** The items the goal is about (its scope), when planned by this version: every one is in some step or in `not_covered`. */
  scope_item_ids: z.array(z.string()).optional(),
  /** Items of the scope that no step researches, each with the reason; listed in the report under "Not covered". */
  not_covered: z.array(notCoveredSchema).optional(),
});
export type Plan = z.infer<typeof planSchema>;
export const planReplySchema = z.object({ steps: z.array(planStepSchema).min(1) });

// ---- Phase 3: requests and step replies ------------------------------------------------------

export const contentRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('full_content_item'), item_id: z.string(), part: requiredDataSchema.optional(), chunk: z.number().int().nonnegative().optional().describe('for an item sent in chunks: which chunk') }),
  z.object({ type: z.literal('by_marker'), marker_id: z.string(), context_words: z.number().int().positive().max(2000).optional() }),
  z.object({ type: z.literal('by_topic'), topic: z.string().min(1), item_ids: z.array(z.string()).optional(), max_results: z.number().int().positive().max(20).optional(), part: z.enum(['transcript', 'comments']).optional().describe('only passages of this part') }),
  z.object({ type: z.literal('selective_markers'), item_id: z.string(), kinds: z.array(z.enum(['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'])).min(1) }),
  /** The item's condensed claims (local condensation), each with its exact evidence span(s) as sources. */
  z.object({
    type: z.literal('condensed_claims'),
    item_id: z.string(),
    part: requiredDataSchema.optional(),
    categories: z.array(z.string().min(1)).optional().describe('only claims of these categories'),
    chunk: z.number().int().nonnegative().optional().describe('for claims sent in chunks: which chunk'),
  }),
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

/**
 * A model's finding its cited spans do not support (`findingSupport.ts`): kept, marked in the
 * report. `unsupported`: a number of the finding is not in its spans, or too few of its words are;
 * `unsourced`: none of its source ids resolves to a span. Absent on supported findings and on the
 * extractive engine's (quoted from their spans by construction). Not part of the model's reply.
 */
export const findingSupportSchema = z.object({
  status: z.enum(['unsupported', 'unsourced']),
  reason: z.enum(['no_sources', 'numbers_not_in_sources', 'no_overlap']),
  /** The finding's numbers (as it writes them) that none of its spans has. */
  missing_numbers: z.array(z.string()).optional(),
  /** Share of the finding's content words found in its spans. */
  overlap: z.number().min(0).max(1),
});
export type FindingSupportMark = z.infer<typeof findingSupportSchema>;

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
  findings: z.array(findingSchema.extend({ phase_name: z.string().optional(), support: findingSupportSchema.optional() })),
  insights: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  sources: z.array(sourceSpanSchema),
  deferred: z.array(z.string()).describe('item ids deferred for the context budget'),
  error: z.string().optional(),
  /** Why the step failed, in plain words (e.g. "the model server rejected the API key (401)"). */
  cause: z.string().optional(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const requestLogEntrySchema = z.object({
  time: z.string(),
  step_id: z.string(),
  round: z.number().int().nonnegative(),
  request: z.unknown(),
  status: z.enum(['served', 'deferred', 'rejected', 'chunked']),
  reason: z.string().optional(),
  served: z.array(z.object({ source_id: z.string(), item_id: z.string(), part: z.string(), start: z.number(), end: z.number(), claim_id: z.string().optional().describe('condensed_claims: the claim this span is the evidence of') })),
  words: z.number().int().nonnegative(),
  cited_by: z.array(z.string()),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

export const reportSourcesSchema = z.object({
  citations: z.array(z.object({ number: z.number().int().positive(), span: sourceSpanSchema })),
});
export type ReportSources = z.infer<typeof reportSourcesSchema>;



// ---- Pipeline additions (configuration, lenient wire shapes, epic, usage, synthesis) ------------

/** Retrieval and overview limits of a run (seed 000 "Config Options"); `context_window_limit` is in tokens. */
export const researchConfigSchema = z.object({
  max_followups_per_step: z.number().int().min(0).max(20).default(3),
  max_content_items_per_turn: z.number().int().min(1).max(50).default(3),
  /** Steps a plan may have at most: a scope larger than its steps can take is split into more steps up to this, and what is still left is listed as not covered (`over_budget`). */
  max_plan_steps: z.number().int().min(1).max(1000).default(48),
  context_window_limit: z.number().int().min(200).default(24_000),
  marker_overview_max_items: z.number().int().min(1).default(20),
  /** Markers listed per kind and item in an overview (the most relevant first; the rest are counted). */
  overview_markers_per_kind: z.number().int().min(1).default(3),
  /** Words of context on each side of a marker's evidence (`by_marker`). */
  context_words: z.number().int().min(0).max(2000).default(120),
});
export type ResearchConfig = z.output<typeof researchConfigSchema>;
export type ResearchConfigInput = z.input<typeof researchConfigSchema>;

/**
 * What a step reply looks like on the wire: the requests are checked one by one by the
 * retrieval handler (so one malformed request is rejected with a message, not the whole reply).
 */
export const stepReplyWireSchema = stepReplySchema.extend({
  requests: z
    .array(z.looseObject({ type: z.string() }))
    .describe(
      'more content you need; empty when done. Each is one of: {"type":"full_content_item","item_id","part"?: "transcript"|"comments"|"transcript_with_comments","chunk"?: n} | {"type":"by_marker","marker_id","context_words"?} | {"type":"by_topic","topic","item_ids"?,"max_results"?} | {"type":"selective_markers","item_id","kinds":["FACT"|"OPINION"|"DATA"|"ENGAGEMENT"]} | {"type":"condensed_claims","item_id","part"?,"categories"?,"chunk"?}',
    ),
});
export type StepReplyWire = z.infer<typeof stepReplyWireSchema>;

/** Epic runs: the orchestrator's split into non-overlapping phases. */
export const epicPhaseSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  item_ids: z.array(z.string()).min(1),
  time_range: z.tuple([z.string(), z.string()]).optional(),
  threads: z.array(z.string().min(1)).min(1).max(3).describe('two or three research threads (dimensions) for this phase'),
  /** Offline phases: the items each thread is about (a topic thread, its topic's items); absent: every item of the phase. */
  thread_item_ids: z.array(z.array(z.string())).optional(),
});
export type EpicPhase = z.infer<typeof epicPhaseSchema>;
export const epicPhasesReplySchema = z.object({ phases: z.array(epicPhaseSchema).min(1).max(8) });

/** Duplicate rates of an epic run's findings (share of findings that repeat an earlier one). */
export const dedupStatsSchema = z.object({
  threshold: z.number(),
  findings_before: z.number().int().nonnegative(),
  within_phase_rate_before: z.number(),
  cross_phase_rate_before: z.number(),
  findings_after: z.number().int().nonnegative(),
  rate_after: z.number(),
});
export type DedupStats = z.infer<typeof dedupStatsSchema>;

/** A finding as the synthesis sees it: its step and phase. */
export const runFindingSchema = findingSchema.extend({ step_id: z.string(), phase_name: z.string().optional(), support: findingSupportSchema.optional() });
export type RunFinding = z.infer<typeof runFindingSchema>;

/** The model's report: sections citing served source ids as `[S3]`. */
export const synthesisReplySchema = z.object({
  title: z.string(),
  summary: z.string().describe('two to five sentences, with citations like [S3]'),
  sections: z.array(z.object({ heading: z.string(), phase_name: z.string().optional(), body: z.string().describe('Markdown paragraphs citing sources as [S3][S7]') })).min(1),
  conclusion: z.string(),
});
export type SynthesisReply = z.infer<typeof synthesisReplySchema>;

const usageTotalsSchema = z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), calls: z.number().int().nonnegative() });
/** `usage.json`: tokens per phase and per step (`execute/<step_id>`). */
export const runUsageSchema = z.object({ byPhase: z.record(z.string(), usageTotalsSchema), byStep: z.record(z.string(), usageTotalsSchema) });
export type RunUsage = z.infer<typeof runUsageSchema>;

/**
 * A run's status. `done` only when every step finished and the report is not a fallback;
 * `partial` when some steps failed (or the model could not write the report); `failed` when no
 * step succeeded (or the run stopped on an error); `cancelled` when stopped by the user.
 * `partial` and `failed` runs resume like `cancelled` ones.
 */
export const RUN_STATUSES = ['planned', 'running', 'done', 'partial', 'failed', 'cancelled'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;

export const runManifestSchema = z.object({
  run_id: z.string(),
  created_at: z.string(),
  corpus: z.string(),
  goal: z.string(),
  complexity: complexitySchema,
  engine: z.enum(['extractive', 'openai', 'ollama']),
  model: z.string().nullable(),
  status: runStatusSchema,
  steps: z.record(z.string(), stepStatusSchema),
  report: z.string().nullable(),
  updated_at: z.string().optional(),
  /** Why the run failed, is partial or was cancelled: "2 of 3 steps failed (s1, s3): <cause>". */
  error: z.string().optional(),
  /** `partial` / `failed` runs: how many of the plan's steps failed. */
  failed_steps: z.object({ failed: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  /** The distinct causes of the failures, in plain words (from the model errors' reasons). */
  causes: z.array(z.string()).optional(),
  /** Set when report.md is a fallback (not written by the model): why. */
  fallback_report: z.string().optional(),
  /** Epic runs: duplicate rates before and after de-duplication. */
  dedup: dedupStatsSchema.optional(),
  /** The report's citations that could not be resolved and were removed. */
  removed_citations: z.array(z.string()).optional(),
  /** The items the run was scoped to (`--items`), when it was: a run resumed while planning plans within them again. */
  scope: z.array(z.string()).optional(),
  /** Model runs: the report's findings checked against their cited spans, and how many their spans do not support or that cite nothing that resolves. */
  finding_support: z.object({ checked: z.number().int().nonnegative(), unsupported: z.number().int().nonnegative(), unsourced: z.number().int().nonnegative() }).optional(),
});
export type RunManifest = z.infer<typeof runManifestSchema>;
