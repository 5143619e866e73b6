/**
 * "Retrieve Full Item": one item's whole transcript and every comment as a
 * single text, nothing truncated or dropped — the fallback when markers are not
 * enough. A meeting's turns are shown one by one (speaker, time, source line); a caption
 * transcript (short speakerless lines: auto-captions, SRT/VTT) as paragraphs of whole sentences
 * with one header each (time range, or line range when untimed), a sentence to a line
 * (`speechUnits.ts`). Dates and durations are written as a reader writes them, comment ids are
 * left to the header link's tooltip. The text is Markdown whose corpus content sits in indented code blocks (a blank line
 * between a unit's header and its text: an indented line right after a paragraph would continue
 * the paragraph, and its text would be read as markup — a `[link](command:…)` in a comment live
 * in the editor), so whatever a comment contains is shown verbatim; corpus values in headers
 * (title, speakers, authors, ids, paths, metadata) are kept to one line and never form a link.
 */
import type { CommentRecord, CorpusItem, PartKind, TranscriptPart } from '../corpus/types';
import { formatClock } from '../text/clock';
import { readableIsoValue } from '../text/isoTime';
import { readableHeaderText } from '../text/markdownSafe';
import { isCaptionTranscript, segmentEnd, transcriptParagraphs, type Paragraph } from './speechUnits';

/** Where one turn's, paragraph's or comment's text sits in the rendered document. */
export interface ReadableBlock {
  part: PartKind;
  /** Position of the unit in its part (segment or comment array index; a paragraph's first segment). */
  position: number;
  /** A paragraph's last segment (array index); absent for a turn or comment. */
  lastPosition?: number;
  /** Offset of the unit's text in the part's normalised text. */
  offset: number;
  /** The unit's text, as in the part's normalised text. */
  text: string;
  /**
   * How a paragraph shows its text: `text` with the same length, each sentence on its own line
   * (the whitespace before a sentence is the line break, a caption's line break is a space).
   * Absent when the text is shown as it is.
   */
  shown?: string;
  /** Zero-based line of the unit's header; its text starts {@link TEXT_BELOW_HEADER} lines below. */
  header: number;
}

/** The rendered document and where every unit's text is in it. */
export interface ReadableItem {
  text: string;
  /** Lines of `text`. */
  lineCount: number;
  /** Every segment, then every comment, in document order. */
  blocks: ReadableBlock[];
}

/** Columns every line of a unit's text is indented by. */
export const BLOCK_INDENT = 4;

/** Lines from a unit's header to the first line of its text (a blank line between: the text is a code block). */
export const TEXT_BELOW_HEADER = 2;

