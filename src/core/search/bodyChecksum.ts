/**
 * The checksum the index files (postings.bin, chunks.bin) carry in their
 * header: a check against damage (a truncated, cut-off or corrupted file), not
 * against tampering, and the token that pairs a file with the manifest saved
 * with it.
 *
 * A body up to {@link WHOLE_UP_TO} bytes is hashed whole (SHA-1). A larger
 * one is hashed by sample: its length, {@link SAMPLES} blocks of
 * {@link BLOCK} bytes spread evenly over it, and its last block — 16 MiB
 * whatever the size, where SHA-1 over the ~600 MB postings of a 100 M-word
 * index took over a second of every warm start. What the sample does not
 * cover is still checked by the readers' structural checks (sizes against the
 * header, offsets, ids and counts in range); a flipped byte there that leaves
 * every value plausible (a term frequency 3 read as 7) goes unseen, the price
 * of the faster start. Every save also puts a fresh random `salt` into the
 * hash, so two saves never share a checksum: the pairing with the manifest
 * stays exact, sampled or not.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Bodies up to this many bytes are hashed whole. */
export const WHOLE_UP_TO = 32 * 1024 * 1024;
/** Bytes of each sampled block. */
export const BLOCK = 64 * 1024;
/** Blocks sampled from a larger body (plus its last block). */
export const SAMPLES = 256;

/** A new salt for a save (hex). */
export function newSalt(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The checksum of the body made of `parts` (one after the other) with `salt`.
 * @param wholeUpTo Bodies up to this size are hashed whole (tests lower it).
 */
export function bodyChecksum(parts: readonly Uint8Array[], salt: string, wholeUpTo = WHOLE_UP_TO): string {
  const hash = createHash('sha1').update(salt);
  let total = 0;
  for (const p of parts) total += p.length;
  if (total <= wholeUpTo) {
    for (const p of parts) hash.update(p);
    return hash.digest('hex');
  }
  hash.update(`sampled ${total} ${BLOCK} ${SAMPLES}`);
  const stride = Math.floor((total - BLOCK) / (SAMPLES - 1));
  const starts: number[] = [];
  for (let i = 0; i < SAMPLES; i++) starts.push(i * stride);
  starts.push(total - BLOCK);
  // The parts are walked once: each block's bytes may span several parts.
  let part = 0;
  let partStart = 0;
  for (const start of starts) {
    let at = start;
    const end = start + BLOCK;
    // The last block may overlap the one before: back to the first part then.
    if (at < partStart) part = partStart = 0;
    while (at < end) {
      while (partStart + parts[part]!.length <= at) partStart += parts[part++]!.length;
      const p = parts[part]!;
      const to = Math.min(end, partStart + p.length);
      hash.update(p.subarray(at - partStart, to - partStart));
      at = to;
    }
  }
  return hash.digest('hex');
}
