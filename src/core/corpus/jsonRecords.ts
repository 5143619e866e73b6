/**
 * The records of a JSON file (transcript turns or segments, comments), each verified against
 * the file's bytes.
 *
 * In a file that parses cleanly, every element of the records array is a record. In a broken
 * file the tolerant parse tree cannot be trusted below the array: jsonc-parser's error recovery
 * glues the fields of two records into one object (a missing `}` files the next turn's text under
 * this turn's speaker and place). So in a broken file the records are found again from the
 * file's tokens (jsonc-parser's scanner, which keeps strings and escapes straight): a candidate
 * is a `{` directly inside the records array (never a property's value, never inside an inner
 * array), and it is a record only when its braces match, the object between them parses *on its
 * own* without a single error, and no key appears twice in it. Its fields are read from that
 * standalone parse, its offsets shifted to where it starts, so its text, speaker and times are
 * the bytes of that one object and the source map points at them. Everything else inside the
 * array (a record that does not close or does not parse, stray fields, garbage) is skipped and
 * reported: one problem per run of skipped text, with its first and last line.
 *
 * A duplicate key is refused in a clean file too: it is what two records run together look
 * like, and which of the two values was meant cannot be known.
 */
import { createScanner, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { offsetToLineCol } from '../text/words';
import { describeJsonError, duplicateProperty, STRICT_JSON, type JsonTree } from './jsonTree';
import { fieldTooLong, fmtCount, jsonDepthExceededAt, MAX_FIELD_CHARS, MAX_JSON_DEPTH } from './limits';
import type { CorpusProblem } from './types';

/** One record of the array: its node (offsets into the whole file) and its position. */
export interface JsonRecord {
  node: Node;
  /** Array position in a clean file; in a broken one, position among the records found there (read or skipped). */
  index: number;
}

export interface JsonRecords {
  records: JsonRecord[];
  problems: CorpusProblem[];
  /** Records (or runs of text) skipped. */
  skipped: number;
}

/** How records are named in problems: `turn`/`turns`, `comment`/`comments`. */
export interface RecordNames {
  one: string;
  many: string;
}

// jsonc-parser's SyntaxKind (a const enum, not importable under isolatedModules).
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COLON = 6;
const STRING = 10;
const EOF = 17;

/**
 * The verified records of `list` (the records array in `tree`), with a problem for every
 * record or run of text that was skipped.
 *
 * @param list The records array as the tree has it; undefined in a broken file where no array
 *   could be found under the expected key (then records are looked for in the whole file).
 * @example
 * const tree = parseJsonTree(text);
 * const { records, problems } = jsonArrayRecords(text, lineStarts(text), tree, propertyValue(tree.root, 'turns'), { one: 'turn', many: 'turns' }, 'ep1/transcript.json');
 */
export function jsonArrayRecords(text: string, starts: readonly number[], tree: JsonTree, list: Node | undefined, names: RecordNames, relPath: string): JsonRecords {
  if (tree.errors.length === 0 && list?.type === 'array') return cleanRecords(starts, list, names, relPath);
  if (tree.tooDeepAt !== undefined && !tree.root) {
    // Too deep to parse whole: no tree; the records array and the document's shape are read from the tokens.
    const shape = documentShape(text, LIST_KEYS[names.many] ?? [names.many]);
    return recoveredRecords(text, starts, shape.listAt, shape.isObject, names, relPath);
  }
  return recoveredRecords(text, starts, list?.type === 'array' ? list.offset : undefined, tree.root?.type === 'object', names, relPath);
}

/** The keys under which a document keeps its records, by what the records are called. */
const LIST_KEYS: Record<string, readonly string[]> = { turns: ['turns', 'segments'], segments: ['segments', 'turns'], comments: ['comments', 'items'] };

/**
 * The shape of a document too deep to parse, from its tokens: whether it is an object, and the
 * offset of its records array (the document itself when it is an array, else the first array
 * that is the value of one of `keys` at its top level).
 */
function documentShape(text: string, keys: readonly string[]): { isObject: boolean; listAt?: number } {
  const scanner = createScanner(text, true);
  let depth = 0;
  let first = true;
  let isObject = false;
  let keyAt = -1;
  for (let kind: number = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    const at = scanner.getTokenOffset();
    if (first) {
      first = false;
      if (kind === OPEN_BRACKET) return { isObject: false, listAt: at };
      isObject = kind === OPEN_BRACE;
    }
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (kind === OPEN_BRACKET && depth === 1 && keyAt >= 0) return { isObject, listAt: at };
      depth++;
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth--;
    if (kind === STRING && depth === 1 && keys.includes(scanner.getTokenValue())) keyAt = at;
    else if (kind !== COLON) keyAt = -1;
  }
  return { isObject };
}

/** A clean file: every element is a record, unless it is too long or repeats a key. */
function cleanRecords(starts: readonly number[], list: Node, names: RecordNames, relPath: string): JsonRecords {
  const out: JsonRecords = { records: [], problems: [], skipped: 0 };
  for (const [index, node] of (list.children ?? []).entries()) {
    const refused = refusal(starts, node, `${names.many}[${index}]`, relPath);
    if (refused) {
      out.problems.push(refused);
      out.skipped++;
    } else {
      out.records.push({ node, index });
    }
  }
  return out;
}

/** Why a complete record is not read (too long, a key twice), or undefined. */
function refusal(starts: readonly number[], node: Node, label: string, relPath: string): CorpusProblem | undefined {
  const at = offsetToLineCol(starts, node.offset);
  if (node.length > MAX_FIELD_CHARS) return fieldTooLong(relPath, at, label, node.length);
  const dup = node.type === 'object' ? duplicateProperty(node) : undefined;
  if (!dup) return undefined;
  const end = offsetToLineCol(starts, node.offset + node.length);
  const where = offsetToLineCol(starts, dup.offset);
  return {
    severity: 'warning',
    file: relPath,
    line: at.line,
    column: at.column,
    endLine: end.line,
    endColumn: end.column,
    code: 'duplicate-key',
    message: `${label} skipped: the key "${String(dup.children?.[0]?.value)}" appears twice in it (again at line ${where.line + 1}, column ${where.column + 1}): two records run together, or an ambiguous one`,
  };
}

interface Candidate {
  /** Offset of its `{`. */
  start: number;
  /** Offset after its matching `}`, when it has one. */
  end?: number;
  /** After the records array closed. */
  outside: boolean;
}

/**
 * The candidate records of a broken file: every `{` directly inside the records array (or, with
 * no array known, inside at most one array), not a property's value, with its matching `}`.
 * Braces are matched by a stack: a `]` closes the objects left open inside its array (a record
 * missing its `}`), a `}` with no object open is stray (a record missing its `{`) and ignored.
 */
function scanCandidates(text: string, listAt: number | undefined, documentIsObject: boolean): { candidates: Candidate[]; listEnd?: number } {
  const scanner = createScanner(text, true);
  scanner.setPosition(listAt ?? 0);
  const candidates: Candidate[] = [];
  const stack: { brace: boolean; cand?: Candidate; list?: boolean }[] = [];
  let brackets = 0;
  let listBrackets = -1;
  let listEnd: number | undefined;
  let prev = -1;
  let first = true;
  for (let kind: number = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    const at = scanner.getTokenOffset();
    if (kind === OPEN_BRACE) {
      const depthOk = listAt === undefined ? brackets <= 1 : listEnd === undefined ? brackets === listBrackets : brackets <= listBrackets;
      // With no array known, the file's own first `{` is the document, not a record.
      const isDocument = first && listAt === undefined && documentIsObject;
      const cand = prev !== COLON && depthOk && !isDocument ? { start: at, outside: listEnd !== undefined } : undefined;
      if (cand) candidates.push(cand);
      stack.push({ brace: true, cand });
    } else if (kind === OPEN_BRACKET) {
      brackets++;
      const isList = at === listAt;
      if (isList) listBrackets = brackets;
      stack.push({ brace: false, list: isList });
    } else if (kind === CLOSE_BRACE) {
      const top = stack[stack.length - 1];
      if (top?.brace) {
        stack.pop();
        if (top.cand) top.cand.end = at + 1;
      }
    } else if (kind === CLOSE_BRACKET) {
      while (stack[stack.length - 1]?.brace) stack.pop();
      const top = stack.pop();
      if (top) brackets--;
      if (top?.list && listEnd === undefined) listEnd = at;
    }
    prev = kind;
    first = false;
  }
  return { candidates, listEnd };
}

/** The object of `text[start, end)` parsed on its own, or the first error that prevents it (none given when it nests too deep to parse). */
function parseAlone(text: string, start: number, end: number): { node: Node } | { error: ParseError | undefined; tooDeep?: boolean } {
  const slice = text.slice(start, end);
  // The parser and every tree walk recurse: a record nesting too deep is refused unparsed.
  if (jsonDepthExceededAt(slice) !== undefined) return { error: undefined, tooDeep: true };
  const errors: ParseError[] = [];
  const node = parseTree(slice, errors, STRICT_JSON);
  if (errors.length || node?.type !== 'object' || node.offset !== 0 || node.length !== end - start) return { error: errors[0] };
  shift(node, start);
  return { node };
}

/** Moves a standalone parse's offsets to where the object sits in the file. */
function shift(node: Node, by: number): void {
  (node as { offset: number }).offset += by;
  for (const c of node.children ?? []) shift(c, by);
}

/** A broken file: the records found again from its tokens, each parsed on its own. */
function recoveredRecords(text: string, starts: readonly number[], listAt: number | undefined, documentIsObject: boolean, names: RecordNames, relPath: string): JsonRecords {
  const out: JsonRecords = { records: [], problems: [], skipped: 0 };
  const { candidates, listEnd } = scanCandidates(text, listAt, documentIsObject);
  /** Spans [start, end) accounted for: read, or skipped with their own problem. */
  const covered: [number, number][] = [];
  /** Why each candidate that is not a record failed, by its start. */
  const failures = new Map<number, string>();
  let coveredUntil = 0;
  let index = 0;
  for (const c of candidates) {
    if (c.start < coveredUntil) continue;
    const i = index++;
    const at = offsetToLineCol(starts, c.start);
    let why: string;
    if (c.end === undefined) {
      why = `the ${names.one} starting at line ${at.line + 1} has no matching "}" (a brace or a quote missing?)`;
    } else if (c.end - c.start > MAX_FIELD_CHARS) {
      out.problems.push(fieldTooLong(relPath, at, `the ${names.one} at line ${at.line + 1}`, c.end - c.start));
      out.skipped++;
      covered.push([c.start, c.end]);
      coveredUntil = c.end;
      continue;
    } else {
      const alone = parseAlone(text, c.start, c.end);
      if ('node' in alone) {
        const refused = refusal(starts, alone.node, `the ${names.one} at line ${at.line + 1}`, relPath);
        if (refused) {
          out.problems.push(refused);
          out.skipped++;
        } else {
          out.records.push({ node: alone.node, index: i });
        }
        covered.push([c.start, c.end]);
        coveredUntil = c.end;
        continue;
      }
      const e = alone.error;
      const eAt = e ? offsetToLineCol(starts, c.start + e.offset) : undefined;
      why = 'tooDeep' in alone && alone.tooDeep
        ? `the ${names.one} at line ${at.line + 1} nests more than ${MAX_JSON_DEPTH} levels deep`
        : `the ${names.one} at line ${at.line + 1} does not parse on its own${e && eAt ? `: ${describeJsonError(e)} at line ${eAt.line + 1}, column ${eAt.column + 1}` : ''}`;
    }
    failures.set(c.start, why);
    if (c.outside) {
      // After the records array: reported on its own (the document's other fields are not records).
      out.problems.push(skippedText(starts, relPath, c.start, c.end ?? lineEnd(text, c.start), why));
      out.skipped++;
    }
  }
  // Inside the array, every run of text that is neither a record read nor reported is skipped text.
  const regionStart = listAt === undefined ? 0 : listAt + 1;
  const regionEnd = listEnd ?? text.length;
  const failed = [...failures.keys()]; // in file order, as the candidates
  const next = { failed: 0 };
  let from = regionStart;
  for (const [a, b] of [...covered, [regionEnd, regionEnd] as [number, number]]) {
    if (a > from) reportGap(text, starts, relPath, from, Math.min(a, regionEnd), failed, next, failures, names, out);
    from = Math.max(from, b);
    if (from >= regionEnd) break;
  }
  return out;
}

/**
 * Reports `text[from, to)` as skipped when it holds anything but whitespace and commas, with why
 * the first candidate record in it failed. Gaps come in file order: `next.failed` walks `failed`
 * (the failed candidates' starts, in order) once over all of them.
 */
function reportGap(
  text: string, starts: readonly number[], relPath: string, from: number, to: number,
  failed: readonly number[], next: { failed: number }, failures: ReadonlyMap<number, string>, names: RecordNames, out: JsonRecords,
): void {
  let a = from;
  while (a < to && isSeparator(text.charCodeAt(a))) a++;
  let b = to;
  while (b > a && isSeparator(text.charCodeAt(b - 1))) b--;
  while (next.failed < failed.length && failed[next.failed]! < a) next.failed++;
  const first = next.failed;
  while (next.failed < failed.length && failed[next.failed]! < b) next.failed++;
  const count = next.failed - first;
  if (a >= b) return;
  const why = count ? failures.get(failed[first]!)! : `text that is not part of any ${names.one}`;
  out.problems.push(skippedText(starts, relPath, a, b, count > 1 ? `${why} (${fmtCount(count)} ${names.many} in this text)` : why));
  out.skipped += Math.max(1, count);
}

function skippedText(starts: readonly number[], relPath: string, a: number, b: number, why: string): CorpusProblem {
  const s = offsetToLineCol(starts, a);
  const e = offsetToLineCol(starts, b);
  const lines = s.line === e.line ? `line ${s.line + 1}` : `lines ${s.line + 1}–${e.line + 1}`;
  return {
    severity: 'warning',
    file: relPath,
    line: s.line,
    column: s.column,
    endLine: e.line,
    endColumn: e.column,
    code: 'record-skipped',
    message: `${lines} skipped, not read: ${why}`,
  };
}

function lineEnd(text: string, from: number): number {
  const n = text.indexOf('\n', from);
  return n < 0 ? text.length : n;
}

/** Whitespace and commas: what may lie between records. */
function isSeparator(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44;
}
