/**
 * What Ask reads of a span from the search index instead of its item (issue 25): on a corpus held
 * lazily (openCorpus: parsed parts in a bounded PartStore), touching an item's `transcript` or
 * `comments` parses its files again, so a strategy or a filter that looks at every candidate's item
 * parses far more items than its answer names. The index keeps each window's offsets, times and
 * text: a window's time, a span's time, where a chapter starts, a span's text and words, and the
 * place of a span that is a run of whole windows come from there.
 *
 * @example
 * const t = spanTimeFromWindows(index, entities.item(id), id, 120, 480); // no parse
 */
import type { PartKind } from '../corpus/types';
import type { ChunkSpan } from '../search/chunkRows';
import type { CorpusIndex } from '../search/corpusIndex';
import { keptSpanText } from '../search/keptSpans';
import type { ItemEntities } from './entityIndex';

/** Items' windows by index, the most recently asked last: a question reads the same few items' windows many times. */
const windowMemo = new WeakMap<CorpusIndex, Map<string, { ids: readonly number[]; byPart: Map<PartKind, { id: number; c: ChunkSpan }[]> }>>();
/** Items whose windows are kept in the memo (~130 windows each on a 10,000-word item). */
const MEMO_ITEM_WINDOWS = 256;

/** The item's windows of `part` in order, with their ids (callers do not change them). */
export function partWindows(index: CorpusIndex, itemId: string, part: PartKind): readonly { id: number; c: ChunkSpan }[] {
  let memo = windowMemo.get(index);
  if (!memo) windowMemo.set(index, (memo = new Map()));
  const ids = index.itemChunkIds(itemId);
  let known = memo.get(itemId);
  // An item indexed again has a new list of ids: its windows are read again.
  if (known && known.ids !== ids) known = undefined;
  if (known) {
    memo.delete(itemId);
    memo.set(itemId, known);
  } else {
    const byPart = new Map<PartKind, { id: number; c: ChunkSpan }[]>();
    for (const id of ids) {
      const c = index.chunkSpan(id);
      if (!c) continue;
      const list = byPart.get(c.part);
      if (list) list.push({ id, c });
      else byPart.set(c.part, [{ id, c }]);
    }
    known = { ids, byPart };
    memo.set(itemId, known);
    if (memo.size > MEMO_ITEM_WINDOWS) memo.delete(memo.keys().next().value!);
  }
  return known.byPart.get(part) ?? [];
}

/**
 * Where the transcript is at `seconds`: the start of the window that time falls in (from the
 * windows' times; estimated from the item's duration by the share of text before it when the
 * transcript has no times), or undefined when the item has no time at all.
 */
export function windowAtTime(windows: readonly ChunkSpan[], ents: ItemEntities | undefined, seconds: number): number | undefined {
  if (!windows.length) return undefined;
  if (ents?.timed) return (windows.find((w) => (w.endTime ?? w.startTime ?? -1) >= seconds) ?? windows[windows.length - 1]!).start;
  if (!ents?.durationS) return undefined;
  const at = Math.floor(Math.min(1, Math.max(0, seconds / ents.durationS)) * windows[windows.length - 1]!.end);
  let found = windows[0]!;
  for (const w of windows) if (w.start <= at) found = w;
  return found.start;
}

/**
 * Start and end seconds of the transcript span [start, end) from the windows it overlaps (real
 * times: the first overlapping window's start, the last's end; else estimated from the item's
 * duration by its share of the text), or undefined when the item has no time at all. A window
 * holds whole turns, so the times are those of the turns around the span, as the turns' own times
 * would give them when the span is a run of whole windows.
 */
export function spanTimeFromWindows(index: CorpusIndex, ents: ItemEntities | undefined, itemId: string, start: number, end: number): { startS: number; endS: number; estimated: boolean } | undefined {
  const windows = partWindows(index, itemId, 'transcript').map((w) => w.c);
  if (!windows.length) return undefined;
  if (ents?.timed) {
    const over = windows.filter((w) => w.start < Math.max(end, start + 1) && start < w.end);
    const startS = over.find((w) => w.startTime !== undefined)?.startTime;
    const endS = [...over].reverse().find((w) => (w.endTime ?? w.startTime) !== undefined);
    if (startS === undefined || !endS) return undefined;
    return { startS, endS: (endS.endTime ?? endS.startTime)!, estimated: false };
  }
  const length = windows[windows.length - 1]!.end;
  if (!ents?.durationS || !length) return undefined;
  return { startS: (start / length) * ents.durationS, endS: (end / length) * ents.durationS, estimated: true };
}

/**
 * The text of the span [start, end) of the item's part as the index kept it (the covering run of
 * windows' kept texts, sliced), or undefined when the windows do not cover it or their text was
 * not kept.
 */
export function keptTextOfSpan(index: CorpusIndex, itemId: string, part: PartKind, start: number, end: number): string | undefined {
  const run = coveringRun(index, itemId, part, start, end);
  if (!run) return undefined;
  const text = keptSpanText(index, run.ids);
  return text === undefined ? undefined : text.slice(start - run.start, end - run.start);
}

/** The ids of the consecutive windows that cover [start, end), and where the first starts; undefined when none does. */
export function coveringRun(index: CorpusIndex, itemId: string, part: PartKind, start: number, end: number): { ids: number[]; start: number; end: number } | undefined {
  const windows = partWindows(index, itemId, part);
  const over = windows.filter((w) => w.c.start < Math.max(end, start + 1) && start < w.c.end);
  const first = over[0];
  const last = over[over.length - 1];
  if (!first || !last || first.c.start > start || last.c.end < end) return undefined;
  return { ids: over.map((w) => w.id), start: first.c.start, end: last.c.end };
}

/** The ids of the consecutive windows that are exactly the span [start, end), or undefined. */
export function exactRun(index: CorpusIndex, itemId: string, part: PartKind, start: number, end: number): number[] | undefined {
  const run = coveringRun(index, itemId, part, start, end);
  return run && run.start === start && run.end === end ? run.ids : undefined;
}

/** Items' kept texts by index, the most recently asked last (a question's name lookups read the same items again). */
const itemTextMemo = new WeakMap<CorpusIndex, Map<string, readonly string[] | undefined>>();
const MEMO_ITEM_TEXTS = 200;

/**
 * The item's texts as the index kept them — the transcript's windows joined, then the comments' —
 * or undefined when a window's text was not kept. Substring searches in them find what a search in
 * the parsed parts' texts finds (windows are joined by the newlines between them).
 */
export function keptItemTexts(index: CorpusIndex, itemId: string): readonly string[] | undefined {
  let memo = itemTextMemo.get(index);
  if (!memo) itemTextMemo.set(index, (memo = new Map()));
  if (memo.has(itemId)) {
    const known = memo.get(itemId);
    memo.delete(itemId);
    memo.set(itemId, known);
    return known;
  }
  const out: string[] = [];
  let failed = false;
  for (const part of ['transcript', 'comments'] as const) {
    const ids = partWindows(index, itemId, part).map((w) => w.id);
    if (!ids.length) continue;
    const text = keptSpanText(index, ids);
    if (text === undefined) failed = true;
    else out.push(text);
  }
  const value = failed ? undefined : out;
  memo.set(itemId, value);
  if (memo.size > MEMO_ITEM_TEXTS) memo.delete(memo.keys().next().value!);
  return value;
}
