/**
 * `marker-research research <corpusDir> [--goal "<text>" | --goal auto] [--complexity …] …`:
 * the research pipeline (goals, plan, steps, cited report), offline by default. Generates
 * missing markers first with the same engine; prints the run folder, the steps with their
 * status, tokens per phase and, last, `report: <path>`.
 */
import { readFile } from 'node:fs/promises';
import { loadCorpus } from '../core/corpus/loader';
import { formatProblem } from '../core/corpus/types';
import { createMarkerEngine } from '../core/markers/engineFactory';
import { generateMarkers } from '../core/markers/generate';
import { resumeResearch, runResearch, type ResearchContext, type RunResult } from '../core/research/pipeline';
import { listRuns, readRun, runExists, runsDir, RunStoreError } from '../core/research/runStore';
import { COMPLEXITIES, researchConfigSchema, type Complexity, type ResearchConfigInput, type RunManifest } from '../core/research/schema';
import { consoleLogger } from '../core/util/log';
import { parseCommandArgs, table, UsageError, type CliContext } from './io';
import { writeStatus } from './terminalText';
import { concurrencyOption, intOption, promptsDir, timeoutMsOption } from './markersCommand';

/** Defaults of the research limits (the extension's `markerResearch.*` settings have the same). */
const RESEARCH_DEFAULTS = researchConfigSchema.parse({});

export const RESEARCH_USAGE = `marker-research research <corpusDir> [options]
  --goal TEXT|auto    the research goal, or auto (default): the first discovered goal
  --complexity C      light | medium (default) | deep | epic
  --provider P        extractive (default, no model) | openai | ollama
  --base-url URL      OpenAI-compatible API root (…/v1) or Ollama host
  --model NAME        model name
  --concurrency N     model calls at once, 1–64 (default 4)
  --timeout SECONDS   deadline of one model request (default 120; a timed-out request is retried once)
  --max-followups N   follow-up rounds a step may take to request more content, 0–20 (default ${RESEARCH_DEFAULTS.max_followups_per_step})
  --max-items-per-turn N
                      content items served to a step in one round, 1–50 (default ${RESEARCH_DEFAULTS.max_content_items_per_turn})
  --context-window-limit TOKENS
                      context budget of a step across its rounds, ≥ 200 (default ${RESEARCH_DEFAULTS.context_window_limit});
                      past it whole items are deferred, never cut
  --overview-max-items N
                      items in the marker overview (the most relevant), ≥ 1 (default ${RESEARCH_DEFAULTS.marker_overview_max_items})
  --plan FILE         run this (edited) plan.json instead of planning
  --resume RUN_ID     resume a run from its last finished step
  --json              JSON on stdout
  Runs land in <corpus>/.marker-research/runs/<run-id>/.
  Exit code 0 when the run is done (or stopped after planning); 1 when it is partial (some steps
  failed, or the report is a fallback) or failed (no step succeeded, nothing to research: no items
  or none with readable text) — the cause is printed on stderr and kept in run.json ("error",
  "causes"); 2 for a bad option or an unknown --resume RUN_ID; 3 when a run file cannot be written
  (disk full: the file is named, run.json says failed); 130 when cancelled (the run is left
  "cancelled"). --resume RUN_ID runs the failed steps again.`;

