/**
 * OpenAI-compatible provider (OpenAI, Qwen/DashScope, DeepSeek, vLLM, LM Studio, ...) through
 * the `openai` package. Structured output with `response_format: json_schema` (or `json_object`
 * plus the schema in the system prompt, for servers without json_schema); streamed text with
 * `stream: true` and `stream_options.include_usage`. The SDK's own retries are off: the model
 * client's retry layer decides.
 */
import OpenAI from 'openai';
import type { Logger } from '../util/log';
import { nullLogger } from '../util/log';
import { parseRetryAfter } from './retry';
import { jsonSchemaFor, runStructured, safeSchemaName, type RawReply } from './structured';
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

/** How an OpenAI-compatible server is asked for JSON. */
export type OpenAIJsonMode = 'json_schema' | 'json_object';

/** Options of {@link OpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** e.g. `https://api.openai.com/v1`, `https://dashscope.aliyuncs.com/compatible-mode/v1`, `http://127.0.0.1:1234/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; local servers usually need none. */
  apiKey?: string;
  /** The model's context size (used by callers to size windows). */
  contextTokens: number;
  /** Deadline of each HTTP request, until the whole body has arrived. */
  timeoutMs: number;
  /** Default `json_schema`; `json_object` for servers that only support that. */
  jsonMode?: OpenAIJsonMode;
  /** Where the SDK's own warnings go (nothing secret: the SDK redacts auth headers). */
  log?: Logger;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * A {@link ModelProvider} for OpenAI-compatible chat completion endpoints.
 *
 * @example
 * ```ts
 * const provider = new OpenAIProvider({ baseUrl: 'https://api.deepseek.com/v1', model: 'deepseek-chat', apiKey, contextTokens: 65_536, timeoutMs: 120_000 });
 * const { value } = await provider.complete({ messages, schema: transcriptWindowReplySchema, schemaName: 'transcript_window', phase: 'markers' });
 * ```
 */
export class OpenAIProvider implements ModelProvider {
  readonly kind = 'openai' as const;
  readonly model: string;
  readonly contextTokens: number;
  readonly #client: OpenAI;
  readonly #options: OpenAIProviderOptions;
  readonly #log: Logger;

  constructor(options: OpenAIProviderOptions) {
    this.model = options.model;
    this.contextTokens = options.contextTokens;
    this.#options = options;
    this.#log = options.log ?? nullLogger;
    this.#client = createOpenAIClient(options);
  }

