/**
 * Issue 20, the CLI class: `goals` lists the research goals, `research --plan-only` plans and
 * stops, `research --run <id>` runs a reviewed (edited) plan, `--items` scopes a run. Every
 * case runs the CLI in this process on GENERATED corpora (the synthetic generator with several
 * seeds and sizes, plus the demo corpus with its Chinese items and a broken file), with step
 * drops, scopes and typos drawn from a seeded generator.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { generateSyntheticCorpus } from '../../bench/syntheticCorpus';
import { GOALS_USAGE } from '../../src/cli/goalsCommand';
import { editDistance, lookAlikeIds } from '../../src/cli/itemScope';
import { RESEARCH_USAGE } from '../../src/cli/researchCommand';
import { loadCorpus } from '../../src/core/corpus/loader';
import { goalSchema, NOT_COVERED_REASONS, planSchema, reportSourcesSchema, runManifestSchema, type Plan } from '../../src/core/research/schema';
import { freshDemoCorpus } from '../support/demoCorpus';
import { rng, runCli } from '../support/testing';

type CliRun = { code: number; out: string; err: string };

/** A generated corpus and its item ids. */
interface Fixture {
  name: string;
  dir: string;
  ids: string[];
}

const STACK = /^\s+at /m;

/** Exit 2, one `marker-research research|goals:` line on stderr, no stack trace; the line. */
function usageLine(r: CliRun, label: string): string {
  assert.equal(r.code, 2, `${label}: exit ${r.code}, expected 2: ${r.err}`);
  assert.doesNotMatch(r.err, STACK, `${label}: a stack trace`);
  const lines = r.err.split('\n').filter((l) => l.startsWith('marker-research'));
  assert.equal(lines.length, 1, `${label}: one marker-research line: ${JSON.stringify(lines)}`);
  return lines[0]!;
}

function runsDirOf(dir: string): string {
  return path.join(dir, '.marker-research', 'runs');
}

async function runIds(dir: string): Promise<string[]> {
  return existsSync(runsDirOf(dir)) ? (await readdir(runsDirOf(dir))).sort() : [];
}

async function readPlan(dir: string, runId: string): Promise<Plan> {
  return planSchema.parse(JSON.parse(await readFile(path.join(runsDirOf(dir), runId, 'plan.json'), 'utf8')));
}

async function readManifest(dir: string, runId: string): Promise<z.infer<typeof runManifestSchema>> {
  return runManifestSchema.parse(JSON.parse(await readFile(path.join(runsDirOf(dir), runId, 'run.json'), 'utf8')));
}

/** The step result files of a run (step ids). */
async function stepFiles(dir: string, runId: string): Promise<string[]> {
  const steps = path.join(runsDirOf(dir), runId, 'steps');
  return existsSync(steps) ? (await readdir(steps)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort() : [];
}

/** `k` distinct elements of `xs`, drawn with `rnd`. */
function sample<T>(xs: readonly T[], k: number, rnd: () => number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < k && pool.length) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);
  return out;
}

/** A typo of `id`: one character substituted, deleted or inserted, or the case changed. */
function typo(id: string, rnd: () => number): string {
  const chars = [...id];
  const at = Math.floor(rnd() * chars.length);
  switch (Math.floor(rnd() * 4)) {
    case 0:
      chars[at] = chars[at] === 'q' ? 'x' : 'q';
      return chars.join('');
    case 1:
      chars.splice(at, 1);
      return chars.join('');
    case 2:
      chars.splice(at, 0, 'q');
      return chars.join('');
    default:
      return id.toUpperCase() === id ? id.toLowerCase() : id.toUpperCase();
  }
}

/** A made-up id nothing looks like. */
function junkId(rnd: () => number): string {
  let s = 'zz';
  for (let i = 0; i < 6; i++) s += 'kmwxjv'[Math.floor(rnd() * 6)];
  return s;
}

