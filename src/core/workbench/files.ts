/**
 * Where the workbench keeps its files inside a corpus folder, and how they are read: through the
 * shared read pool and the state-path checks (never through a link), a missing file as
 * `undefined`, any other failure as an error naming the file.
 */
import * as path from 'node:path';
import { isNotFound, pooledRead, readErrorText } from '../storage/readPool';
import { isUnsafeStatePath, readStateFile } from '../storage/safePath';
import { STORAGE_DIR } from '../storage/storageDir';

/** `<corpus>/.marker-research/notebook.md` */
export function notebookFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'notebook.md');
}

/** `<corpus>/.marker-research/codebook.json` */
export function codebookFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'codebook.json');
}

/** `<corpus>/.marker-research/codings.json` */
export function codingsFile(root: string): string {
  return path.join(root, STORAGE_DIR, 'codings.json');
}

/** The name a file is called by in messages: relative to the corpus folder. */
export function shownName(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * The text of a workbench file; undefined when it does not exist.
 * @throws Error naming the file when it exists but cannot be read (or is a link, refused unread).
 */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await pooledRead(file, () => readStateFile(file, 'utf8'));
  } catch (e) {
    if (isNotFound(e)) return undefined;
    if (isUnsafeStatePath(e)) throw e;
    throw new Error(readErrorText(file, e));
  }
}

