/**
 * Coverage at the plan level (issue 20), offline: every item of a goal's scope is in some step or
 * listed in plan.json's `not_covered` with its reason; no step takes more items than
 * `stepCapacity`; epic runs touch every item; deep runs whose goal names the commenters read the
 * comments in every phase; a small `max_plan_steps` lists what is over the budget (plan.json and
 * the report's "Not covered", titles escaped); offline steps follow the plan's retrieval strategy.
 *
 * Inputs are generated: the bench's synthetic corpora (30, 60, 120 items: dated, ~25 % Chinese,
 * ~60 % with comments) and corpora composed from parts here (three languages, dates and comments
 * on every item, items with no text, hostile titles, long items read in chunks). The planning
 * primitives are checked as properties over generated inputs.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateSyntheticCorpus } from '../../bench/syntheticCorpus';
import type { Corpus } from '../../src/core/corpus/types';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { goalContentTerms } from '../../src/core/research/goalScope';
import { readRun, runResearch, type StoredRun } from '../../src/core/research/pipeline';
import { batches, fitStepBudget, reviewedCoverage, splitOversizeSteps, stepCapacity, uncovered } from '../../src/core/research/planCoverage';
import { NOT_COVERED_REASONS, researchConfigSchema, type Complexity, type NotCovered, type Plan, type PlanStep, type ResearchConfigInput } from '../../src/core/research/schema';
import { markdownText } from '../../src/core/text/markdownSafe';
import { composeCorpus, withMarkers, type ComposedItem, type CorpusLanguage } from '../support/coverageCorpus';
import { liveLinks } from '../support/markdownLinks';
import { rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const COMPLEXITIES: Complexity[] = ['light', 'medium', 'deep', 'epic'];
const ALL_ITEMS_GOAL = 'What are the main facts, opinions and figures across all items?';

let work: string;
before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mr-plan-coverage-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

// ---- generated inputs for the primitives -------------------------------------------------------

function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** `n` distinct item ids drawn from a pool of `pool`. */
function someIds(r: () => number, n: number, pool: number): string[] {
  const out = new Set<string>();
  for (let guard = 0; out.size < n && guard < n * 20; guard++) out.add(`it-${int(r, 1, pool)}`);
  return [...out];
}

