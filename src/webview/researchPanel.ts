/**
 * The research panel of the Research view: a goal box and the actions (Run,
 * Plan, Discover Goals, Open Report, Cancel), the proposed goals, the run shown
 * (its plan steps with live status and requests) and the earlier runs.
 */
import type { GoalView, ResearchCorpusView, ResearchState, ResearchStepStatus, ResearchToHost, RunView, StepView } from '../shared/webviewProtocol';
import * as l10n from '@vscode/l10n';
import * as counted from './counts';
import { button, el, onActivate } from './dom';

/** Run statuses after which no step changes any more. */
const FINISHED: ReadonlySet<string> = new Set(['done', 'partial', 'failed', 'cancelled']);

/** A step's status as its badge says it (display language). */
function stepStatusLabel(status: ResearchStepStatus): string {
  switch (status) {
    case 'pending': return l10n.t('pending');
    case 'running': return l10n.t('running');
    case 'retrieving': return l10n.t('retrieving');
    case 'done': return l10n.t('done');
    case 'failed': return l10n.t('failed');
  }
}

/** A run's status as its badge says it (display language; an unknown one as it is). */
function runStatusLabel(status: RunView['status']): string {
  const labels: Record<string, string> = { planned: l10n.t('planned'), running: l10n.t('running'), done: l10n.t('done'), partial: l10n.t('partial'), failed: l10n.t('failed'), cancelled: l10n.t('cancelled') };
  return labels[status] ?? status;
}

/** What a run's status means (its badge's hover). */
function runStatusTitle(status: RunView['status']): string {
  const titles: Record<string, string> = {
    planned: l10n.t('planned: review the steps, then Run Research'),
    running: l10n.t('running'),
    done: l10n.t('done: every step finished'),
    partial: l10n.t('partial: some steps failed (or the report is a fallback); the message above says why'),
    failed: l10n.t('failed: no step succeeded; the message above says why'),
    cancelled: l10n.t('cancelled: finished steps are kept'),
  };
  return titles[status] ?? status;
}

/** The badge of a run's status; `partial` is styled like `failed` (it is not a success). */
function runStatusBadge(status: RunView['status']): HTMLElement {
  const badge = el('span', `run-status run-${status}${status === 'partial' ? ' run-failed' : ''}`, runStatusLabel(status));
  badge.title = runStatusTitle(status);
  return badge;
}

/** A run Resume can take: cancelled, failed, partial, or `running` but not in this window (its runner crashed or runs elsewhere). */
function resumable(status: RunView['status'], runId: string, r: ResearchState): boolean {
  return status === 'cancelled' || status === 'failed' || status === 'partial' || (status === 'running' && r.liveRunId !== runId);
}

function requestsText(s: StepView): string {
  const r = s.requests;
  if (!r.total) return s.status === 'pending' ? '' : l10n.t('no requests');
  const types = Object.entries(r.byType).map(([t, n]) => `${n} ${t}`).join(', ');
  const extra = [r.chunked ? l10n.t('{0} chunked', r.chunked) : '', r.deferred ? l10n.t('{0} deferred', r.deferred) : '', r.rejected ? l10n.t('{0} rejected', r.rejected) : ''].filter(Boolean);
  return `${counted.requests(r.total)}${types ? `: ${types}` : ''}${extra.length ? ` · ${extra.join(' · ')}` : ''}`;
}

