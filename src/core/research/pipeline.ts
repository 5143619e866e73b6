/**
 * The research pipeline's entry points (SPEC §4): discover goals, plan, run, resume, list and
 * read runs. A run lives in `<corpus>/.marker-research/runs/<run-id>/` and is written atomically
 * after each step, so a run killed mid-way resumes from its last finished step.
 *
 * @example
 * const ctx = { corpus, engine: 'extractive' as const, promptsDir: 'prompts' };
 * const { runId, reportPath } = await runResearch(ctx, { goal: 'winter range of electric cars' });
 */
import { rm, rmdir } from 'node:fs/promises';
import * as path from 'node:path';
import { isCancellation } from '../llm/types';
import { asFileWriteError } from '../storage/writeError';
import type { Logger } from '../util/log';
import { CancelledError, mapLimit, throwIfAborted } from '../util/abort';
import { dedupeFindings, duplicateRate } from './citations';
import { executeStep, type StepOutcome } from './execute';
import { failureCause, runOutcome, stepFailureSummary } from './failures';
import { citedTexts } from './findingSupport';
import { RetrievalHandler, SourceRegistry } from './handler';
import { goalFromText, goalsPhase, planPhase, validatePlan } from './plan';
import { reviewedCoverage } from './planCoverage';
import { NothingToResearchError, nothingToResearch } from './nothingToResearch';
import { acquireRunLock, lockFile, RunLockedError } from './runLock';
import { listRuns as listStoredRuns, newRunId, readRun as readStoredRun, readRunFiles, runDir as runFolder, runExists, runsDir, RunStoreError, RunWriter, type StoredRun } from './runStore';
import type { Complexity, DedupStats, Goal, Plan, RequestLogEntry, RunFinding, RunManifest, StepResult } from './schema';
import { openSession, type ResearchContext, type Session } from './session';
import { synthesize } from './synthesis';

export type { ResearchContext, ResearchEngine, ResearchEvent } from './session';
export { RunLockedError } from './runLock';
export { ScopeError } from './session';

/** Options of {@link discoverGoals}. */
export interface DiscoverOptions {
  /** At most this many goals (default 5). */
  maxGoals?: number;
}

/**
 * Phase 1: research goals proposed from the marker overview (model), or from topic clusters of
 * markers (extractive). Every goal's item and marker ids exist in the corpus.
 */
export async function discoverGoals(ctx: ResearchContext, opts: DiscoverOptions = {}): Promise<Goal[]> {
  const s = await openSession(ctx);
  s.emit({ type: 'phase', phase: 'goals', status: 'running' });
  const goals = await goalsPhase(s, opts.maxGoals ?? 5);
  s.emit({ type: 'phase', phase: 'goals', status: 'done' });
  return goals;
}

/** Options of {@link planResearch}. */
export interface PlanOptions {
  complexity?: Complexity;
}

/**
 * Phase 2: a validated plan for `goal` (a goal from {@link discoverGoals} or the user's text).
 * Not persisted by itself: pass it (possibly edited) to {@link runResearch} as `plan`.
 */
export async function planResearch(ctx: ResearchContext, goal: Goal | string, opts: PlanOptions = {}): Promise<Plan> {
  const s = await openSession(ctx);
  s.emit({ type: 'phase', phase: 'plan', status: 'running' });
  const plan = await planPhase(s, typeof goal === 'string' ? goalFromText(s, goal) : goal, opts.complexity ?? 'medium');
  s.emit({ type: 'phase', phase: 'plan', status: 'done' });
  return plan;
}

/** Options of {@link runResearch}. */
export interface RunOptions {
  /** The user's goal, a goal object, or `'auto'` (default): the first discovered goal. */
  goal?: string | Goal | 'auto';
  complexity?: Complexity;
  /** An (edited) plan to run instead of planning; validated against the corpus. */
  plan?: unknown;
  /** Use this run id (default: a new `YYYYMMDD-HHMMSS-xxxx`). */
  runId?: string;
  /** Steps run at once (default: every step for epic runs, else 1); model calls are limited by the client's semaphore. */
  stepConcurrency?: number;
  /** Save goals and plan (status `planned`) and return without executing; {@link resumeResearch} runs it. */
  stopAfterPlan?: boolean;
}

