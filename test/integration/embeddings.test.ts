/**
 * Embeddings with the real `openai` and `ollama` clients against the fake model server on
 * 127.0.0.1: batching, usage, retries on 429/500/reset/malformed replies, auth, timeouts,
 * cancellation, replies with the wrong vectors; then syncVectors over the demo corpus (a second
 * sync makes no embedding request, a changed item re-embeds only its chunks) and the vector
 * retrieval strategy on top of it.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { EntityIndex } from '../../src/core/ask/entityIndex';
import type { ParsedQuery } from '../../src/core/ask/query';
import { createVectorSearcher, vectorQueryText, vectorStrategy } from '../../src/core/ask/strategies/vector';
import type { AskContext } from '../../src/core/ask/types';
import { syncVectors } from '../../src/core/ask/vectorSync';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createEmbeddingClient, EMBEDDINGS_PHASE, type EmbeddingClient, type EmbeddingClientDeps, type EmbeddingConfigInput } from '../../src/core/llm/embeddings';
import { Semaphore } from '../../src/core/llm/semaphore';
import { LlmError } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { chunkText } from '../../src/core/search/chunker';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { CancelledError } from '../../src/core/util/abort';
import { estimateTokens, fakeEmbedding, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { recordingLogger } from '../support/testing';
import { parsedQuery } from '../support/parsedQuery';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const MODEL = 'fake-embed';
const SECRET = 'sk-test-EMBED-NEVER-LOG-9a7c';
const FAST_RETRY = { retries: 2, baseMs: 5, maxMs: 50 } as const;

function near(actual: Float32Array, expected: readonly number[]): boolean {
  return actual.length === expected.length && expected.every((x, i) => Math.abs(actual[i]! - x) < 1e-6);
}

async function rejectsWith(promise: Promise<unknown>, reason: LlmError['reason']): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected LlmError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    return error;
  }
  assert.fail(`expected LlmError(${reason})`);
}

for (const kind of ['openai', 'ollama'] as const) {
  describe(`${kind} embeddings against the fake server`, () => {
    let server: FakeModelServer;
    const logged = recordingLogger();
    let ledger: UsageLedger;
    const baseUrl = (): string => (kind === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
    const client = (overrides: Partial<EmbeddingConfigInput> = {}, deps: EmbeddingClientDeps = {}): EmbeddingClient =>
      createEmbeddingClient(
        { provider: kind, baseUrl: baseUrl(), model: MODEL, apiKey: SECRET, timeoutMs: 5_000, ...overrides },
        { log: logged, retry: FAST_RETRY, semaphore: new Semaphore(4), ledger, ...deps },
      );
    const embeds = (): ReturnType<FakeModelServer['embeddingRequests']> => server.embeddingRequests(kind);

    before(async () => {
      server = await startFakeModelServer({ apiKey: SECRET });
    });
    afterEach(() => {
      server.reset();
      ledger = new UsageLedger();
    });
    after(async () => {
      await server.close();
      assert.ok(!logged.lines.some((l) => l.includes(SECRET)), 'the API key is never logged');
    });
    ledger = new UsageLedger();

    test('embeds texts in order, one request, usage under phase embeddings', async () => {
      const texts = ['Electric cars lose range in winter.', '热泵在冬天很有用', 'coffee prices'];
      const vectors = await client().embed(texts);
      assert.equal(vectors.length, 3);
      texts.forEach((t, i) => assert.ok(near(vectors[i]!, fakeEmbedding(t)), `vector ${i}`));
      assert.equal(embeds().length, 1);
      const r = embeds()[0]!;
      assert.deepEqual(r.inputs, texts);
      assert.equal(r.model, MODEL);
      const body = r.body as Record<string, unknown>;
      if (kind === 'openai') assert.equal(body.encoding_format, 'float');
      else assert.equal(body.truncate, true);
      const usage = ledger.byPhase()[EMBEDDINGS_PHASE]!;
      assert.equal(usage.calls, 1);
      assert.equal(usage.promptTokens, texts.reduce((s, t) => s + estimateTokens(t), 0));
      assert.equal(usage.estimated, false);
      assert.deepEqual(await client().embed([]), []);
      assert.equal(embeds().length, 1, 'no request for no texts');
    });

    test('batches: 7 texts in batches of 3 make 3 requests, order kept', async () => {
      const texts = Array.from({ length: 7 }, (_, i) => `text number ${i} about topic ${i % 3}`);
      const vectors = await client({ batchSize: 3 }).embed(texts);
      assert.equal(embeds().length, 3);
      assert.deepEqual(embeds().map((r) => r.inputs!.length).sort(), [1, 3, 3]);
      texts.forEach((t, i) => assert.ok(near(vectors[i]!, fakeEmbedding(t)), `vector ${i}`));
      assert.equal(ledger.byPhase()[EMBEDDINGS_PHASE]!.calls, 3);
    });

    test('configured dimensions are asked for and checked', async () => {
      const [v] = await client({ dimensions: 128 }).embed(['winter range']);
      assert.equal(v!.length, 128);
      assert.equal((embeds()[0]!.body as Record<string, unknown>).dimensions, 128);
      server.injectFault({ kind: 'badEmbeddings', dimensions: 64 });
      await rejectsWith(client({ dimensions: 128 }).embed(['winter range']), 'invalid-reply');
    });

    test('429 then success: retried, two requests recorded in the ledger', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, endpoint: 'embeddings' });
      const [v] = await client().embed(['a retried text']);
      assert.ok(near(v!, fakeEmbedding('a retried text')));
      assert.deepEqual(embeds().map((r) => r.status), [429, 200]);
      assert.equal(ledger.byPhase()[EMBEDDINGS_PHASE]!.requests, 2);
      assert.ok(logged.lines.some((l) => /embeddings: rate-limited, retry 1/.test(l)));
    });

    test('500 every time: retries exhausted, LlmError server', async () => {
      server.injectFault({ kind: 'status', status: 500, times: Number.POSITIVE_INFINITY, endpoint: 'embeddings' });
      const error = await rejectsWith(client().embed(['doomed']), 'server');
      assert.equal(error.status, 500);
      assert.equal(embeds().length, FAST_RETRY.retries + 1);
    });

    test('a reset connection and a malformed body are retried', async () => {
      server.injectFault({ kind: 'resetConnection', endpoint: 'embeddings' });
      server.injectFault({ kind: 'malformedJson', endpoint: 'embeddings' });
      const [v] = await client().embed(['survivor']);
      assert.ok(near(v!, fakeEmbedding('survivor')));
      assert.equal(embeds().length, 3);
    });

    test('faults queued for chat requests are not taken by embeddings', async () => {
      server.injectFault({ kind: 'status', status: 500 });
      await client().embed(['fine']);
      assert.equal(server.pendingFaults.length, 1);
      server.reset();
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, endpoint: 'any', protocol: kind });
      await client().embed(['fine']);
      assert.deepEqual(embeds().map((r) => r.status), [429, 200], 'endpoint any: taken by embeddings too');
    });

    test('wrong number of vectors, non-finite values: invalid-reply, not retried', async () => {
      server.injectFault({ kind: 'badEmbeddings', count: 1 });
      const error = await rejectsWith(client().embed(['one', 'two']), 'invalid-reply');
      assert.match(error.message, /expected 2 vectors, got 1/);
      assert.equal(embeds().length, 1);
      server.injectFault({ kind: 'badEmbeddings', nonFinite: true });
      await rejectsWith(client().embed(['one']), 'invalid-reply');
      assert.equal(ledger.byPhase()[EMBEDDINGS_PHASE]!.calls, 2, 'failed replies still count their tokens');
      // Vectors of another size than the earlier ones from the same client.
      const c = client();
      await c.embed(['first']);
      server.injectFault({ kind: 'badEmbeddings', dimensions: 16 });
      await rejectsWith(c.embed(['second']), 'invalid-reply');
    });

    test('a context-length error is reported as such', async () => {
      server.injectFault({ kind: 'contextLength', endpoint: 'embeddings', contextTokens: 512 });
      await rejectsWith(client().embed(['long']), 'context-length');
    });

    test('a slow reply past the deadline: LlmError timeout', async () => {
      server.injectFault({ kind: 'slow', delayMs: 2_000, endpoint: 'embeddings', times: Number.POSITIVE_INFINITY });
      await rejectsWith(client({ timeoutMs: 150 }, { retry: { retries: 0 } }).embed(['slow']), 'timeout');
    });

    test('cancel aborts the request in flight with CancelledError', async () => {
      server.injectFault({ kind: 'slow', delayMs: 5_000, endpoint: 'embeddings' });
      const controller = new AbortController();
      const pending = client({ batchSize: 1 }).embed(['a', 'b'], controller.signal);
      await server.waitForRequest((r) => r.path.endsWith('embed') || r.path.endsWith('embeddings'));
      controller.abort();
      await assert.rejects(pending, CancelledError);
      const first = await server.waitForRequest((r) => r.fault === 'slow' && r.outcome !== 'pending');
      assert.equal(first.outcome, 'clientClosed');
      await assert.rejects(client().embed(['x'], controller.signal), CancelledError);
    });

    if (kind === 'openai') {
      test("the SDK's default base64 encoding is served too", async () => {
        const sdk = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: SECRET, maxRetries: 0 });
        const reply = await sdk.embeddings.create({ model: MODEL, input: ['heat pumps in winter', 'bike lanes'] });
        assert.equal((embeds()[0]!.body as Record<string, unknown>).encoding_format, 'base64');
        assert.ok(near(Float32Array.from(reply.data[1]!.embedding), fakeEmbedding('bike lanes')));
      });

      test('a wrong API key: LlmError auth, not retried', async () => {
        await rejectsWith(client({ apiKey: 'sk-wrong' }).embed(['secret stuff']), 'auth');
        assert.equal(embeds().length, 1);
      });
    }
  });
}

function question(text: string, keywords: string[] = []): ParsedQuery {
  return parsedQuery({ question: text, keywords, confidence: 0.8, strategies: ['vector'] });
}

for (const kind of ['ollama', 'openai'] as const) {
  describe(`${kind}: syncVectors and the vector strategy over the demo corpus`, () => {
    let server: FakeModelServer;
    let dir: string;
    let corpus: Corpus;
    let index: CorpusIndex;
    // Hashed bags of words need room: at 64 dimensions a long chunk is close to noise.
    const embedder = (): EmbeddingClient =>
      createEmbeddingClient({ provider: kind, baseUrl: kind === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: MODEL, dimensions: 256, batchSize: 16 }, { retry: FAST_RETRY });

    before(async () => {
      server = await startFakeModelServer();
      dir = await mkdtemp(path.join(tmpdir(), 'mr-embed-'));
      await cp(DEMO, dir, { recursive: true });
      corpus = await loadCorpus(dir);
      index = (await CorpusIndex.open(corpus)).index;
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('first sync embeds every chunk; the second makes no embedding request', async () => {
      const first = await syncVectors(corpus, index, embedder());
      assert.equal(first.report.vectors, index.size.chunks);
      assert.equal(first.report.dimensions, 256);
      const sent = server.embeddingRequests(kind).flatMap((r) => r.inputs ?? []);
      assert.equal(sent.length, first.report.embedded);
      assert.ok(server.embeddingRequests(kind).every((r) => (r.inputs?.length ?? 0) <= 16), 'batches of 16');
      server.reset();
      const second = await syncVectors(corpus, index, embedder());
      assert.equal(server.embeddingRequests().length, 0);
      assert.equal(second.report.embedded, 0);
      assert.equal(second.report.reused, index.size.chunks);
    });

    test('a changed item: only its new chunk texts are embedded', async () => {
      const file = path.join(dir, 'coffee-market-report', 'transcript.txt');
      await writeFile(file, `${await readFile(file, 'utf8')}Cardamom espresso tonic is the summer special.\n`);
      corpus = await loadCorpus(dir);
      index = (await CorpusIndex.open(corpus)).index;
      server.reset();
      const { report } = await syncVectors(corpus, index, embedder());
      assert.deepEqual(report.updatedItems, ['coffee-market-report']);
      const coffee = corpus.items.find((i) => i.id === 'coffee-market-report')!;
      const coffeeTexts = new Set(index.itemChunkIds(coffee.id).map((id) => chunkText(coffee, index.chunk(id)!)));
      const sent = server.embeddingRequests(kind).flatMap((r) => r.inputs ?? []);
      assert.ok(sent.length > 0 && sent.length < coffeeTexts.size, `sent ${sent.length} of ${coffeeTexts.size}`);
      assert.ok(sent.every((t) => coffeeTexts.has(t)));
      assert.ok(sent.some((t) => t.includes('Cardamom')));
    });

    test('the vector strategy proposes the nearest chunks, within the scope, with why', async () => {
      const client = embedder();
      const { store } = await syncVectors(corpus, index, client);
      const ctx: AskContext = { corpus, index, entities: {} as unknown as EntityIndex, markers: new Map(), vectors: createVectorSearcher(store, index, client) };
      server.reset();
      const q = question('What happened to arabica coffee prices?', ['arabica', 'futures']);
      assert.equal(vectorQueryText(q), 'What happened to arabica coffee prices? futures');
      const { list: hits } = await vectorStrategy.run(q, {}, ctx);
      assert.ok(hits.length > 0);
      assert.equal(hits[0]!.itemId, 'coffee-market-report');
      assert.match(hits[0]!.why!, /^embedding fake-embed cos 0\.\d\d$/);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
      const item = corpus.items.find((i) => i.id === hits[0]!.itemId)!;
      const text = (hits[0]!.part === 'transcript' ? item.transcript : item.comments)!.text.slice(hits[0]!.start, hits[0]!.end);
      assert.match(text, /arabica/i);
      assert.equal(server.embeddingRequests().length, 1, 'one embedding request for the question');
      await vectorStrategy.run(q, {}, ctx);
      assert.equal(server.embeddingRequests().length, 1, 'the question vector is cached');

      const { list: scoped } = await vectorStrategy.run(question('冬天 续航 热泵'), { itemIds: ['ev-winter-range'], part: 'comments' }, ctx);
      assert.ok(scoped.length > 0 && scoped.every((h) => h.itemId === 'ev-winter-range' && h.part === 'comments'));
      assert.deepEqual((await vectorStrategy.run(q, { itemIds: ['ev-winter-range'] }, ctx)).list, [], 'nothing shares a word with the question there: no candidates');
      const { list: liked } = await vectorStrategy.run(question('冬天 电车 续航 掉电 热泵'), { minLikes: 100 }, ctx);
      assert.ok(liked.length > 0);
      for (const h of liked) {
        const chunk = index.itemChunkIds(h.itemId).map((id) => index.chunk(id)!).find((c) => c.start === h.start && c.part === h.part)!;
        assert.ok((chunk.likes ?? 0) >= 100);
      }
      const { list: zh } = await vectorStrategy.run(question('冬天 电车 续航 掉电'), {}, ctx);
      assert.equal(zh[0]?.itemId, 'ev-winter-range');

      assert.deepEqual(await vectorStrategy.run(q, {}, { ...ctx, vectors: undefined }), { list: [] }, 'off without an embedding model');
      assert.deepEqual(await vectorStrategy.run(q, { itemIds: [] }, ctx), { list: [] });
    });

    test('the strategy passes a cancel on as CancelledError', async () => {
      const client = embedder();
      const { store } = await syncVectors(corpus, index, client);
      const ctx: AskContext = { corpus, index, entities: {} as unknown as EntityIndex, markers: new Map(), vectors: createVectorSearcher(store, index, client) };
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(Promise.resolve(vectorStrategy.run(question('bike lanes'), {}, ctx, controller.signal)), CancelledError);
    });
  });
}
