/**
 * Follow-up chat in the editor (SPEC §5 "Follow-up chat", §6): the Chat view
 * and the `@research` chat participant. Holds the conversation shown — about a
 * research run (answered from its report; `[n]` continues the report's
 * numbering, and "what does [2] say?" loads the cited original) or about the
 * whole corpus — runs core's `runChatTurn` for one question at a time with the
 * Ask box's context and model (streaming the answer as deltas; Stop and
 * "Marker Research: Cancel" abort it), persists conversations in
 * `<corpus>/.marker-research/chats/`, reopens the last one after a reload, and
 * opens a cited span in the original file, highlighted.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeQuery } from '../core/ask/ask';
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import { runChatTurn } from '../core/chat/chatTurn';
import { createConversation, listConversations, loadConversation } from '../core/chat/conversationStore';
import type { ChatCitation, ChatTurn, Conversation } from '../core/chat/schema';
import type { Corpus } from '../core/corpus/types';
import { listRuns, readRun } from '../core/research/runStore';
import type { RunManifest } from '../core/research/schema';
import { formatClock } from '../core/text/clock';
import { CancelledError } from '../core/util/abort';
import type { ChatCitationView, ChatConversationView, ChatHistoryEntry, ChatPendingView, ChatState, ChatTurnView, HostToChat } from '../shared/chatProtocol';
import { quoteOf, type AskService } from './askService';
import type { CorpusService } from './corpusService';
import { corpusFile, type SpanOpener } from './evidenceNavigator';
import { ChatViewProvider } from './chatView';
import type { ResearchService } from './researchService';
import { runningWork } from './runningWork';
import type { SettingsService } from './settings';

export type ChatErrorReason = 'no-corpus' | 'not-found' | 'busy';

/** A chat action that cannot be done; `reason` says why. Messages start with `chat:`. */
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

/** Conversations listed in the view. */
const HISTORY_SHOWN = 30;
/** Deltas are posted at most this often (ms); the rest is coalesced. */
const DELTA_MS = 40;

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function timeRange(start: number | undefined, end: number | undefined): string | null {
  if (start === undefined) return null;
  if (end === undefined || Math.floor(end) <= Math.floor(start)) return formatClock(start);
  return `${formatClock(start)}–${formatClock(end)}`;
}

/** How a chip shows a citation (title, place, quote from the indexed corpus when there is one). */
export function citationView(c: ChatCitation, corpus: Corpus | undefined): ChatCitationView {
  const s = c.span;
  const item = corpus?.items.find((i) => i.id === s.item_id);
  const text = (s.part === 'transcript' ? item?.transcript : item?.comments)?.text;
  const speakers = s.source.speakers ?? [];
  return {
    number: c.number,
    itemId: s.item_id,
    title: item?.title ?? s.item_id,
    part: s.part,
    where: `${s.source.file}:${s.source.startLine + 1}:${s.source.startColumn + 1}`,
    location: item && text !== undefined && s.end <= text.length ? locationLabel(item, s.part, s.start, s.end, { title: false }) : storedLocationLabel(s.source, s.part),
    time: timeRange(s.source.startTime, s.source.endTime),
    speaker: speakers.length ? (speakers.length <= 2 ? speakers.join(', ') : `${speakers.slice(0, 2).join(', ')} +${speakers.length - 2}`) : null,
    quote: text !== undefined && s.end <= text.length && s.end > s.start ? quoteOf(text.slice(s.start, s.end), []) : null,
  };
}

/** How the view shows a turn. */
export function turnView(t: ChatTurn): ChatTurnView {
  return {
    turn: t.turn,
    question: t.question,
    answer: t.answer,
    mode: t.mode,
    engine: t.engine,
    understood: describeQuery(t.query),
    cited: t.citations.map((c) => c.number),
    loaded: t.loaded.map((l) => ({ number: l.number, text: l.text, before: l.before, after: l.after })),
    cancelled: t.cancelled,
    notes: [...t.notes],
    ms: Math.round(t.ms),
    createdAt: t.createdAt,
  };
}