function time(seconds: number): string {
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = `${String(whole % 60).padStart(2, '0')}${tenths % 10 ? `.${tenths % 10}` : ''}`;
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The lines of `text` indented by four spaces (an indented block); empty text says so. */
function block(text: string): string[] {
  const pad = ' '.repeat(BLOCK_INDENT);
  if (!text.trim()) return [`${pad}(empty)`];
  return text.split(/\r\n?|\n/).map((l) => `${pad}${l}`);
}

/** A corpus value in a header or list line: one line, never a link. */
function value(s: string): string {
  return readableHeaderText(s);
}

function metaValue(v: unknown): string {
  return value(typeof v === 'string' ? (readableIsoValue(v) ?? v) : (JSON.stringify(v) ?? String(v)));
}

/** A comment author as `@name` (a name written with its own `@`, as YouTube's, is not doubled). */
function handle(author: string | undefined): string {
  const name = author?.trim().replace(/^@+/, '');
  return name ? `@${value(name)}` : 'unknown author';
}

/** `#3 · ↳ reply to #1 · @lena · 31 likes · 0 replies · 2024-03-14 13:05 UTC · line 3`: who and when first, the source line last (the id is the line link's tooltip). */
function commentHeader(c: CommentRecord, n: number, children: ReadonlyMap<string, number>, positions: ReadonlyMap<string, number>): string {
  const parts = [`#${n}`];
  if (c.parentId) {
    const parent = positions.get(c.parentId);
    parts.push(parent !== undefined ? `↳ reply to #${parent}` : '↳ reply to a comment not in the file');
  }
  parts.push(handle(c.author));
  parts.push(plural(c.likes ?? 0, 'like'));
  const replies = c.replyCount ?? children.get(c.id) ?? 0;
  parts.push(plural(replies, 'reply', 'replies'));
  if (c.publishedAt) parts.push(value(readableIsoValue(c.publishedAt) ?? c.publishedAt));
  parts.push(`line ${c.source.startLine + 1}`);
  return parts.join(' · ');
}

/**
 * The text of paragraph `p` as the view shows it: the same length as its text, the whitespace
 * before each of its sentences a line break and every other line break a space.
 */
function paragraphShown(text: string, p: Paragraph): string {
  const flat = text.slice(p.start, p.end).replace(/[\r\n]/g, ' ');
  let out = '';
  let at = 0;
  for (const s of p.sentenceStarts) {
    const k = s - 1 - p.start;
    if (k <= 0 || k < at || !/\s/.test(flat[k]!)) continue;
    out += `${flat.slice(at, k)}\n`;
    at = k + 1;
  }
  return out + flat.slice(at);
}

/** `lines 12–40` (or `line 12`) of the original file. */
function lineRange(a: number, z: number): string {
  return z > a ? `lines ${a + 1}–${z + 1}` : `line ${a + 1}`;
}

/** The caption transcript `t` as paragraphs: `¶ 3 · 1:02 → 1:47 · lines 120–164`, then its sentences. */
function pushParagraphs(t: TranscriptPart, out: string[], blocks: ReadableBlock[]): void {
  const segs = t.segments;
  transcriptParagraphs(t).forEach((p, k) => {
    const a = segs[p.first]!;
    const z = segs[p.last]!;
    const head: string[] = [`¶ ${k + 1}`];
    if (a.start !== undefined) head.push(`${formatClock(a.start)} → ${formatClock(segmentEnd(segs, p.last) ?? a.start)}`);
    const speakers = new Set<string>();
    for (let i = p.first; i <= p.last && speakers.size < 2; i++) if (segs[i]!.speaker) speakers.add(segs[i]!.speaker!);
    if (speakers.size === 1) head.push(value([...speakers][0]!));
    head.push(lineRange(a.source.startLine, Math.max(a.source.startLine, z.source.endLine)));
    const shown = paragraphShown(t.text, p);
    blocks.push({ part: 'transcript', position: p.first, lastPosition: p.last, offset: p.start, text: t.text.slice(p.start, p.end), shown, header: out.length });
    out.push(head.join(' · '), '', ...block(shown), '');
  });
}

/**
 * Renders an item in full: title, metadata and counts at the top, then every
 * transcript segment (speaker, time, source line) — or, for a caption transcript, its
 * paragraphs — and every comment (author, likes, replies, thread parent, date), in file order.
 *
 * @example
 * const text = renderFullItem(corpus.items[0]);  // "# Title\n\n- item: …"
 */
export function renderFullItem(item: CorpusItem): string {
  return layoutFullItem(item).text;
}

/**
 * {@link renderFullItem} with the place of every unit's text in the document:
 * what maps a span onto the readable view (`readableRanges`).
 */
export function layoutFullItem(item: CorpusItem): ReadableItem {
  const out: string[] = [`# ${value(item.title)}`, ''];
  const blocks: ReadableBlock[] = [];
  const t = item.transcript;
  const c = item.comments;
  out.push(`- item: ${value(item.id)}`);
  out.push(`- words: ${item.wordCount.toLocaleString('en-US')}`);
  const captions = !!t && isCaptionTranscript(t);
  if (t) out.push(`- transcript: ${plural(t.segments.length, captions ? 'caption line' : 'segment')} · ${plural(t.wordCount, 'word')} · ${value(t.file.relPath)} (${t.format})`);
  else out.push('- transcript: none');
  if (c) {
    const replies = c.comments.filter((x) => x.parentId).length;
    const empty = c.comments.filter((x) => !x.text.trim()).length;
    out.push(
      `- comments: ${plural(c.comments.length, 'comment')} (${(c.comments.length - replies).toLocaleString('en-US')} top-level, ${plural(replies, 'reply', 'replies')}${empty ? `, ${empty.toLocaleString('en-US')} empty` : ''}) · ${plural(c.wordCount, 'word')} · ${value(c.file.relPath)} (${c.format})`,
    );
  } else out.push('- comments: none');
  const meta = Object.entries(item.meta).filter(([k, v]) => k !== 'title' && v !== undefined && v !== null && v !== '');
  for (const [k, v] of meta) out.push(`- ${value(k)}: ${metaValue(v)}`);
  if (item.metaFile) out.push(`- meta: ${value(item.metaFile.relPath)}`);
  for (const f of item.ignoredFiles) out.push(`- ignored file: ${value(f.relPath)}`);

  if (t && captions) {
    out.push('', `## Transcript (${plural(t.segments.length, 'caption line')} in ${plural(transcriptParagraphs(t).length, 'paragraph')})`, '');
    pushParagraphs(t, out, blocks);
  } else out.push('', `## Transcript${t ? ` (${plural(t.segments.length, 'segment')})` : ''}`, '');
  if (!t) out.push('No transcript.', '');
  else if (!captions) {
    t.segments.forEach((s, position) => {
      const head: string[] = [`[${s.index + 1}]`];
      if (s.start !== undefined) head.push(s.end !== undefined ? `${time(s.start)} → ${time(s.end)}` : time(s.start));
      if (s.speaker) head.push(value(s.speaker));
      head.push(`line ${s.source.startLine + 1}`);
      blocks.push({ part: 'transcript', position, offset: s.offset, text: s.text, header: out.length });
      out.push(head.join(' · '), '', ...block(s.text), '');
    });
  }

  out.push(`## Comments${c ? ` (${plural(c.comments.length, 'comment')})` : ''}`, '');
  if (!c) out.push('No comments.', '');
  else {
    const children = new Map<string, number>();
    for (const x of c.comments) if (x.parentId) children.set(x.parentId, (children.get(x.parentId) ?? 0) + 1);
    const positions = new Map<string, number>();
    c.comments.forEach((x, i) => positions.has(x.id) || positions.set(x.id, i + 1));
    c.comments.forEach((x, i) => {
      blocks.push({ part: 'comments', position: i, offset: x.offset, text: x.text, header: out.length });
      out.push(commentHeader(x, i + 1, children, positions), '', ...block(x.text), '');
    });
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return { text: `${out.join('\n')}\n`, lineCount: out.length + 1, blocks };
}
