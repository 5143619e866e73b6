/**
 * The loop both providers stream text through: deltas to the caller as they come, a silence
 * timeout, cancel (the text so far kept), usage from the server or estimated, and errors mapped
 * by the provider.
 */
import { estimateMessagesTokens, estimateTokens } from './tokens';
import { LlmError, type TextDeltaHandler, type TextStreamRequest, type TextStreamResult, type Usage } from './types';

/** One event of a provider's stream, normalised across protocols. */
export interface TextStreamPiece {
  /** Text to append (absent or '': none). */
  text?: string;
  /** The server ended the answer: complete (`stop`) or at the token limit (`length`). */
  finish?: 'stop' | 'length';
  /** Prompt tokens, when this event reports them (OpenAI: the usage chunk; Ollama: the done line). */
  promptTokens?: number;
  /** Completion tokens, when this event reports them. */
  completionTokens?: number;
}

/** Options of {@link runTextStream}. */
export interface TextStreamLoopOptions {
  /**
   * Longest silence: until the response starts, and then between two events. (Not a deadline
   * for the whole answer, which may take minutes to write.)
   */
  timeoutMs: number;
  /** Sends the request with `signal` (which must abort it, also mid-body) and returns its events. */
  open: (signal: AbortSignal) => Promise<AsyncIterable<TextStreamPiece>>;
  /** Maps an error thrown while opening or reading the stream (not a cancel or a timeout) to an LlmError. */
  toLlmError: (error: unknown) => unknown;
}

/**
 * Runs one streamed call for a provider: its own AbortController fed by `req.signal` and the
 * silence timer, `onDelta` per non-empty piece (never after a cancel), the usage reported or
 * estimated, and the outcome:
 * - the server ended the answer (a `finish` piece): resolves with `stop`/`length`, whatever
 *   happens to the connection afterwards;
 * - `req.signal` aborted: resolves with `cancelled` and the text so far when a delta was
 *   delivered, else rejects with `LlmError('cancelled')`;
 * - `onDelta` threw: the stream is aborted and that error rethrown unchanged;
 * - silence longer than `timeoutMs`: `LlmError('timeout')`; the stream ended without a finish:
 *   `LlmError('server')`; any other failure: `toLlmError(error)`. Once deltas were delivered,
 *   such an LlmError carries the estimated usage of the partial answer.
 * The request is aborted whenever the call ends without the server having finished the body.
 */
export async function runTextStream(req: TextStreamRequest, onDelta: TextDeltaHandler, options: TextStreamLoopOptions): Promise<TextStreamResult> {
  if (req.signal?.aborted) throw new LlmError('cancelled', 'call cancelled');
  // One controller per request (not AbortSignal.any: on Node 20 it leaks with a long-lived input).
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
  };
  const onAbort = (): void => controller.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });

  let text = '';
  let delivered = false;
  let finish: 'stop' | 'length' | undefined;
  let promptTokens: number | undefined;
  let completionTokens: number | undefined;
  let failure: { error: unknown } | undefined;
  let callbackFailure: { error: unknown } | undefined;
  let ended = false;
  try {
    arm();
    const stream = await options.open(controller.signal);
    for await (const piece of stream) {
      // Nothing is delivered after a cancel or a timeout, even from events already buffered.
      if (controller.signal.aborted) break;
      arm();
      if (piece.promptTokens !== undefined) promptTokens = piece.promptTokens;
      if (piece.completionTokens !== undefined) completionTokens = piece.completionTokens;
      if (piece.text !== undefined && piece.text !== '') {
        text += piece.text;
        delivered = true;
        try {
          onDelta(piece.text);
        } catch (error) {
          callbackFailure = { error };
          break;
        }
      }
      if (piece.finish !== undefined) finish = piece.finish;
    }
    ended = !controller.signal.aborted && callbackFailure === undefined;
  } catch (error) {
    failure = { error };
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
    if (!ended) controller.abort();
  }

  const usage = (): Usage => {
    const promptKnown = Number.isInteger(promptTokens) && (promptTokens ?? -1) >= 0;
    const completionKnown = Number.isInteger(completionTokens) && (completionTokens ?? -1) >= 0;
    return {
      promptTokens: promptKnown ? (promptTokens as number) : estimateMessagesTokens(req.messages),
      completionTokens: completionKnown ? (completionTokens as number) : estimateTokens(text),
      estimated: !(promptKnown && completionKnown),
    };
  };
  if (callbackFailure !== undefined) throw callbackFailure.error;
  if (finish !== undefined) return { text, usage: usage(), finishReason: finish };
  if (req.signal?.aborted) {
    if (!delivered) throw new LlmError('cancelled', 'call cancelled', failure === undefined ? {} : { cause: failure.error });
    return { text, usage: { ...usage(), estimated: true }, finishReason: 'cancelled' };
  }
  let error: unknown;
  if (timedOut) error = new LlmError('timeout', `no data from the server for ${options.timeoutMs} ms`, failure === undefined ? {} : { cause: failure.error });
  else if (failure !== undefined) error = options.toLlmError(failure.error);
  else error = new LlmError('server', 'the stream ended before the answer was complete');
  if (delivered && error instanceof LlmError && error.usage === undefined) {
    const partial = usage();
    error = new LlmError(error.reason, error.message, {
      cause: error.cause,
      status: error.status,
      retryAfterMs: error.retryAfterMs,
      issues: error.issues,
      usage: { ...partial, estimated: true },
    });
  }
  throw error;
}
