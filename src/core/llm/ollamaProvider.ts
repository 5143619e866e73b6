/**
 * Ollama provider through the `ollama` package. Every request sets `num_ctx` (Ollama silently
 * truncates prompts beyond its context otherwise) and `truncate: false` (so an over-long prompt
 * is an error, not a cut), and is aborted through a custom `fetch` that carries the request's
 * signal (ollama 0.6.4 passes none for `stream: false`; for `stream: true` it passes its own,
 * which only `ollama.abort()`/the iterator's `abort()` trigger, and only once the response has
 * started — our signal aborts at any stage, also before the headers).
 */
import { Ollama, type ChatRequest, type ChatResponse } from 'ollama';
import type { Logger } from '../util/log';
import { nullLogger } from '../util/log';
import { parseRetryAfter } from './retry';
import { jsonSchemaFor, runStructured, type RawReply } from './structured';
import { estimateMessagesTokens, estimateTokens } from './tokens';
import {
  LlmError,
  type ChatMessage,
  type ModelProvider,
  type StructuredRequest,
  type StructuredResult,
  type TextDeltaHandler,
  type TextStreamRequest,
  type TextStreamResult,
} from './types';
import { runTextStream, type TextStreamPiece } from './textStream';

/** Options of {@link OllamaProvider}. */
export interface OllamaProviderOptions {
  /** e.g. `http://127.0.0.1:11434`. */
  baseUrl: string;
  model: string;
  /** Sent as `num_ctx` with every request. */
  contextTokens: number;
  /** Deadline of each HTTP request, until the whole body has arrived. */
  timeoutMs: number;
  /** Optional bearer token (Ollama behind an authenticating proxy). */
  apiKey?: string;
  log?: Logger;
  /** A fetch implementation (default: the global one); the request's signal is added to it. */
  fetch?: typeof fetch;
}

/** ollama 0.6.4's ChatRequest lacks `truncate`; recent servers honour it. */
type ChatRequestWithTruncate = ChatRequest & { stream: false; truncate: boolean };
/** The same, streamed. */
type StreamChatRequestWithTruncate = ChatRequest & { stream: true; truncate: boolean };

/**
 * A {@link ModelProvider} for an Ollama server's `/api/chat`.
 *
 * @example
 * ```ts
 * const provider = new OllamaProvider({ baseUrl: 'http://127.0.0.1:11434', model: 'qwen2.5:7b', contextTokens: 16_384, timeoutMs: 300_000 });
 * ```
 */
export class OllamaProvider implements ModelProvider {
  readonly kind = 'ollama' as const;
  readonly model: string;
  readonly contextTokens: number;
  readonly #options: OllamaProviderOptions;
  readonly #log: Logger;

  constructor(options: OllamaProviderOptions) {
    this.model = options.model;
    this.contextTokens = options.contextTokens;
    this.#options = options;
    this.#log = options.log ?? nullLogger;
  }

