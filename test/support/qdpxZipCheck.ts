/**
 * An independent reader of a ZIP archive's structure for the `.qdpx` tests (not fflate, which the
 * product uses): walks the central directory (PKZIP APPNOTE §4.3.12/§4.3.16), checks that each
 * entry's local header agrees with it, inflates the data with Node's zlib and checks its size and
 * CRC-32 against the directory — what an unzip tool checks before trusting an archive.
 */
import { crc32, inflateRawSync } from 'node:zlib';

export interface CheckedEntry {
  name: string;
  data: Buffer;
}

/**
 * Every entry of `zip`, checked.
 * @throws Error naming the first thing that does not hold.
 */
export function checkZip(zip: Uint8Array): CheckedEntry[] {
  const b = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory record');
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const out: CheckedEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`central directory entry ${i}: bad signature`);
    const method = b.readUInt16LE(at + 10);
    const crc = b.readUInt32LE(at + 16);
    const compressed = b.readUInt32LE(at + 20);
    const size = b.readUInt32LE(at + 24);
    const nameLen = b.readUInt16LE(at + 28);
    const extraLen = b.readUInt16LE(at + 30);
    const commentLen = b.readUInt16LE(at + 32);
    const local = b.readUInt32LE(at + 42);
    const name = b.toString('utf8', at + 46, at + 46 + nameLen);
    if (b.readUInt32LE(local) !== 0x04034b50) throw new Error(`${name}: bad local header signature`);
    if (b.toString('utf8', local + 30, local + 30 + b.readUInt16LE(local + 26)) !== name) throw new Error(`${name}: local header names another file`);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + compressed);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? Buffer.from(raw) : undefined;
    if (!data) throw new Error(`${name}: compression method ${method}`);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes inflated, the directory says ${size}`);
    if (crc32(data) !== crc) throw new Error(`${name}: CRC-32 ${crc32(data).toString(16)}, the directory says ${crc.toString(16)}`);
    out.push({ name, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
