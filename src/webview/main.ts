/**
 * The sidebar UI (runs in the webview, a browser): the Ask box (a question, how
 * it was understood, the hits with the strategies that found them), the
 * research section (goals, the current run's plan steps with live status and
 * their requests), items →
 * marker groups → markers, a filter box and kind toggles, problems. Renders the state posted by
 * the host with DOM APIs only (textContent), so corpus text — comments are
 * untrusted — is never parsed as HTML. The filter is local to the webview.
 */
import { ALL_KINDS, COMMENT_GROUP_KEYS, filterIsEmpty, markerMatches, parseFilter, spamNote, textMatches, type MarkerFilter } from '../shared/sidebarModel';
import { ASK_MAX_QUESTION_CHARS, ASK_STRATEGIES } from '../shared/webviewProtocol';
import type {
  AskHitView, AskResultView, GoalView, HostToWebview, ItemSummary, MarkerGroup, MarkerKindName, MarkerSummary, ProblemSummary, ResearchState, ResearchStepStatus, RunView, SidebarState, StepView, WebviewToHost,
} from '../shared/webviewProtocol';
import { button, el } from './dom';

/** What the webview remembers across reloads (vscode.getState/setState). */
interface ViewMemory {
  filter: string;
  kinds: MarkerKindName[];
  /** Keys of the open <details>: `item:<id>` and `group:<id>:<key>`. */
  open: string[];
  /** The item in focus (the last item row the user opened or used): questions are limited to it. */
  focusItem: string | null;
  /** Questions asked in the box, oldest first: the session sent with the next question. */
  askHistory: string[];
  /** The last answer shown, so it survives the view being hidden. */
  askResult: AskResultView | null;
}

interface VsCodeApi {
  postMessage(msg: WebviewToHost): void;
  getState(): unknown;
  setState(state: ViewMemory): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;

function loadMemory(): ViewMemory {
  const raw = vscode.getState() as Partial<ViewMemory> | undefined;
  const kinds = Array.isArray(raw?.kinds) ? raw.kinds.filter((k): k is MarkerKindName => ALL_KINDS.includes(k)) : [...ALL_KINDS];
  const result = raw?.askResult;
  return {
    filter: typeof raw?.filter === 'string' ? raw.filter : '',
    kinds,
    open: Array.isArray(raw?.open) ? raw.open.filter((k): k is string => typeof k === 'string') : [],
    focusItem: typeof raw?.focusItem === 'string' && raw.focusItem ? raw.focusItem : null,
    askHistory: Array.isArray(raw?.askHistory) ? raw.askHistory.filter((q): q is string => typeof q === 'string' && q.trim() !== '').slice(-ASK_HISTORY_KEPT) : [],
    askResult: result && typeof result === 'object' && Array.isArray(result.hits) && typeof result.query === 'object' ? result : null,
  };
}
/** Questions kept in the history; the last {@link ASK_SESSION_SENT} are sent with a question. */
const ASK_HISTORY_KEPT = 20;
const ASK_SESSION_SENT = 5;
const memory = loadMemory();
const openKeys = new Set(memory.open);
const saveMemory = (): void =>
  vscode.setState({ filter: filterInput.value, kinds: ALL_KINDS.filter((k) => kindsOn.has(k)), open: [...openKeys], focusItem, askHistory, askResult: shownAsk });

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function countsText(it: ItemSummary): string {
  const parts: string[] = [];
  parts.push(it.transcriptSegments === null ? 'no transcript' : `${it.transcriptSegments} transcript segment${it.transcriptSegments === 1 ? '' : 's'}`);
  parts.push(it.comments === null ? 'no comments' : `${it.comments} comment${it.comments === 1 ? '' : 's'}`);
  parts.push(`${it.words.toLocaleString('en-US')} words`);
  return parts.join(' · ');
}

// ---- static parts: header, toolbar (never re-created, so typing in the filter keeps focus) ----

const statusEl = el('p', 'status', 'Loading…');
statusEl.id = 'status';
statusEl.setAttribute('role', 'status');
const markersStatusEl = el('p', 'markers-status');
markersStatusEl.id = 'markers-status';
markersStatusEl.setAttribute('aria-live', 'polite');
const actionsEl = el('div', 'view-actions');

const toolbar = el('div', 'toolbar');
const filterInput = el('input', 'filter');
filterInput.id = 'filter';
filterInput.type = 'search';
filterInput.placeholder = 'Filter markers (text or topic)';
filterInput.setAttribute('aria-label', 'Filter markers by text or topic');
filterInput.spellcheck = false;
filterInput.value = memory.filter;
const kindsOn = new Set<MarkerKindName>(memory.kinds);
const kindBar = el('div', 'kind-filters');
kindBar.setAttribute('role', 'group');
kindBar.setAttribute('aria-label', 'Marker kinds shown');
const kindButtons = ALL_KINDS.map((kind) => {
  const b = el('button', `kind-toggle kind-${kind.toLowerCase()}`, kind);
  b.type = 'button';
  b.dataset['kind'] = kind;
  b.title = `Show ${kind} markers`;
  b.setAttribute('aria-pressed', String(kindsOn.has(kind)));
  b.addEventListener('click', () => {
    if (kindsOn.has(kind)) kindsOn.delete(kind);
    else kindsOn.add(kind);
    b.setAttribute('aria-pressed', String(kindsOn.has(kind)));
    applyFilter();
    saveMemory();
  });
  return b;
});
kindBar.append(...kindButtons);
const filterCount = el('span', 'filter-count');
filterCount.id = 'filter-count';
filterCount.setAttribute('aria-live', 'polite');
toolbar.append(filterInput, kindBar, filterCount);
filterInput.addEventListener('input', () => {
  applyFilter();
  saveMemory();
});
filterInput.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && filterInput.value) {
    e.preventDefault();
    filterInput.value = '';
    applyFilter();
    saveMemory();
  }
});

