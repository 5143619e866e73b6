/**
 * Issue 10, class 8 — slow failure. With the real `openai` and `ollama` clients against the fake
 * model server: a 429 storm and repeated 500s give up within the retry budget (retry-after waits
 * count) with a plain message (the status said once, "gave up after N retries in S s"); a slow
 * server fails within the request timeout (a timed-out request is retried once) and the message
 * says it timed out after N s; the usage ledger counts failed calls and every request they made;
 * the CLI's `--timeout SECONDS` reaches the model config.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { after, afterEach, before, describe, test } from 'node:test';
import { markersCommand } from '../../src/cli/markersCommand';
import { createModelClient, type ModelClient, type ModelClientDeps } from '../../src/core/llm/client';
import { plainFailure } from '../../src/core/llm/retry';
import { Semaphore } from '../../src/core/llm/semaphore';
import { LlmError, type StructuredRequest, type TextStreamRequest } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { transcriptWindowReplySchema, type TranscriptWindowReply } from '../../src/core/markers/schema';
import { HOLD_OPEN_MS, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { recordingSleep } from '../support/recordingSleep';
import { recordingLogger } from '../support/testing';

const MODEL = 'fake-model';

function request(): StructuredRequest<TranscriptWindowReply> {
  return {
    messages: [
      { role: 'system', content: 'Extract facts as JSON.' },
      { role: 'user', content: '[t1 Ana] We planted 40 hectares of rice in 2023.' },
    ],
    schema: transcriptWindowReplySchema,
    schemaName: 'transcript_window',
    phase: 'markers',
    step: 'transcript',
  };
}

function streamRequest(): TextStreamRequest {
  return { messages: [{ role: 'user', content: 'What did Ana plant?' }], phase: 'chat', step: 'answer' };
}

/** The error a promise rejects with (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected an LlmError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

/**
 * `count` requests, none answered when the call gave up (the server held them for a minute),
 * each then closed by the client.
 */
async function assertGivenUp(server: FakeModelServer, requests: readonly RecordedRequest[], count: number): Promise<void> {
  assert.equal(requests.length, count);
  assert.deepEqual(requests.filter((r) => r.outcome === 'completed').map((r) => r.seq), [], 'no held request was waited for');
  for (const r of requests) {
    const ended = await server.waitForRequest((q) => q.seq === r.seq && q.outcome !== 'pending');
    assert.equal(ended.outcome, 'clientClosed', `request ${r.seq}`);
  }
}

/** A message is plain: no status said twice ("429 429", "500 500"), no SDK class names. */
function assertPlain(message: string): void {
  assert.doesNotMatch(message, /\b(\d{3}) \1\b/, `status repeated: ${message}`);
  assert.doesNotMatch(message, /\b(\d{3}) status code\b/, message);
  assert.match(message, /^llm: the model server /, message);
}

