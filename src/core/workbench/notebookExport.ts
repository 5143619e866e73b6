/**
 * Export of the notebook like a report (`reportExport.ts`): Markdown whose every quote carries a
 * `[n]` linked to its span in the original file, closed by a Sources appendix (item, speaker,
 * time, the linked file:line and the quote), and standalone HTML with an anchor per citation.
 * Every corpus value (titles, quotes, pinned words) is escaped text; the researcher's notes are
 * reduced to the safe Markdown subset (no link, image or HTML of their own; a `[3]` they typed is
 * text, not a citation). The appendix quotes what was pinned — for a span lost after re-indexing
 * that is the remembered quote, flagged, never the text now at its old offsets.
 * Pure: the caller reads the notebook and writes the result.
 */
import type { Corpus } from '../corpus/types';
import { escapeHtml, htmlPage } from '../export/markdownHtml';
import { citedHtml, defaultLinkStyle, exportedSources, replaceCitations, type ExportedSource, type LinkStyle } from '../export/reportExport';
import type { ReportSources } from '../research/schema';
import { reduceMarkdown } from '../text/markdownReduce';
import { breakAutolinks, markdownText } from '../text/markdownSafe';
import { pinnedWordsLines, type NotebookDoc } from './notebookFormat';
import { notebookWords } from './notebookWords';
import { spanKey, toSourceSpan } from './pins';
import type { NotebookEntry, PinnedSpan } from './schema';

export interface NotebookExportInput {
  doc: NotebookDoc;
  corpusRoot: string;
  /** The loaded corpus: item titles, speakers and comment authors of the appendix (optional). */
  corpus?: Pick<Corpus, 'items'>;
  /** Where the exported file goes (relative links start from its folder). */
  outFile: string;
  links?: LinkStyle;
  /** Characters of a quote in the appendix and link titles (default 600). */
  maxQuoteChars?: number;
}

/** The notebook as a report: Markdown with `[n]` citations (safe subset) and its numbered sources. */
export interface NotebookReport {
  markdown: string;
  sources: ReportSources;
  /** The pinned span of each number. */
  spans: Map<number, PinnedSpan>;
  title: string;
}

const asText = (md: string, minHeading = 1): string => reduceMarkdown(md, { isCitation: () => false, minHeading }).trimEnd();

/**
 * The notebook as a report body: free notes and entries in order, each quote followed by its
 * `[n]` (one number per distinct span, in order of first use).
 */
