/**
 * The vector store's approximate index (issue 25): which items' vectors are in the {@link AnnIndex}
 * under which keys, bringing it up to date item by item as windows change, and keeping it beside
 * the vectors (`<vectors>/ann/ann.json` + one `.usearch` file) so a warm start loads it instead of
 * building it again.
 *
 * Keys are handed out per item in one run (`first … first + count - 1` for the item's vectors in
 * order) and never reused while the index holds them; a changed or removed item's keys leave the
 * index at once, its new vectors wait ("pending") until {@link VectorAnn.catchUp} adds them — the
 * store scans pending vectors exactly, so a search never misses a window because the index lags.
 * On open, an item whose text keys differ from what the index was built with is pending again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../storage/atomic';
import { checkStateDir, checkStatePath, readStateDir, readStateFile } from '../storage/safePath';
import { throwIfAborted, type ProgressSink } from '../util/abort';
import { AnnIndex, ANN_PARAMS } from './annIndex';

/** Bumped whenever the stored ANN format or its parameters change (older indexes are rebuilt). */
const ANN_FORMAT_VERSION = 1;
export const ANN_DIR = 'ann';
const ANN_MANIFEST = 'ann.json';
const INDEX_EXT = '.usearch';
/**
 * A catch-up adds vectors in steps with the event loop running in between (a search, a question's
 * other work). A step is sized to take about {@link STEP_MS} ms: one `add` of usearch runs
 * synchronously, and its cost per vector grows with the dimensions and the index
 * (bench/vectorScale.ts, 1 M × 768, 2 threads on a busy 2-core machine: 155 vectors/s at 50k
 * indexed, so a fixed 2,048 would hold the loop ~13 s). The first step is {@link FIRST_STEP}
 * vectors; each next one is scaled by how long the last took (at most doubled), between
 * {@link MIN_STEP} and {@link MAX_STEP}.
 */
const STEP_MS = 50;
const FIRST_STEP = 64;
const MIN_STEP = 8;
const MAX_STEP = 2048;

const annManifestSchema = z.object({
  version: z.literal(ANN_FORMAT_VERSION),
  params: z.object({ connectivity: z.number(), expansionAdd: z.number(), expansionSearch: z.number(), quantization: z.string() }),
  dims: z.number().int().positive(),
  file: z.string().regex(/^[0-9a-f]{16}\.usearch$/),
  size: z.number().int().nonnegative(),
  nextKey: z.number().int().nonnegative(),
  /** Item id → [first key, vectors, hash of its text keys]. */
  items: z.record(z.string(), z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative(), z.string()])),
});

/** What the ANN needs of its store. */
export interface AnnHost {
  dimensions(): number | undefined;
  /** Every vector, slot after slot (asked again each time: the array is replaced as it grows). */
  vectorData(): Float32Array;
  /** The slots and text keys of an item's vectors, in order; undefined for an item without vectors. */
  itemVectors(itemId: string): { slots: readonly number[]; keys: readonly string[] } | undefined;
  itemIds(): string[];
}

interface IndexedItem {
  first: number;
  count: number;
  keysHash: string;
}

/** The hash an item's vectors are recognised by: same text keys in the same order, same vectors. */
function keysHash(keys: readonly string[]): string {
  return createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16);
}

/** The ANN state of one {@link FlatVectorStore}. */
export class VectorAnn {
  readonly #host: AnnHost;
  #index: AnnIndex;
  readonly #indexed = new Map<string, IndexedItem>();
  readonly #keySlot = new Map<number, number>();
  /** Items with vectors that are not in the index yet. */
  readonly #pending = new Set<string>();
  /**
   * A pending item whose first `added` vectors are in the index under keys `first …` (a catch-up
   * adds a large item over several steps); its keys map to no slot until all are in.
   */
  #partial: { itemId: string; first: number; slots: readonly number[]; keys: readonly string[]; added: number } | undefined;
  /** Vectors of each pending item when it became pending. */
  readonly #pendingCount = new Map<string, number>();
  #pendingVectors = 0;
  #nextKey = 0;
  /** Keys added or removed since the index was last written (or read). */
  #unsaved = 0;
  #savedFile: string | undefined;
  /** The store let go of this index: a running catch-up stops. */
  #disposed = false;

  private constructor(host: AnnHost, index: AnnIndex) {
    this.#host = host;
    this.#index = index;
  }

  /**
   * An empty index for the store's vectors: every item is pending.
   * @throws Error when the addon is unavailable.
   */
  static create(host: AnnHost, dims: number): VectorAnn {
    const ann = new VectorAnn(host, AnnIndex.create(dims));
    for (const id of host.itemIds()) ann.#markPending(id);
    ann.#unsaved = 1;
    return ann;
  }

