/**
 * The toolbar of the Corpus & Markers view: the filter box, the sort select,
 * the kind toggles (their tooltips are the legend) and the counts line
 * ("12 of 340 items · 48 of 3,412 markers"). Never re-created, so typing in the
 * filter keeps focus.
 */
import * as l10n from '@vscode/l10n';
import { ALL_KINDS, itemSortLabel, ITEM_SORTS, parseFilter, type ItemSort, type MarkerFilter } from '../shared/sidebarModel';
import type { MarkerKindName } from '../shared/webviewProtocol';
import { el } from './dom';
import { kindTitle } from './legend';

export interface FilterMemory {
  filter: string;
  kinds: MarkerKindName[];
  sort: ItemSort;
}

/** A filter pass quicker than this runs on every keystroke. */
const QUICK_PASS_MS = 30;
/** Otherwise keystrokes closer than this make one filter pass. */
const TYPING_MS = 120;

export class FilterBar {
  readonly el = el('div', 'toolbar');
  readonly countEl = el('span', 'filter-count');
  private readonly input = el('input', 'filter');
  private readonly sortSelect = el('select', 'sort');
  private readonly kindsOn: Set<MarkerKindName>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPassMs = 0;

  constructor(
    memory: FilterMemory,
    /** The filter or the sort changed (`text`: the typed text changed). */
    onChange: (what: { text: boolean }) => void,
    /** Extra controls at the end of the kinds row (the help toggle). */
    extras: HTMLElement[] = [],
  ) {
    const input = this.input;
    input.id = 'filter';
    input.type = 'search';
    input.placeholder = l10n.t('Filter markers and items');
    input.setAttribute('aria-label', l10n.t('Filter markers and items by text, topic, speaker or title'));
    input.title = l10n.t('Every word must occur in a marker (text, topic, speaker) or in the item title; case, accents, width and Chinese script do not matter. Escape clears.');
    input.spellcheck = false;
    input.value = memory.filter;
    // A filter pass that is quick runs on every keystroke; a slow one (a large corpus) waits for a pause in the typing.
    const pass = (): void => {
      const t0 = performance.now();
      onChange({ text: true });
      this.lastPassMs = performance.now() - t0;
    };
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      if (this.lastPassMs < QUICK_PASS_MS) pass();
      else this.timer = setTimeout(pass, TYPING_MS);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && input.value) {
        e.preventDefault();
        input.value = '';
        clearTimeout(this.timer);
        pass();
      }
    });

    const sort = this.sortSelect;
    sort.id = 'sort';
    sort.title = l10n.t('Sort the items');
    sort.setAttribute('aria-label', l10n.t('Sort items by'));
    for (const k of ITEM_SORTS) {
      const o = el('option', undefined, itemSortLabel(k));
      o.value = k;
      sort.append(o);
    }
    sort.value = memory.sort;
    sort.addEventListener('change', () => onChange({ text: false }));

    this.kindsOn = new Set(memory.kinds);
    const kindBar = el('div', 'kind-filters');
    kindBar.setAttribute('role', 'group');
    kindBar.setAttribute('aria-label', l10n.t('Marker kinds shown'));
    for (const kind of ALL_KINDS) {
      const b = el('button', `kind-toggle kind-${kind.toLowerCase()}`, kind);
      b.type = 'button';
      b.dataset['kind'] = kind;
      const sync = (): void => {
        const on = this.kindsOn.has(kind);
        b.setAttribute('aria-pressed', String(on));
        b.title = kindTitle(kind, on ? l10n.t('Shown: click to hide {0} markers.', kind) : l10n.t('Hidden: click to show {0} markers.', kind));
      };
      sync();
      b.addEventListener('click', () => {
        if (this.kindsOn.has(kind)) this.kindsOn.delete(kind);
        else this.kindsOn.add(kind);
        sync();
        onChange({ text: false });
      });
      kindBar.append(b);
    }
    this.countEl.id = 'filter-count';
    this.countEl.setAttribute('aria-live', 'polite');
    const row1 = el('div', 'toolbar-row');
    row1.append(input, sort);
    const row2 = el('div', 'toolbar-row');
    row2.append(kindBar, ...extras);
    this.el.append(row1, row2, this.countEl);
  }

  get query(): string {
    return this.input.value;
  }

  get kinds(): ReadonlySet<MarkerKindName> {
    return this.kindsOn;
  }

  get sort(): ItemSort {
    const v = this.sortSelect.value;
    return (ITEM_SORTS as readonly string[]).includes(v) ? (v as ItemSort) : 'title';
  }

  get filter(): MarkerFilter {
    return parseFilter(this.input.value, this.kindsOn);
  }

  get memory(): FilterMemory {
    return { filter: this.input.value, kinds: ALL_KINDS.filter((k) => this.kindsOn.has(k)), sort: this.sort };
  }
}