  /** See {@link ModelProvider.complete}. */
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const format = jsonSchemaFor(req.schema);
    const call = async (messages: readonly ChatMessage[], signal: AbortSignal): Promise<RawReply> => {
      const { client, failedHeaders } = createOllamaClient(this.#options, signal);
      const request: ChatRequestWithTruncate = {
        model: this.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        format,
        stream: false,
        truncate: false,
        options: {
          num_ctx: this.contextTokens,
          temperature: req.temperature ?? 0,
          ...(req.maxTokens !== undefined ? { num_predict: req.maxTokens } : {}),
        },
      };
      let response: ChatResponse;
      try {
        response = await client.chat(request);
      } catch (error) {
        throw attachRetryAfter(error, failedHeaders());
      }
      const content = response.message?.content ?? '';
      const prompt = response.prompt_eval_count;
      const completion = response.eval_count;
      const promptKnown = Number.isInteger(prompt);
      const completionKnown = Number.isInteger(completion);
      return {
        content,
        usage: {
          promptTokens: promptKnown ? prompt : estimateMessagesTokens(messages),
          completionTokens: completionKnown ? completion : estimateTokens(content),
          estimated: !(promptKnown && completionKnown),
        },
        truncated: response.done_reason === 'length',
      };
    };
    return runStructured(req, call, { timeoutMs: this.#options.timeoutMs, toLlmError: ollamaErrorToLlmError, log: this.#log });
  }

  /**
   * See {@link ModelProvider.streamText}. `num_ctx` and `truncate: false` as for `complete`;
   * `timeoutMs` bounds the wait for the response and each silence between lines. Aborted
   * through the fetch's signal (see the module comment), never `ollama.abort()`.
   */
  streamText(req: TextStreamRequest, onDelta: TextDeltaHandler): Promise<TextStreamResult> {
    const open = async (signal: AbortSignal): Promise<AsyncIterable<TextStreamPiece>> => {
      const baseFetch = this.#options.fetch ?? fetch;
      const { client, failedHeaders } = createOllamaClient({ ...this.#options, fetch: strictNdjsonFetch(baseFetch) }, signal);
      const request: StreamChatRequestWithTruncate = {
        model: this.model,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        truncate: false,
        options: {
          num_ctx: this.contextTokens,
          temperature: req.temperature ?? 0,
          ...(req.maxTokens !== undefined ? { num_predict: req.maxTokens } : {}),
        },
      };
      try {
        return ollamaPieces(await client.chat(request));
      } catch (error) {
        throw attachRetryAfter(error, failedHeaders());
      }
    };
    return runTextStream(req, onDelta, { timeoutMs: this.#options.timeoutMs, open, toLlmError: ollamaStreamErrorToLlmError });
  }
}

/** The client's messages as {@link TextStreamPiece}s; counts from the final (`done`) message. */
async function* ollamaPieces(stream: AsyncIterable<ChatResponse>): AsyncGenerator<TextStreamPiece> {
  for await (const message of stream) {
    const piece: TextStreamPiece = {};
    const content = message.message?.content;
    if (typeof content === 'string' && content !== '') piece.text = content;
    if (message.done === true) {
      piece.finish = message.done_reason === 'length' ? 'length' : 'stop';
      if (Number.isInteger(message.prompt_eval_count)) piece.promptTokens = message.prompt_eval_count;
      if (Number.isInteger(message.eval_count)) piece.completionTokens = message.eval_count;
    }
    yield piece;
  }
}

/**
 * A fetch whose successful NDJSON bodies are checked line by line: the first line that is not
 * JSON becomes `{"error": "invalid JSON line in stream ..."}` and ends the body (the client then
 * throws it, after every good line before it: → `server`), where ollama 0.6.4 would
 * `console.warn` the line and skip it.
 */
function strictNdjsonFetch(baseFetch: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok || response.body === null) return response;
    return new Response(response.body.pipeThrough(ndjsonValidator()), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function ndjsonValidator(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder('utf-8');
  const encoder = new TextEncoder();
  let buffer = '';
  let broken = false;
  /** Passes the good lines of `lines` on; at the first bad one, an error line instead, then the end. */
  const pass = (lines: readonly string[], controller: TransformStreamDefaultController<Uint8Array>): void => {
    let good = '';
    for (const line of lines) {
      if (line.trim() !== '') {
        try {
          JSON.parse(line);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          controller.enqueue(encoder.encode(`${good}${JSON.stringify({ error: `invalid JSON line in stream (${reason})` })}\n`));
          broken = true;
          // Queued lines stay readable; the source is cancelled, which closes the connection.
          controller.terminate();
          return;
        }
      }
      good += `${line}\n`;
    }
    if (good !== '') controller.enqueue(encoder.encode(good));
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (broken) return;
      buffer += decoder.decode(chunk, { stream: true });
      const end = buffer.lastIndexOf('\n');
      if (end < 0) return;
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 1);
      pass(lines, controller);
    },
    flush(controller) {
      if (broken) return;
      buffer += decoder.decode();
      if (buffer.trim() !== '') pass([buffer], controller);
    },
  });
}

const STREAM_INCOMPLETE = 'Did not receive done or success response in stream.';

/**
 * {@link ollamaErrorToLlmError} plus what only happens mid-stream: the client's plain `Error`s
 * (an `{"error": ...}` line in the stream → `context-length` when it names the context, else
 * `server`; a stream that ended without its `done` line → `server`).
 */
export function ollamaStreamErrorToLlmError(error: unknown): unknown {
  const mapped = ollamaErrorToLlmError(error);
  if (mapped !== error) return mapped;
  if (error instanceof Error && error.constructor === Error) {
    if (error.message === STREAM_INCOMPLETE) return new LlmError('server', 'the stream ended before the answer was complete', { cause: error });
    const message = runnerMessage(error.message);
    if (isRunnerContextError(error.message) || CONTEXT_MESSAGE.test(message)) {
      return new LlmError('context-length', `prompt exceeds the model's context: ${message}`, { cause: error });
    }
    return new LlmError('server', `error in stream: ${message}`, { cause: error });
  }
  return error;
}

/**
 * An `ollama` client for one request: its fetch carries `signal` (ollama 0.6.4 passes none for
 * non-streamed calls), turns non-JSON error bodies into JSON (see {@link asJsonError}) and
 * remembers the headers of an error response (for retry-after, which `ResponseError` does not
 * keep; pass them to {@link attachRetryAfter}).
 */
export function createOllamaClient(
  options: Pick<OllamaProviderOptions, 'baseUrl' | 'apiKey' | 'fetch'>,
  signal: AbortSignal,
): { client: Ollama; failedHeaders: () => Headers | undefined } {
  const baseFetch = options.fetch ?? fetch;
  let failed: Headers | undefined;
  const client = new Ollama({
    host: options.baseUrl,
    fetch: async (input, init) => {
      const response = await baseFetch(input, { ...init, signal });
      if (response.ok) return response;
      failed = response.headers;
      return asJsonError(response);
    },
    ...(options.apiKey !== undefined && options.apiKey !== '' ? { headers: { Authorization: `Bearer ${options.apiKey}` } } : {}),
  });
  return { client, failedHeaders: () => failed };
}

/**
 * ollama 0.6.4 `console.log`s while reading a non-JSON error body (a proxy's HTML 502, a wrong
 * path's "404 page not found"), which would corrupt a CLI's JSON on stdout: hand it the body as
 * `{"error": text}` instead.
 */
async function asJsonError(response: Response): Promise<Response> {
  if ((response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const text = (await response.text().catch(() => '')).trim().slice(0, 2_000);
  return new Response(JSON.stringify({ error: text === '' ? `Error ${response.status}: ${response.statusText}` : text }), {
    status: response.status,
    statusText: response.statusText,
    headers: { 'content-type': 'application/json' },
  });
}

/** An error carrying the failed response's retry-after, for {@link ollamaErrorToLlmError}. */
interface WithRetryAfter {
  llmRetryAfterMs?: number;
}

/** Remembers a failed response's retry-after on the client's error, for {@link ollamaErrorToLlmError}. */
export function attachRetryAfter(error: unknown, headers: Headers | undefined): unknown {
  const ms = parseRetryAfter(headers);
  if (ms !== undefined && typeof error === 'object' && error !== null) (error as WithRetryAfter).llmRetryAfterMs = ms;
  return error;
}

const CONTEXT_MESSAGE = /context/i;

/**
 * Maps an `ollama` client error to an {@link LlmError}: the runner's
 * `exceed_context_size_error` (JSON inside the error string), "the prompt is longer than the
 * context length" and other 400/413/500 errors naming the context → `context-length`; 429 →
 * `rate-limited`; 401/403 → `auth`; other 5xx/408 → `server`; 404 (model not pulled) and
 * other 4xx → `config`; fetch failures → `network`; an unparsable body → `server`. Other errors
 * are returned unchanged.
 */
export function ollamaErrorToLlmError(error: unknown): unknown {
  if (error instanceof LlmError) return error;
  if (error instanceof Error && error.name === 'ResponseError') {
    const status = (error as Error & { status_code?: unknown }).status_code;
    const code = typeof status === 'number' ? status : undefined;
    const details = { cause: error, status: code, retryAfterMs: (error as WithRetryAfter).llmRetryAfterMs };
    const message = runnerMessage(error.message);
    // The message may already start with the status ("Error 500: …", "500 …"): say it once.
    const said = message.trim().replace(code === undefined ? /^$/ : new RegExp(`^(?:error\\s*)?${code}\\b[:\\s]*`, 'i'), '') || 'no message';
    const http = `HTTP ${code ?? '?'}`;
    if (isRunnerContextError(error.message) || ((code === 400 || code === 413 || code === 500) && CONTEXT_MESSAGE.test(message))) {
      return new LlmError('context-length', `prompt exceeds the model's context: ${message}`, details);
    }
    if (code === 429) return new LlmError('rate-limited', `the model server is rate-limiting requests (${http}): ${said}`, details);
    if (code === 401 || code === 403) return new LlmError('auth', `the model server rejected the API key (${http}): ${said}`, details);
    if (code !== undefined && (code >= 500 || code === 408)) return new LlmError('server', `the model server failed (${http}): ${said}`, details);
    return new LlmError('config', `the model server rejected the request (${http}): ${said}`, details);
  }
  if (error instanceof SyntaxError) return new LlmError('server', `unparsable response from server: ${error.message}`, { cause: error });
  if (error instanceof TypeError && /fetch failed|network|socket|ECONN|EPIPE|terminated/i.test(`${error.message} ${String(error.cause ?? '')}`)) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new LlmError('network', `connection failed${cause}`, { cause: error });
  }
  return error;
}

/** The runner's own JSON error inside Ollama's `error` string, when it is one. */
function parseRunnerError(message: string): { type?: unknown; message?: unknown } | undefined {
  const trimmed = message.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(trimmed) as { error?: unknown };
    return typeof parsed.error === 'object' && parsed.error !== null ? (parsed.error as { type?: unknown; message?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

function isRunnerContextError(message: string): boolean {
  return parseRunnerError(message)?.type === 'exceed_context_size_error';
}

function runnerMessage(message: string): string {
  const inner = parseRunnerError(message);
  return typeof inner?.message === 'string' ? inner.message : message;
}
