/**
 * Codes the Codes view offers from the markers: the topics of the markers across items, counted
 * (markers and items per topic, and markers per kind), most frequent first. A topic that is
 * already a code's name (case, width and spacing ignored) is left out, or with `includeExisting`
 * kept and marked with that code.
 */
import type { MarkerKind, ItemMarkers } from '../markers/schema';
import { allMarkers, readItemMarkers } from '../markers/store';
import { codesNamed } from './codebookStore';
import { nameKey, type Codebook } from './schema';

export interface SuggestedCode {
  /** The topic as the markers most often write it. */
  topic: string;
  /** Markers with this topic, and the items they are in. */
  markers: number;
  items: number;
  kinds: Partial<Record<MarkerKind, number>>;
  /** The code already named so, with `includeExisting`. */
  codeId?: string;
}

/**
 * The topics of `markerFiles` (one per item) as suggested codes, most markers first (then most
 * items, then by name).
 */
export function suggestedCodes(markerFiles: Iterable<ItemMarkers>, book?: Codebook, options: { includeExisting?: boolean; limit?: number } = {}): SuggestedCode[] {
  const groups = new Map<string, { forms: Map<string, number>; markers: number; items: Set<string>; kinds: Partial<Record<MarkerKind, number>> }>();
  for (const file of markerFiles) {
    for (const m of allMarkers(file)) {
      const topic = m.topic.trim().replace(/\s+/g, ' ');
      if (!topic) continue;
      const key = nameKey(topic);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { forms: new Map(), markers: 0, items: new Set(), kinds: {} }));
      g.forms.set(topic, (g.forms.get(topic) ?? 0) + 1);
      g.markers++;
      g.items.add(file.item_id);
      g.kinds[m.kind] = (g.kinds[m.kind] ?? 0) + 1;
    }
  }
  const out: SuggestedCode[] = [];
  for (const g of groups.values()) {
    // The most frequent spelling; the first seen on a tie (a Map keeps insertion order).
    let topic = '';
    let best = 0;
    for (const [form, n] of g.forms) if (n > best) [topic, best] = [form, n];
    const existing = book ? codesNamed(book, topic)[0] : undefined;
    if (existing && !options.includeExisting) continue;
    out.push({ topic, markers: g.markers, items: g.items.size, kinds: g.kinds, ...(existing ? { codeId: existing.id } : {}) });
  }
  out.sort((a, b) => b.markers - a.markers || b.items - a.items || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
  return options.limit !== undefined ? out.slice(0, options.limit) : out;
}

/** {@link suggestedCodes} from the marker files of `itemIds` (items without a readable marker file are skipped). */
export async function readSuggestedCodes(root: string, itemIds: readonly string[], book?: Codebook, options: { includeExisting?: boolean; limit?: number } = {}): Promise<SuggestedCode[]> {
  const files: ItemMarkers[] = [];
  for (const id of itemIds) {
    const r = await readItemMarkers(root, id);
    if (r.ok) files.push(r.value);
  }
  return suggestedCodes(files, book, options);
}
