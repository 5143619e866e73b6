/**
 * Markers in the editor: the marker files of the current corpus (read,
 * generated, reported to the log), the search index they open evidence with,
 * and the API key in SecretStorage. Opening evidence is the evidence
 * navigator's (`evidenceNavigator.ts`); the readable full-item documents are
 * `fullItemDocuments.ts`.
 */
import * as vscode from 'vscode';
import type { Corpus, CorpusItem, SourceFile } from '../core/corpus/types';
import { LlmError } from '../core/llm/types';
import { condenseCorpus } from '../core/markers/condense';
import { createMarkerEngine, promptSource } from '../core/markers/engineFactory';
import { generateMarkers, type GenerateReport, type ItemReport, type MarkerEngine } from '../core/markers/generate';
import type { Marker } from '../core/markers/schema';
import { allMarkers, readItemMarkers } from '../core/markers/store';
import { CorpusIndex } from '../core/search/corpusIndex';
import { CancelledError, type ProgressUpdate } from '../core/util/abort';
import type { Settings } from '../shared/settings';
import type { MarkerEntry } from '../shared/sidebarModel';
import type { CorpusService } from './corpusService';
import { withCancellableProgress } from './runningWork'; // registered: "Marker Research: Cancel" aborts it
import type { SettingsService } from './settings';

export type MarkerErrorReason = 'no-corpus' | 'busy' | 'bad-settings' | 'no-api-key' | 'not-found' | 'outside-corpus';

/** A marker action that cannot be done; `reason` says why. Messages start with `markers:`. */
export class MarkerServiceError extends Error {
  constructor(
    readonly reason: MarkerErrorReason,
    message: string,
  ) {
    super(`markers: ${message}`);
    this.name = 'MarkerServiceError';
  }
}

// ---- the API key -------------------------------------------------------------------------

/** The one SecretStorage key of the extension. */
export const API_KEY_SECRET = 'markerResearch.apiKey' as const;

/** The model API key, only ever in SecretStorage, never logged. */
export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(): Thenable<string | undefined> {
    return this.secrets.get(API_KEY_SECRET);
  }

  set(key: string): Thenable<void> {
    return this.secrets.store(API_KEY_SECRET, key);
  }

  clear(): Thenable<void> {
    return this.secrets.delete(API_KEY_SECRET);
  }
}

// ---- the engine --------------------------------------------------------------------------

/** What building an engine needs besides the settings. */
export interface EngineContext {
  /** From SecretStorage; undefined when none is stored (or the provider needs none). */
  apiKey: string | undefined;
  /** The extension's `prompts/` folder. */
  promptsDir: string;
  log: vscode.LogOutputChannel;
}

/**
 * The marker engine for the current settings: the extractive engine, or a
 * model client (core's `createMarkerEngine`) with the extension's prompts.
 * Settings core rejects become a `bad-settings` error naming the fields
 * (values, and the key, are never echoed).
 */
export function markerEngineFor(settings: Settings, ctx: EngineContext): MarkerEngine {
  if (settings.provider === 'openai' && !settings.baseUrl.trim() && !ctx.apiKey) {
    throw new MarkerServiceError('no-api-key', 'the openai provider needs an API key: run "Marker Research: Set API Key" (or point "markerResearch.baseUrl" at a server that needs none).');
  }
  try {
    return createMarkerEngine(
      {
        provider: settings.provider,
        baseUrl: settings.baseUrl.trim() || undefined,
        model: settings.model.trim() || undefined,
        contextTokens: settings.contextTokens,
        concurrency: settings.concurrency,
        timeoutMs: settings.requestTimeoutSeconds * 1000,
        density: settings.markerDensity,
      },
      { promptsDir: ctx.promptsDir, apiKey: ctx.apiKey, log: ctx.log },
    ).engine;
  } catch (e) {
    if (e instanceof LlmError && e.reason === 'config') {
      throw new MarkerServiceError('bad-settings', `the ${settings.provider} provider is not configured: ${e.message.replace(/^llm: /, '')}. Check "markerResearch.baseUrl" and "markerResearch.model".`);
    }
    throw e;
  }
}

// ---- the service -------------------------------------------------------------------------

/** One log line per item (core logs each part's coverage itself). */
function describeItem(r: ItemReport): string {
  if (r.status === 'failed') return `markers: ${r.itemId} failed after ${r.ms} ms: ${r.error ?? 'unknown error'}`;
  const tokens = r.usage.calls ? `; ${r.usage.calls} calls, ${r.usage.promptTokens}+${r.usage.completionTokens} tokens` : '';
  return `markers: ${r.itemId} ${r.status}: ${r.markers} markers, ${r.grounded} grounded${tokens}${r.status === 'generated' ? ` in ${r.ms} ms` : ''}`;
}

