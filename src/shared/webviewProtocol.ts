/**
 * Every message between the extension host and the sidebar's webview views, typed once.
 * The Marker Research container holds two: **Corpus & Markers** (`markerResearch.items`:
 * the Ask box, items → marker groups → markers, filter, problems) and **Research**
 * (`markerResearch.research`: goals, the plan, runs). Each view has its own pair of
 * message types ({@link CorpusHostToWebview} / {@link corpusToHostSchema},
 * {@link ResearchHostToWebview} / {@link researchToHostSchema}). Webviews are untrusted:
 * the host parses what it receives with the view's schema, and posts nothing before `ready`.
 */
import { z } from 'zod';
import { sidebarTargetSchema } from './workbenchTarget';

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
  /** Where the first evidence is, in words (the row shows it; `where` goes in the tooltip): `Daniel · 0:33`, `Daniel · turn 215` without timestamps, `@lena · 12 likes · 2024-03-14` for a comment; null without evidence. */
  location: string | null;
  /** Engagement markers: likes and replies behind them. */
  likes: number | null;
  replies: number | null;
  /** Speakers (or comment authors) of the first evidence span, for the filter. */
  speakers: string[];
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
  /** Comments the spam detector kept out of the comment markers, themes and sentiment (0: none, or not checked). */
  spamExcluded: number;
  /** False when confidence says nothing (the extractive engine, or every marker of the item equally confident): tooltips leave it out. */
  confidenceInformative: boolean;
}

/** Speakers listed per item (a panel has a few; captions with a speaker per line are capped). */
export const ITEM_SPEAKERS_MAX = 30;

/** One corpus item as the sidebar shows it. */
export interface ItemSummary {
  id: string;
  title: string;
  /** Transcript segments (turns / cues / lines), or null without a transcript. */
  transcriptSegments: number | null;
  /** Comment records, or null without comments. */
  comments: number | null;
  words: number;
  /** `published_at` of the item's metadata (ISO 8601), or null. */
  publishedAt: string | null;
  /** Likes of the item itself (`like_count` / `likes` of its metadata), or null. */
  likes: number | null;
  /** Likes of its comments added up, or null when no comment has a like count. */
  commentLikes: number | null;
  /** Distinct transcript speakers (at most {@link ITEM_SPEAKERS_MAX}), for the filter and the tooltip. */
  speakers: string[];
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
  /** `partial`: some steps failed (or the report is a fallback); `failed`: no step succeeded. */
  status: 'planned' | 'running' | 'done' | 'partial' | 'failed' | 'cancelled';
  createdAt: string;
  steps: StepView[];
  /** Path of report.md relative to the corpus root, when the run has one. */
  report: string | null;
  /** The plan's coverage: items of the goal's scope, and how many of them no step researches, by reason (null: a plan without coverage, of an older version). */
  coverage: { scope: number; notCovered: { reason: string; count: number }[] } | null;
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
  /** The run this window is running now, or null: a `running` run that is not this one can be resumed (its runner crashed or runs elsewhere). */
  liveRunId: string | null;
}

// ---- ask the corpus (SPEC §5, §6): the Ask box at the top of the sidebar ------------------------

/** The retrieval strategies a hit can be found by; mirrors core's `STRATEGY_NAMES` (kept here so the webview bundle stays free of core). */
export const ASK_STRATEGIES = ['keyword', 'vector', 'entity', 'relation', 'marker', 'summary', 'reception', 'clip', 'citation'] as const;
export type AskStrategy = (typeof ASK_STRATEGIES)[number];

/** Limits of the `ask` message (the box enforces them too). */
export const ASK_MAX_QUESTION_CHARS = 2000;
export const ASK_MAX_SESSION = 10;

/** How a question was understood, as the box shows it in one line. */
export interface AskQueryView {
  question: string;
  intent: string;
  /** The whole understanding in one line, e.g. `search_entity · PhD C · 0:00–15:00 · transcript · rules`. */
  line: string;
  /** Entity labels as the corpus writes them (marked when resolved from the session). */
  entities: { label: string; fromSession: boolean }[];
  /** `0:00–15:00`, `from 20:00`, or null. */
  time: string | null;
  part: 'transcript' | 'comments' | null;
  /** The question with pronouns resolved (shown when it differs from the question). */
  resolvedQuery: string;
  engine: 'rules' | 'model';
}

