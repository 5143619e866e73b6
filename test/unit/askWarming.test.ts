/**
 * The engine warms up the Ask path of a large corpus after it loads (askWarming.ts), through the
 * protocol on a copy of the demo corpus with the size limit lowered: the warm-up starts once the
 * index is over and asks its questions and logs them; a question or markers that come meanwhile
 * interrupt it, are answered, and it asks them all once the engine is idle again; Cancel ends it;
 * a corpus under the limit is not warmed up.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { WarmUpReport } from '../../src/core/ask/askWarmUp';
import { askWarmingTesting, WARM_MIN_WORDS, WARM_QUIET_MS } from '../../src/server/askWarming';
import { askRequest, cancelAllNotification, generateMarkersRequest, indexRequest, type AskResponse } from '../../src/shared/lspProtocol';
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
    askWarmingTesting.quietMs = WARM_QUIET_MS;
    askWarmingTesting.onReport = undefined;
    askWarmingTesting.beforeQuestion = undefined;
    await engine?.close();
    engine = undefined;
  });
  after(() => rm(work, { recursive: true, force: true }));

  test('once the index is over, it asks its questions and logs them', { timeout: 60_000 }, async () => {
    askWarmingTesting.minWords = 0;
    askWarmingTesting.quietMs = 200;
    const done = deferred<WarmUpReport>();
    askWarmingTesting.onReport = done.resolve;
    // Engine and client share this thread: the index's answer is read before the quiet time ends.
    let indexAnswered = false;
    let answeredAtFirstQuestion: boolean | undefined;
    askWarmingTesting.beforeQuestion = (i) => {
      if (i === 0) answeredAtFirstQuestion ??= indexAnswered;
    };
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    indexAnswered = true;
    const report = await done.promise;
    assert.equal(report.stopped, undefined);
    assert.equal(answeredAtFirstQuestion, true, 'the first question came before the index was over');
    assert.ok(report.questions.length >= 12, `${report.questions.length} questions`);
    assert.ok(await logged(engine, /^ask: warmed up in \d+ ms: \d+ questions about /), engine.logs.map((l) => l.message).join('\n'));
  });

  /** Starts the engine with the warm-up held before its second question; `reached` resolves there. */
  async function heldAtSecondQuestion(): Promise<{ reports: WarmUpReport[]; reached: Promise<void>; hold: { resolve: () => void }; next: () => Promise<WarmUpReport> }> {
    askWarmingTesting.minWords = 0;
    askWarmingTesting.quietMs = 100;
    const reports: WarmUpReport[] = [];
    let waiting: ((r: WarmUpReport) => void) | undefined;
    askWarmingTesting.onReport = (r) => {
      reports.push(r);
      waiting?.(r);
    };
    const reached = deferred();
    const hold = deferred();
    let held = false;
    askWarmingTesting.beforeQuestion = async (i) => {
      if (i !== 1 || held) return;
      held = true;
      reached.resolve();
      await hold.promise;
    };
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    const next = (): Promise<WarmUpReport> => new Promise((r) => (waiting = r));
    return { reports, reached: reached.promise, hold, next };
  }

  test('a question that comes while it runs interrupts it and is answered; it asks them all once the engine is idle', { timeout: 60_000 }, async () => {
    const w = await heldAtSecondQuestion();
    await w.reached;
    const first = w.next();
    const asked = engine!.client.sendRequest(askRequest.method, { settings, askId: 1, question: 'What did the reviewers say about the winter range of the heat pump?', itemId: null, session: [] }) as Promise<AskResponse>;
    // The request reaches the engine before the hold is let go.
    await new Promise((r) => setTimeout(r, 50));
    const second = first.then(() => w.next());
    w.hold.resolve();
    const [report, r] = await Promise.all([first, asked]);
    assert.deepEqual([report.stopped, report.questions.length], ['aborted', 1]);
    assert.ok(r.result.hits.length > 0);
    const again = await second;
    assert.equal(again.stopped, undefined);
    assert.ok(again.questions.length >= 12, `${again.questions.length} questions`);
    assert.equal(w.reports.length, 2);
    assert.ok(await logged(engine!, /^ask: warmed up in \d+ ms: 1 question about .*\(stopped: a request came; again once the engine is idle\)/), engine!.logs.map((l) => l.message).join('\n'));
  });

  test('markers that start while it runs interrupt it; it starts again only once they are over', { timeout: 60_000 }, async () => {
    const w = await heldAtSecondQuestion();
    await w.reached;
    const first = w.next();
    let markersAnswered = false;
    const markers = engine!.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings }).then(() => void (markersAnswered = true));
    await new Promise((r) => setTimeout(r, 50));
    w.hold.resolve();
    const report = await first;
    assert.deepEqual([report.stopped, report.questions.length], ['aborted', 1]);
    let answeredAtRestart: boolean | undefined;
    askWarmingTesting.beforeQuestion = (i) => {
      if (i === 0) answeredAtRestart ??= markersAnswered;
    };
    const again = await w.next();
    await markers;
    assert.equal(answeredAtRestart, true, 'the warm-up started again before the markers were over');
    assert.equal(again.stopped, undefined);
  });

  test('Cancel ends it: it does not start again', { timeout: 60_000 }, async () => {
    const w = await heldAtSecondQuestion();
    await w.reached;
    const first = w.next();
    await engine!.client.sendNotification(cancelAllNotification.method, {});
    await new Promise((r) => setTimeout(r, 50));
    w.hold.resolve();
    const report = await first;
    assert.deepEqual([report.stopped, report.questions.length], ['aborted', 1]);
    assert.ok(await logged(engine!, /^ask: warmed up in \d+ ms: 1 question about .*\(stopped: cancelled\)/), engine!.logs.map((l) => l.message).join('\n'));
    // A question, then ten times the quiet time: no second warm-up.
    await engine!.client.sendRequest(askRequest.method, { settings, askId: 2, question: 'What did the reviewers say about the heat pump?', itemId: null, session: [] });
    await new Promise((r) => setTimeout(r, 10 * askWarmingTesting.quietMs));
    assert.equal(w.reports.length, 1);
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
