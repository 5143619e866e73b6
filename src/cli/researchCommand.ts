/**
 * `marker-research research <corpusDir> [--goal "<text>" | --goal auto] [--complexity …] …`:
 * the research pipeline (goals, plan, steps, cited report), offline by default. Generates
 * missing markers first with the same engine; prints the run folder, the steps with their
 * status, tokens per phase and, last, `report: <path>`. `--plan-only` stops after planning and
 * says where the plan is and how to run it; `--run <id>` runs that planned run after review
 * (plan.json may have been edited); `--items` scopes a new run to some items.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resumeResearch, runResearch, type ResearchContext, type RunResult } from '../core/research/pipeline';
import { validatePlan } from '../core/research/plan';
import { listRuns, readRun, runDir, runExists, runsDir, RunStoreError } from '../core/research/runStore';
import { COMPLEXITIES, type Complexity, type RunManifest } from '../core/research/schema';
import { openSession } from '../core/research/session';
import { consoleLogger, nullLogger } from '../core/util/log';
import { parseCommandArgs, table, UsageError, type CliContext } from './io';
import { readItemsOption } from './itemScope';
import { plannedJson, renderPlanned } from './plannedRun';
import { ENGINE_USAGE, engineOptions, ITEMS_USAGE, OVERVIEW_USAGE, prepareResearch, RESEARCH_DEFAULTS, researchConfigOptions, SHARED_RESEARCH_OPTIONS } from './researchSetup';
import { writeStatus } from './terminalText';

export const RESEARCH_USAGE = `marker-research research <corpusDir> [options]
  --goal TEXT|auto    the research goal, or auto (default): the first discovered goal
  --complexity C      light | medium (default) | deep | epic
${ITEMS_USAGE}
${ENGINE_USAGE}
  --max-followups N   follow-up rounds a step may take to request more content, 0–20 (default ${RESEARCH_DEFAULTS.max_followups_per_step})
  --max-items-per-turn N
                      content items served to a step in one round, 1–50 (default ${RESEARCH_DEFAULTS.max_content_items_per_turn})
  --context-window-limit TOKENS
                      context budget of a step across its rounds, ≥ 200 (default ${RESEARCH_DEFAULTS.context_window_limit});
                      past it whole items are deferred, never cut
${OVERVIEW_USAGE}
  --max-steps N       steps a plan may have, 1–1000 (default ${RESEARCH_DEFAULTS.max_plan_steps}): a step takes at most as many
                      items as its overview shows and its rounds serve, so a larger scope gets more
                      steps; items past the budget are listed under "Not covered" in plan.json and the report
  --plan-only         plan, save the run (status "planned") and stop without running a step: prints
                      the run id, the plan.json path, the steps and the command that runs it
  --run RUN_ID        run a planned run (--plan-only) after review; its plan.json may be edited
                      (steps dropped or changed) and is checked first; a run that is not planned is
                      refused (--resume continues a cancelled, failed or partial one)
  --plan FILE         run this (edited) plan.json instead of planning
  --resume RUN_ID     resume a cancelled, failed or partial run from its last finished step
  --json              JSON on stdout
  Runs land in <corpus>/.marker-research/runs/<run-id>/.
  Exit code 0 when the run is done (or stopped after planning); 1 when it is partial (some steps
  failed, or the report is a fallback) or failed (no step succeeded, nothing to research: no items
  or none with readable text) — the cause is printed on stderr and kept in run.json ("error",
  "causes"); 2 for a bad option, an unknown --resume / --run RUN_ID, a --run of a run that is not
  planned, an edited plan.json that does not validate (the file is named) or --items ids the corpus
  does not have; 3 when a run file cannot be written (disk full: the file is named, run.json says
  failed); 130 when cancelled (the run is left "cancelled"). --resume RUN_ID runs the failed steps
  again.`;

/** Runs the research command. */
export async function researchCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      ...SHARED_RESEARCH_OPTIONS,
      goal: { type: 'string' }, complexity: { type: 'string', default: 'medium' },
      'max-followups': { type: 'string' }, 'max-items-per-turn': { type: 'string' }, 'context-window-limit': { type: 'string' }, 'max-steps': { type: 'string' },
      plan: { type: 'string' }, resume: { type: 'string' }, run: { type: 'string' }, 'plan-only': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('research: expected exactly one corpus folder');
  const engine = engineOptions(values);
  if (!(COMPLEXITIES as readonly string[]).includes(values.complexity)) throw new UsageError('--complexity expects light, medium, deep or epic');
  checkCombinations(values);
  const config = researchConfigOptions(values);
  const scope = await readItemsOption(values.items);
  const log = consoleLogger(ctx.err, { level: values.verbose ? 'debug' : 'warn' });
  const research = await prepareResearch(ctx, {
    command: 'research',
    dir: positionals[0]!,
    engine,
    config,
    ...(scope ? { scope } : {}),
    json: values.json,
    log,
    check: async (c) => {
      if (values.resume) await checkRunId(c.root, values.resume, '--resume');
      if (values.run) await checkPlanned(c.root, values.run);
    },
    onEvent: (e) => {
      if (e.type === 'step') writeStatus(ctx.err, `${e.step_id}: ${e.status}${e.round !== undefined ? ` (round ${e.round + 1})` : ''}`);
      // Planning that fell short is said whatever the terminal (it is also at the top of the report).
      if (e.type === 'notice') {
        writeStatus(ctx.err);
        ctx.err.write(`marker-research research: note: ${e.message}\n`);
      }
    },
  });
  if (!research) return 1;
  const corpus = research.corpus;
  let result: RunResult;
  if (values.run) result = await runPlanned(research, values.run);
  else if (values.resume) result = await resumeResearch(research, values.resume);
  else {
    let plan: unknown;
    if (values.plan) {
      try {
        plan = JSON.parse(await readFile(values.plan, 'utf8'));
      } catch (e) {
        throw new UsageError(`--plan ${values.plan}: ${(e as Error).message}`);
      }
    }
    result = await runResearch(research, { goal: values.goal ?? 'auto', complexity: values.complexity as Complexity, ...(plan !== undefined ? { plan } : {}), ...(values['plan-only'] ? { stopAfterPlan: true } : {}) });
  }
  writeStatus(ctx.err);
  const stored = await readRun(corpus.root, result.runId);
  // --plan-only: where the plan is, its steps, and the command that runs it.
  if (result.manifest.status === 'planned' && stored.plan) {
    ctx.out.write(values.json ? `${JSON.stringify(plannedJson(corpus.root, result, stored.plan), null, 2)}\n` : renderPlanned(corpus.root, result, stored.plan));
    return 0;
  }
  const code = exitCodeFor(result.manifest);
  // A run that is not done says why on stderr (also with --json): exit 1.
  if (code !== 0) ctx.err.write(`${failureLine(result.manifest)}\n`);
  if (values.json) {
    ctx.out.write(`${JSON.stringify({ runId: result.runId, runDir: result.runDir, reportPath: result.reportPath, manifest: result.manifest, usage: stored.usage ?? null }, null, 2)}\n`);
    return code;
  }
  const rows = (stored.plan?.steps ?? []).map((st) => {
    const r = stored.steps.get(st.step_id);
    const u = stored.usage?.byStep[`execute/${st.step_id}`];
    return [st.step_id, result.manifest.steps[st.step_id] ?? '-', String(r?.findings.length ?? 0), String(r?.sources.length ?? 0), String(r?.rounds ?? 0), u ? String(u.promptTokens + u.completionTokens) : '0', st.goal];
  });
  const phases = Object.entries(stored.usage?.byPhase ?? {}).map(([p, u]) => `${p} ${u.promptTokens + u.completionTokens}`);
  const engineLabel = result.manifest.engine === 'extractive' ? 'extractive (no model)' : `${result.manifest.engine} ${result.manifest.model}`;
  const lines = [
    `run: ${result.runDir}`,
    `goal: ${result.manifest.goal}`,
    `complexity: ${result.manifest.complexity} · engine: ${engineLabel} · status: ${result.manifest.status}`,
    '',
    table(['step', 'status', 'findings', 'sources', 'rounds', 'tokens', 'goal'], rows, 60),
    '',
    `tokens per phase: ${phases.length ? phases.join(', ') : result.manifest.engine === 'extractive' ? '0 (extractive)' : '0'}`,
  ];
  if (result.manifest.dedup) lines.push(`epic findings: ${result.manifest.dedup.findings_before} → ${result.manifest.dedup.findings_after}; cross-phase duplicates ${(result.manifest.dedup.cross_phase_rate_before * 100).toFixed(1)} % → ${(result.manifest.dedup.rate_after * 100).toFixed(1)} %`);
  lines.push(`citations: ${stored.sources?.citations.length ?? 0} resolved${result.manifest.removed_citations?.length ? `, ${result.manifest.removed_citations.length} unresolvable removed` : ''}`);
  const support = result.manifest.finding_support;
  if (support && (support.unsupported || support.unsourced)) lines.push(`findings not supported by their cited spans: ${support.unsupported} of ${support.checked}${support.unsourced ? `; citing no source: ${support.unsourced}` : ''} (kept, marked in the report)`);
  if (result.manifest.fallback_report) lines.push(`report is a FALLBACK (not written by the model): ${result.manifest.fallback_report}`);
  lines.push(`report: ${result.reportPath ?? '(none)'}`);
  ctx.out.write(`${lines.join('\n')}\n`);
  return code;
}