const listEl = el('div', 'tree');
const emptyFilterEl = el('p', 'filter-empty', 'Nothing matches the filter.');
emptyFilterEl.hidden = true;
const problemsEl = el('div', 'problems-host');

// ---- the Ask box (static frame; the scope line, the understood query and the hits are re-rendered) ----

let focusItem: string | null = memory.focusItem;
let askHistory: string[] = memory.askHistory;
/** The answer shown (null: none yet, or cleared). */
let shownAsk: AskResultView | null = memory.askResult;
/** The question being answered (host's id), or null. */
let askPending: { askId: number; question: string } | null = null;
/** Item titles by id, from the last state (for the scope chip). */
let itemTitles = new Map<string, string>();

const askEl = el('section', 'ask');
askEl.id = 'ask';
askEl.setAttribute('aria-label', 'Ask the corpus');
const askForm = el('form', 'ask-form');
const askInput = el('input', 'ask-input');
askInput.id = 'ask-input';
askInput.type = 'text';
askInput.placeholder = 'Ask the corpus (e.g. what did the host say about prices?)';
askInput.setAttribute('aria-label', 'Question for the corpus');
askInput.maxLength = ASK_MAX_QUESTION_CHARS;
askInput.spellcheck = false;
askInput.autocomplete = 'off';
const askButton = el('button', 'primary ask-button', 'Ask');
askButton.id = 'ask-button';
askButton.type = 'submit';
askButton.title = 'Ask (Enter)';
askForm.append(askInput, askButton);
const askScopeEl = el('div', 'ask-scope');
askScopeEl.id = 'ask-scope';
const askStatusEl = el('p', 'ask-status');
askStatusEl.id = 'ask-status';
askStatusEl.setAttribute('aria-live', 'polite');
askStatusEl.hidden = true;
const askQueryEl = el('div', 'ask-query');
askQueryEl.id = 'ask-query';
const askHitsEl = el('ol', 'ask-hits');
askHitsEl.id = 'ask-hits';
askHitsEl.setAttribute('aria-label', 'Hits');
askEl.append(askForm, askScopeEl, askStatusEl, askQueryEl, askHitsEl);
askEl.hidden = true; // shown once a corpus is indexed

/** Sends a question: limited to the item in focus (unless `itemId` says otherwise), with the last questions as the session. */
function ask(question: string, itemId: string | null = focusItem, remember = true): void {
  const q = question.trim().slice(0, ASK_MAX_QUESTION_CHARS);
  if (!q) {
    askInput.focus();
    return;
  }
  const session = askHistory.filter((h) => h !== q).slice(-ASK_SESSION_SENT);
  vscode.postMessage({ type: 'ask', question: q, itemId, session });
  if (remember) {
    askHistory = [...askHistory.filter((h) => h !== q), q].slice(-ASK_HISTORY_KEPT);
    saveMemory();
  }
  askStatusEl.hidden = false;
  askStatusEl.className = 'ask-status is-busy';
  askStatusEl.textContent = 'Asking…';
  askEl.dataset['busy'] = '1';
  renderAskScope();
}

askForm.addEventListener('submit', (e) => {
  e.preventDefault();
  ask(askInput.value);
});
askInput.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  e.preventDefault();
  if (askInput.value) askInput.value = '';
  else clearAsk();
});

function clearAsk(): void {
  shownAsk = null;
  renderAsk();
  saveMemory();
}

/** The item in focus: questions are limited to it until the chip's ✕ switches to the whole corpus. */
function setFocusItem(id: string | null): void {
  if (focusItem === id) return;
  focusItem = id;
  for (const r of rows) r.li.classList.toggle('is-focus', r.item.id === id);
  renderAskScope();
  saveMemory();
}

/** The scope line: "Item: <title> ✕" (or "Whole corpus") and the session ("· N earlier questions · New topic"). */
function renderAskScope(): void {
  askScopeEl.replaceChildren();
  const title = focusItem ? itemTitles.get(focusItem) : undefined;
  if (focusItem && title !== undefined) {
    const chip = button('ask-chip', '', `Questions are limited to this item. Click to ask the whole corpus${shownAsk?.scope ? ' (asks the last question again)' : ''}.`, () => {
      const last = shownAsk?.scope ? shownAsk.query.question : null;
      setFocusItem(null);
      if (last) ask(last, null, false);
    });
    chip.id = 'ask-chip';
    chip.dataset['itemId'] = focusItem;
    chip.append(el('span', 'ask-chip-label', 'Item:'), el('span', 'ask-chip-title', title), el('span', 'ask-chip-x', '✕'));
    chip.setAttribute('aria-label', `Limited to the item ${title}; switch to the whole corpus`);
    askScopeEl.append(chip);
  } else {
    const whole = el('span', 'ask-whole', 'Whole corpus');
    whole.id = 'ask-whole';
    whole.title = 'Questions search every item. Open an item below to limit them to it.';
    askScopeEl.append(whole);
  }
  if (askHistory.length) {
    const session = el('span', 'ask-session', `· ${plural(Math.min(askHistory.length, ASK_SESSION_SENT), 'earlier question')}`);
    session.title = `Earlier questions (pronouns like "he" or "it" refer to them):\n${askHistory.slice(-ASK_SESSION_SENT).map((q) => `• ${q}`).join('\n')}`;
    const reset = button('icon-button ask-new-topic', 'New topic', 'Forget the earlier questions: the next question starts a new conversation', () => {
      askHistory = [];
      renderAskScope();
      saveMemory();
      askInput.focus();
    });
    reset.id = 'ask-new-topic';
    askScopeEl.append(session, reset);
  }
}

