/**
 * The chunks of a search index as columns of typed arrays ({@link ChunkTable}),
 * the form the index keeps them in, in memory and on disk (`chunks.bin`, see
 * binarySections.ts): per chunk its id, item (an index into one list of item
 * ids), part, the integer positions, the times and counts, the place in its
 * file, and its strings (speakers, comment ids, dates) as indexes into one
 * string table, kept as one UTF-8 block with offsets. A loaded table is views
 * of the file's bytes: opening one costs a few checking loops over the
 * columns, not an object per chunk (on 100 M words, ~1.3 M chunks, making
 * every chunk took ~9 s and parsing the string table as JSON ~2.5 s). A
 * {@link Chunk} is made when asked for ({@link ChunkTable.get}), and search
 * filters read the columns ({@link ChunkTable.matcher}).
 */
import type { Chunk } from './chunker';
import { section, SectionsFormatError, type SectionArray } from './binarySections';

/** Integer properties every chunk has, in column order (unsigned 32-bit). */
const INTS = ['seq', 'start', 'end', 'firstIndex', 'lastIndex', 'words'] as const satisfies readonly (keyof Chunk)[];
/** Optional number properties (64-bit floats). */
const FLOATS = ['startTime', 'endTime', 'likes', 'replyCount'] as const satisfies readonly (keyof Chunk)[];
/** Optional string properties (string-table indexes). */
const STRINGS = ['commentId', 'parentId', 'publishedAt'] as const satisfies readonly (keyof Chunk)[];
/** Presence bits: the floats, the strings, then speakers and range. */
const BIT_SPEAKERS = FLOATS.length + STRINGS.length;
const BIT_RANGE = BIT_SPEAKERS + 1;
const I = INTS.length;
const FL = FLOATS.length;
const S = STRINGS.length;
const FLOAT = { startTime: 0, endTime: 1, likes: 2 } as const;
/** Fails to compile when Chunk gains a property the lists above do not name (it would be lost on save). */
const EVERY_PROPERTY_LISTED: Exclude<keyof Chunk, 'itemId' | 'part' | 'speakers' | 'range' | (typeof INTS)[number] | (typeof FLOATS)[number] | (typeof STRINGS)[number]> extends never ? true : never = true;
void EVERY_PROPERTY_LISTED;

const PARTS = ['transcript', 'comments'] as const;

/** Chunks made by {@link ChunkTable.get} kept for the next ask (a sort asks for the same chunks many times); dropped all at once past this. */
const MADE_KEPT = 50_000;

/** What the columns need beside them (JSON, in the file's header). */
/** Where a chunk is: its part, offsets in the part's text, and times (see {@link ChunkTable.span}). */
export type ChunkSpan = Pick<Chunk, 'part' | 'start' | 'end' | 'startTime' | 'endTime'>;

/** The numbers a chunk may have (see {@link ChunkTable.number}). */
export type ChunkNumber = (typeof INTS)[number] | (typeof FLOATS)[number];

/** Each number's column: its place among the integers, else among the floats (worked out once, not per read). */
const NUMBER_COLUMN = Object.fromEntries([...INTS.map((k, i) => [k, { ints: true, k: i }]), ...FLOATS.map((k, i) => [k, { ints: false, k: i }])]) as Record<ChunkNumber, { ints: boolean; k: number }>;

export interface ChunkRowsMeta {
  itemIds: string[];
}

/** Sections of the chunk columns, by name. */
export interface ChunkColumns {
  meta: ChunkRowsMeta;
  sections: Record<string, SectionArray>;
}

/** The filters {@link ChunkTable.matcher} reads (CorpusIndex's SearchFilters). */
export interface ChunkFilters {
  itemIds?: readonly string[];
  part?: Chunk['part'];
  /** Seconds; a chunk matches when it overlaps the range. */
  timeRange?: [number, number];
  /** Case-insensitive substring of a speaker or comment author. */
  speaker?: string;
  minLikes?: number;
}

const isU32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

/** `a` in a new array of `length` elements (at least `a`'s). */
function grown<T extends SectionArray>(a: T, length: number): T {
  const next = new (a.constructor as new (n: number) => T)(length);
  next.set(a.subarray(0, Math.min(a.length, length)) as never);
  return next;
}