function stepOf(id: string, items: string[]): PlanStep {
  return { step_id: id, goal: `goal of ${id}`, required_content_items: items, required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' };
}

describe('planning primitives (properties over generated inputs)', () => {
  test('stepCapacity: what the overview shows and the rounds can serve, at least one', () => {
    const r = rng(2001);
    for (let k = 0; k < 300; k++) {
      const c = { marker_overview_max_items: int(r, 1, 60), max_content_items_per_turn: int(r, 1, 50), max_followups_per_step: int(r, 0, 20) };
      const cap = stepCapacity(c);
      const rounds = c.max_content_items_per_turn * (c.max_followups_per_step + 1);
      assert.ok(cap >= 1 && cap <= c.marker_overview_max_items && cap <= rounds, JSON.stringify(c));
      assert.ok(cap === c.marker_overview_max_items || cap === rounds, `the smaller of the two limits: ${JSON.stringify(c)} → ${cap}`);
    }
    assert.equal(stepCapacity(researchConfigSchema.parse({})), 12, 'the defaults: 20 shown, 3 items × 4 rounds');
  });

  test('batches: consecutive, complete, at most `size` each, as even as possible', () => {
    const r = rng(2002);
    for (let k = 0; k < 400; k++) {
      const n = int(r, 0, 250);
      const size = int(r, 1, 40);
      const ids = Array.from({ length: n }, (_, i) => `x${i}`);
      const parts = batches(ids, size);
      assert.deepEqual(parts.flat(), ids, `n=${n} size=${size}: every id once, in order`);
      assert.equal(parts.length, Math.ceil(n / size));
      if (!parts.length) continue;
      const lens = parts.map((p) => p.length);
      assert.ok(Math.max(...lens) <= size && Math.min(...lens) >= 1, `n=${n} size=${size}: ${lens.join(',')}`);
      assert.ok(Math.max(...lens) - Math.min(...lens) <= 1, `even: ${lens.join(',')}`);
    }
  });

  test('splitOversizeSteps: oversize steps become batches of at most the capacity, the rest stay as they are', () => {
    const r = rng(2003);
    for (let k = 0; k < 150; k++) {
      const cap = int(r, 1, 15);
      const steps = Array.from({ length: int(r, 1, 8) }, (_, i) => stepOf(`s${i + 1}`, someIds(r, int(r, 1, 45), 60)));
      const out = splitOversizeSteps(steps, cap, (j, n, items) => `(part ${j} of ${n}, ${items} items)`);
      assert.ok(out.every((st) => st.required_content_items.length <= cap), `cap ${cap}`);
      assert.equal(new Set(out.map((st) => st.step_id)).size, out.length, 'step ids stay unique');
      for (const st of steps) {
        const mine = out.filter((o) => o.step_id === st.step_id || o.step_id.startsWith(`${st.step_id}-b`));
        assert.deepEqual(mine.flatMap((o) => o.required_content_items), st.required_content_items, 'the batches name the step\'s items, in order');
        if (st.required_content_items.length <= cap) assert.deepEqual(mine, [st]);
        else {
          assert.equal(mine.length, Math.ceil(st.required_content_items.length / cap));
          mine.forEach((o, j) => assert.equal(o.goal, `${st.goal} (part ${j + 1} of ${mine.length}, ${o.required_content_items.length} items)`));
        }
      }
    }
  });

  test('fitStepBudget: at most `max` steps, in plan order; what only the dropped steps named is over_budget', () => {
    const r = rng(2004);
    for (let k = 0; k < 200; k++) {
      const steps = Array.from({ length: int(r, 1, 14) }, (_, i) => stepOf(`s${i + 1}`, someIds(r, int(r, 1, 10), 40)));
      const max = int(r, 1, steps.length + 2);
      const fit = fitStepBudget(steps, max, 'over the step budget (test)');
      assert.deepEqual(fit.steps, steps.slice(0, max));
      const kept = new Set(fit.steps.flatMap((st) => st.required_content_items));
      const named = [...new Set(steps.flatMap((st) => st.required_content_items))];
      const over = fit.overBudget.map((x) => x.item_id);
      assert.deepEqual([...over].sort(), named.filter((id) => !kept.has(id)).sort(), 'kept ∪ over_budget = every item named, disjoint');
      assert.equal(new Set(over).size, over.length, 'each once');
      assert.ok(fit.overBudget.every((x) => x.reason === 'over_budget' && x.detail === 'over the step budget (test)'));
      assert.deepEqual(uncovered(named, fit.steps), over.length ? named.filter((id) => over.includes(id)) : []);
    }
  });

  test('reviewedCoverage: what planning listed and what the edited steps no longer name, each once, none a step names', () => {
    const r = rng(2005);
    for (let k = 0; k < 200; k++) {
      const scope = Array.from({ length: int(r, 1, 30) }, (_, i) => `it-${i + 1}`);
      const steps = Array.from({ length: int(r, 1, 5) }, (_, i) => stepOf(`s${i + 1}`, scope.filter(() => r() < 0.4).slice(0, 12))).filter((st) => st.required_content_items.length);
      if (!steps.length) continue;
      const listed: NotCovered[] = scope.filter(() => r() < 0.3).map((item_id) => ({ item_id, reason: NOT_COVERED_REASONS[int(r, 0, 2)]! }));
      const plan: Plan = { goal: 'g', complexity: 'medium', steps, scope_item_ids: scope, not_covered: listed };
      const out = reviewedCoverage(plan);
      const inSteps = new Set(steps.flatMap((st) => st.required_content_items));
      const ids = out.map((x) => x.item_id);
      assert.equal(new Set(ids).size, ids.length, 'each item once');
      assert.ok(ids.every((id) => !inSteps.has(id)), 'an item a step names again is not "not covered"');
      assert.deepEqual([...ids].sort(), scope.filter((id) => !inSteps.has(id)).sort(), 'steps ∪ not covered = scope');
      for (const x of out) {
        const before = listed.find((l) => l.item_id === x.item_id);
        assert.equal(x.reason, before ? before.reason : 'not_in_plan', x.item_id);
      }
    }
  });
});

// ---- whole plans ------------------------------------------------------------------------------

/** Checks a plan's coverage of `scope`; returns the share planned and the items left out. */
function assertCovers(plan: Plan, scope: readonly string[], cap: number, label: string): { planned: number; notCovered: NotCovered[] } {
  const inSteps = new Set(plan.steps.flatMap((st) => st.required_content_items));
  const nc = plan.not_covered ?? [];
  const ncIds = nc.map((x) => x.item_id);
  assert.deepEqual([...(plan.scope_item_ids ?? [])].sort(), [...scope].sort(), `${label}: plan.json records the scope`);
  assert.equal(new Set(ncIds).size, ncIds.length, `${label}: each left-out item listed once`);
  for (const id of ncIds) assert.ok(!inSteps.has(id), `${label}: ${id} is both in a step and not covered`);
  for (const id of scope) assert.ok(inSteps.has(id) || ncIds.includes(id), `${label}: ${id} is in no step and not listed as not covered`);
  for (const id of inSteps) assert.ok(scope.includes(id), `${label}: a step names ${id}, outside the scope`);
  for (const x of nc) assert.ok((NOT_COVERED_REASONS as readonly string[]).includes(x.reason), `${label}: reason ${x.reason}`);
  for (const st of plan.steps) assert.ok(st.required_content_items.length <= cap, `${label}: step ${st.step_id} has ${st.required_content_items.length} items, more than ${cap}`);
  return { planned: scope.filter((id) => inSteps.has(id)).length / scope.length, notCovered: nc };
}

async function planOf(corpus: Corpus, goal: string, complexity: Complexity, config: ResearchConfigInput = {}): Promise<StoredRun> {
  const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, config }, { goal, complexity, stopAfterPlan: true });
  return readRun(corpus.root, r.runId);
}

