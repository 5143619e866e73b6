/**
 * A deterministic fake language-model server for tests.
 *
 * It speaks enough of the OpenAI (`/v1/chat/completions`, `/v1/embeddings`,
 * `/v1/models`) and Ollama (`/api/chat`, `/api/embed`, `/api/tags`,
 * `/api/version`) HTTP protocols for the real `openai` and `ollama` npm clients
 * to talk to it, replies deterministically (structured-output requests get a
 * JSON document generated from the request's JSON schema; embeddings are
 * hashed bags of words, see {@link fakeEmbedding}), records every request and the
 * most requests in flight at once (the concurrency a client achieved), and can
 * inject faults: HTTP errors, slow replies, malformed JSON, wrong content, wrong
 * embeddings, context-length errors and connection resets.
 *
 * It binds to 127.0.0.1 only and never calls out anywhere.
 *
 * @example
 * ```ts
 * const server = await startFakeModelServer();
 * const client = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'test' });
 * server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 0 });
 * const reply = await client.chat.completions.create({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] });
 * await server.close();
 * ```
 *
 * Standalone: `node --import tsx test/support/fakeModelServer.ts [--port N] [--max-context-tokens N]`.
 *
 * @module
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

/** The two wire protocols the fake server speaks. */
export type ModelProtocol = 'openai' | 'ollama';

/** A JSON schema (draft 2020-12 / draft-07 subset), as produced by zod 4's `z.toJSONSchema`. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** One chat message, normalised across both protocols (content parts are joined into text). */
export interface ChatMessage {
  readonly role: string;
  readonly content: string;
}

/** A chat request, normalised across the OpenAI and Ollama protocols; what a {@link Responder} sees. */
export interface ChatRequestInfo {
  /** Which protocol the request arrived on. */
  readonly protocol: ModelProtocol;
  /** The requested model name. */
  readonly model: string;
  /** The conversation, in order. */
  readonly messages: readonly ChatMessage[];
  /** Whether the client asked for a streamed reply. */
  readonly stream: boolean;
  /**
   * The JSON schema the reply must follow, when the request asked for schema-constrained output
   * (OpenAI `response_format.type === 'json_schema'`, Ollama `format: {...}`).
   */
  readonly schema: JsonSchema | undefined;
  /** True for any structured-output request: a schema, OpenAI `json_object` or Ollama `format: "json"`. */
  readonly jsonMode: boolean;
  /** The completion-token cap (OpenAI `max_completion_tokens`/`max_tokens`, Ollama `options.num_predict`). */
  readonly maxTokens: number | undefined;
  /** The server's deterministic prompt-token estimate (see {@link estimateTokens}). */
  readonly promptTokens: number;
  /** The raw parsed request body. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The request's sequence number on this server (1-based, over all requests). */
  readonly seq: number;
}

/** What a responder returns: the reply text, optionally with token counts that override the estimate. */
export type ResponderResult =
  | string
  | {
      readonly content: string;
      readonly promptTokens?: number;
      readonly completionTokens?: number;
      /**
       * False: the reply carries no token counts (OpenAI: no `usage`; Ollama: no `prompt_eval_count`
       * / `eval_count`), like some OpenAI-compatible servers and Ollama on a prompt-cache hit. Default true.
       */
      readonly reportUsage?: boolean;
    };

/** Produces the assistant's reply text for a chat request. May be async (bounded by `responderTimeoutMs`). */
export type Responder = (request: ChatRequestInfo) => ResponderResult | Promise<ResponderResult>;

/**
 * Which requests a fault applies to: `chat` (`POST /v1/chat/completions`, `POST /api/chat`),
 * `embeddings` (`POST /v1/embeddings`, `POST /api/embed`) or `any` of them.
 */
export type FaultEndpoint = 'chat' | 'embeddings' | 'any';

/** An embeddings request, normalised across the OpenAI and Ollama protocols; what an {@link Embedder} sees. */
export interface EmbedRequestInfo {
  /** Which protocol the request arrived on. */
  readonly protocol: ModelProtocol;
  /** The requested model name. */
  readonly model: string;
  /** The texts to embed, in order (a single string input is a list of one). */
  readonly inputs: readonly string[];
  /** Dimensions of the vectors: the request's `dimensions`, else the server's `embeddingDimensions`. */
  readonly dimensions: number;
  /** The raw parsed request body. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The request's sequence number on this server (1-based, over all requests). */
  readonly seq: number;
}

/** Produces one vector per input of an embeddings request. May be async (bounded by `responderTimeoutMs`). */
export type Embedder = (request: EmbedRequestInfo) => readonly (readonly number[])[] | Promise<readonly (readonly number[])[]>;

/** Options common to every fault. */
export interface FaultBase {
  /** How many matching requests this fault applies to before it is used up (default 1; `Infinity` allowed). */
  readonly times?: number;
  /** Only apply to requests on this protocol (default: either). */
  readonly protocol?: ModelProtocol;
  /**
   * Which requests it applies to (default `chat`, so faults queued for chat requests are never
   * taken by embeddings requests). `badContent` only ever applies to chat requests and
   * `badEmbeddings` only to embeddings requests, whatever this says.
   */
  readonly endpoint?: FaultEndpoint;
}

/** Reply with an HTTP error status and the protocol's usual error body. */
export interface StatusFault extends FaultBase {
  readonly kind: 'status';
  readonly status: 429 | 500 | 502 | 503 | 504;
  /** Sent as `retry-after` (whole seconds, rounded up) and `retry-after-ms` (exact). */
  readonly retryAfterSeconds?: number;
  /** Overrides the default error message. */
  readonly message?: string;
}

/** Wait `delayMs` (capped at 60 s) before replying normally; stops early if the client goes away. */
export interface SlowFault extends FaultBase {
  readonly kind: 'slow';
  readonly delayMs: number;
  /**
   * Send the 200 status line and headers immediately and delay only the body. Lets a client see
   * the response start (e.g. so `ollama.abort()`, which only knows streams whose headers have
   * arrived, can abort it).
   */
  readonly headersFirst?: boolean;
}

/** HTTP 200 with a body (or first stream event) that is truncated, invalid JSON. */
export interface MalformedJsonFault extends FaultBase {
  readonly kind: 'malformedJson';
  /**
   * Streamed chat replies only: send this many stream events (OpenAI SSE events, the first
   * being the role-only one; Ollama NDJSON lines) intact, then the next one cut in half, then
   * end the body (a malformed stream mid-answer). Default: the first event is the cut one.
   * Ignored for replies that are not streamed.
   */
  readonly afterChunks?: number;
}

/** A valid protocol envelope whose message content is the given text (e.g. invalid JSON for a structured request). */
export interface BadContentFault extends FaultBase {
  readonly kind: 'badContent';
  readonly content: string;
}

/** The protocol's context-length error (see {@link FakeModelServerOptions.maxContextTokens}). */
export interface ContextLengthFault extends FaultBase {
  readonly kind: 'contextLength';
  /** The context size named in the error (default: the server's `maxContextTokens`, else 4096). */
  readonly contextTokens?: number;
}

/** Read the request, then destroy the socket without replying. */
export interface ResetConnectionFault extends FaultBase {
  readonly kind: 'resetConnection';
  /**
   * Chat requests only: reply first (status line, headers and this many body chunks: stream
   * events or NDJSON lines; a non-streamed body is one chunk), then destroy the socket — a
   * connection lost mid-stream. Default: destroy it without replying.
   */
  readonly afterChunks?: number;
}

/**
 * Embeddings requests only: HTTP 200 with a valid envelope but wrong vectors. JSON has no NaN,
 * so `nonFinite` sends `null` as the first value of the first vector (NaN in OpenAI's base64
 * encoding).
 */
export interface BadEmbeddingsFault extends FaultBase {
  readonly kind: 'badEmbeddings';
  /** Send this many vectors instead of one per input (extra ones repeat the last, or are all zero). */
  readonly count?: number;
  /** Send vectors of this many dimensions instead of the request's. */
  readonly dimensions?: number;
  /** Make the first value of the first vector non-finite. */
  readonly nonFinite?: boolean;
}

/** A fault to inject into upcoming chat (or embeddings) requests; see {@link FakeModelServer.injectFault}. */
export type Fault =
  | StatusFault
  | SlowFault
  | MalformedJsonFault
  | BadContentFault
  | ContextLengthFault
  | ResetConnectionFault
  | BadEmbeddingsFault;

/** The `kind` of a {@link Fault}. */
export type FaultKind = Fault['kind'];

/**
 * How a recorded request ended: still `pending`; `completed` (reply fully sent); `clientClosed`
 * (the client went away first, e.g. it aborted); `reset` (a `resetConnection` fault);
 * `serverClosed` (the server was closed while it was in flight).
 */
export type RequestOutcome = 'pending' | 'completed' | 'clientClosed' | 'reset' | 'serverClosed';

