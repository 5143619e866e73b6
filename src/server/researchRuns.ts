/**
 * The research of the engine's corpus: goals, the persisted runs and the one
 * shown, the research operation in flight (one at a time) with the live
 * status of its steps, and the pipeline calls themselves (core's discover /
 * plan / run / resume with the corpus and search index of the engine state).
 * Runs persist under `<corpus>/.marker-research/runs/<id>/` as they go, so
 * the view of a run is read back from there; a `running` run this engine does
 * not run (its runner crashed) is resumable.
 */
import { NewestWins } from '../core/util/newestWins';
import * as l10n from '@vscode/l10n';
import type { Corpus } from '../core/corpus/types';
import type { ModelClient } from '../core/llm/client';
import { discoverGoals, listRuns, readRun, resumeResearch, runResearch, type ResearchContext, type ResearchEvent, type RunResult, type StoredRun } from '../core/research/pipeline';
import type { Complexity, Goal, RunManifest } from '../core/research/schema';
import { CancelledError, type ProgressSink } from '../core/util/abort';
import type { ModelAccess } from '../shared/lspProtocol';
import type { GoalChoice, ResearchRunResult, ResearchSnapshot, ResearchStepParams } from '../shared/lspProtocol';
import { goalView, runViewFor } from '../shared/sidebarModel';
import type { ResearchState, ResearchStepStatus } from '../shared/webviewProtocol';
import { markerEngineFor } from './corpusEngine';
import { EngineError, type Disposable, type EngineState } from './engineState';
import { loadSavedCorpusSpam } from '../core/markers/spamStore';

/** The cause of a partial or failed run in one line ("2 of 3 steps failed (see the logs for the cause)", or the run's error). */
export function runFailureText(m: Pick<RunManifest, 'status' | 'error' | 'steps'>): string {
  if (m.error) return m.error;
  const steps = Object.values(m.steps);
  const failed = steps.filter((s) => s === 'failed').length;
  return failed ? l10n.t('{0} of {1} steps failed (see the logs for the cause)', failed, steps.length) : l10n.t('the run is {0} (see the logs)', m.status);
}

/** A run Resume can take: cancelled, failed or partial, or `running` but not running here (`liveHere`). */
export function isResumable(status: RunManifest['status'], liveHere: boolean): boolean {
  return status === 'cancelled' || status === 'failed' || status === 'partial' || (status === 'running' && !liveHere);
}

/** Where the research tells what changed: the snapshot, one step's live status, a planning notice. */
export interface ResearchOutlet {
  changed(snapshot: ResearchSnapshot): void;
  step(params: ResearchStepParams): void;
  notice(phase: 'goals' | 'plan', message: string): void;
}

/** What one pipeline call gets besides its context: the model access, cancel and progress. */
export interface ResearchCall {
  access: ModelAccess;
  signal: AbortSignal;
  onProgress: ProgressSink;
}

const BUSY_MESSAGE = (what: string): string => l10n.t('research is already running ({0}); wait for it or run "Marker Research: Cancel".', what);

export class ResearchRuns {
  private root: string | undefined;
  private goals: Goal[] = [];
  private busy: ResearchState['busy'] = null;
  private message: string | null = null;
  private shown: StoredRun | undefined;
  private runs: RunManifest[] = [];
  private readonly live = new Map<string, ResearchStepStatus>();
  private liveRunId: string | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** Reloads of the runs: only the last one started is shown. */
  private readonly reloads = new NewestWins();
  private readonly loaded: Disposable;

  constructor(
    private readonly state: EngineState,
    private readonly out: ResearchOutlet,
  ) {
    this.loaded = state.onDidLoad((corpus) => {
      if (corpus.root !== this.root) {
        // Another corpus: nothing of the last one's research is shown.
        this.root = corpus.root;
        this.goals = [];
        this.shown = undefined;
        this.runs = [];
        this.message = null;
      }
      void this.reload();
    });
  }

  private get log(): EngineState['log'] {
    return this.state.log;
  }