/** Steps of a plan per phase ("-" when it has none), e.g. "A:4 B:4 C:5". */
function stepsPerPhase(plan: Plan): string {
  const per = new Map<string, number>();
  for (const st of plan.steps) per.set(st.phase_name ?? '-', (per.get(st.phase_name ?? '-') ?? 0) + 1);
  return [...per].map(([p, n]) => `${p.split(':')[0]}:${n}`).join(' ');
}

describe('an automatic goal plans every item of generated corpora of 30, 60 and 120 items', () => {
  const CONFIGS: ResearchConfigInput[] = [{}, { marker_overview_max_items: 5 }];
  for (const n of [30, 60, 120]) {
    test(`${n} synthetic items: 'auto' and "${ALL_ITEMS_GOAL}" × light, medium, deep, epic × two step capacities`, async () => {
      const dir = path.join(work, `syn-${n}`);
      await generateSyntheticCorpus(dir, { items: n, wordsPerItem: 200, seed: 20 + n });
      const corpus = await withMarkers(dir);
      const all = corpus.items.map((i) => i.id);
      assert.equal(all.length, n);
      const figures: string[] = [];
      for (const config of CONFIGS) {
        const cap = stepCapacity(researchConfigSchema.parse(config));
        for (const goal of ['auto', ALL_ITEMS_GOAL]) {
          for (const complexity of COMPLEXITIES) {
            const label = `${n} items, ${goal === 'auto' ? 'auto' : 'all-items goal'}, ${complexity}, cap ${cap}`;
            const stored = await planOf(corpus, goal, complexity, config);
            // Both goals are about every item; every item has text, so 100 % is planned unless over the budget.
            const { planned, notCovered } = assertCovers(stored.plan!, all, cap, label);
            assert.ok(notCovered.every((x) => x.reason === 'over_budget'), `${label}: ${JSON.stringify(notCovered.slice(0, 3))}`);
            if (planned < 1) assert.ok(stored.plan!.steps.length === researchConfigSchema.parse(config).max_plan_steps, `${label}: items left out only when the steps are at the budget`);
            if (complexity === 'epic') assert.ok((stored.plan!.phases?.length ?? 0) >= 2, `${label}: epic has phases`);
            figures.push(`${complexity}/${goal === 'auto' ? 'auto' : 'text'}/cap${cap}: ${(planned * 100).toFixed(0)} % planned, ${stored.plan!.steps.length} steps${stored.plan!.phases ? ` (${stepsPerPhase(stored.plan!)})` : ''}`);
          }
        }
      }
      console.log(`# ${n} synthetic items: ${figures.join('; ')}`);
    });
  }

  test('items with no text are listed as no_text; every other item is planned (composed corpora, three languages)', async () => {
    for (const [k, lang] of (['en', 'es', 'zh'] as const).entries()) {
      const { corpus, items } = await composeCorpus(path.join(work, `notext-${lang}`), { items: 14 + 5 * k, seed: 31 + k, lang, noText: 3, comments: 'some' });
      const all = items.map((i) => i.id);
      const empty = items.filter((i) => !i.text).map((i) => i.id);
      for (const goal of ['auto', ALL_ITEMS_GOAL]) {
        for (const complexity of COMPLEXITIES) {
          const label = `${lang}, ${goal}, ${complexity}`;
          const stored = await planOf(corpus, goal, complexity);
          const { notCovered } = assertCovers(stored.plan!, all, 12, label);
          assert.deepEqual(notCovered.map((x) => x.item_id).sort(), empty, `${label}: exactly the items without text are left out`);
          assert.ok(notCovered.every((x) => x.reason === 'no_text' && !!x.detail), label);
        }
      }
    }
  });
});