/** One hit as the box shows it: title, speaker, time, a short quote, the strategies that found it. */
export interface AskHitView {
  rank: number;
  itemId: string;
  title: string;
  part: 'transcript' | 'comments';
  /** Offsets into the part's normalised text: what `openHit` sends back. */
  start: number;
  end: number;
  /** Speaker label(s) or comment author(s), or null. */
  speaker: string | null;
  /** `1:02–1:30` where the format has timestamps, else null. */
  time: string | null;
  /** The file (relative to the corpus root), one-based line and column where the span starts, `ev-winter-range/transcript.json:6:18`; null when unmapped. */
  where: string | null;
  /** Where the span is, in words (the row shows it; `where` goes in the tooltip): `Daniel · 0:33`, `Daniel · turn 215` without timestamps, `@lena · 12 likes · 2024-03-14` for a comment. */
  location: string;
  /** A short quote of the span, whitespace collapsed. */
  quote: string;
  matchedBy: AskStrategy[];
  /** One reason per strategy (tooltip). */
  why: string[];
  score: number;
}

/** One sentence of the answer shown above the hits: the source's own words, opening its exact span. */
export interface AskAnswerSentenceView {
  /** 1-based: the `[n]` a written answer cites it by. */
  n: number;
  text: string;
  itemId: string;
  title: string;
  part: 'transcript' | 'comments';
  /** Offsets into the part's normalised text: exactly the sentence (what `openHit` sends back). */
  start: number;
  end: number;
  /** Who and where in words: `Daniel · 0:33`, `@lena · 12 likes · 2024-03-14`. */
  location: string;
  /** `file:line:col` of the sentence (tooltip), null when unmapped. */
  where: string | null;
}

/** The answer above the hits: 2–6 cited sentences, and with a model the short answer it wrote from them. */
export interface AskAnswerView {
  sentences: AskAnswerSentenceView[];
  /** The model's answer from the sentences (Markdown-free text with `[n]` naming them); null offline or when the model could not write one. */
  written: string | null;
}

/** The answer to one question. */
export interface AskResultView {
  /** Host-assigned, increasing: the box shows the newest only. */
  askId: number;
  query: AskQueryView;
  hits: AskHitView[];
  /** The item the question was limited to, or null for the whole corpus. */
  scope: { itemId: string; title: string } | null;
  ms: number;
  /** Notes of the retriever and of the extension (e.g. "understood offline: …"). */
  notes: string[];
  /** With no hits: why, and what to do instead (e.g. the words occur only in another item); null with hits. */
  whyNoHits: string | null;  /** The answer above the hits (no sentences when none answers). */
  answer: AskAnswerView;
}

/** Host → Corpus & Markers view: the whole state, progress of a running marker generation (shown in the marker line), or the Ask box. */
export type CorpusHostToWebview =
  | { type: 'state'; state: SidebarState }
  /** The whole state as the engine serialised it: parsed in the webview, never on the extension host. */
  | { type: 'stateJson'; json: string }
  /**
   * A large serialised state in pieces (`index` of `count`, in order), posted
   * one per turn of the host's event loop: one post of megabytes would hold the
   * extension host for hundreds of milliseconds. The view joins the pieces of
   * the latest `seq` and renders when all are there.
   */
  | { type: 'stateJsonPiece'; seq: number; index: number; count: number; json: string }
  /** Work on the corpus started: the status line says so; the rest of the view stays as it is. */
  | { type: 'loading'; message: string }
  | { type: 'progress'; message: string; done: number; total: number }
  /** A question is being answered (`busy`), or stopped being answered without a result (superseded or cancelled). */
  | { type: 'askBusy'; askId: number; question: string; busy: boolean }
  | { type: 'askResult'; result: AskResultView }
  | { type: 'askError'; askId: number; question: string; message: string }
  /** "Ask the Corpus" from the palette: focus the box; with a question, put it in the box and ask it. */
  | { type: 'askFocus'; question: string | null };

/** What the Research view needs to know of the corpus: whether there is one, and how many items have markers. */
export interface ResearchCorpusView {
  status: SidebarState['status'];
  items: number;
  itemsWithMarkers: number;
}