  /** What the client shows and picks from. */
  snapshot(): ResearchSnapshot {
    const run = this.shown;
    const liveFor = run && run.manifest.run_id === this.liveRunId ? this.live : undefined;
    // A partial or failed run shown without a fresher message says why (from its run.json).
    const problem = !this.busy && run && (run.manifest.status === 'partial' || run.manifest.status === 'failed') ? `Run ${run.manifest.status}: ${runFailureText(run.manifest)}` : null;
    const state: ResearchState = {
      busy: this.busy,
      message: this.message ?? problem,
      goals: this.goals.map(goalView),
      run: run ? runViewFor({ manifest: run.manifest, plan: run.plan, steps: run.steps, requests: run.requests, live: liveFor }) : null,
      runs: this.runs.map((m) => ({ runId: m.run_id, goal: m.goal, status: m.status, createdAt: m.created_at })),
      liveRunId: this.busy === 'run' ? (this.liveRunId ?? null) : null,
    };
    const liveHere = this.busy !== null ? this.liveRunId : undefined;
    return {
      state,
      runs: this.runs,
      shown: run?.manifest ?? null,
      goals: this.goals,
      resumable: this.runs.filter((m) => isResumable(m.status, m.run_id === liveHere)).map((m) => m.run_id),
    };
  }

  /** Re-reads the runs of the corpus and shows `runId` (default: the one shown, else the latest). Nothing before the first index. */
  async reload(runId?: string): Promise<void> {
    const root = this.state.current()?.root;
    if (!root) return;
    this.root = root;
    // A reload started later read newer files: this one's result, if it comes last, would show an older state.
    const newest = this.reloads.begin();
    let runs: RunManifest[] | undefined;
    try {
      runs = await listRuns(root);
      const id = runId ?? (this.shown && runs.some((r) => r.run_id === this.shown!.manifest.run_id) ? this.shown.manifest.run_id : runs[0]?.run_id);
      const shown = id ? await readRun(root, id) : undefined;
      if (!newest()) return;
      this.runs = runs;
      this.shown = shown;
      if (!this.goals.length && this.shown?.goals.length) this.goals = this.shown.goals;
    } catch (e) {
      if (!newest()) return;
      if (runs) this.runs = runs;
      this.log.warn(`research: reading the runs of ${root} failed: ${(e as Error).message}`);
    }
    this.fire();
  }

  /** Phase 1: goals from the marker overview. */
  async discoverGoals(call: ResearchCall): Promise<Goal[]> {
    const goals = await this.exclusive('goals', l10n.t('Discovering goals…'), 'discovering research goals', call, (ctx) => discoverGoals(ctx));
    this.goals = goals;
    this.message = goals.length === 1 ? l10n.t('1 goal proposed: pick it to plan or run, or type your own.') : l10n.t('{0} goals proposed: pick one to plan or run, or type your own.', goals.length);
    this.log.info(`research: ${goals.length} goals: ${goals.map((g) => `${g.goal_id} "${g.title}"`).join('; ')}`);
    this.fire();
    return goals;
  }

  /** Phase 2: a plan for `goal`, saved in a new run (status `planned`) and shown for review. */
  async plan(goal: GoalChoice, call: ResearchCall): Promise<ResearchRunResult> {
    const g = this.goalOf(goal);
    const r = await this.exclusive('plan', l10n.t('Planning: {0}…', typeof g === 'string' ? g : g.title), 'planning research', call, (ctx, complexity) => runResearch(ctx, { goal: g, complexity, stopAfterPlan: true }));
    this.message = l10n.t('Planned {0} steps: review them below, then Run Research.', Object.keys(r.manifest.steps).length);
    this.log.info(`research: planned run ${r.runId} (${Object.keys(r.manifest.steps).length} steps) for "${r.manifest.goal}"`);
    await this.reload(r.runId);
    return resultOf(r);
  }

  /** Phases 1–3 and the report in a new run for `goal` ('auto': the top goal). */
  async run(goal: GoalChoice, call: ResearchCall): Promise<ResearchRunResult> {
    const g = this.goalOf(goal);
    const label = l10n.t('Researching: {0}', typeof g === 'string' ? (g === 'auto' ? l10n.t('automatic goal') : g) : g.title);
    const started = Date.now();
    const result = await this.exclusive('run', `${label}…`, 'research', call, (ctx, complexity) => runResearch(ctx, { goal: g, complexity }));
    return this.finished(result, started);
  }

