/**
 * Finds the items of a corpus folder and loads them. Never throws on bad input:
 * every problem is reported with file, line and reason, and the rest loads.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { getNodeValue } from 'jsonc-parser';
import { countWords, lineStarts } from '../text/words';
import { mapLimit, throwIfAborted, type ProgressSink } from '../util/abort';
import { parseComments } from './commentParsers';
import { decodeText } from './decode';
import { assignItemIds } from './itemIds';
import { itemMetaSchema } from './schemas';
import { describeError } from './limits';
import { jsonTreeProblems, parseJsonTree, parserFailed, parseTranscript } from './transcriptParsers';
import type {
  CommentsFormat, CommentsPart, Corpus, CorpusItem, CorpusProblem, ItemMeta, SourceFile, TranscriptFormat, TranscriptPart,
} from './types';

/** The folder where Marker Research keeps everything it writes inside a corpus. */
export const STORAGE_DIR = '.marker-research';

/** When an item has the same part in several formats, the first in this list is used. */
export const TRANSCRIPT_PREFERENCE: readonly TranscriptFormat[] = ['json', 'vtt', 'srt', 'txt', 'md'];
export const COMMENTS_PREFERENCE: readonly CommentsFormat[] = ['jsonl', 'json', 'csv'];

const MAX_DEPTH = 6;
/** Files larger than this are not read (reported instead). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

type PartName = 'transcript' | 'comments' | 'meta';

interface FoundFile extends SourceFile {
  part: PartName;
  ext: string;
}

interface FoundItem {
  id: string;
  files: FoundFile[];
}

export interface LoadCorpusOptions {
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Files read in parallel. */
  concurrency?: number;
  /**
   * Items loaded before, kept across loads by the caller (the engine): an item
   * whose files have the same paths, sizes and modification times is taken
   * from here instead of being read and parsed again. The loader refreshes it
   * (new and changed items in, vanished ones out).
   */
  itemCache?: ItemCache;
}

/** What {@link LoadCorpusOptions.itemCache} keeps per item: the item, its own problems, and the file stamps it was read with. */
export interface CachedItem {
  stamp: string;
  loaded: LoadedItem;
  problems: CorpusProblem[];
}

export type ItemCache = Map<string, CachedItem>;

/** The item's files as `path size mtime` lines: unchanged files give the same stamp. */
async function itemStamp(found: FoundItem): Promise<string | undefined> {
  try {
    const lines = await Promise.all(
      found.files.map(async (f) => {
        const st = await stat(f.path);
        return `${f.relPath}\t${f.part}\t${st.size}\t${st.mtimeMs}`;
      }),
    );
    return lines.sort().join('\n');
  } catch {
    return undefined; // a file vanished or cannot be read: load the item afresh (and report it)
  }
}

/** Classifies a file name as a part of an item, or returns undefined. */
export function classifyFile(name: string): { id?: string; part: PartName; ext: string } | undefined {
  const lower = name.toLowerCase();
  const m = /^(?:(.+)\.)?(transcript|comments|meta)\.([a-z0-9]+)$/.exec(lower);
  if (!m) return undefined;
  const part = m[2] as PartName;
  const ext = m[3]!;
  const ok =
    (part === 'transcript' && (TRANSCRIPT_PREFERENCE as readonly string[]).includes(ext)) ||
    (part === 'comments' && (COMMENTS_PREFERENCE as readonly string[]).includes(ext)) ||
    (part === 'meta' && ext === 'json');
  if (!ok) return undefined;
  return { id: m[1] === undefined ? undefined : name.slice(0, m[1].length), part, ext };
}

/**
 * Walks `root` and groups files into items: `<id>/transcript.*` (folder layout)
 * or `<id>.transcript.*` (flat layout). Hidden folders and `node_modules` are skipped.
 * Files are grouped by where they are (folder, or folder and stem), never by name alone:
 * items with the same name in different sub-folders stay apart, each with its relative
 * path as its id and a `duplicate-id` notice ({@link assignItemIds}).
 */
