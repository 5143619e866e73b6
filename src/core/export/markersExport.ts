/**
 * Export of the key-info markers of a corpus: one row per marker with where it is grounded
 * (item, kind, text, topic, speaker, time, file, line, quote), as CSV (RFC 4180, UTF-8 with a BOM
 * so spreadsheets read Chinese and accents right) or JSON. Pure: the caller reads and writes files.
 */
import type { Corpus, CorpusItem } from '../corpus/types';
import type { ItemMarkers, Marker } from '../markers/schema';
import { formatClock } from '../text/clock';
import { csvCell } from './csvCell';

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
}

/** The columns of the CSV, in order. */
export const MARKER_COLUMNS: readonly (keyof MarkerRow)[] = ['item', 'item_title', 'kind', 'text', 'topic', 'speaker', 'time', 'file', 'line', 'quote', 'part', 'grounded', 'engine', 'marker_id'];

/** Markers of an item in the order the sidebar shows them, with the part each comes from. */
function markersOf(m: ItemMarkers): { marker: Marker; part: 'transcript' | 'comments' }[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  return [
    ...(t ? [...t.key_facts, ...t.key_opinions, ...t.key_datapoints].map((marker) => ({ marker, part: 'transcript' as const })) : []),
    ...(c ? [...c.key_facts_from_comments, ...c.key_opinions_from_comments, ...c.key_datapoints_from_comments, ...c.top_engagement_markers].map((marker) => ({ marker, part: 'comments' as const })) : []),
  ];
}

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

function timeOf(marker: Marker): string {
  const src = marker.evidence[0]?.source;
  if (src?.startTime === undefined) return '';
  return src.endTime !== undefined && src.endTime > src.startTime ? `${formatClock(src.startTime)}–${formatClock(src.endTime)}` : formatClock(src.startTime);
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
    for (const { marker, part } of markersOf(m)) {
      const ev = marker.evidence[0];
      rows.push({
        item: item.id,
        item_title: item.title,
        kind: marker.kind,
        text: marker.text,
        topic: marker.topic,
        speaker: speakerOf(item, marker),
        time: timeOf(marker),
        file: ev?.source.file ?? '',
        line: ev ? ev.source.startLine + 1 : null,
        quote: ev?.quote ?? '',
        part: ev?.part ?? part,
        grounded: marker.grounded,
        engine,
        marker_id: marker.id,
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
  const lines = [MARKER_COLUMNS.join(','), ...rows.map((r) => MARKER_COLUMNS.map((c) => csvCell(r[c], guard)).join(','))];
  return `${opts.bom === false ? '' : '\uFEFF'}${lines.join('\r\n')}\r\n`;
}

/** The rows as a JSON array (pretty-printed, UTF-8 as is). */
export function markersToJson(rows: readonly MarkerRow[]): string {
  return `${JSON.stringify(rows, null, 2)}\n`;
}

/** The export format a file name asks for: `.csv` or `.json` (case-insensitive); undefined otherwise. */
export function markersFormatOf(file: string): 'csv' | 'json' | undefined {
  const m = /\.(csv|json)$/i.exec(file);
  return m ? (m[1]!.toLowerCase() as 'csv' | 'json') : undefined;
}
