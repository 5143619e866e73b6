/**
 * What the Notebook and Codes views show, built in the engine from core's workbench files and the
 * indexed corpus (pure): each pinned span with its item's title, where it is in words and its file
 * and lines; notebook entries with their line in notebook.md; codes in the codebook's tree order
 * with their segments in reading order and counts; the code × item table. Labels in words come
 * from the loaded item when the span still fits it, else from what the span stored.
 */
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import type { Corpus, CorpusItem } from '../core/corpus/types';
import { linesLabel } from '../core/research/citationLinks';
import { codeItemTable, segmentsByCode } from '../core/workbench/codeQueries';
import { nextColour } from '../core/workbench/codebookStore';
import { formatNotebookProblem } from '../core/workbench/notebookFormat';
import type { NotebookRead } from '../core/workbench/notebookStore';
import { partText } from '../core/workbench/pins';
import type { ReanchorReport } from '../core/workbench/reanchor';
import type { CodedSegment, Codebook, Codings, PinnedSpan } from '../core/workbench/schema';
import type { SuggestedCode } from '../core/workbench/suggestedCodes';
import type { CodeItemTableResult, CodesViewResult, CodeView, NotebookEntryView, NotebookViewResult, PinnedSpanView, ReanchorSummaryView, SegmentView } from '../shared/workbenchProtocol';

export type ItemsById = ReadonlyMap<string, CorpusItem>;

export function itemsById(corpus: Pick<Corpus, 'items'> | undefined): ItemsById {
  return new Map((corpus?.items ?? []).map((it) => [it.id, it]));
}

/** A pinned span as the views show it (see {@link PinnedSpanView}). */
export function spanView(span: PinnedSpan, item: CorpusItem | undefined): PinnedSpanView {
  const text = item && partText(item, span.part);
  // The place in words from the item as it is when the span is still its text; a lost span says where it was.
  const fits = !span.lost && text !== undefined && span.end <= text.length && text.slice(span.start, span.end) === span.quote;
  const s = span.source;
  return {
    itemId: span.itemId,
    itemTitle: item?.title ?? span.itemTitle ?? span.itemId,
    part: span.part,
    start: span.start,
    end: span.end,
    quote: span.quote,
    file: s.file,
    range: { startLine: s.startLine, startColumn: s.startColumn, endLine: s.endLine, endColumn: s.endColumn },
    fileLine: linesLabel(s),
    location: fits && item ? locationLabel(item, span.part, span.start, span.end, { title: false }) : storedLocationLabel(s, span.part),
    lost: span.lost?.reason ?? null,
  };
}

/** The Notebook view: the entries of notebook.md in order, each with its line; the problems of the file. */
export function notebookViewOf(read: NotebookRead, root: string, file: string, items: ItemsById): NotebookViewResult {
  const entries: NotebookEntryView[] = [];
  read.blocks.forEach((b, k) => {
    if (b.type !== 'entry') return;
    const e = b.entry;
    entries.push({
      id: e.id,
      kind: e.kind,
      title: e.title,
      text: e.text ?? null,
      note: e.note ?? null,
      createdAt: e.createdAt,
      spans: e.spans.map((s) => spanView(s, items.get(s.itemId))),
      line: read.ranges[k]?.start ?? 0,
    });
  });
  return { root, file, exists: read.exists, lang: read.lang, entries, problems: read.problems.map(formatNotebookProblem) };
}

export function segmentView(s: CodedSegment, items: ItemsById): SegmentView {
  return { id: s.id, codeId: s.codeId, span: spanView(s.span, items.get(s.span.itemId)), memo: s.memo?.text ?? null, createdAt: s.createdAt };
}

/** The Codes view: every code (tree order) with its segments across items (reading order), the segments of codes no longer in the codebook, suggestions. */
export function codesViewOf(root: string, book: Codebook, codings: Codings, corpus: Pick<Corpus, 'items'> | undefined, suggested: readonly SuggestedCode[], problems: string[] = []): CodesViewResult {
  const items = itemsById(corpus);
  const order = (corpus?.items ?? []).map((it) => it.id);
  const { codes, unknown } = segmentsByCode(book, codings, order);
  return {
    root,
    codes: codes.map((c) => ({
      ...codeView(c.code, c.depth, c.segments, c.subtreeCount),
      segments: c.segments.map((s) => segmentView(s, items)),
    })),
    unknown: unknown.map((s) => segmentView(s, items)),
    suggested: suggested.map((s) => ({ topic: s.topic, markers: s.markers, items: s.items })),
    nextColour: nextColour(book),
    problems,
  };
}

/** A code with its counts. */
export function codeView(code: Codebook['codes'][number], depth: number, segments: readonly CodedSegment[], subtreeCount = segments.length): CodeView {
  return {
    id: code.id,
    name: code.name,
    colour: code.colour,
    description: code.description ?? null,
    memo: code.memo?.text ?? null,
    parentId: code.parentId ?? null,
    depth,
    count: segments.length,
    subtreeCount,
    items: new Set(segments.map((s) => s.span.itemId)).size,
  };
}

/** The code × item table with the items' titles (every item of the corpus a column, in its order). */
export function codeItemTableOf(book: Codebook, codings: Codings, corpus: Pick<Corpus, 'items'> | undefined): CodeItemTableResult {
  const items = itemsById(corpus);
  const t = codeItemTable(book, codings, (corpus?.items ?? []).map((it) => it.id));
  const stored = new Map(codings.segments.map((s) => [s.span.itemId, s.span.itemTitle]));
  return {
    items: t.items.map((id) => ({ id, title: items.get(id)?.title ?? stored.get(id) ?? id })),
    rows: t.rows.map((r) => ({ codeId: r.code.id, name: r.code.name, colour: r.code.colour, depth: r.depth, counts: r.counts, total: r.total })),
    itemTotals: t.itemTotals,
    total: t.total,
    unknownCode: t.unknownCode,
  };
}

/** What re-anchoring did, in counts; `lostBefore`: `owner:index` of the spans flagged lost before it (the others lost now are new). */
export function reanchorSummary(r: ReanchorReport, lostBefore: ReadonlySet<string>): ReanchorSummaryView {
  return { spans: r.spans, moved: r.moved.length, lost: r.lost.length, newlyLost: r.lost.filter((c) => !lostBefore.has(`${c.owner}:${c.index}`)).length, written: r.written };
}
