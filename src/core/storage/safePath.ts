/**
 * The one place that decides whether a state path may be used. Everything Marker Research keeps
 * (markers, indexes, entities, vectors, chats, runs, condensed claims) lives in
 * `<corpus>/.marker-research/…` and must be a real file in real folders under the real corpus
 * folder: the corpus folder itself may be reached through a symlink (it is resolved with
 * `realpath`), but from there down every component is checked with `lstat` — a symlink (to a
 * folder or a file), or anything that is not a folder / regular file where one is expected, is
 * refused with {@link UnsafeStatePathError}, which names the path and says what to do. Nothing is
 * ever written or read through such a link, and a refused file's content is never read.
 *
 * Paths without a `.marker-research` folder in them (not state) get the last component checked
 * only: the target itself must not be a symlink.
 *
 * Used by `writeFileAtomic` (every store writes through it) and by the readers of state files
 * ({@link readStateFile}, {@link readStateDir}).
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from './storageDir';

/** A state path that is not a real file / folder under the real corpus folder. */
export class UnsafeStatePathError extends Error {
  readonly code = 'EUNSAFESTATE';
  /**
   * @param file The offending path, as the caller named it (never resolved through the link).
   * @param problem What is wrong with it, e.g. "it is a symbolic link".
   * @param kind What belongs there: a file or a folder.
   */
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly kind: 'file' | 'folder',
  ) {
    super(
      `state: refused ${file}: ${problem}. Marker Research keeps its state only as real files and folders inside the corpus folder and never follows links there; remove or rename ${file} (it is recreated as a plain ${kind}) and try again.`,
    );
    this.name = 'UnsafeStatePathError';
  }
}

/** True for an {@link UnsafeStatePathError}. */
export function isUnsafeStatePath(error: unknown): error is UnsafeStatePathError {
  return error instanceof UnsafeStatePathError;
}

/** A checked state path. */
export interface SafeStatePath {
  /** The path as the caller named it (for messages). */
  display: string;
  /** The same path below the corpus folder's realpath; every folder in it is real. */
  real: string;
  /** Whether the final component exists (then it is a regular file, or a real folder for {@link checkStateDir}). */
  exists: boolean;
}

function enoent(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${file}'`), { code: 'ENOENT', path: file });
}

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** Splits an absolute path at its last `.marker-research` folder: [corpus root, components from `.marker-research` on]. */
function splitAtState(abs: string): [string, string[]] | undefined {
  const parts = abs.split(path.sep);
  // The last component is the target itself: only folders count.
  for (let i = parts.length - 2; i >= 0; i--) {
    if (parts[i] === STORAGE_DIR) {
      const root = parts.slice(0, i).join(path.sep) || path.sep;
      return [root, parts.slice(i)];
    }
  }
  return undefined;
}

/** lstat, or undefined when the path does not exist. */
async function lstatOrMissing(p: string): Promise<import('node:fs').Stats | undefined> {
  try {
    return await lstat(p);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Checks `target` (a file, or with `kind: 'dir'` a folder) and every folder above it from the
 * corpus root down; with `create`, missing folders are made one by one (never through a link).
 * @throws UnsafeStatePathError for a symlink or a wrong kind of entry on the way.
 * @throws an `ENOENT` error when a folder is missing and `create` is false.
 */
export async function checkStatePath(target: string, options: { create?: boolean; kind?: 'file' | 'dir' } = {}): Promise<SafeStatePath> {
  const display = path.resolve(target);
  const kind = options.kind ?? 'file';
  const split = splitAtState(display);
  if (split === undefined) {
    // Not a state path: only the target itself is checked.
    const dir = path.dirname(display);
    if (options.create) await mkdir(dir, { recursive: true });
    const st = await lstatOrMissing(display);
    if (st?.isSymbolicLink()) throw new UnsafeStatePathError(display, 'it is a symbolic link', kind === 'dir' ? 'folder' : 'file');
    return { display, real: display, exists: st !== undefined };
  }
  const [root, below] = split;
  const realRoot = await realpath(root);
  let shown = root;
  let real = realRoot;
  const folders = kind === 'dir' ? below : below.slice(0, -1);
  for (const name of folders) {
    shown = path.join(shown, name);
    real = path.join(real, name);
    let st = await lstatOrMissing(real);
    if (st === undefined) {
      if (!options.create) throw enoent(shown);
      try {
        await mkdir(real);
      } catch (e) {
        if (code(e) !== 'EEXIST') throw e;
      }
      st = await lstat(real);
    }
    if (st.isSymbolicLink()) throw new UnsafeStatePathError(shown, 'it is a symbolic link', 'folder');
    if (!st.isDirectory()) throw new UnsafeStatePathError(shown, 'it is not a real folder', 'folder');
  }
  // Nothing on the way was swapped for a link meanwhile.
  if ((await realpath(real)) !== real) throw new UnsafeStatePathError(kind === 'dir' ? shown : path.dirname(display), 'it resolves elsewhere (a symbolic link on the way)', 'folder');
  if (kind === 'dir') return { display, real, exists: true };
  const file = path.join(real, below[below.length - 1]!);
  const st = await lstatOrMissing(file);
  if (st?.isSymbolicLink()) throw new UnsafeStatePathError(display, 'it is a symbolic link', 'file');
  if (st !== undefined && !st.isFile()) throw new UnsafeStatePathError(display, 'it is not a regular file', 'file');
  // A hard link shares its content with a file that may lie anywhere (outside the corpus too).
  if (st !== undefined && st.nlink > 1) throw new UnsafeStatePathError(display, `it is a hard link (the file has ${st.nlink} names)`, 'file');
  return { display, real: file, exists: st !== undefined };
}

/**
 * Reads a state file without following links: the path is checked ({@link checkStatePath}) and
 * the file opened with `O_NOFOLLOW`, then must be a regular file.
 * @throws UnsafeStatePathError (content never read) for a link or a non-file.
 * @throws an `ENOENT` error when it (or a folder above it) does not exist.
 */
export async function readStateFile(file: string): Promise<Buffer>;
export async function readStateFile(file: string, encoding: BufferEncoding): Promise<string>;
export async function readStateFile(file: string, encoding?: BufferEncoding): Promise<Buffer | string> {
  const checked = await checkStatePath(file);
  if (!checked.exists) throw enoent(checked.display);
  let handle;
  try {
    handle = await open(checked.real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    if (code(e) === 'ELOOP') throw new UnsafeStatePathError(checked.display, 'it is a symbolic link', 'file');
    throw e;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new UnsafeStatePathError(checked.display, 'it is not a regular file', 'file');
    if (st.nlink > 1) throw new UnsafeStatePathError(checked.display, `it is a hard link (the file has ${st.nlink} names)`, 'file');
    const bytes = await handle.readFile();
    return encoding === undefined ? bytes : bytes.toString(encoding);
  } finally {
    await handle.close();
  }
}

/**
 * The real path of a state folder, checked from the corpus root down (every component a real folder).
 * @throws UnsafeStatePathError / `ENOENT` as {@link checkStatePath}.
 */
export async function checkStateDir(dir: string, options: { create?: boolean } = {}): Promise<string> {
  return (await checkStatePath(dir, { ...options, kind: 'dir' })).real;
}

/** The names in a state folder (checked as {@link checkStateDir}; a missing folder throws `ENOENT`). */
export async function readStateDir(dir: string): Promise<string[]> {
  return readdir(await checkStateDir(dir));
}
