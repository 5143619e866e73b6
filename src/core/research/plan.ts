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
import { formatMarkerOverview, scoreRelevance } from './overview';
import { failureCause } from './failures';
import { sanitizeIds } from './runStore';
import { epicPhasesReplySchema, goalsReplySchema, planReplySchema, planSchema, type Complexity, type EpicPhase, type Goal, type Plan, type PlanStep } from './schema';
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
      item_ids: items.map((it) => it.id).slice(0, s.config.marker_overview_max_items),
      marker_ids: s.inputs.flatMap(({ markers }) => (markers ? allMarkers(markers).slice(0, 2).map((m) => m.id) : [])).slice(0, 12),
    });
  }
  for (const c of clusters) {
    goals.push({ goal_id: '', ...topicGoalText(lang, noun, c, c.itemIds.map(titleOf), items.length), item_ids: c.itemIds, marker_ids: c.markerIds });
  }
  if (!goals.length) {
    // No topic goal and no overview asked for: the overview of every item of the corpus still is one.
    const all = items.length ? items : s.corpus.items;
    goals.push({ goal_id: '', ...overviewGoalText(lang, noun, all.map((it) => it.title), all.some((it) => (it.comments?.comments.length ?? 0) > 0)), item_ids: all.map((it) => it.id).slice(0, s.config.marker_overview_max_items), marker_ids: [] });
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
  return { ...g, goal_id: `g${i + 1}`, item_ids: items, marker_ids: markerIds };
}

/** Phase 1: goals proposed by the model from the overview (or extractively). */
export async function goalsPhase(s: Session, maxGoals = 5): Promise<Goal[]> {
  if (s.engine === 'extractive') return extractiveGoals(s, maxGoals);
  const ov = formatMarkerOverview(s.inputs, { maxItems: s.config.marker_overview_max_items, markersPerKind: s.config.overview_markers_per_kind, lang: s.lang, log: s.log });
  const prompt = await s.prompt('research-goals');
  try {
    const r = await s.call({ messages: prompt.render({ overview: ov.text, max_goals: maxGoals }), schema: goalsReplySchema, schemaName: 'research_goals', phase: 'goals' });
    const goals = r.value.goals.map((g, i) => cleanGoal(s, g, i)).filter((g): g is Goal => !!g).slice(0, maxGoals).map((g, i) => ({ ...g, goal_id: `g${i + 1}` }));
    if (goals.length) return goals;
    s.notice('goals', s.lang === 'zh' ? '模型提出的目标都不涉及已知内容项；改用抽取式目标' : 'the model proposed no goal about a known item; extractive goals are used instead');
  } catch (error) {
    rethrowCancel(error, s);
    s.notice('goals', s.lang === 'zh' ? `模型未能提出目标（${failureCause(error)}）；改用抽取式目标` : `goals from the model failed (${failureCause(error)}); extractive goals are used instead`);
  }
  return extractiveGoals(s, maxGoals);
}

/** A goal for a question the user wrote: the items and markers most relevant to it. */
export function goalFromText(s: Session, text: string): Goal {
  const { items, markers } = scoreRelevance(s.inputs, text);
  const ranked = [...items].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([id]) => id);
  const itemIds = (ranked.length ? ranked : s.corpus.items.map((i) => i.id)).slice(0, s.config.marker_overview_max_items);
  const markerIds = [...markers].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([id]) => id);
  return { goal_id: 'user', title: text, rationale: 'written by the user', item_ids: itemIds, marker_ids: markerIds };
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

/** The most relevant markers of `items` for `text`, optionally of some kinds. */
function topMarkers(s: Session, items: readonly string[], text: string, kinds?: readonly MarkerKind[], n = 8, data?: PlanStep['required_data']): string[] {
  const inputs = s.inputs.filter((x) => items.includes(x.item.id));
  const { markers } = scoreRelevance(inputs, text);
  // A step about transcripts takes transcript markers, one about comments comment markers.
  const inPart = (m: Marker): boolean => !data || data === 'transcript_with_comments' || m.evidence.length === 0 || m.evidence[0]!.part === data;
  const list = inputs.flatMap((x) => (x.markers ? allMarkers(x.markers) : [])).filter((m) => (!kinds || kinds.includes(m.kind)) && inPart(m));
  return list
    .sort((a, b) => (markers.get(b.id) ?? 0) - (markers.get(a.id) ?? 0) || b.confidence - a.confidence)
    .slice(0, n)
    .map((m) => m.id);
}

