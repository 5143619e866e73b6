/**
 * A small Markdown → HTML renderer for exported reports: ATX headings, paragraphs, bullet and
 * numbered lists (nested by indentation), block quotes, fenced code, pipe tables, rules; inline
 * code, bold, italic, links and autolinks. Every piece of text is HTML-escaped (reports quote
 * untrusted corpus text); only http(s), mailto, file and relative link targets are kept.
 */

/** Escapes `&`, `<`, `>`, `"` and `'`. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A link target that is safe to put in `href`: http(s), mailto, file, an anchor or a relative path; undefined otherwise. */
export function safeHref(url: string): string | undefined {
  const u = url.trim();
  if (/^(?:https?:|mailto:|file:)/i.test(u)) return u;
  if (/^[a-z][a-z0-9+.-]*:/i.test(u)) return undefined; // javascript:, data:, vbscript:, command: …
  return u;
}

/** Options of {@link markdownToHtml}. */
export interface MarkdownHtmlOptions {
  /** Renders a run of text after escaping (e.g. turns citation placeholders into links). */
  text?: (escaped: string) => string;
}

/** Inline Markdown of one block: code spans, links, autolinks, bold, italic, backslash escapes. */
export function renderInline(src: string, opts: MarkdownHtmlOptions = {}): string {
  const out: string[] = [];
  const text = (s: string): string => (opts.text ? opts.text(emphasis(escapeHtml(s))) : emphasis(escapeHtml(s)));
  let i = 0;
  let buf = '';
  const flush = (): void => {
    if (buf) out.push(text(buf));
    buf = '';
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length && /[!-/:-@[-`{-~]/.test(src[i + 1]!)) {
      // An escaped character is literal: keep it out of emphasis with a private-use stand-in.
      buf += String.fromCharCode(0xe100 + src.charCodeAt(i + 1));
      i += 2;
      continue;
    }
    if (c === '`') {
      const ticks = /^`+/.exec(src.slice(i))![0];
      const end = src.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        out.push(`<code>${escapeHtml(src.slice(i + ticks.length, end).trim())}</code>`);
        i = end + ticks.length;
        continue;
      }
    }
    if (c === '<') {
      const auto = /^<((?:https?|mailto|file):[^\s<>]+)>/i.exec(src.slice(i));
      if (auto) {
        flush();
        out.push(`<a href="${escapeHtml(auto[1]!)}">${escapeHtml(auto[1]!)}</a>`);
        i += auto[0].length;
        continue;
      }
    }
    if (c === '[' && src[i - 1] !== '!') {
      const link = /^\[([^\]\n]*(?:\\\][^\]\n]*)*)\]\((<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"([^"\n]*)")?\)/.exec(src.slice(i));
      if (link) {
        flush();
        const target = link[2]!.startsWith('<') ? link[2]!.slice(1, -1) : link[2]!;
        const href = safeHref(target);
        const inner = renderInline(link[1]!, opts);
        const title = link[3] ? ` title="${escapeHtml(link[3])}"` : '';
        out.push(href === undefined ? inner : `<a href="${escapeHtml(href)}"${title}>${inner}</a>`);
        i += link[0].length;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return out.join('').replace(/[\ue100-\ue17f]/g, (ch) => escapeHtml(String.fromCharCode(ch.charCodeAt(0) - 0xe100)));
}

/** Bold and italic in already escaped text (`**b**`, `__b__`, `*i*`, `_i_` at word edges). */
function emphasis(s: string): string {
  return s
    .replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\p{L}\p{N}_])__(?=\S)([^_]*?\S)__(?![\p{L}\p{N}_])/gu, '$1<strong>$2</strong>')
    .replace(/(^|[^*])\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g, '$1<em>$2</em>')
    .replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_])_(?![\p{L}\p{N}_])/gu, '$1<em>$2</em>');
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/;

/** Renders Markdown to an HTML fragment (no `<html>` wrapper). */
export function markdownToHtml(md: string, opts: MarkdownHtmlOptions = {}): string {
  return renderBlocks(md.replace(/\r\n?/g, '\n').split('\n'), opts);
}

function renderBlocks(lines: readonly string[], opts: MarkdownHtmlOptions): string {
  const out: string[] = [];
  let i = 0;
  const blank = (l: string | undefined): boolean => l === undefined || !l.trim();
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1]!;
      const body: string[] = [];
      i++;
      // Closed (CommonMark) by a run of the same character at least as long, and nothing else.
      const close = new RegExp(`^\\s*\\${mark[0]}{${mark.length},}\\s*$`);
      while (i < lines.length && !close.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      out.push(`<pre><code${fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : ''}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      out.push(`<h${level}>${renderInline(heading[2]!, opts)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i]!)) inner.push(lines[i++]!.replace(/^\s{0,3}>\s?/, ''));
      out.push(`<blockquote>${renderBlocks(inner, opts)}</blockquote>`);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(lines[i + 1]!)) {
      const cells = (l: string): string[] => l.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());
      const head = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && !blank(lines[i]) && lines[i]!.includes('|')) rows.push(cells(lines[i++]!));
      out.push(
        `<table><thead><tr>${head.map((c) => `<th>${renderInline(c, opts)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${head.map((_, k) => `<td>${renderInline(r[k] ?? '', opts)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const indent = item[1]!.length;
      const ordered = /\d/.test(item[2]!);
      const items: string[][] = [];
      while (i < lines.length) {
        const l = lines[i]!;
        const m = LIST_ITEM.exec(l);
        if (m && m[1]!.length === indent && /\d/.test(m[2]!) === ordered) {
          items.push([m[3]!]);
          i++;
          continue;
        }
        // Continuation: deeper-indented lines (a nested list, a wrapped line) belong to the last item.
        if (!blank(l) && (l.length - l.trimStart().length > indent || (!m && !blank(lines[i - 1]) && !/^\s{0,3}(#|>|```|~~~)/.test(l)))) {
          items[items.length - 1]!.push(l.slice(Math.min(indent + 2, l.length - l.trimStart().length)));
          i++;
          continue;
        }
        if (blank(l) && i + 1 < lines.length && LIST_ITEM.exec(lines[i + 1]!)?.[1]!.length === indent) {
          i++;
          continue;
        }
        break;
      }
      const tag = ordered ? 'ol' : 'ul';
      const start = ordered && Number.parseInt(item[2]!, 10) !== 1 ? ` start="${Number.parseInt(item[2]!, 10)}"` : '';
      out.push(`<${tag}${start}>${items.map((it) => `<li>${it.length === 1 ? renderInline(it[0]!, opts) : renderItem(it, opts)}</li>`).join('')}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !blank(lines[i]) && !FENCE.test(lines[i]!) && !/^\s{0,3}(#{1,6}\s|>)/.test(lines[i]!) && !(para.length && LIST_ITEM.test(lines[i]!))) para.push(lines[i++]!.trim());
    out.push(`<p>${renderInline(para.join('\n'), opts)}</p>`);
  }
  return out.join('\n');
}

/** A list item with more lines: its first line inline, the rest (a nested list, wrapped text) as blocks. */
function renderItem(lines: readonly string[], opts: MarkdownHtmlOptions): string {
  const [first, ...rest] = lines;
  const nested = rest.findIndex((l) => LIST_ITEM.test(l));
  const wrapped = nested < 0 ? rest : rest.slice(0, nested);
  const head = renderInline([first!, ...wrapped.map((l) => l.trim())].join('\n'), opts);
  return nested < 0 ? head : `${head}${renderBlocks(rest.slice(nested), opts)}`;
}

/** A standalone HTML page (doctype, charset, viewport, title, inline style) around `body`'s lines; every export's shell. */
export function htmlPage(page: { title: string; lang: string; style: string; body: readonly string[] }): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(page.lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${page.style}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...page.body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