/** Two lines per hit: the item's title and the strategies that found it; then speaker, time and the quote. */
function renderHit(h: AskHitView): HTMLLIElement {
  const li = el('li', `ask-hit part-${h.part}`);
  li.dataset['itemId'] = h.itemId;
  li.dataset['rank'] = String(h.rank);
  li.dataset['part'] = h.part;
  if (h.where) li.dataset['where'] = h.where;
  li.tabIndex = 0;
  li.setAttribute('role', 'button');
  const meta = [h.speaker, h.time].filter((x): x is string => !!x);
  const head = el('div', 'hit-head');
  head.append(el('span', 'hit-rank', `${h.rank}`), el('span', 'hit-title', h.title));
  const badges = el('span', 'hit-badges');
  for (const s of ASK_STRATEGIES) if (h.matchedBy.includes(s)) {
    const b = el('span', `hit-badge badge-${s}`, s);
    b.dataset['strategy'] = s;
    badges.append(b);
  }
  head.append(badges);
  const body = el('div', 'hit-body');
  if (meta.length) body.append(el('span', 'hit-meta', meta.join(' · ')));
  body.append(el('span', 'hit-quote', h.quote));
  li.append(head, body);
  li.title = [
    `${h.title} (${h.part})`,
    [h.where, h.time, h.speaker].filter(Boolean).join(' · '),
    `found by: ${h.why.length ? h.why.join('; ') : h.matchedBy.join(', ')}`,
    '',
    h.quote,
    '',
    'Open the span in the original file',
  ].join('\n');
  li.setAttribute('aria-label', `Hit ${h.rank}: ${h.title}${meta.length ? `, ${meta.join(', ')}` : ''}: ${h.quote}`);
  const open = (): void => {
    for (const x of askHitsEl.querySelectorAll('li.ask-hit.is-opened')) x.classList.remove('is-opened');
    li.classList.add('is-opened');
    vscode.postMessage({ type: 'openHit', itemId: h.itemId, part: h.part, start: h.start, end: h.end });
  };
  li.addEventListener('click', open);
  li.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = (e.key === 'ArrowDown' ? li.nextElementSibling : li.previousElementSibling) as HTMLElement | null;
      next?.focus();
    }
  });
  return li;
}

/** The understood query and the hits of the answer shown. */
function renderAsk(): void {
  askQueryEl.replaceChildren();
  askHitsEl.replaceChildren();
  const r = shownAsk;
  askQueryEl.hidden = !r;
  askHitsEl.hidden = !r?.hits.length;
  if (!r) return;
  const q = r.query;
  askQueryEl.dataset['askId'] = String(r.askId);
  askQueryEl.dataset['question'] = q.question;
  askQueryEl.dataset['intent'] = q.intent;
  askQueryEl.dataset['engine'] = q.engine;
  const line = el('div', 'ask-query-line');
  const understood = el('span', 'ask-understood', q.line);
  understood.id = 'ask-understood';
  understood.title = [
    `Question: ${q.question}`,
    q.resolvedQuery && q.resolvedQuery !== q.question ? `Understood as: ${q.resolvedQuery}` : '',
    `Intent: ${q.intent}`,
    q.entities.length ? `Entities: ${q.entities.map((e) => `${e.label}${e.fromSession ? ' (from the earlier questions)' : ''}`).join(', ')}` : '',
    q.time ? `Time: ${q.time}` : '',
    q.part ? `Part: ${q.part}` : '',
    `Understood by: ${q.engine === 'rules' ? 'rules (offline)' : 'the model'}`,
  ].filter(Boolean).join('\n');
  const close = button('icon-button ask-clear', '✕', 'Clear the answer (Escape in the box)', clearAsk);
  close.setAttribute('aria-label', 'Clear the answer');
  line.append(understood, close);
  askQueryEl.append(line);
  const scope = r.scope ? `in ${r.scope.title}` : 'in the whole corpus';
  const summary = el('div', 'ask-summary', `${r.hits.length ? plural(r.hits.length, 'hit') : 'No hits'} ${scope} · ${r.ms} ms`);
  summary.id = 'ask-summary';
  if (q.resolvedQuery && q.resolvedQuery !== q.question) summary.textContent += ` · as “${q.resolvedQuery}”`;
  askQueryEl.append(summary);
  for (const n of r.notes) askQueryEl.append(el('div', 'ask-note', n));
  askHitsEl.append(...r.hits.map(renderHit));
}