/** One request the server received. The mutable fields are filled in as the request is handled. */
export interface RecordedRequest {
  /** 1-based sequence number. */
  readonly seq: number;
  readonly method: string;
  /** The URL path, without the query string. */
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** When the request arrived (ms since the epoch, from the server's clock). */
  readonly time: number;
  /** The parsed JSON body; the raw text if it was not JSON; `undefined` if empty. */
  body: unknown;
  /** The protocol of the endpoint, if it is a known one. */
  protocol: ModelProtocol | undefined;
  /** For chat requests: the requested model. */
  model: string | undefined;
  /** For chat requests: the normalised messages. */
  messages: readonly ChatMessage[] | undefined;
  /** For embeddings requests: the texts to embed. */
  inputs: readonly string[] | undefined;
  /** For chat and embeddings requests: the fault that was applied, if any. */
  fault: FaultKind | undefined;
  /** The HTTP status sent, once the status line went out. */
  status: number | undefined;
  outcome: RequestOutcome;
}

/** Options for {@link startFakeModelServer}. */
export interface FakeModelServerOptions {
  /** Port to listen on (default 0: any free port). The host is always 127.0.0.1. */
  readonly port?: number;
  /**
   * When set, a chat request whose estimated prompt tokens exceed this gets the protocol's
   * context-length error, with no fault needed.
   */
  readonly maxContextTokens?: number;
  /** Model names listed by `/v1/models` and `/api/tags` (default `['fake-model']`). */
  readonly models?: readonly string[];
  /** Reject chat requests for models not in `models` with the protocol's 404 (default false). */
  readonly strictModels?: boolean;
  /** When set, OpenAI requests must carry `Authorization: Bearer <apiKey>` or get a 401. */
  readonly apiKey?: string;
  /** Initial responder (default {@link defaultResponder}). */
  readonly responder?: Responder;
  /** Code points per streamed content chunk (default 12). */
  readonly streamChunkChars?: number;
  /** Delay between streamed chunks in ms (default 0, capped at 1000). */
  readonly streamChunkDelayMs?: number;
  /** What `/api/version` reports (default `'0.12.6'`). */
  readonly ollamaVersion?: string;
  /** Clock for `created`/`created_at`/recorded times (default `Date.now`). */
  readonly now?: () => number;
  /**
   * A responder that takes longer than this gets a 500 (default 30 000 ms, capped at 120 000:
   * longer than an {@link inFlightGate}'s safety net, so a gate that gives up opens first).
   */
  readonly responderTimeoutMs?: number;
  /** Larger request bodies get a 413 (default 32 MiB). */
  readonly maxBodyBytes?: number;
  /** Dimensions of embedding vectors when a request does not ask for some (default 64). */
  readonly embeddingDimensions?: number;
  /** Initial embedder (default {@link defaultEmbedder}). */
  readonly embedder?: Embedder;
}

/** A running fake model server; see {@link startFakeModelServer}. */
export interface FakeModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** `baseURL` for the `openai` client: `${url}/v1`. */
  readonly openaiBaseUrl: string;
  /** `host` for the `ollama` client (= `url`). */
  readonly ollamaHost: string;
  /** Every request received since start or the last {@link reset}, oldest first (a live array). */
  readonly requests: readonly RecordedRequest[];
  /** The chat requests only (`POST /v1/chat/completions`, `POST /api/chat`), optionally of one protocol. */
  chatRequests(protocol?: ModelProtocol): RecordedRequest[];
  /** The embeddings requests only (`POST /v1/embeddings`, `POST /api/embed`), optionally of one protocol. */
  embeddingRequests(protocol?: ModelProtocol): RecordedRequest[];
  /** Faults not yet used up, in queue order. */
  readonly pendingFaults: readonly Fault[];
  /**
   * Queue a fault. Each chat request takes the first queued fault that matches its protocol and
   * whose `endpoint` is `chat` (the default) or `any`; each embeddings request the first whose
   * `endpoint` is `embeddings` or `any` (and every `badEmbeddings` fault). A fault is used up
   * after `times` requests (default 1). Other endpoints are never faulted.
   * @throws Error if the fault is malformed (unknown kind, bad status, negative delay, ...).
   */
  injectFault(fault: Fault): void;
  /** Replace the responder; `undefined` restores the one given in the options (or the default). */
  setResponder(responder: Responder | undefined): void;
  /** Replace the embedder; `undefined` restores the one given in the options (or the default). */
  setEmbedder(embedder: Embedder | undefined): void;
  /**
   * Resolve with the first recorded request that satisfies `predicate`, now or as requests arrive
   * and change state; reject after `timeoutMs` (default 60 000: a safety net, never a time limit
   * to assert) or when the server closes.
   */
  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Requests received and not yet closed (answered, aborted or reset), of any endpoint. */
  readonly inFlight: number;
  /**
   * The most requests that were in flight at once since start or the last {@link reset} (which
   * sets it to the current {@link inFlight}): the concurrency a client actually achieved.
   */
  readonly maxInFlight: number;
  /**
   * Resolve once `count` requests are in flight at once (now or later; a function is asked again
   * as each request arrives); reject after `timeoutMs` (default 60 000) with a message naming the
   * most seen, or when the server closes. Lets a responder hold requests until a client's
   * concurrency is reached, whatever the machine's load.
   */
  waitForInFlight(count: number | (() => number), timeoutMs?: number): Promise<void>;
  /** Forget recorded requests and queued faults, and restore the initial responder and embedder. */
  reset(): void;
  /** Stop listening and destroy every connection, idle keep-alive ones included. Idempotent. */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

const HOST = '127.0.0.1';
const MAX_DELAY_MS = 60_000;
const MAX_STREAM_CHUNK_DELAY_MS = 1_000;
const DEFAULT_CONTEXT_TOKENS = 4096;
const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;
const DEFAULT_RESPONDER_TIMEOUT_MS = 30_000;
const MAX_RESPONDER_TIMEOUT_MS = 2 * MAX_DELAY_MS;
const DEFAULT_WAIT_TIMEOUT_MS = MAX_DELAY_MS;

/**
 * A `slow` fault's `delayMs` that holds a request open longer than any test waits for it (the
 * longest delay the server allows): a test that cancels such a request and then sees it still
 * unanswered knows the cancel did not wait for the server, without reading a clock.
 */
export const HOLD_OPEN_MS = MAX_DELAY_MS;
const STATUS_FAULT_CODES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const FAULT_KINDS: ReadonlySet<string> = new Set<FaultKind>([
  'status',
  'slow',
  'malformedJson',
  'badContent',
  'contextLength',
  'resetConnection',
  'badEmbeddings',
]);
const DEFAULT_EMBEDDING_DIMENSIONS = 64;
const MAX_EMBEDDING_DIMENSIONS = 8_192;

// ---------------------------------------------------------------------------
// Token estimate and default responder
// ---------------------------------------------------------------------------

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/**
 * A deterministic token estimate: one token per CJK character plus one per four other characters
 * (rounded up). Used for prompts (over all message contents) and completions.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * The default reply: for a schema request, `JSON.stringify(generateFromJsonSchema(schema))`; for
 * plain JSON mode, `{"reply": "..."}`; otherwise `fake reply to: <first 60 chars of the last user message>`.
 */
export function defaultResponder(request: ChatRequestInfo): string {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = `fake reply to: ${Array.from(lastUser?.content ?? '').slice(0, 60).join('')}`;
  if (request.schema !== undefined) {
    return JSON.stringify(generateFromJsonSchema(request.schema));
  }
  if (request.jsonMode) {
    return JSON.stringify({ reply: text });
  }
  return text;
}

// ---------------------------------------------------------------------------
// Deterministic embeddings
// ---------------------------------------------------------------------------

/** Han, kana and hangul: embedded as character bigrams (no spaces between words). */
const CJK_LETTER = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
/** English function words left out of fake embeddings, so texts are close when they share content words. */
const EMBEDDING_STOPWORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by do does did for from had has have he her his i if in is it its me my no not of on or our she so than that the their them they this to us was we were what when where which who why will with you your'.split(' '),
);

/**
 * The tokens a fake embedding is made of: lowercase words of letters and digits (English
 * function words left out) and, for Chinese/Japanese/Korean runs, their character bigrams (a
 * single character on its own).
 */
export function embeddingTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    let run = '';
    const flushCjk = (): void => {
      const chars = Array.from(run);
      if (chars.length === 1) tokens.push(run);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(`${chars[i]}${chars[i + 1]}`);
      run = '';
    };
    let word = '';
    for (const ch of match[0]) {
      if (CJK_LETTER.test(ch)) {
        if (word !== '' && !EMBEDDING_STOPWORDS.has(word)) tokens.push(word);
        word = '';
        run += ch;
      } else {
        if (run !== '') flushCjk();
        word += ch;
      }
    }
    if (run !== '') flushCjk();
    if (word !== '' && !EMBEDDING_STOPWORDS.has(word)) tokens.push(word);
  }
  return tokens;
}

/** FNV-1a, 32 bits, over the UTF-16 code units of `text`. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A deterministic, L2-normalised embedding of `text`: each of its {@link embeddingTokens} is
 * hashed to one dimension and a sign, and the counts are added up. Texts that share words are
 * close (cosine), texts that share none are near 0. A text without tokens gets the first unit
 * vector.
 *
 * @example
 * ```ts
 * const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
 * cos(fakeEmbedding('winter range of electric cars'), fakeEmbedding('electric cars lose range in winter')); // high
 * ```
 */
export function fakeEmbedding(text: string, dimensions: number = DEFAULT_EMBEDDING_DIMENSIONS): number[] {
  const dims = Math.max(1, Math.min(MAX_EMBEDDING_DIMENSIONS, Math.floor(dimensions)));
  const vector = new Array<number>(dims).fill(0);
  for (const token of embeddingTokens(text)) {
    const h = fnv1a(token);
    vector[h % dims]! += (h & 0x80000000) !== 0 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((x) => x / norm);
}

/** The default embedder: {@link fakeEmbedding} of every input, with the request's dimensions. */
export function defaultEmbedder(request: EmbedRequestInfo): number[][] {
  return request.inputs.map((text) => fakeEmbedding(text, request.dimensions));
}

// ---------------------------------------------------------------------------
// JSON schema -> deterministic value
// ---------------------------------------------------------------------------

/** Options for {@link generateFromJsonSchema}. */
export interface GenerateOptions {
  /**
   * Nesting depth after which the generator produces the smallest valid value: only required
   * properties, `minItems` items, and the `null` branch of nullable schemas (default 8). Keeps
   * recursive schemas finite.
   */
  readonly maxDepth?: number;
}

type SchemaObject = { readonly [keyword: string]: unknown };

interface GenContext {
  readonly root: JsonSchema;
  readonly maxDepth: number;
}

const HARD_DEPTH_LIMIT = 64;
/** Internal keyword holding the patterns beyond `pattern` collected while merging `allOf`. */
const EXTRA_PATTERNS = 'x-fake-extra-patterns';
const MAX_GENERATED_ITEMS = 1_000;
const MAX_GENERATED_STRING = 100_000;

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00',
  duration: 'P1D',
  email: 'fake@example.com',
  'idn-email': 'fake@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com/fake',
  'uri-reference': 'https://example.com/fake',
  iri: 'https://example.com/fake',
  url: 'https://example.com/fake',
  uuid: '00000000-0000-4000-8000-000000000000',
  guid: '00000000-0000-4000-8000-000000000000',
  regex: '.*',
  'json-pointer': '/fake',
  base64: 'ZmFrZQ==',
  byte: 'ZmFrZQ==',
  cuid: 'cjld2cjxh0000qzrmn831i7rn',
  cuid2: 'tz4a98xxat96iws9zmbrgj3a',
  ulid: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  nanoid: 'V1StGXR8_Z5jdHi6B-myT',
  emoji: '🙂',
};

