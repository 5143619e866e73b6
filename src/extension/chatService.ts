/**
 * Follow-up chat in the editor (SPEC §5 "Follow-up chat", §6): the Chat view
 * and the `@research` chat participant. Keeps which conversation is shown —
 * about a research run (answered from its report; `[n]` continues the
 * report's numbering, and "what does [2] say?" loads the cited original) or
 * about the whole corpus — and remembers it across reloads (workspace state).
 * The engine does the rest: it reads and writes the conversations
 * (`<corpus>/.marker-research/chats/`), answers one question at a time
 * (streaming the answer as deltas; Stop and "Marker Research: Cancel" abort
 * it) and resolves a citation to its place in the original file, which this
 * opens, highlighted.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RequestType } from 'vscode-languageserver-protocol';
import { CancelledError } from '../core/util/abort';
import type { ChatPendingView, ChatState, ChatTurnView, HostToChat } from '../shared/chatProtocol';
import {
  chatCitationRequest, chatDeltaNotification, chatLatestRequest, chatTurnRequest, chatTurnStartNotification, chatViewRequest,
  type ChatTurnResult, type ChatViewResult,
} from '../shared/lspProtocol';
import type { ApiKeyStore } from './apiKeyStore';
import { modelAccess } from './askService';
import { ChatViewProvider } from './chatView';
import type { CorpusService } from './corpusService';
import type { SpanOpener } from './evidenceNavigator';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import type { ResearchService } from './researchService';
import { runningWork } from './runningWork';
import type { SettingsService } from './settings';

export type ChatErrorReason = string;

/** A chat action that cannot be done; `reason` says why (`no-corpus`, `not-found`, `busy`, …). Messages start with `chat:`. */
export class ChatServiceError extends Error {
  constructor(
    readonly reason: ChatErrorReason,
    message: string,
  ) {
    super(`chat: ${message}`);
    this.name = 'ChatServiceError';
  }
}

/** What the workspace remembers: the conversation shown (id), or the run of one not yet started. */
const MEMORY_KEY = 'markerResearch.chat.shown';
interface ChatMemory {
  id: string | null;
  runId: string | null;
}

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Options of a question asked from elsewhere than the view (the chat participant streams the answer itself). */
export interface ChatAskOptions {
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/** The question being answered: the answer so far, what stops it and what says it is settled. */
interface LiveTurn {
  askId: number;
  question: string;
  /** Known once the engine started the turn (a new conversation exists then). */
  conversationId: string | null;
  text: string;
  onDelta?: (text: string) => void;
  controller: AbortController;
  done: Promise<unknown>;
}

/** The conversation shown and the one question being answered. */
export class ChatService implements vscode.Disposable {
  /** The conversation shown (null: one not yet started) and the run it is about (null: the whole corpus). */
  private shown: ChatMemory = { id: null, runId: null };
  private live: LiveTurn | undefined;
  /** Turns that were stopped before the engine kept them (shown, not on disk), by conversation id. */
  private readonly unsaved = new Map<string, ChatTurnView[]>();
  private message: string | null = null;
  private seq = 0;
  private restored = false;
  /** A conversation (or a run for one) was chosen: remembered, attached, opened or started. */
  private chosen = false;
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly updated = new vscode.EventEmitter<HostToChat>();
  private readonly subs: vscode.Disposable[];
  /** Messages for the Chat view: state, streamed deltas, errors. */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly corpus: CorpusService,
    private readonly research: ResearchService,
    private readonly client: CorpusLanguageClient,
    private readonly apiKey: ApiKeyStore,
    private readonly memory: vscode.Memento,
    private readonly openSpan: SpanOpener,
    /** Has the engine index the corpus when it has none (undefined: no corpus folder, or indexing failed). */
    private readonly ensureCorpus: () => Promise<unknown>,
  ) {
    this.subs = [
      // A new index or a finished run changes titles, quotes and run goals: show them (coalesced: research reports often).
      corpus.onDidLoad(() => this.refreshSoon()),
      research.onDidChange(() => this.refreshSoon()),
      client.onNotification(chatTurnStartNotification, ({ askId, conversationId, question }) => {
        const live = this.live;
        if (live?.askId !== askId) return;
        live.conversationId = conversationId;
        // The turn's conversation is the one shown from now on (a new one exists on disk now).
        this.shown = { id: conversationId, runId: this.shown.runId };
        void this.remember();
        this.message = null;
        this.updated.fire({ type: 'turnStart', pending: { askId, conversationId, question, text: '' } });
      }),
      client.onNotification(chatDeltaNotification, ({ askId, text }) => {
        const live = this.live;
        if (live?.askId !== askId) return;
        live.text += text;
        live.onDelta?.(text);
        this.updated.fire({ type: 'delta', askId, text });
      }),
    ];
  }

