/**
 * Research in the editor (SPEC §4, §6), as a client of the engine: Discover
 * Goals, Plan Research, Run Research, Run Planned and Resume are requests to
 * the language server (`lspProtocol.ts`), each with a cancellable
 * progress notification fed by the engine's work-done progress ("Marker
 * Research: Cancel" aborts it too) and the model access (settings, and the API
 * key from SecretStorage when a model is used). The engine runs the pipeline,
 * holds the goals and runs and pushes the research snapshot, live step status
 * and planning notices; this keeps the last snapshot for the Research view and
 * the commands, and keeps the UI: the warning of a notice, the error of a
 * partial or failed run.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestType, WorkDoneProgressParams } from 'vscode-languageclient/node';
import type { Goal, RunManifest } from '../core/research/schema';
import type { ModelAccess } from '../shared/lspProtocol';
import {
  discoverGoalsRequest, planResearchRequest, researchChangedNotification, researchNoticeNotification, researchStateRequest, researchStepNotification,
  resumeResearchRequest, runPlannedRequest, runResearchRequest,
  type GoalChoice, type ResearchRunResult, type ResearchSnapshot, type ResearchStateParams,
} from '../shared/lspProtocol';
import type { ResearchState, ResearchStepStatus } from '../shared/webviewProtocol';
import type { ApiKeyStore } from './apiKeyStore';
import type { CorpusService } from './corpusService';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import type { SettingsService } from './settings';

export type { GoalChoice } from '../shared/lspProtocol';

export type ResearchErrorReason = 'no-corpus' | 'busy' | 'no-run' | 'no-report' | 'not-planned';
const REASONS: readonly string[] = ['no-corpus', 'busy', 'no-run', 'no-report', 'not-planned'] satisfies ResearchErrorReason[];

/** A research action that cannot be done; `reason` says why. Messages start with `research:`. */
export class ResearchServiceError extends Error {
  constructor(
    readonly reason: ResearchErrorReason,
    message: string,
  ) {
    super(`research: ${message.replace(/^research: /, '')}`);
    this.name = 'ResearchServiceError';
  }
}

/** An engine refusal with a research reason as a {@link ResearchServiceError}; anything else as it is. */
function researchError(e: unknown): unknown {
  if (e instanceof EngineRequestError && REASONS.includes(e.reason)) return new ResearchServiceError(e.reason as ResearchErrorReason, e.message);
  return e;
}

const EMPTY: ResearchSnapshot = { state: { busy: null, message: null, goals: [], run: null, runs: [], liveRunId: null }, runs: [], shown: null, goals: [], resumable: [] };

