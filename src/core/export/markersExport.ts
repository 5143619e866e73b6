/**
 * Export of the key-info markers of a corpus: one row per marker with where it is grounded
 * (item, kind, text, topic, speaker, time, file, line, quote; then the transcript turns and the
 * media times of its span, and a caption transcript's paragraph), as CSV (RFC 4180, UTF-8 with a BOM so spreadsheets read Chinese and
 * accents right), JSON, Markdown or standalone HTML (markers per item, each with where it is —
 * speaker, turn, time, file and line — and its quote). Pure: the caller reads and writes files.
 */
import { markerPlace, timeWords, turnWords } from '../across/markerPlace';
import { markersWithPart } from '../across/markerSelection';
import type { Corpus, CorpusItem } from '../corpus/types';
import type { ItemMarkers, Marker } from '../markers/schema';
import type { SourceSpan } from '../research/schema';
import { markdownText } from '../text/markdownSafe';
import { csvCell } from './csvCell';
import { escapeHtml, htmlPage } from './markdownHtml';
import { defaultLinkStyle, spanHref, type LinkStyle } from './reportExport';

/** One exported marker. `file` is relative to the corpus root; `line` is one-based (null when the marker has no span). */
export interface MarkerRow {
  item: string;
  item_title: string;
  kind: Marker['kind'];
  text: string;
  topic: string;
  /** Transcript speakers of the span, or the author(s) of the comments behind it. */
  speaker: string;
  /** Media time of the span ("1:05–1:20"), empty for comments and untimed transcripts. */
  time: string;
  file: string;
  line: number | null;
  /** The span of the original file the marker is grounded in, verbatim. */
  quote: string;
  part: 'transcript' | 'comments';
  grounded: boolean;
  /** The engine (and model) that made the item's markers: "extractive", "openai gpt-4o-mini". */
  engine: string;
  marker_id: string;
  /**
   * First and last transcript turn of the span, numbered from 1 as the readable view numbers them
   * (equal for a span within one turn); null for comments, markers without a span, and spans the
   * item's text no longer fits. Optional only for rows made before these columns existed.
   */
  turn?: number | null;
  turn_end?: number | null;
  /** Media time of the span in seconds (milliseconds kept), where the transcript has timestamps; `end_seconds` null when the end is not known. */
  start_seconds?: number | null;
  end_seconds?: number | null;
  /** In a caption transcript (whose turns are caption lines), the readable view's paragraph (¶) the span starts in; null otherwise. */
  paragraph?: number | null;
}

/** The columns of the CSV, in order. */
export const MARKER_COLUMNS: readonly (keyof MarkerRow)[] = [
  'item', 'item_title', 'kind', 'text', 'topic', 'speaker', 'time', 'file', 'line', 'quote', 'part', 'grounded', 'engine', 'marker_id',
  // Added later, at the end: a spreadsheet or script reading the columns above by position reads them as before.
  'turn', 'turn_end', 'start_seconds', 'end_seconds', 'paragraph',
];

function speakerOf(item: CorpusItem | undefined, marker: Marker): string {
  const src = marker.evidence[0]?.source;
  if (!src) return '';
  if (src.speakers?.length) return [...new Set(src.speakers)].join('; ');
  if (src.commentIds?.length && item?.comments) {
    const byId = new Map(item.comments.comments.map((c) => [c.id, c.author]));
    return [...new Set(src.commentIds.map((id) => byId.get(id)).filter((a): a is string => !!a))].join('; ');
  }
  return '';
}

/** Seconds with at most three decimals (no binary noise in a spreadsheet), or null. */
function seconds(t: number | null | undefined): number | null {
  return t === null || t === undefined ? null : Math.round(t * 1000) / 1000;
}

/**
 * The rows of every marker of `corpus` (items in corpus order; an item without markers has none).
 *
 * @example
 * const rows = markerRows(corpus, markersById);
 * markersToCsv(rows); // "\uFEFFitem,item_title,kind,text,…\r\nev-winter-range,…"
 */
export function markerRows(corpus: Pick<Corpus, 'items'>, markers: ReadonlyMap<string, ItemMarkers>): MarkerRow[] {
  const rows: MarkerRow[] = [];
  for (const item of corpus.items) {
    const m = markers.get(item.id);
    if (!m) continue;
    const engine = m.model ? `${m.engine} ${m.model}` : m.engine;
    for (const { marker, part } of markersWithPart(m)) {
      const ev = marker.evidence[0];
      const place = markerPlace(item, marker);
      rows.push({
        item: item.id,
        item_title: item.title,
        kind: marker.kind,
        text: marker.text,
        topic: marker.topic,
        speaker: speakerOf(item, marker),
        time: place ? timeWords(place) : '',
        file: ev?.source.file ?? '',
        line: ev ? ev.source.startLine + 1 : null,
        quote: ev?.quote ?? '',
        part: ev?.part ?? part,
        grounded: marker.grounded,
        engine,
        marker_id: marker.id,
        turn: place?.turn ?? null,
        turn_end: place?.turnEnd ?? null,
        start_seconds: seconds(place?.startTime),
        end_seconds: seconds(place?.endTime),
        paragraph: place?.paragraph ?? null,
      });
    }
  }
  return rows;
}