  /** The corpus folder: the indexed one, else the configured one. */
  get root(): string | undefined {
    return this.corpus.root ?? this.settings.corpusRoot();
  }

  /** The run of the conversation shown (null: the whole corpus). */
  get runId(): string | null {
    return this.shown.runId;
  }

  /** The id of the conversation shown, or undefined before its first question. */
  get conversationId(): string | undefined {
    return this.shown.id ?? undefined;
  }

  get busy(): boolean {
    return this.live !== undefined;
  }

  /** An engine request; its refusals as {@link ChatServiceError}s. */
  private async call<P, R>(type: RequestType<P, R, void>, params: P, token?: vscode.CancellationToken): Promise<R> {
    try {
      return await this.client.request(type, params, token);
    } catch (e) {
      if (e instanceof EngineRequestError) throw new ChatServiceError(e.reason, e.message);
      throw e;
    }
  }

  private view(conversationId: string | null, runId: string | null): Promise<ChatViewResult> {
    return this.call(chatViewRequest, { root: this.root ?? null, conversationId, runId });
  }

  /**
   * Shows a conversation about `runId` (null: the whole corpus): the one shown
   * when it is about that run already, else the newest one about it, else a
   * new one (started by its first question).
   */
  async attach(runId: string | null): Promise<void> {
    await this.restore();
    if (this.chosen && this.runId === runId) return this.refresh();
    const root = this.root;
    const latest = root ? await this.call(chatLatestRequest, { root, runId }).catch(() => ({ conversationId: null })) : undefined;
    if (latest?.conversationId) return this.open(latest.conversationId);
    await this.newConversation(runId);
  }

  /** Shows what was shown last (also before a reload); the first time, a conversation about `runId` (see {@link attach}). */
  async showDefault(runId: string | null): Promise<void> {
    await this.restore();
    if (this.chosen) return this.refresh();
    await this.attach(runId);
  }

  /** A new conversation about `runId` (null: the whole corpus); nothing is written before its first question. */
  async newConversation(runId: string | null): Promise<void> {
    await this.stop();
    this.restored = true;
    this.chosen = true;
    this.shown = { id: null, runId };
    this.message = null;
    await this.remember();
    this.log.info(`chat: new conversation about ${runId ? `run ${runId}` : 'the whole corpus'}`);
    await this.refresh();
  }

  /** Reopens an earlier conversation. */
  async open(id: string): Promise<void> {
    if (!this.root) throw new ChatServiceError('no-corpus', vscode.l10n.t('no corpus folder is open.'));
    await this.stop();
    const v = await this.view(id, null);
    this.restored = true;
    this.chosen = true;
    this.shown = { id, runId: v.conversation.run?.runId ?? null };
    const n = v.problems.length;
    this.message = n === 1 ? vscode.l10n.t('1 line of this conversation could not be read (see the log).') : n ? vscode.l10n.t('{0} lines of this conversation could not be read (see the log).', n) : null;
    await this.remember();
    this.log.info(`chat: opened conversation ${id} (${v.conversation.turns.length} turns${this.shown.runId ? `, run ${this.shown.runId}` : ''})`);
    this.updated.fire({ type: 'state', state: this.stateOf(v) });
  }

  /** Stops the answer being streamed, if any, and waits until its turn is settled. */
  async stop(): Promise<void> {
    const live = this.live;
    if (!live) return;
    live.controller.abort();
    await live.done.catch(() => undefined);
  }