/**
 * At most one of `--plan`, `--resume`, `--run`; `--plan-only` plans a new run; `--items` scopes
 * planning (a stored or given plan names its own items).
 * @throws UsageError naming the flags that cannot go together.
 */
function checkCombinations(values: { plan?: string | undefined; resume?: string | undefined; run?: string | undefined; items?: string | undefined; 'plan-only'?: boolean | undefined }): void {
  const given = (['plan', 'resume', 'run'] as const).filter((k) => values[k] !== undefined).map((k) => `--${k}`);
  if (given.length > 1) throw new UsageError(`${given.join(' and ')} cannot be combined`);
  if (values['plan-only'] && (values.resume !== undefined || values.run !== undefined)) {
    throw new UsageError(`--plan-only plans a new run and cannot be combined with ${values.run !== undefined ? '--run' : '--resume'}`);
  }
  if (values.items !== undefined && given.length) throw new UsageError(`--items scopes the planning of a new run; the plan of ${given[0]} names its own items (edit plan.json to change them)`);
}

/**
 * `flag RUN_ID` names a run of this corpus.
 * @throws UsageError naming the runs folder and the newest runs there (or saying there are none).
 */
async function checkRunId(root: string, runId: string, flag: '--resume' | '--run'): Promise<void> {
  let exists: boolean;
  try {
    exists = await runExists(root, runId);
  } catch (e) {
    if (e instanceof RunStoreError) throw new UsageError(`${flag}: ${e.message.replace(/^research: /, '')}`);
    throw e;
  }
  if (exists) return;
  const runs = await listRuns(root).catch(() => []);
  const known = runs.length
    ? `the runs there, newest first: ${runs.slice(0, 5).map((r) => `${r.run_id} (${r.status})`).join(', ')}${runs.length > 5 ? ', …' : ''}`
    : `there are no runs yet: start one without ${flag}${flag === '--run' ? ' (--plan-only plans one to review)' : ''}`;
  throw new UsageError(`${flag} ${runId}: no run "${runId}" in ${runsDir(root)}; ${known}`);
}

