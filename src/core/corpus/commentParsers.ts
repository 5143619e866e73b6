/**
 * Parsers for comment files (`.jsonl`, `.json`, `.csv`). Each record is
 * validated on its own: a broken record is reported with its line and skipped,
 * the rest of the file still loads.
 */
import { getNodeValue, type Node } from 'jsonc-parser';
import { lineStarts, offsetToLineCol } from '../text/words';
import { jsonArrayRecords } from './jsonRecords';
import { duplicateProperty, jsonStringSource, jsonTreeProblems, parseJsonTree, propertyValue, wholeFile, wholeSource, type JsonTree } from './jsonTree';
import { jsonRecordOffsets, parseCleanObject, type StringAt } from './jsonRecordOffsets';
import { COMMENT_FIELD_ALIASES, commentRecordSchema, normaliseCommentFields, type RawCommentRecord } from './schemas';
import { MappedTextBuilder, piecesRange, type SourcePiece } from './sourceMap';
import { fieldTooLong, fmtCount, lineTooLong, MAX_JSON_DEPTH, MAX_LINE_CHARS } from './limits';
import { parserFailed } from './transcriptParsers';
import type { CommentsFormat, CorpusProblem, TextRange } from './types';

/** A comment before offsets into the normalised text are assigned. */
export interface ParsedComment {
  id: string;
  parentId?: string;
  author?: string;
  text: string;
  likes?: number;
  replyCount?: number;
  publishedAt?: string;
  source: TextRange;
  pieces: SourcePiece[];
}

export interface ParsedComments {
  comments: ParsedComment[];
  problems: CorpusProblem[];
  skipped: number;
}

/** Parses comment text of the given format; never throws (an unexpected failure is a `parser-failed` problem). */
export function parseComments(text: string, format: CommentsFormat, relPath: string): ParsedComments {
  try {
    switch (format) {
      case 'jsonl':
        return parseJsonl(text, relPath);
      case 'json':
        return parseJsonArray(text, relPath);
      case 'csv':
        return parseCsv(text, relPath);
    }
  } catch (e) {
    return { comments: [], problems: [parserFailed(relPath, e)], skipped: 1 };
  }
}

interface Acc extends ParsedComments {
  relPath: string;
}

/** Where the text of a record came from: resolved once the text is known. */
type SourceOf = (text: string) => { source: TextRange; pieces: SourcePiece[] };

const isMissing = (v: unknown): boolean => v === undefined || v === null;
const finiteNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/**
 * `r` when {@link commentRecordSchema} accepts it for sure, as it is — the
 * common case, checked here without running the schema: text a string;
 * author and published_at strings, null or missing; likes and reply_count
 * finite numbers, null or missing; comment_id and parent_id strings, finite
 * numbers, null or missing. Anything else (undefined) is left to the schema,
 * which decides and words the problem.
 */
function plainRecord(r: Record<string, unknown>): RawCommentRecord | undefined {
  if (typeof r['text'] !== 'string') return undefined;
  for (const key of ['author', 'published_at'] as const) if (!isMissing(r[key]) && typeof r[key] !== 'string') return undefined;
  for (const key of ['likes', 'reply_count'] as const) if (!isMissing(r[key]) && !finiteNumber(r[key])) return undefined;
  for (const key of ['comment_id', 'parent_id'] as const) if (!isMissing(r[key]) && typeof r[key] !== 'string' && !finiteNumber(r[key])) return undefined;
  return r as RawCommentRecord;
}

function addRecord(acc: Acc, value: unknown, sourceOf: SourceOf, at: { line: number; column: number }, fallbackId: string): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    acc.skipped++;
    acc.problems.push({ severity: 'warning', file: acc.relPath, line: at.line, column: at.column, code: 'invalid-comment', message: 'comment record is not an object; skipped' });
    return;
  }
  const normalised = normaliseCommentFields(value as Record<string, unknown>);
  const plain = plainRecord(normalised);
  const parsed = plain ? { success: true as const, data: plain } : commentRecordSchema.safeParse(normalised);
  if (!parsed.success) {
    acc.skipped++;
    const issue = parsed.error.issues[0];
    acc.problems.push({
      severity: 'warning',
      file: acc.relPath,
      line: at.line,
      column: at.column,
      code: 'invalid-comment',
      message: `comment skipped: ${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid record'}`,
    });
    return;
  }
  const r = parsed.data;
  const { source, pieces } = sourceOf(r.text);
  acc.comments.push({
    id: r.comment_id === undefined || r.comment_id === null || r.comment_id === '' ? fallbackId : String(r.comment_id),
    parentId: r.parent_id === undefined || r.parent_id === null || r.parent_id === '' ? undefined : String(r.parent_id),
    author: r.author ?? undefined,
    text: r.text,
    likes: r.likes ?? undefined,
    replyCount: r.reply_count ?? undefined,
    publishedAt: r.published_at ?? undefined,
    source,
    pieces,
  });
}

