/**
 * `.marker-research/notebook.md`: the researcher's notebook as plain Markdown they can edit. Pure
 * (no I/O): rendering and parsing; `notebookStore.ts` reads and writes the file.
 *
 * The file is a first line naming the format and its language, then free Markdown (the
 * researcher's notes, kept verbatim) with entries between them. An entry is:
 *
 *     <!-- marker-research:entry {"id":"…","kind":"marker",…,"spans":[…]} -->
 *     ### FACT · bike lanes
 *     *Marker · 2024-05-09*
 *
 *     Protected lanes cut injuries by 40 %.
 *
 *     > Reported cyclist injuries fell by forty percent\
 *     > — [Daniel · 0:35 · City Cycling](<../city/transcript.vtt#L15,11>) · `city/transcript.vtt:15`
 *
 *     The researcher's note about it, any Markdown.
 *     <!-- /marker-research:entry -->
 *
 * The record in the comment (invisible in the preview) is the entry's data: its id, kind, the
 * pinned spans with their exact quotes and places. The lines under the heading — the kind and date,
 * the pinned words, each quote with its citation link (the link form of the report exports: the
 * cited file relative to the notebook, with the `#L<line>,<col>` fragment VS Code opens) — are
 * written from the record; what follows them is the researcher's note. Edits are read back
 * tolerantly: entries may be moved, deleted, their heading renamed (the title follows), notes
 * written anywhere; a line written in place of a generated one is kept as part of the note (and
 * the generated line written again), so nothing typed is ever dropped. An entry whose record does
 * not read is reported with its file and line and kept as text, verbatim.
 *
 * The record is JSON with `:`, `<`, `>` and `--` written as `\u` escapes inside its strings: no
 * corpus text in it can end the comment or be taken for a link by the editor. An entry line
 * starts an entry wherever it is (also inside a code block of a note: a fence the researcher
 * left open never hides the entries after it).
 */
import { fileLineLabel, storedLocationLabel } from '../corpus/locationLabel';
import { spanHref } from '../export/reportExport';
import { linesLabel } from '../research/citationLinks';
import { reduceMarkdown } from '../text/markdownReduce';
import { markdownCode, markdownText } from '../text/markdownSafe';
import { fieldPath } from './fileErrors';
import { isNotebookLanguage, notebookWords, type NotebookLanguage, type NotebookWords } from './notebookWords';
import { toSourceSpan } from './pins';
import { entryRecordSchema, type EntryRecord, type NotebookEntry, type PinnedSpan } from './schema';

/** The notebook format this version writes. */
export const NOTEBOOK_VERSION = 1;

const HEADER = /^<!--\s*marker-research:notebook\s+v(\d+)(?:\s+lang=([A-Za-z-]+))?\s*-->\s*$/;
const OPEN_START = /^ {0,3}<!--\s*marker-research:entry\b/;
const OPEN = /^ {0,3}<!--\s*marker-research:entry\s+(\{.*\})\s*-->\s*$/;
const CLOSE = /^ {0,3}<!--\s*\/marker-research:entry\s*-->\s*$/;
const CLOSE_LINE = '<!-- /marker-research:entry -->';
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$/;

/** A block of a notebook: free Markdown of the researcher's (verbatim; its lines joined by `\n`), or an entry. */
export type NotebookBlock = { type: 'text'; text: string } | { type: 'entry'; entry: NotebookEntry };

/** A notebook: its language and its blocks in order. */
export interface NotebookDoc {
  lang: NotebookLanguage;
  blocks: NotebookBlock[];
  /** The line ending the file uses. */
  eol: '\n' | '\r\n';
}

/** Something wrong in notebook.md: the file, the one-based line, and what. */
export interface NotebookProblem {
  file: string;
  line: number;
  severity: 'error' | 'warning';
  code: 'bad-record' | 'unclosed-entry' | 'stray-close' | 'duplicate-id' | 'newer-version' | 'unknown-language';
  message: string;
}

/** `notebook.md:12: error: …` */
export function formatNotebookProblem(p: NotebookProblem): string {
  return `${p.file}:${p.line}: ${p.severity}: ${p.message}`;
}

/** Zero-based lines `[start, end)` of the file a block was read from. */
export interface BlockRange {
  start: number;
  end: number;
}

/** A notebook as read from its text. */
export interface ParsedNotebook extends NotebookDoc {
  problems: NotebookProblem[];
  /** Where each block is in the file (parallel to `blocks`). */
  ranges: BlockRange[];
  /** The file's lines (without line endings) the ranges index. */
  lines: string[];
  /** Lines of the file before the first block (the format line; 0 when it has none). */
  headerLines: number;
  /** False when the file is of a newer format: it must not be rewritten by this version. */
  writable: boolean;
}

