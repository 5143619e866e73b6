/**
 * Finds the items of a corpus folder and loads them. Never throws on bad input:
 * every problem is reported with file, line and reason, and the rest loads.
 */
import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { STORAGE_DIR } from '../storage/storageDir';
import { pooledRead } from '../storage/readPool';
import { mapLimit, throwIfAborted, type ProgressSink } from '../util/abort';
import { readOutline, writeOutline, type Outline, type OutlineEntry } from './corpusOutline';
import { assignItemIds } from './itemIds';
import {
  COMMENTS_PREFERENCE, parseItemIsolated, TRANSCRIPT_PREFERENCE, type FoundFile, type FoundItem, type LoadedItem, type PartName,
} from './itemParse';
import type { PartStore } from './partStore';
import { describeSpecialEntry, notRegularMessage } from './regularFiles';
import { factsOf, type Corpus, type CorpusItem, type CorpusProblem } from './types';

export { STORAGE_DIR };

const MAX_DEPTH = 6;

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
  /**
   * Items are held lazily: their parsed parts live in this store (a bounded
   * share of the corpus), and an item whose files are unchanged since the
   * persisted outline was written (`.marker-research/outline.json`) is taken
   * from the outline without being read at all. The outline is written again
   * when anything changed.
   */
  parts?: PartStore;
  /**
   * Called with each item of the corpus in the corpus's order, as soon as it
   * and the items before it are loaded (an item parsed in this load still has
   * its parts in the store then): a caller that indexes the corpus does it in
   * the same pass, without parsing an item twice.
   */
  onItem?: (item: CorpusItem) => void;
  /**
   * Reads and parses an item that is not taken from the outline or the item
   * cache, in place of the loader's own parse (parseItemIsolated), with its
   * problems added to `problems`: a caller that parses elsewhere (worker
   * threads) may return the item without its parts (a held item is then
   * parsed again when they are used).
   */
  parseItem?: (found: FoundItem, problems: CorpusProblem[]) => Promise<LoadedItem>;
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
        const st = await pooledRead(f.path, () => stat(f.path));
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
      const c = classifyFile(ent.name);
      if (!ent.isFile()) {
        // Never opened: a FIFO would block the walk, a device or a link leads out of the corpus.
        const kind = await describeSpecialEntry(full, ent, c !== undefined);
        if (kind) problems.push({ severity: 'warning', file: rel(root, full), code: 'not-a-file', message: notRegularMessage(kind) });
        continue;
      }
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
  const parts = options.parts;
  const outline = parts ? await readOutline(absRoot) : undefined;
  const nextOutline: Outline = new Map();
  let outlineChanged = false;
  let done = 0;
  options.onProgress?.({ done, total: found.length, message: `found ${found.length} items` });
  // Items loaded out of order wait here until the ones before them are (for onItem).
  const waiting = new Map<number, LoadedItem>();
  let nextInOrder = 0;
  const inOrder = (i: number, r: LoadedItem): void => {
    waiting.set(i, r);
    for (let w = waiting.get(nextInOrder); w; w = waiting.get(nextInOrder)) {
      waiting.delete(nextInOrder++);
      if (w.item) options.onItem!(w.item);
    }
  };
  const loaded = await mapLimit(
    found,
    options.concurrency ?? 8,
    async (f, i) => {
      const cache = options.itemCache;
      const stamp = cache || parts ? await itemStamp(f) : undefined;
      const hit = stamp !== undefined ? cache?.get(f.id) : undefined;
      let r: LoadedItem;
      let own: CorpusProblem[];
      const known = stamp !== undefined ? outline?.get(f.id) : undefined;
      if (hit && hit.stamp === stamp) {
        own = hit.problems;
        r = { ...hit.loaded, filesRead: 0 };
      } else {
        if (parts && known && known.stamp === stamp) {
          own = known.problems;
          r = fromOutline(known, f, parts, absRoot);
        } else {
          own = [];
          r = await (options.parseItem ?? parseItemIsolated)(f, own);
          if (parts) r = heldIn(parts, r, f);
          outlineChanged = true;
        }
        if (cache && stamp !== undefined) cache.set(f.id, { stamp, loaded: r, problems: own });
        else cache?.delete(f.id);
      }
      problems.push(...own);
      if (parts && stamp !== undefined) nextOutline.set(f.id, outlineEntryOf(stamp, r, own));
      options.onProgress?.({ done: ++done, total: found.length, message: f.id });
      if (options.onItem) inOrder(i, r);
      return r;
    },
    options.signal,
  );
  if (options.itemCache) {
    const ids = new Set(found.map((f) => f.id));
    for (const id of options.itemCache.keys()) if (!ids.has(id)) options.itemCache.delete(id);
  }
  if (parts && outline && (outlineChanged || outline.size !== nextOutline.size)) {
    parts.retain(new Set(found.map((f) => f.id)));
    await writeOutline(absRoot, nextOutline).catch((e: Error) =>
      problems.push({ severity: 'info', file: `${STORAGE_DIR}/outline.json`, code: 'outline-not-saved', message: `the corpus outline could not be saved (the next start reads every file again): ${e.message}` }),
    );
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
    // The facts, not the parts: a lazily held item is not parsed for them.
    const facts = it.item.facts ?? factsOf(it.item.transcript, it.item.comments);
    if (facts.segments !== null) stats.transcripts++;
    if (facts.comments !== null) {
      stats.commentParts++;
      stats.comments += facts.comments;
      stats.emptyComments += facts.emptyComments;
    }
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? -1) - (b.line ?? -1));
  return { root: absRoot, items, problems, stats };
}

