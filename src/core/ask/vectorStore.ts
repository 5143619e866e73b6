/**
 * Embedding vectors of the search chunks, for the vector retrieval strategy (seed 004): a small
 * {@link VectorStore} interface and one implementation, {@link FlatVectorStore} — brute-force
 * cosine over L2-normalised vectors in one contiguous Float32Array (a few milliseconds for
 * ~130k vectors of 64 dimensions), and above {@link ANN_MIN_WORK} an approximate index
 * (`vectorAnn.ts`, HNSW from `usearch`) whose candidates are re-scored exactly — persisted under
 * `<corpus>/.marker-research/vectors/<model key>/` as one binary file per item plus a manifest
 * (format: `vectorFiles.ts`).
 * Each vector is keyed by the sha256 of its chunk's text (`vectorSync.ts` embeds only texts it
 * has no vector for). Unreadable files are reported and rebuilt.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import type { PartKind } from '../corpus/types';
import { writeFileAtomic } from '../storage/atomic';
import { pooledRead } from '../storage/readPool';
import { checkStateDir, readStateDir, readStateFile } from '../storage/safePath';
import { CancelledError, type ProgressSink } from '../util/abort';
import { nullLogger, type Logger } from '../util/log';
import { loadAnn } from './annIndex';
import { VectorAnn, type AnnHost } from './vectorAnn';
import { decodeItemFile, encodeItemFile, itemFileName, ITEM_EXT, ITEMS_DIR, MANIFEST, parseManifest, VECTOR_FORMAT_VERSION, type DecodedItem, type Manifest } from './vectorFiles';

/** One chunk's vector, as given to {@link VectorStore.upsertItem}. */
export interface VectorEntry {
  /** Chunk id in the current {@link CorpusIndex}. */
  chunkId: number;
  /** {@link textKey} of the chunk's text. */
  key: string;
  part: PartKind;
  /** Any length-`dimensions` vector; the store keeps it normalised. */
  vector: Float32Array;
}

/** Which vectors a search may return. */
export interface VectorFilter {
  itemIds?: readonly string[];
  part?: PartKind;
  /** A last check per vector (e.g. that the chunk still exists in the index). */
  accept?: (chunkId: number, itemId: string) => boolean;
}

