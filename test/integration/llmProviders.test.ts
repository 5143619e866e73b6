/**
 * The model layer (src/core/llm) with the real `openai` and `ollama` clients against the fake
 * model server on 127.0.0.1, through every fault: 429, 500, timeouts, connection resets,
 * malformed envelopes, invalid content and its repair, context-length errors and cancellation.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient, type ModelClient, type ModelClientDeps, type ModelConfigInput } from '../../src/core/llm/client';
import { OllamaProvider } from '../../src/core/llm/ollamaProvider';
import { OpenAIProvider } from '../../src/core/llm/openaiProvider';
import { Semaphore } from '../../src/core/llm/semaphore';
import { estimateTokens as ourEstimate } from '../../src/core/llm/tokens';
import { LlmError, isContextLengthError, type ChatMessage, type ModelProvider, type StructuredRequest } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { transcriptWindowReplySchema, type TranscriptWindowReply } from '../../src/core/markers/schema';
import { CancelledError } from '../../src/core/util/abort';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { defaultResponder, estimateTokens, HOLD_OPEN_MS, inFlightGate, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { recordingSleep } from '../support/recordingSleep';
import { recordingLogger } from '../support/testing';

const MODEL = 'fake-model';
const SECRET = 'sk-test-NEVER-LOG-4f1b2c';
const CONTEXT = 4096;
const FAST_RETRY = { retries: 2, baseMs: 5, maxMs: 50 } as const;

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Extract facts, opinions and datapoints as JSON.' },
  { role: 'user', content: '[t1 Ana] We planted 40 hectares of rice in 2023, and I think it paid off.' },
];

const VALID_REPLY: TranscriptWindowReply = {
  facts: [{ text: 'Ana planted rice.', quote: 'We planted 40 hectares of rice', topic: 'rice farming', confidence: 0.9 }],
  opinions: [{ text: 'Ana thinks it paid off.', quote: 'I think it paid off', topic: 'rice farming', confidence: 0.8 }],
  datapoints: [{ text: '40 hectares of rice were planted in 2023.', quote: 'We planted 40 hectares of rice in 2023', topic: 'planted area', confidence: 1 }],
  topics: ['rice farming'],
};

function request(overrides: Partial<StructuredRequest<TranscriptWindowReply>> = {}): StructuredRequest<TranscriptWindowReply> {
  return { messages: MESSAGES, schema: transcriptWindowReplySchema, schemaName: 'transcript_window', phase: 'markers', step: 'transcript', ...overrides };
}


function bodyOf(r: RecordedRequest | undefined): Record<string, unknown> {
  assert.ok(r, 'expected a recorded request');
  assert.equal(typeof r.body, 'object');
  return r.body as Record<string, unknown>;
}

function promptTokensOf(messages: readonly { content: string }[]): number {
  return estimateTokens(messages.map((m) => m.content).join(''));
}

for (const kind of ['openai', 'ollama'] as const) {
  describe(`${kind} provider through the model client, against the fake server`, () => {
    let server: FakeModelServer;
    /** Every line any client of this suite logged. */
    const logged = recordingLogger();

    const baseUrl = (): string => (kind === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
    const config = (overrides: Partial<ModelConfigInput> = {}): ModelConfigInput => ({
      provider: kind,
      baseUrl: baseUrl(),
      model: MODEL,
      apiKey: SECRET,
      contextTokens: CONTEXT,
      timeoutMs: 5_000,
      ...overrides,
    });
    const client = (overrides: Partial<ModelConfigInput> = {}, deps: ModelClientDeps = {}): ModelClient =>
      createModelClient(config(overrides), { log: logged, retry: FAST_RETRY, semaphore: new Semaphore(4), ledger: new UsageLedger(), ...deps });
    const chats = (): RecordedRequest[] => server.chatRequests(kind);

    before(async () => {
      server = await startFakeModelServer({ apiKey: SECRET, responderTimeoutMs: 2 * HOLD_OPEN_MS });
    });
    afterEach(() => {
      // Every Ollama request, whatever the test, sets num_ctx and asks not to truncate.
      if (kind === 'ollama') {
        for (const r of chats()) {
          const body = bodyOf(r);
          assert.equal((body.options as Record<string, unknown> | undefined)?.num_ctx, CONTEXT, `request ${r.seq} lacks num_ctx`);
          assert.equal(body.truncate, false);
          assert.equal(body.stream, false);
        }
      }
      server.reset();
    });
    after(() => server.close());

    test('a structured call validates with transcriptWindowReplySchema; usage as the server reports it', async () => {
      const c = client();
      const result = await c.complete(request());
      assert.deepEqual(transcriptWindowReplySchema.parse(result.value), result.value);
      assert.ok(result.value.facts.length > 0);
      assert.equal(result.repaired, false);
      assert.equal(result.attempts, 1);
      const [recorded] = chats();
      assert.equal(chats().length, 1);
      const reply = JSON.stringify(result.value);
      assert.deepEqual(result.usage, { promptTokens: promptTokensOf(MESSAGES), completionTokens: estimateTokens(reply), estimated: false });
      assert.deepEqual(recorded?.messages, MESSAGES);
      const body = bodyOf(recorded);
      if (kind === 'openai') {
        assert.equal(recorded?.headers.authorization, `Bearer ${SECRET}`);
        const format = body.response_format as { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
        assert.equal(format.type, 'json_schema');
        assert.equal(format.json_schema.name, 'transcript_window');
        assert.equal(format.json_schema.strict, false);
        assert.deepEqual(Object.keys(format.json_schema.schema.properties as object), ['facts', 'opinions', 'datapoints', 'topics']);
      } else {
        const format = body.format as Record<string, unknown>;
        assert.deepEqual(Object.keys(format.properties as object), ['facts', 'opinions', 'datapoints', 'topics']);
        assert.deepEqual(body.options, { num_ctx: CONTEXT, temperature: 0 });
      }
      assert.equal(c.ledger.byStep()['markers/transcript']?.totalTokens, result.usage.promptTokens + result.usage.completionTokens);
    });

    test('429 then success: our retry (2 requests), a long retry-after capped at maxMs', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 30 });
      const log = recordingLogger();
      const waits = recordingSleep();
      const result = await client({}, { log, retry: { ...FAST_RETRY, sleep: waits.sleep } }).complete(request());
      assert.deepEqual(waits.waits, [{ ms: FAST_RETRY.maxMs, outcome: 'elapsed' }], 'the 30 s retry-after must be capped at maxMs');
      assert.ok(result.value.facts.length > 0);
      assert.deepEqual(chats().map((r) => r.status), [429, 200]);
      if (kind === 'openai') assert.equal(chats()[1]?.headers['x-stainless-retry-count'], '0', 'the SDK itself must not retry');
      const retry = log.lines.find((l) => l.includes('rate-limited, retry 1/2 in'));
      assert.ok(retry, log.lines.join('\n'));
      assert.match(retry, /in 50 ms/);
    });

    test('500 on every try: LlmError("server") after the retries are used up', async () => {
      server.injectFault({ kind: 'status', status: 500, times: 5 });
      await assert.rejects(client().complete(request()), (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'server');
        assert.equal(error.status, 500);
        assert.match(error.message, /^llm: /);
        return true;
      });
      assert.equal(chats().length, 1 + FAST_RETRY.retries);
    });

    for (const headersFirst of [false, true]) {
      test(`a reply slower than the timeout (headersFirst: ${headersFirst}) is a timeout, then the retry succeeds`, async () => {
        // The slow reply is held for a minute: the call only succeeds if it gave up on it and retried.
        server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst });
        const result = await client({ timeoutMs: 1_000 }).complete(request());
        assert.ok(result.value.facts.length > 0);
        assert.equal(chats().length, 2);
        assert.equal(chats()[0]?.fault, 'slow');
        assert.notEqual(chats()[0]?.outcome, 'completed', 'the slow reply was not waited for');
        await server.waitForRequest((r) => r.seq === chats()[0]?.seq && r.outcome === 'clientClosed');
      });
    }

    test('a timeout with no retries left surfaces as LlmError("timeout")', async () => {
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
      await assert.rejects(client({ timeoutMs: 150 }, { retry: { retries: 0 } }).complete(request()), { name: 'LlmError', reason: 'timeout' });
      assert.equal(chats().length, 1);
    });

    test('a connection reset is a network error, retried', async () => {
      server.injectFault({ kind: 'resetConnection' });
      const result = await client().complete(request());
      assert.ok(result.value.facts.length > 0);
      assert.deepEqual(chats().map((r) => r.outcome), ['reset', 'completed']);
      server.injectFault({ kind: 'resetConnection' });
      await assert.rejects(client({}, { retry: { retries: 0 } }).complete(request()), { reason: 'network' });
    });

    test('a malformed JSON envelope is a server error, retried (no repair round)', async () => {
      server.injectFault({ kind: 'malformedJson' });
      const result = await client().complete(request());
      assert.equal(result.repaired, false);
      assert.deepEqual(chats().map((r) => r.fault), ['malformedJson', undefined]);
    });

    test('invalid content, then a good repair: repaired, 2 requests, usage of both summed', async () => {
      server.injectFault({ kind: 'badContent', content: '```json\n{"facts": [{"text": "unfinished' });
      const c = client();
      const result = await c.complete(request());
      assert.equal(result.repaired, true);
      assert.equal(result.attempts, 2);
      assert.ok(result.value.facts.length > 0);
      const [first, second] = chats();
      assert.equal(chats().length, 2);
      // The repair round shows the model its bad reply and the error, after the original conversation.
      const repair = second?.messages ?? [];
      assert.deepEqual(repair.slice(0, 2), MESSAGES);
      assert.equal(repair[2]?.role, 'assistant');
      assert.equal(repair[2]?.content, '```json\n{"facts": [{"text": "unfinished');
      assert.equal(repair[3]?.role, 'user');
      assert.match(repair[3]?.content ?? '', /not valid JSON/);
      assert.match(repair[3]?.content ?? '', /only the corrected JSON/);
      const expected =
        promptTokensOf(first?.messages ?? []) + promptTokensOf(repair) + estimateTokens(repair[2]?.content ?? '') + estimateTokens(JSON.stringify(result.value));
      assert.equal(result.usage.promptTokens + result.usage.completionTokens, expected);
      assert.equal(c.ledger.total().requests, 2);
      assert.equal(c.ledger.total().calls, 1);
    });

    test('valid JSON that fails the schema is repaired with the zod issues quoted', async () => {
      server.injectFault({ kind: 'badContent', content: JSON.stringify({ facts: [{ text: 'x', quote: 'y', topic: 'z', confidence: 7 }], opinions: [], datapoints: [] }) });
      const result = await client().complete(request());
      assert.equal(result.repaired, true);
      const note = chats()[1]?.messages?.[3]?.content ?? '';
      assert.match(note, /facts\[0\]\.confidence/);
      assert.match(note, /topics/);
    });

    test('the repair fails too: LlmError("invalid-reply") with the issues, not retried, tokens still counted', async () => {
      server.injectFault({ kind: 'badContent', content: 'no JSON here', times: 2 });
      const c = client();
      await assert.rejects(c.complete(request()), (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'invalid-reply');
        assert.ok(error.issues && error.issues.length > 0);
        assert.match(error.message, /^llm: reply for transcript_window still invalid after a repair round/);
        return true;
      });
      assert.equal(chats().length, 2);
      assert.equal(c.ledger.total().requests, 2);
      assert.ok(c.ledger.total().totalTokens > 0);
    });

    test('a context-length error is LlmError("context-length"), one request, not retried', async () => {
      server.injectFault({ kind: 'contextLength', contextTokens: CONTEXT });
      await assert.rejects(client().complete(request()), (error: unknown) => {
        assert.ok(isContextLengthError(error));
        assert.match((error as LlmError).message, /context/);
        return true;
      });
      assert.equal(chats().length, 1);

      // And without a fault: a prompt longer than the server's context.
      const small = await startFakeModelServer({ maxContextTokens: 50, apiKey: SECRET });
      try {
        const c = client({ baseUrl: kind === 'openai' ? small.openaiBaseUrl : small.ollamaHost });
        await assert.rejects(c.complete(request({ messages: [{ role: 'user', content: 'word '.repeat(200) }] })), { reason: 'context-length' });
        assert.equal(small.chatRequests().length, 1);
      } finally {
        await small.close();
      }
    });

    test('cancelling aborts the HTTP request in flight and rejects promptly with CancelledError', async () => {
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
      const controller = new AbortController();
      const pending = client({ timeoutMs: 2 * HOLD_OPEN_MS }).complete(request({ signal: controller.signal }));
      const held = await server.waitForRequest((r) => r.fault === 'slow');
      controller.abort();
      await assert.rejects(pending, CancelledError);
      await assertSettledBeforeAnswer(server, held);
      assert.equal(chats().length, 1, 'a cancelled call is not retried');
    });

    test('cancelling during a retry wait rejects promptly; a queued call is dropped', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 30 });
      const controller = new AbortController();
      // Cancel once the 30 s wait has begun: the call must end by cutting the wait short.
      const waits = recordingSleep({ onWait: () => controller.abort() });
      const pending = client({}, { retry: { retries: 3, maxMs: 30_000, sleep: waits.sleep } }).complete(request({ signal: controller.signal }));
      await assert.rejects(pending, CancelledError);
      assert.deepEqual(waits.waits, [{ ms: 30_000, outcome: 'cancelled' }], 'the retry wait was cut short, not waited out');
      assert.equal(chats().length, 1);

      const semaphore = new Semaphore(1);
      server.injectFault({ kind: 'slow', delayMs: 200 });
      const c = client({}, { semaphore });
      const running = c.complete(request());
      const queuedController = new AbortController();
      const queued = c.complete(request({ signal: queuedController.signal }));
      assert.equal(semaphore.waiting, 1);
      queuedController.abort();
      await assert.rejects(queued, CancelledError);
      await running;
      assert.equal(chats().length, 2, 'the queued call never reached the server');
    });

    test('a wrong base URL (a non-JSON 404) is LlmError("config"), not retried, nothing printed to stdout', async () => {
      const printed: unknown[] = [];
      const original = console.log;
      console.log = (...args: unknown[]) => void printed.push(args);
      try {
        await assert.rejects(client({ baseUrl: `${server.url}/wrong` }).complete(request()), { name: 'LlmError', reason: 'config', status: 404 });
      } finally {
        console.log = original;
      }
      assert.deepEqual(printed, []);
      assert.equal(server.requests.filter((r) => r.path.startsWith('/wrong')).length, 1);
    });

    test('usage is recorded per phase and step; estimated when the server reports none', async () => {
      const c = client();
      await c.complete(request({ phase: 'markers', step: 'transcript' }));
      await c.complete(request({ phase: 'markers', step: 'comments' }));
      await c.complete(request({ phase: 'discover', step: undefined }));
      server.setResponder((req) => ({ content: defaultResponder(req), reportUsage: false }));
      const estimated = await c.complete(request({ phase: 'discover', step: undefined }));
      assert.equal(estimated.usage.estimated, true);
      const reply = JSON.stringify(estimated.value);
      assert.deepEqual(estimated.usage, { promptTokens: ourEstimate(MESSAGES.map((m) => m.content).join('')), completionTokens: ourEstimate(reply), estimated: true });

      const byPhase = c.ledger.byPhase();
      assert.equal(byPhase.markers?.calls, 2);
      assert.equal(byPhase.markers?.estimated, false);
      assert.equal(byPhase.discover?.calls, 2);
      assert.equal(byPhase.discover?.estimated, true);
      assert.equal(byPhase.discover?.estimatedCalls, 1);
      assert.deepEqual(Object.keys(c.ledger.byStep()).sort(), ['discover', 'markers/comments', 'markers/transcript']);
      const perCall = promptTokensOf(MESSAGES) + estimateTokens(reply);
      assert.equal(c.ledger.total().totalTokens, 4 * perCall);
    });

    test('concurrent calls share the semaphore limit', async () => {
      for (const [slots, calls] of [[2, 6], [3, 9], [1, 3]] as const) {
        server.reset();
        const semaphore = new Semaphore(slots);
        // The first replies wait until every call holding a slot is at the server (all calls are
        // issued at once): the server then counts as many requests as the semaphore let through.
        const gate = inFlightGate(server, () => semaphore.active);
        server.setResponder(async (req) => {
          await gate();
          return defaultResponder(req);
        });
        const c = client({ timeoutMs: 2 * HOLD_OPEN_MS }, { semaphore });
        const results = await Promise.all(Array.from({ length: calls }, () => c.complete(request())));
        assert.equal(results.length, calls);
        assert.equal(server.maxInFlight, slots, `${calls} calls through ${slots} slots: at most ${server.maxInFlight} requests at once`);
        assert.equal(c.ledger.calls, calls);
      }
    });

    if (kind === 'openai') {
      test('a wrong API key is LlmError("auth"), not retried', async () => {
        await assert.rejects(client({ apiKey: 'sk-wrong-key-123456' }).complete(request()), { reason: 'auth', status: 401 });
        assert.equal(chats().length, 1);
      });

      test('json_object mode puts the schema in the system prompt', async () => {
        server.setResponder((req) => (req.jsonMode && req.schema === undefined ? JSON.stringify(VALID_REPLY) : defaultResponder(req)));
        const result = await client({ jsonMode: 'json_object' }).complete(request());
        assert.deepEqual(result.value, VALID_REPLY);
        const body = bodyOf(chats()[0]);
        assert.deepEqual(body.response_format, { type: 'json_object' });
        const system = chats()[0]?.messages?.[0];
        assert.equal(system?.role, 'system');
        assert.match(system?.content ?? '', /^Extract facts, opinions and datapoints as JSON\.\n\nReply with one JSON object that validates against this JSON schema:\n\{/);
        assert.match(system?.content ?? '', /"datapoints"/);
      });
    }

    test('the provider alone: no retries of its own, LlmError("cancelled") on abort', async () => {
      const provider: ModelProvider =
        kind === 'openai'
          ? new OpenAIProvider({ baseUrl: baseUrl(), model: MODEL, apiKey: SECRET, contextTokens: CONTEXT, timeoutMs: 5_000, log: logged })
          : new OllamaProvider({ baseUrl: baseUrl(), model: MODEL, contextTokens: CONTEXT, timeoutMs: 5_000, log: logged });
      assert.equal(provider.kind, kind);
      assert.equal(provider.contextTokens, CONTEXT);
      server.injectFault({ kind: 'status', status: 503 });
      await assert.rejects(provider.complete(request()), { reason: 'server', status: 503 });
      assert.equal(chats().length, 1);

      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
      const controller = new AbortController();
      const pending = provider.complete(request({ signal: controller.signal }));
      const held = await server.waitForRequest((r) => r.fault === 'slow' && r.status === 200);
      controller.abort();
      await assert.rejects(pending, { name: 'LlmError', reason: 'cancelled' });
      await assertSettledBeforeAnswer(server, held);
    });

    test('the API key never appears in anything logged, even when a server echoes it', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, message: `rate limit for key ${SECRET}` });
      server.injectFault({ kind: 'status', status: 500, times: 3, message: `internal error, key=${SECRET}` });
      const log = recordingLogger();
      await assert.rejects(client({}, { log, retry: { retries: 3, baseMs: 1, maxMs: 5 } }).complete(request()), (error: unknown) => {
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
