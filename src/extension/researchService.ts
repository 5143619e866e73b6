/**
 * Research in the editor (SPEC §4, §6): Discover Goals, Plan Research and Run
 * Research over the current corpus with a cancellable progress notification,
 * the engine from the settings (extractive offline, or the model client of
 * `markerEngineFor`), live step status for the sidebar, Open Report, and the
 * shared registry of running work that **Cancel** aborts (research and marker
 * generation alike). Runs persist under `<corpus>/.marker-research/runs/<id>/`;
 * the sidebar's view of a run is read back from there.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Corpus } from '../core/corpus/types';
import type { ModelClient } from '../core/llm/client';
import { discoverGoals, listRuns, readRun, resumeResearch, runResearch, type ResearchContext, type ResearchEvent, type RunResult, type StoredRun } from '../core/research/pipeline';
import type { Complexity, Goal, RunManifest } from '../core/research/schema';
import type { CorpusIndex } from '../core/search/corpusIndex';
import { CancelledError } from '../core/util/abort';
import { goalView, runViewFor } from '../shared/sidebarModel';
import type { ResearchState, ResearchStepStatus } from '../shared/webviewProtocol';
import type { CorpusService } from './corpusService';
import { markerEngineFor, type ApiKeyStore } from './markerService';
import { withCancellableProgress } from './runningWork';
import type { SettingsService } from './settings';

// ---- the service ------------------------------------------------------------------------------

/** The cause of a partial or failed run in one line ("2 of 3 steps failed (s1, s3): the model server rejected the API key (401)"). */
export function runFailureText(m: Pick<RunManifest, 'status' | 'error' | 'steps'>): string {
  if (m.error) return m.error;
  const steps = Object.values(m.steps);
  const failed = steps.filter((s) => s === 'failed').length;
  return failed ? `${failed} of ${steps.length} steps failed (see the logs for the cause)` : `the run is ${m.status} (see the logs)`;
}

export type ResearchErrorReason = 'no-corpus' | 'busy' | 'no-run' | 'no-report' | 'not-planned';

/** A research action that cannot be done; `reason` says why. Messages start with `research:`. */
export class ResearchServiceError extends Error {
  constructor(
    readonly reason: ResearchErrorReason,
    message: string,
  ) {
    super(`research: ${message}`);
    this.name = 'ResearchServiceError';
  }
}

/** A run Resume can take: cancelled, failed or partial, or `running` but not running here (`liveHere`). */
export function isResumable(status: RunManifest['status'], liveHere: boolean): boolean {
  return status === 'cancelled' || status === 'failed' || status === 'partial' || (status === 'running' && !liveHere);
}

/** What a research action is to do with its goal. */
export type GoalChoice = { goalId: string } | { text: string } | 'auto';