function onAskMessage(msg: Extract<HostToWebview, { type: 'askBusy' | 'askResult' | 'askError' | 'askFocus' }>): void {
  switch (msg.type) {
    case 'askBusy':
      if (msg.busy) {
        askPending = { askId: msg.askId, question: msg.question };
        askEl.dataset['busy'] = '1';
        askStatusEl.hidden = false;
        askStatusEl.className = 'ask-status is-busy';
        askStatusEl.textContent = `Asking: ${msg.question}`;
      } else if (!askPending || askPending.askId <= msg.askId) {
        askPending = null;
        delete askEl.dataset['busy'];
        askStatusEl.hidden = true;
      }
      return;
    case 'askResult':
      if (askPending && askPending.askId > msg.result.askId) return; // a newer question is on its way
      askPending = null;
      delete askEl.dataset['busy'];
      askStatusEl.hidden = true;
      shownAsk = msg.result;
      renderAsk();
      renderAskScope();
      saveMemory();
      return;
    case 'askError':
      if (askPending && askPending.askId > msg.askId) return;
      askPending = null;
      delete askEl.dataset['busy'];
      askStatusEl.hidden = false;
      askStatusEl.className = 'ask-status is-error';
      askStatusEl.textContent = msg.message;
      askStatusEl.title = `"${msg.question}": ${msg.message}`;
      return;
    case 'askFocus':
      askInput.focus();
      if (msg.question) {
        askInput.value = msg.question;
        ask(msg.question);
      } else askInput.select();
      return;
  }
}

// ---- the research section (static frame; goals and the run are re-rendered) -------------------

const researchEl = el('details', 'research');
researchEl.id = 'research';
researchEl.open = true;
const researchSummary = el('summary', 'section-title', 'Research');
const researchStatusEl = el('p', 'research-status');
researchStatusEl.id = 'research-status';
researchStatusEl.setAttribute('aria-live', 'polite');
const goalForm = el('form', 'goal-form');
const goalInput = el('input', 'goal-input');
goalInput.id = 'goal-input';
goalInput.type = 'text';
goalInput.placeholder = 'Your own research goal (or pick one below)';
goalInput.setAttribute('aria-label', 'Research goal');
goalInput.spellcheck = false;
/** The goal typed in the box, or undefined when it is empty (the host then picks one). */
const typedGoal = (): { text: string } | undefined => (goalInput.value.trim().length >= 3 ? { text: goalInput.value.trim() } : undefined);
const researchButtons = el('div', 'research-actions');
const discoverBtn = button('secondary discover-goals', 'Discover Goals', 'Propose research goals from the markers of the corpus', () => vscode.postMessage({ type: 'discoverGoals' }));
discoverBtn.id = 'discover-goals';
const planBtn = button('secondary plan-research', 'Plan', 'Plan research for the goal typed above (the plan is shown here for review before it runs)', () => {
  const goal = typedGoal();
  if (goal) vscode.postMessage({ type: 'planResearch', goal });
  else goalInput.focus();
});
planBtn.id = 'plan-research';
const runBtn = button('primary run-research', 'Run Research', 'Run research: the goal typed above, else the plan shown below, else the top goal', () => vscode.postMessage({ type: 'runResearch', goal: typedGoal() }));
runBtn.id = 'run-research';
const reportBtn = button('secondary open-report', 'Open Report', 'Open the report of the run shown below', () => vscode.postMessage({ type: 'openReport', runId: research?.run?.runId }));
reportBtn.id = 'open-report';
const cancelBtn = button('secondary cancel-research', 'Cancel', 'Cancel the research (or marker generation) that is running', () => vscode.postMessage({ type: 'cancel' }));
cancelBtn.id = 'cancel-research';
researchButtons.append(runBtn, planBtn, discoverBtn, reportBtn, cancelBtn);
goalForm.append(goalInput);
goalForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const goal = typedGoal();
  if (goal) vscode.postMessage({ type: 'planResearch', goal });
});
const goalsEl = el('div', 'goals-host');
const runEl = el('div', 'run-host');
const runsEl = el('div', 'runs-host');
researchEl.append(researchSummary, researchStatusEl, goalForm, researchButtons, goalsEl, runEl, runsEl);

app.replaceChildren(askEl, statusEl, markersStatusEl, actionsEl, researchEl, toolbar, listEl, emptyFilterEl, problemsEl);
toolbar.hidden = true;
markersStatusEl.hidden = true;

// ---- the tree -------------------------------------------------------------------------------

interface MarkerRow {
  li: HTMLLIElement;
  marker: MarkerSummary;
}
interface GroupRow {
  li: HTMLLIElement;
  details: HTMLDetailsElement | null;
  countEl: HTMLElement | null;
  group: MarkerGroup;
  markers: MarkerRow[];
  values: { li: HTMLLIElement; value: string }[];
}
interface ItemRow {
  li: HTMLLIElement;
  details: HTMLDetailsElement;
  item: ItemSummary;
  groups: GroupRow[];
}
let rows: ItemRow[] = [];

/** Opens or closes a <details> for the filter, so its toggle event is not taken for the user's choice. */
function setOpen(d: HTMLDetailsElement, open: boolean): void {
  if (d.open === open) return;
  d.dataset['programmatic'] = open ? '1' : '0';
  d.open = open;
}

/** Remembers the user's open/closed choice for `d`; `onUser` hears of it (not of the filter's). */
function trackOpen(d: HTMLDetailsElement, key: string, onUser?: (open: boolean) => void): void {
  d.open = openKeys.has(key);
  d.addEventListener('toggle', () => {
    if (d.dataset['programmatic'] !== undefined) {
      const expected = d.dataset['programmatic'] === '1';
      delete d.dataset['programmatic'];
      if (expected === d.open) return;
    }
    if (d.open) openKeys.add(key);
    else openKeys.delete(key);
    onUser?.(d.open);
    saveMemory();
  });
}

