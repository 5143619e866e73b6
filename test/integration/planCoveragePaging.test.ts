/**
 * Plan coverage with a model (issue 20), through the real openai client against the project's fake
 * model server: when the scope has more items than the overview shows (`marker_overview_max_items`),
 * the goals and plan calls page through them — every item seen exactly once across the pages; a
 * planner that names only some items gets steps added for the rest (said in a notice); a planner
 * that puts many items in one step gets it split into batches of at most `stepCapacity`; a deep
 * planner that forgets the comments gets a comment step in every phase; nothing a step names is
 * also listed as not covered.
 *
 * Corpora are composed here (coverageCorpus.ts) with generated sizes; the fake planner reads the
 * item ids from each overview it is sent.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient } from '../../src/core/llm/client';
import { readRun, runResearch, type ResearchEvent } from '../../src/core/research/pipeline';
import { goalContentTerms } from '../../src/core/research/goalScope';
import { stepCapacity } from '../../src/core/research/planCoverage';
import { researchConfigSchema, type Plan, type PlanStep, type ResearchConfigInput } from '../../src/core/research/schema';
import { tokenize } from '../../src/core/search/tokenize';
import { composeCorpus } from '../support/coverageCorpus';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const ALL_ITEMS_GOAL = 'What are the main facts, opinions and figures across all items?';

let server: FakeModelServer;
let work: string;

type Message = { role: string; content: string };
function schemaName(body: unknown): string {
  const rf = (body as { response_format?: { json_schema?: { name?: string } } } | undefined)?.response_format;
  return rf?.json_schema?.name ?? '';
}
function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}
const firstUser = (messages: readonly Message[] | undefined): string => messages?.find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);
const pageOf = (text: string): number | undefined => {
  const m = /Page (\d+) of (\d+) of the overview|概览第 (\d+)\/(\d+) 页/.exec(text);
  return m ? Number(m[1] ?? m[3]) : undefined;
};

/** The chat requests of one schema, with the item ids their overview shows. */
function sent(name: string): { req: RecordedRequest; items: string[]; page: number | undefined }[] {
  return server
    .chatRequests()
    .filter((r) => schemaName(r.body) === name)
    .map((r) => ({ req: r, items: itemIds(firstUser(r.messages)), page: pageOf(firstUser(r.messages)) }));
}

/** How many times each id was shown across `lists`. */
function counts(lists: readonly string[][]): Map<string, number> {
  const c = new Map<string, number>();
  for (const l of lists) for (const id of l) c.set(id, (c.get(id) ?? 0) + 1);
  return c;
}

function client() {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 2, timeoutMs: 10_000 }, { retry: { retries: 0 } });
}

/** What the fake planner puts in a plan, given the items its overview page shows. */
type Planner = (items: string[], prompt: string) => PlanStep[];

const step = (id: string, items: string[], data: PlanStep['required_data'] = 'transcript_with_comments'): PlanStep => ({
  step_id: id,
  goal: `Examine ${items.length} items`,
  required_content_items: items,
  required_data: data,
  marker_relevance: [],
  retrieval_strategy: 'selective_by_markers',
});

/** A model that proposes one goal per overview page (its items) and plans with `planner`. */
function responder(planner: Planner): (req: { messages: readonly Message[]; body: unknown }) => string {
  return (req: { messages: readonly Message[]; body: unknown }): string => {
    const name = schemaName(req.body);
    const prompt = firstUser(req.messages);
    const items = itemIds(prompt);
    if (name === 'research_goals') return JSON.stringify({ goals: [{ goal_id: 'g1', title: `What do these ${items.length} items say?`, rationale: 'the page', item_ids: items, marker_ids: [] }] });
    if (name === 'research_plan') return JSON.stringify({ steps: planner(items, prompt) });
    return '{}';
  };
}

async function planWith(corpus: Corpus, goal: string, complexity: Plan['complexity'], config: ResearchConfigInput, events: ResearchEvent[] = [], scope?: string[]): Promise<Plan> {
  const r = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS, config, onEvent: (e) => events.push(e), ...(scope ? { scope } : {}) }, { goal, complexity, stopAfterPlan: true });
  return (await readRun(corpus.root, r.runId)).plan!;
}

