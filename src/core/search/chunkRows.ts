/**
 * The chunks of a search index as columns of typed arrays, the form the index
 * keeps them in on disk (`chunks.bin`, see binarySections.ts): per chunk its
 * id, item (an index into one list of item ids), part, the integer positions,
 * the times and counts, the place in its file, and its strings (speakers,
 * comment ids, dates) as indexes into one string table. On 100 M words
 * (~1.3 M chunks) this is read in one go and turned into chunks in a loop,
 * where the JSON rows it replaced were a ~250 MB string to build on save and
 * to parse on every warm start.
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
/** Fails to compile when Chunk gains a property the lists above do not name (it would be lost on save). */
const EVERY_PROPERTY_LISTED: Exclude<keyof Chunk, 'itemId' | 'part' | 'speakers' | 'range' | (typeof INTS)[number] | (typeof FLOATS)[number] | (typeof STRINGS)[number]> extends never ? true : never = true;
void EVERY_PROPERTY_LISTED;

const PARTS = ['transcript', 'comments'] as const;

/** What the columns need beside them (JSON, in the file's header). */
export interface ChunkRowsMeta {
  itemIds: string[];
  strings: string[];
}

/** Sections of the chunk columns, by name. */
export interface ChunkColumns {
  meta: ChunkRowsMeta;
  sections: Record<string, SectionArray>;
}

const isU32 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

/**
 * `chunks` (id, chunk) as columns.
 * @throws when a chunk has a value the columns cannot hold (a negative or fractional position).
 */
export function toColumns(chunks: readonly (readonly [number, Chunk])[]): ChunkColumns {
  const n = chunks.length;
  const itemIds: string[] = [];
  const itemIndex = new Map<string, number>();
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const str = (s: string): number => {
    let i = stringIndex.get(s);
    if (i === undefined) stringIndex.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const ids = new Int32Array(n);
  const items = new Uint32Array(n);
  const parts = new Uint8Array(n);
  const present = new Uint16Array(n);
  const ints = new Uint32Array(n * INTS.length);
  const floats = new Float64Array(n * FLOATS.length);
  const strs = new Uint32Array(n * STRINGS.length);
  const ranges = new Uint32Array(n * 4);
  const speakerAt = new Uint32Array(n + 1);
  const speakers: number[] = [];
  for (let r = 0; r < n; r++) {
    const [id, c] = chunks[r]!;
    ids[r] = id;
    let item = itemIndex.get(c.itemId);
    if (item === undefined) itemIndex.set(c.itemId, (item = itemIds.push(c.itemId) - 1));
    items[r] = item;
    parts[r] = c.part === 'comments' ? 1 : 0;
    let bits = 0;
    for (const [k, key] of INTS.entries()) {
      const v = c[key];
      if (!isU32(v)) throw new Error(`chunk rows: chunk ${id} has ${key} ${v}, not a 32-bit unsigned integer`);
      ints[r * INTS.length + k] = v;
    }
    for (const [k, key] of FLOATS.entries()) {
      const v = c[key];
      if (v === undefined) continue;
      bits |= 1 << k;
      floats[r * FLOATS.length + k] = v;
    }
    for (const [k, key] of STRINGS.entries()) {
      const v = c[key];
      if (v === undefined) continue;
      bits |= 1 << (FLOATS.length + k);
      strs[r * STRINGS.length + k] = str(v);
    }
    if (c.speakers !== undefined) {
      bits |= 1 << BIT_SPEAKERS;
      for (const s of c.speakers) speakers.push(str(s));
    }
    speakerAt[r + 1] = speakers.length;
    if (c.range !== undefined) {
      bits |= 1 << BIT_RANGE;
      for (let k = 0; k < 4; k++) {
        const v = c.range[k];
        if (!isU32(v)) throw new Error(`chunk rows: chunk ${id} has a range value ${v}, not a 32-bit unsigned integer`);
        ranges[r * 4 + k] = v;
      }
    }
    present[r] = bits;
  }
  return {
    meta: { itemIds, strings },
    sections: { ids, items, parts, present, ints, floats, strs, ranges, speakerAt, speakers: Uint32Array.from(speakers) },
  };
}

/**
 * The (id, chunk) pairs of columns {@link toColumns} made; a chunk has only
 * the optional properties it was given.
 * @throws SectionsFormatError when the columns are not what {@link toColumns} makes.
 */
export function fromColumns(meta: unknown, sections: Map<string, SectionArray>): [number, Chunk][] {
  const m = meta as ChunkRowsMeta;
  if (m === null || typeof m !== 'object' || !Array.isArray(m.itemIds) || !Array.isArray(m.strings) || !m.itemIds.every((s) => typeof s === 'string') || !m.strings.every((s) => typeof s === 'string')) {
    throw new SectionsFormatError('chunk rows: not a chunk table');
  }
  const { itemIds, strings } = m;
  const ids = section(sections, 'ids', Int32Array);
  const n = ids.length;
  const items = section(sections, 'items', Uint32Array, n);
  const parts = section(sections, 'parts', Uint8Array, n);
  const present = section(sections, 'present', Uint16Array, n);
  const ints = section(sections, 'ints', Uint32Array, n * INTS.length);
  const floats = section(sections, 'floats', Float64Array, n * FLOATS.length);
  const strs = section(sections, 'strs', Uint32Array, n * STRINGS.length);
  const ranges = section(sections, 'ranges', Uint32Array, n * 4);
  const speakerAt = section(sections, 'speakerAt', Uint32Array, n + 1);
  const speakers = section(sections, 'speakers', Uint32Array);
  if (speakerAt[0] !== 0 || speakerAt[n] !== speakers.length) throw new SectionsFormatError('chunk rows: speakers do not add up');
  for (const s of speakers) if (s >= strings.length) throw new SectionsFormatError('chunk rows: a speaker outside the string table');
  for (const s of strs) if (s >= strings.length) throw new SectionsFormatError('chunk rows: a string outside the string table');
  const out = new Array<[number, Chunk]>(n);
  const I = INTS.length;
  for (let r = 0; r < n; r++) {
    const item = itemIds[items[r]!];
    const part = PARTS[parts[r]!];
    if (item === undefined || part === undefined || speakerAt[r + 1]! < speakerAt[r]!) throw new SectionsFormatError(`chunk rows: row ${r} is malformed`);
    // A literal with the required properties (one object shape for all), then the optional ones the chunk has.
    const chunk: Chunk = {
      itemId: item,
      part,
      seq: ints[r * I]!,
      start: ints[r * I + 1]!,
      end: ints[r * I + 2]!,
      firstIndex: ints[r * I + 3]!,
      lastIndex: ints[r * I + 4]!,
      words: ints[r * I + 5]!,
    };
    const bits = present[r]!;
    if (bits & (1 << BIT_SPEAKERS)) {
      const list: string[] = [];
      for (let k = speakerAt[r]!; k < speakerAt[r + 1]!; k++) list.push(strings[speakers[k]!]!);
      chunk.speakers = list;
    }
    for (let k = 0; k < FLOATS.length; k++) if (bits & (1 << k)) chunk[FLOATS[k]!] = floats[r * FLOATS.length + k]!;
    for (let k = 0; k < STRINGS.length; k++) if (bits & (1 << (FLOATS.length + k))) chunk[STRINGS[k]!] = strings[strs[r * STRINGS.length + k]!]!;
    if (bits & (1 << BIT_RANGE)) chunk.range = [ranges[r * 4]!, ranges[r * 4 + 1]!, ranges[r * 4 + 2]!, ranges[r * 4 + 3]!];
    out[r] = [ids[r]!, chunk];
  }
  return out;
}
