/**
 * Every message between the extension host and the sidebar webview, typed once.
 * The webview is untrusted: the host parses what it receives with
 * {@link webviewToHostSchema}. The host posts nothing before `ready`.
 */
import { z } from 'zod';

export type MarkerKindName = 'FACT' | 'OPINION' | 'DATA' | 'ENGAGEMENT';
export type EngineLabel = 'extractive' | 'openai' | 'ollama';

/** One key-info marker as the sidebar shows it. */
export interface MarkerSummary {
  id: string;
  kind: MarkerKindName;
  text: string;
  topic: string;
  confidence: number;
  /** False when no source span was found: shown with an "ungrounded" flag, never hidden. */
  grounded: boolean;
  engine: EngineLabel;
  /** Where the first evidence is, for the tooltip (e.g. `transcript.vtt:21 · 01:02 · Daniel`), or null without evidence. */
  where: string | null;
  /** Engagement markers: likes and replies behind them. */
  likes: number | null;
  replies: number | null;
}

export const MARKER_GROUP_KEYS = [
  'facts',
  'opinions',
  'data',
  'commentFacts',
  'commentOpinions',
  'commentData',
  'engagement',
  'themes',
  'sentiment',
] as const;
export type MarkerGroupKey = (typeof MARKER_GROUP_KEYS)[number];

/**
 * One group under an item. Marker groups carry `markers`; the `themes` group
 * carries `values` (comment themes and topic areas), `sentiment` one value.
 */
export interface MarkerGroup {
  key: MarkerGroupKey;
  label: string;
  markers: MarkerSummary[];
  values: string[];
}

/** The markers of one item. */
export interface ItemMarkersView {
  engine: EngineLabel;
  model: string | null;
  generatedAt: string;
  total: number;
  grounded: number;
  /** The item's files changed since the markers were made. */
  stale: boolean;
  /** Topic areas of the transcript. */
  topics: string[];
  /** Only non-empty groups, in {@link MARKER_GROUP_KEYS} order. */
  groups: MarkerGroup[];
}

/** One corpus item as the sidebar shows it. */
export interface ItemSummary {
  id: string;
  title: string;
  /** Transcript segments (turns / cues / lines), or null without a transcript. */
  transcriptSegments: number | null;
  /** Comment records, or null without comments. */
  comments: number | null;
  words: number;
  transcriptFile: string | null;
  commentsFile: string | null;
  /** Null when the item has no markers yet. */
  markers: ItemMarkersView | null;
  /** Why the item's marker file could not be read or generated, when it could not. */
  markersProblem: string | null;
}

export interface ProblemSummary {
  severity: 'error' | 'warning' | 'info';
  /** Path relative to the corpus root. */
  file: string;
  /** One-based line, when known. */
  line: number | null;
  message: string;
}

export interface SidebarState {
  status: 'empty' | 'loading' | 'ready' | 'error';
  /** One line shown at the top of the view. */
  message: string;
  /** A second line about markers (totals, engine, generation in progress), or null. */
  markersMessage: string | null;
  /** Markers are being generated: the Generate buttons are disabled. */
  generating: boolean;
  corpusRoot: string | null;
  items: ItemSummary[];
  problems: ProblemSummary[];
}

// ---- research (SPEC §4, §6): goals, the current run's plan steps with live status ------------

export type ResearchStepStatus = 'pending' | 'running' | 'retrieving' | 'done' | 'failed';
export type ResearchRequestType = 'full_content_item' | 'by_marker' | 'by_topic' | 'selective_markers';

/** A proposed research goal (Phase 1). */
export interface GoalView {
  goalId: string;
  title: string;
  rationale: string;
  items: number;
  markers: number;
}

/** The requests one step made (from the run's requests_log.jsonl). */
export interface StepRequestsView {
  total: number;
  byType: Partial<Record<ResearchRequestType, number>>;
  served: number;
  chunked: number;
  deferred: number;
  rejected: number;
}

/** One plan step (Phase 2) and how far it got (Phase 3). */
export interface StepView {
  stepId: string;
  goal: string;
  status: ResearchStepStatus;
  phaseName: string | null;
  items: string[];
  strategy: string;
  requiredData: string;
  findings: number | null;
  rounds: number | null;
  requests: StepRequestsView;
  error: string | null;
}

/** A persisted run (`<corpus>/.marker-research/runs/<id>/`). */
export interface RunView {
  runId: string;
  goal: string;
  complexity: string;
  engine: string;
  model: string | null;
  status: 'planned' | 'running' | 'done' | 'failed' | 'cancelled';
  createdAt: string;
  steps: StepView[];
  /** Path of report.md relative to the corpus root, when the run has one. */
  report: string | null;
}

export interface ResearchState {
  /** What is running now, or null. */
  busy: 'goals' | 'plan' | 'run' | null;
  /** One line about research (what runs, what finished, what failed), or null. */
  message: string | null;
  goals: GoalView[];
  /** The run shown: the one running, else the latest. */
  run: RunView | null;
  /** Other persisted runs, newest first. */
  runs: { runId: string; goal: string; status: RunView['status']; createdAt: string }[];
}

/** Host → webview: the whole state, the research section, one step's live status, or progress of a running marker generation (shown in the marker line). */
export type HostToWebview =
  | { type: 'state'; state: SidebarState }
  | { type: 'research'; research: ResearchState }
  | { type: 'stepStatus'; runId: string; stepId: string; status: ResearchStepStatus }
  | { type: 'progress'; message: string; done: number; total: number };

const itemId = z.string().min(1).max(1000);
/** Run ids are folder names: no separators, no dot-dot. */
const runId = z.string().min(1).max(200).regex(/^[\w.-]+$/u).refine((v) => v !== '.' && v !== '..', 'not a run id');
const researchGoal = z.union([z.object({ goalId: z.string().min(1).max(200) }), z.object({ text: z.string().trim().min(3).max(2000) })]);

export const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('indexCorpus') }),
  z.object({ type: z.literal('openItem'), itemId, part: z.enum(['transcript', 'comments']) }),
  z.object({ type: z.literal('openProblem'), index: z.number().int().nonnegative() }),
  z.object({ type: z.literal('openMarker'), itemId, markerId: z.string().min(1).max(1000) }),
  z.object({ type: z.literal('retrieveFullItem'), itemId }),
  z.object({ type: z.literal('generateMarkers') }),
  z.object({ type: z.literal('discoverGoals') }),
  /** Plan (or run) with a goal: one the goals list proposed (`goalId`) or the user's own text. */
  z.object({ type: z.literal('planResearch'), goal: researchGoal }),
  z.object({ type: z.literal('runResearch'), goal: researchGoal.optional() }),
  z.object({ type: z.literal('openReport'), runId: runId.optional() }),
  z.object({ type: z.literal('showRun'), runId }),
  z.object({ type: z.literal('cancel') }),
]);

/** Webview → host. */
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
