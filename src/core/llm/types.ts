/**
 * The model layer's vocabulary: messages, structured requests and results, streamed text
 * requests and results, the provider interface both real providers implement, and the one
 * typed error they throw. The streaming loop both providers share is in `textStream.ts`.
 */
import type { z } from 'zod';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens of one call (or a sum of calls). `estimated` when the server did not report them. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  estimated: boolean;
}

/** A request whose reply must be JSON validating with `schema`. */
export interface StructuredRequest<T> {
  messages: readonly ChatMessage[];
  /** The reply's shape; its JSON schema (zod 4 `z.toJSONSchema`) constrains the model. */
  schema: z.ZodType<T>;
  /** Name of the schema sent to the server (OpenAI `json_schema.name`); `[A-Za-z0-9_-]`, others are replaced. */
  schemaName: string;
  /** Usage is accounted per phase (e.g. `'markers'`). */
  phase: string;
  /** And optionally per step within the phase (e.g. `'transcript'`). */
  step?: string;
  /** Aborting it aborts the HTTP request in flight, a queued call, or a retry wait. */
  signal?: AbortSignal;
  /** Completion-token cap (OpenAI `max_tokens`, Ollama `num_predict`). */
  maxTokens?: number;
  /** Sampling temperature; Ollama defaults to 0, OpenAI-compatible servers to their own default. */
  temperature?: number;
}

/** A validated reply. */
export interface StructuredResult<T> {
  value: T;
  /** Tokens of every model call it took (a repair round adds its own). */
  usage: Usage;
  /** True when the first reply failed to parse or validate and the repair round fixed it. */
  repaired: boolean;
  /** Model calls it took: 1, or 2 with a repair round. */
  attempts: number;
}

/** A request for a free-text (e.g. Markdown) answer, streamed as it is written. */
export interface TextStreamRequest {
  messages: readonly ChatMessage[];
  /** Usage is accounted per phase (e.g. `'chat'`). */
  phase: string;
  /** And optionally per step within the phase (e.g. `'answer'`). */
  step?: string;
  /**
   * Aborting it aborts the HTTP stream (or a queued call, or a retry wait). After the first
   * delta the call resolves with what arrived so far (`finishReason: 'cancelled'`); before it,
   * it rejects (see {@link ModelProvider.streamText}, `ModelClient.streamText`).
   */
  signal?: AbortSignal;
  /** Completion-token cap (OpenAI `max_tokens`, Ollama `num_predict`). */
  maxTokens?: number;
  /** Sampling temperature; Ollama defaults to 0, OpenAI-compatible servers to their own default. */
  temperature?: number;
}

/** Why a streamed answer ended: complete, cut at the token limit, or cancelled by the caller. */
export type TextStreamFinishReason = 'stop' | 'length' | 'cancelled';

/** A streamed answer once it has ended. */
export interface TextStreamResult {
  /** Every delta joined: the answer as far as it got. */
  text: string;
  /** The server's counts when it reported them (not for a cancelled stream), else estimated. */
  usage: Usage;
  /** `stop` also covers other server-side ends (OpenAI `content_filter`, `tool_calls`). */
  finishReason: TextStreamFinishReason;
}

/** Receives each piece of a streamed answer, in order; never called with ''. */
export type TextDeltaHandler = (text: string) => void;

/** One model behind one protocol. Implementations: `OpenAIProvider`, `OllamaProvider`. */
export interface ModelProvider {
  readonly kind: 'openai' | 'ollama';
  readonly model: string;
  /** The context size windows must fit in (and, for Ollama, the `num_ctx` sent with every call). */
  readonly contextTokens: number;
  /**
   * One structured call (plus at most one repair round). Throws {@link LlmError}; no retries at
   * this level (the model client's retry layer decides).
   */
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /**
   * One streamed text call: `onDelta` gets each piece as it arrives; resolves once the server
   * ends the answer. No retries at this level. Both built-in providers implement it; it is
   * optional only so that stub providers need not (`ModelClient.streamText` then throws
   * `LlmError('config')`).
   *
   * Cancellation: when `req.signal` aborts after the first delta, resolves with the text so far
   * and `finishReason: 'cancelled'` (usage estimated); before it, rejects with
   * `LlmError('cancelled')`.
   * @throws LlmError for every failure; when deltas were already delivered it carries the
   * (estimated) `usage` of the partial answer. An error thrown by `onDelta` aborts the stream
   * and is rethrown unchanged.
   */
  streamText?(req: TextStreamRequest, onDelta: TextDeltaHandler): Promise<TextStreamResult>;
}

/** Why a model call failed. `rate-limited`, `server`, `network` and `timeout` are worth retrying. */
export type LlmErrorReason =
  | 'context-length'
  | 'invalid-reply'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'auth'
  | 'config';

/** Reasons {@link withRetry} retries. */
export const RETRYABLE_REASONS: ReadonlySet<LlmErrorReason> = new Set<LlmErrorReason>(['rate-limited', 'server', 'network', 'timeout']);

/** Details an {@link LlmError} may carry. */
export interface LlmErrorDetails {
  /** The underlying error (SDK error, fetch error, ...). */
  cause?: unknown;
  /** HTTP status, when there was a response. */
  status?: number;
  /** The server's `retry-after` in milliseconds, when it sent one. */
  retryAfterMs?: number;
  /** For `invalid-reply`: the validation issues (or the JSON parse error) of the last reply. */
  issues?: readonly string[];
  /** Tokens spent on the failed call, when known (e.g. both rounds of an `invalid-reply`). */
  usage?: Usage;
}

/** The one error the model layer throws; test `reason`. Messages start with `llm:`. */
export class LlmError extends Error {
  readonly reason: LlmErrorReason;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly issues: readonly string[] | undefined;
  readonly usage: Usage | undefined;

  constructor(reason: LlmErrorReason, message: string, details: LlmErrorDetails = {}) {
    super(message.startsWith('llm:') ? message : `llm: ${message}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'LlmError';
    this.reason = reason;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.issues = details.issues;
    this.usage = details.usage;
  }
}

/** True for an {@link LlmError} with reason `context-length` (the caller should shrink its window). */
export function isContextLengthError(error: unknown): error is LlmError {
  return error instanceof LlmError && error.reason === 'context-length';
}

/** True for an {@link LlmError} whose reason {@link withRetry} retries. */
export function isRetryableError(error: unknown): error is LlmError {
  return error instanceof LlmError && RETRYABLE_REASONS.has(error.reason);
}

/**
 * True for any cancellation: `CancelledError` (util/abort) or `LlmError('cancelled')` — both
 * carry `reason === 'cancelled'`.
 */
export function isCancellation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { reason?: unknown }).reason === 'cancelled';
}

// ---------------------------------------------------------------------------
// The streaming loop both providers share
// ---------------------------------------------------------------------------
