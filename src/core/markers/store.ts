/**
 * Marker files under `<corpus>/.marker-research/markers/`: one `<item>.json`
 * per item (one engine's markers) and an `index.json`, written atomically and
 * validated on read. Reads go through the shared read pool (a file that exists
 * but cannot be read is never "missing"); writes take the file's lock and
 * replace a marker file only when it is still what the writer read before it
 * generated (two writers of one item: the second is told, not silently lost).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { writeFileAtomic } from '../storage/atomic';
import { withFileLock } from '../storage/fileLock';
import { MISSING_VERSION, readStateJson, type ReadResult, type VersionedRead } from '../storage/readStateJson';
import { itemMarkersSchema, markersIndexSchema, type ItemMarkers, type Marker, type MarkersIndex } from './schema';

export function markersDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'markers');
}

export type { ReadResult };

/** A file name for an item id: safe characters kept, a short hash added when anything was replaced. */
export function markerFileName(itemId: string): string {
  const safe = itemId.replace(/[^A-Za-z0-9._\-\u4e00-\u9fff]/g, '_').slice(0, 120);
  return safe === itemId ? `${safe}.json` : `${safe}-${createHash('sha256').update(itemId).digest('hex').slice(0, 8)}.json`;
}

/** Another writer replaced an item's marker file after this writer read it: nothing was overwritten. */
export class MarkerWriteConflictError extends Error {
  readonly code = 'EMARKERCONFLICT';
  /**
   * @param file The marker file.
   * @param ours What this writer was about to write.
   * @param theirs What is in the file now (undefined when it was removed, or cannot be parsed).
   */
  constructor(
    readonly file: string,
    readonly ours: Pick<ItemMarkers, 'engine' | 'model'>,
    readonly theirs: Pick<ItemMarkers, 'engine' | 'model' | 'generated_at'> | undefined,
  ) {
    const who = (m: Pick<ItemMarkers, 'engine' | 'model'>): string => (m.model ? `${m.engine} ${m.model}` : m.engine);
    super(
      `markers: ${file} was ${theirs ? `written by another writer (${who(theirs)}, ${theirs.generated_at})` : 'changed by another writer'} while these ${who(ours)} markers were generated; it was kept, not overwritten — run markers again to replace it`,
    );
    this.name = 'MarkerWriteConflictError';
  }
}

/** How {@link writeItemMarkers} may replace the file. */
export interface WriteMarkersOptions {
  /**
   * The version of the file this writer read before it generated ({@link readItemMarkersVersioned}):
   * the file is replaced only when it is still that version (compare-and-swap under the file's lock).
   * When the file changed meanwhile, a file with the same cache key (the same result) is kept as it
   * is; any other is kept too and {@link MarkerWriteConflictError} is thrown.
   * Undefined: replaced whatever it holds (still under the lock, so never half-way through another write).
   */
  expected?: string;
}

/**
 * Writes an item's markers atomically, under the file's lock (see {@link WriteMarkersOptions}).
 * @returns the marker file.
 * @throws MarkerWriteConflictError when `expected` is given and another writer changed the file meanwhile.
 */
export async function writeItemMarkers(root: string, markers: ItemMarkers, options: WriteMarkersOptions = {}): Promise<string> {
  const file = path.join(markersDir(root), markerFileName(markers.item_id));
  const text = `${JSON.stringify(itemMarkersSchema.parse(markers), null, 1)}\n`;
  await withFileLock(file, async () => {
    if (options.expected !== undefined) {
      const now = await readStateJson(file, itemMarkersSchema);
      // Removed meanwhile: nothing of anyone's is lost by writing.
      if (now.version !== options.expected && now.version !== MISSING_VERSION) {
        if (now.result.ok && now.result.value.cache_key === markers.cache_key) return; // the same result is there already
        if (!now.result.ok && now.result.unreadable) throw new Error(now.result.error ?? `${file}: could not be read`);
        throw new MarkerWriteConflictError(file, markers, now.result.ok ? now.result.value : undefined);
      }
    }
    await writeFileAtomic(file, text);
  });
  return file;
}

/**
 * Reads an item's markers with the version of the file read (for a later compare-and-swap write).
 * Only a file that does not exist is `missing`; one that exists but cannot be read is `unreadable`
 * (with the reason, naming the file) and one that does not validate says why. A file that is not a
 * real file inside the corpus (a symbolic link, …) is refused unread, saying what to do.
 */
export async function readItemMarkersVersioned(root: string, itemId: string): Promise<VersionedRead<ItemMarkers>> {
  return readStateJson(path.join(markersDir(root), markerFileName(itemId)), itemMarkersSchema);
}

/** {@link readItemMarkersVersioned} without the version. */
export async function readItemMarkers(root: string, itemId: string): Promise<ReadResult<ItemMarkers>> {
  return (await readItemMarkersVersioned(root, itemId)).result;
}

export function markersIndexFile(root: string): string {
  return path.join(markersDir(root), 'index.json');
}

/** The markers index; an empty one when it is missing or invalid. */
export async function readMarkersIndex(root: string): Promise<MarkersIndex> {
  const r = (await readStateJson(markersIndexFile(root), markersIndexSchema)).result;
  return r.ok ? r.value : { version: 1, items: {} };
}

export async function writeMarkersIndex(root: string, index: MarkersIndex): Promise<void> {
  await withFileLock(markersIndexFile(root), () => writeFileAtomic(markersIndexFile(root), `${JSON.stringify(index, null, 1)}\n`));
}

/**
 * Sets the index lines of `entries` in the index as it is on disk now (under its lock): another
 * writer's lines written meanwhile are kept, not replaced by this writer's older copy of the index.
 */
export async function updateMarkersIndex(root: string, entries: Readonly<MarkersIndex['items']>): Promise<void> {
  if (!Object.keys(entries).length) return;
  const file = markersIndexFile(root);
  await withFileLock(file, async () => {
    const index = await readMarkersIndex(root);
    Object.assign(index.items, entries);
    await writeFileAtomic(file, `${JSON.stringify(index, null, 1)}\n`);
  });
}

/** Every marker of an item's file, in the seed's order. */
export function allMarkers(m: ItemMarkers): Marker[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  return [
    ...(t ? [...t.key_facts, ...t.key_opinions, ...t.key_datapoints] : []),
    ...(c ? [...c.key_facts_from_comments, ...c.key_opinions_from_comments, ...c.key_datapoints_from_comments, ...c.top_engagement_markers] : []),
  ];
}
