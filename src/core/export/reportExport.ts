/**
 * Export of a research report (`report.md` + `report.sources.json`): Markdown whose every `[n]`
 * links to its span in the original file, closed by a sources appendix (item, speaker, time,
 * file:line and the quoted span), and standalone HTML with an anchor per citation (`[n]` →
 * `#source-n`, each source linking back to where it is cited and on to the original file). Links
 * to original files are relative to the exported file (portable with the corpus) or `file:` URIs.
 * The stored report is reduced to the safe Markdown subset again before it is exported (a run
 * written by an older version, or a report.md edited by hand, brings no link, image or HTML of
 * its own), and every corpus value of the appendix is escaped text: the only links of an export
 * are its citations and the appendix's links to the cited files.
 * Pure: the caller reads the run and writes the result.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { locationWords, locationWordsOf } from '../corpus/locationWords';
import type { Corpus, CorpusItem } from '../corpus/types';
import { citedFile, findCitations, selectionFragment } from '../research/citationLinks';
import type { ReportSources, SourceSpan } from '../research/schema';
import { formatClock } from '../text/clock';
import { reduceMarkdown } from '../text/markdownReduce';
import { breakAutolinks, markdownText } from '../text/markdownSafe';
import { escapeHtml, htmlPage, markdownToHtml } from './markdownHtml';

/** How links to original files are written. */
export type LinkStyle = 'relative' | 'file';

/** What an export needs besides the report: where the corpus and the exported file are, and the corpus for quotes and titles. */
export interface ReportExportInput {
  /** report.md as written by the run. */
  markdown: string;
  sources: ReportSources;
  corpusRoot: string;
  /** The loaded corpus: item titles, quotes of the cited spans, comment authors (optional: ids and file positions are used without it). */
  corpus?: Pick<Corpus, 'items'>;
  /** Where the exported file goes (relative links start from its folder). */
  outFile: string;
  /** `relative` (default when the exported file is inside the corpus folder) or `file` URIs. */
  links?: LinkStyle;
  /** Characters of a quote shown in the appendix and in link titles (default 600). */
  maxQuoteChars?: number;
}

/** One cited source as the appendix shows it. */
export interface ExportedSource {
  number: number;
  span: SourceSpan;
  title: string;
  /** "Daniel · 0:33–0:47" / "ridewithlena · comment · 12 likes · 2024-05-09" / "" */
  where: string;
  /** `file:line` or `file:line–line` (one-based). */
  location: string;
  /** Link target of the span (relative path or file: URI with the `#L…` selection fragment); undefined when the file is outside the corpus. */
  href: string | undefined;
  quote: string;
}

/** The heading of the source list a run writes at the end of report.md. */
const SOURCES_HEADING = /^##\s+(?:Sources|来源|Fuentes)\s*$/u;

/**
 * report.md without the plain source list the run wrote at its end (`## Sources` followed only by
 * `[n] …` lines): the export replaces it with a linked appendix.
 */
export function stripSourceList(markdown: string): string {
  const lines = markdown.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!SOURCES_HEADING.test(lines[i]!)) continue;
    const rest = lines.slice(i + 1).filter((l) => l.trim());
    if (rest.every((l) => /^\s*\[\d+\]/.test(l))) return lines.slice(0, i).join('\n').trimEnd() + '\n';
    break;
  }
  return markdown;
}

/** Path segments percent-encoded, separators kept ("a b/c.json" → "a%20b/c.json"). */
function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

/** The link style an export uses when none is asked for: relative inside the corpus folder, file URIs outside it. */
export function defaultLinkStyle(corpusRoot: string, outFile: string): LinkStyle {
  const rel = path.relative(path.resolve(corpusRoot), path.resolve(outFile));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? 'relative' : 'file';
}

