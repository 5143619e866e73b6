/**
 * The model layer without HTTP: retries, the semaphore, the usage ledger, prompt files, token
 * estimates, language detection, reply parsing and the client's plumbing around a stub provider.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import { createModelClient, parseModelConfig } from '../../src/core/llm/client';
import { detectLanguage } from '../../src/core/llm/langDetect';
import { ollamaErrorToLlmError } from '../../src/core/llm/ollamaProvider';
import { openaiErrorToLlmError } from '../../src/core/llm/openaiProvider';
import { loadPrompt, parsePrompt } from '../../src/core/llm/prompts';
import { backoffDelay, parseRetryAfter, sleep, withRetry, type RetryInfo } from '../../src/core/llm/retry';
import { Semaphore } from '../../src/core/llm/semaphore';
import { parseReply, stripFences } from '../../src/core/llm/structured';
import { estimateTokens } from '../../src/core/llm/tokens';
import { LlmError, isCancellation, isContextLengthError, type LlmErrorReason, type ModelProvider, type StructuredRequest, type StructuredResult } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { commentsWindowReplySchema, SENTIMENTS, transcriptWindowReplySchema } from '../../src/core/markers/schema';
import { CancelledError } from '../../src/core/util/abort';
import { consoleLogger, redactingLogger } from '../../src/core/util/log';
import { estimateTokens as fakeServerEstimate } from '../support/fakeModelServer';
import { recordingSleep } from '../support/recordingSleep';
import { recordingLogger, rng } from '../support/testing';

const PROMPTS_DIR = path.join(__dirname, '..', '..', 'prompts');

function fail(reason: LlmErrorReason, retryAfterMs?: number): LlmError {
  return new LlmError(reason, `${reason} for test`, retryAfterMs === undefined ? {} : { retryAfterMs });
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run. */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));


// ---------------------------------------------------------------------------

