/**
 * Exclusive locks on state files, across processes: a lock file (`<file>.lock` for
 * {@link withFileLock}; the research run lock and the chats lock name their own) holds the pid,
 * host and time of the holder. It is created atomically (`wx`: never follows a planted link); a
 * lock left by a dead process (same host, pid gone — or this pid but not a lock this process
 * holds) is taken over; an unreadable lock file older than ten seconds too (its writer died
 * between create and write). {@link tryLock} makes one attempt and names the holder when it
 * fails; {@link withFileLock} waits its turn (a bounded number of short pauses).
 *
 * A killed process leaves its locks, also beside files no later writer touches: when a lock of a
 * process that no longer exists is found, the stale locks of its whole folder are removed
 * ({@link sweepStaleLocks}; a marker run also sweeps the markers folder when it starts). A lock
 * of a live process, or of another host, is never removed.
 *
 * For read-compare-write sections that take milliseconds (a compare-and-swap of a marker file,
 * appending a chat turn): callers hold it around the check and the write, never around slow work.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from '../util/pidAlive';
import { isNotFound } from './readPool';
import { checkStatePath, readStateFile } from './safePath';
import { asFileWriteError } from './writeError';

/** What a lock file says (a lock may carry fields of its own beside these, e.g. the run's id). */
export interface FileLockInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Distinguishes the locks of one process ('' in a lock file written without one). */
  token: string;
  [field: string]: string | number;
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
    const v = JSON.parse(text) as Record<string, unknown>;
    if (typeof v['pid'] !== 'number' || !Number.isInteger(v['pid']) || typeof v['host'] !== 'string' || typeof v['since'] !== 'string') return undefined;
    const extra = Object.fromEntries(Object.entries(v).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
    return { ...extra, pid: v['pid'], host: v['host'], since: v['since'], token: typeof v['token'] === 'string' ? v['token'] : '' };
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
    throw asFileWriteError(e, lock);
  }
  try {
    await handle.writeFile(`${JSON.stringify(info)}\n`);
  } catch (e) {
    // No room for the holder's line (disk full): no half lock is left behind.
    await handle.close().catch(() => undefined);
    handle = undefined;
    await rm(target.real, { force: true }).catch(() => undefined);
    throw asFileWriteError(e, lock);
  } finally {
    await handle?.close();
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

/** Re-reads of a lock file found without its line (its writer is between creating and writing it): 2 ms doubling to 50 ms, about 0.8 s. */
const UNREADABLE_REREADS = 20;

/**
 * The lock file's holder. A young lock file without a holder's line is read again a bounded number of times: its
 * writer created it and is writing the line, and a refusal should name that writer (under load the gap is long).
 */
async function readHolder(lock: string): Promise<{ info: FileLockInfo | undefined; ageMs: number } | undefined> {
  let current = await readLock(lock);
  for (let n = 0; current && !current.info && current.ageMs <= UNREADABLE_STALE_MS && n < UNREADABLE_REREADS; n++) {
    await sleep(Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** n));
    current = await readLock(lock);
  }
  return current;
}

/**
 * Moves a stale lock aside (only one taker's rename finds it); puts it back when it turns out to be a live one.
 * Whether the stale lock was removed by this call.
 */
