/**
 * The Corpus & Markers view (runs in the webview, a browser): the Ask box, the
 * status lines, the toolbar (filter, sort, kind toggles, the ⓘ help), items →
 * marker groups → markers, problems. The research lives in its own view
 * (research.ts). Renders the state posted by the host with DOM APIs only
 * (textContent), so corpus text — comments are untrusted — is never parsed as
 * HTML. Filter and sort are local to the webview.
 */
// First: the page's l10n bundle is loaded before any view draws.
import './l10nSetup';
import * as l10n from '@vscode/l10n';
import { ALL_KINDS, ITEM_SORTS, type ItemSort } from '../shared/sidebarModel';
import type { AskResultView, CorpusHostToWebview, CorpusToHost, MarkerKindName, ProblemSummary, SidebarState } from '../shared/webviewProtocol';
import { ASK_HISTORY_KEPT, AskBox } from './askBox';
import { button, el, onActivate } from './dom';
import { FilterBar } from './filterBar';
import { helpPanel } from './legend';
import { MarkerTree } from './markerTree';
import { vscodeApi } from './vscodeApi';

/** What the view remembers across reloads (vscode.getState/setState). */
interface ViewMemory {
  filter: string;
  kinds: MarkerKindName[];
  sort: ItemSort;
  /** Keys of the open <details>: `item:<id>` and `group:<id>:<key>`. */
  open: string[];
  /** The item in focus (the last item row the user opened or used): questions are limited to it. */
  focusItem: string | null;
  /** Questions asked in the box, oldest first: the session sent with the next question. */
  askHistory: string[];
  /** The last answer shown, so it survives the view being hidden. */
  askResult: AskResultView | null;
  /** The "What are markers?" help is open. */
  help: boolean;
}

const vscode = vscodeApi<CorpusToHost, ViewMemory>();
const app = document.getElementById('app')!;

function loadMemory(): ViewMemory {
  const raw = vscode.getState() as Partial<ViewMemory> | undefined;
  const kinds = Array.isArray(raw?.kinds) ? raw.kinds.filter((k): k is MarkerKindName => ALL_KINDS.includes(k)) : [...ALL_KINDS];
  const result = raw?.askResult;
  return {
    filter: typeof raw?.filter === 'string' ? raw.filter : '',
    kinds,
    sort: typeof raw?.sort === 'string' && (ITEM_SORTS as readonly string[]).includes(raw.sort) ? raw.sort : 'title',
    open: Array.isArray(raw?.open) ? raw.open.filter((k): k is string => typeof k === 'string') : [],
    focusItem: typeof raw?.focusItem === 'string' && raw.focusItem ? raw.focusItem : null,
    askHistory: Array.isArray(raw?.askHistory) ? raw.askHistory.filter((q): q is string => typeof q === 'string' && q.trim() !== '').slice(-ASK_HISTORY_KEPT) : [],
    askResult: result && typeof result === 'object' && Array.isArray(result.hits) && typeof result.query === 'object' ? result : null,
    help: raw?.help === true,
  };
}

const memory = loadMemory();
const openKeys = new Set(memory.open);
let helpOpen = memory.help;
const saveMemory = (): void => vscode.setState({ ...filterBar.memory, open: [...openKeys], ...ask.memory, help: helpOpen });
const post = (msg: CorpusToHost): void => vscode.postMessage(msg);

// ---- the parts (built once, so typing in the filter or the Ask box keeps focus) ------------------

const ask = new AskBox(memory, post, () => saveMemory(), (id) => tree.markFocus(id));
const tree = new MarkerTree({
  post,
  openKeys,
  save: () => saveMemory(),
  focusItem: (id) => ask.setFocusItem(id),
  focused: () => ask.focusItem,
});
const help = helpPanel(helpOpen, () => post({ type: 'openModelSettings' }), (open) => {
  helpOpen = open;
  saveMemory();
});
const filterBar = new FilterBar(memory, ({ text }) => {
  if (text) tree.resetPage();
  applyFilter();
  saveMemory();
}, [help.toggle]);

const statusEl = el('p', 'status', l10n.t('Loading…'));
statusEl.id = 'status';
statusEl.setAttribute('role', 'status');
const markersStatusEl = el('p', 'markers-status');
markersStatusEl.id = 'markers-status';
markersStatusEl.setAttribute('aria-live', 'polite');
markersStatusEl.hidden = true;
const actionsEl = el('div', 'view-actions');
const problemsEl = el('div', 'problems-host');

