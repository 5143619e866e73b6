/**
 * Phase 1 (goals) and Phase 2 (plan), with a model or extractively. Model replies are validated
 * against the corpus: unknown item and marker ids are dropped from goals, and a plan that names
 * unknown ids gets one repair round (a second call quoting the bad ids) before they are dropped.
 * Epic plans are split first into non-overlapping phases (time ranges from `published_at`, or
 * stages) with two or three threads each — never silently one phase; deep plans split into phases
 * when the material has them (items published over time). What planning could not do as asked
 * (a failed model call, one epic phase) is a notice: logged, emitted, and in the plan's `notes`.
 */
import { isCancellation } from '../llm/types';
import type { Marker, MarkerKind } from '../markers/schema';
import { allMarkers } from '../markers/store';
import { CancelledError } from '../util/abort';
import { distinctiveTopics, goalLanguage, itemNoun, overviewGoalText, topicGoalText, type GoalLanguage } from './goalTopics';
import { formatMarkerOverview, scoreRelevance, type OverviewInput } from './overview';
import { goalAsksAboutComments, goalContentTerms, itemsMentioning } from './goalScope';
import { batches, fitStepBudget, hasText, splitOversizeSteps, stepCapacity, uncovered } from './planCoverage';
import { failureCause } from './failures';
import { sanitizeIds } from './runStore';
import { epicPhasesReplySchema, goalsReplySchema, planReplySchema, planSchema, type Complexity, type EpicPhase, type Goal, type NotCovered, type Plan, type PlanStep } from './schema';
import type { Session } from './session';

const STEPS_BY_COMPLEXITY: Record<Complexity, number> = { light: 2, medium: 4, deep: 6, epic: 12 };

