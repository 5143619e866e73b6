/**
 * Which markers of which items an across-items view takes: the items in scope (in corpus order),
 * each with its marker file (when it has a readable one) and the markers the query keeps, each with
 * the part it comes from. Shared by the views and the markers export.
 */
import type { CorpusItem, PartKind } from '../corpus/types';
import { MARKER_KINDS, type ItemMarkers, type Marker, type MarkerKind } from '../markers/schema';

/** What the across-items models are made from: the corpus's items (in corpus order) and the markers of those that have them. */
export interface AcrossCorpus {
  items: readonly CorpusItem[];
  markers: ReadonlyMap<string, ItemMarkers>;
}

/** Which markers are kept. Every field narrows; none given: every marker. */
export interface MarkerFilter {
  kinds?: readonly MarkerKind[];
  part?: PartKind;
  groundedOnly?: boolean;
}

/** A marker with the part it comes from (its evidence's part; without evidence, the summary it is in). */
export interface PartMarker {
  marker: Marker;
  part: PartKind;
}

/** An item in scope: its marker file, if readable, and the markers kept. */
export interface SelectedItem {
  item: CorpusItem;
  /** Position of the item in the corpus. */
  order: number;
  file: ItemMarkers | undefined;
  /** The item's files changed since its markers were made. */
  stale: boolean;
  markers: PartMarker[];
}

/** Every marker of an item's file with its part, in the sidebar's order (transcript facts, opinions, data; comment facts, opinions, data, engagement). */
export function markersWithPart(m: ItemMarkers): PartMarker[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  const of = (list: Marker[], fallback: PartKind): PartMarker[] => list.map((marker) => ({ marker, part: marker.evidence[0]?.part ?? fallback }));
  return [
    ...(t ? of([...t.key_facts, ...t.key_opinions, ...t.key_datapoints], 'transcript') : []),
    ...(c ? of([...c.key_facts_from_comments, ...c.key_opinions_from_comments, ...c.key_datapoints_from_comments, ...c.top_engagement_markers], 'comments') : []),
  ];
}

/** True when `pm` passes `filter`. */
export function keeps(filter: MarkerFilter, pm: PartMarker): boolean {
  if (filter.kinds?.length && !filter.kinds.includes(pm.marker.kind)) return false;
  if (filter.part && pm.part !== filter.part) return false;
  if (filter.groundedOnly && !pm.marker.grounded) return false;
  return true;
}

/**
 * The items of `corpus` in scope — those of `itemIds` (in corpus order), or every item — each with
 * the markers `filter` keeps. Items without a marker file are included with none.
 */
export function selectItems(corpus: AcrossCorpus, filter: MarkerFilter, itemIds?: readonly string[]): SelectedItem[] {
  const wanted = itemIds ? new Set(itemIds) : undefined;
  const out: SelectedItem[] = [];
  corpus.items.forEach((item, order) => {
    if (wanted && !wanted.has(item.id)) return;
    const file = corpus.markers.get(item.id);
    out.push({ item, order, file, stale: !!file && file.content_hash !== item.contentHash, markers: file ? markersWithPart(file).filter((pm) => keeps(filter, pm)) : [] });
  });
  return out;
}

/** Zero of every kind. */
export function zeroCounts(): Record<MarkerKind, number> {
  return Object.fromEntries(MARKER_KINDS.map((k) => [k, 0])) as Record<MarkerKind, number>;
}

/** Markers per kind. */
export function countKinds(markers: Iterable<{ marker: Pick<Marker, 'kind'> } | Pick<Marker, 'kind'>>): Record<MarkerKind, number> {
  const out = zeroCounts();
  for (const m of markers) out['marker' in m ? m.marker.kind : m.kind]++;
  return out;
}

/** Reading order of two markers: transcript before comments, then by position; markers without evidence last (a stable sort keeps their order). */
export function readingOrder(a: PartMarker, b: PartMarker): number {
  const ea = a.marker.evidence[0];
  const eb = b.marker.evidence[0];
  if (!ea || !eb) return (ea ? 0 : 1) - (eb ? 0 : 1);
  return (ea.part === eb.part ? 0 : ea.part === 'transcript' ? -1 : 1) || ea.start - eb.start || ea.end - eb.end;
}
