/**
 * What the "Across items" panels draw alike (runs in the webview): kind badges and their counts,
 * kind toggles, a marker row that opens the marker's evidence, an item title that opens the item,
 * and the counted words. Corpus text (titles, markers, topics) is only ever set as text.
 */
import * as l10n from '@vscode/l10n';
import type { AcrossMarker, KindCounts, MarkerPlace } from '../shared/acrossModel';
import type { AcrossToHost } from '../shared/acrossWebviewProtocol';
import type { MarkerKindName } from '../shared/webviewProtocol';
import { button, el, onActivate } from './dom';
import { num } from './vscodeApi';

export const KINDS: readonly MarkerKindName[] = ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'];

/** What a panel's parts post to the host. */
export type Post = (msg: AcrossToHost) => void;

const count = (n: number, one: string, many: string): string => (n === 1 ? one : many.replace('{n}', num(n)));
export const markersWord = (n: number): string => count(n, l10n.t('1 marker'), l10n.t('{0} markers', '{n}'));
export const itemsWord = (n: number): string => count(n, l10n.t('1 item'), l10n.t('{0} items', '{n}'));
export const topicsWord = (n: number): string => count(n, l10n.t('1 topic'), l10n.t('{0} topics', '{n}'));

/** A kind's badge (`.marker-kind` in a `.kind-<kind>` element: the sidebar's colours), with a count when given. */
export function kindBadge(kind: MarkerKindName, n?: number): HTMLSpanElement {
  const wrap = el('span', `kind-count kind-${kind.toLowerCase()}`);
  wrap.append(el('span', 'marker-kind', kind));
  if (n !== undefined) wrap.append(el('span', 'kind-n', num(n)));
  return wrap;
}

/** The kinds present in `byKind`, each a badge with its count. */
export function kindCounts(byKind: KindCounts): HTMLSpanElement {
  const out = el('span', 'kind-counts');
  for (const k of KINDS) if (byKind[k] > 0) out.append(kindBadge(k, byKind[k]));
  return out;
}

/**
 * Kind toggles: every kind pressed when `active` is empty (all shown); a click turns one kind off
 * or on and says which kinds are shown (empty: all of them again).
 */
export function kindToggles(active: readonly MarkerKindName[] | undefined, onChange: (kinds: MarkerKindName[]) => void): HTMLDivElement {
  const on = new Set(active?.length ? active : KINDS);
  const row = el('div', 'kind-filters');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', l10n.t('Kinds'));
  for (const k of KINDS) {
    const b = button(`kind-toggle kind-${k.toLowerCase()}`, k, l10n.t('Show or hide {0} markers', k), () => {
      if (on.has(k)) on.delete(k);
      else on.add(k);
      const kinds = KINDS.filter((x) => on.has(x));
      onChange(kinds.length === KINDS.length || !kinds.length ? [] : kinds);
    });
    b.setAttribute('aria-pressed', String(on.has(k)));
    row.append(b);
  }
  return row;
}

/**
 * Where a marker is, in the readable view's words: `Daniel · 1:29 · turns 12–13` (an untimed
 * transcript's label already names its turns: `Daniel · turn 12`); for a caption
 * transcript, its paragraph and caption lines (`¶ 2 · caption lines 14–19`, after the time when
 * it has one), as the readable view numbers them; a comment as the sidebar labels it.
 */
export function placeText(place: MarkerPlace | null): string {
  if (!place) return '';
  if (place.paragraph !== null) {
    const lines = place.turn === null ? '' : place.turnEnd !== null && place.turnEnd !== place.turn ? l10n.t('caption lines {0}–{1}', num(place.turn), num(place.turnEnd)) : l10n.t('caption line {0}', num(place.turn));
    // The label of a timed caption span holds its time; an untimed one's holds only its (caption line) turns.
    const who = place.startTime !== null ? place.label : place.speakers.join(', ');
    return [who, l10n.t('¶ {0}', num(place.paragraph)), lines].filter(Boolean).join(' · ');
  }
  const parts = [place.label];
  // A timed span's label says its time; an untimed one's already says its turns (in the corpus's language).
  if (place.part === 'transcript' && place.turn !== null && place.startTime !== null) {
    parts.push(place.turnEnd !== null && place.turnEnd !== place.turn ? l10n.t('turns {0}–{1}', num(place.turn), num(place.turnEnd)) : l10n.t('turn {0}', num(place.turn)));
  }
  return parts.filter(Boolean).join(' · ');
}

/** A marker as a row that opens its evidence (click, Enter or Space). */
export function markerRow(m: AcrossMarker, post: Post, opts: { context?: string } = {}): HTMLLIElement {
  const li = el('li', `marker kind-${m.kind.toLowerCase()}`);
  li.dataset['itemId'] = m.itemId;
  li.dataset['markerId'] = m.markerId;
  li.dataset['kind'] = m.kind;
  li.tabIndex = 0;
  li.setAttribute('role', 'button');
  li.title = [l10n.t("Open the marker's evidence"), m.place ? `${m.place.file}:${m.place.line}` : ''].filter(Boolean).join('\n');
  const head = el('div', 'marker-line');
  head.append(kindBadge(m.kind), el('span', 'marker-text', m.text));
  li.append(head);
  const where = el('div', 'marker-where');
  if (opts.context) where.append(el('span', 'marker-context', opts.context));
  const place = placeText(m.place);
  if (place) where.append(el('span', 'marker-place', place));
  if (!m.grounded) where.append(el('span', 'ungrounded', l10n.t('ungrounded')));
  if (where.childNodes.length) li.append(where);
  const open = (): void => post({ type: 'openMarker', itemId: m.itemId, markerId: m.markerId });
  onActivate(li, open);
  return li;
}

/** An item's title as a link-like button that opens the item in full. */
export function itemTitle(itemId: string, title: string, post: Post, cls = 'item-title'): HTMLButtonElement {
  const b = button(`link ${cls}`, title || itemId, `${l10n.t('Open the item in full')}\n${itemId}`, () => post({ type: 'openItem', itemId }));
  b.dataset['itemId'] = itemId;
  return b;
}

/** A notice line (`.notice`), with a class for its tone. */
export function notice(text: string, tone: 'info' | 'warning' = 'info'): HTMLParagraphElement {
  return el('p', `notice notice-${tone}`, text);
}