/**
 * Generate a value that validates against `schema`, deterministically (the same schema always
 * gives the same value).
 *
 * Supports what zod 4's `z.toJSONSchema` emits: `type` (also as an array, e.g. `["string","null"]`),
 * `properties`/`required`/`additionalProperties`/`propertyNames`/`minProperties`, `items`/`prefixItems`/
 * `minItems`/`maxItems`, `enum`, `const`, `default`, `examples`, string `minLength`/`maxLength`/`format`/
 * `pattern` (simple regexes are sampled), number/integer `minimum`/`maximum`/`exclusiveMinimum`/
 * `exclusiveMaximum`/`multipleOf`, `anyOf`/`oneOf` (first non-null branch), `allOf` (merged) and
 * local `$ref`s (`#/$defs/...`, `#/definitions/...`, `#`). Strings are `fake <property name>`; the
 * n-th item of an array (n > 1) gets `fake <name> n`, the n-th enum value and number n where allowed,
 * so array items differ.
 * Unsatisfiable or unsupported constraints give a best-effort value rather than an exception.
 *
 * @example
 * ```ts
 * generateFromJsonSchema(z.toJSONSchema(z.object({ title: z.string(), tags: z.array(z.string()).min(2) })));
 * // => { title: 'fake title', tags: ['fake tags', 'fake tags 2'] }
 * ```
 */
export function generateFromJsonSchema(schema: JsonSchema, options: GenerateOptions = {}): unknown {
  const maxDepth = Math.max(0, Math.min(options.maxDepth ?? 8, HARD_DEPTH_LIMIT));
  return generateValue(schema, { root: schema, maxDepth }, 0, 'value', 0);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function nonNegativeInt(value: unknown): number | undefined {
  const n = finiteNumber(value);
  return n !== undefined && n >= 0 ? Math.floor(n) : undefined;
}

function cloneJson(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function without(schema: SchemaObject, ...keys: string[]): SchemaObject {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!keys.includes(key)) setOwn(copy, key, value);
  }
  return copy;
}

/** Shallow merge for `allOf` and `$ref` siblings: later keywords win, `properties` and `required` combine. */
function mergeSchemas(parts: readonly unknown[]): SchemaObject {
  const merged: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  let sawProperties = false;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isRecord(value)) {
        sawProperties = true;
        for (const [name, sub] of Object.entries(value)) setOwn(properties, name, sub);
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) if (typeof name === 'string') required.add(name);
      } else if ((key === 'pattern' || key === EXTRA_PATTERNS) && merged.pattern !== undefined) {
        // Several patterns (e.g. zod's startsWith + endsWith under allOf): all must hold.
        const more = Array.isArray(value) ? value : [value];
        const previous = Array.isArray(merged[EXTRA_PATTERNS]) ? (merged[EXTRA_PATTERNS] as unknown[]) : [];
        merged[EXTRA_PATTERNS] = [...previous, ...more];
      } else {
        setOwn(merged, key, value);
      }
    }
  }
  if (sawProperties) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function inferType(schema: SchemaObject): string | undefined {
  const has = (...keys: string[]): boolean => keys.some((k) => schema[k] !== undefined);
  if (has('properties', 'additionalProperties', 'required', 'propertyNames', 'minProperties')) return 'object';
  if (has('items', 'prefixItems', 'minItems', 'maxItems')) return 'array';
  if (has('minLength', 'maxLength', 'pattern', 'format')) return 'string';
  if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) return 'number';
  return undefined;
}

function generateValue(schema: unknown, ctx: GenContext, depth: number, name: string, index: number): unknown {
  if (depth > HARD_DEPTH_LIMIT || !isRecord(schema)) return null; // `true`, `{}`-like leftovers: anything goes
  const deep = depth >= ctx.maxDepth;

  if (typeof schema.$ref === 'string') {
    const target = resolveRef(ctx.root, schema.$ref);
    if (target === undefined) return null;
    return generateValue(mergeSchemas([target, without(schema, '$ref')]), ctx, depth + 1, name, index);
  }
  if (Object.prototype.hasOwnProperty.call(schema, 'const')) return cloneJson(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return cloneJson(schema.enum[index % schema.enum.length]);
  if (schema.default !== undefined) return cloneJson(schema.default);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return cloneJson(schema.examples[0]);

  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const parts = schema.allOf.map((part) =>
      isRecord(part) && typeof part.$ref === 'string' ? mergeSchemas([resolveRef(ctx.root, part.$ref), without(part, '$ref')]) : part,
    );
    return generateValue(mergeSchemas([without(schema, 'allOf'), ...parts]), ctx, depth + 1, name, index);
  }
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches !== undefined && branches.length > 0) {
    const isNull = (b: unknown): boolean => isRecord(b) && b.type === 'null';
    const chosen = deep
      ? (branches.find(isNull) ?? branches.find((b) => !(isRecord(b) && b.$ref !== undefined)) ?? branches[0])
      : (branches.find((b) => !isNull(b)) ?? branches[0]);
    return generateValue(mergeSchemas([without(schema, 'anyOf', 'oneOf'), chosen]), ctx, depth + 1, name, index);
  }

  const declared: string[] = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === 'string')
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const inferred = inferType(schema);
  const types = declared.length > 0 ? declared : inferred !== undefined ? [inferred] : [];
  const type = deep && types.includes('null') ? 'null' : (types.find((t) => t !== 'null') ?? 'null');

  switch (type) {
    case 'object':
      return generateObject(schema, ctx, depth, index);
    case 'array':
      return generateArray(schema, ctx, depth, name);
    case 'string':
      return generateString(schema, name, index);
    case 'integer':
      return generateNumber(schema, true, index);
    case 'number':
      return generateNumber(schema, false, index);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

function generateObject(schema: SchemaObject, ctx: GenContext, depth: number, index: number): Record<string, unknown> {
  const deep = depth >= ctx.maxDepth;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const extra = schema.additionalProperties;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    if (deep && !required.includes(key)) continue;
    setOwn(out, key, generateValue(sub, ctx, depth + 1, key, index));
  }
  for (const key of required) {
    if (!Object.prototype.hasOwnProperty.call(out, key)) {
      setOwn(out, key, generateValue(isRecord(extra) ? extra : true, ctx, depth + 1, key, index));
    }
  }
  // A record (`z.record`): no fixed properties, but additionalProperties allowed.
  const minProperties = nonNegativeInt(schema.minProperties) ?? 0;
  if (Object.keys(properties).length === 0 && extra !== false && (isRecord(extra) || extra === true)) {
    const wanted = Math.min(Math.max(minProperties, required.length === 0 && !deep ? 1 : 0), MAX_GENERATED_ITEMS);
    const names = isRecord(schema.propertyNames) ? schema.propertyNames : { type: 'string' };
    for (let i = 0; Object.keys(out).length < wanted && i < wanted + MAX_GENERATED_ITEMS; i++) {
      const key = generateValue(names, ctx, depth + 1, 'key', i);
      const keyText = typeof key === 'string' ? key : `key${i}`;
      if (Object.prototype.hasOwnProperty.call(out, keyText)) {
        if (Array.isArray(names.enum)) break; // enum keys exhausted
        continue;
      }
      setOwn(out, keyText, generateValue(extra, ctx, depth + 1, keyText, i));
    }
  }
  return out;
}

function generateArray(schema: SchemaObject, ctx: GenContext, depth: number, name: string): unknown[] {
  const deep = depth >= ctx.maxDepth;
  const tuple: readonly unknown[] = Array.isArray(schema.items)
    ? schema.items
    : Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : [];
  const rest: unknown = Array.isArray(schema.items) ? (schema.additionalItems ?? true) : (schema.items ?? true);
  const minItems = nonNegativeInt(schema.minItems) ?? 0;
  const maxItems = nonNegativeInt(schema.maxItems) ?? Number.POSITIVE_INFINITY;
  let count = Math.max(minItems, tuple.length > 0 ? tuple.length : deep ? 0 : 1);
  if (rest === false) count = Math.min(count, tuple.length);
  count = Math.min(count, maxItems, MAX_GENERATED_ITEMS);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    out.push(generateValue(i < tuple.length ? tuple[i] : rest, ctx, depth + 1, name, i));
  }
  return out;
}

function compilePattern(source: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, flags);
    } catch {
      // try without the unicode flag
    }
  }
  return undefined;
}

function generateString(schema: SchemaObject, name: string, index: number): string {
  const minLength = Math.min(nonNegativeInt(schema.minLength) ?? 0, MAX_GENERATED_STRING);
  const maxLength = nonNegativeInt(schema.maxLength) ?? Number.POSITIVE_INFINITY;
  const sources = [schema.pattern, ...(Array.isArray(schema[EXTRA_PATTERNS]) ? (schema[EXTRA_PATTERNS] as unknown[]) : [])].filter(
    (p): p is string => typeof p === 'string',
  );
  const patterns = sources.map(compilePattern).filter((p): p is RegExp => p !== undefined);
  const fits = (s: string): boolean => {
    const length = Array.from(s).length;
    return length >= minLength && length <= maxLength && patterns.every((p) => p.test(s));
  };
  const base = index > 0 ? `fake ${name} ${index + 1}` : `fake ${name}`;
  const fitted = fitLength(base, minLength, maxLength);
  const candidates: string[] = [];
  const formatSample = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  if (formatSample !== undefined) candidates.push(formatSample);
  const compact = base.replace(/[^A-Za-z0-9]/g, '');
  candidates.push(base, fitted, base.toUpperCase(), fitLength(base.toUpperCase(), minLength, maxLength), compact, fitLength(compact, minLength, maxLength));
  const samples = sources.map(sampleRegex).filter((s): s is string => s !== undefined);
  for (const sample of samples) candidates.push(sample, fitLength(sample, minLength, maxLength));
  if (samples.length > 1) candidates.push(samples.join(''));
  candidates.push('fake', 'FAKE', 'a', 'A', '0', 'x');
  return candidates.find((c) => c.length > 0 && fits(c)) ?? candidates.find(fits) ?? samples[0] ?? fitted;
}

