/**
 * Context-length rejections (issue 10, class 2), through the real openai / ollama clients against
 * the fake model server:
 * (a) Phase 0 with a model whose context is far below the configured one: every item still gets
 *     markers and every word is read (checked against what the server received), each retried
 *     window is at most 0.75× the rejected one, the limit the server states is used, and the
 *     smaller size carries to later windows and items (few rejections after the first).
 * (b) Research: a step whose third round is rejected keeps the findings of rounds 1–2 and is not
 *     failed; the round is retried with fewer served requests, and the deferral is recorded.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { LlmError, isContextLengthError } from '../../src/core/llm/types';
import { promptSource } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import type { MarkerModel } from '../../src/core/markers/modelEngine';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { defaultResponder, startFakeModelServer, type ChatRequestInfo, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');

const VOCAB = (
  'budget remote control design battery button market research user interface prototype ' +
  'colour shape material rubber plastic speech recognition scroll wheel trend fashion fruit ' +
  'vegetable sponge price target audience younger customers evaluation meeting agenda minutes ' +
  'component energy kinetic solar chip case curved double single titanium wood logo corporate ' +
  'identity presentation drawing whiteboard requirement feature lighting screen menu cost profit'
).split(' ');
const SPEAKERS = ['Project Manager', 'Marketing', 'User Interface', 'Industrial Designer'];

/** A deterministic meeting transcript of about `words` words in speaker turns. */
function meeting(seed: number, words: number): string {
  let x = seed * 7919 + 13;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const lines: string[] = [];
  let total = 0;
  while (total < words) {
    const sentences: string[] = [];
    const turnWords = 15 + next(60);
    let w = 0;
    while (w < turnWords) {
      const len = 6 + next(10);
      const s = Array.from({ length: len }, () => VOCAB[next(VOCAB.length)]!).join(' ');
      sentences.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
      w += len;
    }
    lines.push(`${SPEAKERS[next(SPEAKERS.length)]}: ${sentences.join(' ')}`);
    total += w;
  }
  return `${lines.join('\n')}\n`;
}

let server: FakeModelServer;
let work: string;

async function meetingCorpus(name: string, items: number, words: number): Promise<Corpus> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  for (let i = 0; i < items; i++) {
    const item = path.join(dir, `meeting-${String(i + 1).padStart(2, '0')}`);
    await mkdir(item, { recursive: true });
    await writeFile(path.join(item, 'transcript.txt'), meeting(i + 1, words + i * 97));
  }
  return loadCorpus(dir);
}

function client(provider: 'openai' | 'ollama'): ModelClient {
  return createModelClient(
    { provider, baseUrl: provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000, contextTokens: 32_768 },
    { retry: { retries: 0 } },
  );
}

/** A marker request as the server saw it: the item, the word range of its window, accepted or not. */
interface SeenWindow {
  title: string;
  start: number;
  end: number;
  total: number;
  rejected: boolean;
  seq: number;
}

function seenWindows(requests: readonly RecordedRequest[]): SeenWindow[] {
  const out: SeenWindow[] = [];
  for (const r of requests) {
    const user = r.messages?.find((m) => m.role === 'user')?.content ?? '';
    const title = /^Video: (.+)$/m.exec(user)?.[1];
    const range = /words (\d+)–(\d+) of (\d+)/.exec(user);
    if (!title || !range) continue;
    out.push({ title, start: Number(range[1]), end: Number(range[2]), total: Number(range[3]), rejected: r.status !== 200, seq: r.seq });
  }
  return out;
}

/** The union of [start, end) ranges covers [0, total). */
function covers(ranges: readonly { start: number; end: number }[], total: number): boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let reach = 0;
  for (const r of sorted) {
    if (r.start > reach) return false;
    reach = Math.max(reach, r.end);
  }
  return reach >= total;
}