/** Sets a step row's status (the live updates change this row only). */
export function setStepStatus(li: HTMLElement, status: ResearchStepStatus): void {
  li.dataset['status'] = status;
  const badge = li.querySelector('.step-badge');
  if (badge) {
    badge.className = `step-badge status-${status}`;
    badge.textContent = stepStatusLabel(status);
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
    this.el.setAttribute('aria-label', l10n.t('Research'));
    this.statusEl.id = 'research-status';
    this.statusEl.setAttribute('aria-live', 'polite');
    const form = el('form', 'goal-form');
    const input = this.goalInput;
    input.id = 'goal-input';
    input.type = 'text';
    input.placeholder = l10n.t('Your own research goal (or pick one below)');
    input.setAttribute('aria-label', l10n.t('Research goal'));
    input.spellcheck = false;
    input.addEventListener('input', () => this.syncRunButton());
    form.append(input);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.plan();
    });
    const buttons = el('div', 'research-actions');
    this.runBtn = button('primary run-research', l10n.t('Run Research'), '', () => {
      const goal = this.typedGoal();
      post({ type: 'runResearch', goal });
    });
    this.runBtn.id = 'run-research';
    this.planBtn = button('secondary plan-research', l10n.t('Plan'), l10n.t('Plan research for the goal typed above (the plan is shown here for review before it runs)'), () => this.plan());
    this.planBtn.id = 'plan-research';
    this.discoverBtn = button('secondary discover-goals', l10n.t('Discover Goals'), l10n.t('Propose research goals from the markers of the corpus'), () => post({ type: 'discoverGoals' }));
    this.discoverBtn.id = 'discover-goals';
    this.reportBtn = button('secondary open-report', l10n.t('Open Report'), l10n.t('Open the report of the run shown below'), () => post({ type: 'openReport', runId: this.research?.run?.runId }));
    this.reportBtn.id = 'open-report';
    this.cancelBtn = button('secondary cancel-research', l10n.t('Cancel'), l10n.t('Cancel the research (or marker generation) that is running'), () => post({ type: 'cancel' }));
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
      this.runBtn.textContent = l10n.t('Run Research');
      this.runBtn.title = planned ? l10n.t('Run research for the goal typed above (a new run; the plan shown below stays planned)') : l10n.t('Run research for the goal typed above');
    } else if (planned) {
      this.runBtn.textContent = l10n.t('Run the Plan');
      this.runBtn.title = l10n.t('Run the plan shown below (run {0}): {1}', planned.runId, planned.goal);
    } else {
      this.runBtn.textContent = l10n.t('Run Research');
      this.runBtn.title = l10n.t('Run research for the top goal the markers support (type a goal above to choose)');
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
      note.append(el('p', 'research-hint', l10n.t('Research works on an indexed corpus.')), button('secondary', l10n.t('Index Corpus'), l10n.t('Load the corpus of this folder'), () => this.post({ type: 'indexCorpus' })));
      note.hidden = false;
    } else if (!c.itemsWithMarkers) {
      note.append(el('p', 'research-hint', l10n.t('Research reads the key-info markers of the items: generate them first.')), button('secondary', l10n.t('Generate Markers'), l10n.t('Generate key-info markers for every item'), () => this.post({ type: 'generateMarkers' })));
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
    this.statusEl.textContent = r.message ?? (r.run ? '' : l10n.t('Discover goals from the markers, type your own, or run research directly.'));
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
      details.append(el('summary', 'subsection-title', l10n.t('Goals ({0})', r.goals.length)));
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
      details.append(el('summary', 'subsection-title', l10n.t('Earlier runs ({0})', others.length)));
      const ul = el('ul', 'run-list');
      for (const x of others) {
        const li = el('li', 'run-entry');
        li.dataset['runId'] = x.runId;
        li.tabIndex = 0;
        li.append(runStatusBadge(x.status), el('span', 'run-goal', x.goal));
        if (resumable(x.status, x.runId, r)) li.append(this.resumeButton(x.runId, x.status, busy));
        li.title = `${x.runId} · ${x.createdAt}\nClick: show this run`;
        const show = (): void => this.post({ type: 'showRun', runId: x.runId });
        onActivate(li, show);
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
    text.append(el('div', 'goal-meta', `${counted.items(g.items)} · ${counted.markers(g.markers)}${g.rationale ? ` · ${g.rationale}` : ''}`));
    const actions = el('span', 'goal-actions');
    const plan = button('icon-button goal-plan', l10n.t('Plan'), l10n.t('Plan research for: {0}', g.title), () => this.post({ type: 'planResearch', goal: { goalId: g.goalId } }));
    const run = button('icon-button goal-run', l10n.t('Run'), l10n.t('Run research for: {0}', g.title), () => this.post({ type: 'runResearch', goal: { goalId: g.goalId } }));
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
    const meta = [s.phaseName ? l10n.t('phase {0}', s.phaseName) : '', counted.items(s.items.length), s.strategy.replace(/_/g, ' '), s.requiredData.replace(/_/g, ' ')];
    if (s.findings !== null) meta.push(counted.findings(s.findings));
    if (s.rounds !== null) meta.push(counted.rounds(s.rounds));
    li.append(el('div', 'step-meta', meta.filter(Boolean).join(' · ')));
    const req = requestsText(s);
    const reqEl = el('div', 'step-requests', req);
    reqEl.hidden = !req;
    li.append(reqEl);
    if (s.error) li.append(el('div', 'step-error', s.error));
    li.title = `${s.stepId}: ${s.goal}\n${l10n.t('items: {0}', s.items.join(', '))}`;
    setStepStatus(li, s.status);
    return li;
  }

  /** The Resume button of a run (finished steps are kept; the others run, then the report is written again). */
  private resumeButton(runId: string, status: RunView['status'], busy: boolean): HTMLButtonElement {
    const b = button('icon-button run-resume', l10n.t('Resume'), l10n.t('Resume run {0} ({1}): finished steps are kept, the others run, then the report is written again', runId, runStatusLabel(status)), () => this.post({ type: 'resumeResearch', runId }));
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
    box.append(el('div', 'run-meta', `${run.runId} · ${run.complexity} · ${run.engine}${run.model ? ` ${run.model}` : ''} · ${l10n.t('{0}/{1} done', done, counted.steps(run.steps.length))}${failedSteps ? ` · ${l10n.t('{0} failed', failedSteps)}` : ''}`));
    if (run.coverage) box.append(coverageLine(run.coverage));
    const ol = el('ol', 'steps');
    ol.setAttribute('aria-label', l10n.t('Plan steps'));
    ol.append(...run.steps.map((s) => this.renderStep(s)));
    box.append(ol);
    if (run.report) {
      const link = button('icon-button run-report', l10n.t('Open {0}', run.report.split('/').pop() ?? 'report.md'), run.report, () => this.post({ type: 'openReport', runId: run.runId }));
      const askAbout = button('icon-button run-ask', l10n.t('Ask about this report'), l10n.t('Ask follow-up questions about this report in the Chat view'), () => this.post({ type: 'askFollowup', runId: run.runId }));
      askAbout.id = 'run-ask';
      const links = el('div', 'run-links');
      links.append(link, askAbout);
      box.append(links);
    }
    return box;
  }
}