/** What a run returns. */
export interface RunResult {
  runId: string;
  runDir: string;
  /** `report.md` (null when stopped after planning). */
  reportPath: string | null;
  manifest: RunManifest;
}

/**
 * Runs research end to end: goals, plan (saved before execution), steps (each saved when it
 * finishes), synthesis. Cancelling through `ctx.signal` throws a `CancelledError` and leaves
 * the run `cancelled`, resumable with {@link resumeResearch}. A run that dies of an error ends
 * `failed` with the cause in run.json; a run folder whose run.json could not even be written is
 * removed.
 * @throws Error (`research: …`) on an invalid plan; CancelledError when cancelled;
 * NothingToResearchError when the corpus has no items or none with readable text (the run is
 * `failed` with that reason); FileWriteError (naming the file) when a run file cannot be written.
 */
export async function runResearch(ctx: ResearchContext, opts: RunOptions = {}): Promise<RunResult> {
  const s = await openSession(ctx);
  const runId = opts.runId ?? newRunId();
  const dir = runFolder(s.corpus.root, runId);
  const complexity = opts.complexity ?? (opts.plan && typeof opts.plan === 'object' ? ((opts.plan as { complexity?: Complexity }).complexity ?? 'medium') : 'medium');
  // An invalid plan is refused before a run folder exists.
  const given = opts.plan !== undefined ? validatePlan(s, opts.plan) : undefined;
  const lock = await acquireRunLock(dir, runId).catch(async (e: unknown) => {
    if (e instanceof RunLockedError) throw e;
    // The folder is this run's, new: what the failed lock left (a file it could not fill, on a full disk) goes with it.
    await rm(lockFile(dir), { force: true }).catch(() => undefined);
    await rmdir(dir).catch(() => undefined);
    throw asFileWriteError(e, lockFile(dir));
  });
  let failed = false;
  try {
    const writer = new RunWriter(dir);
    // The manifest comes first: a run killed while planning is still a run, and resumes.
    const goalText = given ? given.goal : opts.goal === undefined || opts.goal === 'auto' ? '' : typeof opts.goal === 'string' ? opts.goal : opts.goal.title;
    const manifest: RunManifest = {
      run_id: runId,
      created_at: new Date().toISOString(),
      corpus: s.corpus.root,
      goal: goalText,
      complexity: given?.complexity ?? complexity,
      engine: s.engine === 'extractive' ? 'extractive' : s.engine.provider,
      model: s.engine === 'extractive' ? null : s.engine.model,
      status: given ? 'planned' : 'running',
      steps: {},
      report: null,
      ...(ctx.scope ? { scope: [...ctx.scope] } : {}),
    };
    await writer.manifest(manifest);
    const nothing = nothingToResearch(s.corpus);
    if (nothing) throw new NothingToResearchError(nothing);
    let plan: Plan;
    if (given) {
      plan = given;
      await writer.goals([goalFromText(s, plan.goal)]);
    } else {
      s.emit({ type: 'run', run_id: runId, run_dir: dir, status: 'running' });
      s.emit({ type: 'phase', phase: 'goals', status: 'running' });
      let goal: Goal;
      if (opts.goal === undefined || opts.goal === 'auto') {
        const goals = await goalsPhase(s, 5);
        await writer.goals(goals);
        goal = goals[0]!;
      } else {
        goal = typeof opts.goal === 'string' ? goalFromText(s, opts.goal) : opts.goal;
        await writer.goals([goal]);
      }
      s.emit({ type: 'phase', phase: 'goals', status: 'done' });
      plan = await planOnly(s, goal, complexity);
    }
    await planned(s, writer, manifest, plan);
    if (opts.stopAfterPlan) return { runId, runDir: dir, reportPath: null, manifest };
    return await execute(s, writer, manifest, plan, new Map(), [], opts.stepConcurrency);
  } catch (error) {
    failed = true;
    await markInterrupted(s, dir, runId, error);
    throw error;
  } finally {
    await lock.release();
    // A run that failed before its run.json existed leaves no folder without a status (rmdir removes only an empty one).
    if (failed) await rmdir(dir).catch(() => undefined);
  }
}