function rethrowCancel(error: unknown, s: Session): void {
  if (error instanceof CancelledError || isCancellation(error) || s.signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError('research: cancelled');
}

// ---- Goals ---------------------------------------------------------------------------------

/** Options of {@link extractiveGoals}. */
export interface ExtractiveGoalOptions {
  /** Whether the first goal is the overview of every item (default true); topic goals only when false (deep-dive steps, epic threads). */
  overview?: boolean;
}

/**
 * Goals a researcher would write, offline: first the overview of every item (with the commenters'
 * side only when there are comments), then one goal per group of distinctive topics
 * ({@link distinctiveTopics}: topics frequent in some items' markers and rare in the rest, never
 * stopwords), each naming its topics and the items it covers, with the markers that support it.
 * Written in the corpus's language (English, Spanish or Chinese).
 */
export function extractiveGoals(s: Session, maxGoals = 5, opts: ExtractiveGoalOptions = {}): Goal[] {
  const lang = goalLanguage(s.inputs);
  const items = s.inputs.map((x) => x.item);
  const noun = itemNoun(items);
  const withOverview = (opts.overview ?? true) && items.length > 0;
  const clusters = distinctiveTopics(s.inputs, lang, Math.max(0, maxGoals - (withOverview ? 1 : 0)));
  const titleOf = (id: string): string => s.items.get(id)?.title ?? items.find((it) => it.id === id)?.title ?? id;
  const goals: Goal[] = [];
  if (withOverview) {
    const hasComments = items.some((it) => (it.comments?.comments.length ?? 0) > 0);
    goals.push({
      goal_id: '',
      ...overviewGoalText(lang, noun, items.map((it) => it.title), hasComments),
      item_ids: items.map((it) => it.id),
      marker_ids: s.inputs.flatMap(({ markers }) => (markers ? allMarkers(markers).slice(0, 2).map((m) => m.id) : [])).slice(0, 12),
    });
  }
  for (const c of clusters) {
    goals.push({ goal_id: '', ...topicGoalText(lang, noun, c, c.itemIds.map(titleOf), items.length), item_ids: c.itemIds, marker_ids: c.markerIds });
  }
  if (!goals.length) {
    // No topic goal and no overview asked for: the overview of every item of the corpus still is one.
    const all = items.length ? items : s.corpus.items;
    goals.push({ goal_id: '', ...overviewGoalText(lang, noun, all.map((it) => it.title), all.some((it) => (it.comments?.comments.length ?? 0) > 0)), item_ids: all.map((it) => it.id), marker_ids: [] });
  }
  return goals.slice(0, Math.max(1, maxGoals)).map((g, i) => ({ ...g, goal_id: `g${i + 1}` }));
}

/** Keeps the known ids of a goal; undefined when no known item is left. */
function cleanGoal(s: Session, g: Goal, i: number): Goal | undefined {
  const items = [...new Set(g.item_ids.filter((id) => s.items.has(id)))];
  const known = new Set([...s.markers.values()].flatMap((im) => allMarkers(im).map((m) => m.id)));
  const markerIds = g.marker_ids.filter((id) => known.has(id));
  const dropped = g.item_ids.length - items.length + (g.marker_ids.length - markerIds.length);
  if (dropped) s.log.warn(`research: goal "${g.title.slice(0, 60)}": dropped ${dropped} unknown id(s)`);
  if (!items.length) return undefined;
  const { left_out: _ignored, ...rest } = g;
  return { ...rest, goal_id: `g${i + 1}`, item_ids: items, marker_ids: markerIds };
}

/**
 * The items of `inputs` in pages of at most `size` for a model's overview: ranked (by relevance to
 * `goal`, else by marker count), every item in exactly one page.
 */
export function overviewPages(inputs: readonly OverviewInput[], size: number, goal?: string): OverviewInput[][] {
  const { items: scores } = scoreRelevance(inputs, goal);
  const count = (x: OverviewInput): number => (x.markers ? allMarkers(x.markers).length : 0);
  const ranked = [...inputs].sort((a, b) => (scores.get(b.item.id) ?? 0) - (scores.get(a.item.id) ?? 0) || count(b) - count(a) || (a.item.id < b.item.id ? -1 : 1));
  return batches(ranked, Math.max(1, size));
}

/**
 * Phase 1: goals proposed by the model from the overview (or extractively). A corpus larger than
 * the overview's `marker_overview_max_items` is shown in pages, one call each, so every item is
 * seen once; the goals of the pages are taken in turn.
 */
export async function goalsPhase(s: Session, maxGoals = 5): Promise<Goal[]> {
  if (s.engine === 'extractive') return extractiveGoals(s, maxGoals);
  const pages = overviewPages(s.inputs, s.config.marker_overview_max_items);
  const prompt = await s.prompt('research-goals');
  try {
    const perPage: Goal[][] = [];
    for (const [k, page] of pages.entries()) {
      const ov = formatMarkerOverview(page, { maxItems: page.length, markersPerKind: s.config.overview_markers_per_kind, lang: s.lang, log: s.log, ...(pages.length > 1 ? { page: { k: k + 1, n: pages.length, total: s.inputs.length } } : {}) });
      const r = await s.call({ messages: prompt.render({ overview: ov.text, max_goals: maxGoals }), schema: goalsReplySchema, schemaName: 'research_goals', phase: 'goals', ...(pages.length > 1 ? { step: `page-${k + 1}` } : {}) });
      perPage.push(r.value.goals);
    }
    const goals = roundRobin(perPage, Number.POSITIVE_INFINITY).map((g, i) => cleanGoal(s, g, i)).filter((g): g is Goal => !!g).slice(0, maxGoals).map((g, i) => ({ ...g, goal_id: `g${i + 1}` }));
    if (goals.length) return goals;
    s.notice('goals', s.lang === 'zh' ? '模型提出的目标都不涉及已知内容项；改用抽取式目标' : 'the model proposed no goal about a known item; extractive goals are used instead');
  } catch (error) {
    rethrowCancel(error, s);
    s.notice('goals', s.lang === 'zh' ? `模型未能提出目标（${failureCause(error)}）；改用抽取式目标` : `goals from the model failed (${failureCause(error)}); extractive goals are used instead`);
  }
  return extractiveGoals(s, maxGoals);
}

/**
 * A goal for a question the user wrote, over the items in reach (the scope). Without content terms
 * ("What are the main facts, opinions and figures across all items?") it is about every item;
 * with them, about every item whose markers or text (through the search index) mention one — the
 * others are `left_out` with the terms they lack. Items are ranked by relevance.
 */
export function goalFromText(s: Session, text: string): Goal {
  const reach = s.inputs.map((x) => x.item.id);
  const terms = goalContentTerms(text);
  const { items, markers } = scoreRelevance(s.inputs, terms.length ? terms.join(' ') : text);
  const byMarkers = [...items].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([id]) => id);
  let itemIds: string[];
  let leftOut: NotCovered[] = [];
  if (!terms.length) itemIds = [...new Set([...byMarkers, ...reach])];
  else {
    const matched = [...new Set([...byMarkers, ...itemsMentioning(s.searchIndex(), terms, reach)])];
    if (matched.length) {
      itemIds = matched;
      const inGoal = new Set(matched);
      const detail = `mentions none of: ${terms.slice(0, 8).join(', ')}`;
      leftOut = reach.filter((id) => !inGoal.has(id)).map((item_id) => ({ item_id, reason: 'no_matching_part' as const, detail }));
    } else {
      itemIds = reach.length ? reach : s.corpus.items.map((i) => i.id);
      s.notice('goals', s.lang === 'zh' ? `没有内容项提到 ${terms.slice(0, 5).join('、')}；目标覆盖全部 ${itemIds.length} 个内容项` : `no item mentions ${terms.slice(0, 5).join(', ')}; the goal covers all ${itemIds.length} items`);
    }
  }
  const markerIds = [...markers].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([id]) => id);
  return { goal_id: 'user', title: text, rationale: 'written by the user', item_ids: itemIds, marker_ids: markerIds, ...(leftOut.length ? { left_out: leftOut } : {}) };
}

// ---- Plan ------------------------------------------------------------------------------------

/** Ids a plan names that the corpus does not know. */
export function unknownPlanIds(s: Session, steps: readonly PlanStep[]): { items: string[]; markers: string[] } {
  const allIds = new Set<string>();
  for (const im of s.markers.values()) for (const m of allMarkers(im)) allIds.add(m.id);
  const items = new Set<string>();
  const markers = new Set<string>();
  for (const st of steps) {
    for (const id of st.required_content_items) if (!s.items.has(id)) items.add(id);
    for (const id of st.marker_relevance) if (!allIds.has(id)) markers.add(id);
  }
  return { items: [...items], markers: [...markers] };
}