/** One search result. */
export interface VectorMatch {
  chunkId: number;
  itemId: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

/** What the vector strategy needs of a store: per-item upserts and removals, top-k cosine search. */
export interface VectorStore {
  /** Dimensions of every vector; undefined while empty. */
  readonly dimensions: number | undefined;
  /** Vectors held. */
  readonly size: number;
  /** Replaces the vectors of `itemId` (made from its content with hash `contentHash`). */
  upsertItem(itemId: string, contentHash: string, entries: readonly VectorEntry[]): void;
  /** Drops the vectors of `itemId`; false when it had none. */
  removeItem(itemId: string): boolean;
  /** Ids of the items with vectors. */
  itemIds(): string[];
  /**
   * The `k` vectors most similar to `query` (cosine, best first; ties by chunk id) that pass `filter`.
   * @throws Error when `query` has other dimensions than the store.
   */
  search(query: Float32Array, k: number, filter?: VectorFilter): VectorMatch[];
}

/** Who made the vectors: vectors of different models (or sizes) are never mixed. */
export interface VectorModelInfo {
  provider: string;
  model: string;
  /** Requested dimensions, when configured. */
  dimensions?: number;
}

/** What the store knows of one item. */
export interface VectorItemInfo {
  contentHash: string;
  chunkIds: readonly number[];
  keys: readonly string[];
}

/** The key of a chunk's text: the first 32 hex digits of its sha256. */
export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The folder name of a model's vectors: readable, filesystem-safe, distinct per provider/model/dimensions. */
export function vectorModelKey(info: VectorModelInfo): string {
  const readable = `${info.provider}-${info.model}`.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60);
  const hash = createHash('sha256').update(JSON.stringify([info.provider, info.model, info.dimensions ?? null])).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

/** Where the vectors of `info` for the corpus at `root` live. */
export function vectorsDir(root: string, info: VectorModelInfo): string {
  return path.join(root, STORAGE_DIR, 'vectors', vectorModelKey(info));
}

const PART_CODE: Record<PartKind, number> = { transcript: 0, comments: 1 };
const FREE = -1;

/**
 * Vectors × dimensions above which the store searches through its approximate index: below it
 * the exact scan is cheap enough (8 M multiply-adds ≈ 125k × 64 or 10k × 768: about 10 ms on an
 * idle core, see bench/vectorScale.ts) and no index is built.
 */
export const ANN_MIN_WORK = 8_000_000;
/**
 * The index is asked for at least this many candidates (before filters), and this many times k.
 * At 1 M × 64 clustered vectors (bench/vectorScale.ts, k 50), recall@10 against the exact scan was
 * 0.844 with 100 candidates, 0.924 with 200, 0.978 with 400 and 800 (p95 4.2 → 4.3 ms at 400).
 */
const ANN_MIN_FETCH = 400;
const ANN_OVERFETCH = 2;
/** When the index holds fewer than k matches of a filter after asking for this share of it, the store scans. */
const ANN_MAX_FETCH_SHARE = 0.05;
/** Changed vectors below which a saved index is not written again (see {@link FlatVectorStore.save}). */
const ANN_SAVE_MIN = 1000;

/** Options of a {@link FlatVectorStore}. */
export interface FlatVectorStoreOptions {
  /** Vectors × dimensions above which the approximate index is used (default {@link ANN_MIN_WORK}). */
  annMinWork?: number;
  /**
   * The owner builds the approximate index in the background with {@link FlatVectorStore.buildAnn}
   * (the engine, after the store opens): {@link FlatVectorStore.prepareAnn} — what
   * `syncVectors` calls — then only sets the index up (or finds out why there can be none) and
   * returns, so nothing that waits for a sync waits for an index build.
   */
  annInBackground?: boolean;
}

/** How a store searches: what {@link FlatVectorStore.annStatus} says. */
export interface AnnStatus {
  /** `scan`: exact (small store, no index yet, or the addon is unavailable); `ann`: through the index. */
  mode: 'scan' | 'ann';
  /** Vectors in the index, and vectors waiting to be added (scanned exactly meanwhile). */
  indexed: number;
  pending: number;
  /** Why there is no index although the store is large enough (e.g. the addon does not load). */
  unavailable?: string;
  /** Present while a {@link FlatVectorStore.buildAnn} runs. */
  building?: true;
}

interface ItemRecord {
  ordinal: number;
  contentHash: string;
  chunkIds: number[];
  keys: string[];
  parts: PartKind[];
  slots: number[];
  /** Changed since the last save. */
  dirty: boolean;
}

/**
 * The flat store: every vector normalised in one Float32Array; a search is one pass of dot
 * products (over the listed items' vectors only, with an `itemIds` filter) keeping the top k.
 *
 * @example
 * ```ts
 * const { store, problems } = await FlatVectorStore.open(corpus.root, { provider: 'ollama', model: 'nomic-embed-text' });
 * const hits = store.search(queryVector, 10, { itemIds: ['ev-winter-range'] });
 * ```
 */
export class FlatVectorStore implements VectorStore {
  #dims: number | undefined;
  #data = new Float32Array(0);
  #slotChunk = new Int32Array(0);
  #slotItem = new Int32Array(0);
  #slotPart = new Uint8Array(0);
  /** Slots ever used (live or free). */
  #used = 0;
  #live = 0;
  readonly #free: number[] = [];
  readonly #items = new Map<string, ItemRecord>();
  readonly #ordinals: (string | undefined)[] = [];
  /** Text key → live slots holding its vector (usually one). */
  readonly #byKey = new Map<string, number[]>();
  /** Items whose files must be deleted at the next save. */
  readonly #removed = new Set<string>();
  #manifestDirty = false;
  /** Slots the next growth makes at least (what the manifest of an opened store lists). */
  #reserve = 0;
  /** Live vectors per part code. */
  readonly #partLive = [0, 0];
  #ann: VectorAnn | undefined;
  /** The saved index no longer matches (the store was cleared): {@link save} deletes it. */
  #annDropped = false;
  #annUnavailable: string | undefined;
  /** Whether {@link prepareAnn} has logged why there is no index. */
  #annNoted = false;
  readonly #annMinWork: number;
  readonly #annInBackground: boolean;
  /** The {@link buildAnn} in flight. */
  #building: Promise<AnnStatus> | undefined;
  readonly #host: AnnHost = {
    dimensions: () => this.#dims,
    vectorData: () => this.#data,
    itemVectors: (itemId) => {
      const rec = this.#items.get(itemId);
      return rec && rec.slots.length > 0 ? { slots: rec.slots, keys: rec.keys } : undefined;
    },
    itemIds: () => [...this.#items.keys()],
  };

