/**
 * The model client the phases use: one validated config, one provider, and every call through
 * the shared semaphore → retries → provider → usage ledger. Never logs the API key.
 *
 * Credentials in the base URL (`http://user:key@host/v1`) are refused: {@link parseModelConfig}
 * throws `LlmError('config')` saying to give the key as the API key instead, without echoing
 * it. (Putting keys in URLs leaks them into logs and saved runs, and fetch rejects such URLs.)
 * Every error message (and stack, and cause chain) leaving the client is redacted: the API key
 * and any URL's credentials ({@link redactUrlCredentials}).
 */
import { z } from 'zod';
import { CancelledError } from '../util/abort';
import { nullLogger, redactingLogger, redactor, redactUrlCredentials, urlHasCredentials, type Logger } from '../util/log';
import { OllamaProvider } from './ollamaProvider';
import { OpenAIProvider } from './openaiProvider';
import { withRetry, type RetryOptions } from './retry';
import { Semaphore } from './semaphore';
import {
  LlmError,
  type ModelProvider,
  type StructuredRequest,
  type StructuredResult,
  type TextDeltaHandler,
  type TextStreamRequest,
  type TextStreamResult,
} from './types';
import { UsageLedger } from './usage';

/** Settings of a model connection. */
export const modelConfigSchema = z.object({
  provider: z.enum(['openai', 'ollama']),
  /** OpenAI-compatible: the API root incl. `/v1`; Ollama: the host, e.g. `http://127.0.0.1:11434`. */
  baseUrl: z.url({ protocol: /^https?$/ }).refine((url) => !urlHasCredentials(url), {
    message:
      'must not contain credentials (user:password@) — they would leak into logs and saved runs; give the key as the API key instead (VS Code: "Marker Research: Set API Key"; CLI: MARKER_RESEARCH_API_KEY or OPENAI_API_KEY)',
  }),
  model: z.string().min(1),
  apiKey: z.string().optional(),
  /** The model's context size; sent to Ollama as `num_ctx`; windows are sized to fit it. */
  contextTokens: z.number().int().min(256).default(8192),
  /**
   * Deadline of each HTTP request (a stream: of each silence). A timed-out request is retried at
   * most once; settings `markerResearch.requestTimeoutSeconds`, CLI `--timeout SECONDS`.
   */
  timeoutMs: z.number().int().positive().default(120_000),
  /** Concurrent calls, when the client makes its own semaphore. */
  concurrency: z.number().int().positive().default(4),
  /** OpenAI-compatible only: `json_object` for servers without `json_schema` support. */
  jsonMode: z.enum(['json_schema', 'json_object']).optional(),
});

/** A parsed model config (defaults applied). */
export type ModelConfig = z.output<typeof modelConfigSchema>;
/** A model config as written (defaults optional). */
export type ModelConfigInput = z.input<typeof modelConfigSchema>;

/** What {@link createModelClient} needs besides the config. */
export interface ModelClientDeps {
  /** The global concurrency limit shared by every phase (default: a new one of `config.concurrency`). */
  semaphore?: Semaphore;
  /** Where usage goes (default: a new ledger, see {@link ModelClient.ledger}). */
  ledger?: UsageLedger;
  log?: Logger;
  /**
   * Retry policy (defaults: 4 retries, 500 ms base, 20 s cap per wait, 60 s retry budget per
   * call — `retry-after` waits included; see `withRetry`).
   */
  retry?: Omit<RetryOptions, 'signal' | 'onRetry'>;
  /** Use this provider instead of building one from the config (tests, other engines). */
  provider?: ModelProvider;
  /** fetch for the built provider (default: the global one). */
  fetch?: typeof fetch;
}

