/**
 * The structured-output loop both providers share: call → parse JSON → validate with zod; on a
 * parse or validation failure exactly one repair round that shows the model its errors; then
 * `LlmError('invalid-reply')`. Also the per-request deadline and the cancel/timeout mapping.
 */
import { z } from 'zod';
import type { Logger } from '../util/log';
import { LlmError, type ChatMessage, type StructuredRequest, type StructuredResult, type Usage } from './types';

/** What one raw model call returns. */
export interface RawReply {
  /** The assistant message's text ('' when the server sent none). */
  content: string;
  usage: Usage;
  /** True when the server stopped at the token limit (`finish_reason`/`done_reason` `length`). */
  truncated: boolean;
}

/**
 * One HTTP request to the model with `messages`; must abort it when `signal` aborts. Errors it
 * throws are mapped by {@link StructuredLoopOptions.toLlmError}.
 */
export type RawCall = (messages: readonly ChatMessage[], signal: AbortSignal) => Promise<RawReply>;

/** Options of {@link runStructured}. */
export interface StructuredLoopOptions {
  /** Deadline of each request (the repair round gets its own). */
  timeoutMs: number;
  /** Maps an error thrown by the raw call (not a cancel or a deadline) to an LlmError. */
  toLlmError: (error: unknown) => unknown;
  log?: Logger;
}

/** At most this many issues are shown to the model and kept on the error. */
const MAX_ISSUES = 8;
/** A bad reply echoed back to the model in the repair round is cut to this many characters. */
const MAX_ECHO_CHARS = 8_000;

/** The outcome of parsing a reply. */
export type ParsedReply<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/**
 * Runs `req` through `call` with one repair round. Each request gets a deadline of
 * `options.timeoutMs` and the request's signal.
 *
 * @throws LlmError `invalid-reply` when the repaired reply is still invalid (with its issues
 * and the usage of both calls), `cancelled` when `req.signal` aborts, `timeout` when a deadline
 * passes, or whatever `toLlmError` makes of the call's own errors.
 */
export async function runStructured<T>(req: StructuredRequest<T>, call: RawCall, options: StructuredLoopOptions): Promise<StructuredResult<T>> {
  const first = await callWithDeadline(req.messages, req.signal, call, options);
  const parsed = parseReply(first.content, req.schema);
  if (parsed.ok) return { value: parsed.value, usage: first.usage, repaired: false, attempts: 1 };

  options.log?.warn(`llm: reply for ${req.schemaName} (${req.phase}${req.step === undefined ? '' : `/${req.step}`}) invalid, repairing: ${parsed.issues.slice(0, 3).join('; ')}`);
  const repairMessages: ChatMessage[] = [
    ...req.messages,
    { role: 'assistant', content: cut(first.content, MAX_ECHO_CHARS) },
    { role: 'user', content: repairPrompt(parsed.issues, first.truncated) },
  ];
  const second = await callWithDeadline(repairMessages, req.signal, call, options).catch((error: unknown) => {
    // Keep the first call's tokens visible on the error, so the ledger can still count them.
    if (error instanceof LlmError && error.usage === undefined) {
      throw new LlmError(error.reason, error.message, { cause: error.cause, status: error.status, retryAfterMs: error.retryAfterMs, issues: error.issues, usage: first.usage });
    }
    throw error;
  });
  const usage = sumUsage(first.usage, second.usage);
  const repaired = parseReply(second.content, req.schema);
  if (repaired.ok) return { value: repaired.value, usage, repaired: true, attempts: 2 };
  throw new LlmError('invalid-reply', `reply for ${req.schemaName} still invalid after a repair round: ${repaired.issues.slice(0, 3).join('; ')}`, {
    issues: repaired.issues,
    usage,
  });
}

/**
 * Parses a model reply: strips `<think>` blocks and code fences, parses JSON (falling back to
 * the outermost `{...}` when there is prose around it), validates with `schema`.
 */
export function parseReply<T>(content: string, schema: z.ZodType<T>): ParsedReply<T> {
  const text = stripFences(content);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const open = text.indexOf('{');
    const close = text.lastIndexOf('}');
    let recovered = false;
    if (open >= 0 && close > open) {
      try {
        json = JSON.parse(text.slice(open, close + 1));
        recovered = true;
      } catch {}
    }
    if (!recovered) {
      const what = text.trim() === '' ? 'the reply was empty' : `the reply is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
      return { ok: false, issues: [what] };
    }
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.slice(0, MAX_ISSUES).map(formatIssue) };
}

/** Removes `<think>…</think>` blocks and a surrounding Markdown code fence (```json … ```). */
export function stripFences(content: string): string {
  let text = content.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /^```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/.exec(text);
  if (fenced) text = (fenced[1] ?? '').trim();
  return text;
}

/** Sum of two usages; estimated when either is. */
export function sumUsage(a: Usage, b: Usage): Usage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, estimated: a.estimated || b.estimated };
}

const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The JSON schema of a zod schema for structured output (zod 4 `z.toJSONSchema`, without the
 * `$schema` key some servers reject), cached per schema.
 * @throws LlmError `config` when the schema cannot be expressed as JSON schema (e.g. transforms).
 */
export function jsonSchemaFor(schema: z.ZodType): Record<string, unknown> {
  const cached = jsonSchemas.get(schema);
  if (cached !== undefined) return cached;
  let json: Record<string, unknown>;
  try {
    json = { ...(z.toJSONSchema(schema) as Record<string, unknown>) };
  } catch (error) {
    throw new LlmError('config', `schema cannot be sent as JSON schema: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  delete json.$schema;
  jsonSchemas.set(schema, json);
  return json;
}

/** A schema name servers accept (`^[A-Za-z0-9_-]{1,64}$`). */
export function safeSchemaName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return safe === '' ? 'reply' : safe;
}

async function callWithDeadline(messages: readonly ChatMessage[], signal: AbortSignal | undefined, call: RawCall, options: StructuredLoopOptions): Promise<RawReply> {
  if (signal?.aborted) throw new LlmError('cancelled', 'call cancelled');
  // One controller per request, fed by the caller's signal and the deadline. (Not
  // AbortSignal.any: on Node 20 it leaks when one input, like a run's signal, is long-lived.)
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(messages, controller.signal);
  } catch (error) {
    if (signal?.aborted) throw new LlmError('cancelled', 'call cancelled', { cause: error });
    if (timedOut) throw new LlmError('timeout', `no reply within ${options.timeoutMs} ms`, { cause: error });
    throw options.toLlmError(error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function repairPrompt(issues: readonly string[], truncated: boolean): string {
  const lines = [
    'Your previous reply could not be used:',
    ...issues.map((issue) => `- ${cut(issue, 300)}`),
    ...(truncated ? ['It was cut off at the token limit: keep the reply shorter (fewer, shorter items).'] : []),
    'Reply again with only the corrected JSON object that matches the requested schema: no prose, no code fences. Quotes must still be copied verbatim from the text.',
  ];
  return lines.join('\n');
}

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return `${path === '' ? '(root)' : path}: ${issue.message}`;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