function fitLength(text: string, minLength: number, maxLength: number): string {
  let chars = Array.from(text);
  if (chars.length < minLength) chars = chars.concat(Array<string>(minLength - chars.length).fill('x'));
  if (chars.length > maxLength) chars = chars.slice(0, maxLength);
  return chars.join('');
}

function generateNumber(schema: SchemaObject, integer: boolean, index: number): number {
  let min = finiteNumber(schema.minimum) ?? Number.NEGATIVE_INFINITY;
  let max = finiteNumber(schema.maximum) ?? Number.POSITIVE_INFINITY;
  let minExclusive = schema.exclusiveMinimum === true;
  let maxExclusive = schema.exclusiveMaximum === true;
  const exMin = finiteNumber(schema.exclusiveMinimum);
  const exMax = finiteNumber(schema.exclusiveMaximum);
  if (exMin !== undefined && exMin >= min) {
    min = exMin;
    minExclusive = true;
  }
  if (exMax !== undefined && exMax <= max) {
    max = exMax;
    maxExclusive = true;
  }
  const ok = (n: number): boolean =>
    Number.isFinite(n) &&
    (minExclusive ? n > min : n >= min) &&
    (maxExclusive ? n < max : n <= max) &&
    (!integer || Number.isInteger(n));

  // Lower bound actually usable as a value.
  let low: number;
  if (Number.isFinite(min)) {
    low = minExclusive ? (integer ? Math.floor(min) + 1 : Number.isFinite(max) ? (min + max) / 2 : min + 1) : integer ? Math.ceil(min) : min;
  } else {
    low = Number.NEGATIVE_INFINITY;
  }
  const preferred = index; // 0 for single values, distinct values inside arrays
  let value = ok(preferred) ? preferred : Number.isFinite(low) ? low : integer ? Math.floor(max) - (maxExclusive && Number.isInteger(max) ? 1 : 0) : maxExclusive ? max - 1 : max;

  const step = finiteNumber(schema.multipleOf);
  if (step !== undefined && step > 0) {
    const snap = (k: number): number => Number((k * step).toPrecision(12));
    let k = Math.ceil(value / step - 1e-9);
    for (let tries = 0; tries < 4 && !ok(snap(k)); tries++) k++;
    if (ok(snap(k))) value = snap(k);
  }
  return value;
}

// --- A tiny, bounded regex sampler: enough for ids, dates, codes. Unsupported syntax -> undefined.

function sampleRegex(source: string): string | undefined {
  try {
    const sampler = new RegexSampler(source);
    const sample = sampler.run();
    return compilePattern(source)?.test(sample) === true ? sample : undefined;
  } catch {
    return undefined;
  }
}

class RegexSampler {
  private pos = 0;

  constructor(private readonly src: string) {}

  run(): string {
    const out = this.alternation();
    if (this.pos !== this.src.length) throw new Error('unbalanced');
    return out.length > MAX_GENERATED_STRING ? out.slice(0, MAX_GENERATED_STRING) : out;
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private alternation(): string {
    const first = this.sequence();
    while (this.peek() === '|') {
      this.pos++;
      this.sequence(); // only the first alternative is used
    }
    return first;
  }

  private sequence(): string {
    let out = '';
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      const count = this.quantifier();
      out += atom.repeat(count);
      if (out.length > MAX_GENERATED_STRING) throw new Error('too long');
    }
    return out;
  }

  private quantifier(): number {
    const c = this.peek();
    let count = 1;
    if (c === '*' || c === '?') {
      this.pos++;
      count = 0;
    } else if (c === '+') {
      this.pos++;
    } else if (c === '{') {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(this.src.slice(this.pos));
      if (m === null) return 1;
      this.pos += m[0].length;
      count = Math.min(Number(m[1]), MAX_GENERATED_STRING);
    } else {
      return 1;
    }
    if (this.peek() === '?') this.pos++; // lazy
    return count;
  }

  private atom(): string {
    const c = this.src[this.pos++];
    switch (c) {
      case '^':
      case '$':
        return '';
      case '.':
        return 'a';
      case '(':
        return this.group();
      case '[':
        return this.characterClass();
      case '\\':
        return this.escape(false);
      case undefined:
        throw new Error('unexpected end');
      default:
        return c;
    }
  }

  private group(): string {
    let lookaround = false;
    if (this.src.startsWith('?:', this.pos)) {
      this.pos += 2;
    } else if (this.src.startsWith('?=', this.pos) || this.src.startsWith('?!', this.pos)) {
      this.pos += 2;
      lookaround = true;
    } else if (this.src.startsWith('?<=', this.pos) || this.src.startsWith('?<!', this.pos)) {
      this.pos += 3;
      lookaround = true;
    } else if (this.src.startsWith('?<', this.pos)) {
      const end = this.src.indexOf('>', this.pos);
      if (end < 0) throw new Error('bad group name');
      this.pos = end + 1;
    }
    const inner = this.alternation();
    if (this.src[this.pos++] !== ')') throw new Error('unclosed group');
    return lookaround ? '' : inner;
  }

  private characterClass(): string {
    const start = this.pos - 1;
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    let first: string | undefined;
    while (this.pos < this.src.length && this.peek() !== ']') {
      let ch: string;
      if (this.peek() === '\\') {
        this.pos++;
        ch = this.escape(true);
      } else {
        ch = this.src[this.pos++] ?? '';
      }
      if (this.peek() === '-' && this.src[this.pos + 1] !== ']' && this.src[this.pos + 1] !== undefined) {
        this.pos += 2; // range: the lower end is a fine sample
        if (this.src[this.pos - 1] === '\\') this.pos++;
      }
      first ??= ch;
    }
    if (this.src[this.pos++] !== ']') throw new Error('unclosed class');
    const cls = compilePattern(`^${this.src.slice(start, this.pos)}$`);
    if (cls === undefined) throw new Error('bad class');
    const candidates = [...(first !== undefined && !negated ? [first] : []), 'a', 'x', 'A', '0', '1', '_', '-', ' ', '.'];
    const chosen = candidates.find((candidate) => cls.test(candidate));
    if (chosen === undefined) throw new Error('no sample for class');
    return chosen;
  }

  private escape(inClass: boolean): string {
    const c = this.src[this.pos++];
    switch (c) {
      case 'd':
        return '0';
      case 'D':
      case 'w':
      case 'S':
        return 'a';
      case 'W':
        return '-';
      case 's':
        return ' ';
      case 'b':
        if (inClass) return '\b';
        return '';
      case 'B':
        return '';
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'x': {
        const hex = this.src.slice(this.pos, this.pos + 2);
        this.pos += 2;
        return String.fromCharCode(parseInt(hex, 16));
      }
      case 'u': {
        const hex = this.src.slice(this.pos, this.pos + 4);
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      case undefined:
        throw new Error('dangling escape');
      default:
        if (/[1-9kpPc]/.test(c)) throw new Error('unsupported escape');
        return c;
    }
  }
}

// ---------------------------------------------------------------------------
// Request parsing
// ---------------------------------------------------------------------------

class BodyTooLargeError extends Error {}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle(() => reject(new BodyTooLargeError('body too large')));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', (err) => settle(() => reject(err)));
    req.on('close', () => settle(() => reject(new Error('request closed before its body was read'))));
  });
}

function parseBody(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
      .filter((t) => t.length > 0)
      .join('\n');
  }
  return '';
}

function positiveInt(value: unknown): number | undefined {
  const n = finiteNumber(value);
  return n !== undefined && n > 0 ? Math.floor(n) : undefined;
}

/** Normalise a chat body; a string result is a 400 message. */
function normaliseChat(protocol: ModelProtocol, body: Record<string, unknown>, seq: number): ChatRequestInfo | string {
  if (typeof body.model !== 'string' || body.model.length === 0) {
    return protocol === 'openai' ? "Missing required parameter: 'model'." : 'model is required';
  }
  if (!Array.isArray(body.messages)) {
    return protocol === 'openai' ? "Missing required parameter: 'messages'." : 'messages must be an array';
  }
  const messages: ChatMessage[] = [];
  for (const m of body.messages) {
    if (!isRecord(m) || typeof m.role !== 'string') {
      return protocol === 'openai' ? "Invalid value for 'messages': each message needs a 'role'." : 'invalid message format';
    }
    messages.push({ role: m.role, content: messageText(m.content) });
  }
  let schema: JsonSchema | undefined;
  let jsonMode = false;
  let maxTokens: number | undefined;
  let stream: boolean;
  if (protocol === 'openai') {
    stream = body.stream === true;
    const rf = body.response_format;
    if (isRecord(rf) && rf.type === 'json_schema') {
      jsonMode = true;
      const js = rf.json_schema;
      schema = isRecord(js) && (isRecord(js.schema) || typeof js.schema === 'boolean') ? (js.schema as JsonSchema) : true;
    } else if (isRecord(rf) && rf.type === 'json_object') {
      jsonMode = true;
    }
    maxTokens = positiveInt(body.max_completion_tokens) ?? positiveInt(body.max_tokens);
  } else {
    stream = body.stream !== false;
    if (body.format === 'json') {
      jsonMode = true;
    } else if (isRecord(body.format)) {
      jsonMode = true;
      schema = body.format;
    }
    maxTokens = isRecord(body.options) ? positiveInt(body.options.num_predict) : undefined;
  }
  const promptTokens = estimateTokens(messages.map((m) => m.content).join(''));
  return { protocol, model: body.model, messages, stream, schema, jsonMode, maxTokens, promptTokens, body, seq };
}