app.replaceChildren(ask.el, statusEl, markersStatusEl, actionsEl, help.panel, filterBar.el, tree.el, problemsEl);
filterBar.el.hidden = true;

function applyFilter(): void {
  filterBar.countEl.textContent = tree.apply(filterBar.filter, filterBar.query, filterBar.sort);
}

function renderProblem(p: ProblemSummary, index: number): HTMLLIElement {
  const li = el('li', `problem severity-${p.severity}`);
  li.tabIndex = 0;
  li.append(el('span', 'problem-path', p.file), el('span', 'problem-line', p.line === null ? '' : `:${p.line}`), el('div', 'problem-message', p.message));
  li.title = `${p.file}${p.line === null ? '' : `:${p.line}`}\n${p.message}`;
  const open = (): void => post({ type: 'openProblem', index });
  onActivate(li, open);
  return li;
}

/** The pieces of a state posted in pieces, while they arrive. */
let pieces: { seq: number; parts: string[]; got: number } | undefined;

/** The state last shown (a `loading` message keeps the rest of it). */
let lastState: SidebarState | undefined;

function render(state: SidebarState): void {
  lastState = state;
  statusEl.className = `status status-${state.status}`;
  statusEl.textContent = state.message;
  statusEl.title = state.corpusRoot ? `${state.message}\n${state.corpusRoot}` : state.message;
  markersStatusEl.textContent = state.markersMessage ?? '';
  markersStatusEl.hidden = !state.markersMessage;

  actionsEl.replaceChildren();
  if (state.status === 'empty' || state.status === 'error') {
    actionsEl.append(button('primary', l10n.t('Index Corpus'), l10n.t('Load the corpus of this folder'), () => post({ type: 'indexCorpus' })));
  } else if (state.items.length && state.items.every((it) => !it.markers)) {
    const b = button('primary generate-all', l10n.t('Generate Markers'), l10n.t('Generate key-info markers for every item'), () => post({ type: 'generateMarkers' }));
    b.disabled = state.generating;
    actionsEl.append(b);
  }

  filterBar.el.hidden = !state.items.length;
  ask.el.hidden = !state.items.length;
  ask.setItems(new Map(state.items.map((it) => [it.id, it.title])), state.status === 'ready');
  tree.setState(state);
  applyFilter();

  problemsEl.replaceChildren();
  const shown = state.problems.map((p, i) => [p, i] as const).filter(([p]) => p.severity !== 'info');
  if (shown.length) {
    const details = el('details', 'problems');
    details.open = true;
    details.append(el('summary', undefined, l10n.t('Problems ({0})', shown.length)));
    const list = el('ul', 'problem-list');
    list.append(...shown.map(([p, i]) => renderProblem(p, i)));
    details.append(list);
    problemsEl.append(details);
  }
}

window.addEventListener('message', (event: MessageEvent<CorpusHostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'state':
      render(msg.state);
      break;
    case 'stateJson':
      pieces = undefined;
      render(JSON.parse(msg.json) as SidebarState);
      break;
    case 'stateJsonPiece': {
      // A newer state's pieces replace an older one's; the state renders when its last piece is in.
      if (!pieces || pieces.seq !== msg.seq) pieces = { seq: msg.seq, parts: new Array<string>(msg.count), got: 0 };
      if (pieces.parts[msg.index] === undefined) pieces.got++;
      pieces.parts[msg.index] = msg.json;
      if (pieces.got === msg.count) {
        const json = pieces.parts.join('');
        pieces = undefined;
        render(JSON.parse(json) as SidebarState);
      }
      break;
    }
    case 'loading':
      render({ ...(lastState ?? { markersMessage: null, generating: false, corpusRoot: null, items: [], problems: [] }), status: 'loading', message: msg.message });
      break;
    case 'progress':
      markersStatusEl.hidden = false;
      markersStatusEl.textContent = msg.total > 0 ? `${msg.message} (${msg.done}/${msg.total})` : msg.message;
      break;
    case 'askBusy':
    case 'askResult':
    case 'askError':
    case 'askFocus':
      ask.onMessage(msg);
      break;
  }
});

post({ type: 'ready' });
