/**
 * The sidebar's data, built from a loaded corpus and its markers (pure: no
 * VS Code, no DOM), and the filter the webview applies to it. The host builds
 * {@link SidebarState} with {@link sidebarStateFor}; the webview indexes it once
 * ({@link indexItems}), then filters ({@link parseFilter}, {@link matchItem}) and
 * sorts ({@link sortItems}) on every keystroke without folding text again.
 * Core types are imported as types only: nothing of core reaches the webview bundle.
 */
import * as l10n from '@vscode/l10n';
// The one value of core: the pure location formatter (host side only; tree-shaken out of the webview bundle).
import { locationLabel } from '../core/corpus/locationLabel';
import { factsOf, type Corpus, type CorpusItem } from '../core/corpus/types';
import type { EngineName, ItemMarkers, Marker } from '../core/markers/schema';
import type { Goal, NotCovered, Plan, RequestLogEntry, RunManifest, StepResult } from '../core/research/schema';
// Pure as well (host side only; tree-shaken out of the webview bundle): a reviewed plan's not-covered items.
import { reviewedCoverage } from '../core/research/planCoverage';
import { foldText } from './textFold';
import { ITEM_SPEAKERS_MAX } from './webviewProtocol';
import type {
  GoalView, ItemMarkersView, ItemSummary, MarkerGroup, MarkerGroupKey, MarkerKindName, MarkerSummary, ResearchRequestType, RunView, SidebarState, StepRequestsView, StepView,
} from './webviewProtocol';

/** An item's marker file as the extension holds it: read, or why it could not be. */
export type MarkerEntry = { ok: true; value: ItemMarkers } | { ok: false; error: string };

/** A marker group's heading in the display language (the engine's l10n bundle; read when the state is built). */
export function groupLabel(key: MarkerGroupKey): string {
  switch (key) {
    case 'facts': return l10n.t('Facts');
    case 'opinions': return l10n.t('Opinions');
    case 'data': return l10n.t('Data');
    case 'commentFacts': return l10n.t('Comment facts');
    case 'commentOpinions': return l10n.t('Comment opinions');
    case 'commentData': return l10n.t('Comment data');
    case 'engagement': return l10n.t('Top engagement');
    case 'themes': return l10n.t('Comment themes');
    case 'sentiment': return l10n.t('Sentiment');
  }
}

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

/** Where a marker's first evidence is, in words (`Daniel · 0:33`, `turn 215`, `@lena · 12 likes · 2024-03-14`), when its span fits the item. */
function markerLocation(marker: Marker, item: CorpusItem | undefined): string | null {
  const ev = marker.evidence[0];
  const text = ev && (ev.part === 'transcript' ? item?.transcript : item?.comments)?.text;
  return item && ev && text !== undefined && ev.end <= text.length ? locationLabel(item, ev.part, ev.start, ev.end, { title: false }) : null;
}

export function markerSummary(marker: Marker, engine: EngineName, item?: CorpusItem): MarkerSummary {
  return {
    id: marker.id,
    kind: marker.kind,
    text: marker.text,
    topic: marker.topic,
    confidence: marker.confidence,
    grounded: marker.grounded,
    engine,
    where: evidenceLabel(marker),
    location: markerLocation(marker, item),
    likes: marker.likes ?? null,
    replies: marker.replies ?? null,
    speakers: marker.evidence[0]?.source.speakers ?? [],
  };
}

/**
 * True when confidence tells the markers of an item apart: never for the
 * extractive engine (its confidence is a constant), nor when every marker has
 * the same value.
 */
export function confidenceInformative(engine: EngineName, markers: readonly Pick<MarkerSummary, 'confidence'>[]): boolean {
  if (engine === 'extractive' || markers.length < 2) return false;
  const first = markers[0]!.confidence;
  return markers.some((m) => Math.abs(m.confidence - first) > 1e-6);
}