/** What the plan's reasons for leaving an item out say, in a few words. */
function notCoveredWords(reason: string): string {
  const words: Record<string, string> = {
    no_text: l10n.t('no text'),
    no_matching_part: l10n.t('nothing matching the goal'),
    over_budget: l10n.t('over the step budget'),
    not_in_plan: l10n.t('left out of the edited plan'),
  };
  return words[reason] ?? reason;
}

/** "Covers 58 of 60 items · 2 not covered: no text 1, over the step budget 1" (the report's "Not covered" lists them). */
function coverageLine(c: NonNullable<RunView['coverage']>): HTMLElement {
  const left = c.notCovered.reduce((a, x) => a + x.count, 0);
  const text = left
    ? `${l10n.t('Covers {0} of {1}', c.scope - left, counted.items(c.scope))} · ${l10n.t('{0} not covered: {1}', left, c.notCovered.map((x) => `${notCoveredWords(x.reason)} ${x.count}`).join(', '))}`
    : l10n.t('Covers all {0} of the goal', counted.items(c.scope));
  const line = el('div', left ? 'run-coverage run-coverage-gaps' : 'run-coverage', text);
  line.title = left ? l10n.t('Items of the goal no step researches, with the reason: listed under "Not covered" in the report and in plan.json (not_covered)') : l10n.t('Every item of the goal is in some step of the plan');
  return line;
}
