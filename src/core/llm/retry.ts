/**
 * Retries with exponential backoff and full jitter, for the failures worth retrying
 * (rate-limited, server, network, timeout). A server's `retry-after` is honoured but capped.
 * An authentication failure is never retried, whatever reason it was given
 * ({@link isAuthenticationFailure}).
 *
 * The total time of one call is bounded twice: by the number of retries and by a retry budget
 * (default 60 s, from the first attempt; `retry-after` waits count toward it). A wait that would
 * overrun the budget is not started: the call gives up at once. A timed-out request is retried at
 * most once (a server slow twice is slow; waiting again only multiplies the user's timeout). The
 * error a call finally fails with says in plain words what the server did and how long was spent
 * ({@link plainFailure}): "the model server is rate-limiting requests (HTTP 429); gave up after 4
 * retries in 12 s".
 */
import { CancelledError, throwIfAborted } from '../util/abort';
import { isRetryableError, LlmError } from './types';

/** HTTP statuses that mean "not authorised" (401, 403, and 407 from a proxy). */
const AUTH_STATUSES = new Set([401, 403, 407]);

/**
 * True for a failure to authenticate: reason `auth`, a 401/403/407 status, or a request refused
 * because its URL carries credentials (fetch rejects those before sending; it is not a network
 * failure). Never worth retrying: the same credentials fail the same way.
 */
export function isAuthenticationFailure(error: unknown): boolean {
  if (error instanceof LlmError && (error.reason === 'auth' || (error.status !== undefined && AUTH_STATUSES.has(error.status)))) return true;
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    if (/URL that includes credentials/i.test(e.message)) return true;
    e = e.cause;
  }
  return false;
}

/** What {@link RetryOptions.onRetry} is told before each wait. */
export interface RetryInfo {
  /** The retry about to happen: 1 for the first retry. */
  attempt: number;
  /** How long it waits first. */
  delayMs: number;
  /** The failure being retried. */
  error: LlmError;
}

/** Options of {@link withRetry}. */
export interface RetryOptions {
  /** Retries after the first attempt (default 4: at most 5 attempts). */
  retries?: number;
  /** Backoff base: retry n waits a random time in [0, min(maxMs, baseMs·2^(n−1))] (default 500). */
  baseMs?: number;
  /** Cap of every wait, a server's `retry-after` included (default 20 000). */
  maxMs?: number;
  /** Aborting it rejects promptly with `CancelledError`, also during a wait. */
  signal?: AbortSignal;
  /** Called before each wait (e.g. to log it). */
  onRetry?: (info: RetryInfo) => void;
  /** Random source in [0, 1) for the jitter (default `Math.random`; tests pin it). */
  random?: () => number;
  /**
   * Retry budget: the most time one call may spend from its first attempt through its retries
   * and their waits (`retry-after` included) before it gives up (default 60 000).
   */
  budgetMs?: number;
  /** Retries of a timed-out request (default 1; at most `retries`). */
  timeoutRetries?: number;
  /** The per-request deadline, only to say it in a timeout's message ("timed out after 30 s"). */
  requestTimeoutMs?: number;
  /** Clock (default `Date.now`; tests pin it). */
  now?: () => number;
  /**
   * How a wait between attempts is spent (default {@link sleep}). Must reject with
   * `CancelledError` when `signal` aborts; tests pass one that records the waits chosen.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Default of {@link RetryOptions.budgetMs}. */
export const DEFAULT_RETRY_BUDGET_MS = 60_000;

/**
 * The wait before retry `attempt` (1-based): the server's `retry-after` when it gave one, else
 * full jitter over the exponential bound; either way at most `maxMs`.
 */
export function backoffDelay(attempt: number, error: LlmError | undefined, options: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'random'> = {}): number {
  const baseMs = options.baseMs ?? 500;
  const maxMs = options.maxMs ?? 20_000;
  if (error?.retryAfterMs !== undefined && Number.isFinite(error.retryAfterMs)) {
    return Math.max(0, Math.min(maxMs, error.retryAfterMs));
  }
  const bound = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor((options.random ?? Math.random)() * bound);
}

/**
 * Runs `fn` and retries it on retryable {@link LlmError}s (rate-limited, server, network,
 * timeout) up to `retries` times; any other error (context-length, auth, invalid-reply,
 * cancelled, non-LlmError) is thrown at once, as is an authentication failure of any reason
 * ({@link isAuthenticationFailure}). A retryable failure that is not retried again (retries used
 * up, a second timeout, or a wait that would overrun `budgetMs`) is thrown as
 * {@link plainFailure}: same reason and status, a plain message.
 *
 * @example
 * ```ts
 * const reply = await withRetry(() => provider.complete(req), { retries: 4, signal });
 * ```
 * @throws CancelledError when `signal` aborts (before an attempt or during a wait).
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = Math.max(0, Math.floor(options.retries ?? 4));
  const timeoutRetries = Math.max(0, Math.floor(options.timeoutRetries ?? 1));
  const budgetMs = Math.max(0, options.budgetMs ?? DEFAULT_RETRY_BUDGET_MS);
  const now = options.now ?? Date.now;
  const { signal } = options;
  const started = now();
  let timeouts = 0;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted) throw cancelledFrom(error);
      if (!isRetryableError(error) || isAuthenticationFailure(error)) throw error;
      if (error.reason === 'timeout') timeouts++;
      const elapsed = now() - started;
      if (attempt >= retries || (error.reason === 'timeout' && timeouts > timeoutRetries)) {
        throw plainFailure(error, { retries: attempt, elapsedMs: elapsed, requestTimeoutMs: options.requestTimeoutMs });
      }
      const delayMs = backoffDelay(attempt + 1, error, options);
      if (elapsed + delayMs > budgetMs) {
        throw plainFailure(error, { retries: attempt, elapsedMs: elapsed, requestTimeoutMs: options.requestTimeoutMs, budgetMs, waitMs: delayMs });
      }
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await (options.sleep ?? sleep)(delayMs, signal);
    }
  }
}

/** What {@link plainFailure} says about the retries of a call that gave up. */
export interface GaveUpInfo {
  /** Retries made (0: the first attempt failed and was not retried). */
  retries: number;
  /** Time from the first attempt to giving up. */
  elapsedMs: number;
  /** The per-request deadline (for a timeout's message). */
  requestTimeoutMs?: number;
  /** Set when the call gave up because the next wait would overrun this budget. */
  budgetMs?: number;
  /** The wait that would have overrun the budget. */
  waitMs?: number;
}

/** Seconds for a message: "12 s", "0.4 s". */
function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;
}

