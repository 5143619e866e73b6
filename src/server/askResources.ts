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
import { CancellationTokenSource } from 'vscode-languageserver/node';
import { openAskContext } from '../core/ask/askContext';
import { createVectorSearcher } from '../core/ask/strategies/vector';
import type { AskContext, VectorSearcher } from '../core/ask/types';
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

  constructor(private readonly c: HandlerContext) {
    c.state.onDidLoad(() => {
      this.context = undefined;
      this.vectors = undefined;
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

  /** Stops embedding the corpus, if it is going on; true when it was. */
  cancelVectors(): boolean {
    if (!this.embedding) return false;
    this.embedding.cancel();
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
    const c = this.context;
    if (c?.corpus === corpus && c.markers === this.markersVersion && c.vectors === vectorKey) return abortable(c.ctx, signal);
    const started = Date.now();
    const markers = new Map<string, ItemMarkers>();
    for (const [id, e] of this.c.state.markers()) if (e.ok) markers.set(id, e.value);
    const ctx = (async () => {
      const index = await this.c.state.searchIndex(corpus);
      const vectors = emb ? await this.searcherFor(corpus, vectorKey, access, asker) : undefined;
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
    return abortable(ctx, signal);
  }

  /** The vector searcher of `corpus` (cached per embedding settings). */
  private searcherFor(corpus: Corpus, key: string, access: ModelAccess, asker: Asker): Promise<VectorSearcher | undefined> {
    if (this.vectors?.corpus === corpus && this.vectors.key === key) return this.vectors.searcher;
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
    progress('begin', 0, 0);
    try {
      // The sync's own client, with the key of the request that started it; dropped afterwards.
      const client = createEmbeddingClient({ ...emb, apiKey: access.apiKey }, { log: this.log });
      const index = await this.c.state.searchIndex(corpus);
      let last = 0;
      const { store, report } = await this.c.running.run(source.token, (signal) =>
        syncVectors(corpus, index, client, {
          signal,
          log: this.log,
          onProgress: ({ done, total, message }) => {
            const now = Date.now();
            if (now - last < 100 && done < total) return;
            last = now;
            progress('report', done, total, message);
          },
        }),
      );
      this.log.info(`vectors (${client.model}): ${report.embedded} windows embedded, ${report.reused} reused, ${report.removed} removed in ${report.ms} ms`);
      for (const p of report.problems) this.log.warn(`vectors: ${p}`);
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
    }
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