/**
 * The link of a cited span from `outFile`: relative (forward slashes, encoded) or a file URI, with
 * a fragment: `range` (`#L12,9-L12,86`, which VS Code's editor opens as a selection) or `start`
 * (`#L12,9`, which VS Code's Markdown preview also follows: it reads no ranges).
 */
export function spanHref(corpusRoot: string, span: SourceSpan, outFile: string, links: LinkStyle, fragment: 'range' | 'start' = 'range'): string | undefined {
  const abs = citedFile(corpusRoot, span.source.file);
  if (!abs) return undefined;
  const frag = fragment === 'range' ? `#${selectionFragment(span.source)}` : `#L${span.source.startLine + 1},${span.source.startColumn + 1}`;
  if (links === 'file') return `${pathToFileURL(abs).toString()}${frag}`;
  const rel = path.relative(path.dirname(path.resolve(outFile)), abs).split(path.sep).join('/');
  return `${encodePath(rel)}${frag}`;
}

function whereOf(span: SourceSpan, item: CorpusItem | undefined): string {
  const s = span.source;
  const parts: string[] = [];
  if (span.part === 'comments') {
    const byId = new Map((item?.comments?.comments ?? []).map((c) => [c.id, c]));
    const cited = (s.commentIds ?? []).map((id) => byId.get(id)).filter((c): c is NonNullable<typeof c> => !!c);
    const authors = [...new Set([...(s.speakers ?? []), ...cited.map((c) => c.author).filter((a): a is string => !!a)])];
    if (authors.length) parts.push(authors.slice(0, 3).join(', '));
    // the words in the comments' language (as the location labels: corpus/locationWords.ts)
    const W = item?.comments ? locationWordsOf(item.comments, item.comments.text) : locationWords('en');
    parts.push((s.commentIds?.length ?? 1) > 1 ? W.comments(s.commentIds!.length) : W.comment);
    const likes = cited.reduce((a, c) => a + (c.likes ?? 0), 0);
    if (likes) parts.push(W.likes(likes));
    const date = cited.length === 1 ? cited[0]!.publishedAt?.slice(0, 10) : undefined;
    if (date) parts.push(date);
    return parts.join(' · ');
  }
  if (s.speakers?.length) parts.push([...new Set(s.speakers)].slice(0, 3).join(', '));
  if (s.startTime !== undefined) parts.push(s.endTime !== undefined && s.endTime > s.startTime ? `${formatClock(s.startTime)}–${formatClock(s.endTime)}` : formatClock(s.startTime));
  return parts.join(' · ');
}

