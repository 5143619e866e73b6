/**
 * One runner per run: `runs/<id>/.lock` holds the pid, host and start time of the process that
 * runs it. The lock file is created atomically (`wx`: fails when it exists); a lock left by a
 * dead process (same host, pid no longer alive — or our own pid but not a lock this process
 * holds, i.e. a previous process that had the same pid) is taken over; any other lock makes the
 * second runner fail with {@link RunLockedError}, which names the holder. The lock itself is
 * the shared one of `storage/fileLock.ts`, taken in one attempt.
 */
import * as path from 'node:path';
import { tryLock, type FileLockInfo } from '../storage/fileLock';

/** The content of a lock file. */
export interface RunLockInfo extends FileLockInfo {
  run_id: string;
}

/** A second runner on a locked run. */
export class RunLockedError extends Error {
  readonly code = 'ERUNLOCKED';
  constructor(
    readonly runId: string,
    readonly holder: FileLockInfo | undefined,
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

/** The lock file of the run folder `dir`. */
export function lockFile(dir: string): string {
  return path.join(dir, '.lock');
}

/**
 * Takes the lock of the run folder `dir` (created when missing, as a real folder).
 * @throws RunLockedError when another live process (or this process, for another runner) holds it.
 * @throws UnsafeStatePathError when the lock file or a folder above it is a symbolic link.
 * @throws FileWriteError when the lock file cannot be written (disk full, read-only), naming it.
 */
export async function acquireRunLock(dir: string, runId: string): Promise<RunLock> {
  const got = await tryLock(lockFile(dir), { run_id: runId });
  if ('holder' in got) throw new RunLockedError(runId, got.holder);
  return { file: got.lock.file, info: { ...got.lock.info, run_id: runId }, release: got.lock.release };
}

