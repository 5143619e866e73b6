/**
 * The registry of long operations in flight (what "Marker Research: Cancel" aborts), and the
 * cancellable progress notification that registers its work there.
 */
import * as vscode from 'vscode';
import type { ProgressSink } from '../core/util/abort';
import { withCancellableProgress as withProgressNotification } from './progress';

/** Every long operation in flight, each with its own AbortController; `cancelAll` aborts them. */
export class RunningWork {
  private readonly controllers = new Set<AbortController>();
  private readonly changed = new vscode.EventEmitter<number>();
  /** Fires with the number of operations in flight. */
  readonly onDidChange = this.changed.event;

  get size(): number {
    return this.controllers.size;
  }

  /** Runs `work` with a signal aborted by `outer` or by {@link cancelAll}. */
  async run<T>(outer: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onOuter = (): void => controller.abort();
    if (outer.aborted) controller.abort();
    else outer.addEventListener('abort', onOuter, { once: true });
    this.controllers.add(controller);
    this.changed.fire(this.controllers.size);
    try {
      return await work(controller.signal);
    } finally {
      outer.removeEventListener('abort', onOuter);
      this.controllers.delete(controller);
      this.changed.fire(this.controllers.size);
    }
  }

  /** Aborts everything in flight; returns how many operations were told to stop. */
  cancelAll(): number {
    const n = this.controllers.size;
    for (const c of this.controllers) c.abort();
    return n;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The one registry of the extension host. */
export const runningWork = new RunningWork();

/**
 * `withCancellableProgress` (the progress adapter) with the work registered in
 * {@link runningWork}, so "Marker Research: Cancel" aborts it too.
 */
export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal, onProgress: ProgressSink) => Promise<T>): Thenable<T> {
  return withProgressNotification(title, (signal, onProgress) => runningWork.run(signal, (s) => work(s, onProgress)));
}