function quoteOf(span: SourceSpan, item: CorpusItem | undefined): string {
  const text = item ? (span.part === 'transcript' ? item.transcript : item.comments)?.text : undefined;
  return text !== undefined && span.end <= text.length ? text.slice(span.start, span.end).replace(/\s+/g, ' ').trim() : '';
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max).trimEnd()}…` : s;
}

/** Every cited source of the report, by number, with its title, place, link and quote. */
export function exportedSources(input: ReportExportInput, fragment: 'range' | 'start' = 'range'): ExportedSource[] {
  const links = input.links ?? defaultLinkStyle(input.corpusRoot, input.outFile);
  const items = new Map((input.corpus?.items ?? []).map((it) => [it.id, it]));
  const max = input.maxQuoteChars ?? 600;
  return [...input.sources.citations]
    .sort((a, b) => a.number - b.number)
    .map(({ number, span }) => {
      const item = items.get(span.item_id);
      const r = span.source;
      return {
        number,
        span,
        title: item?.title ?? span.item_id,
        where: whereOf(span, item),
        location: r.startLine === r.endLine ? `${r.file}:${r.startLine + 1}` : `${r.file}:${r.startLine + 1}–${r.endLine + 1}`,
        href: spanHref(input.corpusRoot, span, input.outFile, links, fragment),
        quote: cut(quoteOf(span, item), max),
      };
    });
}

/** A Markdown link title in double quotes (quotes, backslashes and entities escaped; bare URLs broken, as the text editor would link them). */
function mdTitle(s: string): string {
  return breakAutolinks(s.replace(/\s+/g, ' ')).replace(/["\\&]/g, (c) => `\\${c}`);
}

/** The body of a stored report as an export writes it: without its plain source list, reduced to the safe subset (its `[n]` kept). */
function reportBody(markdown: string): string {
  return reduceMarkdown(stripSourceList(markdown));
}

/** Replaces each `[n]` citation of `markdown` (not in code, not already a link) with `render(n, k)` (k: the n-th occurrence of number n, from 1). */
export function replaceCitations(markdown: string, render: (n: number, k: number) => string): string {
  const lines = markdown.split('\n');
  const refs = findCitations(markdown);
  const seen = new Map<number, number>();
  // Right to left within a line, so earlier offsets stay valid.
  const byLine = new Map<number, typeof refs>();
  for (const r of refs) byLine.set(r.line, [...(byLine.get(r.line) ?? []), r]);
  const order = new Map<(typeof refs)[number], number>();
  for (const r of refs) {
    const k = (seen.get(r.number) ?? 0) + 1;
    seen.set(r.number, k);
    order.set(r, k);
  }
  for (const [line, rs] of byLine) {
    let l = lines[line]!;
    const crlf = l.endsWith('\r');
    if (crlf) l = l.slice(0, -1);
    for (const r of [...rs].sort((a, b) => b.start - a.start)) l = `${l.slice(0, r.start)}${render(r.number, order.get(r)!)}${l.slice(r.end)}`;
    lines[line] = crlf ? `${l}\r` : l;
  }
  return lines.join('\n');
}

/**
 * The report as Markdown: every `[n]` a link to its span in the original file (with the quote as
 * the link's title), and a "Sources" appendix: per source its number, item title, speaker and
 * time, the linked `file:line` and the quoted span.
 *
 * @example
 * reportToMarkdown({ markdown, sources, corpusRoot: '/c', corpus, outFile: '/c/report-r1.md' })
 * // "… injuries fell [\[4\]](<city-cycling-podcast/transcript.vtt#L15,11> "Reported cyclist…") …\n\n## Sources\n\n…"
 */
export function reportToMarkdown(input: ReportExportInput): string {
  // Links open at the span's start: VS Code's Markdown preview follows `#L<line>,<col>` only.
  const sources = exportedSources(input, 'start');
  const byNumber = new Map(sources.map((s) => [s.number, s]));
  const body = replaceCitations(reportBody(input.markdown), (n) => {
    const s = byNumber.get(n);
    return s?.href ? `[\\[${n}\\]](<${s.href}>${s.quote ? ` "${mdTitle(cut(s.quote, 200))}"` : ''})` : `\\[${n}\\]`;
  });
  const appendix = sources.map((s) => {
    const head = [`**[${s.number}]** ${markdownText(s.title)}`, ...(s.where ? [markdownText(s.where)] : []), s.href ? `[${markdownText(s.location)}](<${s.href}>)` : markdownText(s.location)].join(' · ');
    const quote = s.quote ? `\n\n   > ${markdownText(s.quote)}` : '';
    return `${s.number}. <a id="source-${s.number}"></a>${head}${quote}`;
  });
  return `${body.trimEnd()}\n\n## Sources\n\n${appendix.join('\n\n')}\n`;
}

/** Style of the exported HTML: readable, printable, light and dark. */
const HTML_STYLE = `
:root { color-scheme: light dark; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; line-height: 1.3; } h2 { margin-top: 2rem; border-bottom: 1px solid #8884; padding-bottom: .2rem; }
a.cite { text-decoration: none; font-size: .85em; vertical-align: super; padding: 0 .1em; }
a.cite:target, li:target { background: #fd04; }
blockquote { margin: .4rem 0 .4rem .2rem; padding: .1rem .8rem; border-left: 3px solid #8886; color: inherit; opacity: .9; }
ol.sources li { margin: .7rem 0; } .where { opacity: .8; } .back { font-size: .85em; margin-left: .3rem; }
code { font-size: .9em; } table { border-collapse: collapse; } th, td { border: 1px solid #8886; padding: .2rem .5rem; }
`;

