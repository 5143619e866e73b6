/**
 * The search index of a corpus: minisearch (BM25) over chunks of transcripts
 * and over comments, with filters, persisted under `<corpus>/.marker-research/index/`
 * and updated incrementally by item content hash.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { STORAGE_DIR } from '../corpus/loader';
import type { Corpus, CorpusItem, PartKind } from '../corpus/types';
import { writeFileAtomic } from '../storage/atomic';
import { readStateFile } from '../storage/safePath';
import { throwIfAborted, type ProgressSink } from '../util/abort';
import { chunkItem, chunkText, DEFAULT_CHUNK_OPTIONS, type Chunk, type ChunkOptions } from './chunker';
import { tokenize, tokenizeQuery } from './tokenize';

/** Bumped whenever tokenisation, chunking or the stored format changes. */
export const INDEX_FORMAT_VERSION = 5;

export interface IndexOptions {
  chunk: ChunkOptions;
  /** BM25 parameters passed to minisearch. */
  bm25: { k: number; b: number; d: number };
}

/** Weighted searches whose results {@link CorpusIndex.searchWeighted} keeps. */
const RECENT_SEARCHES = 8;

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { chunk: DEFAULT_CHUNK_OPTIONS, bm25: { k: 1.2, b: 0.75, d: 0.5 } };

/** Filters every search accepts. */
export interface SearchFilters {
  itemIds?: readonly string[];
  part?: PartKind;
  /** Seconds; a chunk matches when it overlaps the range. */
  timeRange?: [number, number];
  /** Case-insensitive substring of a speaker or comment author. */
  speaker?: string;
  minLikes?: number;
}

export interface SearchOptions extends SearchFilters {
  /** Results to return (default 10). */
  k?: number;
}

export interface SearchHit {
  /** Chunk id in this index. */
  id: number;
  chunk: Chunk;
  score: number;
  /** Query terms that matched. */
  terms: string[];
}

interface Doc {
  id: number;
  text: string;
  title: string;
  speaker: string;
}

interface Manifest {
  version: number;
  optionsKey: string;
  nextId: number;
  items: Record<string, { hash: string; ids: number[] }>;
  chunks: [number, Chunk][];
}

export interface OpenReport {
  mode: 'built' | 'loaded' | 'updated';
  /** Items (re)indexed in this open. */
  reindexed: string[];
  removed: string[];
  ms: number;
}

function msOptions(opts: IndexOptions): Options<Doc> {
  return {
    fields: ['text', 'title', 'speaker'],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (t) => t,
    searchOptions: { tokenize: (q) => tokenizeQuery(q), processTerm: (t) => t, boost: { text: 1, title: 0.3, speaker: 0.3 }, bm25: opts.bm25 },
    autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2 },
  };
}

function optionsKey(opts: IndexOptions): string {
  return createHash('sha256').update(JSON.stringify({ v: INDEX_FORMAT_VERSION, chunk: opts.chunk })).digest('hex').slice(0, 16);
}

/** Where the index of the corpus at `root` lives. */
/** A function that yields to the event loop (setImmediate) once at least `sliceMs` passed since the last turn. */
function yielder(sliceMs = 20): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = Date.now();
  };
}

export function indexDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'index');
}

/**
 * minisearch keeps document frequencies in its (protected) term index but has
 * no public accessor; reading them through a subclass view avoids a full search
 * per term. minisearch is pinned to 7.2.x in package.json for this.
 */
/** The index file: a header line (MiniSearch's serialised fields but its terms), then one line per term `[term, {fieldId: {docId: freq}}]`. */
const INDEX_FILE = 'minisearch.jsonl';
/** Lines are written in batches of about this many characters. */
const WRITE_BATCH_CHARS = 1 << 20;

