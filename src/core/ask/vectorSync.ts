/**
 * Keeps the vector store in line with the corpus: embeds, through the embedding client, only the
 * window texts the store has no vector for — unchanged windows are never re-embedded, a changed
 * item re-embeds only its changed windows, removed items are dropped — in groups, with progress
 * and cancel.
 */
import type { CorpusItem, PartKind } from '../corpus/types';
import type { EmbeddingClient } from '../llm/embeddings';
import { chunkText } from '../search/chunker';
import type { CorpusIndex } from '../search/corpusIndex';
import { throwIfAborted, type ProgressSink } from '../util/abort';
import { nullLogger, type Logger } from '../util/log';
import { errorText, FlatVectorStore, textKey, type VectorEntry } from './vectorStore';

/** The part of a corpus {@link syncVectors} reads. */
export interface VectorCorpus {
  root: string;
  items: readonly CorpusItem[];
}

/** Options of {@link syncVectors}. */
export interface SyncVectorsOptions {
  signal?: AbortSignal;
  /** Items done of all items; then, while a large store's approximate index is built, vectors added of all to add (message `vector index`). */
  onProgress?: ProgressSink;
  /** An open store to bring up to date (default: the one on disk for the client's model). */
  store?: FlatVectorStore;
  /** Texts per embedding call of the sync (the client batches them further; default 256). */
  groupSize?: number;
  log?: Logger;
}

/** What {@link syncVectors} did. */
export interface SyncVectorsReport {
  /** Chunk texts sent to the model. */
  embedded: number;
  /** Chunks whose vectors were already stored. */
  reused: number;
  /** Items dropped because they left the corpus. */
  removed: number;
  /** Items whose vectors were (re)made in this sync. */
  updatedItems: string[];
  /** Unreadable files and other things rebuilt (never thrown). */
  problems: string[];
  /** Vectors in the store afterwards, and their dimensions. */
  vectors: number;
  dimensions: number | undefined;
  ms: number;
}

interface PendingItem {
  item: CorpusItem;
  ids: readonly number[];
  keys: string[];
  parts: PartKind[];
  texts: string[];
}

/**
 * Brings the vectors of `corpus` in line with `index`: items whose content hash and chunk ids
 * are unchanged keep their vectors; for the others, each chunk reuses a stored vector of the same
 * text (any item's) and only texts without one are embedded; items that left the corpus are
 * dropped. Saves as it goes, so a cancelled sync keeps what it embedded.
 *
 * @example
 * ```ts
 * const { store, report } = await syncVectors(corpus, index, embedder, { signal, onProgress });
 * // report: { embedded: 12, reused: 4031, removed: 0, ... }
 * ```
 * @throws CancelledError when `signal` aborts; LlmError when the embedding model fails.
 */