  /** @param dir Where {@link save} writes; undefined for a store that lives in memory only. */
  constructor(
    readonly info: VectorModelInfo,
    readonly dir?: string,
    options: FlatVectorStoreOptions = {},
  ) {
    this.#annMinWork = options.annMinWork ?? ANN_MIN_WORK;
    this.#annInBackground = options.annInBackground ?? false;
  }

  /**
   * Opens the store of `info` for the corpus at `root`: loads every readable item file; a
   * missing store is empty; an unreadable manifest or item file is reported in `problems`
   * (those items will be embedded again), never thrown.
   */
  static async open(root: string, info: VectorModelInfo, options: FlatVectorStoreOptions = {}): Promise<{ store: FlatVectorStore; problems: string[] }> {
    const dir = vectorsDir(root, info);
    const store = new FlatVectorStore(info, dir, options);
    const problems: string[] = [];
    let listed: { itemId: string; file: string; contentHash: string }[] | undefined;
    let manifestText: string | undefined;
    try {
      manifestText = await pooledRead(path.join(dir, MANIFEST), () => readStateFile(path.join(dir, MANIFEST), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`vectors: manifest unreadable (${errorText(error)}); reading the item files`);
    }
    if (manifestText !== undefined) {
      const parsed = parseManifest(manifestText, info);
      if (typeof parsed === 'string') problems.push(`vectors: manifest ${parsed}; reading the item files`);
      else {
        listed = Object.entries(parsed.items).map(([itemId, v]) => ({ itemId, file: v.file, contentHash: v.contentHash }));
        // The arrays are made once at the size the manifest gives: growing by doubling would hold
        // the old and the new array at once (1.5 × the vectors at the peak) and leave up to half unused.
        store.#reserve = Object.values(parsed.items).reduce((n, v) => n + v.vectors, 0);
      }
    }
    if (listed === undefined) {
      // No usable manifest: every item file says which item it is.
      const files = await readStateDir(path.join(dir, ITEMS_DIR)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`vectors: item folder unreadable (${errorText(error)})`);
        return [] as string[];
      });
      listed = files.filter((f) => f.endsWith(ITEM_EXT)).sort().map((file) => ({ itemId: '', file, contentHash: '' }));
      if (listed.length > 0 || manifestText !== undefined) store.#manifestDirty = true;
    }
    for (const entry of listed) {
      const file = path.join(dir, ITEMS_DIR, entry.file);
      let decoded: DecodedItem | string;
      try {
        decoded = decodeItemFile(await pooledRead(file, () => readStateFile(file)));
      } catch (error) {
        decoded = errorText(error);
      }
      if (typeof decoded !== 'string' && entry.itemId !== '' && (decoded.header.itemId !== entry.itemId || decoded.header.contentHash !== entry.contentHash)) {
        decoded = 'does not match the manifest';
      }
      if (typeof decoded !== 'string' && entry.file !== itemFileName(decoded.header.itemId)) decoded = 'is named for another item';
      if (typeof decoded !== 'string' && decoded.header.chunks.length > 0 && store.#dims !== undefined && decoded.header.dims !== store.#dims) {
        decoded = `has ${decoded.header.dims} dimensions, the store ${store.#dims}`;
      }
      if (typeof decoded === 'string') {
        problems.push(`vectors: ${entry.itemId || entry.file}: ${decoded}; it will be embedded again`);
        store.#manifestDirty = true;
        if (entry.itemId !== '') store.#removed.add(entry.itemId);
        continue;
      }
      const { header, vectors } = decoded;
      const dims = header.dims;
      store.#insert(
        header.itemId,
        header.contentHash,
        header.chunks.map((c, i) => ({ chunkId: c.id, key: c.key, part: c.part, vector: vectors.subarray(i * dims, (i + 1) * dims) })),
        false,
      );
    }
    if (store.#wantsAnn() && typeof loadAnn() !== 'string') {
      const opened = await VectorAnn.open(dir, store.#host);
      if (typeof opened === 'string') problems.push(`vectors: ${opened}; it will be built again`);
      else store.#ann = opened;
    }
    return { store, problems };
  }

