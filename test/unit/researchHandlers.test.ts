/**
 * The engine's research requests through the protocol (an in-memory
 * connection to the real server) on the demo corpus with the extractive
 * engine: discover goals, plan then run that same planned run to done (live
 * step status by notification, the report written), cancel mid-run
 * (RequestCancelled, the run resumable) and resume it, one research operation
 * at a time (`busy`), and a run left `running` by a crashed engine listed as
 * resumable by the next one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, type ResponseError } from 'vscode-jsonrpc/node';
import { LSPErrorCodes } from 'vscode-languageserver-protocol';
import { ENGINE_ERROR_CODE, generateMarkersRequest, indexRequest, type EngineErrorData, type EngineProgressReport } from '../../src/shared/lspProtocol';
import {
  discoverGoalsRequest, planResearchRequest, researchChangedNotification, researchStateRequest, researchStepNotification, resumeResearchRequest, runPlannedRequest,
  runResearchRequest, type DiscoverGoalsResult, type ResearchRunResult, type ResearchSnapshot, type ResearchStepParams,
} from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { DEMO_CORPUS } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';

const settings = settingsSchema.parse({});
const deep = settingsSchema.parse({ complexity: 'deep' });

/** Waits for `cond`; the bound is a safety net against a hang on a busy machine, not a time limit under test. */
async function waitFor(cond: () => boolean, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const reasonIs = (reason: string) => (e: ResponseError<EngineErrorData>) => e.code === ENGINE_ERROR_CODE && e.data?.reason === reason;
const exists = (p: string): Promise<boolean> => stat(p).then(
  () => true,
  () => false,
);

/** An engine with the corpus at `root` indexed and its extractive markers generated; it records research notifications. */
async function engineOn(root: string): Promise<{ engine: EngineConnection; snapshots: ResearchSnapshot[]; steps: ResearchStepParams[] }> {
  const engine = await startEngine();
  const snapshots: ResearchSnapshot[] = [];
  const steps: ResearchStepParams[] = [];
  engine.client.onNotification(researchChangedNotification.method, (s: ResearchSnapshot) => void snapshots.push(s));
  engine.client.onNotification(researchStepNotification.method, (s: ResearchStepParams) => void steps.push(s));
  await engine.client.sendRequest(indexRequest.method, { root, settings });
  return { engine, snapshots, steps };
}

describe('engine: research requests through the protocol', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection;
  let snapshots: ResearchSnapshot[];
  let steps: ResearchStepParams[];
  const state = (params: object = {}): Promise<ResearchSnapshot> => engine.client.sendRequest(researchStateRequest.method, params);

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-research-handlers-'));
    root = path.join(work, 'demo');
    await cp(DEMO_CORPUS, root, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    engine = await startEngine();
    snapshots = [];
    steps = [];
    engine.client.onNotification(researchChangedNotification.method, (s: ResearchSnapshot) => void snapshots.push(s));
    engine.client.onNotification(researchStepNotification.method, (s: ResearchStepParams) => void steps.push(s));
  });

  after(async () => {
    engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: the state is empty and research is refused with reason no-corpus', async () => {
    const s = await state();
    assert.deepEqual(s.runs, []);
    assert.equal(s.state.busy, null);
    await assert.rejects(engine.client.sendRequest(discoverGoalsRequest.method, { settings }), reasonIs('no-corpus'));
    await assert.rejects(engine.client.sendRequest(runResearchRequest.method, { settings, goal: 'auto' }), (e: ResponseError<EngineErrorData>) => reasonIs('no-corpus')(e) && /Index Corpus/.test(e.message));
  });

  test('a malformed request is refused with bad-request', async () => {
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    await engine.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings });
    await assert.rejects(engine.client.sendRequest(planResearchRequest.method, { settings, goal: { nope: 1 } }), reasonIs('bad-request'));
    await assert.rejects(engine.client.sendRequest(runPlannedRequest.method, { settings }), reasonIs('bad-request'));
  });

  test('discover goals returns goals, and the state shows them', async () => {
    const token = 'goals-1';
    const r: DiscoverGoalsResult = await engine.client.sendRequest(discoverGoalsRequest.method, { settings, workDoneToken: token });
    assert.ok(r.goals.length >= 1, 'at least one goal');
    const s = await state();
    assert.deepEqual(s.goals.map((g) => g.goal_id), r.goals.map((g) => g.goal_id));
    assert.equal(s.state.goals.length, r.goals.length);
    assert.match(s.state.message ?? '', /goals? proposed/);
    assert.ok(snapshots.some((x) => x.state.busy === 'goals'), 'the view heard it was busy discovering goals');
    const values = engine.progress.get(token) ?? [];
    assert.equal((values[0] as { kind: string }).kind, 'begin');
    assert.equal((values.at(-1) as { kind: string }).kind, 'end');
  });

  test('plan, then run planned: the same run goes to done, its steps reach done by notification, the report is written', async () => {
    const goals = (await state()).goals;
    const planned: ResearchRunResult = await engine.client.sendRequest(planResearchRequest.method, { settings, goal: { goalId: goals[0]!.goal_id } });
    assert.equal(planned.manifest.status, 'planned');
    assert.equal(planned.reportPath, null);
    assert.equal(planned.failure, null);
    const stepIds = Object.keys(planned.manifest.steps);
    assert.ok(stepIds.length >= 1);
    let s = await state();
    assert.equal(s.shown?.run_id, planned.runId, 'the planned run is shown for review');
    assert.equal(s.runs[0]?.status, 'planned');

    const token = 'run-planned-1';
    steps.length = 0;
    const done: ResearchRunResult = await engine.client.sendRequest(runPlannedRequest.method, { settings, runId: planned.runId, workDoneToken: token });
    assert.equal(done.runId, planned.runId, 'no new run');
    assert.equal(done.manifest.status, 'done');
    assert.equal(done.failure, null);
    assert.ok(done.reportPath && (await readFile(done.reportPath, 'utf8')).length > 0, 'report written');
    for (const id of stepIds) assert.ok(steps.some((e) => e.runId === planned.runId && e.stepId === id && e.status === 'done'), `step ${id} reached done`);
    const reports = (engine.progress.get(token) ?? []).filter((v): v is EngineProgressReport => (v as { kind: string }).kind === 'report');
    assert.ok(reports.length >= 1 && reports.every((r) => typeof r.done === 'number' && typeof r.total === 'number'), 'progress with done/total');
    s = await state();
    assert.equal(s.runs.length, 1, 'still one run');
    assert.equal(s.shown?.status, 'done');
    assert.match(s.state.message ?? '', /done/);
    assert.ok(!s.resumable.includes(planned.runId));

    await assert.rejects(engine.client.sendRequest(runPlannedRequest.method, { settings, runId: planned.runId }), (e: ResponseError<EngineErrorData>) => reasonIs('not-planned')(e) && /done already/.test(e.message));
    await assert.rejects(engine.client.sendRequest(runPlannedRequest.method, { settings, runId: 'no-such-run' }), reasonIs('no-run'));
    await assert.rejects(engine.client.sendRequest(planResearchRequest.method, { settings, goal: { goalId: 'no-such-goal' } }), reasonIs('no-run'));
  });

  test('cancel mid-run: RequestCancelled, the run is resumable; resume finishes it', async () => {
    const source = new CancellationTokenSource();
    steps.length = 0;
    const running = engine.client.sendRequest(runResearchRequest.method, { settings: deep, goal: { text: 'how people see electric cars in winter' } }, source.token);
    // Cancel as soon as the first step starts.
    await waitFor(() => steps.length > 0);
    source.cancel();
    await assert.rejects(running, (e: ResponseError<unknown>) => e.code === LSPErrorCodes.RequestCancelled);
    const runId = steps[0]!.runId;
    const s = await state({ reload: true });
    const m = s.runs.find((r) => r.run_id === runId);
    assert.equal(m?.status, 'cancelled');
    assert.ok(s.resumable.includes(runId), 'listed as resumable');
    assert.equal(s.state.busy, null);
    assert.match(s.state.message ?? '', /Cancelled/);

    const resumed: ResearchRunResult = await engine.client.sendRequest(resumeResearchRequest.method, { settings: deep, runId });
    assert.equal(resumed.runId, runId);
    assert.equal(resumed.manifest.status, 'done');
    assert.ok(resumed.reportPath && (await exists(resumed.reportPath)));
    assert.ok(!(await state()).resumable.includes(runId));
  });

  test('one research operation at a time: a second one is told busy', async () => {
    const first = engine.client.sendRequest<ResearchRunResult>(runResearchRequest.method, { settings, goal: 'auto' });
    await assert.rejects(engine.client.sendRequest(runResearchRequest.method, { settings, goal: 'auto' }), (e: ResponseError<EngineErrorData>) => reasonIs('busy')(e) && /already running \(run\)/.test(e.message));
    await assert.rejects(engine.client.sendRequest(discoverGoalsRequest.method, { settings }), reasonIs('busy'));
    const r: ResearchRunResult = await first;
    assert.equal(r.manifest.status, 'done');
    assert.equal((await state()).state.busy, null);
  });

  test('a run left running by a crashed engine is resumable in the next one, and resumes to done', async () => {
    const planned: ResearchRunResult = await engine.client.sendRequest(planResearchRequest.method, { settings, goal: { text: 'winter range' } });
    engine.close();
    // What a crashed runner leaves: run.json says running, its lock names a process that is gone.
    const dir = planned.runDir;
    const manifest = JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(dir, 'run.json'), JSON.stringify({ ...manifest, status: 'running' }));
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    await writeFile(path.join(dir, '.lock'), JSON.stringify({ pid: deadPid, host: hostname(), since: new Date().toISOString(), run_id: planned.runId, token: 'x' }));

    ({ engine, snapshots, steps } = await engineOn(root));
    await waitFor(() => snapshots.some((x) => x.runs.some((r) => r.run_id === planned.runId)));
    const s = await state();
    assert.equal(s.runs.find((r) => r.run_id === planned.runId)?.status, 'running');
    assert.ok(s.resumable.includes(planned.runId), 'listed as resumable after the restart');
    const resumed: ResearchRunResult = await engine.client.sendRequest(resumeResearchRequest.method, { settings, runId: planned.runId });
    assert.equal(resumed.manifest.status, 'done');
    assert.ok(resumed.reportPath && (await exists(resumed.reportPath)));
  });
});