/** Normalise an embeddings body; a string result is a 400 message. */
function normaliseEmbed(protocol: ModelProtocol, body: Record<string, unknown>, seq: number, defaultDimensions: number): EmbedRequestInfo | string {
  if (typeof body.model !== 'string' || body.model.length === 0) {
    return protocol === 'openai' ? "Missing required parameter: 'model'." : 'model is required';
  }
  const input = body.input;
  let inputs: string[];
  if (typeof input === 'string') {
    inputs = [input];
  } else if (Array.isArray(input) && input.length > 0 && input.every((x) => typeof x === 'string')) {
    inputs = input as string[];
  } else {
    return protocol === 'openai' ? "Invalid value for 'input': expected a string or a non-empty array of strings." : 'invalid input type';
  }
  if (protocol === 'openai' && inputs.some((x) => x.length === 0)) return "'$.input' is invalid: empty strings are not allowed.";
  if (body.dimensions !== undefined && positiveInt(body.dimensions) === undefined) {
    return protocol === 'openai' ? "Invalid value for 'dimensions': expected a positive integer." : 'dimensions must be a positive integer';
  }
  const dimensions = Math.min(positiveInt(body.dimensions) ?? defaultDimensions, MAX_EMBEDDING_DIMENSIONS);
  return { protocol, model: body.model, inputs, dimensions, body, seq };
}

// ---------------------------------------------------------------------------
// Reply building
// ---------------------------------------------------------------------------

type BodyKind = 'json' | 'sse' | 'ndjson' | 'text';

interface ReplyPlan {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly kind: BodyKind;
  readonly chunks: readonly string[];
}

interface FinalReply {
  readonly content: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly finishReason: 'stop' | 'length';
  readonly reportUsage: boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

function jsonPlan(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): ReplyPlan {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(text)), ...headers },
    kind: 'json',
    chunks: [text],
  };
}

function textPlan(status: number, text: string): ReplyPlan {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) },
    kind: 'text',
    chunks: [text],
  };
}

function openaiErrorPlan(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers: Readonly<Record<string, string>> = {},
): ReplyPlan {
  return jsonPlan(status, { error: { message, type, param, code } }, headers);
}

function ollamaErrorPlan(status: number, message: string, headers: Readonly<Record<string, string>> = {}): ReplyPlan {
  return jsonPlan(status, { error: message }, headers);
}

function errorPlan(protocol: ModelProtocol, status: number, message: string): ReplyPlan {
  if (protocol === 'ollama') return ollamaErrorPlan(status, message);
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return openaiErrorPlan(status, message, type, null);
}

function statusFaultPlan(protocol: ModelProtocol, fault: StatusFault, model: string): ReplyPlan {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) {
    const seconds = Math.max(0, fault.retryAfterSeconds);
    headers['retry-after'] = String(Math.ceil(seconds));
    headers['retry-after-ms'] = String(Math.round(seconds * 1000));
  }
  if (protocol === 'ollama') {
    const defaults: Record<number, string> = {
      429: 'too many requests, please retry later',
      500: 'llama runner process has terminated: exit status 2',
      502: 'bad gateway',
      503: 'server busy, please try again.  maximum pending requests exceeded',
      504: 'gateway timeout',
    };
    return ollamaErrorPlan(fault.status, fault.message ?? defaults[fault.status] ?? 'error', headers);
  }
  switch (fault.status) {
    case 429:
      return openaiErrorPlan(
        429,
        fault.message ??
          `Rate limit reached for ${model} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${Math.ceil(fault.retryAfterSeconds ?? 20)}s.`,
        'requests',
        'rate_limit_exceeded',
        null,
        headers,
      );
    case 503:
      return openaiErrorPlan(503, fault.message ?? 'The server is overloaded or not ready yet.', 'server_error', null, null, headers);
    case 502:
      return openaiErrorPlan(502, fault.message ?? 'Bad gateway.', 'server_error', null, null, headers);
    case 504:
      return openaiErrorPlan(504, fault.message ?? 'Gateway timeout.', 'server_error', null, null, headers);
    default:
      return openaiErrorPlan(
        fault.status,
        fault.message ?? 'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
        null,
        headers,
      );
  }
}

/**
 * OpenAI: 400 `context_length_exceeded`. Ollama (recent servers, llama-server runner, with
 * `truncate: false`): 400 whose `error` string is itself the runner's JSON error with
 * `type: "exceed_context_size_error"`.
 */
function contextLengthPlan(protocol: ModelProtocol, contextTokens: number, requestedTokens: number): ReplyPlan {
  if (protocol === 'openai') {
    return openaiErrorPlan(
      400,
      `This model's maximum context length is ${contextTokens} tokens. However, your messages resulted in ${requestedTokens} tokens. Please reduce the length of the messages.`,
      'invalid_request_error',
      'context_length_exceeded',
      'messages',
    );
  }
  const inner = {
    error: {
      code: 400,
      message: `request (${requestedTokens} tokens) exceeds the available context size (${contextTokens} tokens), try increasing it`,
      type: 'exceed_context_size_error',
      n_prompt_tokens: requestedTokens,
      n_ctx: contextTokens,
    },
  };
  return ollamaErrorPlan(400, JSON.stringify(inner));
}

function splitForStream(content: string, chunkChars: number): string[] {
  const chars = Array.from(content);
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += chunkChars) parts.push(chars.slice(i, i + chunkChars).join(''));
  return parts;
}

function openaiUsage(reply: FinalReply): Record<string, unknown> {
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function openaiReplyPlan(info: ChatRequestInfo, reply: FinalReply, created: number, chunkChars: number): ReplyPlan {
  const id = `chatcmpl-fake${String(info.seq).padStart(6, '0')}`;
  const headers = { 'x-request-id': `req_fake${String(info.seq).padStart(6, '0')}`, 'openai-processing-ms': '1' };
  const common = { id, created, model: info.model, service_tier: 'default', system_fingerprint: 'fp_fake' };
  if (!info.stream) {
    return jsonPlan(
      200,
      {
        ...common,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.content, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: reply.finishReason,
          },
        ],
        ...(reply.reportUsage ? { usage: openaiUsage(reply) } : {}),
      },
      headers,
    );
  }
  const streamOptions = info.body.stream_options;
  const includeUsage = isRecord(streamOptions) && streamOptions.include_usage === true;
  const chunk = (choices: unknown[], usage?: unknown): string =>
    `data: ${JSON.stringify({ ...common, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage: usage ?? null } : {}) })}\n\n`;
  const chunks = [chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }])];
  for (const part of splitForStream(reply.content, chunkChars)) {
    chunks.push(chunk([{ index: 0, delta: { content: part }, logprobs: null, finish_reason: null }]));
  }
  chunks.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: reply.finishReason }]));
  if (includeUsage && reply.reportUsage) chunks.push(chunk([], openaiUsage(reply)));
  chunks.push('data: [DONE]\n\n');
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers },
    kind: 'sse',
    chunks,
  };
}

function ollamaReplyPlan(info: ChatRequestInfo, reply: FinalReply, createdAt: string, chunkChars: number): ReplyPlan {
  // Deterministic durations in nanoseconds: 1 ms per prompt token, 20 ms per completion token.
  const loadDuration = 1_000_000;
  const promptEvalDuration = reply.promptTokens * 1_000_000;
  const evalDuration = reply.completionTokens * 20_000_000;
  const stats = {
    done_reason: reply.finishReason,
    done: true,
    total_duration: loadDuration + promptEvalDuration + evalDuration,
    load_duration: loadDuration,
    ...(reply.reportUsage
      ? { prompt_eval_count: reply.promptTokens, prompt_eval_duration: promptEvalDuration, eval_count: reply.completionTokens, eval_duration: evalDuration }
      : {}),
  };
  if (!info.stream) {
    return jsonPlan(200, { model: info.model, created_at: createdAt, message: { role: 'assistant', content: reply.content }, ...stats });
  }
  const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
  const chunks = splitForStream(reply.content, chunkChars).map((part) =>
    line({ model: info.model, created_at: createdAt, message: { role: 'assistant', content: part }, done: false }),
  );
  chunks.push(line({ model: info.model, created_at: createdAt, message: { role: 'assistant', content: '' }, ...stats }));
  return { status: 200, headers: { 'content-type': 'application/x-ndjson' }, kind: 'ndjson', chunks };
}

/** Applies a `badEmbeddings` fault to the vectors of a reply (non-finite values become NaN). */
function spoilEmbeddings(vectors: readonly (readonly number[])[], fault: BadEmbeddingsFault): number[][] {
  let out = vectors.map((v) => [...v]);
  if (fault.dimensions !== undefined) {
    const dims = fault.dimensions;
    out = out.map((v) => Array.from({ length: dims }, (_, i) => v[i] ?? 0));
  }
  if (fault.count !== undefined) {
    const last = out[out.length - 1];
    const dims = last?.length ?? fault.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
    out = Array.from({ length: fault.count }, (_, i) => out[i] ?? (last ? [...last] : new Array<number>(dims).fill(0)));
  }
  if (fault.nonFinite === true && out[0] !== undefined && out[0].length > 0) out[0][0] = Number.NaN;
  return out;
}

