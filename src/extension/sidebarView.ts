/**
 * The Marker Research sidebar: its webview views and one place to feed them.
 * The container holds **Corpus & Markers** (`markerResearch.items`, corpusView.ts)
 * and **Research** (`markerResearch.research`, researchView.ts), each a webview
 * view the user can collapse, resize and reorder. {@link SidebarViewProvider}
 * registers both and routes the extension's updates to the view that shows them.
 */
import * as vscode from 'vscode';
import type { ProgressUpdate } from '../core/util/abort';
import type { SerializedSidebarState } from '../shared/lspProtocol';
import type { ResearchState, ResearchStepStatus, SidebarState } from '../shared/webviewProtocol';
import { CorpusViewProvider } from './corpusView';
import type { AskMessage, SidebarActions, ViewActions } from './sidebarActions';
import { ResearchViewProvider } from './researchView';

export type { AskMessage, SidebarActions, SidebarGoal, SidebarQuestion, ViewActions } from './sidebarActions';

export class SidebarViewProvider implements vscode.Disposable {
  /** The main view: the one "Ask the Corpus" focuses and progress of questions is shown on. */
  static readonly viewId = CorpusViewProvider.viewId;
  static readonly researchViewId = ResearchViewProvider.viewId;
  readonly corpusView: CorpusViewProvider;
  readonly researchView: ResearchViewProvider;

  constructor(extensionUri: vscode.Uri, actions: SidebarActions, log: vscode.LogOutputChannel) {
    const all: ViewActions = {
      ...actions,
      resumeResearch: actions.resumeResearch?.bind(actions) ?? (async (runId) => void (await vscode.commands.executeCommand('markerResearch.resumeResearch', { runId }))),
      openModelSettings:
        actions.openModelSettings?.bind(actions) ??
        (async () => void (await vscode.commands.executeCommand('markerResearch.useModel').then(undefined, () => vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch.')))),
    };
    this.corpusView = new CorpusViewProvider(extensionUri, all, log);
    this.researchView = new ResearchViewProvider(extensionUri, all, log);
  }

  /** Registers the webview views of the container (add the result to `context.subscriptions`). */
  register(): vscode.Disposable[] {
    return [
      vscode.window.registerWebviewViewProvider(CorpusViewProvider.viewId, this.corpusView),
      vscode.window.registerWebviewViewProvider(ResearchViewProvider.viewId, this.researchView),
    ];
  }

  /** Replaces the corpus state (items, markers, problems); the Research view hears whether there is a corpus with markers. */
  setState(state: SidebarState): void {
    this.corpusView.setState(state);
    this.researchView.setCorpus({ status: state.status, items: state.items.length, itemsWithMarkers: state.items.filter((i) => i.markers).length });
  }

  setLoading(message: string): void {
    this.corpusView.setLoading(message);
  }

  /** Replaces the Corpus & Markers view's state with the engine's serialised one (passed along unparsed). */
  setSerializedState(state: SerializedSidebarState): void {
    this.corpusView.setStateJson(state.json);
    this.researchView.setCorpus({ status: state.status, items: state.items, itemsWithMarkers: state.itemsWithMarkers });
  }

  /** Progress of a long operation (marker generation), shown under the status line. */
  setProgress(update: ProgressUpdate, what: string): void {
    this.corpusView.setProgress(update, what);
  }

  /** Replaces the research section (goals, the run shown, earlier runs). */
  setResearch(research: ResearchState): void {
    this.researchView.setResearch(research);
  }

  /** One step's live status (cheap: the webview updates that row only). */
  setStepStatus(runId: string, stepId: string, status: ResearchStepStatus): void {
    this.researchView.setStepStatus(runId, stepId, status);
  }

  /** True once the Corpus & Markers view said `ready` (and until it is disposed). */
  get isReady(): boolean {
    return this.corpusView.isReady;
  }

  /** Resolves true when the Corpus & Markers view is ready, false after `ms`. */
  whenReady(ms: number): Promise<boolean> {
    return this.corpusView.whenReady(ms);
  }

  /** Progress, result or error of a question of the Ask box. */
  postAsk(msg: AskMessage): void {
    this.corpusView.postAsk(msg);
  }

  /** Focuses the Ask box; with a question, puts it there and asks it (session and scope are the box's). Waits for `ready` when needed. */
  focusAsk(question: string | null): void {
    this.corpusView.focusAsk(question);
  }

  dispose(): void {
    this.corpusView.dispose();
    this.researchView.dispose();
  }
}
