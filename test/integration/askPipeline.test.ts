/**
 * `marker-research ask` end to end through the real `openai` and `ollama` clients against the
 * fake model server: the model engine of query understanding (one structured call) and the
 * vector strategy (embeddings endpoint), with faults — a failing model falls back to the rules,
 * failing embeddings leave the other strategies answering.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** The model's understanding of the cross-language question, with keywords in the corpus's language. */
function understandingReply(req: ChatRequestInfo): string {
  const schema = JSON.stringify(req.schema ?? req.body);
  assert.ok(schema.includes('corpus_keywords'), 'the request carries the understanding schema');
  return JSON.stringify({
    intent: 'search_semantic', entities: [], keywords: ['winter range', 'heat pump'], corpus_keywords: ['续航', '热泵', '冬季'],
    time_constraint: null, part: 'transcript', citation_numbers: [], resolved_query: 'How much range do EVs lose in winter with a heat pump?', confidence: 0.8,
  });
}

interface AskJson {
  query: { intent: string; engine: string; keywords: string[]; strategies: string[] };
  hits: { itemId: string; matchedBy: string[] }[];
  notes: string[];
}

for (const provider of ['openai', 'ollama'] as const) {
  describe(`ask through the ${provider} client`, () => {
    let server: FakeModelServer;
    let dir: string;
    const base = (): string => (provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost);
    before(async () => {
      server = await startFakeModelServer({ embeddingDimensions: 256 });
      dir = await mkdtemp(path.join(os.tmpdir(), 'mr-ask-int-'));
      await cp(DEMO, dir, { recursive: true });
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });
    beforeEach(() => {
      server.reset();
      server.setResponder(understandingReply);
    });

    test('the model understands, vectors join keyword search; hits say which strategies found them', async () => {
      const r = await runCli(['ask', dir, 'How much winter range do EVs lose with a heat pump?', '--provider', provider, '--base-url', base(), '--model', 'fake-model', '--embedding-model', 'fake-embed', '--json']);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as AskJson;
      assert.equal(j.query.engine, 'model');
      assert.ok(j.query.keywords.includes('续航'), 'corpus-language keywords from the model are searched');
      assert.ok(j.query.strategies.includes('vector'));
      assert.equal(j.hits[0]?.itemId, 'ev-winter-range');
      assert.ok(j.hits.some((h) => h.matchedBy.includes('vector')), 'some hit found by the vector strategy');
      assert.ok(j.hits.some((h) => h.matchedBy.includes('keyword')));
      assert.ok(server.embeddingRequests().length >= 2, 'the corpus and the question were embedded');
      // A second question: the windows' vectors are reused, only the question is embedded.
      const before2 = server.embeddingRequests().length;
      const r2 = await runCli(['ask', dir, 'Which car kept the most range?', '--provider', provider, '--base-url', base(), '--embedding-model', 'fake-embed', '--json']);
      assert.equal(r2.code, 0, r2.err);
      assert.match(r2.err, /vectors: 0 windows embedded/);
      assert.equal(server.embeddingRequests().length - before2, 1);
    });

    test('a model that fails falls back to the offline rules and says so', async () => {
      server.injectFault({ kind: 'status', status: 500, times: Number.POSITIVE_INFINITY });
      const r = await runCli(['ask', dir, 'What do viewers say about the heat pump?', '--provider', provider, '--base-url', base(), '--model', 'fake-model', '--json']);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as AskJson;
      assert.equal(j.query.engine, 'rules');
      assert.equal(j.query.intent, 'analyze_reception');
      assert.ok(j.notes.some((n) => /used the offline rules/.test(n)));
    });

    test('an invalid reply is repaired once', async () => {
      server.injectFault({ kind: 'malformedJson' });
      const r = await runCli(['ask', dir, 'How much winter range do EVs lose?', '--provider', provider, '--base-url', base(), '--model', 'fake-model', '--json']);
      assert.equal(r.code, 0, r.err);
      assert.equal((JSON.parse(r.out) as AskJson).query.engine, 'model');
    });

    test('--rerank: the model reorders the best hits; invented ids are ignored and said so', async () => {
      let shown: string[] = [];
      server.setResponder((req) => {
        const schema = JSON.stringify(req.schema ?? req.body);
        if (!schema.includes('ranking')) return understandingReply(req);
        const user = req.messages[req.messages.length - 1]!.content;
        shown = [...user.matchAll(/^\[(P\d+)\]/gm)].map((m) => m[1]!);
        // The last passage shown is judged best; one id the model invents.
        return JSON.stringify({ ranking: [{ id: shown[shown.length - 1], relevance: 0.99 }, { id: 'P999', relevance: 0.9 }, ...shown.slice(0, -1).map((id) => ({ id, relevance: 0.1 }))] });
      });
      const plain = JSON.parse((await runCli(['ask', dir, 'winter range heat pump battery', '--k', '20', '--provider', provider, '--base-url', base(), '--model', 'fake-model', '--json'])).out) as AskJson & { hits: { text: string }[] };
      const r = await runCli(['ask', dir, 'winter range heat pump battery', '--k', '20', '--provider', provider, '--base-url', base(), '--model', 'fake-model', '--rerank', '--json']);
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as AskJson & { hits: { text: string }[] };
      assert.ok(shown.length >= 2, 'passages were shown to the reranker');
      assert.equal(j.hits[0]!.text, plain.hits[shown.length - 1]!.text, 'the passage the model judged best comes first');
      assert.ok(j.notes.some((n) => /not shown \(P999\)/.test(n)));
    });

    test('embeddings that fail leave the other strategies answering', async () => {
      server.injectFault({ kind: 'status', status: 500, endpoint: 'embeddings', times: Number.POSITIVE_INFINITY });
      await rm(path.join(dir, '.marker-research', 'vectors'), { recursive: true, force: true });
      const r = await runCli(['ask', dir, 'winter range heat pump', '--provider', provider, '--base-url', base(), '--embedding-model', 'fake-embed', '--json']);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /vector strategy is off/);
      const j = JSON.parse(r.out) as AskJson;
      assert.ok(j.hits.length > 0);
      assert.ok(j.hits.every((h) => !h.matchedBy.includes('vector')));
    });
  });
}
