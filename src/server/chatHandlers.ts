/**
 * The chat requests of the engine (see the chat section of
 * src/shared/lspProtocol.ts): the Chat view's conversation and history,
 * the newest conversation about a run, one turn at a time by core's
 * `runChatTurn` over the shared ask context (the answer streamed as delta
 * notifications; cancelled by the request's token), and where a citation
 * opens. Conversations live in `<corpus>/.marker-research/chats/`, read and
 * written here only; which one is shown is the extension's to remember.
 */
import * as l10n from '@vscode/l10n';
import { runChatTurn } from '../core/chat/chatTurn';
import { createConversation, listConversations, loadConversation } from '../core/chat/conversationStore';
import type { ChatCitation, Conversation } from '../core/chat/schema';
import { listRuns, readRun } from '../core/research/runStore';
import type { RunManifest } from '../core/research/schema';
import { CancelledError } from '../core/util/abort';
import type { ChatConversationView, ChatHistoryEntry } from '../shared/chatProtocol';
import {
  chatCitationRequest, chatDeltaNotification, chatLatestRequest, chatTurnRequest, chatTurnStartNotification, chatViewRequest,
  type ChatCitationParams, type ChatCitationPlace, type ChatSelection, type ChatTurnParams, type ChatTurnResult, type ChatViewResult,
} from '../shared/lspProtocol';
import { parseCitation, parseLatest, parseSelection, parseTurn } from './askParams';
import { askResources } from './askResources';
import { citationPlace, citationView, turnView } from './chatViews';
import { EngineError } from './engineState';
import type { HandlerContext } from './handlerContext';
import { guarded, toResponseError } from './work';

