/**
 * Planning that tells the truth (issue 10): a failed goals, plan or epic-phases call falls back to
 * the extractive stand-in out loud (a `notice` event, the plan's `notes`, a line at the top of the
 * report); `epic` never silently collapses into one phase; `deep` splits into phases when the
 * material has them (items published over time) and stays one body when it has not. Corpora are
 * generated here; the model is the project's fake server through the real openai client.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient } from '../../src/core/llm/client';
import { generateMarkers } from '../../src/core/markers/generate';
import { discoverGoals, readRun, runResearch } from '../../src/core/research/pipeline';
import type { ResearchEvent } from '../../src/core/research/session';
import { defaultResponder, startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { runCli } from '../support/testing';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');
let server: FakeModelServer;
let work: string;

const TOPICS = ['battery range in cold weather', 'coffee harvest and freight prices', 'remote work and office rents', 'street food and tourism', 'cycling lanes in the city', 'solar panels on rooftops'];

/** `n` items; `dates[i]` (or none) as `published_at`. Each item talks about two topics with numbers and opinions. */
async function makeCorpus(name: string, n: number, dates: (string | undefined)[] = []): Promise<Corpus> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  for (let i = 0; i < n; i++) {
    const d = path.join(dir, `episode-${i + 1}`);
    await mkdir(d, { recursive: true });
    const a = TOPICS[i % TOPICS.length]!;
    const b = TOPICS[(i + 2) % TOPICS.length]!;
    const lines = [
      `Host: Welcome to episode ${i + 1}. Today we look at ${a} and at ${b}.`,
      `Guest: The numbers on ${a} rose by ${10 + i} percent last year, and ${3 + i} cities reported the same trend.`,
      `Host: I think ${a} matters more than most people believe, and I would argue the costs are underestimated.`,
      `Guest: On ${b}, the survey of ${200 + i * 10} households found that most of them changed their habits.`,
      `Host: In my opinion ${b} will be the bigger story next year, because prices keep rising.`,
    ];
    await writeFile(path.join(d, 'transcript.txt'), `${lines.join('\n')}\n`);
    await writeFile(path.join(d, 'meta.json'), JSON.stringify({ title: `Episode ${i + 1}: ${a}`, source: 'youtube', ...(dates[i] ? { published_at: dates[i] } : {}) }));
  }
  const corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  return loadCorpus(dir);
}

function schemaName(req: ChatRequestInfo): string {
  const rf = req.body['response_format'] as { json_schema?: { name?: string } } | undefined;
  return rf?.json_schema?.name ?? '';
}

const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);