/** What to do with a run that `--run` refuses, by its status. */
function insteadOfRun(m: RunManifest): string {
  switch (m.status) {
    case 'done':
      return `it has run to the end (report: ${path.join(runDir(m.corpus, m.run_id), 'report.md')}); there is nothing left to run — plan a new run with --plan-only`;
    case 'running':
      return `another process may be running it; if none is, continue it with --resume ${m.run_id}`;
    case 'planned':
      return `it has no plan.json yet (it was interrupted while planning); --resume ${m.run_id} plans it again`;
    default:
      return `--run runs a planned run only; continue this one with --resume ${m.run_id}`;
  }
}

/**
 * `--run RUN_ID` names a planned run of this corpus with a plan.json that parses.
 * @throws UsageError (exit 2): an unknown run; a run that is not planned, saying its status and
 * what to use instead; a plan.json that is not valid JSON or not a plan, naming the file.
 */
async function checkPlanned(root: string, runId: string): Promise<void> {
  await checkRunId(root, runId, '--run');
  const planFile = path.join(runDir(root, runId), 'plan.json');
  let stored: Awaited<ReturnType<typeof readRun>>;
  try {
    stored = await readRun(root, runId);
  } catch (e) {
    if (e instanceof RunStoreError && e.reason === 'invalid-file' && e.message.includes(planFile)) throw new UsageError(`--run ${runId}: ${e.message.replace(/^research: /, '')}; fix the file and run again`);
    throw e;
  }
  const m = stored.manifest;
  if (m.status !== 'planned' || !stored.plan) throw new UsageError(`--run ${runId}: run "${runId}" is ${m.status}, not planned: ${insteadOfRun({ ...m, corpus: root })}`);
}

/**
 * Runs planned run `runId` (checked by {@link checkPlanned}): its plan.json, possibly edited, is
 * validated against the corpus as strictly as `--plan FILE` (unknown item ids, unsafe or
 * duplicate step ids are refused, not renamed), then every step it lists runs.
 * @throws UsageError naming plan.json when the edited plan does not validate (the run stays planned).
 */
async function runPlanned(research: ResearchContext, runId: string): Promise<RunResult> {
  const stored = await readRun(research.corpus.root, runId);
  const planFile = path.join(stored.dir, 'plan.json');
  // Quiet: the run itself logs what validation corrects (dropped unknown marker ids).
  const session = await openSession({ ...research, log: nullLogger });
  try {
    validatePlan(session, stored.plan);
  } catch (e) {
    throw new UsageError(`--run ${runId}: ${planFile}: ${(e as Error).message.replace(/^research: plan: /, '')}; fix the file and run again`);
  }
  return resumeResearch(research, runId);
}

/**
 * The exit code of `research`: 0 only for a `done` run (or one stopped after planning); 1 for
 * `partial`, `failed` and `cancelled` runs.
 */
export function exitCodeFor(manifest: Pick<RunManifest, 'status'>): number {
  return manifest.status === 'done' || manifest.status === 'planned' ? 0 : 1;
}

/** "marker-research research: run 2024… partial: 1 of 3 steps failed (s2): <cause>". */
export function failureLine(manifest: Pick<RunManifest, 'run_id' | 'status' | 'error'>): string {
  return `marker-research research: run ${manifest.run_id} ${manifest.status}: ${manifest.error ?? 'no cause recorded'}`;
}
