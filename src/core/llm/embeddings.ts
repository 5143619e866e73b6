/**
 * Embeddings for the vector retrieval strategy (seed 004): an OpenAI-compatible `/embeddings`
 * endpoint through the `openai` package, or Ollama's `/api/embed` through the `ollama` package,
 * with its own model (the embedding model) on the same provider and base URL as the chat model.
 * Texts are sent in batches; every request goes through the shared semaphore → retries →
 * provider, and its tokens are recorded in the usage ledger under phase `embeddings`. Every reply
 * is checked: one finite vector per text, all of the same dimensions.
 */
import { z } from 'zod';
import { CancelledError } from '../util/abort';
import { nullLogger, redactingLogger, redactor, type Logger } from '../util/log';
import { modelConfigSchema, scrubError } from './client';
import { attachRetryAfter, createOllamaClient, ollamaErrorToLlmError } from './ollamaProvider';
import { createOpenAIClient, openaiErrorToLlmError } from './openaiProvider';
import { withRetry, type RetryOptions } from './retry';
import { Semaphore } from './semaphore';
import { estimateTokens } from './tokens';
import { LlmError, type Usage } from './types';
import { UsageLedger } from './usage';

/** The usage-ledger phase every embedding request is recorded under. */
export const EMBEDDINGS_PHASE = 'embeddings';

/** Settings of an embedding connection: the provider, base URL and key of the chat model, with the embedding model. */
export const embeddingConfigSchema = modelConfigSchema.pick({ provider: true, baseUrl: true, apiKey: true, timeoutMs: true, concurrency: true }).extend({
  /** The embedding model (e.g. `text-embedding-3-small`, `nomic-embed-text`). */
  model: z.string().min(1),
  /** Ask the server for vectors of this size (OpenAI `text-embedding-3-*`, Ollama `dimensions`); replies must have it. */
  dimensions: z.number().int().positive().optional(),
  /** Texts per HTTP request. */
  batchSize: z.number().int().min(1).max(2048).default(64),
  /** Longer texts are cut to this many characters before they are sent (embedding models have small contexts). */
  maxInputChars: z.number().int().min(16).default(8_000),
});

/** A parsed embedding config (defaults applied). */
export type EmbeddingConfig = z.output<typeof embeddingConfigSchema>;
/** An embedding config as written (defaults optional). */
export type EmbeddingConfigInput = z.input<typeof embeddingConfigSchema>;

/**
 * Parses `config` (throws `LlmError('config')` naming the bad fields, never echoing values).
 */
export function parseEmbeddingConfig(config: unknown): EmbeddingConfig {
  const parsed = embeddingConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new LlmError('config', `invalid embedding config: ${fields}`);
}

