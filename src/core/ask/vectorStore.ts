/**
 * Embedding vectors of the search chunks, for the vector retrieval strategy (seed 004): a small
 * {@link VectorStore} interface and one implementation, {@link FlatVectorStore} — brute-force
 * cosine over L2-normalised vectors in one contiguous Float32Array (a few milliseconds for
 * ~130k vectors of 64 dimensions) — persisted under
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

  /** @param dir Where {@link save} writes; undefined for a store that lives in memory only. */
  constructor(
    readonly info: VectorModelInfo,
    readonly dir?: string,
  ) {}

  /**
   * Opens the store of `info` for the corpus at `root`: loads every readable item file; a
   * missing store is empty; an unreadable manifest or item file is reported in `problems`
   * (those items will be embedded again), never thrown.
   */
  static async open(root: string, info: VectorModelInfo): Promise<{ store: FlatVectorStore; problems: string[] }> {
    const dir = vectorsDir(root, info);
    const store = new FlatVectorStore(info, dir);
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
      else listed = Object.entries(parsed.items).map(([itemId, v]) => ({ itemId, file: v.file, contentHash: v.contentHash }));
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
    return { store, problems };
  }

  get dimensions(): number | undefined {
    return this.#dims;
  }

  get size(): number {
    return this.#live;
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
    return true;
  }

  /** Drops every vector (e.g. when the model's dimensions changed); {@link save} then deletes the files. */
  clear(): void {
    for (const id of [...this.#items.keys()]) this.removeItem(id);
    this.#dims = undefined;
    this.#data = new Float32Array(0);
    this.#slotChunk = new Int32Array(0);
    this.#slotItem = new Int32Array(0);
    this.#slotPart = new Uint8Array(0);
    this.#used = 0;
    this.#free.length = 0;
    this.#byKey.clear();
  }

  search(query: Float32Array, k: number, filter: VectorFilter = {}): VectorMatch[] {
    const dims = this.#dims;
    if (dims === undefined || k <= 0 || this.#live === 0) return [];
    if (query.length !== dims) throw new Error(`vectors: the query has ${query.length} dimensions, the store ${dims}`);
    const q = normalised(query);
    const data = this.#data;
    const slotChunk = this.#slotChunk;
    const slotPart = this.#slotPart;
    const part = filter.part === undefined ? -1 : PART_CODE[filter.part];
    const accept = filter.accept;
    const top = new TopK(Math.floor(k));
    const tail = dims - (dims % 4);
    const consider = (slot: number): void => {
      const chunkId = slotChunk[slot]!;
      if (chunkId === FREE || (part >= 0 && slotPart[slot] !== part)) return;
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
      if (accept && !accept(chunkId, this.#ordinals[this.#slotItem[slot]!]!)) return;
      top.add(dot, chunkId, slot);
    };
    if (filter.itemIds !== undefined) {
      for (const id of new Set(filter.itemIds)) {
        const rec = this.#items.get(id);
        if (rec) for (const slot of rec.slots) consider(slot);
      }
    } else {
      for (let slot = 0; slot < this.#used; slot++) consider(slot);
    }
    return top.sorted().map(({ score, chunkId, slot }) => ({ chunkId, itemId: this.#ordinals[this.#slotItem[slot]!]!, score }));
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
  }

  #release(rec: ItemRecord): void {
    rec.slots.forEach((slot, i) => {
      this.#slotChunk[slot] = FREE;
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
    if (this.#used === this.#slotChunk.length) this.#grow(Math.max(1024, this.#slotChunk.length * 2));
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