export function notebookReport(doc: NotebookDoc): NotebookReport {
  const W = notebookWords(doc.lang);
  const numbers = new Map<string, number>();
  const spans = new Map<number, PinnedSpan>();
  const cite = (s: PinnedSpan): number => {
    const key = spanKey(s);
    let n = numbers.get(key);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(key, n);
      spans.set(n, s);
    }
    return n;
  };
  const entry = (e: NotebookEntry): string[] => {
    const out = [`## ${markdownText(e.title)}`.trimEnd(), '', `*${W.kinds[e.kind]} · ${e.createdAt.slice(0, 10)}*`];
    const words = pinnedWordsLines(e);
    if (words.length) out.push('', ...words);
    for (const s of e.spans) {
      out.push('');
      if (s.lost) out.push(`> ${W.lost}\\`);
      out.push(`> ${markdownText(s.quote)} [${cite(s)}]`);
    }
    if (e.note?.trim()) out.push('', asText(e.note, 3));
    return out;
  };
  const parts: string[] = [];
  for (const b of doc.blocks) {
    if (b.type === 'text') {
      if (b.text.trim()) parts.push(asText(b.text));
    } else parts.push(entry(b.entry).join('\n'));
  }
  const heading = doc.blocks.find((b) => b.type === 'text' && /^#\s+\S/m.test(b.text));
  const title = heading?.type === 'text' ? /^#\s+(.+?)\s*#*\s*$/m.exec(heading.text)![1]!.replace(/\\([!-/:-@[-`{-~])/g, '$1') : W.title;
  const markdown = `${heading ? '' : `# ${markdownText(W.title)}\n\n`}${parts.join('\n\n')}\n`;
  const citations = [...spans].map(([number, s]) => ({ number, span: toSourceSpan(s, `N${number}`) }));
  return { markdown, sources: { citations }, spans, title };
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max).trimEnd()}…` : s;
}

/** The appendix's sources: the report export's (title, where, location, link) with the pinned quote. */
function sourcesOf(input: NotebookExportInput, report: NotebookReport, fragment: 'range' | 'start'): (ExportedSource & { lost: boolean })[] {
  const max = input.maxQuoteChars ?? 600;
  const links = input.links ?? defaultLinkStyle(input.corpusRoot, input.outFile);
  return exportedSources({ markdown: report.markdown, sources: report.sources, corpusRoot: input.corpusRoot, corpus: input.corpus, outFile: input.outFile, links, maxQuoteChars: max }, fragment).map((s) => {
    const pinned = report.spans.get(s.number)!;
    const title = input.corpus?.items.some((it) => it.id === pinned.itemId) ? s.title : (pinned.itemTitle ?? s.title);
    return { ...s, title, quote: cut(pinned.quote.replace(/\s+/g, ' ').trim(), max), lost: !!pinned.lost };
  });
}

/** A Markdown link title in double quotes (as the report export writes them). */
function mdTitle(s: string): string {
  return breakAutolinks(s.replace(/\s+/g, ' ')).replace(/["\\&]/g, (c) => `\\${c}`);
}

/** The notebook as Markdown: every `[n]` a link to its span (the quote as its title), and a Sources appendix. */
export function notebookToMarkdown(input: NotebookExportInput): string {
  const report = notebookReport(input.doc);
  const W = notebookWords(input.doc.lang);
  const sources = sourcesOf(input, report, 'start');
  const byNumber = new Map(sources.map((s) => [s.number, s]));
  const body = replaceCitations(report.markdown, (n) => {
    const s = byNumber.get(n);
    return s?.href ? `[\\[${n}\\]](<${s.href}>${s.quote ? ` "${mdTitle(cut(s.quote, 200))}"` : ''})` : `\\[${n}\\]`;
  });
  if (!sources.length) return body;
  const appendix = sources.map((s) => {
    const head = [`**[${s.number}]** ${markdownText(s.title)}`, ...(s.where ? [markdownText(s.where)] : []), s.href ? `[${markdownText(s.location)}](<${s.href}>)` : markdownText(s.location)].join(' · ');
    const lost = s.lost ? `\n\n   ${W.lost}` : '';
    const quote = s.quote ? `\n\n   > ${markdownText(s.quote)}` : '';
    return `${s.number}. <a id="source-${s.number}"></a>${head}${lost}${quote}`;
  });
  return `${body.trimEnd()}\n\n## ${W.sources}\n\n${appendix.join('\n\n')}\n`;
}

const HTML_STYLE = `
:root { color-scheme: light dark; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; line-height: 1.3; } h2 { margin-top: 2rem; border-bottom: 1px solid #8884; padding-bottom: .2rem; }
a.cite { text-decoration: none; font-size: .85em; vertical-align: super; padding: 0 .1em; }
a.cite:target, li:target { background: #fd04; }
blockquote { margin: .4rem 0 .4rem .2rem; padding: .1rem .8rem; border-left: 3px solid #8886; opacity: .9; }
ol.sources li { margin: .7rem 0; } .where { opacity: .8; } .back { font-size: .85em; margin-left: .3rem; } .lost { color: #c60; }
`;

/** The notebook as one standalone HTML page: `[n]` links to its source (`#source-n`), each source to its span in the original file. */
export function notebookToHtml(input: NotebookExportInput, opts: { title?: string } = {}): string {
  const report = notebookReport(input.doc);
  const W = notebookWords(input.doc.lang);
  const sources = sourcesOf(input, report, 'range');
  const { body, items } = citedHtml(report.markdown, sources, { backTitle: false, after: (s) => (s.lost ? `<div class="lost">${escapeHtml(W.lost)}</div>` : '') });
  return htmlPage({
    title: opts.title ?? report.title,
    lang: input.doc.lang,
    style: HTML_STYLE,
    body: [body, ...(items.length ? [`<h2 id="sources">${escapeHtml(W.sources)}</h2>`, `<ol class="sources">\n${items.join('\n')}\n</ol>`] : [])],
  });
}