export async function syncVectors(
  corpus: VectorCorpus,
  index: CorpusIndex,
  client: EmbeddingClient,
  options: SyncVectorsOptions = {},
): Promise<{ store: FlatVectorStore; report: SyncVectorsReport }> {
  const started = Date.now();
  const log = options.log ?? nullLogger;
  const groupSize = Math.max(1, options.groupSize ?? 256);
  const problems: string[] = [];
  let store = options.store;
  if (!store) {
    const opened = await FlatVectorStore.open(corpus.root, { provider: client.provider, model: client.model, dimensions: client.dimensions });
    store = opened.store;
    problems.push(...opened.problems);
  }
  for (const p of problems) log.warn(p);
  const report: SyncVectorsReport = { embedded: 0, reused: 0, removed: 0, updatedItems: [], problems, vectors: 0, dimensions: undefined, ms: 0 };

  const present = new Set(corpus.items.map((i) => i.id));
  for (const id of store.itemIds()) {
    if (!present.has(id) && store.removeItem(id)) report.removed++;
  }

  /** Vectors embedded in this sync, by text key (survive a restart after a dimension change). */
  const fresh = new Map<string, Float32Array>();
  const total = corpus.items.length;
  let lastSave = Date.now();
  try {
    for (let round = 0; round < 2; round++) {
      let done = 0;
      let restart = false;
      let group: PendingItem[] = [];
      let groupTexts = 0;
      const flush = async (): Promise<boolean> => {
        const ok = await embedGroup(group, store, client, fresh, report, options.signal);
        group = [];
        groupTexts = 0;
        if (!ok) return false;
        if (store.dir !== undefined && Date.now() - lastSave > 5_000) {
          await store.save();
          lastSave = Date.now();
        }
        return true;
      };
      for (const item of corpus.items) {
        throwIfAborted(options.signal);
        const ids = index.itemChunkIds(item.id);
        const known = store.item(item.id);
        if (known && known.contentHash === item.contentHash && sameIds(known.chunkIds, ids)) {
          report.reused += ids.length;
        } else {
          const pending: PendingItem = { item, ids, keys: [], parts: [], texts: [] };
          for (const id of ids) {
            const chunk = index.chunk(id);
            const text = chunk ? chunkText(item, chunk) : '';
            pending.texts.push(text);
            pending.keys.push(textKey(text));
            pending.parts.push(chunk?.part ?? 'transcript');
          }
          group.push(pending);
          groupTexts += ids.length;
        }
        done++;
        if (groupTexts >= groupSize && !(await flush())) {
          restart = true;
          break;
        }
        options.onProgress?.({ done, total, message: item.id });
      }
      if (!restart && group.length > 0 && !(await flush())) restart = true;
      if (!restart) break;
      if (round === 1) throw new Error('vectors: the embedding dimensions keep changing');
      const message = `vectors: ${client.model} now gives ${[...fresh.values()].at(-1)?.length} dimensions, the stored vectors have ${store.dimensions}; embedding everything again`;
      problems.push(message);
      log.warn(message);
      report.reused = 0;
      report.updatedItems = [];
      store.clear();
    }
    // A large store searches through its approximate index: add the vectors that changed (all of
    // them the first time); a small one, or one without the addon, stays on the exact scan.
    const ann = await store.prepareAnn({ signal: options.signal, log, onProgress: options.onProgress });
    if (ann.unavailable !== undefined) problems.push(`vectors: ${ann.unavailable}; the ${store.size} vectors are searched by exact scan`);
  } finally {
    // Keep what was embedded, also when cancelled or failed (a failing save must not hide why).
    if (store.dir !== undefined) await store.save().catch((error: unknown) => log.warn(`vectors: save failed: ${errorText(error)}`));
  }
  report.vectors = store.size;
  report.dimensions = store.dimensions;
  report.ms = Date.now() - started;
  log.info(`vectors: ${report.embedded} embedded, ${report.reused} reused, ${report.removed} items removed; ${report.vectors} vectors in ${report.ms} ms`);
  return { store, report };
}

/**
 * Embeds the texts of `group` without a vector, then upserts its items. False (nothing upserted)
 * when the model's dimensions differ from the store's.
 */
async function embedGroup(
  group: readonly PendingItem[],
  store: FlatVectorStore,
  client: EmbeddingClient,
  fresh: Map<string, Float32Array>,
  report: SyncVectorsReport,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const missing = new Map<string, string>();
  for (const p of group) {
    p.keys.forEach((key, i) => {
      if (!fresh.has(key) && !missing.has(key) && store.vectorForKey(key) === undefined) missing.set(key, p.texts[i]!);
    });
  }
  if (missing.size > 0) {
    const keys = [...missing.keys()];
    const vectors = await client.embed([...missing.values()], signal);
    keys.forEach((key, i) => fresh.set(key, vectors[i]!));
    report.embedded += keys.length;
    const dims = vectors[0]?.length;
    if (store.dimensions !== undefined && dims !== undefined && dims !== store.dimensions) return false;
  }
  // Every vector of the group first: an upsert releases the item's old vectors, which another
  // item of the group may share by text.
  const entriesOf = group.map((p) =>
    p.ids.map((chunkId, i): VectorEntry => {
      const key = p.keys[i]!;
      const freshVector = fresh.get(key);
      if (freshVector === undefined) report.reused++;
      return { chunkId, key, part: p.parts[i]!, vector: freshVector ?? store.vectorForKey(key)! };
    }),
  );
  group.forEach((p, i) => {
    store.upsertItem(p.item.id, p.item.contentHash, entriesOf[i]!);
    report.updatedItems.push(p.item.id);
  });
  return true;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