  /**
   * Runs the reviewed plan of run `runId` (status `planned`): that run goes on, no new run is made.
   * @throws EngineError `not-planned` when the run has run already, `no-run` when there is no such run.
   */
  async runPlanned(runId: string, call: ResearchCall): Promise<ResearchRunResult> {
    this.state.requireCorpus();
    if (this.busy) throw new EngineError('busy', BUSY_MESSAGE(this.busy));
    await this.reload();
    const manifest = this.runs.find((r) => r.run_id === runId);
    if (!manifest) throw new EngineError('no-run', l10n.t('no run "{0}" in this corpus.', runId));
    const status = manifest.status;
    if (status !== 'planned') {
      throw new EngineError(
        'not-planned',
        status === 'done'
          ? l10n.t('run {0} is not waiting to run: it is {1} already (Open Report shows its report).', runId, status)
          : isResumable(status, false)
            ? l10n.t('run {0} is not waiting to run: it is {1} already (Resume Research continues it).', runId, status)
            : l10n.t('run {0} is not waiting to run: it is {1} already.', runId, status),
      );
    }
    const started = Date.now();
    this.log.info(`research: running the planned run ${runId} "${manifest.goal}"`);
    const result = await this.exclusive('run', l10n.t('Running the plan for: {0}…', manifest.goal), 'research', call, (ctx) => {
      this.liveRunId = runId; // step events of this run update the view at once
      this.fire();
      return resumeResearch(ctx, runId);
    });
    return this.finished(result, started);
  }

  /**
   * Resumes a persisted run: finished steps are kept, pending, failed and interrupted ones run,
   * then the report is written again.
   * @throws RunLockedError when another live process runs it (the message names it).
   */
  async resume(runId: string, call: ResearchCall): Promise<ResearchRunResult> {
    this.state.requireCorpus();
    if (this.busy) throw new EngineError('busy', BUSY_MESSAGE(this.busy));
    await this.reload(runId);
    const manifest = this.runs.find((r) => r.run_id === runId);
    if (!manifest) throw new EngineError('no-run', l10n.t('no run "{0}" in this corpus.', runId));
    const started = Date.now();
    this.log.info(`research: resuming run ${runId} (${manifest.status}) "${manifest.goal}"`);
    const result = await this.exclusive('run', l10n.t('Resuming: {0}…', manifest.goal), `resuming research ${runId}`, call, (ctx) => {
      this.liveRunId = runId;
      this.fire();
      return resumeResearch(ctx, runId);
    });
    return this.finished(result, started, true);
  }

  /** Says how a run (or a resumed one) ended: the message, the log, and the cause when it did not succeed. */
  private async finished(result: RunResult, started: number, resumed = false): Promise<ResearchRunResult> {
    const m = result.manifest;
    const steps = Object.values(m.steps);
    const failed = steps.filter((s) => s === 'failed').length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (m.status === 'done') {
      const done = resumed ? l10n.t('Resumed run done: {0}/{0} steps done in {1} s', steps.length, seconds) : l10n.t('Run done: {0}/{0} steps done in {1} s', steps.length, seconds);
      this.message = result.reportPath ? l10n.t('{0}; the report is ready.', done) : `${done}.`;
      this.log.info(`research: run ${result.runId}${resumed ? ' (resumed)' : ''} done (${m.engine}${m.model ? ` ${m.model}` : ''}, ${m.complexity}): ${steps.length} steps; report ${result.reportPath ?? 'none'}`);
    } else {
      const cause = runFailureText(m);
      const ended = resumed ? l10n.t('Resumed run {0}: {1}', m.status, cause) : l10n.t('Run {0}: {1}', m.status, cause);
      const fallback = m.fallback_report ? ` ${l10n.t('The report is a fallback (not written by the model).')}` : '';
      this.message = `${ended}${fallback} ${l10n.t('Resume the run (Resume, or CLI: research --resume {0}) to retry the failed steps.', result.runId)}`;
      this.log.error(`research: run ${result.runId}${resumed ? ' (resumed)' : ''} ${m.status} (${m.engine}${m.model ? ` ${m.model}` : ''}, ${m.complexity}): ${cause}; ${failed} of ${steps.length} steps failed; report ${result.reportPath ?? 'none'}${m.fallback_report ? ' (fallback)' : ''}`);
    }
    await this.reload(result.runId);
    return resultOf(result);
  }

  /** The goal core takes: a discovered goal, the user's text, or 'auto'. */
  private goalOf(goal: GoalChoice): Goal | string {
    if (goal === 'auto') return 'auto';
    if ('text' in goal) return goal.text;
    const g = this.goals.find((x) => x.goal_id === goal.goalId);
    if (!g) throw new EngineError('no-run', l10n.t('no goal "{0}"; run Discover Goals again.', goal.goalId));
    return g;
  }

