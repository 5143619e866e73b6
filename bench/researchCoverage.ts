/**
 * The research-coverage benchmark: `node --import tsx bench/researchCoverage.ts [--quick] [--report-only]`.
 * Offline (extractive markers and research), on generated corpora of 30, 60 and 120 items (the
 * project's generator, dated items, ~60 % with comments, ~25 % Chinese) and on copies of the dev
 * corpora (`$MARKER_RESEARCH_CORPORA`, default ../shared/corpora), it measures issue 20's targets:
 *  - an automatic goal over all items plans 100 % of them or lists each left out with a reason
 *    (plan.json: step items ∪ not_covered = the goal's scope, the two disjoint), light to epic;
 *  - an epic run over 60 items touches every item (its steps' sources name every item);
 *  - a deep run whose goal names the commenters has a comments step in every phase whose items
 *    have comments (English, Spanish and Chinese goals);
 *  - and, shown without a target, the largest step (never more than a step can take) and steps per run.
 * Writes bench/results/researchCoverage.md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import { readRun, runResearch } from '../src/core/research/pipeline';
import { stepCapacity } from '../src/core/research/planCoverage';
import { researchConfigSchema, type Complexity, type Plan } from '../src/core/research/schema';
import { copyDevCorpus, DEV_CORPORA, REPO, runBench, type BenchReport } from './benchSupport';
import { generateSyntheticCorpus } from './syntheticCorpus';

const PROMPTS = path.join(REPO, 'prompts');
const COMPLEXITIES: readonly Complexity[] = ['light', 'medium', 'deep', 'epic'];
const CAPACITY = stepCapacity(researchConfigSchema.parse({}));

/** Planned (in some step) and listed (not_covered) items of a plan against its scope. */
function coverage(plan: Plan, scope: readonly string[]): { planned: number; listed: number; missing: string[]; both: number; largest: number } {
  const inSteps = new Set(plan.steps.flatMap((st) => st.required_content_items));
  const listed = new Set((plan.not_covered ?? []).map((x) => x.item_id));
  return {
    planned: scope.filter((id) => inSteps.has(id)).length,
    listed: scope.filter((id) => listed.has(id)).length,
    missing: scope.filter((id) => !inSteps.has(id) && !listed.has(id)),
    both: [...listed].filter((id) => inSteps.has(id)).length,
    largest: Math.max(0, ...plan.steps.map((st) => st.required_content_items.length)),
  };
}

