/**
 * What the Codes view shows of the codebook and the coded segments: each code (in the codebook's
 * tree order) with its segments across items, and a code × item table of counts. Pure.
 */
import { descendantsOf } from './codebookStore';
import type { Code, Codebook, CodedSegment, Codings } from './schema';

/** A code, its depth in the tree (0: top level), its own segments, and how many its whole subtree has. */
export interface CodeSegments {
  code: Code;
  depth: number;
  segments: CodedSegment[];
  /** Segments of the code and of every code under it. */
  subtreeCount: number;
}

/** Segments in reading order: by item (in `itemOrder` when given, else by id), part (transcript first), offset. */
function sortSegments(list: CodedSegment[], itemOrder?: readonly string[]): CodedSegment[] {
  const rank = new Map((itemOrder ?? []).map((id, i) => [id, i]));
  const r = (id: string): number => rank.get(id) ?? Number.MAX_SAFE_INTEGER;
  return list.sort(
    (a, b) =>
      r(a.span.itemId) - r(b.span.itemId) ||
      (a.span.itemId < b.span.itemId ? -1 : a.span.itemId > b.span.itemId ? 1 : 0) ||
      (a.span.part === b.span.part ? 0 : a.span.part === 'transcript' ? -1 : 1) ||
      a.span.start - b.span.start ||
      a.span.end - b.span.end,
  );
}

/** The codes in tree order: each parent followed by its children (in codebook order), with their depth. */
export function codeTree(book: Codebook): { code: Code; depth: number }[] {
  const ids = new Set(book.codes.map((c) => c.id));
  const children = new Map<string | undefined, Code[]>();
  for (const c of book.codes) {
    const p = c.parentId !== undefined && ids.has(c.parentId) ? c.parentId : undefined;
    children.set(p, [...(children.get(p) ?? []), c]);
  }
  const out: { code: Code; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | undefined, depth: number): void => {
    for (const c of children.get(parent) ?? []) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      out.push({ code: c, depth });
      walk(c.id, depth + 1);
    }
  };
  walk(undefined, 0);
  return out;
}

/**
 * Every code with its segments across items, in tree order, and the segments whose code is no
 * longer in the codebook (`unknown`: kept, never dropped).
 */
export function segmentsByCode(book: Codebook, codings: Codings, itemOrder?: readonly string[]): { codes: CodeSegments[]; unknown: CodedSegment[] } {
  const byCode = new Map<string, CodedSegment[]>();
  for (const s of codings.segments) byCode.set(s.codeId, [...(byCode.get(s.codeId) ?? []), s]);
  const codes = codeTree(book).map(({ code, depth }) => {
    let subtreeCount = 0;
    for (const id of descendantsOf(book, code.id)) subtreeCount += byCode.get(id)?.length ?? 0;
    return { code, depth, segments: sortSegments([...(byCode.get(code.id) ?? [])], itemOrder), subtreeCount };
  });
  const known = new Set(book.codes.map((c) => c.id));
  return { codes, unknown: sortSegments(codings.segments.filter((s) => !known.has(s.codeId)), itemOrder) };
}

/** The segments of one code (with `withDescendants`, of the codes under it too), in reading order. */
export function segmentsOfCode(book: Codebook, codings: Codings, codeId: string, options: { withDescendants?: boolean; itemOrder?: readonly string[] } = {}): CodedSegment[] {
  const ids = options.withDescendants ? descendantsOf(book, codeId) : new Set([codeId]);
  return sortSegments(codings.segments.filter((s) => ids.has(s.codeId)), options.itemOrder);
}

/** Counts of segments per code (rows, in tree order) and item (columns). */
export interface CodeItemTable {
  /** Item ids of the columns: `itemOrder` (every one, coded or not) then any other coded item, by id. */
  items: string[];
  rows: { code: Code; depth: number; counts: number[]; total: number }[];
  /** Per column: segments of known codes in that item. */
  itemTotals: number[];
  total: number;
  /** Segments whose code is not in the codebook (not in the table). */
  unknownCode: number;
}

/**
 * The code × item table: how many segments of each code each item has.
 *
 * @example
 * codeItemTable(book, codings, corpus.items.map((i) => i.id)).rows[0] // { code: { name: 'safety', … }, counts: [3, 0, 1], total: 4 }
 */
export function codeItemTable(book: Codebook, codings: Codings, itemOrder: readonly string[] = []): CodeItemTable {
  const known = new Set(book.codes.map((c) => c.id));
  const items = [...new Set(itemOrder)];
  const extra = [...new Set(codings.segments.filter((s) => known.has(s.codeId)).map((s) => s.span.itemId))].filter((id) => !items.includes(id)).sort();
  items.push(...extra);
  const col = new Map(items.map((id, i) => [id, i]));
  const counts = new Map(book.codes.map((c) => [c.id, new Array<number>(items.length).fill(0)]));
  let unknownCode = 0;
  for (const s of codings.segments) {
    const row = counts.get(s.codeId);
    if (!row) unknownCode++;
    else row[col.get(s.span.itemId)!]!++;
  }
  const rows = codeTree(book).map(({ code, depth }) => {
    const c = counts.get(code.id)!;
    return { code, depth, counts: c, total: c.reduce((a, b) => a + b, 0) };
  });
  const itemTotals = items.map((_, i) => rows.reduce((a, r) => a + r.counts[i]!, 0));
  return { items, rows, itemTotals, total: itemTotals.reduce((a, b) => a + b, 0), unknownCode };
}
