/**
 * Full-coverage windows over a part (seed 001, option A): consecutive windows
 * of about `windowWords` words aligned to turn/comment boundaries, each
 * starting `overlapWords` before the previous one ended; a window limit of 0
 * means "as many as needed"; a positive limit is never exceeded: it makes windows
 * larger instead of dropping text. Every word of the part is in some window.
 */
import type { CommentsPart, TranscriptPart } from '../corpus/types';
import { countWords, isCjk, walkWords } from '../text/words';
import type { Coverage } from './schema';
import { splitSentences } from './sentences';

export interface WindowSettings {
  windowWords: number;
  overlapWords: number;
  /** 0 = auto = all windows needed at `windowWords`. */
  windowLimit: number;
}

export const DEFAULT_WINDOW_SETTINGS: WindowSettings = { windowWords: 4000, overlapWords: 120, windowLimit: 0 };

/** A piece of a part: a whole unit (turn, comment) or a sentence run of a long one. */
interface Piece {
  start: number;
  end: number;
  words: number;
  unit: number;
  speaker?: string;
  /** For comments: id and likes, shown to the model. */
  commentId?: string;
  likes?: number;
}

export interface PartWindow {
  index: number;
  /** Offsets in the part's normalised text. */
  start: number;
  end: number;
  /** Cumulative word positions: [startWord, endWord). */
  startWord: number;
  endWord: number;
  words: number;
  pieces: Piece[];
}

function pieces(part: TranscriptPart | CommentsPart, maxWords: number): Piece[] {
  const out: Piece[] = [];
  const push = (p: Piece, text: string): void => {
    if (p.words <= maxWords) {
      out.push(p);
      return;
    }
    // A unit longer than a window: cut at its sentence ends, grouped up to the window size. The
    // pieces are contiguous (text between sentences, such as unpunctuated lines, is kept).
    const ends = splitSentences(text, p.start, p.unit).map((x) => x.end).filter((e) => e > p.start && e < p.end);
    ends.push(p.end);
    let cur: Piece | undefined;
    let at = p.start;
    for (const end of ends) {
      if (end <= at) continue;
      const w = countWords(text.slice(at - p.start, end - p.start));
      if (cur && cur.words + w > maxWords) {
        out.push(cur);
        cur = undefined;
      }
      if (!cur) {
        let from = at;
        while (from < end && /\s/.test(text[from - p.start]!)) from++; // a piece starts on its first word
        cur = { ...p, start: from, end, words: 0 };
      }
      cur.end = end;
      cur.words += w;
      at = end;
    }
    if (cur) out.push(cur);
  };
  if (part.kind === 'transcript') {
    for (const s of part.segments) push({ start: s.offset, end: s.offset + s.text.length, words: countWords(s.text), unit: s.index, speaker: s.speaker }, s.text);
  } else {
    for (const c of part.comments) {
      if (!c.text.trim()) continue;
      push({ start: c.offset, end: c.offset + c.text.length, words: countWords(c.text), unit: c.index, commentId: c.id, likes: c.likes }, c.text);
    }
  }
  return out;
}

/**
 * The windows of a part. A positive `windowLimit` is a hard bound: when windows of
 * `windowWords` would be more, the window size grows (the smallest size found that fits the
 * limit) — never dropping text; at worst one window holds the whole part.
 */
export function planWindows(part: TranscriptPart | CommentsPart, settings: WindowSettings = DEFAULT_WINDOW_SETTINGS): PartWindow[] {
  const total = part.wordCount;
  const base = Math.max(50, settings.windowWords);
  const overlap = Math.max(0, Math.min(settings.overlapWords, Math.floor(base / 4)));
  const limit = Math.floor(settings.windowLimit);
  if (!(limit > 0)) return packWindows(part, base, overlap);
  // First guess: the part spread evenly over `limit` windows. Units are kept whole where they fit
  // and windows overlap, so the guess can still give more windows: then search for a larger size.
  const needed = Math.ceil(Math.max(0, total - overlap) / Math.max(1, base - overlap));
  let size = needed > limit ? Math.max(base, Math.ceil(total / limit) + overlap) : base;
  let windows = packWindows(part, size, overlap);
  if (windows.length <= limit) return windows;
  // A size holding every word fits in one window (≤ limit): the upper end of the search.
  let hi = Math.max(size + 1, total, pieces(part, Number.POSITIVE_INFINITY).reduce((a, p) => a + p.words, 0));
  let best = packWindows(part, hi, overlap);
  let lo = size; // too small
  while (hi - lo > 1) {
    size = lo + Math.floor((hi - lo) / 2);
    windows = packWindows(part, size, overlap);
    if (windows.length <= limit) {
      hi = size;
      best = windows;
    } else lo = size;
  }
  return best;
}

/** Greedy windows of at most `size` words (a unit longer than that is cut at sentences), each starting `overlap` words back. */
function packWindows(part: TranscriptPart | CommentsPart, size: number, overlap: number): PartWindow[] {
  const ps = pieces(part, size);
  const windows: PartWindow[] = [];
  let i = 0;
  let wordPos = 0;
  const startWordOf: number[] = [];
  for (const p of ps) {
    startWordOf.push(wordPos);
    wordPos += p.words;
  }
  while (i < ps.length) {
    const w: PartWindow = { index: windows.length, start: ps[i]!.start, end: ps[i]!.end, startWord: startWordOf[i]!, endWord: startWordOf[i]!, words: 0, pieces: [] };
    let j = i;
    while (j < ps.length && (w.words === 0 || w.words + ps[j]!.words <= size)) {
      w.pieces.push(ps[j]!);
      w.words += ps[j]!.words;
      w.end = ps[j]!.end;
      j++;
    }
    w.endWord = w.startWord + w.words;
    windows.push(w);
    if (j >= ps.length) break;
    // Next window starts `overlap` words back, but always moves forward.
    let k = j;
    let back = 0;
    while (k - 1 > i && back + ps[k - 1]!.words <= overlap) {
      k--;
      back += ps[k]!.words;
    }
    i = k;
  }
  return windows;
}

