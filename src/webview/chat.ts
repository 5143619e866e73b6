/**
 * The Chat view's UI (runs in the webview, a browser): the run the
 * conversation is about (or "Whole corpus"), "New conversation", the earlier
 * conversations, the turns — question, answer with `[n]` citation chips that
 * open the cited span, the loaded originals of citation questions — and the
 * input with Stop. Answers are untrusted text (they quote comments): they are
 * rendered from a minimal Markdown parse with DOM APIs only (textContent),
 * never parsed as HTML.
 */
// First: the page's l10n bundle is loaded before any view draws.
import './l10nSetup';
import { CHAT_MAX_QUESTION_CHARS, parseAnswer, type AnswerBlock, type ChatCitationView, type ChatConversationView, type ChatHistoryEntry, type ChatPendingView, type ChatState, type ChatToHost, type ChatTurnView, type HostToChat, type InlinePiece } from '../shared/chatProtocol';
import * as l10n from '@vscode/l10n';
import * as counted from './counts';
import { button, el, onActivate } from './dom';
import { pinButton } from './pinButton';

/** What the webview remembers across being hidden (vscode.getState/setState). */
interface ViewMemory {
  draft: string;
  state: ChatState | null;
}

interface VsCodeApi {
  postMessage(msg: ChatToHost): void;
  getState(): unknown;
  setState(state: ViewMemory): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('chat')!;

function loadMemory(): ViewMemory {
  const raw = vscode.getState() as Partial<ViewMemory> | undefined;
  const state = raw?.state;
  const ok = !!state && typeof state === 'object' && typeof state.conversation === 'object' && Array.isArray(state.conversation?.turns) && Array.isArray(state.history);
  return { draft: typeof raw?.draft === 'string' ? raw.draft : '', state: ok ? state : null };
}
const memory = loadMemory();

const when = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
};

// ---- the static frame ------------------------------------------------------------------------

const head = el('header', 'chat-head');
const aboutEl = el('div', 'chat-about');
aboutEl.id = 'chat-about';
const headActions = el('div', 'chat-head-actions');
const newBtn = button('secondary chat-new', l10n.t('New conversation'), l10n.t('New conversation: start again about the same run (earlier ones stay in the list)'), () => {
  vscode.postMessage({ type: 'newConversation', runId: state?.conversation.run?.runId ?? null });
  input.focus();
});
newBtn.id = 'chat-new';
const historyBtn = button('secondary chat-history-toggle', l10n.t('History'), l10n.t('Earlier conversations of this corpus'), () => {
  historyEl.hidden = !historyEl.hidden;
  historyBtn.setAttribute('aria-expanded', String(!historyEl.hidden));
});
historyBtn.id = 'chat-history-toggle';
historyBtn.setAttribute('aria-expanded', 'false');
const runIdEl = el('span', 'about-run');
runIdEl.id = 'chat-run-id';
headActions.append(runIdEl, newBtn, historyBtn);
head.append(aboutEl, headActions);

const historyEl = el('section', 'chat-history');
historyEl.id = 'chat-history';
historyEl.setAttribute('aria-label', l10n.t('Earlier conversations'));
historyEl.hidden = true;

const messageEl = el('p', 'chat-message');
messageEl.id = 'chat-message';
messageEl.setAttribute('aria-live', 'polite');
messageEl.hidden = true;

const turnsEl = el('ol', 'chat-turns');
turnsEl.id = 'chat-turns';
turnsEl.setAttribute('aria-label', l10n.t('Conversation'));
turnsEl.setAttribute('aria-live', 'polite');

const form = el('form', 'chat-form');
const input = el('textarea', 'chat-input');
input.id = 'chat-input';
input.rows = 2;
input.maxLength = CHAT_MAX_QUESTION_CHARS;
input.spellcheck = false;
input.placeholder = l10n.t('Ask a follow-up… (Enter sends, Shift+Enter: new line)');
input.setAttribute('aria-label', l10n.t('Question'));
input.value = memory.draft;
const askBtn = el('button', 'primary chat-ask', l10n.t('Ask'));
askBtn.id = 'chat-ask';
askBtn.type = 'submit';
askBtn.title = l10n.t('Ask (Enter)');
const stopBtn = button('secondary chat-stop', l10n.t('Stop'), l10n.t('Stop the answer (Escape); what came so far is kept, marked stopped'), () => vscode.postMessage({ type: 'stop' }));
stopBtn.id = 'chat-stop';
stopBtn.hidden = true;
const formActions = el('div', 'chat-form-actions');
formActions.append(stopBtn, askBtn);
form.append(input, formActions);