class MiniSearchInternals extends MiniSearch<Doc> {
  /**
   * The index as lines, in batches: what `toJSON` holds at once (a second copy of
   * every posting) is built and dropped one term at a time.
   */
  static *lines(ms: MiniSearch<Doc>): Generator<string> {
    const self = ms as unknown as MiniSearchInternals;
    const header = {
      documentCount: self._documentCount,
      nextId: self._nextId,
      documentIds: Object.fromEntries(self._documentIds),
      fieldIds: self._fieldIds,
      fieldLength: Object.fromEntries(self._fieldLength),
      averageFieldLength: self._avgFieldLength,
      storedFields: Object.fromEntries(self._storedFields),
      dirtCount: self._dirtCount,
      serializationVersion: 2,
    };
    let batch = `${JSON.stringify(header)}\n`;
    for (const [term, fieldIndex] of self._index) {
      const data: Record<number, Record<number, number>> = {};
      for (const [fieldId, freqs] of fieldIndex) data[fieldId] = Object.fromEntries(freqs);
      batch += `${JSON.stringify([term, data])}\n`;
      if (batch.length >= WRITE_BATCH_CHARS) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }

  /** Reads what {@link lines} wrote: the terms are parsed one line at a time as MiniSearch takes them in. */
  static fromLines(text: string, options: Options<Doc>): MiniSearch<Doc> {
    const first = text.indexOf('\n');
    if (first < 0) throw new Error('index file has no header line');
    const header = JSON.parse(text.slice(0, first)) as Record<string, unknown>;
    function* terms(): Generator<[string, Record<string, Record<string, number>>]> {
      let at = first + 1;
      while (at < text.length) {
        let end = text.indexOf('\n', at);
        if (end < 0) end = text.length;
        if (end > at) yield JSON.parse(text.slice(at, end)) as [string, Record<string, Record<string, number>>];
        at = end + 1;
      }
    }
    // loadJS iterates `index` once with for…of: a generator keeps one term's objects alive at a time.
    return MiniSearch.loadJS<Doc>({ ...header, index: terms() } as unknown as Parameters<typeof MiniSearch.loadJS<Doc>>[0], options);
  }

  static documentFrequency(ms: MiniSearch<Doc>, term: string, field: string): number {
    const self = ms as unknown as MiniSearchInternals;
    const fieldId = self._fieldIds[field];
    const data = self._index.get(term);
    if (fieldId === undefined || !data) return 0;
    return data.get(fieldId)?.size ?? 0;
  }
}

export class CorpusIndex {
  private readonly ms: MiniSearch<Doc>;
  private readonly chunks = new Map<number, Chunk>();
  private readonly byItem = new Map<string, { hash: string; ids: number[] }>();
  private readonly itemMap = new Map<string, CorpusItem>();
  /** Results of recent weighted searches (cleared whenever the index changes). */
  private readonly recent = new Map<string, SearchHit[]>();
  private nextId = 0;

  private constructor(readonly options: IndexOptions, ms?: MiniSearch<Doc>) {
    this.ms = ms ?? new MiniSearch<Doc>(msOptions(options));
  }

  /** Builds an index of every item of `corpus` in memory. */
  static build(corpus: Corpus, options: IndexOptions = DEFAULT_INDEX_OPTIONS, signal?: AbortSignal, onProgress?: ProgressSink): CorpusIndex {
    const index = new CorpusIndex(options);
    for (const _ of index.addSteps(corpus, signal, onProgress));
    return index;
  }

  /** Indexes every item of `corpus`, one step per item. */
  private *addSteps(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): Generator<void> {
    for (const [i, item] of corpus.items.entries()) {
      throwIfAborted(signal);
      this.addItem(item);
      onProgress?.({ done: i + 1, total: corpus.items.length, message: item.id });
      yield;
    }
  }

  /**
   * Opens the persisted index of `corpus` (building it when missing or
   * stale), re-indexes only the items whose content hash changed, and saves.
   */
  static async open(corpus: Corpus, options: IndexOptions = DEFAULT_INDEX_OPTIONS, signal?: AbortSignal, onProgress?: ProgressSink): Promise<{ index: CorpusIndex; report: OpenReport }> {
    const started = Date.now();
    const loaded = await CorpusIndex.load(corpus.root, options).catch(() => undefined);
    if (!loaded) {
      const index = await CorpusIndex.buildYielding(corpus, options, signal, onProgress);
      await index.save(corpus.root);
      return { index, report: { mode: 'built', reindexed: corpus.items.map((i) => i.id), removed: [], ms: Date.now() - started } };
    }
    const { reindexed, removed } = await loaded.updateYielding(corpus, signal, onProgress);
    if (reindexed.length || removed.length) await loaded.save(corpus.root);
    return { index: loaded, report: { mode: reindexed.length || removed.length ? 'updated' : 'loaded', reindexed, removed, ms: Date.now() - started } };
  }

