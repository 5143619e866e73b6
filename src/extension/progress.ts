/** The one bridge from core's AbortSignal + progress callback to VS Code's withProgress. */
import * as vscode from 'vscode';
import type { ProgressSink } from '../core/util/abort';

/** Runs `work` with a cancellable notification; cancel aborts the signal. */
export function withCancellableProgress<T>(title: string, work: (signal: AbortSignal, onProgress: ProgressSink) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    let lastPct = 0;
    try {
      return await work(controller.signal, ({ done, total, message }) => {
        const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
        progress.report({ message: total > 0 ? `${done}/${total}${message ? ` — ${message}` : ''}` : message, increment: Math.max(0, pct - lastPct) });
        lastPct = Math.max(lastPct, pct);
      });
    } finally {
      sub.dispose();
    }
  });
}
