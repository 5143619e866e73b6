/**
 * Reading one JSON state file (a marker file, a condensation) through the shared read pool, and
 * saying exactly what came of it: the validated value; "missing" — only when the file does not
 * exist; "invalid" — it was read but does not parse or validate; or "unreadable" — it exists but
 * could not be read (out of handles after the retries, no permission, a symbolic link refused…).
 * An unreadable file is never "missing": callers report it and never generate its content again
 * as if it were absent.
 *
 * The read also gives the file's version (a hash of its bytes, or {@link MISSING_VERSION}), what a
 * writer compares with before it replaces the file (compare-and-swap).
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { isNotFound, pooledRead, readErrorText } from './readPool';
import { isUnsafeStatePath, readStateFile } from './safePath';

/**
 * What reading a state file gave. `missing`: the file does not exist. Otherwise `error` says why
 * (naming the file); `unreadable` is set when the file exists but could not be read at all (as
 * opposed to read and found invalid).
 */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; missing: boolean; error?: string; unreadable?: boolean };

/** The version of a file that does not exist. */
export const MISSING_VERSION = 'missing';

/** A read with the version of the file it read. */
export interface VersionedRead<T> {
  result: ReadResult<T>;
  /** sha256 of the bytes read; {@link MISSING_VERSION} for no file; undefined when it could not be read. */
  version: string | undefined;
}

/** The version of a file's content (see {@link VersionedRead}). */
export function contentVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Reads and validates the JSON state file `file` against `schema`, through the shared read pool.
 * Never throws: every outcome is in the result (see the module comment).
 */
export async function readStateJson<T>(file: string, schema: z.ZodType<T>): Promise<VersionedRead<T>> {
  let text: string;
  try {
    text = await pooledRead(file, () => readStateFile(file, 'utf8'));
  } catch (e) {
    if (isNotFound(e)) return { result: { ok: false, missing: true }, version: MISSING_VERSION };
    const error = isUnsafeStatePath(e) ? e.message : readErrorText(file, e);
    return { result: { ok: false, missing: false, unreadable: true, error }, version: undefined };
  }
  const version = contentVersion(text);
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return { result: { ok: true, value: parsed.data }, version };
    const issue = parsed.error.issues[0];
    return { result: { ok: false, missing: false, error: `${file}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` }, version };
  } catch (e) {
    return { result: { ok: false, missing: false, error: `${file}: ${(e as Error).message}` }, version };
  }
}