function emptyStats(): Corpus['stats'] {
  return { items: 0, transcripts: 0, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 };
}

/** A just-parsed item held lazily: its parts go to the store (kept there while they fit); an item loaded without them has them parsed when used. */
function heldIn(parts: PartStore, r: LoadedItem, found: FoundItem): LoadedItem {
  if (!r.item) return r;
  const { transcript, comments, facts, ...rest } = r.item;
  const shell = { ...rest, facts: facts ?? factsOf(transcript, comments) };
  return { ...r, item: parts.item(shell, found, transcript || comments ? { transcript, comments } : undefined) };
}

/** An item taken from the outline: nothing read; its parts are parsed when first used. */
function fromOutline(entry: OutlineEntry, found: FoundItem, parts: PartStore, root: string): LoadedItem {
  if (!entry.item) return { skipped: entry.skipped, filesRead: 0 };
  const o = entry.item;
  const file = (relPath: string): { path: string; relPath: string } => ({ path: path.join(root, ...relPath.split('/')), relPath });
  const item = parts.item(
    {
      id: o.id,
      title: o.title,
      meta: o.meta,
      metaFile: o.metaFile === undefined ? undefined : file(o.metaFile),
      ignoredFiles: o.ignoredFiles.map(file),
      contentHash: o.contentHash,
      wordCount: o.wordCount,
      facts: o.facts,
    },
    found,
  );
  return { item, skipped: entry.skipped, filesRead: 0 };
}

/** What the outline keeps of a loaded item (read from its fields and facts, never from its parts). */
function outlineEntryOf(stamp: string, r: LoadedItem, problems: CorpusProblem[]): OutlineEntry {
  const it = r.item;
  return {
    stamp,
    item: it && {
      id: it.id,
      title: it.title,
      meta: it.meta,
      ...(it.metaFile ? { metaFile: it.metaFile.relPath } : {}),
      ignoredFiles: it.ignoredFiles.map((f) => f.relPath),
      contentHash: it.contentHash,
      wordCount: it.wordCount,
      facts: it.facts ?? factsOf(it.transcript, it.comments),
    },
    problems,
    skipped: r.skipped,
  };
}
