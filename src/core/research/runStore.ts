/**
 * Persistence of research runs: `<corpus>/.marker-research/runs/<run-id>/` with `run.json`
 * (the manifest), `goals.json`, `plan.json`, `steps/<step_id>.json`, `requests_log.jsonl`,
 * `usage.json`, `report.md` and `report.sources.json`. Every file is written atomically;
 * writes of one run go through a queue so parallel steps never interleave.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { writeFileAtomic } from '../storage/atomic';
import { checkStatePath, readStateDir, readStateFile } from '../storage/safePath';
import { FileWriteError } from '../storage/writeError';
import type { Logger } from '../util/log';
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

/** Why a stored run cannot be read: no such run, an id that is not a run id, a file that is not valid, no run.json. */
export class RunStoreError extends Error {
  constructor(
    readonly reason: 'not-found' | 'invalid-id' | 'invalid-file' | 'no-manifest',
    message: string,
  ) {
    super(message);
    this.name = 'RunStoreError';
  }
}

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
  if (!RUN_ID.test(runId)) throw new RunStoreError('invalid-id', `research: invalid run id "${runId.slice(0, 80)}" (run ids are letters, digits, "-" and "_", like 20240101-120000-ab12)`);
  return path.join(runsDir(root), runId);
}

/** What a stored id (step id → `steps/<id>.json`) may look like. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_ID = 80;

/**
 * THE sanitiser of stored ids (step ids come from the model or the user and become file names).
 * Every id comes out safe ({@link SAFE_ID}), unique — also ignoring case, so two ids are never one
 * file on a case-insensitive disk — and stable: an id that is already safe and the first of its
 * name keeps its name, and the same input list always gives the same output list.
 */
export function sanitizeIds(raw: readonly string[], fallbackPrefix = 's'): string[] {
  const key = (id: string): string => id.toLowerCase();
  const taken = new Set<string>();
  const out: (string | undefined)[] = raw.map(() => undefined);
  // Safe ids keep their names (first occurrence wins) …
  raw.forEach((id, i) => {
    if (SAFE_ID.test(id) && !taken.has(key(id))) {
      taken.add(key(id));
      out[i] = id;
    }
  });
  // … the others are made safe, then unique with a `_<n>` suffix that fits the length limit.
  raw.forEach((id, i) => {
    if (out[i] !== undefined) return;
    const base = id.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, MAX_ID) || `${fallbackPrefix}${i + 1}`;
    let cand = base;
    for (let k = 2; taken.has(key(cand)); k++) {
      const suffix = `_${k}`;
      cand = `${base.slice(0, MAX_ID - suffix.length)}${suffix}`;
    }
    taken.add(key(cand));
    out[i] = cand;
  });
  return out as string[];
}

/** A stored (sanitised) step id as a file name. */
export function stepFileName(stepId: string): string {
  if (!SAFE_ID.test(stepId)) throw new Error(`research: step id "${stepId.slice(0, 80)}" is not a stored id (ids go through sanitizeIds)`);
  return `${stepId}.json`;
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
  /**
   * The manifest a run ends with (failed, cancelled): written atomically; when that fails for
   * lack of space (the temporary copy needs room), run.json is overwritten in place — truncating
   * it frees its own blocks — so a run never stays `running` on a full disk. Never throws.
   * @returns whether run.json now holds `m`.
   */
  async finalManifest(m: RunManifest): Promise<boolean> {
    try {
      await this.manifest(m);
      return true;
    } catch (e) {
      if (!(e instanceof FileWriteError) || (e.code !== 'ENOSPC' && e.code !== 'EDQUOT')) return false;
    }
    const next = this.#queue.then(async () => {
      const target = await checkStatePath(path.join(this.dir, 'run.json'));
      if (!target.exists) return false;
      // An existing regular file only (no create, no link followed).
      const handle = await open(target.real, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
      try {
        await handle.writeFile(json(runManifestSchema.parse({ ...m, updated_at: new Date().toISOString() })));
      } finally {
        await handle.close();
      }
      return true;
    });
    this.#queue = next.catch(() => undefined);
    return next.catch(() => false);
  }
  /** Resolves when every queued write has finished. */
  flush(): Promise<unknown> {
    return this.#queue;
  }
}