function renderMarker(itemId: string, m: MarkerSummary): MarkerRow {
  const li = el('li', `marker kind-${m.kind.toLowerCase()}${m.grounded ? '' : ' is-ungrounded'}`);
  li.dataset['markerId'] = m.id;
  li.dataset['kind'] = m.kind;
  li.tabIndex = 0;
  li.setAttribute('role', 'button');
  const meta: string[] = [];
  if (m.topic) meta.push(m.topic);
  if (m.where) meta.push(m.where);
  if (m.likes !== null) meta.push(plural(m.likes, 'like'));
  if (m.replies !== null) meta.push(plural(m.replies, 'reply', 'replies'));
  li.title = `${m.kind} · ${m.engine} · confidence ${m.confidence.toFixed(2)}${m.where ? ` · ${m.where}` : ''}\n${m.grounded ? 'Open the evidence in the original file' : 'Ungrounded: no source span was found; opens the best search match'}`;
  li.setAttribute('aria-label', `${m.kind}${m.grounded ? '' : ', ungrounded'}: ${m.text}`);
  const head = el('div', 'marker-head');
  head.append(el('span', 'marker-kind', m.kind), el('span', 'marker-text', m.text));
  li.append(head);
  const foot = el('div', 'marker-meta');
  if (!m.grounded) foot.append(el('span', 'marker-ungrounded', 'ungrounded'));
  if (meta.length) foot.append(el('span', 'marker-where', meta.join(' · ')));
  if (foot.childNodes.length) li.append(foot);
  const open = (): void => {
    setFocusItem(itemId);
    vscode.postMessage({ type: 'openMarker', itemId, markerId: m.id });
  };
  li.addEventListener('click', open);
  li.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  });
  return { li, marker: m };
}

function renderGroup(itemId: string, g: MarkerGroup): GroupRow {
  const li = el('li', `group group-${g.key}`);
  li.dataset['group'] = g.key;
  if (g.key === 'sentiment') {
    const row = el('div', 'group-inline');
    row.append(el('span', 'group-label', `${g.label}: `), el('span', 'group-value', g.values.join(', ')));
    li.append(row);
    return { li, details: null, countEl: null, group: g, markers: [], values: [{ li, value: g.values.join(' ') }] };
  }
  const details = el('details', 'group-details');
  trackOpen(details, `group:${itemId}:${g.key}`);
  const summary = el('summary', 'group-summary');
  const countEl = el('span', 'group-count', String(g.markers.length || g.values.length));
  summary.append(el('span', 'group-label', g.label), countEl);
  details.append(summary);
  const markers = g.markers.map((m) => renderMarker(itemId, m));
  const values = g.values.map((v) => ({ li: el('li', 'value', v), value: v }));
  if (markers.length) {
    const ul = el('ul', 'markers');
    ul.append(...markers.map((r) => r.li));
    details.append(ul);
  }
  if (values.length) {
    const ul = el('ul', 'values');
    ul.append(...values.map((r) => r.li));
    details.append(ul);
  }
  li.append(details);
  return { li, details, countEl, group: g, markers, values };
}

function renderItem(it: ItemSummary, generating: boolean): ItemRow {
  const li = el('li', `item${it.id === focusItem ? ' is-focus' : ''}`);
  li.dataset['itemId'] = it.id;
  // The webview's context menu ("Retrieve Full Item", "Generate Markers") gets the item id from here.
  li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'item', itemId: it.id, preventDefaultContextMenuItems: true });
  const details = el('details', 'item-details');
  // Opening an item (or using it) puts it in focus: the Ask box then asks about it.
  trackOpen(details, `item:${it.id}`, (open) => open && setFocusItem(it.id));
  const summary = el('summary', 'item-summary');
  summary.title = `${it.title}\n${[it.transcriptFile, it.commentsFile].filter(Boolean).join(', ')}`;
  const head = el('div', 'item-head');
  head.append(el('span', 'item-title', it.title));
  const actions = el('span', 'item-actions');
  const file = it.transcriptFile ?? it.commentsFile;
  if (file) {
    actions.append(button('icon-button item-open', 'Open', `Open ${file}`, () => {
      setFocusItem(it.id);
      vscode.postMessage({ type: 'openItem', itemId: it.id, part: it.transcriptFile ? 'transcript' : 'comments' });
    }));
  }
  actions.append(button('icon-button item-full', 'Full item', 'Retrieve Full Item: the whole transcript and every comment in a read-only editor', () => {
    setFocusItem(it.id);
    vscode.postMessage({ type: 'retrieveFullItem', itemId: it.id });
  }));
  head.append(actions);
  summary.append(head, el('div', 'item-id', it.id), el('div', 'item-counts', countsText(it)));
  const markerLine = el('div', 'item-markers');
  if (it.markers) {
    markerLine.append(el('span', 'item-engine', it.markers.engine), el('span', 'item-marker-count', `${plural(it.markers.total, 'marker')}${it.markers.grounded < it.markers.total ? ` · ${it.markers.total - it.markers.grounded} ungrounded` : ''}`));
    if (it.markers.stale) markerLine.append(el('span', 'item-stale', 'stale'));
  } else {
    markerLine.append(el('span', 'item-no-markers', it.markersProblem ? 'markers unreadable' : 'no markers yet'));
  }
  summary.append(markerLine);
  details.append(summary);

  const body = el('div', 'item-body');
  const groups: GroupRow[] = [];
  if (it.markers) {
    if (it.markers.stale) body.append(el('p', 'item-note', 'The item changed since these markers were made; run Generate Markers to refresh them.'));
    if (it.markers.topics.length) {
      const topics = el('p', 'item-topics');
      topics.append(el('span', 'group-label', 'Topics: '), el('span', undefined, it.markers.topics.join(' · ')));
      body.append(topics);
    }
    groups.push(...it.markers.groups.map((g) => renderGroup(it.id, g)));
    const ul = el('ul', 'groups');
    ul.append(...groups.map((g) => g.li));
    // Where the comment groups are (after them, or alone when spam was all there was): what the spam filter took out.
    const note = spamNote(it.markers.spamExcluded);
    if (note) {
      const li = el('li', 'group group-spam');
      li.append(el('div', 'group-inline item-note', note));
      const afterComments = groups.filter((g) => COMMENT_GROUP_KEYS.has(g.group.key)).pop();
      if (afterComments) afterComments.li.after(li);
      else ul.append(li);
    }
    body.append(ul);
    if (!groups.length) body.append(el('p', 'item-note', 'The markers of this item are empty.'));
  } else {
    if (it.markersProblem) body.append(el('p', 'item-note item-problem', it.markersProblem));
    else body.append(el('p', 'item-note', 'No markers yet.'));
    const gen = button('primary item-generate', 'Generate Markers', 'Generate key-info markers for the corpus', () => vscode.postMessage({ type: 'generateMarkers' }));
    gen.disabled = generating;
    body.append(gen);
  }
  details.append(body);
  li.append(details);
  return { li, details, item: it, groups };
}