  /** Loads a persisted index; undefined when none is there or it was made with other options. */
  static async load(root: string, options: IndexOptions = DEFAULT_INDEX_OPTIONS): Promise<CorpusIndex | undefined> {
    const dir = indexDir(root);
    const manifest = JSON.parse(await readStateFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.version !== INDEX_FORMAT_VERSION || manifest.optionsKey !== optionsKey(options)) return undefined;
    const ms = MiniSearchInternals.fromLines(await readStateFile(path.join(dir, INDEX_FILE), 'utf8'), msOptions(options));
    const index = new CorpusIndex(options, ms);
    index.nextId = manifest.nextId;
    for (const [id, c] of manifest.chunks) index.chunks.set(id, c);
    for (const [id, v] of Object.entries(manifest.items)) index.byItem.set(id, v);
    return index;
  }

  /** Writes the index atomically under `<root>/.marker-research/index/`. */
  async save(root: string): Promise<void> {
    const dir = indexDir(root);
    const manifest: Manifest = {
      version: INDEX_FORMAT_VERSION,
      optionsKey: optionsKey(this.options),
      nextId: this.nextId,
      items: Object.fromEntries(this.byItem),
      chunks: [...this.chunks],
    };
    // The index first: a manifest never points at an index older than itself.
    await writeFileAtomic(path.join(dir, INDEX_FILE), MiniSearchInternals.lines(this.ms));
    await writeFileAtomic(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    // The single-JSON file of format 4 and before.
    await rm(path.join(dir, 'minisearch.json'), { force: true });
  }

  /**
   * {@link build}, giving the event loop a turn between items (one item's
   * windows are indexed at a time): a server building a large index still
   * answers its other requests meanwhile.
   */
  static async buildYielding(corpus: Corpus, options: IndexOptions = DEFAULT_INDEX_OPTIONS, signal?: AbortSignal, onProgress?: ProgressSink): Promise<CorpusIndex> {
    const index = new CorpusIndex(options);
    const turn = yielder();
    for (const _ of index.addSteps(corpus, signal, onProgress)) await turn();
    return index;
  }

  /** {@link update}, giving the event loop a turn between re-indexed items. */
  async updateYielding(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): Promise<{ reindexed: string[]; removed: string[] }> {
    const turn = yielder();
    const steps = this.updateSteps(corpus, signal, onProgress);
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) return r.value;
      await turn();
    }
  }

  /** Brings the index in line with `corpus`: changed and new items re-indexed, missing ones removed. */
  update(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): { reindexed: string[]; removed: string[] } {
    const steps = this.updateSteps(corpus, signal, onProgress);
    for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
  }

  /** The work of an update, one step per re-indexed item (the callers decide whether to yield between steps). */
  private *updateSteps(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): Generator<void, { reindexed: string[]; removed: string[] }> {
    const reindexed: string[] = [];
    const present = new Set<string>();
    for (const [i, item] of corpus.items.entries()) {
      throwIfAborted(signal);
      present.add(item.id);
      this.itemMap.set(item.id, item);
      const known = this.byItem.get(item.id);
      if (known?.hash === item.contentHash) continue;
      if (known) this.removeItem(item.id);
      this.addItem(item);
      reindexed.push(item.id);
      onProgress?.({ done: i + 1, total: corpus.items.length, message: item.id });
      yield;
    }
    const removed = [...this.byItem.keys()].filter((id) => !present.has(id));
    for (const id of removed) this.removeItem(id);
    return { reindexed, removed };
  }

  private addItem(item: CorpusItem): void {
    this.recent.clear();
    this.itemMap.set(item.id, item);
    const docs: Doc[] = [];
    const ids: number[] = [];
    for (const c of chunkItem(item, this.options.chunk)) {
      const id = this.nextId++;
      this.chunks.set(id, c);
      ids.push(id);
      // The item id's words count with the title: folder names are often descriptive ("ev-winter-range"), and in another language than the item.
      docs.push({ id, text: chunkText(item, c), title: `${item.title} ${item.id.replace(/[-_.]+/g, ' ')}`, speaker: c.speakers?.join(' ') ?? '' });
    }
    this.ms.addAll(docs);
    this.byItem.set(item.id, { hash: item.contentHash, ids });
  }

  private removeItem(itemId: string): void {
    this.recent.clear();
    const known = this.byItem.get(itemId);
    if (!known) return;
    this.ms.discardAll(known.ids);
    for (const id of known.ids) this.chunks.delete(id);
    this.byItem.delete(itemId);
  }