/** Runs the research command. */
export async function researchCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      goal: { type: 'string' }, complexity: { type: 'string', default: 'medium' }, provider: { type: 'string', default: 'extractive' }, 'base-url': { type: 'string' },
      model: { type: 'string' }, concurrency: { type: 'string' }, timeout: { type: 'string' },
      'max-followups': { type: 'string' }, 'max-items-per-turn': { type: 'string' }, 'context-window-limit': { type: 'string' }, 'overview-max-items': { type: 'string' }, plan: { type: 'string' }, resume: { type: 'string' }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError('research: expected exactly one corpus folder');
  const provider = values.provider;
  if (provider !== 'extractive' && provider !== 'openai' && provider !== 'ollama') throw new UsageError('--provider expects extractive, openai or ollama');
  if (provider !== 'extractive' && !values.model) throw new UsageError(`--provider ${provider} needs --model`);
  if (!(COMPLEXITIES as readonly string[]).includes(values.complexity)) throw new UsageError('--complexity expects light, medium, deep or epic');
  if (values.plan && values.resume) throw new UsageError('--plan and --resume cannot be combined');
  const config = researchConfigOptions(values);
  const concurrency = concurrencyOption(values.concurrency);
  const timeoutMs = timeoutMsOption(values.timeout);
  const log = consoleLogger(ctx.err, { level: values.verbose ? 'debug' : 'warn' });
  const corpus = await loadCorpus(positionals[0]!, { signal: ctx.signal });
  if (corpus.problems.some((p) => p.code === 'not-a-folder')) {
    ctx.err.write(`marker-research research: ${positionals[0]}: corpus folder does not exist or is not a folder\n`);
    return 1;
  }
  if (values.resume) await checkResumable(corpus.root, values.resume);
  for (const p of corpus.problems) if (p.severity === 'error' && !values.json) ctx.err.write(`${formatProblem(p)}\n`);
  const { engine, client } = createMarkerEngine(
    { provider, baseUrl: values['base-url'], model: values.model, concurrency, timeoutMs },
    { promptsDir: promptsDir(), apiKey: process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'], log },
  );
  const markers = await generateMarkers(corpus, { engine, signal: ctx.signal, log });
  if (markers.generated) ctx.err.write(`markers: ${markers.generated} generated, ${markers.cached} cached, ${markers.failed} failed\n`);
  const research: ResearchContext = {
    corpus,
    engine: client ?? 'extractive',
    promptsDir: promptsDir(),
    log,
    signal: ctx.signal,
    config,
    onEvent: (e) => {
      if (e.type === 'step') writeStatus(ctx.err, `${e.step_id}: ${e.status}${e.round !== undefined ? ` (round ${e.round + 1})` : ''}`);
      // Planning that fell short is said whatever the terminal (it is also at the top of the report).
      if (e.type === 'notice') {
        writeStatus(ctx.err);
        ctx.err.write(`marker-research research: note: ${e.message}\n`);
      }
    },
  };
  let result: RunResult;
  if (values.resume) result = await resumeResearch(research, values.resume);
  else {
    let plan: unknown;
    if (values.plan) {
      try {
        plan = JSON.parse(await readFile(values.plan, 'utf8'));
      } catch (e) {
        throw new UsageError(`--plan ${values.plan}: ${(e as Error).message}`);
      }
    }
    result = await runResearch(research, { goal: values.goal ?? 'auto', complexity: values.complexity as Complexity, ...(plan !== undefined ? { plan } : {}) });
  }
  writeStatus(ctx.err);
  const stored = await readRun(corpus.root, result.runId);
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
  if (result.manifest.fallback_report) lines.push(`report is a FALLBACK (not written by the model): ${result.manifest.fallback_report}`);
  lines.push(`report: ${result.reportPath ?? '(none)'}`);
  ctx.out.write(`${lines.join('\n')}\n`);
  return code;
}

/**
 * `--resume RUN_ID` names a run of this corpus.
 * @throws UsageError naming the runs folder and the newest runs there (or saying there are none).
 */
async function checkResumable(root: string, runId: string): Promise<void> {
  let exists: boolean;
  try {
    exists = await runExists(root, runId);
  } catch (e) {
    if (e instanceof RunStoreError) throw new UsageError(`--resume: ${e.message.replace(/^research: /, '')}`);
    throw e;
  }
  if (exists) return;
  const runs = await listRuns(root).catch(() => []);
  const known = runs.length ? `the runs there, newest first: ${runs.slice(0, 5).map((r) => `${r.run_id} (${r.status})`).join(', ')}${runs.length > 5 ? ', …' : ''}` : 'there are no runs yet: start one without --resume';
  throw new UsageError(`--resume ${runId}: no run "${runId}" in ${runsDir(root)}; ${known}`);
}

/**
 * The research limits given on the command line (`--max-followups`, `--max-items-per-turn`,
 * `--context-window-limit`, `--overview-max-items`), checked against the ranges of the
 * extension's settings; a flag not given keeps the default.
 * @throws UsageError naming the flag when a value is not a whole number in range.
 */
export function researchConfigOptions(values: Partial<Record<'max-followups' | 'max-items-per-turn' | 'context-window-limit' | 'overview-max-items', string>>): ResearchConfigInput {
  const config: ResearchConfigInput = {};
  const v = (k: keyof typeof values): string | undefined => values[k];
  if (v('max-followups') !== undefined) config.max_followups_per_step = intOption('max-followups', v('max-followups')!, { min: 0, max: 20 });
  if (v('max-items-per-turn') !== undefined) config.max_content_items_per_turn = intOption('max-items-per-turn', v('max-items-per-turn')!, { min: 1, max: 50 });
  if (v('context-window-limit') !== undefined) config.context_window_limit = intOption('context-window-limit', v('context-window-limit')!, { min: 200 });
  if (v('overview-max-items') !== undefined) config.marker_overview_max_items = intOption('overview-max-items', v('overview-max-items')!, { min: 1 });
  return config;
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
