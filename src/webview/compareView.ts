/**
 * Compare Items (runs in the webview): the items side by side — each a column with its title
 * (opens the item), date, markers by kind (each opening its span) and the topics only it has —
 * then the topics they share with their markers per item (a topic opens its markers across items),
 * and how alike their topics are (Jaccard over topic sets, and weighted by markers).
 */
import * as l10n from '@vscode/l10n';
import type { ComparedItem, ItemsComparison } from '../shared/acrossModel';
import { button, el } from './dom';
import { KINDS, itemTitle, kindBadge, kindCounts, kindToggles, markerRow, markersWord, notice, type Post } from './acrossParts';
import { num } from './vscodeApi';

/** A share as `0.25`; `—` for none. */
export const share = (x: number | null): string => (x === null ? '—' : x.toFixed(2));

/** The similarity line of a pair: `3 of 12 topics shared (Jaccard 0.25) · weighted by markers 0.31`. */
export function pairLine(p: ItemsComparison['similarity']['pairs'][number]): string {
  return `${l10n.t('{0} of {1} topics shared (Jaccard {2})', num(p.shared), num(p.union), share(p.jaccard))} · ${l10n.t('weighted by markers {0}', share(p.weighted))}`;
}

function similarity(model: ItemsComparison): HTMLElement {
  const sec = el('section', 'similarity');
  sec.id = 'compare-similarity';
  sec.title = l10n.t("Topics are the markers' own topics, folded (case, accents, width, simplified and traditional Chinese). Jaccard: topics both items have ÷ topics either has. Weighted: each topic counts by how many markers each item has of it.");
  sec.append(el('h2', 'section-title', l10n.t('Topic overlap')));
  const pairs = model.similarity.pairs;
  if (pairs.length === 1) {
    sec.append(el('p', 'similarity-figure', pairLine(pairs[0]!)));
    return sec;
  }
  sec.append(el('p', 'similarity-figure', l10n.t('Topics in every item ÷ topics in any item: {0}', share(model.similarity.all))));
  const titles = new Map(model.items.map((it) => [it.itemId, it.title || it.itemId]));
  const table = el('table', 'pairs');
  for (const p of pairs) {
    const tr = el('tr');
    tr.append(el('td', 'pair-names', `${titles.get(p.a)} ↔ ${titles.get(p.b)}`), el('td', 'pair-figure', pairLine(p)));
    table.append(tr);
  }
  sec.append(table);
  return sec;
}

function column(it: ComparedItem, distinct: { label: string; count: number }[], post: Post): HTMLElement {
  const col = el('article', 'compared');
  col.dataset['itemId'] = it.itemId;
  const h = el('h2', 'compared-title');
  h.append(itemTitle(it.itemId, it.title, post));
  col.append(h);
  const meta = el('p', 'compared-meta', [it.date ?? l10n.t('no date'), it.hasMarkers ? markersWord(it.total) : l10n.t('no markers yet')].join(' · '));
  col.append(meta, kindCounts(it.byKind));
  if (it.stale) col.append(notice(l10n.t('The item changed since its markers were made: places may be off.'), 'warning'));
  const only = el('div', 'distinct');
  only.append(el('h3', 'subsection-title', l10n.t('Only in this item')));
  const chips = el('div', 'chips');
  if (!distinct.length) chips.append(el('span', 'empty', l10n.t('none')));
  for (const t of distinct) {
    const c = button('chip', `${t.label} ${num(t.count)}`, l10n.t('Markers of “{0}” across items', t.label), () => post({ type: 'showTopic', topic: t.label }));
    chips.append(c);
  }
  only.append(chips);
  col.append(only);
  for (const k of KINDS) {
    const ms = it.markers[k] ?? [];
    if (!ms.length) continue;
    const d = el('details', 'kind-group');
    d.open = true;
    const s = el('summary');
    s.append(kindBadge(k, ms.length));
    d.append(s);
    const ul = el('ul', 'markers');
    for (const m of ms) ul.append(markerRow(m, post, { context: m.topic.trim() }));
    d.append(ul);
    col.append(d);
  }
  return col;
}

function sharedTable(model: ItemsComparison, post: Post): HTMLElement {
  const sec = el('section', 'shared');
  sec.id = 'compare-shared';
  sec.append(el('h2', 'section-title', l10n.t('Shared topics')));
  if (!model.sharedTopics.length) {
    sec.append(el('p', 'empty', l10n.t('No topic in common.')));
    return sec;
  }
  const table = el('table', 'shared-topics');
  const head = el('tr');
  head.append(el('th', 'topic-col', l10n.t('Topic')));
  for (const it of model.items) {
    const th = el('th', 'item-col', it.title || it.itemId);
    th.title = it.itemId;
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  for (const t of model.sharedTopics) {
    const tr = el('tr');
    const td = el('td', 'topic-col');
    td.append(button('link topic-link', t.label, l10n.t('Markers of “{0}” across items', t.label), () => post({ type: 'showTopic', topic: t.label })));
    tr.append(td);
    t.counts.forEach((n) => tr.append(el('td', n ? 'count' : 'count zero', n ? num(n) : '—')));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  sec.append(table);
  return sec;
}

/** The whole view of a comparison. */
export function compareView(model: ItemsComparison, post: Post): HTMLElement {
  const root = el('div', 'across-view compare');
  const head = el('header', 'view-head');
  head.append(el('h1', 'view-title', l10n.t('Compare items')));
  const bar = el('div', 'view-toolbar');
  bar.append(
    kindToggles(model.query.kinds, (kinds) => post({ type: 'setKinds', kinds })),
    button('secondary change', l10n.t('Other items…'), l10n.t('Compare other items'), () => post({ type: 'change' })),
  );
  head.append(bar);
  if (model.missing.length) head.append(notice(l10n.t('Not in the indexed corpus: {0}', model.missing.join(', ')), 'warning'));
  root.append(head, similarity(model));
  const grid = el('div', 'compare-grid');
  grid.id = 'compare-grid';
  grid.style.setProperty('--columns', String(Math.max(1, model.items.length)));
  model.items.forEach((it, i) => grid.append(column(it, model.distinctTopics[i]?.topics ?? [], post)));
  root.append(grid, sharedTable(model, post));
  return root;
}