/**
 * The report as one standalone HTML page: `[n]` links to the source's anchor (`#source-n`; each
 * citation has its own anchor, `#cite-n-k`, which the source links back to), and the sources
 * appendix links each span to the original file.
 */
export function reportToHtml(input: ReportExportInput, opts: { title?: string; lang?: string } = {}): string {
  const { body, items } = citedHtml(reportBody(input.markdown), exportedSources(input), { backTitle: true });
  const heading = /^#\s+(.+)$/m.exec(input.markdown)?.[1]?.trim();
  const title = opts.title ?? (heading ? heading.replace(/\\([!-/:-@[-`{-~])/g, '$1') : 'Research report');
  return htmlPage({ title, lang: opts.lang ?? 'en', style: HTML_STYLE, body: [body, '<h2 id="sources">Sources</h2>', `<ol class="sources">\n${items.join('\n')}\n</ol>`] });
}

/**
 * Markdown with `[n]` citations as HTML, and its sources as list items: each `[n]` links to the
 * source's anchor (`#source-n`) and has its own (`#cite-n-k`), which the source links back to.
 * `after` adds a source's own line (the notebook's "lost") before its quote.
 */
export function citedHtml<S extends ExportedSource>(markdown: string, sources: readonly S[], opts: { backTitle: boolean; after?: (s: S) => string }): { body: string; items: string[] } {
  const byNumber = new Map(sources.map((s) => [s.number, s]));
  const uses = new Map<number, number>();
  // Citations become private-use placeholders that survive Markdown rendering and escaping.
  const marked = replaceCitations(markdown, (n, k) => {
    uses.set(n, Math.max(uses.get(n) ?? 0, k));
    return `\uE000${n}.${k}\uE001`;
  });
  const body = markdownToHtml(marked, {
    text: (html) =>
      html.replace(/\uE000(\d+)\.(\d+)\uE001/g, (_, n: string, k: string) => {
        const s = byNumber.get(Number(n));
        const title = s ? ` title="${escapeHtml(cut(`${s.title}${s.where ? ` · ${s.where}` : ''}: ${s.quote}`, 300))}"` : '';
        return `<a class="cite" id="cite-${n}-${k}" href="#source-${n}"${title}>[${n}]</a>`;
      }),
  });
  const items = sources.map((s) => {
    const back = Array.from({ length: uses.get(s.number) ?? 0 }, (_, i) => `<a class="back" href="#cite-${s.number}-${i + 1}"${opts.backTitle ? ` title="back to citation ${i + 1}"` : ''}>↩${i ? i + 1 : ''}</a>`).join('');
    const loc = s.href ? `<a href="${escapeHtml(s.href)}">${escapeHtml(s.location)}</a>` : escapeHtml(s.location);
    const quote = s.quote ? `<blockquote>${escapeHtml(s.quote)}</blockquote>` : '';
    return `<li id="source-${s.number}" value="${s.number}"><strong>${escapeHtml(s.title)}</strong>${s.where ? ` <span class="where">· ${escapeHtml(s.where)}</span>` : ''} · ${loc}${back}${opts.after?.(s) ?? ''}${quote}</li>`;
  });
  return { body, items };
}

/** The export format a file name asks for: `.md`/`.markdown` or `.html`/`.htm` (case-insensitive); undefined otherwise. */
export function reportFormatOf(file: string): 'md' | 'html' | undefined {
  if (/\.(?:md|markdown)$/i.test(file)) return 'md';
  if (/\.html?$/i.test(file)) return 'html';
  return undefined;
}
