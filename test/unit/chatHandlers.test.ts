/**
 * The engine's chat requests through the protocol (an in-memory connection to
 * the real server) on a copy of the demo corpus after the README's research
 * run: the view of a conversation not yet started (the report's citations),
 * an offline turn that starts a conversation on disk (start and delta
 * notifications, citations resolved to original places whose text is in the
 * file), the conversation and history, the newest conversation about a run,
 * a citation question over the report, a turn with the fake model streamed in
 * several deltas, a stop mid-stream that keeps the turn marked, and errors
 * with a reason.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { loadConversation } from '../../src/core/chat/conversationStore';
import { ENGINE_ERROR_CODE, indexRequest, type EngineErrorData, type ModelAccess } from '../../src/shared/lspProtocol';
import {
  chatCitationRequest, chatDeltaNotification, chatLatestRequest, chatTurnRequest, chatTurnStartNotification, chatViewRequest,
  type ChatCitationPlace, type ChatDeltaParams, type ChatTurnResult, type ChatTurnStartParams, type ChatViewResult,
} from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';
import { rangeText } from '../support/spanText';

const offline: ModelAccess = { settings: settingsSchema.parse({}) };

const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const isUnderstanding = (req: ChatRequestInfo): boolean => JSON.stringify(req.schema ?? '').includes('corpus_keywords');

/** Understanding: the question's words, no entities; answers: cite the first number of the material, or stream a long text. */
function responder(long = false) {
  return (req: ChatRequestInfo): string => {
    const user = lastUser(req);
    if (isUnderstanding(req)) {
      const question = /<question>\s*([\s\S]*?)\s*<\/question>/.exec(user)?.[1] ?? '';
      const cites = [...question.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      const words = question.replace(/[^\p{L}\s]/gu, ' ').split(/\s+/).filter((w) => w.length > 3);
      return JSON.stringify({
        intent: cites.length ? 'citation_lookup' : 'summary', entities: [], keywords: words, corpus_keywords: [],
        time_constraint: null, part: null, citation_numbers: cites, resolved_query: question, confidence: 0.8,
      });
    }
    const n = [...user.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))[0] ?? 1;
    return long ? `${'A long answer that streams slowly. '.repeat(40)}[${n}]` : `The material answers it [${n}]. A second sentence follows.`;
  };
}

const isReason = (reason: string) => (e: unknown): boolean => e instanceof ResponseError && e.code === ENGINE_ERROR_CODE && (e.data as EngineErrorData | undefined)?.reason === reason;