/** A provider behind the shared limit, retries and accounting. */
export interface ModelClient {
  readonly provider: ModelProvider['kind'];
  readonly model: string;
  readonly contextTokens: number;
  readonly semaphore: Semaphore;
  readonly ledger: UsageLedger;
  /**
   * One structured call: waits for a slot, retries retryable failures with backoff, records the
   * usage under `req.phase`/`req.step` (also the tokens of a failed repair).
   * @throws CancelledError when `req.signal` aborts (queued, waiting to retry, or in flight).
   * @throws LlmError for every other failure (see {@link LlmError.reason}).
   */
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /**
   * One streamed text call (e.g. a chat answer in Markdown): waits for a slot (held until the
   * stream ends), calls `onDelta` with each piece in order, records the usage under
   * `req.phase`/`req.step` (also of a cancelled or failed partial answer). Retryable failures
   * are retried only while nothing has been delivered: once `onDelta` has been called, a failure
   * is thrown as it is, so no piece ever reaches `onDelta` twice.
   *
   * Cancel: `req.signal` aborting after the first delta resolves with the text so far and
   * `finishReason: 'cancelled'` (usage estimated), so the caller can keep the partial answer.
   * @throws CancelledError when `req.signal` aborts before the first delta (queued, waiting to
   * retry, or in flight).
   * @throws LlmError for every other failure (`config` when the provider cannot stream); an
   * error thrown by `onDelta` aborts the stream and is rethrown unchanged.
   */
  streamText(req: TextStreamRequest, onDelta: TextDeltaHandler): Promise<TextStreamResult>;
}

/** A provider failure after deltas were delivered: carried through withRetry so it is not retried. */
class AfterDelivery {
  constructor(readonly error: unknown) {}
}

/**
 * Parses `config` (throws `LlmError('config')` naming the bad fields, never echoing values —
 * also for a base URL with credentials, which is refused).
 */
export function parseModelConfig(config: unknown): ModelConfig {
  const parsed = modelConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new LlmError('config', `invalid model config: ${fields}`);
}

/**
 * Builds the model client for `config`.
 *
 * @example
 * ```ts
 * const semaphore = new Semaphore(8);
 * const ledger = new UsageLedger();
 * const client = createModelClient({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen2.5:7b' }, { semaphore, ledger, log });
 * const { value } = await client.complete({ messages, schema, schemaName: 'transcript_window', phase: 'markers', step: 'transcript', signal });
 * ```
 */
