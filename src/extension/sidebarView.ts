/**
 * The "Corpus" webview view in the Marker Research container. Talks to its
 * webview only through the typed protocol in src/shared/webviewProtocol.ts.
 */
import * as vscode from 'vscode';
import { webviewPage, whenReady } from './webviewHost';
import type { ProgressUpdate } from '../core/util/abort';
import { webviewToHostSchema, type HostToWebview, type ResearchState, type ResearchStepStatus, type SidebarState, type WebviewToHost } from '../shared/webviewProtocol';

/** What the Ask box posts: results, progress and errors of a question (the `ask*` messages of the protocol). */
export type AskMessage = Extract<HostToWebview, { type: 'askBusy' | 'askResult' | 'askError' }>;

/** A question from the Ask box, validated by the protocol schema. */
export interface SidebarQuestion {
  question: string;
  itemId: string | undefined;
  session: string[];
}

/** A research goal as the sidebar sends it: a proposed goal's id or the user's text. */
export type SidebarGoal = { goalId: string } | { text: string };

export interface SidebarActions {
  indexCorpus(): Promise<void>;
  openItem(itemId: string, part: 'transcript' | 'comments'): Promise<void>;
  openProblem(index: number): Promise<void>;
  openMarker(itemId: string, markerId: string): Promise<void>;
  retrieveFullItem(itemId: string): Promise<void>;
  generateMarkers(): Promise<void>;
  discoverGoals(): Promise<void>;
  planResearch(goal: SidebarGoal): Promise<void>;
  runResearch(goal: SidebarGoal | undefined): Promise<void>;
  openReport(runId: string | undefined): Promise<void>;
  /** Opens the Chat view about the report of `runId`. */
  askFollowup(runId: string): Promise<void>;
  showRun(runId: string): Promise<void>;
  /** Resumes a cancelled, failed, partial or crashed run (default: the command `markerResearch.resumeResearch`). */
  resumeResearch?(runId: string): Promise<void>;
  cancel(): Promise<void>;
  /** Answers a question of the Ask box (results come back through {@link SidebarViewProvider.postAsk}). */
  ask(question: SidebarQuestion): Promise<void>;
  /** Opens a hit of the Ask box at its span in the original file. */
  openHit(itemId: string, part: 'transcript' | 'comments', start: number, end: number): Promise<void>;
}

export class SidebarViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'markerResearch.items';
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private state: SidebarState = {
    status: 'empty',
    message: 'No corpus indexed yet. Run "Marker Research: Index Corpus".',
    markersMessage: null,
    generating: false,
    corpusRoot: null,
    items: [],
    problems: [],
  };
  private research: ResearchState = { busy: null, message: null, goals: [], run: null, runs: [], liveRunId: null };
  /** "Ask the Corpus" ran before the webview was ready: focus (and ask) once it is. */
  private pendingAskFocus: { question: string | null } | undefined;
  /** An answer (or error) that came while the view was hidden: posted when it is back. */
  private undeliveredAsk: AskMessage | undefined;
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.readyEmitter];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: SidebarActions,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = this.html(webview);
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
      view.onDidDispose(() => {
        this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** Replaces the state and posts it when the webview is ready. */
  setState(state: SidebarState): void {
    this.state = state;
    this.post({ type: 'state', state });
  }

  /** Replaces the research section (goals, the run shown, earlier runs). */
  setResearch(research: ResearchState): void {
    this.research = research;
    this.post({ type: 'research', research });
  }

  /** One step's live status (cheap: the webview updates that row only). */
  setStepStatus(runId: string, stepId: string, status: ResearchStepStatus): void {
    this.post({ type: 'stepStatus', runId, stepId, status });
  }

  setLoading(message: string): void {
    this.setState({ ...this.state, status: 'loading', message });
  }

  /** Progress of a long operation (marker generation), shown under the status line. */
  setProgress(update: ProgressUpdate, what: string): void {
    this.post({ type: 'progress', message: update.message ? `${what}: ${update.message}` : what, done: update.done, total: update.total });
  }

  /** True once the webview said `ready` (and until it is disposed). */
  get isReady(): boolean {
    return this.view !== undefined && this.ready;
  }

  /** Resolves true when the webview is ready, false after `ms`. */
  whenReady(ms: number): Promise<boolean> {
    return whenReady(() => this.isReady, this.readyEmitter.event, ms);
  }


  /** Progress, result or error of a question of the Ask box. */
  postAsk(msg: AskMessage): void {
    if (msg.type !== 'askBusy') this.undeliveredAsk = this.isReady ? undefined : msg;
    this.post(msg);
  }

  /** Focuses the Ask box; with a question, puts it there and asks it (session and scope are the box's). Waits for `ready` when needed. */
  focusAsk(question: string | null): void {
    if (this.isReady) this.post({ type: 'askFocus', question });
    else this.pendingAskFocus = { question };
  }

  private post(msg: HostToWebview): void {
    if (this.view && this.ready) void this.view.webview.postMessage(msg);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored malformed message from the sidebar webview: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const msg: WebviewToHost = parsed.data;
    try {
      switch (msg.type) {
        case 'ready':
          this.ready = true;
          this.post({ type: 'state', state: this.state });
          this.post({ type: 'research', research: this.research });
          if (this.undeliveredAsk) this.post(this.undeliveredAsk);
          this.undeliveredAsk = undefined;
          if (this.pendingAskFocus) this.post({ type: 'askFocus', question: this.pendingAskFocus.question });
          this.pendingAskFocus = undefined;
          this.readyEmitter.fire();
          return;
        case 'indexCorpus':
          return await this.actions.indexCorpus();
        case 'openItem':
          return await this.actions.openItem(msg.itemId, msg.part);
        case 'openProblem':
          return await this.actions.openProblem(msg.index);
        case 'openMarker':
          return await this.actions.openMarker(msg.itemId, msg.markerId);
        case 'retrieveFullItem':
          return await this.actions.retrieveFullItem(msg.itemId);
        case 'generateMarkers':
          return await this.actions.generateMarkers();
        case 'discoverGoals':
          return await this.actions.discoverGoals();
        case 'planResearch':
          return await this.actions.planResearch(msg.goal);
        case 'runResearch':
          return await this.actions.runResearch(msg.goal);
        case 'openReport':
          return await this.actions.openReport(msg.runId);
        case 'askFollowup':
          return await this.actions.askFollowup(msg.runId);
        case 'showRun':
          return await this.actions.showRun(msg.runId);
        case 'resumeResearch':
          if (this.actions.resumeResearch) return await this.actions.resumeResearch(msg.runId);
          return void (await vscode.commands.executeCommand('markerResearch.resumeResearch', { runId: msg.runId }));
        case 'cancel':
          return await this.actions.cancel();
        case 'ask':
          return await this.actions.ask({ question: msg.question, itemId: msg.itemId ?? undefined, session: msg.session });
        case 'openHit':
          return await this.actions.openHit(msg.itemId, msg.part, msg.start, msg.end);
      }
    } catch (e) {
      this.log.error(`sidebar action "${msg.type}" failed: ${(e as Error).message}`);
    }
  }

  private html(webview: vscode.Webview): string {
    return webviewPage(webview, this.extensionUri, { script: 'webview.js', style: 'sidebar.css', title: 'Marker Research', body: '<div id="app"><p id="status" role="status">Loading…</p></div>' });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
