/**
 * The "Chat" webview view in the Marker Research container: the conversation
 * (questions, streamed answers with citation chips, loaded originals), the
 * input with Stop, "New conversation", the run it is about, and the earlier
 * conversations. Talks to its webview only through the typed protocol in
 * src/shared/chatProtocol.ts; what the webview sends is parsed, never trusted.
 */
import * as vscode from 'vscode';
import { webviewPage, whenReady } from './webviewHost';
import { chatToHostSchema, type ChatState, type ChatToHost, type HostToChat } from '../shared/chatProtocol';

/** What the view's buttons and links do (the extension wires them to the chat service and commands). */
export interface ChatActions {
  /** The whole state, for `ready`. */
  state(): Promise<ChatState>;
  ask(conversationId: string | null, question: string): Promise<void>;
  stop(): Promise<void>;
  newConversation(runId: string | null): Promise<void>;
  openConversation(id: string): Promise<void>;
  openCitation(conversationId: string | null, n: number): Promise<void>;
  openReport(runId: string): Promise<void>;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'markerResearch.chat';
  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** "Ask Follow-up" ran before the webview was ready: focus (and ask) once it is. */
  private pendingFocus: { question: string | null } | undefined;
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.readyEmitter];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: ChatActions,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = this.html(webview);
    // The events of an earlier view (resolved again after a move or re-show) must not touch this one.
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        if (this.view === view) void this.onMessage(raw);
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** True once the webview said `ready` (and until it is disposed). */
  get isReady(): boolean {
    return this.view !== undefined && this.ready;
  }

  /** Resolves true when the webview is ready, false after `ms`. */
  whenReady(ms: number): Promise<boolean> {
    return whenReady(() => this.isReady, this.readyEmitter.event, ms);
  }


  /** A message of the chat service (state, deltas, errors); dropped while the view is not ready (`ready` brings the whole state). */
  post(msg: HostToChat): void {
    if (this.view && this.ready) void this.view.webview.postMessage(msg);
  }

  /** Focuses the input; with a question, asks it. Waits for `ready` when needed. */
  focusInput(question: string | null): void {
    if (this.isReady) this.post({ type: 'focus', question });
    else this.pendingFocus = { question };
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = chatToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored malformed message from the chat webview: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const msg: ChatToHost = parsed.data;
    try {
      switch (msg.type) {
        case 'ready': {
          this.ready = true;
          this.post({ type: 'state', state: await this.actions.state() });
          if (this.pendingFocus) this.post({ type: 'focus', question: this.pendingFocus.question });
          this.pendingFocus = undefined;
          this.readyEmitter.fire();
          return;
        }
        case 'ask':
          return await this.actions.ask(msg.conversationId, msg.question);
        case 'stop':
          return await this.actions.stop();
        case 'newConversation':
          return await this.actions.newConversation(msg.runId);
        case 'openConversation':
          return await this.actions.openConversation(msg.conversationId);
        case 'openCitation':
          return await this.actions.openCitation(msg.conversationId, msg.number);
        case 'openReport':
          return await this.actions.openReport(msg.runId);
      }
    } catch (e) {
      this.log.error(`chat action "${msg.type}" failed: ${(e as Error).message}`);
    }
  }

  private html(webview: vscode.Webview): string {
    return webviewPage(webview, this.extensionUri, { script: 'chat.js', style: 'chat.css', title: 'Marker Research Chat', body: '<div id="chat"><p class="chat-loading" role="status">Loading…</p></div>' });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