/** Forgets the recorded requests (which also restores the default responder), then answers with `planner`. */
function fresh(planner: Planner): void {
  server.reset();
  server.setResponder(responder(planner));
}

/** Every scope item is in a step or not covered, never both; no step is larger than `cap`. */
function assertCovers(plan: Plan, scope: readonly string[], cap: number, label: string): void {
  const inSteps = new Set(plan.steps.flatMap((st) => st.required_content_items));
  const nc = (plan.not_covered ?? []).map((x) => x.item_id);
  for (const id of scope) assert.ok(inSteps.has(id) || nc.includes(id), `${label}: ${id} in no step and not listed`);
  for (const id of nc) assert.ok(!inSteps.has(id), `${label}: ${id} is in a step and listed as not covered`);
  for (const id of inSteps) assert.ok(scope.includes(id), `${label}: a step names ${id}, outside the scope`);
  for (const st of plan.steps) assert.ok(st.required_content_items.length <= cap, `${label}: ${st.step_id} has ${st.required_content_items.length} > ${cap} items`);
}

describe('plan coverage with a model: overview pages, added steps, split steps', () => {
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-plan-paging-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  test('goals and plan calls page through every item: each item seen exactly once across the pages', async () => {
    const figures: string[] = [];
    for (const [k, [n, perPage, lang]] of ([[17, 5, 'en'], [11, 3, 'zh'], [23, 7, 'es'], [9, 4, 'en']] as const).entries()) {
      const { corpus } = await composeCorpus(path.join(work, `pages-${k}`), { items: n, seed: 400 + k, lang, comments: 'some' });
      const all = corpus.items.map((i) => i.id);
      const config: ResearchConfigInput = { marker_overview_max_items: perPage };
      const cap = stepCapacity(researchConfigSchema.parse(config));
      const planner: Planner = (items) => [step('s1', items.slice(0, cap))];
      // 'auto': the goals calls see every item once; the first goal is page 1's items.
      fresh(planner);
      await planWith(corpus, 'auto', 'medium', config);
      const goalCalls = sent('research_goals');
      const pages = Math.ceil(n / perPage);
      assert.equal(goalCalls.length, pages, `${n} items by ${perPage}: ${pages} goals calls`);
      assert.deepEqual(goalCalls.map((c) => c.page), Array.from({ length: pages }, (_, i) => i + 1), 'each call says which page it is');
      const seenByGoals = counts(goalCalls.map((c) => c.items));
      assert.deepEqual([...seenByGoals.keys()].sort(), [...all].sort(), 'every item is on a goals page');
      assert.ok([...seenByGoals.values()].every((v) => v === 1), `each item exactly once: ${JSON.stringify([...seenByGoals].filter(([, v]) => v !== 1))}`);
      assert.ok(goalCalls.every((c) => c.items.length <= perPage));
      // A goal about every item: the plan calls see every item once.
      for (const complexity of ['light', 'medium', 'deep'] as const) {
        fresh(planner);
        const plan = await planWith(corpus, ALL_ITEMS_GOAL, complexity, config);
        const planCalls = sent('research_plan');
        assert.equal(planCalls.length, pages, `${complexity}: ${pages} plan calls`);
        const seenByPlan = counts(planCalls.map((c) => c.items));
        assert.deepEqual([...seenByPlan.keys()].sort(), [...all].sort(), `${complexity}: every item is on a plan page`);
        assert.ok([...seenByPlan.values()].every((v) => v === 1), `${complexity}: each item exactly once`);
        assertCovers(plan, all, cap, `${n}/${perPage} ${complexity}`);
        // The pages' steps are kept apart by their page prefix.
        assert.ok(plan.steps.filter((st) => /^b\d+-/.test(st.step_id)).length >= pages, plan.steps.map((st) => st.step_id).join(' '));
      }
      figures.push(`${n} items by ${perPage}: ${pages} goals calls and ${pages} plan calls, each item once`);
    }
    console.log(`# paging: ${figures.join('; ')}`);
  });

  test('a planner that names only some items: steps are added for the rest, said in a notice', async () => {
    const r = rng(4002);
    const figures: string[] = [];
    for (const [k, [n, perPage]] of ([[17, 5], [14, 20], [25, 6]] as const).entries()) {
      const { corpus } = await composeCorpus(path.join(work, `partial-${k}`), { items: n, seed: 410 + k, lang: 'en', comments: 'some' });
      const all = corpus.items.map((i) => i.id);
      const config: ResearchConfigInput = { marker_overview_max_items: perPage };
      const cap = stepCapacity(researchConfigSchema.parse(config));
      const named = new Set<string>();
      // Each page: the planner names one to three of its items.
      fresh((items) => {
        const some = items.filter(() => r() < 0.3).slice(0, 3);
        const pick = some.length ? some : [items[0]!];
        for (const id of pick) named.add(id);
        return [step('s1', pick, 'transcript')];
      });
      const events: ResearchEvent[] = [];
      const plan = await planWith(corpus, ALL_ITEMS_GOAL, 'medium', config, events);
      assertCovers(plan, all, cap, `${n}/${perPage}`);
      assert.deepEqual(plan.not_covered, [], 'every item has text: none is left out');
      const missing = all.length - named.size;
      const notices = events.filter((e): e is Extract<ResearchEvent, { type: 'notice' }> => e.type === 'notice' && e.message.includes('left out'));
      assert.equal(notices.length, 1, JSON.stringify(events.filter((e) => e.type === 'notice')));
      assert.match(notices[0]!.message, new RegExp(`the plan's steps left out ${missing} items? of the goal; steps were added`));
      assert.ok(plan.notes?.includes(notices[0]!.message), 'the notice is in the plan');
      // The added steps (ids c…) name exactly the items the planner left out.
      const added = new Set(plan.steps.filter((st) => /^c\d/.test(st.step_id)).flatMap((st) => st.required_content_items));
      assert.deepEqual([...added].sort(), all.filter((id) => !named.has(id)).sort());
      figures.push(`${n} items by ${perPage}: planner named ${named.size}, ${added.size} added in ${plan.steps.filter((st) => /^c\d/.test(st.step_id)).length} steps`);
    }
    console.log(`# partial planner: ${figures.join('; ')}`);
  });

  test('a planner that puts 30 items in one step: the step is split into batches of at most stepCapacity', async () => {
    const { corpus } = await composeCorpus(path.join(work, 'thirty'), { items: 30, seed: 420, lang: 'en', comments: 'some' });
    const all = corpus.items.map((i) => i.id);
    const figures: string[] = [];
    for (const config of [{ marker_overview_max_items: 40 }, { marker_overview_max_items: 40, max_content_items_per_turn: 2, max_followups_per_step: 2 }, { marker_overview_max_items: 30, max_content_items_per_turn: 4, max_followups_per_step: 4 }, { marker_overview_max_items: 30, max_content_items_per_turn: 5, max_followups_per_step: 5 }] as ResearchConfigInput[]) {
      const cap = stepCapacity(researchConfigSchema.parse(config));
      fresh((items) => [step('s1', items), step('s2', items.slice(0, 2), 'comments')]);
      const plan = await planWith(corpus, ALL_ITEMS_GOAL, 'light', config);
      assertCovers(plan, all, cap, `cap ${cap}`);
      const parts = plan.steps.filter((st) => /^s1(?:-b\d+)?$/.test(st.step_id));
      assert.equal(parts.length, Math.ceil(30 / cap), `cap ${cap}: ${plan.steps.map((st) => st.step_id).join(' ')}`);
      assert.deepEqual(parts.flatMap((st) => st.required_content_items).sort(), [...all].sort(), 'the batches together are the step\'s 30 items');
      if (parts.length > 1) assert.ok(parts.every((st, k) => st.step_id === `s1-b${k + 1}` && st.goal.startsWith('Examine 30 items') && st.goal.includes(`${k + 1}`)), 'each batch says which part it takes');
      assert.ok(plan.steps.some((st) => st.step_id === 's2'), 'a step within the capacity stays as it is');
      figures.push(`cap ${cap}: ${parts.length} batches (${parts.map((st) => st.required_content_items.length).join('+')})`);
    }
    console.log(`# 30-item step: ${figures.join('; ')}`);
  });

  test('deep: a planner that forgets the comments gets a comment step in every phase whose items have comments', async () => {
    const figures: string[] = [];
    for (const [k, [lang, goal]] of ([['en', 'What are the main facts, and how do commenters respond?'], ['es', '¿Cuáles son los hechos principales y cómo responden los comentaristas?'], ['zh', '主要事实是什么？评论者如何回应？']] as const).entries()) {
      const { corpus, items } = await composeCorpus(path.join(work, `deep-${lang}`), { items: 15 + 3 * k, seed: 430 + k, lang, comments: 'all' });
      fresh((page) => [step('s1', page, 'transcript')]);
      const plan = await planWith(corpus, goal, 'deep', { marker_overview_max_items: 6 });
      const phases = plan.phases ?? [];
      assert.ok(phases.length >= 2, `${lang}: dated items make phases`);
      assertCovers(plan, items.map((i) => i.id), 12, lang);
      for (const p of phases) {
        const read = new Set(plan.steps.filter((st) => st.phase_name === p.name && st.required_data !== 'transcript').flatMap((st) => st.required_content_items));
        assert.deepEqual(p.item_ids.filter((id) => !read.has(id)), [], `${lang}: phase ${p.name}: items whose comments no step reads`);
      }
      figures.push(`${lang}: ${phases.length} phases, ${plan.steps.filter((st) => st.required_data === 'comments').length} comment steps added`);
    }
    console.log(`# deep with a model: ${figures.join('; ')}`);
  });

  test('a planner that names items the goal is not about: they are not researched, and stay listed as not matching', async () => {
    const r = rng(4005);
    for (const [k, lang] of (['en', 'es', 'zh'] as const).entries()) {
      const { corpus, items } = await composeCorpus(path.join(work, `outside-${lang}`), { items: 14 + 2 * k, seed: 440 + k, lang, comments: 'some' });
      const all = items.map((i) => i.id);
      // The planner names every item of the corpus, whatever its overview shows.
      fresh(() => [step('s1', all.slice(0, 8)), step('s2', all.slice(8))]);
      // A topic some items do not mention ("precio" of "precio del trigo" is in every Spanish item).
      const mentions = (t: string): number => corpus.items.filter((it) => goalContentTerms(t).some((w) => tokenize(`${it.transcript?.text ?? ''} ${it.comments?.text ?? ''}`).includes(w))).length;
      const topic = pick(r, [...new Set(items.map((i) => i.topics[0]))].filter((t) => mentions(t) < all.length));
      const plan = await planWith(corpus, topic, 'medium', {});
      const left = (plan.not_covered ?? []).filter((x) => x.reason === 'no_matching_part');
      assert.ok(left.length > 0 && left.length < all.length, `${lang} "${topic}": the goal is about some items only`);
      assertCovers(plan, plan.scope_item_ids ?? [], 12, `${lang} "${topic}"`);
    }
  });

  test('a planner that names items outside the run\'s scope (--items): they are not researched', async () => {
    const r = rng(4006);
    const { corpus, items } = await composeCorpus(path.join(work, 'outside-scope'), { items: 18, seed: 450, lang: 'en', comments: 'some' });
    const all = items.map((i) => i.id);
    for (let k = 0; k < 3; k++) {
      const scope = all.filter(() => r() < 0.6);
      fresh(() => [step('s1', all.slice(0, 9)), step('s2', all.slice(9))]);
      const plan = await planWith(corpus, ALL_ITEMS_GOAL, 'medium', {}, [], scope);
      assert.deepEqual([...(plan.scope_item_ids ?? [])].sort(), [...scope].sort());
      assertCovers(plan, scope, 12, `scope of ${scope.length}`);
    }
  });
});
