/**
 * Where evidence opens, worked out on the loaded corpus: the ranges of spans
 * in an item's readable view, a marker's evidence (or, for a marker without
 * evidence, the turn or comment of the best search match of its text), and
 * the place of a span or of a place of the readable view in its original file.
 */
import * as l10n from '@vscode/l10n';
import { fileLineLabel, locationLabel } from '../core/corpus/locationLabel';
import { mapSpan } from '../core/corpus/spans';
import type { CorpusItem, PartKind, TextRange } from '../core/corpus/types';
import { readablePlaceAt, readableRanges } from '../core/markers/readableSpans';
import { allMarkers } from '../core/markers/store';
import { retrieve, type RetrievedSpan } from '../core/search/retrieve';
import { tokenize, tokenizeQuery } from '../core/search/tokenize';
import type { EvidenceSpan, MarkerResolution, OriginalFileTarget, OriginalPlace, OriginalPlaceParams, ReadableTarget } from '../shared/lspProtocol';
import type { EvidenceView } from '../shared/settings';
import { EngineError, type EngineState } from './engineState';
import { corpusPath } from './spanPlaces';
import type { ReadableLayouts } from './readableLayouts';

type PartSpan = Omit<EvidenceSpan, 'itemId'>;

/** The part's normalised text, or undefined when the item has no such part. */
export function partText(item: CorpusItem, part: PartKind): string | undefined {
  return (part === 'transcript' ? item.transcript : item.comments)?.text;
}

/** True when `span` lies inside the loaded item's part (a span of an older version of the item may not). */
export function fits(item: CorpusItem, span: PartSpan): boolean {
  const text = partText(item, span.part);
  return text !== undefined && span.start >= 0 && span.end >= span.start && span.end <= text.length;
}

/** A range's four fields only (stored source ranges carry times and speakers too). */
const rangeOnly = (r: TextRange): TextRange => ({ startLine: r.startLine, startColumn: r.startColumn, endLine: r.endLine, endColumn: r.endColumn });
const isEmpty = (r: TextRange): boolean => r.startLine === r.endLine && r.startColumn === r.endColumn;
const at = (r: TextRange): string => `${r.startLine + 1}:${r.startColumn + 1}-${r.endLine + 1}:${r.endColumn + 1}`;

/**
 * `spans` of `item` in its readable view: per span the ranges of the lines it
 * covers that show text (the first one when none does, e.g. an empty span).
 */
export function readableTarget(layouts: ReadableLayouts, item: CorpusItem, spans: readonly PartSpan[]): ReadableTarget {
  const { layout } = layouts.get(item);
  const shown = spans.map((s) => {
    const pieces = readableRanges(layout, s.part, s.start, s.end);
    const visible = pieces.filter((r) => !isEmpty(r));
    return { span: { itemId: item.id, part: s.part, start: s.start, end: s.end }, ranges: visible.length ? visible : pieces.slice(0, 1) };
  });
  const first = spans[0];
  const src = first && mapSpan(item, first);
  return {
    kind: 'readable',
    itemId: item.id,
    spans: shown,
    label: first ? locationLabel(item, first.part, first.start, first.end, { title: false }) : '',
    originalLabel: src ? fileLineLabel({ file: src.file.relPath, startLine: src.range.startLine }) : null,
    textLength: layout.text.length,
    lineCount: layout.lineCount,
  };
}

/** The readable view of spans of item `itemId`, or null when no corpus is loaded, the item is not in it or a span does not fit. */
export function readableSpans(state: EngineState, layouts: ReadableLayouts, itemId: string, spans: readonly PartSpan[]): ReadableTarget | null {
  const item = state.item(itemId);
  if (!item || !spans.length || !spans.every((s) => fits(item, s))) return null;
  return readableTarget(layouts, item, spans);
}

// ---- markers ---------------------------------------------------------------------------------

/**
 * Where marker `markerId` of item `itemId` opens: its first evidence, with the
 * marker's other evidence in the same part, in the readable view or the
 * original file (every evidence of that file); without evidence, the best
 * search match of its text.
 */
export async function resolveMarker(state: EngineState, layouts: ReadableLayouts, itemId: string, markerId: string, view: EvidenceView): Promise<MarkerResolution> {
  const corpus = state.requireCorpus();
  const item = state.item(itemId);
  const entry = state.markers().get(itemId);
  const marker = entry?.ok ? allMarkers(entry.value).find((m) => m.id === markerId) : undefined;
  if (!item || !entry?.ok || !marker) throw new EngineError('not-found', l10n.t('no marker "{0}" for item "{1}"; run Index Corpus or Generate Markers again.', markerId, itemId));
  const stale = entry.value.content_hash !== item.contentHash;
  const first = marker.evidence[0];
  if (!first) return bySearch(state, layouts, itemId, marker.id, `${marker.text} ${marker.topic}`.trim(), view);
  const s = first.source;
  const what = `marker ${marker.id} (${marker.kind})`;
  const samePart = marker.evidence.filter((e) => e.part === first.part);
  if (view === 'readable' && samePart.every((e) => fits(item, e))) {
    const target = readableTarget(layouts, item, samePart.map((e) => ({ part: e.part, start: e.start, end: e.end })));
    return { what, target, stale, log: `${what}: evidence ${s.file}:${at(s)}` };
  }
  const ranges = marker.evidence.filter((e) => e.source.file === s.file).map((e) => rangeOnly(e.source));
  const target: OriginalFileTarget = { kind: 'original', path: corpusPath(corpus.root, s.file), relPath: s.file, ranges };
  return { what, target, stale, log: `opened ${what} at ${s.file}:${at(s)}` };
}

