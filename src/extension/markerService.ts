/**
 * Markers in the editor, as the engine serves them: the Corpus & Markers
 * view's state (items, their markers, problems), asked again whenever the
 * engine says its state changed, and marker generation (a request to the
 * engine with a cancellable progress notification). No corpus text is held
 * here.
 */
import * as vscode from 'vscode';
import type { ProgressUpdate } from '../core/util/abort';
import {
  engineChangedNotification, generateMarkersRequest, sidebarStatePieceRequest, sidebarStateRequest,
  type GenerateMarkersResult, type GenerateMode, type SerializedSidebarState,
} from '../shared/lspProtocol';
import type { ItemSummary, SidebarState } from '../shared/webviewProtocol';
import type { ApiKeyStore } from './apiKeyStore';
import { noteLoopEvent } from './eventLoopStats';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import type { SettingsService } from './settings';

export type { GenerateMode };

export type MarkerErrorReason = 'no-corpus' | 'busy' | 'bad-settings' | 'no-api-key' | 'not-found' | 'outside-corpus';

/** A marker action that cannot be done; `reason` says why. Messages start with `markers:`. */
export class MarkerServiceError extends Error {
  constructor(
    readonly reason: MarkerErrorReason | string,
    message: string,
  ) {
    super(`markers: ${message}`);
    this.name = 'MarkerServiceError';
  }
}

/** An engine refusal as a marker error (same reason and message). */
function asMarkerError(e: unknown): unknown {
  return e instanceof EngineRequestError ? new MarkerServiceError(e.reason, e.message) : e;
}

export class MarkerService implements vscode.Disposable {
  /** The view state as the engine serialised it, passed to the webview unparsed. */
  private serialized: SerializedSidebarState | undefined;
  /** Parsed only when a command needs an item or a problem (a quick pick, opening a file): never per refresh. */
  private parsed: { from: SerializedSidebarState; state: SidebarState } | undefined;
  private generatingNow = false;
  private fetching: Promise<SerializedSidebarState | undefined> | undefined;
  private stale = false;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly progressed = new vscode.EventEmitter<ProgressUpdate>();
  private readonly subs: vscode.Disposable[];
  /** The view state was fetched anew (markers read or generated, generation started or ended, corpus reloaded). */
  readonly onDidChange = this.changed.event;
  /** Progress of a running generation. */
  readonly onDidProgress = this.progressed.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly client: CorpusLanguageClient,
    private readonly apiKey: ApiKeyStore,
  ) {
    this.subs = [
      client.onNotification(engineChangedNotification, ({ generating }) => {
        this.generatingNow = generating;
        void this.refresh();
      }),
    ];
  }

  /** The view state as last fetched, serialised (what the view is posted), or undefined before the first index. */
  get serializedState(): SerializedSidebarState | undefined {
    return this.serialized;
  }

  /** The Corpus & Markers view's state as last fetched, parsed on first use, or undefined before the first index. */
  get sidebarState(): SidebarState | undefined {
    const s = this.serialized;
    if (!s) return undefined;
    if (this.parsed?.from !== s) this.parsed = { from: s, state: JSON.parse(s.json) as SidebarState };
    return this.parsed.state;
  }

  /** The items of the indexed corpus (titles, files, markers). */
  get items(): readonly ItemSummary[] {
    return this.sidebarState?.items ?? [];
  }

  get generating(): boolean {
    return this.generatingNow;
  }

  /**
   * Asks the engine for the view state again; fires {@link onDidChange} once
   * it is current. Calls while a fetch is under way are folded into one more
   * fetch after it (a burst of engine changes costs two fetches, not one each).
   */
  refresh(): Promise<SerializedSidebarState | undefined> {
    if (this.fetching) {
      this.stale = true;
      return this.fetching;
    }
    const fetching = (async () => {
      let tries = 0;
      do {
        this.stale = false;
        const asked = Date.now();
        const state = await this.client.request(sidebarStateRequest, { extras: this.generatingNow ? { generating: true, markersMessage: vscode.l10n.t('Generating markers…') } : {} });
        const whole = state && (await this.rest(state));
        if (state && !whole && ++tries < 5) {
          this.stale = true; // a newer state replaced it while its pieces came: ask again
          continue;
        }
        noteLoopEvent(`sidebar state: ${whole?.json.length ?? 0} chars in ${state?.pieces ?? 0} pieces, asked ${Date.now() - asked} ms before`);
        this.serialized = whole ?? undefined;
      } while (this.stale);
      const fired = Date.now();
      this.changed.fire();
      noteLoopEvent(`sidebar state: views told in ${Date.now() - fired} ms`);
      return this.serialized;
    })();
    this.fetching = fetching;
    void fetching.finally(() => {
      if (this.fetching === fetching) this.fetching = undefined;
    }).catch(() => undefined);
    return fetching;
  }

  /**
   * The state with all its pieces (asked one at a time: each is a few
   * milliseconds of the host's thread), or null when the engine replaced it
   * meanwhile.
   */
  private async rest(state: SerializedSidebarState): Promise<SerializedSidebarState | null> {
    if (state.pieces <= 1) return state;
    const parts = [state.json];
    for (let index = 1; index < state.pieces; index++) {
      const piece = await this.client.request(sidebarStatePieceRequest, { seq: state.seq, index });
      if (!piece) return null;
      parts.push(piece.json);
    }
    return { ...state, json: parts.join(''), pieces: 1 };
  }

  /**
   * After Index Corpus: when `markersOnIndex` is on and the provider is
   * extractive, generates the missing or stale markers (the engine read the
   * existing ones while indexing).
   */
  async afterIndex(): Promise<void> {
    const s = this.settings.value;
    if (!s.markersOnIndex || s.provider !== 'extractive' || this.generatingNow) return;
    await this.generate('missing');
  }

  /**
   * Generates markers for the indexed corpus with the configured engine, with
   * a cancellable progress notification. `all`: every item (the cache makes
   * unchanged items free); `missing`: only items without markers of the
   * engine or whose files changed since. Resolves null when there was nothing to do.
   */
  async generate(mode: GenerateMode = 'all'): Promise<GenerateMarkersResult | null> {
    const settings = this.settings.value;
    const apiKey = settings.provider === 'extractive' ? undefined : await this.apiKey.get();
    const title = vscode.l10n.t('Marker Research: generating markers ({0})', settings.provider);
    try {
      const report = await this.client.work(title, generateMarkersRequest, { mode, settings, ...(apiKey ? { apiKey } : {}) }, { onProgress: (u) => this.progressed.fire(u) });
      if (report) this.log.info(`markers (${report.engine}${report.model ? ` ${report.model}` : ''}): ${report.items} items — ${report.generated} generated, ${report.cached} cached, ${report.failed} failed; ${report.markers} markers, ${report.grounded} grounded; ${report.ms} ms`);
      for (const note of report?.notes ?? []) {
        const pick = await vscode.window.showWarningMessage(`Marker Research: ${note}`, vscode.l10n.t('Open Settings'));
        if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch.condenseModel');
      }
      return report;
    } catch (e) {
      throw asMarkerError(e);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
    this.progressed.dispose();
  }
}

/** For quick picks: an item's files, for the description. */
export function itemFiles(item: Pick<ItemSummary, 'transcriptFile' | 'commentsFile'>): string {
  return [item.transcriptFile, item.commentsFile].filter((f): f is string => !!f).join(', ');
}
