/**
 * JSON files as jsonc-parser trees with offsets: the strict parse every JSON
 * reader of the corpus uses, its problems, and where a string node's text sits
 * in the file.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { offsetToLineCol } from '../text/words';
import { jsonDepthExceededAt, MAX_JSON_DEPTH } from './limits';
import { mapJsonString, piecesRange, type SourcePiece } from './sourceMap';
import type { CorpusProblem, TextRange } from './types';

export interface JsonTree {
  root: Node | undefined;
  errors: ParseError[];
  /** Set when the text nests deeper than {@link MAX_JSON_DEPTH}: offset of the first bracket too deep (nothing was parsed). */
  tooDeepAt?: number;
}

/** The options of every parse: strict JSON (no comments, no trailing commas, no empty content). */
export const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/**
 * Parses JSON strictly (no comments, no trailing commas) into a tree with offsets.
 * Text nested deeper than {@link MAX_JSON_DEPTH} is not parsed (the parser and
 * every tree walk are recursive): `tooDeepAt` says where.
 */
export function parseJsonTree(text: string): JsonTree {
  const tooDeepAt = jsonDepthExceededAt(text);
  if (tooDeepAt !== undefined) return { root: undefined, errors: [], tooDeepAt };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT_JSON);
  return { root, errors };
}

/** Converts a JSON offset range into a line/column range. */
export function rangeFromOffsets(starts: readonly number[], start: number, end: number): TextRange {
  const a = offsetToLineCol(starts, start);
  const b = offsetToLineCol(starts, end);
  return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
}

/** `CommaExpected` → `comma expected`. */
export function describeJsonError(e: ParseError): string {
  return printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Reports jsonc-parser errors as one corpus problem at the first error, saying
 * how many more followed (later errors are usually consequences of the first).
 */
export function jsonErrorsToProblems(errors: ParseError[], starts: readonly number[], relPath: string): CorpusProblem[] {
  const first = errors[0];
  if (!first) return [];
  const at = offsetToLineCol(starts, first.offset);
  const more = errors.length > 1 ? ` (${errors.length - 1} more error${errors.length > 2 ? 's' : ''} after it)` : '';
  return [{
    severity: 'error',
    file: relPath,
    line: at.line,
    column: at.column,
    code: 'invalid-json',
    message: `invalid JSON: ${describeJsonError(first)}${more}`,
  }];
}

/** The problems of a parsed JSON tree: too deep, or the first syntax error. */
export function jsonTreeProblems(tree: JsonTree, starts: readonly number[], relPath: string): CorpusProblem[] {
  if (tree.tooDeepAt !== undefined) {
    const at = offsetToLineCol(starts, tree.tooDeepAt);
    return [{
      severity: 'error',
      file: relPath,
      line: at.line,
      column: at.column,
      code: 'json-too-deep',
      message: `JSON nested more than ${MAX_JSON_DEPTH} levels deep; not parsed as a whole`,
    }];
  }
  return jsonErrorsToProblems(tree.errors, starts, relPath);
}

/** The value node of `key` in an object node (the first, if the key is there twice). */
export function propertyValue(obj: Node | undefined, key: string): Node | undefined {
  return obj?.type === 'object' ? obj.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1] : undefined;
}

/** The first property of an object node whose key an earlier property already has. */
export function duplicateProperty(obj: Node): Node | undefined {
  const seen = new Set<string>();
  for (const p of obj.children ?? []) {
    const key = p.children?.[0]?.value;
    if (typeof key !== 'string') continue;
    if (seen.has(key)) return p;
    seen.add(key);
  }
  return undefined;
}

/** Source range and pieces of a JSON string node whose decoded value is `value`. */
export function jsonStringSource(text: string, starts: readonly number[], node: Node, value: string): { source: TextRange; pieces: SourcePiece[] } {
  const at = offsetToLineCol(starts, node.offset + 1);
  const b = mapJsonString(text.slice(node.offset + 1, node.offset + node.length - 1), at.line, at.column);
  if (b.text !== value) return wholeSource(starts, node.offset, node.offset + node.length, value);
  return { source: piecesRange(b.pieces, b.text.length), pieces: b.pieces };
}

/** A text that cannot be mapped character by character: all of it maps to the original range. */
export function wholeSource(starts: readonly number[], start: number, end: number, value: string): { source: TextRange; pieces: SourcePiece[] } {
  const source = rangeFromOffsets(starts, start, end);
  return { source, pieces: [{ at: 0, line: source.startLine, column: source.startColumn, length: value.length, rawLength: end - start }] };
}

/** The place of a problem about a whole file (refused as a whole): from its start to its end. */
export function wholeFile(starts: readonly number[], text: string): { line: number; column: number; endLine: number; endColumn: number } {
  const end = offsetToLineCol(starts, text.length);
  return { line: 0, column: 0, endLine: end.line, endColumn: end.column };
}
