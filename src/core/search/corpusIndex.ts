/**
 * The search index of a corpus: BM25 ({@link PostingsIndex}) over chunks of
 * transcripts and over comments, with filters, persisted under
 * `<corpus>/.marker-research/index/` (`manifest.json`: the items' content
 * hashes and the checksums pairing the other files; `postings.bin`: the
 * postings; `chunks.bin`: the chunks as columns and where each one's text is;
 * `chunks.txt`: the chunks' texts) and updated incrementally by item content
 * hash. A build holds one item's parsed text at a time (the chunk texts go to
 * a spool file past a few megabytes), and a save streams every file.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from '../storage/storageDir';
import type { Corpus, CorpusItem, PartKind } from '../corpus/types';
import { writeFileAtomic } from '../storage/atomic';
import { checkStateDir, readStateFile } from '../storage/safePath';
import { throwIfAborted, type ProgressSink } from '../util/abort';
import { chunkText, DEFAULT_CHUNK_OPTIONS, type Chunk, type ChunkOptions } from './chunker';
import { decodeSections, encodeSections, section } from './binarySections';
import { ChunkTable, type ChunkNumber, type ChunkSpan } from './chunkRows';
import { ChunkTexts, type ChunkTextsRecord } from './chunkTexts';
import { PostingsIndex, type PostingsOptions, type QueryTerm } from './postings';
import { NumberedTerms, prepareItem, type PreparedItem } from './itemPrep';
import { TokenNumbering, tokenizeQuery } from './tokenize';

/** Bumped whenever tokenisation, chunking or the stored format changes. */
export const INDEX_FORMAT_VERSION = 10;

export interface IndexOptions {
  chunk: ChunkOptions;
  /** BM25+ parameters of the postings index. */
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

interface Manifest {
  version: number;
  optionsKey: string;
  nextId: number;
  /** The checksum in the header of the postings file saved with this manifest: a manifest is only ever read with its own postings. */
  postings: string;
  /** The checksum of the chunks file saved with this manifest (the chunks, and where their texts are in the texts file). */
  chunks: string;
  /** Content hash per item (an item's chunks are those of its id in the chunks file, in id order). */
  items: Record<string, string>;
}

/** What the chunks file's header keeps beside the columns: the texts file's token. */
interface ChunksFileMeta {
  rows: unknown;
  textsToken: string | null;
}

export interface OpenReport {
  mode: 'built' | 'loaded' | 'updated';
  /** Items (re)indexed in this open. */
  reindexed: string[];
  removed: string[];
  ms: number;
}

/**
 * The fields of a chunk: its text, its item's title (with the item id's
 * words), its speakers. The title and speakers count a little under a third of the text.
 */
const FIELDS = ['text', 'title', 'speaker'] as const;
const FIELD = { text: 0, title: 1, speaker: 2 } as const;

function ownNumbering(): { numbering: TokenNumbering; terms: NumberedTerms } {
  const numbering = new TokenNumbering();
  return { numbering, terms: new NumberedTerms(numbering.names) };
}

function postingsOptions(opts: IndexOptions): PostingsOptions {
  return { fields: FIELDS, boosts: [1, 0.3, 0.3], bm25: opts.bm25 };
}

function optionsKey(opts: IndexOptions): string {
  return createHash('sha256').update(JSON.stringify({ v: INDEX_FORMAT_VERSION, chunk: opts.chunk })).digest('hex').slice(0, 16);
}

/** A function that yields to the event loop (setImmediate) once at least `sliceMs` passed since the last turn. */
function yielder(sliceMs = 20): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (Date.now() - last < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = Date.now();
  };
}

/** Where the index of the corpus at `root` lives. */
export function indexDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'index');
}

/** The postings file (see {@link PostingsIndex.serialize}). */
const POSTINGS_FILE = 'postings.bin';
/** The chunks' texts (see {@link ChunkTexts}). */
const TEXTS_FILE = 'chunks.txt';
/** The chunks as columns and where their texts are (see chunkRows.ts). */
const CHUNKS_FILE = 'chunks.bin';
const CHUNKS_MAGIC = 'marker-research-chunks';
/** Index files of earlier formats, removed on save: MiniSearch's JSON lines (format 5) and single JSON (format 4 and before). */
const OLD_FILES = ['minisearch.jsonl', 'minisearch.json'];

