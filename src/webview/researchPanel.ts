/**
 * The research panel of the Research view: a goal box and the actions (Run,
 * Plan, Discover Goals, Open Report, Cancel), the proposed goals, the run shown
 * (its plan steps with live status and requests) and the earlier runs.
 */
import type { GoalView, ResearchCorpusView, ResearchState, ResearchStepStatus, ResearchToHost, RunView, StepView } from '../shared/webviewProtocol';
import { button, el } from './dom';
import { plural } from './vscodeApi';

/** Run statuses after which no step changes any more. */
const FINISHED: ReadonlySet<string> = new Set(['done', 'partial', 'failed', 'cancelled']);

const STATUS_LABELS: Record<ResearchStepStatus, string> = { pending: 'pending', running: 'running', retrieving: 'retrieving', done: 'done', failed: 'failed' };

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

function requestsText(s: StepView): string {
  const r = s.requests;
  if (!r.total) return s.status === 'pending' ? '' : 'no requests';
  const types = Object.entries(r.byType).map(([t, n]) => `${n} ${t}`).join(', ');
  const extra = [r.chunked ? `${r.chunked} chunked` : '', r.deferred ? `${r.deferred} deferred` : '', r.rejected ? `${r.rejected} rejected` : ''].filter(Boolean);
  return `${plural(r.total, 'request')}${types ? `: ${types}` : ''}${extra.length ? ` · ${extra.join(' · ')}` : ''}`;
}

/** Sets a step row's status (the live updates change this row only). */
export function setStepStatus(li: HTMLElement, status: ResearchStepStatus): void {
  li.dataset['status'] = status;
  const badge = li.querySelector('.step-badge');
  if (badge) {
    badge.className = `step-badge status-${status}`;
    badge.textContent = STATUS_LABELS[status];
  }
}

export class ResearchPanel {
  readonly el = el('section', 'research');
  private readonly statusEl = el('p', 'research-status');
  private readonly corpusNote = el('div', 'research-corpus');
  private readonly goalInput = el('input', 'goal-input');
  private readonly discoverBtn: HTMLButtonElement;
  private readonly planBtn: HTMLButtonElement;
  private readonly runBtn: HTMLButtonElement;
  private readonly reportBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;
  private readonly goalsEl = el('div', 'goals-host');
  private readonly runEl = el('div', 'run-host');
  private readonly runsEl = el('div', 'runs-host');
  private research: ResearchState | undefined;
  private corpus: ResearchCorpusView | undefined;
  /** A goal typed and planned: the box empties once its plan is shown, so Run runs that plan. */
  private plannedText: string | null = null;
  private earlierOpen = false;
  private goalsOpen = true;
  /** The goals shown last (ids), to tell a new list from the same one. */
  private goalIds = '';

