/**
 * Spans of normalised text and where they came from. A span is
 * `(item, part, start, end)` with offsets into the part's normalised text.
 */
import { pieceEnd, pieceStart } from './sourceMap';
import type { CommentRecord, CommentsPart, CorpusItem, PartKind, SourceFile, TextRange, TranscriptPart, TranscriptSegment } from './types';

export interface Span {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** Where a span sits in the original file, with what the format knows about it. */
export interface SpanSource {
  file: SourceFile;
  range: TextRange;
  /** Index of the first and last segment (turn, cue, line) or comment the span touches. */
  firstIndex: number;
  lastIndex: number;
  /** Seconds, where the format has timestamps. */
  startTime?: number;
  endTime?: number;
  speakers: string[];
  /** Comment ids, for a comments span. */
  commentIds?: string[];
}

type Unit = TranscriptSegment | CommentRecord;

/** Units of a part that carry text, in offset order. */
/** Non-empty comments of a comments part, computed once per part (span mapping runs per search hit and per marker). */
const liveComments = new WeakMap<CommentsPart, CommentRecord[]>();

function units(part: TranscriptPart | CommentsPart): Unit[] {
  if (part.kind === 'transcript') return part.segments;
  let list = liveComments.get(part);
  if (!list) liveComments.set(part, (list = part.comments.filter((c) => c.text.trim() !== '')));
  return list;
}

/** Index in `list` of the unit containing `offset`; an offset on a joining newline goes to the next unit. */
function unitAt(list: readonly Unit[], offset: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (list[mid]!.offset <= offset) lo = mid; else hi = mid - 1;
  }
  const u = list[lo]!;
  if (offset >= u.offset + u.text.length && lo + 1 < list.length) return lo + 1;
  return lo;
}

/**
 * Maps `[start, end)` of a part's normalised text back to the original file.
 * Returns undefined for an empty part or an empty/out-of-range span.
 *
 * @example
 * const src = mapSpanInPart(item.transcript!, 120, 180);
 * // src.range → lines/columns in transcript.json; src.startTime, src.speakers
 */
export function mapSpanInPart(part: TranscriptPart | CommentsPart, start: number, end: number): SpanSource | undefined {
  const list = units(part);
  start = Math.max(0, start);
  end = Math.min(part.text.length, end);
  if (!list.length || end <= start) return undefined;
  const a = unitAt(list, start);
  const z = unitAt(list, end - 1);
  const first = list[a]!;
  const last = list[z]!;
  const s = pieceStart(first.pieces, Math.max(0, start - first.offset));
  const e = pieceEnd(last.pieces, Math.min(last.text.length, Math.max(1, end - last.offset)));
  const touched = list.slice(a, z + 1);
  const out: SpanSource = {
    file: part.file,
    range: { startLine: s.line, startColumn: s.column, endLine: e.line, endColumn: e.column },
    firstIndex: first.index,
    lastIndex: last.index,
    speakers: [],
  };
  if (part.kind === 'transcript') {
    const segs = touched as TranscriptSegment[];
    out.startTime = segs.find((x) => x.start !== undefined)?.start;
    out.endTime = [...segs].reverse().find((x) => x.end !== undefined)?.end;
    out.speakers = [...new Set(segs.map((x) => x.speaker).filter((x): x is string => !!x))];
  } else {
    const cs = touched as CommentRecord[];
    out.commentIds = cs.map((c) => c.id);
    out.speakers = [...new Set(cs.map((c) => c.author).filter((x): x is string => !!x))];
  }
  return out;
}

/** Maps a span of an item; undefined when the item lacks the part. */
export function mapSpan(item: CorpusItem, span: Omit<Span, 'itemId'>): SpanSource | undefined {
  const part = span.part === 'transcript' ? item.transcript : item.comments;
  return part ? mapSpanInPart(part, span.start, span.end) : undefined;
}

/** A span's place as stored in marker and report files: file relative to the corpus root, zero-based range, time and speakers where known. */
export interface StoredRange extends TextRange {
  file: string;
  startTime?: number;
  endTime?: number;
  speakers?: string[];
  commentIds?: string[];
}

export function storedRange(src: SpanSource): StoredRange {
  return {
    file: src.file.relPath,
    ...src.range,
    ...(src.startTime !== undefined ? { startTime: src.startTime } : {}),
    ...(src.endTime !== undefined ? { endTime: src.endTime } : {}),
    ...(src.speakers.length ? { speakers: src.speakers } : {}),
    ...(src.commentIds ? { commentIds: src.commentIds } : {}),
  };
}