/** The entries of a notebook, in order. */
export function notebookEntries(doc: Pick<NotebookDoc, 'blocks'>): NotebookEntry[] {
  return doc.blocks.flatMap((b) => (b.type === 'entry' ? [b.entry] : []));
}

/** A new notebook: the format line and a title. */
export function emptyNotebook(lang: NotebookLanguage = 'en'): NotebookDoc {
  return { lang, eol: '\n', blocks: [{ type: 'text', text: `# ${notebookWords(lang).title}` }] };
}

export function headerLine(lang: NotebookLanguage): string {
  return `<!-- marker-research:notebook v${NOTEBOOK_VERSION} lang=${lang} -->`;
}

// ---- the record ---------------------------------------------------------------------------------

/** JSON whose strings cannot end an HTML comment nor read as a link: `:`, `<`, `>`, a `-` before `-`, U+2028/9 escaped. */
function commentJson(value: unknown): string {
  const json = JSON.stringify(value);
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + json[++i]!;
        continue;
      }
      if (c === '"') inString = false;
      else if (c === ':' || c === '<' || c === '>' || c === '\u2028' || c === '\u2029' || (c === '-' && json[i + 1] === '-')) {
        out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (c === '"') inString = true;
    out += c;
  }
  return out;
}

/** The record of an entry, its fields in a fixed order. */
function recordOf(e: NotebookEntry): EntryRecord {
  return {
    id: e.id,
    kind: e.kind,
    title: e.title,
    ...(e.text !== undefined ? { text: e.text } : {}),
    createdAt: e.createdAt,
    ...(e.origin ? { origin: e.origin } : {}),
    spans: e.spans,
  };
}

// ---- rendering ----------------------------------------------------------------------------------

/** Where links are computed from: the notebook inside a corpus folder (links are relative, so the real folder does not matter). */
const LINK_ROOT = '/corpus';
const LINK_FROM = '/corpus/.marker-research/notebook.md';

/** The citation line of a span: its place in words linked to the original file, and the file and lines. */
function citationLine(span: PinnedSpan): string {
  const label = storedLocationLabel(span.source, span.part, span.itemTitle);
  const href = spanHref(LINK_ROOT, toSourceSpan(span, ''), LINK_FROM, 'relative', 'start');
  const linked = href ? `[${markdownText(label)}](<${href}>)` : markdownText(label);
  const where = label.includes(fileLineLabel(span.source)) ? '' : ` · ${markdownCode(linesLabel(span.source))}`;
  return `— ${linked}${where}`;
}

/**
 * The pinned words of an entry as Markdown lines: a chat answer (Markdown a model wrote) reduced
 * to the safe subset, its lists and emphasis kept and its `[n]` (the chat's own numbers) as text;
 * any other (a marker's claim, an answer sentence, a finding) as text, line by line.
 */
export function pinnedWordsLines(e: Pick<NotebookEntry, 'kind' | 'text'>): string[] {
  const text = e.text?.trim();
  if (!text) return [];
  if (e.kind === 'chat-answer') return reduceMarkdown(text, { isCitation: () => false, minHeading: 4 }).trimEnd().split('\n');
  return text.split(/\r\n|[\r\n\u2028\u2029]/).map((l) => (l.trim() ? markdownText(l.trim()) : ''));
}

/** The lines written from an entry's record under its heading (the kind and date, the pinned words, each quote with its link). */
function generatedLines(e: Pick<NotebookEntry, 'kind' | 'createdAt' | 'text' | 'spans'>, W: NotebookWords): string[] {
  const out = [`*${W.kinds[e.kind]} · ${e.createdAt.slice(0, 10)}*`];
  const words = pinnedWordsLines(e);
  if (words.length) out.push('', ...words);
  for (const s of e.spans) {
    out.push('');
    if (s.lost) out.push(`> ${W.lost}\\`);
    out.push(`> ${markdownText(s.quote)}\\`, `> ${citationLine(s)}`);
  }
  return out;
}

/** The heading of an entry. */
function headingLine(title: string): string {
  return `### ${markdownText(title)}`.trimEnd();
}

/** An entry's lines in notebook.md, from its opening comment to its closing one. */
export function renderEntry(e: NotebookEntry, lang: NotebookLanguage): string[] {
  const note = e.note?.replace(/\s+$/, '');
  return [
    `<!-- marker-research:entry ${commentJson(recordOf(e))} -->`,
    headingLine(e.title),
    ...generatedLines(e, notebookWords(lang)),
    ...(note ? ['', ...note.split(/\r?\n/)] : []),
    CLOSE_LINE,
  ];
}

function blockLines(b: NotebookBlock, lang: NotebookLanguage): string[] {
  return b.type === 'entry' ? renderEntry(b.entry, lang) : b.text.split('\n');
}