  /** How searches run now (see {@link prepareAnn}). */
  get annStatus(): AnnStatus {
    const ann = this.#ann;
    const mode = ann !== undefined && this.#annUsable(ann) ? 'ann' : 'scan';
    return {
      mode,
      indexed: ann?.size ?? 0,
      pending: ann?.pendingVectors ?? 0,
      ...(this.#annUnavailable !== undefined && { unavailable: this.#annUnavailable }),
      ...(this.#building !== undefined && { building: true as const }),
    };
  }

  /**
   * Brings the approximate index up to date when the store is large enough for one (more than
   * `annMinWork` vectors × dimensions): builds it the first time, then adds only the vectors of
   * changed items; the event loop runs between steps and searches meanwhile stay exact for what
   * is not indexed yet. Without the addon, logs why once and leaves the store on its exact scan.
   * {@link save} writes the index beside the vectors. A store opened with `annInBackground` only
   * sets the index up here (every vector pending) and returns: its owner calls {@link buildAnn}.
   * @throws CancelledError when `signal` aborts (what was added stays).
   */
  async prepareAnn(options: { signal?: AbortSignal; onProgress?: ProgressSink; threads?: number; log?: Logger } = {}): Promise<AnnStatus> {
    if (this.#annInBackground) {
      this.#setUpAnn(options.log ?? nullLogger);
      return this.annStatus;
    }
    return this.buildAnn(options);
  }

  /**
   * Adds what is pending to the approximate index, as {@link prepareAnn} does, whatever the
   * store's options: what an owner that builds in the background runs (not awaited by a
   * question). A call while one runs joins it. `annStatus.building` is set meanwhile.
   * @throws CancelledError when `signal` aborts (what was added stays, and searches go on).
   */
  buildAnn(options: { signal?: AbortSignal; onProgress?: ProgressSink; threads?: number; log?: Logger } = {}): Promise<AnnStatus> {
    if (this.#building !== undefined) return this.#building;
    const building = (async (): Promise<AnnStatus> => {
      try {
        await this.#build(options);
      } finally {
        this.#building = undefined;
      }
      return this.annStatus;
    })();
    this.#building = building;
    return building;
  }

  async #build(options: { signal?: AbortSignal; onProgress?: ProgressSink; threads?: number; log?: Logger }): Promise<void> {
    const log = options.log ?? nullLogger;
    const ann = this.#setUpAnn(log);
    if (ann !== undefined) {
      const started = Date.now();
      try {
        const added = await ann.catchUp(options);
        if (added > 0) log.info(`vectors: ${added} vectors added to the approximate index in ${Date.now() - started} ms (${ann.size} indexed)`);
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        this.#dropAnn(`the approximate index failed (${errorText(error)})`);
        this.#noteUnavailable(log);
      }
    }
  }

  /**
   * The index to bring up to date, made the first time the store is large enough; undefined
   * when the store is small or the addon does not load (logged once).
   */
  #setUpAnn(log: Logger): VectorAnn | undefined {
    const dims = this.#dims;
    if (dims === undefined || !this.#wantsAnn()) return undefined;
    // An addon that does not load, or an index that failed, is not tried again in this process.
    if (this.#ann === undefined && this.#annUnavailable === undefined) {
      const lib = loadAnn();
      if (typeof lib === 'string') this.#annUnavailable = lib;
      else this.#ann = VectorAnn.create(this.#host, dims);
    }
    this.#noteUnavailable(log);
    return this.#ann;
  }

  #noteUnavailable(log: Logger): void {
    if (this.#annUnavailable !== undefined && !this.#annNoted) {
      this.#annNoted = true;
      log.warn(`vectors: ${this.#annUnavailable}; searching ${this.#live} vectors by exact scan`);
    }
  }

  /** Stops using the approximate index (it failed): searches scan, {@link save} deletes the saved one. */
  #dropAnn(reason: string): void {
    this.#ann?.dispose();
    this.#ann = undefined;
    this.#annDropped = true;
    this.#annUnavailable = reason;
  }

