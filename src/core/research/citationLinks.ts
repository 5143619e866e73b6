/**
 * Citations of a research report in the editor (pure: no VS Code, no I/O).
 * Finds every `[n]` of a `report.md` (each number of `[2][5]` separately),
 * builds the link target of a cited span (the extension's "open evidence"
 * command with the span, {@link evidenceCommandTarget}; or the original file's
 * URI with a `#L<line>,<col>-L<line>,<col>` fragment, one-based, which VS Code
 * opens at that selection) and the hover text. The language server serves them.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceRange } from '../markers/schema';
import type { SourceSpan } from './schema';
import { formatClock } from '../text/clock';
import { backtickRuns } from '../text/markdownReduce';
import { hoverText, markdownCode } from '../text/markdownSafe';

/** One `[n]` in a report: the number and where it is (zero-based line, UTF-16 columns; `end` exclusive, brackets included). */
export interface CitationRef {
  number: number;
  line: number;
  start: number;
  end: number;
}

/** Where the persisted runs live inside a corpus folder. */
export const RUNS_DIR = path.join('.marker-research', 'runs');

/**
 * Every `[n]` citation in `text`, in document order. Skips fenced code blocks,
 * inline code, Markdown links (`[1](…)`), reference definitions (`[1]: …`)
 * and escaped brackets.
 *
 * @example
 * findCitations('Lanes cut injuries [2][5].') // [{ number: 2, line: 0, start: 19, end: 22 }, { number: 5, line: 0, start: 22, end: 25 }]
 */
export function findCitations(text: string): CitationRef[] {
  const out: CitationRef[] = [];
  const lines = text.split(/\r?\n/);
  // The open fence (CommonMark: closed by a run of its character at least as long, and nothing else).
  let fence: string | null = null;
  for (let line = 0; line < lines.length; line++) {
    const l = lines[line]!;
    if (fence !== null) {
      const close = /^\s{0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) fence = null;
      continue;
    }
    const f = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(l);
    if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
      fence = f[1]!;
      continue;
    }
    if (/^\s{0,3}\[\d+\]:/.test(l)) continue; // a reference definition
    const code = codeSpans(l);
    for (const m of l.matchAll(/\[(\d{1,6})\]/g)) {
      const start = m.index;
      const end = start + m[0].length;
      if (l[end] === '(' || (start > 0 && l[start - 1] === '\\')) continue;
      if (code.some(([a, b]) => start >= a && start < b)) continue;
      const n = Number(m[1]);
      if (n > 0) out.push({ number: n, line, start, end });
    }
  }
  return out;
}

/**
 * [start, end) of the inline code spans of one line: a run of backticks not escaped by a
 * backslash, closed by the next run of the same length.
 */
function codeSpans(line: string): [number, number][] {
  const spans: [number, number][] = [];
  const closing = backtickRuns(line);
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== '`') continue;
    let end = i;
    while (line[end] === '`') end++;
    const close = closing(end, end - i);
    if (close >= 0) {
      spans.push([i, close + end - i]);
      i = close + end - i - 1;
    } else i = end - 1;
  }
  return spans;
}

/** The run a report belongs to, when `file` is `<corpus>/.marker-research/runs/<run-id>/report.md`. */
export function reportLocation(file: string): { corpusRoot: string; runId: string; runDir: string } | undefined {
  const p = path.resolve(file);
  if (path.basename(p) !== 'report.md') return undefined;
  const runDir = path.dirname(p);
  const runs = path.dirname(runDir);
  const mr = path.dirname(runs);
  if (path.basename(runs) !== 'runs' || path.basename(mr) !== '.marker-research') return undefined;
  return { corpusRoot: path.dirname(mr), runId: path.basename(runDir), runDir };
}

/**
 * The absolute path of a cited file, or undefined when `rel` leaves the corpus
 * folder (a report's sources are data: never followed outside the corpus).
 */
export function citedFile(corpusRoot: string, rel: string): string | undefined {
  const abs = path.resolve(corpusRoot, rel);
  const back = path.relative(corpusRoot, abs);
  if (!back || back.startsWith('..') || path.isAbsolute(back)) return undefined;
  return abs;
}

/** `#L<startLine+1>,<startColumn+1>-L<endLine+1>,<endColumn+1>`: the fragment VS Code opens a file URI at. */
export function selectionFragment(r: Pick<SourceRange, 'startLine' | 'startColumn' | 'endLine' | 'endColumn'>): string {
  return `L${r.startLine + 1},${r.startColumn + 1}-L${r.endLine + 1},${r.endColumn + 1}`;
}

