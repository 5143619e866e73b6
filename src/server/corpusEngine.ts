/**
 * The engine's state: the loaded corpus (each file parsed once per index),
 * its persisted search index (opened once per loaded corpus: loaded, updated
 * for changed items, or built), the marker files, and marker generation.
 * Every handler reads from here (`EngineState`); nothing else loads a corpus.
 */
import * as l10n from '@vscode/l10n';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Corpus, CorpusItem } from '../core/corpus/types';
import { formatProblem } from '../core/corpus/types';
import type { ItemCache } from '../core/corpus/loader';
import { boundedPartStore, openCorpus, openSearchIndex } from '../core/corpus/openCorpus';
import type { PartStore } from '../core/corpus/partStore';
import { LlmError } from '../core/llm/types';
import { condenseCorpus } from '../core/markers/condense';
import { createMarkerEngine, promptSource } from '../core/markers/engineFactory';
import { generateMarkers, type GenerateReport, type ItemReport, type MarkerEngine } from '../core/markers/generate';
import type { ItemMarkers } from '../core/markers/schema';
import { markerFileName, markersDir, readItemMarkers, type ReadResult } from '../core/markers/store';
import type { CorpusIndex } from '../core/search/corpusIndex';
import { isNotFound, pooledRead, readErrorText } from '../core/storage/readPool';
import { CancelledError, type ProgressSink } from '../core/util/abort';
import type { Logger } from '../core/util/log';
import type { GenerateMarkersResult, GenerateMode, ModelAccess } from '../shared/lspProtocol';
import type { Settings } from '../shared/settings';
import type { MarkerEntry } from '../shared/sidebarModel';
import { EngineError, type Disposable, type EngineState } from './engineState';

/**
 * The marker engine for the settings: the extractive engine, or a model
 * client with the prompts. Settings core rejects become `bad-settings`
 * (values, and the key, are never echoed).
 */
export function markerEngineFor(settings: Settings, apiKey: string | undefined, promptsDir: string, log: Logger): MarkerEngine {
  if (settings.provider === 'openai' && !settings.baseUrl.trim() && !apiKey) {
    throw new EngineError('no-api-key', l10n.t('the openai provider needs an API key: run "Marker Research: Set API Key" (or point "markerResearch.baseUrl" at a server that needs none).'));
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
      { promptsDir, apiKey, log },
    ).engine;
  } catch (e) {
    if (e instanceof LlmError && e.reason === 'config') {
      throw new EngineError('bad-settings', l10n.t('the {0} provider is not configured: {1}. Check "markerResearch.baseUrl" and "markerResearch.model".', settings.provider, e.message.replace(/^llm: /, '')));
    }
    throw e;
  }
}

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

/** Marker files as last read, by item id, with the size and mtime they had then. */
type MarkerFileCache = Map<string, { stamp: string; result: ReadResult<ItemMarkers> }>;

type Listener<T> = (value: T) => void;

function listeners<T>(): { add(l: Listener<T>): Disposable; fire(v: T): void } {
  const set = new Set<Listener<T>>();
  return {
    add: (l) => {
      set.add(l);
      return { dispose: () => void set.delete(l) };
    },
    fire: (v) => {
      for (const l of [...set]) l(v);
    },
  };
}

export class CorpusEngine implements EngineState {
  private corpus: Corpus | undefined;
  private index: { corpus: Corpus; index: Promise<CorpusIndex> } | undefined;
  private indexOpened: Corpus | undefined;
  private entries = new Map<string, MarkerEntry>();
  private entriesFor: Corpus | undefined;
  private readonly failures = new Map<string, string>();
  private running: Promise<unknown> | undefined;
  private loadSeq = 0;
  private markerStamps: { root: string; byId: MarkerFileCache } = { root: '', byId: new Map() };
  private byId = new Map<string, CorpusItem>();
  private byIdFor: Corpus | undefined;
  /**
   * Items of the last load of the current root, and the store of their parsed
   * parts: unchanged items are not parsed again, and at most
   * `PARSED_WORDS_KEPT` (core/corpus/openCorpus.ts) words of parsed text are held.
   */
  private itemCache: { root: string; cache: ItemCache; parts: PartStore } | undefined;
  private readonly loaded = listeners<Corpus>();
  private readonly markersChanged = listeners<void>();
  private readonly generatingChanged = listeners<boolean>();
  /** Source files parsed since the engine started (each index parses each file once). */
  filesParsed = 0;

