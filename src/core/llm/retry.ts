/**
 * Retries with exponential backoff and full jitter, for the failures worth retrying
 * (rate-limited, server, network, timeout). A server's `retry-after` is honoured but capped.
 * An authentication failure is never retried, whatever reason it was given
 * ({@link isAuthenticationFailure}).
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
}

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
 * ({@link isAuthenticationFailure}) and the last retryable one.
 *
 * @example
 * ```ts
 * const reply = await withRetry(() => provider.complete(req), { retries: 4, signal });
 * ```
 * @throws CancelledError when `signal` aborts (before an attempt or during a wait).
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = Math.max(0, Math.floor(options.retries ?? 4));
  const { signal } = options;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted) throw cancelledFrom(error);
      if (!isRetryableError(error) || isAuthenticationFailure(error) || attempt >= retries) throw error;
      const delayMs = backoffDelay(attempt + 1, error, options);
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
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