  /**
   * Answers `question` in the conversation shown (`conversationId`: the one the
   * asker saw; null: the one not yet started, which this question starts).
   * Posts the start, the streamed deltas and the finished state through
   * {@link onDidUpdate}; resolves with the turn and where its citations open,
   * or undefined when it failed or was stopped before the engine kept it.
   */
  async askQuestion(conversationId: string | null, question: string, options: ChatAskOptions = {}): Promise<ChatTurnResult | undefined> {
    await this.restore();
    await this.stop(); // one question at a time: a new one stops the one being answered
    const q = question.trim();
    const askId = ++this.seq;
    const controller = new AbortController();
    const onOuter = (): void => controller.abort();
    options.signal?.addEventListener('abort', onOuter, { once: true });
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    const started = Date.now();
    let live: LiveTurn | undefined;
    let withModel = false;
    try {
      if (!(await this.ensureCorpus())) throw new ChatServiceError('no-corpus', vscode.l10n.t('no corpus is indexed; open a corpus folder and run "Marker Research: Index Corpus".'));
      if (conversationId && conversationId !== this.shown.id) await this.open(conversationId);
      live = { askId, question: q, conversationId: null, text: '', onDelta: options.onDelta, controller, done };
      this.live = live;
      const access = await modelAccess(this.settings, this.apiKey);
      withModel = access.settings.provider !== 'extractive' && access.settings.model.trim() !== '';
      const params = { ...access, root: this.root ?? null, conversationId: this.shown.id, runId: this.shown.runId, askId, question: q };
      const result = await runningWork.run(controller.signal, async (signal) =>
        vscode.window.withProgress({ location: { viewId: ChatViewProvider.viewId } }, async () => {
          const source = new vscode.CancellationTokenSource();
          const onAbort = (): void => source.cancel();
          if (signal.aborted) source.cancel();
          else signal.addEventListener('abort', onAbort, { once: true });
          try {
            return await this.call(chatTurnRequest, params, source.token);
          } finally {
            signal.removeEventListener('abort', onAbort);
            source.dispose();
          }
        }),
      );
      this.shown = { id: result.conversationId, runId: result.runId };
      await this.remember();
      if (result.notes.length) this.message = result.notes.join(' ');
      // (the engine logs the turn: mode, engine, citations)
      return result;
    } catch (e) {
      if (e instanceof CancelledError || controller.signal.aborted) {
        this.log.debug(`chat #${askId}: stopped after ${Date.now() - started} ms`);
        // The engine did not keep the turn: show what came, marked stopped (not on disk).
        if (live?.conversationId) {
          const list = this.unsaved.get(live.conversationId) ?? [];
          list.push({ turn: 0, question: q, answer: live.text, mode: this.runId ? 'report' : 'corpus', engine: withModel ? 'model' : 'extractive', understood: '', cited: [], loaded: [], cancelled: true, notes: [vscode.l10n.t('Stopped before the answer was kept.')], ms: Date.now() - started, createdAt: new Date().toISOString() });
          this.unsaved.set(live.conversationId, list);
        }
        return undefined;
      }
      const message = (e as Error).message.replace(/^chat: /, '');
      // The engine logged what it refused; the extension's own refusals and other failures are logged here.
      if (e instanceof ChatServiceError) this.log.warn(`chat #${askId}: ${message}`);
      else this.log.error(`chat #${askId}: "${clip(q)}" failed: ${(e as Error).stack ?? message}`);
      this.updated.fire({ type: 'turnError', askId, question: q, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}` });
      if (options.onDelta) throw e; // the participant says so in its own stream
      return undefined;
    } finally {
      options.signal?.removeEventListener('abort', onOuter);
      if (this.live?.askId === askId) this.live = undefined;
      settle();
      await this.refresh();
    }
  }

  /** Opens citation `n` of the conversation shown at its span, selected and highlighted. */
  async openCitation(conversationId: string | null, n: number): Promise<void> {
    const root = this.root;
    if (!root) throw new ChatServiceError('no-corpus', vscode.l10n.t('no corpus folder is open.'));
    if (conversationId !== this.shown.id) throw new ChatServiceError('not-found', vscode.l10n.t('the conversation changed since; click the citation again.'));
    const place = await this.call(chatCitationRequest, { root, conversationId: this.shown.id, runId: this.shown.runId, number: n });
    await this.openSpan({ itemId: place.itemId, part: place.part, start: place.start, end: place.end }, { uri: vscode.Uri.file(place.path), ranges: [place.range] }, `citation [${n}]`);
    const r = place.range;
    this.log.info(`chat: opened [${n}] (${place.where}-${r.endLine + 1}:${r.endColumn + 1})`);
  }

  /** The whole state of the view, from the engine's view of the conversation shown. */
  async state(): Promise<ChatState> {
    await this.restore();
    let v: ChatViewResult;
    try {
      v = await this.view(this.shown.id, this.shown.runId);
    } catch (e) {
      if (!(e instanceof ChatServiceError && e.reason === 'not-found' && this.shown.id)) throw e;
      // The conversation shown is gone (deleted, unreadable): show a new one about the same run.
      const why = e.message.replace(/^chat: /, '');
      this.log.warn(`chat: the conversation shown could not be read: ${why}`);
      this.shown = { id: null, runId: this.shown.runId };
      await this.remember();
      this.message = vscode.l10n.t('The conversation shown could not be read: {0}', why);
      v = await this.view(null, this.shown.runId);
    }
    return this.stateOf(v);
  }

  /** The view's state: the engine's view, the turns stopped before they were kept, the answer being streamed. */
  private stateOf(v: ChatViewResult): ChatState {
    const conversation = { ...v.conversation, turns: [...v.conversation.turns, ...(v.conversation.id ? (this.unsaved.get(v.conversation.id) ?? []) : [])] };
    const live = this.live;
    const pending: ChatPendingView | null = live?.conversationId ? { askId: live.askId, conversationId: live.conversationId, question: live.question, text: live.text } : null;
    return { conversation, history: v.history, pending, message: this.message ?? (v.root ? null : vscode.l10n.t('Open a corpus folder to ask about it.')) };
  }

  /** {@link refresh} a little later, once for a burst of changes. */
  private refreshSoon(): void {
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, 200);
  }

  /** Posts the whole state (a switch, a finished turn, a new index or run). */
  refresh(): Promise<void> {
    return this.state().then(
      (state) => this.updated.fire({ type: 'state', state }),
      (e: Error) => this.log.warn(`chat: building the view failed: ${e.message}`),
    );
  }

  /** The run a follow-up is about when none is named: the run shown in the sidebar with a report, else the newest with one, else none. */
  defaultRunId(): string | null {
    const shown = this.research.shownRun?.manifest;
    if (shown?.report) return shown.run_id;
    return this.research.runManifests.find((r) => r.report)?.run_id ?? null;
  }

  /** Once: the conversation shown before the window was reloaded. */
  private async restore(): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    const m = this.memory.get<ChatMemory>(MEMORY_KEY);
    if (!m || !this.root) return;
    if (!m.id) {
      this.chosen = true;
      this.shown = { id: null, runId: typeof m.runId === 'string' ? m.runId : null };
      return;
    }
    try {
      const v = await this.view(m.id, null);
      this.shown = { id: m.id, runId: v.conversation.run?.runId ?? null };
      this.chosen = true;
      this.log.info(`chat: reopened conversation ${m.id} (${v.conversation.turns.length} turns)`);
    } catch (e) {
      this.log.warn(`chat: the last conversation could not be reopened: ${(e as Error).message.replace(/^chat: /, '')}`);
    }
  }

  private async remember(): Promise<void> {
    const m: ChatMemory = { id: this.shown.id, runId: this.shown.runId };
    await this.memory.update(MEMORY_KEY, m);
  }

  dispose(): void {
    this.live?.controller.abort();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.subs) d.dispose();
    this.updated.dispose();
  }
}

/** The run of a `report.md` under `<corpus>/.marker-research/runs/<run>/`, or undefined for any other file. */
export function runIdOfReport(uri: vscode.Uri | undefined): string | undefined {
  if (!uri || uri.scheme !== 'file' || path.basename(uri.fsPath) !== 'report.md') return undefined;
  const runDir = path.dirname(uri.fsPath);
  const runs = path.dirname(runDir);
  if (path.basename(runs) !== 'runs' || path.basename(path.dirname(runs)) !== '.marker-research') return undefined;
  return path.basename(runDir);
}
