/**
 * The real `openai` and `ollama` clients against the fake model server (loopback only).
 *
 * These pin down both the fake server's protocol fidelity and the clients' own behaviour on
 * retries, aborts and errors, which the provider layer relies on.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { Ollama } from 'ollama';
import { z } from 'zod';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { estimateTokens, HOLD_OPEN_MS, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';

const MODEL = 'fake-model';

/** A schema shaped like a research marker: nested object, array, enum, nullable, bounded numbers. */
const MarkerReply = z.object({
  markers: z
    .array(
      z.object({
        label: z.string().min(1),
        kind: z.enum(['claim', 'question', 'quote']),
        confidence: z.number().min(0).max(1),
        timestamp: z.string().regex(/^\d{1,2}:\d{2}(:\d{2})?$/),
        quote: z.string().nullable(),
        span: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }),
      }),
    )
    .min(2),
  language: z.enum(['en', 'zh']),
  summary: z.string().max(200).optional(),
});

function openaiClient(server: FakeModelServer, maxRetries = 0): OpenAI {
  return new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'test-key', maxRetries, timeout: 10_000 });
}

/**
 * Counts the retries `client` timed by its own backoff rather than by the server's
 * `retry-after`: the SDK computes its own delay only when the server named none.
 */
function countOwnBackoffs(client: OpenAI): { count: number } {
  const counter = { count: 0 };
  const inner = client as unknown as { calculateDefaultRetryTimeoutMillis: (remaining: number, max: number) => number };
  const own = inner.calculateDefaultRetryTimeoutMillis.bind(client);
  inner.calculateDefaultRetryTimeoutMillis = (remaining, max) => {
    counter.count++;
    return own(remaining, max);
  };
  return counter;
}

