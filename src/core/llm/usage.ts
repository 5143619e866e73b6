/**
 * Token accounting of a run: per call, per phase, per step and in total. Counts a server did
 * not report are estimates, and the totals say so.
 */
import type { Usage } from './types';

/** Sum of the calls of a phase, a step or the run. */
export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Logical calls (one `complete()` each). */
  calls: number;
  /** HTTP requests to the model (a repair round is a second request of the same call). */
  requests: number;
  /** Calls whose counts are (partly) estimated. */
  estimatedCalls: number;
  /** True when any of the counts is an estimate. */
  estimated: boolean;
}

/** One recorded call. */
export interface UsageEntry {
  phase: string;
  step: string | undefined;
  promptTokens: number;
  completionTokens: number;
  requests: number;
  estimated: boolean;
}

/**
 * Calls that failed (after their retries) and the HTTP requests they made, so a summary can say
 * "0 model calls succeeded, 5 failed after 25 requests" instead of "0 model calls".
 */
export interface FailureTotals {
  /** Logical calls that ended in an error (not counting cancellations). */
  calls: number;
  /** HTTP requests those calls made, every retry included. */
  requests: number;
  /** Failed calls per `LlmError` reason (`rate-limited`, `server`, `timeout`, …). */
  byReason: Record<string, number>;
}

/** One failed call. */
export interface FailureEntry {
  phase: string;
  step: string | undefined;
  reason: string;
  requests: number;
}

/** The JSON form of a ledger, written with a run. */
export interface UsageReport {
  total: UsageTotals;
  byPhase: Record<string, UsageTotals>;
  byStep: Record<string, UsageTotals>;
  /** Calls that failed and the requests they made (their tokens, when known, are in `total`). */
  failed: FailureTotals;
  /** Every HTTP request to the model: those of recorded calls plus those of failed calls without usage. */
  attempts: number;
}

function emptyTotals(): UsageTotals {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0, requests: 0, estimatedCalls: 0, estimated: false };
}

function addTo(totals: UsageTotals, entry: UsageEntry): void {
  totals.promptTokens += entry.promptTokens;
  totals.completionTokens += entry.completionTokens;
  totals.totalTokens += entry.promptTokens + entry.completionTokens;
  totals.calls += 1;
  totals.requests += entry.requests;
  if (entry.estimated) {
    totals.estimatedCalls += 1;
    totals.estimated = true;
  }
}

/**
 * Records the usage of every model call of a run.
 *
 * @example
 * ```ts
 * const ledger = new UsageLedger();
 * ledger.add('markers', { promptTokens: 900, completionTokens: 120, estimated: false }, 'transcript');
 * ledger.byPhase().markers.totalTokens; // 1020
 * ledger.byStep()['markers/transcript'].calls; // 1
 * ```
 */
export class UsageLedger {
  readonly #entries: UsageEntry[] = [];
  readonly #failures: FailureEntry[] = [];
  /** Requests of failures that were not also recorded with `add` (no usage known). */
  #unrecordedFailedRequests = 0;
  readonly #listeners = new Set<(entry: UsageEntry) => void>();

  /**
   * Records one call of `phase` (and `step`). `requests` is the number of HTTP requests it took
   * (default 1).
   * @throws Error when a count is negative or not an integer.
   */
  add(phase: string, usage: Usage, step?: string, requests = 1): void {
    for (const [name, value] of [['promptTokens', usage.promptTokens], ['completionTokens', usage.completionTokens], ['requests', requests]] as const) {
      if (!Number.isInteger(value) || value < 0) throw new Error(`llm: usage ${name} must be a non-negative integer, got ${value}`);
    }
    const entry: UsageEntry = { phase, step, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, requests, estimated: usage.estimated };
    this.#entries.push(entry);
    for (const listener of this.#listeners) listener(entry);
  }

  /**
   * Records one failed call of `phase` (and `step`) that made `requests` HTTP requests (retries
   * included). Set `alsoAdded` when its tokens were recorded with {@link add} too, so its requests
   * are not counted twice in {@link attempts}.
   * @throws Error when `requests` is negative or not an integer.
   */
  addFailure(phase: string, reason: string, step?: string, requests = 1, alsoAdded = false): void {
    if (!Number.isInteger(requests) || requests < 0) throw new Error(`llm: usage requests must be a non-negative integer, got ${requests}`);
    this.#failures.push({ phase, step, reason, requests });
    if (!alsoAdded) this.#unrecordedFailedRequests += requests;
  }

  /** Failed calls and their requests. */
  failures(): FailureTotals {
    const byReason = Object.create(null) as Record<string, number>;
    let requests = 0;
    for (const f of this.#failures) {
      requests += f.requests;
      byReason[f.reason] = (byReason[f.reason] ?? 0) + 1;
    }
    return { calls: this.#failures.length, requests, byReason };
  }

  /** Failed calls so far. */
  get failedCalls(): number {
    return this.#failures.length;
  }

  /** Every HTTP request to the model so far, failed ones and retries included. */
  get attempts(): number {
    return this.total().requests + this.#unrecordedFailedRequests;
  }

  /** Calls recorded so far. */
  get calls(): number {
    return this.#entries.length;
  }

  /** Every recorded call, oldest first. */
  get entries(): readonly UsageEntry[] {
    return this.#entries;
  }

  /** Calls `listener` after each `add` (e.g. to show "tokens so far"); returns an unsubscribe function. */
  onAdd(listener: (entry: UsageEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Totals of every call. */
  total(): UsageTotals {
    const totals = emptyTotals();
    for (const entry of this.#entries) addTo(totals, entry);
    return totals;
  }

  /** Totals per phase. */
  byPhase(): Record<string, UsageTotals> {
    return this.#group((e) => e.phase);
  }

  /** Totals per step, keyed `phase/step` (calls without a step: `phase`). */
  byStep(): Record<string, UsageTotals> {
    return this.#group((e) => (e.step === undefined ? e.phase : `${e.phase}/${e.step}`));
  }

  toJSON(): UsageReport {
    return { total: this.total(), byPhase: this.byPhase(), byStep: this.byStep(), failed: this.failures(), attempts: this.attempts };
  }

  #group(key: (entry: UsageEntry) => string): Record<string, UsageTotals> {
    const groups = Object.create(null) as Record<string, UsageTotals>;
    for (const entry of this.#entries) {
      const k = key(entry);
      addTo((groups[k] ??= emptyTotals()), entry);
    }
    return groups;
  }
}