function renderProblem(p: ProblemSummary, index: number): HTMLLIElement {
  const li = el('li', `problem severity-${p.severity}`);
  li.tabIndex = 0;
  li.append(el('span', 'problem-path', p.file), el('span', 'problem-line', p.line === null ? '' : `:${p.line}`), el('div', 'problem-message', p.message));
  const open = (): void => vscode.postMessage({ type: 'openProblem', index });
  li.addEventListener('click', open);
  li.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  });
  return li;
}

function render(state: SidebarState): void {
  statusEl.className = `status status-${state.status}`;
  statusEl.textContent = state.message;
  markersStatusEl.textContent = state.markersMessage ?? '';
  markersStatusEl.hidden = !state.markersMessage;

  actionsEl.replaceChildren();
  if (state.status === 'empty' || state.status === 'error') {
    const b = el('button', 'primary', 'Index Corpus');
    b.type = 'button';
    b.addEventListener('click', () => vscode.postMessage({ type: 'indexCorpus' }));
    actionsEl.append(b);
  } else if (state.items.length && state.items.every((it) => !it.markers)) {
    const b = button('primary generate-all', 'Generate Markers', 'Generate key-info markers for every item', () => vscode.postMessage({ type: 'generateMarkers' }));
    b.disabled = state.generating;
    actionsEl.append(b);
  }

  toolbar.hidden = !state.items.length;
  askEl.hidden = !state.items.length;
  itemTitles = new Map(state.items.map((it) => [it.id, it.title]));
  if (focusItem && state.status === 'ready' && !itemTitles.has(focusItem)) setFocusItem(null); // gone from the corpus
  renderAskScope();
  rows = state.items.map((it) => renderItem(it, state.generating));
  listEl.replaceChildren();
  if (rows.length) {
    const list = el('ul', 'items');
    list.setAttribute('aria-label', 'Corpus items');
    list.append(...rows.map((r) => r.li));
    listEl.append(list);
  }

  problemsEl.replaceChildren();
  const shown = state.problems.map((p, i) => [p, i] as const).filter(([p]) => p.severity !== 'info');
  if (shown.length) {
    const details = el('details', 'problems');
    details.open = true;
    details.append(el('summary', undefined, `Problems (${shown.length})`));
    const list = el('ul', 'problem-list');
    list.append(...shown.map(([p, i]) => renderProblem(p, i)));
    details.append(list);
    problemsEl.append(details);
  }
  applyFilter();
}

// ---- research --------------------------------------------------------------------------------

let research: ResearchState | undefined;
const STATUS_LABELS: Record<ResearchStepStatus, string> = { pending: 'pending', running: 'running', retrieving: 'retrieving', done: 'done', failed: 'failed' };

function renderGoal(g: GoalView, busy: boolean): HTMLLIElement {
  const li = el('li', 'goal');
  li.dataset['goalId'] = g.goalId;
  li.title = g.rationale;
  const text = el('div', 'goal-text');
  text.append(el('span', 'goal-title', g.title));
  text.append(el('div', 'goal-meta', `${plural(g.items, 'item')} · ${plural(g.markers, 'marker')}${g.rationale ? ` · ${g.rationale}` : ''}`));
  const actions = el('span', 'goal-actions');
  const plan = button('icon-button goal-plan', 'Plan', `Plan research for: ${g.title}`, () => vscode.postMessage({ type: 'planResearch', goal: { goalId: g.goalId } }));
  const run = button('icon-button goal-run', 'Run', `Run research for: ${g.title}`, () => vscode.postMessage({ type: 'runResearch', goal: { goalId: g.goalId } }));
  plan.disabled = busy;
  run.disabled = busy;
  actions.append(plan, run);
  li.append(text, actions);
  return li;
}

function requestsText(s: StepView): string {
  const r = s.requests;
  if (!r.total) return s.status === 'pending' ? '' : 'no requests';
  const types = Object.entries(r.byType).map(([t, n]) => `${n} ${t}`).join(', ');
  const extra = [r.chunked ? `${r.chunked} chunked` : '', r.deferred ? `${r.deferred} deferred` : '', r.rejected ? `${r.rejected} rejected` : ''].filter(Boolean);
  return `${plural(r.total, 'request')}${types ? `: ${types}` : ''}${extra.length ? ` · ${extra.join(' · ')}` : ''}`;
}

