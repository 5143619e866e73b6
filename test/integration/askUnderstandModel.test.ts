/**
 * The model engine of query understanding (src/core/ask/understandModel.ts) through the real
 * `openai` and `ollama` clients against the fake model server on 127.0.0.1: a scripted reply,
 * what the request carries, repair, retries, exhausted retries, context-length errors,
 * cancellation, and the prompt language.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { modelUnderstandingSchema, understandWithModel, type ModelUnderstanding, type UnderstandingHints } from '../../src/core/ask/understandModel';
import { createModelClient, type ModelClient, type ModelConfigInput } from '../../src/core/llm/client';
import { detectLanguage } from '../../src/core/llm/langDetect';
import { Semaphore } from '../../src/core/llm/semaphore';
import { LlmError, isCancellation, isContextLengthError } from '../../src/core/llm/types';
import { UsageLedger } from '../../src/core/llm/usage';
import { CancelledError } from '../../src/core/util/abort';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { HOLD_OPEN_MS, startFakeModelServer, type ChatRequestInfo, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { recordingLogger } from '../support/testing';

const PROMPTS_DIR = path.join(__dirname, '..', '..', 'prompts');
const MODEL = 'fake-model';
const SECRET = 'sk-test-ask-understand-7c1d';
const CONTEXT = 8192;
const FAST_RETRY = { retries: 2, baseMs: 5, maxMs: 50 } as const;

const INPUT = {
  question: 'What did he think about the voice-unvoice characterization in the first ten minutes?',
  itemId: 'qmsum-Bro014',
  session: ['What did the professor think about latencies?'],
};
const HINTS: UnderstandingHints = {
  itemTitle: 'Bro014',
  speakers: ['Professor B', 'PhD A', 'PhD C', 'Grad E'],
  knownEntities: ['ICSI', 'Aurora'],
  corpusLanguage: 'en',
  hasComments: false,
};

const SCRIPTED: ModelUnderstanding = {
  intent: 'search_entity',
  entities: ['Professor B'],
  keywords: ['voice-unvoice characterization'],
  corpus_keywords: ['voice-unvoice characterization'],
  time_constraint: { start_s: 0, end_s: 600 },
  part: null,
  citation_numbers: [],
  resolved_query: 'What did Professor B think about the voice-unvoice characterization in the first ten minutes?',
  confidence: 0.9,
};

const ZH_REPLY: ModelUnderstanding = {
  intent: 'citation_lookup',
  entities: [],
  keywords: ['原话'],
  corpus_keywords: ['原话'],
  time_constraint: null,
  part: null,
  citation_numbers: [2, 5],
  resolved_query: '來源2和來源5分別是誰說的？',
  confidence: 0.95,
};

/** The scripted model: answers by the prompt's language, so a wrong prompt shows as a wrong reply. */
function scriptedResponder(req: ChatRequestInfo): string {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  return JSON.stringify(detectLanguage(system) === 'zh' ? ZH_REPLY : SCRIPTED);
}

function bodyOf(r: RecordedRequest | undefined): Record<string, unknown> {
  assert.ok(r, 'expected a recorded request');
  return r.body as Record<string, unknown>;
}

/** The JSON schema a request carried (OpenAI `response_format.json_schema`, Ollama `format`). */
function schemaOf(kind: 'openai' | 'ollama', r: RecordedRequest | undefined): { name?: string; schema: Record<string, unknown> } {
  const body = bodyOf(r);
  if (kind === 'openai') {
    const format = body.response_format as { type: string; json_schema: { name: string; schema: Record<string, unknown> } };
    assert.equal(format.type, 'json_schema');
    return { name: format.json_schema.name, schema: format.json_schema.schema };
  }
  return { schema: body.format as Record<string, unknown> };
}