/** Phase 2, with its events. */
async function planOnly(s: Session, goal: Goal, complexity: Complexity): Promise<Plan> {
  s.emit({ type: 'phase', phase: 'plan', status: 'running' });
  const plan = await planPhase(s, goal, complexity);
  s.emit({ type: 'phase', phase: 'plan', status: 'done' });
  return plan;
}

/** Saves the plan and the manifest that lists its steps (status `planned`). */
async function planned(s: Session, writer: RunWriter, manifest: RunManifest, plan: Plan): Promise<void> {
  manifest.goal = plan.goal;
  manifest.complexity = plan.complexity;
  manifest.status = 'planned';
  manifest.steps = Object.fromEntries(plan.steps.map((st) => [st.step_id, 'pending' as const]));
  await writer.plan(plan);
  await writer.usage(s.usage.data);
  await writer.manifest(manifest);
  s.emit({ type: 'run', run_id: manifest.run_id, run_dir: writer.dir, status: 'planned' });
}

/**
 * A run stopped by an error or a cancel that execution did not record (it records its own end):
 * the manifest says cancelled / failed. A run.json still `running` is always corrected; a
 * `planned` one with its plan stored is a plan to resume and stays.
 */
async function markInterrupted(s: Session, dir: string, runId: string, error: unknown): Promise<void> {
  if (error instanceof RunLockedError) return;
  const stored = await readRunFiles(s.corpus.root, runId).catch(() => undefined);
  const m = stored?.manifest;
  if (!m || !(m.status === 'running' || (m.status === 'planned' && !stored.plan))) return;
  const cancelled = error instanceof CancelledError || isCancellation(error) || s.signal?.aborted;
  const out: RunManifest = { ...m, status: cancelled ? 'cancelled' : 'failed', error: cancelled ? 'cancelled while planning' : failureCause(error) };
  await new RunWriter(dir).finalManifest(out);
  s.emit({ type: 'run', run_id: runId, run_dir: dir, status: out.status });
}

/**
 * Resumes a run: finished steps are kept (never redone); pending, failed and interrupted steps
 * run; then the report is written again. A run interrupted while planning is planned again
 * (from its stored goals or goal); a run folder with a plan but no run.json gets its manifest
 * back. One runner at a time: a run that another live process runs is refused.
 * @throws RunLockedError (naming the holder: pid, host, since) when the run is being run.
 * @throws RunStoreError (`research: …`) when the run does not exist; Error (`research: …`) when it cannot be resumed.
 */
