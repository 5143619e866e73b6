/**
 * Spans in the readable view of an item (the full-item document of
 * {@link layoutFullItem}): where a span of a part's normalised text is in the
 * document, which unit (and offset) a place in the document belongs to, and
 * where the annotations are. The ranges are exact: the document's text of the
 * ranges, joined by newlines, is the span's text — with, in a caption
 * transcript's paragraphs, a caption's line break shown as a space and the
 * space before a sentence as a line break (character for character: the
 * lengths are the same).
 */
import type { PartKind, TextRange } from '../corpus/types';
import { annotationSpans } from '../text/clean';
import { firstIndex } from '../util/sortedSearch';
import { BLOCK_INDENT, TEXT_BELOW_HEADER, type ReadableBlock, type ReadableItem } from './fullItem';

/** The blocks of a part whose text is in the part's normalised text, in offset order (empty comments are kept out of it). */
const textBlocksCache = new WeakMap<ReadableItem, Map<PartKind, ReadableBlock[]>>();

function textBlocks(layout: ReadableItem, part: PartKind): ReadableBlock[] {
  let byPart = textBlocksCache.get(layout);
  if (!byPart) textBlocksCache.set(layout, (byPart = new Map()));
  let list = byPart.get(part);
  if (!list) byPart.set(part, (list = layout.blocks.filter((b) => b.part === part && (part === 'transcript' || b.text.trim() !== ''))));
  return list;
}

/** [start, end) of every line of a unit's text, split as the document splits it (`\r\n`, `\r`, `\n`). */
function lineSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const re = /\r\n?|\n/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ start: at, end: m.index });
    at = m.index + m[0].length;
  }
  out.push({ start: at, end: text.length });
  return out;
}

/** The lines of a block as the document shows them (a paragraph's `shown`, else its text). */
const shownOf = (b: ReadableBlock): string => b.shown ?? b.text;

/** The (zero-based) document line and column of `k`, an offset into `b.text`; inside a line break it is the end of the line. */
function positionIn(b: ReadableBlock, lines: readonly { start: number; end: number }[], k: number): { line: number; column: number } {
  if (!b.text.trim()) return { line: b.header + TEXT_BELOW_HEADER, column: BLOCK_INDENT }; // shown as "(empty)"
  // The last line starting at or before k (the first line when none does).
  const i = Math.max(0, firstIndex(lines.length, (j) => lines[j]!.start > k) - 1);
  const l = lines[i]!;
  return { line: b.header + TEXT_BELOW_HEADER + i, column: BLOCK_INDENT + Math.min(k, l.end) - l.start };
}

/**
 * The ranges of span `[start, end)` of `part` in the readable document: one
 * per document line the span covers (a span across turns or comments leaves
 * their headers out), in order. Joined by `\n`, the document's text of the
 * ranges is the span's text (a joining newline between two units is the line
 * break between two ranges; in a paragraph, see the module comment). Empty when
 * the part has no text or the span lies outside it.
 *
 * @example
 * const layout = layoutFullItem(item);
 * readableRanges(layout, 'transcript', 120, 180)  // [{ startLine: 57, startColumn: 10, endLine: 57, endColumn: 70 }]
 */
export function readableRanges(layout: ReadableItem, part: PartKind, start: number, end: number): TextRange[] {
  const blocks = textBlocks(layout, part);
  if (!blocks.length) return [];
  const last = blocks[blocks.length - 1]!;
  const length = last.offset + last.text.length;
  start = Math.max(0, Math.min(start, length));
  end = Math.max(start, Math.min(end, length));
  const out: TextRange[] = [];
  // From the first block ending at or after `start` (a span costs the blocks it covers, not the part's).
  for (let i = firstIndex(blocks.length, (k) => blocks[k]!.offset + blocks[k]!.text.length >= start); i < blocks.length; i++) {
    const b = blocks[i]!;
    const bEnd = b.offset + b.text.length;
    if (bEnd < start) continue;
    if (b.offset > end) break;
    const a = Math.max(start, b.offset) - b.offset;
    const z = Math.min(end, bEnd) - b.offset;
    const lines = lineSpans(shownOf(b));
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.end < a || l.start > z) continue;
      const from = positionIn(b, lines, Math.max(a, l.start));
      const to = positionIn(b, lines, Math.min(z, l.end));
      out.push({ startLine: from.line, startColumn: from.column, endLine: to.line, endColumn: to.column });
    }
  }
  return out;
}

/** What a place of the readable document belongs to: a unit, and the offset in its part's text (the start of the unit on its header line). */
export interface ReadablePlace {
  part: PartKind;
  block: ReadableBlock;
  /** Offset into the part's normalised text. */
  offset: number;
}

/**
 * The unit at (zero-based) `line`, `column` of the readable document: the turn
 * or comment whose header or text the line is, with the offset of the place in
 * the part's text (the blank line after a unit belongs to it). Undefined above
 * the first unit (the title and metadata) and on a comment without text.
 */
export function readablePlaceAt(layout: ReadableItem, line: number, column: number): ReadablePlace | undefined {
  const blocks = layout.blocks;
  let lo = 0;
  let hi = blocks.length - 1;
  if (hi < 0 || line < blocks[0]!.header) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (blocks[mid]!.header <= line) lo = mid;
    else hi = mid - 1;
  }
  const block = blocks[lo]!;
  if (block.part === 'comments' && !block.text.trim()) return undefined;
  const lines = lineSpans(shownOf(block));
  const i = line - block.header - TEXT_BELOW_HEADER;
  if (i < 0) return { part: block.part, block, offset: block.offset };
  if (i >= lines.length) return { part: block.part, block, offset: block.offset + block.text.length };
  const l = lines[i]!;
  const k = Math.max(l.start, Math.min(l.end, l.start + column - BLOCK_INDENT));
  return { part: block.part, block, offset: block.offset + k };
}

/** A range of one document line: columns `[start, end)` of `line` (zero-based). */
export interface ReadableLineRange {
  line: number;
  start: number;
  end: number;
}

/**
 * Where the annotations of the units' texts are in the readable document (`{disfmarker}`,
 * `{vocalsound}`, `[Música]`, `[ __ ]`, `(risas)`: the cleaner's own rule), one range per line,
 * in document order: what the editor dims or hides.
 *
 * @example
 * readableAnnotations(layoutFullItem(item))  // [{ line: 14, start: 4, end: 12 }, …]
 */
export function readableAnnotations(layout: ReadableItem): ReadableLineRange[] {
  const out: ReadableLineRange[] = [];
  for (const b of layout.blocks) {
    if (!b.text.trim()) continue;
    const spans = annotationSpans(b.text);
    if (!spans.length) continue;
    const lines = lineSpans(shownOf(b));
    for (const a of spans) {
      // An annotation holds no line break of its own, but a paragraph may break a line inside "[ __ ]".
      for (let i = Math.max(0, firstIndex(lines.length, (j) => lines[j]!.start > a.start) - 1); i < lines.length && lines[i]!.start < a.end; i++) {
        const l = lines[i]!;
        const from = Math.max(a.start, l.start);
        const to = Math.min(a.end, l.end);
        if (to > from) out.push({ line: b.header + TEXT_BELOW_HEADER + i, start: BLOCK_INDENT + from - l.start, end: BLOCK_INDENT + to - l.start });
      }
    }
  }
  return out;
}
