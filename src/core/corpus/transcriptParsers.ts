/**
 * Parsers for transcript files. Each returns the segments it could read and the
 * problems it met; none of them throws on bad input.
 */
import { getNodeValue, type Node } from 'jsonc-parser';
import { lineStarts, offsetToLineCol } from '../text/words';
import { jsonArrayRecords } from './jsonRecords';
import { jsonStringSource, jsonTreeProblems, parseJsonTree, propertyValue, wholeFile, wholeSource } from './jsonTree';
import { readLineHeads } from './lineSpeakers';
import { parseTimestamp } from './timestamps';
import { describeError, fmtCount, lineTooLong, MAX_FIELD_CHARS, MAX_JSON_DEPTH, MAX_LINE_CHARS } from './limits';
import { jsonRecordOffsets, parseCleanObject } from './jsonRecordOffsets';
import { transcriptJsonSchema, transcriptSegmentSchema, transcriptTurnSchema } from './schemas';
import { MappedTextBuilder, piecesRange, type SourcePiece } from './sourceMap';
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

function parseTranscriptJson(text: string, relPath: string): ParsedTranscript {
  const starts = lineStarts(text);
  return cleanTranscriptJson(text, starts) ?? transcriptJsonTree(text, starts, relPath);
}

/**
 * Exported for the tests. A clean transcript read with `JSON.parse` and its records' offsets (jsonRecordOffsets.ts): what
 * {@link transcriptJsonTree} gives for it, about five times faster. Undefined — read the file
 * with the tree — for anything the tree reader would report or decide on (a key written twice,
 * a turn the schemas would check, a record too long, nesting too deep, a syntax error).
 */
export function cleanTranscriptJson(text: string, starts: readonly number[]): ParsedTranscript | undefined {
  const doc = parseCleanObject(text);
  if (!doc) return undefined;
  const key = Array.isArray(doc['turns']) || !Array.isArray(doc['segments']) ? 'turns' : 'segments';
  const list = doc[key];
  if (!Array.isArray(list) || !transcriptJsonSchema.safeParse(topLevelOf(doc)).success) return undefined;
  const offsets = jsonRecordOffsets(text, `"${key}"`, TEXT_KEY);
  if (!offsets || offsets.maxDepth > MAX_JSON_DEPTH || offsets.rootKeys !== Object.keys(doc).length || offsets.records.length !== list.length) return undefined;
  const segments: ParsedSegment[] = [];
  for (let i = 0; i < list.length; i++) {
    const v = plainTurn(list[i]);
    const rec = offsets.records[i]!;
    const textAt = rec.values.get(TEXT_KEY[0]);
    if (!v || !textAt || rec.keys !== Object.keys(v).length || rec.end - rec.start > MAX_FIELD_CHARS) return undefined;
    const { source, pieces } = jsonStringSource(text, starts, { type: 'string', offset: textAt.offset, length: textAt.length } as Node, v.text);
    segments.push({ index: i, text: v.text, speaker: v.speaker ?? undefined, start: toSeconds(v.start), end: toSeconds(v.end), source, pieces });
  }
  const title = doc['title'];
  return { segments, problems: [], title: typeof title === 'string' ? title : undefined, skipped: 0 };
}

/** The key of a turn's text, as written. */
const TEXT_KEY = ['"text"'] as const;

/** {@link topLevelValue} of a parsed document: its arrays and objects empty. */
function topLevelOf(doc: Record<string, unknown>): Record<string, unknown> {
  const obj = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(doc)) obj[k] = Array.isArray(v) ? [] : typeof v === 'object' && v !== null ? Object.create(null) : v;
  return obj;
}

