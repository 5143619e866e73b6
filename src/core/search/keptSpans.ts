/**
 * A span made of consecutive chunks of one part (a search hit, a hit widened
 * by its neighbours, a merged passage): its text and its place in the
 * original file, from what the index kept of the chunks (their texts, ranges,
 * indices, times and speakers) — an item whose parsed parts are not held is
 * not read and parsed again for them. Where the index did not keep enough,
 * the item's parts are used ({@link chunkText}, {@link mapSpan}): the result
 * is the same either way.
 */
import * as path from 'node:path';
import { mapSpan, type SpanSource } from '../corpus/spans';
import type { CorpusItem } from '../corpus/types';
import { chunkText, type Chunk } from './chunker';
import type { CorpusIndex } from './corpusIndex';

/**
 * The chunks `ids` when they are consecutive chunks of one item's part, in
 * order (each starting at or after the end of the one before); else undefined.
 */
function consecutive(index: CorpusIndex, ids: readonly number[]): Chunk[] | undefined {
  const chunks: Chunk[] = [];
  for (const id of ids) {
    const c = index.chunk(id);
    const prev = chunks[chunks.length - 1];
    if (!c || (prev && (c.itemId !== prev.itemId || c.part !== prev.part || c.seq !== prev.seq + 1 || c.start < prev.end))) return undefined;
    chunks.push(c);
  }
  return chunks.length ? chunks : undefined;
}

/**
 * The text of the span covered by the consecutive chunks `ids` as the index
 * kept it: their texts joined by what lies between them in the part's text
 * (units are joined by newlines, so only newlines do). Undefined when a
 * chunk's text is not kept or `ids` are not consecutive chunks of one part.
 */
export function keptSpanText(index: CorpusIndex, ids: readonly number[]): string | undefined {
  const chunks = consecutive(index, ids);
  if (!chunks) return undefined;
  let text = '';
  for (const [i, c] of chunks.entries()) {
    const own = index.storedChunkText(ids[i]!);
    if (own === undefined || own.length !== c.end - c.start) return undefined;
    if (i > 0) text += '\n'.repeat(c.start - chunks[i - 1]!.end);
    text += own;
  }
  return text;
}

/**
 * Where the span covered by the consecutive chunks `ids` of `item` is in its
 * original file (as {@link mapSpan} gives it), from the chunks' kept places;
 * undefined when the index did not keep them (an older index), the item has
 * no facts, or the span's start time cannot be told from them (a timed
 * transcript whose first turn in the span has no start: a later turn's start
 * is in no chunk's fields). A transcript whose turns carry no times at all
 * gives none.
 */
export function keptSpanSource(root: string, item: CorpusItem, index: CorpusIndex, ids: readonly number[]): SpanSource | undefined {
  const chunks = consecutive(index, ids);
  const first = chunks?.[0];
  const last = chunks?.[chunks.length - 1];
  if (!chunks || !first || !last || first.itemId !== item.id || chunks.some((c) => !c.range)) return undefined;
  const rel = first.part === 'transcript' ? item.facts?.transcriptFile : item.facts?.commentsFile;
  if (!rel) return undefined;
  // The keys in the order mapSpan gives them.
  const out: SpanSource = {
    file: { path: path.join(root, ...rel.split('/')), relPath: rel },
    range: { startLine: first.range![0], startColumn: first.range![1], endLine: last.range![2], endColumn: last.range![3] },
    firstIndex: first.firstIndex,
    lastIndex: last.lastIndex,
    speakers: [],
  };
  if (first.part === 'transcript') {
    if (first.startTime === undefined && chunks.some((c) => c.startTime !== undefined || c.endTime !== undefined)) return undefined;
    out.startTime = first.startTime;
    out.endTime = [...chunks].reverse().find((c) => c.endTime !== undefined)?.endTime;
    out.speakers = [...new Set(chunks.flatMap((c) => c.speakers ?? []))];
  } else {
    if (chunks.some((c) => c.commentId === undefined)) return undefined;
    out.commentIds = chunks.map((c) => c.commentId!);
    out.speakers = [...new Set(chunks.flatMap((c) => c.speakers ?? []))];
  }
  return out;
}

/** {@link keptSpanText}, else the item's text of the span (which may parse the item). */
export function spanTextOf(index: CorpusIndex, item: CorpusItem, ids: readonly number[], span: Pick<Chunk, 'part' | 'start' | 'end'>): string {
  return keptSpanText(index, ids) ?? chunkText(item, span);
}

/** {@link keptSpanSource}, else the span mapped through the item's parts (which may parse the item). */
export function spanSourceOf(root: string, item: CorpusItem, index: CorpusIndex, ids: readonly number[], span: Pick<Chunk, 'part' | 'start' | 'end'>): SpanSource | undefined {
  return keptSpanSource(root, item, index, ids) ?? mapSpan(item, span);
}
