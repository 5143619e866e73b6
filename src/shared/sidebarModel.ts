/**
 * The sidebar's data, built from a loaded corpus and its markers (pure: no
 * VS Code, no DOM), and the filter the webview applies to it. The host builds
 * {@link SidebarState} with {@link sidebarStateFor}; the webview narrows the
 * rendered tree with {@link parseFilter} and {@link markerMatches}.
 * Core types are imported as types only: nothing of core reaches the webview bundle.
 */
import type { Corpus, CorpusItem } from '../core/corpus/types';
import type { EngineName, ItemMarkers, Marker } from '../core/markers/schema';
import type { Goal, Plan, RequestLogEntry, RunManifest, StepResult } from '../core/research/schema';
import type {
  GoalView, ItemMarkersView, MarkerGroup, MarkerGroupKey, MarkerKindName, MarkerSummary, ResearchRequestType, RunView, SidebarState, StepRequestsView, StepView,
} from './webviewProtocol';

/** An item's marker file as the extension holds it: read, or why it could not be. */
export type MarkerEntry = { ok: true; value: ItemMarkers } | { ok: false; error: string };

export const GROUP_LABELS: Record<MarkerGroupKey, string> = {
  facts: 'Facts',
  opinions: 'Opinions',
  data: 'Data',
  commentFacts: 'Comment facts',
  commentOpinions: 'Comment opinions',
  commentData: 'Comment data',
  engagement: 'Top engagement',
  themes: 'Comment themes',
  sentiment: 'Sentiment',
};

