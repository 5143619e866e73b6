/**
 * Conversations through the real `openai` and `ollama` clients against the fake model server,
 * streaming included: a follow-up over a report sends only the report as context; a citation
 * question loads exactly the cited originals; a question beyond the report retrieves and cites
 * new spans; a pronoun resolves from an earlier turn across two one-shot CLI calls; a cancel
 * mid-stream keeps the conversation consistent; a citation number the model makes up is dropped
 * and said.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { openAskContext } from '../../src/core/ask/askContext';
import type { AskContext } from '../../src/core/ask/types';
import { runChatTurn } from '../../src/core/chat/chatTurn';
import { createConversation, loadConversation } from '../../src/core/chat/conversationStore';
import { loadCorpus } from '../../src/core/corpus/loader';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const isUnderstanding = (req: ChatRequestInfo): boolean => JSON.stringify(req.schema ?? '').includes('corpus_keywords');

/** Understanding: resolves "he" to the speaker the session names (as a model would); answers: cite the first numbers of the material. */
function responder(extra: { invent?: boolean } = {}) {
  return (req: ChatRequestInfo): string => {
    const user = lastUser(req);
    if (isUnderstanding(req)) {
      const question = /<question>\s*([\s\S]*?)\s*<\/question>/.exec(user)?.[1] ?? '';
      const session = /<session>\s*([\s\S]*?)\s*<\/session>/.exec(user)?.[1] ?? '';
      const named = /Daniel/.test(question) || (/\bhe\b/i.test(question) && /Daniel/.test(session)) ? ['Daniel'] : [];
      const cites = [...question.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      const words = question.replace(/[^\p{L}\s]/gu, ' ').split(/\s+/).filter((w) => w.length > 3);
      return JSON.stringify({
        intent: cites.length ? 'citation_lookup' : named.length ? 'search_entity' : 'summary', entities: named, keywords: words, corpus_keywords: [],
        time_constraint: null, part: null, citation_numbers: cites, resolved_query: named.length ? question.replace(/\bhe\b/i, 'Daniel') : question, confidence: 0.8,
      });
    }
    const nums = [...new Set([...user.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))].slice(0, 2);
    return `The material answers it [${nums[0] ?? 1}]. A second point follows from it${nums[1] ? ` [${nums[1]}]` : ''}.${extra.invent ? ' And a claim with a made-up source [999].' : ''}`;
  };
}

for (const provider of ['openai', 'ollama'] as const) {
  describe(`chat through the ${provider} client (streamed)`, () => {
    let server: FakeModelServer;
    let dir: string;
    let runId: string;
    let ctx: AskContext;
    let model: ModelClient;
    before(async () => {
      server = await startFakeModelServer({ streamChunkChars: 8 });
      dir = await mkdtemp(path.join(os.tmpdir(), 'mr-chat-int-'));
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
      server.setResponder(responder());
    });

    test('a follow-up about the findings sends the report alone as context, and streams the answer', async () => {
      const conv = await createConversation(dir, { runId });
      const deltas: string[] = [];
      const turn = await runChatTurn(ctx, conv, 'What is the main conclusion of the report?', { model, promptsDir: PROMPTS, onDelta: (d) => deltas.push(d) });
      assert.equal(turn.mode, 'report');
      assert.equal(turn.engine, 'model');
      assert.ok(deltas.length > 1, `streamed in ${deltas.length} deltas`);
      assert.equal(deltas.join('').replace(/\s*\[999\]/g, ''), turn.answer);
      const answerCall = server.chatRequests().filter((r) => !JSON.stringify(r.body).includes('corpus_keywords')).pop()!;
      const prompt = answerCall.messages!.map((m) => m.content).join('\n');
      const report = (await readFile(path.join(dir, '.marker-research', 'runs', runId, 'report.md'), 'utf8')).split(/^## Sources/m)[0]!.trim();
      assert.ok(prompt.includes(report), 'the prompt carries the report');
      // Text of the corpus the report does not quote is not in the prompt (no step results, no corpus).
      assert.ok(!prompt.includes('Retailers were worried about losing parking'), 'nothing beyond the report');
      for (const c of turn.citations) assert.ok(conv.citations.some((k) => k.number === c.number));
      assert.ok(turn.usage.byPhase.answer && turn.usage.byPhase.answer.promptTokens > 0);
    });

    test('a citation question loads exactly the cited originals; the prompt quotes them', async () => {
      const conv = await createConversation(dir, { runId });
      const turn = await runChatTurn(ctx, conv, 'What do [2][4] say?', { model, promptsDir: PROMPTS });
      assert.equal(turn.mode, 'citation');
      assert.deepEqual(turn.loaded.map((l) => l.number), [2, 4]);
      const corpus = ctx.corpus;
      for (const l of turn.loaded) {
        const c = conv.citations.find((k) => k.number === l.number)!;
        const item = corpus.items.find((i) => i.id === c.span.item_id)!;
        assert.equal(l.text, item.transcript!.text.slice(c.span.start, c.span.end));
        // …and the original file's own text at the cited range (the demo's transcripts keep text verbatim).
        const src = c.span.source;
        const lines = (await readFile(path.join(dir, src.file), 'utf8')).split('\n');
        const slice = src.startLine === src.endLine ? lines[src.startLine]!.slice(src.startColumn, src.endColumn) : [lines[src.startLine]!.slice(src.startColumn), ...lines.slice(src.startLine + 1, src.endLine), lines[src.endLine]!.slice(0, src.endColumn)].join('\n');
        assert.equal(l.text, slice);
      }
      const prompt = server.chatRequests().pop()!.messages!.map((m) => m.content).join('\n');
      for (const l of turn.loaded) assert.ok(prompt.includes(`«${l.text}»`), 'the original is in the prompt, marked');
    });

    test('a question beyond the report retrieves new spans and the answer cites them', async () => {
      const conv = await createConversation(dir, { runId });
      const max = Math.max(...conv.citations.map((c) => c.number));
      // (The offline report names its speakers and quotes a comment on parking: the question asks for more than it holds.)
      const turn = await runChatTurn(ctx, conv, 'What did Daniel say about retailers, parking and sales tax?', { model, promptsDir: PROMPTS });
      assert.equal(turn.mode, 'corpus');
      assert.ok(turn.citations.length > 0 && turn.citations.every((c) => c.number > max), 'new numbers after the report');
      assert.match(turn.answer, new RegExp(`\\[${turn.citations[0]!.number}\\]`));
    });

    test('a citation number the model makes up is dropped and said, never shown', async () => {
      server.setResponder(responder({ invent: true }));
      const conv = await createConversation(dir, { runId });
      const turn = await runChatTurn(ctx, conv, 'What is the main conclusion of the report?', { model, promptsDir: PROMPTS });
      assert.doesNotMatch(turn.answer, /\[999\]/);
      assert.ok(turn.notes.some((n) => /\[999\]/.test(n)));
    });

    test('cancel mid-stream: the turn is kept as far as it got, marked, and the conversation goes on', async () => {
      const conv = await createConversation(dir, { runId });
      server.setResponder((req) => (isUnderstanding(req) ? responder()(req) : `${'A long answer that streams slowly. '.repeat(40)}[1]`));
      const slow = await startFakeModelServer({ streamChunkChars: 4, streamChunkDelayMs: 20 });
      try {
        slow.setResponder((req) => (isUnderstanding(req) ? responder()(req) : `${'A long answer that streams slowly. '.repeat(40)}[1]`));
        const slowModel = createModelClient({ provider, baseUrl: provider === 'openai' ? slow.openaiBaseUrl : slow.ollamaHost, model: 'fake-model' });
        const controller = new AbortController();
        let got = '';
        const turn = await runChatTurn(ctx, conv, 'What is the main conclusion of the report?', {
          model: slowModel, promptsDir: PROMPTS, signal: controller.signal,
          onDelta: (d) => {
            got += d;
            if (got.length > 40) controller.abort();
          },
        });
        assert.equal(turn.cancelled, true);
        assert.ok(turn.answer.length > 0 && turn.answer.length < 600, `kept the part that arrived (${turn.answer.length} chars)`);
        const back = await loadConversation(dir, conv.header.id);
        assert.equal(back.turns.length, 1);
        assert.equal(back.turns[0]!.cancelled, true);
        const next = await runChatTurn(ctx, back, 'What does [1] say?', { promptsDir: PROMPTS });
        assert.equal(next.turn, 2);
      } finally {
        await slow.close();
      }
    });

    test('a pronoun resolves from an earlier turn across two one-shot --message calls', async () => {
      const base = ['--provider', provider, '--base-url', provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost, '--model', 'fake-model'];
      const id = `pron-${provider}`;
      const r1 = await runCli(['chat', dir, '--conversation', id, '--message', 'What did Daniel say about parking?', '--json', ...base]);
      assert.equal(r1.code, 0, r1.err);
      const r2 = await runCli(['chat', dir, '--conversation', id, '--message', 'And what did he say about injuries?', '--json', ...base]);
      assert.equal(r2.code, 0, r2.err);
      const j2 = JSON.parse(r2.out) as { turn: number; query: { entities: string[]; engine: string }; answer: string };
      assert.equal(j2.turn, 2);
      assert.equal(j2.query.engine, 'model');
      assert.deepEqual(j2.query.entities, ['Daniel']);
      const understandingCalls = server.chatRequests().filter((r) => JSON.stringify(r.body).includes('corpus_keywords'));
      assert.match(understandingCalls.pop()!.messages!.map((m) => m.content).join('\n'), /What did Daniel say about parking\?/, 'the earlier question went to the model as the session');
    });
  });
}
