/**
 * What "Run Research" does while a reviewed plan waits (a run with status `planned`): the same
 * goal, or none, runs that plan — it is never silently replaced by a fresh run — and a different
 * goal asks first.
 */

/** What to do with Run Research while a planned run waits. */
export type PlannedRunChoice = 'run-planned' | 'new-run' | 'ask';

/** A goal text as a reader compares it: width- and case-folded, spacing collapsed, trailing punctuation ignored. */
export function normalizeGoalText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.?!。？！…:：]+$/u, '')
    .trim();
}

/** Whether two goal texts say the same ("Winter range?" and " winter  range" do). */
export function sameGoalText(a: string, b: string): boolean {
  return normalizeGoalText(a) === normalizeGoalText(b);
}

/**
 * The choice for Run Research with `goal` (the text in the goal box or of the goal picked;
 * undefined or blank when the box is empty) while `planned` waits (undefined: nothing planned).
 *
 * @example
 * plannedRunChoice(undefined, { goal: 'Winter range' })        // 'run-planned'
 * plannedRunChoice('winter range?', { goal: 'Winter range' })  // 'run-planned'
 * plannedRunChoice('Coffee prices', { goal: 'Winter range' })  // 'ask'
 * plannedRunChoice('Coffee prices', undefined)                 // 'new-run'
 */
export function plannedRunChoice(goal: string | undefined, planned: { goal: string } | undefined): PlannedRunChoice {
  if (!planned) return 'new-run';
  if (goal === undefined || !goal.trim()) return 'run-planned';
  return sameGoalText(goal, planned.goal) ? 'run-planned' : 'ask';
}
