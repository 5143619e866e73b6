/**
 * Every custom LSP method between the extension (client) and the language
 * server (the corpus engine), typed once.
 *
 * Conventions:
 * - Methods are `markerResearch/<name>`; params and results are plain JSON.
 * - A request that fails for a reason the user can act on answers a
 *   `ResponseError` with code {@link ENGINE_ERROR_CODE} and `data`
 *   {@link EngineErrorData}: the client turns it back into an error with that
 *   `reason` (no corpus, busy, not found, bad settings, no API key, …).
 * - Cancelled work answers `RequestCancelled` (-32800); the client throws its
 *   `CancelledError`.
 * - Long work takes a client-created `workDoneToken` (LSP work-done progress):
 *   the server reports `$/progress` with {@link EngineProgressReport}s (done
 *   and total besides the standard message and percentage); cancelling the
 *   request's token, or {@link cancelAllNotification}, aborts it.
 * - Requests that may call a model carry the {@link Settings} and the API key
 *   (from the extension's SecretStorage; the server holds it in memory for the
 *   request only and never logs or writes it).
 */
import { NotificationType, RequestType, type WorkDoneProgressParams, type WorkDoneProgressReport } from 'vscode-languageserver-protocol';
import type { PartKind, TextRange } from '../core/corpus/types';
import type { Goal, RunManifest } from '../core/research/schema';
import type { ChatConversationView, ChatHistoryEntry, ChatTurnView } from './chatProtocol';
import type { EvidenceView, Settings } from './settings';
import type { SidebarExtras } from './sidebarModel';
import type { AskResultView, ResearchState, ResearchStepStatus, SidebarState } from './webviewProtocol';

// ---- conventions --------------------------------------------------------------------------------

/** The `ResponseError` code of a failure with a reason the user can act on. */
export const ENGINE_ERROR_CODE = -32_001;

export interface EngineErrorData {
  /** Why: `no-corpus`, `busy`, `not-found`, `bad-settings`, `no-api-key`, `outside-corpus`, `no-run`, `not-planned`, … */
  reason: string;
}

/** A work-done progress report of the engine: the standard fields (`message` is what is being done, without the counts), and the counts behind the percentage. */
export interface EngineProgressReport extends WorkDoneProgressReport {
  done: number;
  total: number;
}

/** What requests that may use a model carry. */
export interface ModelAccess {
  settings: Settings;
  /** From SecretStorage; absent when none is stored or the provider needs none. */
  apiKey?: string;
}

/** Client → server: abort every long operation in flight ("Marker Research: Cancel"). */
export const cancelAllNotification = new NotificationType<Record<string, never>>('markerResearch/cancelAll');

/** Server → client: a line for the extension's log channel (level and text). */
export interface EngineLogParams {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}
export const engineLogNotification = new NotificationType<EngineLogParams>('markerResearch/log');

// ---- corpus, index and markers ------------------------------------------------------------------

export interface IndexParams extends WorkDoneProgressParams {
  /** Absolute path of the corpus folder. */
  root: string;
  settings: Settings;
}

export interface IndexResult {
  root: string;
  items: number;
  words: number;
  comments: number;
  /** Problems of severity warning or error (info not counted). */
  problems: number;
  ms: number;
}

/**
 * Client → server: load (or reload) the corpus at `root`: parse every file
 * once, open the persisted search index (updating changed items), read the
 * marker files; publish diagnostics. Work-done progress; cancellable.
 */
export const indexRequest = new RequestType<IndexParams, IndexResult, void>('markerResearch/index');

export type GenerateMode = 'all' | 'missing';

export interface GenerateMarkersParams extends WorkDoneProgressParams, ModelAccess {
  mode: GenerateMode;
}

/** What a generation did (null result: nothing to do). */
export interface GenerateMarkersResult {
  engine: string;
  model: string | null;
  items: number;
  generated: number;
  cached: number;
  failed: number;
  markers: number;
  grounded: number;
  ms: number;
  /** Things the user should know (e.g. condensation on without a model). */
  notes: string[];
}

/** Client → server: generate markers of the current corpus with the configured engine. Work-done progress; cancellable. */
export const generateMarkersRequest = new RequestType<GenerateMarkersParams, GenerateMarkersResult | null, void>('markerResearch/generateMarkers');