/** Exported for the tests that check the clean reader against it: the transcript read through jsonc-parser's tree. */
export function transcriptJsonTree(text: string, starts: readonly number[], relPath: string): ParsedTranscript {
  const tree = parseJsonTree(text);
  const { root, errors } = tree;
  const problems = jsonTreeProblems(tree, starts, relPath);
  const segments: ParsedSegment[] = [];
  if (tree.tooDeepAt === undefined && !root && !errors.length) {
    return { segments, problems: problems.length ? problems : [emptyProblem(relPath)], skipped: 1 };
  }
  // Too deep to parse whole (a hostile file, or a broken one whose unclosed braces pile up): its
  // records are looked for as in a broken file, each parsed on its own (and refused when it nests too deep).
  const clean = errors.length === 0 && tree.tooDeepAt === undefined;
  if (clean && root) {
    const doc = transcriptJsonSchema.safeParse(topLevelValue(root));
    if (!doc.success) {
      problems.push({ severity: 'error', file: relPath, ...wholeFile(starts, text), code: 'invalid-transcript', message: `not a transcript: ${doc.error.issues[0]?.message ?? 'unexpected shape'}; nothing read` });
      return { segments, problems, skipped: 1 };
    }
  }
  // In a broken file the array is only where the records are looked for: each is verified on its own (jsonRecords.ts).
  const turns = propertyValue(root, 'turns');
  const key = turns?.type === 'array' || propertyValue(root, 'segments')?.type !== 'array' ? 'turns' : 'segments';
  const list = propertyValue(root, key);
  const names = { one: key === 'turns' ? 'turn' : 'segment', many: key };
  const found = jsonArrayRecords(text, starts, tree, list?.type === 'array' ? list : undefined, names, relPath);
  problems.push(...found.problems);
  let skipped = found.skipped;
  const elementSchema = key === 'turns' ? transcriptTurnSchema : transcriptSegmentSchema;
  for (const { node: el, index: i } of found.records) {
    const at = offsetToLineCol(starts, el.offset);
    const value = getNodeValue(el);
    const plain = plainTurn(value);
    const parsed = plain ? { success: true as const, data: plain } : elementSchema.safeParse(value);
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
    const textNode = propertyValue(el, 'text');
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
  if (!clean && (problems[0]?.code === 'invalid-json' || problems[0]?.code === 'json-too-deep')) {
    problems[0].message += `; read ${fmtCount(segments.length)} ${key} that each parse on their own${skipped ? `, skipped ${fmtCount(skipped)}, each reported with its lines` : ''} — check the file`;
  }
  const titleNode = propertyValue(root, 'title');
  const title = titleNode?.type === 'string' ? String(titleNode.value) : undefined;
  return { segments, problems, title, skipped };
}

/** A time the schemas accept for sure: missing, null, a string or a finite number. */
const plainSeconds = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * `v` when it is a turn (or segment) both element schemas accept as it is —
 * the common case, checked here without running the schema: an object (not
 * an array) whose text is a string, whose speaker is a string, null or
 * missing, and whose start and end are {@link plainSeconds}. Anything else
 * (undefined) is left to the schema, which decides and words the problem.
 */
function plainTurn(v: unknown): { text: string; speaker?: string | null; start?: number | string | null; end?: number | string | null } | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const t = v as Record<string, unknown>;
  if (typeof t['text'] !== 'string') return undefined;
  const speaker = t['speaker'];
  if (speaker !== undefined && speaker !== null && typeof speaker !== 'string') return undefined;
  if (!plainSeconds(t['start']) || !plainSeconds(t['end'])) return undefined;
  return t as { text: string; speaker?: string | null; start?: number | string | null; end?: number | string | null };
}

/**
 * What {@link getNodeValue} gives for `node`, one level deep: an object's
 * properties as it gives them but for arrays and objects, which are empty
 * (of the same kind). {@link transcriptJsonSchema} checks the top level only
 * (the turns are checked one by one after), so it answers the same on this,
 * without the values of every turn being made twice.
 */
function topLevelValue(node: Node): unknown {
  if (node.type === 'array') return [];
  if (node.type !== 'object') return getNodeValue(node);
  const obj = Object.create(null) as Record<string, unknown>;
  for (const prop of node.children ?? []) {
    const value = prop.children?.[1];
    if (!value) continue;
    obj[prop.children![0]!.value as string] = value.type === 'array' ? [] : value.type === 'object' ? Object.create(null) : getNodeValue(value);
  }
  return obj;
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
  for (let n = 0; n < lines.length; n++) {
    const l = lines[n]!;
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
      while (i < lines.length && !isBlank(lines[i]!)) i++;
    }
  }
  while (i < lines.length) {
    while (i < lines.length && isBlank(lines[i]!)) i++;
    if (i >= lines.length) break;
    // The block: lines [blockStart, blockEnd).
    const blockStart = i;
    while (i < lines.length && !isBlank(lines[i]!)) i++;
    const blockEnd = i;
    if (format === 'vtt' && /^(NOTE|STYLE|REGION)\b/.test(lines[blockStart]!)) continue;
    const timingAt = lines[blockStart]!.includes('-->') ? blockStart : blockStart + 1 < blockEnd && lines[blockStart + 1]!.includes('-->') ? blockStart + 1 : -1;
    if (timingAt < 0) {
      skipped++;
      problems.push({ severity: 'warning', file: relPath, line: blockStart, code: 'bad-cue', message: 'cue without a "start --> end" timing line skipped' });
      continue;
    }
    const timing = lines[timingAt]!;
    const arrow = timing.indexOf('-->');
    const start = parseTimestamp(timing.slice(0, arrow));
    // What follows the arrow up to the next one, its first word: the end (cue settings after it).
    const next = timing.indexOf('-->', arrow + 3);
    const end = parseTimestamp(FIRST_WORD.exec(next < 0 ? timing.slice(arrow + 3) : timing.slice(arrow + 3, next))?.[0] ?? '');
    if (start === undefined || end === undefined) {
      problems.push({ severity: 'warning', file: relPath, line: timingAt, code: 'bad-timestamp', message: `unreadable timestamp "${timing.trim()}"; cue kept without time` });
    }
    if (timingAt + 1 >= blockEnd) continue;
    let speaker: string | undefined;
    const b = new MappedTextBuilder();
    for (let n = timingAt + 1; n < blockEnd; n++) {
      if (tooLong.has(n)) continue;
      const raw = lines[n]!;
      if (!speaker && raw.startsWith('<v')) {
        const v = /^<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(raw);
        if (v) speaker = v[1]!.trim();
      }
      appendCueLine(b, raw, n);
    }
    if (b.text === '') continue;
    segments.push({ text: b.text, speaker, start, end, source: piecesRange(b.pieces, b.text.length), pieces: b.pieces });
  }
  return { segments, problems, skipped };
}

