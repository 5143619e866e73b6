/**
 * Issue 10, class 5 — secrets in URLs. A base URL with credentials
 * (`http://user:key@host/v1`) is refused up front with `LlmError('config')` that names the
 * problem but never the secret (the key belongs in the API key setting / env variable);
 * nothing reaches the server, nothing is retried, no log line or error carries the secret.
 * Every URL's credentials (and key-like query parameters) are redacted by one helper, which
 * the logger applies to every line. An authentication failure is never retried.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { z } from 'zod';
import { createModelClient } from '../../src/core/llm/client';
import { createEmbeddingClient } from '../../src/core/llm/embeddings';
import { OpenAIProvider } from '../../src/core/llm/openaiProvider';
import { withRetry } from '../../src/core/llm/retry';
import { LlmError } from '../../src/core/llm/types';
import { consoleLogger, redactingLogger, redactUrlCredentials } from '../../src/core/util/log';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { recordingLogger } from '../support/testing';

const SECRET = 'sk-url-secret-4242';
const USER = 'alice';

function withCredentials(url: string): string {
  const u = new URL(url);
  u.username = USER;
  u.password = SECRET;
  return u.toString().replace(/\/$/, '');
}

const schema = z.object({ reply: z.string() });
const request = { messages: [{ role: 'user' as const, content: 'hi' }], schema, schemaName: 'reply', phase: 'test' };

function assertNoSecret(text: string, where: string): void {
  assert.ok(!text.includes(SECRET), `${where} contains the secret: ${text}`);
}

/** Runs `fn`, expecting an LlmError('config') without the secret; returns it. */
async function expectConfigRefusal(fn: () => unknown): Promise<LlmError> {
  let caught: unknown;
  try {
    await fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof LlmError, `expected an LlmError, got ${String(caught)}`);
  assert.equal(caught.reason, 'config', `reason ${caught.reason}: ${caught.message}`);
  assertNoSecret(caught.message, 'the error message');
  assertNoSecret(String(caught.stack), 'the error stack');
  assert.match(caught.message, /credentials/i);
  assert.match(caught.message, /API key/i, 'the message says where the key belongs');
  return caught;
}

describe('credentials in a base URL', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer({ apiKey: SECRET });
  });
  afterEach(() => server.reset());
  after(() => server.close());

  for (const provider of ['openai', 'ollama'] as const) {
    test(`${provider}: refused as a config error, no request, no retry, no secret anywhere`, async () => {
      const log = recordingLogger();
      const baseUrl = withCredentials(provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
      await expectConfigRefusal(async () => {
        const client = createModelClient({ provider, baseUrl, model: 'fake-model', timeoutMs: 5_000 }, { log, retry: { retries: 3, baseMs: 1, maxMs: 5 } });
        await client.complete(request);
      });
      assert.equal(server.requests.length, 0, 'nothing was sent');
      assert.ok(!log.lines.some((l) => /retry/.test(l)), `not retried: ${log.lines.join('\n')}`);
      for (const line of log.lines) assertNoSecret(line, 'a log line');
    });

    test(`${provider} embeddings: refused as a config error, no request, no secret`, async () => {
      const log = recordingLogger();
      const baseUrl = withCredentials(provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
      await expectConfigRefusal(async () => {
        const client = createEmbeddingClient({ provider, baseUrl, model: 'fake-embed', timeoutMs: 5_000 }, { log, retry: { retries: 3, baseMs: 1, maxMs: 5 } });
        await client.embed(['hello']);
      });
      assert.equal(server.requests.length, 0, 'nothing was sent');
      for (const line of log.lines) assertNoSecret(line, 'a log line');
    });
  }

  test('a username alone is refused too (it is a credential)', async () => {
    const u = new URL(server.openaiBaseUrl);
    u.username = SECRET;
    await expectConfigRefusal(() => createModelClient({ provider: 'openai', baseUrl: u.toString(), model: 'fake-model' }));
  });

  test('the same server with the key as API key works (the documented way)', async () => {
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', apiKey: SECRET });
    const { value } = await client.complete(request);
    assert.equal(typeof value.reply, 'string');
  });

  test('a provider built directly with such a URL: the failure is not retried and does not carry the secret', async () => {
    const log = recordingLogger();
    const provider = new OpenAIProvider({ baseUrl: withCredentials(server.openaiBaseUrl), model: 'fake-model', contextTokens: 8192, timeoutMs: 5_000 });
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model' }, { provider, log, retry: { retries: 3, baseMs: 1, maxMs: 5 } });
    await assert.rejects(client.complete(request), (e: unknown) => {
      assert.ok(e instanceof Error);
      assertNoSecret(e.message, 'the error message');
      assertNoSecret(String(e.stack), 'the error stack');
      for (let c: unknown = e.cause, i = 0; c instanceof Error && i < 5; c = c.cause, i++) assertNoSecret(`${c.message} ${String(c.stack)}`, 'a cause');
      return true;
    });
    assert.ok(!log.lines.some((l) => /retry/.test(l)), `not retried: ${log.lines.join('\n')}`);
    for (const line of log.lines) assertNoSecret(line, 'a log line');
  });
});

describe('authentication failures', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer({ apiKey: 'the-right-key' });
  });
  after(() => server.close());

  test('a 401 is never retried', async () => {
    const log = recordingLogger();
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', apiKey: 'a-wrong-key' }, { log, retry: { retries: 3, baseMs: 1, maxMs: 5 } });
    await assert.rejects(client.complete(request), (e: unknown) => e instanceof LlmError && e.reason === 'auth');
    assert.equal(server.chatRequests().length, 1);
  });

  test('withRetry does not retry an error carrying a 401/403 status, whatever its reason says', async () => {
    for (const status of [401, 403, 407]) {
      let calls = 0;
      await assert.rejects(
        withRetry(
          () => {
            calls++;
            return Promise.reject(new LlmError('server', `status ${status}`, { status }));
          },
          { retries: 3, baseMs: 1, maxMs: 2 },
        ),
      );
      assert.equal(calls, 1, `status ${status} retried`);
    }
  });
});

describe('one URL redaction helper, applied by the logger', () => {
  test('redactUrlCredentials strips user info and key-like query values', () => {
    const text = `failed: GET http://${USER}:${SECRET}@127.0.0.1:1234/v1/models and https://${SECRET}@example.com/x?api-key=${SECRET}&model=m and ws://h/p?token=${SECRET}`;
    const out = redactUrlCredentials(text);
    assertNoSecret(out, 'the redacted text');
    assert.ok(!out.includes(`${USER}:`), out);
    assert.match(out, /http:\/\/\*\*\*@127\.0\.0\.1:1234\/v1\/models/);
    assert.match(out, /model=m/);
  });

  test('every logger line is redacted, also without a configured secret', () => {
    const lines: string[] = [];
    const log = consoleLogger({ write: (t: string) => lines.push(t) }, { level: 'debug' });
    log.info(`llm: openai at http://${USER}:${SECRET}@host/v1`);
    log.error(`Request cannot be constructed from a URL that includes credentials: http://${USER}:${SECRET}@host/v1/chat/completions`);
    const rec = recordingLogger();
    redactingLogger(rec, []).warn(`x https://${USER}:${SECRET}@h/`);
    for (const l of [...lines, ...rec.lines]) assertNoSecret(l, 'a log line');
  });
});