export async function resumeResearch(ctx: ResearchContext, runId: string, opts: Pick<RunOptions, 'stepConcurrency'> = {}): Promise<RunResult> {
  const dir = runFolder(ctx.corpus.root, runId);
  // Checked before locking: locking creates the folder.
  if (!(await runExists(ctx.corpus.root, runId))) throw new RunStoreError('not-found', `research: no run "${runId}" in ${runsDir(ctx.corpus.root)}`);
  const lock = await acquireRunLock(dir, runId).catch((e: unknown) => {
    throw e instanceof RunLockedError ? e : asFileWriteError(e, lockFile(dir));
  });
  let s: Session | undefined;
  try {
    const stored = await readRunFiles(ctx.corpus.root, runId, ctx.log);
    // A scoped run stays in its scope (planning again, it plans within it).
    const known = new Set(ctx.corpus.items.map((i) => i.id));
    const stale = (stored.manifest?.scope ?? []).filter((id) => !known.has(id));
    if (stale.length) ctx.log?.warn(`research: ${stale.length} item(s) of run ${runId}'s scope are no longer in the corpus: ${stale.slice(0, 5).join(', ')}`);
    const scope = ctx.scope ?? stored.manifest?.scope?.filter((id) => known.has(id));
    s = await openSession(scope ? { ...ctx, scope } : ctx, stored.usage);
    const writer = new RunWriter(stored.dir);
    let plan: Plan;
    let manifest: RunManifest;
    let steps = stored.steps;
    if (stored.plan) {
      const parsed = stored.plan;
      plan = validatePlan(s, parsed, { renameIds: true });
      // Ids the sanitiser renamed (a plan stored by an older version): stored results follow.
      const renamed = new Map(parsed.steps.map((st, i) => [st.step_id, plan.steps[i]!.step_id]));
      if ([...renamed].some(([a, b]) => a !== b)) {
        steps = new Map([...stored.steps].map(([id, r]) => [renamed.get(id) ?? id, { ...r, step_id: renamed.get(id) ?? id }]));
        await writer.plan(plan);
      }
      manifest = stored.manifest ? { ...stored.manifest } : rebuiltManifest(s, runId, plan);
      if (!stored.manifest) s.log.warn(`research: run ${runId} had no run.json (interrupted while planning); rebuilt it from plan.json`);
      if (!stored.manifest) await planned(s, writer, manifest, plan);
    } else {
      // Interrupted while planning: plan again from what was stored.
      const m = stored.manifest;
      const goal = stored.goals[0] ?? (m?.goal ? goalFromText(s, m.goal) : undefined);
      if (!m && !goal) throw new Error(`research: run "${runId}" was interrupted before it had a goal or plan; start a new run`);
      manifest = m ? { ...m } : rebuiltManifest(s, runId, { goal: goal!.title, complexity: 'medium', steps: [] });
      manifest.status = 'running';
      await writer.manifest(manifest);
      s.log.info(`research: resuming ${runId}: it was interrupted while planning; planning again`);
      let g = goal;
      if (!g) {
        const goals = await goalsPhase(s, 5);
        await writer.goals(goals);
        g = goals[0]!;
      }
      plan = await planOnly(s, g, manifest.complexity);
      await planned(s, writer, manifest, plan);
    }
    const done = new Map([...steps].filter(([, r]) => r.status === 'done'));
    for (const st of plan.steps) if (!done.has(st.step_id)) s.usage.resetStep('execute', st.step_id);
    const kept = stored.requests.filter((e) => done.has(e.step_id));
    s.log.info(`research: resuming ${runId}: ${done.size} of ${plan.steps.length} steps already done`);
    return await execute(s, writer, manifest, plan, done, kept, opts.stepConcurrency);
  } catch (error) {
    if (s) await markInterrupted(s, dir, runId, error);
    throw error;
  } finally {
    await lock.release();
  }
}

/** A manifest for a run folder that lost (never got) its run.json. */
function rebuiltManifest(s: Session, runId: string, plan: Pick<Plan, 'goal' | 'complexity' | 'steps'>): RunManifest {
  return {
    run_id: runId,
    created_at: new Date().toISOString(),
    corpus: s.corpus.root,
    goal: plan.goal,
    complexity: plan.complexity,
    engine: s.engine === 'extractive' ? 'extractive' : s.engine.provider,
    model: s.engine === 'extractive' ? null : s.engine.model,
    status: 'cancelled',
    steps: Object.fromEntries(plan.steps.map((st) => [st.step_id, 'pending' as const])),
    report: null,
  };
}