describe('withRetry', () => {
  test('backoff is full jitter under an exponential bound capped at maxMs', () => {
    const opts = { baseMs: 100, maxMs: 1_000 };
    const bounds = [100, 200, 400, 800, 1_000, 1_000];
    bounds.forEach((bound, i) => {
      assert.equal(backoffDelay(i + 1, undefined, { ...opts, random: () => 0 }), 0);
      assert.equal(backoffDelay(i + 1, undefined, { ...opts, random: () => 0.999_999 }), bound - 1);
      for (let k = 0; k < 200; k++) {
        const d = backoffDelay(i + 1, undefined, opts);
        assert.ok(d >= 0 && d < bound, `attempt ${i + 1}: ${d} not in [0, ${bound})`);
      }
    });
  });

  test("a server's retry-after is honoured and capped at maxMs", () => {
    assert.equal(backoffDelay(1, fail('rate-limited', 300), { baseMs: 10, maxMs: 1_000 }), 300);
    assert.equal(backoffDelay(1, fail('rate-limited', 60_000), { baseMs: 10, maxMs: 1_000 }), 1_000);
    assert.equal(backoffDelay(3, fail('rate-limited', 0), { baseMs: 10, maxMs: 1_000 }), 0);
  });

  test('retries retryable failures, then succeeds; onRetry sees each wait', async () => {
    const reasons: LlmErrorReason[] = ['rate-limited', 'server', 'network', 'timeout'];
    let calls = 0;
    const seen: RetryInfo[] = [];
    const value = await withRetry(
      async (attempt) => {
        assert.equal(attempt, calls);
        const reason = reasons[calls++];
        if (reason !== undefined) throw fail(reason);
        return 'ok';
      },
      { retries: 4, baseMs: 1, maxMs: 5, onRetry: (info) => seen.push(info) },
    );
    assert.equal(value, 'ok');
    assert.equal(calls, 5);
    assert.deepEqual(seen.map((s) => [s.attempt, s.error.reason]), reasons.map((r, i) => [i + 1, r]));
    assert.ok(seen.every((s) => s.delayMs >= 0 && s.delayMs <= 5));
  });

  test('the last retryable error is thrown once retries are used up', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(() => {
        calls++;
        return Promise.reject(fail('server'));
      }, { retries: 2, baseMs: 1, maxMs: 2 }),
      (error: unknown) => error instanceof LlmError && error.reason === 'server',
    );
    assert.equal(calls, 3);
  });

  for (const reason of ['context-length', 'auth', 'invalid-reply', 'cancelled', 'config'] as const) {
    test(`no retry on ${reason}`, async () => {
      let calls = 0;
      await assert.rejects(
        withRetry(() => {
          calls++;
          return Promise.reject(fail(reason));
        }, { retries: 3, baseMs: 1 }),
        { reason },
      );
      assert.equal(calls, 1);
    });
  }

  test('no retry on errors that are not LlmErrors', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(() => {
        calls++;
        return Promise.reject(new TypeError('a bug'));
      }, { retries: 3, baseMs: 1 }),
      TypeError,
    );
    assert.equal(calls, 1);
  });

  test('a capped retry-after keeps the wait short: the wait chosen is min(retry-after, maxMs), generated pairs', async () => {
    // One real wait (the product's sleep; 3 s asked, 30 ms allowed), then generated retry-afters
    // and caps on a virtual clock.
    const real = recordingSleep();
    let calls = 0;
    const value = await withRetry(
      async () => {
        if (calls++ === 0) throw fail('rate-limited', 3_000);
        return 42;
      },
      { maxMs: 30, sleep: real.sleep },
    );
    assert.equal(value, 42);
    assert.deepEqual(real.waits, [{ ms: 30, outcome: 'elapsed' }]);

    const random = rng(0x19);
    for (let i = 0; i < 60; i++) {
      const maxMs = 1 + Math.floor(random() * 50_000);
      const retryAfterMs = Math.floor(random() * (i % 2 === 0 ? 3_600_000 : 2 * maxMs));
      const waits = recordingSleep({ virtual: true });
      let n = 0;
      await withRetry(
        async () => {
          if (n++ === 0) throw fail('rate-limited', retryAfterMs);
          return n;
        },
        { maxMs, sleep: waits.sleep, now: waits.now },
      );
      assert.deepEqual(waits.waits, [{ ms: Math.min(maxMs, retryAfterMs), outcome: 'elapsed' }], `retry-after ${retryAfterMs} ms, cap ${maxMs} ms`);
    }
  });

  test('aborting during a wait rejects promptly with CancelledError and stops retrying (the wait is cut short)', async () => {
    const random = rng(0x1913);
    for (let i = 0; i < 12; i++) {
      const retryAfterMs = 1_000 + Math.floor(random() * 4_000);
      const controller = new AbortController();
      // Abort once the wait has begun (its timer set): the real sleep must end it, not run it out.
      const waits = recordingSleep({ onWait: () => controller.abort() });
      let calls = 0;
      await assert.rejects(
        withRetry(() => {
          calls++;
          return Promise.reject(fail('rate-limited', retryAfterMs));
        }, { maxMs: retryAfterMs, budgetMs: 2 * retryAfterMs, signal: controller.signal, sleep: waits.sleep }),
        CancelledError,
      );
      assert.equal(calls, 1);
      assert.deepEqual(waits.waits, [{ ms: retryAfterMs, outcome: 'cancelled' }], 'abort should not wait out the retry-after');
    }
  });

  test('an already aborted signal never calls fn; an abort during fn wins over its error', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    await assert.rejects(
      withRetry(async () => {
        calls++;
      }, { signal: controller.signal }),
      CancelledError,
    );
    assert.equal(calls, 0);

    const live = new AbortController();
    await assert.rejects(
      withRetry(async () => {
        live.abort();
        throw fail('network');
      }, { signal: live.signal }),
      CancelledError,
    );
  });

  test('sleep resolves, or rejects with CancelledError on abort', async () => {
    await sleep(1);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort();
    await assert.rejects(pending, CancelledError);
  });

  test('parseRetryAfter reads retry-after-ms, seconds and HTTP dates', () => {
    const headers = (h: Record<string, string>) => new Headers(h);
    assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '2' })), 2_000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': '0.5' })), 500);
    const now = Date.parse('2024-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'Mon, 01 Jan 2024 00:00:05 GMT' }), now), 5_000);
    assert.equal(parseRetryAfter(headers({ 'retry-after': 'soon' })), undefined);
    assert.equal(parseRetryAfter(headers({})), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});

// ---------------------------------------------------------------------------