describe('epic runs touch every item', () => {
  test('an epic run over 60 generated items: the sources of its step results cover all 60 items', async () => {
    const dir = path.join(work, 'epic-60');
    await generateSyntheticCorpus(dir, { items: 60, wordsPerItem: 200, seed: 60 });
    const corpus = await withMarkers(dir);
    const figures: string[] = [];
    for (const goal of [ALL_ITEMS_GOAL, 'auto']) {
      for (const config of [{}, { marker_overview_max_items: 6 }] as ResearchConfigInput[]) {
        const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, config }, { goal, complexity: 'epic' });
        assert.equal(r.manifest.status, 'done');
        const stored = await readRun(corpus.root, r.runId);
        const touched = new Set([...stored.steps.values()].flatMap((st) => st.sources.map((x) => x.item_id)));
        const missing = corpus.items.map((i) => i.id).filter((id) => !touched.has(id));
        assert.deepEqual(missing, [], `${goal} ${JSON.stringify(config)}: items no step read`);
        const phases = stored.plan!.phases!;
        assert.ok(phases.length >= 2);
        // Every phase's items are read by that phase's steps.
        for (const p of phases) {
          const read = new Set(stored.plan!.steps.filter((st) => st.phase_name === p.name).flatMap((st) => st.required_content_items));
          assert.deepEqual(p.item_ids.filter((id) => !read.has(id)), [], `phase ${p.name}`);
        }
        figures.push(`${goal === 'auto' ? 'auto' : 'text'}/cap${stepCapacity(researchConfigSchema.parse(config))}: ${touched.size}/60 items touched, ${stored.plan!.steps.length} steps (${stepsPerPhase(stored.plan!)})`);
      }
    }
    console.log(`# epic over 60 items: ${figures.join('; ')}`);
  });
});

// ---- deep runs and the commenters -------------------------------------------------------------

/** Goals that name the commenters and nothing else (no content terms: about every item). */
const COMMENTER_GOALS: Record<CorpusLanguage, string[]> = {
  en: ['What are the main facts and opinions, and how do commenters respond?', 'How do viewers react to the figures in every episode?'],
  es: ['¿Cuáles son los hechos principales y cómo responden los comentaristas?', '¿Qué opina la audiencia de los datos de todos los episodios?'],
  zh: ['主要事实和观点是什么？评论者如何回应？', '观众对各场会议中的观点有什么反应？'],
};

const readsComments = (st: PlanStep): boolean => st.required_data === 'comments' || st.required_data === 'transcript_with_comments';
const readsTranscript = (st: PlanStep): boolean => st.required_data === 'transcript' || st.required_data === 'transcript_with_comments';