/** The comments' overall sentiment in words (display language); an unknown value as it is. */
const sentimentLabel = (v: string): string => (v === 'mostly_positive' ? l10n.t('mostly positive') : v === 'mixed' ? l10n.t('mixed') : v === 'mostly_negative' ? l10n.t('mostly negative') : v);

/** The groups that come from an item's comments. */
export const COMMENT_GROUP_KEYS: ReadonlySet<MarkerGroupKey> = new Set<MarkerGroupKey>(['commentFacts', 'commentOpinions', 'commentData', 'engagement', 'themes', 'sentiment']);

/** The note under an item's comment groups when spam was excluded, or null: "3 comments look like spam, excluded". */
export function spamNote(count: number): string | null {
  return count > 0 ? (count === 1 ? l10n.t('1 comment looks like spam, excluded') : l10n.t('{0} comments look like spam, excluded', count)) : null;
}

/** The groups of an item's markers, in the sidebar's order; empty groups left out. */
export function markerGroups(m: ItemMarkers, item?: CorpusItem): MarkerGroup[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  const group = (key: MarkerGroupKey, markers: Marker[] = [], values: string[] = []): MarkerGroup => ({
    key,
    label: groupLabel(key),
    markers: markers.map((x) => markerSummary(x, m.engine, item)),
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
    group('sentiment', [], c ? [sentimentLabel(c.sentiment_overview)] : []),
  ];
  return groups.filter((g) => g.markers.length || g.values.length);
}

export function itemMarkersView(item: CorpusItem, m: ItemMarkers): ItemMarkersView {
  const groups = markerGroups(m, item);
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
    confidenceInformative: confidenceInformative(m.engine, all),
  };
}

/** A non-negative count from metadata (`like_count: 1674`, `likes: "12"`), or null. */
function metaCount(...values: unknown[]): number | null {
  for (const v of values) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/u.test(v.trim()) ? Number(v) : NaN;
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return null;
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
  if (!withMarkers.length) return problems ? (problems === 1 ? l10n.t('No markers · 1 marker file unreadable') : l10n.t('No markers · {0} marker files unreadable', problems)) : items.length ? l10n.t('No markers yet') : null;
  const total = withMarkers.reduce((a, i) => a + i.markers!.total, 0);
  const grounded = withMarkers.reduce((a, i) => a + i.markers!.grounded, 0);
  const engines = [...new Set(withMarkers.map((i) => i.markers!.engine))].sort().join(' + ');
  const parts = [total === 1 ? l10n.t('1 marker ({0})', engines) : l10n.t('{0} markers ({1})', total, engines), l10n.t('{0} grounded', grounded)];
  const missing = items.length - withMarkers.length;
  if (grounded < total) parts.push(l10n.t('{0} ungrounded', total - grounded));
  if (missing) parts.push(missing === 1 ? l10n.t('1 item without markers') : l10n.t('{0} items without markers', missing));
  const stale = withMarkers.filter((i) => i.markers!.stale).length;
  if (stale) parts.push(l10n.t('{0} stale', stale));
  if (problems) parts.push(l10n.t('{0} unreadable', problems));
  return parts.join(' · ');
}

/** One item of the view state: its facts and its markers (`entry`, as read from its marker file). */
export function sidebarItemFor(it: CorpusItem, entry: MarkerEntry | undefined): ItemSummary {
  // The item's facts: its parts are not read (nor parsed again, for a lazily held item) unless its markers need them.
  const facts = it.facts ?? factsOf(it.transcript, it.comments);
  return {
    id: it.id,
    title: it.title,
    transcriptSegments: facts.segments,
    comments: facts.comments,
    words: it.wordCount,
    publishedAt: typeof it.meta.published_at === 'string' && it.meta.published_at.trim() ? it.meta.published_at.trim() : null,
    likes: metaCount(it.meta['like_count'], it.meta['likes']),
    commentLikes: facts.commentLikes,
    speakers: facts.speakers.slice(0, ITEM_SPEAKERS_MAX),
    transcriptFile: facts.transcriptFile,
    commentsFile: facts.commentsFile,
    markers: entry?.ok ? itemMarkersView(it, entry.value) : null,
    markersProblem: entry && !entry.ok ? entry.error : null,
  };
}

