/**
 * A `sleep` for `RetryOptions.sleep` that records every wait the retry logic chose and how it
 * ended, so tests assert the delays (capped, counted toward a budget, cut short by a cancel)
 * instead of measuring elapsed time.
 *
 * @module
 */
import { sleep as realSleep } from '../../src/core/llm/retry';
import { CancelledError } from '../../src/core/util/abort';

/** One wait between attempts: the delay chosen and how the wait ended. */
export interface RecordedWait {
  /** The delay the retry logic chose. */
  readonly ms: number;
  /** `waiting` until it ends; `elapsed` when it ran its full length; `cancelled` when the signal cut it short. */
  outcome: 'waiting' | 'elapsed' | 'cancelled';
}

/** Options of {@link recordingSleep}. */
export interface RecordingSleepOptions {
  /**
   * Spend no real time: each wait advances {@link RecordingSleep.now} by its delay and ends at
   * once (still `cancelled` when the signal is aborted). Default false: the real `sleep`.
   */
  readonly virtual?: boolean;
  /** Called once each wait has started (its timer and abort listener set), e.g. to abort then. */
  readonly onWait?: (wait: RecordedWait) => void;
}

/** What {@link recordingSleep} returns. */
export interface RecordingSleep {
  /** Pass as `RetryOptions.sleep`. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every wait so far, oldest first. */
  readonly waits: RecordedWait[];
  /** Pass as `RetryOptions.now` with `virtual`: time advanced only by the waits (starts at 0). */
  readonly now: () => number;
}

/**
 * A recording sleep: real (the product's `sleep`, so a cancel during a wait is the real one) or
 * virtual (a clock that only the waits advance, for budgets without wall-clock time).
 *
 * @example
 * ```ts
 * const rec = recordingSleep({ onWait: () => controller.abort() });
 * await assert.rejects(withRetry(fn, { signal: controller.signal, sleep: rec.sleep }), CancelledError);
 * assert.equal(rec.waits[0]?.outcome, 'cancelled'); // the wait did not run out
 * ```
 */
export function recordingSleep(options: RecordingSleepOptions = {}): RecordingSleep {
  const waits: RecordedWait[] = [];
  let clock = 0;
  const sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    const wait: RecordedWait = { ms, outcome: 'waiting' };
    waits.push(wait);
    if (options.virtual === true) {
      options.onWait?.(wait);
      if (signal?.aborted) {
        wait.outcome = 'cancelled';
        throw new CancelledError();
      }
      clock += ms;
      wait.outcome = 'elapsed';
      return;
    }
    const pending = realSleep(ms, signal);
    options.onWait?.(wait);
    try {
      await pending;
      wait.outcome = 'elapsed';
    } catch (error) {
      wait.outcome = 'cancelled';
      throw error;
    }
  };
  return { sleep, waits, now: () => clock };
}
