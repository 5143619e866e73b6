/**
 * Persistence of research runs: `<corpus>/.marker-research/runs/<run-id>/` with `run.json`
 * (the manifest), `goals.json`, `plan.json`, `steps/<step_id>.json`, `requests_log.jsonl`,
 * `usage.json`, `report.md` and `report.sources.json`. Every file is written atomically;
 * writes of one run go through a queue so parallel steps never interleave.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { writeFileAtomic } from '../storage/atomic';
import {
  goalSchema,
  planSchema,
  reportSourcesSchema,
  requestLogEntrySchema,
  runManifestSchema,
  runUsageSchema,
  stepResultSchema,
  type Goal,
  type Plan,
  type ReportSources,
  type RequestLogEntry,
  type RunManifest,
  type RunUsage,
  type StepResult,
} from './schema';
import { z } from 'zod';

/** Where the runs of the corpus at `root` live. */
export function runsDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'runs');
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,80}$/;

/** A new run id: `YYYYMMDD-HHMMSS-xxxx`. */
export function newRunId(now = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}-${randomBytes(2).toString('hex')}`;
}

/** The folder of a run; throws on an id that could leave the runs folder. */
export function runDir(root: string, runId: string): string {
  if (!RUN_ID.test(runId)) throw new Error(`research: invalid run id "${runId.slice(0, 80)}"`);
  return path.join(runsDir(root), runId);
}

/** A step id as a file name (step ids come from the model: anything unsafe is replaced). */
export function stepFileName(stepId: string): string {
  const safe = stepId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'step';
  return `${safe}.json`;
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 1)}\n`;

/** Writes the files of one run; every write is atomic and queued behind the previous one. */
export class RunWriter {
  #queue: Promise<unknown> = Promise.resolve();
  constructor(readonly dir: string) {}

  #write(file: string, data: string): Promise<void> {
    const next = this.#queue.then(() => writeFileAtomic(path.join(this.dir, file), data));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  manifest(m: RunManifest): Promise<void> {
    return this.#write('run.json', json(runManifestSchema.parse({ ...m, updated_at: new Date().toISOString() })));
  }
  goals(goals: Goal[]): Promise<void> {
    return this.#write('goals.json', json({ goals }));
  }
  plan(plan: Plan): Promise<void> {
    return this.#write('plan.json', json(planSchema.parse(plan)));
  }
  step(result: StepResult): Promise<void> {
    return this.#write(path.join('steps', stepFileName(result.step_id)), json(stepResultSchema.parse(result)));
  }
  requests(entries: readonly RequestLogEntry[]): Promise<void> {
    return this.#write('requests_log.jsonl', entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : ''));
  }
  usage(usage: RunUsage): Promise<void> {
    return this.#write('usage.json', json(usage));
  }
  report(markdown: string, sources: ReportSources): Promise<void> {
    return this.#write('report.sources.json', json(sources)).then(() => this.#write('report.md', markdown));
  }
  extra(file: string, value: unknown): Promise<void> {
    return this.#write(file, json(value));
  }
  /** Resolves when every queued write has finished. */
  flush(): Promise<unknown> {
    return this.#queue;
  }
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`research: ${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Everything stored of a run. */
export interface StoredRun {
  dir: string;
  manifest: RunManifest;
  goals: Goal[];
  plan: Plan | undefined;
  /** Step results by step id (finished and failed ones). */
  steps: Map<string, StepResult>;
  requests: RequestLogEntry[];
  usage: RunUsage | undefined;
  report: string | undefined;
  sources: ReportSources | undefined;
}

/**
 * Reads a stored run.
 * @throws Error (`research: …`) when the run does not exist or a file is invalid.
 */
export async function readRun(root: string, runId: string): Promise<StoredRun> {
  const dir = runDir(root, runId);
  const manifest = await readJson(path.join(dir, 'run.json'), runManifestSchema);
  if (!manifest) throw new Error(`research: no run "${runId}" in ${runsDir(root)}`);
  const goals = (await readJson(path.join(dir, 'goals.json'), z.object({ goals: z.array(goalSchema) })))?.goals ?? [];
  const plan = await readJson(path.join(dir, 'plan.json'), planSchema);
  const steps = new Map<string, StepResult>();
  const files = await readdir(path.join(dir, 'steps')).catch(() => [] as string[]);
  for (const f of files.filter((f) => f.endsWith('.json')).sort()) {
    const s = await readJson(path.join(dir, 'steps', f), stepResultSchema);
    if (s) steps.set(s.step_id, s);
  }
  const requests: RequestLogEntry[] = [];
  const log = await readFile(path.join(dir, 'requests_log.jsonl'), 'utf8').catch(() => '');
  for (const line of log.split('\n')) {
    if (!line.trim()) continue;
    const e = requestLogEntrySchema.safeParse(JSON.parse(line));
    if (e.success) requests.push(e.data);
  }
  const usage = await readJson(path.join(dir, 'usage.json'), runUsageSchema);
  const report = await readFile(path.join(dir, 'report.md'), 'utf8').catch(() => undefined);
  const sources = await readJson(path.join(dir, 'report.sources.json'), reportSourcesSchema);
  return { dir, manifest, goals, plan, steps, requests, usage, report, sources };
}

/** Manifests of every run of the corpus at `root`, newest first (unreadable runs are skipped). */
export async function listRuns(root: string): Promise<RunManifest[]> {
  const names = await readdir(runsDir(root)).catch(() => [] as string[]);
  const out: RunManifest[] = [];
  for (const n of names) {
    if (!RUN_ID.test(n)) continue;
    const m = await readJson(path.join(runsDir(root), n, 'run.json'), runManifestSchema).catch(() => undefined);
    if (m) out.push(m);
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
