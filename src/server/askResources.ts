/**
 * What the Ask box and the Chat view share in the engine: the ask context of
 * the indexed corpus (search index, entity index, markers, vectors; built on
 * the first question after the corpus, its markers or the vector settings
 * changed), the vector searcher (the corpus embedded through the provider's
 * embeddings endpoint, with progress and cancel), and the model that
 * understands questions and writes answers.
 *
 * The API key comes with each request and is used for that request only: the
 * vector searcher kept with the context embeds a question with the key of the
 * request that asks it (an AsyncLocalStorage scope), never a stored one.
 */
import * as l10n from '@vscode/l10n';
import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { openAskContext } from '../core/ask/askContext';
import { createVectorSearcher } from '../core/ask/strategies/vector';
import type { AskContext, VectorSearcher } from '../core/ask/types';
import { FlatVectorStore, type FlatVectorStoreOptions } from '../core/ask/vectorStore';
import { syncVectors } from '../core/ask/vectorSync';
import type { Corpus } from '../core/corpus/types';
import type { ModelClient } from '../core/llm/client';
import { createEmbeddingClient, type EmbeddingClient } from '../core/llm/embeddings';
import { isCancellation } from '../core/llm/types';
import type { ItemMarkers } from '../core/markers/schema';
import { CancelledError } from '../core/util/abort';
import type { Logger } from '../core/util/log';
import type { ModelAccess } from '../shared/lspProtocol';
import { askWarningNotification, vectorProgressNotification, type VectorProgressParams } from '../shared/lspProtocol';
import type { Settings } from '../shared/settings';
import { markerEngineFor } from './corpusEngine';
import { EngineError } from './engineState';
import type { HandlerContext } from './handlerContext';

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;
/**
 * For tests: options of the vector stores the engine opens (e.g. a lower `annMinWork`, so a small
 * corpus gets an approximate index), and a wait before each background index build starts.
 */
export const vectorTesting: { storeOptions: FlatVectorStoreOptions; beforeIndexBuild?: () => Promise<void> } = { storeOptions: {} };

/** Threads of the background index build: all cores but one (the engine's own work and the editor keep one). */
const ANN_THREADS = Math.max(1, availableParallelism() - 1);

/** Who asks: tags the vector progress of the context it causes to be built. */
export interface Asker {
  askId: number;
  asker: VectorProgressParams['asker'];
}

/** The API key of the request being served (see {@link AskResources.withKey}). */
const requestKey = new AsyncLocalStorage<{ apiKey: string | undefined }>();

/** The embedding settings of `s`, or undefined when vectors are off. */
function embeddingSettings(s: Settings): { provider: 'openai' | 'ollama'; baseUrl: string; model: string } | undefined {
  if (s.provider === 'extractive' || !s.embeddingModel.trim()) return undefined;
  return { provider: s.provider, baseUrl: s.baseUrl.trim() || DEFAULT_BASE_URL[s.provider], model: s.embeddingModel.trim() };
}

