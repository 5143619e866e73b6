/**
 * Vectors for the Ask box, as the user sees them: when
 * `markerResearch.embeddingModel` is set, the engine embeds the windows of the
 * corpus that have no vector yet while it builds the ask context; this shows
 * that as a cancellable progress notification (Cancel, or "Marker Research:
 * Cancel", stops the embedding: the question is answered without vectors),
 * and shows the engine's warnings once (vectors off for want of an API key,
 * embedding failed — with "Show Logs").
 */
import * as vscode from 'vscode';
import { askWarningNotification, vectorCancelNotification, vectorProgressNotification, type VectorProgressParams } from '../shared/lspProtocol';
import type { CorpusLanguageClient } from './languageClient';
import { withCancellableProgress } from './runningWork';

export class VectorService implements vscode.Disposable {
  /** The progress notification shown while the engine embeds: feeds it, and closes it. */
  private shown: { report: (p: VectorProgressParams) => void; end: () => void } | undefined;
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly client: CorpusLanguageClient,
  ) {
    this.subs = [
      client.onNotification(vectorProgressNotification, (p) => this.onProgress(p)),
      client.onNotification(askWarningNotification, ({ message, showLogs }) => {
        if (showLogs) void vscode.window.showWarningMessage(message, vscode.l10n.t('Show Logs')).then((a) => (a ? this.log.show() : undefined));
        else void vscode.window.showWarningMessage(message);
      }),
    ];
  }

  private onProgress(p: VectorProgressParams): void {
    if (p.kind === 'begin') return this.begin(p.model);
    if (p.kind === 'end') {
      this.shown?.end();
      this.shown = undefined;
      return;
    }
    this.shown?.report(p);
  }

  /** The progress notification of one embedding, until the engine says it ended (or the user cancels). */
  private begin(model: string): void {
    this.shown?.end();
    let report: (p: VectorProgressParams) => void = () => undefined;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.shown = { report: (p) => report(p), end };
    void withCancellableProgress(vscode.l10n.t('Marker Research: embedding the corpus ({0})', model), async (signal, onProgress) => {
      report = ({ done, total, message }) => onProgress({ done, total, message });
      const onAbort = (): void => {
        this.log.info('vectors: asking the engine to stop embedding');
        this.client.notify(vectorCancelNotification, {}).catch((e: Error) => this.log.warn(`vectors: cancel not sent: ${e.message}`));
        end();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await ended;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    });
  }

  dispose(): void {
    this.shown?.end();
    for (const d of this.subs) d.dispose();
  }
}
