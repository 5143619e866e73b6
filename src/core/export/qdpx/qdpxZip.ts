/**
 * The `.qdpx` container: a ZIP archive (REFI-QDA 1.5 §8.2) of `project.qde` and `Sources/…`.
 * Packing is deterministic (fixed entry order and times), so the same project gives the same
 * bytes; the archive's structure is fflate's, the deflating Node's zlib (native: about three
 * times faster than fflate's JavaScript deflate on a corpus's project, and smaller). Unpacking
 * extracts only the entries asked for, within a size budget taken from the archive's directory
 * before anything is inflated (a `.qdpx` from elsewhere is untrusted).
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { unzipSync, Zip, type ZipInputFile } from 'fflate';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated. */
  path: string;
  data: Uint8Array;
}

/** Deflate level of every entry (zlib's default balance of size and time). */
const LEVEL = 6;
/** The ZIP format's earliest date, used when no time is given (for reproducible archives). */
const EPOCH = new Date('1980-01-01T00:00:00Z');

/**
 * A ZIP archive of `entries`, in their order, each deflated, dated `mtime` (default 1980-01-01).
 * @throws Error when two entries have the same path.
 */
export function packZip(entries: readonly ZipEntry[], mtime: Date = EPOCH): Uint8Array {
  const chunks: Uint8Array[] = [];
  let done = false;
  let failure: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure ??= err;
    else chunks.push(chunk);
    if (final) done = true;
  });
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.path)) throw new Error(`duplicate zip entry ${e.path}`);
    seen.add(e.path);
    const file: ZipInputFile = { filename: e.path, size: e.data.length, crc: crc32(e.data), compression: 8, mtime };
    zip.add(file);
    file.ondata!(null, deflateRawSync(e.data, { level: LEVEL }), true);
  }
  zip.end();
  if (failure) throw failure;
  if (!done) throw new Error('zip: the archive was not finished');
  return Buffer.concat(chunks);
}

export interface UnzipLimits {
  /** Most bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Most bytes all extracted entries together may inflate to. */
  maxTotalBytes: number;
}

/** 2 GiB per entry (the format's limit, §8.5) and 4 GiB in all. */
export const DEFAULT_UNZIP_LIMITS: UnzipLimits = { maxEntryBytes: 2 ** 31 - 1, maxTotalBytes: 2 ** 32 };

/**
 * The entries of `zip` that `want` accepts (by path), inflated.
 * @throws Error when `zip` is not a ZIP archive, or the entries wanted are larger than `limits`.
 */
export function unpackZip(zip: Uint8Array, want: (path: string) => boolean, limits: UnzipLimits = DEFAULT_UNZIP_LIMITS): Map<string, Uint8Array> {
  let total = 0;
  let tooLarge: string | undefined;
  const files = unzipSync(zip, {
    filter: (f) => {
      if (!want(f.name)) return false;
      total += f.originalSize;
      if (f.originalSize > limits.maxEntryBytes) tooLarge ??= `${f.name} inflates to ${f.originalSize} bytes (at most ${limits.maxEntryBytes})`;
      else if (total > limits.maxTotalBytes) tooLarge ??= `the entries inflate to more than ${limits.maxTotalBytes} bytes`;
      return tooLarge === undefined;
    },
  });
  if (tooLarge !== undefined) throw new Error(`archive too large: ${tooLarge}`);
  return new Map(Object.entries(files));
}