/** Host → Research view: the research state, one step's live status, or the corpus it works on. */
export type ResearchHostToWebview =
  | { type: 'research'; research: ResearchState }
  | { type: 'stepStatus'; runId: string; stepId: string; status: ResearchStepStatus }
  | { type: 'corpus'; corpus: ResearchCorpusView };

/** Host → any sidebar view. */
export type HostToWebview = CorpusHostToWebview | ResearchHostToWebview;

const itemId = z.string().min(1).max(1000);
/** Run ids are folder names: no separators, no dot-dot. */
const runId = z.string().min(1).max(200).regex(/^[\w.-]+$/u).refine((v) => v !== '.' && v !== '..', 'not a run id');
const researchGoal = z.union([z.object({ goalId: z.string().min(1).max(200) }), z.object({ text: z.string().trim().min(3).max(2000) })]);

const ready = z.object({ type: z.literal('ready') });
const indexCorpus = z.object({ type: z.literal('indexCorpus') });
const generateMarkers = z.object({ type: z.literal('generateMarkers') });
/** "Use a model…": the extension's settings (provider, base URL, model). */
const openModelSettings = z.object({ type: z.literal('openModelSettings') });

const corpusMessages = [
  ready,
  indexCorpus,
  generateMarkers,
  openModelSettings,
  z.object({ type: z.literal('openItem'), itemId, part: z.enum(['transcript', 'comments']) }),
  z.object({ type: z.literal('openProblem'), index: z.number().int().nonnegative() }),
  z.object({ type: z.literal('openMarker'), itemId, markerId: z.string().min(1).max(1000) }),
  z.object({ type: z.literal('retrieveFullItem'), itemId }),
  /** A question for the corpus, limited to the item in focus (`itemId`) or not (null); `session`: earlier questions, oldest first. */
  z.object({
    type: z.literal('ask'),
    question: z.string().trim().min(1).max(ASK_MAX_QUESTION_CHARS),
    itemId: itemId.nullable(),
    session: z.array(z.string().trim().min(1).max(ASK_MAX_QUESTION_CHARS)).max(ASK_MAX_SESSION),
  }),
  /** Open a hit of the Ask box at its span in the original file. */
  z.object({ type: z.literal('openHit'), itemId, part: z.enum(['transcript', 'comments']), start: z.number().int().nonnegative(), end: z.number().int().positive() }).refine((m) => m.end > m.start, 'empty span'),
  /** Pin a marker, an Ask hit or an answer sentence to the notebook, or code it (the workbench, issue 24). */
  z.object({ type: z.literal('workbench'), action: z.enum(['pin', 'code']), target: sidebarTargetSchema }),
] as const;

const researchMessages = [
  ready,
  indexCorpus,
  generateMarkers,
  openModelSettings,
  z.object({ type: z.literal('discoverGoals') }),
  /** Plan (or run) with a goal: one the goals list proposed (`goalId`) or the user's own text. */
  z.object({ type: z.literal('planResearch'), goal: researchGoal }),
  z.object({ type: z.literal('runResearch'), goal: researchGoal.optional() }),
  z.object({ type: z.literal('openReport'), runId: runId.optional() }),
  /** "Ask about this report": the Chat view, attached to the run's report. */
  z.object({ type: z.literal('askFollowup'), runId }),
  z.object({ type: z.literal('showRun'), runId }),
  /** Resume a cancelled, failed, partial or crashed run: finished steps are kept. */
  z.object({ type: z.literal('resumeResearch'), runId }),
  z.object({ type: z.literal('cancel') }),
] as const;

/** What the Corpus & Markers view may send. */
export const corpusToHostSchema = z.discriminatedUnion('type', [...corpusMessages]);
/** Corpus & Markers view → host. */
export type CorpusToHost = z.infer<typeof corpusToHostSchema>;

/** What the Research view may send. */
export const researchToHostSchema = z.discriminatedUnion('type', [...researchMessages]);
/** Research view → host. */
export type ResearchToHost = z.infer<typeof researchToHostSchema>;

/** Any sidebar view → host (the union of both views' messages). */
export const webviewToHostSchema = z.union([corpusToHostSchema, researchToHostSchema]);
/** Webview → host. */
export type WebviewToHost = CorpusToHost | ResearchToHost;