async function prepared(dir: string): Promise<Corpus> {
  const corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  return corpus;
}

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-coverage-'));
  const lines: string[] = ['# Research coverage benchmark (issue 20)', '', `Offline (extractive), ${new Date().toISOString().slice(0, 10)}. A step takes at most ${CAPACITY} items (default limits).`, ''];
  try {
    const corpora: { name: string; corpus: Corpus }[] = [];
    for (const n of quick ? [30, 60] : [30, 60, 120]) {
      const dir = path.join(work, `generated-${n}`);
      await generateSyntheticCorpus(dir, { items: n, wordsPerItem: 600, seed: 20 + n });
      corpora.push({ name: `generated ${n}`, corpus: await prepared(dir) });
    }
    for (const name of DEV_CORPORA.filter((c) => c !== 'yt-spam-en-dev')) {
      try {
        corpora.push({ name, corpus: await prepared(await copyDevCorpus(name, work)) });
      } catch (e) {
        report.fail((e as Error).message);
      }
    }

    lines.push('## An automatic goal over all items: planned or listed with a reason (target 100 %)', '', '| corpus | items | complexity | goal | planned | listed (reasons) | unaccounted | steps | largest step |', '|---|---|---|---|---|---|---|---|---|');
    let accounted = 0;
    let total = 0;
    for (const { name, corpus } of corpora) {
      for (const complexity of quick ? (['medium', 'epic'] as const) : COMPLEXITIES) {
        const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'auto', complexity, stopAfterPlan: true });
        const stored = await readRun(corpus.root, r.runId);
        const goal = stored.goals[0]!;
        const scope = corpus.items.map((i) => i.id);
        const c = coverage(stored.plan!, scope);
        total += scope.length;
        accounted += scope.length - c.missing.length;
        const reasons = [...new Set((stored.plan!.not_covered ?? []).map((x) => x.reason))].join(', ');
        if (c.both) report.fail(`${name} ${complexity}: ${c.both} items both planned and listed as not covered`);
        if (c.largest > CAPACITY) report.fail(`${name} ${complexity}: a step has ${c.largest} items, more than a step can take (${CAPACITY})`);
        if (goal.item_ids.length !== scope.length) report.fail(`${name} ${complexity}: the automatic goal covers ${goal.item_ids.length} of ${scope.length} items`);
        lines.push(`| ${name} | ${scope.length} | ${complexity} | ${goal.item_ids.length} items | ${c.planned} | ${c.listed}${reasons ? ` (${reasons})` : ''} | ${c.missing.length} | ${stored.plan!.steps.length} | ${c.largest} |`);
        console.log(`${name} ${complexity}: planned ${c.planned}/${scope.length}, listed ${c.listed}, unaccounted ${c.missing.length}, ${stored.plan!.steps.length} steps`);
      }
    }
    lines.push('', `**${report.check('automatic goal over all items: planned or listed with a reason', accounted === total, `${accounted}/${total} = ${((accounted / Math.max(1, total)) * 100).toFixed(1)} %`)}** (target 100 %)`, '');

    // Epic over 60 items: every item touched.
    const sixty = corpora.find((c) => c.name === 'generated 60')!.corpus;
    const epic = await runResearch({ corpus: sixty, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'What are the main facts, opinions and figures across all items?', complexity: 'epic' });
    const epicRun = await readRun(sixty.root, epic.runId);
    const touched = new Set([...epicRun.steps.values()].flatMap((st) => st.sources.map((x) => x.item_id)));
    lines.push('## Epic run over 60 generated items (target: every item touched)', '');
    lines.push(`- ${epicRun.plan!.phases?.length ?? 0} phases, ${epicRun.plan!.steps.length} steps, status ${epic.manifest.status}; items whose text a step read: **${report.check('epic over 60 items: items touched', touched.size === sixty.items.length, `${touched.size}/${sixty.items.length}`)}**`, '');

    // Deep, goal naming the commenters: a comments step in every phase whose items have comments.
    lines.push('## Deep run whose goal names the commenters (target: a comments step in every phase with comments)', '', '| corpus | goal | phases | phases with comments | with a comments step |', '|---|---|---|---|---|');
    let phasesWith = 0;
    let phasesRead = 0;
    const goals = ['What do the items say, and how do commenters respond?', '¿Qué dicen los contenidos y cómo responden los comentaristas?', '这些内容说了什么？评论者如何回应？'];
    for (const { name, corpus } of corpora.filter((c) => c.name.startsWith('generated') || c.name === 'yt-podcast-es-dev')) {
      for (const goal of goals) {
        const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal, complexity: 'deep', stopAfterPlan: true });
        const plan = (await readRun(corpus.root, r.runId)).plan!;
        const phases = plan.phases ?? [{ name: '', item_ids: corpus.items.map((i) => i.id) }];
        const byId = new Map(corpus.items.map((i) => [i.id, i]));
        const withComments = phases.filter((p) => p.item_ids.some((id) => (byId.get(id)?.comments?.comments.length ?? 0) > 0));
        const read = withComments.filter((p) => plan.steps.some((st) => (plan.phases ? st.phase_name === p.name : true) && st.required_data !== 'transcript'));
        phasesWith += withComments.length;
        phasesRead += read.length;
        lines.push(`| ${name} | ${goal} | ${phases.length} | ${withComments.length} | ${read.length} |`);
      }
    }
    lines.push('', `**${report.check('deep, goal names commenters: phases with comments that have a comments step', phasesRead === phasesWith && phasesWith > 0, `${phasesRead}/${phasesWith}`)}**`, '');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const out = path.join(REPO, 'bench', 'results');
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'researchCoverage.md'), `${lines.join('\n')}\n`);
}

void runBench('researchCoverage', bench);
