/** Atomic writes: write a temporary file next to the target, then rename over it. */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

let counter = 0;

/** Writes `data` to `file` so that readers see either the old or the new content, never half. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.${counter++}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