function ollamaClient(server: FakeModelServer, fetchImpl?: typeof fetch): Ollama {
  return new Ollama({ host: server.ollamaHost, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

function errorField(error: unknown, field: string): unknown {
  return typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[field] : undefined;
}

describe('openai client against the fake model server', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  afterEach(() => server.reset());
  after(() => server.close());

  test('plain chat completion: content, usage, recorded request', async () => {
    const client = openaiClient(server);
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'What is said about rice at 03:12?' },
    ];
    const reply = await client.chat.completions.create({ model: MODEL, messages });

    assert.equal(reply.object, 'chat.completion');
    assert.equal(reply.model, MODEL);
    assert.equal(reply.choices[0]?.message.role, 'assistant');
    assert.equal(reply.choices[0]?.message.content, 'fake reply to: What is said about rice at 03:12?');
    assert.equal(reply.choices[0]?.finish_reason, 'stop');
    const promptTokens = estimateTokens('You are terse.What is said about rice at 03:12?');
    const completionTokens = estimateTokens('fake reply to: What is said about rice at 03:12?');
    assert.deepEqual(
      { p: reply.usage?.prompt_tokens, c: reply.usage?.completion_tokens, t: reply.usage?.total_tokens },
      { p: promptTokens, c: completionTokens, t: promptTokens + completionTokens },
    );

    const [recorded] = server.chatRequests('openai');
    assert.ok(recorded);
    assert.equal(server.chatRequests().length, 1);
    assert.equal(recorded.path, '/v1/chat/completions');
    assert.equal(recorded.model, MODEL);
    assert.deepEqual(recorded.messages, messages);
    assert.equal(recorded.headers.authorization, 'Bearer test-key');
    assert.equal(recorded.status, 200);

    // Same request, same reply.
    const again = await client.chat.completions.create({ model: MODEL, messages });
    assert.equal(again.choices[0]?.message.content, reply.choices[0]?.message.content);
  });

  test('streaming completion with usage in the final chunk', async () => {
    const client = openaiClient(server);
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: '总结这段视频的要点 and list the key claims' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let finishReason: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    assert.equal(text, 'fake reply to: 总结这段视频的要点 and list the key claims');
    assert.ok(chunks > 3, `expected several chunks, got ${chunks}`);
    assert.equal(finishReason, 'stop');
    assert.equal(usage?.prompt_tokens, estimateTokens('总结这段视频的要点 and list the key claims'));
    assert.equal(usage?.completion_tokens, estimateTokens(text));
  });

  test('structured output from a zod 4 schema validates with that schema', async () => {
    const client = openaiClient(server);
    const schema = z.toJSONSchema(MarkerReply);
    const reply = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Extract markers.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'markers', schema, strict: true } },
    });
    const content = reply.choices[0]?.message.content ?? '';
    const parsed = MarkerReply.parse(JSON.parse(content));
    assert.equal(parsed.markers.length, 2);
    assert.deepEqual(server.chatRequests()[0]?.body, {
      model: MODEL,
      messages: [{ role: 'user', content: 'Extract markers.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'markers', schema: JSON.parse(JSON.stringify(schema)) as unknown, strict: true } },
    });
  });

  test('json_object mode returns a JSON object', async () => {
    const reply = await openaiClient(server).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Reply in JSON.' }],
      response_format: { type: 'json_object' },
    });
    assert.deepEqual(JSON.parse(reply.choices[0]?.message.content ?? ''), { reply: 'fake reply to: Reply in JSON.' });
  });

  test('429 is retried by the client itself, honouring retry-after', async () => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0.02 });
    const client = openaiClient(server, 2);
    const ownBackoffs = countOwnBackoffs(client);
    const reply = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0]?.message.content, 'fake reply to: hi');
    const chats = server.chatRequests();
    assert.equal(chats.length, 2);
    assert.deepEqual(chats.map((r) => r.status), [429, 200]);
    assert.deepEqual(chats.map((r) => r.fault), ['status', undefined]);
    assert.equal(chats[1]?.headers['x-stainless-retry-count'], '1');
    assert.equal(ownBackoffs.count, 0, 'the wait came from the server\'s retry-after, not the SDK\'s own backoff');

    // Without a retry-after the SDK falls back on its own backoff (so the count above means something).
    server.injectFault({ kind: 'status', status: 429 });
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(ownBackoffs.count, 1);
  });

  test('500 with maxRetries 0 surfaces as OpenAI.APIError with status 500', async () => {
    server.injectFault({ kind: 'status', status: 500 });
    await assert.rejects(
      openaiClient(server, 0).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError);
        assert.ok(error instanceof OpenAI.InternalServerError);
        assert.equal(error.status, 500);
        assert.equal(error.type, 'server_error');
        return true;
      },
    );
    assert.equal(server.chatRequests().length, 1);
  });

  test('faults can be limited to a protocol and a count', async () => {
    server.injectFault({ kind: 'status', status: 503, protocol: 'ollama' });
    server.injectFault({ kind: 'status', status: 503, protocol: 'openai', times: 2 });
    const client = openaiClient(server, 0);
    const ask = () => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    await assert.rejects(ask(), { status: 503 });
    await assert.rejects(ask(), { status: 503 });
    const ok = await ask();
    assert.equal(ok.choices[0]?.finish_reason, 'stop');
    assert.equal(server.pendingFaults.length, 1);
    assert.equal(server.pendingFaults[0]?.protocol, 'ollama');
  });

  test('context-length error: injected fault and automatic maxContextTokens', async () => {
    server.injectFault({ kind: 'contextLength', contextTokens: 8192 });
    await assert.rejects(
      openaiClient(server).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'short' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 'context_length_exceeded');
        assert.equal(error.param, 'messages');
        assert.match(error.message, /maximum context length is 8192 tokens/);
        return true;
      },
    );

    const small = await startFakeModelServer({ maxContextTokens: 10 });
    try {
      const client = openaiClient(small);
      const fits = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'tiny' }] });
      assert.equal(fits.choices[0]?.finish_reason, 'stop');
      await assert.rejects(
        client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x'.repeat(41) }] }),
        { status: 400, code: 'context_length_exceeded' },
      );
    } finally {
      await small.close();
    }
  });

  test('a slow reply is abandoned when the AbortSignal fires, and the server notices', async () => {
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
    const controller = new AbortController();
    const pending = openaiClient(server, 2).chat.completions.create(
      { model: MODEL, messages: [{ role: 'user', content: 'take your time' }] },
      { signal: controller.signal },
    );
    const held = await server.waitForRequest((r) => r.fault === 'slow');
    controller.abort();
    await assert.rejects(pending, OpenAI.APIUserAbortError);
    await assertSettledBeforeAnswer(server, held, 'the aborted request');
    assert.equal(server.chatRequests().length, 1, 'an aborted request is not retried');
  });

  test('aborting a stream after its headers arrived ends the iteration without an error', async () => {
    // A surprise worth knowing: openai's Stream swallows AbortError mid-stream (it just stops).
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
    const controller = new AbortController();
    const stream = await openaiClient(server).chat.completions.create(
      { model: MODEL, messages: [{ role: 'user', content: 'stream slowly' }], stream: true },
      { signal: controller.signal },
    );
    const held = await server.waitForRequest((r) => r.fault === 'slow' && r.status === 200);
    let chunks = 0;
    const iterating = (async () => {
      for await (const chunk of stream) {
        chunks += chunk.choices.length;
      }
    })();
    controller.abort(); // while the iteration waits for the held body
    await iterating;
    await assertSettledBeforeAnswer(server, held, 'the aborted stream');
    assert.equal(chunks, 0);
    assert.ok(controller.signal.aborted);
  });

  test('malformed JSON bodies surface as errors (plain and streamed)', async () => {
    server.injectFault({ kind: 'malformedJson', times: 2 });
    const client = openaiClient(server);
    await assert.rejects(
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      SyntaxError,
    );
    // The SDK logs an unparsable stream event (at level "error") before throwing; keep the test output clean.
    const quiet = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'test-key', maxRetries: 0, logLevel: 'off' });
    const stream = await quiet.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    await assert.rejects(async () => {
      for await (const chunk of stream) void chunk;
    }, SyntaxError);
    assert.deepEqual(server.chatRequests().map((r) => r.status), [200, 200]);
  });

  test('badContent returns a valid envelope with content that fails validation', async () => {
    server.injectFault({ kind: 'badContent', content: '{"markers": [' });
    const reply = await openaiClient(server).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Extract markers.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'markers', schema: z.toJSONSchema(MarkerReply) } },
    });
    assert.equal(reply.choices[0]?.message.content, '{"markers": [');
    assert.throws(() => JSON.parse(reply.choices[0]?.message.content ?? ''), SyntaxError);
  });

  test('connection reset: APIConnectionError without retries, recovered with them', async () => {
    server.injectFault({ kind: 'resetConnection' });
    await assert.rejects(
      openaiClient(server, 0).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      OpenAI.APIConnectionError,
    );
    server.injectFault({ kind: 'resetConnection' });
    const reply = await openaiClient(server, 1).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0]?.message.content, 'fake reply to: hi');
    assert.deepEqual(server.chatRequests().map((r) => r.outcome), ['reset', 'reset', 'completed']);
  });

  test('max_tokens truncates the reply with finish_reason "length"', async () => {
    const reply = await openaiClient(server).chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'a long question that produces a long answer' }],
      max_tokens: 3,
    });
    assert.equal(reply.choices[0]?.finish_reason, 'length');
    assert.equal(reply.usage?.completion_tokens, 3);
    assert.ok(estimateTokens(reply.choices[0]?.message.content ?? '') <= 3);
  });

  test('custom responder and models endpoint', async () => {
    server.setResponder((req) => ({ content: `${req.protocol}:${req.model}:${req.messages.length}`, completionTokens: 7 }));
    const client = openaiClient(server);
    const reply = await client.chat.completions.create({ model: 'other-model', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(reply.choices[0]?.message.content, 'openai:other-model:1');
    assert.equal(reply.usage?.completion_tokens, 7);
    const models = await client.models.list();
    assert.deepEqual(models.data.map((m) => m.id), ['fake-model']);
  });
});