/** Goals, plans and runs of the current corpus (as the engine last said), and the research requests. */
export class ResearchService implements vscode.Disposable {
  private snap: ResearchSnapshot = EMPTY;
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
    private readonly client: CorpusLanguageClient,
  ) {
    this.subs.push(
      client.onNotification(researchChangedNotification, (s) => this.apply(s)),
      client.onNotification(researchStepNotification, (e) => this.stepChanged.fire(e)),
      client.onNotification(researchNoticeNotification, (n) => void vscode.window.showWarningMessage(`Marker Research: ${n.message}.`)),
      // A restarted engine knows no research until it has indexed again (it then says what it found on disk).
      client.onDidRestart(() => this.apply(EMPTY)),
    );
  }

  get state(): ResearchState {
    return this.snap.state;
  }

  /** The persisted runs of the corpus, newest first. */
  get runManifests(): readonly RunManifest[] {
    return this.snap.runs;
  }

  /** The run shown in the Research view (its manifest). */
  get shownRun(): { manifest: RunManifest } | undefined {
    return this.snap.shown ? { manifest: this.snap.shown } : undefined;
  }

  /**
   * The reviewed plan waiting to run: the run shown when it is `planned`, else the newest run when
   * it is (the last thing done was planning). Run Research runs it rather than a fresh run.
   */
  get plannedRun(): RunManifest | undefined {
    if (this.snap.shown?.status === 'planned') return this.snap.shown;
    return this.snap.runs[0]?.status === 'planned' ? this.snap.runs[0] : undefined;
  }

  /** The text of a goal choice (a proposed goal's title, or the user's text); undefined for 'auto'. */
  goalText(goal: GoalChoice): string | undefined {
    if (goal === 'auto') return undefined;
    if ('text' in goal) return goal.text;
    return this.snap.goals.find((x) => x.goal_id === goal.goalId)?.title;
  }

  /** The status of a run as it is on disk now (runs of another window included); undefined when there is no such run. */
  async currentStatus(runId: string): Promise<RunManifest['status'] | undefined> {
    this.requireCorpus();
    await this.reload();
    return this.snap.runs.find((r) => r.run_id === runId)?.status;
  }

  /** Goals proposed by the last Discover Goals (or stored with the latest run). */
  get currentGoals(): readonly Goal[] {
    return this.snap.goals;
  }

  /**
   * Has the engine re-read the runs of its corpus and show `runId` (default: the one shown, else
   * the latest). `root` is the corpus the caller means: nothing happens unless it is the indexed one.
   */
  async reload(root?: string, runId?: string): Promise<void> {
    const indexed = this.corpus.root;
    if (!indexed || (root !== undefined && path.resolve(root) !== path.resolve(indexed))) return;
    await this.fetch({ reload: true, runId });
  }

  /** Shows a persisted run in the Research view. */
  async showRun(runId: string): Promise<void> {
    this.requireCorpus();
    await this.fetch({ runId });
  }

  /** Phase 1: goals from the marker overview. */
  async discoverGoals(): Promise<Goal[]> {
    this.requireCorpus();
    const r = await this.work(vscode.l10n.t('discovering research goals'), discoverGoalsRequest, {});
    return r.goals;
  }

  /**
   * Phase 2: a plan for `goal`, saved in a new run (status `planned`, with goals.json and
   * plan.json) and shown for review; Run Research then runs it (an edited plan.json included).
   */
  plan(goal: GoalChoice): Promise<ResearchRunResult> {
    this.requireCorpus();
    return this.work(vscode.l10n.t('planning research'), planResearchRequest, { goal });
  }

  /**
   * Phases 1–3 and the report. With a goal: a new run. Without one: the reviewed plan waiting
   * ({@link plannedRun}) runs, else the top goal is chosen ('auto').
   */
  async run(goal: GoalChoice | undefined): Promise<ResearchRunResult> {
    const planned = goal === undefined ? this.plannedRun?.run_id : undefined;
    if (planned) return this.runPlanned(planned);
    this.requireCorpus();
    return this.finished(await this.work(vscode.l10n.t('research'), runResearchRequest, { goal: goal ?? 'auto' }));
  }

  /**
   * Runs the reviewed plan of run `runId` (status `planned`; its plan.json, edited or not):
   * that run goes on, no new run is made.
   * @throws ResearchServiceError `not-planned` when the run has run already (its status says how it ended), `no-run` when there is no such run.
   */
  async runPlanned(runId: string): Promise<ResearchRunResult> {
    this.requireCorpus();
    return this.finished(await this.work(vscode.l10n.t('research'), runPlannedRequest, { runId }));
  }

  /**
   * The runs Resume can take, newest first: cancelled, failed or partial, and `running` ones
   * the engine is not running (a crashed or killed runner; core refuses one that a live
   * process still holds, naming it).
   */
  get resumableRuns(): readonly RunManifest[] {
    const ids = new Set(this.snap.resumable);
    return this.snap.runs.filter((m) => ids.has(m.run_id));
  }

  /**
   * Resumes a persisted run (SPEC §6): finished steps are kept, pending, failed and
   * interrupted ones run, then the report is written again. Progress, cancel and live
   * step statuses as for a run.
   * @throws Error (core's RunLockedError message) when another live process runs it.
   */
  async resume(runId: string): Promise<ResearchRunResult> {
    this.requireCorpus();
    return this.finished(await this.work(vscode.l10n.t('resuming research {0}', runId), resumeResearchRequest, { runId }));
  }

  /** Path of the report of `runId` (default: the run shown, else the latest run with a report). */
  reportPath(runId?: string): string {
    const root = this.requireCorpus();
    const shown = this.snap.shown;
    const manifest = runId ? this.snap.runs.find((r) => r.run_id === runId) : shown?.report ? shown : this.snap.runs.find((r) => r.report);
    if (!manifest) throw new ResearchServiceError('no-run', runId ? vscode.l10n.t('no run "{0}" in this corpus.', runId) : vscode.l10n.t('no research run has a report yet; run "Marker Research: Run Research" first.'));
    if (!manifest.report) throw new ResearchServiceError('no-report', vscode.l10n.t('run {0} has no report ({1}).', manifest.run_id, manifest.status));
    return path.join(root, '.marker-research', 'runs', manifest.run_id, 'report.md');
  }

  /** A partial or failed run says so, with its cause (the engine logged it and put it in the view). */
  private finished(result: ResearchRunResult): ResearchRunResult {
    const m = result.manifest;
    if (result.failure) {
      const showLogs = vscode.l10n.t('Show Logs');
      const text = m.status === 'failed' ? vscode.l10n.t('Marker Research: research failed — {0}', result.failure) : vscode.l10n.t('Marker Research: research only partly succeeded — {0}', result.failure);
      void vscode.window.showErrorMessage(text, showLogs).then((pick) => {
        if (pick === showLogs) this.log.show();
      });
    }
    return result;
  }

  /** The root of the indexed corpus; `no-corpus` before any index. */
  private requireCorpus(): string {
    const root = this.corpus.root;
    if (!root) throw new ResearchServiceError('no-corpus', vscode.l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    return root;
  }

  /** Asks the engine for the research snapshot (re-reading the runs, showing `runId`). */
  private async fetch(params: ResearchStateParams): Promise<void> {
    try {
      this.apply(await this.client.request(researchStateRequest, params));
    } catch (e) {
      throw researchError(e);
    }
  }

  /** One research request as long work: the model access, a cancellable progress notification, research refusals as {@link ResearchServiceError}. */
  private async work<P extends WorkDoneProgressParams & ModelAccess, R>(title: string, type: RequestType<P, R, void>, params: Omit<P, 'workDoneToken' | keyof ModelAccess>): Promise<R> {
    const settings = this.settings.value;
    const access: ModelAccess = { settings, ...(settings.provider === 'extractive' ? {} : { apiKey: await this.apiKey.get() }) };
    const engine = settings.provider === 'extractive' ? 'extractive' : settings.provider;
    try {
      return await this.client.work(`Marker Research: ${vscode.l10n.t('{0} ({1})', title, engine)}`, type, { ...params, ...access } as Omit<P, 'workDoneToken'>);
    } catch (e) {
      throw researchError(e);
    }
  }

  private apply(snapshot: ResearchSnapshot): void {
    this.snap = snapshot;
    this.changed.fire(snapshot.state);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.changed.dispose();
    this.stepChanged.dispose();
  }
}