export class CorpusIndex {
  private readonly postings: PostingsIndex;
  /** The chunks as columns (a Chunk is made when asked for). */
  private chunks = new ChunkTable();
  private readonly byItem = new Map<string, { hash: string; ids: number[] }>();
  private readonly itemMap = new Map<string, CorpusItem>();
  /** Results of recent weighted searches (cleared whenever the index changes). */
  private readonly recent = new Map<string, SearchHit[]>();
  private readonly texts = new ChunkTexts();
  private nextId = 0;
  /** The numbering of the tokens of items prepared here, made on first use (a loaded index adds nothing, mostly). */
  private own: { numbering: TokenNumbering; terms: NumberedTerms } | undefined;
  /** The term numbers of the chunk being added. */
  private termScratch = new Int32Array(1024);

  private constructor(readonly options: IndexOptions, postings?: PostingsIndex) {
    this.postings = postings ?? new PostingsIndex(postingsOptions(options));
  }

  /** Lets the chunk texts of items indexed from now on go to a spool file in the index folder of `root` past a few megabytes. */
  private async spoolIn(root: string): Promise<void> {
    this.texts.spoolIn(await checkStateDir(indexDir(root), { create: true }));
  }

  /** Builds an index of every item of `corpus` in memory. */
  static build(corpus: Corpus, options: IndexOptions = DEFAULT_INDEX_OPTIONS, signal?: AbortSignal, onProgress?: ProgressSink): CorpusIndex {
    const index = new CorpusIndex(options);
    for (const _ of index.addSteps(corpus, signal, onProgress));
    return index;
  }

  /** Indexes every item of `corpus`, one step per item, then seals the postings (compact and fastest to search: a build leaves a large delta). */
  private *addSteps(corpus: Corpus, signal?: AbortSignal, onProgress?: ProgressSink): Generator<void> {
    for (const [i, item] of corpus.items.entries()) {
      throwIfAborted(signal);
      this.addItem(item);
      onProgress?.({ done: i + 1, total: corpus.items.length, message: item.id });
      yield;
    }
    this.postings.seal();
  }

  /**
   * Opens the persisted index of `corpus` (building it when missing or
   * stale), re-indexes only the items whose content hash changed, and saves.
   */
  static async open(corpus: Corpus, options: IndexOptions = DEFAULT_INDEX_OPTIONS, signal?: AbortSignal, onProgress?: ProgressSink): Promise<{ index: CorpusIndex; report: OpenReport }> {
    const started = Date.now();
    const loaded = await CorpusIndex.load(corpus.root, options).catch(() => undefined);
    if (!loaded) {
      const index = new CorpusIndex(options);
      await index.spoolIn(corpus.root);
      const turn = yielder();
      for (const _ of index.addSteps(corpus, signal, onProgress)) await turn();
      await index.save(corpus.root);
      return { index, report: { mode: 'built', reindexed: corpus.items.map((i) => i.id), removed: [], ms: Date.now() - started } };
    }
    await loaded.spoolIn(corpus.root);
    const { reindexed, removed } = await loaded.updateYielding(corpus, signal, onProgress);
    if (reindexed.length || removed.length) await loaded.save(corpus.root);
    return { index: loaded, report: { mode: reindexed.length || removed.length ? 'updated' : 'loaded', reindexed, removed, ms: Date.now() - started } };
  }

