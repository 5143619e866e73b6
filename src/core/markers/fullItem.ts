/**
 * "Retrieve Full Item": one item's whole transcript and every comment as a
 * single text, nothing truncated or dropped — the fallback when markers are not
 * enough. The text is Markdown whose corpus content sits in indented code blocks (a blank line
 * between a unit's header and its text: an indented line right after a paragraph would continue
 * the paragraph, and its text would be read as markup — a `[link](command:…)` in a comment live
 * in the editor), so whatever a comment contains is shown verbatim; corpus values in headers
 * (title, speakers, authors, ids, paths, metadata) are kept to one line and never form a link.
 */
import type { CommentRecord, CorpusItem, PartKind } from '../corpus/types';
import { readableHeaderText } from '../text/markdownSafe';

/** Where one turn's or comment's text sits in the rendered document. */
export interface ReadableBlock {
  part: PartKind;
  /** Position of the unit in its part (segment or comment array index). */
  position: number;
  /** Offset of the unit's text in the part's normalised text. */
  offset: number;
  /** The unit's text, as in the part's normalised text. */
  text: string;
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
  return value(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));
}

/** A comment author as `@name` (a name written with its own `@`, as YouTube's, is not doubled). */
function handle(author: string | undefined): string {
  const name = author?.trim().replace(/^@+/, '');
  return name ? `@${value(name)}` : 'unknown author';
}

/** `#3 · ↳ reply to #1 · @lena · 31 likes · 0 replies · 2024-03-14T13:05:00Z · c3 · line 3`: who and when first, the id and source line last. */
function commentHeader(c: CommentRecord, n: number, children: ReadonlyMap<string, number>, positions: ReadonlyMap<string, number>): string {
  const parts = [`#${n}`];
  if (c.parentId) {
    const parent = positions.get(c.parentId);
    parts.push(parent !== undefined ? `↳ reply to #${parent}` : `↳ reply to ${value(c.parentId)} (not in the file)`);
  }
  parts.push(handle(c.author));
  parts.push(plural(c.likes ?? 0, 'like'));
  const replies = c.replyCount ?? children.get(c.id) ?? 0;
  parts.push(plural(replies, 'reply', 'replies'));
  if (c.publishedAt) parts.push(value(c.publishedAt));
  parts.push(value(c.id));
  parts.push(`line ${c.source.startLine + 1}`);
  return parts.join(' · ');
}

/**
 * Renders an item in full: title, metadata and counts at the top, then every
 * transcript segment (speaker, time, source line) and every comment (author,
 * likes, replies, thread parent), in file order.
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
  if (t) out.push(`- transcript: ${plural(t.segments.length, 'segment')} · ${plural(t.wordCount, 'word')} · ${value(t.file.relPath)} (${t.format})`);
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

  out.push('', `## Transcript${t ? ` (${plural(t.segments.length, 'segment')})` : ''}`, '');
  if (!t) out.push('No transcript.', '');
  else {
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