/** The fallback of a marker without evidence: the turn or comment of the best search match of its text, in its item, else in the corpus. */
async function bySearch(state: EngineState, layouts: ReadableLayouts, itemId: string, markerId: string, query: string, view: EvidenceView): Promise<MarkerResolution> {
  const index = await state.searchIndex(state.requireCorpus());
  let scope = 'item';
  let span = retrieve(index, query, { itemIds: [itemId], budgetWords: 1000 }).spans.find((x) => x.source);
  if (!span) {
    scope = 'corpus';
    span = retrieve(index, query, { budgetWords: 1000 }).spans.find((x) => x.source);
  }
  const what = `the best search match for marker ${markerId}`;
  if (!span?.source) {
    return {
      what,
      target: null,
      stale: false,
      notice: l10n.t('this marker has no evidence span, and a search of its text found nothing in the corpus.'),
      log: `marker ${markerId} has no evidence and a search of its text found nothing`,
    };
  }
  const item = state.item(span.itemId);
  const best = item && bestUnit(item, span, query);
  const range = best?.range ?? span.source.range;
  const target: ReadableTarget | OriginalFileTarget =
    view === 'readable' && item
      ? readableTarget(layouts, item, [{ part: span.part, start: best?.start ?? span.start, end: best?.end ?? span.end }])
      : { kind: 'original', path: span.source.file.path, relPath: span.source.file.relPath, ranges: [rangeOnly(range)] };
  return {
    what,
    target,
    stale: false,
    notice: scope === 'corpus' ? l10n.t('this marker has no evidence span (ungrounded); opened the best search match for its text elsewhere in the corpus instead.') : l10n.t('this marker has no evidence span (ungrounded); opened the best search match for its text instead.'),
    log: `marker ${markerId} has no evidence span: opened the best search match in the ${scope} at ${span.source.file.relPath}:${range.startLine + 1}`,
  };
}

/**
 * Within a retrieved span (a chunk of several turns or comments), the turn or
 * comment that shares the most query terms: what the fallback of an ungrounded
 * marker opens.
 */
export function bestUnit(item: CorpusItem, span: RetrievedSpan, query: string): { start: number; end: number; range: TextRange } | undefined {
  const units = span.part === 'transcript' ? item.transcript?.segments : item.comments?.comments;
  const terms = new Set(tokenizeQuery(query));
  let best: { start: number; end: number; range: TextRange; score: number } | undefined;
  for (const u of units ?? []) {
    if (u.index < span.firstIndex || u.index > span.lastIndex) continue;
    const score = new Set(tokenize(u.text).filter((t) => terms.has(t))).size;
    if (score > (best?.score ?? 0)) best = { start: u.offset, end: u.offset + u.text.length, range: u.source, score };
  }
  return best && { start: best.start, end: best.end, range: best.range };
}

// ---- the original file ---------------------------------------------------------------------------

/** The turn or comment of `part` that holds offset `k`, as a span. */
export function unitAt(item: CorpusItem, part: PartKind, k: number): { start: number; end: number } | undefined {
  const units = part === 'transcript' ? item.transcript?.segments : item.comments?.comments.filter((c) => c.text.trim());
  let best: { start: number; end: number } | undefined;
  for (const u of units ?? []) {
    if (u.offset > k) break;
    best = { start: u.offset, end: u.offset + u.text.length };
  }
  return best;
}

/**
 * Where a span (an empty one: the turn or comment it sits in), or a place
 * (line, character) of the item's readable view, is in the original file.
 */
export function originalPlace(state: EngineState, layouts: ReadableLayouts, params: OriginalPlaceParams): OriginalPlace {
  const item = state.item(params.itemId);
  let target: PartSpan;
  if ('line' in params) {
    if (!item) throw new EngineError('not-found', l10n.t('no item "{0}" in the indexed corpus; run Index Corpus again.', params.itemId));
    const place = readablePlaceAt(layouts.get(item).layout, params.line, params.character);
    // Above the first unit (the title and metadata): the start of the item's first part.
    target = place ? { part: place.part, start: place.offset, end: place.offset } : { part: item.transcript?.text ? 'transcript' : 'comments', start: 0, end: 0 };
  } else target = { part: params.part, start: params.start, end: params.end };
  const text = item && partText(item, target.part);
  if (!item || text === undefined) throw new EngineError('not-found', l10n.t('no {0} of "{1}" in the indexed corpus; run Index Corpus again.', target.part, params.itemId));
  let { start, end } = target;
  if (end <= start) {
    const unit = unitAt(item, target.part, Math.min(start, Math.max(0, text.length - 1)));
    start = unit?.start ?? start;
    end = unit?.end ?? start;
  }
  const src = mapSpan(item, { part: target.part, start, end });
  if (!src) throw new EngineError('not-found', l10n.t('the span has no place in the {0} file of "{1}".', target.part, params.itemId));
  return {
    span: { itemId: item.id, part: target.part, start, end },
    path: src.file.path,
    relPath: src.file.relPath,
    range: rangeOnly(src.range),
    label: fileLineLabel({ file: src.file.relPath, startLine: src.range.startLine }),
  };
}
