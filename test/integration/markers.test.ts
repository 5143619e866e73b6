/**
 * Phase 0 markers through the real openai / ollama clients against the fake
 * model server: grounding of paraphrased claims, caching, faults, coverage.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createMarkerEngine } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { unionOfRanges } from '../../src/core/markers/windows';
import { HOLD_OPEN_MS, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { paraphrasingResponder, type PlantedClaim } from '../support/paraphrasingModel';

const ROOT = path.join(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'samples', 'demo-corpus');
const PROMPTS = path.join(ROOT, 'prompts');
const WINDOWS = { windowWords: 60, overlapWords: 5, windowLimit: 0 };

let server: FakeModelServer;
let dir: string;
let planted: PlantedClaim[];

function engine(provider: 'openai' | 'ollama' = 'openai', extra: { concurrency?: number; timeoutMs?: number } = {}) {
  return createMarkerEngine(
    { provider, baseUrl: provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: 'fake-model', concurrency: extra.concurrency ?? 4, timeoutMs: extra.timeoutMs ?? 5_000 },
    { promptsDir: PROMPTS, apiKey: 'sk-test-secret' },
  );
}

async function freshCorpus(): Promise<Corpus> {
  await rm(dir, { recursive: true, force: true });
  await cp(DEMO, dir, { recursive: true });
  return loadCorpus(dir);
}

describe('markers with a model (fake server)', () => {
  before(async () => {
    server = await startFakeModelServer();
    dir = await mkdtemp(path.join(tmpdir(), 'mr-markers-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reset();
    planted = [];
    server.setResponder(paraphrasingResponder(planted));
  });

  test('paraphrased markers are grounded to the span they came from (≥ 95 %)', async () => {
    const corpus = await freshCorpus();
    const { engine: e } = engine();
    const report = await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    assert.equal(report.failed, 0);
    let total = 0;
    let right = 0;
    const wrong: string[] = [];
    for (const item of corpus.items) {
      const r = await readItemMarkers(dir, item.id);
      assert.ok(r.ok);
      for (const m of allMarkers(r.value)) {
        const p = planted.find((x) => x.claim === m.text);
        if (!p) continue;
        total++;
        const part = m.evidence[0]?.part === 'comments' ? item.comments! : item.transcript!;
        const ev = m.evidence[0];
        let ok = false;
        for (let at = part.text.indexOf(p.sentence); at >= 0 && ev; at = part.text.indexOf(p.sentence, at + 1)) {
          if (ev.start < at + p.sentence.length && ev.end > at) ok = true;
        }
        if (ok) right++;
        else wrong.push(`${m.text} → ${ev ? JSON.stringify(ev.quote) : 'ungrounded'}`);
      }
    }
    assert.ok(total >= 20, `only ${total} planted markers`);
    const share = right / total;
    console.log(`# grounded to the right span: ${right}/${total} = ${(share * 100).toFixed(1)} %`);
    assert.ok(share >= 0.95, `grounded right ${right}/${total}; wrong: ${wrong.slice(0, 5).join(' | ')}`);
  });

  test('a second run on an unchanged corpus makes no model calls; a changed item alone is redone', async () => {
    const corpus = await freshCorpus();
    const { engine: e } = engine();
    await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    const calls = server.chatRequests().length;
    assert.ok(calls > 5);
    const again = await generateMarkers(await loadCorpus(dir), { engine: e, windows: WINDOWS });
    assert.equal(server.chatRequests().length, calls, 'no calls on the second run');
    assert.equal(again.cached, corpus.items.length);
    const file = path.join(dir, 'coffee-market-report', 'transcript.txt');
    await writeFile(file, `${await readFile(file, 'utf8')}A new sentence about cold brew sales rising sharply this summer.\n`);
    const third = await generateMarkers(await loadCorpus(dir), { engine: e, windows: WINDOWS });
    assert.deepEqual(third.items.filter((i) => i.status === 'generated').map((i) => i.itemId), ['coffee-market-report']);
  });

  test('every window is read: coverage complete, and a context-length rejection is retried at 0.75×', async () => {
    const corpus = await freshCorpus();
    server.injectFault({ kind: 'contextLength', times: 1 });
    const { engine: e } = engine();
    const report = await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    assert.equal(report.failed, 0);
    const shrunk = report.items.reduce((a, i) => a + (i.coverage?.transcript?.shrunkWindows ?? 0) + (i.coverage?.comments?.shrunkWindows ?? 0), 0);
    assert.equal(shrunk, 1);
    for (const i of report.items) {
      for (const c of [i.coverage?.transcript, i.coverage?.comments]) if (c) assert.ok(c.complete && c.wordsSeen === c.totalWords, `${i.itemId}: ${JSON.stringify(c)}`);
    }
    // The reported coverage is the union of the ranges the server received and answered.
    for (const item of corpus.items) {
      const r = report.items.find((x) => x.itemId === item.id)!;
      for (const kind of ['transcript', 'comments'] as const) {
        const ranges: [number, number][] = [];
        for (const q of server.chatRequests()) {
          const user = q.messages?.find((m) => m.role === 'user')?.content ?? '';
          const range = /words (\d+)–(\d+) of (\d+)/.exec(user);
          if (q.status !== 200 || !range || /^(?:Video: |视频：)(.+)$/m.exec(user)?.[1] !== item.title || user.includes('<comments>') !== (kind === 'comments')) continue;
          ranges.push([Number(range[1]), Number(range[2])]);
        }
        const cov = r.coverage?.[kind];
        if (!cov) {
          assert.equal(ranges.length, 0, `${item.id} ${kind}: requests without coverage`);
          continue;
        }
        const union = unionOfRanges(ranges);
        assert.deepEqual(union, [[0, cov.totalWords]], `${item.id} ${kind}: received ${JSON.stringify(ranges)}`);
        assert.equal(cov.wordsSeen, union.reduce((a, [x, y]) => a + y - x, 0));
        assert.equal(cov.windows, ranges.length, `${item.id} ${kind}: windows answered`);
      }
    }
  });

  test('429 then success, malformed JSON then a good repair: nothing lost', async () => {
    const corpus = await freshCorpus();
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0, times: 1 });
    server.injectFault({ kind: 'badContent', content: '{"facts": [ not json', times: 1 });
    const { engine: e, client } = engine();
    const report = await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    assert.equal(report.failed, 0);
    assert.ok(server.requests.some((r) => r.status === 429));
    assert.ok(client!.ledger.total().calls > 0);
  });

  test('a reply slower than the timeout is retried; 500 then success is retried; nothing lost', async () => {
    const corpus = await freshCorpus();
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, times: 1 });
    server.injectFault({ kind: 'status', status: 500, times: 1 });
    const { engine: e, client } = createMarkerEngine(
      { provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 1_000 },
      { promptsDir: PROMPTS, apiKey: 'sk-test-secret' },
    );
    const report = await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    assert.equal(report.failed, 0);
    assert.ok(server.requests.some((r) => r.outcome === 'clientClosed'), 'the slow call was abandoned');
    assert.ok(server.requests.some((r) => r.status === 500));
    for (const item of corpus.items) assert.ok((await readItemMarkers(dir, item.id)).ok, item.id);
    assert.ok(client!.ledger.total().calls > 0);
  });

  test('an item whose calls keep failing fails alone; finished items keep their markers', async () => {
    const corpus = await freshCorpus();
    const { engine: e } = engine();
    await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    const before = await readItemMarkers(dir, 'ev-winter-range');
    assert.ok(before.ok);
    // Change two items, then make every call fail for the Chinese one.
    for (const f of ['ev-winter-range/transcript.json', 'coffee-market-report/transcript.txt']) {
      const p = path.join(dir, f);
      await writeFile(p, (await readFile(p, 'utf8')).replace('Hi everyone', 'Hello everyone').replace('大家好', '各位好'));
    }
    server.setResponder((req) => {
      if (JSON.stringify(req.messages).includes('各位好') || JSON.stringify(req.messages).includes('电动车')) throw new Error('boom');
      return paraphrasingResponder(planted)(req);
    });
    const { engine: e2 } = createMarkerEngine(
      { provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 5_000 },
      { promptsDir: PROMPTS, apiKey: 'sk-test-secret' },
    );
    const report = await generateMarkers(await loadCorpus(dir), { engine: e2, windows: WINDOWS });
    const byId = Object.fromEntries(report.items.map((i) => [i.itemId, i.status]));
    assert.equal(byId['ev-winter-range'], 'failed');
    assert.equal(byId['coffee-market-report'], 'generated');
    const after = await readItemMarkers(dir, 'ev-winter-range');
    assert.ok(after.ok && after.value.generated_at === before.value.generated_at, 'the earlier markers of the failed item are still there');
  });

  test('an item that fails stops its own calls: none is left running or retrying once the run has returned', async () => {
    // Items of many windows; from its n-th call on, every call of one item fails (retries too) while other calls are slow: it fails,
    // and its sibling calls are aborted and awaited — a call still in flight (or in a retry's back-off) after the run returned
    // would be sent later, paid for, and land in whatever the process does next.
    for (const failAt of [1, 2, 3]) {
      server.reset();
      const corpus = await freshCorpus();
      let seen = 0;
      server.setResponder((req) => {
        if (req.messages.some((m) => m.content.includes('winter') || m.content.includes('电动车')) && ++seen >= failAt) throw new Error('boom');
        return paraphrasingResponder(planted)(req);
      });
      server.injectFault({ kind: 'slow', delayMs: 300, times: 6 });
      const { engine: e } = engine('openai', { concurrency: 4, timeoutMs: 5_000 });
      if (e.kind !== 'model') throw new Error('expected a model engine');
      let started = 0;
      let settled = 0;
      const counted = {
        ...e,
        model: {
          ...e.model,
          complete: (...args: Parameters<typeof e.model.complete>) => {
            started++;
            return e.model.complete(...args).finally(() => settled++);
          },
        } as typeof e.model,
      };
      const report = await generateMarkers(corpus, { engine: counted, windows: WINDOWS });
      assert.ok(report.failed >= 1, `an item failed (fail at call ${failAt})`);
      assert.equal(settled, started, `every model call the run started had ended when it returned (${started} started, fail at call ${failAt})`);
      assert.equal(server.inFlight, 0, 'nothing in flight at the server');
    }
  });

  test('ollama: same pipeline, num_ctx always set', async () => {
    const corpus = await freshCorpus();
    const { engine: e } = engine('ollama');
    const report = await generateMarkers(corpus, { engine: e, windows: WINDOWS });
    assert.equal(report.failed, 0);
    const bodies = server.chatRequests('ollama').map((r) => r.body as { options?: { num_ctx?: number } });
    assert.ok(bodies.length > 0 && bodies.every((b) => typeof b.options?.num_ctx === 'number'));
  });

  test('cancellation stops the run and aborts calls in flight', async () => {
    const corpus = await freshCorpus();
    // Every model call is held open for a minute, longer than the test waits: the run can only end by cancelling them.
    server.injectFault({ kind: 'slow', delayMs: HOLD_OPEN_MS, times: Infinity });
    const controller = new AbortController();
    const { engine: e } = engine('openai', { timeoutMs: 2 * HOLD_OPEN_MS });
    const run = generateMarkers(corpus, { engine: e, windows: WINDOWS, signal: controller.signal });
    await server.waitForRequest((r) => r.fault === 'slow');
    controller.abort();
    await assert.rejects(run, (err: Error) => err.name === 'CancelledError');
    const chats = server.chatRequests();
    assert.deepEqual(
      chats.filter((r) => r.outcome === 'completed').map((r) => `#${r.seq} ${r.protocol} ${r.path} fault=${r.fault} status=${r.status} messages=${r.messages?.length}`),
      [],
      `cancel is prompt: the run ended before any held call was answered (calls: ${chats.map((r) => `#${r.seq} ${r.fault} ${r.outcome}`).join(', ')})`,
    );
    for (const r of chats) {
      const ended = await server.waitForRequest((q) => q.seq === r.seq && q.outcome !== 'pending');
      assert.equal(ended.outcome, 'clientClosed', `call ${r.seq}: the abort reached the server`);
    }
    server.reset();
  });
});