/**
 * Chunks by id as columns: rows in ascending id order (ids are given in
 * increasing order, as an index numbers its chunks), a removed row kept
 * until {@link columns} writes the live ones.
 */
export class ChunkTable {
  private rows = 0;
  private liveCount = 0;
  private ids: Int32Array = new Int32Array(1024);
  private items: Uint32Array = new Uint32Array(1024);
  private parts: Uint8Array = new Uint8Array(1024);
  private present: Uint16Array = new Uint16Array(1024);
  private ints: Uint32Array = new Uint32Array(1024 * I);
  private floats: Float64Array = new Float64Array(1024 * FL);
  private strs: Uint32Array = new Uint32Array(1024 * S);
  private ranges: Uint32Array = new Uint32Array(1024 * 4);
  private speakerAt: Uint32Array = new Uint32Array(1025);
  private speakers: Uint32Array = new Uint32Array(1024);
  /** Per row: 1 while the chunk is in the table. */
  private live: Uint8Array = new Uint8Array(1024);
  /** Per id: its row, or -1. */
  private rowOf: Int32Array = new Int32Array(1024).fill(-1);
  private readonly itemIds: string[] = [];
  private readonly itemIndex = new Map<string, number>();
  /** Strings read from a file: UTF-8 bytes and offsets (strings numbered below `loaded`). */
  private stringBytes: Uint8Array = new Uint8Array(0);
  private stringOffsets: Uint32Array = new Uint32Array(1);
  private loaded = 0;
  /** Strings of a loaded table decoded so far. */
  private decoded: (string | undefined)[] = [];
  /** Strings added since (numbered from `loaded` on), kept once each. */
  private readonly added: string[] = [];
  private readonly addedIndex = new Map<string, number>();
  private made = new Map<number, Chunk>();
  /** The columns are views of a file's bytes (copied before the first add). */
  private views = false;

  /** Chunks in the table. */
  get size(): number {
    return this.liveCount;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.rowOf.length && this.rowOf[id]! >= 0;
  }

  /** The item id of chunk `id`. */
  itemOf(id: number): string | undefined {
    const r = this.row(id);
    return r < 0 ? undefined : this.itemIds[this.items[r]!];
  }

  /** Live chunk ids, ascending. */
  liveIds(): number[] {
    const out: number[] = [];
    for (let r = 0; r < this.rows; r++) if (this.live[r]) out.push(this.ids[r]!);
    return out;
  }

  /** Where chunk `id` is — its part, offsets and times — without making the whole chunk (no speakers, no strings decoded). */
  span(id: number): ChunkSpan | undefined {
    const r = this.row(id);
    if (r < 0) return undefined;
    const { ints, floats } = this;
    const bits = this.present[r]!;
    const out: ChunkSpan = { part: PARTS[this.parts[r]!]!, start: ints[r * I + 1]!, end: ints[r * I + 2]! };
    if (bits & (1 << FLOAT.startTime)) out.startTime = floats[r * FL + FLOAT.startTime]!;
    if (bits & (1 << FLOAT.endTime)) out.endTime = floats[r * FL + FLOAT.endTime]!;
    return out;
  }

  /** A number of chunk `id` read from its column (undefined when the chunk has none), without making the chunk. */
  number(id: number, key: ChunkNumber): number | undefined {
    const r = this.row(id);
    if (r < 0) return undefined;
    const at = NUMBER_COLUMN[key];
    if (at.ints) return this.ints[r * I + at.k]!;
    return this.present[r]! & (1 << at.k) ? this.floats[r * FL + at.k]! : undefined;
  }

  /** Chunk `id` as an object (a new one, or one made shortly before: callers do not change it). */
  get(id: number): Chunk | undefined {
    const r = this.row(id);
    if (r < 0) return undefined;
    let chunk = this.made.get(id);
    if (chunk) return chunk;
    chunk = this.make(r);
    if (this.made.size >= MADE_KEPT) this.made = new Map();
    this.made.set(id, chunk);
    return chunk;
  }