describe('Semaphore', () => {
  test('never runs more than the limit at once, and runs everything', async () => {
    const slots = new Semaphore(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        slots.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await sleep(2 + (i % 3));
          running--;
          return i;
        }),
      ),
    );
    assert.deepEqual(results, Array.from({ length: 12 }, (_, i) => i));
    assert.equal(peak, 3);
    assert.equal(slots.active, 0);
    assert.equal(slots.waiting, 0);
  });

  test('queued calls start in FIFO order', async () => {
    const slots = new Semaphore(1);
    const gate = deferred();
    const order: string[] = [];
    const first = slots.run(async () => {
      order.push('first');
      await gate.promise;
    });
    const rest = ['a', 'b', 'c', 'd'].map((name) => slots.run(async () => void order.push(name)));
    await tick();
    assert.equal(slots.active, 1);
    assert.equal(slots.waiting, 4);
    gate.resolve();
    await Promise.all([first, ...rest]);
    assert.deepEqual(order, ['first', 'a', 'b', 'c', 'd']);
  });

  test('a queued call whose signal aborts leaves the queue with CancelledError and never runs', async () => {
    const slots = new Semaphore(1);
    const gate = deferred();
    const holder = slots.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const queued = slots.run(async () => {
      ran = true;
    }, controller.signal);
    const after = slots.run(async () => 'after');
    await tick();
    assert.equal(slots.waiting, 2);
    controller.abort();
    await assert.rejects(queued, CancelledError);
    assert.equal(slots.waiting, 1);
    gate.resolve();
    assert.equal(await after, 'after');
    await holder;
    assert.equal(ran, false);
    assert.equal(slots.active, 0);

    const aborted = AbortSignal.abort();
    await assert.rejects(slots.run(async () => 1, aborted), CancelledError);
  });

  test('a slot is released when the call throws', async () => {
    const slots = new Semaphore(1);
    await assert.rejects(slots.run(() => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(slots.active, 0);
    assert.equal(await slots.run(async () => 'next'), 'next');
  });

  test('setLimit: raising starts queued calls, lowering lets running ones finish', async () => {
    const slots = new Semaphore(1);
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((g) => slots.run(() => g.promise));
    await tick();
    assert.deepEqual([slots.active, slots.waiting], [1, 2]);
    slots.setLimit(3);
    assert.deepEqual([slots.active, slots.waiting], [3, 0]);
    slots.setLimit(1);
    assert.equal(slots.limit, 1);
    const late = slots.run(async () => 'late');
    gates[0]?.resolve();
    gates[1]?.resolve();
    await tick();
    assert.deepEqual([slots.active, slots.waiting], [1, 1]);
    gates[2]?.resolve();
    assert.equal(await late, 'late');
    await Promise.all(runs);
    assert.throws(() => slots.setLimit(0), /positive integer/);
    assert.throws(() => new Semaphore(1.5), /positive integer/);
  });
});

// ---------------------------------------------------------------------------

describe('UsageLedger', () => {
  test('totals per phase, per step and overall; estimates are flagged', () => {
    const ledger = new UsageLedger();
    const added: string[] = [];
    const off = ledger.onAdd((e) => added.push(e.phase));
    ledger.add('markers', { promptTokens: 100, completionTokens: 20, estimated: false }, 'transcript');
    ledger.add('markers', { promptTokens: 50, completionTokens: 10, estimated: true }, 'comments', 2);
    ledger.add('discover', { promptTokens: 7, completionTokens: 3, estimated: false });
    off();
    ledger.add('discover', { promptTokens: 1, completionTokens: 1, estimated: false });

    assert.equal(ledger.calls, 4);
    assert.deepEqual(added, ['markers', 'markers', 'discover']);
    assert.deepEqual(ledger.total(), { promptTokens: 158, completionTokens: 34, totalTokens: 192, calls: 4, requests: 5, estimatedCalls: 1, estimated: true });
    const byPhase = ledger.byPhase();
    assert.deepEqual(Object.keys(byPhase).sort(), ['discover', 'markers']);
    assert.equal(byPhase.markers?.totalTokens, 180);
    assert.equal(byPhase.markers?.estimated, true);
    assert.equal(byPhase.discover?.estimated, false);
    assert.equal(byPhase.discover?.calls, 2);
    const byStep = ledger.byStep();
    assert.deepEqual(Object.keys(byStep).sort(), ['discover', 'markers/comments', 'markers/transcript']);
    assert.equal(byStep['markers/comments']?.requests, 2);
    assert.equal(byStep['markers/transcript']?.estimated, false);
    const json = JSON.parse(JSON.stringify(ledger)) as { total: { totalTokens: number }; byPhase: Record<string, unknown> };
    assert.equal(json.total.totalTokens, 192);
    assert.ok(json.byPhase.markers);
    assert.equal(ledger.entries.length, 4);
  });

  test('rejects negative or fractional counts', () => {
    const ledger = new UsageLedger();
    assert.throws(() => ledger.add('x', { promptTokens: -1, completionTokens: 0, estimated: false }), /promptTokens/);
    assert.throws(() => ledger.add('x', { promptTokens: 1, completionTokens: 0.5, estimated: false }), /completionTokens/);
    assert.equal(ledger.calls, 0);
    assert.deepEqual(ledger.total().calls, 0);
  });
});

