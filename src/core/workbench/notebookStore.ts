/**
 * The notebook file of a corpus (`.marker-research/notebook.md`, format in `notebookFormat.ts`):
 * read with its problems, entries added, changed and removed, spans re-anchored. Every change is
 * a read-modify-write under the file's lock, written atomically, and touches only the lines of the
 * entry it is about: the researcher's text around it is kept byte for byte. A notebook written by
 * a newer version is never rewritten.
 *
 * The editor may hold the file with unsaved edits: the UI saves it (or applies the same change as
 * an edit of the document: {@link appendEntryText} gives the text) before calling these.
 */
import { withFileLock } from '../storage/fileLock';
import { writeFileAtomic } from '../storage/atomic';
import { newId, nowIso, type WorkbenchDeps } from './deps';
import { WorkbenchFileError } from './fileErrors';
import { notebookFile, readTextIfExists, shownName } from './files';
import { appendEntryText, emptyNotebook, notebookEntries, parseNotebook, renderNotebook, rewriteBlocks, type ParsedNotebook } from './notebookFormat';
import type { NotebookLanguage } from './notebookWords';
import type { NewEntry } from './pins';
import { reanchorOwned, spanChanged, type ItemLookup, type ReanchorReport } from './reanchor';
import { notebookEntrySchema, type NotebookEntry } from './schema';

export { notebookFile };

/** A notebook as read: its blocks, problems (file and line), and whether the file exists. */
export interface NotebookRead extends ParsedNotebook {
  exists: boolean;
}

/** The corpus's notebook; an empty one (not written) when there is no file yet. */
export async function readNotebook(root: string): Promise<NotebookRead> {
  const file = notebookFile(root);
  const text = await readTextIfExists(file);
  if (text === undefined) return { ...parseNotebook(renderNotebook(emptyNotebook()), shownName(root, file)), exists: false };
  return { ...parseNotebook(text, shownName(root, file)), exists: true };
}

function refuseNewer(root: string, parsed: ParsedNotebook): void {
  if (parsed.writable) return;
  const p = parsed.problems.find((x) => x.code === 'newer-version');
  throw new WorkbenchFileError(shownName(root, notebookFile(root)), p?.message ?? 'written by a newer version of Marker Research: not changed', { line: p?.line ?? 1 });
}

/** Runs `fn` on the notebook's current text under its lock; writes what it returns (undefined: nothing). */
async function change<T>(root: string, fn: (text: string | undefined, parsed: ParsedNotebook | undefined) => { text?: string; value: T }): Promise<T> {
  const file = notebookFile(root);
  return withFileLock(file, async () => {
    const text = await readTextIfExists(file);
    const parsed = text === undefined ? undefined : parseNotebook(text, shownName(root, file));
    if (parsed) refuseNewer(root, parsed);
    const out = fn(text, parsed);
    if (out.text !== undefined && out.text !== text) await writeFileAtomic(file, out.text);
    return out.value;
  });
}

/**
 * Adds an entry at the end of the notebook (the file is created when there is none, in `lang`).
 * @returns the entry as stored, with its id and time.
 * @throws ZodError when the entry is not valid (e.g. a selection without a span); WorkbenchFileError for a notebook of a newer version.
 */
export async function addEntry(root: string, input: NewEntry, options: WorkbenchDeps & { lang?: NotebookLanguage } = {}): Promise<NotebookEntry> {
  const entry = notebookEntrySchema.parse({ ...input, id: newId(options), createdAt: nowIso(options) });
  return change(root, (text, parsed) => ({ text: appendEntryText(text, entry, parsed?.lang ?? options.lang), value: entry }));
}

/** The index of the first block holding entry `id`. */
function blockOf(parsed: ParsedNotebook, id: string): number {
  return parsed.blocks.findIndex((b) => b.type === 'entry' && b.entry.id === id);
}

/** Removes entry `id` (the first, if the researcher copied it); false when there is none. */
export async function removeEntry(root: string, id: string): Promise<boolean> {
  return change(root, (_text, parsed) => {
    const k = parsed ? blockOf(parsed, id) : -1;
    return k < 0 ? { value: false } : { text: rewriteBlocks(parsed!, new Map([[k, undefined]])), value: true };
  });
}

/** What the UI may change of an entry: its title, its note (null: none). */
export interface EntryPatch {
  title?: string;
  note?: string | null;
}

/** Changes entry `id`; the entry as stored now, or undefined when there is none. */
export async function updateEntry(root: string, id: string, patch: EntryPatch): Promise<NotebookEntry | undefined> {
  return change(root, (_text, parsed) => {
    const k = parsed ? blockOf(parsed, id) : -1;
    if (k < 0) return { value: undefined };
    const old = (parsed!.blocks[k] as { entry: NotebookEntry }).entry;
    const { note: _n, ...rest } = old;
    const note = patch.note === null ? undefined : (patch.note ?? old.note);
    const entry = notebookEntrySchema.parse({ ...rest, ...(patch.title !== undefined ? { title: patch.title } : {}), ...(note?.trim() ? { note } : {}) });
    return { text: rewriteBlocks(parsed!, new Map([[k, { type: 'entry', entry }]])), value: entry };
  });
}

/** Every entry of the notebook, in order. */
export async function listEntries(root: string): Promise<NotebookEntry[]> {
  return notebookEntries(await readNotebook(root));
}

/**
 * Re-anchors the spans of every entry against the corpus as it is now ({@link reanchorOwned}):
 * moved spans take their new offsets, lost ones are flagged (and shown so in the file); only the
 * entries that changed are written again.
 */
export async function reanchorNotebook(root: string, items: ItemLookup, deps: WorkbenchDeps = {}): Promise<ReanchorReport> {
  const now = nowIso(deps);
  return change(root, (_text, parsed) => {
    if (!parsed) return { value: { spans: 0, unchanged: 0, moved: [], lost: [], written: false } };
    const owned = parsed.blocks.flatMap((b) => (b.type === 'entry' ? b.entry.spans.map((span, index) => ({ owner: b.entry.id, index, span })) : []));
    const { report, results } = reanchorOwned(owned, items, now);
    let k = 0;
    const changed = new Map<number, NotebookEntry>();
    parsed.blocks.forEach((b, bi) => {
      if (b.type !== 'entry') return;
      const rs = results.slice(k, k + b.entry.spans.length);
      k += b.entry.spans.length;
      if (rs.some(spanChanged)) changed.set(bi, { ...b.entry, spans: rs.map((r) => r.span) });
    });
    if (!changed.size) return { value: report };
    const text = rewriteBlocks(parsed, new Map([...changed].map(([bi, entry]) => [bi, { type: 'entry' as const, entry }])));
    return { text, value: { ...report, written: true } };
  });
}