/** The labels of the extractive plan's steps and phases, in the corpus's language. */
const STEP_LABELS: Record<GoalLanguage, { facts: string; opinions: string; reception: string; stage: string; threadFiller: string }> = {
  en: { facts: 'Facts and figures', opinions: 'Opinions and arguments', reception: 'How commenters receive it', stage: 'stage', threadFiller: 'Opinions and reception' },
  es: { facts: 'Hechos y datos', opinions: 'Opiniones y argumentos', reception: 'Cómo lo reciben los comentaristas', stage: 'etapa', threadFiller: 'Opiniones y recepción' },
  zh: { facts: '事实与数据', opinions: '观点与论证', reception: '评论区的反应', stage: '阶段', threadFiller: '观点与评论' },
};

/** `Label: goal` in the corpus's language (a full-width colon in Chinese). */
function labelled(lang: GoalLanguage, label: string, text: string): string {
  return lang === 'zh' ? `${label}：${text}` : `${label}: ${text}`;
}

/** Steps per goal facet: facts and data, opinions, reception in comments, then topic deep-dives. */
export function extractivePlanSteps(s: Session, goal: Goal, complexity: Complexity, prefix = 's', phaseName?: string): PlanStep[] {
  const lang = goalLanguage(s.inputs);
  const L = STEP_LABELS[lang];
  const items = goal.item_ids.filter((id) => s.items.has(id));
  const withComments = items.filter((id) => s.items.get(id)?.comments);
  const steps: PlanStep[] = [];
  const add = (suffix: string, text: string, its: string[], data: PlanStep['required_data'], kinds: MarkerKind[], strategy: PlanStep['retrieval_strategy']): void => {
    if (!its.length) return;
    steps.push({ step_id: `${prefix}${steps.length + 1}-${suffix}`, goal: text, required_content_items: its, required_data: data, marker_relevance: topMarkers(s, its, `${goal.title} ${text}`, kinds, 8, data), retrieval_strategy: strategy, ...(phaseName ? { phase_name: phaseName } : {}) });
  };
  add('facts', labelled(lang, L.facts, goal.title), items, 'transcript', ['FACT', 'DATA'], 'selective_by_markers');
  if (complexity !== 'light') add('opinions', labelled(lang, L.opinions, goal.title), items, 'transcript', ['OPINION'], 'selective_by_markers');
  add('reception', labelled(lang, L.reception, goal.title), withComments, 'comments', ['OPINION', 'ENGAGEMENT', 'FACT'], 'selective_by_markers');
  if (complexity === 'deep') {
    const topics = extractiveGoals({ ...s, inputs: s.inputs.filter((x) => items.includes(x.item.id)) }, 2, { overview: false });
    for (const t of topics) add('topic', t.title, t.item_ids, 'transcript_with_comments', ['FACT', 'OPINION', 'DATA'], 'full_content');
  }
  return steps.slice(0, STEPS_BY_COMPLEXITY[complexity]);
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
    const threads = extractiveGoals({ ...s, inputs: s.inputs.filter((x) => g.ids.includes(x.item.id)) }, 3)
      .map((t) => t.title)
      .slice(0, 3);
    const name = g.range ? `${String.fromCharCode(65 + i)}: ${g.range[0]} – ${g.range[1]}` : `${String.fromCharCode(65 + i)}: ${L.stage} ${i + 1}`;
    return { name, description: `${g.ids.length} items`, item_ids: g.ids, ...(g.range ? { time_range: g.range } : {}), threads: threads.length >= 2 ? threads : [...threads, L.threadFiller].slice(0, 3) };
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

/** Keeps phases non-overlapping: an item belongs to the first phase that names it. */
function cleanPhases(s: Session, phases: readonly EpicPhase[]): EpicPhase[] {
  const taken = new Set<string>();
  const out: EpicPhase[] = [];
  for (const p of phases) {
    const ids = p.item_ids.filter((id) => s.items.has(id) && !taken.has(id));
    for (const id of ids) taken.add(id);
    if (ids.length) out.push({ ...p, name: p.name.trim() || `phase ${out.length + 1}`, item_ids: ids, threads: p.threads.slice(0, 3) });
  }
  return out;
}

/** Plan steps of an epic run: one per thread of each phase, on that phase's items. */
function epicSteps(s: Session, goal: Goal, phases: readonly EpicPhase[]): PlanStep[] {
  return phases.flatMap((p, i) =>
    p.threads.map((thread, j) => {
      const items = p.item_ids.slice(0, 8);
      return {
        step_id: `p${i + 1}-t${j + 1}`,
        goal: `${thread} (${p.name})`,
        required_content_items: items,
        required_data: 'transcript_with_comments' as const,
        marker_relevance: topMarkers(s, items, `${goal.title} ${thread}`),
        retrieval_strategy: 'selective_by_markers' as const,
        phase_name: p.name,
      };
    }),
  );
}

/** Phase 2: the plan for `goal`, with `notes` on what planning could not do as asked. */
export async function planPhase(s: Session, goal: Goal, complexity: Complexity): Promise<Plan> {
  const plan = await planSteps(s, goal, complexity);
  return s.notes.length ? { ...plan, notes: [...s.notes] } : plan;
}

async function planSteps(s: Session, goal: Goal, complexity: Complexity): Promise<Plan> {
  if (complexity === 'epic') {
    let phases: EpicPhase[] = [];
    if (s.engine !== 'extractive') {
      const ov = formatMarkerOverview(s.inputs.filter((x) => goal.item_ids.includes(x.item.id)), { goal: goal.title, maxItems: s.config.marker_overview_max_items, markersPerKind: 3, lang: s.lang, log: s.log });
      const dates = goal.item_ids.map((id) => `${id}: ${dateOf(s, id) ?? '(no date)'}`).join('\n');
      try {
        const prompt = await s.prompt('research-epic-phases');
        const r = await s.call({ messages: prompt.render({ goal: goal.title, overview: ov.text, dates }), schema: epicPhasesReplySchema, schemaName: 'research_epic_phases', phase: 'plan', step: 'phases' });
        phases = cleanPhases(s, r.value.phases);
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
    const steps = epicSteps(s, goal, phases);
    return { goal: goal.title, complexity, steps, phases: storedPhases(phases) };
  }
  const phases = complexity === 'deep' ? deepPhases(s, goal) : undefined;
  if (s.engine === 'extractive') return extractivePlan(s, goal, complexity, phases);
  const inputs = s.inputs.filter((x) => goal.item_ids.includes(x.item.id));
  const ov = formatMarkerOverview(inputs.length ? inputs : s.inputs, { goal: goal.title, maxItems: s.config.marker_overview_max_items, markersPerKind: s.config.overview_markers_per_kind, lang: s.lang, log: s.log });
  const prompt = await s.prompt('research-plan');
  const messages = prompt.render({ goal: goal.title, complexity, max_steps: STEPS_BY_COMPLEXITY[complexity], overview: ov.text });
  try {
    const r = await s.call({ messages, schema: planReplySchema, schemaName: 'research_plan', phase: 'plan' });
    let steps = r.value.steps;
    const bad = unknownPlanIds(s, steps);
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
      const r2 = await s.call({ messages: repair, schema: planReplySchema, schemaName: 'research_plan', phase: 'plan', step: 'repair' });
      steps = r2.value.steps;
    }
    const cleaned = cleanSteps(s, steps).slice(0, STEPS_BY_COMPLEXITY[complexity]);
    if (cleaned.length) return phases ? { goal: goal.title, complexity, steps: cleaned.map((st) => withPhase(st, phases)), phases: storedPhases(phases) } : { goal: goal.title, complexity, steps: cleaned };
    s.notice('plan', s.lang === 'zh' ? '模型的计划没有涉及已知内容项的步骤；改用抽取式计划' : 'the model\'s plan had no step about a known item; the extractive plan is used instead');
  } catch (error) {
    rethrowCancel(error, s);
    s.notice('plan', s.lang === 'zh' ? `模型未能制定计划（${failureCause(error)}）；改用抽取式计划` : `the plan from the model failed (${failureCause(error)}); the extractive plan is used instead`);
  }
  return extractivePlan(s, goal, complexity, phases);
}

/** The extractive plan; with phases (deep material that has them), the facets of each phase, interleaved so every phase gets steps. */
function extractivePlan(s: Session, goal: Goal, complexity: Complexity, phases: readonly EpicPhase[] | undefined): Plan {
  if (!phases) return { goal: goal.title, complexity, steps: extractivePlanSteps(s, goal, complexity) };
  const perPhase = phases.map((p, i) => extractivePlanSteps(s, { ...goal, item_ids: p.item_ids }, 'medium', `p${i + 1}-s`, p.name));
  return { goal: goal.title, complexity, steps: roundRobin(perPhase, STEPS_BY_COMPLEXITY[complexity]), phases: storedPhases(phases) };
}

/** A model step whose items all lie in one phase belongs to it. */
function withPhase(step: PlanStep, phases: readonly EpicPhase[]): PlanStep {
  const p = phases.find((x) => step.required_content_items.every((id) => x.item_ids.includes(id)));
  return p ? { ...step, phase_name: p.name } : step;
}