/** Phase 3 and synthesis, with persistence after every step. */
async function execute(s: Session, writer: RunWriter, manifest: RunManifest, plan: Plan, done: Map<string, StepResult>, log: RequestLogEntry[], stepConcurrency?: number): Promise<RunResult> {
  const registry = new SourceRegistry([...done.values()].flatMap((r) => r.sources));
  const handler = new RetrievalHandler(s.corpus, s.markers, s.config, registry, s.builtIndex());
  const results = new Map(done);
  manifest.status = 'running';
  // A resumed partial / failed run starts clean: what it says at the end is about this attempt.
  delete manifest.error;
  delete manifest.failed_steps;
  delete manifest.causes;
  delete manifest.fallback_report;
  delete manifest.finding_support;
  // The manifest lists exactly the plan's (stored, sanitised) step ids.
  manifest.steps = Object.fromEntries(plan.steps.map((st) => [st.step_id, done.has(st.step_id) ? ('done' as const) : ('pending' as const)]));
  await writer.manifest(manifest);
  s.emit({ type: 'run', run_id: manifest.run_id, run_dir: writer.dir, status: 'running' });
  for (const st of plan.steps) s.emit({ type: 'step', step_id: st.step_id, status: done.has(st.step_id) ? 'done' : 'pending', ...(st.phase_name ? { phase_name: st.phase_name } : {}) });
  const todo = plan.steps.filter((st) => !done.has(st.step_id));
  let finished = done.size;
  const save = async (out: StepOutcome): Promise<void> => {
    results.set(out.result.step_id, out.result);
    log.push(...out.entries);
    manifest.steps[out.result.step_id] = out.result.status;
    await writer.step(out.result);
    await writer.requests(log);
    await writer.usage(s.usage.data);
    await writer.manifest(manifest);
    s.ctx.onProgress?.({ done: ++finished, total: plan.steps.length, message: out.result.step_id });
  };
  try {
    s.emit({ type: 'phase', phase: 'execute', status: 'running' });
    const limit = stepConcurrency ?? (plan.complexity === 'epic' ? todo.length : 1);
    await mapLimit(
      todo,
      Math.max(1, limit),
      async (st) => {
        manifest.steps[st.step_id] = 'running';
        await save(await executeStep(s, st, handler, plan.goal));
      },
      s.signal,
    );
    s.emit({ type: 'phase', phase: 'execute', status: 'done' });
    throwIfAborted(s.signal);

    // Findings of every finished step; epic: de-duplicated within each phase, then across phases.
    const all: RunFinding[] = plan.steps.flatMap((st) => (results.get(st.step_id)?.findings ?? []).map((f) => ({ ...f, step_id: st.step_id, ...(st.phase_name ? { phase_name: st.phase_name } : {}) })));
    let findings: RunFinding[];
    if (plan.complexity === 'epic' || plan.phases?.length) {
      const { findings: deduped, stats } = dedupeEpic(all);
      findings = deduped;
      manifest.dedup = stats;
      s.log.info(`research: epic findings ${stats.findings_before} → ${stats.findings_after}; cross-phase duplicates ${(stats.cross_phase_rate_before * 100).toFixed(1)} % → ${(stats.rate_after * 100).toFixed(1)} %`);
    } else findings = dedupeFindings(all, 0.8);

    // The run's status tells the truth: done only when every step did and the model wrote the report.
    const stepIds = plan.steps.map((st) => st.step_id);
    const stepFailure = stepFailureSummary(stepIds, results);
    const anyDone = stepIds.some((id) => results.get(id)?.status === 'done');
    s.emit({ type: 'phase', phase: 'synthesis', status: 'running' });
    const coverage = { notCovered: reviewedCoverage(plan), deferred: plan.steps.flatMap((st) => results.get(st.step_id)?.deferred ?? []), ...(plan.scope_item_ids ? { scopeSize: plan.scope_item_ids.length } : {}) };
    const report = await synthesize(s, plan, findings, handler, { runId: manifest.run_id, ...(stepFailure ? { stepFailure: stepFailure.text } : {}), skipModel: !anyDone, coverage });
    await writer.report(report.markdown, report.sources);
    const reportPath = path.join(writer.dir, 'report.md');
    // Findings checked against their spans (model runs): counted; all of them citing nothing makes the run partial.
    const unsourced = findings.filter((f) => f.support?.status === 'unsourced' || !citedTexts(f.source_ids, handler).length).length;
    if (s.engine !== 'extractive') manifest.finding_support = { checked: findings.length, unsupported: findings.filter((f) => f.support?.status === 'unsupported').length, unsourced };
    const outcome = runOutcome(stepIds, results, anyDone ? report.fallback : undefined, { total: findings.length, unsourced });
    manifest.report = 'report.md';
    manifest.status = outcome.status;
    if (outcome.error) manifest.error = outcome.error;
    if (outcome.failed_steps) manifest.failed_steps = outcome.failed_steps;
    if (outcome.causes?.length) manifest.causes = outcome.causes;
    if (report.fallback) manifest.fallback_report = report.fallback;
    manifest.removed_citations = report.removed;
    if (outcome.status !== 'done') s.log.error(`research: run ${manifest.run_id} ${outcome.status}: ${outcome.error ?? ''}`);
    await writer.usage(s.usage.data);
    await writer.manifest(manifest);
    await writer.flush();
    s.emit({ type: 'phase', phase: 'synthesis', status: 'done' });
    s.emit({ type: 'report', path: reportPath });
    s.emit({ type: 'run', run_id: manifest.run_id, run_dir: writer.dir, status: manifest.status });
    return { runId: manifest.run_id, runDir: writer.dir, reportPath, manifest };
  } catch (error) {
    const cancelled = error instanceof CancelledError || isCancellation(error) || s.signal?.aborted;
    manifest.status = cancelled ? 'cancelled' : 'failed';
    manifest.error = cancelled ? 'cancelled' : failureCause(error);
    if (!cancelled) manifest.causes = [manifest.error];
    for (const [id, st] of Object.entries(manifest.steps)) if (st === 'running' || st === 'retrieving') manifest.steps[id] = 'pending';
    await writer.flush();
    await writer.usage(s.usage.data).catch(() => undefined);
    await writer.finalManifest(manifest);
    s.emit({ type: 'run', run_id: manifest.run_id, run_dir: writer.dir, status: manifest.status });
    throw cancelled && !(error instanceof CancelledError) ? new CancelledError('research: cancelled') : error;
  }
}

