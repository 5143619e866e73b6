/**
 * Ask the corpus in the editor (SPEC §5 "Ask the corpus", §6): the sidebar's
 * Ask box and "Marker Research: Ask the Corpus". The engine answers (the ask
 * pipeline, its context and the corpus live in the language server); this
 * sends one question at a time with the settings and the API key (a new
 * question cancels the one before, and "Marker Research: Cancel" aborts it
 * too), posts the answer the engine built to the sidebar, and opens a hit at
 * the place the engine resolved for it.
 */
import * as vscode from 'vscode';
import { CancelledError } from '../core/util/abort';
import { engineChangedNotification, type ModelAccess } from '../shared/lspProtocol';
import { askInvalidateNotification, askRequest, hitPlaceRequest, type SpanPlace } from '../shared/lspProtocol';
import type { ApiKeyStore } from './apiKeyStore';
import type { SpanOpener } from './evidenceNavigator';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import { runningWork } from './runningWork';
import type { SettingsService } from './settings';
import type { AskMessage, SidebarQuestion } from './sidebarActions';
import { SidebarViewProvider } from './sidebarView';

export type AskErrorReason = string;

/** A question that cannot be asked, or a hit that cannot be opened; `reason` says why. Messages start with `ask:`. */
export class AskServiceError extends Error {
  constructor(
    readonly reason: AskErrorReason,
    message: string,
  ) {
    super(`ask: ${message}`);
    this.name = 'AskServiceError';
  }
}

/** Hit places kept from recent answers (the box shows the newest; older ones may still be clicked). */
const PLACES_KEPT = 200;

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const placeKey = (itemId: string, part: string, start: number, end: number): string => `${itemId}\u0000${part}\u0000${start}\u0000${end}`;

/** What a request that may use a model carries: the settings, and the API key when a model provider is set. */
export async function modelAccess(settings: SettingsService, apiKey: ApiKeyStore): Promise<ModelAccess> {
  const s = settings.value;
  return s.provider === 'extractive' ? { settings: s } : { settings: s, apiKey: await apiKey.get() };
}

/** Questions to the engine, one at a time. */
export class AskService implements vscode.Disposable {
  private current: { askId: number; controller: AbortController } | undefined;
  private seq = 0;
  /** Where the hits of recent answers open, by span. */
  private readonly places = new Map<string, SpanPlace>();
  private readonly updated = new vscode.EventEmitter<AskMessage>();
  private readonly subs: vscode.Disposable[];
  /** Progress, results and errors of questions, for the sidebar. */
  readonly onDidUpdate = this.updated.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly client: CorpusLanguageClient,
    private readonly apiKey: ApiKeyStore,
    private readonly openSpan: SpanOpener,
  ) {
    // A new index may move spans: hits of earlier answers are resolved again when clicked.
    this.subs = [client.onNotification(engineChangedNotification, (e) => (e.what === 'corpus' ? this.places.clear() : undefined))];
  }

  /** Has the engine drop its ask context: the next question builds it again (after a settings change). */
  invalidate(): void {
    this.client.notify(askInvalidateNotification, {}).catch((e: Error) => this.log.debug(`ask: invalidate not sent: ${e.message}`));
  }

  /** Stops the question being answered, if any. */
  cancel(): void {
    this.current?.controller.abort();
  }

  /**
   * Answers `q` and posts the answer (or the error) through {@link onDidUpdate}.
   * A question asked meanwhile supersedes this one: it is cancelled and posts nothing.
   */
  async ask(q: SidebarQuestion): Promise<void> {
    const askId = ++this.seq;
    this.current?.controller.abort();
    const controller = new AbortController();
    this.current = { askId, controller };
    const question = q.question.trim();
    const started = Date.now();
    this.updated.fire({ type: 'askBusy', askId, question, busy: true });
    try {
      const access = await modelAccess(this.settings, this.apiKey);
      // (the view's own progress bar; "Marker Research: Cancel" aborts the question too)
      const response = await runningWork.run(controller.signal, async (signal) =>
        vscode.window.withProgress({ location: { viewId: SidebarViewProvider.viewId } }, async () => {
          const source = new vscode.CancellationTokenSource();
          const onAbort = (): void => source.cancel();
          if (signal.aborted) source.cancel();
          else signal.addEventListener('abort', onAbort, { once: true });
          try {
            return await this.client.request(askRequest, { ...access, askId, question, itemId: q.itemId ?? null, session: q.session }, source.token);
          } finally {
            signal.removeEventListener('abort', onAbort);
            source.dispose();
          }
        }),
      );
      if (this.current?.askId !== askId) return; // superseded
      response.result.hits.forEach((h, i) => {
        const place = response.places[i];
        if (place) this.remember(placeKey(h.itemId, h.part, h.start, h.end), place);
      });
      response.result.answer.sentences.forEach((a, i) => {
        const place = response.answerPlaces[i];
        if (place) this.remember(placeKey(a.itemId, a.part, a.start, a.end), place);
      });
      // (the engine logs the question, how it was understood and the hits)
      this.updated.fire({ type: 'askResult', result: response.result });
    } catch (e) {
      if (this.current?.askId !== askId) return; // superseded: the newer question speaks for the box
      if (e instanceof CancelledError || controller.signal.aborted) {
        this.log.debug(`ask #${askId}: cancelled after ${Date.now() - started} ms`);
        this.updated.fire({ type: 'askBusy', askId, question, busy: false });
        return;
      }
      const message = (e as Error).message.replace(/^ask: /, '');
      // The engine logged what it refused; other failures (the engine unreachable, …) are logged here.
      if (!(e instanceof EngineRequestError)) this.log.error(`ask #${askId}: "${clip(question)}" failed: ${(e as Error).stack ?? message}`);
      this.updated.fire({ type: 'askError', askId, question, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}` });
    } finally {
      if (this.current?.askId === askId) this.current = undefined;
    }
  }

  /**
   * Opens a hit at its span, selected and highlighted as marker evidence is:
   * at the place the engine gave with the answer, or — for a hit it no
   * longer remembers — the place the engine resolves now (checked against
   * the indexed corpus; the webview only names the span).
   */
  async openHit(itemId: string, part: 'transcript' | 'comments', start: number, end: number): Promise<void> {
    let place = this.places.get(placeKey(itemId, part, start, end));
    if (!place) {
      try {
        place = await this.client.request(hitPlaceRequest, { itemId, part, start, end });
      } catch (e) {
        if (e instanceof EngineRequestError) throw new AskServiceError(e.reason, e.message);
        throw e;
      }
    }
    await this.openSpan({ itemId, part, start, end }, { uri: vscode.Uri.file(place.path), ranges: [place.range] }, `hit ${itemId}/${part} [${start}, ${end})`);
    const r = place.range;
    this.log.info(`ask: opened ${itemId}/${part} [${start}, ${end}) (${place.where}-${r.endLine + 1}:${r.endColumn + 1})`);
  }

  private remember(key: string, place: SpanPlace): void {
    this.places.delete(key);
    this.places.set(key, place);
    if (this.places.size > PLACES_KEPT) this.places.delete(this.places.keys().next().value!);
  }

  dispose(): void {
    this.current?.controller.abort();
    for (const d of this.subs) d.dispose();
    this.updated.dispose();
  }
}