function describeRun(r: GenerateReport): string {
  const markers = r.items.reduce((a, i) => a + i.markers, 0);
  const grounded = r.items.reduce((a, i) => a + i.grounded, 0);
  return `markers (${r.engine}${r.model ? ` ${r.model}` : ''}): ${r.items.length} items — ${r.generated} generated, ${r.cached} cached, ${r.failed} failed; ${markers} markers, ${grounded} grounded; ${r.usage.calls} model calls${r.usage.failedCalls ? ` succeeded, ${r.usage.failedCalls} failed after their retries` : ''}, ${r.usage.promptTokens}+${r.usage.completionTokens} tokens; ${r.ms} ms`;
}

export type GenerateMode = 'all' | 'missing';

/** The markers of the current corpus, kept in step with the files under `.marker-research/markers/`. */
export class MarkerService implements vscode.Disposable {
  private entries = new Map<string, MarkerEntry>();
  private entriesFor: Corpus | undefined;
  private failures = new Map<string, string>();
  private running: Promise<GenerateReport | undefined> | undefined;
  private loadSeq = 0;
  private index: { corpus: Corpus; index: Promise<CorpusIndex> } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly progressed = new vscode.EventEmitter<ProgressUpdate>();
  /** Markers were read or generated, or generation started or ended. */
  readonly onDidChange = this.changed.event;
  /** Progress of a running generation. */
  readonly onDidProgress = this.progressed.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly corpus: CorpusService,
    private readonly apiKey: ApiKeyStore,
    private readonly promptsDir: string,
  ) {}

  /** The marker files read for the current corpus, by item id. */
  get markers(): ReadonlyMap<string, MarkerEntry> {
    return this.entriesFor === this.corpus.current ? this.entries : new Map();
  }

  get generating(): boolean {
    return this.running !== undefined;
  }

  /** Reads the marker file of every item of `corpus`. */
  async load(corpus: Corpus): Promise<void> {
    const seq = ++this.loadSeq;
    const read = await Promise.all(corpus.items.map(async (it) => [it.id, await readItemMarkers(corpus.root, it.id)] as const));
    if (seq !== this.loadSeq) return; // a newer load won
    const entries = new Map<string, MarkerEntry>();
    let unreadable = 0;
    for (const [id, r] of read) {
      if (r.ok) entries.set(id, { ok: true, value: r.value });
      else if (!r.missing) {
        unreadable++;
        this.log.warn(`markers: ${r.error ?? `${id}: unreadable`}`);
        entries.set(id, { ok: false, error: r.error ?? 'unreadable marker file' });
      } else if (this.failures.has(id)) entries.set(id, { ok: false, error: this.failures.get(id)! });
    }
    this.entries = entries;
    this.entriesFor = corpus;
    const found = [...entries.values()].filter((e) => e.ok).length;
    this.log.info(`markers: read ${found} of ${corpus.items.length} items' marker files${unreadable ? `, ${unreadable} unreadable` : ''}`);
    this.changed.fire();
  }

  /**
   * After Index Corpus: reads the existing markers and, when `markersOnIndex`
   * is on and the provider is extractive, generates the missing or stale ones.
   */
  async afterIndex(corpus: Corpus): Promise<void> {
    await this.load(corpus);
    const s = this.settings.value;
    if (!s.markersOnIndex || s.provider !== 'extractive' || this.running) return;
    await this.generate('missing');
  }

  /**
   * Generates markers for the current corpus with the configured engine, with
   * a cancellable progress notification. `all`: every item (the cache makes
   * unchanged items free); `missing`: only items without markers of the
   * engine or whose files changed since (markers of another engine are kept).
   * Resolves undefined when there was nothing to do.
   */
  async generate(mode: GenerateMode = 'all'): Promise<GenerateReport | undefined> {
    const corpus = this.corpus.current;
    if (!corpus) throw new MarkerServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    if (this.running) throw new MarkerServiceError('busy', 'markers are already being generated; wait for that run or cancel it.');
    const run = this.plannedRun(corpus, mode);
    this.running = run; // taken before the first await: a second call is told "busy"
    this.changed.fire();
    try {
      return await run;
    } finally {
      this.running = undefined;
      this.changed.fire();
    }
  }

  private async plannedRun(corpus: Corpus, mode: GenerateMode): Promise<GenerateReport | undefined> {
    const settings = this.settings.value;
    const apiKey = settings.provider === 'extractive' ? undefined : await this.apiKey.get();
    const engine = markerEngineFor(settings, { apiKey, promptsDir: this.promptsDir, log: this.log });
    const engineName = engine.kind === 'extractive' ? 'extractive' : settings.provider;
    let target = corpus;
    if (mode === 'missing') {
      if (this.entriesFor !== corpus) await this.load(corpus);
      const todo = corpus.items.filter((it) => {
        const e = this.entries.get(it.id);
        if (!e?.ok) return true;
        if (e.value.engine !== engineName) return false; // another engine's markers: kept
        return e.value.content_hash !== it.contentHash;
      });
      if (!todo.length) return undefined;
      // Note: the extractive engine's topic statistics then cover these items only.
      if (todo.length < corpus.items.length) target = { ...corpus, items: todo };
    }
    return this.runGeneration(corpus, target, engine, settings);
  }

  private async runGeneration(corpus: Corpus, target: Corpus, engine: MarkerEngine, settings: Settings): Promise<GenerateReport> {
    const n = target.items.length;
    this.log.info(`markers: generating for ${n} item${n === 1 ? '' : 's'} of ${corpus.root} with the ${engine.kind === 'extractive' ? 'extractive engine' : `${settings.provider} provider`}`);
    try {
      const report = await withCancellableProgress(`Marker Research: generating markers (${engine.kind === 'extractive' ? 'extractive' : settings.provider})`, (signal, onProgress) =>
        generateMarkers(target, {
          engine,
          windows: { windowWords: settings.windowWords, overlapWords: settings.overlapWords, windowLimit: settings.windowLimit },
          signal,
          onProgress: (u) => {
            onProgress(u);
            this.progressed.fire(u);
          },
          log: this.log,
        }),
      );
      for (const r of report.items) {
        if (r.status === 'failed') {
          this.failures.set(r.itemId, r.error ?? 'generation failed');
          this.log.warn(describeItem(r));
        } else {
          this.failures.delete(r.itemId);
          this.log.info(describeItem(r));
        }
      }
      this.log.info(describeRun(report));
      if (settings.condensation) await this.condense(target, settings);
      return report;
    } catch (e) {
      if (e instanceof CancelledError) this.log.info('markers: generation cancelled; markers of the items that finished are kept');
      throw e;
    } finally {
      // Whatever finished is on disk: show it (for the corpus now current).
      const current = this.corpus.current;
      if (current) await this.load(current).catch((e: Error) => this.log.error(`markers: reading marker files failed: ${e.message}`));
    }
  }

  /** The optional local condensation pass (setting `markerResearch.condensation`), with its own progress and cancel. */
  private async condense(target: Corpus, settings: Settings): Promise<void> {
    if (!settings.condenseModel.trim()) {
      const pick = await vscode.window.showWarningMessage('Marker Research: condensation is on but no Ollama model is set ("markerResearch.condenseModel").', 'Open Settings');
      if (pick) await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch.condenseModel');
      return;
    }
    const { client } = createMarkerEngine(
      {
        provider: 'ollama',
        baseUrl: settings.condenseBaseUrl.trim() || undefined,
        model: settings.condenseModel.trim(),
        contextTokens: settings.contextTokens,
        concurrency: settings.concurrency,
        timeoutMs: settings.requestTimeoutSeconds * 1000,
      },
      { promptsDir: this.promptsDir, log: this.log },
    );
    const report = await withCancellableProgress(`Marker Research: condensing with ${settings.condenseModel}`, (signal, onProgress) =>
      condenseCorpus(target, {
        model: client!,
        prompts: promptSource(this.promptsDir),
        windows: { windowWords: settings.windowWords, overlapWords: settings.overlapWords, windowLimit: settings.windowLimit },
        signal,
        onProgress,
        log: this.log,
      }),
    );
    for (const f of report.failed) this.log.warn(`condense: ${f.itemId}: ${f.error}`);
    this.log.info(`condense: ${report.generated} condensed, ${report.cached} cached, ${report.failed.length} failed; ${report.claims} claims (${report.grounded} grounded); ${report.usage.calls} calls, ${report.usage.promptTokens}+${report.usage.completionTokens} tokens`);
  }

  /** The marker `markerId` of item `itemId`. */
  find(itemId: string, markerId: string): { item: CorpusItem; marker: Marker; stale: boolean } {
    const item = this.corpus.current?.items.find((it) => it.id === itemId);
    const entry = this.markers.get(itemId);
    const marker = entry?.ok ? allMarkers(entry.value).find((m) => m.id === markerId) : undefined;
    if (!item || !entry?.ok || !marker) throw new MarkerServiceError('not-found', `no marker "${markerId}" for item "${itemId}"; run Index Corpus or Generate Markers again.`);
    return { item, marker, stale: entry.value.content_hash !== item.contentHash };
  }

  /** The search index of the current corpus (opened once per loaded corpus). */
  searchIndex(corpus: Corpus): Promise<CorpusIndex> {
    if (this.index?.corpus !== corpus) {
      const index = CorpusIndex.open(corpus).then(({ index, report }) => {
        this.log.info(`search index ${report.mode} (${report.reindexed.length} items re-indexed) in ${report.ms} ms`);
        return index;
      });
      index.catch(() => (this.index = undefined));
      this.index = { corpus, index };
    }
    return this.index.index;
  }

  dispose(): void {
    this.changed.dispose();
    this.progressed.dispose();
  }
}

/** For quick picks: an item's files, for the description. */
export function itemFiles(item: CorpusItem): string {
  return [item.transcript?.file, item.comments?.file]
    .filter((f): f is SourceFile => f !== undefined)
    .map((f) => f.relPath)
    .join(', ');
}
