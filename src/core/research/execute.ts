/**
 * Phase 3: one plan step. A step starts from the marker overview of its items — never from
 * truncated text — and runs up to `max_followups_per_step` more rounds in which the model's
 * requests are served by the retrieval handler under the step's context budget. Findings cite
 * the source ids (`S3`) of what was served, or marker ids (resolved to their evidence spans).
 * The extractive engine runs the same loop without a model: it requests the step's relevant
 * markers and passages about the step's question, and quotes the served sentences that speak most
 * to the question, best first, each citing its own span (`findingSelection.ts`).
 *
 * Items with a fresh local condensation (`marker-research condense`) have a level between markers
 * and full content: `condensed_claims`, the condensation's claims served with their exact
 * evidence spans as sources. The step's overview says which items have it; the extractive engine
 * asks for it instead of topic passages or marker lists of those items.
 */
import { estimateTokens } from '../llm/tokens';
import { isCancellation, isContextLengthError, type ChatMessage } from '../llm/types';
import type { MarkerKind } from '../markers/schema';
import { allMarkers } from '../markers/store';
import { tokenize } from '../search/tokenize';
import { isContentFree } from '../text/contentFree';
import { CancelledError, throwIfAborted } from '../util/abort';
import { dedupeFindings } from './citations';
import { describeCondensed, loadCondensedClaims } from './condensedSource';
import { failureCause } from './failures';
import { FINDING_LIMITS, selectFindings, type EvidenceHint, type ServedSpan } from './findingSelection';
import { checkFinding, supportMark } from './findingSupport';
import type { RetrievalHandler } from './handler';
import { formatMarkerOverview, type MarkerOverview } from './overview';
import { stepReplyWireSchema, type PlanStep, type RequestLogEntry, type SourceSpan, type StepResult } from './schema';
import type { Session } from './session';
import { stepQuestion, type StepQuestion } from './stepQuestion';

/** What a finished (or failed) step produced. */
export interface StepOutcome {
  result: StepResult;
  entries: RequestLogEntry[];
}

type StepFinding = StepResult['findings'][number];

/** Maps a finding's cited ids to served source ids (marker ids via their evidence); unknown ones are dropped. */
function resolveSourceIds(ids: readonly string[], handler: RetrievalHandler, s: Session, stepId: string): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const id = String(raw).replace(/^\[|\]$/g, '').trim();
    let sid: string | undefined;
    if (handler.registry.get(id)) sid = id;
    else if (handler.marker(id)) sid = handler.sourceForMarker(id)?.source_id;
    if (sid) {
      if (!out.includes(sid)) out.push(sid);
    } else s.log.warn(`research: step ${stepId}: a finding cites unknown source "${id.slice(0, 60)}"; dropped`);
  }
  return out;
}

/** The item ids a (raw) content request names, for the step's deferred list. */
function requestItems(raw: unknown, handler: RetrievalHandler): string[] {
  const q = (raw ?? {}) as { item_id?: unknown; item_ids?: unknown; marker_id?: unknown };
  const ids: string[] = [];
  if (typeof q.item_id === 'string' && handler.item(q.item_id)) ids.push(q.item_id);
  if (Array.isArray(q.item_ids)) for (const id of q.item_ids) if (typeof id === 'string' && handler.item(id)) ids.push(id);
  if (typeof q.marker_id === 'string') {
    const m = handler.marker(q.marker_id);
    if (m) ids.push(m.itemId);
  }
  return [...new Set(ids)];
}

/**
 * Fills `cited_by` of the step's log entries from its findings: an entry is cited by a finding
 * that cites one of its served spans — or, with `handler` (offline findings cite the sentence they
 * quote), a span inside one of them.
 */
function linkCitations(entries: RequestLogEntry[], findings: readonly StepFinding[], handler?: RetrievalHandler): void {
  for (const e of entries) {
    const ids = new Set(e.served.map((x) => x.source_id));
    const inside = (id: string): boolean => {
      const sp = handler?.registry.get(id);
      return !!sp && e.served.some((x) => x.item_id === sp.item_id && x.part === sp.part && x.start <= sp.start && sp.end <= x.end);
    };
    e.cited_by = findings.filter((f) => f.source_ids.some((id) => ids.has(id) || inside(id))).map((f) => f.finding_id);
  }
}

