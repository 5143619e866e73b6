/**
 * Two or more items side by side (issue 24, "Compare Items"): each item's markers by kind, the
 * topics several of them share (with markers per item), the topics only one has, and how alike
 * their topics are. Topics are the markers' own topic fields, folded ({@link topicKey}); markers
 * without a topic count in their kinds but in no topic.
 *
 * Similarity, per pair of items, over their sets of topic keys:
 * - `jaccard` = |A ∩ B| ÷ |A ∪ B|: the share of their topics both have (0 none, 1 the same set);
 * - `weighted` = Σ min(a_t, b_t) ÷ Σ max(a_t, b_t) over the topics t of either, a_t being the
 *   markers of t in A (Ruzicka): a topic weighs by how much each item says about it.
 * Both are null when neither item has a topic. `all` is the Jaccard index of every set at once:
 * topics in every item ÷ topics in any item.
 */
import { MARKER_KINDS, type MarkerKind } from '../markers/schema';
import type { AcrossMarker, CompareQuery, ComparedItem, ItemsComparison, SharedTopic, TopicSimilarity } from '../../shared/acrossModel';
import { itemDate } from './itemDate';
import { acrossMarker } from './markerPlace';
import { countKinds, readingOrder, selectItems, type AcrossCorpus } from './markerSelection';
import { TopicSpellings, compareKeys, topicKey } from './topicKey';

/** The similarity of two items' topic counts (see the module's comment). */
export function topicSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): { shared: number; union: number; jaccard: number | null; weighted: number | null } {
  const keys = new Set([...a.keys(), ...b.keys()]);
  let shared = 0;
  let min = 0;
  let max = 0;
  for (const k of keys) {
    const x = a.get(k) ?? 0;
    const y = b.get(k) ?? 0;
    if (x && y) shared++;
    min += Math.min(x, y);
    max += Math.max(x, y);
  }
  return { shared, union: keys.size, jaccard: keys.size ? shared / keys.size : null, weighted: max ? min / max : null };
}

/**
 * The items `query.itemIds` of `corpus` side by side, in the order asked (an id asked twice is
 * compared once; ids not in the corpus are listed in `missing`). Items without markers are
 * compared with none (`hasMarkers` false).
 *
 * @example
 * compareItems({ items: corpus.items, markers }, { itemIds: ['qmsum-Bed015', 'qmsum-Bmr003'] })
 * // { items: [...], sharedTopics: [{ label: 'speech recognition', counts: [4, 2], itemCount: 2 }], similarity: { all: 0.08, pairs: [...] } }
 */
export function compareItems(corpus: AcrossCorpus, query: CompareQuery): ItemsComparison {
  const asked = [...new Set(query.itemIds)];
  const byId = new Map(selectItems(corpus, query, asked).map((s) => [s.item.id, s]));
  const selected = asked.map((id) => byId.get(id)).filter((s): s is NonNullable<typeof s> => !!s);
  const spellings = new TopicSpellings();
  /** Per compared item: markers per topic key. */
  const topicCounts = selected.map((sel) => {
    const counts = new Map<string, number>();
    for (const pm of sel.markers) {
      const key = topicKey(pm.marker.topic);
      if (!key) continue;
      spellings.add(key, pm.marker.topic);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  });
  const items: ComparedItem[] = selected.map((sel, i) => {
    const markers = Object.fromEntries(MARKER_KINDS.map((k) => [k, [] as AcrossMarker[]])) as Record<MarkerKind, AcrossMarker[]>;
    for (const pm of [...sel.markers].sort(readingOrder)) markers[pm.marker.kind].push(acrossMarker(sel.item, sel.item.id, pm));
    return {
      itemId: sel.item.id,
      title: sel.item.title,
      date: itemDate(sel.item.meta).day,
      hasMarkers: !!sel.file,
      stale: sel.stale,
      total: sel.markers.length,
      byKind: countKinds(sel.markers),
      markers,
      topicCount: topicCounts[i]!.size,
    };
  });
  const allKeys = new Set(topicCounts.flatMap((c) => [...c.keys()]));
  const sharedTopics: SharedTopic[] = [];
  for (const key of allKeys) {
    const counts = topicCounts.map((c) => c.get(key) ?? 0);
    const itemCount = counts.filter((n) => n > 0).length;
    if (itemCount >= 2) sharedTopics.push({ key, label: spellings.label(key), variants: spellings.variants(key), counts, itemCount });
  }
  const total = (t: SharedTopic): number => t.counts.reduce((a, n) => a + n, 0);
  sharedTopics.sort((a, b) => b.itemCount - a.itemCount || total(b) - total(a) || compareKeys(a.key, b.key));
  const distinctTopics = selected.map((sel, i) => ({
    itemId: sel.item.id,
    topics: [...topicCounts[i]!]
      .filter(([key]) => topicCounts.every((c, j) => j === i || !c.has(key)))
      .map(([key, count]) => ({ key, label: spellings.label(key), count }))
      .sort((a, b) => b.count - a.count || compareKeys(a.key, b.key)),
  }));
  const pairs: TopicSimilarity[] = [];
  for (let i = 0; i < selected.length; i++) {
    for (let j = i + 1; j < selected.length; j++) pairs.push({ a: selected[i]!.item.id, b: selected[j]!.item.id, ...topicSimilarity(topicCounts[i]!, topicCounts[j]!) });
  }
  const inAll = [...allKeys].filter((k) => topicCounts.every((c) => c.has(k))).length;
  return {
    query,
    items,
    missing: asked.filter((id) => !byId.has(id)),
    sharedTopics,
    distinctTopics,
    similarity: { all: allKeys.size && selected.length ? inAll / allKeys.size : null, pairs },
  };
}