  constructor(
    readonly log: Logger,
    public promptsDir: string,
  ) {}

  /** Items parsed again on demand since the current root was first loaded, and the words of parsed parts kept. */
  get parts(): { reparsed: number; words: number } {
    return { reparsed: this.itemCache?.parts.reparsed ?? 0, words: this.itemCache?.parts.words ?? 0 };
  }

  current(): Corpus | undefined {
    return this.corpus;
  }

  requireCorpus(): Corpus {
    if (!this.corpus) throw new EngineError('no-corpus', l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    return this.corpus;
  }

  item(itemId: string): CorpusItem | undefined {
    if (this.byIdFor !== this.corpus) {
      this.byId = new Map(this.corpus?.items.map((it) => [it.id, it]));
      this.byIdFor = this.corpus;
    }
    return this.byId.get(itemId);
  }

  /** The size and modification time an item's marker file had when it was last read (`missing` when there was none). */
  markerStamp(itemId: string): string | undefined {
    return this.markerStamps.byId.get(itemId)?.stamp;
  }

  markers(): ReadonlyMap<string, MarkerEntry> {
    return this.entriesFor === this.corpus ? this.entries : new Map();
  }

  get generating(): boolean {
    return this.running !== undefined;
  }

  onDidLoad(listener: (corpus: Corpus) => void): Disposable {
    return this.loaded.add(listener);
  }

  onDidChangeMarkers(listener: () => void): Disposable {
    return this.markersChanged.add(listener);
  }

  onDidChangeGenerating(listener: (generating: boolean) => void): Disposable {
    return this.generatingChanged.add(listener);
  }

  /**
   * Loads (or reloads) the corpus at `root`: every file parsed once, then the
   * persisted search index opened (loaded, or updated for the items that
   * changed), then the marker files read.
   */
  async load(root: string, signal?: AbortSignal, onProgress?: ProgressSink): Promise<Corpus> {
    const started = Date.now();
    this.log.info(`indexing corpus ${root}`);
    const abs = path.resolve(root);
    if (this.itemCache?.root !== abs) {
      const parts = boundedPartStore((id) => this.log.warn(`corpus: the files of item ${id} changed since it was indexed; index the corpus again to use the new content.`));
      this.itemCache = { root: abs, cache: new Map(), parts };
    }
    const corpus = await openCorpus(abs, { signal, onProgress, itemCache: this.itemCache.cache, parts: this.itemCache.parts });
    this.filesParsed += corpus.stats.filesRead;
    const s = corpus.stats;
    this.log.info(`indexed ${s.items} items (${s.words} words, ${s.comments} comments) in ${Date.now() - started} ms; ${corpus.problems.length} problems, ${s.skipped} skipped`);
    for (const p of corpus.problems) {
      const line = formatProblem(p);
      if (p.severity === 'error') this.log.error(line);
      else if (p.severity === 'warning') this.log.warn(line);
      else this.log.info(line);
    }
    this.corpus = corpus;
    this.loaded.fire(corpus);
    await this.readMarkers(corpus);
    return corpus;
  }

  /** Reads the marker file of every item of `corpus`. */
  async readMarkers(corpus: Corpus): Promise<void> {
    const seq = ++this.loadSeq;
    // A marker file with the same size and modification time as when it was last read is not read again.
    const stamps = this.markerStamps.root === corpus.root ? this.markerStamps.byId : (new Map() as MarkerFileCache);
    // Every stat and read goes through the shared read pool; a file that exists but cannot be read is an error entry, never "no markers".
    const read = await Promise.all(
      corpus.items.map(async (it): Promise<readonly [string, ReadResult<ItemMarkers>]> => {
        const file = path.join(markersDir(corpus.root), markerFileName(it.id));
        let stamp: string;
        try {
          const st = await pooledRead(file, () => stat(file));
          stamp = `${st.size}:${st.mtimeMs}`;
        } catch (e) {
          if (!isNotFound(e)) return [it.id, { ok: false, missing: false, unreadable: true, error: readErrorText(file, e) }];
          stamp = 'missing';
        }
        const known = stamps.get(it.id);
        if (known && known.stamp === stamp) return [it.id, known.result];
        const result = await readItemMarkers(corpus.root, it.id);
        // An unreadable file is read again next time, whatever its stamp.
        if (result.ok || !result.unreadable) stamps.set(it.id, { stamp, result });
        else stamps.delete(it.id);
        return [it.id, result];
      }),
    );
    const present = new Set(corpus.items.map((it) => it.id));
    for (const id of stamps.keys()) if (!present.has(id)) stamps.delete(id);
    this.markerStamps = { root: corpus.root, byId: stamps };
    if (seq !== this.loadSeq) return; // a newer read won
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
    this.markersChanged.fire();
  }

  /** The search index of the loaded corpus is open. */
  get searchIndexReady(): boolean {
    return this.indexOpened !== undefined && this.indexOpened === this.corpus;
  }

  /**
   * The search index of `corpus`: opened once per loaded corpus. A reload of
   * the same root updates the index in memory (only the items whose content
   * changed are re-indexed) instead of reading it from disk again; the
   * persisted copy is written in the background.
   */
  searchIndex(corpus: Corpus): Promise<CorpusIndex> {
    if (this.index?.corpus === corpus) return this.index.index;
    const before = this.index;
    const open = (): Promise<CorpusIndex> =>
      openSearchIndex(corpus).then(({ index, report }) => {
        this.log.info(`search index ${report.mode} (${report.reindexed.length} items re-indexed) in ${report.ms} ms`);
        return index;
      });
    const index =
      before && before.corpus.root === corpus.root
        ? before.index.then(
            async (ix) => {
              const started = Date.now();
              const { reindexed, removed } = await ix.updateYielding(corpus);
              this.log.info(`search index updated in memory (${reindexed.length} items re-indexed, ${removed.length} removed) in ${Date.now() - started} ms`);
              if (reindexed.length || removed.length) this.indexChanged(ix, corpus, reindexed.length + removed.length);
              return ix;
            },
            () => open(),
          )
        : open();
    const entry = { corpus, index };
    // Another corpus: the last one's index lets go of its open file.
    if (before && before.corpus.root !== corpus.root) void before.index.then((ix) => ix.close(), () => undefined);
    this.index = entry;
    index.then(
      () => {
        if (this.index === entry) this.indexOpened = corpus;
      },
      () => {
        if (this.index === entry) this.index = undefined;
      },
    );
    return index;
  }

  private saving: Promise<void> = Promise.resolve();
  /** An index changed in memory and not yet written (saved at shutdown, or when enough changed). */
  private unsaved: { ix: CorpusIndex; root: string; changes: number } | undefined;

  /**
   * The in-memory index changed. Writing it is one monolithic file (seconds on
   * a large corpus, the engine busy meanwhile), so a few changed items are
   * only written at shutdown (`flush`); a crash before that costs nothing but
   * re-indexing those items at the next start (the persisted index is
   * compared by content hash). Many changes are written soon, in the background.
   */
  private indexChanged(ix: CorpusIndex, corpus: Corpus, changes: number): void {
    const total = (this.unsaved?.root === corpus.root ? this.unsaved.changes : 0) + changes;
    this.unsaved = { ix, root: corpus.root, changes: total };
    if (total >= Math.max(20, corpus.items.length * 0.05)) setTimeout(() => void this.flush(), 1_000);
  }

  /** Writes the in-memory index if it changed since it was read or last written (after any write before it). */
  flush(): Promise<void> {
    const u = this.unsaved;
    if (!u) return this.saving;
    this.unsaved = undefined;
    this.saving = this.saving
      .then(async () => {
        const started = Date.now();
        await u.ix.save(u.root);
        this.log.info(`search index written (${u.changes} changed items) in ${Date.now() - started} ms`);
      })
      .catch((e: Error) => this.log.warn(`search index: saving failed: ${e.message}`));
    return this.saving;
  }

  /**
   * Generates markers of the current corpus. `all`: every item (the cache
   * makes unchanged items free); `missing`: only items without markers of the
   * engine or whose files changed since. Null when there was nothing to do.
   */
  async generate(mode: GenerateMode, access: ModelAccess, signal?: AbortSignal, onProgress?: ProgressSink): Promise<GenerateMarkersResult | null> {
    const corpus = this.requireCorpus();
    if (this.running) throw new EngineError('busy', l10n.t('markers are already being generated; wait for that run or cancel it.'));
    const run = this.plannedRun(corpus, mode, access, signal, onProgress);
    this.running = run; // taken before the first await: a second call is told "busy"
    this.generatingChanged.fire(true);
    try {
      return await run;
    } finally {
      this.running = undefined;
      this.generatingChanged.fire(false);
    }
  }

  private async plannedRun(corpus: Corpus, mode: GenerateMode, access: ModelAccess, signal?: AbortSignal, onProgress?: ProgressSink): Promise<GenerateMarkersResult | null> {
    const { settings } = access;
    const engine = markerEngineFor(settings, settings.provider === 'extractive' ? undefined : access.apiKey, this.promptsDir, this.log);
    const engineName = engine.kind === 'extractive' ? 'extractive' : settings.provider;
    let target = corpus;
    if (mode === 'missing') {
      if (this.entriesFor !== corpus) await this.readMarkers(corpus);
      const todo = corpus.items.filter((it) => {
        const e = this.entries.get(it.id);
        if (!e?.ok) return true;
        if (e.value.engine !== engineName) return false; // another engine's markers: kept
        return e.value.content_hash !== it.contentHash;
      });
      if (!todo.length) return null;
      // Note: the extractive engine's topic statistics then cover these items only.
      if (todo.length < corpus.items.length) target = { ...corpus, items: todo };
    }
    const n = target.items.length;
    this.log.info(`markers: generating for ${n} item${n === 1 ? '' : 's'} of ${corpus.root} with the ${engine.kind === 'extractive' ? 'extractive engine' : `${settings.provider} provider`}`);
    const notes: string[] = [];
    try {
      const report = await generateMarkers(target, {
        engine,
        windows: { windowWords: settings.windowWords, overlapWords: settings.overlapWords, windowLimit: settings.windowLimit },
        // Spam is decided over the whole corpus also when only its missing items are made (the saved decision is the corpus's).
        spamCorpus: corpus,
        signal,
        onProgress,
        log: this.log,
      });
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
      if (settings.condensation) {
        if (!settings.condenseModel.trim()) notes.push(l10n.t('condensation is on but no Ollama model is set ("markerResearch.condenseModel").'));
        else await this.condense(target, corpus, settings, signal, onProgress);
      }
      return {
        engine: report.engine,
        model: report.model ?? null,
        items: report.items.length,
        generated: report.generated,
        cached: report.cached,
        failed: report.failed,
        markers: report.items.reduce((a, i) => a + i.markers, 0),
        grounded: report.items.reduce((a, i) => a + i.grounded, 0),
        ms: report.ms,
        notes,
      };
    } catch (e) {
      if (e instanceof CancelledError) this.log.info('markers: generation cancelled; markers of the items that finished are kept');
      throw e;
    } finally {
      // Whatever finished is on disk: read it (for the corpus now current).
      const current = this.corpus;
      if (current) await this.readMarkers(current).catch((e: Error) => this.log.error(`markers: reading marker files failed: ${e.message}`));
    }
  }

  /** The optional local condensation pass (setting `markerResearch.condensation`). */
  private async condense(target: Corpus, corpus: Corpus, settings: Settings, signal?: AbortSignal, onProgress?: ProgressSink): Promise<void> {
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
    const report = await condenseCorpus(target, {
      model: client!,
      prompts: promptSource(this.promptsDir),
      windows: { windowWords: settings.windowWords, overlapWords: settings.overlapWords, windowLimit: settings.windowLimit },
      spamCorpus: corpus,
      signal,
      onProgress,
      log: this.log,
    });
    for (const f of report.failed) this.log.warn(`condense: ${f.itemId}: ${f.error}`);
    this.log.info(`condense: ${report.generated} condensed, ${report.cached} cached, ${report.failed.length} failed; ${report.claims} claims (${report.grounded} grounded); ${report.usage.calls} calls, ${report.usage.promptTokens}+${report.usage.completionTokens} tokens`);
  }
}
