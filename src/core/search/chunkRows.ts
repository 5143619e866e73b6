/**
 * The chunks of a search index as rows, the form the index manifest keeps
 * them in: per chunk one array of its values in a fixed order (item ids as
 * indexes into one list), instead of an object repeating every property name.
 * On a 10 M-word corpus (129 k chunks) the manifest is half the size and
 * parses with half the allocation — which matters more than it seems: an
 * engine that has just loaded the corpus (a heap of ~700 MB) pays each full
 * garbage collection that extra allocation brings on with ~0.4 s of marking.
 */
import type { Chunk } from './chunker';

/** The properties every chunk has, after its item, in row order. */
const REQUIRED = ['part', 'seq', 'start', 'end', 'firstIndex', 'lastIndex', 'words'] as const satisfies readonly (keyof Chunk)[];
/** The optional ones, after them (null where a chunk has none; trailing nulls left out). */
const OPTIONAL = ['speakers', 'startTime', 'endTime', 'likes', 'replyCount', 'commentId', 'parentId', 'publishedAt', 'range'] as const satisfies readonly (keyof Chunk)[];
/** Fails to compile when Chunk gains a property the lists above do not name (it would be lost on save). */
const EVERY_PROPERTY_LISTED: Exclude<keyof Chunk, 'itemId' | (typeof REQUIRED)[number] | (typeof OPTIONAL)[number]> extends never ? true : never = true;
void EVERY_PROPERTY_LISTED;

/** Row: [chunk id, index into `itemIds`, ...REQUIRED values, ...OPTIONAL values]. */
const FIRST_OPTIONAL = 2 + REQUIRED.length;

export interface ChunkRows {
  itemIds: string[];
  rows: unknown[][];
}

/** `chunks` (id, chunk) as rows. */
export function toRows(chunks: Iterable<readonly [number, Chunk]>): ChunkRows {
  const itemIds: string[] = [];
  const itemIndex = new Map<string, number>();
  const rows: unknown[][] = [];
  for (const [id, chunk] of chunks) {
    let item = itemIndex.get(chunk.itemId);
    if (item === undefined) itemIndex.set(chunk.itemId, (item = itemIds.push(chunk.itemId) - 1));
    const row: unknown[] = [id, item];
    for (const key of REQUIRED) row.push(chunk[key]);
    for (const key of OPTIONAL) row.push(chunk[key] ?? null);
    while (row.length > FIRST_OPTIONAL && row[row.length - 1] === null) row.pop();
    rows.push(row);
  }
  return { itemIds, rows };
}

/**
 * The (id, chunk) pairs of `table`; a chunk has only the optional properties its row gives.
 * @throws when `table` is not what {@link toRows} makes.
 */
export function fromRows(table: ChunkRows): [number, Chunk][] {
  const { itemIds, rows } = table;
  if (!Array.isArray(itemIds) || !Array.isArray(rows) || !itemIds.every((id) => typeof id === 'string')) throw new Error('chunk rows: not a chunk table');
  const out = new Array<[number, Chunk]>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (!Array.isArray(row) || row.length < FIRST_OPTIONAL || row.length > FIRST_OPTIONAL + OPTIONAL.length) throw new Error(`chunk rows: row ${r} has a wrong length`);
    const id = row[0];
    const item = row[1];
    const part = row[2];
    if (!Number.isInteger(id) || !Number.isInteger(item) || itemIds[item as number] === undefined || typeof part !== 'string') throw new Error(`chunk rows: row ${r} is malformed`);
    for (let i = 3; i < FIRST_OPTIONAL; i++) if (typeof row[i] !== 'number') throw new Error(`chunk rows: row ${r} is malformed`);
    // A literal with the required properties (one object shape for all), then the optional ones the row has.
    const chunk = {
      itemId: itemIds[item as number]!,
      part: part as Chunk['part'],
      seq: row[3] as number,
      start: row[4] as number,
      end: row[5] as number,
      firstIndex: row[6] as number,
      lastIndex: row[7] as number,
      words: row[8] as number,
    } satisfies Record<'itemId' | (typeof REQUIRED)[number], unknown> as Chunk;
    for (let i = FIRST_OPTIONAL; i < row.length; i++) {
      const value = row[i];
      if (value !== null) (chunk as unknown as Record<string, unknown>)[OPTIONAL[i - FIRST_OPTIONAL]!] = value;
    }
    out[r] = [id as number, chunk];
  }
  return out;
}