/** The view state around items already made ({@link sidebarItemFor}, in corpus order). */
export function sidebarStateOf(corpus: Corpus, items: ItemSummary[], extras: SidebarExtras = {}): SidebarState {
  const s = corpus.stats;
  const issues = corpus.problems.filter((p) => p.severity !== 'info').length;
  return {
    status: 'ready',
    message: [
      l10n.t('Indexed {0} items', s.items),
      l10n.t('{0} words', s.words.toLocaleString('en-US')),
      l10n.t('{0} comments', s.comments),
      issues === 1 ? l10n.t('1 problem') : issues ? l10n.t('{0} problems', issues) : '',
      s.skipped ? l10n.t('{0} skipped', s.skipped) : '',
    ].filter(Boolean).join(' · '),
    markersMessage: extras.markersMessage !== undefined ? extras.markersMessage : markersLine(items),
    generating: extras.generating ?? false,
    corpusRoot: corpus.root,
    items,
    problems: corpus.problems.map((p) => ({ severity: p.severity, file: p.file, line: p.line === undefined ? null : p.line + 1, message: p.message })),
  };
}

/**
 * Builds the view state from a loaded corpus and the markers read for it.
 *
 * @example
 * sidebarStateFor(corpus, new Map([['item-1', { ok: true, value: itemMarkers }]]))
 */
export function sidebarStateFor(corpus: Corpus, markers: ReadonlyMap<string, MarkerEntry> = new Map(), extras: SidebarExtras = {}): SidebarState {
  return sidebarStateOf(corpus, corpus.items.map((it) => sidebarItemFor(it, markers.get(it.id))), extras);
}

// ---- what the kinds mean (the legend) -----------------------------------------------------

/** One line per kind: the legend of the kind badges and toggles. */
export function kindExplanation(kind: MarkerKindName): string {
  switch (kind) {
    case 'FACT': return l10n.t('something stated as true: an event, a result, who did what.');
    case 'OPINION': return l10n.t('a judgement, belief, preference or recommendation of a speaker or commenter.');
    case 'DATA': return l10n.t('a number with its meaning: an amount, a percentage, a date, a measurement.');
    case 'ENGAGEMENT': return l10n.t('what the audience responded to most: the comments with the most likes and replies.');
  }
}

// ---- the filter (applied in the webview) ------------------------------------------------

/**
 * Folds text for the filter: case, accents, width and traditional/simplified
 * Chinese (see {@link foldText}).
 */
