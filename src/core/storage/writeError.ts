/**
 * A file that could not be written because of the file system — disk full, no permission, a
 * read-only file system, a part of the path that is a file — as one typed error that names the
 * file (the system's own error for a failed `write` names none) and says what to do. Raised by
 * `writeFileAtomic`, through which every store and export writes.
 *
 * @example
 * try { await writeFileAtomic(file, text); } catch (e) { if (e instanceof FileWriteError) log.error(e.message); }
 * // "cannot write /c/.marker-research/index/chunks.txt: no space left on the device (ENOSPC); free some disk space and try again"
 */

/** What each system code means, and what the user can do about it. */
const CAUSES: Record<string, { what: string; todo: string }> = {
  ENOSPC: { what: 'no space left on the device', todo: 'free some disk space and try again' },
  EDQUOT: { what: 'the disk quota is used up', todo: 'free some space within the quota and try again' },
  EFBIG: { what: 'the file is too large for the file system', todo: 'write it to another file system' },
  EACCES: { what: 'permission denied', todo: 'check the permissions of its folder, or choose another place' },
  EPERM: { what: 'operation not permitted', todo: 'check the permissions of its folder, or choose another place' },
  EROFS: { what: 'the file system is read-only', todo: 'choose a place on a writable file system' },
  ENOTDIR: { what: 'a part of its path is a file, not a folder', todo: 'choose a path whose folders are folders' },
  EEXIST: { what: 'a part of its path is a file, not a folder', todo: 'choose a path whose folders are folders' },
  EISDIR: { what: 'it is a folder', todo: 'name a file, not a folder' },
  ENOENT: { what: 'its folder does not exist and could not be created', todo: 'check the path' },
  ENAMETOOLONG: { what: 'the path is too long', todo: 'choose a shorter path' },
  EMFILE: { what: 'too many open files', todo: 'raise the open-file limit (ulimit -n) or close other programs, and try again' },
  ENFILE: { what: 'too many open files on the system', todo: 'close other programs and try again' },
  EIO: { what: 'an input/output error of the device', todo: 'check the disk' },
};

/** A file that could not be written; `code` is the system's (`ENOSPC`, `EACCES`, …). */
export class FileWriteError extends Error {
  readonly reason = 'write' as const;
  /**
   * @param file The file that was being written, as the caller named it.
   * @param code The system error code.
   */
  constructor(
    readonly file: string,
    readonly code: string,
    cause?: unknown,
  ) {
    const c = CAUSES[code];
    super(`cannot write ${file}: ${c ? `${c.what} (${code}); ${c.todo}` : code}`, { cause });
    this.name = 'FileWriteError';
  }
}

/**
 * `error` as a {@link FileWriteError} naming `file` when it is a file-system error of a known
 * code (see the table above); any other error (a refused state path, a bug) is returned as is.
 */
export function asFileWriteError(error: unknown, file: string): unknown {
  if (error instanceof FileWriteError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !(code in CAUSES)) return error;
  return new FileWriteError(file, code, error);
}
