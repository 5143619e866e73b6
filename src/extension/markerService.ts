/**
 * Markers in the editor: the marker files of the current corpus (read,
 * generated, reported to the log), by-marker retrieval (open the evidence
 * span, highlighted; fall back to a search of the marker's text), the
 * read-only "full item" documents, and the API key in SecretStorage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Corpus, CorpusItem, SourceFile, TextRange } from '../core/corpus/types';
import { renderFullItem } from '../core/markers/fullItem';
import { LlmError } from '../core/llm/types';
import { condenseCorpus } from '../core/markers/condense';
import { createMarkerEngine, promptSource } from '../core/markers/engineFactory';
import { generateMarkers, type GenerateReport, type ItemReport, type MarkerEngine } from '../core/markers/generate';
import type { Marker } from '../core/markers/schema';
import { allMarkers, readItemMarkers } from '../core/markers/store';
import { CorpusIndex } from '../core/search/corpusIndex';
import { retrieve, type RetrievedSpan } from '../core/search/retrieve';
import { tokenize, tokenizeQuery } from '../core/search/tokenize';
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

// ---- by-marker retrieval -------------------------------------------------------------------

/** Resolves a corpus-relative path, refusing anything outside the corpus folder. */
export function corpusFile(root: string, rel: string): vscode.Uri {
  const abs = path.resolve(root, rel);
  const back = path.relative(root, abs);
  if (!back || back.startsWith('..') || path.isAbsolute(back)) throw new MarkerServiceError('outside-corpus', `evidence path "${rel}" is outside the corpus folder.`);
  return vscode.Uri.file(abs);
}

/**
 * Within a retrieved span (a chunk of several turns or comments), the range of
 * the turn or comment that shares the most query terms: what the fallback selects.
 */
function bestUnitRange(corpus: Corpus, span: RetrievedSpan, query: string): TextRange | undefined {
  const item = corpus.items.find((it) => it.id === span.itemId);
  const units = span.part === 'transcript' ? item?.transcript?.segments : item?.comments?.comments;
  const terms = new Set(tokenizeQuery(query));
  let best: { range: TextRange; score: number } | undefined;
  for (const u of units ?? []) {
    if (u.index < span.firstIndex || u.index > span.lastIndex) continue;
    const score = new Set(tokenize(u.text).filter((t) => terms.has(t))).size;
    if (score > (best?.score ?? 0)) best = { range: u.source, score };
  }
  return best?.range;
}