export function foldForFilter(text: string): string {
  return foldText(text);
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

/** True when every term occurs in one of `texts` (case-, accent- and width-insensitive). */
export function textMatches(terms: readonly string[], ...texts: string[]): boolean {
  if (!terms.length) return true;
  const hay = foldForFilter(texts.join('\n'));
  return terms.every((t) => hay.includes(t));
}

/** A marker passes when its kind is on and its text, topic or speakers contain every term. */
export function markerMatches(marker: Pick<MarkerSummary, 'kind' | 'text' | 'topic'> & { speakers?: readonly string[] }, f: MarkerFilter): boolean {
  return f.kinds.has(marker.kind) && textMatches(f.terms, marker.text, marker.topic, ...(marker.speakers ?? []));
}

/** An item with its texts folded once, so filtering on a keystroke only compares strings. */
export interface IndexedItem {
  item: ItemSummary;
  /** Folded title, id and topic areas. */
  hay: string;
  /** Folded transcript speakers. */
  speakersHay: string;
  /** Per group (the item's `markers.groups` order): folded marker texts (text, topic, speakers) and values. */
  groups: { markers: string[]; values: string[] }[];
}

/** Folds the searchable texts of every item once (the webview does this when a state arrives). */
export function indexItems(items: readonly ItemSummary[]): IndexedItem[] {
  return items.map((item) => ({
    item,
    hay: foldForFilter([item.title, item.id, ...(item.markers?.topics ?? [])].join('\n')),
    speakersHay: foldForFilter(item.speakers.join('\n')),
    groups: (item.markers?.groups ?? []).map((g) => ({
      markers: g.markers.map((m) => foldForFilter([m.text, m.topic, ...m.speakers].join('\n'))),
      values: g.values.map((v) => foldForFilter(v)),
    })),
  }));
}

/** What the filter leaves of one group. */
export interface GroupMatch {
  /** Per marker: shown. */
  markers: boolean[];
  /** Per value (themes, sentiment): shown. */
  values: boolean[];
  /** Markers (or, for value groups, values) shown. */
  count: number;
  /** The group row is shown. */
  shown: boolean;
}

/** What the filter leaves of one item. */
export interface ItemMatch {
  /** The item row is shown. */
  visible: boolean;
  /** Markers of the item shown. */
  markers: number;
  /** Text matched under the item (not only its title): open it, and the groups with matches, to show them. */
  reveal: boolean;
  groups: GroupMatch[];
}

const hasAll = (terms: readonly string[], ...hays: string[]): boolean => terms.every((t) => hays.some((h) => h.includes(t)));
const hasAny = (terms: readonly string[], hay: string): boolean => terms.some((t) => hay.includes(t));

/**
 * Applies the filter to one item, as a tree filter does, node by node.
 * A term may occur in the marker (text, topic, speakers) or in the item's title,
 * id or topic areas: "nicolas precios" finds the markers about prices in the
 * item titled "Nicolás …". When the item alone holds every term, the markers that also
 * name a term themselves are shown (and revealed); when none does, every marker
 * of the kinds shown stays and the item is listed, not opened. Themes and
 * sentiment follow the text, never the kinds, and keep an item in view only
 * while searching text. An item whose speakers match stays listed even without
 * a matching marker.
 */
export function matchItem(ix: IndexedItem, f: MarkerFilter): ItemMatch {
  const terms = f.terms;
  const searching = terms.length > 0;
  const empty = filterIsEmpty(f);
  const byTitle = searching && hasAll(terms, ix.hay);
  const groups = ix.item.markers?.groups ?? [];
  // With a title match, markers (and values) that name a term themselves win over the rest.
  const own = (hay: string): boolean => hasAny(terms, hay);
  const anyOwn = byTitle && ix.groups.some((g, gi) => g.markers.some((h, mi) => f.kinds.has(groups[gi]!.markers[mi]!.kind) && own(h)) || g.values.some(own));
  const passes = (hay: string): boolean => !searching || (byTitle ? !anyOwn || own(hay) : hasAll(terms, hay, ix.hay));
  let markers = 0;
  let itemHits = 0;
  const result = groups.map((g, gi): GroupMatch => {
    const folded = ix.groups[gi] ?? { markers: [], values: [] };
    const ms = g.markers.map((m, mi) => f.kinds.has(m.kind) && passes(folded.markers[mi] ?? ''));
    const vs = g.values.map((_, vi) => passes(folded.values[vi] ?? ''));
    const markerHits = ms.filter(Boolean).length;
    const valueHits = vs.filter(Boolean).length;
    markers += markerHits;
    // Kinds narrow markers only: themes and sentiment stay, but never keep an item in view on their own.
    itemHits += markerHits + (searching ? valueHits : 0);
    const count = g.markers.length ? markerHits : valueHits;
    return { markers: ms, values: vs, count, shown: empty || count > 0 };
  });
  const visible = empty || itemHits > 0 || byTitle || (searching && hasAll(terms, ix.hay, ix.speakersHay));
  const reveal = searching && itemHits > 0 && (!byTitle || anyOwn);
  return { visible, markers, reveal, groups: result };
}

/** The filter line: "340 items · 3,412 markers", filtered "12 of 340 items · 48 of 3,412 markers". */
export function filterCountText(itemsShown: number, itemsTotal: number, markersShown: number, markersTotal: number, filtered: boolean): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const items = itemsTotal === 1 ? l10n.t('1 item') : l10n.t('{0} items', n(itemsTotal));
  const markers = markersTotal === 1 ? l10n.t('1 marker') : l10n.t('{0} markers', n(markersTotal));
  return filtered ? `${l10n.t('{0} of {1}', n(itemsShown), items)} · ${l10n.t('{0} of {1}', n(markersShown), markers)}` : `${items} · ${markers}`;
}