  /** Runs one pipeline call at a time, with the engine of the settings, cancel, progress and live events. */
  private async exclusive<T>(
    what: NonNullable<ResearchState['busy']>,
    message: string,
    title: string,
    call: ResearchCall,
    fn: (ctx: ResearchContext, complexity: Complexity) => Promise<T>,
  ): Promise<T> {
    const corpus = this.state.requireCorpus();
    // Taken before the first await: a second call is told "busy".
    if (this.busy) throw new EngineError('busy', BUSY_MESSAGE(this.busy));
    this.busy = what;
    this.message = message;
    this.live.clear();
    this.liveRunId = undefined;
    this.fire();
    try {
      const s = call.access.settings;
      const engine = markerEngineFor(s, s.provider === 'extractive' ? undefined : call.access.apiKey, this.state.promptsDir, this.log);
      // The model engine's model is core's ModelClient (createMarkerEngine); research takes the client itself.
      const researchEngine: ResearchContext['engine'] = engine.kind === 'extractive' ? 'extractive' : (engine.model as ModelClient);
      const index = await this.state.searchIndex(corpus);
      // Research reads comments through the corpus's spam decision: the saved one when it is current, not decided again.
      await loadSavedCorpusSpam(corpus);
      const config = {
        max_followups_per_step: s.maxFollowupsPerStep,
        max_content_items_per_turn: s.maxContentItemsPerTurn,
        context_window_limit: s.contextWindowLimit,
        marker_overview_max_items: s.markerOverviewMaxItems,
        max_plan_steps: s.maxPlanSteps,
      };
      this.log.info(`research: ${title} with the ${engine.kind === 'extractive' ? 'extractive engine' : `${s.provider} provider`} (${s.complexity})`);
      return await fn(
        { corpus, index, engine: researchEngine, promptsDir: this.state.promptsDir, log: this.log, signal: call.signal, config, onEvent: (e) => this.onEvent(corpus, e), onProgress: call.onProgress },
        s.complexity,
      );
    } catch (e) {
      if (e instanceof CancelledError || call.signal.aborted) this.message = l10n.t('Cancelled; finished steps are kept and the run can be resumed.');
      else this.message = l10n.t('Failed: {0}', (e as Error).message.replace(/^research: /, ''));
      throw e;
    } finally {
      this.busy = null;
      if (this.refreshTimer) clearTimeout(this.refreshTimer);
      this.refreshTimer = undefined;
      this.live.clear(); // the run is over: what is on disk is the truth (a cancelled step is pending again)
      await this.reload(this.liveRunId);
    }
  }

  private onEvent(corpus: Corpus, e: ResearchEvent): void {
    if (e.type === 'run') {
      if (e.run_id !== this.liveRunId) {
        this.liveRunId = e.run_id;
        this.scheduleRefresh(corpus);
      }
      return;
    }
    if (e.type === 'notice') {
      this.out.notice(e.phase, e.message);
      return;
    }
    if (e.type !== 'step') return;
    this.live.set(e.step_id, e.status);
    if (!this.liveRunId) this.scheduleRefresh(corpus, true); // the run folder (with its plan) exists once steps run: find it
    else this.out.step({ runId: this.liveRunId, stepId: e.step_id, status: e.status });
    if (e.status === 'done' || e.status === 'failed') this.scheduleRefresh(corpus);
  }

  /** Re-reads the live run from disk soon (coalesced): findings, requests and sources of finished steps. */
  private scheduleRefresh(corpus: Corpus, findRun = false): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void (async () => {
        if (findRun && !this.liveRunId) {
          const runs = await listRuns(corpus.root).catch(() => [] as RunManifest[]);
          const newest = runs.find((r) => r.status === 'running' || r.status === 'planned');
          if (newest) this.liveRunId = newest.run_id;
        }
        // Only while the corpus is still the one researched (a reload of another corpus shows its own runs).
        if (this.state.current()?.root === corpus.root) await this.reload(this.liveRunId);
      })();
    }, 150);
  }

  private fire(): void {
    this.out.changed(this.snapshot());
  }

  dispose(): void {
    this.loaded.dispose();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
  }
}

/** Core's RunResult as the protocol carries it (plain JSON), with the cause of a partial or failed run. */
function resultOf(r: RunResult): ResearchRunResult {
  const s = r.manifest.status;
  return { runId: r.runId, runDir: r.runDir, reportPath: r.reportPath, manifest: r.manifest, failure: s === 'partial' || s === 'failed' ? runFailureText(r.manifest) : null };
}