  /**
   * The index saved under `vectorsDir`, matched against the store: items whose vectors changed
   * since are pending. Undefined when there is none; a string when it is unusable (it is rebuilt).
   */
  static async open(vectorsDir: string, host: AnnHost): Promise<VectorAnn | string | undefined> {
    const dims = host.dimensions();
    if (dims === undefined) return undefined;
    const dir = path.join(vectorsDir, ANN_DIR);
    let text: string;
    try {
      text = await readStateFile(path.join(dir, ANN_MANIFEST), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return `ANN manifest unreadable (${(error as Error).message})`;
    }
    let manifest: z.infer<typeof annManifestSchema>;
    try {
      const parsed = annManifestSchema.safeParse(JSON.parse(text));
      if (!parsed.success) return 'ANN manifest is invalid or of an older format';
      manifest = parsed.data;
    } catch {
      return 'ANN manifest is not JSON';
    }
    if (manifest.dims !== dims || JSON.stringify(manifest.params) !== JSON.stringify(ANN_PARAMS)) return 'ANN index was built for other dimensions or parameters';
    let index: AnnIndex;
    try {
      // Checked as a state file: never read through a link.
      const file = await checkStatePath(path.join(dir, manifest.file));
      if (!file.exists) return 'ANN index file is missing';
      index = AnnIndex.load(file.real, dims);
    } catch (error) {
      return `ANN index unreadable (${(error as Error).message})`;
    }
    if (index.size !== manifest.size) return `ANN index holds ${index.size} vectors, its manifest ${manifest.size}`;
    const ann = new VectorAnn(host, index);
    ann.#nextKey = manifest.nextKey;
    ann.#savedFile = manifest.file;
    const stale: number[] = [];
    for (const [itemId, [first, count, hash]] of Object.entries(manifest.items)) {
      const v = host.itemVectors(itemId);
      if (v && v.slots.length === count && keysHash(v.keys) === hash) {
        ann.#indexed.set(itemId, { first, count, keysHash: hash });
        v.slots.forEach((slot, i) => ann.#keySlot.set(first + i, slot));
      } else {
        for (let i = 0; i < count; i++) stale.push(first + i);
      }
    }
    ann.#index.remove(stale);
    ann.#unsaved += stale.length;
    for (const id of host.itemIds()) if (!ann.#indexed.has(id)) ann.#markPending(id);
    return ann;
  }

  /** Vectors in the index. */
  get size(): number {
    return this.#keySlot.size;
  }

  /** Vectors of items waiting to be added. */
  get pendingVectors(): number {
    return this.#pendingVectors;
  }

  /** Items waiting to be added (the store scans their vectors exactly). */
  pendingItems(): ReadonlySet<string> {
    return this.#pending;
  }

  /** Key and index changes not yet written by {@link save}. */
  get unsavedChanges(): number {
    return this.#unsaved;
  }

  /** Call after the store replaced or dropped the vectors of `itemId`: its old keys leave the index, its new vectors are pending. */
  itemChanged(itemId: string): void {
    const old = this.#indexed.get(itemId);
    if (old) {
      const keys = Array.from({ length: old.count }, (_, i) => old.first + i);
      this.#index.remove(keys);
      for (const key of keys) this.#keySlot.delete(key);
      this.#indexed.delete(itemId);
      this.#unsaved += old.count;
    }
    if (this.#partial?.itemId === itemId) this.#dropPartial();
    this.#unpend(itemId);
    this.#markPending(itemId);
  }

  #markPending(itemId: string): void {
    const n = this.#host.itemVectors(itemId)?.slots.length ?? 0;
    if (n === 0) return;
    this.#pending.add(itemId);
    this.#pendingCount.set(itemId, n);
    this.#pendingVectors += n;
  }

  /** The slots of (about) the `k` indexed vectors nearest to the unit vector `query`. */
  search(query: Float32Array, k: number): number[] {
    const slots: number[] = [];
    for (const key of this.#index.search(query, k)) {
      const slot = this.#keySlot.get(key);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  /**
   * Adds the pending items' vectors in steps of about {@link STEP_MS} ms with the event loop
   * running in between (searches meanwhile scan what is still pending exactly). An item larger
   * than a step is added over several steps and stays pending — scanned, its keys not mapped to
   * slots — until all of its vectors are in. Items that become pending during the catch-up are
   * added too; progress counts vectors added of those added plus still pending.
   * @throws CancelledError when `signal` aborts (what was added stays).
   */
  async catchUp(options: { signal?: AbortSignal; onProgress?: ProgressSink; threads?: number } = {}): Promise<number> {
    let added = 0;
    let step = FIRST_STEP;
    const dims = this.#index.dims;
    while (this.#pending.size > 0 && !this.#disposed) {
      throwIfAborted(options.signal);
      const keys: number[] = [];
      const slots: number[] = [];
      /** Items all of whose vectors are in once this step's are added. */
      const completed: { itemId: string; first: number; slots: readonly number[]; keys: readonly string[] }[] = [];
      const take = (first: number, itemSlots: readonly number[], from: number, to: number): void => {
        for (let i = from; i < to; i++) {
          keys.push(first + i);
          slots.push(itemSlots[i]!);
        }
      };
      // First the rest of an item begun in an earlier step, then whole pending items, then a part of one.
      const partial = this.#partial;
      if (partial !== undefined) {
        const to = Math.min(partial.slots.length, partial.added + step);
        take(partial.first, partial.slots, partial.added, to);
        partial.added = to;
        if (to === partial.slots.length) {
          completed.push(partial);
          this.#partial = undefined;
        }
      }
      for (const itemId of this.#pending) {
        if (keys.length >= step) break;
        if (itemId === partial?.itemId) continue;
        const v = this.#host.itemVectors(itemId);
        if (!v || v.slots.length === 0) {
          this.#unpend(itemId);
          continue;
        }
        const first = this.#nextKey;
        this.#nextKey += v.slots.length;
        const room = step - keys.length;
        if (v.slots.length <= room) {
          take(first, v.slots, 0, v.slots.length);
          completed.push({ itemId, first, slots: v.slots, keys: v.keys });
        } else {
          // The arrays are the store's record of the item: an upsert makes new ones and calls itemChanged.
          this.#partial = { itemId, first, slots: v.slots, keys: v.keys, added: room };
          take(first, v.slots, 0, room);
        }
      }
      // Asked again each step: the store's array is replaced as it grows.
      const all = this.#host.vectorData();
      const matrix = new Float32Array(slots.length * dims);
      slots.forEach((slot, i) => matrix.set(all.subarray(slot * dims, (slot + 1) * dims), i * dims));
      const started = performance.now();
      this.#index.add(keys, matrix, options.threads ?? 1);
      const ms = performance.now() - started;
      for (const c of completed) {
        this.#unpend(c.itemId);
        this.#indexed.set(c.itemId, { first: c.first, count: c.slots.length, keysHash: keysHash(c.keys) });
        c.slots.forEach((slot, i) => this.#keySlot.set(c.first + i, slot));
      }
      this.#unsaved += keys.length;
      added += keys.length;
      // The next step from how long this one took: at most twice as many, never below MIN_STEP.
      step = Math.round(Math.min(MAX_STEP, step * 2, Math.max(MIN_STEP, (keys.length * STEP_MS) / Math.max(ms, 1))));
      options.onProgress?.({ done: added, total: added + this.#pendingVectors - (this.#partial?.added ?? 0), message: 'vector index' });
      await yieldToLoop();
    }
    return added;
  }

  /** `itemId` is no longer pending. */
  #unpend(itemId: string): void {
    if (this.#pending.delete(itemId)) this.#pendingVectors -= this.#pendingCount.get(itemId) ?? 0;
    this.#pendingCount.delete(itemId);
  }

  /** Takes the vectors added so far of a partly added item out of the index again (it stays pending). */
  #dropPartial(): void {
    const partial = this.#partial;
    if (partial === undefined) return;
    this.#index.remove(Array.from({ length: partial.added }, (_, i) => partial.first + i));
    this.#unsaved += partial.added;
    this.#partial = undefined;
  }

  /** The store no longer uses this index (cleared, or it failed). */
  dispose(): void {
    this.#disposed = true;
  }

  /** Writes the index (a new file) and then its manifest under `vectorsDir`; older index files go. */
  async save(vectorsDir: string): Promise<void> {
    // The manifest names whole items only: a partly added item's vectors leave (it stays pending).
    this.#dropPartial();
    const dir = await checkStateDir(path.join(vectorsDir, ANN_DIR), { create: true });
    const file = `${randomBytes(8).toString('hex')}${INDEX_EXT}`;
    const snapshotItems = Object.fromEntries([...this.#indexed].map(([id, r]) => [id, [r.first, r.count, r.keysHash] as [number, number, string]]));
    const manifest: z.infer<typeof annManifestSchema> = { version: ANN_FORMAT_VERSION, params: { ...ANN_PARAMS }, dims: this.#index.dims, file, size: this.#index.size, nextKey: this.#nextKey, items: snapshotItems };
    await this.#index.save(path.join(dir, file));
    await writeFileAtomic(path.join(dir, ANN_MANIFEST), `${JSON.stringify(manifest)}\n`);
    this.#savedFile = file;
    this.#unsaved = 0;
    for (const f of await readStateDir(dir)) if (f.endsWith(INDEX_EXT) && f !== file) await rm(path.join(dir, f), { force: true });
  }

  /** Deletes the saved index under `vectorsDir` (the store was cleared or shrank below the ANN's size). */
  static async remove(vectorsDir: string): Promise<void> {
    await rm(path.join(vectorsDir, ANN_DIR), { recursive: true, force: true });
  }

  /** Whether a save has ever been written (or read) for this index. */
  get saved(): boolean {
    return this.#savedFile !== undefined;
  }
}