for (const kind of ['openai', 'ollama'] as const) {
  describe(`understandWithModel through the ${kind} client, against the fake server`, () => {
    let server: FakeModelServer;
    const logged = recordingLogger();

    const client = (overrides: Partial<ModelConfigInput> = {}): ModelClient =>
      createModelClient(
        { provider: kind, baseUrl: kind === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: MODEL, apiKey: SECRET, contextTokens: CONTEXT, timeoutMs: 5_000, ...overrides },
        { log: logged, retry: FAST_RETRY, semaphore: new Semaphore(2), ledger: new UsageLedger() },
      );
    const chats = (): RecordedRequest[] => server.chatRequests(kind);
    const understand = (c: ModelClient, input = INPUT, signal?: AbortSignal) => understandWithModel(c, input, HINTS, { promptsDir: PROMPTS_DIR, signal });

    before(async () => {
      server = await startFakeModelServer({ apiKey: SECRET });
    });
    afterEach(() => server.reset());
    after(() => server.close());

    test('a scripted valid reply is parsed; the request carries the question, session, speakers and the JSON schema', async () => {
      server.setResponder(scriptedResponder);
      const c = client();
      const result = await understand(c);
      assert.deepEqual(result.reply, SCRIPTED);
      assert.equal(result.repaired, false);
      assert.equal(result.usage.estimated, false);
      assert.ok(result.usage.promptTokens > 0 && result.usage.completionTokens > 0);
      assert.equal(chats().length, 1);

      const [system, user] = chats()[0]?.messages ?? [];
      assert.equal(system?.role, 'system');
      assert.match(system?.content ?? '', /^You turn a researcher's question/);
      assert.equal(user?.role, 'user');
      const text = user?.content ?? '';
      assert.ok(text.includes(`<question>\n${INPUT.question}\n</question>`), text);
      assert.ok(text.includes('1. What did the professor think about latencies?'));
      for (const speaker of HINTS.speakers) assert.ok(text.includes(`- ${speaker}`), speaker);
      assert.ok(text.includes('- ICSI'));
      assert.ok(text.includes('qmsum-Bro014'));
      assert.match(text, /Corpus language: English/);

      const { name, schema } = schemaOf(kind, chats()[0]);
      if (kind === 'openai') assert.equal(name, 'ask_understanding');
      assert.deepEqual(Object.keys(schema.properties as object), Object.keys(modelUnderstandingSchema.shape));
      const intent = (schema.properties as Record<string, { enum?: unknown }>).intent;
      assert.ok(Array.isArray(intent?.enum) && intent.enum.includes('citation_lookup'));
      assert.equal(c.ledger.byStep()['ask/understand']?.calls, 1);
    });

    test('the reply is post-validated: a sloppy but schema-valid reply comes back clean', async () => {
      server.setResponder(() =>
        JSON.stringify({ ...SCRIPTED, entities: ['professor b', ' Professor B '], citation_numbers: [0, -1], time_constraint: { start_s: 600, end_s: 0 }, confidence: 3 }),
      );
      const { reply } = await understand(client());
      assert.deepEqual(reply.entities, ['Professor B']);
      assert.deepEqual(reply.citation_numbers, []);
      assert.deepEqual(reply.time_constraint, { start_s: 0, end_s: 600 });
      assert.equal(reply.confidence, 1);
    });

    test('invalid JSON, then a good repair: repaired, two requests', async () => {
      server.setResponder(scriptedResponder);
      server.injectFault({ kind: 'badContent', content: '{"intent": "search_entity", "entities": ["Professor B"' });
      const result = await understand(client());
      assert.equal(result.repaired, true);
      assert.deepEqual(result.reply, SCRIPTED);
      assert.equal(chats().length, 2);
      const repair = chats()[1]?.messages ?? [];
      assert.equal(repair[2]?.role, 'assistant');
      assert.match(repair[3]?.content ?? '', /not valid JSON/);
    });

    test('a reply with an unknown intent is repaired with the issue quoted', async () => {
      server.setResponder(scriptedResponder);
      server.injectFault({ kind: 'badContent', content: JSON.stringify({ ...SCRIPTED, intent: 'analyze_quality' }) });
      const result = await understand(client());
      assert.equal(result.repaired, true);
      assert.match(chats()[1]?.messages?.[3]?.content ?? '', /intent/);
    });

    test('429 then success: retried', async () => {
      server.setResponder(scriptedResponder);
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0 });
      const result = await understand(client());
      assert.deepEqual(result.reply, SCRIPTED);
      assert.deepEqual(chats().map((r) => r.status), [429, 200]);
    });

    test('500 on every try: LlmError("server") once the retries are used up', async () => {
      server.injectFault({ kind: 'status', status: 500, times: 5 });
      await assert.rejects(understand(client()), (error: unknown) => {
        assert.ok(error instanceof LlmError);
        assert.equal(error.reason, 'server');
        return true;
      });
      assert.equal(chats().length, 1 + FAST_RETRY.retries);
    });

    test('a context-length error is LlmError("context-length"), not retried', async () => {
      server.injectFault({ kind: 'contextLength', contextTokens: CONTEXT });
      await assert.rejects(understand(client()), (error: unknown) => {
        assert.ok(isContextLengthError(error));
        return true;
      });
      assert.equal(chats().length, 1);
    });

    test('cancelling aborts the request in flight: a cancellation, promptly, not retried', async () => {
      server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS });
      const controller = new AbortController();
      const pending = understand(client({ timeoutMs: 2 * HOLD_OPEN_MS }), INPUT, controller.signal);
      const held = await server.waitForRequest((r) => r.fault === 'slow');
      controller.abort();
      await assert.rejects(pending, (error: unknown) => {
        assert.ok(error instanceof CancelledError);
        assert.ok(isCancellation(error));
        return true;
      });
      await assertSettledBeforeAnswer(server, held, 'the cancelled understanding');
      assert.equal(chats().length, 1);

      // Already aborted: no request at all.
      const aborted = new AbortController();
      aborted.abort();
      await assert.rejects(understand(client(), INPUT, aborted.signal), CancelledError);
      assert.equal(chats().length, 1);
    });

    test('a Chinese question uses the zh prompt', async () => {
      server.setResponder(scriptedResponder);
      const question = '來源2和來源5分別是誰說的？';
      const result = await understandWithModel(client(), { question, itemId: 'vcsum-153', session: ['芯片短缺的核心原因是什麼？'] }, { ...HINTS, corpusLanguage: 'zh' }, { promptsDir: PROMPTS_DIR });
      assert.deepEqual(result.reply, ZH_REPLY);
      const [system, user] = chats()[0]?.messages ?? [];
      assert.equal(detectLanguage(system?.content ?? ''), 'zh');
      assert.match(system?.content ?? '', /^你把研究者/);
      assert.ok(user?.content.includes(question));
      assert.match(user?.content ?? '', /语料语言：中文/);
      assert.ok(user?.content.includes('1. 芯片短缺的核心原因是什麼？'));
    });

    test('an English question about a Chinese corpus uses the en prompt and says the corpus language', async () => {
      server.setResponder(scriptedResponder);
      await understandWithModel(client(), { question: 'What did the panel identify as the core problems behind the chip shortage?', itemId: 'vcsum-153' }, { ...HINTS, corpusLanguage: 'zh' }, { promptsDir: PROMPTS_DIR });
      const [system, user] = chats()[0]?.messages ?? [];
      assert.equal(detectLanguage(system?.content ?? ''), 'en');
      assert.match(user?.content ?? '', /Corpus language: Chinese/);
    });

    test('the API key is never logged', () => {
      for (const line of logged.lines) assert.ok(!line.includes(SECRET), line);
    });
  });
}