export function createModelClient(config: ModelConfigInput, deps: ModelClientDeps = {}): ModelClient {
  const cfg = parseModelConfig(config);
  const log = redactingLogger(deps.log ?? nullLogger, [cfg.apiKey]);
  const redact = redactor([cfg.apiKey]);
  const semaphore = deps.semaphore ?? new Semaphore(cfg.concurrency);
  const ledger = deps.ledger ?? new UsageLedger();
  const provider = deps.provider ?? buildProvider(cfg, log, deps.fetch);
  log.info(`llm: ${provider.kind} model ${provider.model} at ${displayUrl(cfg.baseUrl)}, context ${provider.contextTokens} tokens, timeout ${cfg.timeoutMs} ms`);

  async function complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const where = req.step === undefined ? req.phase : `${req.phase}/${req.step}`;
    const started = Date.now();
    let tries = 0;
    try {
      const result = await semaphore.run(
        () =>
          withRetry(
            () => {
              tries++;
              return provider.complete(req);
            },
            {
              ...deps.retry,
              requestTimeoutMs: cfg.timeoutMs,
              signal: req.signal,
              onRetry: ({ attempt, delayMs, error }) =>
                log.warn(`llm: ${where}: ${error.reason}, retry ${attempt}/${deps.retry?.retries ?? 4} in ${delayMs} ms (${error.message})`),
            },
          ),
        req.signal,
      );
      // Earlier tries failed with one request each; the last one took `result.attempts` (repair).
      ledger.add(req.phase, result.usage, req.step, Math.max(0, tries - 1) + result.attempts);
      log.debug(
        `llm: ${where}: ${req.schemaName} ok in ${Date.now() - started} ms, ${result.usage.promptTokens}+${result.usage.completionTokens} tokens${result.usage.estimated ? ' (estimated)' : ''}${result.repaired ? ', repaired' : ''}`,
      );
      return result;
    } catch (error) {
      const lastRequests = error instanceof LlmError && error.reason === 'invalid-reply' ? 2 : 1;
      const requests = Math.max(0, tries - 1) + (tries > 0 ? lastRequests : 0);
      if (error instanceof LlmError && error.usage !== undefined) ledger.add(req.phase, error.usage, req.step, requests);
      if (req.signal?.aborted || error instanceof CancelledError || (error instanceof LlmError && error.reason === 'cancelled')) {
        log.debug(`llm: ${where}: cancelled`);
        throw error instanceof CancelledError ? error : new CancelledError('llm: call cancelled');
      }
      ledger.addFailure(req.phase, error instanceof LlmError ? error.reason : 'error', req.step, requests, error instanceof LlmError && error.usage !== undefined);
      scrubError(error, redact);
      if (error instanceof LlmError) {
        log.warn(`llm: ${where}: ${req.schemaName} failed (${error.reason}): ${error.message}`);
      }
      throw error;
    }
  }

  async function streamText(req: TextStreamRequest, onDelta: TextDeltaHandler): Promise<TextStreamResult> {
    const where = req.step === undefined ? req.phase : `${req.phase}/${req.step}`;
    const started = Date.now();
    const stream = provider.streamText?.bind(provider);
    if (stream === undefined) throw new LlmError('config', `the ${provider.kind} provider for ${provider.model} cannot stream text`);
    let delivered = false;
    let tries = 0;
    const deliver: TextDeltaHandler = (text) => {
      delivered = true;
      onDelta(text);
    };
    try {
      const result = await semaphore.run(
        () =>
          withRetry(
            async () => {
              tries++;
              try {
                return await stream(req, deliver);
              } catch (error) {
                // Never retried once deltas went out: the caller would see them twice.
                throw delivered ? new AfterDelivery(error) : error;
              }
            },
            {
              ...deps.retry,
              requestTimeoutMs: cfg.timeoutMs,
              signal: req.signal,
              onRetry: ({ attempt, delayMs, error }) =>
                log.warn(`llm: ${where}: ${error.reason}, retry ${attempt}/${deps.retry?.retries ?? 4} in ${delayMs} ms (${error.message})`),
            },
          ),
        req.signal,
      );
      ledger.add(req.phase, result.usage, req.step, Math.max(1, tries));
      log.debug(
        `llm: ${where}: text stream ${result.finishReason} in ${Date.now() - started} ms, ${result.text.length} chars, ${result.usage.promptTokens}+${result.usage.completionTokens} tokens${result.usage.estimated ? ' (estimated)' : ''}`,
      );
      return result;
    } catch (caught) {
      const error = caught instanceof AfterDelivery ? caught.error : caught;
      if (error instanceof LlmError && error.usage !== undefined) ledger.add(req.phase, error.usage, req.step, tries);
      if (error instanceof CancelledError || (error instanceof LlmError && error.reason === 'cancelled') || (req.signal?.aborted && !delivered)) {
        log.debug(`llm: ${where}: text stream cancelled`);
        throw error instanceof CancelledError ? error : new CancelledError('llm: call cancelled');
      }
      ledger.addFailure(req.phase, error instanceof LlmError ? error.reason : 'error', req.step, tries, error instanceof LlmError && error.usage !== undefined);
      scrubError(error, redact);
      if (error instanceof LlmError) {
        log.warn(`llm: ${where}: text stream failed${delivered ? ' mid-answer' : ''} (${error.reason}): ${error.message}`);
      }
      throw error;
    }
  }

  return { provider: provider.kind, model: provider.model, contextTokens: provider.contextTokens, semaphore, ledger, complete, streamText };
}

function buildProvider(cfg: ModelConfig, log: Logger, fetchImpl: typeof fetch | undefined): ModelProvider {
  const common = { baseUrl: cfg.baseUrl, model: cfg.model, apiKey: cfg.apiKey, contextTokens: cfg.contextTokens, timeoutMs: cfg.timeoutMs, log, fetch: fetchImpl };
  return cfg.provider === 'openai' ? new OpenAIProvider({ ...common, jsonMode: cfg.jsonMode }) : new OllamaProvider(common);
}

/**
 * Redacts secrets (the API key, any URL's credentials) from `error`'s message and stack and
 * those of its causes (a few levels), in place, so that nothing that persists or shows an
 * error carries them. Best effort: read-only fields are left.
 */
export function scrubError(error: unknown, redact: (text: string) => string = redactUrlCredentials): void {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    try {
      e.message = redact(e.message);
      if (e.stack !== undefined) e.stack = redact(e.stack);
    } catch {
      // a frozen error: nothing to do
    }
    e = e.cause;
  }
}

/** The URL without credentials or query (which may hold keys). */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}
