/**
 * One runner per run: `runs/<id>/.lock` holds the pid, host and start time of the process that
 * runs it. The lock file is created atomically (`wx`: fails when it exists); a lock left by a
 * dead process (same host, pid no longer alive — or our own pid but not a lock this process
 * holds, i.e. a previous process that had the same pid) is taken over; any other lock makes the
 * second runner fail with {@link RunLockedError}, which names the holder.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, rename, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { checkStatePath, readStateFile } from '../storage/safePath';
import { pidAlive } from '../util/pidAlive';

/** The content of a lock file. */
export interface RunLockInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  run_id: string;
  /** Distinguishes locks of one process (two runs of one run id in one process are refused too). */
  token: string;
}

/** A second runner on a locked run. */
export class RunLockedError extends Error {
  readonly code = 'ERUNLOCKED';
  constructor(
    readonly runId: string,
    readonly holder: RunLockInfo | undefined,
  ) {
    super(
      holder
        ? `research: run ${runId} is already being run by pid ${holder.pid} on ${holder.host} since ${holder.since}; wait for it to finish or stop that process (a lock of a process that no longer exists is taken over)`
        : `research: run ${runId} is locked by another runner (its lock file is being written); try again in a moment`,
    );
    this.name = 'RunLockedError';
  }
}

/** A held lock; {@link release} removes the lock file (only when it is still ours). */
export interface RunLock {
  readonly file: string;
  readonly info: RunLockInfo;
  release(): Promise<void>;
}

/** Tokens of the locks this process holds. */
const held = new Set<string>();

/** The lock file of the run folder `dir`. */
export function lockFile(dir: string): string {
  return path.join(dir, '.lock');
}

function parseLock(text: string): RunLockInfo | undefined {
  try {
    const v = JSON.parse(text) as Partial<RunLockInfo>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || typeof v.host !== 'string' || typeof v.since !== 'string') return undefined;
    return { pid: v.pid, host: v.host, since: v.since, run_id: typeof v.run_id === 'string' ? v.run_id : '', token: typeof v.token === 'string' ? v.token : '' };
  } catch {
    return undefined;
  }
}

/** Whether a lock was left by a process that is gone (only decidable on the same host). */
function isStale(info: RunLockInfo): boolean {
  if (info.host !== hostname()) return false;
  if (info.pid === process.pid) return !held.has(info.token);
  return !pidAlive(info.pid);
}

/** A lock file that cannot be parsed is stale once it is this old (its writer died between create and write). */
const UNREADABLE_STALE_MS = 10_000;

async function tryCreate(file: string, info: RunLockInfo): Promise<boolean> {
  const target = await checkStatePath(file, { create: true });
  let handle;
  try {
    // `wx` (O_CREAT|O_EXCL): atomic, and never follows a planted link.
    handle = await open(target.real, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    await handle.writeFile(`${JSON.stringify(info)}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

async function readLock(file: string): Promise<{ info: RunLockInfo | undefined; ageMs: number } | undefined> {
  try {
    const text = await readStateFile(file, 'utf8');
    const st = await stat((await checkStatePath(file)).real);
    return { info: parseLock(text), ageMs: Date.now() - st.mtimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Takes the lock of the run folder `dir` (created when missing, as a real folder).
 * @throws RunLockedError when another live process (or this process, for another runner) holds it.
 * @throws UnsafeStatePathError when the lock file or a folder above it is a symbolic link.
 */
export async function acquireRunLock(dir: string, runId: string): Promise<RunLock> {
  const file = lockFile(dir);
  const info: RunLockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), run_id: runId, token: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await tryCreate(file, info)) {
      held.add(info.token);
      return { file, info, release: () => releaseLock(file, info.token) };
    }
    const current = await readLock(file);
    if (!current) continue; // released meanwhile: try again
    const stale = current.info ? isStale(current.info) : current.ageMs > UNREADABLE_STALE_MS;
    if (!stale) throw new RunLockedError(runId, current.info);
    // Take over: move the stale lock aside (atomic; only one taker's rename finds it), then check
    // that what was moved is the stale lock and not a fresh one a faster taker just created.
    const real = (await checkStatePath(file)).real;
    const aside = `${real}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      await rename(real, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const moved = parseLock(await readStateFile(aside, 'utf8').catch(() => ''));
    if (current.info && moved && moved.token !== current.info.token && !isStale(moved)) {
      // We moved a live lock: put it back (unless yet another lock appeared) and give up.
      await rename(aside, real).catch(() => undefined);
      throw new RunLockedError(runId, moved);
    }
    await rm(aside, { force: true });
  }
  throw new RunLockedError(runId, (await readLock(file))?.info);
}

async function releaseLock(file: string, token: string): Promise<void> {
  // The token stays held until the file is gone: a waiter of this process that read our lock
  // meanwhile must not take it for a stale one and replace it just before we remove it.
  try {
    const current = await readLock(file).catch(() => undefined);
    if (current?.info?.token !== token) return; // taken over meanwhile: not ours to remove
    await rm((await checkStatePath(file)).real, { force: true });
  } finally {
    held.delete(token);
  }
}