describe('deep runs keep the commenters in every phase', () => {
  for (const lang of ['en', 'es', 'zh'] as const) {
    test(`${lang}: dated items with comments, goals that name the commenters → transcript and comment steps in every phase`, async () => {
      const figures: string[] = [];
      for (const [k, comments] of (['all', 'some'] as const).entries()) {
        for (const [j, config] of ([{}, { max_plan_steps: 6 }, { marker_overview_max_items: 4 }] as ResearchConfigInput[]).entries()) {
          const n = 16 + 7 * k + 3 * j;
          const { corpus, items } = await composeCorpus(path.join(work, `deep-${lang}-${k}-${j}`), { items: n, seed: 40 + 10 * k + j, lang, comments });
          const byId = new Map(items.map((i) => [i.id, i]));
          for (const goal of COMMENTER_GOALS[lang]) {
            assert.deepEqual(goalContentTerms(goal), [], `"${goal}" is about every item`);
            const label = `${lang} ${goal} comments=${comments} ${JSON.stringify(config)}`;
            const plan = (await planOf(corpus, goal, 'deep', config)).plan!;
            const phases = plan.phases ?? [];
            assert.ok(phases.length >= 2, `${label}: dated items make phases`);
            for (const p of phases) {
              const steps = plan.steps.filter((st) => st.phase_name === p.name);
              assert.ok(steps.some(readsTranscript), `${label}: phase ${p.name} reads the transcripts`);
              const withComments = p.item_ids.filter((id) => byId.get(id)!.comments);
              const overBudget = new Set((plan.not_covered ?? []).filter((x) => x.reason === 'over_budget').map((x) => x.item_id));
              const read = new Set(steps.filter(readsComments).flatMap((st) => st.required_content_items));
              const unread = withComments.filter((id) => !read.has(id) && !overBudget.has(id));
              assert.deepEqual(unread, [], `${label}: phase ${p.name}: items whose comments no step of the phase reads`);
              if (comments === 'all') assert.ok(steps.some(readsComments), `${label}: phase ${p.name} has a comment step`);
            }
            figures.push(`${comments}/${JSON.stringify(config)}: ${phases.length} phases, steps ${stepsPerPhase(plan)}, comment steps ${plan.steps.filter(readsComments).length}`);
          }
        }
      }
      console.log(`# deep ${lang}: ${figures.join('; ')}`);
    });
  }
});

// ---- the step budget --------------------------------------------------------------------------

/** The report's "Not covered" section (up to the next heading): "## Not covered", "## 未覆盖" in a Chinese report, "## No cubierto" in a Spanish one. */
function notCoveredSection(report: string): string {
  const at = Math.max(report.indexOf('## Not covered'), report.indexOf('## 未覆盖'), report.indexOf('## No cubierto'));
  if (at < 0) return '';
  const next = report.indexOf('\n## ', at + 3);
  return report.slice(at, next < 0 ? undefined : next);
}

/** How the report and the notices word "over the budget", in English, Chinese and Spanish reports (planning notices are English or Chinese). */
const OVER_BUDGET = {
  en: { label: '- **over the step budget of the run**', sep: '; ', more: (k: number) => ` and ${k} more`, notice: (k: number) => `${k} items are over the step budget` },
  zh: { label: '- **超出本次运行的步骤上限**', sep: '；', more: (k: number) => ` 等另外 ${k} 个`, notice: (k: number) => `${k} 个内容项超出步骤上限` },
  es: { label: '- **fuera del límite de pasos de la ejecución**', sep: '; ', more: (k: number) => ` y ${k} más`, notice: (k: number) => `${k} items are over the step budget` },
};