  /**
   * Loads a persisted index; undefined when none is there, it was made with
   * other options or an older format, or its files are damaged, truncated or
   * not saved together. Other errors (an unsafe state path) are thrown.
   */
  static async load(root: string, options: IndexOptions = DEFAULT_INDEX_OPTIONS): Promise<CorpusIndex | undefined> {
    const dir = indexDir(root);
    const read = async <T>(file: string, parse: (bytes: Buffer) => T): Promise<T | undefined> => {
      let bytes: Buffer;
      try {
        bytes = await readStateFile(path.join(dir, file));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      try {
        return parse(bytes);
      } catch {
        return undefined;
      }
    };
    const manifest = await read('manifest.json', (b) => JSON.parse(b.toString('utf8')) as Manifest);
    if (manifest?.version !== INDEX_FORMAT_VERSION || manifest.optionsKey !== optionsKey(options) || typeof manifest.postings !== 'string') return undefined;
    if (typeof manifest.chunks !== 'string' || manifest.items === null || typeof manifest.items !== 'object') return undefined;
    const postings = await read(POSTINGS_FILE, (b) => PostingsIndex.fromBytes(b, postingsOptions(options), manifest.postings));
    if (!postings) return undefined;
    const rows = await read(CHUNKS_FILE, (b) => {
      const { meta, sections } = decodeSections(b, CHUNKS_MAGIC, manifest.chunks);
      const m = meta as ChunksFileMeta;
      const chunks = ChunkTable.fromColumns(m.rows, sections);
      const texts: ChunkTextsRecord | undefined =
        typeof m.textsToken === 'string'
          ? { token: m.textsToken, ids: section(sections, 'textIds', Int32Array), offsets: section(sections, 'textOffsets', Float64Array), lengths: section(sections, 'textLengths', Uint32Array) }
          : undefined;
      return { chunks, texts };
    });
    if (!rows) return undefined;
    const index = new CorpusIndex(options, postings);
    index.nextId = manifest.nextId;
    for (const [id, hash] of Object.entries(manifest.items)) {
      if (typeof hash !== 'string') return undefined; // a manifest of the right version but the wrong shape
      index.byItem.set(id, { hash, ids: [] });
    }
    // The checksums pair the files; this guards against a manifest that was wrong when written.
    if (!Number.isSafeInteger(index.nextId) || rows.chunks.size !== postings.documentCount) return undefined;
    // Ids ascending and each once (checked by the table): each item's ids come in order.
    for (const id of rows.chunks.liveIds()) {
      const item = index.byItem.get(rows.chunks.itemOf(id)!);
      if (!item || !postings.has(id) || id >= index.nextId) return undefined;
      item.ids.push(id);
    }
    index.chunks = rows.chunks;
    // The texts are a convenience: without them (missing, or not saved with this manifest) hits parse their items.
    index.texts.attach(path.join(dir, TEXTS_FILE), rows.texts);
    return index;
  }

  /** Writes the index atomically under `<root>/.marker-research/index/`. */
  async save(root: string): Promise<void> {
    const dir = indexDir(root);
    const { parts, checksum } = this.postings.serialize();
    // The chunks as they are now (ids ascending: the order they were added in); the texts file is written for these.
    const columns = this.chunks.columns();
    // A text not kept (an index loaded without its texts file) is taken from its item when the index has it: the file is whole again.
    const texts = this.texts.serialize(columns.sections['ids']!, (id) => this.chunkTextOf(id));
    // The postings, the texts and the chunks first: a manifest names the files saved with it, so a save cut off before it is seen at the next load.
    await writeFileAtomic(path.join(dir, POSTINGS_FILE), parts);
    await writeFileAtomic(path.join(dir, TEXTS_FILE), texts.parts);
    const record = texts.record();
    const meta: ChunksFileMeta = { rows: columns.meta, textsToken: record.token };
    const rows = encodeSections(CHUNKS_MAGIC, meta, { ...columns.sections, textIds: record.ids, textOffsets: record.offsets, textLengths: record.lengths });
    await writeFileAtomic(path.join(dir, CHUNKS_FILE), rows.parts);
    const manifest: Manifest = {
      version: INDEX_FORMAT_VERSION,
      optionsKey: optionsKey(this.options),
      nextId: this.nextId,
      postings: checksum,
      chunks: rows.checksum,
      items: Object.fromEntries([...this.byItem].map(([id, v]) => [id, v.hash])),
    };
    await writeFileAtomic(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    this.texts.markSaved(path.join(dir, TEXTS_FILE), record);
    for (const old of OLD_FILES) await rm(path.join(dir, old), { force: true });
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
    // No seal here: a seal rewrites every posting (~70 ms on 10 M words), the postings seal by themselves
    // once the changes are large, and a save seals. Until then a few re-indexed items cost searches little.
    return { reindexed, removed };
  }

  private addItem(item: CorpusItem): void {
    const own = (this.own ??= ownNumbering());
    this.addPrepared(item, prepareItem(item, this.options.chunk, own.numbering), own.terms);
  }

  /**
   * Brings one item in line: indexed (again, when its content hash changed;
   * from `prepared` when given: what {@link prepareItem} made of it, its
   * token numbers read by `prepared.terms`), or only taken as the index's
   * item when unchanged. A caller that gives the items in the corpus's order
   * gets the index {@link update} gives.
   */
  updateItem(item: CorpusItem, prepared?: { item: PreparedItem; terms: NumberedTerms }): void {
    this.itemMap.set(item.id, item);
    const known = this.byItem.get(item.id);
    if (known?.hash === item.contentHash) return;
    if (known) this.removeItem(item.id);
    if (prepared && prepared.item.itemId === item.id && prepared.item.contentHash === item.contentHash) this.addPrepared(item, prepared.item, prepared.terms);
    else this.addItem(item);
  }

  private addPrepared(item: CorpusItem, p: PreparedItem, terms: NumberedTerms): void {
    this.recent.clear();
    this.itemMap.set(item.id, item);
    const ids: number[] = [];
    const titleEnd = p.tokenEnds[0]!;
    const starts = new Int32Array(4);
    let textAt = 0;
    let tokenAt = titleEnd;
    for (const [i, c] of p.chunks.entries()) {
      const id = this.nextId++;
      // The table copies the chunk's strings (a speaker label cut from an item's file can be a slice keeping the whole file alive).
      this.chunks.add(id, c);
      ids.push(id);
      this.texts.setBytes(id, p.textBytes.subarray(textAt, p.textEnds[i]!));
      textAt = p.textEnds[i]!;
      // Fields text, title, speaker: the chunk's text tokens, the item's title tokens, the chunk's speakers' tokens.
      const textEnd = p.tokenEnds[1 + 2 * i]!;
      const speakersEnd = p.tokenEnds[2 + 2 * i]!;
      const need = speakersEnd - tokenAt + titleEnd;
      if (this.termScratch.length < need) this.termScratch = new Int32Array(Math.max(need, this.termScratch.length * 2));
      const out = this.termScratch;
      starts[1] = terms.map(this.postings, p.tokens, tokenAt, textEnd, out, 0);
      starts[2] = terms.map(this.postings, p.tokens, 0, titleEnd, out, starts[1]);
      starts[3] = terms.map(this.postings, p.tokens, textEnd, speakersEnd, out, starts[2]);
      this.postings.addTerms(id, out, starts);
      tokenAt = speakersEnd;
    }
    this.byItem.set(item.id, { hash: item.contentHash, ids });
  }

  private removeItem(itemId: string): void {
    this.recent.clear();
    const known = this.byItem.get(itemId);
    if (!known) return;
    for (const id of known.ids) this.postings.discard(id);
    for (const id of known.ids) this.chunks.delete(id);
    for (const id of known.ids) this.texts.delete(id);
    this.byItem.delete(itemId);
  }

  /** Lets go of the open texts file (it is opened again if a chunk's text is asked for later). */
  close(): void {
    this.texts.close();
  }

  /** Chunk texts added since the last save: bytes held in memory now and at most, and texts in the spool file. */
  get pendingTexts(): { bytes: number; peakBytes: number; spooled: number } {
    return { bytes: this.texts.pendingBytes, peakBytes: this.texts.peakPendingBytes, spooled: this.texts.spooledCount };
  }

  get size(): { items: number; chunks: number } {
    return { items: this.byItem.size, chunks: this.chunks.size };
  }

  chunk(id: number): Chunk | undefined {
    return this.chunks.get(id);
  }

  /** A number of chunk `id` (its words, likes, replies…), without making the chunk. */
  chunkNumber(id: number, key: ChunkNumber): number | undefined {
    return this.chunks.number(id, key);
  }

  /** The item chunk `id` belongs to, without making the chunk. */
  chunkItemId(id: number): string | undefined {
    return this.chunks.itemOf(id);
  }

  /** Where chunk `id` is (part, offsets, times), without making the chunk. */
  chunkSpan(id: number): ChunkSpan | undefined {
    return this.chunks.span(id);
  }

  /**
   * The text of chunk `id` as the index kept it (read from the texts file, or
   * held since it was indexed), without its item; undefined when not kept.
   */
  storedChunkText(id: number): string | undefined {
    return this.chunks.has(id) ? this.texts.get(id) : undefined;
  }

  /**
   * The text of chunk `id`: as the index kept it, else from its item (which
   * may parse the item's files again); undefined when the index has neither.
   */
  chunkTextOf(id: number): string | undefined {
    const stored = this.storedChunkText(id);
    if (stored !== undefined) return stored;
    const c = this.chunks.get(id);
    const item = c && this.itemMap.get(c.itemId);
    return item && c ? chunkText(item, c) : undefined;
  }

  /** Chunk ids of an item, in order (transcript windows, then comments). */
  itemChunkIds(itemId: string): readonly number[] {
    return this.byItem.get(itemId)?.ids ?? [];
  }

  /** The item a chunk belongs to, when the index was opened or built with the corpus. */
  item(itemId: string): CorpusItem | undefined {
    return this.itemMap.get(itemId);
  }

  /** BM25 search over chunks with filters; best first (ties by chunk id). */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const queries = tokenizeQuery(query)
      .filter((term) => term)
      .map((term): QueryTerm => ({ term, boost: 1 }));
    return this.run(queries, options, options.k ?? 10);
  }

  /** Scores `queries` and keeps the `k` best chunks `filters` accept. */
  private run(queries: readonly QueryTerm[], filters: SearchFilters, k = Number.POSITIVE_INFINITY): SearchHit[] {
    const hits = this.postings.search(queries, this.chunks.matcher(filters), k);
    return hits.map((h) => ({ id: h.id, chunk: this.chunks.get(h.id)!, score: h.score, terms: h.terms }));
  }

  /**
   * Searches with already tokenised terms, each with its own weight (query
   * expansion). All scored matches, best first; with `k`, the first `k` of
   * them (the same hits and scores, found without sorting them all).
   */
  searchWeighted(weights: ReadonlyMap<string, number>, filters: SearchFilters = {}, k = Number.POSITIVE_INFINITY): SearchHit[] {
    // Several strategies of one question run the same weighted search: the last few results are kept.
    const key = JSON.stringify([[...weights], filters, k === Number.POSITIVE_INFINITY ? null : k]);
    const cached = this.recent.get(key);
    if (cached) return cached;
    const hits = this.searchWeightedUncached(weights, filters, k);
    this.recent.set(key, hits);
    if (this.recent.size > RECENT_SEARCHES) this.recent.delete(this.recent.keys().next().value!);
    return hits;
  }

  private searchWeightedUncached(weights: ReadonlyMap<string, number>, filters: SearchFilters, k: number): SearchHit[] {
    const queries: QueryTerm[] = [];
    for (const [term, boost] of weights) if (term) queries.push({ term, boost });
    return this.run(queries, filters, k);
  }

  /** Chunks whose text contains `term` (a token), across the whole index. */
  documentFrequency(term: string): number {
    return this.postings.documentFrequency(term, FIELD.text);
  }

  /** Chunks whose text, title or speakers contain `term`, the largest of the three (what a search for it costs). */
  matchFrequency(term: string): number {
    return Math.max(this.postings.documentFrequency(term, FIELD.text), this.postings.documentFrequency(term, FIELD.title), this.postings.documentFrequency(term, FIELD.speaker));
  }

  get documentCount(): number {
    return this.postings.documentCount;
  }

  /** All scored matches (no cut), for retrieval that re-ranks. */
  searchAll(query: string, filters: SearchFilters = {}): SearchHit[] {
    return this.search(query, { ...filters, k: Number.POSITIVE_INFINITY });
  }
}
