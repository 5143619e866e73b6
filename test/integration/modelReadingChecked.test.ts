/**
 * A model's reading of a question is checked before it is trusted (issue 23), through the real
 * `openai` and `ollama` clients against the fake model server on 127.0.0.1:
 * - the model puts a citation number into a question that has none: the number is dropped with a
 *   note, and the chat turn and the Ask answer are normal answers, not citation lookups;
 * - the model paraphrases the question (`resolved_query`): the answer prompt carries the user's
 *   own question, with the names its pronouns refer to beside it;
 * - the model names an entity that is neither in the corpus nor the question, or reads a time
 *   limit the question does not state: dropped, and said.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { askCorpus } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import type { AskContext } from '../../src/core/ask/types';
import { runChatTurn } from '../../src/core/chat/chatTurn';
import { createConversation } from '../../src/core/chat/conversationStore';
import { loadCorpus } from '../../src/core/corpus/loader';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const INVENTED = 5404319552844595;

const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const isUnderstanding = (req: ChatRequestInfo): boolean => JSON.stringify(req.schema ?? '').includes('corpus_keywords');

/** A model that misreads: a citation number into every question, a paraphrase, an invented entity and a time limit. */
function misreading(req: ChatRequestInfo): string {
  const user = lastUser(req);
  if (isUnderstanding(req)) {
    const question = /<question>\s*([\s\S]*?)\s*<\/question>/.exec(user)?.[1] ?? '';
    const session = /<session>\s*([\s\S]*?)\s*<\/session>/.exec(user)?.[1] ?? '';
    const daniel = /Daniel/.test(question) || (/\bhe\b/i.test(question) && /Daniel/.test(session));
    return JSON.stringify({
      intent: 'citation_lookup',
      entities: [...(daniel ? ['Daniel'] : []), 'Zorblax Industries'],
      keywords: question.replace(/[^\p{L}\s]/gu, ' ').split(/\s+/).filter((w) => w.length > 3),
      corpus_keywords: [],
      time_constraint: { start_s: 600, end_s: 900 },
      part: null,
      citation_numbers: [INVENTED],
      resolved_query: `PARAPHRASED: ${question.replace(/\bhe\b/i, 'Daniel')}`,
      confidence: 0.9,
    });
  }
  const nums = [...new Set([...user.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].slice(0, 1);
  return `The material answers it [${nums[0] ?? 1}].`;
}

for (const provider of ['openai', 'ollama'] as const) {
  describe(`a model's reading is checked (${provider} client)`, () => {
    let server: FakeModelServer;
    let dir: string;
    let runId: string;
    let ctx: AskContext;
    let model: ModelClient;
    before(async () => {
      server = await startFakeModelServer({});
      dir = await mkdtemp(path.join(os.tmpdir(), 'mr-reading-'));
      await cp(DEMO, dir, { recursive: true });
      const r = await runCli(['research', dir, '--json']);
      assert.equal(r.code, 0, r.err);
      runId = (JSON.parse(r.out) as { runId: string }).runId;
      const corpus = await loadCorpus(dir);
      ctx = await openAskContext(corpus, CorpusIndex.build(corpus));
      model = createModelClient({ provider, baseUrl: provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: 'fake-model' }, { retry: { retries: 1, baseMs: 5, maxMs: 20 } });
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });
    beforeEach(() => {
      server.reset();
      server.setResponder(misreading);
    });

    test('a citation number the question does not contain is dropped: the chat turn is a normal answer', async () => {
      const conv = await createConversation(dir, { runId });
      const turn = await runChatTurn(ctx, conv, 'What is the main conclusion of the report?', { model, promptsDir: PROMPTS });
      assert.notEqual(turn.mode, 'citation');
      assert.deepEqual(turn.loaded, []);
      assert.doesNotMatch(turn.answer, /no citation/i);
      assert.match(turn.answer, /The material answers it \[\d+\]/);
      assert.ok(turn.notes.some((n) => n.includes(String(INVENTED)) && /dropped/.test(n)), turn.notes.join(' | '));
      assert.ok(turn.notes.some((n) => /Zorblax Industries/.test(n)), 'the invented entity is said');
      assert.ok(turn.notes.some((n) => /speaks of no time/.test(n)), 'the invented time limit is said');
    });

    test('the answerer sees the user\'s own question, with who "he" refers to beside it', async () => {
      const conv = await createConversation(dir, { runId });
      await runChatTurn(ctx, conv, 'What did Daniel say about parking?', { model, promptsDir: PROMPTS });
      server.reset();
      server.setResponder(misreading);
      const turn = await runChatTurn(ctx, conv, 'And what did he say about the shops?', { model, promptsDir: PROMPTS });
      assert.notEqual(turn.mode, 'citation');
      const answerCall = server.chatRequests().filter((r) => !JSON.stringify(r.body).includes('corpus_keywords')).pop()!;
      const prompt = answerCall.messages!.map((m) => m.content).join('\n');
      assert.match(prompt, /Question: And what did he say about the shops\?/);
      assert.doesNotMatch(prompt, /PARAPHRASED/);
      assert.match(prompt, /pronouns refer to, from the conversation: Daniel/);
    });

    test('Ask with the misreading model: no citation lookup, hits and an answer, the drop said', async () => {
      const r = await askCorpus(ctx, { question: 'What did the retailers worry about?' }, { k: 5, model, promptsDir: PROMPTS });
      assert.equal(r.query.engine, 'model');
      assert.deepEqual(r.query.citationNumbers, []);
      assert.notEqual(r.query.intent, 'citation_lookup');
      assert.equal(r.query.timeConstraint, null);
      assert.ok(!r.query.entities.some((e) => e.text === 'Zorblax Industries'));
      assert.ok(r.hits.length > 0, 'hits');
      assert.ok(r.answer.length > 0, 'an answer');
      assert.ok(r.notes.some((n) => n.includes(String(INVENTED))), r.notes.join(' | '));
    });
  });
}
