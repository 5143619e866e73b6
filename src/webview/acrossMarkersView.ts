/**
 * Markers Across Items (runs in the webview): the markers of a kind or a topic, grouped by topic
 * (its spellings, its counts by kind), then by item (the title opens the item), each marker a row
 * that opens its exact span. Kind toggles narrow the query; "Change…" asks again. Topic groups past
 * the first few start closed and are drawn when opened (a kind across a large corpus has hundreds).
 */
import * as l10n from '@vscode/l10n';
import type { MarkersAcross, TopicGroup } from '../shared/acrossModel';
import { button, el } from './dom';
import { itemTitle, itemsWord, kindCounts, kindToggles, markerRow, markersWord, notice, topicsWord, type Post } from './acrossParts';

/** Topic groups open (and drawn) at first; the others are drawn when opened. */
const OPEN_GROUPS = 8;

/** What the query asks for, in words: the topic (typed words in quotes) and the kinds. */
export function queryHeading(model: MarkersAcross): string {
  const q = model.query;
  const kinds = q.kinds?.length ? q.kinds.join(', ') : '';
  if (q.topic !== undefined) return [q.topicMatch === 'contains' ? `“${q.topic}”…` : (model.topics[0]?.label ?? q.topic), kinds].filter(Boolean).join(' · ');
  return kinds || l10n.t('every kind');
}

function topicBody(group: TopicGroup, post: Post): HTMLDivElement {
  const body = el('div', 'topic-items');
  for (const it of group.items) {
    const sec = el('section', 'topic-item');
    sec.dataset['itemId'] = it.itemId;
    const h = el('h3', 'topic-item-head');
    h.append(itemTitle(it.itemId, it.title, post), el('span', 'count-badge', String(it.count)));
    const ul = el('ul', 'markers');
    for (const m of it.markers) ul.append(markerRow(m, post));
    sec.append(h, ul);
    body.append(sec);
  }
  return body;
}

function topicGroup(group: TopicGroup, index: number, post: Post): HTMLDetailsElement {
  const d = el('details', 'topic');
  d.dataset['topicKey'] = group.key;
  const s = el('summary', 'topic-summary');
  const label = el('span', 'topic-label', group.key ? group.label : l10n.t('(no topic)'));
  if (!group.key) label.classList.add('no-topic');
  s.append(label);
  const others = group.variants.filter((v) => v !== group.label);
  if (others.length) s.append(el('span', 'topic-variants', l10n.t('also written: {0}', others.join(', '))));
  s.append(el('span', 'topic-counts', l10n.t('{0} in {1}', markersWord(group.count), itemsWord(group.itemCount))), kindCounts(group.byKind));
  d.append(s);
  let drawn = false;
  const draw = (): void => {
    if (drawn) return;
    drawn = true;
    d.append(topicBody(group, post));
  };
  if (index < OPEN_GROUPS) {
    d.open = true;
    draw();
  } else d.addEventListener('toggle', () => d.open && draw());
  return d;
}

/** The whole view of a model. */
export function markersAcrossView(model: MarkersAcross, post: Post): HTMLElement {
  const root = el('div', 'across-view markers-across');
  const head = el('header', 'view-head');
  const title = el('h1', 'view-title', l10n.t('Markers across items: {0}', queryHeading(model)));
  const t = model.totals;
  const summary = el('p', 'view-summary', l10n.t('{0} in {1} · {2}', markersWord(t.markers), itemsWord(t.items), topicsWord(t.topics)));
  summary.id = 'across-summary';
  const bar = el('div', 'view-toolbar');
  bar.append(
    kindToggles(model.query.kinds, (kinds) => post({ type: 'setKinds', kinds })),
    button('secondary change', l10n.t('Change…'), l10n.t('Show another kind or topic'), () => post({ type: 'change' })),
  );
  head.append(title, summary, bar);
  if (model.itemsWithoutMarkers.length) head.append(notice(l10n.t('{0} have no markers yet: run "Generate Markers" to count them.', itemsWord(model.itemsWithoutMarkers.length))));
  if (model.staleItems.length) head.append(notice(l10n.t('{0} changed since their markers were made: places may be off.', itemsWord(model.staleItems.length)), 'warning'));
  root.append(head);
  const list = el('div', 'topics');
  list.id = 'across-topics';
  if (!model.topics.length) list.append(el('p', 'empty', l10n.t('No marker matches. Change the kinds, or pick another kind or topic.')));
  model.topics.forEach((g, i) => list.append(topicGroup(g, i, post)));
  root.append(list);
  return root;
}