function openaiEmbedPlan(info: EmbedRequestInfo, vectors: readonly (readonly number[])[]): ReplyPlan {
  const base64 = info.body.encoding_format === 'base64';
  const promptTokens = info.inputs.reduce((sum, text) => sum + estimateTokens(text), 0);
  return jsonPlan(
    200,
    {
      object: 'list',
      data: vectors.map((v, index) => ({
        object: 'embedding',
        index,
        // JSON.stringify turns NaN into null, like a server that produced one.
        embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v,
      })),
      model: info.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    { 'x-request-id': `req_fake${String(info.seq).padStart(6, '0')}`, 'openai-processing-ms': '1' },
  );
}

function ollamaEmbedPlan(info: EmbedRequestInfo, vectors: readonly (readonly number[])[]): ReplyPlan {
  const promptTokens = info.inputs.reduce((sum, text) => sum + estimateTokens(text), 0);
  const loadDuration = 1_000_000;
  return jsonPlan(200, {
    model: info.model,
    embeddings: vectors,
    total_duration: loadDuration + promptTokens * 100_000,
    load_duration: loadDuration,
    prompt_eval_count: promptTokens,
  });
}

/** Ollama's `/api/embed` error when an input is longer than the context and `truncate` is false. */
function ollamaEmbedContextPlan(): ReplyPlan {
  return ollamaErrorPlan(400, 'the input length exceeds the context length');
}

/** HTTP 200, but the body (or first stream event) is cut in half: not valid JSON. */
function corruptPlan(plan: ReplyPlan): ReplyPlan {
  const first = plan.chunks[0] ?? '{}';
  const body = first.trimEnd();
  const cut = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
  if (plan.kind === 'sse') return { ...plan, chunks: [`${cut}\n\n`] };
  if (plan.kind === 'ndjson') return { ...plan, chunks: [`${cut}\n`] };
  return { ...plan, headers: { ...plan.headers, 'content-length': String(Buffer.byteLength(cut)) }, chunks: [cut] };
}

/**
 * A streamed plan whose first `afterChunks` events are intact and the next one (or the last,
 * when there are fewer) is cut in half, with nothing after it. Plans that are not streamed get
 * {@link corruptPlan}.
 */
function corruptPlanAfter(plan: ReplyPlan, afterChunks: number): ReplyPlan {
  if ((plan.kind !== 'sse' && plan.kind !== 'ndjson') || plan.chunks.length === 0) return corruptPlan(plan);
  const n = Math.min(afterChunks, plan.chunks.length - 1);
  const body = (plan.chunks[n] ?? '{}').trimEnd();
  const cut = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
  return { ...plan, chunks: [...plan.chunks.slice(0, n), plan.kind === 'sse' ? `${cut}\n\n` : `${cut}\n`] };
}

function finaliseReply(info: ChatRequestInfo, result: ResponderResult): FinalReply {
  const content = typeof result === 'string' ? result : result.content;
  const reportUsage = typeof result === 'string' || result.reportUsage !== false;
  const promptTokens = typeof result === 'string' ? info.promptTokens : (result.promptTokens ?? info.promptTokens);
  let completionTokens = typeof result === 'string' ? estimateTokens(content) : (result.completionTokens ?? estimateTokens(content));
  if (info.maxTokens !== undefined && completionTokens > info.maxTokens) {
    // Cut to roughly maxTokens worth of text, like a model hitting its output limit.
    const chars = Array.from(content);
    let keep = chars.length;
    while (keep > 0 && estimateTokens(chars.slice(0, keep).join('')) > info.maxTokens) {
      keep = Math.max(0, Math.min(keep - 1, Math.floor(keep * 0.9)));
    }
    completionTokens = info.maxTokens;
    return { content: chars.slice(0, keep).join(''), promptTokens, completionTokens, finishReason: 'length', reportUsage };
  }
  return { content, promptTokens, completionTokens, finishReason: 'stop', reportUsage };
}

// ---------------------------------------------------------------------------
// Fault validation
// ---------------------------------------------------------------------------

/** Whether `fault` may be taken by a request to `endpoint` (see {@link FaultBase.endpoint}). */
function faultEndpointMatches(fault: Fault, endpoint: 'chat' | 'embeddings'): boolean {
  if (fault.kind === 'badContent') return endpoint === 'chat';
  if (fault.kind === 'badEmbeddings') return endpoint === 'embeddings';
  const wanted = fault.endpoint ?? 'chat';
  return wanted === 'any' || wanted === endpoint;
}

function validateFault(fault: Fault): void {
  const f: unknown = fault;
  if (!isRecord(f) || typeof f.kind !== 'string' || !FAULT_KINDS.has(f.kind)) {
    throw new Error(`fakeModelServer: unknown fault ${JSON.stringify(f)}`);
  }
  if (fault.times !== undefined && !(fault.times === Number.POSITIVE_INFINITY || (Number.isInteger(fault.times) && fault.times > 0))) {
    throw new Error(`fakeModelServer: fault.times must be a positive integer or Infinity, got ${fault.times}`);
  }
  if (fault.protocol !== undefined && fault.protocol !== 'openai' && fault.protocol !== 'ollama') {
    throw new Error(`fakeModelServer: unknown fault.protocol ${String(fault.protocol)}`);
  }
  if (fault.endpoint !== undefined && fault.endpoint !== 'chat' && fault.endpoint !== 'embeddings' && fault.endpoint !== 'any') {
    throw new Error(`fakeModelServer: unknown fault.endpoint ${String(fault.endpoint)}`);
  }
  if (fault.kind === 'badEmbeddings') {
    for (const [name, value] of [['count', fault.count], ['dimensions', fault.dimensions]] as const) {
      if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= MAX_EMBEDDING_DIMENSIONS)) {
        throw new Error(`fakeModelServer: badEmbeddings.${name} must be an integer in [0, ${MAX_EMBEDDING_DIMENSIONS}], got ${value}`);
      }
    }
  }
  if (fault.kind === 'status' && !STATUS_FAULT_CODES.has(fault.status)) {
    throw new Error(`fakeModelServer: unsupported fault status ${fault.status}`);
  }
  if (fault.kind === 'slow' && !(Number.isFinite(fault.delayMs) && fault.delayMs >= 0)) {
    throw new Error(`fakeModelServer: fault.delayMs must be a non-negative number, got ${fault.delayMs}`);
  }
  if (fault.kind === 'badContent' && typeof fault.content !== 'string') {
    throw new Error('fakeModelServer: badContent fault needs a string content');
  }
  if ((fault.kind === 'malformedJson' || fault.kind === 'resetConnection') && fault.afterChunks !== undefined && !(Number.isInteger(fault.afterChunks) && fault.afterChunks >= 0)) {
    throw new Error(`fakeModelServer: fault.afterChunks must be a non-negative integer, got ${fault.afterChunks}`);
  }
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

interface QueuedFault {
  readonly fault: Fault;
  remaining: number;
}

interface Waiter {
  readonly predicate: (request: RecordedRequest) => boolean;
  readonly resolve: (request: RecordedRequest) => void;
  readonly reject: (error: Error) => void;
}

interface InFlightWaiter {
  readonly count: () => number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

class FakeModelServerImpl implements FakeModelServer {
  readonly url: string;
  readonly openaiBaseUrl: string;
  readonly ollamaHost: string;
  readonly requests: RecordedRequest[] = [];

  private readonly queue: QueuedFault[] = [];
  private readonly cancels = new Set<() => void>();
  private readonly waiters = new Set<Waiter>();
  private readonly inFlightWaiters = new Set<InFlightWaiter>();
  private open = 0;
  private peak = 0;
  private responder: Responder;
  private embedder: Embedder;
  private readonly embeddingDimensions: number;
  private seq = 0;
  private closing: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly chunkChars: number;
  private readonly chunkDelayMs: number;
  private readonly responderTimeoutMs: number;
  private readonly models: readonly string[];

  constructor(
    private readonly server: http.Server,
    readonly port: number,
    private readonly options: FakeModelServerOptions,
  ) {
    this.url = `http://${HOST}:${port}`;
    this.openaiBaseUrl = `${this.url}/v1`;
    this.ollamaHost = this.url;
    this.responder = options.responder ?? defaultResponder;
    this.embedder = options.embedder ?? defaultEmbedder;
    this.embeddingDimensions = Math.min(Math.max(1, Math.floor(options.embeddingDimensions ?? DEFAULT_EMBEDDING_DIMENSIONS)), MAX_EMBEDDING_DIMENSIONS);
    this.now = options.now ?? Date.now;
    this.chunkChars = Math.max(1, Math.floor(options.streamChunkChars ?? 12));
    this.chunkDelayMs = Math.min(Math.max(0, options.streamChunkDelayMs ?? 0), MAX_STREAM_CHUNK_DELAY_MS);
    this.responderTimeoutMs = Math.min(Math.max(1, options.responderTimeoutMs ?? DEFAULT_RESPONDER_TIMEOUT_MS), MAX_RESPONDER_TIMEOUT_MS);
    this.models = options.models ?? ['fake-model'];
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.onRequest(req, res));
  }

  get pendingFaults(): readonly Fault[] {
    return this.queue.map((q) => q.fault);
  }