/** Turns texts into vectors with one embedding model. */
export interface EmbeddingClient {
  readonly provider: 'openai' | 'ollama';
  /** The embedding model. */
  readonly model: string;
  /** The dimensions asked of the server (config `dimensions`); undefined: the model's own. */
  readonly dimensions: number | undefined;
  /**
   * One vector per text, in order (as the server sent them: not normalised). Texts are sent in
   * batches of `batchSize`, concurrently up to the semaphore's limit.
   * @throws CancelledError when `signal` aborts (queued, waiting to retry, or in flight).
   * @throws LlmError for every other failure: `invalid-reply` when a reply has the wrong number
   * of vectors, vectors of other dimensions, or non-finite values.
   */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** What {@link createEmbeddingClient} needs besides the config. */
export interface EmbeddingClientDeps {
  /** The global concurrency limit shared by every phase (default: a new one of `config.concurrency`). */
  semaphore?: Semaphore;
  /** Where usage goes (default: a new ledger). */
  ledger?: UsageLedger;
  log?: Logger;
  /** Retry policy (defaults: 4 retries, 500 ms base, 20 s cap). */
  retry?: Omit<RetryOptions, 'signal' | 'onRetry'>;
  /** fetch for the clients (default: the global one). */
  fetch?: typeof fetch;
}

/** What one HTTP request returned, before checking. */
interface RawEmbeddings {
  vectors: readonly unknown[];
  usage: Usage;
}

type RawEmbedCall = (texts: readonly string[], signal: AbortSignal) => Promise<RawEmbeddings>;

/**
 * Builds the embedding client for `config`.
 *
 * @example
 * ```ts
 * const embedder = createEmbeddingClient({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'nomic-embed-text' }, { semaphore, ledger, log });
 * const [vector] = await embedder.embed(['how far do electric cars go in winter?'], signal);
 * ```
 */
export function createEmbeddingClient(config: EmbeddingConfigInput, deps: EmbeddingClientDeps = {}): EmbeddingClient {
  const cfg = parseEmbeddingConfig(config);
  const log = redactingLogger(deps.log ?? nullLogger, [cfg.apiKey]);
  const redact = redactor([cfg.apiKey]);
  const semaphore = deps.semaphore ?? new Semaphore(cfg.concurrency);
  const ledger = deps.ledger ?? new UsageLedger();
  const raw = cfg.provider === 'openai' ? openaiEmbedCall(cfg, log, deps.fetch) : ollamaEmbedCall(cfg, deps.fetch);
  /** The configured dimensions, else those of the first reply: every later reply must match. */
  let dimensions = cfg.dimensions;
  log.info(`llm: embeddings: ${cfg.provider} model ${cfg.model}${cfg.dimensions === undefined ? '' : `, ${cfg.dimensions} dimensions`}, batches of ${cfg.batchSize}`);

  /** Checks a reply; learns the dimensions from the first one. */
  function check(reply: RawEmbeddings, count: number): Float32Array[] {
    const issues: string[] = [];
    if (reply.vectors.length !== count) issues.push(`expected ${count} vectors, got ${reply.vectors.length}`);
    const out: Float32Array[] = [];
    reply.vectors.forEach((v, i) => {
      if (issues.length >= 8) return;
      if (!Array.isArray(v) && !(v instanceof Float32Array)) {
        issues.push(`vector ${i} is not an array of numbers`);
        return;
      }
      const values = v as ArrayLike<unknown>;
      const expected = dimensions ?? out[0]?.length;
      if (values.length === 0) issues.push(`vector ${i} is empty`);
      else if (expected !== undefined && values.length !== expected) issues.push(`vector ${i} has ${values.length} dimensions, expected ${expected}`);
      const vector = new Float32Array(values.length);
      for (let d = 0; d < values.length; d++) {
        const x = values[d];
        if (typeof x !== 'number' || !Number.isFinite(x)) {
          issues.push(`vector ${i} has a non-finite value at ${d}`);
          return;
        }
        vector[d] = x;
      }
      out.push(vector);
    });
    if (issues.length > 0) throw new LlmError('invalid-reply', `embeddings reply unusable: ${issues.slice(0, 3).join('; ')}`, { issues, usage: reply.usage });
    dimensions ??= out[0]?.length;
    return out;
  }

  async function embedBatch(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]> {
    const started = Date.now();
    let requests = 0;
    const reply = await semaphore.run(
      () =>
        withRetry(
          () => {
            requests++;
            return withDeadline(signal, cfg.timeoutMs, cfg.provider === 'openai' ? openaiErrorToLlmError : ollamaErrorToLlmError, (s) => raw(texts, s));
          },
          {
            ...deps.retry,
            signal,
            onRetry: ({ attempt, delayMs, error }) =>
              log.warn(`llm: ${EMBEDDINGS_PHASE}: ${error.reason}, retry ${attempt}/${deps.retry?.retries ?? 4} in ${delayMs} ms (${redact(error.message)})`),
          },
        ),
      signal,
    );
    try {
      const vectors = check(reply, texts.length);
      ledger.add(EMBEDDINGS_PHASE, reply.usage, undefined, requests);
      log.debug(`llm: ${EMBEDDINGS_PHASE}: ${texts.length} texts in ${Date.now() - started} ms, ${reply.usage.promptTokens} tokens${reply.usage.estimated ? ' (estimated)' : ''}`);
      return vectors;
    } catch (error) {
      ledger.add(EMBEDDINGS_PHASE, reply.usage, undefined, requests);
      throw error;
    }
  }

  async function embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw new CancelledError('llm: call cancelled');
    if (texts.length === 0) return [];
    const inputs = texts.map((t) => prepareInput(t, cfg.maxInputChars));
    const batches: string[][] = [];
    for (let i = 0; i < inputs.length; i += cfg.batchSize) batches.push(inputs.slice(i, i + cfg.batchSize));
    // One controller for all batches: the caller's cancel, or the first failure, stops the rest.
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let firstError: unknown;
    try {
      const settled = await Promise.allSettled(
        batches.map((batch) =>
          embedBatch(batch, controller.signal).catch((error: unknown) => {
            if (firstError === undefined) {
              firstError = error;
              controller.abort();
            }
            throw error;
          }),
        ),
      );
      if (firstError === undefined) return settled.flatMap((s) => (s.status === 'fulfilled' ? s.value : []));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    const error = firstError;
    if (signal?.aborted || error instanceof CancelledError || (error instanceof LlmError && error.reason === 'cancelled')) {
      log.debug(`llm: ${EMBEDDINGS_PHASE}: cancelled`);
      throw error instanceof CancelledError ? error : new CancelledError('llm: call cancelled');
    }
    // The API key and any URL's credentials out of the message, stack and causes.
    scrubError(error, redact);
    if (error instanceof LlmError) {
      log.warn(`llm: ${EMBEDDINGS_PHASE}: ${texts.length} texts failed (${error.reason}): ${error.message}`);
    }
    throw error;
  }

  return {
    provider: cfg.provider,
    model: cfg.model,
    dimensions: cfg.dimensions,
    embed,
  };
}

/** The text as sent: cut to `maxChars` (not inside a surrogate pair); never empty (servers reject ''). */
function prepareInput(text: string, maxChars: number): string {
  let out = text;
  if (out.length > maxChars) {
    let end = maxChars;
    if (/[\udc00-\udfff]/.test(out[end] ?? '')) end--;
    out = out.slice(0, end);
  }
  return out.trim() === '' ? ' ' : out;
}

function estimatedUsage(texts: readonly string[]): Usage {
  return { promptTokens: texts.reduce((sum, t) => sum + estimateTokens(t), 0), completionTokens: 0, estimated: true };
}

function openaiEmbedCall(cfg: EmbeddingConfig, log: Logger, fetchImpl: typeof fetch | undefined): RawEmbedCall {
  const client = createOpenAIClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey, timeoutMs: cfg.timeoutMs, log, fetch: fetchImpl });
  return async (texts, signal) => {
    // `float`, not the SDK's default base64: OpenAI-compatible servers do not all support it.
    const response = await client.embeddings.create(
      { model: cfg.model, input: [...texts], encoding_format: 'float', ...(cfg.dimensions !== undefined ? { dimensions: cfg.dimensions } : {}) },
      { signal },
    );
    const data: unknown = response?.data;
    if (!Array.isArray(data)) throw new LlmError('invalid-reply', 'embeddings reply has no data list', { issues: ['data: not an array'] });
    // Order by `index` (servers may answer out of order); each index exactly once.
    const vectors: unknown[] = new Array<unknown>(data.length);
    for (const entry of data as unknown[]) {
      const index = (entry as { index?: unknown } | null)?.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= data.length || vectors[index] !== undefined) {
        throw new LlmError('invalid-reply', `embeddings reply has a bad or repeated index ${String(index)}`, { issues: [`data.index: ${String(index)}`] });
      }
      vectors[index] = (entry as { embedding?: unknown }).embedding;
    }
    const reported = response.usage;
    const known = reported !== undefined && reported !== null && Number.isInteger(reported.prompt_tokens);
    return { vectors, usage: known ? { promptTokens: reported.prompt_tokens, completionTokens: 0, estimated: false } : estimatedUsage(texts) };
  };
}