  /** See {@link ModelProvider.complete}. */
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const jsonSchema = jsonSchemaFor(req.schema);
    const name = safeSchemaName(req.schemaName);
    const mode = this.#options.jsonMode ?? 'json_schema';
    const call = async (messages: readonly ChatMessage[], signal: AbortSignal): Promise<RawReply> => {
      const sent = mode === 'json_object' ? withSchemaInSystemPrompt(messages, jsonSchema) : messages.map((m) => ({ role: m.role, content: m.content }));
      const completion = await this.#client.chat.completions.create(
        {
          model: this.model,
          messages: sent,
          response_format: mode === 'json_object' ? { type: 'json_object' } : { type: 'json_schema', json_schema: { name, schema: jsonSchema, strict: false } },
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
          stream: false,
        },
        { signal },
      );
      const choice = completion.choices?.[0];
      const content = choice?.message?.content ?? '';
      const refusal = choice?.message?.refusal;
      const reported = completion.usage;
      const hasUsage = reported !== undefined && reported !== null && Number.isInteger(reported.prompt_tokens) && Number.isInteger(reported.completion_tokens);
      return {
        content: content === '' && typeof refusal === 'string' ? `(refused: ${refusal})` : content,
        usage: hasUsage
          ? { promptTokens: reported.prompt_tokens, completionTokens: reported.completion_tokens, estimated: false }
          : { promptTokens: estimateMessagesTokens(sent), completionTokens: estimateTokens(content), estimated: true },
        truncated: choice?.finish_reason === 'length',
      };
    };
    return runStructured(req, call, { timeoutMs: this.#options.timeoutMs, toLlmError: openaiErrorToLlmError, log: this.#log });
  }

  /**
   * See {@link ModelProvider.streamText}. `timeoutMs` bounds the wait for the response and each
   * silence between events. Refusal text is streamed like content.
   */
  streamText(req: TextStreamRequest, onDelta: TextDeltaHandler): Promise<TextStreamResult> {
    const open = async (signal: AbortSignal): Promise<AsyncIterable<TextStreamPiece>> => {
      const stream = await this.#client.chat.completions.create(
        {
          model: this.model,
          messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      );
      return openaiPieces(stream);
    };
    return runTextStream(req, onDelta, { timeoutMs: this.#options.timeoutMs, open, toLlmError: openaiStreamErrorToLlmError });
  }
}

/** The SDK's chunks as {@link TextStreamPiece}s. (On abort the SDK's iterator just ends.) */
async function* openaiPieces(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): AsyncGenerator<TextStreamPiece> {
  for await (const chunk of stream) {
    const piece: TextStreamPiece = {};
    const choice = chunk.choices?.[0];
    const delta = choice?.delta;
    const text = `${typeof delta?.content === 'string' ? delta.content : ''}${typeof delta?.refusal === 'string' ? delta.refusal : ''}`;
    if (text !== '') piece.text = text;
    if (choice?.finish_reason !== undefined && choice.finish_reason !== null) piece.finish = choice.finish_reason === 'length' ? 'length' : 'stop';
    const usage = chunk.usage;
    if (usage !== undefined && usage !== null) {
      if (Number.isInteger(usage.prompt_tokens)) piece.promptTokens = usage.prompt_tokens;
      if (Number.isInteger(usage.completion_tokens)) piece.completionTokens = usage.completion_tokens;
    }
    yield piece;
  }
}

const NETWORK_MESSAGE = /terminated|fetch failed|network|socket|other side closed|ECONN|EPIPE/i;

/**
 * {@link openaiErrorToLlmError} plus what only happens mid-stream: an `error` event in the
 * stream (an APIError without a status) → `context-length` when it names the context, else
 * `server`; the connection lost while reading the body (undici's `TypeError: terminated`) →
 * `network`.
 */
export function openaiStreamErrorToLlmError(error: unknown): unknown {
  if (error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIConnectionError) && !(error instanceof OpenAI.APIUserAbortError) && error.status === undefined) {
    if (error.code === 'context_length_exceeded' || CONTEXT_MESSAGE.test(error.message)) {
      return new LlmError('context-length', `prompt exceeds the model's context: ${error.message}`, { cause: error });
    }
    return new LlmError('server', `error in stream: ${error.message}`, { cause: error });
  }
  const mapped = openaiErrorToLlmError(error);
  if (mapped !== error) return mapped;
  if (error instanceof TypeError && NETWORK_MESSAGE.test(`${error.message} ${String(error.cause ?? '')}`)) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : `: ${error.message}`;
    return new LlmError('network', `connection lost${cause}`, { cause: error });
  }
  return error;
}

/**
 * The `openai` SDK client every OpenAI-compatible call goes through: the SDK's own retries off
 * (the model client's retry layer decides), the request deadline as its timeout, an explicit key
 * (never `OPENAI_API_KEY` from the environment), its warnings into `options.log`.
 */
