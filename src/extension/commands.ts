/** Every command of the extension, in one map registered by `activate`. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ExportError } from '../core/export/exportFiles';
import type { RunResult } from '../core/research/pipeline';
import { plannedRunChoice } from '../core/research/runChoice';
import { CancelledError } from '../core/util/abort';
import { AskServiceError, type AskService } from './askService';
import { ChatServiceError, runIdOfReport, type ChatService } from './chatService';
import { ChatViewProvider, type ChatActions } from './chatView';
import type { CorpusService } from './corpusService';
import { ENGINE_RESTARTED, EngineRequestError, type CorpusLanguageClient } from './languageClient';
import type { EvidenceNavigator } from './evidenceNavigator';
import type { FullItemDocuments } from './fullItemDocuments';
import type { ApiKeyStore } from './apiKeyStore';
import { itemFiles, MarkerServiceError, type MarkerService } from './markerService';
import { ExportService, runIdArg } from './exportService';
import { openWalkthrough, setUpModel } from './gettingStarted';
import { ResearchServiceError, type GoalChoice, type ResearchService } from './researchService';
import { runningWork } from './runningWork';
import type { SettingsService } from './settings';
import type { SidebarGoal, SidebarViewProvider } from './sidebarView';

export interface Services {
  log: vscode.LogOutputChannel;
  settings: SettingsService;
  corpus: CorpusService;
  sidebar: SidebarViewProvider;
  client: CorpusLanguageClient;
  markers: MarkerService;
  evidence: EvidenceNavigator;
  fullItems: FullItemDocuments;
  apiKey: ApiKeyStore;
  research: ResearchService;
  ask: AskService;
  chat: ChatService;
  chatView: ChatViewProvider;
}

/**
 * What the research commands take: `{ goal }` from the sidebar (no prompt; no
 * goal = the plan shown, else an automatic goal), nothing from the palette (asks).
 */
function researchArg(arg: unknown): { goal: SidebarGoal | undefined } | undefined {
  if (!arg || typeof arg !== 'object' || !('goal' in arg)) return undefined;
  const g = (arg as { goal: unknown }).goal;
  if (g && typeof g === 'object' && 'goalId' in g && typeof g.goalId === 'string') return { goal: { goalId: g.goalId } };
  if (g && typeof g === 'object' && 'text' in g && typeof g.text === 'string') return { goal: { text: g.text } };
  return { goal: undefined };
}


/** Posts the current state to the sidebar, as the engine serialised it; false before the first index. */
export function refreshSidebar(s: Pick<Services, 'markers' | 'sidebar'>): boolean {
  const state = s.markers.serializedState;
  if (state) s.sidebar.setSerializedState(state);
  return state !== undefined;
}

/** The item id a command was given: a string, or `{ itemId }` (the webview's context menu passes its `data-vscode-context`). */
function itemIdArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (arg && typeof arg === 'object' && 'itemId' in arg && typeof arg.itemId === 'string' && arg.itemId) return arg.itemId;
  return undefined;
}

export type CommandMap = Record<string, (...args: unknown[]) => unknown>;

/** Shows an error with a "Show Logs" action. */
export async function showError(log: vscode.LogOutputChannel, message: string): Promise<void> {
  log.error(message);
  const showLogs = vscode.l10n.t('Show Logs');
  const pick = await vscode.window.showErrorMessage(`Marker Research: ${message}`, showLogs);
  if (pick === showLogs) log.show();
}