export interface SidebarStateParams {
  extras?: SidebarExtras;
}

/**
 * The view state serialised once, by the engine. It reaches megabytes on a
 * large corpus (1,000 items, 34,000 markers: ~11 MB): the extension passes
 * the string to the webview, which parses it, instead of parsing and
 * re-serialising it on the extension host's thread (that stalled it 160–270 ms).
 */
export interface SerializedSidebarState {
  /**
   * `JSON.stringify` of a {@link SidebarState}; in an answer of the engine
   * with `pieces` > 1, only its first {@link SIDEBAR_STATE_PIECE_CHARS}
   * characters (the rest comes with {@link sidebarStatePieceRequest}).
   */
  json: string;
  /** Pieces the serialised state comes in (1: `json` is all of it). */
  pieces: number;
  /** Names this serialisation for {@link sidebarStatePieceRequest}. */
  seq: number;
  /** What the Research view needs of it: the status, the items, the items with markers. */
  status: SidebarState['status'];
  items: number;
  itemsWithMarkers: number;
}

/** Client → server: the Corpus & Markers view's state (items, their markers, problems), serialised, or null before any index. */
export const sidebarStateRequest = new RequestType<SidebarStateParams, SerializedSidebarState | null, void>('markerResearch/sidebarState');

/**
 * Characters of a serialised view state per message, from the engine to the
 * extension and from the extension to the webview. At 1,000 items one message
 * of 11 MB held the extension host ~170 ms to read and 423 ms to post; a piece
 * costs it a few milliseconds, one per request or turn of its event loop.
 */
export const SIDEBAR_STATE_PIECE_CHARS = 256 * 1024;

export interface SidebarStatePieceParams {
  seq: number;
  /** 1 … pieces − 1 (piece 0 came with the state). */
  index: number;
}

/** Client → server: one more piece of the last serialised view state; null when a newer state replaced it (ask for the state again). */
export const sidebarStatePieceRequest = new RequestType<SidebarStatePieceParams, { json: string } | null, void>('markerResearch/sidebarStatePiece');

export interface EngineChangedParams {
  root: string;
  /** What changed: the corpus was (re)loaded, markers were read or written, generation started or ended. */
  what: 'corpus' | 'markers' | 'generating';
  generating: boolean;
}

/** Server → client: the engine's state changed; views ask again for what they show. */
export const engineChangedNotification = new NotificationType<EngineChangedParams>('markerResearch/engineChanged');

export interface CorpusSummaryResult {
  root: string | null;
  items: number;
  problems: number;
  /** Markers served as workspace symbols. */
  markers: number;
}

/** Client → server: what the server currently serves. */
export const corpusSummaryRequest = new RequestType<Record<string, never>, CorpusSummaryResult, void>('markerResearch/corpusSummary');

/** Client → server (tests, bench): the engine process's memory and parse counts. */
export interface EngineStatsResult {
  rssBytes: number;
  heapUsedBytes: number;
  /** Source files parsed since the server started. */
  filesParsed: number;
  /** Items parsed again on demand (their parsed parts were not kept) since the corpus was first loaded. */
  itemsReparsed: number;
  /** Words of parsed parts kept in memory. */
  partsWordsKept: number;
  items: number;
  words: number;
  /** The search index of the loaded corpus is open (loaded, updated or built). */
  searchIndexReady: boolean;
}
export const engineStatsRequest = new RequestType<Record<string, never>, EngineStatsResult, void>('markerResearch/engineStats');

export interface SearchParams {
  query: string;
  /** Only these items (default: the whole corpus). */
  itemIds?: string[];
  /** Hits returned (default 10). */
  limit?: number;
}

/** A ranked window of the search index, mapped to its original file. */
export interface SearchHitView {
  rank: number;
  itemId: string;
  title: string;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
  score: number;
  /** Absolute path of the original file and the zero-based range there; null when the span cannot be mapped. */
  file: string | null;
  range: { startLine: number; startColumn: number; endLine: number; endColumn: number } | null;
  text: string;
}

export interface SearchResult {
  hits: SearchHitView[];
  /** Time the engine spent (waiting for the index included). */
  ms: number;
}

