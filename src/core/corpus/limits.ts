/**
 * Bounds on the work one corpus file may cause. A file, line, record or field
 * over a bound is skipped and reported (never parsed, never thrown on), so a
 * single hostile file cannot take the rest of the corpus down.
 */
import type { CorpusProblem } from './types';

/** JSON nested deeper than this (arrays and objects) is rejected before parsing. Real exports stay under 10. */
export const MAX_JSON_DEPTH = 64;

/** A line of a line-based file (txt, md, srt, vtt, jsonl) longer than this many characters (about 800,000 words) is skipped. */
export const MAX_LINE_CHARS = 4_000_000;

/** A record (JSON turn or comment, CSV row) or field longer than this many characters is skipped. */
export const MAX_FIELD_CHARS = 4_000_000;

/** Formats a count for messages: `5242880` → `5,242,880`. */
export function fmtCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Scans JSON text (strings and escapes respected) and returns the offset of the
 * bracket where nesting first goes deeper than `maxDepth`, or undefined. Linear
 * and iterative, so it is safe on any input; it does not validate the JSON.
 */
export function jsonDepthExceededAt(text: string, maxDepth = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}

/** A short description of an exception, for a problem message. */
export function describeError(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return 'the file is too deeply nested or too complex to parse';
  return e instanceof Error ? e.message : String(e);
}

/** The problem for a line over {@link MAX_LINE_CHARS}. */
export function lineTooLong(relPath: string, line: number, length: number): CorpusProblem {
  return {
    severity: 'warning',
    file: relPath,
    line,
    code: 'line-too-long',
    message: `line skipped: ${fmtCount(length)} characters, over the limit of ${fmtCount(MAX_LINE_CHARS)} per line`,
  };
}

/** The problem for a record or field over {@link MAX_FIELD_CHARS}. */
export function fieldTooLong(relPath: string, at: { line: number; column?: number }, what: string, length: number): CorpusProblem {
  return {
    severity: 'warning',
    file: relPath,
    line: at.line,
    ...(at.column !== undefined ? { column: at.column } : {}),
    code: 'field-too-long',
    message: `${what} skipped: ${fmtCount(length)} characters, over the limit of ${fmtCount(MAX_FIELD_CHARS)}`,
  };
}