export async function discoverItems(root: string, problems: CorpusProblem[], signal?: AbortSignal): Promise<FoundItem[]> {
  const byKey = new Map<string, { name: string; key: string; where: string; files: FoundFile[] }>();
  const rootName = path.basename(path.resolve(root));
  async function walk(dir: string, depth: number): Promise<void> {
    throwIfAborted(signal);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      problems.push({ severity: 'error', file: rel(root, dir) || '.', code: 'unreadable-dir', message: `cannot read folder: ${(e as Error).message}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirRel = rel(root, dir);
    const dirName = dir === root ? rootName : path.basename(dir);
    for (const ent of entries) {
      if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
      const full = path.join(dir, ent.name);
      if (ent.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(full, depth + 1);
        continue;
      }
      if (!ent.isFile()) continue;
      const c = classifyFile(ent.name);
      if (!c) continue;
      // A flat file named after its own folder (`ep1/ep1.comments.csv`) belongs to the folder's item.
      const inFolder = c.id === undefined || c.id === dirName;
      const name = c.id ?? dirName;
      const key = inFolder ? dirRel : dirRel ? `${dirRel}/${c.id}` : c.id!;
      let item = byKey.get(key);
      if (!item) byKey.set(key, (item = { name, key, where: inFolder ? `${dirRel || '.'}/` : `${key}.*`, files: [] }));
      item.files.push({ path: full, relPath: rel(root, full), part: c.part, ext: c.ext });
    }
  }
  await walk(root, 0);
  const found = [...byKey.values()];
  const ids = assignItemIds(found.map((f) => ({ name: f.name, key: f.key, where: f.where, firstFile: f.files[0]!.relPath })), problems);
  return found.map((f, i) => ({ id: ids[i]!, files: f.files }));
}

function rel(root: string, p: string): string {
  return path.relative(root, p).split(path.sep).join('/');
}

/**
 * Loads every item of the corpus at `root`.
 *
 * @example
 * const corpus = await loadCorpus('/data/my-corpus');
 * console.log(corpus.stats.items, corpus.problems.map(formatProblem));
 */
export async function loadCorpus(root: string, options: LoadCorpusOptions = {}): Promise<Corpus> {
  const absRoot = path.resolve(root);
  const problems: CorpusProblem[] = [];
  const rootStat = await stat(absRoot).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    problems.push({ severity: 'error', file: absRoot, code: 'not-a-folder', message: 'corpus folder does not exist or is not a folder' });
    return { root: absRoot, items: [], problems, stats: emptyStats() };
  }
  const found = await discoverItems(absRoot, problems, options.signal);
  let done = 0;
  options.onProgress?.({ done, total: found.length, message: `found ${found.length} items` });
  const loaded = await mapLimit(
    found,
    options.concurrency ?? 8,
    async (f) => {
      const cache = options.itemCache;
      const stamp = cache ? await itemStamp(f) : undefined;
      const hit = stamp !== undefined ? cache?.get(f.id) : undefined;
      let r: LoadedItem;
      if (hit && hit.stamp === stamp) {
        problems.push(...hit.problems);
        r = { ...hit.loaded, filesRead: 0 };
      } else {
        const own: CorpusProblem[] = [];
        r = await loadItemIsolated(f, own);
        problems.push(...own);
        if (cache && stamp !== undefined) cache.set(f.id, { stamp, loaded: r, problems: own });
        else cache?.delete(f.id);
      }
      options.onProgress?.({ done: ++done, total: found.length, message: f.id });
      return r;
    },
    options.signal,
  );
  if (options.itemCache) {
    const ids = new Set(found.map((f) => f.id));
    for (const id of options.itemCache.keys()) if (!ids.has(id)) options.itemCache.delete(id);
  }
  const stats = emptyStats();
  const items: CorpusItem[] = [];
  for (const it of loaded) {
    stats.skipped += it.skipped;
    stats.filesRead += it.filesRead;
    if (!it.item) continue;
    items.push(it.item);
    stats.items++;
    stats.words += it.item.wordCount;
    if (it.item.transcript) stats.transcripts++;
    if (it.item.comments) {
      stats.commentParts++;
      stats.comments += it.item.comments.comments.length;
      stats.emptyComments += it.item.comments.emptyCount;
    }
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? -1) - (b.line ?? -1));
  return { root: absRoot, items, problems, stats };
}

function emptyStats(): Corpus['stats'] {
  return { items: 0, transcripts: 0, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 };
}

export interface LoadedItem {
  item?: CorpusItem;
  skipped: number;
  filesRead: number;
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

/**
 * Versions of the parsers whose reading of a format changed (the text, speakers or times of
 * its segments): part of the content hash of items with such files. `txt`/`md`@2: speaker
 * labels and timestamps at the start of lines.
 */
const PARSER_VERSIONS: Readonly<Record<string, string>> = { txt: 'lines@2', md: 'lines@2' };

async function readSource(f: FoundFile, problems: CorpusProblem[], hash: ReturnType<typeof createHash>): Promise<string | undefined> {
  try {
    const st = await stat(f.path);
    if (st.size > MAX_FILE_BYTES) {
      problems.push({ severity: 'error', file: f.relPath, code: 'file-too-large', message: `file is ${st.size} bytes, over the ${MAX_FILE_BYTES}-byte limit; not read` });
      return undefined;
    }
    const bytes = await readFile(f.path);
    hash.update(f.relPath).update('\0').update(bytes);
    // A parser that reads a format differently now changes the item's hash: its markers and index entries are redone.
    const version = PARSER_VERSIONS[f.ext];
    if (version) hash.update('\0').update(version);
    const dec = decodeText(bytes);
    for (const w of dec.warnings) problems.push({ severity: 'warning', file: f.relPath, code: 'encoding', message: w });
    if (dec.text.trim() === '') {
      problems.push({ severity: 'warning', file: f.relPath, code: 'empty-file', message: 'file is empty' });
      return undefined;
    }
    return dec.text;
  } catch (e) {
    problems.push({ severity: 'error', file: f.relPath, code: 'unreadable-file', message: `cannot read file: ${(e as Error).message}` });
    return undefined;
  }
}

/**
 * Loads one item so that nothing in it can fail the whole corpus: the parsers
 * already report their own failures per file; anything else that throws here
 * leaves the item out with an error naming its files.
 */
async function loadItemIsolated(found: FoundItem, problems: CorpusProblem[]): Promise<LoadedItem> {
  const own: CorpusProblem[] = [];
  try {
    const r = await loadItem(found, own);
    problems.push(...own);
    return r;
  } catch (e) {
    problems.push(...own);
    const files = found.files.map((f) => f.relPath);
    problems.push({ severity: 'error', file: files[0] ?? found.id, code: 'item-failed', message: `item "${found.id}" left out: ${describeError(e)} (files: ${files.join(', ')})` });
    return { skipped: 1, filesRead: 0 };
  }
}

/**
 * The normalised text is held once: each unit's text becomes a slice of the
 * joined part text (V8 keeps a slice as a reference into it), so the parsed
 * strings — and the raw file text they may still point into — can be freed.
 */
function keepTextOnce(joined: string, units: { text: string; offset: number }[]): void {
  for (const u of units) u.text = joined.slice(u.offset, u.offset + u.text.length);
}

async function loadItem(found: FoundItem, problems: CorpusProblem[]): Promise<LoadedItem> {
  const hash = createHash('sha256');
  const t = pick(found.files, 'transcript', TRANSCRIPT_PREFERENCE, found.id, problems);
  const c = pick(found.files, 'comments', COMMENTS_PREFERENCE, found.id, problems);
  const m = pick(found.files, 'meta', ['json'], found.id, problems);
  let skipped = 0;
  let filesRead = 0;
  let meta: ItemMeta = {};
  let transcriptTitle: string | undefined;

  if (m.use) {
    const text = await readSource(m.use, problems, hash);
    filesRead++;
    if (text !== undefined) {
      let parsed: ReturnType<typeof itemMetaSchema.safeParse> | undefined;
      try {
        const tree = parseJsonTree(text);
        problems.push(...jsonTreeProblems(tree, lineStarts(text), m.use.relPath));
        parsed = tree.root && !tree.errors.length ? itemMetaSchema.safeParse(getNodeValue(tree.root)) : undefined;
      } catch (e) {
        problems.push(parserFailed(m.use.relPath, e));
      }
      if (parsed?.success) {
        meta = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== null)) as ItemMeta;
      } else if (parsed) {
        const issue = parsed.error.issues[0];
        problems.push({ severity: 'warning', file: m.use.relPath, line: 0, code: 'invalid-meta', message: `metadata ignored: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` });
      }
      if (!parsed?.success) skipped++;
    }
  }

  let transcript: TranscriptPart | undefined;
  if (t.use) {
    const text = await readSource(t.use, problems, hash);
    filesRead++;
    if (text !== undefined) {
      const format = t.use.ext as TranscriptFormat;
      const parsed = parseTranscript(text, format, t.use.relPath);
      problems.push(...parsed.problems);
      skipped += parsed.skipped;
      transcriptTitle = parsed.title;
      let offset = 0;
      const segments = parsed.segments.map((s, i) => {
        const seg = { ...s, index: s.index ?? i, offset };
        offset += s.text.length + 1;
        return seg;
      });
      const joined = segments.map((s) => s.text).join('\n');
      keepTextOnce(joined, segments);
      if (segments.length) {
        transcript = { kind: 'transcript', file: t.use, format, segments, text: joined, wordCount: countWords(joined) };
      } else if (!parsed.problems.length) {
        problems.push({ severity: 'warning', file: t.use.relPath, code: 'no-text', message: 'transcript has no text' });
      }
    } else skipped++;
  }

  let comments: CommentsPart | undefined;
  if (c.use) {
    const text = await readSource(c.use, problems, hash);
    filesRead++;
    if (text !== undefined) {
      const format = c.use.ext as CommentsFormat;
      const parsed = parseComments(text, format, c.use.relPath);
      problems.push(...parsed.problems);
      skipped += parsed.skipped;
      let offset = 0;
      let emptyCount = 0;
      const records = parsed.comments.map((r, index) => {
        const empty = r.text.trim() === '';
        if (empty) emptyCount++;
        const rec = { ...r, index, offset };
        if (!empty) offset += r.text.length + 1;
        return rec;
      });
      const joined = records.filter((r) => r.text.trim() !== '').map((r) => r.text).join('\n');
      keepTextOnce(joined, records.filter((r) => r.text.trim() !== ''));
      comments = { kind: 'comments', file: c.use, format, comments: records, text: joined, wordCount: countWords(joined), emptyCount };
    } else skipped++;
  }

  if (!transcript && !comments) {
    const f = t.use ?? c.use ?? m.use!;
    problems.push({ severity: 'warning', file: f.relPath, code: 'item-empty', message: `item "${found.id}" has no readable transcript or comments; left out` });
    return { skipped, filesRead };
  }
  const title = (typeof meta.title === 'string' && meta.title.trim()) || transcriptTitle || found.id;
  const item: CorpusItem = {
    id: found.id,
    title,
    meta,
    metaFile: m.use ? { path: m.use.path, relPath: m.use.relPath } : undefined,
    transcript,
    comments,
    ignoredFiles: [...t.ignored, ...c.ignored, ...m.ignored].map((f) => ({ path: f.path, relPath: f.relPath })),
    contentHash: hash.digest('hex'),
    wordCount: (transcript?.wordCount ?? 0) + (comments?.wordCount ?? 0),
  };
  return { item, skipped, filesRead };
}