  get size(): { items: number; chunks: number } {
    return { items: this.byItem.size, chunks: this.chunks.size };
  }

  chunk(id: number): Chunk | undefined {
    return this.chunks.get(id);
  }

  /** Chunk ids of an item, in order (transcript windows, then comments). */
  itemChunkIds(itemId: string): readonly number[] {
    return this.byItem.get(itemId)?.ids ?? [];
  }

  /** The item a chunk belongs to, when the index was opened or built with the corpus. */
  item(itemId: string): CorpusItem | undefined {
    return this.itemMap.get(itemId);
  }

  /** BM25 search over chunks with filters; best first. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const filter = this.filterFor(options);
    const results: SearchResult[] = this.ms.search(query, filter ? { filter: (r) => filter(this.chunks.get(r.id as number)) } : {});
    const k = options.k ?? 10;
    return results.slice(0, k).map((r) => ({ id: r.id as number, chunk: this.chunks.get(r.id as number)!, score: r.score, terms: r.terms }));
  }

  /**
   * Searches with already tokenised terms, each with its own weight (query
   * expansion). All scored matches, best first.
   */
  searchWeighted(weights: ReadonlyMap<string, number>, filters: SearchFilters = {}): SearchHit[] {
    // Several strategies of one question run the same weighted search: the last few results are kept.
    const key = JSON.stringify([[...weights], filters]);
    const cached = this.recent.get(key);
    if (cached) return cached;
    const hits = this.searchWeightedUncached(weights, filters);
    this.recent.set(key, hits);
    if (this.recent.size > RECENT_SEARCHES) this.recent.delete(this.recent.keys().next().value!);
    return hits;
  }

  private searchWeightedUncached(weights: ReadonlyMap<string, number>, filters: SearchFilters): SearchHit[] {
    const filter = this.filterFor(filters);
    const terms = [...weights.keys()];
    if (!terms.length) return [];
    const results = this.ms.search(terms.join(' '), {
      tokenize: (q) => q.split(' '),
      processTerm: (t) => t,
      boostTerm: (t) => weights.get(t) ?? 1,
      ...(filter ? { filter: (r: SearchResult) => filter(this.chunks.get(r.id as number)) } : {}),
    });
    return results.map((r) => ({ id: r.id as number, chunk: this.chunks.get(r.id as number)!, score: r.score, terms: r.terms }));
  }

  /** Chunks whose text contains `term` (a token), across the whole index (discarded chunks may count until vacuumed). */
  documentFrequency(term: string): number {
    return MiniSearchInternals.documentFrequency(this.ms, term, 'text');
  }

  /** Chunks whose text, title or speakers contain `term`, the largest of the three (what a search for it costs). */
  matchFrequency(term: string): number {
    return Math.max(
      MiniSearchInternals.documentFrequency(this.ms, term, 'text'),
      MiniSearchInternals.documentFrequency(this.ms, term, 'title'),
      MiniSearchInternals.documentFrequency(this.ms, term, 'speaker'),
    );
  }

  get documentCount(): number {
    return this.ms.documentCount;
  }

  /** All scored matches (no cut), for retrieval that re-ranks. */
  searchAll(query: string, filters: SearchFilters = {}): SearchHit[] {
    return this.search(query, { ...filters, k: Number.POSITIVE_INFINITY });
  }

  private filterFor(f: SearchFilters): ((c: Chunk | undefined) => boolean) | undefined {
    const ids = f.itemIds ? new Set(f.itemIds) : undefined;
    const speaker = f.speaker?.toLowerCase();
    if (!ids && !f.part && !f.timeRange && !speaker && f.minLikes === undefined) return undefined;
    return (c) => {
      if (!c) return false;
      if (ids && !ids.has(c.itemId)) return false;
      if (f.part && c.part !== f.part) return false;
      if (f.timeRange) {
        if (c.startTime === undefined) return false;
        const end = c.endTime ?? c.startTime;
        if (end < f.timeRange[0] || c.startTime > f.timeRange[1]) return false;
      }
      if (speaker && !c.speakers?.some((s) => s.toLowerCase().includes(speaker))) return false;
      if (f.minLikes !== undefined && (c.likes ?? 0) < f.minLikes) return false;
      return true;
    };
  }
}
