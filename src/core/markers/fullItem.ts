/**
 * "Retrieve Full Item": one item's whole transcript and every comment as a
 * single text, nothing truncated or dropped — the fallback when markers are not
 * enough. The text is Markdown whose corpus content sits in indented blocks, so
 * whatever a comment contains is shown verbatim and never read as markup.
 */
import type { CommentRecord, CorpusItem } from '../corpus/types';

function time(seconds: number): string {
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = `${String(whole % 60).padStart(2, '0')}${tenths % 10 ? `.${tenths % 10}` : ''}`;
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Indents every line of `text` by four spaces (an indented block); empty text says so. */
function block(text: string): string {
  if (!text.trim()) return '    (empty)';
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

function metaValue(v: unknown): string {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ');
  return JSON.stringify(v) ?? String(v);
}

function commentHeader(c: CommentRecord, n: number, children: ReadonlyMap<string, number>, ids: ReadonlySet<string>): string {
  const parts = [`#${n} ${c.id}`];
  if (c.parentId) parts.push(ids.has(c.parentId) ? `↳ reply to ${c.parentId}` : `↳ reply to ${c.parentId} (not in the file)`);
  parts.push(c.author ? `@${c.author}` : 'unknown author');
  parts.push(plural(c.likes ?? 0, 'like'));
  const replies = c.replyCount ?? children.get(c.id) ?? 0;
  parts.push(plural(replies, 'reply', 'replies'));
  if (c.publishedAt) parts.push(c.publishedAt);
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
  const out: string[] = [`# ${item.title.replace(/\s+/g, ' ')}`, ''];
  const t = item.transcript;
  const c = item.comments;
  out.push(`- item: ${item.id}`);
  out.push(`- words: ${item.wordCount.toLocaleString('en-US')}`);
  if (t) out.push(`- transcript: ${plural(t.segments.length, 'segment')} · ${plural(t.wordCount, 'word')} · ${t.file.relPath} (${t.format})`);
  else out.push('- transcript: none');
  if (c) {
    const replies = c.comments.filter((x) => x.parentId).length;
    const empty = c.comments.filter((x) => !x.text.trim()).length;
    out.push(
      `- comments: ${plural(c.comments.length, 'comment')} (${(c.comments.length - replies).toLocaleString('en-US')} top-level, ${plural(replies, 'reply', 'replies')}${empty ? `, ${empty.toLocaleString('en-US')} empty` : ''}) · ${plural(c.wordCount, 'word')} · ${c.file.relPath} (${c.format})`,
    );
  } else out.push('- comments: none');
  const meta = Object.entries(item.meta).filter(([k, v]) => k !== 'title' && v !== undefined && v !== null && v !== '');
  for (const [k, v] of meta) out.push(`- ${k}: ${metaValue(v)}`);
  if (item.metaFile) out.push(`- meta: ${item.metaFile.relPath}`);
  for (const f of item.ignoredFiles) out.push(`- ignored file: ${f.relPath}`);

  out.push('', `## Transcript${t ? ` (${plural(t.segments.length, 'segment')})` : ''}`, '');
  if (!t) out.push('No transcript.', '');
  else {
    for (const s of t.segments) {
      const head: string[] = [`[${s.index + 1}]`];
      if (s.start !== undefined) head.push(s.end !== undefined ? `${time(s.start)} → ${time(s.end)}` : time(s.start));
      if (s.speaker) head.push(s.speaker);
      head.push(`line ${s.source.startLine + 1}`);
      out.push(head.join(' · '), block(s.text), '');
    }
  }

  out.push(`## Comments${c ? ` (${plural(c.comments.length, 'comment')})` : ''}`, '');
  if (!c) out.push('No comments.', '');
  else {
    const children = new Map<string, number>();
    for (const x of c.comments) if (x.parentId) children.set(x.parentId, (children.get(x.parentId) ?? 0) + 1);
    const ids = new Set(c.comments.map((x) => x.id));
    c.comments.forEach((x, i) => out.push(commentHeader(x, i + 1, children, ids), block(x.text), ''));
  }
  return `${out.join('\n').trimEnd()}\n`;
}