function kindsFor(step: PlanStep): MarkerKind[] {
  const g = step.step_id;
  if (/facts/.test(g)) return ['FACT', 'DATA'];
  if (/opinions/.test(g)) return ['OPINION'];
  if (/reception/.test(g) || step.required_data === 'comments') return ['OPINION', 'ENGAGEMENT', 'FACT'];
  return ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'];
}

/**
 * The served claims of a `condensed_claims` entry worth a finding: those sharing words with the
 * step's goal (at most five, best first), else the two most confident; each cites the source id
 * of its first evidence span.
 */
function relevantClaims(e: RequestLogEntry, handler: RetrievalHandler, query: ReadonlySet<string>): { text: string; confidence: number; sourceId: string }[] {
  const byClaim = new Map<string, string>();
  for (const sv of e.served) if (sv.claim_id && !byClaim.has(sv.claim_id)) byClaim.set(sv.claim_id, sv.source_id);
  const scored = [...byClaim].flatMap(([claimId, sourceId]) => {
    const c = handler.condensed?.claim(claimId)?.claim;
    if (!c) return [];
    let score = 0;
    for (const t of new Set(tokenize(`${c.text} ${c.category}`))) if (query.has(t)) score++;
    return [{ text: c.text.replace(/\s+/g, ' ').trim(), confidence: c.confidence, sourceId, score }];
  });
  const matching = scored.filter((x) => x.score > 0).sort((a, b) => b.score - a.score || b.confidence - a.confidence);
  return matching.length ? matching.slice(0, 5) : scored.sort((a, b) => b.confidence - a.confidence).slice(0, 2);
}

/** One load of the corpus's condensations per handler (a run's steps share it). */
const condensedLoads = new WeakMap<RetrievalHandler, Promise<void>>();

/** Hands the run's condensations to the handler (read once, on the first step that needs them). */
async function attachCondensed(s: Session, handler: RetrievalHandler): Promise<void> {
  if (handler.condensed) return;
  let load = condensedLoads.get(handler);
  if (!load) {
    load = loadCondensedClaims(s.corpus, s.log).then((c) => {
      if (!handler.condensed) handler.useCondensed(c);
    });
    condensedLoads.set(handler, load);
  }
  await load;
}

/** The step's overview with the note on which of its items have condensed claims (unchanged when none has). */
function withCondensedNote(ov: MarkerOverview, handler: RetrievalHandler, lang: 'en' | 'zh'): { text: string; tokens: number } {
  const note = describeCondensed(handler.condensed, ov.itemIds, lang);
  if (!note) return { text: ov.text, tokens: ov.tokens };
  const text = `${ov.text}\n\n---\n${note}`;
  return { text, tokens: estimateTokens(text) };
}

/** Markers a `selective_by_markers` step reads around, per item, when the plan names none of the item's. */
const MARKERS_PER_ITEM = 2;
/** Rounds an offline step takes at most: a bound on the loop, far above what the per-turn item limit and an item's chunks need. */
const OFFLINE_ROUND_LIMIT = 1000;
/** Passages a topic search serves per item: more for a step over few items, so one meeting is searched through. */
function topicResults(items: number): number {
  return items <= 2 ? 6 : items <= 6 ? 4 : 3;
}

/**
 * The first requests of an extractive step, one set per item, following the plan's strategy:
 * `selective_by_markers` reads the neighbourhoods of the item's relevant markers (the plan's, else
 * its best of the step's kinds and part; an item without markers is read in full);
 * `full_content` reads the whole item, paged in chunks when it is larger than the budget;
 * `markers_only` lists the item's markers of the step's kinds. Items with fresh condensed claims are
 * read at that level instead.
 */
