/**
 * Cuts items into search documents: transcripts into turn-aligned windows of
 * about `windowWords` words (a turn longer than a window is split at sentence
 * ends), comments into one document per comment.
 */
import type { CorpusItem, PartKind, TranscriptPart } from '../corpus/types';
import { countWords, walkWords } from '../text/words';

export interface ChunkOptions {
  /** Target words per transcript window. */
  windowWords: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { windowWords: 200 };

/** One search document: a span of an item's part, with what filters need. */
export interface Chunk {
  itemId: string;
  part: PartKind;
  /** Position among the item's chunks of this part (for neighbours). */
  seq: number;
  /** Offsets into the part's normalised text. */
  start: number;
  end: number;
  /** First and last turn index (transcripts) or comment index (comments). */
  firstIndex: number;
  lastIndex: number;
  words: number;
  speakers?: string[];
  startTime?: number;
  endTime?: number;
  likes?: number;
  replyCount?: number;
  commentId?: string;
  parentId?: string;
  publishedAt?: string;
  /**
   * Where the span is in its part's file (zero-based start line, start
   * column, end line, end column), set when the chunk is indexed: a search hit
   * opens its place without the item being parsed again.
   */
  range?: [number, number, number, number];
}

const SENTENCE_END = /[.!?。！？；;…]+["'”’)）]*\s*/gu;

/** Splits `text` into pieces of at most about `maxWords` words at sentence ends. */
function sentencePieces(text: string, maxWords: number): [number, number][] {
  const bounds: number[] = [];
  for (const m of text.matchAll(SENTENCE_END)) bounds.push(m.index! + m[0].length);
  if (bounds[bounds.length - 1] !== text.length) bounds.push(text.length);
  const pieces: [number, number][] = [];
  let start = 0;
  let last = 0;
  for (const b of bounds) {
    if (wordsExceed(text, start, b, maxWords) && last > start) {
      pieces.push([start, last]);
      start = last;
    }
    last = b;
    // A single sentence longer than the window: cut it by characters.
    while (wordsExceed(text, start, last, maxWords * 2)) {
      const cut = hardCut(text, start, last, maxWords);
      pieces.push([start, cut]);
      start = cut;
    }
  }
  if (last > start) pieces.push([start, last]);
  return pieces;
}

/** True when `text[start, end)` has more than `limit` words; stops reading as soon as it knows. */
function wordsExceed(text: string, start: number, end: number, limit: number): boolean {
  let over = false;
  walkWords(text, start, end, (w) => (over = w > limit));
  return over;
}

/** The offset after about `maxWords` words from `start` (never `start` itself). */
function hardCut(text: string, start: number, end: number, maxWords: number): number {
  const lo = walkWords(text, start, end, (w) => w >= maxWords).offset;
  return Math.min(end, Math.max(start + 1, lo));
}

function transcriptChunks(item: CorpusItem, t: TranscriptPart, opts: ChunkOptions): Chunk[] {
  const out: Chunk[] = [];
  let cur: Chunk | undefined;
  const flush = (): void => {
    if (cur) out.push(cur);
    cur = undefined;
  };
  for (const seg of t.segments) {
    const w = countWords(seg.text);
    if (w > opts.windowWords * 1.5) {
      flush();
      for (const [a, b] of sentencePieces(seg.text, opts.windowWords)) {
        out.push({
          itemId: item.id, part: 'transcript', seq: 0, start: seg.offset + a, end: seg.offset + b, firstIndex: seg.index, lastIndex: seg.index,
          words: countWords(seg.text.slice(a, b)), speakers: seg.speaker ? [seg.speaker] : undefined, startTime: seg.start, endTime: seg.end,
        });
      }
      continue;
    }
    if (cur && cur.words + w > opts.windowWords * 1.25) flush();
    if (!cur) {
      cur = { itemId: item.id, part: 'transcript', seq: 0, start: seg.offset, end: seg.offset + seg.text.length, firstIndex: seg.index, lastIndex: seg.index, words: 0, startTime: seg.start, endTime: seg.end };
    }
    cur.end = seg.offset + seg.text.length;
    cur.lastIndex = seg.index;
    cur.words += w;
    if (seg.end !== undefined) cur.endTime = seg.end;
    if (seg.speaker) {
      cur.speakers ??= [];
      if (!cur.speakers.includes(seg.speaker)) cur.speakers.push(seg.speaker);
    }
    if (cur.words >= opts.windowWords) flush();
  }
  flush();
  out.forEach((c, i) => (c.seq = i));
  return out;
}

/** All chunks of an item: transcript windows, then comments. */
export function chunkItem(item: CorpusItem, opts: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  const out: Chunk[] = item.transcript ? transcriptChunks(item, item.transcript, opts) : [];
  let seq = 0;
  for (const c of item.comments?.comments ?? []) {
    if (c.text.trim() === '') continue;
    out.push({
      itemId: item.id, part: 'comments', seq: seq++, start: c.offset, end: c.offset + c.text.length, firstIndex: c.index, lastIndex: c.index,
      words: countWords(c.text), speakers: c.author ? [c.author] : undefined, likes: c.likes, replyCount: c.replyCount, commentId: c.id, parentId: c.parentId,
      publishedAt: c.publishedAt,
    });
  }
  return out;
}

/** The text a chunk covers. */
export function chunkText(item: CorpusItem, c: Pick<Chunk, 'part' | 'start' | 'end'>): string {
  const part = c.part === 'transcript' ? item.transcript : item.comments;
  return part ? part.text.slice(c.start, c.end) : '';
}
