/**
 * The "Corpus & Markers" webview view (`markerResearch.items`): the Ask box,
 * items → marker groups → markers with filter and sort, problems. Talks to its
 * webview only through the Corpus half of the typed protocol.
 */
import * as vscode from 'vscode';
import type { ProgressUpdate } from '../core/util/abort';
import { SIDEBAR_STATE_PIECE_CHARS } from '../shared/lspProtocol';
import { corpusToHostSchema, type CorpusHostToWebview, type CorpusToHost, type SidebarState } from '../shared/webviewProtocol';
import type { AskMessage, ViewActions } from './sidebarActions';
import { TypedWebviewView } from './typedWebviewView';

/** The view's state before a corpus is indexed (in the display language). */
export const emptySidebarState = (): SidebarState => ({
  status: 'empty',
  message: vscode.l10n.t('No corpus indexed yet. Run "Marker Research: Index Corpus".'),
  markersMessage: null,
  generating: false,
  corpusRoot: null,
  items: [],
  problems: [],
});

export class CorpusViewProvider extends TypedWebviewView<CorpusHostToWebview, CorpusToHost> {
  static readonly viewId = 'markerResearch.items';
  /** What the view shows: a state built here, or the engine's serialised one (passed along unparsed). */
  private state: { type: 'state'; state: SidebarState } | { type: 'stateJson'; json: string } = { type: 'state', state: emptySidebarState() };
  /** "Ask the Corpus" ran before the webview was ready: focus (and ask) once it is. */
  private pendingAskFocus: { question: string | null } | undefined;
  /** An answer (or error) that came while the view was hidden: posted when it is back. */
  private undeliveredAsk: AskMessage | undefined;

  constructor(extensionUri: vscode.Uri, private readonly actions: ViewActions, log: vscode.LogOutputChannel) {
    super(extensionUri, log, { script: 'webview.js', style: 'sidebar.css', title: vscode.l10n.t('Corpus & Markers'), body: `<div id="app"><p id="status" role="status">${vscode.l10n.t('Loading…')}</p></div>` }, corpusToHostSchema, 'the Corpus & Markers view');
  }

  /** Replaces the state and posts it when the webview is ready. */
  setState(state: SidebarState): void {
    this.state = { type: 'state', state };
    this.post(this.state);
  }

  /** Replaces the state with the engine's serialised one: the webview parses it (never this thread). */
  setStateJson(json: string): void {
    this.state = { type: 'stateJson', json };
    this.postState();
  }

  /** Numbers the states posted in pieces: pieces of a state replaced meanwhile are not posted. */
  private pieceSeq = 0;

  /** Posts the state; a large serialised one in pieces, one per turn of the event loop ({@link SIDEBAR_STATE_PIECE_CHARS}). */
  private postState(): void {
    const s = this.state;
    if (s.type === 'state' || s.json.length <= SIDEBAR_STATE_PIECE_CHARS) return this.post(s);
    const seq = ++this.pieceSeq;
    const json = s.json;
    const count = Math.ceil(json.length / SIDEBAR_STATE_PIECE_CHARS);
    const postPiece = (index: number): void => {
      if (seq !== this.pieceSeq || !this.isReady) return; // replaced, or the view went away (it asks again on ready)
      this.post({ type: 'stateJsonPiece', seq, index, count, json: json.slice(index * SIDEBAR_STATE_PIECE_CHARS, (index + 1) * SIDEBAR_STATE_PIECE_CHARS) });
      if (index + 1 < count) setImmediate(() => postPiece(index + 1));
    };
    postPiece(0);
  }

  /** Work on the corpus started: the status line says `message`, the rest stays. */
  setLoading(message: string): void {
    this.post({ type: 'loading', message });
  }

  /** Progress of a long operation (marker generation), shown under the status line. */
  setProgress(update: ProgressUpdate, what: string): void {
    this.post({ type: 'progress', message: update.message ? `${what}: ${update.message}` : what, done: update.done, total: update.total });
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

  protected onReady(): void {
    this.postState();
    if (this.undeliveredAsk) this.post(this.undeliveredAsk);
    this.undeliveredAsk = undefined;
    if (this.pendingAskFocus) this.post({ type: 'askFocus', question: this.pendingAskFocus.question });
    this.pendingAskFocus = undefined;
  }

  protected async handle(msg: Exclude<CorpusToHost, { type: 'ready' }>): Promise<void> {
    const a = this.actions;
    switch (msg.type) {
      case 'indexCorpus':
        return a.indexCorpus();
      case 'generateMarkers':
        return a.generateMarkers();
      case 'openModelSettings':
        return a.openModelSettings();
      case 'openItem':
        return a.openItem(msg.itemId, msg.part);
      case 'openProblem':
        return a.openProblem(msg.index);
      case 'openMarker':
        return a.openMarker(msg.itemId, msg.markerId);
      case 'retrieveFullItem':
        return a.retrieveFullItem(msg.itemId);
      case 'ask':
        return a.ask({ question: msg.question, itemId: msg.itemId ?? undefined, session: msg.session });
      case 'openHit':
        return a.openHit(msg.itemId, msg.part, msg.start, msg.end);
      case 'workbench':
        return a.workbench(msg.action, msg.target);
    }
  }
}