  #wantsAnn(): boolean {
    return this.#dims !== undefined && this.#live * this.#dims > this.#annMinWork;
  }

  /** Whether searching through `ann` is worth it: the store is large, and what is still pending is cheap to scan. */
  #annUsable(ann: VectorAnn): boolean {
    return this.#wantsAnn() && ann.size > 0 && ann.pendingVectors * this.#dims! <= this.#annMinWork;
  }

  get dimensions(): number | undefined {
    return this.#dims;
  }

  get size(): number {
    return this.#live;
  }

  /** Bytes of the store's own arrays: the vectors (float32) and each slot's chunk, item and part, for every slot made. */
  get arrayBytes(): number {
    return this.#data.byteLength + this.#slotChunk.byteLength + this.#slotItem.byteLength + this.#slotPart.byteLength;
  }

  itemIds(): string[] {
    return [...this.#items.keys()];
  }

  /** What the store holds for `itemId`. */
  item(itemId: string): VectorItemInfo | undefined {
    const rec = this.#items.get(itemId);
    return rec && { contentHash: rec.contentHash, chunkIds: rec.chunkIds, keys: rec.keys };
  }

  /** A copy of a stored (normalised) vector for the text with key `key`, if any item has it. */
  vectorForKey(key: string): Float32Array | undefined {
    const slot = this.#byKey.get(key)?.[0];
    if (slot === undefined || this.#dims === undefined) return undefined;
    return this.#data.slice(slot * this.#dims, (slot + 1) * this.#dims);
  }

  upsertItem(itemId: string, contentHash: string, entries: readonly VectorEntry[]): void {
    this.#insert(itemId, contentHash, entries, true);
  }

  removeItem(itemId: string): boolean {
    const rec = this.#items.get(itemId);
    if (!rec) return false;
    this.#release(rec);
    this.#items.delete(itemId);
    this.#ordinals[rec.ordinal] = undefined;
    this.#removed.add(itemId);
    this.#manifestDirty = true;
    this.#ann?.itemChanged(itemId);
    return true;
  }

  /** Drops every vector (e.g. when the model's dimensions changed); {@link save} then deletes the files. */
  clear(): void {
    if (this.#ann !== undefined) this.#annDropped = true;
    this.#ann?.dispose();
    this.#ann = undefined;
    for (const id of [...this.#items.keys()]) this.removeItem(id);
    this.#dims = undefined;
    this.#data = new Float32Array(0);
    this.#slotChunk = new Int32Array(0);
    this.#slotItem = new Int32Array(0);
    this.#slotPart = new Uint8Array(0);
    this.#used = 0;
    this.#free.length = 0;
    this.#byKey.clear();
    this.#partLive.fill(0);
  }

  search(query: Float32Array, k: number, filter: VectorFilter = {}): VectorMatch[] {
    const q = this.#query(query, k);
    if (q === undefined) return [];
    const ann = this.#ann;
    let top: TopK | undefined;
    if (ann !== undefined && this.#annUsable(ann)) {
      try {
        top = this.#annSearch(ann, q, Math.floor(k), filter);
      } catch (error) {
        // Never a wrong answer: scan this time and from now on (prepareAnn logs why).
        this.#dropAnn(`the approximate index failed (${errorText(error)})`);
      }
    }
    return this.#matches(top ?? this.#scan(q, Math.floor(k), filter));
  }

  /**
   * The same as {@link search} by exact scan, whatever the store's size (what the approximate
   * index is measured against).
   */
  searchExact(query: Float32Array, k: number, filter: VectorFilter = {}): VectorMatch[] {
    const q = this.#query(query, k);
    return q === undefined ? [] : this.#matches(this.#scan(q, Math.floor(k), filter));
  }

  /** The normalised query; undefined when there is nothing to search. */
  #query(query: Float32Array, k: number): Float32Array | undefined {
    const dims = this.#dims;
    if (dims === undefined || k <= 0 || this.#live === 0) return undefined;
    if (query.length !== dims) throw new Error(`vectors: the query has ${query.length} dimensions, the store ${dims}`);
    return normalised(query);
  }

  #matches(top: TopK): VectorMatch[] {
    return top.sorted().map(({ score, chunkId, slot }) => ({ chunkId, itemId: this.#ordinals[this.#slotItem[slot]!]!, score }));
  }

  /**
   * A function that scores one slot against `q` exactly and keeps it in `top` when it passes the
   * part filter, `accept` and (when given) the item ordinals.
   */
  #scorer(q: Float32Array, filter: VectorFilter, top: TopK, ordinals?: ReadonlySet<number>): (slot: number) => void {
    const dims = this.#dims!;
    const data = this.#data;
    const slotChunk = this.#slotChunk;
    const slotPart = this.#slotPart;
    const slotItem = this.#slotItem;
    const part = filter.part === undefined ? -1 : PART_CODE[filter.part];
    const accept = filter.accept;
    const tail = dims - (dims % 4);
    return (slot) => {
      const chunkId = slotChunk[slot]!;
      if (chunkId === FREE || (part >= 0 && slotPart[slot] !== part)) return;
      if (ordinals !== undefined && !ordinals.has(slotItem[slot]!)) return;
      const base = slot * dims;
      // Four partial sums: fewer dependent additions per step.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let d = 0; d < tail; d += 4) {
        s0 += q[d]! * data[base + d]!;
        s1 += q[d + 1]! * data[base + d + 1]!;
        s2 += q[d + 2]! * data[base + d + 2]!;
        s3 += q[d + 3]! * data[base + d + 3]!;
      }
      for (let d = tail; d < dims; d++) s0 += q[d]! * data[base + d]!;
      const dot = s0 + s1 + s2 + s3;
      if (dot < top.threshold || !top.wants(dot, chunkId)) return;
      if (accept && !accept(chunkId, this.#ordinals[slotItem[slot]!]!)) return;
      top.add(dot, chunkId, slot);
    };
  }

  /** The exact scan: every live vector (or only the listed items' vectors) once. */
  #scan(q: Float32Array, k: number, filter: VectorFilter): TopK {
    const top = new TopK(k);
    const consider = this.#scorer(q, filter, top);
    if (filter.itemIds !== undefined) {
      for (const id of new Set(filter.itemIds)) {
        const rec = this.#items.get(id);
        if (rec) for (const slot of rec.slots) consider(slot);
      }
    } else {
      for (let slot = 0; slot < this.#used; slot++) consider(slot);
    }
    return top;
  }

  /**
   * Search through the approximate index: candidates from the index (over-fetched by the share
   * of vectors the filter lets through), plus the pending items' vectors, all re-scored exactly.
   * Undefined — the caller scans — when the filter's items are few enough to scan, or when the
   * index holds fewer than k matches of the filter even after widening the fetch.
   */
  #annSearch(ann: VectorAnn, q: Float32Array, k: number, filter: VectorFilter): TopK | undefined {
    let ordinals: Set<number> | undefined;
    let share = 1;
    if (filter.itemIds !== undefined) {
      ordinals = new Set();
      let vectors = 0;
      for (const id of new Set(filter.itemIds)) {
        const rec = this.#items.get(id);
        if (rec === undefined) continue;
        ordinals.add(rec.ordinal);
        vectors += rec.slots.length;
      }
      if (vectors * this.#dims! <= this.#annMinWork) return undefined;
      share = vectors / this.#live;
    }
    if (filter.part !== undefined) share *= this.#partLive[PART_CODE[filter.part]]! / this.#live;
    if (share === 0) return new TopK(k);
    const limit = Math.max(k, Math.ceil(ann.size * ANN_MAX_FETCH_SHARE));
    let fetch = Math.max(ANN_MIN_FETCH, Math.ceil((k * ANN_OVERFETCH) / share));
    for (;;) {
      const top = new TopK(k);
      const consider = this.#scorer(q, filter, top, ordinals);
      const slots = ann.search(q, Math.min(fetch, ann.size));
      for (const slot of slots) consider(slot);
      for (const id of ann.pendingItems()) {
        const rec = this.#items.get(id);
        if (rec && (ordinals === undefined || ordinals.has(rec.ordinal))) for (const slot of rec.slots) consider(slot);
      }
      if (top.size >= k || fetch >= ann.size) return top;
      if (fetch >= limit) return undefined;
      fetch = Math.min(limit, fetch * 4);
    }
  }

  /**
   * Writes what changed since the last save: the files of changed items, deletes those of
   * removed ones (and stray files), then the manifest — atomically, file by file.
   * @throws Error for a store made without a folder.
   */
  async save(): Promise<void> {
    const dir = this.dir;
    if (dir === undefined) throw new Error('vectors: this store has no folder to save to');
    const dims = this.#dims;
    let wrote = false;
    for (const [itemId, rec] of this.#items) {
      if (!rec.dirty) continue;
      await writeFileAtomic(path.join(dir, ITEMS_DIR, itemFileName(itemId)), encodeItemFile(itemId, rec, dims ?? 0, (slot) => this.#data.subarray(slot * (dims ?? 0), (slot + 1) * (dims ?? 0))));
      rec.dirty = false;
      wrote = true;
    }
    await this.#saveAnn(dir);
    if (!wrote && !this.#manifestDirty && this.#removed.size === 0) return;
    const manifest: Manifest = {
      version: VECTOR_FORMAT_VERSION,
      provider: this.info.provider,
      model: this.info.model,
      requestedDimensions: this.info.dimensions ?? null,
      dimensions: dims ?? null,
      items: Object.fromEntries([...this.#items].map(([id, rec]) => [id, { file: itemFileName(id), contentHash: rec.contentHash, vectors: rec.slots.length }])),
    };
    // Item files first: a manifest never names a file older than itself.
    await writeFileAtomic(path.join(dir, MANIFEST), `${JSON.stringify(manifest)}\n`);
    const keep = new Set([...this.#items.keys()].map(itemFileName));
    // Stray files go from the checked real folder only (never through a link).
    const itemsDir = await checkStateDir(path.join(dir, ITEMS_DIR)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    const files = itemsDir === undefined ? [] : await readStateDir(itemsDir);
    for (const f of files) if (!keep.has(f)) await rm(path.join(itemsDir!, f), { force: true });
    this.#removed.clear();
    this.#manifestDirty = false;
  }

  /**
   * Writes the approximate index when it changed enough since it was last written (1% of it, at
   * least {@link ANN_SAVE_MIN} vectors): the whole index is one file, and a reopen re-adds the
   * few items that changed since (vectorAnn.ts) — so small updates do not rewrite it each time.
   */
  async #saveAnn(dir: string): Promise<void> {
    if (this.#annDropped) {
      await VectorAnn.remove(dir);
      this.#annDropped = false;
    }
    const ann = this.#ann;
    if (ann === undefined || ann.size === 0 || ann.unsavedChanges === 0) return;
    if (ann.saved && ann.unsavedChanges < Math.max(ANN_SAVE_MIN, ann.size * 0.01)) return;
    await ann.save(dir);
  }

  #insert(itemId: string, contentHash: string, entries: readonly VectorEntry[], dirty: boolean): void {
    const dims = entries[0]?.vector.length ?? this.#dims;
    for (const e of entries) {
      if (e.vector.length !== dims) throw new Error(`vectors: ${itemId}: a vector has ${e.vector.length} dimensions, expected ${dims}`);
    }
    if (this.#dims !== undefined && dims !== undefined && dims !== this.#dims) {
      throw new Error(`vectors: ${itemId}: vectors have ${dims} dimensions, the store ${this.#dims}`);
    }
    if (dims !== undefined && this.#dims === undefined) this.#dims = dims;
    const old = this.#items.get(itemId);
    if (old) this.#release(old);
    const ordinal = old?.ordinal ?? this.#ordinals.push(itemId) - 1;
    const rec: ItemRecord = { ordinal, contentHash, chunkIds: [], keys: [], parts: [], slots: [], dirty };
    const d = this.#dims ?? 0;
    for (const e of entries) {
      const slot = this.#allocate();
      const target = this.#data.subarray(slot * d, (slot + 1) * d);
      target.set(e.vector);
      normaliseInPlace(target);
      this.#slotChunk[slot] = e.chunkId;
      this.#slotItem[slot] = ordinal;
      this.#slotPart[slot] = PART_CODE[e.part];
      this.#partLive[PART_CODE[e.part]]!++;
      rec.chunkIds.push(e.chunkId);
      rec.keys.push(e.key);
      rec.parts.push(e.part);
      rec.slots.push(slot);
      const holders = this.#byKey.get(e.key);
      if (holders) holders.push(slot);
      else this.#byKey.set(e.key, [slot]);
    }
    this.#items.set(itemId, rec);
    this.#removed.delete(itemId);
    if (dirty) this.#manifestDirty = true;
    this.#ann?.itemChanged(itemId);
  }

  #release(rec: ItemRecord): void {
    rec.slots.forEach((slot, i) => {
      this.#slotChunk[slot] = FREE;
      this.#partLive[this.#slotPart[slot]!]!--;
      this.#free.push(slot);
      this.#live--;
      const key = rec.keys[i]!;
      const holders = this.#byKey.get(key);
      if (holders) {
        const at = holders.indexOf(slot);
        if (at >= 0) holders.splice(at, 1);
        if (holders.length === 0) this.#byKey.delete(key);
      }
    });
  }

  #allocate(): number {
    this.#live++;
    const reused = this.#free.pop();
    if (reused !== undefined) return reused;
    if (this.#used === this.#slotChunk.length) {
      this.#grow(this.#reserve > this.#used ? this.#reserve : Math.max(1024, this.#slotChunk.length * 2));
      this.#reserve = 0;
    }
    return this.#used++;
  }

  #grow(capacity: number): void {
    const d = this.#dims ?? 0;
    const data = new Float32Array(capacity * d);
    data.set(this.#data.subarray(0, this.#used * d));
    this.#data = data;
    const chunk = new Int32Array(capacity).fill(FREE);
    chunk.set(this.#slotChunk.subarray(0, this.#used));
    this.#slotChunk = chunk;
    const item = new Int32Array(capacity);
    item.set(this.#slotItem.subarray(0, this.#used));
    this.#slotItem = item;
    const part = new Uint8Array(capacity);
    part.set(this.#slotPart.subarray(0, this.#used));
    this.#slotPart = part;
  }
}

/** Keeps the k best (score, chunk id) pairs; ties go to the smaller chunk id. */
class TopK {
  readonly #scores: number[] = [];
  readonly #chunks: number[] = [];
  readonly #slots: number[] = [];
  /** Index of the worst kept entry, once full. */
  #worst = -1;
  /** The worst kept score once full (-Infinity before): anything below it is not wanted. */
  threshold = Number.NEGATIVE_INFINITY;

  constructor(readonly k: number) {}

  /** Whether (score, chunkId) would be kept. */
  wants(score: number, chunkId: number): boolean {
    if (this.#scores.length < this.k) return true;
    const w = this.#worst;
    return score > this.#scores[w]! || (score === this.#scores[w]! && chunkId < this.#chunks[w]!);
  }

  /** Entries kept. */
  get size(): number {
    return this.#scores.length;
  }

  add(score: number, chunkId: number, slot: number): void {
    if (this.#scores.length < this.k) {
      this.#scores.push(score);
      this.#chunks.push(chunkId);
      this.#slots.push(slot);
      if (this.#scores.length === this.k) this.#findWorst();
      return;
    }
    const w = this.#worst;
    this.#scores[w] = score;
    this.#chunks[w] = chunkId;
    this.#slots[w] = slot;
    this.#findWorst();
  }

  sorted(): { score: number; chunkId: number; slot: number }[] {
    return this.#scores
      .map((score, i) => ({ score, chunkId: this.#chunks[i]!, slot: this.#slots[i]! }))
      .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  }

  #findWorst(): void {
    let w = 0;
    for (let i = 1; i < this.#scores.length; i++) {
      const s = this.#scores[i]!;
      const ws = this.#scores[w]!;
      if (s < ws || (s === ws && this.#chunks[i]! > this.#chunks[w]!)) w = i;
    }
    this.#worst = w;
    this.threshold = this.#scores[w]!;
  }
}

function normaliseInPlace(v: Float32Array): void {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0 || !Number.isFinite(sum)) return;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
}

function normalised(v: Float32Array): Float32Array {
  const out = Float32Array.from(v);
  normaliseInPlace(out);
  return out;
}

/** An error's message, or the value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