root.replaceChildren(head, historyEl, messageEl, turnsEl, form);

// ---- state -----------------------------------------------------------------------------------

let state: ChatState | null = memory.state;
let pending: ChatPendingView | null = null;
/** Citations of the conversation shown, by number. */
let citations = new Map<number, ChatCitationView>();
/** The element the streamed answer goes into. */
let pendingAnswerEl: HTMLElement | null = null;

const saveMemory = (): void => vscode.setState({ draft: input.value, state });

function ask(): void {
  const q = input.value.trim().slice(0, CHAT_MAX_QUESTION_CHARS);
  if (!q || !state) return void input.focus();
  vscode.postMessage({ type: 'ask', conversationId: state.conversation.id, question: q });
  input.value = '';
  fitInput();
  saveMemory();
  // shown at once; the host's turnStart confirms it
  setPending({ askId: -1, conversationId: state.conversation.id ?? '', question: q, text: '' });
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  ask();
});
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    ask();
  } else if (e.key === 'Escape' && pending) {
    e.preventDefault();
    vscode.postMessage({ type: 'stop' });
  }
});
/** The box grows with the question, up to a few lines. */
function fitInput(): void {
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight + 2, 140)}px`;
}
input.addEventListener('input', () => {
  fitInput();
  saveMemory();
});

// ---- rendering: the answer's minimal Markdown ------------------------------------------------

function chip(n: number): HTMLElement {
  const c = citations.get(n);
  if (!c) {
    const span = el('span', 'cite-missing', `[${n}]`);
    span.title = l10n.t('Citation {0} is not in this conversation', n);
    return span;
  }
  const b = button('cite-chip', String(n), '', () => {
    for (const x of turnsEl.querySelectorAll('.cite-chip.is-opened')) x.classList.remove('is-opened');
    b.classList.add('is-opened');
    vscode.postMessage({ type: 'openCitation', conversationId: state?.conversation.id ?? null, number: n });
  });
  b.dataset['n'] = String(n);
  b.dataset['where'] = c.where;
  b.title = [`[${n}] ${c.title} (${c.part})`, [c.where, c.time, c.speaker].filter(Boolean).join(' · '), c.quote ? `“${c.quote}”` : '', l10n.t('Click to open the cited span, highlighted in its item (the original file is one click away)')].filter(Boolean).join('\n');
  b.setAttribute('aria-label', l10n.t('Citation {0}: {1}, {2}', n, c.title, c.where));
  return b;
}

function inline(parent: HTMLElement, pieces: readonly InlinePiece[]): void {
  for (const p of pieces) {
    if (p.kind === 'text') parent.append(document.createTextNode(p.text));
    else if (p.kind === 'bold') {
      const strong = el('strong');
      inline(strong, p.pieces);
      parent.append(strong);
    }
    else if (p.kind === 'code') parent.append(el('code', undefined, p.text));
    else parent.append(chip(p.number));
  }
}

function renderBlocks(parent: HTMLElement, blocks: readonly AnswerBlock[]): void {
  for (const b of blocks) {
    if (b.kind === 'list') {
      const list = el(b.ordered ? 'ol' : 'ul', 'answer-list');
      for (const item of b.items) {
        const li = el('li');
        inline(li, item);
        list.append(li);
      }
      parent.append(list);
    } else if (b.kind === 'quote') {
      const q = el('blockquote', 'answer-quote');
      inline(q, b.pieces);
      parent.append(q);
    } else {
      const p = el('p', b.kind === 'heading' ? 'answer-heading' : undefined);
      inline(p, b.pieces);
      parent.append(p);
    }
  }
}

function renderAnswer(parent: HTMLElement, markdown: string): void {
  parent.replaceChildren();
  renderBlocks(parent, parseAnswer(markdown));
}

// ---- rendering: turns --------------------------------------------------------------------------

const modeLabel = (mode: ChatTurnView['mode']): string => (mode === 'report' ? l10n.t('from the report') : mode === 'citation' ? l10n.t('cited originals') : l10n.t('from the corpus'));

function renderLoaded(turn: ChatTurnView): HTMLElement[] {
  return turn.loaded.map((l, i) => {
    const c = citations.get(l.number);
    const d = el('details', 'chat-loaded');
    d.dataset['n'] = String(l.number);
    d.open = i === 0;
    const summary = el('summary', 'loaded-summary');
    summary.append(el('span', 'loaded-label', l10n.t('Original [{0}]', l.number)));
    if (c) summary.append(el('span', 'loaded-where', ` ${c.title} · ${c.where}`));
    d.append(summary);
    const body = el('blockquote', 'loaded-text');
    if (l.before) body.append(el('span', 'loaded-context', l.before));
    body.append(el('mark', 'loaded-cited', l.text));
    if (l.after) body.append(el('span', 'loaded-context', l.after));
    d.append(body);
    if (c) {
      const open = button('icon-button loaded-open', l10n.t('Open in file'), l10n.t('Open {0}', c.where), () => vscode.postMessage({ type: 'openCitation', conversationId: state?.conversation.id ?? null, number: l.number }));
      d.append(open);
    }
    return d;
  });
}

function renderTurn(t: ChatTurnView): HTMLLIElement {
  const li = el('li', `chat-turn${t.cancelled ? ' is-stopped' : ''}`);
  li.dataset['turn'] = String(t.turn);
  li.dataset['engine'] = t.engine;
  li.dataset['mode'] = t.mode;
  if (t.cancelled) li.dataset['stopped'] = '1';
  li.append(el('div', 'chat-q', t.question));
  const answer = el('div', 'chat-a');
  renderAnswer(answer, t.answer || (t.cancelled ? '' : l10n.t('(no answer)')));
  li.append(answer);
  const meta = el('div', 'chat-meta');
  if (t.engine === 'extractive') {
    const badge = el('span', 'engine-badge', l10n.t('extractive'));
    badge.title = l10n.t('No model wrote this answer: it is put together from the sources themselves');
    meta.append(badge);
  }
  if (t.cancelled) meta.append(el('span', 'stopped-badge', l10n.t('stopped')));
  const line = [modeLabel(t.mode), t.understood, t.ms ? `${t.ms} ms` : ''].filter(Boolean).join(' · ');
  const lineEl = el('span', 'chat-meta-line', line);
  lineEl.title = line;
  meta.append(lineEl);
  const conversationId = state?.conversation.id;
  if (conversationId && t.answer) {
    meta.append(pinButton(l10n.t('Pin this answer to the notebook'), () => vscode.postMessage({ type: 'pinAnswer', conversationId, turn: t.turn })));
    li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'chatAnswer', conversationId, turn: t.turn, preventDefaultContextMenuItems: true });
  }
  li.append(meta);
  li.append(...renderLoaded(t));
  for (const n of t.notes) li.append(el('div', 'chat-note', n));
  return li;
}

function renderPending(p: ChatPendingView): HTMLLIElement {
  const li = el('li', 'chat-turn is-pending');
  li.id = 'chat-pending';
  li.append(el('div', 'chat-q', p.question));
  pendingAnswerEl = el('div', 'chat-a');
  renderAnswer(pendingAnswerEl, p.text);
  li.append(pendingAnswerEl);
  li.append(el('div', 'chat-meta', p.text ? 'answering…' : 'thinking…'));
  return li;
}

function renderAbout(c: ChatConversationView): void {
  aboutEl.replaceChildren();
  if (c.run) {
    const label = el('span', 'about-label', l10n.t('About'));
    const goal = el('button', 'about-goal', c.run.goal ?? c.run.runId);
    goal.type = 'button';
    goal.id = 'chat-run-goal';
    goal.title = l10n.t('Open the report of run {0}', c.run.runId);
    goal.dataset['runId'] = c.run.runId;
    goal.addEventListener('click', () => vscode.postMessage({ type: 'openReport', runId: c.run!.runId }));
    const x = button('icon-button about-detach', '✕', l10n.t('Ask about the whole corpus instead (a new conversation)'), () => vscode.postMessage({ type: 'newConversation', runId: null }));
    x.setAttribute('aria-label', l10n.t('Ask the whole corpus instead'));
    aboutEl.append(label, goal, x);
    aboutEl.dataset['runId'] = c.run.runId;
    runIdEl.textContent = c.run.runId;
    runIdEl.title = c.run.status ? l10n.t('Run {0} ({1})', c.run.runId, c.run.status) : l10n.t('Run {0}', c.run.runId);
  } else {
    const whole = el('span', 'about-whole', l10n.t('Whole corpus'));
    whole.id = 'chat-whole';
    whole.title = l10n.t('Questions search every item. "Ask about this report" on a run attaches a conversation to its report.');
    aboutEl.append(whole);
    delete aboutEl.dataset['runId'];
    runIdEl.textContent = '';
  }
}

function renderHistory(list: readonly ChatHistoryEntry[], currentId: string | null): void {
  historyBtn.textContent = list.length ? l10n.t('History ({0})', list.length) : l10n.t('History');
  historyBtn.disabled = !list.length;
  historyEl.replaceChildren();
  if (!list.length) return void (historyEl.hidden = true);
  const ul = el('ul', 'history-list');
  for (const h of list) {
    const li = el('li', `history-entry${h.id === currentId ? ' is-current' : ''}`);
    li.dataset['conversationId'] = h.id;
    li.tabIndex = 0;
    li.setAttribute('role', 'button');
    li.append(el('div', 'history-title', h.title));
    li.append(el('div', 'history-meta', [h.runId ? (h.runGoal ?? l10n.t('run {0}', h.runId)) : l10n.t('whole corpus'), counted.questions(h.turns), when(h.createdAt)].filter(Boolean).join(' · ')));
    li.title = `${h.title}\n${h.runId ? l10n.t('run {0}', h.runId) : l10n.t('whole corpus')}${h.lastQuestion ? `\n${l10n.t('last: {0}', h.lastQuestion)}` : ''}`;
    const open = (): void => {
      historyEl.hidden = true;
      historyBtn.setAttribute('aria-expanded', 'false');
      vscode.postMessage({ type: 'openConversation', conversationId: h.id });
    };
    onActivate(li, open);
    ul.append(li);
  }
  historyEl.append(ul);
}

function nearBottom(): boolean {
  return turnsEl.scrollHeight - turnsEl.scrollTop - turnsEl.clientHeight < 40;
}
function toBottom(): void {
  turnsEl.scrollTop = turnsEl.scrollHeight;
}

function render(): void {
  if (!state) return;
  const c = state.conversation;
  root.dataset['conversationId'] = c.id ?? '';
  citations = new Map(c.citations.map((x) => [x.number, x]));
  renderAbout(c);
  renderHistory(state.history, c.id);
  messageEl.textContent = state.message ?? '';
  messageEl.className = 'chat-message';
  messageEl.hidden = !state.message;
  turnsEl.replaceChildren(...c.turns.map(renderTurn));
  if (!c.turns.length && !pending) {
    const hint = el('li', 'chat-empty');
    hint.textContent = c.run
      ? c.citations.length
        ? l10n.t('Ask a follow-up about this report ({0}; "what does [1] say?" shows the original).', counted.citations(c.citations.length))
        : l10n.t('Ask a follow-up about this report.')
      : l10n.t('Ask about the corpus: who said what, what viewers think, what a citation says.');
    turnsEl.append(hint);
  }
  if (pending && (!c.id || pending.conversationId === c.id || pending.askId < 0)) turnsEl.append(renderPending(pending));
  else pendingAnswerEl = null;
  setBusy(pending !== null);
  toBottom();
}

function setBusy(busy: boolean): void {
  if (busy) root.dataset['busy'] = '1';
  else delete root.dataset['busy'];
  stopBtn.hidden = !busy;
  askBtn.disabled = busy;
}

function setPending(p: ChatPendingView | null): void {
  pending = p;
  render();
}

// ---- messages ----------------------------------------------------------------------------------

function onMessage(msg: HostToChat): void {
  switch (msg.type) {
    case 'state':
      state = msg.state;
      pending = msg.state.pending;
      render();
      saveMemory();
      return;
    case 'turnStart':
      setPending(msg.pending);
      return;
    case 'delta': {
      if (!pending || (pending.askId >= 0 && pending.askId !== msg.askId)) return;
      pending.askId = msg.askId;
      pending.text += msg.text;
      const stick = nearBottom();
      if (pendingAnswerEl) {
        renderAnswer(pendingAnswerEl, pending.text);
        const meta = pendingAnswerEl.nextElementSibling;
        if (meta) meta.textContent = 'answering…';
      } else render();
      if (stick) toBottom();
      return;
    }
    case 'turnError':
      pending = null;
      render();
      messageEl.hidden = false;
      messageEl.className = 'chat-message is-error';
      messageEl.textContent = msg.message;
      messageEl.title = `"${msg.question}": ${msg.message}`;
      if (!input.value.trim()) input.value = msg.question;
      return;
    case 'focus':
      input.focus();
      if (msg.question) {
        input.value = msg.question;
        ask();
      }
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<HostToChat>) => onMessage(event.data));

render();
vscode.postMessage({ type: 'ready' });
