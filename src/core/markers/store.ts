/**
 * Marker files under `<corpus>/.marker-research/markers/`: one `<item>.json`
 * per item and an `index.json`, written atomically and validated on read.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { STORAGE_DIR } from '../corpus/loader';
import { writeFileAtomic } from '../storage/atomic';
import { isUnsafeStatePath, readStateFile } from '../storage/safePath';
import { itemMarkersSchema, markersIndexSchema, type ItemMarkers, type Marker, type MarkersIndex } from './schema';

export function markersDir(root: string): string {
  return path.join(root, STORAGE_DIR, 'markers');
}

/** A file name for an item id: safe characters kept, a short hash added when anything was replaced. */
export function markerFileName(itemId: string): string {
  const safe = itemId.replace(/[^A-Za-z0-9._\-\u4e00-\u9fff]/g, '_').slice(0, 120);
  return safe === itemId ? `${safe}.json` : `${safe}-${createHash('sha256').update(itemId).digest('hex').slice(0, 8)}.json`;
}

export async function writeItemMarkers(root: string, markers: ItemMarkers): Promise<string> {
  const file = path.join(markersDir(root), markerFileName(markers.item_id));
  await writeFileAtomic(file, `${JSON.stringify(itemMarkersSchema.parse(markers), null, 1)}\n`);
  return file;
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; missing: boolean; error?: string };

/**
 * Reads an item's markers; a missing file is `missing`, an invalid one says why, and one that is
 * not a real file inside the corpus (a symbolic link, …) is refused unread, saying what to do.
 */
export async function readItemMarkers(root: string, itemId: string): Promise<ReadResult<ItemMarkers>> {
  const file = path.join(markersDir(root), markerFileName(itemId));
  let text: string;
  try {
    text = await readStateFile(file, 'utf8');
  } catch (e) {
    if (isUnsafeStatePath(e)) return { ok: false, missing: false, error: e.message };
    return { ok: false, missing: true };
  }
  try {
    const parsed = itemMarkersSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { ok: true, value: parsed.data };
    const issue = parsed.error.issues[0];
    return { ok: false, missing: false, error: `${file}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}` };
  } catch (e) {
    return { ok: false, missing: false, error: `${file}: ${(e as Error).message}` };
  }
}

export async function readMarkersIndex(root: string): Promise<MarkersIndex> {
  try {
    const parsed = markersIndexSchema.safeParse(JSON.parse(await readStateFile(path.join(markersDir(root), 'index.json'), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {}
  return { version: 1, items: {} };
}

export async function writeMarkersIndex(root: string, index: MarkersIndex): Promise<void> {
  await writeFileAtomic(path.join(markersDir(root), 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
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
