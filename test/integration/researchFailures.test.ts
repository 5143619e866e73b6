/**
 * Research runs whose model calls fail must say so (issue 10, class 1): the real openai client
 * against the fake model server failing in several ways (500s, a rejected API key, context-length
 * errors on every call, one step failing while the others succeed). Each run's status is `failed`
 * or `partial` with the count, run.json records the cause, the CLI exits 1 and prints the cause,
 * a fallback report says so in its first lines, and a partial run resumes to `done`.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient } from '../../src/core/llm/client';
import { listRuns, readRun, resumeResearch, runResearch } from '../../src/core/research/pipeline';
import type { RunManifest } from '../../src/core/research/schema';
import { defaultResponder, startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';
import { freshDemoCorpus } from '../support/demoCorpus';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');

let server: FakeModelServer;
let work: string;

const freshDemo = (name: string): Promise<Corpus> => freshDemoCorpus(work, name);

/** A three-step plan over the first three items (no goals or plan model calls). */
function planFor(corpus: Corpus): { goal: string; complexity: 'medium'; steps: unknown[] } {
  return {
    goal: 'what the corpus says',
    complexity: 'medium',
    steps: corpus.items.slice(0, 3).map((it, i) => ({ step_id: `s${i + 1}`, goal: `Examine ${it.id}`, required_content_items: [it.id], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' })),
  };
}

function schemaName(req: ChatRequestInfo): string {
  return (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
}
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const stepOf = (req: ChatRequestInfo): string | undefined => /\*\*(?:Step|步骤) ([A-Za-z0-9_-]+):/.exec(firstUser(req))?.[1];

/** Answers research calls well, except that `failStep` gets an HTML error page every time. */
function responder(failStep?: string): (req: ChatRequestInfo) => string {
  return (req) => {
    const name = schemaName(req);
    if (name === 'research_step') {
      if (stepOf(req) === failStep) return '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
      // Reads its item, then cites what was served: a run whose findings all cite nothing is partial (issue 20).
      const item = /\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/.exec(firstUser(req))?.[1];
      if (item && !req.messages.some((m) => m.role === 'assistant')) return JSON.stringify({ findings: [], insights: [], confidence: 0.5, requests: [{ type: 'full_content_item', item_id: item, part: 'transcript' }], done: false });
      const served = [...new Set([...(req.messages.at(-1)?.content ?? '').matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))].slice(0, 2);
      return JSON.stringify({ findings: [{ finding_id: 'f1', text: `finding of ${stepOf(req)}`, confidence: 0.7, source_ids: served }], insights: ['i'], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
    return defaultResponder(req);
  };
}

async function manifestOf(corpus: Corpus, runId: string): Promise<RunManifest> {
  return (await readRun(corpus.root, runId)).manifest;
}

/** The run id of the only run of the corpus. */
async function onlyRunId(corpus: Corpus): Promise<string> {
  const runs = await listRuns(corpus.root);
  assert.equal(runs.length, 1, 'one run');
  return runs[0]!.run_id;
}

/** The first lines of the report say loudly that it is a fallback, and why. */
async function assertFallbackReport(runDir: string, why: RegExp): Promise<void> {
  const report = await readFile(path.join(runDir, 'report.md'), 'utf8');
  const head = report.split('\n').slice(0, 4).join('\n');
  assert.match(head, /fallback/i, `the report's first lines say it is a fallback:\n${head}`);
  assert.match(head, why, `the report's first lines say why:\n${head}`);
}

function cliArgs(dir: string, extra: string[] = []): string[] {
  return ['research', dir, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model', ...extra];
}

describe('research runs whose model calls fail (fake model server)', () => {
  const savedKey = process.env['MARKER_RESEARCH_API_KEY'];
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-research-fail-'));
    process.env['MARKER_RESEARCH_API_KEY'] = 'test-key';
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
    if (savedKey === undefined) delete process.env['MARKER_RESEARCH_API_KEY'];
    else process.env['MARKER_RESEARCH_API_KEY'] = savedKey;
  });
  beforeEach(() => server.reset());

  test('500 on every call: the run is failed (3 of 3 steps), the cause is recorded, the report is a loud fallback', async () => {
    const corpus = await freshDemo('http500');
    server.injectFault({ kind: 'status', status: 500, times: Infinity });
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000 }, { retry: { retries: 1, baseMs: 1, maxMs: 5 } });
    const result = await runResearch({ corpus, engine: client, promptsDir: PROMPTS }, { plan: planFor(corpus) });
    assert.equal(result.manifest.status, 'failed');
    const m = await manifestOf(corpus, result.runId);
    assert.equal(m.status, 'failed');
    assert.deepEqual(m.failed_steps, { failed: 3, total: 3 });
    assert.match(m.error ?? '', /3 of 3 steps failed/);
    assert.match(m.error ?? '', /server error|500/i);
    assert.ok(Object.values(m.steps).every((st) => st === 'failed'));
    await assertFallbackReport(result.runDir, /500|server error/i);
  });

  test('CLI, a rejected API key (401): exit 1, the cause on stderr and in run.json, a fallback report', async () => {
    const keyed = await startFakeModelServer({ apiKey: 'the-right-key' });
    try {
      const corpus = await freshDemo('http401');
      process.env['MARKER_RESEARCH_API_KEY'] = 'a-wrong-key';
      await writeFile(path.join(work, 'plan401.json'), JSON.stringify(planFor(corpus)));
      const r = await runCli(['research', corpus.root, '--provider', 'openai', '--base-url', keyed.openaiBaseUrl, '--model', 'fake-model', '--plan', path.join(work, 'plan401.json')]);
      assert.equal(r.code, 1, `exit code (stderr: ${r.err.slice(-500)})`);
      assert.match(r.err, /rejected the API key \(401\)/);
      assert.match(r.out + r.err, /status: failed/);
      const m = await manifestOf(corpus, await onlyRunId(corpus));
      assert.equal(m.status, 'failed');
      assert.match(m.error ?? '', /3 of 3 steps failed.*rejected the API key \(401\)/);
      assert.doesNotMatch(JSON.stringify(m), /a-wrong-key/, 'the key is not persisted');
      await assertFallbackReport(path.join(corpus.root, '.marker-research', 'runs', m.run_id), /API key/);
    } finally {
      process.env['MARKER_RESEARCH_API_KEY'] = 'test-key';
      await keyed.close();
    }
  });

  test('CLI, context-length errors on every call (goals and plan too): exit 1, failed, the cause named', async () => {
    const corpus = await freshDemo('ctxlen');
    server.injectFault({ kind: 'contextLength', times: Infinity });
    const r = await runCli(cliArgs(corpus.root, ['--goal', 'how do people travel in winter']));
    assert.equal(r.code, 1, `exit code (stderr: ${r.err.slice(-500)})`);
    assert.match(r.err, /context/i);
    const m = await manifestOf(corpus, await onlyRunId(corpus));
    assert.equal(m.status, 'failed');
    assert.equal(m.failed_steps?.failed, m.failed_steps?.total);
    assert.match(m.error ?? '', /context/i);
    await assertFallbackReport(path.join(corpus.root, '.marker-research', 'runs', m.run_id), /context/i);
  });

  test('CLI, 500s with a zero retry-after on every call: exit 1 and the cause', async () => {
    const corpus = await freshDemo('cli500');
    server.injectFault({ kind: 'status', status: 500, retryAfterSeconds: 0, times: Infinity });
    await writeFile(path.join(work, 'plan500.json'), JSON.stringify(planFor(corpus)));
    const r = await runCli(cliArgs(corpus.root, ['--plan', path.join(work, 'plan500.json'), '--json']));
    assert.equal(r.code, 1);
    const out = JSON.parse(r.out) as { manifest: RunManifest };
    assert.equal(out.manifest.status, 'failed');
    assert.match(r.err, /3 of 3 steps failed/);
  });

  test('CLI, one step of three fails: partial ("1 of 3 steps failed"), exit 1; resuming redoes only that step and ends done, exit 0', async () => {
    const corpus = await freshDemo('partial');
    server.setResponder(responder('s2'));
    await writeFile(path.join(work, 'planP.json'), JSON.stringify(planFor(corpus)));
    const r = await runCli(cliArgs(corpus.root, ['--plan', path.join(work, 'planP.json')]));
    assert.equal(r.code, 1, `exit code (stderr: ${r.err.slice(-500)})`);
    assert.match(r.err, /1 of 3 steps failed/);
    const runId = await onlyRunId(corpus);
    const m = await manifestOf(corpus, runId);
    assert.equal(m.status, 'partial');
    assert.deepEqual(m.failed_steps, { failed: 1, total: 3 });
    assert.match(m.error ?? '', /1 of 3 steps failed/);
    assert.match(m.error ?? '', /s2/);
    assert.deepEqual(m.steps, { s1: 'done', s2: 'failed', s3: 'done' });
    const report = await readFile(path.join(corpus.root, '.marker-research', 'runs', runId, 'report.md'), 'utf8');
    assert.match(report.split('\n').slice(0, 4).join('\n'), /1 of 3 steps failed/, 'the report says it is partial');

    // The server recovers: resume redoes s2 only.
    server.reset();
    server.setResponder(responder());
    const resumed = await runCli(cliArgs(corpus.root, ['--resume', runId]));
    assert.equal(resumed.code, 0, `resume exit code (stderr: ${resumed.err.slice(-500)})`);
    const redone = new Set(server.chatRequests().map((x) => /\*\*(?:Step|步骤) ([A-Za-z0-9_-]+):/.exec(x.messages?.find((mm) => mm.role === 'user')?.content ?? '')?.[1]).filter(Boolean));
    assert.deepEqual([...redone], ['s2'], 'only the failed step runs again');
    const after2 = await manifestOf(corpus, runId);
    assert.equal(after2.status, 'done');
    assert.equal(after2.error, undefined);
    assert.equal(after2.failed_steps, undefined);
    assert.deepEqual(after2.steps, { s1: 'done', s2: 'done', s3: 'done' });
    const report2 = await readFile(path.join(corpus.root, '.marker-research', 'runs', runId, 'report.md'), 'utf8');
    assert.doesNotMatch(report2.split('\n').slice(0, 4).join('\n'), /fallback|failed/i);
  });

  test('core: a failed run resumes once the server recovers', async () => {
    const corpus = await freshDemo('resume-failed');
    server.injectFault({ kind: 'status', status: 503, retryAfterSeconds: 0, times: Infinity });
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', apiKey: 'test-key', timeoutMs: 5_000 }, { retry: { retries: 0 } });
    const first = await runResearch({ corpus, engine: client, promptsDir: PROMPTS }, { plan: planFor(corpus), runId: 'fails-then-resumes' });
    assert.equal(first.manifest.status, 'failed');
    server.reset();
    server.setResponder(responder());
    const second = await resumeResearch({ corpus, engine: client, promptsDir: PROMPTS }, 'fails-then-resumes');
    assert.equal(second.manifest.status, 'done');
    const report = await readFile(second.reportPath!, 'utf8');
    assert.doesNotMatch(report.split('\n').slice(0, 4).join('\n'), /fallback/i);
  });
});
