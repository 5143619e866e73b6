/**
 * The "Research" webview view (`markerResearch.research`): goals, the plan of
 * the run shown with live step status, earlier runs. Talks to its webview only
 * through the Research half of the typed protocol.
 */
import * as vscode from 'vscode';
import {
  researchToHostSchema, type ResearchCorpusView, type ResearchHostToWebview, type ResearchState, type ResearchStepStatus, type ResearchToHost,
} from '../shared/webviewProtocol';
import type { ViewActions } from './sidebarActions';
import { TypedWebviewView } from './typedWebviewView';

export class ResearchViewProvider extends TypedWebviewView<ResearchHostToWebview, ResearchToHost> {
  static readonly viewId = 'markerResearch.research';
  private research: ResearchState = { busy: null, message: null, goals: [], run: null, runs: [], liveRunId: null };
  private corpus: ResearchCorpusView = { status: 'empty', items: 0, itemsWithMarkers: 0 };

  constructor(extensionUri: vscode.Uri, private readonly actions: ViewActions, log: vscode.LogOutputChannel) {
    super(extensionUri, log, { script: 'research.js', style: 'sidebar.css', title: vscode.l10n.t('Research'), body: '<div id="app"></div>' }, researchToHostSchema, 'the Research view');
  }

  /** Replaces the research state (goals, the run shown, earlier runs). */
  setResearch(research: ResearchState): void {
    this.research = research;
    this.post({ type: 'research', research });
  }

  /** One step's live status (cheap: the webview updates that row only). */
  setStepStatus(runId: string, stepId: string, status: ResearchStepStatus): void {
    this.post({ type: 'stepStatus', runId, stepId, status });
  }

  /** What the corpus is (the view says "index first" or "generate markers first"); posted only when it changes. */
  setCorpus(corpus: ResearchCorpusView): void {
    const c = this.corpus;
    if (c.status === corpus.status && c.items === corpus.items && c.itemsWithMarkers === corpus.itemsWithMarkers) return;
    this.corpus = corpus;
    this.post({ type: 'corpus', corpus });
  }

  protected onReady(): void {
    this.post({ type: 'corpus', corpus: this.corpus });
    this.post({ type: 'research', research: this.research });
  }

  protected async handle(msg: Exclude<ResearchToHost, { type: 'ready' }>): Promise<void> {
    const a = this.actions;
    switch (msg.type) {
      case 'indexCorpus':
        return a.indexCorpus();
      case 'generateMarkers':
        return a.generateMarkers();
      case 'openModelSettings':
        return a.openModelSettings();
      case 'discoverGoals':
        return a.discoverGoals();
      case 'planResearch':
        return a.planResearch(msg.goal);
      case 'runResearch':
        return a.runResearch(msg.goal);
      case 'openReport':
        return a.openReport(msg.runId);
      case 'askFollowup':
        return a.askFollowup(msg.runId);
      case 'showRun':
        return a.showRun(msg.runId);
      case 'resumeResearch':
        return a.resumeResearch(msg.runId);
      case 'cancel':
        return a.cancel();
    }
  }
}