/** Per item, the accepted windows cover every word, and every retry of a rejected window is ≤ 0.75× it. */
function checkWindows(seen: readonly SeenWindow[], corpus: Corpus): void {
  for (const item of corpus.items) {
    const mine = seen.filter((w) => w.title === item.title);
    assert.ok(mine.length > 0, `${item.id}: no requests`);
    const total = item.transcript!.wordCount;
    assert.ok(
      covers(mine.filter((w) => !w.rejected), total),
      `${item.id}: the accepted windows do not cover words 0–${total}: ${JSON.stringify(mine.filter((w) => !w.rejected).map((w) => [w.start, w.end]))}`,
    );
    for (const rej of mine.filter((w) => w.rejected)) {
      const size = rej.end - rej.start;
      const retries = mine.filter((w) => w.seq > rej.seq && w.start >= rej.start && w.end <= rej.end);
      assert.ok(retries.length > 0, `${item.id}: the rejected window ${rej.start}–${rej.end} was never retried`);
      for (const r of retries) assert.ok(r.end - r.start <= 0.75 * size, `${item.id}: window ${r.start}–${r.end} (${r.end - r.start} words) retried from ${rej.start}–${rej.end} (${size} words) is more than 0.75×`);
    }
  }
}

describe('context-length rejections (fake model server)', () => {
  before(async () => {
    server = await startFakeModelServer({ maxContextTokens: 1200 });
    work = await mkdtemp(path.join(tmpdir(), 'mr-ctxlen-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  for (const provider of ['openai', 'ollama'] as const) {
    test(`(a) ${provider}: a context far below the configured one — every item gets markers, every word read, retries ≤ 0.75×, the stated limit used, later windows start small`, async () => {
      const corpus = await meetingCorpus(`meetings-${provider}`, 6, 1500);
      const c = client(provider);
      const report = await generateMarkers(corpus, { engine: { kind: 'model', model: c, prompts: promptSource(PROMPTS) }, windows: { windowWords: 1200, overlapWords: 40, windowLimit: 0 } });
      assert.equal(report.failed, 0, `failed: ${report.items.filter((i) => i.status === 'failed').map((i) => `${i.itemId}: ${i.error}`).join(' | ')}`);
      for (const i of report.items) {
        const cov = i.coverage?.transcript;
        assert.ok(i.markers > 0, `${i.itemId}: no markers`);
        assert.ok(cov && cov.complete && cov.wordsSeen === cov.totalWords, `${i.itemId}: ${JSON.stringify(cov)}`);
      }
      const seen = seenWindows(server.chatRequests(provider));
      checkWindows(seen, corpus);
      const rejected = seen.filter((w) => w.rejected);
      assert.ok(rejected.length >= 1, 'the server rejected something');
      // The stated limit (1200 tokens) is used: windows go straight to a size that fits, so one
      // probe is rejected and the windows of every later item start small.
      assert.equal(rejected.length, 1, `rejections: ${rejected.length} of ${seen.length} requests`);
      console.log(`${provider}: ${seen.length} requests, ${rejected.length} rejected; sizes ${JSON.stringify(seen.slice(0, 6).map((w) => w.end - w.start))}`);
      const firstAccepted = seen.find((w) => !w.rejected)!;
      assert.ok(seen.filter((w) => w.seq > firstAccepted.seq).every((w) => !w.rejected), 'no rejection once a window fitted');
    });
  }

  test('(a) no limit stated: shrinks 0.75× again and again until a window fits, then later items start at that size', async () => {
    const corpus = await meetingCorpus('meetings-unstated', 5, 1500);
    const c = client('openai');
    // The same server and client, but the error no longer names a size.
    const model: MarkerModel = {
      provider: c.provider,
      model: c.model,
      async complete(req) {
        try {
          return await c.complete(req);
        } catch (e) {
          if (isContextLengthError(e)) throw new LlmError('context-length', 'prompt exceeds the model\'s context: please reduce the length of the messages');
          throw e;
        }
      },
    };
    const report = await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: promptSource(PROMPTS) }, windows: { windowWords: 1200, overlapWords: 40, windowLimit: 0 } });
    assert.equal(report.failed, 0, `failed: ${report.items.filter((i) => i.status === 'failed').map((i) => `${i.itemId}: ${i.error}`).join(' | ')}`);
    for (const i of report.items) {
      const cov = i.coverage?.transcript;
      assert.ok(cov && cov.complete && cov.wordsSeen === cov.totalWords, `${i.itemId}: ${JSON.stringify(cov)}`);
    }
    const seen = seenWindows(server.chatRequests('openai'));
    checkWindows(seen, corpus);
    const rejected = seen.filter((w) => w.rejected);
    // 1200 words → 900 → 675 → …: each step a rejection, until a window fits.
    assert.ok(rejected.length >= 2, `shrunk more than once (${rejected.length} rejections)`);
    const firstTitle = seen[0]!.title;
    const later = rejected.filter((w) => w.title !== firstTitle);
    console.log(`unstated: ${seen.length} requests, ${rejected.length} rejected; rejected sizes ${JSON.stringify(rejected.map((w) => w.end - w.start))}`);
    assert.ok(later.length <= 1, `later items start at the size that worked: ${later.length} rejections outside the first item (${rejected.length} in all, ${seen.length} requests)`);
  });

  test('(b) research: the third round of a step is rejected — rounds 1–2 findings kept, the step done, the deferral recorded', async () => {
    const corpus = await meetingCorpus('research', 3, 400);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    const ids = corpus.items.map((i) => i.id);
    let stepCalls = 0;
    const big = await startFakeModelServer();
    try {
      big.setResponder((req: ChatRequestInfo) => {
        const name = (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
        if (name === 'research_step') {
          stepCalls++;
          const n = req.messages.filter((m) => m.role === 'assistant').length; // rounds before this one
          if (n === 1) {
            // Round 3 (whatever is sent) does not fit until its new content is dropped.
            big.injectFault({ kind: 'contextLength', contextTokens: 2048, times: 1 });
          }
          const findings = [{ finding_id: 'f1', text: 'Round one finding about the budget.', confidence: 0.7, source_ids: [] as string[] }];
          if (n >= 1) findings.push({ finding_id: 'f2', text: 'Round two finding about the remote control design.', confidence: 0.6, source_ids: [] });
          if (n >= 2) findings.push({ finding_id: 'f3', text: 'Round three finding.', confidence: 0.6, source_ids: [] });
          return JSON.stringify({
            findings,
            insights: [`after round ${n + 1}`],
            confidence: 0.6,
            requests: n < 2 ? [{ type: 'full_content_item', item_id: ids[n]! }, { type: 'full_content_item', item_id: ids[(n + 1) % ids.length]! }] : [],
            done: n >= 2,
          });
        }
        if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
        return defaultResponder(req);
      });
      const c = createModelClient({ provider: 'openai', baseUrl: big.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000 }, { retry: { retries: 0 } });
      const plan = { goal: 'what the meetings decided', complexity: 'medium', steps: [{ step_id: 's1', goal: 'What was decided about the budget', required_content_items: ids, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'full_content' }] };
      const result = await runResearch({ corpus, engine: c, promptsDir: PROMPTS, config: { max_followups_per_step: 3, max_content_items_per_turn: 3 } }, { plan });
      const run = await readRun(corpus.root, result.runId);
      const step = run.steps.get('s1')!;
      assert.equal(step.status, 'done', `step: ${step.status} ${step.error ?? ''}`);
      const texts = step.findings.map((f) => f.text);
      assert.ok(texts.includes('Round one finding about the budget.'), `findings: ${JSON.stringify(texts)}`);
      assert.ok(texts.includes('Round two finding about the remote control design.'), `findings: ${JSON.stringify(texts)}`);
      const stepRequests = big.chatRequests().filter((r) => /research_step/.test(JSON.stringify((r.body as { response_format?: unknown })?.response_format ?? '')));
      assert.equal(stepCalls, 3, 'three rounds answered');
      assert.equal(stepRequests.length, 4, 'the rejected third round was sent again, smaller');
      assert.ok(stepRequests[3]!.messages!.map((m) => m.content).join('').length < stepRequests[2]!.messages!.map((m) => m.content).join('').length, 'the retry is smaller');
      assert.ok(big.chatRequests().some((r) => r.status === 400), 'the server rejected a round');
      const deferred = run.requests.filter((e) => e.step_id === 's1' && e.status === 'deferred' && /context/i.test(e.reason ?? ''));
      assert.ok(deferred.length >= 1, `a request is recorded as deferred for the model's context: ${JSON.stringify(run.requests.map((e) => [e.round, e.status, e.reason]))}`);
      assert.notEqual(run.manifest.status, 'failed');
    } finally {
      await big.close();
    }
  });

  test('(b) research: an overview that does not fit round 1 is sent again smaller until it does — the step is done', async () => {
    const corpus = await meetingCorpus('research-overview', 8, 900);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    const ids = corpus.items.map((i) => i.id);
    const big = await startFakeModelServer();
    try {
      let rejections = 0;
      const sizes: number[] = [];
      big.setResponder((req: ChatRequestInfo) => {
        const name = (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
        if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
        if (name !== 'research_step') return defaultResponder(req);
        return JSON.stringify({ findings: [{ finding_id: 'f1', text: 'A finding about the budget.', confidence: 0.7, source_ids: [] }], insights: ['i'], confidence: 0.6, requests: [], done: true });
      });
      // Every research_step request longer than this many characters is rejected for context length.
      const limitChars = 4500;
      const c0 = createModelClient({ provider: 'openai', baseUrl: big.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000 }, { retry: { retries: 0 } });
      const c: ModelClient = Object.assign(Object.create(Object.getPrototypeOf(c0) as object) as ModelClient, c0, {
        complete: async (r: Parameters<ModelClient['complete']>[0]) => {
          const size = r.messages.reduce((a, m) => a + m.content.length, 0);
          if (r.schemaName === 'research_step') sizes.push(size);
          if (r.schemaName === 'research_step' && size > limitChars) {
            rejections++;
            throw new LlmError('context-length', `prompt of ${size} characters exceeds the model's context`);
          }
          return c0.complete(r);
        },
      });
      const plan = { goal: 'what the meetings decided', complexity: 'medium', steps: [{ step_id: 's1', goal: 'What was decided about the budget', required_content_items: ids, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' }] };
      const result = await runResearch({ corpus, engine: c, promptsDir: PROMPTS, config: { overview_markers_per_kind: 6 } }, { plan });
      const run = await readRun(corpus.root, result.runId);
      const step = run.steps.get('s1')!;
      assert.ok(rejections >= 2, `the overview was rejected at least twice (${rejections}; sizes ${JSON.stringify(sizes)})`);
      for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! < sizes[i - 1]!, `each retry is smaller: ${JSON.stringify(sizes)}`);
      assert.equal(step.status, 'done', `step: ${step.status} ${step.error ?? ''}`);
      assert.deepEqual(step.findings.map((f) => f.text), ['A finding about the budget.']);
    } finally {
      await big.close();
    }
  });

  test('(b) research: a third round that never fits — the step keeps rounds 1–2 and is not failed', async () => {
    const corpus = await meetingCorpus('research-never', 3, 400);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    const ids = corpus.items.map((i) => i.id);
    const big = await startFakeModelServer();
    try {
      let armed = false;
      big.setResponder((req: ChatRequestInfo) => {
        const name = (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
        if (name === 'research_step') {
          const n = req.messages.filter((m) => m.role === 'assistant').length;
          if (n === 1 && !armed) {
            armed = true;
            // Round 3 and both of its smaller retries are rejected.
            big.injectFault({ kind: 'contextLength', times: 3 });
          }
          const findings = [{ finding_id: 'f1', text: 'Round one finding about the budget.', confidence: 0.7, source_ids: [] as string[] }];
          if (n >= 1) findings.push({ finding_id: 'f2', text: 'Round two finding about the remote control design.', confidence: 0.6, source_ids: [] });
          return JSON.stringify({ findings, insights: [`after round ${n + 1}`], confidence: 0.6, requests: [{ type: 'full_content_item', item_id: ids[n % ids.length]! }, { type: 'by_topic', topic: 'budget' }], done: false });
        }
        if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
        return defaultResponder(req);
      });
      const c = createModelClient({ provider: 'openai', baseUrl: big.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000 }, { retry: { retries: 0 } });
      const plan = { goal: 'what the meetings decided', complexity: 'medium', steps: [{ step_id: 's1', goal: 'What was decided about the budget', required_content_items: ids, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'full_content' }] };
      const result = await runResearch({ corpus, engine: c, promptsDir: PROMPTS, config: { max_followups_per_step: 3 } }, { plan });
      const run = await readRun(corpus.root, result.runId);
      const step = run.steps.get('s1')!;
      assert.equal(step.status, 'done', `step: ${step.status} ${step.error ?? ''}`);
      assert.equal(step.rounds, 2);
      assert.deepEqual(step.findings.map((f) => f.text).sort(), ['Round one finding about the budget.', 'Round two finding about the remote control design.']);
      assert.ok(step.insights.some((i) => /context/i.test(i)), `the step says why it stopped: ${JSON.stringify(step.insights)}`);
      assert.ok(run.requests.some((e) => e.status === 'deferred' && /context/i.test(e.reason ?? '')), 'the deferral is recorded');
    } finally {
      await big.close();
    }
  });
});
