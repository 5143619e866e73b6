/**
 * Re-anchoring pinned spans after the corpus is indexed again (one function for notebook entries
 * and coded segments alike). A span whose text still equals its quote stays where it is. Otherwise
 * its quote is searched for in the item's current part text: exactly first, then ignoring white
 * space, case and character width (NFKC); where it occurs more than once, the occurrence nearest
 * the old offset is taken. A span whose quote cannot be found (or whose item or part is gone) is
 * flagged `lost` and keeps its old offsets: it is never moved silently. The result says which
 * spans moved, how they were matched, and which are lost.
 */
import { mapSpan, storedRange } from '../corpus/spans';
import type { Corpus, CorpusItem, PartKind } from '../corpus/types';
import { partText } from './pins';
import type { PinnedSpan } from './schema';

/** What became of a span: still in place, found elsewhere, or not found. */
export type AnchorOutcome = 'unchanged' | 'moved' | 'lost';

export interface AnchorResult {
  /** The span now (moved offsets and refreshed place; or flagged `lost`). */
  span: PinnedSpan;
  outcome: AnchorOutcome;
  /** How a moved span was found: its quote verbatim, or with white space, case and width ignored (the quote then becomes the text found). */
  match?: 'exact' | 'loose';
  /** The span was flagged lost before and is found again. */
  recovered?: boolean;
  /** The span as it was. */
  previous: PinnedSpan;
}

/** Re-anchoring of a list of spans: a result per span, in order, and the indexes that moved or are lost. */
export interface ReanchorSummary {
  results: AnchorResult[];
  moved: number[];
  lost: number[];
  unchanged: number;
}

/** The items of a corpus by id (a map is used as it is). */
export type ItemLookup = ReadonlyMap<string, CorpusItem> | Pick<Corpus, 'items'>;

export function itemsById(items: ItemLookup): ReadonlyMap<string, CorpusItem> {
  return items instanceof Map ? items : new Map((items as Pick<Corpus, 'items'>).items.map((it) => [it.id, it]));
}

/** A text with white space dropped and each character folded (NFKC, lower case), and where each folded character came from. */
interface Folded {
  text: string;
  /** Per folded UTF-16 unit: offset in the original of the character it came from, and that character's end. */
  from: number[];
  to: number[];
}

function fold(s: string): Folded {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    if (!/\s/u.test(ch)) {
      const f = ch.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
      for (let k = 0; k < f.length; k++) {
        from.push(i);
        to.push(next);
      }
      text += f;
    }
    i = next;
  }
  return { text, from, to };
}

/** Every offset of `needle` in `hay`. */
function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) out.push(at);
  return out;
}

/** The candidate nearest `old` (the earlier one on a tie). */
function nearest(cands: readonly [number, number][], old: number): [number, number] | undefined {
  let best: [number, number] | undefined;
  for (const c of cands) if (!best || Math.abs(c[0] - old) < Math.abs(best[0] - old)) best = c;
  return best;
}

/** Per item and part, the folded text (computed once per re-anchoring run). */
type FoldCache = Map<string, Folded>;

function placed(item: CorpusItem, span: PinnedSpan, start: number, end: number, text: string): PinnedSpan {
  const { lost: _lost, ...rest } = span;
  const src = mapSpan(item, { part: span.part, start, end });
  return { ...rest, start, end, quote: text.slice(start, end), source: src ? storedRange(src) : span.source };
}

function lostSpan(span: PinnedSpan, reason: NonNullable<PinnedSpan['lost']>['reason'], now: string): AnchorResult {
  const since = span.lost?.since ?? now;
  return { span: { ...span, lost: { reason, since } }, outcome: 'lost', previous: span };
}

/**
 * Re-anchors one span in `item` (undefined: the item is gone).
 * @param now ISO time a newly lost span is flagged with (a span lost before keeps its time).
 */