function ollamaEmbedCall(cfg: EmbeddingConfig, fetchImpl: typeof fetch | undefined): RawEmbedCall {
  return async (texts, signal) => {
    const { client, failedHeaders } = createOllamaClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey, fetch: fetchImpl }, signal);
    let response: Awaited<ReturnType<typeof client.embed>>;
    try {
      // truncate: an over-long chunk is still worth a vector of its beginning.
      response = await client.embed({ model: cfg.model, input: [...texts], truncate: true, ...(cfg.dimensions !== undefined ? { dimensions: cfg.dimensions } : {}) });
    } catch (error) {
      throw attachRetryAfter(error, failedHeaders());
    }
    const vectors: unknown = response?.embeddings;
    if (!Array.isArray(vectors)) throw new LlmError('invalid-reply', 'embeddings reply has no embeddings list', { issues: ['embeddings: not an array'] });
    const prompt = response.prompt_eval_count;
    return { vectors, usage: Number.isInteger(prompt) ? { promptTokens: prompt, completionTokens: 0, estimated: false } : estimatedUsage(texts) };
  };
}

/**
 * Runs `fn` with a signal that aborts when `signal` does or after `timeoutMs`, and maps what it
 * throws: cancel → `LlmError('cancelled')`, deadline → `LlmError('timeout')`, else `toLlmError`.
 */
async function withDeadline<T>(signal: AbortSignal, timeoutMs: number, toLlmError: (error: unknown) => unknown, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (signal.aborted) throw new LlmError('cancelled', 'call cancelled');
  // Not AbortSignal.any: on Node 20 it leaks when one input is long-lived (see structured.ts).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(controller.signal);
  } catch (error) {
    if (signal.aborted) throw new LlmError('cancelled', 'call cancelled', { cause: error });
    if (timedOut) throw new LlmError('timeout', `no reply within ${timeoutMs} ms`, { cause: error });
    throw toLlmError(error);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