describe('max_plan_steps: what is over the budget is listed, in plan.json and the report', () => {
  test('a small budget lists the rest as over_budget (titles escaped in "Not covered"); a big one plans everything', async () => {
    const figures: string[] = [];
    for (const [k, lang] of (['en', 'es', 'zh'] as const).entries()) {
      const { corpus, items } = await composeCorpus(path.join(work, `budget-${lang}`), { items: 26 + 4 * k, seed: 70 + k, lang, comments: 'some', hostileTitles: true });
      const titleOf = new Map(corpus.items.map((i) => [i.id, i.title]));
      const all = items.map((i) => i.id);
      for (const [complexity, config] of [
        ['light', { max_plan_steps: 1 }],
        ['medium', { max_plan_steps: 2, marker_overview_max_items: 5 }],
        ['light', { max_plan_steps: 3, max_content_items_per_turn: 2, max_followups_per_step: 1 }],
      ] as [Complexity, ResearchConfigInput][]) {
        const label = `${lang} ${complexity} ${JSON.stringify(config)}`;
        const cap = stepCapacity(researchConfigSchema.parse(config));
        const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, config }, { goal: ALL_ITEMS_GOAL, complexity });
        const stored = await readRun(corpus.root, r.runId);
        const plan = stored.plan!;
        assertCovers(plan, all, cap, label);
        assert.equal(plan.steps.length, config.max_plan_steps, `${label}: the budget is used`);
        const over = (plan.not_covered ?? []).filter((x) => x.reason === 'over_budget');
        assert.ok(over.length > 0, `${label}: ${all.length} items cannot fit ${config.max_plan_steps} steps of ${cap}`);
        assert.ok(over.every((x) => x.detail?.includes(`max_plan_steps = ${config.max_plan_steps}`)), label);
        const W = OVER_BUDGET[lang];
        assert.ok(plan.notes?.some((n) => n.includes(W.notice(over.length))), `${label}: a notice says so: ${JSON.stringify(plan.notes)}`);
        // The report names them under "Not covered", escaped; at most 12 by title, then "and N more".
        const section = notCoveredSection(await readFile(r.reportPath!, 'utf8'));
        const line = section.split('\n').find((l) => l.startsWith(W.label));
        assert.ok(line, `${label}: ${section}`);
        assert.ok(line.startsWith(`${W.label} (${over.length}): `), line);
        const names = over.slice(0, 12).map((x) => `${markdownText(titleOf.get(x.item_id)!.replace(/\s+/g, ' '))} (${markdownText(x.item_id)})`);
        assert.equal(line, `${W.label} (${over.length}): ${names.join(W.sep)}${over.length > 12 ? W.more(over.length - 12) : ''}`, `${label}: every item named by its escaped title, in plan order`);
        assert.deepEqual(liveLinks(section), [], `${label}: nothing in "Not covered" is live`);
        figures.push(`${lang}/${complexity}/max${config.max_plan_steps}/cap${cap}: ${over.length} of ${all.length} over budget`);
      }
      // The same corpus with the default budget: nothing over it.
      for (const complexity of COMPLEXITIES) {
        const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: ALL_ITEMS_GOAL, complexity });
        const stored = await readRun(corpus.root, r.runId);
        const { planned } = assertCovers(stored.plan!, all, 12, `${lang} ${complexity} default budget`);
        assert.equal(planned, 1);
        assert.deepEqual(stored.plan!.not_covered, []);
        assert.ok(!(await readFile(r.reportPath!, 'utf8')).includes(OVER_BUDGET[lang].label.slice(4)));
      }
    }
    console.log(`# budget: ${figures.join('; ')}`);
  });
});

// ---- offline execution follows the plan's strategy -----------------------------------------------

type Req = { type: string; item_id?: string; marker_id?: string; chunk?: number; kinds?: string[] };
const reqOf = (e: StoredRun['requests'][number]): Req => e.request as Req;