/**
 * Step ids made safe, unique and stable through the one sanitiser of stored ids
 * ({@link sanitizeIds}); a warning names the ids that changed.
 */
export function withSafeStepIds<T extends { step_id: string }>(s: Pick<Session, 'log'>, steps: readonly T[]): T[] {
  const ids = sanitizeIds(steps.map((st) => st.step_id));
  const changed = steps.flatMap((st, i) => (st.step_id !== ids[i] ? [`"${st.step_id.slice(0, 40)}" → ${ids[i]!}`] : []));
  if (changed.length) s.log.warn(`research: plan: step ids renamed to safe, unique ids: ${changed.slice(0, 10).join(', ')}`);
  return steps.map((st, i) => ({ ...st, step_id: ids[i]! }));
}

/** Drops unknown ids and steps left without items; makes step ids unique and file-safe. */
function cleanSteps(s: Session, steps: readonly PlanStep[]): PlanStep[] {
  const bad = unknownPlanIds(s, steps);
  const badItems = new Set(bad.items);
  const badMarkers = new Set(bad.markers);
  const out: PlanStep[] = [];
  for (const st of steps) {
    const items = [...new Set(st.required_content_items.filter((id) => !badItems.has(id)))];
    if (!items.length) {
      s.log.warn(`research: plan step ${st.step_id.slice(0, 80)} names no known item; dropped`);
      continue;
    }
    out.push({ ...st, required_content_items: items, marker_relevance: st.marker_relevance.filter((m) => !badMarkers.has(m)) });
  }
  return withSafeStepIds(s, out);
}

/**
 * Validates an (edited) plan against the corpus. Step ids must be what the one sanitiser of stored
 * ids ({@link sanitizeIds}) makes of them: safe and unique (also ignoring case); with `renameIds`
 * (a stored plan of an older version, on resume) they are renamed through it instead, with a warning.
 * @throws Error (`research: plan: …`) on a schema error, unknown item ids or (without `renameIds`) unsafe / duplicate step ids; unknown marker ids are dropped with a warning.
 */
export function validatePlan(s: Session, plan: unknown, opts: { renameIds?: boolean } = {}): Plan {
  const parsed = planSchema.safeParse(plan);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new Error(`research: plan: ${i ? `${i.path.join('.')}: ${i.message}` : 'invalid'}`);
  }
  const bad = unknownPlanIds(s, parsed.data.steps);
  if (bad.items.length) throw new Error(`research: plan: unknown item ids: ${bad.items.slice(0, 10).join(', ')}`);
  if (bad.markers.length) s.log.warn(`research: plan: dropping unknown marker ids: ${bad.markers.slice(0, 10).join(', ')}`);
  const ids = parsed.data.steps.map((st) => st.step_id);
  const safe = sanitizeIds(ids);
  const i = ids.findIndex((id, k) => id !== safe[k]);
  if (i >= 0 && !opts.renameIds) {
    const id = ids[i]!;
    throw new Error(
      ids.findIndex((x) => x.toLowerCase() === id.toLowerCase()) < i
        ? `research: plan: step ids must be unique (also ignoring case): "${id.slice(0, 80)}"`
        : `research: plan: step id "${id.slice(0, 80)}" may only contain letters, digits, '_' and '-' (at most 80)`,
    );
  }
  const steps = withSafeStepIds(s, parsed.data.steps);
  return { ...parsed.data, steps: steps.map((st) => ({ ...st, marker_relevance: st.marker_relevance.filter((m) => !bad.markers.includes(m)) })) };
}

/**
 * The markers of a step: for every item, its most relevant markers of `kinds` from the step's
 * part (`perItem` each, best first), so that a step over many items reads every one of them.
 */
function topMarkers(s: Session, items: readonly string[], text: string, kinds?: readonly MarkerKind[], perItem = 2, data?: PlanStep['required_data']): string[] {
  const wanted = new Set(items);
  const inputs = s.inputs.filter((x) => wanted.has(x.item.id));
  const { markers } = scoreRelevance(inputs, text);
  // A step about transcripts takes transcript markers, one about comments comment markers.
  const inPart = (m: Marker): boolean => !data || data === 'transcript_with_comments' || m.evidence.length === 0 || m.evidence[0]!.part === data;
  const per = (x: OverviewInput): string[] =>
    (x.markers ? allMarkers(x.markers) : [])
      .filter((m) => (!kinds || kinds.includes(m.kind)) && inPart(m))
      .sort((a, b) => (markers.get(b.id) ?? 0) - (markers.get(a.id) ?? 0) || b.confidence - a.confidence)
      .slice(0, perItem)
      .map((m) => m.id);
  // Items with the most relevant markers first; each gives its best before any gives its second.
  const lists = inputs.map(per).sort((a, b) => (markers.get(b[0] ?? '') ?? 0) - (markers.get(a[0] ?? '') ?? 0));
  return roundRobin(lists, Number.POSITIVE_INFINITY);
}