/** Exported for the tests: `treeOnly` reads every line through jsonc-parser's tree (the reader the clean lines are checked against). */
export function parseJsonl(text: string, relPath: string, treeOnly = false): ParsedComments {
  const acc: Acc = { comments: [], problems: [], skipped: 0, relPath };
  const lines = text.split('\n');
  for (const [n, line] of lines.entries()) {
    if (line.length > MAX_LINE_CHARS) {
      acc.skipped++;
      acc.problems.push(lineTooLong(relPath, n, line.length));
      continue;
    }
    if (line.trim() === '') continue;
    const clean = treeOnly ? undefined : cleanJsonLine(line);
    if (clean) {
      const tree = (): JsonTree => parseJsonTree(line);
      addRecord(acc, clean.value, lineSourceOf(line, n, clean, tree), { line: n, column: 0 }, `line-${n + 1}`);
      continue;
    }
    const tree = parseJsonTree(line);
    const { root, errors } = tree;
    if (errors.length || !root) {
      acc.skipped++;
      const [p] = jsonTreeProblems(tree, [0], relPath);
      acc.problems.push({
        severity: 'warning',
        file: relPath,
        line: n,
        column: p?.column ?? 0,
        code: p?.code ?? 'invalid-json',
        message: `line skipped: ${p?.message.replace(/ \(\d+ more errors? after it\)/, '') ?? 'invalid JSON'}`,
      });
      continue;
    }
    const dup = root.type === 'object' ? duplicateProperty(root) : undefined;
    if (dup) {
      acc.skipped++;
      acc.problems.push(duplicateKey(relPath, { line: n, column: 0 }, 'line', dup));
      continue;
    }
    addRecord(acc, getNodeValue(root), lineSourceOf(line, n, undefined, () => tree), { line: n, column: 0 }, `line-${n + 1}`);
  }
  return acc;
}

/**
 * A line of a JSONL file that `JSON.parse` reads as an object with no key written twice (what
 * the tree reader would report), with where its top-level text keys' string values are
 * (jsonRecordOffsets.ts); undefined for anything else, which the tree reader reads and words.
 */
function cleanJsonLine(line: string): { value: Record<string, unknown>; values: ReadonlyMap<string, StringAt> } | undefined {
  const value = parseCleanObject(line);
  if (!value) return undefined;
  const offsets = jsonRecordOffsets(line, undefined, QUOTED_TEXT_KEYS);
  const rec = offsets?.records[0];
  if (!rec || offsets.maxDepth > MAX_JSON_DEPTH || offsets.records.length !== 1 || rec.keys !== Object.keys(value).length) return undefined;
  return { value, values: rec.values };
}

/**
 * Where a comment's text on line `n` is in the file: its string value (from the clean line's
 * offsets when it is a top-level text key, else from the line's tree), or the whole line.
 */
function lineSourceOf(line: string, n: number, clean: { value: Record<string, unknown>; values: ReadonlyMap<string, StringAt> } | undefined, tree: () => JsonTree): SourceOf {
  const lineStartsOfLine = [0];
  return (value) => {
    let textNode: Node | undefined;
    if (clean) {
      // The first text key holding the value, as the tree reader picks it; written with escapes, it is not in `values`: the tree finds it.
      const k = TEXT_KEYS.find((key) => clean.value[key] === value);
      const at = k === undefined ? undefined : clean.values.get(`"${k}"`);
      if (at) textNode = { type: 'string', offset: at.offset, length: at.length } as Node;
    }
    if (!textNode) {
      const root = tree().root;
      textNode = root ? textValueNode(root, value) : undefined;
    }
    const m = textNode ? jsonStringSource(line, lineStartsOfLine, textNode, value) : wholeSource(lineStartsOfLine, 0, line.length, value);
    return { source: shiftRange(m.source, n), pieces: m.pieces.map((p) => ({ ...p, line: p.line + n })) };
  };
}

/** The problem for a record that has a key twice (line and column zero-based, of the record). */
function duplicateKey(relPath: string, at: { line: number; column: number }, what: string, dup: Node): CorpusProblem {
  return {
    severity: 'warning',
    file: relPath,
    line: at.line,
    column: at.column,
    code: 'duplicate-key',
    message: `${what} skipped: the key "${String(dup.children?.[0]?.value)}" appears twice in the comment (two records run together, or an ambiguous one)`,
  };
}

function shiftRange(r: TextRange, lines: number): TextRange {
  return { ...r, startLine: r.startLine + lines, endLine: r.endLine + lines };
}