describe('engine: chat requests through the protocol', () => {
  let work: string;
  let root: string;
  let runId: string;
  let engine: EngineConnection;
  let server: FakeModelServer;
  let askId = 0;
  const starts: ChatTurnStartParams[] = [];
  const deltas: ChatDeltaParams[] = [];
  const deltasOf = (id: number): string[] => deltas.filter((d) => d.askId === id).map((d) => d.text);
  const turn = (question: string, sel: { conversationId?: string | null; runId?: string | null }, access: ModelAccess = offline, token?: CancellationTokenSource): Promise<ChatTurnResult> =>
    engine.client.sendRequest(chatTurnRequest.method, { ...access, root, conversationId: sel.conversationId ?? null, runId: sel.runId ?? null, askId: ++askId, question }, token?.token) as Promise<ChatTurnResult>;
  const view = (sel: { conversationId?: string | null; runId?: string | null }): Promise<ChatViewResult> =>
    engine.client.sendRequest(chatViewRequest.method, { root, conversationId: sel.conversationId ?? null, runId: sel.runId ?? null }) as Promise<ChatViewResult>;
  const modelAccess = (): ModelAccess => ({ settings: settingsSchema.parse({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model' }), apiKey: 'sk-test-chat-handlers' });

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-chat-handlers-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
    const r = await runCli(['research', root, '--json']);
    assert.equal(r.code, 0, r.err);
    runId = (JSON.parse(r.out) as { runId: string }).runId;
    server = await startFakeModelServer({ streamChunkChars: 8, streamChunkDelayMs: 30, apiKey: 'sk-test-chat-handlers' });
    engine = await startEngine();
    engine.client.onNotification(chatTurnStartNotification.method, (p: ChatTurnStartParams) => void starts.push(p));
    engine.client.onNotification(chatDeltaNotification.method, (p: ChatDeltaParams) => void deltas.push(p));
  });

  after(async () => {
    engine.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
    assert.ok(!engine.logs.some((l) => l.message.includes('sk-test-chat-handlers')), 'the API key is never logged');
  });

  test('before an index: the view reads the folder the client names; a turn is refused with reason no-corpus', async () => {
    const v = await view({ runId });
    assert.equal(v.root, root);
    assert.equal(v.conversation.id, null);
    assert.equal(v.conversation.run?.runId, runId);
    assert.ok(v.conversation.run?.goal, 'the run goal is read');
    assert.ok(v.conversation.citations.length > 0, "the report's citations");
    assert.ok(v.conversation.citations.every((c) => c.quote === null), 'no quotes without an indexed corpus');
    await assert.rejects(turn('What did Daniel say about parking?', {}), isReason('no-corpus'));
    await engine.client.sendRequest(indexRequest.method, { root, settings: offline.settings });
  });

  test('an offline turn starts a conversation, streams its answer, and its citations open at text that is in the file', async () => {
    const r = await turn('What did Daniel say about retailers and parking?', {});
    const id = askId;
    assert.equal(r.runId, null);
    assert.equal(r.turn.engine, 'extractive');
    assert.equal(r.turn.mode, 'corpus');
    assert.deepEqual(starts.filter((s) => s.askId === id), [{ askId: id, conversationId: r.conversationId, question: 'What did Daniel say about retailers and parking?' }]);
    assert.equal(deltasOf(id).join(''), r.turn.answer, 'the deltas make the answer');
    assert.ok(r.places.length > 0 && r.places.length === r.turn.cited.length, 'a place per cited number');
    for (const p of r.places) {
      assert.ok(p.path.startsWith(root + path.sep));
      assert.ok((await rangeText(p)).trim().length > 0, `[${p.number}] has text in its file`);
      const again = (await engine.client.sendRequest(chatCitationRequest.method, { root, conversationId: r.conversationId, runId: null, number: p.number })) as ChatCitationPlace;
      assert.deepEqual(again, p, 'the citation resolves to the same place later');
    }
    const onDisk = await loadConversation(root, r.conversationId);
    assert.equal(onDisk.turns.length, 1, 'the engine wrote the turn');
    const v = await view({ conversationId: r.conversationId });
    assert.equal(v.conversation.id, r.conversationId);
    assert.equal(v.conversation.turns.length, 1);
    assert.ok(v.conversation.citations.every((c) => c.quote !== null), 'quotes from the indexed corpus');
    assert.ok(v.history.some((h) => h.id === r.conversationId && h.turns === 1));
    const latest = (await engine.client.sendRequest(chatLatestRequest.method, { root, runId: null })) as { conversationId: string | null };
    assert.equal(latest.conversationId, r.conversationId);
  });

  test('about a run: a citation question loads the original; the report citation resolves before any question', async () => {
    const draft = (await engine.client.sendRequest(chatCitationRequest.method, { root, conversationId: null, runId, number: 2 })) as ChatCitationPlace;
    assert.equal(draft.number, 2);
    const r = await turn('What does [2] say?', { runId });
    assert.equal(r.runId, runId);
    assert.equal(r.turn.mode, 'citation');
    assert.deepEqual(r.turn.loaded.map((l) => l.number), [2]);
    const place = r.places.find((p) => p.number === 2)!;
    assert.deepEqual(place, draft);
    assert.equal(r.turn.loaded[0]!.text, await rangeText(place), 'the loaded original is the text at the range of the file');
    await assert.rejects(engine.client.sendRequest(chatCitationRequest.method, { root, conversationId: r.conversationId, runId: null, number: 999 }), isReason('not-found'));
  });

  test('with the fake model: the answer streams in several deltas and its citations resolve', async () => {
    server.setResponder(responder());
    const r = await turn('What did Daniel say about retailers and parking?', {}, modelAccess());
    const id = askId;
    assert.equal(r.turn.engine, 'model');
    assert.ok(deltasOf(id).length > 1, `streamed in ${deltasOf(id).length} deltas`);
    assert.equal(deltasOf(id).join(''), r.turn.answer);
    assert.ok(r.places.length > 0, 'the answer cites');
    for (const p of r.places) assert.ok((await rangeText(p)).trim().length > 0);
    assert.equal(r.notes.length, 0, r.notes.join('; '));
  });

  test('stop mid-stream (the request token): the turn is kept as far as it got, marked', async () => {
    server.setResponder(responder(true));
    const source = new CancellationTokenSource();
    const before = deltas.length;
    const pending = turn('What is the main conclusion of the report?', { runId }, modelAccess(), source);
    const id = askId;
    const started = Date.now();
    while (deltasOf(id).join('').length < 20 && Date.now() - started < 120_000) await new Promise((r) => setTimeout(r, 10));
    source.cancel();
    const r = await pending;
    assert.ok(deltas.length > before);
    assert.equal(r.turn.cancelled, true);
    assert.ok(r.turn.answer.length > 0 && r.turn.answer.length < 1400, `kept the part that arrived (${r.turn.answer.length} chars)`);
    const onDisk = await loadConversation(root, r.conversationId);
    assert.equal(onDisk.turns.at(-1)!.cancelled, true);
  });

  test('an unknown conversation is not-found; a malformed request is bad-request', async () => {
    await assert.rejects(view({ conversationId: 'no-such-conversation' }), isReason('not-found'));
    await assert.rejects(turn('Anything?', { conversationId: 'no-such-conversation' }), isReason('not-found'));
    await assert.rejects(engine.client.sendRequest(chatViewRequest.method, { root, conversationId: '../escape', runId: null }), isReason('bad-request'));
  });
});
