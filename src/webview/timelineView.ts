/**
 * Items Timeline (runs in the webview): the items by date in buckets of a day, a week or a month
 * (chosen from the span of the dates, or by the researcher), each bucket a bar of its markers by
 * kind with its items under it (the title opens the item); runs of empty buckets fold into one
 * line; items without a date are listed apart, with the date their metadata writes when it is not
 * one.
 */
import * as l10n from '@vscode/l10n';
import type { ItemTimeline, TimelineBucket, TimelineItem } from '../shared/acrossModel';
import { el } from './dom';
import { itemTitle, itemsWord, kindCounts, kindToggles, markersWord, notice, type Post } from './acrossParts';
import { barSegments, timelineRows } from './timelineRows';
import { num } from './vscodeApi';

const unitWord = (unit: TimelineBucket, n: number): string => {
  if (unit === 'day') return n === 1 ? l10n.t('1 day') : l10n.t('{0} days', num(n));
  if (unit === 'week') return n === 1 ? l10n.t('1 week') : l10n.t('{0} weeks', num(n));
  return n === 1 ? l10n.t('1 month') : l10n.t('{0} months', num(n));
};

function itemRow(it: TimelineItem, post: Post, showRaw: boolean): HTMLLIElement {
  const li = el('li', 'timeline-item');
  li.dataset['itemId'] = it.itemId;
  li.append(el('span', 'item-date', it.date ?? ''), itemTitle(it.itemId, it.title, post));
  li.append(el('span', 'item-total', it.hasMarkers ? markersWord(it.total) : l10n.t('no markers yet')), kindCounts(it.byKind));
  if (showRaw && it.rawDate) li.append(el('span', 'raw-date', l10n.t('date written as “{0}”', it.rawDate)));
  return li;
}

function bucketSelect(current: ItemTimeline['query']['bucket'], post: Post): HTMLLabelElement {
  const label = el('label', 'bucket-choice', `${l10n.t('Group by')} `);
  const select = el('select', 'bucket-select');
  select.id = 'timeline-bucket';
  const options: [NonNullable<ItemTimeline['query']['bucket']>, string][] = [
    ['auto', l10n.t('auto')],
    ['day', l10n.t('day')],
    ['week', l10n.t('week')],
    ['month', l10n.t('month')],
  ];
  for (const [value, text] of options) {
    const o = el('option', undefined, text);
    o.value = value;
    o.selected = (current ?? 'auto') === value;
    select.append(o);
  }
  select.addEventListener('change', () => post({ type: 'setBucket', bucket: select.value as NonNullable<ItemTimeline['query']['bucket']> }));
  label.append(select);
  return label;
}

/** The whole view of a timeline. */
export function timelineView(model: ItemTimeline, post: Post): HTMLElement {
  const root = el('div', 'across-view timeline');
  const head = el('header', 'view-head');
  head.append(el('h1', 'view-title', l10n.t('Items timeline')));
  const t = model.totals;
  const range = model.first && model.last ? `${l10n.t('{0} to {1}', model.first, model.last)} · ` : '';
  const summary = el('p', 'view-summary', `${range}${l10n.t('{0} dated, {1} without a date · {2}', num(t.dated), num(t.undated), markersWord(t.markers))}`);
  summary.id = 'timeline-summary';
  const bar = el('div', 'view-toolbar');
  bar.append(bucketSelect(model.query.bucket, post), kindToggles(model.query.kinds, (kinds) => post({ type: 'setKinds', kinds })));
  head.append(summary, bar);
  if (model.gapsOmitted) head.append(notice(l10n.t('Only the periods with items are shown: the dates span too many to list.')));
  if (!t.dated) head.append(notice(l10n.t('No item has a date its metadata gives (published_at, date, upload_date…).')));
  root.append(head);
  const list = el('ol', 'buckets');
  list.id = 'timeline-buckets';
  for (const row of timelineRows(model.buckets, model.bucket)) {
    if (row.type === 'gap') {
      list.append(el('li', 'gap', l10n.t('no items for {0}', unitWord(row.unit, row.buckets))));
      continue;
    }
    const b = row.entry;
    const li = el('li', 'bucket');
    li.dataset['bucket'] = b.key;
    const line = el('div', 'bucket-head');
    const key = el('span', 'bucket-key', b.key);
    key.title = b.start === b.end ? b.start : l10n.t('{0} to {1}', b.start, b.end);
    const barEl = el('span', 'bar');
    barEl.style.width = `${Math.max(2, Math.round(row.barShare * 100))}%`;
    for (const seg of barSegments(b.byKind)) {
      const s = el('span', `bar-seg kind-${seg.kind.toLowerCase()}`);
      s.style.width = `${(seg.share * 100).toFixed(2)}%`;
      s.title = `${seg.kind} ${num(b.byKind[seg.kind])}`;
      barEl.append(s);
    }
    const track = el('span', 'bar-track');
    track.append(barEl);
    line.append(key, track, el('span', 'bucket-total', `${markersWord(b.total)} · ${itemsWord(b.items.length)}`));
    const ul = el('ul', 'bucket-items');
    for (const it of b.items) ul.append(itemRow(it, post, false));
    li.append(line, ul);
    list.append(li);
  }
  root.append(list);
  if (model.undated.length) {
    const sec = el('section', 'undated');
    sec.id = 'timeline-undated';
    sec.append(el('h2', 'section-title', `${l10n.t('Without a date')} (${num(model.undated.length)})`));
    const ul = el('ul', 'bucket-items');
    for (const it of model.undated) ul.append(itemRow(it, post, true));
    sec.append(ul);
    root.append(sec);
  }
  return root;
}
