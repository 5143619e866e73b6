/**
 * Errors of the workbench's files (codebook.json, codings.json, notebook.md) that a researcher can
 * act on: each names the file, and the line or the field (`codes[2].colour`) that is wrong, with
 * the value found there. A file that does not read is never replaced by an empty one: the stores
 * throw these and write nothing.
 */
import type { z } from 'zod';

/** A workbench file that could not be used as it is. */
export class WorkbenchFileError extends Error {
  readonly code = 'EWORKBENCHFILE';
  /**
   * @param file The file, as the caller named it.
   * @param detail What is wrong, in words.
   * @param where The one-based line, and the field (`codes[2].colour`), when known.
   */
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly where: { line?: number; field?: string } = {},
  ) {
    super(`${file}${where.line !== undefined ? `:${where.line}` : ''}: ${where.field ? `${where.field}: ` : ''}${detail}`);
    this.name = 'WorkbenchFileError';
  }
}

/** `codes[2].colour` from a zod path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out;
}

/** The value at `path` of a parsed JSON value (undefined when absent). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const p of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[p];
  }
  return at;
}

/** A short rendering of a value found in a file. */
function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
}

/** The one-based line and column of a character offset. */
export function lineOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/**
 * The validated value of a JSON file's text.
 * @throws WorkbenchFileError naming the file and the line (invalid JSON) or the field and the value found there (does not validate).
 */
export function parseJsonFile<T>(text: string, file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const msg = (e as Error).message;
    const at = /position (\d+)/.exec(msg);
    const where = at ? lineOf(text, Number(at[1])) : undefined;
    throw new WorkbenchFileError(file, `not valid JSON (${msg.replace(/\s*in JSON at position \d+.*$/, '')})`, where ? { line: where.line } : {});
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldPath(issue.path) || '(top level)';
  const found = issue.code === 'custom' ? '' : ` (found ${shown(valueAt(raw, issue.path))})`;
  const more = parsed.error.issues.length > 1 ? `; and ${parsed.error.issues.length - 1} more problem${parsed.error.issues.length > 2 ? 's' : ''}` : '';
  throw new WorkbenchFileError(file, `${issue.message}${found}${more}`, { field });
}