/** The smallest window a context-length retry shrinks to: below it the item fails with the model's error. */
export const MIN_WINDOW_WORDS = 40;

/** Cuts a piece into pieces of at most `maxWords` words, at word boundaries of the part's text. */
function cutPiece(text: string, p: Piece, maxWords: number): Piece[] {
  const out: Piece[] = [];
  let start = p.start;
  while (start < p.end) {
    // The offset where word maxWords + 1 begins; the walk stops there (counting all the rest each time was quadratic).
    const walk = walkWords(text, start, p.end, (n) => n > maxWords);
    if (walk.words <= maxWords) {
      out.push({ ...p, start, end: p.end, words: countWords(text.slice(start, p.end)) });
      break;
    }
    let cut = walk.offset;
    if (isCjk(text[cut - 1] ?? '')) cut--;
    // Back to the start of a Latin word the cut fell inside (a CJK character before it is a word of its own).
    else while (cut > start + 1 && /[\p{L}\p{N}\p{M}]/u.test(text[cut - 1] ?? '') && !isCjk(text[cut - 1] ?? '')) cut--;
    if (cut <= start) cut = Math.min(p.end, start + 1);
    out.push({ ...p, start, end: cut, words: countWords(text.slice(start, cut)) });
    start = cut;
  }
  return out.filter((x) => x.end > x.start);
}

/**
 * Splits one window into consecutive windows of at most `maxWords` words (at least
 * {@link MIN_WINDOW_WORDS}), keeping every word: units are grouped whole when they fit, and a
 * unit longer than `maxWords` is cut at word boundaries (needs `part`'s text).
 */
export function splitWindow(w: PartWindow, maxWords: number, part?: TranscriptPart | CommentsPart): PartWindow[] {
  const size = Math.max(1, Math.floor(maxWords));
  const ps = w.pieces.flatMap((p) => (part && p.words > size ? cutPiece(part.text, p, size) : [p]));
  const out: PartWindow[] = [];
  let cur: PartWindow | undefined;
  for (const p of ps) {
    if (cur && cur.words + p.words > size) {
      out.push(cur);
      cur = undefined;
    }
    if (!cur) cur = { index: w.index, start: p.start, end: p.end, startWord: 0, endWord: 0, words: 0, pieces: [] };
    cur.pieces.push(p);
    cur.words += p.words;
    cur.end = p.end;
  }
  if (cur) out.push(cur);
  let pos = w.startWord;
  for (const x of out) {
    x.startWord = pos;
    pos += x.words;
    x.endWord = pos;
  }
  return out;
}

/** Splits one window into windows of at most `factor` × its words (for a context-length retry). */
export function shrinkWindow(w: PartWindow, factor = 0.75, part?: TranscriptPart | CommentsPart): PartWindow[] {
  return splitWindow(w, Math.max(1, Math.floor(w.words * factor)), part);
}

/** Word ranges `[start, end)` merged into their sorted union. */
export function unionOfRanges(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = ranges.filter(([a, b]) => b > a).map(([a, b]): [number, number] => [a, b]).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/**
 * Coverage of the windows actually sent (and answered), from the union of their word ranges:
 * a run that skipped a window in the middle reports the gap, never `complete`.
 */
export function coverageOf(windows: readonly PartWindow[], totalWords: number, shrunk = 0): Coverage {
  const sent = windows.reduce((a, w) => a + w.words, 0);
  const union = unionOfRanges(windows.map((w) => [Math.max(0, w.startWord), Math.min(totalWords, w.endWord)] as const));
  const seen = union.reduce((a, [s, e]) => a + (e - s), 0);
  const missing: [number, number][] = [];
  let pos = 0;
  for (const [s, e] of union) {
    if (s > pos) missing.push([pos, s]);
    pos = e;
  }
  if (pos < totalWords) missing.push([pos, totalWords]);
  return {
    windows: windows.length,
    totalWords,
    wordsSeen: seen,
    duplicationRatio: totalWords ? Math.round((sent / totalWords) * 1000) / 1000 : 0,
    complete: missing.length === 0,
    shrunkWindows: shrunk,
    ...(missing.length ? { missingRanges: missing.slice(0, 20) } : {}),
  };
}

/** The window as the model reads it: speaker turns for transcripts, id and likes for comments. */
export function renderWindow(part: TranscriptPart | CommentsPart, w: PartWindow): string {
  const lines: string[] = [];
  let speaker: string | undefined;
  for (const p of w.pieces) {
    const text = part.text.slice(p.start, p.end);
    if (part.kind === 'comments') {
      lines.push(`[c${p.commentId}${p.likes ? ` likes=${p.likes}` : ''}] ${text}`);
    } else if (p.speaker && p.speaker !== speaker) {
      lines.push(`${p.speaker}: ${text}`);
      speaker = p.speaker;
    } else {
      lines.push(text);
    }
  }
  return lines.join('\n');
}