/** Options of a question asked from elsewhere than the view (the chat participant streams the answer itself). */
export interface ChatAskOptions {
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/** The question being answered, with what stops it and what says it is settled. */
type PendingTurn = ChatPendingView & { controller: AbortController; done: Promise<unknown> };

/** The conversation shown and the one question being answered. */
export class ChatService implements vscode.Disposable {
  /** The conversation shown, once a question was asked in it (or it was reopened). */
  private conversation: Conversation | undefined;
  /** The run of the conversation not yet started (null: the whole corpus), when {@link conversation} is undefined. */
  private draftRunId: string | null = null;
  private pending: PendingTurn | undefined;
  /** Turns that were stopped before core kept them (shown, not on disk), by conversation id. */
  private readonly unsaved = new Map<string, ChatTurnView[]>();
  private message: string | null = null;
  private seq = 0;
  private restored = false;
  /** A conversation (or a run for one) was chosen: remembered, attached, opened or started. */
  private chosen = false;
  private unsent = '';
  private deltaTimer: NodeJS.Timeout | undefined;
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
    private readonly ask: AskService,
    private readonly memory: vscode.Memento,
    private readonly promptsDir: string,
    private readonly openSpan: SpanOpener,
    /** The indexed corpus, indexing it first when there is none (undefined: no corpus folder, or indexing failed). */
    private readonly ensureCorpus: () => Promise<Corpus | undefined>,
  ) {
    // A new index or a finished run changes titles, quotes and run goals: show them (coalesced: research reports often).
    this.subs = [corpus.onDidLoad(() => this.refreshSoon()), research.onDidChange(() => this.refreshSoon())];
  }

  /** The corpus folder: the indexed one, else the configured one. */
  get root(): string | undefined {
    return this.corpus.current?.root ?? this.settings.corpusRoot();
  }

  /** The run of the conversation shown (null: the whole corpus). */
  get runId(): string | null {
    return this.conversation ? this.conversation.header.runId : this.draftRunId;
  }

  /** The id of the conversation shown, or undefined before its first question. */
  get conversationId(): string | undefined {
    return this.conversation?.header.id;
  }

  get busy(): boolean {
    return this.pending !== undefined;
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
    const latest = root ? (await listConversations(root).catch(() => [])).find((c) => c.runId === runId && c.turns > 0) : undefined;
    if (latest) return this.open(latest.id);
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
    this.conversation = undefined;
    this.draftRunId = runId;
    this.message = null;
    await this.remember();
    this.log.info(`chat: new conversation about ${runId ? `run ${runId}` : 'the whole corpus'}`);
    await this.refresh();
  }

  /** Reopens an earlier conversation. */
  async open(id: string): Promise<void> {
    const root = this.root;
    if (!root) throw new ChatServiceError('no-corpus', 'no corpus folder is open.');
    await this.stop();
    const problems: string[] = [];
    const conversation = await loadConversation(root, id, problems);
    for (const p of problems) this.log.warn(`chat: ${p}`);
    this.restored = true;
    this.chosen = true;
    this.conversation = conversation;
    this.message = problems.length ? `${problems.length} line${problems.length > 1 ? 's' : ''} of this conversation could not be read (see the log).` : null;
    await this.remember();
    this.log.info(`chat: opened conversation ${id} (${conversation.turns.length} turns${conversation.header.runId ? `, run ${conversation.header.runId}` : ''})`);
    await this.refresh();
  }

  /** Stops the answer being streamed, if any, and waits until its turn is settled. */
  async stop(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    p.controller.abort();
    await p.done.catch(() => undefined);
  }