/** The first run of non-space characters (as `trim().split(/\s+/)[0]`). */
const FIRST_WORD = /\S+/;

/** Whether a line has nothing but whitespace (as `trim() === ''`, without making the trimmed copy). */
function isBlank(l: string): boolean {
  return !NOT_SPACE.test(l);
}
const NOT_SPACE = /\S/;

/** Stands for a skipped over-long line in a cue block: not blank (the block holds together), not a timing line. */
const TOO_LONG_PLACEHOLDER = '\u2026';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * Appends the text of a cue's line `raw` (line `line` of the file) to `b`: its tags dropped, its
 * entities decoded, trimmed, after a joining space when `b` has text already. A line with
 * neither `<` nor `&` (most lines) is its trimmed self, verbatim.
 */
function appendCueLine(b: MappedTextBuilder, raw: string, line: number): void {
  if (raw.includes('&')) {
    const lineText = cueLine(raw, line).trimmed();
    if (!lineText.text) return;
    if (b.text) b.synthetic(' ');
    b.appendFrom(lineText, 0, lineText.text.length);
    return;
  }
  if (raw.includes('<')) {
    appendTaggedLine(b, raw, line);
    return;
  }
  const text = raw.trim();
  if (!text) return;
  if (b.text) b.synthetic(' ');
  b.verbatim(text, line, raw.length - raw.trimStart().length);
}

/**
 * {@link appendCueLine} of a line with tags and no entity (`<v Host>text`, `<c>…</c>`, the most
 * common tagged line): its runs between tags, trimmed as one text, appended in place, as
 * `cueLine(raw).trimmed()` would give them, without the two builders.
 */
function appendTaggedLine(b: MappedTextBuilder, raw: string, line: number): void {
  // Runs of text between tags: [start, end) columns of `raw`.
  const runs: number[] = [];
  let i = 0;
  let run = 0;
  for (;;) {
    const open = raw.indexOf('<', i);
    if (open < 0) break;
    const close = raw.indexOf('>', open);
    if (close < 0) break;
    if (close > open) {
      if (open > run) runs.push(run, open);
      i = close + 1;
      run = i;
    } else i = open + 1;
  }
  if (raw.length > run) runs.push(run, raw.length);
  // The text of the runs joined, trimmed as one: its first and last kept characters.
  let lead = 0;
  let r = 0;
  for (; r < runs.length; r += 2) {
    const part = raw.slice(runs[r]!, runs[r + 1]!);
    const kept = part.trimStart();
    if (kept) {
      lead = runs[r]! + (part.length - kept.length);
      break;
    }
  }
  if (r >= runs.length) return;
  let z = runs.length - 2;
  let tail = 0;
  for (; z >= r; z -= 2) {
    const part = raw.slice(runs[z]!, runs[z + 1]!);
    const kept = part.trimEnd();
    if (kept) {
      tail = runs[z]! + kept.length;
      break;
    }
  }
  if (b.text) b.synthetic(' ');
  for (let k = r; k <= z; k += 2) {
    const a = k === r ? lead : runs[k]!;
    const e = k === z ? tail : runs[k + 1]!;
    if (e > a) b.verbatim(raw.slice(a, e), line, a);
  }
}

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