/**
 * The link target of a cited span: the original file's `file:` URI with the
 * selection fragment, or undefined when the file is outside the corpus.
 *
 * @example
 * citationTarget('/c', { file: 'a/transcript.vtt', startLine: 20, startColumn: 0, endLine: 21, endColumn: 12 })
 * // 'file:///c/a/transcript.vtt#L21,1-L22,13'
 */
export function citationTarget(corpusRoot: string, source: SourceRange): string | undefined {
  const abs = citedFile(corpusRoot, source.file);
  if (!abs) return undefined;
  return `${pathToFileURL(abs).toString()}#${selectionFragment(source)}`;
}

/** The command report citations run: it opens the span where `markerResearch.evidenceView` says (the readable view of the item, or the original file). */
export const OPEN_EVIDENCE_COMMAND = 'markerResearch.openEvidence';

/**
 * The link target of a cited span in the editor: a `command:` URI that opens
 * the span with the extension's evidence navigator (readable view by default,
 * the original file as the setting says), carrying the span's offsets and its
 * place in the original file. Undefined when the file is outside the corpus.
 *
 * @example
 * evidenceCommandTarget('/c', span)
 * // 'command:markerResearch.openEvidence?%5B%7B%22itemId%22%3A%22city%22%2C…'
 */
export function evidenceCommandTarget(corpusRoot: string, span: Pick<SourceSpan, 'item_id' | 'part' | 'start' | 'end' | 'source'>): string | undefined {
  if (!citedFile(corpusRoot, span.source.file)) return undefined;
  const s = span.source;
  const arg = {
    itemId: span.item_id,
    part: span.part,
    start: span.start,
    end: span.end,
    file: s.file,
    range: { startLine: s.startLine, startColumn: s.startColumn, endLine: s.endLine, endColumn: s.endColumn },
  };
  return `command:${OPEN_EVIDENCE_COMMAND}?${encodeURIComponent(JSON.stringify([arg]))}`;
}

/** The text of `range` in `text` (zero-based lines, UTF-16 columns, end exclusive). */
export function sliceRange(text: string, r: Pick<SourceRange, 'startLine' | 'startColumn' | 'endLine' | 'endColumn'>): string {
  const lines = text.split(/\r?\n/);
  if (r.startLine >= lines.length) return '';
  if (r.startLine === r.endLine) return (lines[r.startLine] ?? '').slice(r.startColumn, r.endColumn);
  const out = [(lines[r.startLine] ?? '').slice(r.startColumn)];
  for (let i = r.startLine + 1; i < r.endLine && i < lines.length; i++) out.push(lines[i]!);
  if (r.endLine < lines.length) out.push(lines[r.endLine]!.slice(0, r.endColumn));
  return out.join('\n');
}


/** `file:12-14` (one-based lines). */
export function linesLabel(r: Pick<SourceRange, 'file' | 'startLine' | 'endLine'>): string {
  return r.startLine === r.endLine ? `${r.file}:${r.startLine + 1}` : `${r.file}:${r.startLine + 1}-${r.endLine + 1}`;
}

/**
 * What a citation's hover shows, as Markdown: title, where in words (`location`: speaker · time
 * or turn; author · likes · date), file and lines, time and speakers, and the quoted span. Every
 * corpus value (title, path, speakers, comment ids, quote) is text ({@link hoverText}; the path a
 * code span, {@link markdownCode}): nothing of the corpus becomes a link, HTML or markup.
 */
export function citationHover(n: number, span: SourceSpan, opts: { title?: string; quote?: string; maxQuoteChars?: number; location?: string } = {}): string {
  const s = span.source;
  const head = [`**[${n}]** ${hoverText(opts.title ?? span.item_id)}`];
  if (opts.location) head.push('', hoverText(opts.location));
  const where = [markdownCode(linesLabel(s)), span.part];
  if (s.startTime !== undefined) where.push(`${formatClock(s.startTime)}${s.endTime !== undefined && s.endTime > s.startTime ? `–${formatClock(s.endTime)}` : ''}`);
  if (s.speakers?.length) where.push(s.speakers.map(hoverText).join(', '));
  if (s.commentIds?.length) where.push(`comment ${s.commentIds.map(hoverText).join(', ')}`);
  const lines = [...head, '', where.join(' · ')];
  const max = opts.maxQuoteChars ?? 1200;
  const quote = (opts.quote ?? '').trim();
  if (quote) {
    const cut = quote.length > max ? `${quote.slice(0, max)}…` : quote;
    lines.push('', ...cut.split(/\r?\n/).map((l) => `> ${hoverText(l)}`));
  }
  return lines.join('\n');
}
