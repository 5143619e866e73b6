/**
 * Bounded concurrency for bulk file reads: ONE pool shared by every reader of many files (marker
 * files, condensed claims, vector files, the corpus's own files), so that reading 20,000 files
 * never opens 20,000 at once and runs the process out of file handles.
 *
 * A read that still fails for lack of handles — `EMFILE`/`ENFILE` (something else in the process,
 * or the system, holds many) or `EAGAIN` — is tried again after a short backoff, a bounded number
 * of times, and then fails with a {@link FileReadError} that names the file. Any other error is
 * passed on unchanged for the caller to report. Only "not found" ({@link isNotFound}) may ever be
 * read as "there is no such file": a file that exists but cannot be read now is an error, never
 * "missing" (a cached marker counted as missing is generated again — paid model calls for nothing).
 *
 * The slots are the model client's {@link Semaphore} (a FIFO counting semaphore), not a second
 * implementation. A pooled read that starts another pooled read runs it in its own slot (the
 * nesting is seen through `AsyncLocalStorage`), so nesting can never deadlock the pool.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Semaphore } from '../llm/semaphore';

/** Files read at once by the whole process (each pooled read holds at most one handle). */
export const READ_CONCURRENCY = 32;

/** Tries of a read that keeps failing for lack of handles, and the first backoff (doubled each time, at most 500 ms). */
export const READ_RETRY = { attempts: 10, baseDelayMs: 10, maxDelayMs: 500 } as const;

/** Error codes that mean "not now": out of file handles (process or system) or try again. */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN']);

const pool = new Semaphore(READ_CONCURRENCY);
const inSlot = new AsyncLocalStorage<true>();
let peak = 0;

/** A file that could not be read (after the retries, for a lack of handles); names the file. */
export class FileReadError extends Error {
  /**
   * @param file The file that could not be read.
   * @param code The last error's code (`EMFILE`, `EACCES`, …).
   * @param attempts How many times it was tried.
   * @param cause The last error.
   */
  constructor(
    readonly file: string,
    readonly code: string,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(`${file}: could not be read (${code}${attempts > 1 ? `, tried ${attempts} times` : ''}): ${(cause as Error | undefined)?.message ?? String(cause)}`);
    this.name = 'FileReadError';
  }
}

/** The error code of a Node.js file-system error, if any. */
export function errorCode(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True only for "no such file or folder": the one read error that means the file is missing. */
export function isNotFound(e: unknown): boolean {
  return errorCode(e) === 'ENOENT';
}

/** True for a lack of file handles or a "try again": worth retrying after a pause. */
export function isTransientReadError(e: unknown): boolean {
  const code = errorCode(e);
  return code !== undefined && TRANSIENT.has(code);
}

/** The pool's limit, the reads holding a slot now, and the most that ever held one at once (for tests and diagnostics). */
export function readPoolStats(): { limit: number; active: number; waiting: number; peak: number } {
  return { limit: pool.limit, active: pool.active, waiting: pool.waiting, peak };
}

/** Starts counting {@link readPoolStats}'s `peak` afresh. */
export function resetReadPoolPeak(): void {
  peak = pool.active;
}

/** Retry settings of one call (tests shorten them). */
export interface PooledReadOptions {
  signal?: AbortSignal;
  retry?: { attempts: number; baseDelayMs: number; maxDelayMs: number };
}

/**
 * Runs `read` (one file's read: at most one handle open at a time) in a slot of the shared read
 * pool. A lack of handles is retried with backoff; when the tries run out a {@link FileReadError}
 * naming `file` is thrown. Any other error (ENOENT included) is thrown unchanged at once.
 *
 * @example
 * const text = await pooledRead(file, () => readStateFile(file, 'utf8'));
 */
export async function pooledRead<T>(file: string, read: () => Promise<T>, options: PooledReadOptions = {}): Promise<T> {
  // Already inside a slot: the outer read holds it (and retries as a whole).
  if (inSlot.getStore()) return read();
  const retry = options.retry ?? READ_RETRY;
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.run(() => {
        peak = Math.max(peak, pool.active);
        return inSlot.run(true, read);
      }, options.signal);
    } catch (e) {
      if (!isTransientReadError(e)) throw e;
      if (attempt >= retry.attempts) throw new FileReadError(file, errorCode(e) ?? 'EMFILE', attempt, e);
      // The slot is given back while waiting: the reads holding handles can finish (an abort is seen at the next try).
      await sleep(Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1)));
    }
  }
}

/**
 * The message for a read that failed with something other than "not found": the file and why,
 * without repeating the file when the error already names it.
 */
export function readErrorText(file: string, e: unknown): string {
  if (e instanceof FileReadError) return e.message;
  const message = (e as Error | undefined)?.message ?? String(e);
  return message.includes(file) ? message : `${file}: could not be read: ${message}`;
}
