/**
 * The client of the corpus engine (dist/server.js, over IPC): every custom
 * request of `src/shared/lspProtocol.ts` goes through here. Long work shows a
 * cancellable progress notification fed by the server's work-done progress;
 * "Marker Research: Cancel" aborts it too. Protocol errors come back as
 * {@link EngineRequestError} (a reason the user can act on) or core's
 * `CancelledError`. When the server crashes, the client restarts it and
 * {@link CorpusLanguageClient.onDidRestart} fires (the extension re-indexes
 * from the persisted state).
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  ErrorAction, ErrorCodes, LanguageClient, LSPErrorCodes, ResponseError, State, TransportKind, WorkDoneProgress,
  type ErrorHandler, type LanguageClientOptions, type NotificationType, type RequestType, type ServerOptions, type WorkDoneProgressParams,
} from 'vscode-languageclient/node';
import { CancelledError, type ProgressUpdate } from '../core/util/abort';
import { cancelAllNotification, ENGINE_ERROR_CODE, engineLogNotification, type EngineErrorData, type EngineProgressReport } from '../shared/lspProtocol';
import { noteLoopEvent } from './eventLoopStats';
import { withCancellableProgress } from './runningWork';
import { ENGINE_EXEC_ARGV } from '../shared/engineProcess';

/** The reason of a request the engine never answered because it stopped (and was restarted). */
export const ENGINE_RESTARTED = 'engine-restarted';

/** A request the engine refused for a reason the user can act on (`no-corpus`, `busy`, `not-found`, …). */
export class EngineRequestError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineRequestError';
  }
}

/** A protocol error as the extension's error: cancelled, a reason, or the server's message. */
export function fromResponseError(e: unknown): Error {
  if (e instanceof ResponseError) {
    if (e.code === LSPErrorCodes.RequestCancelled) return new CancelledError(e.message || 'operation cancelled');
    // The engine went away while answering (a crash): the client restarts it and says so once; callers stay quiet.
    if (e.code === ErrorCodes.PendingResponseRejected || e.code === ErrorCodes.ConnectionInactive) return new EngineRequestError(ENGINE_RESTARTED, vscode.l10n.t('the engine stopped while working on this and was restarted; run it again (an interrupted research run can be resumed).'));
    const data = e.data as EngineErrorData | undefined;
    if (e.code === ENGINE_ERROR_CODE && data?.reason) return new EngineRequestError(data.reason, e.message);
    return new Error(e.message);
  }
  return e instanceof Error ? e : new Error(String(e));
}

export class CorpusLanguageClient implements vscode.Disposable {
  private readonly client: LanguageClient;
  private started: Promise<void> | undefined;
  private wasRunning = false;
  private readonly restarted = new vscode.EventEmitter<void>();
  private readonly subs: vscode.Disposable[] = [];
  /** Listeners of each server notification, by method. */
  private readonly listeners = new Map<string, Set<(params: unknown) => void>>();
  /** Fires when the server came back after a crash: its state is gone, the extension loads the corpus again. */
  readonly onDidRestart = this.restarted.event;

  /** When the engine's connection closes: the library's default (restart, up to 4 times in 3 minutes). */
  private readonly restartPolicy: ErrorHandler;