export function createOpenAIClient(options: Pick<OpenAIProviderOptions, 'baseUrl' | 'apiKey' | 'timeoutMs' | 'log' | 'fetch'>): OpenAI {
  const log = options.log ?? nullLogger;
  const sdkLine = (message: string, rest: unknown[]): string =>
    `llm: openai sdk: ${message}${rest.length > 0 ? ` ${rest.map((r) => (typeof r === 'string' ? r : safeJson(r))).join(' ')}` : ''}`;
  return new OpenAI({
    baseURL: options.baseUrl,
    // Always explicit, so the SDK never falls back to OPENAI_API_KEY on its own.
    apiKey: options.apiKey !== undefined && options.apiKey !== '' ? options.apiKey : 'not-needed',
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: 'warn',
    logger: {
      error: (m, ...rest) => log.error(sdkLine(m, rest)),
      warn: (m, ...rest) => log.warn(sdkLine(m, rest)),
      info: (m, ...rest) => log.info(sdkLine(m, rest)),
      debug: (m, ...rest) => log.debug(sdkLine(m, rest)),
    },
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
  });
}

const CONTEXT_MESSAGE = /context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long|reduce the length/i;

/**
 * Maps an `openai` SDK error to an {@link LlmError}: 429 → `rate-limited` (but
 * `insufficient_quota` → `auth`), 5xx/408/409 → `server`, 401/403 → `auth`, 404 and other 4xx →
 * `config`, context-length code or message (400/413) → `context-length`, user abort →
 * `cancelled`, connection timeout → `timeout`, connection error → `network`, an unparsable
 * response body → `server`. Other errors are returned unchanged.
 */
export function openaiErrorToLlmError(error: unknown): unknown {
  if (error instanceof LlmError) return error;
  if (error instanceof OpenAI.APIUserAbortError) return new LlmError('cancelled', 'call cancelled', { cause: error });
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', `request timed out: ${error.message}`, { cause: error });
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new LlmError('network', `connection failed${cause}`, { cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const details = { cause: error, status, retryAfterMs: parseRetryAfter(error.headers) };
    // The SDK's message already starts with the status ("429 Rate limit reached…"): say it once.
    const said = serverWords(error.message, status);
    const http = `HTTP ${status ?? '?'}`;
    if (error.code === 'context_length_exceeded' || ((status === 400 || status === 413) && CONTEXT_MESSAGE.test(error.message))) {
      return new LlmError('context-length', `prompt exceeds the model's context (${http}): ${said}`, details);
    }
    if (status === 429) {
      if (error.code === 'insufficient_quota') return new LlmError('auth', `the model account's quota is exhausted (${http}): ${said}`, details);
      return new LlmError('rate-limited', `the model server is rate-limiting requests (${http}): ${said}`, details);
    }
    if (status === 401 || status === 403) return new LlmError('auth', `the model server rejected the API key (${http}): ${said}`, details);
    if (status !== undefined && (status >= 500 || status === 408 || status === 409)) return new LlmError('server', `the model server failed (${http}): ${said}`, details);
    return new LlmError('config', `the model server rejected the request (${http}): ${said}`, details);
  }
  if (error instanceof SyntaxError) return new LlmError('server', `unparsable response from server: ${error.message}`, { cause: error });
  return error;
}

/**
 * What the server said, without the status the SDK puts in front ("429 Rate limit reached" →
 * "Rate limit reached"; "500 status code (no body)" → "no body").
 */
export function serverWords(message: string, status: number | undefined): string {
  let text = message.trim();
  if (status !== undefined) {
    const prefix = `${status} `;
    while (text.startsWith(prefix)) text = text.slice(prefix.length).trim();
  }
  if (/^status code \(no body\)$/i.test(text)) return 'no body';
  return text === '' ? 'no message' : text;
}

function withSchemaInSystemPrompt(messages: readonly ChatMessage[], schema: Record<string, unknown>): ChatMessage[] {
  const instruction = `Reply with one JSON object that validates against this JSON schema:\n${JSON.stringify(schema)}`;
  const out = messages.map((m) => ({ role: m.role, content: m.content }));
  const system = out.findIndex((m) => m.role === 'system');
  if (system >= 0) {
    const current = out[system];
    if (current !== undefined) out[system] = { role: 'system', content: `${current.content}\n\n${instruction}` };
  } else {
    out.unshift({ role: 'system', content: instruction });
  }
  return out;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