for (const kind of ['openai', 'ollama'] as const) {
  describe(`slow failure (${kind}, fake server)`, () => {
    let server: FakeModelServer;
    const baseUrl = (): string => (kind === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
    const client = (timeoutMs: number, deps: ModelClientDeps = {}): ModelClient =>
      createModelClient({ provider: kind, baseUrl: baseUrl(), model: MODEL, apiKey: 'sk-test', timeoutMs }, { semaphore: new Semaphore(4), ledger: new UsageLedger(), log: recordingLogger(), ...deps });

    before(async () => {
      server = await startFakeModelServer();
    });
    afterEach(() => server.reset());
    after(async () => {
      await server.close();
    });

    test('a 429 storm gives up within the retry budget (retry-after waits count), with a plain message', async () => {
      // retry-after 0.8 s on every reply; 4 retries would take ≥ 3.2 s, the budget is 2 s. The
      // waits run on a virtual clock that only they advance: 0.8 + 0.8, and a third would pass 2 s.
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0.8, times: Infinity });
      const budgetMs = 2_000;
      const clock = recordingSleep({ virtual: true });
      const c = client(5_000, { retry: { budgetMs, sleep: clock.sleep, now: clock.now } });
      const error = await failureOf(c.complete(request()));
      assert.deepEqual(clock.waits.map((w) => w.ms), [800, 800], 'the retry-after waits, counted toward the budget');
      assert.ok(clock.now() <= budgetMs, `waited ${clock.now()} ms, budget ${budgetMs} ms`);
      assert.equal(error.reason, 'rate-limited');
      assert.equal(error.status, 429);
      assertPlain(error.message);
      assert.match(error.message, /^llm: the model server is rate-limiting requests \(HTTP 429\); gave up after 2 retries in 1\.6 s \(the next wait, 0\.8 s, would pass the retry budget of 2 s\)/);
      const requests = server.chatRequests(kind).length;
      assert.equal(requests, 3);
      // The ledger counts the failed call and every request it made.
      assert.deepEqual({ calls: c.ledger.failures().calls, requests: c.ledger.failures().requests }, { calls: 1, requests });
      assert.equal(c.ledger.failures().byReason['rate-limited'], 1);
      assert.equal(c.ledger.attempts, requests);
      const json = c.ledger.toJSON();
      assert.equal(json.failed.calls, 1);
      assert.equal(json.attempts, requests);
    });

    test('repeated 500s give up within the retry budget with a plain message', async () => {
      server.injectFault({ kind: 'status', status: 500, times: Infinity });
      const budgetMs = 1_000;
      // Every backoff wait near its 400 ms bound (396 ms): 4 retries would take ≥ 1.6 s; on the
      // virtual clock two fit the budget and a third would pass it.
      const clock = recordingSleep({ virtual: true });
      const c = client(5_000, { retry: { baseMs: 400, maxMs: 400, random: () => 0.99, budgetMs, sleep: clock.sleep, now: clock.now } });
      const error = await failureOf(c.complete(request()));
      assert.deepEqual(clock.waits.map((w) => w.ms), [396, 396]);
      assert.ok(clock.now() <= budgetMs, `waited ${clock.now()} ms, budget ${budgetMs} ms`);
      assert.equal(error.reason, 'server');
      assert.equal(error.status, 500);
      assertPlain(error.message);
      assert.match(error.message, /^llm: the model server failed \(HTTP 500\); gave up after 2 retries in 0\.8 s \(the next wait, 0\.4 s, would pass the retry budget of 1 s\)/);
      const requests = server.chatRequests(kind).length;
      assert.equal(requests, 3, `${requests} requests: the budget must stop the retries`);
      assert.equal(c.ledger.failures().calls, 1);
      assert.equal(c.ledger.failures().requests, requests);
    });

    test('retries used up (no budget hit): the message counts them, the status said once', async () => {
      server.injectFault({ kind: 'status', status: 503, times: Infinity });
      const c = client(5_000, { retry: { retries: 2, baseMs: 1, maxMs: 5 } });
      const error = await failureOf(c.complete(request()));
      assertPlain(error.message);
      assert.match(error.message, /^llm: the model server failed \(HTTP 503\); gave up after 2 retries in \d+(\.\d)? s\. Server said: /);
      assert.equal(server.chatRequests(kind).length, 3);
      assert.equal(c.ledger.failures().requests, 3);
    });

    test('a slow server fails within the request timeout (one retry), and the message says it timed out', async () => {
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, times: Infinity });
      const timeoutMs = 500;
      const c = client(timeoutMs, { retry: { baseMs: 1, maxMs: 5 } });
      const error = await failureOf(c.complete(request()));
      // One request, plus the one retry a timeout gets: never the 5 requests of 4 retries; neither waited for.
      await assertGivenUp(server, server.chatRequests(kind), 2);
      assert.equal(error.reason, 'timeout');
      assert.match(error.message, /timed out after 0\.5 s/);
      assert.equal(server.chatRequests(kind).length, 2);
      assert.equal(c.ledger.failures().byReason.timeout, 1);
      assert.equal(c.ledger.attempts, 2);
    });

    test('streamed text: a 429 storm gives up within the budget, plainly, and is counted', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0.8, times: Infinity });
      const clock = recordingSleep({ virtual: true });
      const c = client(5_000, { retry: { budgetMs: 2_000, sleep: clock.sleep, now: clock.now } });
      const error = await failureOf(c.streamText(streamRequest(), () => {}));
      assert.deepEqual(clock.waits.map((w) => w.ms), [800, 800]);
      assert.equal(server.chatRequests(kind).length, 3);
      assertPlain(error.message);
      assert.match(error.message, /rate-limiting requests \(HTTP 429\); gave up after 2 retries in 1\.6 s \(the next wait, 0\.8 s, would pass the retry budget of 2 s\)/);
      assert.equal(c.ledger.failures().calls, 1);
      assert.equal(c.ledger.failures().requests, server.chatRequests(kind).length);
    });

    test('a call that succeeds after retries counts every request it made', async () => {
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, times: 2 });
      const c = client(5_000, { retry: { baseMs: 1, maxMs: 5 } });
      await c.complete(request());
      assert.equal(c.ledger.total().calls, 1);
      assert.equal(c.ledger.total().requests, 3);
      assert.equal(c.ledger.failures().calls, 0);
      assert.equal(c.ledger.attempts, 3);
    });
  });
}

describe('plain failure messages', () => {
  test('the summary is not repeated, the server\'s words are kept', () => {
    const error = plainFailure(new LlmError('rate-limited', 'the model server is rate-limiting requests (HTTP 429): slow down', { status: 429 }), { retries: 4, elapsedMs: 12_300 });
    assert.equal(error.message, 'llm: the model server is rate-limiting requests (HTTP 429); gave up after 4 retries in 12 s. Server said: slow down');
    assert.equal(error.reason, 'rate-limited');
    assert.equal(error.status, 429);
  });
});

describe('CLI --timeout', () => {
  let server: FakeModelServer;
  let dir: string;
  before(async () => {
    server = await startFakeModelServer();
    dir = await mkdtemp(path.join(tmpdir(), 'mr-slow-'));
    await writeFile(path.join(dir, 'talk.transcript.srt'), '1\n00:00:01,000 --> 00:00:04,000\nAna: We planted forty hectares of rice in 2023 and it paid off.\n');
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('markers --timeout 1 against a slow server fails within the timeout (+ one retry) and says it timed out', async () => {
    // Held for a minute, below the default timeout: without --timeout the replies would arrive and markers succeed.
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, times: Infinity });
    let err = '';
    const sink = (into: (s: string) => void): Writable => new Writable({ write: (chunk: Buffer, _enc, cb) => { into(chunk.toString()); cb(); } });
    const code = await markersCommand({
      args: [dir, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', MODEL, '--timeout', '1', '--concurrency', '1', '--force'],
      out: sink(() => {}),
      err: sink((s) => (err += s)),
      signal: new AbortController().signal,
    });
    assert.equal(code, 1, err);
    assert.match(err, /timed out after 1 s/);
    // The request plus the one retry a timeout gets, neither waited for.
    await assertGivenUp(server, server.chatRequests('openai'), 2);
  });

  test('--timeout must be a positive number of seconds', async () => {
    await assert.rejects(
      markersCommand({ args: [dir, '--provider', 'openai', '--model', MODEL, '--timeout', '0'], out: process.stdout, err: process.stderr, signal: new AbortController().signal }),
      /--timeout expects a positive number of seconds/,
    );
  });
});