/** Conversations listed in the view. */
const HISTORY_SHOWN = 30;
/** Deltas are sent at most this often (ms); the rest is coalesced. */
const DELTA_MS = 40;

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function registerChatHandlers(ctx: HandlerContext): void {
  const resources = askResources(ctx);
  const { log } = ctx.state;
  /** The turn being answered: a new one stops it first (one at a time). */
  let pending: { controller: AbortController; done: Promise<unknown> } | undefined;

  /** The corpus folder: the indexed corpus's, else the one the client names. */
  const rootOf = (p: { root: string | null }): string | null => ctx.state.current()?.root ?? p.root ?? null;

  /** A conversation from disk; `not-found` (with core's message) when it cannot be read. */
  async function load(root: string, id: string, problems?: string[]): Promise<Conversation> {
    try {
      return await loadConversation(root, id, problems);
    } catch (e) {
      throw new EngineError('not-found', (e as Error).message.replace(/^chat: /, ''));
    }
  }

  /** The report's citations, for a conversation about a run that has no question yet (nothing is written). */
  function draftCitations(root: string, runId: string | null): Promise<ChatCitation[]> {
    if (!runId) return Promise.resolve([]);
    return readRun(root, runId).then(
      (run) => run.sources?.citations.map((c) => ({ number: c.number, span: c.span })) ?? [],
      () => [],
    );
  }

  async function view(p: ChatSelection): Promise<ChatViewResult> {
    const root = rootOf(p);
    if (!root) return { root: null, conversation: { id: null, title: l10n.t('Questions about the corpus'), run: null, createdAt: null, turns: [], citations: [] }, history: [], problems: [] };
    const corpus = ctx.state.current()?.root === root ? ctx.state.current() : undefined;
    const runs: RunManifest[] = await listRuns(root).catch(() => []);
    const runView = (runId: string | null): ChatConversationView['run'] => {
      if (!runId) return null;
      const m = runs.find((r) => r.run_id === runId);
      return { runId, goal: m?.goal ?? null, status: m?.status ?? null };
    };
    const problems: string[] = [];
    let conversation: ChatConversationView;
    if (p.conversationId) {
      const c = await load(root, p.conversationId, problems);
      for (const x of problems) log.warn(`chat: ${x}`);
      conversation = { id: c.header.id, title: c.header.title, run: runView(c.header.runId), createdAt: c.header.createdAt, turns: c.turns.map(turnView), citations: c.citations.map((x) => citationView(x, corpus)) };
    } else {
      const citations = await draftCitations(root, p.runId);
      const run = runView(p.runId);
      conversation = { id: null, title: run ? l10n.t('About: {0}', run.goal ?? run.runId) : l10n.t('Questions about the corpus'), run, createdAt: null, turns: [], citations: citations.map((x) => citationView(x, corpus)) };
    }
    const summaries = await listConversations(root).catch((e: Error) => (log.warn(`chat: listing conversations failed: ${e.message}`), []));
    const history: ChatHistoryEntry[] = summaries.slice(0, HISTORY_SHOWN).map((s) => ({ ...s, runGoal: s.runId ? (runs.find((r) => r.run_id === s.runId)?.goal ?? null) : null }));
    return { root, conversation, history, problems };
  }

  async function turn(p: ChatTurnParams, signal: AbortSignal): Promise<ChatTurnResult> {
    const { askId } = p;
    const q = p.question.trim();
    const started = Date.now();
    let unsent = '';
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (unsent) void ctx.connection.sendNotification(chatDeltaNotification, { askId, text: unsent });
      unsent = '';
    };
    try {
      if (!q) throw new EngineError('bad-request', l10n.t('the question is empty.'));
      const corpus = ctx.state.current();
      if (!corpus) throw new EngineError('no-corpus', l10n.t('no corpus is indexed; open a corpus folder and run "Marker Research: Index Corpus".'));
      const root = corpus.root;
      const conversation = p.conversationId ? await load(root, p.conversationId) : await createConversation(root, { runId: p.runId, title: clip(q.replace(/\s+/g, ' '), 80) });
      if (signal.aborted) throw new CancelledError();
      void ctx.connection.sendNotification(chatTurnStartNotification, { askId, conversationId: conversation.header.id, question: q });
      const notes: string[] = [];
      const t = await resources.withKey(p.apiKey, async () => {
        const askCtx = await resources.contextFor(corpus, p, { askId, asker: 'chat' }, signal);
        const model = resources.modelFor(p, notes);
        return runChatTurn(askCtx, conversation, q, {
          model,
          promptsDir: ctx.state.promptsDir,
          signal,
          onDelta: (text) => {
            unsent += text;
            timer ??= setTimeout(flush, DELTA_MS);
          },
        });
      });
      flush();
      log.info(
        `chat #${askId}: "${clip(q)}" in ${conversation.header.id}${conversation.header.runId ? ` (run ${conversation.header.runId})` : ''} → ${t.mode}, ${t.engine}${t.cancelled ? ', stopped' : ''}; ${t.citations.length} cited${t.loaded.length ? `, ${t.loaded.length} loaded ([${t.loaded.map((l) => l.number).join('], [')}])` : ''} in ${Math.round(t.ms)} ms`,
      );
      for (const n of t.notes) log.info(`chat #${askId}: ${n}`);
      const places: ChatCitationPlace[] = [];
      for (const c of t.citations) {
        try {
          places.push(citationPlace(root, c));
        } catch {
          // a span whose file is outside the corpus folder does not open
        }
      }
      return { conversationId: conversation.header.id, runId: conversation.header.runId, turn: turnView(t), places, notes };
    } catch (e) {
      flush();
      if (e instanceof CancelledError || signal.aborted) {
        log.info(`chat #${askId}: stopped after ${Date.now() - started} ms`);
        throw e instanceof EngineError ? e : new CancelledError();
      }
      if (e instanceof EngineError) log.warn(`chat #${askId}: ${e.message}`);
      else log.error(`chat #${askId}: "${clip(q)}" failed: ${(e as Error).stack ?? (e as Error).message}`);
      throw e;
    }
  }

  async function citation(p: ChatCitationParams): Promise<ChatCitationPlace> {
    const root = rootOf(p);
    if (!root) throw new EngineError('no-corpus', l10n.t('no corpus folder is open.'));
    const citations = p.conversationId ? (await load(root, p.conversationId)).citations : await draftCitations(root, p.runId);
    const c = citations.find((x) => x.number === p.number);
    if (!c) throw new EngineError('not-found', l10n.t('no citation [{0}] in this conversation.', p.number));
    return citationPlace(root, c);
  }

  ctx.connection.onRequest(chatViewRequest, guarded((raw) => view(parseSelection(raw, chatViewRequest.method))));

  ctx.connection.onRequest(
    chatLatestRequest,
    guarded(async (raw) => {
      const p = parseLatest(raw, chatLatestRequest.method);
      const root = rootOf(p);
      const latest = root ? (await listConversations(root).catch(() => [])).find((c) => c.runId === p.runId && c.turns > 0) : undefined;
      return { conversationId: latest?.id ?? null };
    }),
  );

  ctx.connection.onRequest(chatTurnRequest, async (raw, token) => {
    let p: ChatTurnParams;
    try {
      p = parseTurn(raw, chatTurnRequest.method);
    } catch (e) {
      throw toResponseError(e);
    }
    // One question at a time: a new one stops the one being answered and waits until its turn is settled.
    const before = pending;
    if (before) {
      before.controller.abort();
      await before.done.catch(() => undefined);
    }
    // Aborted by the request's token, "Cancel" (cancel-all), or the next question.
    const controller = new AbortController();
    const done = ctx.running.run(token, (signal) => {
      if (signal.aborted) controller.abort();
      else signal.addEventListener('abort', () => controller.abort(), { once: true });
      return turn(p, controller.signal);
    });
    const mine = { controller, done };
    pending = mine;
    try {
      return await done;
    } catch (e) {
      throw toResponseError(e);
    } finally {
      if (pending === mine) pending = undefined;
    }
  });

  ctx.connection.onRequest(chatCitationRequest, guarded((raw) => citation(parseCitation(raw, chatCitationRequest.method))));
}
