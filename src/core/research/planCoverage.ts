/**
 * Coverage at the plan level: every item of a goal's scope is in some step, or listed with the
 * reason it is not (no text, nothing matching the goal, over the step budget, left out of a
 * reviewed plan). A step takes at most {@link stepCapacity} items — what its overview shows in
 * full and its rounds can serve — so a scope larger than that is split into more steps (batches),
 * up to `max_plan_steps`; nothing is cut silently.
 */
import type { CorpusItem } from '../corpus/types';
import type { NotCovered, Plan, PlanStep, ResearchConfig } from './schema';

/**
 * Items one step can take: its overview shows every one of them (`marker_overview_max_items`) and
 * its rounds can serve each at least once (`max_content_items_per_turn` × rounds).
 *
 * @example
 * stepCapacity({ marker_overview_max_items: 20, max_content_items_per_turn: 3, max_followups_per_step: 3 }) // 12
 */
export function stepCapacity(config: Pick<ResearchConfig, 'marker_overview_max_items' | 'max_content_items_per_turn' | 'max_followups_per_step'>): number {
  return Math.max(1, Math.min(config.marker_overview_max_items, config.max_content_items_per_turn * (config.max_followups_per_step + 1)));
}

/** `ids` in consecutive batches of at most `size`, as even as possible (60 by 12 → 5 × 12; 13 by 12 → 7 + 6). */
export function batches<T>(ids: readonly T[], size: number): T[][] {
  if (!ids.length) return [];
  const n = Math.ceil(ids.length / Math.max(1, size));
  return Array.from({ length: n }, (_, k) => ids.slice(Math.floor((k * ids.length) / n), Math.floor(((k + 1) * ids.length) / n)));
}

/** Whether an item has anything to read: transcript text or a non-empty comment. */
export function hasText(item: CorpusItem): boolean {
  return (item.transcript?.text.trim().length ?? 0) > 0 || (item.comments?.comments.some((c) => c.text.trim() !== '') ?? false);
}

/**
 * Steps with more items than a step can take, split into batches (`s2` → `s2-b1`, `s2-b2`, …,
 * their goals saying which part of the items they take); other steps unchanged.
 */
export function splitOversizeSteps(steps: readonly PlanStep[], capacity: number, label: (k: number, n: number, items: number) => string): PlanStep[] {
  return steps.flatMap((st) => {
    if (st.required_content_items.length <= capacity) return [st];
    const parts = batches(st.required_content_items, capacity);
    return parts.map((items, k) => ({ ...st, step_id: `${st.step_id}-b${k + 1}`, goal: `${st.goal} ${label(k + 1, parts.length, items.length)}`, required_content_items: items }));
  });
}

/** The items of `scope` that no step of `steps` names, in scope order. */
export function uncovered(scope: readonly string[], steps: readonly Pick<PlanStep, 'required_content_items'>[]): string[] {
  const inSteps = new Set(steps.flatMap((st) => st.required_content_items));
  return scope.filter((id) => !inSteps.has(id));
}

/**
 * Keeps at most `max` steps (in plan order, which interleaves batches so that what falls away is
 * whole batches of items, not one facet of every item); the items that only the dropped steps
 * named are returned as `over_budget`.
 */
export function fitStepBudget(steps: readonly PlanStep[], max: number, detail: string): { steps: PlanStep[]; overBudget: NotCovered[] } {
  if (steps.length <= max) return { steps: [...steps], overBudget: [] };
  const kept = steps.slice(0, max);
  const named = [...new Set(steps.flatMap((st) => st.required_content_items))];
  return { steps: kept, overBudget: uncovered(named, kept).map((item_id) => ({ item_id, reason: 'over_budget' as const, detail })) };
}

/**
 * The not-covered list of a plan run as reviewed: what planning listed, and the scope's items the
 * (edited) steps no longer name (`not_in_plan`). Items a step names again are dropped from it.
 */
export function reviewedCoverage(plan: Plan): NotCovered[] {
  const inSteps = new Set(plan.steps.flatMap((st) => st.required_content_items));
  const listed = (plan.not_covered ?? []).filter((x) => !inSteps.has(x.item_id));
  const known = new Set(listed.map((x) => x.item_id));
  const dropped = (plan.scope_item_ids ?? []).filter((id) => !inSteps.has(id) && !known.has(id));
  return [...listed, ...dropped.map((item_id) => ({ item_id, reason: 'not_in_plan' as const }))];
}