  constructor(private readonly post: (msg: ResearchToHost) => void) {
    this.el.id = 'research';
    this.el.setAttribute('aria-label', 'Research');
    this.statusEl.id = 'research-status';
    this.statusEl.setAttribute('aria-live', 'polite');
    const form = el('form', 'goal-form');
    const input = this.goalInput;
    input.id = 'goal-input';
    input.type = 'text';
    input.placeholder = 'Your own research goal (or pick one below)';
    input.setAttribute('aria-label', 'Research goal');
    input.spellcheck = false;
    input.addEventListener('input', () => this.syncRunButton());
    form.append(input);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.plan();
    });
    const buttons = el('div', 'research-actions');
    this.runBtn = button('primary run-research', 'Run Research', '', () => {
      const goal = this.typedGoal();
      post({ type: 'runResearch', goal });
    });
    this.runBtn.id = 'run-research';
    this.planBtn = button('secondary plan-research', 'Plan', 'Plan research for the goal typed above (the plan is shown here for review before it runs)', () => this.plan());
    this.planBtn.id = 'plan-research';
    this.discoverBtn = button('secondary discover-goals', 'Discover Goals', 'Propose research goals from the markers of the corpus', () => post({ type: 'discoverGoals' }));
    this.discoverBtn.id = 'discover-goals';
    this.reportBtn = button('secondary open-report', 'Open Report', 'Open the report of the run shown below', () => post({ type: 'openReport', runId: this.research?.run?.runId }));
    this.reportBtn.id = 'open-report';
    this.cancelBtn = button('secondary cancel-research', 'Cancel', 'Cancel the research (or marker generation) that is running', () => post({ type: 'cancel' }));
    this.cancelBtn.id = 'cancel-research';
    buttons.append(this.runBtn, this.planBtn, this.discoverBtn, this.reportBtn, this.cancelBtn);
    this.corpusNote.id = 'research-corpus';
    this.corpusNote.hidden = true;
    // The run being reviewed or watched comes first; the goals and earlier runs fold away under it.
    this.el.append(this.corpusNote, this.statusEl, form, buttons, this.runEl, this.goalsEl, this.runsEl);
    this.syncRunButton();
  }

  /** The goal typed in the box, or undefined when it is empty (the host then runs the plan shown, or picks a goal). */
  private typedGoal(): { text: string } | undefined {
    const v = this.goalInput.value.trim();
    return v.length >= 3 ? { text: v } : undefined;
  }

  private plan(): void {
    const goal = this.typedGoal();
    if (!goal) return void this.goalInput.focus();
    this.plannedText = goal.text;
    this.post({ type: 'planResearch', goal });
  }

  /** The Run button says what it will run: the typed goal, the plan shown, or the top goal. */
  private syncRunButton(): void {
    const typed = this.typedGoal();
    const run = this.research?.run;
    const planned = run?.status === 'planned' ? run : null;
    if (typed) {
      this.runBtn.textContent = 'Run Research';
      this.runBtn.title = planned ? `Run research for the goal typed above (a new run; the plan shown below stays planned)` : 'Run research for the goal typed above';
    } else if (planned) {
      this.runBtn.textContent = 'Run the Plan';
      this.runBtn.title = `Run the plan shown below (run ${planned.runId}): ${planned.goal}`;
    } else {
      this.runBtn.textContent = 'Run Research';
      this.runBtn.title = 'Run research for the top goal the markers support (type a goal above to choose)';
    }
  }

  /** What the research works on: without a corpus, or without markers, say what to do first. */
  setCorpus(c: ResearchCorpusView): void {
    this.corpus = c;
    this.renderCorpusNote();
  }

  private renderCorpusNote(): void {
    const c = this.corpus;
    const note = this.corpusNote;
    note.replaceChildren();
    note.hidden = true;
    if (!c || c.status === 'loading') return;
    if (c.status !== 'ready' || !c.items) {
      note.append(el('p', 'research-hint', 'Research works on an indexed corpus.'), button('secondary', 'Index Corpus', 'Load the corpus of this folder', () => this.post({ type: 'indexCorpus' })));
      note.hidden = false;
    } else if (!c.itemsWithMarkers) {
      note.append(el('p', 'research-hint', 'Research reads the key-info markers of the items: generate them first.'), button('secondary', 'Generate Markers', 'Generate key-info markers for every item', () => this.post({ type: 'generateMarkers' })));
      note.hidden = false;
    }
  }

  /** One step's live status: that row only. */
  stepStatus(runId: string, stepId: string, status: ResearchStepStatus): void {
    if (this.research?.run?.runId !== runId) return;
    // A live status that arrives after the run's final state (the two travel apart) never overrides it.
    if (FINISHED.has(this.research.run.status)) return;
    const li = this.runEl.querySelector<HTMLElement>(`li.step[data-step-id="${CSS.escape(stepId)}"]`);
    if (li) setStepStatus(li, status);
    const step = this.research.run.steps.find((s) => s.stepId === stepId);
    if (step) step.status = status;
  }

  render(r: ResearchState): void {
    this.research = r;
    const busy = r.busy !== null;
    this.el.dataset['busy'] = r.busy ?? '';
    // The typed goal is planned and shown: empty the box, so Run runs the reviewed plan.
    if (this.plannedText && r.run?.status === 'planned' && r.run.goal === this.plannedText) {
      if (this.goalInput.value.trim() === this.plannedText) this.goalInput.value = '';
      this.plannedText = null;
    }
    this.statusEl.textContent = r.message ?? (r.run ? '' : 'Discover goals from the markers, type your own, or run research directly.');
    this.statusEl.hidden = !this.statusEl.textContent;
    for (const b of [this.discoverBtn, this.planBtn, this.runBtn]) b.disabled = busy;
    this.reportBtn.disabled = !r.run?.report;
    this.cancelBtn.hidden = !busy;
    this.syncRunButton();

    this.goalsEl.replaceChildren();
    if (r.goals.length) {
      // New goals (a Discover Goals) open the list again; otherwise it stays as the user left it.
      const ids = r.goals.map((g) => g.goalId).join('\n');
      if (ids !== this.goalIds) this.goalsOpen = true;
      this.goalIds = ids;
      const details = el('details', 'goals-section');
      details.open = this.goalsOpen;
      details.addEventListener('toggle', () => (this.goalsOpen = details.open));
      details.append(el('summary', 'subsection-title', `Goals (${r.goals.length})`));
      const ul = el('ul', 'goals');
      ul.append(...r.goals.map((g) => this.renderGoal(g, busy)));
      details.append(ul);
      this.goalsEl.append(details);
    }

    this.runEl.replaceChildren();
    if (r.run) this.runEl.append(this.renderRun(r.run, r, busy));

    this.runsEl.replaceChildren();
    const others = r.runs.filter((x) => x.runId !== r.run?.runId);
    if (others.length) {
      const details = el('details', 'runs');
      details.open = this.earlierOpen;
      details.addEventListener('toggle', () => (this.earlierOpen = details.open));
      details.append(el('summary', 'subsection-title', `Earlier runs (${others.length})`));
      const ul = el('ul', 'run-list');
      for (const x of others) {
        const li = el('li', 'run-entry');
        li.dataset['runId'] = x.runId;
        li.tabIndex = 0;
        li.append(runStatusBadge(x.status), el('span', 'run-goal', x.goal));
        if (resumable(x.status, x.runId, r)) li.append(this.resumeButton(x.runId, x.status, busy));
        li.title = `${x.runId} · ${x.createdAt}\nClick: show this run`;
        const show = (): void => this.post({ type: 'showRun', runId: x.runId });
        li.addEventListener('click', show);
        li.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            show();
          }
        });
        ul.append(li);
      }
      details.append(ul);
      this.runsEl.append(details);
    }
  }

  private renderGoal(g: GoalView, busy: boolean): HTMLLIElement {
    const li = el('li', 'goal');
    li.dataset['goalId'] = g.goalId;
    li.title = `${g.title}\n${g.rationale}`;
    const text = el('div', 'goal-text');
    text.append(el('span', 'goal-title', g.title));
    text.append(el('div', 'goal-meta', `${plural(g.items, 'item')} · ${plural(g.markers, 'marker')}${g.rationale ? ` · ${g.rationale}` : ''}`));
    const actions = el('span', 'goal-actions');
    const plan = button('icon-button goal-plan', 'Plan', `Plan research for: ${g.title}`, () => this.post({ type: 'planResearch', goal: { goalId: g.goalId } }));
    const run = button('icon-button goal-run', 'Run', `Run research for: ${g.title}`, () => this.post({ type: 'runResearch', goal: { goalId: g.goalId } }));
    plan.disabled = busy;
    run.disabled = busy;
    actions.append(plan, run);
    li.append(text, actions);
    return li;
  }

  private renderStep(s: StepView): HTMLLIElement {
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

  /** The Resume button of a run (finished steps are kept; the others run, then the report is written again). */
  private resumeButton(runId: string, status: RunView['status'], busy: boolean): HTMLButtonElement {
    const b = button('icon-button run-resume', 'Resume', `Resume run ${runId} (${status}): finished steps are kept, the others run, then the report is written again`, () => this.post({ type: 'resumeResearch', runId }));
    b.dataset['runId'] = runId;
    b.disabled = busy;
    return b;
  }

  private renderRun(run: RunView, r: ResearchState, busy: boolean): HTMLElement {
    const box = el('div', 'run');
    box.dataset['runId'] = run.runId;
    box.dataset['runStatus'] = run.status;
    const head = el('div', 'run-head');
    head.append(runStatusBadge(run.status), el('span', 'run-goal', run.goal));
    if (resumable(run.status, run.runId, r)) {
      const resume = this.resumeButton(run.runId, run.status, busy);
      resume.id = 'run-resume';
      head.append(resume);
    }
    box.append(head);
    const done = run.steps.filter((s) => s.status === 'done').length;
    const failedSteps = run.steps.filter((s) => s.status === 'failed').length;
    box.append(el('div', 'run-meta', `${run.runId} · ${run.complexity} · ${run.engine}${run.model ? ` ${run.model}` : ''} · ${done}/${plural(run.steps.length, 'step')} done${failedSteps ? ` · ${failedSteps} failed` : ''}`));
    if (run.coverage) box.append(coverageLine(run.coverage));
    const ol = el('ol', 'steps');
    ol.setAttribute('aria-label', 'Plan steps');
    ol.append(...run.steps.map((s) => this.renderStep(s)));
    box.append(ol);
    if (run.report) {
      const link = button('icon-button run-report', `Open ${run.report.split('/').pop() ?? 'report'}`, run.report, () => this.post({ type: 'openReport', runId: run.runId }));
      const askAbout = button('icon-button run-ask', 'Ask about this report', 'Ask follow-up questions about this report in the Chat view', () => this.post({ type: 'askFollowup', runId: run.runId }));
      askAbout.id = 'run-ask';
      const links = el('div', 'run-links');
      links.append(link, askAbout);
      box.append(links);
    }
    return box;
  }
}

/** What the plan's reasons for leaving an item out say, in a few words. */
const NOT_COVERED_WORDS: Record<string, string> = {
  no_text: 'no text',
  no_matching_part: 'nothing matching the goal',
  over_budget: 'over the step budget',
  not_in_plan: 'left out of the edited plan',
};

/** "Covers 58 of 60 items · 2 not covered: no text 1, over the step budget 1" (the report's "Not covered" lists them). */
function coverageLine(c: NonNullable<RunView['coverage']>): HTMLElement {
  const left = c.notCovered.reduce((a, x) => a + x.count, 0);
  const text = left
    ? `Covers ${c.scope - left} of ${plural(c.scope, 'item')} · ${left} not covered: ${c.notCovered.map((x) => `${NOT_COVERED_WORDS[x.reason] ?? x.reason} ${x.count}`).join(', ')}`
    : `Covers all ${plural(c.scope, 'item')} of the goal`;
  const line = el('div', left ? 'run-coverage run-coverage-gaps' : 'run-coverage', text);
  line.title = left ? 'Items of the goal no step researches, with the reason: listed under "Not covered" in the report and in plan.json (not_covered)' : 'Every item of the goal is in some step of the plan';
  return line;
}
