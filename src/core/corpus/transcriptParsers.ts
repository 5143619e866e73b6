/**
 * Parsers for transcript files. Each returns the segments it could read and the
 * problems it met; none of them throws on bad input.
 */
import { parseTree, getNodeValue, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { lineStarts, offsetToLineCol } from '../text/words';
import { readLineHeads } from './lineSpeakers';
import { parseTimestamp } from './timestamps';
import { describeError, fmtCount, jsonDepthExceededAt, MAX_FIELD_CHARS, MAX_JSON_DEPTH, MAX_LINE_CHARS } from './limits';
import { transcriptJsonSchema, transcriptSegmentSchema, transcriptTurnSchema } from './schemas';
import { MappedTextBuilder, mapJsonString, piecesRange, type SourcePiece } from './sourceMap';
import type { CorpusProblem, TextRange, TranscriptFormat } from './types';

/** A segment before offsets into the normalised text are assigned. */
export interface ParsedSegment {
  /** Position in the source (turn index for JSON); defaults to the position among parsed segments. */
  index?: number;
  speaker?: string;
  start?: number;
  end?: number;
  text: string;
  /** Whole range of the text in the original file. */
  source: TextRange;
  /** Exact mapping of the text's characters to the original. */
  pieces: SourcePiece[];
}

export interface ParsedTranscript {
  segments: ParsedSegment[];
  problems: CorpusProblem[];
  title?: string;
  skipped: number;
}

/**
 * Parses transcript text of the given format. `relPath` is only used in problems.
 * Never throws: an unexpected failure is reported as a `parser-failed` problem.
 */
export function parseTranscript(text: string, format: TranscriptFormat, relPath: string): ParsedTranscript {
  try {
    switch (format) {
      case 'json':
        return parseTranscriptJson(text, relPath);
      case 'srt':
      case 'vtt':
        return parseCues(text, format, relPath);
      case 'txt':
      case 'md':
        return parseLines(text, format, relPath);
    }
  } catch (e) {
    return { segments: [], problems: [parserFailed(relPath, e)], skipped: 1 };
  }
}

/** The problem for a parser that threw on a file: the file is skipped. */
export function parserFailed(relPath: string, e: unknown): CorpusProblem {
  return { severity: 'error', file: relPath, code: 'parser-failed', message: `file skipped: ${describeError(e)}` };
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

/** Converts a JSON offset range into a line/column range. */
export function rangeFromOffsets(starts: readonly number[], start: number, end: number): TextRange {
  const a = offsetToLineCol(starts, start);
  const b = offsetToLineCol(starts, end);
  return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
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

/** `CommaExpected` → `comma expected`. */
export function describeJsonError(e: ParseError): string {
  return printParseErrorCode(e.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export interface JsonTree {
  root: Node | undefined;
  errors: ParseError[];
  /** Set when the text nests deeper than {@link MAX_JSON_DEPTH}: offset of the first bracket too deep (nothing was parsed). */
  tooDeepAt?: number;
}

/**
 * Parses JSON strictly (no comments, no trailing commas) into a tree with offsets.
 * Text nested deeper than {@link MAX_JSON_DEPTH} is not parsed (the parser and
 * every tree walk are recursive): `tooDeepAt` says where.
 */
export function parseJsonTree(text: string): JsonTree {
  const tooDeepAt = jsonDepthExceededAt(text);
  if (tooDeepAt !== undefined) return { root: undefined, errors: [], tooDeepAt };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return { root, errors };
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
      message: `JSON nested more than ${MAX_JSON_DEPTH} levels deep; not read`,
    }];
  }
  return jsonErrorsToProblems(tree.errors, starts, relPath);
}

function parseTranscriptJson(text: string, relPath: string): ParsedTranscript {
  const starts = lineStarts(text);
  const tree = parseJsonTree(text);
  const { root, errors } = tree;
  const problems = jsonTreeProblems(tree, starts, relPath);
  const segments: ParsedSegment[] = [];
  const recovering = errors.length > 0;
  let skipped = 0;
  if (!root) {
    return { segments, problems: problems.length ? problems : [emptyProblem(relPath)], skipped: 1 };
  }
  const doc = transcriptJsonSchema.safeParse(getNodeValue(root));
  if (!doc.success) {
    problems.push({ severity: 'error', file: relPath, line: 0, code: 'invalid-transcript', message: `not a transcript: ${doc.error.issues[0]?.message ?? 'unexpected shape'}` });
    return { segments, problems, skipped: 1 };
  }
  const key = Array.isArray(doc.data.turns) ? 'turns' : 'segments';
  const arrayNode = root.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
  const elementSchema = key === 'turns' ? transcriptTurnSchema : transcriptSegmentSchema;
  for (const [i, el] of (arrayNode?.children ?? []).entries()) {
    const at = offsetToLineCol(starts, el.offset);
    if (el.length > MAX_FIELD_CHARS) {
      skipped++;
      problems.push(fieldTooLong(relPath, at, `${key}[${i}]`, el.length));
      continue;
    }
    const parsed = elementSchema.safeParse(getNodeValue(el));
    if (!parsed.success) {
      skipped++;
      const issue = parsed.error.issues[0];
      problems.push({
        severity: 'warning',
        file: relPath,
        line: at.line,
        column: at.column,
        code: 'invalid-turn',
        message: `${key}[${i}] skipped: ${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid'}`,
      });
      continue;
    }
    const textNode = el.children?.find((p) => p.children?.[0]?.value === 'text')?.children?.[1];
    const { source, pieces } = textNode?.type === 'string'
      ? jsonStringSource(text, starts, textNode, parsed.data.text)
      : wholeSource(starts, el.offset, el.offset + el.length, parsed.data.text);
    const v = parsed.data;
    segments.push({
      index: i,
      text: v.text,
      speaker: v.speaker ?? undefined,
      start: toSeconds(v.start),
      end: toSeconds(v.end),
      source,
      pieces,
    });
  }
  if (recovering && problems[0]) {
    problems[0].message += `; read ${segments.length} ${key} that parsed cleanly around the error — check the file`;
  }
  const title = typeof doc.data.title === 'string' ? doc.data.title : undefined;
  return { segments, problems, title, skipped };
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

function emptyProblem(relPath: string): CorpusProblem {
  return { severity: 'warning', file: relPath, code: 'empty-file', message: 'file is empty' };
}

function toSeconds(v: number | string | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const n = Number(v);
  return Number.isFinite(n) && v.trim() !== '' ? n : parseTimestamp(v);
}

/** SRT and WebVTT: blocks separated by blank lines, each with a `start --> end` line. */
function parseCues(text: string, format: 'srt' | 'vtt', relPath: string): ParsedTranscript {
  const lines = text.split('\n');
  const segments: ParsedSegment[] = [];
  const problems: CorpusProblem[] = [];
  let skipped = 0;
  // Lines over the limit are reported and stand in the block as a placeholder that is never read.
  const tooLong = new Set<number>();
  for (const [n, l] of lines.entries()) {
    if (l.length <= MAX_LINE_CHARS) continue;
    problems.push(lineTooLong(relPath, n, l.length));
    skipped++;
    tooLong.add(n);
    lines[n] = TOO_LONG_PLACEHOLDER;
  }
  let i = 0;
  if (format === 'vtt') {
    if (!/^(\uFEFF)?WEBVTT/.test(lines[0] ?? '')) {
      problems.push({ severity: 'warning', file: relPath, line: 0, code: 'vtt-header', message: 'missing "WEBVTT" header; reading cues anyway' });
    } else {
      while (i < lines.length && lines[i]!.trim() !== '') i++;
    }
  }
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') block.push(lines[i++]!);
    if (format === 'vtt' && /^(NOTE|STYLE|REGION)\b/.test(block[0]!)) continue;
    const timingIdx = block.findIndex((l) => l.includes('-->'));
    if (timingIdx < 0 || timingIdx > 1) {
      skipped++;
      problems.push({ severity: 'warning', file: relPath, line: blockStart, code: 'bad-cue', message: 'cue without a "start --> end" timing line skipped' });
      continue;
    }
    const [from, to] = block[timingIdx]!.split('-->');
    const start = parseTimestamp(from ?? '');
    const end = parseTimestamp((to ?? '').trim().split(/\s+/)[0] ?? '');
    if (start === undefined || end === undefined) {
      problems.push({ severity: 'warning', file: relPath, line: blockStart + timingIdx, code: 'bad-timestamp', message: `unreadable timestamp "${block[timingIdx]!.trim()}"; cue kept without time` });
    }
    const textLines = block.slice(timingIdx + 1);
    if (textLines.length === 0) continue;
    let speaker: string | undefined;
    const b = new MappedTextBuilder();
    for (const [k, raw] of textLines.entries()) {
      if (tooLong.has(blockStart + timingIdx + 1 + k)) continue;
      const v = /^<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(raw);
      if (v && !speaker) speaker = v[1]!.trim();
      const lineText = cueLine(raw, blockStart + timingIdx + 1 + k).trimmed();
      if (!lineText.text) continue;
      if (b.text) b.synthetic(' ');
      b.appendFrom(lineText, 0, lineText.text.length);
    }
    if (b.text === '') continue;
    segments.push({ text: b.text, speaker, start, end, source: piecesRange(b.pieces, b.text.length), pieces: b.pieces });
  }
  return { segments, problems, skipped };
}

/** Stands for a skipped over-long line in a cue block: not blank (the block holds together), not a timing line. */
const TOO_LONG_PLACEHOLDER = '\u2026';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/** One text line of a cue: tags dropped, entities decoded, every character mapped. */
function cueLine(raw: string, line: number): MappedTextBuilder {
  const b = new MappedTextBuilder();
  let i = 0;
  let run = 0;
  while (i < raw.length) {
    const ch = raw[i];
    if (ch === '<') {
      const close = raw.indexOf('>', i);
      if (close > i) {
        b.verbatim(raw.slice(run, i), line, run);
        i = close + 1;
        run = i;
        continue;
      }
    } else if (ch === '&') {
      const m = /^&(amp|lt|gt|quot|#39|nbsp);/.exec(raw.slice(i, i + 6));
      if (m) {
        b.verbatim(raw.slice(run, i), line, run);
        b.mapped(ENTITIES[m[0]]!, line, i, m[0].length);
        i += m[0].length;
        run = i;
        continue;
      }
    }
    i++;
  }
  b.verbatim(raw.slice(run), line, run);
  return b;
}

/**
 * Plain text and Markdown: one segment per non-empty line. A leading timestamp and speaker
 * label (`[00:01:05] Host: …`, `主持人：…`), when the file uses them throughout, become the
 * segment's `start` and `speaker` and its text is the rest of the line (see `lineSpeakers`).
 */
function parseLines(text: string, format: 'txt' | 'md', relPath: string): ParsedTranscript {
  const segments: ParsedSegment[] = [];
  const problems: CorpusProblem[] = [];
  let skipped = 0;
  const lines = text.split('\n');
  // The lines that are read: not front matter, not over-long, not blank.
  const read: (string | undefined)[] = lines.map(() => undefined);
  let inFrontMatter = format === 'md' && lines[0]?.trim() === '---';
  for (const [n, raw] of lines.entries()) {
    if (inFrontMatter) {
      if (n > 0 && raw.trim() === '---') inFrontMatter = false;
      continue;
    }
    if (raw.length > MAX_LINE_CHARS) {
      problems.push(lineTooLong(relPath, n, raw.length));
      skipped++;
      continue;
    }
    if (raw.trim() !== '') read[n] = raw;
  }
  const heads = readLineHeads(read);
  for (const [n, raw] of read.entries()) {
    const head = heads[n];
    if (raw === undefined || !head || head.headOnly) continue;
    const rest = raw.slice(head.column);
    const lead = head.column + rest.length - rest.trimStart().length;
    const t = rest.trim();
    if (t === '') continue;
    segments.push({
      text: t,
      ...(head.speaker !== undefined ? { speaker: head.speaker } : {}),
      ...(head.start !== undefined ? { start: head.start } : {}),
      ...(head.end !== undefined ? { end: head.end } : {}),
      source: { startLine: n, startColumn: lead, endLine: n, endColumn: lead + t.length },
      pieces: [{ at: 0, line: n, column: lead, length: t.length, rawLength: t.length }],
    });
  }
  return { segments, problems, skipped };
}
