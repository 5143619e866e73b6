/**
 * A small binary container for the search index's typed arrays: a JSON header
 * (after a 4-byte length) naming the file's kind and the sections (name,
 * element type, length), then a JSON `meta` value and each section's bytes,
 * 8-byte aligned, so reading is one read and typed-array views. The header
 * carries a checksum of the body (meta included; bodyChecksum.ts: against damage, not tampering, a large body hashed by sample): a truncated or damaged file throws
 * {@link SectionsFormatError}, and the checksum pairs the file with the
 * manifest saved with it.
 */
import { bodyChecksum, newSalt } from './bodyChecksum';

const TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array } as const;
type TypeName = keyof typeof TYPES;
export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** The section holding the JSON meta value (first in the body). */
const META = '__meta';
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

interface Header {
  magic: string;
  littleEndian: boolean;
  sections: [name: string, type: TypeName, length: number][];
  /** Random per save, hashed with the body. */
  salt: string;
  sha1: string;
}

/** The bytes are not a whole, undamaged file of the expected kind. */
export class SectionsFormatError extends Error {
  constructor(message: string) {
    super(`index file: ${message}`);
    this.name = 'SectionsFormatError';
  }
}

function typeOf(a: SectionArray): TypeName {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f64';
}

/** The file's parts (written one after the other) and its checksum. */
export function encodeSections(magic: string, meta: unknown, sections: Record<string, SectionArray>): { parts: Uint8Array[]; checksum: string } {
  const body: Uint8Array[] = [];
  const list: Header['sections'] = [];
  const metaBytes = Buffer.from(JSON.stringify(meta), 'utf8');
  for (const [name, a] of [[META, metaBytes] as const, ...Object.entries(sections)]) {
    if (name === META && a !== metaBytes) throw new Error(`index file: a section may not be named ${META}`);
    list.push([name, typeOf(a), a.length]);
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const pad = new Uint8Array(align8(bytes.length) - bytes.length);
    body.push(bytes, pad);
  }
  const salt = newSalt();
  const header: Header = { magic, littleEndian: LITTLE_ENDIAN, sections: list, salt, sha1: bodyChecksum(body, salt) };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = new Uint8Array(align8(4 + json.length));
  new DataView(prefix.buffer).setUint32(0, json.length, true);
  prefix.set(json, 4);
  return { parts: [prefix, ...body], checksum: header.sha1 };
}

/**
 * Reads what {@link encodeSections} wrote; the sections are views of `input`
 * (copied once when it is not 8-byte aligned).
 * @param checksum When given, the file must be the one saved with this checksum.
 * @throws SectionsFormatError for anything but a whole, undamaged file of kind `magic`.
 */
export function decodeSections(input: Uint8Array, magic: string, checksum?: string): { meta: unknown; sections: Map<string, SectionArray> } {
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  if (bytes.length < 4) throw new SectionsFormatError('too short');
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (4 + length > bytes.length) throw new SectionsFormatError('truncated header');
  let header: Header;
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, length).toString('utf8')) as Header;
  } catch {
    throw new SectionsFormatError('unreadable header');
  }
  if (header === null || typeof header !== 'object' || header.magic !== magic || !Array.isArray(header.sections) || typeof header.sha1 !== 'string' || typeof header.salt !== 'string') throw new SectionsFormatError(`not a ${magic} file`);
  if (checksum !== undefined && header.sha1 !== checksum) throw new SectionsFormatError('not the file saved with the manifest (checksum differs)');
  if (header.littleEndian !== LITTLE_ENDIAN) throw new SectionsFormatError('written on a machine of the other byte order');
  const bodyStart = align8(4 + length);
  let size = bodyStart;
  for (const s of header.sections) {
    if (!Array.isArray(s) || typeof s[0] !== 'string' || !(s[1] in TYPES) || !Number.isSafeInteger(s[2]) || s[2] < 0) throw new SectionsFormatError('bad section in the header');
    size += align8(s[2] * TYPES[s[1]].BYTES_PER_ELEMENT);
  }
  if (bytes.length !== size) throw new SectionsFormatError(`${bytes.length} bytes, the header says ${size}`);
  if (bodyChecksum([bytes.subarray(bodyStart)], header.salt) !== header.sha1) throw new SectionsFormatError('checksum mismatch (damaged file)');
  const sections = new Map<string, SectionArray>();
  let at = bodyStart;
  for (const [name, type, n] of header.sections) {
    const T = TYPES[type];
    sections.set(name, new T(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, n));
    at += align8(n * T.BYTES_PER_ELEMENT);
  }
  const metaBytes = sections.get(META);
  sections.delete(META);
  if (!(metaBytes instanceof Uint8Array)) throw new SectionsFormatError('no meta section');
  let meta: unknown;
  try {
    meta = JSON.parse(Buffer.from(metaBytes.buffer, metaBytes.byteOffset, metaBytes.length).toString('utf8'));
  } catch {
    throw new SectionsFormatError('unreadable meta section');
  }
  return { meta, sections };
}

/** Section `name` of `sections` as an array of type `T`, of `length` elements when given. */
export function section<T extends SectionArray>(sections: Map<string, SectionArray>, name: string, type: new (n: number) => T, length?: number): T {
  const s = sections.get(name);
  if (!(s instanceof type) || (length !== undefined && s.length !== length)) throw new SectionsFormatError(`section ${name} is missing or of the wrong kind or length`);
  return s as T;
}
