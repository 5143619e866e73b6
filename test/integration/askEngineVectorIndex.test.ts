/**
 * The approximate vector index through the engine (issue 25): with the ANN size lowered so the
 * demo corpus's store wants an index, the question that embeds the corpus is answered — with
 * vector hits, from the exact scan of the vectors not indexed yet — while the index build has not
 * even started (it is held until the answer is in); the build then runs in the background with
 * its own progress (`vector index`, tagged with the question), is saved beside the vectors, and
 * the next question searches through it without embedding anything but itself. Stopping vectors
 * stops a held build: nothing is indexed, questions go on.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ANN_DIR } from '../../src/core/ask/vectorAnn';
import { vectorsDir } from '../../src/core/ask/vectorStore';
import { vectorTesting } from '../../src/server/askResources';
import { askRequest, indexRequest, vectorCancelNotification, vectorProgressNotification, type AskResponse, type ModelAccess, type VectorProgressParams } from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';

const KEY = 'sk-test-ENGINE-ANN-51c2';
const QUESTION = 'What did the reviewers say about the winter range of the heat pump?';

/** A gate: `wait` until `open` is called. */
function gate(): { wait: () => Promise<void>; open: () => void; waiting: () => number } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  return {
    wait: async () => {
      waiting++;
      await opened;
    },
    open,
    waiting: () => waiting,
  };
}

describe('engine: the approximate vector index is built in the background', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection;
  let server: FakeModelServer;
  let askId = 0;
  const progress: VectorProgressParams[] = [];
  const access = (model: string): ModelAccess => ({
    settings: settingsSchema.parse({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: '', embeddingModel: model }),
    apiKey: KEY,
  });
  const ask = (a: ModelAccess, question = QUESTION): Promise<AskResponse> =>
    engine.client.sendRequest(askRequest.method, { ...a, askId: ++askId, question, itemId: null, session: [] }) as Promise<AskResponse>;
  const indexProgress = (id: number): VectorProgressParams[] => progress.filter((p) => p.askId === id && p.message === 'vector index');

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-engine-ann-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
    server = await startFakeModelServer({ apiKey: KEY });
    engine = await startEngine();
    engine.client.onNotification(vectorProgressNotification.method, (p: VectorProgressParams) => void progress.push(p));
    await engine.client.sendRequest(indexRequest.method, { root, settings: settingsSchema.parse({}) });
    // Any store of the demo corpus is "large".
    vectorTesting.storeOptions = { annMinWork: 1 };
  });
  after(async () => {
    vectorTesting.storeOptions = {};
    vectorTesting.beforeIndexBuild = undefined;
    await engine.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test('the question is answered before the index build starts; the build then runs, reports progress and is saved', async () => {
    const held = gate();
    vectorTesting.beforeIndexBuild = held.wait;
    const r = await ask(access('fake-embed'));
    const id = askId;
    assert.ok(r.result.hits.some((h) => h.matchedBy.includes('vector')), 'vector hits from the exact scan of the pending vectors');
    assert.equal(held.waiting(), 1, 'the build was started, and waits');
    const mine = indexProgress(id);
    assert.equal(mine[0]?.kind, 'begin');
    assert.ok(mine[0]!.total > 10, `all ${mine[0]!.total} vectors pending`);
    assert.ok(!mine.some((p) => p.kind === 'end'), 'the build had not ended when the question was answered');
    assert.ok(!engine.logs.some((l) => /approximate index of \d+ vectors ready/.test(l.message)));

    const ended = new Promise<void>((resolve) => {
      const poll = (): void => void (indexProgress(id).some((p) => p.kind === 'end') ? resolve() : setTimeout(poll, 10));
      poll();
    });
    held.open();
    await ended;
    const done = indexProgress(id);
    assert.deepEqual(
      done.map((p) => p.kind),
      ['begin', ...done.slice(1, -1).map(() => 'report'), 'end'],
    );
    const last = done.at(-2)!;
    assert.equal(last.done, mine[0]!.total, 'the last report: every vector added');
    assert.ok(engine.logs.some((l) => new RegExp(`approximate index of ${mine[0]!.total} vectors ready .*\\(ann\\)`).test(l.message)));
    // Saved beside the vectors (the save follows the end of the build's promise chain).
    const dir = path.join(vectorsDir(root, { provider: 'openai', model: 'fake-embed' }), ANN_DIR);
    for (let i = 0; i < 200 && !(await readdir(dir).catch(() => [] as string[])).some((f) => f.endsWith('.usearch')); i++) await new Promise((res) => setTimeout(res, 10));
    assert.ok((await readdir(dir)).some((f) => f.endsWith('.usearch')), 'the index file is written');

    server.reset();
    const next = await ask(access('fake-embed'), 'How much range do electric cars lose in the cold?');
    assert.equal(server.embeddingRequests('openai').length, 1, 'only the question is embedded');
    assert.ok(next.result.hits.some((h) => h.matchedBy.includes('vector')));
    assert.equal(indexProgress(askId).length, 0, 'nothing left to build');
  });

  test('stopping vectors stops a held index build: nothing indexed, nothing saved, questions go on', async () => {
    const held = gate();
    vectorTesting.beforeIndexBuild = held.wait;
    const r = await ask(access('fake-embed-other'));
    const id = askId;
    assert.ok(r.result.hits.some((h) => h.matchedBy.includes('vector')));
    assert.equal(held.waiting(), 1);
    await engine.client.sendNotification(vectorCancelNotification.method, {});
    const ended = new Promise<void>((resolve) => {
      const poll = (): void => void (indexProgress(id).some((p) => p.kind === 'end') ? resolve() : setTimeout(poll, 10));
      poll();
    });
    // The cancel reaches the engine before the gate opens (notifications are handled in order).
    await ask(access('fake-embed-other'), 'Is a heat pump worth it in winter?');
    held.open();
    await ended;
    assert.deepEqual(indexProgress(id).map((p) => p.kind), ['begin', 'end']);
    assert.ok(engine.logs.some((l) => /approximate index build stopped at 0 of \d+ vectors/.test(l.message)));
    const dir = path.join(vectorsDir(root, { provider: 'openai', model: 'fake-embed-other' }), ANN_DIR);
    assert.deepEqual(await readdir(dir).catch(() => []), [], 'no index written');
    const again = await ask(access('fake-embed-other'), 'Which heat pump works in the cold?');
    assert.ok(again.result.hits.some((h) => h.matchedBy.includes('vector')), 'the store is kept; pending vectors are scanned');
  });
});
