/**
 * The tree of the Corpus & Markers view: items → marker groups → markers.
 * Item rows are one line (the title, its marker count; id, counts and engine
 * on hover and when opened). Rows are rendered a page at a time ("Show more"),
 * in the order of the sort, and only for the items the filter leaves, so a
 * corpus of thousands of items stays quick: filtering compares strings folded
 * once per state ({@link indexItems}) and re-uses the rows already built.
 */
import {
  COMMENT_GROUP_KEYS, filterCountText, filterIsEmpty, indexItems, itemLikes, matchItem, noMatchText, sortItems, spamNote,
  type IndexedItem, type ItemMatch, type ItemSort, type MarkerFilter,
} from '../shared/sidebarModel';
import { foldedMatches } from '../shared/textFold';
import type { CorpusToHost, ItemSummary, MarkerGroup, MarkerSummary, SidebarState } from '../shared/webviewProtocol';
import * as l10n from '@vscode/l10n';
import * as counted from './counts';
import { button, el, onActivate } from './dom';
import { pinButton } from './pinButton';
import { kindBadge, kindTitle } from './legend';

/** A location label that already says the likes (it is in the corpus's language: src/core/corpus/locationWords.ts). */
const LIKES_IN_LABEL = /\blikes?\b|\bme gusta\b|个赞|個讚|赞|讚/u;

/** Items rendered at first, and added by each "Show more". */
export const PAGE_SIZE = 50;

interface MarkerRow {
  li: HTMLLIElement;
  textEl: HTMLElement;
  marker: MarkerSummary;
  /** The terms its text is highlighted for ('' none). */
  marked: string;
}
interface GroupRow {
  li: HTMLLIElement;
  details: HTMLDetailsElement | null;
  countEl: HTMLElement | null;
  group: MarkerGroup;
  markers: MarkerRow[];
  values: HTMLLIElement[];
}
interface ItemRow {
  li: HTMLLIElement;
  details: HTMLDetailsElement;
  ix: IndexedItem;
  groups: GroupRow[];
}

export interface TreeHost {
  post(msg: CorpusToHost): void;
  /** Keys of the open <details> the user chose (`item:<id>`, `group:<id>:<key>`); the tree adds and removes. */
  openKeys: Set<string>;
  /** The user opened or closed something: remember it. */
  save(): void;
  /** The user opened or used an item: it is the item in focus (the Ask box asks about it). */
  focusItem(itemId: string): void;
  /** The item in focus now. */
  focused(): string | null;
}

const dateText = (iso: string | null): string | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : iso;
};

function countsText(it: ItemSummary): string {
  const parts: string[] = [];
  parts.push(it.transcriptSegments === null ? l10n.t('no transcript') : counted.transcriptSegments(it.transcriptSegments));
  parts.push(it.comments === null ? l10n.t('no comments') : counted.comments(it.comments));
  parts.push(counted.words(it.words));
  return parts.join(' · ');
}

/** The engine (and model) that made an item's markers, as the item says it: "extractive", "ollama · qwen2.5:7b". */
function engineText(it: ItemSummary): string {
  const m = it.markers;
  if (!m) return '';
  return m.model ? `${m.engine} · ${m.model}` : m.engine;
}

/** The hover of an item row: everything the one line leaves out. */
function itemTooltip(it: ItemSummary): string {
  const m = it.markers;
  const lines = [it.title, `${it.id} · ${countsText(it)}`];
  const when = dateText(it.publishedAt);
  const likes = [it.likes !== null ? counted.likes(it.likes) : '', it.commentLikes !== null ? l10n.t('{0} on comments', counted.likes(it.commentLikes)) : ''].filter(Boolean);
  if (when || likes.length) lines.push([when ? l10n.t('published {0}', when) : '', ...likes].filter(Boolean).join(' · '));
  if (it.speakers.length) lines.push(l10n.t('speakers: {0}', it.speakers.join(', ')));
  if (m) {
    const by = m.engine === 'extractive' ? l10n.t('{0} by the extractive engine (offline, no model)', counted.markers(m.total)) : l10n.t('{0} by {1}', counted.markers(m.total), `${m.engine}${m.model ? ` ${m.model}` : ''}`);
    lines.push(`${by}${m.total > m.grounded ? ` · ${l10n.t('{0} ungrounded', m.total - m.grounded)}` : ''}${m.stale ? ` · ${l10n.t('stale (the item changed since)')}` : ''}`);
  } else lines.push(it.markersProblem ? l10n.t('markers unreadable: {0}', it.markersProblem) : l10n.t('no markers yet'));
  lines.push([it.transcriptFile, it.commentsFile].filter(Boolean).join(', '));
  return lines.filter(Boolean).join('\n');
}

