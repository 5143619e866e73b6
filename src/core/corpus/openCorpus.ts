/**
 * Opening a corpus for use, the one way the engine and every command of the
 * CLI do it: the items through the persisted outline
 * (`.marker-research/outline.json`: an item whose files are unchanged is not
 * read at all) with their parsed parts in a bounded {@link PartStore} (parsed
 * when first used, at most {@link PARSED_WORDS_KEPT} words held), and, when
 * asked, the persisted search index opened ({@link openSearchIndex}: loaded,
 * updated for the items whose content changed, or built — in the same pass as
 * the items when there is none yet, {@link openCorpusForSearch}). A warm open
 * of an unchanged corpus reads the outline and the index files and no item file.
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { CorpusIndex, indexDir, type OpenReport } from '../search/corpusIndex';
import { defaultPrepWorkers, ItemPrepPool, type PreparedLoad } from '../search/itemPrepPool';
import { throwIfAborted, type ProgressSink } from '../util/abort';
import { loadCorpus, type ItemCache } from './loader';
import { PartStore } from './partStore';
import type { Corpus, CorpusItem } from './types';

/**
 * Words of parsed transcripts and comments kept in memory (about 110 MB per
 * million words); other items are parsed again when used. A researcher's
 * working set (the items of a run, the sidebar's page) fits.
 */
export const PARSED_WORDS_KEPT = 2_000_000;

export interface OpenCorpusOptions {
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /**
   * The store of parsed parts. A caller that loads the same root again (the
   * engine) keeps its own across loads; otherwise a new one of
   * {@link PARSED_WORDS_KEPT} words is made.
   */
  parts?: PartStore;
  /** Items of an earlier load of the same root, kept by the caller across loads (see {@link loadCorpus}). */
  itemCache?: ItemCache;
  /**
   * Called when an item parsed again on use no longer has the content hash it
   * was opened with (its files changed since): the corpus should be opened
   * again. Only used when this call makes the part store.
   */
  onStale?: (itemId: string) => void;
  /** Each item in the corpus's order as soon as it is loaded (see {@link loadCorpus}'s `onItem`). */
  onItem?: (item: CorpusItem) => void;
  /**
   * Worker threads a first build ({@link openCorpusForSearch} without a
   * persisted index) reads, parses and prepares items in (default
   * {@link defaultPrepWorkers}: one per core when there are two or more); 0: all in this thread.
   */
  buildWorkers?: number;
}

/** A store of parsed parts bounded to {@link PARSED_WORDS_KEPT} words. */
export function boundedPartStore(onStale?: (itemId: string) => void): PartStore {
  return new PartStore(PARSED_WORDS_KEPT, onStale);
}

/**
 * Opens the corpus at `root`: never throws on bad input (a missing folder is
 * a `not-a-folder` problem, see {@link loadCorpus}).
 *
 * @example
 * const corpus = await openCorpus('/data/my-corpus');
 * corpus.items[0].transcript; // parsed now, on first use
 */
export function openCorpus(root: string, options: OpenCorpusOptions = {}): Promise<Corpus> {
  const { parts, onStale, buildWorkers: _workers, ...rest } = options;
  return loadCorpus(path.resolve(root), { ...rest, parts: parts ?? boundedPartStore(onStale) });
}

/**
 * The persisted search index of an opened corpus ({@link CorpusIndex.open}):
 * loaded when every item's content hash matches the index's, else updated for
 * the items that changed (only those are read) or built, and saved. The
 * engine and the CLI open it through here, after the checks of their own
 * arguments (nothing is written for a missing folder or a refused argument).
 *
 * @example
 * const corpus = await openCorpus(dir, { signal });
 * if (!isMissingCorpus(corpus)) retrieve((await openSearchIndex(corpus, signal)).index, 'battery prices');
 */
export function openSearchIndex(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): Promise<{ index: CorpusIndex; report: OpenReport }> {
  return CorpusIndex.open(corpus, undefined, signal, onProgress);
}