function extractiveRequests(s: Session, step: PlanStep, handler: RetrievalHandler, condensedItems: readonly string[], question: StepQuestion): unknown[] {
  const kinds = kindsFor(step);
  const part = step.required_data === 'transcript_with_comments' ? {} : { part: step.required_data };
  const requests: unknown[] = condensedItems.map((id) => ({ type: 'condensed_claims', item_id: id, ...part }));
  const planned = new Map<string, string[]>();
  for (const id of step.marker_relevance) {
    const m = handler.marker(id);
    if (m) planned.set(m.itemId, [...(planned.get(m.itemId) ?? []), id]);
  }
  const inPart = (ev: { part: string } | undefined): boolean => !ev || step.required_data === 'transcript_with_comments' || ev.part === step.required_data;
  for (const id of step.required_content_items) {
    if (condensedItems.includes(id) || !handler.item(id)) continue;
    if (step.retrieval_strategy === 'full_content') requests.push({ type: 'full_content_item', item_id: id, ...part });
    else if (step.retrieval_strategy === 'markers_only') requests.push({ type: 'selective_markers', item_id: id, kinds });
    else {
      const own = s.markers.get(id);
      const ids = planned.get(id) ?? (own ? allMarkers(own).filter((m) => kinds.includes(m.kind) && inPart(m.evidence[0])).sort((a, b) => b.confidence - a.confidence).slice(0, MARKERS_PER_ITEM).map((m) => m.id) : []);
      if (ids.length) requests.push(...ids.map((marker_id) => ({ type: 'by_marker', marker_id, context_words: s.config.context_words })));
      else requests.push({ type: 'full_content_item', item_id: id, ...part });
    }
  }
  // Passages about the step's question in each item it reads by markers, so its findings answer the question, not only what the markers cover.
  if (step.retrieval_strategy === 'selective_by_markers' && question.words.length) {
    const readable = step.required_content_items.filter((id) => handler.item(id));
    const n = topicResults(readable.length);
    for (const id of readable) requests.push({ type: 'by_topic', topic: question.words.join(' '), item_ids: [id], max_results: n, ...part });
  }
  return requests;
}

/** The next page of a `full_content_item` served in chunks ("chunk k of n", k < n); undefined otherwise. */
function nextChunk(e: RequestLogEntry): unknown {
  const m = /chunk (\d+) of (\d+)/.exec(e.reason ?? '');
  if (e.status !== 'chunked' || !m || Number(m[1]) >= Number(m[2])) return undefined;
  return { ...(e.request as Record<string, unknown>), chunk: Number(m[1]) + 1 };
}

/**
 * The spans the offline steps of a run (one handler) quoted so far: a later step quotes the next
 * best sentences instead of repeating them (the run's findings are de-duplicated anyway).
 */
const quotedByRun = new WeakMap<RetrievalHandler, { itemId: string; part: string; start: number; end: number }[]>();