/** Goals, plans and runs of the current corpus, and the sidebar's view of them. */
export class ResearchService implements vscode.Disposable {
  private goals: Goal[] = [];
  private busy: ResearchState['busy'] = null;
  private message: string | null = null;
  private shown: StoredRun | undefined;
  private runs: RunManifest[] = [];
  private readonly live = new Map<string, ResearchStepStatus>();
  private liveRunId: string | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<ResearchState>();
  private readonly stepChanged = new vscode.EventEmitter<{ runId: string; stepId: string; status: ResearchStepStatus }>();
  private readonly subs: vscode.Disposable[] = [];
  /** The research view changed. */
  readonly onDidChange = this.changed.event;
  /** One step's live status changed. */
  readonly onDidChangeStep = this.stepChanged.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly corpus: CorpusService,
    private readonly apiKey: ApiKeyStore,
    private readonly promptsDir: string,
    private readonly searchIndex: (corpus: Corpus) => Promise<CorpusIndex>,
  ) {
    this.subs.push(corpus.onDidLoad((c) => void this.reload(c.root)));
  }

  get state(): ResearchState {
    const run = this.shown;
    const liveFor = run && run.manifest.run_id === this.liveRunId ? this.live : undefined;
    // A partial or failed run shown without a fresher message says why (from its run.json).
    const problem = !this.busy && run && (run.manifest.status === 'partial' || run.manifest.status === 'failed') ? `Run ${run.manifest.status}: ${runFailureText(run.manifest)}` : null;
    return {
      busy: this.busy,
      message: this.message ?? problem,
      goals: this.goals.map(goalView),
      run: run ? runViewFor({ manifest: run.manifest, plan: run.plan, steps: run.steps, requests: run.requests, live: liveFor }) : null,
      runs: this.runs.map((m) => ({ runId: m.run_id, goal: m.goal, status: m.status, createdAt: m.created_at })),
      liveRunId: this.busy === 'run' ? (this.liveRunId ?? null) : null,
    };
  }

  /** The persisted runs of the corpus, newest first. */
  get runManifests(): readonly RunManifest[] {
    return this.runs;
  }

  get shownRun(): StoredRun | undefined {
    return this.shown;
  }

  /**
   * The reviewed plan waiting to run: the run shown when it is `planned`, else the newest run when
   * it is (the last thing done was planning). Run Research runs it rather than a fresh run.
   */
  get plannedRun(): RunManifest | undefined {
    if (this.shown?.manifest.status === 'planned') return this.shown.manifest;
    return this.runs[0]?.status === 'planned' ? this.runs[0] : undefined;
  }

  /** The text of a goal choice (a proposed goal's title, or the user's text); undefined for 'auto'. */
  goalText(goal: GoalChoice): string | undefined {
    if (goal === 'auto') return undefined;
    if ('text' in goal) return goal.text;
    return this.goals.find((x) => x.goal_id === goal.goalId)?.title;
  }

  /** The status of a run as it is on disk now (runs of another window included); undefined when there is no such run. */
  async currentStatus(runId: string): Promise<RunManifest['status'] | undefined> {
    const corpus = this.requireCorpus();
    await this.reload(corpus.root);
    return this.runs.find((r) => r.run_id === runId)?.status;
  }

  /** Goals proposed by the last Discover Goals (or stored with the latest run). */
  get currentGoals(): readonly Goal[] {
    return this.goals;
  }

  /** Re-reads the runs of the corpus at `root` and shows `runId` (default: the one shown, else the latest). */
  async reload(root: string, runId?: string): Promise<void> {
    try {
      this.runs = await listRuns(root);
      const id = runId ?? (this.shown && this.runs.some((r) => r.run_id === this.shown!.manifest.run_id) ? this.shown.manifest.run_id : this.runs[0]?.run_id);
      this.shown = id ? await readRun(root, id) : undefined;
      if (!this.goals.length && this.shown?.goals.length) this.goals = this.shown.goals;
    } catch (e) {
      this.log.warn(`research: reading the runs of ${root} failed: ${(e as Error).message}`);
    }
    this.fire();
  }

  /** Shows a persisted run in the sidebar. */
  async showRun(runId: string): Promise<void> {
    const corpus = this.requireCorpus();
    await this.reload(corpus.root, runId);
  }

  /** Phase 1: goals from the marker overview. */
  async discoverGoals(): Promise<Goal[]> {
    const goals = await this.exclusive('goals', 'Discovering goals…', 'discovering research goals', (ctx) => discoverGoals(ctx));
    this.goals = goals;
    this.message = `${goals.length} goal${goals.length === 1 ? '' : 's'} proposed: pick one to plan or run, or type your own.`;
    this.log.info(`research: ${goals.length} goals: ${goals.map((g) => `${g.goal_id} "${g.title}"`).join('; ')}`);
    this.fire();
    return goals;
  }

  /**
   * Phase 2: a plan for `goal`, saved in a new run (status `planned`, with goals.json and
   * plan.json) and shown for review; Run Research then runs it (an edited plan.json included).
   */
  async plan(goal: GoalChoice): Promise<RunResult> {
    const g = this.goalOf(goal);
    const r = await this.exclusive('plan', `Planning: ${typeof g === 'string' ? g : g.title}…`, 'planning research', (ctx, complexity) => runResearch(ctx, { goal: g, complexity, stopAfterPlan: true }));
    this.message = `Planned ${Object.keys(r.manifest.steps).length} steps: review them below, then Run Research.`;
    this.log.info(`research: planned run ${r.runId} (${Object.keys(r.manifest.steps).length} steps) for "${r.manifest.goal}"`);
    await this.reload(this.requireCorpus().root, r.runId);
    return r;
  }

  /**
   * Phases 1–3 and the report. With a goal: a new run. Without one: the reviewed plan waiting
   * ({@link plannedRun}) runs, else the top goal is chosen ('auto').
   */
  async run(goal: GoalChoice | undefined): Promise<RunResult> {
    const planned = goal === undefined ? this.plannedRun?.run_id : undefined;
    if (planned) return this.runPlanned(planned);
    const g = goal === undefined ? 'auto' : this.goalOf(goal);
    const label = `Researching: ${typeof g === 'string' ? (g === 'auto' ? 'automatic goal' : g) : g.title}`;
    const started = Date.now();
    const result = await this.exclusive('run', `${label}…`, 'research', (ctx, complexity) => runResearch(ctx, { goal: g, complexity }));
    await this.finished(result, started);
    return result;
  }

  /**
   * Runs the reviewed plan of run `runId` (status `planned`; its plan.json, edited or not):
   * that run goes on, no new run is made.
   * @throws ResearchServiceError `not-planned` when the run has run already (its status says how it ended), `no-run` when there is no such run.
   */
  async runPlanned(runId: string): Promise<RunResult> {
    const status = await this.currentStatus(runId);
    if (!status) throw new ResearchServiceError('no-run', `no run "${runId}" in this corpus.`);
    if (status !== 'planned') throw new ResearchServiceError('not-planned', `run ${runId} is not waiting to run: it is ${status} already${status === 'done' ? ' (Open Report shows its report)' : isResumable(status, false) ? ' (Resume Research continues it)' : ''}.`);
    const manifest = this.runs.find((r) => r.run_id === runId)!;
    const started = Date.now();
    this.log.info(`research: running the planned run ${runId} "${manifest.goal}"`);
    const result = await this.exclusive('run', `Running the plan for: ${manifest.goal}…`, 'research', (ctx) => {
      this.liveRunId = runId; // step events of this run update the sidebar at once
      this.fire();
      return resumeResearch(ctx, runId);
    });
    await this.finished(result, started);
    return result;
  }

  /**
   * The runs Resume can take, newest first: cancelled, failed or partial, and `running` ones
   * not running in this window (a crashed or killed runner; core refuses one that a live
   * process still holds, naming it).
   */
  get resumableRuns(): readonly RunManifest[] {
    return this.runs.filter((m) => isResumable(m.status, m.run_id === this.liveRunId && this.busy !== null));
  }

  /**
   * Resumes a persisted run (SPEC §6): finished steps are kept, pending, failed and
   * interrupted ones run, then the report is written again. Progress, cancel and live
   * step statuses as for a run.
   * @throws RunLockedError when another live process runs it (the message names it).
   */
  async resume(runId: string): Promise<RunResult> {
    const corpus = this.requireCorpus();
    if (this.busy) throw new ResearchServiceError('busy', `research is already running (${this.busy}); wait for it or run "Marker Research: Cancel".`);
    await this.reload(corpus.root, runId);
    const manifest = this.runs.find((r) => r.run_id === runId);
    if (!manifest) throw new ResearchServiceError('no-run', `no run "${runId}" in this corpus.`);
    const started = Date.now();
    this.log.info(`research: resuming run ${runId} (${manifest.status}) "${manifest.goal}"`);
    const result = await this.exclusive('run', `Resuming: ${manifest.goal}…`, `resuming research ${runId}`, (ctx) => {
      this.liveRunId = runId; // step events of this run update the sidebar at once
      this.fire();
      return resumeResearch(ctx, runId);
    });
    await this.finished(result, started, true);
    return result;
  }

  /** Says how a run (or a resumed one) ended: a message, the log, and an error with its cause when it did not succeed. */
  private async finished(result: RunResult, started: number, resumed = false): Promise<void> {
    const m = result.manifest;
    const steps = Object.values(m.steps);
    const failed = steps.filter((s) => s === 'failed').length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const what = resumed ? 'Resumed run' : 'Run';
    if (m.status === 'done') {
      this.message = `${what} done: ${steps.length}/${steps.length} steps done in ${seconds} s${result.reportPath ? '; the report is ready.' : '.'}`;
      this.log.info(`research: run ${result.runId}${resumed ? ' (resumed)' : ''} done (${m.engine}${m.model ? ` ${m.model}` : ''}, ${m.complexity}): ${steps.length} steps; report ${result.reportPath ?? 'none'}`);
    } else {
      // partial / failed: say so, with the cause, in the sidebar, the log and an error notification.
      const cause = runFailureText(m);
      this.message = `${what} ${m.status}: ${cause}${m.fallback_report ? ' The report is a fallback (not written by the model).' : ''} Resume the run (Resume, or CLI: research --resume ${result.runId}) to retry the failed steps.`;
      this.log.error(`research: run ${result.runId}${resumed ? ' (resumed)' : ''} ${m.status} (${m.engine}${m.model ? ` ${m.model}` : ''}, ${m.complexity}): ${cause}; ${failed} of ${steps.length} steps failed; report ${result.reportPath ?? 'none'}${m.fallback_report ? ' (fallback)' : ''}`);
      void vscode.window.showErrorMessage(`Marker Research: research ${m.status === 'failed' ? 'failed' : 'only partly succeeded'} — ${cause}`, 'Show Logs').then((pick) => {
        if (pick === 'Show Logs') this.log.show();
      });
    }
    await this.reload(this.requireCorpus().root, result.runId);
  }

  /** Path of the report of `runId` (default: the run shown, else the latest run with a report). */
  reportPath(runId?: string): string {
    const corpus = this.requireCorpus();
    const manifest = runId ? this.runs.find((r) => r.run_id === runId) : this.shown?.manifest.report ? this.shown.manifest : this.runs.find((r) => r.report);
    if (!manifest) throw new ResearchServiceError('no-run', runId ? `no run "${runId}" in this corpus.` : 'no research run has a report yet; run "Marker Research: Run Research" first.');
    if (!manifest.report) throw new ResearchServiceError('no-report', `run ${manifest.run_id} has no report (${manifest.status}).`);
    return path.join(corpus.root, '.marker-research', 'runs', manifest.run_id, 'report.md');
  }

  /** The goal core takes: a discovered goal, the user's text, or 'auto'. */
  private goalOf(goal: GoalChoice): Goal | string {
    if (goal === 'auto') return 'auto';
    if ('text' in goal) return goal.text;
    const g = this.goals.find((x) => x.goal_id === goal.goalId);
    if (!g) throw new ResearchServiceError('no-run', `no goal "${goal.goalId}"; run Discover Goals again.`);
    return g;
  }

  private requireCorpus(): Corpus {
    const corpus = this.corpus.current;
    if (!corpus) throw new ResearchServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    return corpus;
  }

  /** Runs one pipeline call at a time, with progress, cancel, the engine and live events. */
  private async exclusive<T>(what: NonNullable<ResearchState['busy']>, message: string, title: string, fn: (ctx: ResearchContext, complexity: Complexity) => Promise<T>): Promise<T> {
    const corpus = this.requireCorpus();
    if (this.busy) throw new ResearchServiceError('busy', `research is already running (${this.busy}); wait for it or run "Marker Research: Cancel".`);
    this.busy = what;
    this.message = message;
    this.live.clear();
    this.liveRunId = undefined;
    this.fire();
    try {
      const s = this.settings.value;
      const apiKey = s.provider === 'extractive' ? undefined : await this.apiKey.get();
      const engine = markerEngineFor(s, { apiKey, promptsDir: this.promptsDir, log: this.log });
      // The model engine's model is core's ModelClient (createMarkerEngine); research takes the client itself.
      const researchEngine: ResearchContext['engine'] = engine.kind === 'extractive' ? 'extractive' : (engine.model as ModelClient);
      const index = await this.searchIndex(corpus);
      const config = {
        max_followups_per_step: s.maxFollowupsPerStep,
        max_content_items_per_turn: s.maxContentItemsPerTurn,
        context_window_limit: s.contextWindowLimit,
        marker_overview_max_items: s.markerOverviewMaxItems,
      };
      this.log.info(`research: ${title} with the ${engine.kind === 'extractive' ? 'extractive engine' : `${s.provider} provider`} (${s.complexity})`);
      const engineLabel = engine.kind === 'extractive' ? 'extractive' : s.provider;
      return await withCancellableProgress(`Marker Research: ${title} (${engineLabel})`, (signal, onProgress) =>
        fn({ corpus, index, engine: researchEngine, promptsDir: this.promptsDir, log: this.log, signal, config, onEvent: (e) => this.onEvent(corpus.root, e), onProgress }, s.complexity),
      );
    } catch (e) {
      if (e instanceof CancelledError) this.message = 'Cancelled; finished steps are kept and the run can be resumed.';
      else this.message = `Failed: ${(e as Error).message.replace(/^research: /, '')}`;
      throw e;
    } finally {
      this.busy = null;
      if (this.refreshTimer) clearTimeout(this.refreshTimer);
      this.refreshTimer = undefined;
      this.live.clear(); // the run is over: what is on disk is the truth (a cancelled step is pending again)
      await this.reload(corpus.root, this.liveRunId);
    }
  }

  private onEvent(root: string, e: ResearchEvent): void {
    if (e.type === 'run') {
      if (e.run_id !== this.liveRunId) {
        this.liveRunId = e.run_id;
        this.scheduleRefresh(root);
      }
      return;
    }
    if (e.type === 'notice') {
      void vscode.window.showWarningMessage(`Marker Research: ${e.message}.`);
      return;
    }
    if (e.type !== 'step') return;
    this.live.set(e.step_id, e.status);
    if (!this.liveRunId) this.scheduleRefresh(root, true); // the run folder (with its plan) exists once steps run: find it
    else this.stepChanged.fire({ runId: this.liveRunId, stepId: e.step_id, status: e.status });
    if (e.status === 'done' || e.status === 'failed') this.scheduleRefresh(root);
  }

  /** Re-reads the live run from disk soon (coalesced): findings, requests and sources of finished steps. */
  private scheduleRefresh(root: string, findRun = false): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void (async () => {
        if (findRun && !this.liveRunId) {
          const runs = await listRuns(root).catch(() => [] as RunManifest[]);
          const newest = runs.find((r) => r.status === 'running' || r.status === 'planned');
          if (newest) this.liveRunId = newest.run_id;
        }
        await this.reload(root, this.liveRunId);
      })();
    }, 150);
  }

  private fire(): void {
    this.changed.fire(this.state);
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.subs) d.dispose();
    this.changed.dispose();
    this.stepChanged.dispose();
  }
}