/** `p`, or a CancelledError as soon as `signal` aborts (`p` itself runs on). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export class AskResources {
  /** The ask context of a corpus, its markers (version) and vector settings. */
  private context: { corpus: Corpus; markers: number; vectors: string; ctx: Promise<AskContext> } | undefined;
  /** The vector searcher of a corpus and embedding settings (kept across marker changes: embedding is the slow part). */
  private vectors: { corpus: Corpus; key: string; searcher: Promise<VectorSearcher | undefined> } | undefined;
  private markersVersion = 0;
  /** Stops the embedding in flight ({@link cancelVectors}). */
  private embedding: CancellationTokenSource | undefined;
  /** The approximate index being built in the background for the kept vector store ({@link buildIndexInBackground}). */
  private indexing: { store: FlatVectorStore; source: CancellationTokenSource; keep: boolean } | undefined;

  constructor(private readonly c: HandlerContext) {
    c.state.onDidLoad(() => {
      this.context = undefined;
      this.vectors = undefined;
      this.stopIndexing(false);
    });
    c.state.onDidChangeMarkers(() => {
      this.markersVersion++;
      this.context = undefined;
    });
  }

  private get log(): Logger {
    return this.c.state.log;
  }

  /**
   * Drops the cached context: the next question builds it again. The vectors
   * stay (they are kept per corpus and embedding settings, and embedding is
   * the slow part).
   */
  invalidate(): void {
    this.context = undefined;
  }

  /** Stops embedding the corpus and building its approximate index, if either is going on; true when one was. */
  cancelVectors(): boolean {
    const embedding = this.embedding !== undefined;
    this.embedding?.cancel();
    return this.stopIndexing(true) || embedding;
  }

  /**
   * Stops the background index build, if one runs; true when it did. `keep`: save what it built
   * (the user stopped it); not when another store takes over the folder (a reload, other settings).
   */
  private stopIndexing(keep: boolean): boolean {
    if (!this.indexing) return false;
    this.indexing.keep = keep;
    this.indexing.source.cancel();
    return true;
  }

  /** Runs `fn` with `apiKey` as the key of this request (the vector searcher embeds questions with it). */
  withKey<T>(apiKey: string | undefined, fn: () => Promise<T>): Promise<T> {
    return requestKey.run({ apiKey }, fn);
  }

  /**
   * The ask context of the indexed corpus for `access` (`no-corpus` before
   * the first index): the cached one, or a new one. A cancelled question does
   * not stop the build (the next question uses it).
   */
  contextFor(corpus: Corpus, access: ModelAccess, asker: Asker, signal: AbortSignal): Promise<AskContext> {
    const emb = embeddingSettings(access.settings);
    const vectorKey = emb ? `${emb.provider}|${emb.baseUrl}|${emb.model}|${access.apiKey ? 'key' : 'no key'}` : '';
    return abortable(this.cachedContext(corpus, vectorKey, emb ? () => this.searcherFor(corpus, vectorKey, access, asker) : undefined), signal);
  }

  /**
   * The ask context without vectors — the one a question of the default, offline settings gets —
   * for warming up the Ask path before the first question (askWarming.ts); kept as the context
   * such a question then uses.
   */
  offlineContext(corpus: Corpus): Promise<AskContext> {
    return this.cachedContext(corpus, '', undefined);
  }

  /** The cached context of `corpus` for these vector settings (`vectorKey`, '' for none), or a new one. */
  private cachedContext(corpus: Corpus, vectorKey: string, searcher: (() => Promise<VectorSearcher | undefined>) | undefined): Promise<AskContext> {
    const c = this.context;
    if (c?.corpus === corpus && c.markers === this.markersVersion && c.vectors === vectorKey) return c.ctx;
    const started = Date.now();
    const markers = new Map<string, ItemMarkers>();
    for (const [id, e] of this.c.state.markers()) if (e.ok) markers.set(id, e.value);
    const ctx = (async () => {
      const index = await this.c.state.searchIndex(corpus);
      const vectors = searcher ? await searcher() : undefined;
      const ctx = await openAskContext(corpus, index, { markers, vectors });
      this.log.info(`ask: context for ${corpus.items.length} items built in ${Date.now() - started} ms (${markers.size} items with markers${vectors ? `, vectors of ${vectors.model}` : ', no vectors'})`);
      return ctx;
    })();
    const entry = { corpus, markers: this.markersVersion, vectors: vectorKey, ctx };
    this.context = entry;
    ctx.catch((e: Error) => {
      if (this.context === entry) this.context = undefined;
      this.log.warn(`ask: building the context failed: ${e.message}`);
    });
    return ctx;
  }

  /** The vector searcher of `corpus` (cached per embedding settings). */
  private searcherFor(corpus: Corpus, key: string, access: ModelAccess, asker: Asker): Promise<VectorSearcher | undefined> {
    if (this.vectors?.corpus === corpus && this.vectors.key === key) return this.vectors.searcher;
    // Another store replaces the kept one: its index build stops (without saving: the new store may share its folder).
    this.stopIndexing(false);
    const searcher = this.buildSearcher(corpus, access, asker);
    const entry = { corpus, key, searcher };
    this.vectors = entry;
    // A cancelled embedding gives no vectors now; the next context asks again.
    void searcher.then((s) => {
      if (!s && this.vectors === entry) this.vectors = undefined;
    });
    return searcher;
  }

  /**
   * Embeds the windows of `corpus` that have no vector yet (progress to the
   * client, cancellable by {@link cancelVectors} and "Cancel"), then a
   * searcher over the store. Undefined — asking goes on without vectors — when
   * the key is missing, embedding fails or is cancelled; the user hears why once.
   */
  private async buildSearcher(corpus: Corpus, access: ModelAccess, asker: Asker): Promise<VectorSearcher | undefined> {
    const s = access.settings;
    const emb = embeddingSettings(s)!;
    if (s.provider === 'openai' && !s.baseUrl.trim() && !access.apiKey) {
      this.warn('Marker Research: vectors are off — the openai provider needs an API key for embeddings. Run "Marker Research: Set API Key".', false);
      return undefined;
    }
    const progress = (kind: VectorProgressParams['kind'], done: number, total: number, message?: string): void =>
      void this.c.connection.sendNotification(vectorProgressNotification, { ...asker, model: emb.model, kind, done, total, message });
    const source = new CancellationTokenSource();
    this.embedding = source;
    let built: FlatVectorStore | undefined;
    progress('begin', 0, 0);
    try {
      // The sync's own client, with the key of the request that started it; dropped afterwards.
      const client = createEmbeddingClient({ ...emb, apiKey: access.apiKey }, { log: this.log });
      const index = await this.c.state.searchIndex(corpus);
      let last = 0;
      const { store, report } = await this.c.running.run(source.token, async (signal) => {
        // The approximate index of a large store is built after the sync, in the background
        // (buildIndexInBackground): the question that waits for the sync never waits for it.
        const opened = await FlatVectorStore.open(corpus.root, { provider: client.provider, model: client.model, dimensions: client.dimensions }, { ...vectorTesting.storeOptions, annInBackground: true });
        for (const p of opened.problems) this.log.warn(p);
        return syncVectors(corpus, index, client, {
          signal,
          store: opened.store,
          log: this.log,
          onProgress: ({ done, total, message }) => {
            const now = Date.now();
            if (now - last < 100 && done < total) return;
            last = now;
            progress('report', done, total, message);
          },
        });
      });
      this.log.info(`vectors (${client.model}): ${report.embedded} windows embedded, ${report.reused} reused, ${report.removed} removed in ${report.ms} ms`);
      for (const p of report.problems) this.log.warn(`vectors: ${p}`);
      built = store;
      return createVectorSearcher(store, index, this.keyedClient(emb, client));
    } catch (e) {
      const why = (e as Error).message.replace(/^llm: /, '');
      if (isCancellation(e) || e instanceof CancelledError) this.log.info('vectors: embedding cancelled; asking without vectors');
      else {
        this.log.warn(`vectors: embedding the corpus failed: ${why}`);
        this.warn(l10n.t('Marker Research: asking without vectors — embedding the corpus failed: {0}', why), true);
      }
      return undefined;
    } finally {
      if (this.embedding === source) this.embedding = undefined;
      source.dispose();
      progress('end', 0, 0);
      // After the embedding's progress ended: the index build has its own.
      if (built) this.buildIndexInBackground(built, progress);
    }
  }

  /**
   * Brings the approximate index of a large `store` up to date after its sync, without anyone
   * waiting for it: questions meanwhile search the vectors not yet indexed by exact scan. Steps of
   * ~50 ms with the event loop running in between (vectorAnn.ts); progress as vector progress
   * (message `vector index`), stopped by {@link cancelVectors}, "Marker Research: Cancel" or a
   * reload; the index is saved when the build ends or is stopped while the store is still the
   * one kept (a stopped build resumes from what it saved).
   */
  private buildIndexInBackground(store: FlatVectorStore, progress: (kind: VectorProgressParams['kind'], done: number, total: number, message?: string) => void): void {
    const before = store.annStatus;
    if (before.pending === 0 || before.unavailable !== undefined) return;
    this.stopIndexing(false);
    const source = new CancellationTokenSource();
    const save = async (): Promise<void> => {
      await store.save().catch((e: Error) => this.log.warn(`vectors: saving the approximate index failed: ${e.message}`));
    };
    let last = 0;
    progress('begin', 0, before.pending, 'vector index');
    const started = Date.now();
    void this.c.running
      .run(source.token, async (signal) => {
        await vectorTesting.beforeIndexBuild?.();
        return store.buildAnn({
          signal,
          log: this.log,
          threads: ANN_THREADS,
          onProgress: ({ done: added, total }) => {
            const now = Date.now();
            if (now - last < 500 && added < total) return;
            last = now;
            progress('report', added, total, 'vector index');
          },
        });
      })
      .then(async (status) => {
        // A failed index was dropped by the store (searches scan; the save deletes the saved one).
        if (status.unavailable !== undefined) this.log.warn(`vectors: ${status.unavailable}; questions search ${store.size} vectors by exact scan`);
        else this.log.info(`vectors: approximate index of ${status.indexed} vectors ready in ${Date.now() - started} ms (${status.mode})`);
        if (this.indexing?.store === store && this.indexing.keep) await save();
      })
      .catch(async (e: unknown) => {
        const status = store.annStatus;
        if (e instanceof CancelledError) {
          this.log.info(`vectors: approximate index build stopped at ${status.indexed} of ${status.indexed + status.pending} vectors; questions scan the rest`);
          // Stopped by the user: keep what was built. Replaced or reloaded: another store owns the folder now.
          if (this.indexing?.store === store && this.indexing.keep) await save();
        } else this.log.warn(`vectors: building the approximate index failed: ${(e as Error).message}`);
      })
      .finally(() => {
        if (this.indexing?.store === store) this.indexing = undefined;
        source.dispose();
        progress('end', 0, 0, 'vector index');
      });
    this.indexing = { store, source, keep: true };
  }

  /**
   * An embedding client for questions that uses the API key of the request
   * being served: a client is made per call (cheap; its creation is logged at
   * debug level), so no key outlives its request.
   */
  private keyedClient(emb: { provider: 'openai' | 'ollama'; baseUrl: string; model: string }, first: EmbeddingClient): EmbeddingClient {
    const quiet: Logger = { ...this.log, info: (m) => this.log.debug(m) };
    return {
      provider: first.provider,
      model: first.model,
      dimensions: first.dimensions,
      embed: (texts, signal) => createEmbeddingClient({ ...emb, apiKey: requestKey.getStore()?.apiKey }, { log: quiet }).embed(texts, signal),
    };
  }

  private warn(message: string, showLogs: boolean): void {
    void this.c.connection.sendNotification(askWarningNotification, { message, showLogs });
  }

  /**
   * The model for understanding (and chat answers): with a model provider and
   * a model set, the client of the settings (the request's key); otherwise —
   * and when that client cannot be built — none: the rules understand
   * offline, and `notes` hears why.
   */
  modelFor(access: ModelAccess, notes: string[]): ModelClient | undefined {
    const s = access.settings;
    if (s.provider === 'extractive' || !s.model.trim()) return undefined;
    try {
      const engine = markerEngineFor(s, access.apiKey, this.c.state.promptsDir, this.log);
      // As in research: the model engine's model is core's ModelClient (createMarkerEngine).
      return engine.kind === 'model' ? (engine.model as ModelClient) : undefined;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      this.log.warn(`ask: understood offline: ${e.message}`);
      notes.push(l10n.t('Understood offline (rules): {0}', e.message));
      return undefined;
    }
  }
}

const shared = new WeakMap<HandlerContext['state'], AskResources>();

/** The one set of ask resources of the engine (the Ask box's and the Chat view's handlers share it). */
export function askResources(c: HandlerContext): AskResources {
  let r = shared.get(c.state);
  if (!r) shared.set(c.state, (r = new AskResources(c)));
  return r;
}
