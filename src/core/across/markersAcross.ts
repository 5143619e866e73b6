/**
 * All markers of a kind or a topic across items (issue 24, "Across items"): the markers a query
 * keeps, grouped by their own topic (folded: {@link topicKey}), then by item, with counts per
 * group, per item and per kind; every marker keeps its place, so a click opens it.
 */
import type { AcrossQuery, MarkersAcross, TopicGroup, TopicItem } from '../../shared/acrossModel';
import { acrossMarker } from './markerPlace';
import { countKinds, readingOrder, selectItems, type AcrossCorpus, type PartMarker, type SelectedItem } from './markerSelection';
import { TopicSpellings, compareKeys, topicKey } from './topicKey';

const HAN = /\p{Script=Han}/u;

/**
 * True when topic key `key` holds `want` as whole words (`battery` in `battery life`, not in
 * `batteryless`); Chinese characters need no spaces around them (`电池` in `电池寿命`).
 */
export function keyContains(key: string, want: string): boolean {
  if (!want) return true;
  for (let at = key.indexOf(want); at >= 0; at = key.indexOf(want, at + 1)) {
    const before = key[at - 1];
    const after = key[at + want.length];
    const openStart = before === undefined || before === ' ' || HAN.test(want[0]!) || HAN.test(before);
    const openEnd = after === undefined || after === ' ' || HAN.test(want[want.length - 1]!) || HAN.test(after);
    if (openStart && openEnd) return true;
  }
  return false;
}

/**
 * The markers of `corpus` that `query` keeps, grouped by topic, then item.
 *
 * Topics: markers with the most first, then those in the most items, then by label; markers
 * without a topic form a group of key and label ''. Ties by key (code-point order: the same on every machine). Items under a topic: the most markers first,
 * then in corpus order. Markers under an item: transcript, then comments, by position.
 *
 * @example
 * markersAcross({ items: corpus.items, markers }, { kinds: ['OPINION'], topic: 'batería' })
 * // { topics: [{ key: 'bateria', label: 'batería', variants: ['batería', 'bateria'], count: 7, itemCount: 3, items: [...] }], ... }
 */
export function markersAcross(corpus: AcrossCorpus, query: AcrossQuery = {}): MarkersAcross {
  const selected = selectItems(corpus, query, query.itemIds);
  const want = query.topic !== undefined ? topicKey(query.topic) : undefined;
  const contains = query.topicMatch === 'contains';
  const spellings = new TopicSpellings();
  /** Topic key → item position in `selected` → that item's markers of the topic. */
  const groups = new Map<string, Map<number, PartMarker[]>>();
  selected.forEach((sel, i) => {
    for (const pm of sel.markers) {
      const key = topicKey(pm.marker.topic);
      if (want !== undefined && !(contains ? keyContains(key, want) : key === want)) continue;
      spellings.add(key, pm.marker.topic);
      let byItem = groups.get(key);
      if (!byItem) groups.set(key, (byItem = new Map()));
      let list = byItem.get(i);
      if (!list) byItem.set(i, (list = []));
      list.push(pm);
    }
  });
  const withMarkers = query.detail !== 'counts';
  const itemOf = (sel: SelectedItem, pms: PartMarker[]): TopicItem => ({
    itemId: sel.item.id,
    title: sel.item.title,
    count: pms.length,
    markers: withMarkers ? [...pms].sort(readingOrder).map((pm) => acrossMarker(sel.item, sel.item.id, pm)) : [],
  });
  const topics: TopicGroup[] = [...groups].map(([key, byItem]) => {
    const entries = [...byItem].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
    const all = entries.flatMap(([, pms]) => pms);
    return {
      key,
      label: spellings.label(key),
      variants: spellings.variants(key),
      count: all.length,
      itemCount: entries.length,
      byKind: countKinds(all),
      items: entries.map(([i, pms]) => itemOf(selected[i]!, pms)),
    };
  });
  topics.sort((a, b) => b.count - a.count || b.itemCount - a.itemCount || compareKeys(a.key, b.key));
  const counted = new Set<string>();
  for (const t of topics) for (const it of t.items) counted.add(it.itemId);
  return {
    query,
    totals: {
      markers: topics.reduce((a, t) => a + t.count, 0),
      items: counted.size,
      topics: topics.length,
      byKind: countKinds([...groups.values()].flatMap((byItem) => [...byItem.values()].flat())),
    },
    topics,
    itemsWithoutMarkers: selected.filter((s) => !s.file).map((s) => s.item.id),
    staleItems: selected.filter((s) => s.stale).map((s) => s.item.id),
  };
}
