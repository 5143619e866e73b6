/**
 * Atomic writes: write a temporary file next to the target, then rename over it. Every path is
 * checked first ({@link checkStatePath}): state is written only as real files in real folders
 * under the real corpus folder, never through a symbolic link.
 *
 * A save killed half-way leaves its temporary file (`<name>.<pid>.<ms>.<n>.tmp`); the first
 * write of a process into a folder sweeps those left by processes that are gone
 * ({@link sweepTempFiles}).
 */
import { lstat, readdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { pidAlive } from '../util/pidAlive';
import { checkStatePath } from './safePath';
import { asFileWriteError } from './writeError';

let counter = 0;
/** Temporary files this process is writing now. */
const inFlight = new Set<string>();
/** Folders swept by this process. */
const swept = new Set<string>();
/** A temporary file of a live process other than this one is left alone until it is this old (its pid may have been reused). */
const FOREIGN_TEMP_STALE_MS = 6 * 60 * 60 * 1000;
const TEMP_NAME = /\.(\d+)\.(\d+)\.(\d+)\.tmp$/;

/**
 * Removes the temporary files of killed saves in `dir` (real folder): those of a process that no
 * longer exists, this process's own that it is not writing (left by an earlier process with the
 * same pid), and any older than six hours. Returns the names removed.
 */
export async function sweepTempFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    if (inFlight.has(file)) continue;
    // Only regular files (lstat: a link is not followed): nothing planted under a temporary-looking name is removed.
    const st = await lstat(file).catch(() => undefined);
    if (!st?.isFile()) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && pidAlive(pid) && Date.now() - st.mtimeMs <= FOREIGN_TEMP_STALE_MS) continue;
    await rm(file, { force: true }).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

/**
 * Writes `data` to `file` so that readers see either the old or the new content, never half.
 * `data` may be an iterable of strings or of byte arrays, written one after the other (a large
 * file is never held whole in memory).
 * Missing folders are created (as real folders).
 * @throws UnsafeStatePathError when `file` or a folder above it (from the corpus folder down) is a
 * symbolic link or not a file / folder; nothing is written then.
 * @throws FileWriteError naming `file` when the file system refuses (disk full, permission, read-only).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string> | Iterable<Uint8Array>): Promise<void> {
  const target = await checkStatePath(file, { create: true }).catch((e: unknown) => {
    throw asFileWriteError(e, file);
  });
  const tmp = `${target.real}.${process.pid}.${Date.now()}.${counter++}.tmp`;
  inFlight.add(tmp);
  try {
    // `wx`: fails on anything already there, a planted link included (never followed).
    await writeFile(tmp, data, { flag: 'wx' });
    // rename replaces the directory entry itself: even a link planted since the check is replaced, not followed.
    await rename(tmp, target.real);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw asFileWriteError(e, file);
  } finally {
    inFlight.delete(tmp);
  }
  const dir = path.dirname(target.real);
  if (!swept.has(dir)) {
    swept.add(dir);
    await sweepTempFiles(dir);
  }
}