describe('offline steps follow the plan\'s retrieval strategy', () => {
  let corpus: Corpus;
  let items: ComposedItem[];
  let longCorpus: Corpus;
  before(async () => {
    // Items of very different lengths: short ones fit whole, long ones are read in chunks on a small budget.
    const composed = await composeCorpus(path.join(work, 'strategy'), { items: 12, seed: 90, lang: 'en', comments: 'some', lines: 10 });
    const long = await composeCorpus(path.join(work, 'strategy-long'), { items: 4, seed: 91, lang: 'en', comments: 'none', lines: 320 });
    corpus = composed.corpus;
    items = composed.items;
    longCorpus = long.corpus;
  });

  test('full_content reads every item of the step, page by page (chunk k, then k + 1); what did not fit is deferred and "read in part"', async () => {
    const figures: string[] = [];
    const totals = { paged: 0, partial: 0 };
    for (const limit of [2_400, 3_000, 4_000]) {
      const ids = longCorpus.items.map((i) => i.id);
      // One long item per step (its pages can follow), and a step of several long items (the budget runs out).
      const steps: PlanStep[] = [
        ...ids.slice(0, 3).map((id, i) => ({ ...stepOf(`full-${i + 1}`, [id]), retrieval_strategy: 'full_content' as const })),
        { ...stepOf('full-many', ids), retrieval_strategy: 'full_content', required_data: 'transcript_with_comments' },
      ];
      const r = await runResearch({ corpus: longCorpus, engine: 'extractive', promptsDir: PROMPTS, config: { context_window_limit: limit, overview_markers_per_kind: 1 } }, { plan: { goal: 'What are the main facts?', complexity: 'medium', steps } });
      const stored = await readRun(longCorpus.root, r.runId);
      const section = notCoveredSection(await readFile(r.reportPath!, 'utf8'));
      let paged = 0;
      let partial = 0;
      for (const st of steps) {
        const log = stored.requests.filter((e) => e.step_id === st.step_id);
        const result = stored.steps.get(st.step_id)!;
        assert.ok(log.every((e) => reqOf(e).type === 'full_content_item'), 'a full_content step reads items, not markers');
        for (const id of st.required_content_items) {
          const mine = log.filter((e) => reqOf(e).type === 'full_content_item' && reqOf(e).item_id === id);
          assert.ok(mine.length > 0, `${limit} ${st.step_id}: no full_content_item request for ${id}`);
          // Pages in order: chunk 1, 2, … one a round, each asked after the one before it came.
          const pages = mine.filter((e) => e.status === 'chunked').map((e) => /chunk (\d+) of (\d+)/.exec(e.reason ?? '')!);
          pages.forEach((m, k) => assert.equal(Number(m[1]), k + 1, `${st.step_id} ${id}: pages in order`));
          for (const [k, e] of mine.entries()) {
            if (k === 0) continue;
            const prev = mine[k - 1]!;
            // A request deferred for the per-turn item limit is asked again as it was; a page served is followed by the next.
            const again = prev.status === 'deferred' && /max_content_items_per_turn/.test(prev.reason ?? '');
            assert.equal(reqOf(e).chunk ?? 1, (reqOf(prev).chunk ?? 1) + (again ? 0 : 1), `${st.step_id} ${id}: chunk k + 1 after chunk k`);
            assert.ok(e.round > prev.round, 'one page a round');
          }
          const whole = mine.some((e) => e.status === 'served') || pages.some((m) => m[1] === m[2]);
          if (pages.length >= 2) paged++;
          // Read whole, or deferred: in the step's deferred list and in the report's "read in part".
          assert.equal(result.deferred.includes(id), !whole, `${limit} ${st.step_id} ${id}: deferred iff not read whole`);
          if (!whole) partial++;
        }
      }
      const deferred = [...new Set([...stored.steps.values()].flatMap((x) => x.deferred))];
      if (deferred.length) {
        const line = section.split('\n').find((l) => l.startsWith('- **not read in full')) ?? '';
        assert.ok(line.startsWith(`- **not read in full: it did not fit the context budget of its step, or its rounds** (${deferred.length}): `), section);
        for (const id of deferred.slice(0, 12)) assert.ok(line.includes(`(${id})`), `${id} named in "read in part"`);
      }
      totals.paged += paged;
      totals.partial += partial;
      figures.push(`limit ${limit}: ${paged} items read over ≥ 2 pages, ${partial} item-steps read in part`);
    }
    // Short items, more than a turn takes (max_content_items_per_turn): asked again next round, each read whole.
    for (const perTurn of [2, 3]) {
      const ids = corpus.items.map((i) => i.id).slice(0, 8);
      const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, config: { max_content_items_per_turn: perTurn } }, { plan: { goal: 'What are the main facts?', complexity: 'medium', steps: [{ ...stepOf('full-short', ids), retrieval_strategy: 'full_content' }] } });
      const stored = await readRun(corpus.root, r.runId);
      const log = stored.requests.filter((e) => e.step_id === 'full-short');
      for (const id of ids) assert.ok(log.some((e) => reqOf(e).item_id === id && e.status === 'served'), `${id} read whole (${perTurn} a turn)`);
      assert.ok(log.some((e) => e.status === 'deferred' && /max_content_items_per_turn/.test(e.reason ?? '')), 'some were asked again next round');
      assert.equal(Math.max(...log.map((e) => e.round)) + 1, Math.ceil(ids.length / perTurn), 'one turn per batch of items');
      assert.deepEqual(stored.steps.get('full-short')!.deferred, []);
      assert.ok(stored.steps.get('full-short')!.sources.length >= ids.length, 'quoted from every item');
      figures.push(`${ids.length} short items, ${perTurn} a turn: all read whole in ${Math.ceil(ids.length / perTurn)} rounds`);
    }
    // The sizes were chosen so that both happen: pages that follow one another, and items that do not fit.
    assert.ok(totals.paged > 0 && totals.partial > 0, figures.join('; '));
    console.log(`# full_content offline: ${figures.join('; ')}`);
  });

  test('selective_by_markers reads markers\' neighbourhoods of every item with markers (the plan\'s markers first); markers_only lists markers', async () => {
    const markers = new Map<string, ItemMarkers>();
    for (const it of corpus.items) {
      const m = await readItemMarkers(corpus.root, it.id);
      if (m.ok) markers.set(it.id, m.value);
    }
    const ids = items.map((i) => i.id);
    const r = rng(93);
    const figures: string[] = [];
    for (let round = 0; round < 4; round++) {
      // Some items lose their markers; the plan names some markers of others.
      const without = new Set(ids.filter(() => r() < 0.25));
      const given = new Map([...markers].filter(([id]) => !without.has(id)));
      const stepItems = ids.filter(() => r() < 0.6).slice(0, 8);
      if (!stepItems.length) continue;
      const named = stepItems.filter((id) => given.has(id) && r() < 0.5).map((id) => allMarkers(given.get(id)!)[0]!.id);
      const steps: PlanStep[] = [
        { ...stepOf('sel', stepItems), required_data: 'transcript_with_comments', marker_relevance: named },
        { ...stepOf('list', stepItems), retrieval_strategy: 'markers_only', required_data: 'transcript_with_comments' },
      ];
      const res = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS, markers: given, config: { max_content_items_per_turn: 10 } }, { plan: { goal: 'What are the main facts?', complexity: 'medium', steps } });
      const stored = await readRun(corpus.root, res.runId);
      const sel = stored.requests.filter((e) => e.step_id === 'sel');
      const itemOfMarker = (mid: string): string => [...given].find(([, m]) => allMarkers(m).some((x) => x.id === mid))![0];
      for (const id of stepItems) {
        const byMarker = sel.filter((e) => reqOf(e).type === 'by_marker' && itemOfMarker(reqOf(e).marker_id!) === id).map((e) => reqOf(e).marker_id!);
        if (!given.has(id) || !allMarkers(given.get(id)!).length) {
          assert.equal(byMarker.length, 0);
          assert.ok(sel.some((e) => reqOf(e).type === 'full_content_item' && reqOf(e).item_id === id), `${id} without markers is read in full`);
          continue;
        }
        assert.ok(byMarker.length > 0, `${id} has markers: its neighbourhoods are read`);
        const planned = named.filter((m) => itemOfMarker(m) === id);
        if (planned.length) assert.deepEqual(byMarker, planned, `${id}: the plan's markers`);
        else assert.ok(byMarker.length <= 2, 'at most two markers of an item the plan names none of');
      }
      const list = stored.requests.filter((e) => e.step_id === 'list');
      for (const id of stepItems) assert.ok(list.some((e) => reqOf(e).type === 'selective_markers' && reqOf(e).item_id === id && (reqOf(e).kinds ?? []).length > 0), `markers_only lists ${id}'s markers`);
      assert.ok(list.every((e) => reqOf(e).type === 'selective_markers'));
      figures.push(`${stepItems.length} items (${stepItems.filter((id) => !given.has(id)).length} without markers, ${named.length} planned markers): ${sel.filter((e) => reqOf(e).type === 'by_marker').length} by_marker, ${sel.filter((e) => reqOf(e).type === 'full_content_item').length} full_content_item`);
    }
    console.log(`# selective offline: ${figures.join('; ')}`);
  });
});