function setStepStatus(li: HTMLElement, status: ResearchStepStatus): void {
  li.dataset['status'] = status;
  const badge = li.querySelector('.step-badge');
  if (badge) {
    badge.className = `step-badge status-${status}`;
    badge.textContent = STATUS_LABELS[status];
  }
}

function renderStep(s: StepView): HTMLLIElement {
  const li = el('li', 'step');
  li.dataset['stepId'] = s.stepId;
  const head = el('div', 'step-head');
  head.append(el('span', 'step-badge'), el('span', 'step-id', s.stepId), el('span', 'step-goal', s.goal || s.stepId));
  li.append(head);
  const meta = [s.phaseName ? `phase ${s.phaseName}` : '', plural(s.items.length, 'item'), s.strategy.replace(/_/g, ' '), s.requiredData.replace(/_/g, ' ')];
  if (s.findings !== null) meta.push(plural(s.findings, 'finding'));
  if (s.rounds !== null) meta.push(plural(s.rounds, 'round'));
  li.append(el('div', 'step-meta', meta.filter(Boolean).join(' · ')));
  const req = requestsText(s);
  const reqEl = el('div', 'step-requests', req);
  reqEl.hidden = !req;
  li.append(reqEl);
  if (s.error) li.append(el('div', 'step-error', s.error));
  li.title = `${s.stepId}: ${s.goal}\nitems: ${s.items.join(', ')}`;
  setStepStatus(li, s.status);
  return li;
}

const RUN_STATUS_TITLES: Record<RunView['status'], string> = {
  planned: 'planned: review the steps, then Run Research',
  running: 'running',
  done: 'done: every step finished',
  partial: 'partial: some steps failed (or the report is a fallback); the message above says why',
  failed: 'failed: no step succeeded; the message above says why',
  cancelled: 'cancelled: finished steps are kept',
};

/** The badge of a run's status; `partial` is styled like `failed` (it is not a success). */
function runStatusBadge(status: RunView['status']): HTMLElement {
  const badge = el('span', `run-status run-${status}${status === 'partial' ? ' run-failed' : ''}`, status);
  badge.title = RUN_STATUS_TITLES[status] ?? status;
  return badge;
}

/** A run Resume can take: cancelled, failed, partial, or `running` but not in this window (its runner crashed or runs elsewhere). */
function resumable(status: RunView['status'], runId: string, r: ResearchState): boolean {
  return status === 'cancelled' || status === 'failed' || status === 'partial' || (status === 'running' && r.liveRunId !== runId);
}

/** The Resume button of a run (finished steps are kept; the others run, then the report is written again). */
function resumeButton(runId: string, status: RunView['status'], busy: boolean): HTMLButtonElement {
  const b = button('icon-button run-resume', 'Resume', `Resume run ${runId} (${status}): finished steps are kept, the others run, then the report is written again`, () => vscode.postMessage({ type: 'resumeResearch', runId }));
  b.dataset['runId'] = runId;
  b.disabled = busy;
  return b;
}

function renderResearch(r: ResearchState): void {
  research = r;
  const busy = r.busy !== null;
  researchEl.dataset['busy'] = r.busy ?? '';
  researchStatusEl.textContent = r.message ?? (r.run ? '' : 'Discover goals from the markers, type your own, or run research directly.');
  researchStatusEl.hidden = !researchStatusEl.textContent;
  for (const b of [discoverBtn, planBtn, runBtn]) b.disabled = busy;
  reportBtn.disabled = !r.run?.report;
  cancelBtn.hidden = !busy;

  goalsEl.replaceChildren();
  if (r.goals.length) {
    goalsEl.append(el('div', 'subsection-title', 'Goals'));
    const ul = el('ul', 'goals');
    ul.append(...r.goals.map((g) => renderGoal(g, busy)));
    goalsEl.append(ul);
  }

  runEl.replaceChildren();
  if (r.run) {
    const run = el('div', 'run');
    run.dataset['runId'] = r.run.runId;
    run.dataset['runStatus'] = r.run.status;
    const head = el('div', 'run-head');
    head.append(runStatusBadge(r.run.status), el('span', 'run-goal', r.run.goal));
    if (resumable(r.run.status, r.run.runId, r)) {
      const resume = resumeButton(r.run.runId, r.run.status, busy);
      resume.id = 'run-resume';
      head.append(resume);
    }
    run.append(head);
    const done = r.run.steps.filter((s) => s.status === 'done').length;
    const failedSteps = r.run.steps.filter((s) => s.status === 'failed').length;
    run.append(el('div', 'run-meta', `${r.run.runId} · ${r.run.complexity} · ${r.run.engine}${r.run.model ? ` ${r.run.model}` : ''} · ${done}/${plural(r.run.steps.length, 'step')} done${failedSteps ? ` · ${failedSteps} failed` : ''}`));
    const ol = el('ol', 'steps');
    ol.setAttribute('aria-label', 'Plan steps');
    ol.append(...r.run.steps.map(renderStep));
    run.append(ol);
    if (r.run.report) {
      const link = button('icon-button run-report', `Open ${r.run.report.split('/').pop() ?? 'report'}`, r.run.report, () => vscode.postMessage({ type: 'openReport', runId: r.run!.runId }));
      const askAbout = button('icon-button run-ask', 'Ask about this report', 'Ask follow-up questions about this report in the Chat view', () => vscode.postMessage({ type: 'askFollowup', runId: r.run!.runId }));
      askAbout.id = 'run-ask';
      const links = el('div', 'run-links');
      links.append(link, askAbout);
      run.append(links);
    }
    runEl.append(run);
  }

  runsEl.replaceChildren();
  const others = r.runs.filter((x) => x.runId !== r.run?.runId);
  if (others.length) {
    const details = el('details', 'runs');
    details.append(el('summary', 'subsection-title', `Earlier runs (${others.length})`));
    const ul = el('ul', 'run-list');
    for (const x of others) {
      const li = el('li', 'run-entry');
      li.dataset['runId'] = x.runId;
      li.tabIndex = 0;
      li.append(runStatusBadge(x.status), el('span', 'run-goal', x.goal));
      if (resumable(x.status, x.runId, r)) li.append(resumeButton(x.runId, x.status, busy));
      li.title = `${x.runId} · ${x.createdAt}`;
      li.addEventListener('click', () => vscode.postMessage({ type: 'showRun', runId: x.runId }));
      ul.append(li);
    }
    details.append(ul);
    runsEl.append(details);
  }
}