/** Threshold of claim similarity at which two findings count as the same. */
export const DEDUP_THRESHOLD = 0.6;

/**
 * De-duplicates an epic run's findings within each phase, then across phases, and measures the
 * duplicate rate before and after (at {@link DEDUP_THRESHOLD}).
 */
export function dedupeEpic(all: readonly RunFinding[], threshold = DEDUP_THRESHOLD): { findings: RunFinding[]; stats: DedupStats } {
  const phases = [...new Set(all.map((f) => f.phase_name ?? ''))];
  let withinDup = 0;
  const within: RunFinding[] = [];
  for (const p of phases) {
    const group = all.filter((f) => (f.phase_name ?? '') === p);
    withinDup += duplicateRate(group, threshold) * group.length;
    within.push(...dedupeFindings(group, threshold));
  }
  const crossBefore = duplicateRate(within, threshold, (f) => f.phase_name);
  const findings = dedupeFindings(within, threshold);
  return {
    findings,
    stats: {
      threshold,
      findings_before: all.length,
      within_phase_rate_before: all.length ? withinDup / all.length : 0,
      cross_phase_rate_before: crossBefore,
      findings_after: findings.length,
      rate_after: duplicateRate(findings, threshold),
    },
  };
}

/** Manifests of the runs of the corpus at `root`, newest first. */
export function listRuns(root: string, log?: Logger): Promise<RunManifest[]> {
  return listStoredRuns(root, log);
}

/**
 * Everything stored of a run: manifest, goals, plan, step results, request log, usage, report
 * and its sources.
 * @throws Error (`research: …`) when the run does not exist.
 */
export function readRun(root: string, runId: string, log?: Logger): Promise<StoredRun> {
  return readStoredRun(root, runId, log);
}

export type { StoredRun } from './runStore';
