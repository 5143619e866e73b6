/**
 * The global concurrency limit for model calls: one instance shared by every phase.
 */
import { CancelledError } from '../util/abort';

interface Waiter {
  readonly grant: () => void;
  readonly cancel: () => void;
}

/**
 * A FIFO counting semaphore. `run(fn)` waits for a slot, runs `fn`, and frees the slot when
 * `fn` settles (also when it throws). A queued call is removed when its signal aborts.
 *
 * @example
 * ```ts
 * const slots = new Semaphore(4);
 * const reply = await slots.run(() => provider.complete(req), signal);
 * ```
 */
export class Semaphore {
  #limit: number;
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = checkLimit(limit);
  }

  /** The current limit. */
  get limit(): number {
    return this.#limit;
  }

  /** Calls running now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Changes the limit. Raising it starts queued calls at once; lowering it lets running calls
   * finish and starts no new ones until `active` is below the new limit.
   * @throws Error unless `limit` is a positive integer.
   */
  setLimit(limit: number): void {
    this.#limit = checkLimit(limit);
    this.#pump();
  }

  /**
   * Runs `fn` once a slot is free (FIFO).
   * @throws CancelledError when `signal` aborts before `fn` starts (the call leaves the queue).
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await fn();
    } finally {
      this.#active--;
      this.#pump();
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    if (this.#active < this.#limit && this.#queue.length === 0) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => waiter.cancel();
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        cancel: () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(new CancelledError());
        },
      };
      this.#queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #pump(): void {
    while (this.#active < this.#limit && this.#queue.length > 0) {
      const next = this.#queue.shift();
      if (next === undefined) break;
      this.#active++;
      next.grant();
    }
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`llm: semaphore limit must be a positive integer, got ${limit}`);
  return limit;
}