export class MarkerTree {
  readonly el = el('div', 'tree');
  private readonly list = el('ul', 'items');
  private readonly moreButton: HTMLButtonElement;
  private readonly emptyEl = el('p', 'filter-empty');
  private state: SidebarState | null = null;
  private indexed: IndexedItem[] = [];
  private sorted: IndexedItem[] = [];
  private sortedBy: ItemSort | null = null;
  private rows = new Map<string, ItemRow>();
  /** Rows shown now, in order. */
  private shown: ItemRow[] = [];
  private limit = PAGE_SIZE;
  private last: { filter: MarkerFilter; query: string; sort: ItemSort } | null = null;

  constructor(private readonly host: TreeHost) {
    this.list.id = 'items';
    this.list.setAttribute('aria-label', l10n.t('Corpus items'));
    this.moreButton = button('secondary show-more', l10n.t('Show more'), l10n.t('Render the next items of the list'), () => {
      this.limit += PAGE_SIZE;
      if (this.last) this.apply(this.last.filter, this.last.query, this.last.sort);
    });
    this.moreButton.id = 'show-more';
    this.moreButton.hidden = true;
    this.emptyEl.id = 'filter-empty';
    this.emptyEl.hidden = true;
    this.el.append(this.list, this.moreButton, this.emptyEl);
    this.el.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** A new state: items indexed again, rows rebuilt as they are shown. */
  setState(state: SidebarState): void {
    this.state = state;
    this.indexed = indexItems(state.items);
    this.sortedBy = null;
    this.rows = new Map();
  }

  /** Marks the row of the item in focus. */
  markFocus(itemId: string | null): void {
    for (const r of this.shown) r.li.classList.toggle('is-focus', r.ix.item.id === itemId);
  }

  /** Starts again from the first page (the filter text changed). */
  resetPage(): void {
    this.limit = PAGE_SIZE;
  }

  /**
   * Filters, sorts and renders: the first `limit` items the filter leaves, each
   * with the markers it leaves (hidden, not removed, so opening a group is instant).
   * Returns the counts line.
   */
  apply(filter: MarkerFilter, query: string, sort: ItemSort): string {
    this.last = { filter, query, sort };
    if (this.sortedBy !== sort) {
      const byId = new Map(this.indexed.map((ix) => [ix.item.id, ix]));
      this.sorted = sortItems(this.indexed.map((ix) => ix.item), sort).map((it) => byId.get(it.id)!);
      this.sortedBy = sort;
    }
    const filtered = !filterIsEmpty(filter);
    let markersTotal = 0;
    let markersShown = 0;
    const visible: { ix: IndexedItem; match: ItemMatch }[] = [];
    for (const ix of this.sorted) {
      const match = matchItem(ix, filter);
      markersTotal += ix.item.markers?.groups.reduce((a, g) => a + g.markers.length, 0) ?? 0;
      if (!match.visible) continue;
      markersShown += match.markers;
      visible.push({ ix, match });
    }
    const page = visible.slice(0, this.limit);
    this.shown = page.map(({ ix, match }) => {
      const row = this.rowFor(ix);
      this.applyMatch(row, match, filter.terms);
      return row;
    });
    this.list.replaceChildren(...this.shown.map((r) => r.li));
    this.markFocus(this.host.focused());
    const rest = visible.length - page.length;
    this.moreButton.hidden = rest <= 0;
    this.moreButton.textContent = l10n.t('Show {0} more · {1} not shown', Math.min(PAGE_SIZE, rest), counted.items(rest));
    const items = this.indexed.length;
    this.emptyEl.hidden = !(items > 0 && visible.length === 0);
    this.emptyEl.textContent = this.emptyEl.hidden ? '' : noMatchText(query, filter.kinds);
    this.list.dataset['total'] = String(items);
    this.list.dataset['shown'] = String(visible.length);
    return items ? filterCountText(visible.length, items, markersShown, markersTotal, filtered) : '';
  }

  // ---- rows ----------------------------------------------------------------------------------

  private rowFor(ix: IndexedItem): ItemRow {
    let row = this.rows.get(ix.item.id);
    if (!row) {
      row = this.renderItem(ix);
      this.rows.set(ix.item.id, row);
    }
    return row;
  }

  private applyMatch(row: ItemRow, match: ItemMatch, terms: readonly string[]): void {
    const id = row.ix.item.id;
    const searching = terms.length > 0;
    row.groups.forEach((g, gi) => {
      const gm = match.groups[gi];
      if (!gm) return;
      g.markers.forEach((m, mi) => {
        m.li.hidden = !gm.markers[mi];
        if (!m.li.hidden || m.marked) markText(m, m.li.hidden ? [] : terms);
      });
      if (g.details) g.values.forEach((v, vi) => (v.hidden = !gm.values[vi]));
      g.li.hidden = !gm.shown;
      if (g.countEl) {
        const all = g.group.markers.length || g.group.values.length;
        g.countEl.textContent = gm.count === all ? String(all) : `${gm.count} of ${all}`;
      }
      if (g.details) setOpen(g.details, (searching && match.reveal && gm.count > 0) || this.host.openKeys.has(`group:${id}:${g.group.key}`));
    });
    setOpen(row.details, (searching && match.reveal) || this.host.openKeys.has(`item:${id}`));
  }

  /** Remembers the user's open/closed choice for `d`; `onUser` hears of it (not of the filter's). */
  private trackOpen(d: HTMLDetailsElement, key: string, onUser?: (open: boolean) => void): void {
    setOpen(d, this.host.openKeys.has(key));
    d.addEventListener('toggle', () => {
      if (d.dataset['programmatic'] !== undefined) {
        const expected = d.dataset['programmatic'] === '1';
        delete d.dataset['programmatic'];
        if (expected === d.open) return;
      }
      if (d.open) this.host.openKeys.add(key);
      else this.host.openKeys.delete(key);
      onUser?.(d.open);
      this.host.save();
    });
  }

  private renderMarker(it: ItemSummary, m: MarkerSummary): MarkerRow {
    const li = el('li', `marker kind-${m.kind.toLowerCase()}${m.grounded ? '' : ' is-ungrounded'}`);
    li.dataset['markerId'] = m.id;
    li.dataset['kind'] = m.kind;
    li.tabIndex = 0;
    li.setAttribute('role', 'button');
    const meta: string[] = [];
    if (m.topic) meta.push(m.topic);
    // where it was said, in words (speaker · time, turn, comment author); file:line in the tooltip
    const at = m.location ?? m.where;
    if (at) meta.push(at);
    if (m.likes !== null && !LIKES_IN_LABEL.test(m.location ?? '')) meta.push(counted.likes(m.likes));
    if (m.replies !== null) meta.push(counted.replies(m.replies));
    const made = it.markers?.model ? `${m.engine} ${it.markers.model}` : m.engine;
    const confidence = it.markers?.confidenceInformative ? ` · ${l10n.t('confidence {0}', m.confidence.toFixed(2))}` : '';
    li.title = [
      m.text,
      '',
      `${m.kind} · ${made}${confidence}`,
      [m.location, m.where].filter(Boolean).join(' — '),
      m.grounded ? l10n.t('Click: open the evidence, highlighted') : l10n.t('Ungrounded: no source span was found; a click opens the best search match'),
    ].join('\n');
    li.setAttribute('aria-label', m.grounded ? `${m.kind}: ${m.text}` : l10n.t('{0}, ungrounded: {1}', m.kind, m.text));
    const head = el('div', 'marker-head');
    const textEl = el('span', 'marker-text', m.text);
    const target = { kind: 'marker' as const, itemId: it.id, markerId: m.id };
    head.append(kindBadge(m.kind), textEl, pinButton(l10n.t('Pin this marker to the notebook'), () => this.host.post({ type: 'workbench', action: 'pin', target })));
    li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'marker', ...target, preventDefaultContextMenuItems: true });
    li.append(head);
    const foot = el('div', 'marker-meta');
    if (!m.grounded) foot.append(el('span', 'marker-ungrounded', l10n.t('ungrounded')));
    if (meta.length) foot.append(el('span', 'marker-where', meta.join(' · ')));
    if (foot.childNodes.length) li.append(foot);
    const open = (): void => {
      this.host.focusItem(it.id);
      this.host.post({ type: 'openMarker', itemId: it.id, markerId: m.id });
    };
    onActivate(li, open);
    return { li, textEl, marker: m, marked: '' };
  }

  private renderGroup(it: ItemSummary, g: MarkerGroup): GroupRow {
    const li = el('li', `group group-${g.key}`);
    li.dataset['group'] = g.key;
    if (g.key === 'sentiment') {
      const row = el('div', 'group-inline');
      row.append(el('span', 'group-label', `${g.label}: `), el('span', 'group-value', g.values.join(', ')));
      li.append(row);
      return { li, details: null, countEl: null, group: g, markers: [], values: [li] };
    }
    const details = el('details', 'group-details');
    this.trackOpen(details, `group:${it.id}:${g.key}`);
    const summary = el('summary', 'group-summary');
    const countEl = el('span', 'group-count', String(g.markers.length || g.values.length));
    const label = el('span', 'group-label', g.label);
    const kind = g.markers[0]?.kind;
    if (kind) label.title = kindTitle(kind);
    summary.append(label, countEl);
    details.append(summary);
    const markers = g.markers.map((m) => this.renderMarker(it, m));
    const values = g.values.map((v) => el('li', 'value', v));
    if (markers.length) {
      const ul = el('ul', 'markers');
      ul.append(...markers.map((r) => r.li));
      details.append(ul);
    }
    if (values.length) {
      const ul = el('ul', 'values');
      ul.append(...values);
      details.append(ul);
    }
    li.append(details);
    return { li, details, countEl, group: g, markers, values };
  }

  private renderItem(ix: IndexedItem): ItemRow {
    const it = ix.item;
    const generating = this.state?.generating ?? false;
    const li = el('li', 'item');
    li.dataset['itemId'] = it.id;
    // The webview's context menu ("Retrieve Full Item", "Generate Markers") gets the item id from here.
    li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'item', itemId: it.id, preventDefaultContextMenuItems: true });
    const details = el('details', 'item-details');
    // Opening an item (or using it) puts it in focus: the Ask box then asks about it.
    this.trackOpen(details, `item:${it.id}`, (open) => open && this.host.focusItem(it.id));
    const summary = el('summary', 'item-summary');
    summary.title = itemTooltip(it);

    // line 1: the title (ellipsis), a stale or problem flag, the marker count; the actions over its end on hover (a line of their own when open)
    const line = el('div', 'item-line');
    line.append(el('span', 'item-title', it.title));
    if (it.markers?.stale) line.append(el('span', 'item-stale', l10n.t('stale')));
    const count = el('span', 'item-count', it.markers ? String(it.markers.total) : it.markersProblem ? '!' : '–');
    count.title = it.markers ? `${counted.markers(it.markers.total)} (${engineText(it)})` : it.markersProblem ? l10n.t('markers unreadable') : l10n.t('no markers yet');
    line.append(count);
    const actions = el('span', 'item-actions');
    const file = it.transcriptFile ?? it.commentsFile;
    if (file) {
      actions.append(button('icon-button item-open', l10n.t('Open'), l10n.t('Open {0}', file), () => {
        this.host.focusItem(it.id);
        this.host.post({ type: 'openItem', itemId: it.id, part: it.transcriptFile ? 'transcript' : 'comments' });
      }));
    }
    actions.append(button('icon-button item-full', l10n.t('Full item'), l10n.t('Retrieve Full Item: the whole transcript and every comment in a read-only editor'), () => {
      this.host.focusItem(it.id);
      this.host.post({ type: 'retrieveFullItem', itemId: it.id });
    }));

    // lines 2–3 (shown when the item is open): id and counts; engine, model and marker totals
    const sub = el('div', 'item-sub');
    const likes = itemLikes(it);
    const extra = [dateText(it.publishedAt), likes !== null ? (it.likes === null ? l10n.t('{0} on comments', counted.likes(likes)) : counted.likes(likes)) : ''].filter(Boolean);
    sub.append(el('div', 'item-id', it.id), el('div', 'item-counts', [countsText(it), ...extra].join(' · ')));
    const markerLine = el('div', 'item-markers');
    if (it.markers) {
      const engine = el('span', 'item-engine', it.markers.engine);
      engine.title = it.markers.engine === 'extractive' ? l10n.t('Made offline by the extractive engine (no model): sentences picked by rules, confidence not meaningful') : it.markers.model ? l10n.t('Made by {0} with {1}', it.markers.engine, it.markers.model) : l10n.t('Made by {0}', it.markers.engine);
      markerLine.append(engine);
      if (it.markers.model) markerLine.append(el('span', 'item-model', it.markers.model));
      markerLine.append(el('span', 'item-marker-count', `${counted.markers(it.markers.total)}${it.markers.grounded < it.markers.total ? ` · ${l10n.t('{0} ungrounded', it.markers.total - it.markers.grounded)}` : ''}`));
    } else {
      markerLine.append(el('span', 'item-no-markers', it.markersProblem ? l10n.t('markers unreadable') : l10n.t('no markers yet')));
    }
    summary.append(line, actions, sub, markerLine);
    details.append(summary);

    const body = el('div', 'item-body');
    const groups: GroupRow[] = [];
    if (it.markers) {
      if (it.markers.stale) body.append(el('p', 'item-note', l10n.t('The item changed since these markers were made; run Generate Markers to refresh them.')));
      if (it.markers.topics.length) {
        const topics = el('p', 'item-topics');
        topics.append(el('span', 'group-label', `${l10n.t('Topics:')} `), el('span', undefined, it.markers.topics.join(' · ')));
        body.append(topics);
      }
      groups.push(...it.markers.groups.map((g) => this.renderGroup(it, g)));
      const ul = el('ul', 'groups');
      ul.append(...groups.map((g) => g.li));
      // Where the comment groups are (after them, or alone when spam was all there was): what the spam filter took out.
      const note = spamNote(it.markers.spamExcluded);
      if (note) {
        const noteLi = el('li', 'group group-spam');
        noteLi.append(el('div', 'group-inline item-note', note));
        const afterComments = groups.filter((g) => COMMENT_GROUP_KEYS.has(g.group.key)).pop();
        if (afterComments) afterComments.li.after(noteLi);
        else ul.append(noteLi);
      }
      body.append(ul);
      if (!groups.length) body.append(el('p', 'item-note', l10n.t('The markers of this item are empty.')));
    } else {
      if (it.markersProblem) body.append(el('p', 'item-note item-problem', it.markersProblem));
      else body.append(el('p', 'item-note', l10n.t('No markers yet.')));
      const gen = button('primary item-generate', l10n.t('Generate Markers'), l10n.t('Generate key-info markers for the corpus'), () => this.host.post({ type: 'generateMarkers' }));
      gen.disabled = generating;
      body.append(gen);
    }
    details.append(body);
    li.append(details);
    return { li, details, ix, groups };
  }

  // ---- keyboard: arrow keys move between the visible rows of the tree ---------------------------

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    if (target.tagName === 'BUTTON') return;
    if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && target.tagName === 'SUMMARY') {
      // ArrowRight / ArrowLeft open and close a <details> from its summary, as in a tree.
      const d = target.parentElement;
      if (!(d instanceof HTMLDetailsElement)) return;
      e.preventDefault();
      d.open = e.key === 'ArrowRight';
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const rows = [...this.list.querySelectorAll<HTMLElement>('summary, li.marker')].filter((x) => x.getClientRects().length > 0);
    const i = rows.indexOf(target);
    if (i < 0) return;
    e.preventDefault();
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : Math.min(rows.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)));
    rows[next]?.focus();
  }
}

/** Highlights where the filter's terms occur in a marker's text (and shows all of it); no terms: the plain, clamped text. */
function markText(row: MarkerRow, terms: readonly string[]): void {
  const key = terms.join('\u0000');
  if (row.marked === key) return;
  row.marked = key;
  const text = row.marker.text;
  const ranges = foldedMatches(text, terms);
  row.li.classList.toggle('is-hit', ranges.length > 0);
  if (!ranges.length) {
    row.textEl.textContent = text;
    return;
  }
  const parts: Node[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) parts.push(document.createTextNode(text.slice(at, a)));
    parts.push(el('mark', undefined, text.slice(a, b)));
    at = b;
  }
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  row.textEl.replaceChildren(...parts);
}

/** Opens or closes a <details> for the filter, so its toggle event is not taken for the user's choice. */
function setOpen(d: HTMLDetailsElement, open: boolean): void {
  if (d.open === open) return;
  d.dataset['programmatic'] = open ? '1' : '0';
  d.open = open;
}
