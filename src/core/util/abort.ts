/** Cancellation and progress as plain values: core functions take these, adapters bridge them. */

/** Progress of a long operation. */
export interface ProgressUpdate {
  done: number;
  total: number;
  message?: string;
}

export type ProgressSink = (update: ProgressUpdate) => void;

/** Thrown when an operation is cancelled through its AbortSignal. */
export class CancelledError extends Error {
  readonly reason = 'cancelled' as const;
  constructor(message = 'operation cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** Throws a {@link CancelledError} when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping order.
 * Stops starting new work once `signal` is aborted or a call has thrown; the calls already
 * started are awaited before the first error is thrown (none is left running behind the caller).
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !failure) {
      throwIfAborted(signal);
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (e) {
        failure ??= { error: e };
        throw e;
      }
    }
  });
  const settled = await Promise.allSettled(workers);
  if (failure) throw failure.error;
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  return results;
}
