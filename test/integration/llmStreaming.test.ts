/**
 * Streamed text answers (`ModelClient.streamText`, `ModelProvider.streamText`) with the real
 * `openai` and `ollama` clients against the fake model server on 127.0.0.1: deltas in order,
 * usage, retries only before the first delta, mid-stream failures, context-length, timeouts,
 * cancellation with the partial answer, and the API key kept out of every log line.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient, type ModelClient, type ModelClientDeps, type ModelConfigInput } from '../../src/core/llm/client';
import { OllamaProvider } from '../../src/core/llm/ollamaProvider';
import { OpenAIProvider } from '../../src/core/llm/openaiProvider';
import { Semaphore } from '../../src/core/llm/semaphore';
import { LlmError, isContextLengthError, type ChatMessage, type ModelProvider, type TextStreamRequest } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { CancelledError } from '../../src/core/util/abort';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { estimateTokens, HOLD_OPEN_MS, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { recordingSleep } from '../support/recordingSleep';
import { recordingLogger } from '../support/testing';

const MODEL = 'fake-model';
const SECRET = 'sk-test-NEVER-LOG-stream-9c1d';
const CONTEXT = 4096;
const CHUNK_CHARS = 8;
/** Delay between streamed chunks on the slow server: each chunk is read before the next comes. */
const SLOW_CHUNK_MS = 40;
const FAST_RETRY = { retries: 2, baseMs: 5, maxMs: 50 } as const;

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer in Markdown; cite sources as [n].' },
  { role: 'user', content: 'What did Ana plant in 2023, and did it pay off?' },
];

const ANSWER = '## Rice\n\nAna planted **40 hectares** of rice in 2023 [1].\n\n- 她认为这是值得的 [2]\n- yields rose\n';

/** The pieces the fake server streams `text` in (code points, like the server). */
function parts(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += CHUNK_CHARS) out.push(chars.slice(i, i + CHUNK_CHARS).join(''));
  return out;
}

function request(overrides: Partial<TextStreamRequest> = {}): TextStreamRequest {
  return { messages: MESSAGES, phase: 'chat', step: 'answer', ...overrides };
}

/** An onDelta that records every piece. */
function collector(): { deltas: string[]; onDelta: (text: string) => void } {
  const deltas: string[] = [];
  return { deltas, onDelta: (text) => void deltas.push(text) };
}

function bodyOf(r: RecordedRequest | undefined): Record<string, unknown> {
  assert.ok(r, 'expected a recorded request');
  assert.equal(typeof r.body, 'object');
  return r.body as Record<string, unknown>;
}

const promptTokens = estimateTokens(MESSAGES.map((m) => m.content).join(''));

