/**
 * Errors of the workbench's files (codebook.json, codings.json, notebook.md) that a researcher can
 * act on: each names the file, and the line or the field (`codes[2].colour`) that is wrong, with
 * the value found there. A file that does not read is never replaced by an empty one: the stores
 * throw these and write nothing.
 */
import { findNodeAtLocation, parse as parseTolerant, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
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

/** The one-based line of the value at `path` in a JSON text (undefined when it is not there). */
function lineOfField(text: string, path: readonly PropertyKey[]): number | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  // The deepest part of the path that is in the file: a missing field is reported at its object.
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n).map((p) => (typeof p === 'number' ? p : String(p))));
    if (node) return lineOf(text, node.offset).line;
  }
  return undefined;
}

/**
 * The validated value of a JSON file's text.
 * @throws WorkbenchFileError naming the file and the line (invalid JSON), or the field, its line and the value found there (does not validate).
 */
export function parseJsonFile<T>(text: string, file: string, schema: z.ZodType<T>): T {
  const body = text.replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (e) {
    // Where: the first error of a tolerant parse (JSON.parse does not always say).
    const errors: ParseError[] = [];
    parseTolerant(body, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const detail = first ? printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : (e as Error).message;
    throw new WorkbenchFileError(file, `not valid JSON (${detail})`, first ? { line: lineOf(body, first.offset).line } : {});
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = fieldPath(issue.path) || '(top level)';
  const value = valueAt(raw, issue.path);
  const found = issue.code === 'custom' || value === undefined ? '' : ` (found ${shown(value)})`;
  const more = parsed.error.issues.length > 1 ? `; and ${parsed.error.issues.length - 1} more problem${parsed.error.issues.length > 2 ? 's' : ''}` : '';
  const line = lineOfField(body, issue.path);
  throw new WorkbenchFileError(file, `${issue.message}${found}${more}`, { field, ...(line !== undefined ? { line } : {}) });
}