/** The text field and its aliases, canonical name first (from the one alias table in schemas.ts). */
const TEXT_KEYS = ['text', ...Object.keys(COMMENT_FIELD_ALIASES).filter((k) => COMMENT_FIELD_ALIASES[k] === 'text')];
/** The same keys as written in a file (with quotes). */
const QUOTED_TEXT_KEYS = TEXT_KEYS.map((k) => `"${k}"`);

/**
 * The string node the record's text was read from: a text field (canonical name first, then
 * aliases) of the record, of its `snippet` or of `snippet.topLevelComment.snippet` (the YouTube
 * Data API nesting) whose value is the text, so the text maps to exactly those bytes.
 */
function textValueNode(obj: Node, value: string): Node | undefined {
  const snippet = propertyValue(obj, 'snippet');
  const top = propertyValue(propertyValue(snippet, 'topLevelComment'), 'snippet');
  for (const o of [obj, snippet, top]) {
    for (const k of TEXT_KEYS) {
      const v = propertyValue(o, k);
      if (v?.type === 'string' && v.value === value) return v;
    }
  }
  return undefined;
}

function parseJsonArray(text: string, relPath: string): ParsedComments {
  const acc: Acc = { comments: [], problems: [], skipped: 0, relPath };
  const starts = lineStarts(text);
  const tree = parseJsonTree(text);
  const { root, errors } = tree;
  acc.problems.push(...jsonTreeProblems(tree, starts, relPath));
  if (tree.tooDeepAt === undefined && !root && !errors.length) {
    acc.problems.push({ severity: 'warning', file: relPath, code: 'empty-file', message: 'file is empty' });
    return acc;
  }
  // Too deep to parse whole: its records are looked for as in a broken file, each parsed on its own.
  const list = root?.type === 'array' ? root : propertyValue(root, 'comments') ?? propertyValue(root, 'items');
  if (!errors.length && tree.tooDeepAt === undefined && list?.type !== 'array') {
    acc.problems.push({ severity: 'error', file: relPath, ...wholeFile(starts, text), code: 'invalid-comments', message: 'expected an array of comments or an object with a "comments" array; nothing read' });
    return acc;
  }
  // In a broken file the array is only where the records are looked for: each is verified on its own (jsonRecords.ts).
  const found = jsonArrayRecords(text, starts, tree, list?.type === 'array' ? list : undefined, { one: 'comment', many: 'comments' }, relPath);
  acc.problems.push(...found.problems);
  acc.skipped += found.skipped;
  for (const { node: el, index: i } of found.records) {
    const at = offsetToLineCol(starts, el.offset);
    const sourceOf: SourceOf = (value) => {
      const textNode = textValueNode(el, value);
      return textNode ? jsonStringSource(text, starts, textNode, value) : wholeSource(starts, el.offset, el.offset + el.length, value);
    };
    addRecord(acc, getNodeValue(el), sourceOf, at, `index-${i}`);
  }
  const first = acc.problems[0];
  if ((errors.length && first?.code === 'invalid-json') || first?.code === 'json-too-deep') {
    first.message += `; read ${fmtCount(acc.comments.length)} comments that each parse on their own${acc.skipped ? `, skipped ${fmtCount(acc.skipped)}, each reported with its lines` : ''} — check the file`;
  }
  return acc;
}

interface CsvField { value: string; quoted: boolean; line: number; column: number; endLine: number; endColumn: number }

/** A CSV record; `tooLong` (its length in characters) is set when it is over the record limit and its values were not kept. */
export type CsvRow = CsvField[] & { tooLong?: number };

/**
 * RFC 4180 CSV: quoted fields, doubled quotes, embedded newlines; positions kept per field.
 * Linear: values are sliced from the text, never built a character at a time. A record
 * longer than `maxRecordChars` keeps no values (and no fields after its first) and is
 * marked `tooLong`, so a single huge field or row costs no memory.
 */