/** The text of notebook.md for a notebook (free text verbatim, entries written from their records and notes). */
export function renderNotebook(doc: NotebookDoc): string {
  const lines = [headerLine(doc.lang), ...doc.blocks.flatMap((b) => blockLines(b, doc.lang))];
  return `${lines.join(doc.eol)}${doc.eol}`;
}

/**
 * `existing` notebook text (undefined: no file yet) with `entry` added at the end, after a blank
 * line; everything already there is kept byte for byte.
 */
export function appendEntryText(existing: string | undefined, entry: NotebookEntry, lang?: NotebookLanguage): string {
  if (existing === undefined || !existing.trim()) {
    const doc = emptyNotebook(lang);
    doc.blocks.push({ type: 'text', text: '' }, { type: 'entry', entry });
    return renderNotebook(doc);
  }
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const useLang = lang ?? parseHeader(existing.split(/\r?\n/, 1)[0]!)?.lang ?? 'en';
  let text = existing.endsWith('\n') ? existing : `${existing}${eol}`;
  const lines = text.split(/\r?\n/);
  const last = lines[lines.length - 2] ?? '';
  if (last.trim()) text += eol;
  return `${text}${renderEntry(entry, isNotebookLanguage(useLang) ? useLang : 'en').join(eol)}${eol}`;
}

/** Where a span's citation link is in notebook.md (for the language server's links and hovers). */
export interface NotebookCitation {
  /** Zero-based line, and UTF-16 columns `[start, end)` of the citation (after the `> `). */
  line: number;
  start: number;
  end: number;
  entryId: string;
  /** The span's index in its entry. */
  spanIndex: number;
  span: PinnedSpan;
}

/** The citation line of every span of every entry that still has it as written, in file order. */
export function notebookCitations(parsed: ParsedNotebook): NotebookCitation[] {
  const out: NotebookCitation[] = [];
  parsed.blocks.forEach((b, k) => {
    if (b.type !== 'entry') return;
    const r = parsed.ranges[k]!;
    let from = r.start;
    b.entry.spans.forEach((span, spanIndex) => {
      const want = `> ${citationLine(span)}`;
      for (let j = from; j < r.end; j++) {
        if (parsed.lines[j] !== want) continue;
        out.push({ line: j, start: 2, end: want.length, entryId: b.entry.id, spanIndex, span });
        from = j + 1;
        return;
      }
    });
  });
  return out;
}

// ---- parsing ------------------------------------------------------------------------------------

function parseHeader(line: string): { version: number; lang: string | undefined } | undefined {
  const m = HEADER.exec(line);
  return m ? { version: Number(m[1]), lang: m[2] } : undefined;
}