  chatRequests(protocol?: ModelProtocol): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'POST' && (r.path === '/v1/chat/completions' || r.path === '/api/chat') && (protocol === undefined || r.protocol === protocol),
    );
  }

  embeddingRequests(protocol?: ModelProtocol): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'POST' && (r.path === '/v1/embeddings' || r.path === '/api/embed') && (protocol === undefined || r.protocol === protocol),
    );
  }

  injectFault(fault: Fault): void {
    validateFault(fault);
    this.queue.push({ fault, remaining: fault.times ?? 1 });
  }

  setResponder(responder: Responder | undefined): void {
    this.responder = responder ?? this.options.responder ?? defaultResponder;
  }

  setEmbedder(embedder: Embedder | undefined): void {
    this.embedder = embedder ?? this.options.embedder ?? defaultEmbedder;
  }

  get inFlight(): number {
    return this.open;
  }

  get maxInFlight(): number {
    return this.peak;
  }

  waitForInFlight(count: number | (() => number), timeoutMs = DEFAULT_WAIT_TIMEOUT_MS): Promise<void> {
    const target = typeof count === 'number' ? (): number => count : count;
    if (this.open >= target()) return Promise.resolve();
    if (this.closing !== undefined) return Promise.reject(new Error('fakeModelServer: server is closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.inFlightWaiters.delete(waiter);
        reject(new Error(`fakeModelServer: never ${target()} requests in flight at once within ${timeoutMs} ms (at most ${this.peak})`));
      }, Math.min(Math.max(0, timeoutMs), MAX_DELAY_MS));
      const waiter: InFlightWaiter = {
        count: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.inFlightWaiters.add(waiter);
    });
  }

  reset(): void {
    this.peak = this.open;
    this.requests.length = 0;
    this.queue.length = 0;
    this.responder = this.options.responder ?? defaultResponder;
    this.embedder = this.options.embedder ?? defaultEmbedder;
  }

  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS): Promise<RecordedRequest> {
    const existing = this.requests.find(predicate);
    if (existing !== undefined) return Promise.resolve(existing);
    if (this.closing !== undefined) return Promise.reject(new Error('fakeModelServer: server is closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`fakeModelServer: no matching request within ${timeoutMs} ms`));
      }, Math.min(Math.max(0, timeoutMs), MAX_DELAY_MS));
      const waiter: Waiter = {
        predicate,
        resolve: (request) => {
          clearTimeout(timer);
          resolve(request);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const cancel of [...this.cancels]) cancel();
      for (const waiter of [...this.waiters]) waiter.reject(new Error('fakeModelServer: server closed'));
      this.waiters.clear();
      for (const waiter of [...this.inFlightWaiters]) waiter.reject(new Error('fakeModelServer: server closed'));
      this.inFlightWaiters.clear();
      this.server.close(() => {
        for (const record of this.requests) {
          if (record.outcome === 'pending') record.outcome = 'serverClosed';
        }
        resolve();
      });
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  // --- internals ---------------------------------------------------------

  private notify(record: RecordedRequest): void {
    for (const waiter of [...this.waiters]) {
      let matched = false;
      try {
        matched = waiter.predicate(record);
      } catch (error) {
        this.waiters.delete(waiter);
        waiter.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (matched) {
        this.waiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  }

  private takeFault(protocol: ModelProtocol, endpoint: 'chat' | 'embeddings' = 'chat'): Fault | undefined {
    const i = this.queue.findIndex((q) => (q.fault.protocol === undefined || q.fault.protocol === protocol) && faultEndpointMatches(q.fault, endpoint));
    if (i < 0) return undefined;
    const entry = this.queue[i];
    if (entry === undefined) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.queue.splice(i, 1);
    return entry.fault;
  }

  /** True once nothing more should be written: the client went away or the server is closing. */
  private gone(res: http.ServerResponse): boolean {
    return this.closing !== undefined || res.destroyed || res.socket === null || res.socket.destroyed;
  }

  /** Wait `ms`; false if the client went away or the server is closing. Always settles. */
  private pause(res: http.ServerResponse, ms: number): Promise<boolean> {
    if (this.gone(res)) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (ok: boolean): void => {
        clearTimeout(timer);
        res.off('close', onClose);
        this.cancels.delete(cancel);
        resolve(ok);
      };
      const onClose = (): void => finish(false);
      const cancel = (): void => finish(false);
      const timer = setTimeout(() => finish(true), Math.min(ms, MAX_DELAY_MS));
      res.on('close', onClose);
      this.cancels.add(cancel);
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    let path: string;
    try {
      path = new URL(req.url ?? '/', this.url).pathname;
    } catch {
      path = (req.url ?? '/').split('?')[0] ?? '/';
    }
    const record: RecordedRequest = {
      seq: ++this.seq,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      time: this.now(),
      body: undefined,
      protocol: path.startsWith('/v1/') ? 'openai' : path.startsWith('/api/') ? 'ollama' : undefined,
      model: undefined,
      messages: undefined,
      inputs: undefined,
      fault: undefined,
      status: undefined,
      outcome: 'pending',
    };
    this.requests.push(record);
    this.open++;
    this.peak = Math.max(this.peak, this.open);
    for (const waiter of [...this.inFlightWaiters]) {
      if (this.open >= waiter.count()) {
        this.inFlightWaiters.delete(waiter);
        waiter.resolve();
      }
    }
    res.on('close', () => {
      this.open--;
      if (record.outcome === 'pending') {
        record.outcome = res.writableFinished ? 'completed' : this.closing !== undefined ? 'serverClosed' : 'clientClosed';
      }
      this.notify(record);
    });
    this.notify(record);
    this.handle(req, res, record).catch((error: unknown) => {
      if (!res.headersSent && !this.gone(res)) {
        const message = `fake model server: internal error: ${error instanceof Error ? error.message : String(error)}`;
        this.send(res, record, record.protocol === 'ollama' ? ollamaErrorPlan(500, message) : openaiErrorPlan(500, message, 'server_error', null));
      } else {
        res.destroy();
      }
    });
  }

  private send(res: http.ServerResponse, record: RecordedRequest, plan: ReplyPlan): void {
    if (this.gone(res)) return;
    if (!res.headersSent) {
      record.status = plan.status;
      res.writeHead(plan.status, plan.headers);
      this.notify(record);
    }
    for (const chunk of plan.chunks) res.write(chunk);
    res.end();
  }

  /**
   * Sends `plan` (after a `slow` fault's delay). With `resetAfter`, destroys the socket once
   * that many chunks went out (see {@link ResetConnectionFault.afterChunks}).
   */
  private async deliver(res: http.ServerResponse, record: RecordedRequest, plan: ReplyPlan, slow: SlowFault | undefined, resetAfter?: number): Promise<void> {
    if (slow !== undefined) {
      if (slow.headersFirst === true && !this.gone(res)) {
        record.status = plan.status;
        const headers: Record<string, string> = { ...plan.headers };
        delete headers['content-length']; // body arrives later, chunked
        res.writeHead(plan.status, headers);
        res.flushHeaders();
        this.notify(record);
      }
      if (!(await this.pause(res, slow.delayMs))) return;
    }
    if (this.gone(res)) return;
    if (!res.headersSent) {
      record.status = plan.status;
      const headers: Record<string, string> = { ...plan.headers };
      if (resetAfter !== undefined) delete headers['content-length']; // the body never completes
      res.writeHead(plan.status, headers);
      this.notify(record);
    }
    if (resetAfter !== undefined) {
      res.flushHeaders();
      for (const chunk of plan.chunks.slice(0, resetAfter)) {
        if (this.gone(res)) return;
        // Wait until each chunk is handed to the socket, so the client gets it before the reset.
        await new Promise<void>((resolve) => res.write(chunk, () => resolve()));
        if (this.chunkDelayMs > 0 && !(await this.pause(res, this.chunkDelayMs))) return;
      }
      if (this.gone(res)) return;
      record.outcome = 'reset';
      res.socket?.destroy();
      this.notify(record);
      return;
    }
    for (let i = 0; i < plan.chunks.length; i++) {
      if (this.gone(res)) return;
      res.write(plan.chunks[i]);
      if (this.chunkDelayMs > 0 && i < plan.chunks.length - 1 && !(await this.pause(res, this.chunkDelayMs))) return;
    }
    res.end();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest): Promise<void> {
    let raw: string;
    try {
      raw = await readBody(req, this.options.maxBodyBytes ?? DEFAULT_BODY_LIMIT);
    } catch (error) {
      if (error instanceof BodyTooLargeError) this.send(res, record, errorPlan(record.protocol ?? 'openai', 413, 'request body too large'));
      return;
    }
    record.body = parseBody(raw);
    const route = `${record.method} ${record.path}`;
    switch (route) {
      case 'POST /v1/chat/completions':
        return this.handleChat('openai', req, res, record);
      case 'POST /api/chat':
        return this.handleChat('ollama', req, res, record);
      case 'POST /v1/embeddings':
        return this.handleEmbed('openai', req, res, record);
      case 'POST /api/embed':
        return this.handleEmbed('ollama', req, res, record);
      case 'GET /v1/models':
        return this.send(res, record, jsonPlan(200, { object: 'list', data: this.models.map((id) => this.openaiModel(id)) }));
      case 'GET /api/tags':
        return this.send(res, record, jsonPlan(200, { models: this.models.map((id) => this.ollamaModel(id)) }));
      case 'GET /api/version':
        return this.send(res, record, jsonPlan(200, { version: this.options.ollamaVersion ?? '0.12.6' }));
      case 'GET /':
      case 'HEAD /':
        return this.send(res, record, textPlan(200, 'Ollama is running'));
      default:
        break;
    }
    if (record.method === 'GET' && record.path.startsWith('/v1/models/')) {
      const id = decodeURIComponent(record.path.slice('/v1/models/'.length));
      return this.send(
        res,
        record,
        this.models.includes(id)
          ? jsonPlan(200, this.openaiModel(id))
          : openaiErrorPlan(404, `The model '${id}' does not exist`, 'invalid_request_error', 'model_not_found', 'model'),
      );
    }
    if (record.protocol === 'openai') {
      return this.send(
        res,
        record,
        openaiErrorPlan(404, `Invalid URL (${record.method} ${record.path})`, 'invalid_request_error', null),
      );
    }
    return this.send(res, record, textPlan(404, '404 page not found'));
  }

  private openaiModel(id: string): Record<string, unknown> {
    return { id, object: 'model', created: 1_700_000_000, owned_by: 'fake' };
  }

  private ollamaModel(id: string): Record<string, unknown> {
    const name = id.includes(':') ? id : `${id}:latest`;
    return {
      name,
      model: name,
      modified_at: '2024-01-01T00:00:00Z',
      size: 1_000_000,
      digest: 'fa4e000000000000000000000000000000000000000000000000000000000000',
      details: { parent_model: '', format: 'gguf', family: 'fake', families: ['fake'], parameter_size: '1B', quantization_level: 'Q4_K_M' },
    };
  }

  /**
   * What chat and embeddings requests share: the body must be a JSON object and, on the OpenAI
   * protocol with an `apiKey` option, the bearer token must match. Replies with the protocol's
   * error and returns undefined otherwise.
   */
  private acceptBody(protocol: ModelProtocol, req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest): Record<string, unknown> | undefined {
    record.protocol = protocol;
    const body = record.body;
    if (!isRecord(body)) {
      const message =
        protocol === 'openai'
          ? 'We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly.)'
          : 'invalid request body';
      this.send(res, record, errorPlan(protocol, 400, message));
      return undefined;
    }
    if (protocol === 'openai' && this.options.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      this.send(res, record, openaiErrorPlan(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      return undefined;
    }
    return body;
  }

  private async handleChat(
    protocol: ModelProtocol,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    record: RecordedRequest,
  ): Promise<void> {
    const body = this.acceptBody(protocol, req, res, record);
    if (body === undefined) return;
    const info = normaliseChat(protocol, body, record.seq);
    if (typeof info === 'string') return this.send(res, record, errorPlan(protocol, 400, info));
    record.model = info.model;
    record.messages = info.messages;
    this.notify(record);

    if (this.options.strictModels === true && !this.models.includes(info.model) && !this.models.includes(info.model.replace(/:latest$/, ''))) {
      return this.send(
        res,
        record,
        protocol === 'openai'
          ? openaiErrorPlan(404, `The model \`${info.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found')
          : ollamaErrorPlan(404, `model "${info.model}" not found, try pulling it first`),
      );
    }

    const fault = this.takeFault(protocol);
    record.fault = fault?.kind;
    if (fault !== undefined) this.notify(record);
    const maxContext = this.options.maxContextTokens;
    switch (fault?.kind) {
      case 'status':
        return this.send(res, record, statusFaultPlan(protocol, fault, info.model));
      case 'contextLength': {
        const contextTokens = fault.contextTokens ?? maxContext ?? DEFAULT_CONTEXT_TOKENS;
        return this.send(res, record, contextLengthPlan(protocol, contextTokens, Math.max(info.promptTokens, contextTokens + 1)));
      }
      case 'resetConnection':
        if (fault.afterChunks !== undefined) break; // replies first, see deliver()
        record.outcome = 'reset';
        req.socket.destroy();
        this.notify(record);
        return;
      default:
        break;
    }
    if (maxContext !== undefined && info.promptTokens > maxContext) {
      return this.send(res, record, contextLengthPlan(protocol, maxContext, info.promptTokens));
    }

    let result: ResponderResult;
    if (fault?.kind === 'badContent') {
      result = fault.content;
    } else {
      try {
        result = await this.runResponder(info);
      } catch (error) {
        const message = `fake model server: responder failed: ${error instanceof Error ? error.message : String(error)}`;
        return this.send(res, record, errorPlan(protocol, 500, message));
      }
    }
    const reply = finaliseReply(info, result);
    let plan =
      protocol === 'openai'
        ? openaiReplyPlan(info, reply, Math.floor(this.now() / 1000), this.chunkChars)
        : ollamaReplyPlan(info, reply, new Date(this.now()).toISOString(), this.chunkChars);
    if (fault?.kind === 'malformedJson') plan = fault.afterChunks === undefined || !info.stream ? corruptPlan(plan) : corruptPlanAfter(plan, fault.afterChunks);
    const resetAfter = fault?.kind === 'resetConnection' ? fault.afterChunks : undefined;
    return this.deliver(res, record, plan, fault?.kind === 'slow' ? fault : undefined, resetAfter);
  }

  private async handleEmbed(
    protocol: ModelProtocol,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    record: RecordedRequest,
  ): Promise<void> {
    const body = this.acceptBody(protocol, req, res, record);
    if (body === undefined) return;
    const info = normaliseEmbed(protocol, body, record.seq, this.embeddingDimensions);
    if (typeof info === 'string') return this.send(res, record, errorPlan(protocol, 400, info));
    record.model = info.model;
    record.inputs = info.inputs;
    this.notify(record);

    if (this.options.strictModels === true && !this.models.includes(info.model) && !this.models.includes(info.model.replace(/:latest$/, ''))) {
      return this.send(
        res,
        record,
        protocol === 'openai'
          ? openaiErrorPlan(404, `The model \`${info.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found')
          : ollamaErrorPlan(404, `model "${info.model}" not found, try pulling it first`),
      );
    }

    const fault = this.takeFault(protocol, 'embeddings');
    record.fault = fault?.kind;
    if (fault !== undefined) this.notify(record);
    const maxContext = this.options.maxContextTokens;
    const longest = Math.max(...info.inputs.map((text) => estimateTokens(text)));
    switch (fault?.kind) {
      case 'status':
        return this.send(res, record, statusFaultPlan(protocol, fault, info.model));
      case 'contextLength': {
        const contextTokens = fault.contextTokens ?? maxContext ?? DEFAULT_CONTEXT_TOKENS;
        return this.send(res, record, protocol === 'openai' ? contextLengthPlan('openai', contextTokens, Math.max(longest, contextTokens + 1)) : ollamaEmbedContextPlan());
      }
      case 'resetConnection':
        record.outcome = 'reset';
        req.socket.destroy();
        this.notify(record);
        return;
      default:
        break;
    }
    // Ollama truncates over-long inputs unless asked not to; OpenAI rejects them.
    if (maxContext !== undefined && longest > maxContext && (protocol === 'openai' || body.truncate === false)) {
      return this.send(res, record, protocol === 'openai' ? contextLengthPlan('openai', maxContext, longest) : ollamaEmbedContextPlan());
    }

    let vectors: readonly (readonly number[])[];
    try {
      vectors = await this.runEmbedder(info);
    } catch (error) {
      const message = `fake model server: embedder failed: ${error instanceof Error ? error.message : String(error)}`;
      return this.send(res, record, errorPlan(protocol, 500, message));
    }
    if (fault?.kind === 'badEmbeddings') vectors = spoilEmbeddings(vectors, fault);
    let plan = protocol === 'openai' ? openaiEmbedPlan(info, vectors) : ollamaEmbedPlan(info, vectors);
    if (fault?.kind === 'malformedJson') plan = corruptPlan(plan);
    return this.deliver(res, record, plan, fault?.kind === 'slow' ? fault : undefined);
  }

  private runEmbedder(info: EmbedRequestInfo): Promise<readonly (readonly number[])[]> {
    const embedder = this.embedder;
    return new Promise<readonly (readonly number[])[]>((resolve, reject) => {
      const finish = (fn: () => void): void => {
        clearTimeout(timer);
        this.cancels.delete(cancel);
        fn();
      };
      const cancel = (): void => finish(() => reject(new Error('server closing')));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`timed out after ${this.responderTimeoutMs} ms`))),
        this.responderTimeoutMs,
      );
      this.cancels.add(cancel);
      Promise.resolve()
        .then(() => embedder(info))
        .then(
          (value) => {
            if (!Array.isArray(value) || !value.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
              throw new Error('embedder must return an array of number arrays');
            }
            finish(() => resolve(value));
          },
          (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
        )
        .catch((error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))));
    });
  }

  private runResponder(info: ChatRequestInfo): Promise<ResponderResult> {
    const responder = this.responder;
    return new Promise<ResponderResult>((resolve, reject) => {
      const finish = (fn: () => void): void => {
        clearTimeout(timer);
        this.cancels.delete(cancel);
        fn();
      };
      const cancel = (): void => finish(() => reject(new Error('server closing')));
      const timer = setTimeout(
        () => finish(() => reject(new Error(`timed out after ${this.responderTimeoutMs} ms`))),
        this.responderTimeoutMs,
      );
      this.cancels.add(cancel);
      Promise.resolve()
        .then(() => responder(info))
        .then(
          (value) => {
            if (typeof value !== 'string' && !(isRecord(value) && typeof value.content === 'string')) {
              throw new Error('responder must return a string or { content: string }');
            }
            finish(() => resolve(value));
          },
          (error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
        )
        .catch((error: unknown) => finish(() => reject(error instanceof Error ? error : new Error(String(error)))));
    });
  }
}

/**
 * A gate for responders and embedders: calls wait until `count` requests are in flight on
 * `server` at once, then the gate opens for good. The requests it held were all in flight
 * together, so a client's concurrency shows in {@link FakeModelServer.maxInFlight} however busy
 * the machine (a fixed delay only makes overlap likely). `count` may be a function, asked again
 * as each request arrives: e.g. the slots a client's semaphore has handed out, so that a client
 * over its limit shows too (every call holding a slot is let in before any is answered). If
 * `count` is not reached within `timeoutMs` (default 60 000, a safety net) the client is not that
 * concurrent: the gate opens all the same, and the test's assertion on `maxInFlight` says by how
 * much it fell short. Give the server a `responderTimeoutMs` above `timeoutMs`.
 *
 * @example
 * ```ts
 * const server = await startFakeModelServer({ responderTimeoutMs: 120_000 });
 * const gate = inFlightGate(server, 4);
 * server.setResponder(async (req) => (await gate(), defaultResponder(req)));
 * // … calls through a client with 4 slots …
 * assert.equal(server.maxInFlight, 4);
 * ```
 */
export function inFlightGate(server: FakeModelServer, count: number | (() => number), timeoutMs = DEFAULT_WAIT_TIMEOUT_MS): () => Promise<void> {
  let opened: Promise<void> | undefined;
  return () => {
    opened ??= server.waitForInFlight(count, timeoutMs).catch(() => undefined);
    return opened;
  };
}

/**
 * Start a fake model server on 127.0.0.1 (`options.port`, default any free port).
 *
 * @example
 * ```ts
 * const server = await startFakeModelServer({ maxContextTokens: 1000 });
 * const ollama = new Ollama({ host: server.ollamaHost });
 * const reply = await ollama.chat({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], stream: false });
 * // reply.message.content === 'fake reply to: hi'
 * await server.close();
 * ```
 */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const server = http.createServer();
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return new FakeModelServerImpl(server, address.port, options);
}

// ---------------------------------------------------------------------------
// Standalone use
// ---------------------------------------------------------------------------

function parseCliNumber(args: readonly string[], flag: string): number | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`fakeModelServer: ${flag} needs a non-negative integer`);
  return value;
}

async function main(args: readonly string[]): Promise<void> {
  const server = await startFakeModelServer({
    port: parseCliNumber(args, '--port'),
    maxContextTokens: parseCliNumber(args, '--max-context-tokens'),
  });
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`fake model server listening on ${server.url}`);
}

if (typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