/** A model that answers goals and plans with the overview's real item ids, and fails `failing` with replies that are not JSON. */
function plannerFailing(failing: string) {
  return (req: ChatRequestInfo): string => {
    const name = schemaName(req);
    if (name === failing) return 'this is not JSON at all';
    const items = itemIds(firstUser(req));
    if (name === 'research_goals') return JSON.stringify({ goals: [{ goal_id: 'g1', title: 'Battery range and prices', rationale: 'r', item_ids: items.slice(0, 2), marker_ids: [] }] });
    if (name === 'research_plan') return JSON.stringify({ steps: [{ step_id: 's1', goal: 'Examine it', required_content_items: items.slice(0, 1), required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' }] });
    return defaultResponder(req);
  };
}

function client() {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 2, timeoutMs: 5_000 }, { retry: { retries: 0 } });
}

describe('planning that says what it could not do; phases for deep and epic', () => {
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-phases-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  for (const failing of ['research_goals', 'research_plan'] as const) {
    test(`a failed ${failing === 'research_goals' ? 'goals' : 'plan'} call: the extractive stand-in is used out loud (event, plan notes, report)`, async () => {
      const corpus = await makeCorpus(`fail-${failing}`, 3);
      server.setResponder(plannerFailing(failing));
      const events: ResearchEvent[] = [];
      const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS, onEvent: (e) => events.push(e) }, { goal: 'auto', complexity: 'light' });
      // The failure is one notice; coverage may add others (the fake planner's steps leave items out, and steps are added for them).
      const notices = events.filter((e): e is Extract<ResearchEvent, { type: 'notice' }> => e.type === 'notice' && / failed /.test(e.message));
      assert.equal(notices.length, 1, JSON.stringify(events.filter((e) => e.type === 'notice')));
      assert.match(notices[0]!.message, failing === 'research_goals' ? /goals from the model failed \(.+\); extractive goals are used instead/ : /the plan from the model failed \(.+\); the extractive plan is used instead/);
      const stored = await readRun(corpus.root, result.runId);
      assert.ok(stored.plan!.notes!.includes(notices[0]!.message), JSON.stringify(stored.plan!.notes));
      for (const e of events) if (e.type === 'notice') assert.ok(stored.plan!.notes!.includes(e.message), 'every notice is in the plan notes');
      const report = await readFile(result.reportPath!, 'utf8');
      assert.ok(report.includes(`> **⚠ Planning:** ${notices[0]!.message}.`), report.slice(0, 600));
    });
  }

  test('goals alone (the sidebar\'s Discover Goals): a failed call is a notice too', async () => {
    const corpus = await makeCorpus('goals-only', 3);
    server.setResponder(plannerFailing('research_goals'));
    const events: ResearchEvent[] = [];
    const goals = await discoverGoals({ corpus, engine: client(), promptsDir: PROMPTS, onEvent: (e) => events.push(e) });
    assert.ok(goals.length > 0);
    assert.equal(events.filter((e) => e.type === 'notice').length, 1);
  });

  test('the CLI prints the notice on stderr even without a terminal', async () => {
    const corpus = await makeCorpus('cli-notice', 3);
    server.setResponder(plannerFailing('research_plan'));
    const r = await runCli(['research', corpus.root, '--goal', 'battery range', '--complexity', 'light', '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model']);
    assert.match(r.err, /marker-research research: note: the plan from the model failed/);
  });

  test('epic never silently one phase: two items or more make at least two phases; one item says why', async () => {
    for (const [n, dates] of [[2, ['2024-01-01', '2024-06-01']], [2, []], [3, ['2024-01-01']], [5, []]] as const) {
      const corpus = await makeCorpus(`epic-${n}-${dates.length}`, n, [...dates]);
      const result = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'auto', complexity: 'epic' });
      const plan = (await readRun(corpus.root, result.runId)).plan!;
      assert.ok(plan.phases!.length >= 2, `${n} items, ${dates.length} dated: ${plan.phases!.length} phase(s)`);
      assert.equal(new Set(plan.phases!.flatMap((p) => p.item_ids)).size, plan.phases!.flatMap((p) => p.item_ids).length, 'phases do not overlap');
      assert.equal(plan.notes, undefined);
    }
    const one = await makeCorpus('epic-one', 1, ['2024-01-01']);
    const events: ResearchEvent[] = [];
    const result = await runResearch({ corpus: one, engine: 'extractive', promptsDir: PROMPTS, onEvent: (e) => events.push(e) }, { goal: 'auto', complexity: 'epic' });
    const plan = (await readRun(one.root, result.runId)).plan!;
    assert.equal(plan.phases!.length, 1);
    assert.match(plan.notes?.[0] ?? '', /this epic run has one phase: its goal covers 1 item, which cannot be split/);
    assert.ok(events.some((e) => e.type === 'notice'));
    assert.match(await readFile(result.reportPath!, 'utf8'), /⚠ Planning:\*\* this epic run has one phase/);
  });

  test('deep splits into phases when the items were published over time (chapters in the report); not otherwise', async () => {
    const dated = await makeCorpus('deep-dated', 6, ['2023-01-10', '2023-02-11', '2023-03-12', '2024-01-13', '2024-02-14', '2024-03-15']);
    const r1 = await runResearch({ corpus: dated, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'auto', complexity: 'deep' });
    const p1 = (await readRun(dated.root, r1.runId)).plan!;
    assert.ok((p1.phases?.length ?? 0) >= 2, JSON.stringify(p1.phases));
    assert.ok(p1.steps.length <= 6);
    const phaseNames = new Set(p1.steps.map((s) => s.phase_name));
    assert.equal(phaseNames.size, p1.phases!.length, 'every phase has steps');
    // Phases are contiguous date ranges, in order.
    const ranges = p1.phases!.map((p) => p.time_range!);
    for (let i = 1; i < ranges.length; i++) assert.ok(ranges[i - 1]![1] < ranges[i]![0], JSON.stringify(ranges));
    const report = await readFile(r1.reportPath!, 'utf8');
    assert.match(report, /## Chapter 1: A: 2023-01-10/);
    assert.match(report, /## Chapter 2: B: /);

    const undated = await makeCorpus('deep-undated', 6);
    const r2 = await runResearch({ corpus: undated, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'auto', complexity: 'deep' });
    const p2 = (await readRun(undated.root, r2.runId)).plan!;
    assert.equal(p2.phases, undefined);
    assert.ok(p2.steps.every((s) => !s.phase_name));
    assert.doesNotMatch(await readFile(r2.reportPath!, 'utf8'), /## Chapter/);
  });
});