describe('ollama client against the fake model server', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  afterEach(() => server.reset());
  after(() => server.close());

  test('chat with stream:false: content and token counts', async () => {
    const messages = [{ role: 'user', content: 'Which dishes are mentioned?' }];
    const reply = await ollamaClient(server).chat({ model: MODEL, messages, stream: false });
    assert.equal(reply.model, MODEL);
    assert.equal(reply.message.role, 'assistant');
    assert.equal(reply.message.content, 'fake reply to: Which dishes are mentioned?');
    assert.equal(reply.done, true);
    assert.equal(reply.done_reason, 'stop');
    assert.equal(reply.prompt_eval_count, estimateTokens('Which dishes are mentioned?'));
    assert.equal(reply.eval_count, estimateTokens(reply.message.content));
    assert.ok(reply.total_duration > 0);
    const [recorded] = server.chatRequests('ollama');
    assert.equal(recorded?.path, '/api/chat');
    assert.equal(recorded?.model, MODEL);
    assert.deepEqual(recorded?.messages, messages);
    assert.equal(errorField(recorded?.body, 'stream'), false);
  });

  test('streaming chat through the async iterator', async () => {
    const stream = await ollamaClient(server).chat({
      model: MODEL,
      messages: [{ role: 'user', content: '这个视频讲了什么？ Give details.' }],
      stream: true,
    });
    let text = '';
    let parts = 0;
    let last: { done: boolean; eval_count: number; prompt_eval_count: number } | undefined;
    for await (const part of stream) {
      parts++;
      text += part.message.content;
      last = part;
    }
    assert.equal(text, 'fake reply to: 这个视频讲了什么？ Give details.');
    assert.ok(parts > 2);
    assert.equal(last?.done, true);
    assert.equal(last?.eval_count, estimateTokens(text));
    assert.equal(last?.prompt_eval_count, estimateTokens('这个视频讲了什么？ Give details.'));
  });

  test('raw HTTP: /api/chat streams NDJSON when "stream" is absent, like real Ollama', async () => {
    const response = await fetch(`${server.ollamaHost}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hello there' }] }),
    });
    assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
    const lines = (await response.text()).trim().split('\n').map((l) => JSON.parse(l) as { done: boolean; message: { content: string } });
    assert.ok(lines.length > 1);
    assert.equal(lines.at(-1)?.done, true);
    assert.equal(lines.map((l) => l.message.content).join(''), 'fake reply to: hello there');
  });

  test('structured output with format: <json schema> validates with zod', async () => {
    const reply = await ollamaClient(server).chat({
      model: MODEL,
      messages: [{ role: 'user', content: 'Extract markers.' }],
      format: z.toJSONSchema(MarkerReply),
      stream: false,
    });
    const parsed = MarkerReply.parse(JSON.parse(reply.message.content));
    assert.ok(parsed.markers.every((m) => m.kind === 'claim' || m.kind === 'question' || m.kind === 'quote'));

    const plainJson = await ollamaClient(server).chat({ model: MODEL, messages: [{ role: 'user', content: 'x' }], format: 'json', stream: false });
    assert.deepEqual(JSON.parse(plainJson.message.content), { reply: 'fake reply to: x' });
  });

  test('a 500 surfaces as ollama ResponseError with status_code (no client retries)', async () => {
    server.injectFault({ kind: 'status', status: 500 });
    await assert.rejects(ollamaClient(server).chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: false }), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'ResponseError');
      assert.equal(errorField(error, 'status_code'), 500);
      assert.equal(error.message, 'llama runner process has terminated: exit status 2');
      return true;
    });
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    await assert.rejects(ollamaClient(server).chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true }), {
      name: 'ResponseError',
      status_code: 429,
    });
    assert.equal(server.chatRequests().length, 2);
  });

  test('context-length error looks like the runner error recent Ollama returns', async () => {
    server.injectFault({ kind: 'contextLength', contextTokens: 4096 });
    await assert.rejects(ollamaClient(server).chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: false }), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.equal(errorField(error, 'status_code'), 400);
      const inner = JSON.parse(error.message) as { error: { type: string; n_ctx: number; n_prompt_tokens: number } };
      assert.equal(inner.error.type, 'exceed_context_size_error');
      assert.equal(inner.error.n_ctx, 4096);
      assert.ok(inner.error.n_prompt_tokens > 4096);
      return true;
    });

    const small = await startFakeModelServer({ maxContextTokens: 5 });
    try {
      await assert.rejects(
        ollamaClient(small).chat({ model: MODEL, messages: [{ role: 'user', content: 'this prompt is too long' }], stream: false }),
        (error: unknown) => errorField(error, 'status_code') === 400 && /exceeds the available context size \(5 tokens\)/.test(String(error)),
      );
    } finally {
      await small.close();
    }
  });

  test('ollama.abort() stops a stream whose headers arrived; the server notices', async () => {
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, headersFirst: true });
    const ollama = ollamaClient(server);
    const stream = await ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'slow' }], stream: true });
    const held = await server.waitForRequest((r) => r.fault === 'slow' && r.status === 200);
    const iterating = assert.rejects(async () => {
      for await (const part of stream) void part;
    }, { name: 'AbortError' });
    ollama.abort(); // while the iteration waits for the held body
    await iterating;
    await assertSettledBeforeAnswer(server, held, 'the aborted stream');
  });

  test('a non-streamed slow reply can only be aborted through a custom fetch', async () => {
    // ollama 0.6.4 passes no signal for stream:false requests, so abort() cannot reach them.
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
    const controller = new AbortController();
    const ollama = ollamaClient(server, (input, init) => fetch(input, { ...init, signal: controller.signal }));
    const pending = ollama.chat({ model: MODEL, messages: [{ role: 'user', content: 'slow' }], stream: false });
    const held = await server.waitForRequest((r) => r.fault === 'slow');
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    await assertSettledBeforeAnswer(server, held, 'the aborted request');
  });

  test('malformed JSON surfaces as a SyntaxError', async () => {
    server.injectFault({ kind: 'malformedJson', protocol: 'ollama' });
    await assert.rejects(ollamaClient(server).chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: false }), SyntaxError);
  });

  test('list and version', async () => {
    const ollama = ollamaClient(server);
    const list = await ollama.list();
    assert.deepEqual(list.models.map((m) => m.name), ['fake-model:latest']);
    const version = await ollama.version();
    assert.equal(typeof version.version, 'string');
  });
});
