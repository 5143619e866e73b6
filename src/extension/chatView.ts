/**
 * The "Chat" webview view in the Marker Research container: the conversation
 * (questions, streamed answers with citation chips, loaded originals), the
 * input with Stop, "New conversation", the run it is about, and the earlier
 * conversations. Talks to its webview only through the typed protocol in
 * src/shared/chatProtocol.ts; what the webview sends is parsed, never trusted
 * (the handshake and parsing are {@link TypedWebviewView}'s, as for the sidebar's views).
 */
import * as vscode from 'vscode';
import { TypedWebviewView } from './typedWebviewView';
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
  /** Pins a turn's answer to the notebook (the pin button under an answer). */
  pinAnswer?(conversationId: string, turn: number): Promise<void>;
}

export class ChatViewProvider extends TypedWebviewView<HostToChat, ChatToHost> {
  static readonly viewId = 'markerResearch.chat';
  /** "Ask Follow-up" ran before the webview was ready: focus (and ask) once it is. */
  private pendingFocus: { question: string | null } | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly actions: ChatActions,
    log: vscode.LogOutputChannel,
  ) {
    super(extensionUri, log, { script: 'chat.js', style: 'chat.css', title: vscode.l10n.t('Marker Research Chat'), body: `<div id="chat"><p class="chat-loading" role="status">${vscode.l10n.t('Loading…')}</p></div>` }, chatToHostSchema, 'the chat webview');
  }

  /** A message of the chat service (state, deltas, errors); dropped while the view is not ready (`ready` brings the whole state). */
  override post(msg: HostToChat): void {
    super.post(msg);
  }

  /** Focuses the input; with a question, asks it. Waits for `ready` when needed. */
  focusInput(question: string | null): void {
    if (this.isReady) this.post({ type: 'focus', question });
    else this.pendingFocus = { question };
  }

  protected async onReady(): Promise<void> {
    this.post({ type: 'state', state: await this.actions.state() });
    if (this.pendingFocus) this.post({ type: 'focus', question: this.pendingFocus.question });
    this.pendingFocus = undefined;
  }

  protected async handle(msg: Exclude<ChatToHost, { type: 'ready' }>): Promise<void> {
    switch (msg.type) {
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
      case 'pinAnswer':
        return await this.actions.pinAnswer?.(msg.conversationId, msg.turn);
    }
  }
}