/**
 * What "nothing matches" says, with the kinds that are switched off:
 * `No markers match "nicolas" with DATA hidden.`, `Every marker kind is hidden.`
 */
export function noMatchText(query: string, kinds: ReadonlySet<MarkerKindName>): string {
  const hidden = ALL_KINDS.filter((k) => !kinds.has(k));
  const q = query.trim();
  if (hidden.length === ALL_KINDS.length) return q ? l10n.t('No items match "{0}", and every marker kind is hidden.', q) : l10n.t('Every marker kind is hidden: switch one on to see markers.');
  const off = hidden.join(', ');
  if (q) return off ? l10n.t('No items or markers match "{0}" with {1} hidden.', q, off) : l10n.t('No items or markers match "{0}".', q);
  return off ? l10n.t('No markers with {0} hidden.', off) : l10n.t('No markers.');
}

// ---- sorting items --------------------------------------------------------------------------

export const ITEM_SORTS = ['title', 'date', 'words', 'comments', 'likes'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];
/** A sort's name in the sort menu, in the display language. */
export function itemSortLabel(sort: ItemSort): string {
  switch (sort) {
    case 'title': return l10n.t('Title');
    case 'date': return l10n.t('Newest');
    case 'words': return l10n.t('Words');
    case 'comments': return l10n.t('Comments');
    case 'likes': return l10n.t('Likes');
  }
}

/** The likes an item is sorted by: its own, else its comments' added up. */
export function itemLikes(it: Pick<ItemSummary, 'likes' | 'commentLikes'>): number | null {
  return it.likes ?? it.commentLikes;
}

const titleCollator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * Items in the order of `sort` (a new array; stable): title A→Z, the rest
 * largest (newest) first; items without the value (no date, no comments) last,
 * by title.
 */
export function sortItems<T extends Pick<ItemSummary, 'title' | 'publishedAt' | 'words' | 'comments' | 'likes' | 'commentLikes'>>(items: readonly T[], sort: ItemSort): T[] {
  const key = (it: T): number | null => {
    switch (sort) {
      case 'title':
        return 0;
      case 'date': {
        const t = it.publishedAt ? Date.parse(it.publishedAt) : NaN;
        return Number.isFinite(t) ? t : null;
      }
      case 'words':
        return it.words;
      case 'comments':
        return it.comments;
      case 'likes':
        return itemLikes(it);
    }
  };
  return items
    .map((it, i) => ({ it, i, k: key(it) }))
    .sort((a, b) => {
      if (a.k === null || b.k === null) {
        if (a.k !== b.k) return a.k === null ? 1 : -1;
      } else if (a.k !== b.k) return b.k - a.k;
      return titleCollator.compare(a.it.title, b.it.title) || a.i - b.i;
    })
    .map((x) => x.it);
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
    coverage: f.plan?.scope_item_ids ? { scope: f.plan.scope_item_ids.length, notCovered: coverageCounts(reviewedCoverage(f.plan)) } : null,
  };
}

/** Not-covered items counted by reason, in the order the reasons first appear. */
function coverageCounts(list: readonly NotCovered[]): { reason: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const x of list) counts.set(x.reason, (counts.get(x.reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count }));
}