  constructor(context: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel) {
    const module = context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc, options: { execArgv: [...ENGINE_EXEC_ARGV] } },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009', ...ENGINE_EXEC_ARGV] } },
    };
    const clientOptions: LanguageClientOptions = {
      // Research reports (and the other Markdown of a run): citations become links and hovers.
      documentSelector: [{ scheme: 'file', language: 'markdown', pattern: '**/.marker-research/runs/**/*.md' }],
      outputChannel: log,
      // l10n: the display language's bundle (undefined in English): the engine's messages read it (src/server/engineL10n.ts).
      initializationOptions: { promptsDir: context.asAbsolutePath('prompts'), l10n: vscode.l10n.bundle },
      errorHandler: {
        // A message that cannot be written (the engine died with requests on their way; the IPC writer reports each
        // without a count, which the default handler takes as a reason to shut the client down, so the crash that
        // follows was never restarted): keep going, the connection's close restarts the engine.
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => this.restartPolicy.closed(),
      },
    };
    this.client = new LanguageClient('markerResearch', 'Marker Research Engine', serverOptions, clientOptions);
    // The library's restart policy (up to 4 restarts in 3 minutes) decides when the engine's connection closes.
    this.restartPolicy = this.client.createDefaultErrorHandler();
    this.subs.push(
      this.client.onDidChangeState(({ oldState, newState }) => {
        if (newState === State.Running) {
          if (this.wasRunning && oldState === State.Starting) {
            this.log.warn('the Marker Research engine restarted after it stopped unexpectedly; loading the corpus again');
            this.restarted.fire();
          }
          this.wasRunning = true;
        }
      }),
    );
  }

  start(): Promise<void> {
    this.started ??= this.client.start().then(() => {
      this.subs.push(
        this.client.onNotification(engineLogNotification, ({ level, message }) => {
          if (level === 'error') this.log.error(message);
          else if (level === 'warn') this.log.warn(message);
          else if (level === 'debug') this.log.debug(message);
          else this.log.info(message);
        }),
      );
    });
    return this.started;
  }

  /** A request to the engine; its errors as {@link fromResponseError} says. */
  async request<P, R>(type: RequestType<P, R, void>, params: P, token?: vscode.CancellationToken): Promise<R> {
    await this.start();
    try {
      // The generic P is exactly the type's params (RequestParam<P> only narrows it for `undefined`).
      return await this.client.sendRequest(type, params as never, token);
    } catch (e) {
      throw fromResponseError(e);
    }
  }

  /**
   * Long work: a cancellable progress notification titled `title` (the
   * extension's one adapter, registered for "Marker Research: Cancel"), fed by
   * the server's work-done progress; cancelling it cancels the request.
   * `onProgress` sees every report.
   */
  async work<P extends WorkDoneProgressParams, R>(
    title: string,
    type: RequestType<P, R, void>,
    params: Omit<P, 'workDoneToken'>,
    opts: { onProgress?: (u: ProgressUpdate) => void } = {},
  ): Promise<R> {
    await this.start();
    return withCancellableProgress(title, async (signal, report) => {
      const workDoneToken = randomUUID();
      const source = new vscode.CancellationTokenSource();
      const onAbort = (): void => source.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      const sub = this.client.onProgress(WorkDoneProgress.type, workDoneToken, (v) => {
        if (v.kind !== 'report') return;
        const r = v as EngineProgressReport;
        const u: ProgressUpdate = typeof r.done === 'number' && typeof r.total === 'number' ? { done: r.done, total: r.total, message: r.message } : { done: 0, total: 0, message: r.message };
        report(u);
        opts.onProgress?.(u);
      });
      try {
        return await this.client.sendRequest(type, { ...params, workDoneToken } as never, source.token);
      } catch (e) {
        if (source.token.isCancellationRequested && !(e instanceof ResponseError && e.code === ENGINE_ERROR_CODE)) throw new CancelledError();
        throw fromResponseError(e);
      } finally {
        signal.removeEventListener('abort', onAbort);
        sub.dispose();
        source.dispose();
      }
    });
  }

  async notify<P>(type: NotificationType<P>, params: P): Promise<void> {
    await this.start();
    await this.client.sendNotification(type, params as never);
  }

  /**
   * Listens to a server notification. The language client keeps one handler
   * per method (a second registration replaces the first), so every method is
   * registered once here and fans out to all its listeners.
   */
  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): vscode.Disposable {
    let listeners = this.listeners.get(type.method);
    if (!listeners) {
      const set = new Set<(params: unknown) => void>();
      listeners = set;
      this.listeners.set(type.method, set);
      void this.start().then(() => {
        this.subs.push(
          this.client.onNotification(type, (params: P) => {
            noteLoopEvent(type.method);
            for (const l of [...set]) {
              try {
                l(params);
              } catch (e) {
                this.log.error(`a listener of ${type.method} failed: ${(e as Error).message}`);
              }
            }
          }),
        );
      });
    }
    const l = handler as (params: unknown) => void;
    listeners.add(l);
    return new vscode.Disposable(() => void listeners.delete(l));
  }

  /** Aborts every long operation in the engine. */
  cancelAll(): Promise<void> {
    return this.notify(cancelAllNotification, {});
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.restarted.dispose();
    void this.client.stop();
  }
}
