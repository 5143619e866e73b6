/**
 * The Ask box of the Corpus & Markers view: a question, how it was understood,
 * the hits with the strategies that found them. Questions are limited to the
 * item in focus (the last item row the user opened or used) until the chip's ✕
 * switches to the whole corpus; earlier questions go along as the session.
 */
import { ASK_MAX_QUESTION_CHARS, ASK_STRATEGIES } from '../shared/webviewProtocol';
import type { AskAnswerSentenceView, AskAnswerView, AskHitView, AskResultView, CorpusHostToWebview, CorpusToHost } from '../shared/webviewProtocol';
import * as l10n from '@vscode/l10n';
import { button, el, onActivate } from './dom';
import { pinButton } from './pinButton';
import { num } from './vscodeApi';

/** Questions kept in the history; the last {@link ASK_SESSION_SENT} are sent with a question. */
export const ASK_HISTORY_KEPT = 20;
const ASK_SESSION_SENT = 5;

/** What the box keeps across reloads. */
export interface AskMemory {
  focusItem: string | null;
  askHistory: string[];
  askResult: AskResultView | null;
}

export type AskMessage = Extract<CorpusHostToWebview, { type: 'askBusy' | 'askResult' | 'askError' | 'askFocus' }>;

export class AskBox {
  readonly el = el('section', 'ask');
  private readonly form = el('form', 'ask-form');
  private readonly input = el('input', 'ask-input');
  private readonly scopeEl = el('div', 'ask-scope');
  private readonly statusEl = el('p', 'ask-status');
  private readonly queryEl = el('div', 'ask-query');
  private readonly hitsEl = el('ol', 'ask-hits');
  /** The answer above the hits: the model's written answer (with a model) and the cited sentences. */
  private readonly answerEl = el('section', 'ask-answer');
  private focus: string | null;
  private history: string[];
  /** The answer shown (null: none yet, or cleared). */
  private shown: AskResultView | null;
  /** The question being answered (host's id), or null. */
  private pending: { askId: number; question: string } | null = null;
  /** Item titles by id, from the last state (for the scope chip). */
  private titles = new Map<string, string>();