// ---- the filter ------------------------------------------------------------------------------

/**
 * Hides what the filter excludes, node by node as in a tree filter: a marker
 * shows when its kind is on and its text or topic holds every term; a theme
 * when its text does; an item when its title or id matches or anything under
 * it shows. While searching text, items and groups holding a match are opened;
 * when the filter is cleared, the user's own open state returns.
 */
function applyFilter(): void {
  const f: MarkerFilter = parseFilter(filterInput.value, kindsOn);
  const empty = filterIsEmpty(f);
  const searching = f.terms.length > 0;
  let shown = 0;
  let total = 0;
  let itemsShown = 0;
  for (const row of rows) {
    const id = row.item.id;
    let itemHits = 0;
    for (const g of row.groups) {
      let markerHits = 0;
      for (const m of g.markers) {
        const ok = markerMatches(m.marker, f);
        m.li.hidden = !ok;
        total++;
        if (ok) markerHits++;
      }
      let valueHits = 0;
      for (const v of g.values) {
        const ok = textMatches(f.terms, v.value);
        if (g.details) v.li.hidden = !ok;
        if (ok) valueHits++;
      }
      shown += markerHits;
      // Kinds narrow markers only: themes and sentiment stay, but never keep an item in view on their own.
      itemHits += markerHits + (searching ? valueHits : 0);
      g.li.hidden = !(empty || (g.markers.length ? markerHits > 0 : valueHits > 0));
      if (g.countEl) {
        const all = g.markers.length || g.values.length;
        const n = g.markers.length ? markerHits : valueHits;
        g.countEl.textContent = n === all ? String(all) : `${n} of ${all}`;
      }
      if (g.details) setOpen(g.details, (searching && !g.li.hidden) || openKeys.has(`group:${id}:${g.group.key}`));
    }
    const visible = empty || itemHits > 0 || (searching && textMatches(f.terms, row.item.title, id));
    row.li.hidden = !visible;
    if (visible) itemsShown++;
    setOpen(row.details, (searching && itemHits > 0) || openKeys.has(`item:${id}`));
  }
  filterCount.textContent = empty ? plural(total, 'marker') : `${shown} of ${plural(total, 'marker')}`;
  emptyFilterEl.hidden = empty || itemsShown > 0 || rows.length === 0;
}

// ---- keyboard: arrow keys move between the visible rows of the tree --------------------------

function visibleRows(): HTMLElement[] {
  return [...listEl.querySelectorAll<HTMLElement>('summary, li.marker')].filter((e) => e.getClientRects().length > 0);
}

listEl.addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
  const target = e.target as HTMLElement;
  if (target.tagName === 'BUTTON') return;
  const list = visibleRows();
  const i = list.indexOf(target);
  if (i < 0) return;
  e.preventDefault();
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? list.length - 1 : Math.min(list.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)));
  list[next]?.focus();
});
listEl.addEventListener('keydown', (e) => {
  // ArrowRight / ArrowLeft open and close a <details> from its summary, as in a tree.
  const target = e.target as HTMLElement;
  if ((e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') || target.tagName !== 'SUMMARY') return;
  const d = target.parentElement;
  if (!(d instanceof HTMLDetailsElement)) return;
  e.preventDefault();
  d.open = e.key === 'ArrowRight';
});

// ---- messages --------------------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'state':
      render(msg.state);
      break;
    case 'research':
      renderResearch(msg.research);
      break;
    case 'stepStatus': {
      if (research?.run?.runId !== msg.runId) break;
      const li = runEl.querySelector<HTMLElement>(`li.step[data-step-id="${CSS.escape(msg.stepId)}"]`);
      if (li) setStepStatus(li, msg.status);
      const step = research.run.steps.find((s) => s.stepId === msg.stepId);
      if (step) step.status = msg.status;
      break;
    }
    case 'progress':
      markersStatusEl.hidden = false;
      markersStatusEl.textContent = msg.total > 0 ? `${msg.message} (${msg.done}/${msg.total})` : msg.message;
      break;
    case 'askBusy':
    case 'askResult':
    case 'askError':
    case 'askFocus':
      onAskMessage(msg);
      break;
  }
});

renderAsk();
renderAskScope();

vscode.postMessage({ type: 'ready' });