/** Opens a marker's evidence in its original file, selected and highlighted. */
export class EvidenceNavigator implements vscode.Disposable {
  private readonly span = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
    borderStyle: 'solid',
    borderWidth: '1px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  private readonly lines = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });
  private decorated: vscode.TextEditor | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly markers: MarkerService,
    private readonly corpus: CorpusService,
  ) {}

  /** By-marker retrieval: the first evidence's file at its lines; without evidence, the best search match of the marker's text. */
  async open(itemId: string, markerId: string): Promise<void> {
    const corpus = this.corpus.current;
    if (!corpus) throw new MarkerServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    const { marker, stale } = this.markers.find(itemId, markerId);
    const first = marker.evidence[0];
    if (!first) return this.openBySearch(corpus, itemId, marker);
    const sameFile = marker.evidence.filter((e) => e.source.file === first.source.file).map((e) => e.source);
    const editor = await this.reveal(corpusFile(corpus.root, first.source.file), sameFile);
    const s = first.source;
    this.log.info(`opened marker ${marker.id} (${marker.kind}) at ${s.file}:${s.startLine + 1}:${s.startColumn + 1}-${s.endLine + 1}:${s.endColumn + 1}${editor ? '' : ' (no editor)'}`);
    if (stale) {
      this.log.warn(`markers of ${itemId} were made before its files last changed: the span may be off; run Generate Markers`);
      vscode.window.setStatusBarMessage('$(warning) Marker Research: this item changed since its markers were made; the highlighted span may be off.', 8000);
    }
  }

  private async openBySearch(corpus: Corpus, itemId: string, marker: Marker): Promise<void> {
    const index = await this.markers.searchIndex(corpus);
    const query = `${marker.text} ${marker.topic}`.trim();
    let scope = 'item';
    let span = retrieve(index, query, { itemIds: [itemId], budgetWords: 1000 }).spans.find((x) => x.source);
    if (!span) {
      scope = 'corpus';
      span = retrieve(index, query, { budgetWords: 1000 }).spans.find((x) => x.source);
    }
    if (!span?.source) {
      this.log.info(`marker ${marker.id} has no evidence and a search of its text found nothing`);
      void vscode.window.showInformationMessage('Marker Research: this marker has no evidence span, and a search of its text found nothing in the corpus.');
      return;
    }
    await this.reveal(vscode.Uri.file(span.source.file.path), [bestUnitRange(corpus, span, query) ?? span.source.range]);
    this.log.info(`marker ${marker.id} has no evidence span: opened the best search match in the ${scope} at ${span.source.file.relPath}:${span.source.range.startLine + 1}`);
    void vscode.window.showInformationMessage(
      `Marker Research: this marker has no evidence span (ungrounded); opened the best search match for its text${scope === 'corpus' ? ' elsewhere in the corpus' : ''} instead.`,
    );
  }

  /** Opens `uri`, selects the first range (cursor at its start), centres it and highlights every range (markers, and hits of the Ask box). */
  async reveal(uri: vscode.Uri, ranges: readonly TextRange[]): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const valid = ranges.map((r) => doc.validateRange(new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn)));
    const main = valid[0]!;
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    // Anchored at the end, active at the start: the cursor (and the status bar's "Ln, Col") sits where the evidence begins.
    editor.selection = new vscode.Selection(main.end, main.start);
    editor.revealRange(main, vscode.TextEditorRevealType.InCenter);
    if (this.decorated && this.decorated !== editor) {
      this.decorated.setDecorations(this.span, []);
      this.decorated.setDecorations(this.lines, []);
    }
    editor.setDecorations(this.span, valid);
    editor.setDecorations(this.lines, valid);
    this.decorated = editor;
    return editor;
  }

  dispose(): void {
    this.span.dispose();
    this.lines.dispose();
  }
}

// ---- "Retrieve Full Item" ------------------------------------------------------------------

/** The scheme of the read-only full-item documents. */
export const FULL_ITEM_SCHEME = 'marker-research';

/** Serves `marker-research:/<item> (full item).md?item=<id>`: the item's whole transcript and comments, read-only. */
export class FullItemDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly sub: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly corpus: CorpusService,
  ) {
    // A re-index may change an open item: its document follows.
    this.sub = corpus.onDidLoad(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === FULL_ITEM_SCHEME) this.emitter.fire(doc.uri);
    });
  }

  static uriFor(itemId: string): vscode.Uri {
    const name = itemId.replace(/[/\\:*?"<>|\p{Cc}]/gu, '_').slice(0, 120);
    return vscode.Uri.from({ scheme: FULL_ITEM_SCHEME, path: `/${name} (full item).md`, query: new URLSearchParams({ item: itemId }).toString() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = new URLSearchParams(uri.query).get('item') ?? '';
    const item = this.corpus.current?.items.find((it) => it.id === id);
    if (!item) return `# Item not found\n\nThe item "${id}" is not in the indexed corpus. Run "Marker Research: Index Corpus" and try again.\n`;
    return renderFullItem(item);
  }

  /** Opens the full item in a (read-only) editor. */
  async open(itemId: string): Promise<void> {
    const item = this.corpus.current?.items.find((it) => it.id === itemId);
    if (!item) throw new MarkerServiceError('not-found', `no item "${itemId}" in the indexed corpus; run Index Corpus again.`);
    const uri = FullItemDocuments.uriFor(itemId);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    this.log.info(`opened the full item ${itemId} (${doc.lineCount} lines) as ${uri.toString(true)}`);
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

/** For quick picks: an item's files, for the description. */
export function itemFiles(item: CorpusItem): string {
  return [item.transcript?.file, item.comments?.file]
    .filter((f): f is SourceFile => f !== undefined)
    .map((f) => f.relPath)
    .join(', ');
}