  constructor(
    memory: AskMemory,
    private readonly post: (msg: CorpusToHost) => void,
    /** Something the view remembers changed. */
    private readonly save: () => void,
    /** The item in focus changed (the tree marks its row). */
    private readonly onFocusChange: (itemId: string | null) => void,
  ) {
    this.focus = memory.focusItem;
    this.history = memory.askHistory;
    this.shown = memory.askResult;
    this.el.id = 'ask';
    this.el.setAttribute('aria-label', l10n.t('Ask the corpus'));
    const input = this.input;
    input.id = 'ask-input';
    input.type = 'text';
    input.placeholder = l10n.t('Ask the corpus (e.g. what did the host say about prices?)');
    input.setAttribute('aria-label', l10n.t('Question for the corpus'));
    input.maxLength = ASK_MAX_QUESTION_CHARS;
    input.spellcheck = false;
    input.autocomplete = 'off';
    const askButton = el('button', 'primary ask-button', l10n.t('Ask'));
    askButton.id = 'ask-button';
    askButton.type = 'submit';
    askButton.title = l10n.t('Ask (Enter)');
    this.form.append(input, askButton);
    this.scopeEl.id = 'ask-scope';
    this.statusEl.id = 'ask-status';
    this.statusEl.setAttribute('aria-live', 'polite');
    this.statusEl.hidden = true;
    this.queryEl.id = 'ask-query';
    this.hitsEl.id = 'ask-hits';
    this.hitsEl.setAttribute('aria-label', l10n.t('Hits'));
    this.answerEl.hidden = true;
    this.el.append(this.form, this.scopeEl, this.statusEl, this.queryEl, this.answerEl, this.hitsEl);
    this.el.hidden = true; // shown once a corpus is indexed
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.ask(input.value);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      if (input.value) input.value = '';
      else this.clear();
    });
    this.renderAnswer();
    this.renderScope();
  }

  get memory(): AskMemory {
    return { focusItem: this.focus, askHistory: this.history, askResult: this.shown };
  }

  get focusItem(): string | null {
    return this.focus;
  }

  /** The items of the corpus (for the chip); drops the focus when its item is gone from a loaded corpus. */
  setItems(titles: Map<string, string>, loaded: boolean): void {
    this.titles = titles;
    if (this.focus && loaded && !titles.has(this.focus)) this.setFocusItem(null);
    this.renderScope();
  }

  /** The item in focus: questions are limited to it until the chip's ✕ switches to the whole corpus. */
  setFocusItem(id: string | null): void {
    if (this.focus === id) return;
    this.focus = id;
    this.onFocusChange(id);
    this.renderScope();
    this.save();
  }

  /** Sends a question: limited to the item in focus (unless `itemId` says otherwise), with the last questions as the session. */
  ask(question: string, itemId: string | null = this.focus, remember = true): void {
    const q = question.trim().slice(0, ASK_MAX_QUESTION_CHARS);
    if (!q) {
      this.input.focus();
      return;
    }
    const session = this.history.filter((h) => h !== q).slice(-ASK_SESSION_SENT);
    this.post({ type: 'ask', question: q, itemId, session });
    if (remember) {
      this.history = [...this.history.filter((h) => h !== q), q].slice(-ASK_HISTORY_KEPT);
      this.save();
    }
    this.statusEl.hidden = false;
    this.statusEl.className = 'ask-status is-busy';
    this.statusEl.textContent = l10n.t('Asking…');
    this.el.dataset['busy'] = '1';
    this.renderScope();
  }

  onMessage(msg: AskMessage): void {
    switch (msg.type) {
      case 'askBusy':
        if (msg.busy) {
          this.pending = { askId: msg.askId, question: msg.question };
          this.el.dataset['busy'] = '1';
          this.statusEl.hidden = false;
          this.statusEl.className = 'ask-status is-busy';
          this.statusEl.textContent = l10n.t('Asking: {0}', msg.question);
        } else if (!this.pending || this.pending.askId <= msg.askId) {
          this.pending = null;
          delete this.el.dataset['busy'];
          this.statusEl.hidden = true;
        }
        return;
      case 'askResult':
        if (this.pending && this.pending.askId > msg.result.askId) return; // a newer question is on its way
        this.pending = null;
        delete this.el.dataset['busy'];
        this.statusEl.hidden = true;
        this.shown = msg.result;
        this.renderAnswer();
        this.renderScope();
        this.save();
        return;
      case 'askError':
        if (this.pending && this.pending.askId > msg.askId) return;
        this.pending = null;
        delete this.el.dataset['busy'];
        this.statusEl.hidden = false;
        this.statusEl.className = 'ask-status is-error';
        this.statusEl.textContent = msg.message;
        this.statusEl.title = `"${msg.question}": ${msg.message}`;
        return;
      case 'askFocus':
        this.input.focus();
        if (msg.question) {
          this.input.value = msg.question;
          this.ask(msg.question);
        } else this.input.select();
        return;
    }
  }

  private clear(): void {
    this.shown = null;
    this.renderAnswer();
    this.save();
  }

  /** The scope line: "Item: <title> ✕" (or "Whole corpus") and the session ("· N earlier questions · New topic"). */
  private renderScope(): void {
    const scope = this.scopeEl;
    scope.replaceChildren();
    const title = this.focus ? this.titles.get(this.focus) : undefined;
    if (this.focus && title !== undefined) {
      const chip = button('ask-chip', '', this.shown?.scope ? l10n.t('Questions are limited to this item. Click to ask the whole corpus (asks the last question again).') : l10n.t('Questions are limited to this item. Click to ask the whole corpus.'), () => {
        const last = this.shown?.scope ? this.shown.query.question : null;
        this.setFocusItem(null);
        if (last) this.ask(last, null, false);
      });
      chip.id = 'ask-chip';
      chip.dataset['itemId'] = this.focus;
      chip.append(el('span', 'ask-chip-label', l10n.t('Item:')), el('span', 'ask-chip-title', title), el('span', 'ask-chip-x', '✕'));
      chip.setAttribute('aria-label', l10n.t('Limited to the item {0}; switch to the whole corpus', title));
      scope.append(chip);
    } else {
      const whole = el('span', 'ask-whole', l10n.t('Whole corpus'));
      whole.id = 'ask-whole';
      whole.title = l10n.t('Questions search every item. Open an item below to limit them to it.');
      scope.append(whole);
    }
    if (this.history.length) {
      const earlier = Math.min(this.history.length, ASK_SESSION_SENT);
      const session = el('span', 'ask-session', `· ${earlier === 1 ? l10n.t('1 earlier question') : l10n.t('{0} earlier questions', num(earlier))}`);
      session.title = `${l10n.t('Earlier questions (pronouns like "he" or "it" refer to them):')}\n${this.history.slice(-ASK_SESSION_SENT).map((q) => `• ${q}`).join('\n')}`;
      const reset = button('icon-button ask-new-topic', l10n.t('New topic'), l10n.t('Forget the earlier questions: the next question starts a new conversation'), () => {
        this.history = [];
        this.renderScope();
        this.save();
        this.input.focus();
      });
      reset.id = 'ask-new-topic';
      scope.append(session, reset);
    }
  }

  /** Two lines per hit: the item's title and the strategies that found it; then speaker, time and the quote. */
  private renderHit(h: AskHitView): HTMLLIElement {
    const li = el('li', `ask-hit part-${h.part}`);
    li.dataset['itemId'] = h.itemId;
    li.dataset['rank'] = String(h.rank);
    li.dataset['part'] = h.part;
    if (h.where) li.dataset['where'] = h.where;
    li.tabIndex = 0;
    li.setAttribute('role', 'button');
    const meta = h.location ? [h.location] : [h.speaker, h.time].filter((x): x is string => !!x);
    const head = el('div', 'hit-head');
    head.append(el('span', 'hit-rank', `${h.rank}`), el('span', 'hit-title', h.title));
    const badges = el('span', 'hit-badges');
    for (const s of ASK_STRATEGIES) if (h.matchedBy.includes(s)) {
      const b = el('span', `hit-badge badge-${s}`, s);
      b.dataset['strategy'] = s;
      badges.append(b);
    }
    head.append(badges);
    const question = this.shown?.query.question;
    const target = { kind: 'hit' as const, itemId: h.itemId, part: h.part, start: h.start, end: h.end, ...(question ? { question } : {}) };
    head.append(pinButton(l10n.t('Pin this hit to the notebook'), () => this.post({ type: 'workbench', action: 'pin', target })));
    li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'askHit', ...target, preventDefaultContextMenuItems: true });
    const body = el('div', 'hit-body');
    if (meta.length) body.append(el('span', 'hit-meta', meta.join(' · ')));
    body.append(el('span', 'hit-quote', h.quote));
    li.append(head, body);
    li.title = [
      `${h.title} (${h.part})`,
      [h.where, h.time, h.speaker].filter(Boolean).join(' · '),
      l10n.t('found by: {0}', h.why.length ? h.why.join('; ') : h.matchedBy.join(', ')),
      '',
      h.quote,
      '',
      l10n.t('Click to open the span, highlighted in its item (the original file is one click away)'),
    ].join('\n');
    li.setAttribute('aria-label', l10n.t('Hit {0}: {1}: {2}', h.rank, `${h.title}${meta.length ? `, ${meta.join(', ')}` : ''}`, h.quote));
    const open = (): void => {
      for (const x of this.el.querySelectorAll('.is-opened')) x.classList.remove('is-opened');
      li.classList.add('is-opened');
      this.post({ type: 'openHit', itemId: h.itemId, part: h.part, start: h.start, end: h.end });
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

  /** Opens an answer sentence's span (marks it as the opened one). */
  private openSentence(a: AskAnswerSentenceView, li: HTMLElement | null): void {
    for (const x of this.el.querySelectorAll('.is-opened')) x.classList.remove('is-opened');
    li?.classList.add('is-opened');
    this.post({ type: 'openHit', itemId: a.itemId, part: a.part, start: a.start, end: a.end });
  }

  /**
   * The answer above the hits: with a model, its short answer whose `[n]` open the sentences; then
   * the sentences themselves (the source's own words), each with its item and who said it where,
   * each opening its exact span. Hidden when no sentence answers.
   */
  private renderAnswerSentences(answer: AskAnswerView): void {
    const box = this.answerEl;
    box.replaceChildren();
    box.hidden = !answer.sentences.length;
    if (!answer.sentences.length) return;
    box.id = 'ask-answer';
    box.setAttribute('aria-label', l10n.t('Answer'));
    const byN = new Map(answer.sentences.map((a) => [a.n, a]));
    const items = new Set(answer.sentences.map((a) => a.itemId));
    const head = el('div', 'ask-answer-head', l10n.t('Answer'));
    const sentences = answer.sentences.length === 1 ? l10n.t('1 sentence') : l10n.t('{0} sentences', num(answer.sentences.length));
    const from = items.size === 1 ? answer.sentences[0]!.title : l10n.t('{0} items', num(items.size));
    head.append(el('span', 'ask-answer-how', ` · ${answer.written ? l10n.t('written by the model from the sentences below') : l10n.t('{0} from {1} (extractive, no model)', sentences, from)}`));
    box.append(head);
    if (answer.written) {
      const p = el('p', 'ask-answer-written');
      p.id = 'ask-answer-written';
      // Text with [n] as buttons that open sentence n; the rest stays text.
      let last = 0;
      for (const m of answer.written.matchAll(/\[(\d+)\]/g)) {
        p.append(document.createTextNode(answer.written.slice(last, m.index)));
        const a = byN.get(Number(m[1]));
        if (a) {
          const cite = button('ask-cite', `[${a.n}]`, `${a.title} · ${a.location}: ${a.text}`, () => this.openSentence(a, null));
          cite.dataset['n'] = String(a.n);
          p.append(cite);
        } else p.append(document.createTextNode(m[0]));
        last = (m.index ?? 0) + m[0].length;
      }
      p.append(document.createTextNode(answer.written.slice(last)));
      box.append(p);
    }
    const list = el('ol', 'ask-answer-sentences');
    for (const a of answer.sentences) {
      const li = el('li', `ask-answer-sentence part-${a.part}`);
      li.dataset['n'] = String(a.n);
      li.dataset['itemId'] = a.itemId;
      if (a.where) li.dataset['where'] = a.where;
      li.tabIndex = 0;
      li.setAttribute('role', 'button');
      li.append(el('span', 'ask-answer-text', a.text), el('span', 'ask-answer-who', ` — ${items.size > 1 ? `${a.title} · ` : ''}${a.location}`));
      const target = { kind: 'answer-sentence' as const, itemId: a.itemId, part: a.part, start: a.start, end: a.end, text: a.text, question: this.shown?.query.question ?? '' };
      li.append(pinButton(l10n.t('Pin this sentence to the notebook'), () => this.post({ type: 'workbench', action: 'pin', target })));
      li.dataset['vscodeContext'] = JSON.stringify({ webviewSection: 'askSentence', ...target, preventDefaultContextMenuItems: true });
      li.title = `${a.title} · ${a.location}${a.where ? `\n${a.where}` : ''}\n\n${l10n.t('Click to open the sentence, highlighted in its item')}`;
      li.setAttribute('aria-label', l10n.t('Answer sentence {0}: {1} ({2}, {3})', a.n, a.text, a.title, a.location));
      onActivate(li, () => this.openSentence(a, li));
      list.append(li);
    }
    box.append(list);
  }

  /** The understood query and the hits of the answer shown. */
  private renderAnswer(): void {
    const queryEl = this.queryEl;
    queryEl.replaceChildren();
    this.hitsEl.replaceChildren();
    this.answerEl.replaceChildren();
    this.answerEl.hidden = true;
    const r = this.shown;
    queryEl.hidden = !r;
    this.hitsEl.hidden = !r?.hits.length;
    if (!r) return;
    const q = r.query;
    queryEl.dataset['askId'] = String(r.askId);
    queryEl.dataset['question'] = q.question;
    queryEl.dataset['intent'] = q.intent;
    queryEl.dataset['engine'] = q.engine;
    const line = el('div', 'ask-query-line');
    const understood = el('span', 'ask-understood', q.line);
    understood.id = 'ask-understood';
    understood.title = [
      l10n.t('Question: {0}', q.question),
      q.resolvedQuery && q.resolvedQuery !== q.question ? l10n.t('Understood as: {0}', q.resolvedQuery) : '',
      l10n.t('Intent: {0}', q.intent),
      q.entities.length ? l10n.t('Entities: {0}', q.entities.map((e) => (e.fromSession ? l10n.t('{0} (from the earlier questions)', e.label) : e.label)).join(', ')) : '',
      q.time ? l10n.t('Time: {0}', q.time) : '',
      q.part ? l10n.t('Part: {0}', q.part) : '',
      q.engine === 'rules' ? l10n.t('Understood by: rules (offline)') : l10n.t('Understood by: the model'),
    ].filter(Boolean).join('\n');
    const close = button('icon-button ask-clear', '✕', l10n.t('Clear the answer (Escape in the box)'), () => this.clear());
    close.setAttribute('aria-label', l10n.t('Clear the answer'));
    line.append(understood, close);
    queryEl.append(line);
    const hits = r.hits.length === 1 ? l10n.t('1 hit') : r.hits.length ? l10n.t('{0} hits', num(r.hits.length)) : l10n.t('No hits');
    const summary = el('div', 'ask-summary', `${r.scope ? l10n.t('{0} in {1}', hits, r.scope.title) : l10n.t('{0} in the whole corpus', hits)} · ${r.ms} ms`);
    summary.id = 'ask-summary';
    if (q.resolvedQuery && q.resolvedQuery !== q.question) summary.textContent += ` · ${l10n.t('as “{0}”', q.resolvedQuery)}`;
    queryEl.append(summary);
    if (!r.hits.length && r.whyNoHits) {
      const why = el('div', 'ask-why', r.whyNoHits);
      why.id = 'ask-why';
      queryEl.append(why);
    }
    for (const n of r.notes) queryEl.append(el('div', 'ask-note', n));
    this.renderAnswerSentences(r.answer ?? { sentences: [], written: null });
    this.hitsEl.append(...r.hits.map((h) => this.renderHit(h)));
  }
}
