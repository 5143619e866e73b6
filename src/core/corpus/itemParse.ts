/**
 * Reads and parses one item from its files: the chosen transcript, comments
 * and metadata files, the content hash over their bytes, and every problem
 * found, with file and line. The same parse runs at load (files read
 * asynchronously first) and later, on demand, for an item whose parsed parts
 * were not kept ({@link parseItemSync}, used by lazily held items).
 */
import { createHash, type Hash } from 'node:crypto';
import { getNodeValue } from 'jsonc-parser';
import { countWords, lineStarts } from '../text/words';
import { parseComments, type ParsedComment } from './commentParsers';
import { notRegularMessage, readCorpusFile, readCorpusFileSync, type CorpusFileRead } from './regularFiles';
import { pooledRead } from '../storage/readPool';
import { decodeText } from './decode';
import { describeError } from './limits';
import { itemMetaSchema } from './schemas';
import { jsonTreeProblems, parseJsonTree } from './jsonTree';
import { parserFailed, parseTranscript, type ParsedSegment } from './transcriptParsers';
import { factsOf, type CommentsFormat, type CommentsPart, type CorpusItem, type CorpusProblem, type ItemMeta, type SourceFile, type TranscriptFormat, type TranscriptPart } from './types';

/** When an item has the same part in several formats, the first in this list is used. */
export const TRANSCRIPT_PREFERENCE: readonly TranscriptFormat[] = ['json', 'vtt', 'srt', 'txt', 'md'];
export const COMMENTS_PREFERENCE: readonly CommentsFormat[] = ['jsonl', 'json', 'csv'];

/** Files larger than this are not read (reported instead). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

export type PartName = 'transcript' | 'comments' | 'meta';

export interface FoundFile extends SourceFile {
  part: PartName;
  ext: string;
}

/** An item as discovered: its id and every file that belongs to it. */
export interface FoundItem {
  id: string;
  files: FoundFile[];
}

export interface LoadedItem {
  item?: CorpusItem;
  skipped: number;
  filesRead: number;
}

/**
 * Versions of the parsers whose reading of a part's format changed (the text, speakers, times
 * or places of its segments), by `part.ext`: part of the content hash of items with such files.
 * `transcript.txt`/`.md`@2: speaker labels and timestamps at the start of lines. JSON `records@2`:
 * a broken file keeps only records that parse on their own, a record with a key twice is
 * skipped, a comment's text maps to the field it was read from.
 */
export const PARSER_VERSIONS: Readonly<Record<string, string>> = {
  'transcript.txt': 'lines@2',
  'transcript.md': 'lines@2',
  'transcript.json': 'records@2',
  'comments.json': 'records@2',
  'comments.jsonl': 'records@2',
};

/** The bytes of a file, or why they could not be read. */
type FileRead = CorpusFileRead | { error: string };