  /**
   * Adds chunk `id` (its strings copied: a string cut from an item's file may be a slice keeping the whole file alive).
   * @throws when `id` is not above every id in the table, or the chunk has a value the columns cannot hold (a negative or fractional position).
   */
  add(id: number, c: Chunk): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff || (this.rows > 0 && id <= this.ids[this.rows - 1]!)) throw new Error(`chunk rows: id ${id} is not above the ids before it`);
    for (const key of INTS) if (!isU32(c[key])) throw new Error(`chunk rows: chunk ${id} has ${key} ${c[key]}, not a 32-bit unsigned integer`);
    if (c.range) for (const v of c.range) if (!isU32(v)) throw new Error(`chunk rows: chunk ${id} has a range value ${v}, not a 32-bit unsigned integer`);
    const r = this.rows;
    this.reserve(r + 1, c.speakers?.length ?? 0);
    this.ids[r] = id;
    let item = this.itemIndex.get(c.itemId);
    if (item === undefined) this.itemIndex.set(c.itemId, (item = this.itemIds.push(c.itemId) - 1));
    this.items[r] = item;
    this.parts[r] = c.part === 'comments' ? 1 : 0;
    for (let k = 0; k < I; k++) this.ints[r * I + k] = c[INTS[k]!];
    let bits = 0;
    for (let k = 0; k < FL; k++) {
      const v = c[FLOATS[k]!];
      this.floats[r * FL + k] = v ?? 0;
      if (v !== undefined) bits |= 1 << k;
    }
    for (let k = 0; k < S; k++) {
      const v = c[STRINGS[k]!];
      this.strs[r * S + k] = v === undefined ? 0 : this.intern(v);
      if (v !== undefined) bits |= 1 << (FL + k);
    }
    let at = this.speakerAt[r]!;
    if (c.speakers !== undefined) {
      bits |= 1 << BIT_SPEAKERS;
      for (const s of c.speakers) this.speakers[at++] = this.intern(s);
    }
    this.speakerAt[r + 1] = at;
    if (c.range !== undefined) {
      bits |= 1 << BIT_RANGE;
      this.ranges.set(c.range, r * 4);
    } else this.ranges.fill(0, r * 4, r * 4 + 4);
    this.present[r] = bits;
    this.live[r] = 1;
    if (id >= this.rowOf.length) this.rowOf = grownRowOf(this.rowOf, id);
    this.rowOf[id] = r;
    this.rows++;
    this.liveCount++;
  }

  /** Removes chunk `id` (nothing when absent). */
  delete(id: number): void {
    const r = this.row(id);
    if (r < 0) return;
    this.live[r] = 0;
    this.rowOf[id] = -1;
    this.made.delete(id);
    this.liveCount--;
  }

  /**
   * A predicate on chunk ids for `f`, reading the columns (undefined when `f`
   * filters nothing); a chunk not in the table never matches.
   */
  matcher(f: ChunkFilters): ((id: number) => boolean) | undefined {
    const speaker = f.speaker?.toLowerCase();
    if (!f.itemIds && !f.part && !f.timeRange && !speaker && f.minLikes === undefined) return undefined;
    let itemOk: Uint8Array | undefined;
    if (f.itemIds) {
      itemOk = new Uint8Array(this.itemIds.length);
      for (const id of f.itemIds) {
        const i = this.itemIndex.get(id);
        if (i !== undefined) itemOk[i] = 1;
      }
    }
    const part = f.part === undefined ? -1 : f.part === 'comments' ? 1 : 0;
    const speakerOk = new Map<number, boolean>();
    const { items, parts, present, floats, speakers, speakerAt } = this;
    return (id) => {
      const r = this.row(id);
      if (r < 0) return false;
      if (itemOk && !itemOk[items[r]!]) return false;
      if (part >= 0 && parts[r] !== part) return false;
      const bits = present[r]!;
      if (f.timeRange) {
        if (!(bits & (1 << FLOAT.startTime))) return false;
        const start = floats[r * FL + FLOAT.startTime]!;
        const end = bits & (1 << FLOAT.endTime) ? floats[r * FL + FLOAT.endTime]! : start;
        if (end < f.timeRange[0] || start > f.timeRange[1]) return false;
      }
      if (speaker) {
        if (!(bits & (1 << BIT_SPEAKERS))) return false;
        let any = false;
        for (let k = speakerAt[r]!; k < speakerAt[r + 1]! && !any; k++) {
          const s = speakers[k]!;
          let ok = speakerOk.get(s);
          if (ok === undefined) speakerOk.set(s, (ok = this.string(s).toLowerCase().includes(speaker)));
          any = ok;
        }
        if (!any) return false;
      }
      if (f.minLikes !== undefined && (bits & (1 << FLOAT.likes) ? floats[r * FL + FLOAT.likes]! : 0) < f.minLikes) return false;
      return true;
    };
  }

  /** The live chunks as columns (ids ascending), with only the strings they use. */
  columns(): ChunkColumns {
    const n = this.liveCount;
    const ids = new Int32Array(n);
    const items = new Uint32Array(n);
    const parts = new Uint8Array(n);
    const present = new Uint16Array(n);
    const ints = new Uint32Array(n * I);
    const floats = new Float64Array(n * FL);
    const strs = new Uint32Array(n * S);
    const ranges = new Uint32Array(n * 4);
    const speakerAt = new Uint32Array(n + 1);
    const speakerList: number[] = [];
    // Items and strings renumbered in order of first use by a live row.
    const itemMap = new Int32Array(this.itemIds.length).fill(-1);
    const itemIds: string[] = [];
    const stringMap = new Int32Array(this.loaded + this.added.length).fill(-1);
    const used: number[] = [];
    // Strings added after a load are kept once among themselves, not against the file's: the same text can have two numbers, one kept here.
    const byText = this.loaded > 0 && this.added.length > 0 ? new Map<string, number>() : undefined;
    const str = (s: number): number => {
      if (stringMap[s]! >= 0) return stringMap[s]!;
      if (!byText) return (stringMap[s] = used.push(s) - 1);
      const text = this.string(s);
      let i = byText.get(text);
      if (i === undefined) byText.set(text, (i = used.push(s) - 1));
      return (stringMap[s] = i);
    };
    let w = 0;
    for (let r = 0; r < this.rows; r++) {
      if (!this.live[r]) continue;
      ids[w] = this.ids[r]!;
      const item = this.items[r]!;
      if (itemMap[item]! < 0) itemMap[item] = itemIds.push(this.itemIds[item]!) - 1;
      items[w] = itemMap[item]!;
      parts[w] = this.parts[r]!;
      const bits = this.present[r]!;
      present[w] = bits;
      ints.set(this.ints.subarray(r * I, r * I + I), w * I);
      floats.set(this.floats.subarray(r * FL, r * FL + FL), w * FL);
      for (let k = 0; k < S; k++) strs[w * S + k] = bits & (1 << (FL + k)) ? str(this.strs[r * S + k]!) : 0;
      ranges.set(this.ranges.subarray(r * 4, r * 4 + 4), w * 4);
      for (let k = this.speakerAt[r]!; k < this.speakerAt[r + 1]!; k++) speakerList.push(str(this.speakers[k]!));
      speakerAt[w + 1] = speakerList.length;
      w++;
    }
    // The string table: loaded strings copied as bytes, added ones encoded.
    const encoder = new TextEncoder();
    const encodedAdded = new Map<number, Uint8Array>();
    let bytes = 0;
    for (const s of used) {
      if (s < this.loaded) bytes += this.stringOffsets[s + 1]! - this.stringOffsets[s]!;
      else {
        const e = encoder.encode(this.added[s - this.loaded]!);
        encodedAdded.set(s, e);
        bytes += e.length;
      }
    }
    const stringBytes = new Uint8Array(bytes);
    const stringOffsets = new Uint32Array(used.length + 1);
    let at = 0;
    for (const [i, s] of used.entries()) {
      const e = s < this.loaded ? this.stringBytes.subarray(this.stringOffsets[s]!, this.stringOffsets[s + 1]!) : encodedAdded.get(s)!;
      stringBytes.set(e, at);
      at += e.length;
      stringOffsets[i + 1] = at;
    }
    return {
      meta: { itemIds },
      sections: { ids, items, parts, present, ints, floats, strs, ranges, speakerAt, speakers: Uint32Array.from(speakerList), stringBytes, stringOffsets },
    };
  }

  /** Every live (id, chunk), ascending. */
  entries(): [number, Chunk][] {
    const out: [number, Chunk][] = [];
    for (let r = 0; r < this.rows; r++) if (this.live[r]) out.push([this.ids[r]!, this.make(r)]);
    return out;
  }

  /** A table of `chunks` (ids ascending). */
  static of(chunks: Iterable<readonly [number, Chunk]>): ChunkTable {
    const table = new ChunkTable();
    for (const [id, c] of chunks) table.add(id, c);
    return table;
  }

  /**
   * The table of columns {@link columns} made, as views of them (checked, not copied).
   * @throws SectionsFormatError when the columns are not what {@link columns} makes.
   */
  static fromColumns(meta: unknown, sections: Map<string, SectionArray>): ChunkTable {
    const m = meta as ChunkRowsMeta;
    if (m === null || typeof m !== 'object' || !Array.isArray(m.itemIds) || !m.itemIds.every((s) => typeof s === 'string')) throw new SectionsFormatError('chunk rows: not a chunk table');
    const ids = section(sections, 'ids', Int32Array);
    const n = ids.length;
    const t = new ChunkTable();
    t.ids = ids;
    t.items = section(sections, 'items', Uint32Array, n);
    t.parts = section(sections, 'parts', Uint8Array, n);
    t.present = section(sections, 'present', Uint16Array, n);
    t.ints = section(sections, 'ints', Uint32Array, n * I);
    t.floats = section(sections, 'floats', Float64Array, n * FL);
    t.strs = section(sections, 'strs', Uint32Array, n * S);
    t.ranges = section(sections, 'ranges', Uint32Array, n * 4);
    t.speakerAt = section(sections, 'speakerAt', Uint32Array, n + 1);
    t.speakers = section(sections, 'speakers', Uint32Array);
    t.stringBytes = section(sections, 'stringBytes', Uint8Array);
    t.stringOffsets = section(sections, 'stringOffsets', Uint32Array);
    const strings = t.stringOffsets.length - 1;
    if (strings < 0 || t.stringOffsets[0] !== 0 || t.stringOffsets[strings] !== t.stringBytes.length) throw new SectionsFormatError('chunk rows: string offsets do not span the strings');
    for (let s = 0; s < strings; s++) if (t.stringOffsets[s + 1]! < t.stringOffsets[s]!) throw new SectionsFormatError('chunk rows: string offsets decrease');
    if (t.speakerAt[0] !== 0 || t.speakerAt[n] !== t.speakers.length) throw new SectionsFormatError('chunk rows: speakers do not add up');
    for (const s of t.speakers) if (s >= strings) throw new SectionsFormatError('chunk rows: a speaker outside the string table');
    for (const s of t.strs) if (s >= strings) throw new SectionsFormatError('chunk rows: a string outside the string table');
    const itemCount = m.itemIds.length;
    let maxId = -1;
    for (let r = 0; r < n; r++) {
      const id = ids[r]!;
      if (id <= maxId || t.items[r]! >= itemCount || t.parts[r]! > 1 || t.speakerAt[r + 1]! < t.speakerAt[r]! || t.present[r]! >> (BIT_RANGE + 1)) throw new SectionsFormatError(`chunk rows: row ${r} is malformed`);
      maxId = id;
    }
    t.rowOf = new Int32Array(maxId + 1).fill(-1);
    for (let r = 0; r < n; r++) t.rowOf[ids[r]!] = r;
    t.live = new Uint8Array(n).fill(1);
    t.rows = n;
    t.liveCount = n;
    for (const [i, id] of m.itemIds.entries()) {
      if (t.itemIndex.has(id)) throw new SectionsFormatError('chunk rows: an item listed twice');
      t.itemIndex.set(id, i);
      t.itemIds.push(id);
    }
    t.loaded = strings;
    t.views = true;
    t.decoded = new Array<string | undefined>(strings);
    return t;
  }

  private row(id: number): number {
    return id >= 0 && id < this.rowOf.length ? this.rowOf[id]! : -1;
  }

  private string(s: number): string {
    if (s >= this.loaded) return this.added[s - this.loaded]!;
    let v = this.decoded[s];
    if (v === undefined) this.decoded[s] = v = Buffer.from(this.stringBytes.buffer, this.stringBytes.byteOffset + this.stringOffsets[s]!, this.stringOffsets[s + 1]! - this.stringOffsets[s]!).toString('utf8');
    return v;
  }

  private intern(s: string): number {
    let i = this.addedIndex.get(s);
    if (i === undefined) {
      const own = Buffer.from(s, 'utf8').toString('utf8');
      i = this.loaded + this.added.push(own) - 1;
      this.addedIndex.set(own, i);
    }
    return i;
  }

  /** Room for `rows` rows and `moreSpeakers` more speakers (a loaded table's views are copied into arrays of its own the first time). */
  private reserve(rows: number, moreSpeakers: number): void {
    const speakersNeeded = this.speakerAt[this.rows]! + moreSpeakers;
    if (speakersNeeded > this.speakers.length || this.views) this.speakers = grown(this.speakers, Math.max(1024, speakersNeeded * 2, this.speakers.length));
    if (rows <= this.ids.length && !this.views) return;
    const cap = Math.max(1024, rows * 2, this.ids.length);
    this.views = false;
    this.ids = grown(this.ids, cap);
    this.items = grown(this.items, cap);
    this.parts = grown(this.parts, cap);
    this.present = grown(this.present, cap);
    this.ints = grown(this.ints, cap * I);
    this.floats = grown(this.floats, cap * FL);
    this.strs = grown(this.strs, cap * S);
    this.ranges = grown(this.ranges, cap * 4);
    this.speakerAt = grown(this.speakerAt, cap + 1);
    this.live = grown(this.live, cap);
  }

  private make(r: number): Chunk {
    // A literal with the required properties (one object shape for all), then the optional ones the chunk has.
    const { ints } = this;
    const chunk: Chunk = {
      itemId: this.itemIds[this.items[r]!]!,
      part: PARTS[this.parts[r]!]!,
      seq: ints[r * I]!,
      start: ints[r * I + 1]!,
      end: ints[r * I + 2]!,
      firstIndex: ints[r * I + 3]!,
      lastIndex: ints[r * I + 4]!,
      words: ints[r * I + 5]!,
    };
    const bits = this.present[r]!;
    if (bits & (1 << BIT_SPEAKERS)) {
      const list: string[] = [];
      for (let k = this.speakerAt[r]!; k < this.speakerAt[r + 1]!; k++) list.push(this.string(this.speakers[k]!));
      chunk.speakers = list;
    }
    for (let k = 0; k < FL; k++) if (bits & (1 << k)) chunk[FLOATS[k]!] = this.floats[r * FL + k]!;
    for (let k = 0; k < S; k++) if (bits & (1 << (FL + k))) chunk[STRINGS[k]!] = this.string(this.strs[r * S + k]!);
    if (bits & (1 << BIT_RANGE)) chunk.range = [this.ranges[r * 4]!, this.ranges[r * 4 + 1]!, this.ranges[r * 4 + 2]!, this.ranges[r * 4 + 3]!];
    return chunk;
  }
}

/** `rowOf` grown to hold `id`, new entries -1. */
function grownRowOf(rowOf: Int32Array, id: number): Int32Array {
  const next = new Int32Array(Math.max(1024, (id + 1) * 2, rowOf.length * 2)).fill(-1);
  next.set(rowOf);
  return next;
}

/**
 * `chunks` (id, chunk; ids ascending) as columns.
 * @throws when a chunk has a value the columns cannot hold (a negative or fractional position).
 */
export function toColumns(chunks: readonly (readonly [number, Chunk])[]): ChunkColumns {
  return ChunkTable.of(chunks).columns();
}

/**
 * The (id, chunk) pairs of columns {@link toColumns} made; a chunk has only
 * the optional properties it was given.
 * @throws SectionsFormatError when the columns are not what {@link toColumns} makes.
 */
export function fromColumns(meta: unknown, sections: Map<string, SectionArray>): [number, Chunk][] {
  return ChunkTable.fromColumns(meta, sections).entries();
}