const isMissing = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** A state file's text, or undefined when it does not exist (links and non-files are refused). */
async function readText(file: string): Promise<string | undefined> {
  try {
    return await readStateFile(file, 'utf8');
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RunStoreError('invalid-file', `research: ${file}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RunStoreError('invalid-file', `research: ${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
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
  /** What was corrected while reading (e.g. a run id in run.json that is not its folder's name). */
  warnings: string[];
}

/** A stored run whose manifest may be missing (a run killed before the manifest existed). */
export type StoredRunFiles = Omit<StoredRun, 'manifest'> & { manifest: RunManifest | undefined };

/** The run's id is its folder's name: a manifest that says otherwise is corrected, with a warning. */
function folderWins(m: RunManifest, folder: string, warnings: string[], log?: Logger): RunManifest {
  if (m.run_id === folder) return m;
  const w = `research: run.json of run folder "${folder}" names run id "${m.run_id.slice(0, 80)}"; using the folder name "${folder}"`;
  warnings.push(w);
  log?.warn(w);
  return { ...m, run_id: folder };
}

/** Whether the folder of run `runId` exists. */
export async function runExists(root: string, runId: string): Promise<boolean> {
  try {
    await readStateDir(runDir(root, runId));
    return true;
  } catch (e) {
    if (isMissing(e)) return false;
    throw e;
  }
}

/**
 * Reads every file of a stored run; the manifest may be missing.
 * @throws RunStoreError (`research: …`) when the run folder does not exist or a file is invalid.
 */
export async function readRunFiles(root: string, runId: string, log?: Logger): Promise<StoredRunFiles> {
  const dir = runDir(root, runId);
  if (!(await runExists(root, runId))) throw new RunStoreError('not-found', `research: no run "${runId}" in ${runsDir(root)}`);
  const warnings: string[] = [];
  const m = await readJson(path.join(dir, 'run.json'), runManifestSchema);
  const manifest = m && folderWins(m, runId, warnings, log);
  const goals = (await readJson(path.join(dir, 'goals.json'), z.object({ goals: z.array(goalSchema) })))?.goals ?? [];
  const plan = await readJson(path.join(dir, 'plan.json'), planSchema);
  const steps = new Map<string, StepResult>();
  const files = await readStateDir(path.join(dir, 'steps')).catch((e: unknown) => {
    if (isMissing(e)) return [] as string[];
    throw e;
  });
  for (const f of files.filter((f) => f.endsWith('.json')).sort()) {
    const s = await readJson(path.join(dir, 'steps', f), stepResultSchema);
    if (s) steps.set(s.step_id, s);
  }
  const requests: RequestLogEntry[] = [];
  const log_ = (await readText(path.join(dir, 'requests_log.jsonl'))) ?? '';
  for (const line of log_.split('\n')) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue; // a torn last line
    }
    const e = requestLogEntrySchema.safeParse(v);
    if (e.success) requests.push(e.data);
  }
  const usage = await readJson(path.join(dir, 'usage.json'), runUsageSchema);
  const report = await readText(path.join(dir, 'report.md'));
  const sources = await readJson(path.join(dir, 'report.sources.json'), reportSourcesSchema);
  return { dir, manifest, goals, plan, steps, requests, usage, report, sources, warnings };
}

/**
 * Reads a stored run. Its id is its folder's name (a different `run_id` in run.json is corrected,
 * with a warning in `warnings` and on `log`).
 * @throws RunStoreError (`research: …`) when the run does not exist or a file is invalid.
 */
export async function readRun(root: string, runId: string, log?: Logger): Promise<StoredRun> {
  const files = await readRunFiles(root, runId, log);
  if (!files.manifest) {
    throw new RunStoreError(
      'no-manifest',
      files.plan || files.goals.length
        ? `research: run "${runId}" has no run.json (it was interrupted while planning); resume it (--resume ${runId}) to rebuild it, or start a new run`
        : `research: run "${runId}" has no run.json (it was interrupted before it had a goal or plan); start a new run`,
    );
  }
  return { ...files, manifest: files.manifest };
}

/** Manifests of every run of the corpus at `root`, newest first (unreadable runs are skipped; `run_id` is always the folder name). */
export async function listRuns(root: string, log?: Logger): Promise<RunManifest[]> {
  const names = await readStateDir(runsDir(root)).catch((e: unknown) => {
    if (isMissing(e)) return [] as string[];
    throw e;
  });
  const out: RunManifest[] = [];
  for (const n of names) {
    if (!RUN_ID.test(n)) continue;
    const m = await readJson(path.join(runsDir(root), n, 'run.json'), runManifestSchema).catch(() => undefined);
    // The folder name is the run id (callers read the run back by it).
    if (m) out.push(folderWins(m, n, [], log));
  }
  return out.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