/**
 * What the server did, in plain words, from an {@link LlmError}'s reason and status (no SDK
 * text, no status said twice): "the model server is rate-limiting requests (HTTP 429)".
 */
export function plainReason(error: LlmError, requestTimeoutMs?: number): string {
  const http = error.status !== undefined ? ` (HTTP ${error.status})` : '';
  switch (error.reason) {
    case 'rate-limited':
      return `the model server is rate-limiting requests (HTTP ${error.status ?? 429})`;
    case 'server':
      return error.status !== undefined ? `the model server failed${http}` : 'the model server sent an unusable reply';
    case 'network':
      return 'the model server could not be reached or dropped the connection';
    case 'timeout':
      return requestTimeoutMs !== undefined ? `the model server timed out after ${seconds(requestTimeoutMs)}` : 'the model server timed out';
    default:
      return `the model call failed (${error.reason})${http}`;
  }
}

/**
 * The error a retryable failure is finally thrown as: same reason, status and usage, a plain
 * message — what the server did, how many retries in how long, why it stopped, then what the
 * server said (the provider's message without what the summary already says).
 *
 * @example
 * plainFailure(rateLimited, { retries: 4, elapsedMs: 12_000 }).message
 * // "llm: the model server is rate-limiting requests (HTTP 429); gave up after 4 retries in 12 s. Server said: Rate limit reached …"
 */
export function plainFailure(error: LlmError, info: GaveUpInfo): LlmError {
  const summary = plainReason(error, info.requestTimeoutMs);
  const tries = info.retries === 0 ? '' : `; gave up after ${info.retries} ${info.retries === 1 ? 'retry' : 'retries'} in ${seconds(info.elapsedMs)}`;
  const budget =
    info.budgetMs !== undefined
      ? `${info.retries === 0 ? '; gave up at once' : ''} (the next wait, ${seconds(info.waitMs ?? 0)}, would pass the retry budget of ${seconds(info.budgetMs)})`
      : '';
  let detail = error.message.replace(/^llm:\s*/, '');
  if (detail.startsWith(summary)) detail = detail.slice(summary.length).replace(/^[\s:;.,-]+/, '');
  return new LlmError(error.reason, `${summary}${tries}${budget}${detail === '' ? '' : `. Server said: ${detail}`}`, {
    cause: error,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    issues: error.issues,
    usage: error.usage,
  });
}

/**
 * Resolves after `ms`, or rejects with `CancelledError` as soon as `signal` aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Milliseconds a server asks to wait, from `retry-after-ms` or `retry-after` (seconds or an
 * HTTP date); undefined when absent or unparsable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function cancelledFrom(error: unknown): CancelledError {
  return error instanceof CancelledError ? error : new CancelledError('llm: call cancelled');
}
