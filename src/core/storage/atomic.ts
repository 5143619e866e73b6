/**
 * Atomic writes: write a temporary file next to the target, then rename over it. Every path is
 * checked first ({@link checkStatePath}): state is written only as real files in real folders
 * under the real corpus folder, never through a symbolic link.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { checkStatePath } from './safePath';

let counter = 0;

/**
 * Writes `data` to `file` so that readers see either the old or the new content, never half.
 * `data` may be an iterable of strings or of byte arrays, written one after the other (a large
 * file is never held whole in memory).
 * Missing folders are created (as real folders).
 * @throws UnsafeStatePathError when `file` or a folder above it (from the corpus folder down) is a
 * symbolic link or not a file / folder; nothing is written then.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string> | Iterable<Uint8Array>): Promise<void> {
  const target = await checkStatePath(file, { create: true });
  const tmp = `${target.real}.${process.pid}.${Date.now()}.${counter++}.tmp`;
  try {
    // `wx`: fails on anything already there, a planted link included (never followed).
    await writeFile(tmp, data, { flag: 'wx' });
    // rename replaces the directory entry itself: even a link planted since the check is replaced, not followed.
    await rename(tmp, target.real);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
