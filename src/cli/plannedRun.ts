/**
 * What `research --plan-only` prints: where the plan is (run id, plan.json), its steps (id, items,
 * data part, strategy, phase, goal), what it leaves out, and the command that runs it after review
 * (`marker-research research <dir> --run <id>`).
 */
import * as path from 'node:path';
import type { RunResult } from '../core/research/pipeline';
import type { Plan } from '../core/research/schema';
import { table } from './io';

/**
 * `word` as one POSIX shell word: as is when it holds only characters no shell treats specially,
 * else in single quotes (a `'` inside written `'\''`).
 * @example shellWord('/tmp/my corpus') // → "'/tmp/my corpus'"
 */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs planned run `runId` of the corpus at `root`. */
export function runCommandFor(root: string, runId: string): string {
  return `marker-research research ${shellWord(root)} --run ${shellWord(runId)}`;
}

/**
 * "3 items not covered (2 over_budget, 1 no_text) …" for the items a plan lists under
 * `not_covered` with their reasons; empty when it lists none (plans written before the field have none).
 */
function notCoveredLine(plan: Plan): string {
  const list = (plan as { not_covered?: unknown }).not_covered;
  if (!Array.isArray(list) || !list.length) return '';
  const reasons = new Map<string, number>();
  for (const x of list as { reason?: unknown }[]) {
    const r = typeof x?.reason === 'string' ? x.reason : 'no reason';
    reasons.set(r, (reasons.get(r) ?? 0) + 1);
  }
  const why = [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`).join(', ');
  return `; ${list.length} item${list.length === 1 ? '' : 's'} not covered (${why}; listed in plan.json under "not_covered")`;
}

/** The `--json` output of a planned run. */
export function plannedJson(root: string, result: RunResult, plan: Plan): Record<string, unknown> {
  return {
    runId: result.runId,
    runDir: result.runDir,
    planPath: path.join(result.runDir, 'plan.json'),
    reportPath: null,
    manifest: result.manifest,
    plan,
    run: runCommandFor(root, result.runId),
  };
}

/** The text output of a planned run (ends with a newline). */
export function renderPlanned(root: string, result: RunResult, plan: Plan): string {
  const engine = result.manifest.engine === 'extractive' ? 'extractive (no model)' : `${result.manifest.engine} ${result.manifest.model}`;
  const phased = plan.steps.some((st) => st.phase_name);
  const rows = plan.steps.map((st) => [st.step_id, String(st.required_content_items.length), st.required_data, st.retrieval_strategy, ...(phased ? [st.phase_name ?? '-'] : []), st.goal]);
  const header = ['step', 'items', 'data', 'strategy', ...(phased ? ['phase'] : []), 'goal'];
  const items = new Set(plan.steps.flatMap((st) => st.required_content_items)).size;
  const lines = [
    `run: ${result.runDir}`,
    `run id: ${result.runId}`,
    `goal: ${plan.goal}`,
    `complexity: ${plan.complexity} · engine: ${engine} · status: ${result.manifest.status}`,
    `plan: ${path.join(result.runDir, 'plan.json')}`,
    '',
    table(header, rows, 60),
    '',
    `${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} over ${items} item${items === 1 ? '' : 's'}${notCoveredLine(plan)}`,
    ...(plan.notes ?? []).map((n) => `note: ${n}`),
    '',
    'Nothing was run. Review (or edit) plan.json, then run it:',
    `  ${runCommandFor(root, result.runId)}`,
  ];
  return `${lines.join('\n')}\n`;
}