/** The labels of the extractive plan's steps and phases, in the corpus's language. */
const STEP_LABELS: Record<GoalLanguage, { facts: string; opinions: string; findings: string; reception: string; stage: string; threadFiller: string; part: (k: number, n: number, items: number) => string }> = {
  en: { facts: 'Facts and figures', opinions: 'Opinions and arguments', findings: 'Facts, figures and opinions', reception: 'How commenters receive it', stage: 'stage', threadFiller: 'Opinions and reception', part: (k, n, items) => `(part ${k} of ${n}: ${items} item${items === 1 ? '' : 's'})` },
  es: { facts: 'Hechos y datos', opinions: 'Opiniones y argumentos', findings: 'Hechos, datos y opiniones', reception: 'Cómo lo reciben los comentaristas', stage: 'etapa', threadFiller: 'Opiniones y recepción', part: (k, n, items) => `(parte ${k} de ${n}: ${items} contenido${items === 1 ? '' : 's'})` },
  zh: { facts: '事实与数据', opinions: '观点与论证', findings: '事实、数据与观点', reception: '评论区的反应', stage: '阶段', threadFiller: '观点与评论', part: (k, n, items) => `（第 ${k}/${n} 部分，${items} 个内容项）` },
};

/** `Label: goal` in the corpus's language (a full-width colon in Chinese). */
function labelled(lang: GoalLanguage, label: string, text: string): string {
  return lang === 'zh' ? `${label}：${text}` : `${label}: ${text}`;
}

/** One facet of a goal a plan researches: what its steps look for, in which part of which items. */
interface Facet {
  suffix: string;
  text: string;
  items: string[];
  data: PlanStep['required_data'];
  kinds: MarkerKind[];
  strategy: PlanStep['retrieval_strategy'];
}

/**
 * How finely a plan splits the goal into facets: 0 facts / opinions / reception (and deep topic
 * steps); 1 facts and opinions in one transcript step, reception kept; 2 one step per batch over
 * transcript and comments. A scope too large for `max_plan_steps` at one level is planned at the next.
 */
type Depth = 0 | 1 | 2;

