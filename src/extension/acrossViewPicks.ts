/**
 * What the "Across items" commands offer to pick, from the engine's models (pure: no `vscode`, so
 * the choices are tested as they are built; the words come in localised). Markers Across Items:
 * the kinds, then every topic, each with its counts (from `markersAcross` with `detail: 'counts'`);
 * Compare Items: every item with its date and markers (from the timeline, which lists every item
 * once).
 */
import { ALL_KINDS as MARKER_KINDS } from '../shared/sidebarModel';
import type { MarkerKindName as MarkerKind } from '../shared/webviewProtocol';
import type { AcrossQuery, ItemTimeline, MarkersAcross, TimelineItem } from '../shared/acrossModel';

/** A row of a pick list: a choice, or a separator with a label. */
export type PickRow<T> = { separator: true; label: string } | { separator?: false; label: string; description?: string; detail?: string; value: T; picked?: boolean };

/** The words the pick lists use, in the display language. */
export interface PickWords {
  kinds: string;
  topics: string;
  /** What each kind is (the detail line of its row). */
  kindHelp: Record<MarkerKind, string>;
  /** `12 markers in 3 items` */
  markersInItems: (markers: number, items: number) => string;
  /** `12 markers` */
  markers: (n: number) => string;
  /** `also written: 電池, bateria` */
  alsoWritten: (variants: string) => string;
  noDate: string;
  noMarkers: string;
}

/** `FACT 3 · DATA 1`: the kinds present, with their counts. */
export const byKindLine = (byKind: Record<MarkerKind, number>): string =>
  MARKER_KINDS.filter((k) => byKind[k] > 0)
    .map((k) => `${k} ${byKind[k].toLocaleString('en-US')}`)
    .join(' · ');

/**
 * The choices of Markers Across Items: a kind (all its markers, grouped by topic), or a topic (its
 * markers of every kind). `counts` is the whole corpus's counts, `kindCounts` each kind's. Kinds without markers are left out; topics come in the model's order
 * (most markers first); markers without a topic are no topic to pick (a kind's view shows them).
 */
export function acrossPickRows(counts: MarkersAcross, kindCounts: Partial<Record<MarkerKind, MarkersAcross>>, w: PickWords): PickRow<AcrossQuery>[] {
  const rows: PickRow<AcrossQuery>[] = [{ separator: true, label: w.kinds }];
  for (const k of MARKER_KINDS) {
    const n = counts.totals.byKind[k];
    if (!n) continue;
    // The items with markers of the kind: its own counts (a topic's items may have other kinds only).
    const items = kindCounts[k]?.totals.items ?? 0;
    rows.push({ label: k, description: w.markersInItems(n, items), detail: w.kindHelp[k], value: { kinds: [k] } });
  }
  const topics = counts.topics.filter((t) => t.key);
  if (topics.length) rows.push({ separator: true, label: w.topics });
  for (const t of topics) {
    const variants = t.variants.filter((v) => v !== t.label);
    rows.push({
      label: t.label,
      description: w.markersInItems(t.count, t.itemCount),
      detail: [byKindLine(t.byKind), variants.length ? w.alsoWritten(variants.join(', ')) : ''].filter(Boolean).join(' · '),
      // A topic by its most used spelling: the engine folds every spelling of it to the same key.
      value: { topic: t.label, topicMatch: 'exact' },
    });
  }
  return rows;
}

/** The query of typed words no row matched: markers whose topic holds them as words. */
export function typedTopicQuery(text: string): AcrossQuery | undefined {
  const t = text.trim();
  return t ? { topic: t.slice(0, 200), topicMatch: 'contains' } : undefined;
}

/** Every item of the timeline (the dated by date, then the undated), once. */
export function timelineItems(t: ItemTimeline): TimelineItem[] {
  return [...t.buckets.flatMap((b) => b.items), ...t.undated];
}

/** The choices of Compare Items: every item with its date and markers; `preselected` ticked. */
export function comparePickRows(t: ItemTimeline, w: PickWords, preselected: readonly string[] = []): { label: string; description: string; detail: string; value: string; picked: boolean }[] {
  const want = new Set(preselected);
  return timelineItems(t).map((it) => ({
    label: it.title || it.itemId,
    description: [it.date ?? w.noDate, it.hasMarkers ? w.markers(it.total) : w.noMarkers].join(' · '),
    detail: [it.itemId, byKindLine(it.byKind)].filter(Boolean).join(' · '),
    value: it.itemId,
    picked: want.has(it.itemId),
  }));
}

/** How a Markers Across Items query is named in the panel's title: its topic (typed words in quotes) and kinds. */
export function queryLabel(q: AcrossQuery): string {
  const kinds = q.kinds?.length ? q.kinds.join(', ') : '';
  if (q.topic !== undefined) return [q.topicMatch === 'contains' ? `“${q.topic}”…` : q.topic, kinds].filter(Boolean).join(' · ');
  return kinds || MARKER_KINDS.join(', ');
}
