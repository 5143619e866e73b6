/**
 * Long work in the server: the request's cancellation token (and
 * "Marker Research: Cancel", `cancelAllNotification`) as core's AbortSignal,
 * core's progress as LSP work-done progress on the client's token, and
 * failures as protocol errors (a reason the client can act on, or cancelled).
 */
import { ErrorCodes, LSPErrorCodes, ResponseError, WorkDoneProgress, type CancellationToken, type Connection, type ProgressToken } from 'vscode-languageserver/node';
import { CancelledError, type ProgressSink } from '../core/util/abort';
import { LlmError } from '../core/llm/types';
import { ENGINE_ERROR_CODE, type EngineErrorData, type EngineProgressReport } from '../shared/lspProtocol';
import { EngineError } from './engineState';

/** Every long operation in flight; `cancelAll` aborts them. */
export class RunningWork {
  private readonly controllers = new Set<AbortController>();
  private readonly startListeners = new Set<() => void>();
  /** When work last started or ended (ms since the epoch); 0 before any. */
  private lastChange = 0;

  get size(): number {
    return this.controllers.size;
  }

  /** Milliseconds since work last started or ended: 0 while any runs. */
  idleFor(now = Date.now()): number {
    return this.controllers.size ? 0 : now - this.lastChange;
  }

  /** Calls `listener` whenever work starts (after it is counted in {@link size}). */
  onDidStart(listener: () => void): { dispose(): void } {
    this.startListeners.add(listener);
    return { dispose: () => this.startListeners.delete(listener) };
  }

  /** Runs `fn` with a signal aborted by `token` or {@link cancelAll}. */
  async run<T>(token: CancellationToken | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const sub = token?.onCancellationRequested(() => controller.abort());
    if (token?.isCancellationRequested) controller.abort();
    this.controllers.add(controller);
    this.lastChange = Date.now();
    for (const listener of [...this.startListeners]) listener();
    try {
      return await fn(controller.signal);
    } finally {
      sub?.dispose();
      this.controllers.delete(controller);
      this.lastChange = Date.now();
    }
  }

  /**
   * Resolves true once no work has run for `quietMs` (polling every `everyMs`), false as soon as
   * `token` is cancelled: background work waits with it for the engine to be idle.
   */
  async whenIdle(quietMs: number, token: CancellationToken, everyMs = 250): Promise<boolean> {
    while (!token.isCancellationRequested) {
      const busy = this.controllers.size > 0;
      const idle = this.idleFor();
      if (!busy && idle >= quietMs) return true;
      // While work runs, poll; once it is over, sleep out the rest of the quiet time (at most `everyMs`).
      await new Promise((r) => setTimeout(r, Math.max(10, busy ? everyMs : Math.min(everyMs, quietMs - idle))));
    }
    return false;
  }

  cancelAll(): number {
    const n = this.controllers.size;
    for (const c of this.controllers) c.abort();
    return n;
  }
}

/** Work-done progress on the client's token (none: a sink that drops updates). Begins at once; `end` closes it. */
export function workProgress(connection: Connection, token: ProgressToken | undefined, title: string): { sink: ProgressSink; end: (message?: string) => void } {
  if (token === undefined) return { sink: () => undefined, end: () => undefined };
  void connection.sendProgress(WorkDoneProgress.type, token, { kind: 'begin', title, cancellable: true, percentage: 0 });
  let last = 0;
  let lastPct = -1;
  const sink: ProgressSink = ({ done, total, message }) => {
    const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
    const now = Date.now();
    // At most ~10 reports a second, but every change of percentage and the last one.
    if (pct === lastPct && now - last < 100 && done < total) return;
    last = now;
    lastPct = pct;
    const report: EngineProgressReport = { kind: 'report', percentage: pct, message, done, total };
    void connection.sendProgress(WorkDoneProgress.type, token, report);
  };
  return { sink, end: (message) => void connection.sendProgress(WorkDoneProgress.type, token, { kind: 'end', message }) };
}

/** An error as the protocol carries it: cancelled, a reason the user can act on, or an internal error with its message. */
export function toResponseError(e: unknown): ResponseError<EngineErrorData | undefined> {
  if (e instanceof ResponseError) return e as ResponseError<EngineErrorData | undefined>;
  if (e instanceof CancelledError) return new ResponseError(LSPErrorCodes.RequestCancelled, e.message, undefined);
  if (e instanceof EngineError) return new ResponseError(ENGINE_ERROR_CODE, e.message, { reason: e.reason });
  if (e instanceof LlmError) return new ResponseError(ENGINE_ERROR_CODE, e.message, { reason: `llm-${e.reason}` });
  const err = e as Error;
  return new ResponseError(ErrorCodes.InternalError, err?.message ?? String(e), undefined);
}

/**
 * Runs a request handler's work: progress on `workDoneToken` (titled
 * `title`), cancellable by the request and by cancel-all, errors mapped by
 * {@link toResponseError}.
 */
export async function runWork<T>(
  connection: Connection,
  running: RunningWork,
  opts: { title: string; workDoneToken?: ProgressToken; token?: CancellationToken },
  fn: (signal: AbortSignal, onProgress: ProgressSink) => Promise<T>,
): Promise<T> {
  const progress = workProgress(connection, opts.workDoneToken, opts.title);
  try {
    return await running.run(opts.token, (signal) => fn(signal, progress.sink));
  } catch (e) {
    throw toResponseError(e);
  } finally {
    progress.end();
  }
}

/** Wraps a plain (short) request handler: its failures as protocol errors. */
export function guarded<P, R>(fn: (params: P, token: CancellationToken) => Promise<R> | R): (params: P, token: CancellationToken) => Promise<R> {
  return async (params, token) => {
    try {
      return await fn(params, token);
    } catch (e) {
      throw toResponseError(e);
    }
  };
}