describe('CLI: goals, research --plan-only, --run and --items', () => {
  let work: string;
  const fixtures: Fixture[] = [];

  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mr-cli-plan-only-'));
    for (const [items, seed] of [[9, 20_1], [14, 20_2]] as const) {
      const dir = path.join(work, `syn-${items}-${seed}`);
      await generateSyntheticCorpus(dir, { items, wordsPerItem: 300, seed });
      const corpus = await loadCorpus(dir);
      fixtures.push({ name: `synthetic ${items} items, seed ${seed}`, dir, ids: corpus.items.map((i) => i.id) });
    }
    const demo = await freshDemoCorpus(work, 'demo');
    fixtures.push({ name: 'demo corpus', dir: demo.root, ids: demo.items.map((i) => i.id) });
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('goals lists the goals: --json is an array of goalSchema over known items; the text names each goal, its item count and rationale; nothing is planned', async () => {
    const rnd = rng(20_11);
    for (const f of fixtures) {
      const before = await runIds(f.dir);
      const max = 1 + Math.floor(rnd() * 5);
      const j = await runCli(['goals', f.dir, '--json', '--max', String(max)]);
      assert.equal(j.code, 0, `${f.name}: ${j.err}`);
      const goals = z.array(goalSchema).parse(JSON.parse(j.out));
      assert.ok(goals.length >= 1 && goals.length <= max, `${f.name}: ${goals.length} goals, --max ${max}`);
      for (const g of goals) for (const id of g.item_ids) assert.ok(f.ids.includes(id), `${f.name}: goal ${g.goal_id} names unknown item ${id}`);

      const t = await runCli(['goals', f.dir, '--max', String(max)]);
      assert.equal(t.code, 0, `${f.name}: ${t.err}`);
      // The extractive goals are deterministic: the text lists the same goals.
      for (const g of goals) {
        assert.ok(t.out.includes(`${g.goal_id}  ${g.title}`), `${f.name}: goal ${g.goal_id} and its title listed:\n${t.out}`);
        assert.ok(t.out.includes(`items: ${g.item_ids.length} — `), `${f.name}: goal ${g.goal_id}'s item count`);
        assert.ok(t.out.includes(`why: ${g.rationale}`), `${f.name}: goal ${g.goal_id}'s rationale`);
      }
      assert.deepEqual(await runIds(f.dir), before, `${f.name}: goals writes no run`);
    }
  });

  test('--plan-only writes goals.json, plan.json and run.json "planned", runs no step, and prints the plan path, the steps and the --run command', async () => {
    const rnd = rng(20_12);
    for (const f of fixtures) {
      for (const complexity of ['light', 'medium', 'deep', 'epic'] as const) {
        const label = `${f.name}, ${complexity}`;
        const json = rnd() < 0.5;
        const r = await runCli(['research', f.dir, '--plan-only', '--complexity', complexity, ...(json ? ['--json'] : [])]);
        assert.equal(r.code, 0, `${label}: ${r.err}`);
        let runId: string;
        if (json) {
          const out = JSON.parse(r.out) as { runId: string; planPath: string; reportPath: null; manifest: { status: string }; plan: unknown; run: string };
          runId = out.runId;
          assert.equal(out.manifest.status, 'planned', label);
          assert.equal(out.reportPath, null, label);
          assert.equal(out.planPath, path.join(runsDirOf(f.dir), runId, 'plan.json'), label);
          assert.deepEqual(planSchema.parse(out.plan), await readPlan(f.dir, runId), `${label}: the JSON plan is plan.json`);
          assert.equal(out.run, `marker-research research ${f.dir} --run ${runId}`, label);
        } else {
          runId = /^run id: (\S+)$/m.exec(r.out)?.[1] ?? '';
          assert.ok(runId, `${label}: the run id is printed:\n${r.out}`);
          assert.ok(r.out.includes(`plan: ${path.join(runsDirOf(f.dir), runId, 'plan.json')}`), `${label}: the plan.json path`);
          assert.ok(r.out.includes(`marker-research research ${f.dir} --run ${runId}`), `${label}: how to run it`);
          assert.match(r.out, /status: planned/, label);
        }
        const plan = await readPlan(f.dir, runId);
        if (!json) for (const st of plan.steps) assert.match(r.out, new RegExp(`^${st.step_id}\\s+${st.required_content_items.length}\\s+${st.required_data}\\s+${st.retrieval_strategy}\\s`, 'm'), `${label}: step ${st.step_id} listed with its items, data and strategy`);
        const m = await readManifest(f.dir, runId);
        assert.equal(m.status, 'planned', label);
        assert.deepEqual(Object.keys(m.steps).sort(), plan.steps.map((st) => st.step_id).sort(), label);
        assert.ok(Object.values(m.steps).every((s) => s === 'pending'), `${label}: every step pending`);
        assert.ok(existsSync(path.join(runsDirOf(f.dir), runId, 'goals.json')), `${label}: goals.json`);
        assert.deepEqual(await stepFiles(f.dir, runId), [], `${label}: no step ran`);
        assert.ok(!existsSync(path.join(runsDirOf(f.dir), runId, 'report.md')), `${label}: no report`);
      }
    }
  });

  test('an edited plan.json (steps dropped) runs with --run: exactly the remaining steps, then done; a second --run is refused (exit 2, "done")', async () => {
    const rnd = rng(20_13);
    for (const f of fixtures) {
      for (const complexity of ['light', 'medium', 'deep', 'epic'] as const) {
        const label = `${f.name}, ${complexity}`;
        const p = await runCli(['research', f.dir, '--plan-only', '--complexity', complexity, '--json']);
        assert.equal(p.code, 0, `${label}: ${p.err}`);
        const runId = (JSON.parse(p.out) as { runId: string }).runId;
        const plan = await readPlan(f.dir, runId);
        // Drop a random number of steps, keeping at least one (a single-step plan keeps it).
        const drop = plan.steps.length > 1 ? sample(plan.steps, 1 + Math.floor(rnd() * (plan.steps.length - 1)), rnd).map((s) => s.step_id) : [];
        const kept = plan.steps.filter((st) => !drop.includes(st.step_id));
        await writeFile(path.join(runsDirOf(f.dir), runId, 'plan.json'), JSON.stringify({ ...plan, steps: kept }, null, 1));

        const r = await runCli(['research', f.dir, '--run', runId, '--json']);
        assert.equal(r.code, 0, `${label}: ${r.err}`);
        const out = JSON.parse(r.out) as { runId: string; manifest: { status: string; steps: Record<string, string> }; reportPath: string };
        assert.equal(out.runId, runId, label);
        assert.equal(out.manifest.status, 'done', label);
        const keptIds = kept.map((st) => st.step_id).sort();
        assert.deepEqual(Object.keys(out.manifest.steps).sort(), keptIds, `${label}: the manifest lists the remaining steps (dropped ${drop.join(', ') || 'none'})`);
        assert.deepEqual(await stepFiles(f.dir, runId), keptIds, `${label}: exactly the remaining steps ran`);
        assert.ok(existsSync(out.reportPath), `${label}: a report`);

        const again = await runCli(['research', f.dir, '--run', runId]);
        const line = usageLine(again, `${label}: --run of a done run`);
        assert.match(line, new RegExp(`--run ${runId}: run "${runId}" is done, not planned`), label);
        assert.match(line, /nothing left to run/, label);
        assert.doesNotMatch(line, /--resume/, `${label}: a done run has nothing to resume`);
      }
    }
  });

  test('--run of a cancelled, failed, partial or running run is refused (exit 2) with its status and --resume; an unknown run id names the runs there', async () => {
    const f = fixtures[0]!;
    for (const status of ['cancelled', 'failed', 'partial', 'running'] as const) {
      const p = await runCli(['research', f.dir, '--plan-only', '--json']);
      const runId = (JSON.parse(p.out) as { runId: string }).runId;
      const file = path.join(runsDirOf(f.dir), runId, 'run.json');
      const m = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...m, status }));
      const line = usageLine(await runCli(['research', f.dir, '--run', runId]), status);
      assert.match(line, new RegExp(`run "${runId}" is ${status}, not planned`), status);
      assert.match(line, new RegExp(`--resume ${runId}`), `${status}: says to use --resume`);
      assert.deepEqual(await stepFiles(f.dir, runId), [], `${status}: nothing ran`);
    }
    const rnd = rng(20_14);
    for (let i = 0; i < 4; i++) {
      const id = `20990101-000000-${junkId(rnd).slice(2, 6)}`;
      const line = usageLine(await runCli(['research', f.dir, '--run', id]), id);
      assert.match(line, new RegExp(`--run ${id}: no run "${id}" in .*; the runs there, newest first: `), id);
    }
  });

  test('an edited plan.json that does not validate is refused (exit 2) naming the file; the run stays planned', async () => {
    const f = fixtures[1]!;
    const rnd = rng(20_15);
    const breakers: ((plan: Plan) => string)[] = [
      (plan) => JSON.stringify(plan).slice(0, 10 + Math.floor(rnd() * 20)),
      (plan) => JSON.stringify({ ...plan, steps: [] }),
      (plan) => JSON.stringify({ ...plan, steps: plan.steps.map((st, i) => (i === 0 ? { ...st, required_content_items: [...st.required_content_items, junkId(rnd)] } : st)) }),
      (plan) => JSON.stringify({ ...plan, steps: [...plan.steps, { ...plan.steps[0]!, step_id: 'bad id!' }] }),
      (plan) => JSON.stringify({ ...plan, steps: [...plan.steps, plan.steps[Math.floor(rnd() * plan.steps.length)]!] }),
      (plan) => JSON.stringify({ ...plan, complexity: 'huge' }),
    ];
    for (const [k, breaker] of breakers.entries()) {
      const p = await runCli(['research', f.dir, '--plan-only', '--json']);
      const runId = (JSON.parse(p.out) as { runId: string }).runId;
      const planFile = path.join(runsDirOf(f.dir), runId, 'plan.json');
      await writeFile(planFile, breaker(await readPlan(f.dir, runId)));
      const line = usageLine(await runCli(['research', f.dir, '--run', runId]), `breaker ${k}`);
      assert.ok(line.includes(planFile), `breaker ${k}: the error names ${planFile}: ${line}`);
      assert.equal((await readManifest(f.dir, runId)).status, 'planned', `breaker ${k}: the run stays planned`);
      assert.deepEqual(await stepFiles(f.dir, runId), [], `breaker ${k}: nothing ran`);
    }
  });

  test('--plan FILE --plan-only stores a given plan without running it; the items it leaves out are counted by reason as plan.json lists them', async () => {
    const rnd = rng(20_20);
    const f = fixtures[1]!;
    for (let v = 0; v < 4; v++) {
      const inSteps = sample(f.ids, 1 + Math.floor(rnd() * (f.ids.length - 1)), rnd);
      const left = f.ids.filter((id) => !inSteps.includes(id));
      const notCovered = left.map((item_id) => ({ item_id, reason: NOT_COVERED_REASONS[Math.floor(rnd() * NOT_COVERED_REASONS.length)]! }));
      const plan = {
        goal: `What is said in ${inSteps.length} items?`,
        complexity: 'light',
        steps: [{ step_id: 's1', goal: 'facts', required_content_items: inSteps, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' }],
        not_covered: notCovered,
      };
      const file = path.join(work, `given-plan-${v}.json`);
      await writeFile(file, JSON.stringify(plan));
      const r = await runCli(['research', f.dir, '--plan', file, '--plan-only']);
      assert.equal(r.code, 0, r.err);
      const runId = /^run id: (\S+)$/m.exec(r.out)?.[1] ?? '';
      const stored = await readPlan(f.dir, runId);
      assert.deepEqual(stored.steps.map((st) => st.required_content_items), [inSteps], 'the given steps are stored');
      assert.deepEqual(await stepFiles(f.dir, runId), [], 'nothing ran');
      const listed = stored.not_covered ?? [];
      if (!listed.length) assert.doesNotMatch(r.out, /not covered/, 'nothing said to be left out');
      else {
        const line = new RegExp(`; ${listed.length} items? not covered \\(([^;]+); listed in plan.json under "not_covered"\\)`).exec(r.out);
        assert.ok(line, `the not-covered count is printed:\n${r.out}`);
        const counts = new Map<string, number>();
        for (const x of listed) counts.set(x.reason, (counts.get(x.reason) ?? 0) + 1);
        for (const [reason, n] of counts) assert.ok(line[1]!.split(', ').includes(`${n} ${reason}`), `${n} ${reason} in "${line[1]}"`);
      }
    }
  });

  test('--items (a list or @file) restricts goals and every planned step to the given ids, and the run to them', async () => {
    const rnd = rng(20_16);
    for (const f of fixtures) {
      for (let v = 0; v < 3; v++) {
        const scope = sample(f.ids, 1 + Math.floor(rnd() * Math.min(4, f.ids.length - 1)), rnd);
        const label = `${f.name}, scope ${scope.join(',')}`;
        let items = scope.join(',');
        if (v % 2) {
          const file = path.join(work, `ids-${v}.txt`);
          await writeFile(file, `# ids to research\n${scope.map((id) => `  ${id}  `).join('\n')}\n\n`);
          items = `@${file}`;
        }
        const g = await runCli(['goals', f.dir, '--items', items, '--json']);
        assert.equal(g.code, 0, `${label}: ${g.err}`);
        for (const goal of z.array(goalSchema).parse(JSON.parse(g.out))) for (const id of goal.item_ids) assert.ok(scope.includes(id), `${label}: goal ${goal.goal_id} names ${id}, out of scope`);

        const complexity = (['light', 'medium', 'deep', 'epic'] as const)[Math.floor(rnd() * 4)]!;
        const p = await runCli(['research', f.dir, '--items', items, '--complexity', complexity, '--plan-only', '--json']);
        assert.equal(p.code, 0, `${label}: ${p.err}`);
        const runId = (JSON.parse(p.out) as { runId: string }).runId;
        const plan = await readPlan(f.dir, runId);
        for (const st of plan.steps) for (const id of st.required_content_items) assert.ok(scope.includes(id), `${label} (${complexity}): step ${st.step_id} names ${id}, out of scope`);
        const r = await runCli(['research', f.dir, '--run', runId, '--json']);
        assert.equal(r.code, 0, `${label}: ${r.err}`);
        const sources = reportSourcesSchema.parse(JSON.parse(await readFile(path.join(runsDirOf(f.dir), runId, 'report.sources.json'), 'utf8')));
        for (const c of sources.citations) assert.ok(scope.includes(c.span.item_id), `${label}: a citation of ${c.span.item_id}, out of scope`);
      }
    }
  });

  test('--items with unknown ids: exit 2 naming them with the known ids they look like; nothing is planned', async () => {
    const rnd = rng(20_17);
    for (const f of fixtures) {
      for (let v = 0; v < 4; v++) {
        const typos = sample(f.ids, 1 + Math.floor(rnd() * 2), rnd)
          .map((id) => ({ id, typo: typo(id, rnd) }))
          .filter((t) => !f.ids.includes(t.typo));
        const junk = Array.from({ length: Math.floor(rnd() * 3) }, () => junkId(rnd));
        const good = sample(f.ids, Math.floor(rnd() * 3), rnd);
        const unknown = [...typos.map((t) => t.typo), ...junk];
        if (!unknown.length) continue;
        const items = sample([...good, ...unknown], good.length + unknown.length, rnd).join(',');
        const before = await runIds(f.dir);
        for (const cmd of [['research', f.dir, '--plan-only'], ['goals', f.dir]]) {
          const label = `${f.name}: ${cmd[0]} --items ${items}`;
          const line = usageLine(await runCli([...cmd, '--items', items]), label);
          assert.match(line, new RegExp(`--items: ${unknown.length} ids? names? no item of `), label);
          for (const u of unknown) assert.ok(line.includes(`"${u}"`), `${label}: names ${u}: ${line}`);
          for (const g of good) assert.ok(!line.includes(`"${g}" (`) && !line.includes(`"${g}",`), `${label}: does not call ${g} unknown`);
          for (const t of typos) assert.ok(lookAlikeIds(t.typo, f.ids).includes(t.id) && line.includes(`"${t.typo}" (did you mean `), `${label}: ${t.typo} is shown with the ids it looks like`);
        }
        assert.deepEqual(await runIds(f.dir), before, `${f.name}: nothing planned`);
      }
    }
  });

  test('flags that cannot go together are usage errors; the help lists goals and the new flags', async () => {
    const f = fixtures[0]!;
    const cases: [string[], RegExp][] = [
      [['--plan-only', '--run', 'x'], /--plan-only plans a new run and cannot be combined with --run/],
      [['--plan-only', '--resume', 'x'], /--plan-only plans a new run and cannot be combined with --resume/],
      [['--run', 'x', '--resume', 'y'], /--resume and --run cannot be combined/],
      [['--plan', 'p.json', '--run', 'x'], /--plan and --run cannot be combined/],
      [['--items', f.ids[0]!, '--run', 'x'], /--items scopes the planning of a new run/],
      [['--items', ''], /--items needs at least one item id/],
      [['--items', `@${path.join(work, 'no-such-file.txt')}`], /cannot read .*no-such-file\.txt \(no such file\)/],
    ];
    for (const [args, pattern] of cases) assert.match(usageLine(await runCli(['research', f.dir, ...args]), args.join(' ')), pattern);
    for (const v of ['0', '21', 'x']) assert.match(usageLine(await runCli(['goals', f.dir, '--max', v]), `--max ${v}`), /--max must be a whole number from 1 to 20/);
    const help = await runCli(['--help']);
    for (const s of ['marker-research goals <corpusDir>', '--plan-only', '--run RUN_ID', '--items ID[,ID…]|@FILE']) assert.ok(help.out.includes(s), `--help lists ${s}`);
    for (const s of ['--plan-only', '--run RUN_ID', '--items']) assert.ok(RESEARCH_USAGE.includes(s), s);
    for (const s of ['--json', '--max N', '--items']) assert.ok(GOALS_USAGE.includes(s), s);
  });
});

