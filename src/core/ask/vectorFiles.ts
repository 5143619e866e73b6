/**
 * The vector store on disk: a manifest (model, dimensions, items) and one binary file per item
 * (a JSON header, then its vectors as little-endian float32), with their validation.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PartKind } from '../corpus/types';

/** Bumped whenever the stored format changes (older stores are rebuilt). */
export const VECTOR_FORMAT_VERSION = 1;

/** What an item file is written from: the item's chunks and the store slots of their vectors. */
export interface ItemVectors {
  contentHash: string;
  chunkIds: readonly number[];
  keys: readonly string[];
  parts: readonly PartKind[];
  slots: readonly number[];
}

export const MANIFEST = 'manifest.json';
export const ITEMS_DIR = 'items';
export const ITEM_EXT = '.vec';
/** First bytes of an item file. */
const MAGIC = 'MRVEC001';

const manifestSchema = z.object({
  version: z.literal(VECTOR_FORMAT_VERSION),
  provider: z.string(),
  model: z.string(),
  requestedDimensions: z.number().int().positive().nullable(),
  dimensions: z.number().int().positive().nullable(),
  items: z.record(z.string(), z.object({ file: z.string().regex(/^[0-9a-f]{32}\.vec$/), contentHash: z.string(), vectors: z.number().int().nonnegative() })),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** The JSON header of an item file; the vectors follow it as little-endian float32, `dims` per chunk. */
const itemHeaderSchema = z.object({
  itemId: z.string().min(1),
  contentHash: z.string(),
  dims: z.number().int().nonnegative(),
  chunks: z.array(z.object({ id: z.number().int().nonnegative(), key: z.string().regex(/^[0-9a-f]{32}$/), part: z.enum(['transcript', 'comments']) })),
});
type ItemHeader = z.infer<typeof itemHeaderSchema>;

export interface DecodedItem {
  header: ItemHeader;
  vectors: Float32Array;
}

export function parseManifest(text: string, info: { provider: string; model: string; dimensions?: number }): Manifest | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return `is invalid (${parsed.error.issues.slice(0, 2).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`;
  const m = parsed.data;
  if (m.provider !== info.provider || m.model !== info.model || m.requestedDimensions !== (info.dimensions ?? null)) return 'is for another model';
  return m;
}

/** The file name of an item's vectors (item ids may hold any character). */
export function itemFileName(itemId: string): string {
  return `${createHash('sha256').update(itemId).digest('hex').slice(0, 32)}${ITEM_EXT}`;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function encodeItemFile(itemId: string, rec: ItemVectors, dims: number, vectorAt: (slot: number) => Float32Array): Uint8Array {
  const header: ItemHeader = { itemId, contentHash: rec.contentHash, dims, chunks: rec.chunkIds.map((id, i) => ({ id, key: rec.keys[i]!, part: rec.parts[i]! })) };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headerEnd = MAGIC.length + 4 + json.length;
  const offset = Math.ceil(headerEnd / 4) * 4;
  const out = Buffer.alloc(offset + rec.slots.length * dims * 4);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  rec.slots.forEach((slot, i) => {
    const v = vectorAt(slot);
    const at = offset + i * dims * 4;
    if (LITTLE_ENDIAN) out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at);
    else for (let d = 0; d < dims; d++) out.writeFloatLE(v[d]!, at + d * 4);
  });
  return out;
}

/** Parses an item file; a string says what is wrong with it. */
export function decodeItemFile(bytes: Buffer): DecodedItem | string {
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return 'is not a vector file';
  const jsonLength = bytes.readUInt32LE(MAGIC.length);
  const headerEnd = MAGIC.length + 4 + jsonLength;
  if (headerEnd > bytes.length) return 'is truncated';
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, headerEnd));
  } catch {
    return 'has an unreadable header';
  }
  const parsed = itemHeaderSchema.safeParse(json);
  if (!parsed.success) return 'has an invalid header';
  const header = parsed.data;
  const offset = Math.ceil(headerEnd / 4) * 4;
  const count = header.chunks.length * header.dims;
  if (bytes.length !== offset + count * 4) return `has ${bytes.length - offset} bytes of vectors, expected ${count * 4}`;
  if (header.chunks.length > 0 && header.dims === 0) return 'has vectors of 0 dimensions';
  const vectors = new Float32Array(count);
  if (LITTLE_ENDIAN) vectors.set(new Float32Array(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * 4)));
  else for (let i = 0; i < count; i++) vectors[i] = bytes.readFloatLE(offset + i * 4);
  for (let i = 0; i < count; i++) if (!Number.isFinite(vectors[i]!)) return 'holds a non-finite value';
  return { header, vectors };
}

// ---------------------------------------------------------------------------
// Sync with the index
// ---------------------------------------------------------------------------