async function readBytes(f: FoundFile): Promise<FileRead> {
  try {
    return await pooledRead(f.path, () => readCorpusFile(f.path, MAX_FILE_BYTES));
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function readBytesSync(f: FoundFile): FileRead {
  try {
    return readCorpusFileSync(f.path, MAX_FILE_BYTES);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** The decoded text of a file (hashed on the way), or undefined with the problem reported. */
/** Adds a file read to an item's content hash. */
function hashFile(f: FoundFile, bytes: Uint8Array, hash: Hash): void {
  hash.update(f.relPath).update('\0').update(bytes);
  // A parser that reads a format differently now changes the item's hash: its markers and index entries are redone.
  const version = PARSER_VERSIONS[`${f.part}.${f.ext}`];
  if (version) hash.update('\0').update(version);
}

function sourceText(f: FoundFile, read: FileRead, problems: CorpusProblem[], hash: Hash): string | undefined {
  if ('tooLarge' in read) {
    problems.push({ severity: 'error', file: f.relPath, code: 'file-too-large', message: `file is ${read.tooLarge} bytes, over the ${MAX_FILE_BYTES}-byte limit; not read` });
    return undefined;
  }
  if ('notRegular' in read) {
    problems.push({ severity: 'warning', file: f.relPath, code: 'not-a-file', message: notRegularMessage(read.notRegular) });
    return undefined;
  }
  if ('error' in read) {
    problems.push({ severity: 'error', file: f.relPath, code: 'unreadable-file', message: `cannot read file: ${read.error}` });
    return undefined;
  }
  hashFile(f, read.bytes, hash);
  const dec = decodeText(read.bytes);
  for (const w of dec.warnings) problems.push({ severity: 'warning', file: f.relPath, code: 'encoding', message: w });
  if (dec.text.trim() === '') {
    problems.push({ severity: 'warning', file: f.relPath, code: 'empty-file', message: 'file is empty' });
    return undefined;
  }
  return dec.text;
}

/** The files an item uses (the preferred one of each part) and the ones it ignores. */
export interface ItemChoice {
  transcript?: FoundFile;
  comments?: FoundFile;
  meta?: FoundFile;
  ignored: FoundFile[];
}

function pick(files: FoundFile[], part: PartName, preference: readonly string[], itemId: string, problems: CorpusProblem[]): { use?: FoundFile; ignored: FoundFile[] } {
  const cands = files.filter((f) => f.part === part).sort((a, b) => preference.indexOf(a.ext) - preference.indexOf(b.ext) || a.relPath.localeCompare(b.relPath));
  const [use, ...ignored] = cands;
  if (use && ignored.length) {
    problems.push({
      severity: 'info',
      file: use.relPath,
      code: 'duplicate-part',
      message: `item "${itemId}" has ${cands.length} ${part} files; using ${use.relPath}, ignoring ${ignored.map((f) => f.relPath).join(', ')} (preference: ${preference.join(' > ')})`,
    });
  }
  return { use, ignored };
}

export function chooseFiles(found: FoundItem, problems: CorpusProblem[]): ItemChoice {
  const t = pick(found.files, 'transcript', TRANSCRIPT_PREFERENCE, found.id, problems);
  const c = pick(found.files, 'comments', COMMENTS_PREFERENCE, found.id, problems);
  const m = pick(found.files, 'meta', ['json'], found.id, problems);
  return { transcript: t.use, comments: c.use, meta: m.use, ignored: [...t.ignored, ...c.ignored, ...m.ignored] };
}

/**
 * The normalised text is held once: each unit's text becomes a slice of the
 * joined part text (V8 keeps a slice as a reference into it), so the parsed
 * strings — and the raw file text they may still point into — can be freed.
 */
function keepTextOnce(joined: string, units: { text: string; offset: number }[]): void {
  for (const u of units) u.text = joined.slice(u.offset, u.offset + u.text.length);
}

function parseMeta(f: FoundFile, text: string, problems: CorpusProblem[]): { meta: ItemMeta; ok: boolean } {
  let parsed: ReturnType<typeof itemMetaSchema.safeParse> | undefined;
  try {
    const tree = parseJsonTree(text);
    problems.push(...jsonTreeProblems(tree, lineStarts(text), f.relPath));
    parsed = tree.root && !tree.errors.length ? itemMetaSchema.safeParse(getNodeValue(tree.root)) : undefined;
  } catch (e) {
    problems.push(parserFailed(f.relPath, e));
  }
  if (parsed?.success) return { meta: Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== null)) as ItemMeta, ok: true };
  if (parsed) {
    const issue = parsed.error.issues[0];
    problems.push({ severity: 'warning', file: f.relPath, line: 0, code: 'invalid-meta', message: `metadata ignored: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` });
  }
  return { meta: {}, ok: false };
}

function parseTranscriptPart(f: FoundFile, text: string, problems: CorpusProblem[]): { part?: TranscriptPart; title?: string; skipped: number } {
  const format = f.ext as TranscriptFormat;
  const parsed = parseTranscript(text, format, f.relPath);
  problems.push(...parsed.problems);
  let offset = 0;
  // Each parsed segment (a fresh object of its parser) becomes the part's segment in place: the keys a copy
  // `{ ...s, index, offset }` would have, in the same order, without a copy per segment.
  const segments = parsed.segments.map((s, i) => {
    const seg = s as ParsedSegment & { index: number; offset: number };
    seg.index = s.index ?? i;
    seg.offset = offset;
    offset += s.text.length + 1;
    return seg;
  });
  const joined = segments.map((s) => s.text).join('\n');
  keepTextOnce(joined, segments);
  if (!segments.length) {
    if (!parsed.problems.length) problems.push({ severity: 'warning', file: f.relPath, code: 'no-text', message: 'transcript has no text' });
    return { title: parsed.title, skipped: parsed.skipped };
  }
  return {
    part: { kind: 'transcript', file: { path: f.path, relPath: f.relPath }, format, segments, text: joined, wordCount: countWords(joined) },
    title: parsed.title,
    skipped: parsed.skipped,
  };
}

function parseCommentsPart(f: FoundFile, text: string, problems: CorpusProblem[]): { part: CommentsPart; skipped: number } {
  const format = f.ext as CommentsFormat;
  const parsed = parseComments(text, format, f.relPath);
  problems.push(...parsed.problems);
  let offset = 0;
  let emptyCount = 0;
  // In place, as the segments above.
  const records = parsed.comments.map((r, index) => {
    const empty = r.text.trim() === '';
    if (empty) emptyCount++;
    const rec = r as ParsedComment & { index: number; offset: number };
    rec.index = index;
    rec.offset = offset;
    if (!empty) offset += r.text.length + 1;
    return rec;
  });
  const kept = records.filter((r) => r.text.trim() !== '');
  const joined = kept.map((r) => r.text).join('\n');
  keepTextOnce(joined, kept);
  return {
    part: { kind: 'comments', file: { path: f.path, relPath: f.relPath }, format, comments: records, text: joined, wordCount: countWords(joined), emptyCount },
    skipped: parsed.skipped,
  };
}

/** Parses an item from the reads of its chosen files (sync: the reads happened before). */
function buildItem(found: FoundItem, choice: ItemChoice, reads: ReadonlyMap<FoundFile, FileRead>, problems: CorpusProblem[]): LoadedItem {
  const hash = createHash('sha256');
  let skipped = 0;
  let filesRead = 0;
  let meta: ItemMeta = {};
  let transcriptTitle: string | undefined;
  const text = (f: FoundFile): string | undefined => {
    filesRead++;
    return sourceText(f, reads.get(f)!, problems, hash);
  };
  if (choice.meta) {
    const t = text(choice.meta);
    if (t !== undefined) {
      const m = parseMeta(choice.meta, t, problems);
      meta = m.meta;
      if (!m.ok) skipped++;
    }
  }
  let transcript: TranscriptPart | undefined;
  if (choice.transcript) {
    const t = text(choice.transcript);
    if (t !== undefined) {
      const r = parseTranscriptPart(choice.transcript, t, problems);
      transcript = r.part;
      transcriptTitle = r.title;
      skipped += r.skipped;
    } else skipped++;
  }
  let comments: CommentsPart | undefined;
  if (choice.comments) {
    const t = text(choice.comments);
    if (t !== undefined) {
      const r = parseCommentsPart(choice.comments, t, problems);
      comments = r.part;
      skipped += r.skipped;
    } else skipped++;
  }
  if (!transcript && !comments) {
    const f = choice.transcript ?? choice.comments ?? choice.meta!;
    problems.push({ severity: 'warning', file: f.relPath, code: 'item-empty', message: `item "${found.id}" has no readable transcript or comments; left out` });
    return { skipped, filesRead };
  }
  const title = (typeof meta.title === 'string' && meta.title.trim()) || transcriptTitle || found.id;
  const item: CorpusItem = {
    id: found.id,
    title,
    meta,
    metaFile: choice.meta ? { path: choice.meta.path, relPath: choice.meta.relPath } : undefined,
    transcript,
    comments,
    ignoredFiles: choice.ignored.map((f) => ({ path: f.path, relPath: f.relPath })),
    contentHash: hash.digest('hex'),
    wordCount: (transcript?.wordCount ?? 0) + (comments?.wordCount ?? 0),
    facts: factsOf(transcript, comments),
  };
  return { item, skipped, filesRead };
}

function chosen(choice: ItemChoice): FoundFile[] {
  return [choice.meta, choice.transcript, choice.comments].filter((f): f is FoundFile => f !== undefined);
}

/** Loads one item: its chosen files read, then parsed. */
export async function parseItem(found: FoundItem, problems: CorpusProblem[]): Promise<LoadedItem> {
  const choice = chooseFiles(found, problems);
  const files = chosen(choice);
  const reads = new Map(await Promise.all(files.map(async (f) => [f, await readBytes(f)] as const)));
  return buildItem(found, choice, reads, problems);
}

/** {@link parseItem} with synchronous reads: for an item parsed again on demand. */
export function parseItemSync(found: FoundItem, problems: CorpusProblem[]): LoadedItem {
  const choice = chooseFiles(found, problems);
  const reads = new Map(chosen(choice).map((f) => [f, readBytesSync(f)] as const));
  return buildItem(found, choice, reads, problems);
}

/**
 * One part of an item parsed again on demand, the other part's file only read for the content
 * hash (hashed as {@link parseItemSync} hashes it: the same item gives the same hash): a lazily
 * held item whose transcript is asked for does not parse its comments. `part` is undefined when
 * the item has no such part now, or its file cannot be read or parsed (its problems are in `problems`).
 */
export function parseItemPartSync<K extends 'transcript' | 'comments'>(found: FoundItem, kind: K, problems: CorpusProblem[]): { contentHash: string; part: (K extends 'transcript' ? TranscriptPart : CommentsPart) | undefined } {
  const choice = chooseFiles(found, problems);
  const hash = createHash('sha256');
  let part: TranscriptPart | CommentsPart | undefined;
  for (const f of chosen(choice)) {
    const read = readBytesSync(f);
    if (f !== choice[kind]) {
      if ('bytes' in read) hashFile(f, read.bytes, hash);
      continue;
    }
    const t = sourceText(f, read, problems, hash);
    if (t === undefined) continue;
    part = kind === 'transcript' ? parseTranscriptPart(f, t, problems).part : parseCommentsPart(f, t, problems).part;
  }
  return { contentHash: hash.digest('hex'), part: part as (K extends 'transcript' ? TranscriptPart : CommentsPart) | undefined };
}

/**
 * Loads one item so that nothing in it can fail the whole corpus: the parsers
 * already report their own failures per file; anything else that throws here
 * leaves the item out with an error naming its files.
 */
export async function parseItemIsolated(found: FoundItem, problems: CorpusProblem[]): Promise<LoadedItem> {
  const own: CorpusProblem[] = [];
  try {
    const r = await parseItem(found, own);
    problems.push(...own);
    return r;
  } catch (e) {
    problems.push(...own);
    const files = found.files.map((f) => f.relPath);
    problems.push({ severity: 'error', file: files[0] ?? found.id, code: 'item-failed', message: `item "${found.id}" left out: ${describeError(e)} (files: ${files.join(', ')})` });
    return { skipped: 1, filesRead: 0 };
  }
}
