/**
 * Runs that always resume (issue 10, class 6; and class 7's run ids): a run killed while planning
 * is still a run (its manifest is written first) and resumes; a folder with plan.json but no
 * run.json resumes; a model plan with duplicate unsafe step ids resumes; two resumes of one run at
 * once: one is refused naming the holder; a stale lock of a dead process is taken over; a run.json
 * whose run_id is not its folder's name: the folder wins, with a warning.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient } from '../../src/core/llm/client';
import { listRuns, readRun, resumeResearch, runResearch } from '../../src/core/research/pipeline';
import { defaultResponder, startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { recordingLogger, runCli } from '../support/testing';
import { freshDemoCorpus } from '../support/demoCorpus';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');
const SAFE = /^[A-Za-z0-9_-]{1,80}$/;

let server: FakeModelServer;
let work: string;

const freshDemo = (name: string): Promise<Corpus> => freshDemoCorpus(work, name);
const runPath = (corpus: Corpus, id: string): string => path.join(corpus.root, '.marker-research', 'runs', id);
const exists = (p: string): Promise<boolean> => stat(p).then(
  () => true,
  () => false,
);
function schemaName(req: ChatRequestInfo): string {
  return (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
}
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);

/** A model whose plan has duplicate, unsafe step ids; `onPlan` runs when the plan is asked for. */
function responder(onPlan?: () => void): (req: ChatRequestInfo) => string {
  return (req) => {
    const name = schemaName(req);
    if (name === 'research_plan') {
      onPlan?.();
      const items = itemIds(firstUser(req));
      const ids = ['../s1', 's 1', 's 1'];
      return JSON.stringify({ steps: ids.map((step_id, i) => ({ step_id, goal: `Examine ${items[i % items.length]}`, required_content_items: [items[i % items.length]], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' })) });
    }
    // The finding cites a marker of the step's overview (a run whose findings all cite nothing is partial).
    if (name === 'research_step') return JSON.stringify({ findings: [{ finding_id: 'f1', text: 'a finding', confidence: 0.7, source_ids: [/\[([^\]\s]+:[FODE]:[0-9a-f]{10})\]/.exec(firstUser(req))?.[1] ?? ''] }], insights: ['i'], confidence: 0.7, requests: [], done: true });
    if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
    return defaultResponder(req);
  };
}
const client = () => createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', apiKey: 'k', timeoutMs: 5_000 }, { retry: { retries: 0 } });
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('runs that always resume', () => {
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-resume-'));
    server = await startFakeModelServer();
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test('killed while planning: run.json exists from the start, the run is listed, and resumes to done', async () => {
    const corpus = await freshDemo('kill-plan');
    const controller = new AbortController();
    let manifestBeforePlan = false;
    server.reset();
    server.setResponder(
      responder(() => {
        manifestBeforePlan = true;
        controller.abort();
      }),
    );
    await assert.rejects(runResearch({ corpus, engine: client(), promptsDir: PROMPTS, signal: controller.signal }, { goal: 'how do people travel in winter', runId: 'killed-planning' }));
    assert.ok(manifestBeforePlan);
    assert.ok(await exists(path.join(runPath(corpus, 'killed-planning'), 'run.json')), 'the manifest exists');
    const runs = await listRuns(corpus.root);
    assert.deepEqual(runs.map((r) => r.run_id), ['killed-planning']);
    assert.ok(!(await exists(path.join(runPath(corpus, 'killed-planning'), '.lock'))), 'the lock is released');
    server.setResponder(responder());
    const resumed = await resumeResearch({ corpus, engine: client(), promptsDir: PROMPTS }, 'killed-planning');
    assert.equal(resumed.manifest.status, 'done');
    assert.equal(Object.keys(resumed.manifest.steps).length, 3);
  });

  test('a scoped run interrupted while planning plans again within its scope (run.json keeps the scope)', async () => {
    const corpus = await freshDemo('scoped');
    const ids = corpus.items.map((i) => i.id);
    // Every proper subset of two or more items the demo has, in turn: the scope is what the run remembers.
    for (let k = 0; k + 2 <= ids.length && k < 3; k++) {
      const scope = ids.slice(k, k + 2);
      const runId = `scoped-${k}`;
      const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, scope }, { goal: 'auto', runId, stopAfterPlan: true });
      assert.deepEqual(r.manifest.scope, scope);
      // As if killed while planning: the plan and goals are gone, run.json says running.
      const dir = runPath(corpus, runId);
      await rm(path.join(dir, 'plan.json'));
      await rm(path.join(dir, 'goals.json'));
      await writeFile(path.join(dir, 'run.json'), JSON.stringify({ ...r.manifest, status: 'running', steps: {} }));
      const resumed = await resumeResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, runId);
      const plan = (await readRun(corpus.root, runId)).plan!;
      const planned = new Set(plan.steps.flatMap((st) => st.required_content_items));
      assert.ok([...planned].every((id) => scope.includes(id)), `${runId}: planned ${[...planned].join(', ')} outside ${scope.join(', ')}`);
      assert.deepEqual([...plan.scope_item_ids!].sort(), [...scope].sort());
      assert.equal(resumed.manifest.status, 'done');
    }
  });

  test('a run folder with plan.json but no run.json (killed by an older version) resumes through the CLI', async () => {
    const corpus = await freshDemo('no-manifest');
    const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'lost-manifest', stopAfterPlan: true });
    await rm(path.join(r.runDir, 'run.json'));
    const res = await runCli(['research', corpus.root, '--resume', 'lost-manifest', '--json']);
    assert.equal(res.code, 0, res.err.slice(-800));
    const stored = await readRun(corpus.root, 'lost-manifest');
    assert.equal(stored.manifest.status, 'done');
    assert.equal(stored.manifest.run_id, 'lost-manifest');
  });

  test('a model plan with duplicate unsafe step ids ("../s1", "s 1", "s 1") is stored with safe unique ids and resumes', async () => {
    const corpus = await freshDemo('dup-ids');
    server.reset();
    server.setResponder(responder());
    const r = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS }, { goal: 'how do people travel in winter', runId: 'dup-ids', stopAfterPlan: true });
    const plan = (await readRun(corpus.root, 'dup-ids')).plan!;
    const ids = plan.steps.map((s) => s.step_id);
    assert.equal(ids.length, 3);
    for (const id of ids) assert.match(id, SAFE);
    assert.equal(new Set(ids.map((i) => i.toLowerCase())).size, 3, ids.join(' '));
    assert.deepEqual(Object.keys(r.manifest.steps).sort(), [...ids].sort());
    const resumed = await resumeResearch({ corpus, engine: client(), promptsDir: PROMPTS }, 'dup-ids');
    assert.equal(resumed.manifest.status, 'done');
    const files = (await readdir(path.join(r.runDir, 'steps'))).sort();
    assert.deepEqual(files, ids.map((i) => `${i}.json`).sort());
    const stored = await readRun(corpus.root, 'dup-ids');
    assert.deepEqual([...stored.steps.keys()].sort(), [...ids].sort());
  });

  test('a stored plan of an older version with unsafe / duplicate step ids ("s 1_2") resumes: ids renamed through the sanitiser', async () => {
    const corpus = await freshDemo('old-ids');
    const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'old-ids', stopAfterPlan: true });
    const planFile = path.join(r.runDir, 'plan.json');
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as { steps: { step_id: string }[] };
    const bad = ['../s1', 's 1', 's 1_2', 'S 1'];
    plan.steps = plan.steps.slice(0, 1).concat(plan.steps, plan.steps).slice(0, 4).map((st, i) => ({ ...st, step_id: bad[i]! }));
    await writeFile(planFile, JSON.stringify(plan));
    const resumed = await resumeResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, 'old-ids');
    assert.equal(resumed.manifest.status, 'done');
    const ids = Object.keys(resumed.manifest.steps);
    assert.equal(ids.length, 4);
    for (const id of ids) assert.match(id, SAFE);
    assert.equal((await readdir(path.join(r.runDir, 'steps'))).length, 4);
    assert.equal((await readRun(corpus.root, 'old-ids')).steps.size, 4);
  });

  test('two resumes of one run at once: one runs, the other is refused naming the holder (pid, host, since)', async () => {
    const corpus = await freshDemo('twice');
    await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'twice', stopAfterPlan: true });
    const ctx = { corpus, engine: 'extractive' as const, promptsDir: PROMPTS };
    const results = await Promise.allSettled([resumeResearch(ctx, 'twice'), resumeResearch(ctx, 'twice')]);
    assert.equal(results.filter((x) => x.status === 'fulfilled').length, 1);
    const refused = results.find((x) => x.status === 'rejected');
    assert.ok(refused && refused.status === 'rejected');
    assert.match((refused.reason as Error).message, new RegExp(`pid ${process.pid} on ${hostname()} since \\d{4}-`));
    assert.ok(!(await exists(path.join(runPath(corpus, 'twice'), '.lock'))));
  });

  test('CLI: a run locked by another live process is refused (exit 1, holder named); nothing is written', async () => {
    const corpus = await freshDemo('locked-cli');
    await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'locked', stopAfterPlan: true });
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const since = '2024-05-06T07:08:09.000Z';
      await writeFile(path.join(runPath(corpus, 'locked'), '.lock'), JSON.stringify({ pid: child.pid, host: hostname(), since, run_id: 'locked', token: 'other' }));
      const before = await readFile(path.join(runPath(corpus, 'locked'), 'run.json'), 'utf8');
      const res = await runCli(['research', corpus.root, '--resume', 'locked']);
      assert.equal(res.code, 1);
      assert.match(res.err, new RegExp(`pid ${child.pid} on ${hostname()} since ${since}`));
      assert.equal(await readFile(path.join(runPath(corpus, 'locked'), 'run.json'), 'utf8'), before);
      assert.ok(await exists(path.join(runPath(corpus, 'locked'), '.lock')), "the holder's lock stays");
    } finally {
      child.kill();
    }
  });

  test('a stale lock (dead process, same host) is taken over', async () => {
    const corpus = await freshDemo('stale');
    await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'stale', stopAfterPlan: true });
    await writeFile(path.join(runPath(corpus, 'stale'), '.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), since: '2024-01-01T00:00:00.000Z', run_id: 'stale', token: 'dead' }));
    const res = await runCli(['research', corpus.root, '--resume', 'stale']);
    assert.equal(res.code, 0, res.err.slice(-800));
    assert.equal((await readRun(corpus.root, 'stale')).manifest.status, 'done');
    assert.ok(!(await exists(path.join(runPath(corpus, 'stale'), '.lock'))));
  });

  test('a run.json whose run_id is not its folder: the folder name wins, with a warning', async () => {
    const corpus = await freshDemo('wrong-id');
    await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'winter range of electric cars', runId: 'real-folder', stopAfterPlan: true });
    const file = path.join(runPath(corpus, 'real-folder'), 'run.json');
    const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...m, run_id: '../../evil' }));
    assert.deepEqual((await listRuns(corpus.root)).map((r) => r.run_id), ['real-folder']);
    const log = recordingLogger();
    const stored = await readRun(corpus.root, 'real-folder', log);
    assert.equal(stored.manifest.run_id, 'real-folder');
    assert.ok(log.lines.some((l) => l.startsWith('warn') && l.includes('real-folder') && l.includes('../../evil')), log.lines.join('\n'));
    const log2 = recordingLogger();
    const resumed = await resumeResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, log: log2 }, 'real-folder');
    assert.equal(resumed.runId, 'real-folder');
    assert.equal(resumed.manifest.run_id, 'real-folder');
    assert.ok(log2.lines.some((l) => l.startsWith('warn') && l.includes('../../evil')));
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { run_id: string }).run_id, 'real-folder');
  });
});
