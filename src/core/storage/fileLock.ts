/**
 * A short exclusive lock on one state file, across processes: `<file>.lock` holds the pid, host and
 * time of the holder (the approach of the research run lock, src/core/research/runLock.ts). The
 * lock file is created atomically (`wx`); a writer that finds it waits (a bounded number of short
 * pauses) for the holder to finish. A lock left by a dead process (same host, pid gone — or this
 * pid but not a lock this process holds) is taken over; an unreadable lock file older than ten
 * seconds too (its writer died between create and write).
 *
 * For read-compare-write sections that take milliseconds (a compare-and-swap of a marker file):
 * callers hold it around the check and the rename, never around slow work.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from '../util/pidAlive';
import { isNotFound } from './readPool';
import { checkStatePath, readStateFile } from './safePath';

/** What a lock file says. */
export interface FileLockInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Distinguishes the locks of one process. */
  token: string;
}

/** The lock of a file stayed held by another live writer for all the waits. */
export class FileLockedError extends Error {
  readonly code = 'EFILELOCKED';
  constructor(
    readonly file: string,
    readonly holder: FileLockInfo | undefined,
  ) {
    super(
      holder
        ? `${file}: another writer (pid ${holder.pid} on ${holder.host}, since ${holder.since}) holds its lock ${file}.lock; try again when it has finished (a lock of a process that no longer exists is taken over)`
        : `${file}: its lock ${file}.lock is held by another writer; try again in a moment`,
    );
    this.name = 'FileLockedError';
  }
}

/** Pauses before giving up: 2 ms doubling to 50 ms, about 20 s in all. */
const WAITS = 400;
const FIRST_WAIT_MS = 2;
const LONGEST_WAIT_MS = 50;
/** An unparseable lock file is stale once it is this old. */
const UNREADABLE_STALE_MS = 10_000;

/** Tokens of the locks this process holds. */
const held = new Set<string>();

/** The lock file of `file`. */
export function fileLockPath(file: string): string {
  return `${file}.lock`;
}

function parseLock(text: string): FileLockInfo | undefined {
  try {
    const v = JSON.parse(text) as Partial<FileLockInfo>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || typeof v.host !== 'string' || typeof v.since !== 'string' || typeof v.token !== 'string') return undefined;
    return { pid: v.pid, host: v.host, since: v.since, token: v.token };
  } catch {
    return undefined;
  }
}

function isStale(info: FileLockInfo): boolean {
  if (info.host !== hostname()) return false;
  if (info.pid === process.pid) return !held.has(info.token);
  return !pidAlive(info.pid);
}

/** Creates the lock file; its real path, or undefined when it exists already. */
async function tryCreate(lock: string, info: FileLockInfo): Promise<string | undefined> {
  const target = await checkStatePath(lock, { create: true });
  let handle;
  try {
    handle = await open(target.real, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw e;
  }
  try {
    await handle.writeFile(`${JSON.stringify(info)}\n`);
  } finally {
    await handle.close();
  }
  return target.real;
}

async function readLock(lock: string): Promise<{ info: FileLockInfo | undefined; ageMs: number } | undefined> {
  try {
    const text = await readStateFile(lock, 'utf8');
    const st = await stat((await checkStatePath(lock)).real);
    return { info: parseLock(text), ageMs: Date.now() - st.mtimeMs };
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Moves a stale lock aside (only one taker's rename finds it); puts it back when it turns out to be a live one. */
async function takeOver(lock: string, stale: FileLockInfo | undefined): Promise<void> {
  const real = (await checkStatePath(lock)).real;
  const aside = `${real}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(real, aside);
  } catch (e) {
    if (isNotFound(e)) return;
    throw e;
  }
  const moved = parseLock(await readStateFile(aside, 'utf8').catch(() => ''));
  if (stale && moved && moved.token !== stale.token && !isStale(moved)) {
    // A faster taker's fresh lock was moved: put it back (unless yet another appeared).
    await rename(aside, real).catch(() => undefined);
    return;
  }
  await rm(aside, { force: true });
}

async function acquire(file: string): Promise<{ info: FileLockInfo; real: string }> {
  const lock = fileLockPath(file);
  const info: FileLockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  let holder: FileLockInfo | undefined;
  for (let wait = 0; wait <= WAITS; wait++) {
    const real = await tryCreate(lock, info);
    if (real !== undefined) {
      held.add(info.token);
      return { info, real };
    }
    const current = await readLock(lock);
    if (!current) continue; // released meanwhile
    holder = current.info;
    const stale = current.info ? isStale(current.info) : current.ageMs > UNREADABLE_STALE_MS;
    if (stale) {
      await takeOver(lock, current.info);
      continue;
    }
    await sleep(Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(wait, 10)));
  }
  throw new FileLockedError(file, holder);
}

/**
 * Removes a held lock. A live lock is never taken over (a parseable lock is stale only when its
 * process is gone, or is this process without holding it), so the file is still ours.
 */
async function release(real: string, token: string): Promise<void> {
  try {
    await rm(real, { force: true });
  } finally {
    // Only now: a waiter of this process that read the file meanwhile must not take it for a stale lock.
    held.delete(token);
  }
}

/**
 * Runs `fn` holding the lock of `file` (see the module comment); the lock is released when `fn`
 * settles, also when it throws.
 * @throws FileLockedError when another live writer held the lock through every wait.
 * @throws UnsafeStatePathError when the lock file or a folder above it is a symbolic link.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const { info, real } = await acquire(file);
  try {
    return await fn();
  } finally {
    await release(real, info.token);
  }
}