/** `m:ss` or `h:mm:ss`, tenths kept when the time has them. */
export function formatTime(seconds: number): string {
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const whole = Math.floor(tenths / 10);
  const frac = tenths % 10;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const ss = `${String(s).padStart(2, '0')}${frac ? `.${frac}` : ''}`;
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Where a marker's first evidence is: `transcript.vtt:21 · 1:02 · Daniel`, or null without evidence. */
export function evidenceLabel(marker: Marker): string | null {
  const ev = marker.evidence[0];
  if (!ev) return null;
  const s = ev.source;
  const base = s.file.split('/').pop() ?? s.file;
  const parts = [`${base}:${s.startLine + 1}`];
  if (s.startTime !== undefined) parts.push(formatTime(s.startTime));
  if (s.speakers?.length) parts.push(s.speakers.join(', '));
  return parts.join(' · ');
}

export function markerSummary(marker: Marker, engine: EngineName): MarkerSummary {
  return {
    id: marker.id,
    kind: marker.kind,
    text: marker.text,
    topic: marker.topic,
    confidence: marker.confidence,
    grounded: marker.grounded,
    engine,
    where: evidenceLabel(marker),
    likes: marker.likes ?? null,
    replies: marker.replies ?? null,
  };
}

const SENTIMENT_LABELS: Record<string, string> = { mostly_positive: 'mostly positive', mixed: 'mixed', mostly_negative: 'mostly negative' };

/** The groups that come from an item's comments. */
export const COMMENT_GROUP_KEYS: ReadonlySet<MarkerGroupKey> = new Set<MarkerGroupKey>(['commentFacts', 'commentOpinions', 'commentData', 'engagement', 'themes', 'sentiment']);

/** The note under an item's comment groups when spam was excluded, or null: "3 comments look like spam, excluded". */
export function spamNote(count: number): string | null {
  return count > 0 ? `${count} ${count === 1 ? 'comment looks' : 'comments look'} like spam, excluded` : null;
}

/** The groups of an item's markers, in the sidebar's order; empty groups left out. */
export function markerGroups(m: ItemMarkers): MarkerGroup[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  const group = (key: MarkerGroupKey, markers: Marker[] = [], values: string[] = []): MarkerGroup => ({
    key,
    label: GROUP_LABELS[key],
    markers: markers.map((x) => markerSummary(x, m.engine)),
    values,
  });
  const groups = [
    group('facts', t?.key_facts),
    group('opinions', t?.key_opinions),
    group('data', t?.key_datapoints),
    group('commentFacts', c?.key_facts_from_comments),
    group('commentOpinions', c?.key_opinions_from_comments),
    group('commentData', c?.key_datapoints_from_comments),
    group('engagement', c?.top_engagement_markers),
    group('themes', [], c?.major_themes ?? []),
    group('sentiment', [], c ? [SENTIMENT_LABELS[c.sentiment_overview] ?? c.sentiment_overview] : []),
  ];
  return groups.filter((g) => g.markers.length || g.values.length);
}

export function itemMarkersView(item: CorpusItem, m: ItemMarkers): ItemMarkersView {
  const groups = markerGroups(m);
  const all = groups.flatMap((g) => g.markers);
  return {
    engine: m.engine,
    model: m.model,
    generatedAt: m.generated_at,
    total: all.length,
    grounded: all.filter((x) => x.grounded).length,
    stale: m.content_hash !== item.contentHash,
    topics: m.transcript_summary?.topic_areas ?? [],
    groups,
    spamExcluded: m.comments_summary?.spam?.count ?? 0,
  };
}

export interface SidebarExtras {
  /** Markers are being generated. */
  generating?: boolean;
  /** Overrides the marker line (e.g. "Generating markers…"). */
  markersMessage?: string | null;
}

/** The marker line: totals, engines and grounding, or null when there is nothing to say. */
export function markersLine(items: readonly { markers: ItemMarkersView | null; markersProblem: string | null }[]): string | null {
  const withMarkers = items.filter((i) => i.markers);
  const problems = items.filter((i) => i.markersProblem).length;
  if (!withMarkers.length) return problems ? `No markers · ${problems} marker file${problems > 1 ? 's' : ''} unreadable` : items.length ? 'No markers yet' : null;
  const total = withMarkers.reduce((a, i) => a + i.markers!.total, 0);
  const grounded = withMarkers.reduce((a, i) => a + i.markers!.grounded, 0);
  const engines = [...new Set(withMarkers.map((i) => i.markers!.engine))].sort().join(' + ');
  const parts = [`${total} marker${total === 1 ? '' : 's'} (${engines})`, `${grounded} grounded`];
  const missing = items.length - withMarkers.length;
  if (grounded < total) parts.push(`${total - grounded} ungrounded`);
  if (missing) parts.push(`${missing} item${missing > 1 ? 's' : ''} without markers`);
  const stale = withMarkers.filter((i) => i.markers!.stale).length;
  if (stale) parts.push(`${stale} stale`);
  if (problems) parts.push(`${problems} unreadable`);
  return parts.join(' · ');
}

/**
 * Builds the view state from a loaded corpus and the markers read for it.
 *
 * @example
 * sidebarStateFor(corpus, new Map([['item-1', { ok: true, value: itemMarkers }]]))
 */
export function sidebarStateFor(corpus: Corpus, markers: ReadonlyMap<string, MarkerEntry> = new Map(), extras: SidebarExtras = {}): SidebarState {
  const s = corpus.stats;
  const issues = corpus.problems.filter((p) => p.severity !== 'info').length;
  const items = corpus.items.map((it) => {
    const entry = markers.get(it.id);
    return {
      id: it.id,
      title: it.title,
      transcriptSegments: it.transcript ? it.transcript.segments.length : null,
      comments: it.comments ? it.comments.comments.length : null,
      words: it.wordCount,
      transcriptFile: it.transcript?.file.relPath ?? null,
      commentsFile: it.comments?.file.relPath ?? null,
      markers: entry?.ok ? itemMarkersView(it, entry.value) : null,
      markersProblem: entry && !entry.ok ? entry.error : null,
    };
  });
  return {
    status: 'ready',
    message: `Indexed ${s.items} items · ${s.words.toLocaleString('en-US')} words · ${s.comments} comments${issues ? ` · ${issues} problem${issues > 1 ? 's' : ''}` : ''}${s.skipped ? ` · ${s.skipped} skipped` : ''}`,
    markersMessage: extras.markersMessage !== undefined ? extras.markersMessage : markersLine(items),
    generating: extras.generating ?? false,
    corpusRoot: corpus.root,
    items,
    problems: corpus.problems.map((p) => ({ severity: p.severity, file: p.file, line: p.line === undefined ? null : p.line + 1, message: p.message })),
  };
}

// ---- the filter (applied in the webview) ------------------------------------------------

/** Folds case and width (NFKC: full-width Latin and digits become ASCII); CJK text is unchanged by case folding. */
export function foldForFilter(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en-US');
}

export interface MarkerFilter {
  /** Folded terms; every term must occur. Empty: no text filter. */
  terms: string[];
  /** Kinds shown; a marker of another kind is hidden. */
  kinds: ReadonlySet<MarkerKindName>;
}

export const ALL_KINDS: readonly MarkerKindName[] = ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'];

/** Parses the filter box: whitespace-separated terms (a Chinese phrase without spaces is one term). */
export function parseFilter(query: string, kinds: Iterable<MarkerKindName> = ALL_KINDS): MarkerFilter {
  return { terms: foldForFilter(query).split(/\s+/u).filter(Boolean), kinds: new Set(kinds) };
}

/** True when the filter narrows nothing. */
export function filterIsEmpty(f: MarkerFilter): boolean {
  return f.terms.length === 0 && ALL_KINDS.every((k) => f.kinds.has(k));
}

/** True when every term occurs in one of `texts` (case- and width-insensitive). */
export function textMatches(terms: readonly string[], ...texts: string[]): boolean {
  if (!terms.length) return true;
  const hay = foldForFilter(texts.join('\n'));
  return terms.every((t) => hay.includes(t));
}

/** A marker passes when its kind is on and its text or topic contains every term. */
export function markerMatches(marker: Pick<MarkerSummary, 'kind' | 'text' | 'topic'>, f: MarkerFilter): boolean {
  return f.kinds.has(marker.kind) && textMatches(f.terms, marker.text, marker.topic);
}

// ---- research: a persisted run as the sidebar shows it ----------------------------------------

export function goalView(g: Goal): GoalView {
  return { goalId: g.goal_id, title: g.title, rationale: g.rationale, items: g.item_ids.length, markers: g.marker_ids.length };
}

const REQUEST_TYPES: readonly ResearchRequestType[] = ['full_content_item', 'by_marker', 'by_topic', 'selective_markers'];

/** Counts of the requests of each step, from the run's `requests_log.jsonl` entries. */
export function requestsByStep(entries: readonly Pick<RequestLogEntry, 'step_id' | 'request' | 'status'>[]): Map<string, StepRequestsView> {
  const out = new Map<string, StepRequestsView>();
  for (const e of entries) {
    let v = out.get(e.step_id);
    if (!v) out.set(e.step_id, (v = { total: 0, byType: {}, served: 0, chunked: 0, deferred: 0, rejected: 0 }));
    v.total++;
    v[e.status]++;
    const type = e.request && typeof e.request === 'object' && 'type' in e.request ? (e.request as { type: unknown }).type : undefined;
    if (typeof type === 'string' && (REQUEST_TYPES as readonly string[]).includes(type)) {
      const t = type as ResearchRequestType;
      v.byType[t] = (v.byType[t] ?? 0) + 1;
    }
  }
  return out;
}

/** The pieces of a persisted run (any may be missing while the run is young). */
export interface RunFiles {
  manifest: RunManifest;
  plan?: Plan;
  steps?: ReadonlyMap<string, StepResult>;
  requests?: readonly Pick<RequestLogEntry, 'step_id' | 'request' | 'status'>[];
  /** Live statuses from the running pipeline: win over what is on disk. */
  live?: ReadonlyMap<string, StepView['status']>;
}

/**
 * The sidebar's view of a run: its plan steps in plan order, each with its
 * status (live, else the step file, else the manifest), findings and requests.
 */
export function runViewFor(f: RunFiles): RunView {
  const m = f.manifest;
  const byStep = requestsByStep(f.requests ?? []);
  const empty: StepRequestsView = { total: 0, byType: {}, served: 0, chunked: 0, deferred: 0, rejected: 0 };
  const planSteps = f.plan?.steps ?? Object.keys(m.steps).map((id) => ({ step_id: id, goal: '', required_content_items: [], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'markers_only', phase_name: undefined }));
  const steps: StepView[] = planSteps.map((p) => {
    const r = f.steps?.get(p.step_id);
    return {
      stepId: p.step_id,
      goal: p.goal,
      status: f.live?.get(p.step_id) ?? r?.status ?? m.steps[p.step_id] ?? 'pending',
      phaseName: p.phase_name ?? r?.phase_name ?? null,
      items: [...p.required_content_items],
      strategy: p.retrieval_strategy,
      requiredData: p.required_data,
      findings: r ? r.findings.length : null,
      rounds: r ? r.rounds : null,
      requests: byStep.get(p.step_id) ?? empty,
      error: r?.error ?? null,
    };
  });
  return {
    runId: m.run_id,
    goal: m.goal,
    complexity: m.complexity,
    engine: m.engine,
    model: m.model,
    status: m.status,
    createdAt: m.created_at,
    steps,
    report: m.report,
  };
}
