/**
 * A corpus is read from its own regular files only. A FIFO, a socket, a device or a symbolic
 * link (to anything: a device, a folder, a file elsewhere, itself) is never opened for its
 * content: the walk reports it by name and kind ({@link describeSpecialEntry}), and the read of
 * a file the walk found ({@link readCorpusFile}) opens it without following a link and without
 * waiting on a FIFO, then checks what it opened before reading a byte — so an entry swapped
 * for a link or a pipe after the walk is reported too, and nothing ever blocks.
 */
import { constants, fstatSync, openSync, closeSync, readFileSync, type Dirent, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';

/** The bytes of a corpus file, or why they were not read. */
export type CorpusFileRead =
  | { bytes: Buffer }
  | { tooLarge: number }
  /** What the entry is instead of a regular file, e.g. "a FIFO (named pipe)". */
  | { notRegular: string };

/** Read-only, never through a link (Linux, macOS), never waiting for a FIFO's writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a file system entry is, for a message: "a FIFO (named pipe)", "a socket", "a character device", … */
export function entryKind(st: Pick<Stats | Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The message of a problem for an entry that is not a regular file. */
export function notRegularMessage(kind: string): string {
  return `${kind}, not a regular file; skipped (a corpus is read from regular files only, never through links)`;
}

const errCode = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

/** `open` refuses a link under O_NOFOLLOW with ELOOP (EMLINK on FreeBSD); a socket cannot be opened (ENXIO). */
function refusedOpen(e: unknown): string | undefined {
  const c = errCode(e);
  if (c === 'ELOOP' || c === 'EMLINK') return 'a symbolic link';
  if (c === 'ENXIO') return 'a socket or a device without a reader';
  return undefined;
}

/**
 * Reads a corpus file found by the walk: opened without following a link and without blocking
 * (O_NOFOLLOW | O_NONBLOCK), then checked on the open handle to be a regular file of at most
 * `maxBytes` before it is read.
 * @throws the file system's error for anything else (not found, no permission, out of handles),
 *   for the caller to report or retry.
 */
export async function readCorpusFile(file: string, maxBytes: number): Promise<CorpusFileRead> {
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (e) {
    const kind = refusedOpen(e);
    if (kind) return { notRegular: kind };
    throw e;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { notRegular: entryKind(st) };
    if (st.size > maxBytes) return { tooLarge: st.size };
    return { bytes: await handle.readFile() };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** {@link readCorpusFile}, synchronously (an item parsed again on demand). */
export function readCorpusFileSync(file: string, maxBytes: number): CorpusFileRead {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (e) {
    const kind = refusedOpen(e);
    if (kind) return { notRegular: kind };
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { notRegular: entryKind(st) };
    if (st.size > maxBytes) return { tooLarge: st.size };
    return { bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/**
 * What the walk should say about an entry that is neither a folder nor a regular file, or
 * undefined when it is nothing the corpus would have read. A FIFO, socket or device is reported
 * when its name is a corpus file's (`looksLikePart`); a symbolic link when its name is a corpus
 * file's, or it leads to a folder (items may be behind it), or it leads nowhere (a loop, a
 * dangling link: what it was meant to be is unknown). Its target is looked at with `stat`, which
 * never opens it.
 */
export async function describeSpecialEntry(full: string, ent: Dirent, looksLikePart: boolean): Promise<string | undefined> {
  if (!ent.isSymbolicLink()) return looksLikePart ? entryKind(ent) : undefined;
  let target: Stats;
  try {
    target = await stat(full);
  } catch (e) {
    const c = errCode(e);
    if (c === 'ELOOP') return 'a symbolic link that loops';
    if (c === 'ENOENT') return 'a symbolic link to nothing (its target does not exist)';
    return `a symbolic link whose target cannot be read (${c ?? (e as Error).message})`;
  }
  if (target.isDirectory()) return 'a symbolic link to a folder';
  return looksLikePart ? `a symbolic link to ${entryKind(target)}` : undefined;
}