/** The facets of a goal over its items at a depth. */
function facets(s: Session, goal: Goal, complexity: Complexity, depth: Depth): Facet[] {
  const lang = goalLanguage(s.inputs);
  const L = STEP_LABELS[lang];
  const items = goal.item_ids.filter((id) => s.items.has(id) && hasText(s.items.get(id)!));
  const withTranscript = items.filter((id) => (s.items.get(id)!.transcript?.text.trim().length ?? 0) > 0);
  const withComments = items.filter((id) => s.items.get(id)!.comments?.comments.some((c) => c.text.trim() !== ''));
  const out: Facet[] = [];
  const facet = (suffix: string, label: string, its: string[], data: PlanStep['required_data'], kinds: MarkerKind[], strategy: PlanStep['retrieval_strategy'] = 'selective_by_markers'): void => {
    if (its.length) out.push({ suffix, text: labelled(lang, label, goal.title), items: its, data, kinds, strategy });
  };
  if (depth === 2) {
    facet('findings', L.findings, items, 'transcript_with_comments', ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT']);
    return out;
  }
  if (depth === 1 || complexity === 'light') facet(depth === 1 ? 'findings' : 'facts', depth === 1 ? L.findings : L.facts, withTranscript, 'transcript', depth === 1 ? ['FACT', 'OPINION', 'DATA'] : ['FACT', 'DATA']);
  else {
    facet('facts', L.facts, withTranscript, 'transcript', ['FACT', 'DATA']);
    facet('opinions', L.opinions, withTranscript, 'transcript', ['OPINION']);
  }
  facet('reception', L.reception, withComments, 'comments', ['OPINION', 'ENGAGEMENT', 'FACT']);
  if (complexity === 'deep' && depth === 0) {
    // Deep dives into the topics that set some of the items apart, read in full.
    const inGoal = new Set(items);
    const topics = extractiveGoals({ ...s, inputs: s.inputs.filter((x) => inGoal.has(x.item.id)) }, 2, { overview: false });
    for (const t of topics) out.push({ suffix: 'topic', text: t.title, items: t.item_ids.filter((id) => inGoal.has(id)), data: 'transcript_with_comments', kinds: ['FACT', 'OPINION', 'DATA'], strategy: 'full_content' });
  }
  return out;
}

/**
 * Plan steps of facets: each facet's items in batches a step can take, batch by batch (the first
 * batch of every facet, then the second…), ids `<prefix><n>-<facet>`.
 */
function facetSteps(s: Session, goal: Goal, list: readonly Facet[], prefix: string, phaseName?: string): PlanStep[] {
  const L = STEP_LABELS[goalLanguage(s.inputs)];
  const cap = stepCapacity(s.config);
  const parts = list.map((f) => batches(f.items, cap).map((its, k, all) => ({ f, its, label: all.length > 1 ? ` ${L.part(k + 1, all.length, its.length)}` : '' })));
  return roundRobin(parts, Number.POSITIVE_INFINITY).map(({ f, its, label }, n) => ({
    step_id: `${prefix}${n + 1}-${f.suffix}`,
    goal: `${f.text}${label}`,
    required_content_items: its,
    required_data: f.data,
    marker_relevance: topMarkers(s, its, `${goal.title} ${f.text}`, f.kinds, 2, f.data),
    retrieval_strategy: f.strategy,
    ...(phaseName ? { phase_name: phaseName } : {}),
  }));
}

/**
 * The extractive steps of a goal: facts and data, opinions, reception in comments (deep: topic
 * deep-dives read in full), each over every item of the goal that has the part, in batches a step
 * can take. Past `max_plan_steps` the facets are merged first (see {@link Depth}).
 */
export function extractivePlanSteps(s: Session, goal: Goal, complexity: Complexity, prefix = 's', phaseName?: string): PlanStep[] {
  let steps: PlanStep[] = [];
  for (const depth of [0, 1, 2] as const) {
    steps = facetSteps(s, goal, facets(s, goal, complexity, depth), prefix, phaseName);
    if (steps.length <= s.config.max_plan_steps) break;
  }
  return steps;
}

function dateOf(s: Session, id: string): string | undefined {
  const v = s.items.get(id)?.meta.published_at;
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : undefined;
}

/**
 * Non-overlapping phases of the goal's items: contiguous ranges of `published_at`, then stages of
 * the undated items in corpus order. Two items or more always make at least two phases.
 */
export function extractivePhases(s: Session, goal: Goal, maxPhases = 4): EpicPhase[] {
  const items = goal.item_ids.filter((id) => s.items.has(id));
  const dated = items.filter((id) => dateOf(s, id)).sort((a, b) => Date.parse(dateOf(s, a)!) - Date.parse(dateOf(s, b)!));
  const undated = items.filter((id) => !dateOf(s, id));
  const groups: { ids: string[]; range?: [string, string] }[] = [];
  const split = (ids: readonly string[], n: number): string[][] =>
    Array.from({ length: n }, (_, k) => ids.slice(Math.floor((k * ids.length) / n), Math.floor(((k + 1) * ids.length) / n))).filter((g) => g.length > 0);
  // Undated items take at most one stage when dated ones exist (two when they are the majority).
  const undatedStages = !undated.length ? 0 : !dated.length ? Math.min(maxPhases, Math.max(2, Math.ceil(undated.length / 3)), undated.length) : undated.length > dated.length ? 2 : 1;
  const datedPhases = Math.min(dated.length, Math.max(dated.length >= 2 ? 2 : 1, Math.min(maxPhases - Math.min(undatedStages, 1), Math.ceil(dated.length / 2))));
  for (const ids of split(dated, datedPhases)) groups.push({ ids, range: [dateOf(s, ids[0]!)!.slice(0, 10), dateOf(s, ids[ids.length - 1]!)!.slice(0, 10)] });
  for (const ids of split(undated, Math.max(1, Math.min(undatedStages, maxPhases - groups.length)))) groups.push({ ids });
  const L = STEP_LABELS[goalLanguage(s.inputs)];
  return groups.map((g, i) => {
    const inPhase = new Set(g.ids);
    const topics = extractiveGoals({ ...s, inputs: s.inputs.filter((x) => inPhase.has(x.item.id)) }, 3).slice(0, 3);
    const name = g.range ? `${String.fromCharCode(65 + i)}: ${g.range[0]} – ${g.range[1]}` : `${String.fromCharCode(65 + i)}: ${L.stage} ${i + 1}`;
    // The first thread is the phase's overview (every item); a topic thread reads the items of its topic.
    const threads = topics.length >= 2 ? topics : [...topics, { title: L.threadFiller, item_ids: g.ids }];
    return { name, description: `${g.ids.length} items`, item_ids: g.ids, ...(g.range ? { time_range: g.range } : {}), threads: threads.map((t) => t.title), thread_item_ids: threads.map((t) => t.item_ids) };
  });
}

/**
 * The phases a deep run's material has: its items were published over a span of time (at least
 * four dated items, on at least two different days, most of the goal's items dated). Undefined
 * when the material has no phases; then the run is one body of steps.
 */
export function deepPhases(s: Session, goal: Goal): EpicPhase[] | undefined {
  const items = goal.item_ids.filter((id) => s.items.has(id));
  const dated = items.filter((id) => dateOf(s, id));
  const days = new Set(dated.map((id) => dateOf(s, id)!.slice(0, 10)));
  if (dated.length < 4 || days.size < 2 || dated.length * 3 < items.length * 2) return undefined;
  const phases = extractivePhases(s, { ...goal, item_ids: dated }, 3);
  // Items without a date join the last phase, so every item of the goal is still researched.
  const rest = items.filter((id) => !dateOf(s, id));
  if (rest.length && phases.length) phases[phases.length - 1] = { ...phases[phases.length - 1]!, item_ids: [...phases[phases.length - 1]!.item_ids, ...rest] };
  return phases.length >= 2 ? phases : undefined;
}

/** Interleaves lists (first of each, then second of each…) up to `n` entries. */
function roundRobin<T>(lists: readonly (readonly T[])[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < n && lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length && out.length < n) out.push(l[i]!);
  return out;
}

/** The plan's phases as stored (threads folded into the description). */
function storedPhases(phases: readonly EpicPhase[]): NonNullable<Plan['phases']> {
  return phases.map((p) => ({ name: p.name, description: `${p.description}; threads: ${p.threads.join(' | ')}`, item_ids: p.item_ids, ...(p.time_range ? { time_range: p.time_range } : {}) }));
}

/**
 * Keeps phases non-overlapping (an item belongs to the first phase that names it) and complete:
 * an item of the goal no phase names joins the phase whose dates are nearest its own (undated
 * items the last phase), said in a notice.
 */
function cleanPhases(s: Session, goal: Goal, phases: readonly EpicPhase[]): EpicPhase[] {
  const taken = new Set<string>();
  const out: EpicPhase[] = [];
  for (const p of phases) {
    const ids = p.item_ids.filter((id) => s.items.has(id) && !taken.has(id));
    for (const id of ids) taken.add(id);
    if (ids.length) out.push({ ...p, name: p.name.trim() || `phase ${out.length + 1}`, item_ids: ids, threads: p.threads.slice(0, 3) });
  }
  const missing = goal.item_ids.filter((id) => s.items.has(id) && !taken.has(id));
  if (!out.length || !missing.length) return out;
  const time = (id: string): number | undefined => (dateOf(s, id) ? Date.parse(dateOf(s, id)!) : undefined);
  const centre = out.map((p) => {
    const ts = p.item_ids.map(time).filter((t): t is number => t !== undefined);
    return ts.length ? ts.reduce((a, t) => a + t, 0) / ts.length : undefined;
  });
  for (const id of missing) {
    const t = time(id);
    let best = out.length - 1;
    if (t !== undefined) {
      let gap = Number.POSITIVE_INFINITY;
      centre.forEach((c, i) => {
        if (c !== undefined && Math.abs(c - t) < gap) {
          gap = Math.abs(c - t);
          best = i;
        }
      });
    }
    out[best] = { ...out[best]!, item_ids: [...out[best]!.item_ids, id] };
  }
  const n = missing.length;
  s.notice('plan', s.lang === 'zh' ? `模型的阶段划分漏掉了 ${n} 个内容项；已按日期并入最近的阶段` : `the model's phases left out ${n} item${n === 1 ? '' : 's'} of the goal; ${n === 1 ? 'it joins' : 'they join'} the phase nearest in date`);
  return out;
}

/**
 * Plan steps of an epic run: one per thread of each phase over that phase's items — a phase with
 * more items than a step can take gets one thread step per batch. With `threadsPerPhase` 1 only a
 * phase's first thread is kept (a scope too large for `max_plan_steps` otherwise).
 */
function epicSteps(s: Session, goal: Goal, phases: readonly EpicPhase[], threadsPerPhase = 3): PlanStep[] {
  const L = STEP_LABELS[goalLanguage(s.inputs)];
  const cap = stepCapacity(s.config);
  const perPhase = phases.map((p, i) => {
    const readable = p.item_ids.filter((id) => !s.items.get(id) || hasText(s.items.get(id)!));
    const readableIds = new Set(readable);
    const threads = p.threads.slice(0, threadsPerPhase).map((thread, j) => {
      // A thread that names its items (an offline topic thread) reads those; others every item of the phase.
      const own = p.thread_item_ids?.[j]?.filter((id) => readableIds.has(id));
      const parts = batches(own?.length ? own : readable, cap);
      return parts.map((items, k) => ({
        step_id: parts.length > 1 ? `p${i + 1}-t${j + 1}-b${k + 1}` : `p${i + 1}-t${j + 1}`,
        goal: `${thread} (${p.name})${parts.length > 1 ? ` ${L.part(k + 1, parts.length, items.length)}` : ''}`,
        required_content_items: items,
        required_data: 'transcript_with_comments' as const,
        marker_relevance: topMarkers(s, items, `${goal.title} ${thread}`),
        retrieval_strategy: 'selective_by_markers' as const,
        phase_name: p.name,
      }));
    });
    // Batch by batch within a phase: every thread's first batch, then the second…
    return roundRobin(threads, Number.POSITIVE_INFINITY);
  });
  return roundRobin(perPhase, Number.POSITIVE_INFINITY);
}

/** Phase 2: the plan for `goal`, with `notes` on what planning could not do as asked, and its coverage ({@link finishPlan}). */
export async function planPhase(s: Session, goal: Goal, complexity: Complexity): Promise<Plan> {
  const plan = finishPlan(s, goal, await planSteps(s, goal, complexity));
  return s.notes.length ? { ...plan, notes: [...s.notes] } : plan;
}

/** `Pages k of n` step-id prefix of a model plan written page by page. */
function pagePrefix(k: number, n: number): string {
  return n > 1 ? `b${k}-` : '';
}

async function planSteps(s: Session, goal: Goal, complexity: Complexity): Promise<Plan> {
  if (complexity === 'epic') {
    let phases: EpicPhase[] = [];
    if (s.engine !== 'extractive') {
      const inGoal = new Set(goal.item_ids);
      const ov = formatMarkerOverview(s.inputs.filter((x) => inGoal.has(x.item.id)), { goal: goal.title, maxItems: s.config.marker_overview_max_items, markersPerKind: 3, lang: s.lang, log: s.log });
      const dates = goal.item_ids.map((id) => `${id}: ${dateOf(s, id) ?? '(no date)'}`).join('\n');
      try {
        const prompt = await s.prompt('research-epic-phases');
        const r = await s.call({ messages: prompt.render({ goal: goal.title, overview: ov.text, dates }), schema: epicPhasesReplySchema, schemaName: 'research_epic_phases', phase: 'plan', step: 'phases' });
        phases = cleanPhases(s, goal, r.value.phases);
      } catch (error) {
        rethrowCancel(error, s);
        s.notice('plan', s.lang === 'zh' ? `模型未能划分阶段（${failureCause(error)}）；按日期或顺序划分` : `epic phases from the model failed (${failureCause(error)}); the items are split by date or order instead`);
      }
    }
    if (phases.length < 2) phases = extractivePhases(s, goal);
    if (phases.length < 2) {
      const n = goal.item_ids.filter((id) => s.items.has(id)).length;
      s.notice('plan', s.lang === 'zh' ? `史诗级研究只有一个阶段：目标只涉及 ${n} 个内容项，无法划分为不重叠的阶段` : `this epic run has one phase: its goal covers ${n} item${n === 1 ? '' : 's'}, which cannot be split into non-overlapping phases`);
    }
    let steps = epicSteps(s, goal, phases);
    if (steps.length > s.config.max_plan_steps) steps = epicSteps(s, goal, phases, 1);
    return { goal: goal.title, complexity, steps, phases: storedPhases(phases) };
  }
  const phases = complexity === 'deep' ? deepPhases(s, goal) : undefined;
  if (s.engine === 'extractive') return extractivePlan(s, goal, complexity, phases);
  const inGoal = new Set(goal.item_ids);
  const inputs = s.inputs.filter((x) => inGoal.has(x.item.id));
  const pages = overviewPages(inputs.length ? inputs : s.inputs, s.config.marker_overview_max_items, goal.title);
  const prompt = await s.prompt('research-plan');
  try {
    const steps: PlanStep[] = [];
    for (const [k, page] of pages.entries()) {
      const ov = formatMarkerOverview(page, { goal: goal.title, maxItems: page.length, markersPerKind: s.config.overview_markers_per_kind, lang: s.lang, log: s.log, ...(pages.length > 1 ? { page: { k: k + 1, n: pages.length, total: inputs.length } } : {}) });
      const messages = prompt.render({ goal: goal.title, complexity, max_steps: STEPS_BY_COMPLEXITY[complexity], overview: ov.text });
      const step = pages.length > 1 ? `page-${k + 1}` : undefined;
      const r = await s.call({ messages, schema: planReplySchema, schemaName: 'research_plan', phase: 'plan', ...(step ? { step } : {}) });
      let reply = r.value.steps;
      const bad = unknownPlanIds(s, reply);
      if (bad.items.length || bad.markers.length) {
        s.log.warn(`research: plan names unknown ids (items: ${bad.items.join(', ') || '-'}; markers: ${bad.markers.join(', ') || '-'}); asking for a repair`);
        const repair = [
          ...messages,
          { role: 'assistant' as const, content: JSON.stringify(r.value) },
          {
            role: 'user' as const,
            content: `These ids do not exist in the corpus: ${[...bad.items.map((i) => `item "${i}"`), ...bad.markers.map((m) => `marker "${m}"`)].join(', ')}. Use only the item ids and marker ids shown in the overview. Reply with the corrected plan as the same JSON object.`,
          },
        ];
        const r2 = await s.call({ messages: repair, schema: planReplySchema, schemaName: 'research_plan', phase: 'plan', step: step ? `${step}-repair` : 'repair' });
        reply = r2.value.steps;
      }
      steps.push(...cleanSteps(s, reply).slice(0, STEPS_BY_COMPLEXITY[complexity]).map((st) => ({ ...st, step_id: `${pagePrefix(k + 1, pages.length)}${st.step_id}` })));
    }
    const cleaned = withSafeStepIds(s, steps);
    if (cleaned.length) return phases ? { goal: goal.title, complexity, steps: cleaned.map((st) => withPhase(st, phases)), phases: storedPhases(phases) } : { goal: goal.title, complexity, steps: cleaned };
    s.notice('plan', s.lang === 'zh' ? '模型的计划没有涉及已知内容项的步骤；改用抽取式计划' : 'the model\'s plan had no step about a known item; the extractive plan is used instead');
  } catch (error) {
    rethrowCancel(error, s);
    s.notice('plan', s.lang === 'zh' ? `模型未能制定计划（${failureCause(error)}）；改用抽取式计划` : `the plan from the model failed (${failureCause(error)}); the extractive plan is used instead`);
  }
  return extractivePlan(s, goal, complexity, phases);
}

/**
 * The extractive plan; with phases (deep material that has them), every facet of the goal in
 * every phase — the transcript's facts and opinions and, where the phase's items have comments,
 * the commenters' side — interleaved so that every phase gets its steps.
 */
function extractivePlan(s: Session, goal: Goal, complexity: Complexity, phases: readonly EpicPhase[] | undefined): Plan {
  if (!phases) return { goal: goal.title, complexity, steps: extractivePlanSteps(s, goal, complexity) };
  let steps: PlanStep[] = [];
  for (const depth of [0, 1, 2] as const) {
    const perPhase = phases.map((p, i) => facetSteps(s, goal, facets(s, { ...goal, item_ids: p.item_ids }, 'medium', depth), `p${i + 1}-s`, p.name));
    steps = roundRobin(perPhase, Number.POSITIVE_INFINITY);
    if (steps.length <= s.config.max_plan_steps) break;
  }
  return { goal: goal.title, complexity, steps, phases: storedPhases(phases) };
}

/** A model step whose items all lie in one phase belongs to it. */
function withPhase(step: PlanStep, phases: readonly EpicPhase[]): PlanStep {
  const p = phases.find((x) => step.required_content_items.every((id) => x.item_ids.includes(id)));
  return p ? { ...step, phase_name: p.name } : step;
}

/**
 * A plan's coverage made whole (any engine): steps with more items than a step can take are split
 * into batches; items of the goal with text that no step names get steps of their own (the model
 * left them out: said in a notice); a goal that asks about the comments gets a comments step in
 * every phase whose items have comments; then at most `max_plan_steps` steps are kept. The plan
 * records the goal's scope and every item of it no step researches, with the reason: no text,
 * nothing matching the goal (the goal's `left_out`), over the budget.
 */
export function finishPlan(s: Session, goal: Goal, plan: Plan): Plan {
  const L = STEP_LABELS[goalLanguage(s.inputs)];
  const cap = stepCapacity(s.config);
  const scope = [...new Set(goal.item_ids.filter((id) => s.items.has(id)))];
  const readable = scope.filter((id) => hasText(s.items.get(id)!));
  const noText: NotCovered[] = scope.filter((id) => !hasText(s.items.get(id)!)).map((item_id) => ({ item_id, reason: 'no_text', detail: 'no transcript text and no comments' }));
  // Steps read the goal's items that have text: an item outside the goal (one it left out, one outside the run's scope) is dropped, with a warning.
  const inScope = new Set(readable);
  const unreadable = new Set(noText.map((x) => x.item_id));
  const outside = [...new Set(plan.steps.flatMap((st) => st.required_content_items).filter((id) => !inScope.has(id) && !unreadable.has(id)))];
  if (outside.length) s.log.warn(`research: plan steps name ${outside.length} item(s) outside the goal's scope; dropped from the steps: ${outside.slice(0, 10).join(', ')}`);
  let steps = splitOversizeSteps(
    plan.steps.map((st) => ({ ...st, required_content_items: st.required_content_items.filter((id) => inScope.has(id)) })).filter((st) => st.required_content_items.length),
    cap,
    L.part,
  );
  const missing = uncovered(readable, steps);
  if (missing.length) {
    const added = extractivePlanSteps(s, { ...goal, item_ids: missing }, 'light', 'c');
    steps = [...steps, ...added];
    const n = missing.length;
    s.notice('plan', s.lang === 'zh' ? `计划的步骤没有涉及目标中的 ${n} 个内容项；已为它们增加步骤` : `the plan's steps left out ${n} item${n === 1 ? '' : 's'} of the goal; steps were added for ${n === 1 ? 'it' : 'them'}`);
  }
  if (goalAsksAboutComments(goal.title)) {
    const groups = plan.phases?.length ? plan.phases.map((p) => ({ name: p.name as string | undefined, ids: p.item_ids })) : [{ name: undefined as string | undefined, ids: readable }];
    for (const [i, g] of groups.entries()) {
      const withComments = g.ids.filter((id) => s.items.get(id)?.comments?.comments.some((c) => c.text.trim() !== ''));
      const read = new Set(steps.filter((st) => st.required_data !== 'transcript' && (g.name === undefined || st.phase_name === g.name)).flatMap((st) => st.required_content_items));
      const lacking = withComments.filter((id) => !read.has(id));
      if (!lacking.length) continue;
      const f = facets(s, { ...goal, item_ids: lacking }, 'light', 0).filter((x) => x.suffix === 'reception');
      steps = [...steps, ...facetSteps(s, goal, f, g.name === undefined ? 'c-r' : `p${i + 1}-c`, g.name)];
    }
  }
  const ids = withSafeStepIds(s, steps);
  const budgetNote = s.lang === 'zh' ? `超出步骤上限（max_plan_steps = ${s.config.max_plan_steps}）` : `over the step budget (max_plan_steps = ${s.config.max_plan_steps})`;
  const fit = fitStepBudget(ids, s.config.max_plan_steps, budgetNote);
  if (fit.overBudget.length) {
    const n = fit.overBudget.length;
    s.notice('plan', s.lang === 'zh' ? `${n} 个内容项超出步骤上限（${s.config.max_plan_steps} 步），未纳入研究；见报告的“未覆盖”部分` : `${n} item${n === 1 ? ' is' : 's are'} over the step budget (${s.config.max_plan_steps} steps) and not researched; see "Not covered" in the report`);
  }
  const notCovered = [...(goal.left_out ?? []).filter((x) => s.items.has(x.item_id)), ...noText, ...fit.overBudget];
  return { ...plan, steps: fit.steps, scope_item_ids: [...scope, ...(goal.left_out ?? []).map((x) => x.item_id).filter((id) => s.items.has(id) && !inScope.has(id) && !unreadable.has(id))], not_covered: notCovered };
}