export function createCommands(s: Services): CommandMap {
  const indexCorpus = async (): Promise<void> => {
    const root = s.settings.corpusRoot();
    if (!root) {
      const openFolder = vscode.l10n.t('Open Folder');
      const openSettings = vscode.l10n.t('Open Settings');
      const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: open a corpus folder first, or set "markerResearch.corpusPath".'), openFolder, openSettings);
      if (pick === openFolder) await vscode.commands.executeCommand('vscode.openFolder');
      if (pick === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch.corpusPath');
      return;
    }
    s.sidebar.setLoading(vscode.l10n.t('Indexing {0}…', path.basename(root)));
    try {
      const indexed = await s.corpus.load(root);
      await s.markers.refresh();
      const issues = indexed.problems;
      if (issues) {
        const text = issues === 1
          ? vscode.l10n.t('Marker Research: indexed {0} items; 1 problem in the corpus files.', indexed.items)
          : vscode.l10n.t('Marker Research: indexed {0} items; {1} problems in the corpus files.', indexed.items, issues);
        void vscode.window.showWarningMessage(text, vscode.l10n.t('Show Problems')).then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
      }
    } catch (e) {
      if (!refreshSidebar(s)) s.sidebar.setState({ status: 'error', message: vscode.l10n.t('Indexing did not finish.'), markersMessage: null, generating: false, corpusRoot: root, items: [], problems: [] });
      if (e instanceof CancelledError) {
        s.log.info('indexing cancelled');
        return;
      }
      if (e instanceof EngineRequestError && e.reason === ENGINE_RESTARTED) return void s.log.warn(`indexing ${root}: ${e.message}`); // the restart indexes again
      await showError(s.log, vscode.l10n.t('indexing {0} failed: {1}', root, (e as Error).message));
      return;
    }
    // Markers: the ones on disk, and (markersOnIndex + extractive) the missing ones. Failing here never fails the index.
    if (s.corpus.current) await markerBoundary(vscode.l10n.t('generating missing markers'), () => s.markers.afterIndex());
  };

  /** Runs a marker action, turning its failures into messages (cancel is not a failure). */
  const markerBoundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof CancelledError) return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: marker generation cancelled; markers of the items that finished are kept.'));
      // Refusals the user can act on, from this side or the engine's (same reasons, same messages).
      const refusal = e instanceof MarkerServiceError || e instanceof EngineRequestError ? e : undefined;
      const text = (e as Error).message.replace(/^markers: /, '');
      if (refusal && (refusal.reason === 'bad-settings' || refusal.reason === 'no-api-key')) {
        s.log.warn(refusal.message);
        const setKey = vscode.l10n.t('Set API Key');
        const openSettings = vscode.l10n.t('Open Settings');
        const pick = await vscode.window.showWarningMessage(`Marker Research: ${text}`, refusal.reason === 'no-api-key' ? setKey : openSettings);
        if (pick === setKey) await vscode.commands.executeCommand('markerResearch.setApiKey');
        if (pick === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch');
        return;
      }
      if (refusal?.reason === 'busy') return void vscode.window.showInformationMessage(`Marker Research: ${text}`);
      // The engine crashed under this work: the restart says so once (languageClient.onDidRestart).
      if (refusal?.reason === ENGINE_RESTARTED) return void s.log.warn(`${what}: ${text}`);
      if (refusal && ['no-corpus', 'not-found', 'outside-corpus'].includes(refusal.reason)) {
        s.log.warn(`${what}: ${text}`);
        return void vscode.window.showWarningMessage(`Marker Research: ${text}`);
      }
      await showError(s.log, vscode.l10n.t('{0} failed: {1}', what, (e as Error).message));
    }
  };

  const generateMarkers = async (): Promise<void> => {
    if (!s.corpus.current) {
      await indexCorpus();
      if (!s.corpus.current) return;
    }
    await markerBoundary(vscode.l10n.t('generating markers'), async () => {
      const report = await s.markers.generate('all');
      if (!report) return;
      const { markers, grounded } = report;
      const summary = vscode.l10n.t('{0} markers for {1} items ({2} generated, {3} unchanged), {4} grounded', markers, report.items - report.failed, report.generated, report.cached, grounded);
      if (report.failed) {
        const showLogs = vscode.l10n.t('Show Logs');
        const failed = report.failed === 1 ? vscode.l10n.t('Marker Research: {0}; 1 item failed.', summary) : vscode.l10n.t('Marker Research: {0}; {1} items failed.', summary, report.failed);
        const pick = await vscode.window.showWarningMessage(failed, showLogs);
        if (pick === showLogs) s.log.show();
      } else if (!report.generated && report.engine === 'extractive') {
        // Nothing changed: the extractive engine gives the same markers for the same text. Say so, and where richer ones come from.
        const useAModel = vscode.l10n.t('Use a Model…');
        const gettingStarted = vscode.l10n.t('Getting Started');
        const pick = await vscode.window.showInformationMessage(
          vscode.l10n.t('Marker Research: the markers of all {0} items are up to date ({1} markers, extractive engine: the same text gives the same markers). A model writes richer markers, goals and reports.', report.items, markers),
          useAModel,
          gettingStarted,
        );
        if (pick === useAModel) await useModel();
        if (pick === gettingStarted) await openWalkthrough('model');
      } else if (!report.generated) {
        void vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Marker Research: the markers of all {0} items are up to date ({1}); {2} markers, {3} grounded', report.items, `${report.engine}${report.model ? ` ${report.model}` : ''}`, markers, grounded)}`, 10_000);
      } else void vscode.window.setStatusBarMessage(`$(check) Marker Research: ${summary}`, 10_000);
    });
  };

  /** "Use a Model…": provider, base URL, model and API key; then offers to generate markers with it. */
  const useModel = async (): Promise<void> => {
    if (!(await setUpModel(s.apiKey, s.log))) return;
    const model = vscode.workspace.getConfiguration('markerResearch').get<string>('model', '');
    const generate = vscode.l10n.t('Generate Markers');
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: markers, goals and reports now come from {0}. Generate the markers with it now?', model), generate);
    if (pick === generate) await generateMarkers();
  };

  const openMarker = async (itemId: unknown, markerId: unknown): Promise<void> => {
    if (typeof itemId !== 'string' || typeof markerId !== 'string') return;
    await markerBoundary(vscode.l10n.t('opening the marker'), () => s.evidence.open(itemId, markerId));
  };

  /** Asks for an item when a command was run from the palette. */
  const pickItem = async (placeHolder: string): Promise<string | undefined> => {
    if (!s.corpus.current) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: no corpus is indexed; run "Marker Research: Index Corpus" first.'));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      s.markers.items.map((it) => ({ label: it.title, description: it.id, detail: itemFiles(it), id: it.id })),
      { placeHolder, matchOnDescription: true },
    );
    return pick?.id;
  };

  const retrieveFullItem = async (arg?: unknown): Promise<void> => {
    const itemId = itemIdArg(arg) ?? (await pickItem(vscode.l10n.t('Item to open in full (transcript and every comment)')));
    if (!itemId) return;
    await markerBoundary(vscode.l10n.t('retrieving the full item'), () => s.fullItems.open(itemId));
  };

  const setApiKey = async (): Promise<void> => {
    const had = (await s.apiKey.get()) !== undefined;
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Marker Research: Set API Key'),
      prompt: had
        ? vscode.l10n.t('API key for the model provider, kept in VS Code\'s secret storage (never in settings or logs). A key is stored: a new one replaces it; run "Clear API Key" to remove it.')
        : vscode.l10n.t('API key for the model provider, kept in VS Code\'s secret storage (never in settings or logs).'),
      password: true,
      ignoreFocusOut: true,
      placeHolder: had ? vscode.l10n.t('Enter a new key to replace the stored one') : 'sk-…',
      validateInput: (v) => (v.trim() && /\s/.test(v.trim()) ? vscode.l10n.t('An API key has no spaces.') : undefined),
    });
    if (key === undefined || !key.trim()) return;
    await s.apiKey.set(key.trim());
    s.log.info('API key stored in secret storage');
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: API key stored in secret storage.'));
  };

  const clearApiKey = async (): Promise<void> => {
    if ((await s.apiKey.get()) === undefined) return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: no API key is stored.'));
    const remove = vscode.l10n.t('Remove');
    const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: remove the stored API key?'), { modal: true }, remove);
    if (pick !== remove) return;
    await s.apiKey.clear();
    s.log.info('API key removed from secret storage');
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: API key removed.'));
  };

  const openItem = async (itemId: unknown, part: unknown = 'transcript'): Promise<void> => {
    const item = s.markers.items.find((it) => it.id === itemId);
    const root = s.markers.sidebarState?.corpusRoot;
    if (!item || !root) return showError(s.log, vscode.l10n.t('no item "{0}" in the indexed corpus; run Index Corpus again.', String(itemId)));
    const file = (part === 'comments' ? item.commentsFile : item.transcriptFile) ?? item.transcriptFile ?? item.commentsFile;
    if (!file) return;
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root, file)), { preview: true });
  };

  const openProblem = async (index: unknown): Promise<void> => {
    const state = s.markers.sidebarState;
    const p = typeof index === 'number' ? state?.problems[index] : undefined;
    if (!state?.corpusRoot || !p) return;
    const uri = vscode.Uri.file(path.isAbsolute(p.file) ? p.file : path.join(state.corpusRoot, p.file));
    const pos = new vscode.Position(Math.max(0, (p.line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
  };

  // ---- research ---------------------------------------------------------------------------

  /** Runs a research action, turning its failures into messages (cancel is not a failure). */
  const researchBoundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof CancelledError) return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: research cancelled; finished steps are kept (the run can be resumed).'));
      if (e instanceof ResearchServiceError) {
        s.log.info(e.message);
        return void vscode.window.showInformationMessage(`Marker Research: ${e.message.replace(/^research: /, '')}`);
      }
      await markerBoundary(what, () => Promise.reject(e));
    }
  };

  /** Research needs an indexed corpus: index first when there is none. */
  const ensureCorpus = async (): Promise<boolean> => {
    if (!s.corpus.current) await indexCorpus();
    return s.corpus.current !== undefined;
  };

  /** Asks for a goal (palette): the plan shown, an automatic goal, the discovered goals, or one typed. */
  const askGoal = async (forRun: boolean): Promise<GoalChoice | 'plan' | undefined> => {
    type Pick = vscode.QuickPickItem & { choice: GoalChoice | 'plan' | 'type' };
    const shown = s.research.shownRun;
    const picks: Pick[] = [];
    if (forRun && shown?.manifest.status === 'planned') picks.push({ label: `$(play) ${vscode.l10n.t('Run the plan shown in the sidebar')}`, description: shown.manifest.goal, choice: 'plan' });
    picks.push({ label: `$(sparkle) ${vscode.l10n.t('Automatic goal')}`, description: vscode.l10n.t('the top goal the markers support'), choice: 'auto' });
    for (const g of s.research.currentGoals) picks.push({ label: g.title, description: g.goal_id, detail: g.rationale, choice: { goalId: g.goal_id } });
    picks.push({ label: `$(edit) ${vscode.l10n.t('Type a goal…')}`, choice: 'type' });
    const pick = await vscode.window.showQuickPick(picks, { title: forRun ? vscode.l10n.t('Marker Research: Run Research') : vscode.l10n.t('Marker Research: Plan Research'), placeHolder: vscode.l10n.t('Research goal'), matchOnDescription: true });
    if (!pick) return undefined;
    if (pick.choice !== 'type') return pick.choice;
    const text = await vscode.window.showInputBox({ title: vscode.l10n.t('Marker Research: research goal'), prompt: vscode.l10n.t('What should the research find out?'), ignoreFocusOut: true, validateInput: (v) => (v.trim().length < 3 ? vscode.l10n.t('A goal of a few words, at least.') : undefined) });
    return text?.trim() ? { text: text.trim() } : undefined;
  };

  /** Shows the research section: the Research view, or the sidebar when there is no such view. */
  const focusResearch = async (): Promise<void> => {
    await vscode.commands.executeCommand('markerResearch.research.focus').then(undefined, () => vscode.commands.executeCommand('markerResearch.items.focus'));
  };

  const discoverGoals = async (): Promise<void> => {
    if (!(await ensureCorpus())) return;
    await researchBoundary(vscode.l10n.t('discovering goals'), async () => {
      const goals = await s.research.discoverGoals();
      await focusResearch();
      void vscode.window.setStatusBarMessage(`$(lightbulb) ${vscode.l10n.t('Marker Research: {0} research goals proposed (see the sidebar)', goals.length)}`, 10_000);
    });
  };

  const planResearch = async (arg?: unknown): Promise<void> => {
    if (!(await ensureCorpus())) return;
    const given = researchArg(arg);
    const goal = given ? (given.goal ?? 'auto') : await askGoal(false);
    if (!goal || goal === 'plan') return;
    await researchBoundary(vscode.l10n.t('planning research'), async () => {
      const r = await s.research.plan(goal);
      await focusResearch();
      const steps = Object.keys(r.manifest.steps).length;
      // No buttons: a notification outlives its run (VS Code cannot close it), and a live "Run Research" on a run already done misleads.
      // The plan waits in the Research view, whose ▷ Run runs this run.
      const planFile = path.join(path.basename(r.runDir), 'plan.json');
      void vscode.window.showInformationMessage(
        steps === 1
          ? vscode.l10n.t('Marker Research: planned 1 step (run {0}); review it in the Research view, then press ▷ Run (the plan\'s file: {1}).', r.runId, planFile)
          : vscode.l10n.t('Marker Research: planned {0} steps (run {1}); review them in the Research view, then press ▷ Run (the plan\'s file: {2}).', steps, r.runId, planFile),
      );
    });
  };

  /** Says a run is done, with its report one click away. */
  const sayDone = async (r: RunResult): Promise<void> => {
    // A partial or failed run has already said so with its cause (an error with Show Logs); its fallback report can still be opened.
    if (!r.reportPath || r.manifest.status !== 'done') return;
    const open = vscode.l10n.t('Open Report');
    const preview = vscode.l10n.t('Open Preview');
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: research done (run {0}); the report is ready.', r.runId), open, preview);
    if (pick === open) await openReport(r.runId);
    if (pick === preview) await openReportPreview(r.runId);
  };

  /** Runs the reviewed plan of `runId` (never a fresh run in its place). */
  const runPlanned = async (runId: string): Promise<void> => {
    await researchBoundary(vscode.l10n.t('research'), async () => sayDone(await s.research.runPlanned(runId)));
  };

  /**
   * "Run Research": with a reviewed plan waiting (a planned run), the same goal — or an empty
   * goal box — runs that plan; a different goal asks first (run the plan, or a new run for the
   * new goal). Without a plan waiting, a new run for the goal (none: the automatic goal).
   */
  const runResearch = async (arg?: unknown): Promise<void> => {
    if (!(await ensureCorpus())) return;
    const given = researchArg(arg);
    const goal = given ? given.goal : await askGoal(true);
    if (!given && goal === undefined) return;
    const planned = s.research.plannedRun;
    if (goal === 'plan') {
      if (planned) return runPlanned(planned.run_id);
      return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: no plan is waiting to run any more; run Plan Research or pick a goal.'));
    }
    if (planned && goal !== 'auto') {
      const text = goal === undefined ? undefined : s.research.goalText(goal);
      const choice = plannedRunChoice(text, planned);
      if (choice === 'run-planned') return runPlanned(planned.run_id);
      if (choice === 'ask') {
        const runIt = vscode.l10n.t('Run the Planned Run');
        const fresh = vscode.l10n.t('Start a New Run');
        const pick = await vscode.window.showWarningMessage(
          vscode.l10n.t('Marker Research: a reviewed plan is waiting to run, for another goal.'),
          { modal: true, detail: vscode.l10n.t('Planned (run {0}): "{1}"\n\nNew goal: "{2}"\n\nRun the planned run as reviewed, or start a new run (it plans the new goal again; the planned run stays).', planned.run_id, planned.goal, text ?? '') },
          runIt,
          fresh,
        );
        if (pick === runIt) return runPlanned(planned.run_id);
        if (pick !== fresh) return;
      }
    }
    await researchBoundary(vscode.l10n.t('research'), async () => sayDone(await s.research.run(goal ?? 'auto')));
  };

  const openReport = async (arg?: unknown): Promise<void> => {
    let runId = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && 'runId' in arg && typeof arg.runId === 'string' ? arg.runId : undefined;
    if (!runId && arg === undefined && s.research.runManifests.filter((r) => r.report).length > 1) {
      const pick = await vscode.window.showQuickPick(
        s.research.runManifests.filter((r) => r.report).map((r) => ({ label: r.goal, description: `${r.run_id} · ${r.status}`, detail: `${r.complexity} · ${r.engine}${r.model ? ` ${r.model}` : ''}`, runId: r.run_id })),
        { title: vscode.l10n.t('Marker Research: Open Report'), placeHolder: vscode.l10n.t('The report of which run? (newest first; type a goal or a run id)'), matchOnDescription: true },
      );
      if (!pick) return;
      runId = pick.runId;
    }
    await researchBoundary(vscode.l10n.t('opening the report'), async () => {
      if (!s.corpus.current && !(await ensureCorpus())) return;
      const file = s.research.reportPath(runId);
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      s.log.info(`opened the report ${file}`);
    });
  };

  // ---- export and the report preview --------------------------------------------------------

  const exports = new ExportService(s.log, s.corpus, s.research, s.client);

  /** Runs an export, turning its failures into messages. */
  const exportBoundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof ExportError || e instanceof ResearchServiceError) {
        s.log.info(e.message);
        return void vscode.window.showInformationMessage(`Marker Research: ${e.message.replace(/^(?:export|research): /, '')}`);
      }
      await showError(s.log, vscode.l10n.t('{0} failed: {1}', what, (e as Error).message));
    }
  };

  const exportMarkers = async (): Promise<void> => {
    if (!(await ensureCorpus())) return;
    await exportBoundary(vscode.l10n.t('exporting markers'), () => exports.exportMarkers());
  };

  const exportReport = async (arg?: unknown): Promise<void> => {
    if (!(await ensureCorpus())) return;
    await exportBoundary(vscode.l10n.t('exporting the report'), () => exports.exportReport(runIdArg(arg)));
  };

  /** "Open Report Preview": the report in the Markdown preview beside its editor, citations linked to their spans. */
  const openReportPreview = async (arg?: unknown): Promise<void> => {
    if (!(await ensureCorpus())) return;
    await exportBoundary(vscode.l10n.t('opening the report preview'), () => exports.openReportPreview(runIdArg(arg)));
  };

  /**
   * "Resume Research" (SPEC §6): a run id (a string, or `{ runId }` from the sidebar's Resume
   * button), else a pick of the resumable runs (newest first). Progress, cancel and live step
   * statuses as for Run Research; a run another live process holds is refused with its holder.
   */
  const resumeResearch = async (arg?: unknown): Promise<void> => {
    let runId = typeof arg === 'string' && arg ? arg : arg && typeof arg === 'object' && 'runId' in arg && typeof arg.runId === 'string' && arg.runId ? arg.runId : undefined;
    if (!(await ensureCorpus())) return;
    if (!runId) {
      const corpus = s.corpus.current;
      if (corpus) await s.research.reload(corpus.root); // runs another process left since the last look
      const runs = s.research.resumableRuns;
      if (!runs.length) return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: no run to resume (no run is cancelled, failed, partial or interrupted).'));
      const pick = await vscode.window.showQuickPick(
        runs.map((r) => {
          const steps = Object.values(r.steps);
          const done = steps.filter((x) => x === 'done').length;
          return { label: r.goal, description: `${r.run_id} · ${r.status}`, detail: `${vscode.l10n.t('{0}/{1} steps done', done, steps.length)} · ${r.complexity} · ${r.engine}${r.model ? ` ${r.model}` : ''} · ${r.created_at}`, runId: r.run_id };
        }),
        { title: vscode.l10n.t('Marker Research: Resume Research'), placeHolder: vscode.l10n.t('The run to resume (newest first; type a goal or a run id). Finished steps are kept.'), matchOnDescription: true },
      );
      if (!pick) return;
      runId = pick.runId;
    }
    const id = runId;
    await researchBoundary(vscode.l10n.t('resuming the run'), async () => {
      const r = await s.research.resume(id);
      // A partial or failed run has already said so with its cause (an error with Show Logs).
      if (!r.reportPath || r.manifest.status !== 'done') return;
      const open = vscode.l10n.t('Open Report');
      const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: run {0} resumed and done; the report is ready.', r.runId), open);
      if (pick === open) await openReport(r.runId);
    });
  };

  const showRun = async (runId: unknown): Promise<void> => {
    if (typeof runId !== 'string') return;
    await researchBoundary(vscode.l10n.t('showing the run'), () => s.research.showRun(runId));
  };

  // ---- ask the corpus ---------------------------------------------------------------------

  /**
   * "Ask the Corpus": focuses the sidebar's Ask box. With a question (a string,
   * or `{ question }`) it goes into the box and is asked there, with the box's
   * scope and session. When the view does not come up, the question is taken
   * from an input box and asked as soon as it does.
   */
  const askCorpus = async (arg?: unknown): Promise<void> => {
    const given = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && 'question' in arg && typeof arg.question === 'string' ? arg.question : '';
    if (!(await ensureCorpus())) return;
    await vscode.commands.executeCommand('markerResearch.items.focus');
    if (given.trim()) return s.sidebar.focusAsk(given.trim().slice(0, 2000));
    if (await s.sidebar.whenReady(5_000)) return s.sidebar.focusAsk(null);
    s.log.warn('ask: the sidebar did not open within 5 s; asking for the question in an input box');
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Marker Research: Ask the Corpus'),
      prompt: vscode.l10n.t('A question about the corpus: who said what, when, what viewers think, … (answered in the sidebar)'),
      placeHolder: vscode.l10n.t('e.g. what does the panel say about commuting?'),
      ignoreFocusOut: true,
    });
    if (typed?.trim()) s.sidebar.focusAsk(typed.trim().slice(0, 2000));
  };

  /** Opens a hit of the Ask box (from the sidebar), turning failures into messages. */
  const openHit = async (itemId: unknown, part: unknown, start: unknown, end: unknown): Promise<void> => {
    if (typeof itemId !== 'string' || (part !== 'transcript' && part !== 'comments') || typeof start !== 'number' || typeof end !== 'number') return;
    try {
      await s.ask.openHit(itemId, part, start, end);
    } catch (e) {
      if (e instanceof AskServiceError) {
        s.log.warn(e.message);
        return void vscode.window.showWarningMessage(`Marker Research: ${e.message.replace(/^ask: /, '')}`);
      }
      await showError(s.log, vscode.l10n.t('opening the hit failed: {0}', (e as Error).message));
    }
  };

  // ---- follow-up chat ----------------------------------------------------------------------

  /**
   * "Ask Follow-up": the Chat view. Takes a run id (a string, or `{ runId }`,
   * null for the whole corpus) and an optional `{ question }` to ask at once;
   * without a run: the report in the active editor, else what the view showed
   * last, else the run shown in the sidebar (or the newest with a report).
   */
  const askFollowup = async (arg?: unknown): Promise<void> => {
    const o = arg && typeof arg === 'object' ? (arg as { runId?: unknown; question?: unknown }) : {};
    const given = typeof arg === 'string' ? arg : typeof o.runId === 'string' || o.runId === null ? o.runId : undefined;
    const question = typeof o.question === 'string' && o.question.trim() ? o.question.trim().slice(0, 2000) : null;
    if (!(await ensureCorpus())) return;
    const fromEditor = runIdOfReport(vscode.window.activeTextEditor?.document.uri);
    if (given !== undefined) await s.chat.attach(given);
    else if (fromEditor) await s.chat.attach(fromEditor);
    else await s.chat.showDefault(s.chat.defaultRunId());
    await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
    if (question) return s.chatView.focusInput(question);
    if (await s.chatView.whenReady(5_000)) s.chatView.focusInput(null);
  };

  /** "Ask about this report" (the report's editor title, or the palette with a report open). */
  const askAboutReport = async (arg?: unknown): Promise<void> => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const runId = runIdOfReport(uri);
    if (!runId) return void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: open a research report (report.md of a run) to ask about it, or run "Marker Research: Ask Follow-up".'));
    await askFollowup({ runId });
  };

  const newConversation = async (): Promise<void> => {
    await s.chat.newConversation(s.chat.runId);
    if (await s.chatView.whenReady(2_000)) s.chatView.focusInput(null);
  };

  const cancel = (): void => {
    const n = runningWork.cancelAll();
    // The engine aborts whatever it runs too (work started before a restart of the client's notifications, say).
    s.client.cancelAll().catch((e: Error) => s.log.warn(`cancel: the engine did not take it: ${e.message}`));
    s.log.info(n ? `cancel: asked ${n} running operation${n > 1 ? 's' : ''} to stop` : 'cancel: nothing is running');
    if (!n) void vscode.window.setStatusBarMessage(vscode.l10n.t('Marker Research: nothing is running.'), 5_000);
  };

  return {
    'markerResearch.discoverGoals': discoverGoals,
    'markerResearch.planResearch': planResearch,
    'markerResearch.runResearch': runResearch,
    'markerResearch.resumeResearch': resumeResearch,
    'markerResearch.openReport': openReport,
    'markerResearch.showRun': showRun,
    'markerResearch.cancel': cancel,
    'markerResearch.indexCorpus': indexCorpus,
    'markerResearch.openItem': openItem,
    'markerResearch.openProblem': openProblem,
    'markerResearch.generateMarkers': generateMarkers,
    'markerResearch.openMarker': openMarker,
    'markerResearch.retrieveFullItem': retrieveFullItem,
    'markerResearch.setApiKey': setApiKey,
    'markerResearch.clearApiKey': clearApiKey,
    'markerResearch.showLogs': () => s.log.show(),
    'markerResearch.askCorpus': askCorpus,
    'markerResearch.openHit': openHit,
    'markerResearch.askFollowup': askFollowup,
    'markerResearch.askAboutReport': askAboutReport,
    'markerResearch.newConversation': newConversation,
    'markerResearch.exportMarkers': exportMarkers,
    'markerResearch.exportReport': exportReport,
    'markerResearch.openReportPreview': openReportPreview,
    'markerResearch.gettingStarted': () => openWalkthrough(),
    'markerResearch.useModel': useModel,
  };
}

/** What the Chat view's buttons do, with failures turned into messages. */
export function createChatActions(s: Pick<Services, 'log' | 'chat'>): ChatActions {
  const boundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof ChatServiceError || (e instanceof Error && e.message.startsWith('chat: '))) {
        s.log.warn(e.message);
        return void vscode.window.showWarningMessage(`Marker Research: ${e.message.replace(/^chat: /, '')}`);
      }
      await showError(s.log, vscode.l10n.t('{0} failed: {1}', what, (e as Error).message));
    }
  };
  return {
    state: () => s.chat.state(),
    ask: (conversationId, question) => boundary(vscode.l10n.t('asking'), () => s.chat.askQuestion(conversationId, question)),
    stop: () => s.chat.stop(),
    newConversation: (runId) => boundary(vscode.l10n.t('starting a conversation'), () => s.chat.newConversation(runId)),
    openConversation: (id) => boundary(vscode.l10n.t('opening the conversation'), () => s.chat.open(id)),
    openCitation: (conversationId, n) => boundary(vscode.l10n.t('opening the citation'), () => s.chat.openCitation(conversationId, n)),
    openReport: async (runId) => void (await vscode.commands.executeCommand('markerResearch.openReport', runId)),
  };
}