export function reanchorSpan(span: PinnedSpan, item: CorpusItem | undefined, now: string, cache: FoldCache = new Map()): AnchorResult {
  if (!item) return lostSpan(span, 'item-missing', now);
  const text = partText(item, span.part);
  if (text === undefined) return lostSpan(span, 'part-missing', now);
  const recovered = span.lost ? { recovered: true } : {};
  if (text.slice(span.start, span.end) === span.quote) {
    const now2 = placed(item, span, span.start, span.end, text);
    return { span: now2, outcome: 'unchanged', previous: span, ...recovered };
  }
  const exact = nearest(
    occurrences(text, span.quote).map((at) => [at, at + span.quote.length]),
    span.start,
  );
  if (exact) return { span: placed(item, span, exact[0], exact[1], text), outcome: 'moved', match: 'exact', previous: span, ...recovered };
  const key = `${item.id}\u0000${span.part satisfies PartKind}`;
  let folded = cache.get(key);
  if (!folded) cache.set(key, (folded = fold(text)));
  const q = fold(span.quote).text;
  const f = folded;
  const loose = nearest(
    occurrences(f.text, q).map((at) => [f.from[at]!, f.to[at + q.length - 1]!]),
    span.start,
  );
  if (loose) return { span: placed(item, span, loose[0], loose[1], text), outcome: 'moved', match: 'loose', previous: span, ...recovered };
  return lostSpan(span, 'quote-not-found', now);
}

/**
 * Re-anchors every span against the corpus as it is now (see the module comment).
 *
 * @example
 * const r = reanchorSpans(entries.flatMap((e) => e.spans), corpus, new Date().toISOString());
 * r.moved  // indexes of the spans found elsewhere; r.lost: not found (flagged, not moved)
 */
export function reanchorSpans(spans: readonly PinnedSpan[], items: ItemLookup, now: string): ReanchorSummary {
  const byId = itemsById(items);
  const cache: FoldCache = new Map();
  const results = spans.map((s) => reanchorSpan(s, byId.get(s.itemId), now, cache));
  const moved: number[] = [];
  const lost: number[] = [];
  let unchanged = 0;
  results.forEach((r, i) => {
    if (r.outcome === 'moved') moved.push(i);
    else if (r.outcome === 'lost') lost.push(i);
    else unchanged++;
  });
  return { results, moved, lost, unchanged };
}

/** Whether re-anchoring changed what is stored of a span (offsets, quote, place, flag). */
export function spanChanged(r: AnchorResult): boolean {
  return JSON.stringify(r.span) !== JSON.stringify(r.previous);
}

/** A span that moved or is lost, named by what holds it (a notebook entry's id and the span's index in it; a coded segment's id and 0). */
export interface SpanChange {
  owner: string;
  index: number;
  outcome: 'moved' | 'lost';
  match?: 'exact' | 'loose';
  reason?: NonNullable<PinnedSpan['lost']>['reason'];
  recovered?: boolean;
  from: { start: number; end: number };
  to: { start: number; end: number };
}

/** What re-anchoring a notebook or the codings did. */
export interface ReanchorReport {
  /** Spans looked at. */
  spans: number;
  unchanged: number;
  moved: SpanChange[];
  lost: SpanChange[];
  /** Whether the file was written (something changed). */
  written: boolean;
}

/**
 * Re-anchors spans held by owners (entries, segments): {@link reanchorSpans}, with what moved
 * and what is lost named by owner. `written` is left false for the caller to set.
 */
export function reanchorOwned(owned: readonly { owner: string; index: number; span: PinnedSpan }[], items: ItemLookup, now: string): { report: ReanchorReport; results: AnchorResult[] } {
  const sum = reanchorSpans(
    owned.map((o) => o.span),
    items,
    now,
  );
  const change = (i: number): SpanChange => {
    const r = sum.results[i]!;
    const o = owned[i]!;
    return {
      owner: o.owner,
      index: o.index,
      outcome: r.outcome === 'lost' ? 'lost' : 'moved',
      ...(r.match ? { match: r.match } : {}),
      ...(r.outcome === 'lost' ? { reason: r.span.lost!.reason } : {}),
      ...(r.recovered ? { recovered: true } : {}),
      from: { start: r.previous.start, end: r.previous.end },
      to: { start: r.span.start, end: r.span.end },
    };
  };
  return { results: sum.results, report: { spans: owned.length, unchanged: sum.unchanged, moved: sum.moved.map(change), lost: sum.lost.map(change), written: false } };
}