/** True when the corpus folder did not exist or was not a folder. */
export function isMissingCorpus(corpus: Corpus): boolean {
  return corpus.problems.some((p) => p.code === 'not-a-folder');
}

/** The search index a {@link CorpusForSearch} gives. */
export type OpenedIndex = { index: CorpusIndex; report: OpenReport };

/** A corpus opened for searching, and its search index. */
export interface CorpusForSearch {
  corpus: Corpus;
  /**
   * The search index, opened once (later calls give the same): when the
   * corpus had none, the one built while its items were loaded, now saved;
   * else the persisted one ({@link openSearchIndex}). Nothing is written
   * before it is asked for (a command that refuses its arguments leaves no index).
   */
  searchIndex(): Promise<OpenedIndex>;
}

/**
 * {@link openCorpus} for a command that searches. When the corpus has no
 * persisted index yet (a first run), the index is built while the items are
 * loaded — each item indexed right after it was parsed, in the corpus's order
 * (the chunks get the ids a build gives them) — instead of every item being
 * parsed a second time for a build after the load (only a bounded share of
 * the parsed text is held). Otherwise the persisted index is opened as the
 * engine opens it, when asked.
 *
 * @example
 * const { corpus, searchIndex } = await openCorpusForSearch(dir, { signal });
 * if (!isMissingCorpus(corpus)) retrieve((await searchIndex()).index, 'battery prices');
 */
export async function openCorpusForSearch(root: string, options: OpenCorpusOptions = {}): Promise<CorpusForSearch> {
  const abs = path.resolve(root);
  const started = Date.now();
  const persisted = await stat(path.join(indexDir(abs), 'manifest.json')).then(
    (s) => s.isFile(),
    () => false,
  );
  if (persisted) {
    const corpus = await openCorpus(abs, options);
    return { corpus, searchIndex: once(() => (isMissingCorpus(corpus) ? Promise.reject(missing(abs)) : openSearchIndex(corpus, options.signal))) };
  }
  // A build in the same pass: each item indexed as soon as it and the ones before it are loaded (its parts still held).
  // Items read from their files are read, parsed and prepared for the index by worker threads when there are any
  // (the main thread only adds what they prepared, in order); the same index as a build here.
  const index = CorpusIndex.build({ root: abs, items: [], problems: [], stats: { items: 0, transcripts: 0, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } });
  const pool = ItemPrepPool.start(options.buildWorkers ?? defaultPrepWorkers(), index.options.chunk);
  const prepared = new Map<string, NonNullable<PreparedLoad['prepared']>>();
  let corpus: Corpus;
  try {
    const { parts, onStale, buildWorkers: _workers, ...rest } = options;
    corpus = await loadCorpus(abs, {
      ...rest,
      // Items in hand at once: enough for every worker to have the next ones queued while this thread adds the last ones.
      concurrency: pool ? Math.max(8, 8 * pool.size) : undefined,
      parts: parts ?? boundedPartStore(onStale),
      parseItem: pool
        ? async (found, problems) => {
            const r = await pool.prepare(found, problems);
            if (r.prepared) prepared.set(found.id, r.prepared);
            return r.loaded;
          }
        : undefined,
      onItem: (item) => {
        options.onItem?.(item);
        throwIfAborted(options.signal);
        const p = prepared.get(item.id);
        prepared.delete(item.id);
        index.updateItem(item, p);
      },
    });
  } finally {
    await pool?.close();
  }
  if (isMissingCorpus(corpus)) return { corpus, searchIndex: () => Promise.reject(missing(abs)) };
  index.update(corpus, options.signal);
  return {
    corpus,
    searchIndex: once(async () => {
      await index.save(abs);
      return { index, report: { mode: 'built', reindexed: corpus.items.map((i) => i.id), removed: [], ms: Date.now() - started } };
    }),
  };
}

function missing(root: string): Error {
  return new Error(`openCorpus: ${root}: corpus folder does not exist or is not a folder`);
}

/** `fn` called at most once; every call gets its promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}