/** Runs one step with the extractive engine: reads what the plan's strategy says, findings from what was served. */
async function extractiveStep(s: Session, step: PlanStep, handler: RetrievalHandler, base: StepResult, runGoal: string): Promise<StepOutcome> {
  const ov = formatMarkerOverview(
    s.inputs.filter((x) => step.required_content_items.includes(x.item.id)),
    { goal: step.goal, maxItems: s.config.marker_overview_max_items, markersPerKind: s.config.overview_markers_per_kind, lang: s.lang },
  );
  const overviewTokens = withCondensedNote(ov, handler, s.lang).tokens;
  const budget = { used: overviewTokens };
  const stepItems = step.required_content_items.flatMap((id) => handler.item(id) ?? []);
  // What the step asks (the run's goal under a facet label), tokenized as the index does: findings are ranked by it.
  const question = stepQuestion(step.goal, runGoal, stepItems, handler.index);
  // Items with condensed claims are read at that level, before (instead of) their passages or marker lists.
  const condensedItems = step.required_content_items.filter((id) => handler.condensed?.isFresh(id));
  let pending = extractiveRequests(s, step, handler, condensedItems, question);
  const query = new Set(question.weights.size ? question.weights.keys() : tokenize(step.goal));
  // A question that names no topic (an overview goal) reads each item for its own topics.
  const itemTerms = (id: string): Map<string, number> => {
    const t = s.markers.get(id)?.transcript_summary?.topic_areas ?? [];
    const c = s.markers.get(id)?.comments_summary?.major_themes ?? [];
    return new Map(tokenize([...t, ...c].join(' ')).map((x) => [x, 1]));
  };
  const entries: RequestLogEntry[] = [];
  const findings: StepFinding[] = [];
  const unread: string[] = [];
  const served: ServedSpan[] = [];
  const hints: EvidenceHint[] = [];
  const add = (text: string, confidence: number, sourceIds: string | string[], judged = false): void => {
    // A finding is never content-free ("That's all there is to say, I guess about it."); selected sentences were judged in their item's language.
    if (!judged && isContentFree(text, undefined, { strict: true })) return;
    findings.push({ finding_id: `${step.step_id}-f${findings.length + 1}`, text, confidence, source_ids: typeof sourceIds === 'string' ? [sourceIds] : sourceIds, ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
  };
  let round = 0;
  // No model holds the rounds in its context offline, and no call costs anything: each round has the whole budget after
  // the overview, and rounds go on until every request is served — an item read in chunks to its last chunk, items past
  // the per-turn limit in later rounds — bounded by OFFLINE_ROUND_LIMIT, not by the model's follow-up rounds.
  for (; pending.length > 0 && round < OFFLINE_ROUND_LIMIT; round++) {
    throwIfAborted(s.signal);
    budget.used = overviewTokens;
    s.emit({ type: 'step', step_id: step.step_id, status: 'retrieving', round, ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
    const turn = handler.serveTurn(pending, budget, { stepId: step.step_id, round, itemScores: ov.itemScores, markerScores: ov.markerScores, defaultPart: step.required_data, lang: s.lang });
    const next: unknown[] = [];
    turn.entries.forEach((e, i) => {
      entries.push(e);
      s.emit({ type: 'request', step_id: step.step_id, round, request_type: String((e.request as { type?: unknown }).type), status: e.status, ...(e.reason ? { reason: e.reason } : {}) });
      const req = pending[i] as { type: string; marker_id?: string };
      // Deferred for the per-turn item limit: asked again next round; a budget deferral would not fit later either, so its items stay unread.
      if (e.status === 'deferred' && /max_content_items_per_turn/.test(e.reason ?? '')) next.push(req);
      else if (e.status === 'deferred') unread.push(...requestItems(req, handler));
      if (e.status !== 'served' && e.status !== 'chunked') return;
      // An item read in chunks is read on, one chunk a round, as the model path pages it.
      const more = nextChunk(e);
      if (more) next.push(more);
      if (req.type === 'condensed_claims') {
        for (const c of relevantClaims(e, handler, query)) add(c.text, c.confidence, c.sourceId);
        return;
      }
      // Everything else is read sentence by sentence below: the served spans, and the markers whose evidence was among them.
      // A topic search serves its passages best first: the first weighs most.
      const ranked = req.type === 'by_topic';
      e.served.forEach((sv, k) => {
        const item = handler.item(sv.item_id);
        if (!item || (sv.part !== 'transcript' && sv.part !== 'comments')) return;
        if (step.required_data !== 'transcript_with_comments' && sv.part !== step.required_data) return;
        served.push({ item, part: sv.part, start: sv.start, end: sv.end, ...(ranked ? { prior: 1 - k / e.served.length } : {}) });
        const markerId = handler.registry.get(sv.source_id)?.marker_id;
        const m = markerId ? handler.marker(markerId)?.marker : undefined;
        if (m) hints.push({ itemId: item.id, part: sv.part, start: sv.start, end: sv.end, kind: m.kind, confidence: m.confidence });
      });
    });
    for (const src of turn.sources) if (!base.sources.some((x) => x.source_id === src.source_id)) base.sources.push(src);
    pending = next;
  }
  // The findings: the served sentences that speak most to the question, best first, one per turn or comment, each citing its own span.
  const n = stepItems.length;
  const quoted = quotedByRun.get(handler) ?? [];
  quotedByRun.set(handler, quoted);
  const selected = selectFindings(served, hints, {
    exclude: quoted,
    question,
    kinds: kindsFor(step),
    partOf: (item, part) => handler.servedPart(item, part),
    itemTerms,
    limit: Math.min(12, Math.max(6, 3 * n)),
    perItem: n <= 1 ? 6 : FINDING_LIMITS.perItem,
  });
  for (const f of selected) {
    // The finding's span, and the other places its claim was said in the same words.
    const ids: string[] = [];
    for (const p of [f, ...(f.also ?? [])]) {
      const item = handler.item(p.itemId);
      const src = item && handler.registry.register(item, p.part, p.start, p.end);
      if (!src) continue;
      if (!base.sources.some((x) => x.source_id === src.source_id)) base.sources.push(src);
      quoted.push(p);
      ids.push(src.source_id);
    }
    if (ids.length) add(f.text, Math.min(1, Math.round(f.score * 100) / 100), ids, true);
  }
  // Deferred: what did not fit the budget and what the rounds did not get to (a per-turn deferral served later is not) — said in the step and the report, never dropped silently.
  for (const id of [...unread, ...pending.flatMap((q) => requestItems(q, handler))]) if (!base.deferred.includes(id)) base.deferred.push(id);
  const deduped = dedupeFindings(findings, 0.8).map((f, i) => ({ ...f, finding_id: `${step.step_id}-f${i + 1}` }));
  linkCitations(entries, deduped, handler);
  const claimSources = new Set(entries.filter((e) => (e.request as { type?: unknown }).type === 'condensed_claims').flatMap((e) => e.served.map((x) => x.source_id)));
  const fromClaims = deduped.filter((f) => f.source_ids.some((id) => claimSources.has(id))).length;
  const result: StepResult = {
    ...base,
    status: 'done',
    rounds: round,
    findings: deduped,
    insights: [
      s.lang === 'zh' ? `抽取式：${deduped.length} 条发现，来自 ${new Set(base.sources.map((x) => x.item_id)).size} 个内容项。` : `Extractive: ${deduped.length} findings quoted from ${new Set(base.sources.map((x) => x.item_id)).size} items.`,
      ...(fromClaims ? [s.lang === 'zh' ? `其中 ${fromClaims} 条来自本地浓缩的论点（${condensedItems.length} 个内容项），每条都引用其证据片段。` : `${fromClaims} of them are condensed claims (local condensation of ${condensedItems.length} items), each citing its evidence span.`] : []),
    ],
    confidence: deduped.length ? Math.round((deduped.reduce((a, f) => a + f.confidence, 0) / deduped.length) * 100) / 100 : 0,
  };
  return { result, entries };
}

/**
 * Runs one step with the model: overview first, then requested content round by round. Each
 * finding is checked against the spans it cites (`findingSupport.ts`) and kept, marked
 * `unsupported` or `unsourced` when they do not support it.
 */
async function modelStep(s: Session, step: PlanStep, handler: RetrievalHandler, base: StepResult, runGoal: string): Promise<StepOutcome> {
  const prompt = await s.prompt('research-step');
  /** The step's overview at a size (markers per kind, items), and the first message built on it. */
  const open = (markersPerKind: number, maxItems: number) => {
    const built = formatMarkerOverview(
      s.inputs.filter((x) => step.required_content_items.includes(x.item.id)),
      { goal: step.goal, maxItems, markersPerKind, lang: s.lang, log: s.log },
    );
    const overview = withCondensedNote(built, handler, s.lang);
    const first = prompt.render({
      run_goal: runGoal,
      step_id: step.step_id,
      step_goal: step.goal,
      required_data: step.required_data,
      retrieval_strategy: step.retrieval_strategy,
      marker_relevance: step.marker_relevance.join(', ') || '-',
      overview: overview.text,
      max_items_per_turn: s.config.max_content_items_per_turn,
      context_budget: s.config.context_window_limit,
      max_rounds: s.config.max_followups_per_step + 1,
    });
    return { ov: built, overview, first, markersPerKind, maxItems };
  };
  let opened = open(s.config.overview_markers_per_kind, s.config.marker_overview_max_items);
  let ov = opened.ov;
  const messages = [...opened.first];
  const budget = { used: opened.overview.tokens };
  /**
   * Round 1 rejected for context length: the overview is rebuilt smaller (half the markers per
   * kind, down to one, then half the items shown, down to one) and the round sent again. False
   * when it is already at its smallest.
   */
  const shrinkOverview = (): boolean => {
    const before = opened.overview.tokens;
    // A step that does not make the overview smaller (short items already show one marker per kind) is skipped.
    do {
      const { markersPerKind: k, maxItems: n } = opened;
      if (k <= 1 && n <= 1) return false;
      opened = k > 1 ? open(Math.max(1, Math.floor(k / 2)), n) : open(k, Math.max(1, Math.floor(Math.min(n, opened.ov.itemIds.length) / 2)));
    } while (opened.overview.tokens >= before);
    ov = opened.ov;
    messages.splice(0, messages.length, ...opened.first);
    budget.used = opened.overview.tokens;
    s.log.warn(`research: step ${step.step_id}: the overview did not fit the model's context; sending it with ${opened.markersPerKind} marker(s) per kind and at most ${opened.maxItems} item(s)`);
    return true;
  };
  const entries: RequestLogEntry[] = [];
  const findings = new Map<string, StepFinding>();
  let insights: string[] = [];
  let confidence = 0;
  let round = 0;
  /** The last turn served: what it asked for and the state before it, so it can be served again smaller. */
  let last: { requests: readonly unknown[]; budget: number; entries: number; sources: number; deferred: number } | undefined;
  const turnMessage = (r: number, text: string): ChatMessage => ({
    role: 'user',
    content: `Round ${r + 1} of at most ${s.config.max_followups_per_step + 1} — served content (cite it by its [S…] ids):\n\n${text || '(nothing served)'}\n\nContinue step ${step.step_id}: reply with the complete, updated findings citing source ids, request more only if needed, and set "done": true when finished.`,
  });
  const call = () => s.call({ messages, schema: stepReplyWireSchema, schemaName: 'research_step', phase: 'execute', step: step.step_id });
  /**
   * A context-length rejection of a later round: the last turn is served again with fewer of its
   * requests (the newest half deferred each time, down to none), keeping every finding so far.
   * Undefined when even the conversation without the last turn's content does not fit.
   */
  const retrySmaller = async (rejection: unknown): Promise<Awaited<ReturnType<typeof call>> | undefined> => {
    const prev = last!;
    let keep = prev.requests.length;
    let error = rejection;
    for (;;) {
      keep = keep > 1 ? Math.floor(keep / 2) : 0;
      const why = `model context length: ${(error as Error).message.replace(/^llm:\s*/, '').slice(0, 200)}`;
      budget.used = prev.budget;
      entries.splice(prev.entries);
      base.sources.splice(prev.sources);
      base.deferred.splice(prev.deferred);
      const r = round - 1;
      const turn = handler.serveTurn(prev.requests.slice(0, keep), budget, { stepId: step.step_id, round: r, itemScores: ov.itemScores, markerScores: ov.markerScores, defaultPart: step.required_data, lang: s.lang });
      entries.push(...turn.entries);
      for (const src of turn.sources) if (!base.sources.some((x) => x.source_id === src.source_id)) base.sources.push(src);
      base.deferred.push(...turn.deferred.filter((d) => !base.deferred.includes(d)));
      const dropped = prev.requests.slice(keep);
      const droppedItems = dropped.flatMap((q) => requestItems(q, handler));
      base.deferred.push(...droppedItems.filter((d) => !base.deferred.includes(d)));
      const time = new Date().toISOString();
      for (const q of dropped) {
        entries.push({ time, step_id: step.step_id, round: r, request: q, status: 'deferred', reason: why, served: [], words: 0, cited_by: [] });
        s.emit({ type: 'request', step_id: step.step_id, round: r, request_type: String((q as { type?: unknown })?.type ?? '?'), status: 'deferred', reason: why });
      }
      s.log.warn(`research: step ${step.step_id} round ${round + 1} was rejected for context length; ${dropped.length} of ${prev.requests.length} requests of round ${round} deferred, retrying (${findings.size} findings kept)`);
      const note = s.lang === 'zh'
        ? `### 已推迟（模型上下文）\n模型的上下文容纳不下上一轮请求的全部内容，以下 ${dropped.length} 个请求未发送：${dropped.map((q) => String((q as { type?: unknown })?.type ?? '?')).join('、')}。请基于已有内容完成分析，或只请求更少的内容。`
        : `### Deferred (model context)\nThe model's context could not hold everything requested last round; ${dropped.length} request(s) were not sent: ${dropped.map((q) => String((q as { type?: unknown })?.type ?? '?')).join(', ')}. Finish with what you have, or request less.`;
      messages[messages.length - 1] = turnMessage(r, [turn.text, note].filter(Boolean).join('\n\n'));
      try {
        return await call();
      } catch (e) {
        if (!isContextLengthError(e)) throw e;
        error = e;
        if (keep === 0) return undefined;
      }
    }
  };
  for (; round <= s.config.max_followups_per_step; round++) {
    s.emit({ type: 'step', step_id: step.step_id, status: 'running', round, ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
    let r: Awaited<ReturnType<typeof call>> | undefined;
    try {
      r = await call();
    } catch (e) {
      if (isContextLengthError(e) && !last) {
        // Round 1: a smaller overview, again and again; the step fails only when the smallest does not fit.
        if (!shrinkOverview()) throw e;
        round--;
        continue;
      }
      // A later round keeps what the step found.
      if (!isContextLengthError(e) || !last) throw e;
      r = await retrySmaller(e);
      if (!r) {
        s.log.warn(`research: step ${step.step_id}: round ${round + 1} does not fit the model's context even without new content; the step ends with the ${findings.size} findings of its first ${round} rounds`);
        insights = [...insights, s.lang === 'zh' ? `第 ${round + 1} 轮超出模型上下文，本步骤保留前 ${round} 轮的发现。` : `Round ${round + 1} exceeded the model's context; the step keeps the findings of its first ${round} rounds.`];
        break;
      }
    }
    const reply = r.value;
    for (const f of reply.findings) {
      const sources = resolveSourceIds(f.source_ids, handler, s, step.step_id);
      const id = `${step.step_id}-${String(f.finding_id).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || findings.size + 1}`;
      // Checked against the spans it cites: an unsupported or unsourced finding is kept, marked.
      const support = supportMark(checkFinding({ text: f.text, source_ids: sources }, handler));
      findings.set(id, { finding_id: id, text: f.text, confidence: f.confidence, source_ids: sources, ...(step.phase_name ? { phase_name: step.phase_name } : {}), ...(support ? { support } : {}) });
    }
    if (reply.insights.length) insights = reply.insights;
    confidence = reply.confidence;
    if (reply.done || !reply.requests.length || round === s.config.max_followups_per_step) {
      round++;
      break;
    }
    s.emit({ type: 'step', step_id: step.step_id, status: 'retrieving', round, ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
    last = { requests: reply.requests, budget: budget.used, entries: entries.length, sources: base.sources.length, deferred: base.deferred.length };
    const turn = handler.serveTurn(reply.requests, budget, { stepId: step.step_id, round, itemScores: ov.itemScores, markerScores: ov.markerScores, defaultPart: step.required_data, lang: s.lang });
    for (const e of turn.entries) {
      entries.push(e);
      s.emit({ type: 'request', step_id: step.step_id, round, request_type: String((e.request as { type?: unknown })?.type ?? '?'), status: e.status, ...(e.reason ? { reason: e.reason } : {}) });
    }
    for (const src of turn.sources) if (!base.sources.some((x) => x.source_id === src.source_id)) base.sources.push(src);
    base.deferred.push(...turn.deferred.filter((d) => !base.deferred.includes(d)));
    messages.push({ role: 'assistant', content: JSON.stringify(reply) }, turnMessage(round, turn.text));
  }
  const list = [...findings.values()];
  // Findings citing marker ids got their evidence spans registered: add them to the step's sources.
  for (const f of list) for (const id of f.source_ids) {
    const span = handler.registry.get(id);
    if (span && !base.sources.some((x) => x.source_id === id)) base.sources.push(span);
  }
  linkCitations(entries, list);
  return { result: { ...base, status: 'done', rounds: round, findings: list, insights, confidence }, entries };
}

/**
 * Runs one plan step. A failure (other than cancellation) gives a `failed` result with the error;
 * cancellation throws {@link CancelledError}.
 */
export async function executeStep(s: Session, step: PlanStep, handler: RetrievalHandler, runGoal: string): Promise<StepOutcome> {
  const base: StepResult = { step_id: step.step_id, status: 'running', ...(step.phase_name ? { phase_name: step.phase_name } : {}), rounds: 0, findings: [], insights: [], confidence: 0, sources: [] as SourceSpan[], deferred: [] };
  s.emit({ type: 'step', step_id: step.step_id, status: 'running', ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
  try {
    throwIfAborted(s.signal);
    await attachCondensed(s, handler);
    const out = s.engine === 'extractive' ? await extractiveStep(s, step, handler, base, runGoal) : await modelStep(s, step, handler, base, runGoal);
    s.emit({ type: 'step', step_id: step.step_id, status: 'done', ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
    return out;
  } catch (error) {
    if (error instanceof CancelledError || isCancellation(error) || s.signal?.aborted) throw error instanceof CancelledError ? error : new CancelledError('research: cancelled');
    const message = (error as Error).message;
    const cause = failureCause(error);
    s.log.warn(`research: step ${step.step_id} failed: ${cause} (${message})`);
    s.emit({ type: 'step', step_id: step.step_id, status: 'failed', error: cause, ...(step.phase_name ? { phase_name: step.phase_name } : {}) });
    return { result: { ...base, status: 'failed', error: message, cause }, entries: [] };
  }
}

