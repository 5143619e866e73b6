/**
 * Vectors for Ask through the engine: the real server on an in-memory
 * connection, the real `openai` embedding client against the fake model
 * server. The first question embeds the corpus (progress notifications tagged
 * with the ask id) and the vector strategy finds hits; the next question
 * embeds only itself, with the API key of its own request; stopping the
 * embedding answers without vectors until the context is dropped; the openai
 * provider without a key warns once and asks without vectors.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { indexRequest, type ModelAccess } from '../../src/shared/lspProtocol';
import {
  askInvalidateNotification, askRequest, askWarningNotification, vectorCancelNotification, vectorProgressNotification,
  type AskResponse, type AskWarningParams, type VectorProgressParams,
} from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { defaultEmbedder, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';

const KEY = 'sk-test-ENGINE-VECTORS-7f3e';
const QUESTION = 'What did the reviewers say about the winter range of the heat pump?';

describe('engine: vectors for Ask through the fake embeddings endpoint', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection;
  let server: FakeModelServer;
  let askId = 0;
  const progress: VectorProgressParams[] = [];
  const warnings: AskWarningParams[] = [];
  const access = (over: Record<string, unknown> = {}, apiKey: string | null = KEY): ModelAccess => ({
    settings: settingsSchema.parse({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: '', embeddingModel: 'fake-embed', ...over }),
    apiKey: apiKey ?? undefined,
  });
  const ask = (a: ModelAccess, question = QUESTION): Promise<AskResponse> =>
    engine.client.sendRequest(askRequest.method, { ...a, askId: ++askId, question, itemId: null, session: [] }) as Promise<AskResponse>;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-engine-vectors-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
    server = await startFakeModelServer({ apiKey: KEY });
    engine = await startEngine();
    engine.client.onNotification(vectorProgressNotification.method, (p: VectorProgressParams) => void progress.push(p));
    engine.client.onNotification(askWarningNotification.method, (p: AskWarningParams) => void warnings.push(p));
    await engine.client.sendRequest(indexRequest.method, { root, settings: settingsSchema.parse({}) });
  });
  beforeEach(() => server.reset());
  after(async () => {
    engine.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
    assert.ok(!engine.logs.some((l) => l.message.includes(KEY)), 'the API key is never logged');
  });

  test('the first question embeds the corpus (progress tagged with its id) and the vector strategy finds hits', async () => {
    const r = await ask(access());
    const mine = progress.filter((p) => p.askId === askId && p.asker === 'ask');
    assert.equal(mine[0]?.kind, 'begin');
    assert.equal(mine.at(-1)?.kind, 'end');
    assert.ok(mine.some((p) => p.kind === 'report' && p.total > 0), 'reports with done/total');
    assert.ok(mine.every((p) => p.model === 'fake-embed'));
    const embeds = server.embeddingRequests('openai');
    assert.ok(embeds.length >= 2, 'the corpus and the question were embedded');
    assert.ok(embeds.reduce((n, e) => n + (e.inputs?.length ?? 0), 0) > 10, 'many windows');
    assert.ok(r.result.hits.some((h) => h.matchedBy.includes('vector')), `a hit found by vectors: ${r.result.hits.map((h) => h.matchedBy.join('+')).join(', ')}`);
    assert.ok(engine.logs.some((l) => /ask: context for \d+ items built .*vectors of fake-embed/.test(l.message)));
  });

  test('the next question embeds only itself, with the key of its own request', async () => {
    const r = await ask(access(), 'How much range do electric cars lose in the cold?');
    const embeds = server.embeddingRequests('openai');
    assert.equal(embeds.length, 1, 'one query embedding, no sync');
    assert.equal(embeds[0]!.inputs?.length, 1);
    assert.ok(r.result.hits.some((h) => h.matchedBy.includes('vector')));
    // A request with another key: the searcher kept with the context does not reuse the first one.
    server.reset();
    const wrong = await ask(access({}, 'sk-wrong-key'), 'Is a heat pump worth it in winter?');
    assert.equal(server.embeddingRequests('openai')[0]?.status, 401, 'the query embedding went with the wrong key');
    assert.ok(!wrong.result.hits.some((h) => h.matchedBy.includes('vector')));
    assert.ok(wrong.result.notes.some((n) => /vector strategy failed/.test(n)), wrong.result.notes.join('; '));
  });

  test('stopping the embedding answers without vectors; dropping the context embeds again', async () => {
    // Another embedding model: a new store to fill. Its embedding requests are held until the
    // test lets them go (after the question was answered), so only the stop can end the embedding
    // (a held request the stop failed to end gets the server's 500 after its responder timeout).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.setEmbedder(async (req) => {
      await released;
      return defaultEmbedder(req);
    });
    const slow = access({ embeddingModel: 'fake-embed-slow' });
    const pending = ask(slow);
    const id = askId;
    const held = await server.waitForRequest((q) => q.model === 'fake-embed-slow' && q.inputs !== undefined);
    await engine.client.sendNotification(vectorCancelNotification.method, {});
    const r = await pending;
    try {
      await assertSettledBeforeAnswer(server, held, 'the question whose embedding was stopped');
    } finally {
      release();
    }
    assert.equal(progress.find((p) => p.askId === id)?.kind, 'begin', 'the embedding began');
    assert.ok(!r.result.hits.some((h) => h.matchedBy.includes('vector')), 'answered without vectors');
    assert.ok(r.result.hits.length > 0, 'the other strategies answered');
    assert.equal(progress.filter((p) => p.askId === id).at(-1)?.kind, 'end');
    assert.ok(engine.logs.some((l) => /vectors: embedding cancelled/.test(l.message)));
    server.setEmbedder(undefined);
    const again = await ask(slow);
    assert.ok(!again.result.hits.some((h) => h.matchedBy.includes('vector')), 'the context without vectors is kept');
    await engine.client.sendNotification(askInvalidateNotification.method, {});
    const rebuilt = await ask(slow);
    assert.ok(rebuilt.result.hits.some((h) => h.matchedBy.includes('vector')), 'after the context was dropped, vectors again');
  });

  test('the openai provider without a base URL or a key: warned once, asked without vectors, no request made', async () => {
    const before = warnings.length;
    const r = await ask(access({ baseUrl: '' }, null));
    assert.equal(server.requests.length, 0);
    assert.ok(r.result.hits.length > 0);
    assert.ok(!r.result.hits.some((h) => h.matchedBy.includes('vector')));
    assert.equal(warnings.length, before + 1);
    assert.match(warnings.at(-1)!.message, /needs an API key for embeddings/);
    await ask(access({ baseUrl: '' }, null), 'Is a heat pump worth it?');
    assert.equal(warnings.length, before + 1, 'once per context');
  });
});