/** Options of {@link markersToCsv}. */
export interface CsvOptions {
  /** Start with a UTF-8 byte order mark, so spreadsheet programs read the text as UTF-8 (default true). */
  bom?: boolean;
  /** Put a `'` before a text cell that a spreadsheet would run as a formula ({@link csvCell}): corpus text is untrusted (default true). */
  guardFormulas?: boolean;
}

/** The rows as CSV: a header line, then one line per marker; CRLF line ends (RFC 4180). */
export function markersToCsv(rows: readonly MarkerRow[], opts: CsvOptions = {}): string {
  const guard = opts.guardFormulas ?? true;
  const lines = [MARKER_COLUMNS.join(','), ...rows.map((r) => MARKER_COLUMNS.map((c) => csvCell(r[c] ?? null, guard)).join(','))];
  return `${opts.bom === false ? '' : '\uFEFF'}${lines.join('\r\n')}\r\n`;
}

/** The rows as a JSON array (pretty-printed, UTF-8 as is). */
export function markersToJson(rows: readonly MarkerRow[]): string {
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** The kinds as an export names them. */
export const KIND_NAMES: Readonly<Record<Marker['kind'], string>> = { FACT: 'Fact', OPINION: 'Opinion', DATA: 'Data point', ENGAGEMENT: 'Engagement' };

/**
 * Where a row's marker is, in words: speaker(s) or comment author(s), the turn(s), the media time
 * (`1:05–1:20`, or the start alone when the end is not known), then the file and line.
 *
 * @example
 * placeWords(row) // { where: 'Daniel · turn 12 · 1:05–1:20', location: 'meeting/transcript.json:34' }
 */
export function placeWords(r: MarkerRow): { where: string; location: string } {
  const turn = r.turn === null || r.turn === undefined ? '' : turnWords({ turn: r.turn, turnEnd: r.turn_end ?? null, paragraph: r.paragraph ?? null });
  const where = [r.speaker, r.part === 'comments' ? 'comment' : '', turn, r.time].filter((x) => x).join(' · ');
  return { where, location: r.line === null ? r.file : `${r.file}:${r.line}` };
}

/** Options of {@link markersToMarkdown} and {@link markersToHtml}. */
export interface MarkersDocumentOptions {
  /** The document's heading (default "Markers"). */
  title?: string;
  /** Link each marker's `file:line` to the original file: the corpus folder and the exported file (relative links inside the corpus, `file:` URIs outside, unless `style` says). */
  links?: { corpusRoot: string; outFile: string; style?: LinkStyle };
}

/** The link of a row's file and line from the exported file, or undefined (no links asked, no span, or a file outside the corpus). */
function rowHref(r: MarkerRow, opts: MarkersDocumentOptions): string | undefined {
  const l = opts.links;
  if (!l || r.line === null || !r.file) return undefined;
  const span: SourceSpan = { source_id: r.marker_id, item_id: r.item, part: r.part, start: 0, end: 0, source: { file: r.file, startLine: r.line - 1, startColumn: 0, endLine: r.line - 1, endColumn: 0 } };
  return spanHref(l.corpusRoot, span, l.outFile, l.style ?? defaultLinkStyle(l.corpusRoot, l.outFile), 'start');
}

/** Rows grouped by item, items in the order they first appear. */
function byItem(rows: readonly MarkerRow[]): MarkerRow[][] {
  const groups = new Map<string, MarkerRow[]>();
  for (const r of rows) {
    let g = groups.get(r.item);
    if (!g) groups.set(r.item, (g = []));
    g.push(r);
  }
  return [...groups.values()];
}

const countWords = (n: number, one: string): string => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * The rows as a Markdown document: a section per item (its title and id), a list item per marker —
 * its kind, text and topic, then where it is (speaker, turn, time; the file and line, linked when
 * `links` is given) and its quote. Every corpus value is escaped text ({@link markdownText}): no
 * link, image, HTML or heading comes from it.
 */
export function markersToMarkdown(rows: readonly MarkerRow[], opts: MarkersDocumentOptions = {}): string {
  const out = [`# ${markdownText(opts.title ?? 'Markers')}`, '', `${countWords(rows.length, 'marker')} of ${countWords(new Set(rows.map((r) => r.item)).size, 'item')}.`];
  for (const group of byItem(rows)) {
    const first = group[0]!;
    out.push('', `## ${markdownText(first.item_title)}`, '', `Item ${markdownText(first.item)} · ${countWords(group.length, 'marker')}`, '');
    for (const r of group) {
      const { where, location } = placeWords(r);
      const href = rowHref(r, opts);
      const loc = href ? `[${markdownText(location)}](<${href}>)` : markdownText(location);
      const place = [where ? markdownText(where) : '', location ? loc : '', r.grounded ? '' : '*ungrounded*'].filter((x) => x).join(' · ');
      out.push(`- **${KIND_NAMES[r.kind]}** · ${r.topic.trim() ? `*${markdownText(r.topic)}*` : 'no topic'} — ${markdownText(r.text)}`);
      if (place) out.push(`  ${place}`);
      if (r.quote.trim()) out.push('', `  > ${markdownText(r.quote)}`, '');
    }
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** Style of the exported HTML: readable, printable, light and dark. */
const HTML_STYLE = `
:root { color-scheme: light dark; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #8884; padding-bottom: .2rem; }
ol.markers li { margin: .8rem 0; } .kind { font-weight: 600; } .topic { font-style: italic; opacity: .85; }
.where { font-size: .9em; opacity: .8; } .ungrounded { color: #c60; }
blockquote { margin: .3rem 0 .3rem .2rem; padding: .1rem .8rem; border-left: 3px solid #8886; opacity: .9; }
`;

/**
 * The rows as one standalone HTML page: a section per item, an entry per marker with its kind,
 * topic and text, where it is (speaker, turn, time; the file and line, linked when `links` is
 * given) and its quote. Every corpus value is HTML-escaped.
 */
export function markersToHtml(rows: readonly MarkerRow[], opts: MarkersDocumentOptions & { lang?: string } = {}): string {
  const title = opts.title ?? 'Markers';
  const sections = byItem(rows).map((group) => {
    const first = group[0]!;
    const entries = group.map((r) => {
      const { where, location } = placeWords(r);
      const href = rowHref(r, opts);
      const loc = !location ? '' : href ? `<a href="${escapeHtml(href)}">${escapeHtml(location)}</a>` : escapeHtml(location);
      const place = [where ? escapeHtml(where) : '', loc, r.grounded ? '' : '<span class="ungrounded">ungrounded</span>'].filter((x) => x).join(' · ');
      const turn = r.turn === null || r.turn === undefined ? '' : ` data-turn="${r.turn}"`;
      const time = r.start_seconds === null || r.start_seconds === undefined ? '' : ` data-start="${r.start_seconds}"${r.end_seconds === null || r.end_seconds === undefined ? '' : ` data-end="${r.end_seconds}"`}`;
      return [
        `<li id="${escapeHtml(`marker-${r.marker_id}`)}"${turn}${time}>`,
        `<span class="kind">${escapeHtml(KIND_NAMES[r.kind])}</span> · <span class="topic">${r.topic.trim() ? escapeHtml(r.topic) : 'no topic'}</span> — ${escapeHtml(r.text)}`,
        place ? `<div class="where">${place}</div>` : '',
        r.quote.trim() ? `<blockquote>${escapeHtml(r.quote)}</blockquote>` : '',
        '</li>',
      ].join('');
    });
    return `<section>\n<h2>${escapeHtml(first.item_title)}</h2>\n<p class="where">Item ${escapeHtml(first.item)} · ${countWords(group.length, 'marker')}</p>\n<ol class="markers">\n${entries.join('\n')}\n</ol>\n</section>`;
  });
  return htmlPage({
    title,
    lang: opts.lang ?? 'en',
    style: HTML_STYLE,
    body: [`<h1>${escapeHtml(title)}</h1>`, `<p>${countWords(rows.length, 'marker')} of ${countWords(new Set(rows.map((r) => r.item)).size, 'item')}.</p>`, ...sections],
  });
}

/** The formats markers are exported in. */
export type MarkersFormat = 'csv' | 'json' | 'md' | 'html';

/** The export format a file name asks for: `.csv`, `.json`, `.md`/`.markdown` or `.html`/`.htm` (case-insensitive); undefined otherwise. */
export function markersFormatOf(file: string): MarkersFormat | undefined {
  const m = /\.(csv|json|md|markdown|html?)$/i.exec(file);
  if (!m) return undefined;
  const ext = m[1]!.toLowerCase();
  return ext === 'markdown' ? 'md' : ext === 'htm' ? 'html' : (ext as MarkersFormat);
}

/** The rows as the text of a `format` file ({@link markersToCsv}, {@link markersToJson}, {@link markersToMarkdown}, {@link markersToHtml}). */
export function markersDocument(rows: readonly MarkerRow[], format: MarkersFormat, opts: MarkersDocumentOptions = {}): string {
  if (format === 'csv') return markersToCsv(rows);
  if (format === 'json') return markersToJson(rows);
  return format === 'md' ? markersToMarkdown(rows, opts) : markersToHtml(rows, opts);
}