/** A heading as the researcher may have edited it, back to plain text: Markdown escapes and link breaks undone. */
function headingText(raw: string): string {
  return raw.replace(/\u2060/g, '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Indexes of the lines of `a` that are in a longest common subsequence with `b`. */
function matchedLines(a: readonly string[], b: readonly string[]): Set<number> {
  const n = a.length;
  const m = b.length;
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out = new Set<number>();
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      out.add(i);
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** Blank lines dropped at both ends; undefined when nothing is left. */
function trimmedNote(lines: readonly string[]): string | undefined {
  let a = 0;
  let z = lines.length;
  while (a < z && !lines[a]!.trim()) a++;
  while (z > a && !lines[z - 1]!.trim()) z--;
  return z > a ? lines.slice(a, z).join('\n') : undefined;
}

type RecordRead = { ok: true; record: EntryRecord } | { ok: false; message: string };

function readRecord(line: string): RecordRead {
  const m = OPEN.exec(line);
  if (!m) return { ok: false, message: 'the entry line is not `<!-- marker-research:entry {…} -->` (its record or its closing `-->` was changed)' };
  let raw: unknown;
  try {
    raw = JSON.parse(m[1]!);
  } catch (e) {
    return { ok: false, message: `the entry's record is not valid JSON (${(e as Error).message})` };
  }
  const parsed = entryRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `the entry's record is not valid: ${fieldPath(issue.path) || 'record'}: ${issue.message}` };
  }
  return { ok: true, record: parsed.data };
}

/** An entry from its record and the lines between its opening and closing comments. */
function entryOf(record: EntryRecord, body: readonly string[], W: NotebookWords): NotebookEntry {
  let title = record.title;
  let rest = body;
  const h = body.findIndex((l) => l.trim() !== '');
  const heading = h >= 0 ? HEADING.exec(body[h]!) : null;
  if (heading) {
    const shown = (heading[1] ?? '').trim();
    if (shown !== headingLine(record.title).replace(/^### ?/, '').trim()) title = headingText(shown);
    rest = [...body.slice(0, h), ...body.slice(h + 1)];
  }
  const matched = matchedLines(rest, generatedLines(record, W));
  const note = trimmedNote(rest.filter((_, i) => !matched.has(i)));
  return { ...record, title, ...(note !== undefined ? { note } : {}) };
}

/**
 * Reads notebook.md (see the module comment). Never throws and never drops text: an entry that
 * does not read is kept as text and reported (`problems`, each with the file and line).
 *
 * @param file The file's name for the problems (e.g. its path relative to the corpus).
 */
export function parseNotebook(text: string, file = 'notebook.md'): ParsedNotebook {
  const eol: '\n' | '\r\n' = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const problems: NotebookProblem[] = [];
  const problem = (line: number, severity: NotebookProblem['severity'], code: NotebookProblem['code'], message: string): void => {
    problems.push({ file, line: line + 1, severity, code, message });
  };
  const header = lines.length ? parseHeader(lines[0]!) : undefined;
  let lang: NotebookLanguage = 'en';
  if (header?.lang !== undefined) {
    if (isNotebookLanguage(header.lang)) lang = header.lang;
    else problem(0, 'warning', 'unknown-language', `unknown notebook language "${header.lang}"; read as English`);
  }
  const headerLines = header ? 1 : 0;
  const blocks: NotebookBlock[] = [];
  const ranges: BlockRange[] = [];
  if (header && header.version > NOTEBOOK_VERSION) {
    problem(0, 'error', 'newer-version', `written by a newer version of Marker Research (notebook format v${header.version}; this version reads v${NOTEBOOK_VERSION}): it is shown, not changed`);
    if (lines.length > 1) {
      blocks.push({ type: 'text', text: lines.slice(1).join('\n') });
      ranges.push({ start: 1, end: lines.length });
    }
    return { lang, eol, blocks, ranges, problems, lines, headerLines, writable: false };
  }
  const W = notebookWords(lang);
  const ids = new Map<string, number>();
  let textStart = -1;
  const flush = (end: number): void => {
    if (textStart < 0) return;
    blocks.push({ type: 'text', text: lines.slice(textStart, end).join('\n') });
    ranges.push({ start: textStart, end });
    textStart = -1;
  };
  let i = headerLines;
  while (i < lines.length) {
    const line = lines[i]!;
    if (OPEN_START.test(line)) {
      // The entry runs to its closing comment, or (unclosed) to the next entry or the end.
      let j = i + 1;
      while (j < lines.length && !CLOSE.test(lines[j]!) && !OPEN_START.test(lines[j]!)) j++;
      const close = j < lines.length && CLOSE.test(lines[j]!) ? j : -1;
      const end = close >= 0 ? close + 1 : j;
      const read = readRecord(line);
      if (!read.ok) {
        problem(i, 'error', 'bad-record', `${read.message}; the entry is kept as text`);
        if (textStart < 0) textStart = i;
        i = end;
        continue;
      }
      flush(i);
      if (close < 0) problem(i, 'warning', 'unclosed-entry', `the entry "${read.record.title}" has no closing \`${CLOSE_LINE}\`; it is taken to end at line ${end}`);
      const seen = ids.get(read.record.id);
      if (seen !== undefined) problem(i, 'warning', 'duplicate-id', `the entry id ${read.record.id} is also the entry at line ${seen + 1}`);
      else ids.set(read.record.id, i);
      blocks.push({ type: 'entry', entry: entryOf(read.record, lines.slice(i + 1, close >= 0 ? close : j), W) });
      ranges.push({ start: i, end });
      i = end;
      continue;
    }
    if (CLOSE.test(line)) problem(i, 'warning', 'stray-close', 'an entry end with no entry before it; kept as text');
    if (textStart < 0) textStart = i;
    i++;
  }
  flush(lines.length);
  return { lang, eol, blocks, ranges, problems, lines, headerLines, writable: true };
}

/**
 * The notebook text with some blocks of `parsed` replaced (a block, or undefined: removed together
 * with the blank line that was added before it when it was appended); every other line is kept as
 * it was read. The format line is added when the file had none.
 */
export function rewriteBlocks(parsed: ParsedNotebook, replacements: ReadonlyMap<number, NotebookBlock | undefined>): string {
  const out: string[] = parsed.headerLines ? parsed.lines.slice(0, parsed.headerLines) : [headerLine(parsed.lang)];
  let at = parsed.headerLines;
  parsed.ranges.forEach((r, k) => {
    out.push(...parsed.lines.slice(at, r.start));
    at = r.end;
    if (!replacements.has(k)) {
      out.push(...parsed.lines.slice(r.start, r.end));
      return;
    }
    const block = replacements.get(k);
    if (block) {
      out.push(...blockLines(block, parsed.lang));
      return;
    }
    const next = parsed.lines[r.end];
    if (out.length > 1 && !out[out.length - 1]!.trim() && (next === undefined || !next.trim())) out.pop();
  });
  out.push(...parsed.lines.slice(at));
  return `${out.join(parsed.eol)}${parsed.eol}`;
}