export function parseCsvRows(text: string, maxRecordChars = MAX_LINE_CHARS): { rows: CsvRow[]; unterminatedAt?: number } {
  const rows: CsvRow[] = [];
  let row: CsvRow = [];
  let rowStart = 0;
  let line = 0;
  let col = 0;
  let i = 0;
  const n = text.length;
  /** Moves the position over text[i, to): line and column follow the newlines. */
  const advance = (to: number): void => {
    for (let k = i; k < to; k++) {
      if (text.charCodeAt(k) === 10) { line++; col = 0; i = k + 1; }
    }
    col += to - i;
    i = to;
  };
  const pushField = (f: CsvField): void => {
    const length = i - rowStart;
    if (length > maxRecordChars) {
      row.tooLong = length;
      if (row.length) return;
      f.value = '';
    }
    row.push(f);
  };
  while (i < n) {
    const fLine = line;
    const fCol = col;
    let value = '';
    const quoted = text.charCodeAt(i) === 34;
    if (quoted) {
      advance(i + 1);
      const parts: string[] = [];
      let size = 0;
      let closed = false;
      while (i < n) {
        const q = text.indexOf('"', i);
        const stop = q < 0 ? n : q;
        if (size <= maxRecordChars) parts.push(text.slice(i, stop));
        size += stop - i;
        advance(stop);
        if (q < 0) break;
        if (text.charCodeAt(q + 1) === 34) {
          if (size <= maxRecordChars) parts.push('"');
          size++;
          advance(q + 2);
          continue;
        }
        advance(q + 1);
        closed = true;
        break;
      }
      value = size <= maxRecordChars ? parts.join('') : '';
      if (!closed) {
        pushField({ value, quoted, line: fLine, column: fCol, endLine: line, endColumn: col });
        return { rows: [...rows, row], unterminatedAt: fLine };
      }
      const from = i;
      while (i < n) { const c = text.charCodeAt(i); if (c === 44 || c === 10) break; i++; }
      col += i - from;
      if (i > from && size + (i - from) <= maxRecordChars) value += text.slice(from, i);
    } else {
      const from = i;
      while (i < n) { const c = text.charCodeAt(i); if (c === 44 || c === 10) break; i++; }
      col += i - from;
      if (i - from <= maxRecordChars) value = text.slice(from, i);
    }
    pushField({ value, quoted, line: fLine, column: fCol, endLine: line, endColumn: col });
    if (i < n && text.charCodeAt(i) === 44) { i++; col++; if (i === n) pushField({ value: '', quoted: false, line, column: col, endLine: line, endColumn: col }); continue; }
    rows.push(row);
    row = [];
    if (i < n) { i++; line++; col = 0; }
    rowStart = i;
  }
  if (row.length) rows.push(row);
  return { rows: rows.filter((r) => r.tooLong !== undefined || !(r.length === 1 && r[0]!.value === '')) };
}

function parseCsv(text: string, relPath: string): ParsedComments {
  const acc: Acc = { comments: [], problems: [], skipped: 0, relPath };
  const { rows, unterminatedAt } = parseCsvRows(text);
  if (unterminatedAt !== undefined) {
    acc.problems.push({ severity: 'warning', file: relPath, line: unterminatedAt, code: 'csv-unterminated', message: 'unterminated quoted field; the last record is skipped' });
    rows.pop();
    acc.skipped++;
  }
  const header = rows.shift();
  if (!header) {
    acc.problems.push({ severity: 'warning', file: relPath, code: 'empty-file', message: 'file is empty' });
    return acc;
  }
  if (header.tooLong !== undefined) {
    acc.skipped++;
    acc.problems.push(fieldTooLong(relPath, { line: header[0]!.line }, 'header row', header.tooLong));
    return acc;
  }
  const names = header.map((f) => f.value.trim());
  for (const [r, fields] of rows.entries()) {
    const first = fields[0]!;
    if (fields.tooLong !== undefined) {
      acc.skipped++;
      acc.problems.push(fieldTooLong(relPath, { line: first.line, column: first.column }, `row ${r + 1}`, fields.tooLong));
      continue;
    }
    if (fields.length !== names.length) {
      acc.problems.push({ severity: 'warning', file: relPath, line: first.line, code: 'csv-columns', message: `row has ${fields.length} fields, header has ${names.length}; read by position` });
    }
    const rec: Record<string, unknown> = {};
    names.forEach((name, k) => { if (fields[k] !== undefined) rec[name] = fields[k]!.value; });
    const textIdx = names.findIndex((nm) => TEXT_KEYS.includes(nm));
    const tf = textIdx >= 0 ? fields[textIdx] : undefined;
    const sourceOf: SourceOf = (value) => {
      if (tf && tf.value === value) {
        const b = csvFieldPieces(tf);
        return { source: piecesRange(b.pieces, b.text.length), pieces: b.pieces };
      }
      const source: TextRange = { startLine: first.line, startColumn: 0, endLine: first.endLine, endColumn: fields[fields.length - 1]!.endColumn };
      return { source, pieces: [{ at: 0, line: first.line, column: 0, length: value.length, rawLength: 0 }] };
    };
    addRecord(acc, rec, sourceOf, { line: first.line, column: first.column }, `row-${r + 1}`);
  }
  return acc;
}

/** Maps the value of a CSV field back to the file: doubled quotes and line breaks included. */
function csvFieldPieces(f: CsvField): MappedTextBuilder {
  const b = new MappedTextBuilder();
  let line = f.line;
  let col = f.column + (f.quoted ? 1 : 0);
  for (const ch of f.value) {
    if (f.quoted && ch === '"') {
      b.mapped('"', line, col, 2);
      col += 2;
    } else if (ch === '\n') {
      b.mapped('\n', line, col, 1);
      line++;
      col = 0;
    } else {
      b.verbatim(ch, line, col);
      col += ch.length;
    }
  }
  return b;
}