describe('lookAlikeIds', () => {
  test('a typo of a known id (one edit, a case change, a prefix) suggests it; ids far from every known id suggest nothing', () => {
    const rnd = rng(20_18);
    const words = ['winter', 'range', 'coffee', 'market', 'report', 'panel', 'remote', 'work', 'city', 'cycling', '会议', '续航'];
    for (let round = 0; round < 40; round++) {
      const known = Array.from({ length: 5 + Math.floor(rnd() * 30) }, (_, i) => `${sample(words, 2, rnd).join('-')}-${i}`);
      const id = known[Math.floor(rnd() * known.length)]!;
      const t = typo(id, rnd);
      if (known.includes(t)) continue;
      const like = lookAlikeIds(t, known);
      assert.ok(like.length <= 3, 'at most three');
      assert.ok(like.includes(id) || like.every((k) => editDistance([...k.toLowerCase()], [...t.toLowerCase()]) <= 1), `${t}: suggests ${id} or ids as close: ${like.join(', ')}`);
      const prefix = id.slice(0, Math.max(3, id.length - 2));
      if (!known.includes(prefix)) assert.ok(lookAlikeIds(prefix, known, known.length).includes(id), `prefix ${prefix} of ${id}`);
      assert.deepEqual(lookAlikeIds(junkId(rnd), known), [], 'junk looks like nothing');
    }
  });

  test('editDistance is the Levenshtein distance over code points, and stops past its bound', () => {
    const rnd = rng(20_19);
    const alphabet = ['a', 'b', 'c', '会', '议'];
    const word = (): string[] => Array.from({ length: Math.floor(rnd() * 8) }, () => alphabet[Math.floor(rnd() * alphabet.length)]!);
    // Reference: the full dynamic program, recursively memoised.
    const reference = (a: string[], b: string[]): number => {
      const memo = new Map<string, number>();
      const d = (i: number, j: number): number => {
        if (!i) return j;
        if (!j) return i;
        const key = `${i},${j}`;
        const hit = memo.get(key);
        if (hit !== undefined) return hit;
        const v = Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
        memo.set(key, v);
        return v;
      };
      return d(a.length, b.length);
    };
    for (let i = 0; i < 300; i++) {
      const a = word();
      const b = word();
      const exact = reference(a, b);
      assert.equal(editDistance(a, b), exact, `${a.join('')} / ${b.join('')}`);
      const bound = Math.floor(rnd() * 4);
      const bounded = editDistance(a, b, bound);
      assert.ok(exact <= bound ? bounded === exact : bounded > bound, `bound ${bound}: ${bounded} vs ${exact}`);
    }
  });
});