// ---------------------------------------------------------------------------

describe('prompts', () => {
  const variables = { title: 'Rice farming', window_label: 'window 3 of 7, words 4000–8000', text: '[t12 Ana] We planted 40 hectares.' };

  for (const name of ['markers-transcript', 'markers-comments'] as const) {
    for (const lang of ['en', 'zh'] as const) {
      test(`${name}.${lang}: loads, versions, hashes and renders`, async () => {
        const prompt = await loadPrompt(PROMPTS_DIR, name, lang);
        const bytes = await readFile(path.join(PROMPTS_DIR, `${name}.${lang}.md`));
        assert.equal(prompt.lang, lang);
        assert.match(prompt.version, new RegExp(`^${name}@\\d+$`));
        assert.equal(prompt.hash, createHash('sha256').update(bytes).digest('hex'));
        assert.deepEqual([...prompt.placeholders].sort(), ['text', 'title', 'window_label']);
        const messages = prompt.render(variables);
        assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
        const [system, user] = messages;
        assert.ok(user?.content.includes(variables.window_label));
        assert.ok(user?.content.includes(variables.text));
        assert.ok(user?.content.includes(variables.title));
        assert.doesNotMatch(`${system?.content}${user?.content}`, /\{\{/);
        assert.equal(detectLanguage(system?.content ?? ''), lang);
        // The prompt names every field the reply schema has, and forbids invented quotes.
        const schema = name === 'markers-transcript' ? transcriptWindowReplySchema : commentsWindowReplySchema;
        for (const key of Object.keys(schema.shape)) assert.ok(system?.content.includes(`"${key}"`), `${name}.${lang} should name "${key}"`);
        assert.match(system?.content ?? '', lang === 'en' ? /never invent a quote/i : /绝不编造引文/);
        if (name === 'markers-comments') {
          for (const s of SENTIMENTS) assert.ok(system?.content.includes(s));
          assert.ok(system?.content.includes('comment_ids'));
        }
      });
    }
  }

  test('the en and zh variants of a prompt are different files with their own hash', async () => {
    const en = await loadPrompt(PROMPTS_DIR, 'markers-transcript', 'en');
    const zh = await loadPrompt(PROMPTS_DIR, 'markers-transcript', 'zh');
    assert.notEqual(en.hash, zh.hash);
  });

  test('a missing placeholder value is an error naming it; so is an unknown one', async () => {
    const prompt = await loadPrompt(PROMPTS_DIR, 'markers-transcript', 'en');
    assert.throws(() => prompt.render({ title: 't', text: 'x' }), /\{\{window_label\}\}/);
    assert.throws(() => prompt.render({ ...variables, speaker: 'Ana' }), /unknown placeholder \{\{speaker\}\}/);
  });

  test('values are inserted verbatim, never re-scanned', () => {
    const prompt = parsePrompt('p', 'en', '---\nversion: 2\n---\nSystem {{a}}\n=== user ===\n{{b}} and {{a}}');
    const messages = prompt.render({ a: '{{b}} $& $1', b: 7 });
    assert.equal(messages[0]?.content, 'System {{b}} $& $1');
    assert.equal(messages[1]?.content, '7 and {{b}} $& $1');
    assert.equal(prompt.version, 'p@2');
  });

  test('falls back to en; metadata, CRLF and an empty system part', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prompts-'));
    try {
      await writeFile(path.join(dir, 'only-en.en.md'), '---\r\nversion: 3\r\nschema: x\r\n---\r\n=== user ===\r\nHi {{name}}\r\n');
      const prompt = await loadPrompt(dir, 'only-en', 'zh');
      assert.equal(prompt.lang, 'en');
      assert.equal(prompt.version, 'only-en@3');
      assert.deepEqual(prompt.meta, { schema: 'x' });
      assert.deepEqual(prompt.render({ name: 'Li' }), [{ role: 'user', content: 'Hi Li' }]);
      await assert.rejects(loadPrompt(dir, 'absent', 'en'), /prompt "absent" not found/);
      await assert.rejects(loadPrompt(dir, '../escape', 'en'), /may only contain/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('malformed files are rejected with the reason', () => {
    assert.throws(() => parsePrompt('p', 'en', 'no front matter\n=== user ===\nx'), /missing front matter/);
    assert.throws(() => parsePrompt('p', 'en', '---\nname: p\n---\ns\n=== user ===\nu'), /no 'version: N'/);
    assert.throws(() => parsePrompt('p', 'en', '---\nversion: 1.5\n---\ns\n=== user ===\nu'), /positive integer/);
    assert.throws(() => parsePrompt('p', 'en', '---\nversion: 1\n---\nonly a system part'), /exactly one '=== user ===' line, found 0/);
    assert.throws(() => parsePrompt('p', 'en', '---\nversion: 1\n---\ns\n=== user ===\nu\n=== user ===\nv'), /found 2/);
  });
});

// ---------------------------------------------------------------------------

describe('estimateTokens and detectLanguage', () => {
  test('estimateTokens: one per CJK character plus a quarter per other character, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('你好'), 2);
    assert.equal(estimateTokens('你好, world'), 4);
    assert.equal(estimateTokens('。！'), 2);
    for (const text of ['The ranking system changed in 2024.', '玩家留存率在赛季重置后下降了30%', 'mixed 中文 and English，全角', '🙂 emoji']) {
      assert.equal(estimateTokens(text), fakeServerEstimate(text), text);
    }
  });

  test('detectLanguage picks zh above 20 % Han letters', () => {
    assert.equal(detectLanguage('今天我们讨论一下新的排名系统，它对休闲玩家不太公平。'), 'zh');
    assert.equal(detectLanguage('The new ranking system is unfair to casual players.'), 'en');
    assert.equal(detectLanguage('我觉得 the new ranking system 不公平'), 'zh');
    assert.equal(detectLanguage('The new ranking system, 排名系统'), 'en');
    assert.equal(detectLanguage(''), 'en');
    assert.equal(detectLanguage('12345 !!! 67'), 'en');
    // An English title in front of a long Chinese transcript does not decide it.
    assert.equal(detectLanguage(`${'English title words here. '.repeat(100)}${'这是一个很长的中文转录稿内容。'.repeat(1000)}`), 'zh');
  });
});

// ---------------------------------------------------------------------------

describe('reply parsing', () => {
  const schema = z.object({ n: z.number().int(), tags: z.array(z.string()) });

  test('strips fences and think blocks, recovers JSON wrapped in prose', () => {
    assert.equal(stripFences('```json\n{"a":1}\n```'), '{"a":1}');
    assert.equal(stripFences('```\n{"a":1}```'), '{"a":1}');
    assert.equal(stripFences('<think>hmm {"no":1}</think>\n{"a":1}'), '{"a":1}');
    assert.deepEqual(parseReply('```json\n{"n": 1, "tags": []}\n```', schema), { ok: true, value: { n: 1, tags: [] } });
    assert.deepEqual(parseReply('Here you go: {"n": 2, "tags": ["x"]} Hope it helps.', schema), { ok: true, value: { n: 2, tags: ['x'] } });
  });

  test('reports JSON errors, empty replies and zod issues with their paths', () => {
    const bad = parseReply('{"n": 1, "tags": [', schema);
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : (bad.issues[0] ?? ''), /not valid JSON/);
    const empty = parseReply('  ', schema);
    assert.deepEqual(empty, { ok: false, issues: ['the reply was empty'] });
    const invalid = parseReply('{"n": 1.5, "tags": [3]}', schema);
    assert.equal(invalid.ok, false);
    const issues = invalid.ok ? [] : invalid.issues;
    assert.equal(issues.length, 2);
    assert.match(issues[0] ?? '', /^n: /);
    assert.match(issues[1] ?? '', /^tags\[0\]: /);
  });
});

// ---------------------------------------------------------------------------

/** A provider whose replies are scripted per call. */
function stubProvider(script: ((req: StructuredRequest<unknown>) => Promise<StructuredResult<unknown>>)[]): ModelProvider & { calls: number } {
  const stub = {
    kind: 'openai' as const,
    model: 'stub',
    contextTokens: 1000,
    calls: 0,
    complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const step = script[Math.min(stub.calls, script.length - 1)];
      stub.calls++;
      if (step === undefined) throw new Error('empty script');
      return step(req as StructuredRequest<unknown>) as Promise<StructuredResult<T>>;
    },
  };
  return stub;
}

const okResult = (value: unknown, estimated = false): Promise<StructuredResult<unknown>> =>
  Promise.resolve({ value, usage: { promptTokens: 10, completionTokens: 5, estimated }, repaired: false, attempts: 1 });

describe('model client plumbing (stub provider)', () => {
  const config = { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:9/v1', model: 'stub', apiKey: 'sk-unit-secret-0001' };
  const request = (signal?: AbortSignal): StructuredRequest<{ ok: boolean }> => ({
    messages: [{ role: 'user', content: 'hi' }],
    schema: z.object({ ok: z.boolean() }),
    schemaName: 'ok',
    phase: 'markers',
    step: 'transcript',
    signal,
  });

  test('config defaults and validation errors that never echo values', () => {
    const cfg = parseModelConfig({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen2.5:7b' });
    assert.deepEqual([cfg.contextTokens, cfg.timeoutMs, cfg.concurrency], [8192, 120_000, 4]);
    assert.throws(
      () => parseModelConfig({ provider: 'openai', baseUrl: 'not a url', model: '', apiKey: 42 }),
      (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'config');
        assert.match(error.message, /^llm: invalid model config: /);
        assert.match(error.message, /baseUrl/);
        assert.match(error.message, /model/);
        assert.match(error.message, /apiKey/);
        assert.doesNotMatch(error.message, /not a url|42/);
        return true;
      },
    );
  });

  test('retries through the semaphore, records usage per phase and step', async () => {
    const provider = stubProvider([() => Promise.reject(fail('rate-limited', 1)), () => okResult({ ok: true })]);
    const ledger = new UsageLedger();
    const log = recordingLogger();
    const client = createModelClient(config, { provider, ledger, log, semaphore: new Semaphore(2), retry: { baseMs: 1, maxMs: 5 } });
    const result = await client.complete(request());
    assert.deepEqual(result.value, { ok: true });
    assert.equal(provider.calls, 2);
    assert.equal(ledger.byStep()['markers/transcript']?.totalTokens, 15);
    assert.ok(log.lines.some((l) => /^warn llm: markers\/transcript: rate-limited, retry 1\/4/.test(l)));
    assert.ok(log.lines.every((l) => !l.includes(config.apiKey)));
  });

  test('cancellation always surfaces as CancelledError; the tokens of a failed repair are still counted', async () => {
    const cancelled = stubProvider([() => Promise.reject(new LlmError('cancelled', 'call cancelled'))]);
    const client = createModelClient(config, { provider: cancelled });
    await assert.rejects(client.complete(request()), (error: unknown) => error instanceof CancelledError && isCancellation(error));

    const invalid = stubProvider([
      () => Promise.reject(new LlmError('invalid-reply', 'still invalid', { usage: { promptTokens: 30, completionTokens: 8, estimated: false }, issues: ['ok: expected boolean'] })),
    ]);
    const ledger = new UsageLedger();
    const client2 = createModelClient(config, { provider: invalid, ledger });
    await assert.rejects(client2.complete(request()), { reason: 'invalid-reply' });
    assert.equal(invalid.calls, 1, 'invalid replies are not retried');
    assert.deepEqual([ledger.total().totalTokens, ledger.total().requests], [38, 2]);
  });

  test('context-length is not retried and is recognisable', async () => {
    const provider = stubProvider([() => Promise.reject(fail('context-length'))]);
    const client = createModelClient(config, { provider });
    await assert.rejects(client.complete(request()), (error: unknown) => isContextLengthError(error));
    assert.equal(provider.calls, 1);
  });

  test('the API key is redacted from error messages and logs', async () => {
    const provider = stubProvider([() => Promise.reject(new LlmError('auth', `Incorrect API key provided: ${config.apiKey}`))]);
    const log = recordingLogger();
    const client = createModelClient(config, { provider, log });
    await assert.rejects(client.complete(request()), (error: unknown) => error instanceof LlmError && error.message.includes('***') && !error.message.includes(config.apiKey));
    assert.ok(log.lines.length > 0);
    assert.ok(log.lines.every((l) => !l.includes(config.apiKey)));
  });

  test('consoleLogger filters by level; redactingLogger hides secrets', () => {
    let out = '';
    const log = redactingLogger(consoleLogger({ write: (t: string) => (out += t) }, { level: 'info' }), ['hunter22', undefined, '']);
    log.debug('hidden');
    log.info('password hunter22 here');
    log.error('bad');
    assert.equal(out, '[info] password *** here\n[error] bad\n');
  });
});

// ---------------------------------------------------------------------------

describe('error mapping', () => {
  /** An error shaped like ollama 0.6.4's (unexported) ResponseError. */
  function responseError(message: string, status: number): Error {
    const error = new Error(message);
    error.name = 'ResponseError';
    (error as Error & { status_code: number }).status_code = status;
    return error;
  }
  const reasonOf = (error: unknown): string | undefined => (error instanceof LlmError ? error.reason : undefined);

  test('ollama: context-length in all its forms, and the other statuses', () => {
    const runner = JSON.stringify({ error: { code: 400, message: 'request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5000, n_ctx: 4096 } });
    const mapped = ollamaErrorToLlmError(responseError(runner, 400));
    assert.equal(reasonOf(mapped), 'context-length');
    assert.match((mapped as LlmError).message, /^llm: prompt exceeds the model's context: request \(5000 tokens\) exceeds/);
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('the prompt is longer than the context length', 500))), 'context-length');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('input length exceeds maximum context length', 400))), 'context-length');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('llama runner process has terminated: exit status 2', 500))), 'server');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('server busy, please try again.', 503))), 'server');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('too many requests', 429))), 'rate-limited');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('unauthorized', 401))), 'auth');
    assert.equal(reasonOf(ollamaErrorToLlmError(responseError('model "qwen" not found, try pulling it first', 404))), 'config');
    assert.equal(reasonOf(ollamaErrorToLlmError(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:11434') }))), 'network');
    assert.equal(reasonOf(ollamaErrorToLlmError(new SyntaxError('Unexpected end of JSON input'))), 'server');
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    assert.equal(ollamaErrorToLlmError(bug), bug, 'programming errors pass through');
  });

  test('openai: statuses, codes and connection errors', () => {
    const headers = new Headers({ 'retry-after': '7' });
    const rate = openaiErrorToLlmError(OpenAI.APIError.generate(429, { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, undefined, headers));
    assert.equal(reasonOf(rate), 'rate-limited');
    assert.equal((rate as LlmError).retryAfterMs, 7_000);
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }, undefined, new Headers()))), 'auth');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(400, { error: { message: 'too long', code: 'context_length_exceeded' } }, undefined, new Headers()))), 'context-length');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(400, { error: { message: "This model's maximum context length is 8192 tokens" } }, undefined, new Headers()))), 'context-length');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(400, { error: { message: 'response_format json_schema is not supported' } }, undefined, new Headers()))), 'config');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(401, { error: { message: 'bad key' } }, undefined, new Headers()))), 'auth');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(403, { error: { message: 'forbidden' } }, undefined, new Headers()))), 'auth');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(404, { error: { message: 'no such model' } }, undefined, new Headers()))), 'config');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(502, { error: { message: 'bad gateway' } }, undefined, new Headers()))), 'server');
    assert.equal(reasonOf(openaiErrorToLlmError(OpenAI.APIError.generate(408, undefined, 'timeout', new Headers()))), 'server');
    assert.equal(reasonOf(openaiErrorToLlmError(new OpenAI.APIUserAbortError())), 'cancelled');
    assert.equal(reasonOf(openaiErrorToLlmError(new OpenAI.APIConnectionTimeoutError())), 'timeout');
    assert.equal(reasonOf(openaiErrorToLlmError(new OpenAI.APIConnectionError({ cause: new Error('ECONNRESET') }))), 'network');
    assert.equal(reasonOf(openaiErrorToLlmError(new SyntaxError('Unexpected token'))), 'server');
  });
});