for (const kind of ['openai', 'ollama'] as const) {
  describe(`${kind}: streamed text through the model client, against the fake server`, () => {
    let server: FakeModelServer;
    let slow: FakeModelServer;
    /** Every line any client of this suite logged. */
    const logged = recordingLogger();
    /** Stream events before the first content delta (OpenAI sends a role-only event first). */
    const lead = kind === 'openai' ? 1 : 0;

    const baseUrlOf = (s: FakeModelServer): string => (kind === 'openai' ? s.openaiBaseUrl : s.ollamaHost);
    const client = (overrides: Partial<ModelConfigInput> = {}, deps: ModelClientDeps = {}): ModelClient =>
      createModelClient(
        { provider: kind, baseUrl: baseUrlOf(server), model: MODEL, apiKey: SECRET, contextTokens: CONTEXT, timeoutMs: 5_000, ...overrides },
        { log: logged, retry: FAST_RETRY, semaphore: new Semaphore(4), ledger: new UsageLedger(), ...deps },
      );
    const slowClient = (overrides: Partial<ModelConfigInput> = {}, deps: ModelClientDeps = {}): ModelClient =>
      client({ baseUrl: baseUrlOf(slow), ...overrides }, deps);
    const chats = (s: FakeModelServer = server): RecordedRequest[] => s.chatRequests(kind);

    before(async () => {
      const options = { apiKey: SECRET, streamChunkChars: CHUNK_CHARS, responder: () => ANSWER };
      server = await startFakeModelServer(options);
      slow = await startFakeModelServer({ ...options, streamChunkDelayMs: SLOW_CHUNK_MS });
    });
    afterEach(() => {
      // Every request of this suite streams; Ollama ones set num_ctx and ask not to truncate.
      for (const r of [...chats(server), ...chats(slow)]) {
        const body = bodyOf(r);
        assert.equal(body.stream, true, `request ${r.seq} is not streamed`);
        if (kind === 'openai') {
          assert.deepEqual(body.stream_options, { include_usage: true });
          assert.equal(r.headers.authorization, `Bearer ${SECRET}`);
        } else {
          assert.equal((body.options as Record<string, unknown> | undefined)?.num_ctx, CONTEXT, `request ${r.seq} lacks num_ctx`);
          assert.equal(body.truncate, false);
        }
      }
      server.reset();
      slow.reset();
    });
    after(async () => {
      await server.close();
      await slow.close();
    });

    test('deltas arrive in order, one per streamed chunk, and join to the answer; usage as reported, in the ledger', async () => {
      const c = client();
      const { deltas, onDelta } = collector();
      const result = await c.streamText(request(), onDelta);
      assert.deepEqual(deltas, parts(ANSWER));
      assert.ok(deltas.length > 5);
      assert.equal(result.text, ANSWER);
      assert.equal(result.finishReason, 'stop');
      assert.deepEqual(result.usage, { promptTokens, completionTokens: estimateTokens(ANSWER), estimated: false });
      assert.equal(chats().length, 1);
      assert.deepEqual(chats()[0]?.messages, MESSAGES);
      const step = c.ledger.byStep()['chat/answer'];
      assert.equal(step?.calls, 1);
      assert.equal(step?.requests, 1);
      assert.equal(step?.totalTokens, promptTokens + estimateTokens(ANSWER));
      assert.equal(step?.estimated, false);
      if (kind === 'ollama') assert.deepEqual(bodyOf(chats()[0]).options, { num_ctx: CONTEXT, temperature: 0 });
    });

    test('usage is estimated when the server reports none; maxTokens cuts the answer: finishReason "length"', async () => {
      server.setResponder(() => ({ content: ANSWER, reportUsage: false }));
      const c = client();
      const estimated = await c.streamText(request({ step: undefined }), () => {});
      assert.equal(estimated.text, ANSWER);
      assert.deepEqual(estimated.usage, { promptTokens, completionTokens: estimateTokens(ANSWER), estimated: true });
      assert.equal(c.ledger.byPhase().chat?.estimated, true);
      assert.deepEqual(Object.keys(c.ledger.byStep()), ['chat']);

      server.setResponder(() => ANSWER);
      const { deltas, onDelta } = collector();
      const cut = await c.streamText(request({ maxTokens: 5, temperature: 0.3 }), onDelta);
      assert.equal(cut.finishReason, 'length');
      assert.ok(cut.text.length > 0 && cut.text.length < ANSWER.length);
      assert.ok(ANSWER.startsWith(cut.text));
      assert.equal(deltas.join(''), cut.text);
      assert.equal(cut.usage.completionTokens, 5);
      const body = bodyOf(chats()[1]);
      if (kind === 'openai') {
        assert.equal(body.max_tokens, 5);
        assert.equal(body.temperature, 0.3);
      } else {
        assert.deepEqual(body.options, { num_ctx: CONTEXT, temperature: 0.3, num_predict: 5 });
      }
    });

    test('429 before the first delta: retried, and every delta arrives exactly once', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0 });
      const log = recordingLogger();
      const { deltas, onDelta } = collector();
      const result = await client({}, { log }).streamText(request(), onDelta);
      assert.deepEqual(deltas, parts(ANSWER));
      assert.equal(result.text, ANSWER);
      assert.deepEqual(chats().map((r) => r.status), [429, 200]);
      if (kind === 'openai') assert.equal(chats()[1]?.headers['x-stainless-retry-count'], '0', 'the SDK itself must not retry');
      assert.ok(log.lines.some((l) => l.includes('llm: chat/answer: rate-limited, retry 1/2')), log.lines.join('\n'));
    });

    test('500 on every try: LlmError("server") after the retries, no delta', async () => {
      server.injectFault({ kind: 'status', status: 500, times: 5 });
      const { deltas, onDelta } = collector();
      await assert.rejects(client().streamText(request(), onDelta), (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'server');
        assert.equal(error.status, 500);
        assert.match(error.message, /^llm: /);
        return true;
      });
      assert.equal(chats().length, 1 + FAST_RETRY.retries);
      assert.deepEqual(deltas, []);
    });

    test('a malformed first event or a reset before the reply: retried, no duplicate deltas', async () => {
      server.injectFault({ kind: 'malformedJson' });
      const first = collector();
      assert.equal((await client().streamText(request(), first.onDelta)).text, ANSWER);
      assert.deepEqual(first.deltas, parts(ANSWER));
      assert.deepEqual(chats().map((r) => r.fault), ['malformedJson', undefined]);

      server.reset();
      server.setResponder(() => ANSWER);
      server.injectFault({ kind: 'resetConnection' });
      const second = collector();
      assert.equal((await client().streamText(request(), second.onDelta)).text, ANSWER);
      assert.deepEqual(second.deltas, parts(ANSWER));
      assert.deepEqual(chats().map((r) => r.outcome), ['reset', 'completed']);
    });

    test('a malformed event mid-stream: LlmError("server"), not retried, the deltas before it delivered once, tokens counted', async () => {
      slow.injectFault({ kind: 'malformedJson', afterChunks: lead + 2 });
      const c = slowClient();
      const { deltas, onDelta } = collector();
      await assert.rejects(c.streamText(request(), onDelta), (error: unknown) => {
        assert.ok(error instanceof LlmError, String(error));
        assert.equal(error.reason, 'server');
        assert.ok(error.usage?.estimated);
        return true;
      });
      assert.deepEqual(deltas, parts(ANSWER).slice(0, 2));
      assert.equal(chats(slow).length, 1, 'a failure after the first delta is never retried');
      assert.equal(c.ledger.calls, 1);
      assert.deepEqual(c.ledger.byStep()['chat/answer']?.completionTokens, estimateTokens(deltas.join('')));
    });

    test('the connection reset mid-stream: LlmError("network"), not retried, no duplicate deltas', async () => {
      slow.injectFault({ kind: 'resetConnection', afterChunks: lead + 3 });
      const { deltas, onDelta } = collector();
      await assert.rejects(slowClient().streamText(request(), onDelta), (error: unknown) => {
        assert.ok(error instanceof LlmError, String(error));
        assert.equal(error.reason, 'network');
        return true;
      });
      assert.deepEqual(deltas, parts(ANSWER).slice(0, 3));
      assert.deepEqual(chats(slow).map((r) => r.outcome), ['reset']);
    });

    test('a context-length error: LlmError("context-length"), one request, no delta', async () => {
      server.injectFault({ kind: 'contextLength', contextTokens: CONTEXT });
      const { deltas, onDelta } = collector();
      await assert.rejects(client().streamText(request(), onDelta), (error: unknown) => {
        assert.ok(isContextLengthError(error), String(error));
        return true;
      });
      assert.equal(chats().length, 1);
      assert.deepEqual(deltas, []);

      const small = await startFakeModelServer({ maxContextTokens: 10, apiKey: SECRET });
      try {
        await assert.rejects(client({ baseUrl: baseUrlOf(small) }).streamText(request(), () => {}), { reason: 'context-length' });
        assert.equal(small.chatRequests().length, 1);
      } finally {
        await small.close();
      }
    });

    test('a response slower than timeoutMs is a timeout, retried; a stream silent for longer fails with LlmError("timeout")', async () => {
      // The first reply is held for a minute: the answer only arrives if the client gave up on it and retried.
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
      const { deltas, onDelta } = collector();
      const result = await client({ timeoutMs: 1_000 }).streamText(request(), onDelta);
      assert.equal(result.text, ANSWER);
      assert.deepEqual(deltas, parts(ANSWER));
      assert.deepEqual(chats().map((r) => r.fault), ['slow', undefined]);
      assert.notEqual(chats()[0]?.outcome, 'completed', 'the held reply was not waited for');
      await server.waitForRequest((r) => r.seq === chats()[0]?.seq && r.outcome === 'clientClosed');

      // Chunks SLOW_CHUNK_MS apart against a shorter silence limit: it fails before the stream ends.
      await assert.rejects(slowClient({ timeoutMs: SLOW_CHUNK_MS / 4 }, { retry: { retries: 0 } }).streamText(request(), () => {}), { name: 'LlmError', reason: 'timeout' });
      assert.notEqual(chats(slow)[0]?.outcome, 'completed', 'the stream was given up before it ended');
      await slow.waitForRequest((r) => r.outcome === 'clientClosed');
    });

    test('cancel mid-stream: resolves with the partial text and finishReason "cancelled"; the server sees the client close', async () => {
      // A long answer: streaming all of it takes the slow server many seconds, far longer than a prompt cancel.
      const long = ANSWER.repeat(40);
      slow.setResponder(() => long);
      const controller = new AbortController();
      const c = slowClient({ timeoutMs: 2 * HOLD_OPEN_MS });
      const deltas: string[] = [];
      const result = await c.streamText(request({ signal: controller.signal }), (text) => {
        deltas.push(text);
        if (deltas.length === 2) controller.abort();
      });
      const streaming = chats(slow)[0];
      assert.ok(streaming);
      await assertSettledBeforeAnswer(slow, streaming, 'the cancelled stream');
      assert.equal(result.finishReason, 'cancelled');
      assert.deepEqual(deltas, parts(long).slice(0, 2), 'nothing is delivered after the cancel');
      assert.equal(result.text, deltas.join(''));
      assert.deepEqual(result.usage, { promptTokens, completionTokens: estimateTokens(result.text), estimated: true });
      assert.equal(c.ledger.byStep()['chat/answer']?.calls, 1, 'the partial answer is accounted');
      assert.equal(chats(slow).length, 1);
    });

    test('cancel before the first delta (in flight or in a retry wait): CancelledError, promptly, not retried', async () => {
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
      const controller = new AbortController();
      const { deltas, onDelta } = collector();
      const c = client({ timeoutMs: 2 * HOLD_OPEN_MS });
      const pending = c.streamText(request({ signal: controller.signal }), onDelta);
      const held = await server.waitForRequest((r) => r.fault === 'slow' && r.status === 200);
      controller.abort();
      await assert.rejects(pending, CancelledError);
      await assertSettledBeforeAnswer(server, held);
      assert.equal(chats().length, 1);
      assert.deepEqual(deltas, []);
      assert.equal(c.ledger.calls, 0);

      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 30 });
      const waiting = new AbortController();
      // Cancel once the 30 s wait has begun: the call must end by cutting the wait short.
      const waits = recordingSleep({ onWait: () => waiting.abort() });
      const retrying = client({}, { retry: { retries: 3, maxMs: 30_000, sleep: waits.sleep } }).streamText(request({ signal: waiting.signal }), onDelta);
      await assert.rejects(retrying, CancelledError);
      assert.deepEqual(waits.waits, [{ ms: 30_000, outcome: 'cancelled' }], 'the retry wait was cut short, not waited out');
      assert.equal(chats().length, 2);

      const already = new AbortController();
      already.abort();
      await assert.rejects(client().streamText(request({ signal: already.signal }), onDelta), CancelledError);
      assert.equal(chats().length, 2, 'an aborted signal sends nothing');
    });

    test('an error thrown by onDelta aborts the stream and is rethrown as it is, not retried', async () => {
      const boom = new Error('ui gone');
      let calls = 0;
      await assert.rejects(
        slowClient().streamText(request(), () => {
          calls++;
          throw boom;
        }),
        (error: unknown) => error === boom,
      );
      assert.equal(calls, 1);
      assert.equal(chats(slow).length, 1);
      await slow.waitForRequest((r) => r.outcome === 'clientClosed');
    });

    test('the provider alone: streams without retries; LlmError("cancelled") when aborted before a delta', async () => {
      const provider: ModelProvider =
        kind === 'openai'
          ? new OpenAIProvider({ baseUrl: baseUrlOf(server), model: MODEL, apiKey: SECRET, contextTokens: CONTEXT, timeoutMs: 5_000, log: logged })
          : new OllamaProvider({ baseUrl: baseUrlOf(server), model: MODEL, apiKey: SECRET, contextTokens: CONTEXT, timeoutMs: 5_000, log: logged });
      assert.ok(provider.streamText);
      const { deltas, onDelta } = collector();
      const result = await provider.streamText(request(), onDelta);
      assert.equal(result.text, ANSWER);
      assert.deepEqual(deltas, parts(ANSWER));

      server.injectFault({ kind: 'status', status: 503 });
      await assert.rejects(provider.streamText(request(), () => {}), { name: 'LlmError', reason: 'server', status: 503 });
      assert.equal(chats().length, 2);

      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
      const controller = new AbortController();
      const pending = provider.streamText(request({ signal: controller.signal }), () => {});
      const held = await server.waitForRequest((r) => r.fault === 'slow' && r.status === 200);
      controller.abort();
      await assert.rejects(pending, { name: 'LlmError', reason: 'cancelled' });
      await assertSettledBeforeAnswer(server, held);
    });

    test('the API key never appears in anything logged, even when a server echoes it', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, message: `rate limit for key ${SECRET}` });
      server.injectFault({ kind: 'status', status: 500, times: 3, message: `internal error, key=${SECRET}` });
      const log = recordingLogger();
      await assert.rejects(client({}, { log, retry: { retries: 3, baseMs: 1, maxMs: 5 } }).streamText(request(), () => {}), (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'server');
        assert.ok(!error.message.includes(SECRET), error.message);
        return true;
      });
      assert.ok(log.lines.some((l) => l.includes('***')), 'the echoed key should show redacted');
      for (const line of [...log.lines, ...logged.lines]) assert.ok(!line.includes(SECRET), `logged: ${line}`);
      assert.ok(logged.lines.length > 5, 'the suite should have logged something');
    });
  });
}

describe('streamText with a provider that cannot stream', () => {
  test('LlmError("config"), nothing sent', async () => {
    const provider: ModelProvider = {
      kind: 'openai',
      model: 'stub',
      contextTokens: 1000,
      complete: () => Promise.reject(new Error('not used')),
    };
    const c = createModelClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'stub' }, { provider });
    await assert.rejects(c.streamText(request(), () => {}), { name: 'LlmError', reason: 'config' });
  });
});