  /**
   * Answers `question` in the conversation shown (`conversationId`: the one the
   * asker saw; null: the one not yet started, which this question starts).
   * Posts the start, the streamed deltas and the finished state through
   * {@link onDidUpdate}; resolves with the turn, or undefined when it failed or
   * was stopped before core kept it.
   */
  async askQuestion(conversationId: string | null, question: string, options: ChatAskOptions = {}): Promise<ChatTurn | undefined> {
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
    let pending: PendingTurn | undefined;
    let withModel = false;
    try {
      const corpus = await this.ensureCorpus();
      if (!corpus) throw new ChatServiceError('no-corpus', 'no corpus is indexed; open a corpus folder and run "Marker Research: Index Corpus".');
      if (conversationId && conversationId !== this.conversation?.header.id) await this.open(conversationId);
      this.conversation ??= await createConversation(corpus.root, { runId: this.draftRunId, title: clip(q.replace(/\s+/g, ' '), 80) });
      const conversation = this.conversation;
      await this.remember();
      pending = { askId, conversationId: conversation.header.id, question: q, text: '', controller, done };
      this.pending = pending;
      this.message = null;
      this.updated.fire({ type: 'turnStart', pending: { askId, conversationId: conversation.header.id, question: q, text: '' } });
      const notes: string[] = [];
      const turn = await runningWork.run(controller.signal, async (signal) =>
        vscode.window.withProgress({ location: { viewId: ChatViewProvider.viewId } }, async () => {
          const { ctx, model } = await this.ask.resources(corpus, signal, notes);
          withModel = model !== undefined;
          return runChatTurn(ctx, conversation, q, {
            model,
            promptsDir: this.promptsDir,
            signal,
            onDelta: (text) => {
              pending!.text += text;
              options.onDelta?.(text);
              this.queueDelta(askId, text);
            },
          });
        }),
      );
      this.flushDeltas();
      if (notes.length) this.message = notes.join(' ');
      this.log.info(
        `chat #${askId}: "${clip(q)}" in ${conversation.header.id}${conversation.header.runId ? ` (run ${conversation.header.runId})` : ''} → ${turn.mode}, ${turn.engine}${turn.cancelled ? ', stopped' : ''}; ${turn.citations.length} cited${turn.loaded.length ? `, ${turn.loaded.length} loaded ([${turn.loaded.map((l) => l.number).join('], [')}])` : ''} in ${Math.round(turn.ms)} ms`,
      );
      for (const n of turn.notes) this.log.info(`chat #${askId}: ${n}`);
      return turn;
    } catch (e) {
      this.flushDeltas();
      if (e instanceof CancelledError || controller.signal.aborted) {
        this.log.info(`chat #${askId}: stopped after ${Date.now() - started} ms`);
        // Core did not keep the turn: show what came, marked stopped (not on disk).
        if (pending) {
          const list = this.unsaved.get(pending.conversationId) ?? [];
          list.push({ turn: 0, question: q, answer: pending.text, mode: this.runId ? 'report' : 'corpus', engine: withModel ? 'model' : 'extractive', understood: '', cited: [], loaded: [], cancelled: true, notes: ['Stopped before the answer was kept.'], ms: Date.now() - started, createdAt: new Date().toISOString() });
          this.unsaved.set(pending.conversationId, list);
        }
        return undefined;
      }
      const message = (e as Error).message.replace(/^chat: /, '');
      if (e instanceof ChatServiceError) this.log.warn(`chat #${askId}: ${message}`);
      else this.log.error(`chat #${askId}: "${clip(q)}" failed: ${(e as Error).stack ?? message}`);
      this.updated.fire({ type: 'turnError', askId, question: q, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}` });
      if (options.onDelta) throw e; // the participant says so in its own stream
      return undefined;
    } finally {
      options.signal?.removeEventListener('abort', onOuter);
      if (this.pending?.askId === askId) this.pending = undefined;
      settle();
      await this.refresh();
    }
  }

  /** Opens citation `n` of the conversation shown at its span in the original file, selected and highlighted. */
  async openCitation(conversationId: string | null, n: number): Promise<void> {
    const root = this.root;
    if (!root) throw new ChatServiceError('no-corpus', 'no corpus folder is open.');
    if (conversationId !== (this.conversation?.header.id ?? null)) throw new ChatServiceError('not-found', 'the conversation changed since; click the citation again.');
    const citations = this.conversation?.citations ?? (await this.draftCitations(root));
    const c = citations.find((x) => x.number === n);
    if (!c) throw new ChatServiceError('not-found', `no citation [${n}] in this conversation.`);
    const src = c.span.source;
    await this.openSpan({ itemId: c.span.item_id, part: c.span.part, start: c.span.start, end: c.span.end }, { uri: corpusFile(root, src.file), ranges: [src] }, `citation [${n}]`);
    this.log.info(`chat: opened [${n}] (${src.file}:${src.startLine + 1}:${src.startColumn + 1}-${src.endLine + 1}:${src.endColumn + 1})`);
  }

  /** The whole state of the view. */
  async state(): Promise<ChatState> {
    await this.restore();
    const root = this.root;
    const corpus = this.corpus.current;
    const runs = await this.runs(root);
    const runView = (runId: string | null): ChatConversationView['run'] => {
      if (!runId) return null;
      const m = runs.find((r) => r.run_id === runId);
      return { runId, goal: m?.goal ?? null, status: m?.status ?? null };
    };
    let conversation: ChatConversationView;
    if (this.conversation) {
      const c = this.conversation;
      const turns = c.turns.map(turnView);
      turns.push(...(this.unsaved.get(c.header.id) ?? []));
      conversation = { id: c.header.id, title: c.header.title, run: runView(c.header.runId), createdAt: c.header.createdAt, turns, citations: c.citations.map((x) => citationView(x, corpus)) };
    } else {
      const citations = root ? await this.draftCitations(root) : [];
      const run = runView(this.draftRunId);
      conversation = { id: null, title: run ? `About: ${run.goal ?? run.runId}` : 'Questions about the corpus', run, createdAt: null, turns: [], citations: citations.map((x) => citationView(x, corpus)) };
    }
    const summaries = root ? await listConversations(root).catch((e: Error) => (this.log.warn(`chat: listing conversations failed: ${e.message}`), [])) : [];
    const history: ChatHistoryEntry[] = summaries.slice(0, HISTORY_SHOWN).map((s) => ({ ...s, runGoal: s.runId ? (runs.find((r) => r.run_id === s.runId)?.goal ?? null) : null }));
    const p = this.pending;
    return {
      conversation,
      history,
      pending: p ? { askId: p.askId, conversationId: p.conversationId, question: p.question, text: p.text } : null,
      message: this.message ?? (root ? null : 'Open a corpus folder to ask about it.'),
    };
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

  /** The runs of the corpus (the research service's, read from disk when it has none yet). */
  private async runs(root: string | undefined): Promise<readonly RunManifest[]> {
    if (this.research.runManifests.length || !root) return this.research.runManifests;
    return listRuns(root).catch(() => []);
  }

  /** The report's citations, for a conversation about a run that has no question yet. */
  private draftCitations(root: string): Promise<ChatCitation[]> {
    if (!this.draftRunId) return Promise.resolve([]);
    // createConversation reads them too; here only to show the report's numbers (nothing is written).
    return readRun(root, this.draftRunId).then(
      (run) => run.sources?.citations.map((c) => ({ number: c.number, span: c.span })) ?? [],
      () => [],
    );
  }

  /** Once: the conversation shown before the window was reloaded. */
  private async restore(): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    const m = this.memory.get<ChatMemory>(MEMORY_KEY);
    const root = this.root;
    if (!m || !root) return;
    if (!m.id) {
      this.chosen = true;
      this.draftRunId = typeof m.runId === 'string' ? m.runId : null;
      return;
    }
    try {
      this.conversation = await loadConversation(root, m.id);
      this.chosen = true;
      this.log.info(`chat: reopened conversation ${m.id} (${this.conversation.turns.length} turns)`);
    } catch (e) {
      this.log.warn(`chat: the last conversation could not be reopened: ${(e as Error).message}`);
    }
  }

  private async remember(): Promise<void> {
    const m: ChatMemory = { id: this.conversation?.header.id ?? null, runId: this.runId };
    await this.memory.update(MEMORY_KEY, m);
  }

  private queueDelta(askId: number, text: string): void {
    this.unsent += text;
    this.deltaTimer ??= setTimeout(() => this.flushDeltas(askId), DELTA_MS);
  }

  private flushDeltas(askId = this.pending?.askId): void {
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
    this.deltaTimer = undefined;
    if (this.unsent && askId !== undefined) this.updated.fire({ type: 'delta', askId, text: this.unsent });
    this.unsent = '';
  }

  dispose(): void {
    this.pending?.controller.abort();
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
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

// ---- the @research chat participant -------------------------------------------------------------
