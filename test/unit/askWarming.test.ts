/**
 * The engine warms up the Ask path of a large corpus after it loads (askWarming.ts), through the
 * protocol on a copy of the demo corpus with the size limit lowered: the warm-up asks its
 * questions and logs them; a question that comes meanwhile stops it and is answered; a corpus under
 * the limit is not warmed up.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { WarmUpReport } from '../../src/core/ask/askWarmUp';
import { askWarmingTesting, WARM_MIN_WORDS } from '../../src/server/askWarming';
import { askRequest, indexRequest, type AskResponse } from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';

const settings = settingsSchema.parse({});

/** A promise and its resolve. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits (at most 10 s, polling) for a log line of `engine` that matches `re`: log notifications arrive after the in-process report. */
async function logged(engine: EngineConnection, re: RegExp): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (engine.logs.some((l) => re.test(l.message))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('engine: the Ask warm-up of a large corpus', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection | undefined;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-ask-warming-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
  });
  afterEach(async () => {
    askWarmingTesting.minWords = WARM_MIN_WORDS;
    askWarmingTesting.onReport = undefined;
    askWarmingTesting.beforeQuestion = undefined;
    await engine?.close();
    engine = undefined;
  });
  after(() => rm(work, { recursive: true, force: true }));

  test('after the index, it asks its questions and logs them', { timeout: 60_000 }, async () => {
    askWarmingTesting.minWords = 0;
    const done = deferred<WarmUpReport>();
    askWarmingTesting.onReport = done.resolve;
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    const report = await done.promise;
    assert.equal(report.stopped, undefined);
    assert.ok(report.questions.length >= 12, `${report.questions.length} questions`);
    assert.ok(await logged(engine, /^ask: warmed up in \d+ ms: \d+ questions about /), engine.logs.map((l) => l.message).join('\n'));
  });

  test('a question that comes while it runs stops it, and is answered', { timeout: 60_000 }, async () => {
    askWarmingTesting.minWords = 0;
    const done = deferred<WarmUpReport>();
    const reached = deferred();
    const hold = deferred();
    askWarmingTesting.onReport = done.resolve;
    // Held before its second question, until the question below has come.
    askWarmingTesting.beforeQuestion = async (i) => {
      if (i !== 1) return;
      reached.resolve();
      await hold.promise;
    };
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    await reached.promise;
    const asked = engine.client.sendRequest(askRequest.method, { settings, askId: 1, question: 'What did the reviewers say about the winter range of the heat pump?', itemId: null, session: [] }) as Promise<AskResponse>;
    // The request reaches the engine before the hold is let go.
    await new Promise((r) => setTimeout(r, 50));
    hold.resolve();
    const [report, r] = await Promise.all([done.promise, asked]);
    assert.deepEqual([report.stopped, report.questions.length], ['aborted', 1]);
    assert.ok(r.result.hits.length > 0);
    assert.ok(await logged(engine, /^ask: warmed up in \d+ ms: 1 question about .*\(stopped: a question came\)/), engine.logs.map((l) => l.message).join('\n'));
  });

  test('a corpus under the size limit is not warmed up', async () => {
    let reports = 0;
    askWarmingTesting.onReport = () => void reports++;
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    await engine.client.sendRequest(askRequest.method, { settings, askId: 1, question: 'What did the reviewers say about the winter range of the heat pump?', itemId: null, session: [] });
    assert.equal(reports, 0);
    assert.ok(!engine.logs.some((l) => /warmed up/.test(l.message)));
  });
});