/** Client → server: BM25 search over the loaded corpus's index (what `marker-research search` prints). */
export const searchRequest = new RequestType<SearchParams, SearchResult, void>('markerResearch/search');

// ---- evidence, readable items and export -------------------------------------------------------

/**
 * The evidence methods of the engine protocol (merged into lspProtocol.ts when
 * done): the readable view of an item (the full-item document, its `line N`
 * links and its files), where a marker, a span or a place of the readable
 * view opens (ranges of the readable document, or of the original file), and
 * the exports of markers and reports, written by the engine.
 *
 * Ranges are zero-based lines and columns ({@link TextRange}); spans are
 * offsets into a part's normalised text. Paths of original files are absolute.
 */

// ---- shared shapes ------------------------------------------------------------------------------

/** A span of an item's part: offsets into the part's normalised text. */
export interface EvidenceSpan {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** A span shown in the readable view, and the ranges of the readable document that highlight it (one per line it covers). */
export interface ShownSpan {
  span: EvidenceSpan;
  ranges: TextRange[];
}

/** What opens in the readable view of an item: the spans (the first is selected and centred), highlighted. */
export interface ReadableTarget {
  kind: 'readable';
  itemId: string;
  spans: ShownSpan[];
  /** Where the first span is, for the log: speaker · time (or @author · likes · date), without the title. */
  label: string;
  /** `file:line` of the first span in its original file (the title of the "Open original" lens), or null. */
  originalLabel: string | null;
  /** Length and lines of the readable document the ranges are for (a document of another length is an older rendering). */
  textLength: number;
  lineCount: number;
}

/** What opens in an original file: the file and the ranges, the first selected and centred. */
export interface OriginalFileTarget {
  kind: 'original';
  /** Absolute path. */
  path: string;
  /** Relative to the corpus root, for messages. */
  relPath: string;
  ranges: TextRange[];
}

// ---- the readable document ----------------------------------------------------------------------

/** The `line N` of a unit header: a link to that turn or comment in the original file. */
export interface ReadableLink {
  /** Zero-based line of the header, and the characters of `line N` on it. */
  line: number;
  startCharacter: number;
  endCharacter: number;
  /** The whole turn or comment (what `markerResearch.openOriginal` opens). */
  target: EvidenceSpan;
  tooltip: string;
}

/** An original file of the item: the title line's lenses open it. */
export interface ReadablePartFile {
  part: PartKind;
  relPath: string;
}

export interface ReadableDocumentParams {
  itemId: string;
  /** Send the text too (the content provider); without it only what links and lenses need. */
  withText?: boolean;
}

/** Characters `[startCharacter, endCharacter)` of one line (zero-based) of a readable document. */
export interface ReadableLineRange {
  line: number;
  startCharacter: number;
  endCharacter: number;
}

export interface ReadableDocument {
  itemId: string;
  /** The rendered document (core's `layoutFullItem`), when asked for. */
  text?: string;
  textLength: number;
  lineCount: number;
  links: ReadableLink[];
  /** The annotations of the turns' and comments' texts (`{disfmarker}`, `[Música]`, `[ __ ]`): dimmed or hidden by `markerResearch.readableAnnotations`. */
  annotations: ReadableLineRange[];
  /** The parts with text, in document order. */
  files: ReadablePartFile[];
}

/**
 * Client → server: the readable view of an item (rendered once per loaded
 * item), or null when the indexed corpus has no such item (or none is indexed).
 */
export const readableDocumentRequest = new RequestType<ReadableDocumentParams, ReadableDocument | null, void>('markerResearch/readableDocument');

// ---- where evidence opens -----------------------------------------------------------------------

export interface ReadableSpansParams {
  itemId: string;
  spans: Omit<EvidenceSpan, 'itemId'>[];
}

/**
 * Client → server: where spans of one item are in its readable view (an Ask
 * hit, a citation). Null when no corpus is indexed, the item is not in it, or
 * a span does not fit the loaded item (the corpus changed since): the caller
 * opens the original file instead.
 */
export const readableSpansRequest = new RequestType<ReadableSpansParams, ReadableTarget | null, void>('markerResearch/readableSpans');

export interface ResolveMarkerParams {
  itemId: string;
  markerId: string;
  /** `markerResearch.evidenceView`. */
  view: EvidenceView;
}

export interface MarkerResolution {
  /** What opens, for the log: `marker m3 (FACT)`, `the best search match for marker m3`. */
  what: string;
  /** Where it opens; null when the marker has no evidence and a search of its text found nothing. */
  target: ReadableTarget | OriginalFileTarget | null;
  /** The item's files changed since its markers were made: the span may be off. */
  stale: boolean;
  /** A message for the user (an ungrounded marker opened its best search match, or nothing was found), without the `Marker Research:` prefix. */
  notice?: string;
  /** The line for the log once it is open. */
  log: string;
}

/**
 * Client → server: where a marker's evidence opens. Its first evidence with
 * the marker's other evidence in the same part, in the readable view (when
 * `view` is `readable` and the spans fit the loaded item) or the original
 * file; a marker without evidence opens the turn or comment of the best
 * search match of its text (in its item, else in the corpus). Errors:
 * `no-corpus`, `not-found` (no such marker), `outside-corpus`.
 */
export const resolveMarkerRequest = new RequestType<ResolveMarkerParams, MarkerResolution, void>('markerResearch/resolveMarker');

/** A span of an item (an empty span: the turn or comment it sits in), or a place of the item's readable view. */
export type OriginalPlaceParams = EvidenceSpan | { itemId: string; line: number; character: number };

export interface OriginalPlace {
  /** The span resolved (an empty span or a place widened to its turn or comment). */
  span: EvidenceSpan;
  /** Absolute path of the original file. */
  path: string;
  relPath: string;
  range: TextRange;
  /** `file:line`, for titles and tooltips. */
  label: string;
}

/**
 * Client → server: where a span, or a place of the readable view, is in its
 * original file ("Open original"). A place above the first unit is the start
 * of the item's first part. Error `not-found` when the item or part is not
 * loaded, or the span has no place in the file.
 */
export const originalPlaceRequest = new RequestType<OriginalPlaceParams, OriginalPlace, void>('markerResearch/originalPlace');

// ---- export ---------------------------------------------------------------------------------------

export interface ExportMarkersParams {
  /** Absolute path to write: CSV for `.csv`, JSON for `.json`, Markdown for `.md`, HTML for `.html`. Without it, only checks there are markers to export. */
  file?: string;
}

export interface ExportMarkersResult {
  markers: number;
  items: number;
  /** Null when nothing was written (no `file`). */
  format: 'csv' | 'json' | 'md' | 'html' | null;
  file: string | null;
}

/**
 * Client → server: exports the markers of the indexed corpus (one row per
 * marker: item, kind, text, topic, speaker, time, file, line, quote, turns, times). Errors
 * (the messages start with `export:`): `no-corpus`, `no-markers`, `format`.
 */
export const exportMarkersRequest = new RequestType<ExportMarkersParams, ExportMarkersResult, void>('markerResearch/exportMarkers');

export interface ExportReportParams {
  /** A run id, or `latest` (the newest run with a report). */
  runId: string;
  /** Absolute path to write: Markdown (`.md`) with a sources appendix, or HTML (`.html`) with an anchor per citation. */
  file: string;
}

export interface ExportReportResult {
  runId: string;
  citations: number;
  format: 'md' | 'html';
  file: string;
}

/** Client → server: exports the report of a run of the indexed corpus. Errors: `no-corpus`, `format`, `no-run`, `no-report`. */
export const exportReportRequest = new RequestType<ExportReportParams, ExportReportResult, void>('markerResearch/exportReport');

export interface ReportPreviewParams {
  runId: string;
}

export interface ReportPreviewResult {
  /** `report.preview.md` in the run's folder: the report with every `[n]` linked to its span. */
  file: string;
}

/** Client → server: writes the linked copy of a run's report the Markdown preview shows. Errors: `no-corpus`, `no-report`. */
export const reportPreviewRequest = new RequestType<ReportPreviewParams, ReportPreviewResult, void>('markerResearch/reportPreview');

// ---- research ----------------------------------------------------------------------------------

/**
 * The research methods of the engine protocol (merged into lspProtocol.ts
 * when done): Discover Goals, Plan, Run, Run Planned and Resume run in the
 * engine (work-done progress, cancellable by the request's token or
 * "Marker Research: Cancel", the model reached with the {@link ModelAccess}
 * they carry); the Research view's state is built there too and pushed with
 * {@link researchChangedNotification}, live step status with
 * {@link researchStepNotification}, planning notices with
 * {@link researchNoticeNotification}.
 *
 * Runs persist under `<corpus>/.marker-research/runs/<id>/` as they go: a run
 * interrupted by a crash of the engine is listed as resumable once the
 * restarted engine has indexed the corpus again.
 *
 * Failures with a reason (`ENGINE_ERROR_CODE`): `no-corpus`, `busy` (one
 * research operation at a time), `no-run` (no such run or goal),
 * `not-planned` (Run Planned on a run that is not waiting to run),
 * `no-api-key` and `bad-settings` (the model settings).
 */

/** What a research action is to do with its goal: a proposed goal (by id), the user's text, or the top goal ('auto'). */
export type GoalChoice = { goalId: string } | { text: string } | 'auto';

/** The research of the indexed corpus as the engine holds it. */
export interface ResearchSnapshot {
  /** The Research view's state (goals, the run shown with live step status, earlier runs, busy, message). */
  state: ResearchState;
  /** The persisted runs of the corpus, newest first. */
  runs: RunManifest[];
  /** The manifest of the run shown, or null. */
  shown: RunManifest | null;
  /** The goals proposed by the last Discover Goals (or stored with the run shown). */
  goals: Goal[];
  /** Ids of the runs Resume can take, newest first: cancelled, failed, partial, or `running` but not running in this engine (a crashed runner). */
  resumable: string[];
}

/** What Plan, Run, Run Planned and Resume return (core's RunResult, and why it did not succeed). */
export interface ResearchRunResult {
  runId: string;
  runDir: string;
  /** `report.md` (null when stopped after planning). */
  reportPath: string | null;
  manifest: RunManifest;
  /** Why the run is partial or failed, in one line; null when it is planned or done. */
  failure: string | null;
}

export interface ResearchStateParams {
  /** Re-read the runs from disk first (runs another process left). */
  reload?: boolean;
  /** Show this run (re-reads the runs from disk). */
  runId?: string;
}

/**
 * Client → server: the research snapshot (an empty one before any index).
 * With `reload` or `runId`, the runs are read from disk again first (and
 * `runId` shown); listeners also hear {@link researchChangedNotification}.
 */
export const researchStateRequest = new RequestType<ResearchStateParams, ResearchSnapshot, void>('markerResearch/researchState');

export type DiscoverGoalsParams = WorkDoneProgressParams & ModelAccess;

export interface DiscoverGoalsResult {
  goals: Goal[];
}

/** Client → server: Phase 1, goals from the marker overview. Work-done progress; cancellable. */
export const discoverGoalsRequest = new RequestType<DiscoverGoalsParams, DiscoverGoalsResult, void>('markerResearch/discoverGoals');

export interface ResearchGoalParams extends WorkDoneProgressParams, ModelAccess {
  goal: GoalChoice;
}

/**
 * Client → server: Phase 2, a plan for the goal saved in a new run (status
 * `planned`, shown for review). Work-done progress; cancellable.
 */
export const planResearchRequest = new RequestType<ResearchGoalParams, ResearchRunResult, void>('markerResearch/planResearch');

/** Client → server: a new run for the goal, phases 1–3 and the report. Work-done progress with steps done/total; cancellable (the run stays resumable). */
export const runResearchRequest = new RequestType<ResearchGoalParams, ResearchRunResult, void>('markerResearch/runResearch');

export interface ResearchRunParams extends WorkDoneProgressParams, ModelAccess {
  runId: string;
}

/**
 * Client → server: runs the reviewed plan of a `planned` run (its plan.json,
 * edited or not); `not-planned` when it has run already, `no-run` when there
 * is no such run. Work-done progress; cancellable.
 */
export const runPlannedRequest = new RequestType<ResearchRunParams, ResearchRunResult, void>('markerResearch/runPlanned');

/**
 * Client → server: resumes a cancelled, failed, partial or interrupted run
 * (finished steps kept; the report written again). Work-done progress;
 * cancellable.
 */
export const resumeResearchRequest = new RequestType<ResearchRunParams, ResearchRunResult, void>('markerResearch/resumeResearch');

/** Server → client: the research snapshot changed (sent before the response of the request that changed it). */
export const researchChangedNotification = new NotificationType<ResearchSnapshot>('markerResearch/researchChanged');

export interface ResearchStepParams {
  runId: string;
  stepId: string;
  status: ResearchStepStatus;
}

/** Server → client: one step of the live run changed status (cheap: the view updates that row only). */
export const researchStepNotification = new NotificationType<ResearchStepParams>('markerResearch/researchStep');

export interface ResearchNoticeParams {
  phase: 'goals' | 'plan';
  /** What planning fell short of (a failed model call and its extractive stand-in, …); the client shows it as a warning. */
  message: string;
}

/** Server → client: planning fell short of what was asked (core's `notice` event). */
export const researchNoticeNotification = new NotificationType<ResearchNoticeParams>('markerResearch/researchNotice');

// ---- questions, vectors and chat ---------------------------------------------------------------

/**
 * The ask, vector and chat methods of the engine protocol (merged into
 * lspProtocol.ts when done). The engine answers questions of the Ask box and
 * turns of the Chat view over the corpus it holds; the extension sends the
 * question with the settings and the API key ({@link ModelAccess}), shows the
 * views the engine builds, and opens spans in the editor from the places the
 * engine resolves (file path and range: the extension never needs the corpus).
 *
 * - Ask: one request per question, cancelled by its token (a newer question,
 *   "Marker Research: Cancel"). The engine caches the ask context (search,
 *   entity and marker indexes, vectors) per loaded corpus, markers and vector
 *   settings; {@link askInvalidateNotification} drops it.
 * - Vectors: embedding the corpus (once; only changed windows later) happens
 *   while the ask context is built; its progress arrives tagged with the ask
 *   (or chat) id that caused it, and {@link vectorCancelNotification} stops it
 *   (the question is then answered without vectors).
 * - Chat: the extension keeps which conversation is shown (and remembers it
 *   across reloads); the engine reads and writes the conversation files in
 *   `<corpus>/.marker-research/chats/`, runs the turns (answers stream as
 *   {@link chatDeltaNotification}s; cancel = the request's token) and resolves
 *   citations to the original place.
 */

// ---- places -------------------------------------------------------------------------------------

/** Zero-based lines and columns in an original file. */
export interface OriginalRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A span of an item's part (offsets into its normalised text) and where it is in its original file. */
export interface SpanPlace {
  itemId: string;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
  /** Absolute path of the original file (inside the corpus folder). */
  path: string;
  range: OriginalRange;
  /** `<file relative to the corpus>:<line>:<column>` (one-based), for the log. */
  where: string;
}

// ---- ask the corpus -----------------------------------------------------------------------------

export interface AskParams extends ModelAccess {
  /** Client-assigned, increasing; tags the progress notifications of this question and its result. */
  askId: number;
  question: string;
  /** The item the question is limited to (the item in focus), or null for the whole corpus. */
  itemId: string | null;
  /** Earlier questions of the box, oldest first (coreference). */
  session: string[];
}

export interface AskResponse {
  /** The answer as the Ask box shows it. */
  result: AskResultView;
  /** Where each hit (same order) opens: its focus span and the original place, or null when unmapped. */
  places: (SpanPlace | null)[];  /** Where each sentence of the answer (same order) opens, or null when unmapped. */
  answerPlaces: (SpanPlace | null)[];
}

/**
 * Client → server: answers a question of the Ask box over the indexed corpus
 * (`no-corpus` before the first index). Cancelled by the request's token.
 */
export const askRequest = new RequestType<AskParams, AskResponse, void>('markerResearch/ask');

export interface HitPlaceParams {
  itemId: string;
  part: 'transcript' | 'comments';
  start: number;
  end: number;
}

/** Client → server: where a hit opens, checked against the indexed corpus (`no-corpus`, `not-found`). */
export const hitPlaceRequest = new RequestType<HitPlaceParams, SpanPlace, void>('markerResearch/hitPlace');

/** Client → server: drop the cached ask context (settings changed): the next question builds it again. */
export const askInvalidateNotification = new NotificationType<Record<string, never>>('markerResearch/askInvalidate');

// ---- vectors ------------------------------------------------------------------------------------

export interface VectorProgressParams {
  /** The question (or chat turn) whose ask context is being built. */
  askId: number;
  asker: 'ask' | 'chat';
  /** The embedding model. */
  model: string;
  /** `begin` once, `report`s while windows are embedded, `end` once (also after a failure or cancel). */
  kind: 'begin' | 'report' | 'end';
  done: number;
  total: number;
  message?: string;
}

/** Server → client: progress of embedding the corpus for the vector strategy. */
export const vectorProgressNotification = new NotificationType<VectorProgressParams>('markerResearch/vectorProgress');

/** Client → server: stop embedding the corpus; questions are answered without vectors until the context is built again. */
export const vectorCancelNotification = new NotificationType<Record<string, never>>('markerResearch/vectorCancel');

export interface AskWarningParams {
  message: string;
  /** Offer "Show Logs". */
  showLogs: boolean;
}

/** Server → client: something the user should see once (vectors off for want of an API key, embedding failed). */
export const askWarningNotification = new NotificationType<AskWarningParams>('markerResearch/askWarning');

// ---- follow-up chat -----------------------------------------------------------------------------

/** The conversation the Chat view shows, as the extension remembers it. */
export interface ChatSelection {
  /** The corpus folder when no corpus is indexed (the configured one); the engine prefers the indexed corpus's. */
  root: string | null;
  /** The conversation shown, or null for one not yet started. */
  conversationId: string | null;
  /** The run a conversation not yet started is about (null: the whole corpus). Ignored when `conversationId` is set. */
  runId: string | null;
}

export interface ChatViewResult {
  /** The corpus folder the engine read, or null when there is none. */
  root: string | null;
  conversation: ChatConversationView;
  /** Earlier conversations, newest first (30 at most). */
  history: ChatHistoryEntry[];
  /** Lines of the conversation file that could not be read (logged by the engine). */
  problems: string[];
}

/**
 * Client → server: the Chat view's conversation (turns, citation chips) and
 * the history. `not-found` when `conversationId` names no conversation.
 */
export const chatViewRequest = new RequestType<ChatSelection, ChatViewResult, void>('markerResearch/chatView');

export interface ChatLatestParams {
  root: string | null;
  runId: string | null;
}

/** Client → server: the newest conversation about `runId` (null: the whole corpus) with at least one turn, or null. */
export const chatLatestRequest = new RequestType<ChatLatestParams, { conversationId: string | null }, void>('markerResearch/chatLatest');

export interface ChatTurnParams extends ModelAccess, ChatSelection {
  /** Client-assigned, increasing; tags the start and delta notifications. */
  askId: number;
  question: string;
}

export interface ChatTurnStartParams {
  askId: number;
  /** The conversation the turn is in (a new one when the selection had none). */
  conversationId: string;
  question: string;
}

/** Server → client: a turn started (its conversation exists on disk now). */
export const chatTurnStartNotification = new NotificationType<ChatTurnStartParams>('markerResearch/chatTurnStart');

export interface ChatDeltaParams {
  askId: number;
  /** More of the answer, to append. */
  text: string;
}

/** Server → client: more of the answer being streamed (coalesced, at most every ~40 ms). */
export const chatDeltaNotification = new NotificationType<ChatDeltaParams>('markerResearch/chatDelta');

/** A citation of a conversation and where it opens. */
export interface ChatCitationPlace extends SpanPlace {
  number: number;
}

export interface ChatTurnResult {
  conversationId: string;
  runId: string | null;
  turn: ChatTurnView;
  /** Where the turn's citations open. */
  places: ChatCitationPlace[];
  /** Why no model answered or understood, when one was configured (`Understood offline: …`). */
  notes: string[];
}

/**
 * Client → server: answers a question in the selected conversation (starting
 * it when it has none yet) and writes the turn to disk. Cancelled by the
 * request's token: a model answer already streaming is kept, marked stopped;
 * earlier, the request answers cancelled and nothing is kept.
 */
export const chatTurnRequest = new RequestType<ChatTurnParams, ChatTurnResult, void>('markerResearch/chatTurn');

export interface ChatCitationParams extends ChatSelection {
  number: number;
}

/** Client → server: where citation `number` of the selected conversation opens (`not-found` when it has none). */
export const chatCitationRequest = new RequestType<ChatCitationParams, ChatCitationPlace, void>('markerResearch/chatCitation');