async function takeOver(lock: string, stale: FileLockInfo | undefined): Promise<boolean> {
  const real = (await checkStatePath(lock)).real;
  const aside = `${real}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(real, aside);
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
  const moved = parseLock(await readStateFile(aside, 'utf8').catch(() => ''));
  if (stale && moved && moved.token !== stale.token && !isStale(moved)) {
    // A faster taker's fresh lock was moved: put it back (unless yet another appeared).
    await rename(aside, real).catch(() => undefined);
    return false;
  }
  await rm(aside, { force: true });
  return true;
}

/** Sweeps under way, by folder: a second finder of a stale lock there waits for the running one. */
const sweeping = new Map<string, Promise<string[]>>();

/**
 * Removes the stale locks in `dir`: every `*.lock` file (a regular file, not followed through a
 * link) whose holder is a process of this host that no longer exists, or this process's pid but a
 * lock it does not hold. A lock of a live process, of another host, or one that cannot be read
 * (a writer between creating it and writing its line) is left. Returns the names removed; a
 * folder that does not exist has none.
 *
 * @example
 * await sweepStaleLocks(markersDir(root)); // the locks a killed marker run left
 */
export function sweepStaleLocks(dir: string): Promise<string[]> {
  const running = sweeping.get(dir);
  if (running) return running;
  const sweep = sweepFolder(dir).finally(() => sweeping.delete(dir));
  sweeping.set(dir, sweep);
  return sweep;
}

async function sweepFolder(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.lock')) continue;
    const lock = path.join(dir, name);
    const st = await lstat(lock).catch(() => undefined);
    if (!st?.isFile()) continue;
    const info = parseLock(await readStateFile(lock, 'utf8').catch(() => ''));
    if (!info || !isStale(info)) continue;
    if (await takeOver(lock, info).catch(() => false)) removed.push(name);
  }
  return removed;
}

/** A lock this process holds; {@link HeldLock.release} removes its file. */
export interface HeldLock {
  /** The lock file. */
  readonly file: string;
  readonly info: FileLockInfo;
  release(): Promise<void>;
}

/**
 * One attempt at the lock file `lock` (created with its folders when missing; a stale lock is
 * taken over): the lock when it was free, else who holds it (undefined: a lock file being
 * written, or one that could not be read).
 * @throws FileWriteError when the lock file cannot be written (disk full, read-only, …), naming it.
 * @throws UnsafeStatePathError when the lock file or a folder above it is a symbolic link.
 */
export async function tryLock(lock: string, fields: Readonly<Record<string, string>> = {}): Promise<{ lock: HeldLock } | { holder: FileLockInfo | undefined }> {
  const info: FileLockInfo = { ...fields, pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  let holder: FileLockInfo | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    // Marked held before the file exists: a second writer of this process that reads the new lock file in between
    // must see it as live, not as a stale lock of its own pid to take over.
    held.add(info.token);
    const real = await tryCreate(lock, info).catch((e: unknown) => {
      held.delete(info.token);
      throw e;
    });
    if (real !== undefined) return { lock: { file: lock, info, release: () => release(real, info.token) } };
    held.delete(info.token);
    const current = await readHolder(lock);
    if (!current) continue; // released meanwhile
    holder = current.info;
    const stale = current.info ? isStale(current.info) : current.ageMs > UNREADABLE_STALE_MS;
    if (!stale) return { holder };
    await takeOver(lock, current.info);
    // The process that left it (killed) may have left others beside files no writer touches again.
    if (current.info) await sweepStaleLocks(path.dirname((await checkStatePath(lock)).real));
  }
  return { holder };
}

async function acquire(file: string): Promise<HeldLock> {
  let holder: FileLockInfo | undefined;
  for (let wait = 0; wait <= WAITS; wait++) {
    const got = await tryLock(fileLockPath(file));
    if ('lock' in got) return got.lock;
    holder = got.holder;
    await sleep(Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(wait, 10)));
  }
  throw new FileLockedError(file, holder);
}

/**
 * Removes a held lock, when its file is still ours: a live lock is never taken over, but a lock
 * file removed by hand may have been replaced by another writer's, which is not ours to remove.
 */
async function release(real: string, token: string): Promise<void> {
  try {
    const current = parseLock(await readStateFile(real, 'utf8').catch(() => ''));
    if (current?.token === token) await rm(real, { force: true });
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
  // Writers of this process queue in memory first: only one of them at a time competes for the lock file, so none
  // can read another's lock between its release and a third one's creation and take it for a stale one of this pid.
  const key = fileLockPath(file);
  const before = queued.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const tail = before.then(() => mine);
  queued.set(key, tail);
  await before;
  try {
    const lock = await acquire(file);
    try {
      return await fn();
    } finally {
      await lock.release();
    }
  } finally {
    done();
    if (queued.get(key) === tail) queued.delete(key);
  }
}

/** The last in-process writer waiting for each lock file (see {@link withFileLock}). */
const queued = new Map<string, Promise<void>>();
