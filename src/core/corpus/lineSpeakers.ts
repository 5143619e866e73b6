/**
 * Speakers and times at the head of plain-text and Markdown transcript lines.
 *
 * A line may open with a timestamp and then a speaker label; what follows is the line's text:
 *
 *     Host: Welcome to episode 3.              speaker "Host"
 *     [00:01:05] Alice: The numbers rose.      start 65, speaker "Alice"
 *     00:01:05 Alice: …   (1:05) Bob: …        bare or in () / []
 *     [00:00.000 --> 00:04.000] Text           a range gives start and end
 *     主持人：欢迎收听。                          fullwidth colon, no space needed
 *     **Host:** text   **Host**: text          Markdown emphasis around the label
 *     Speaker 1 (00:00:05): text               a time in brackets after the label
 *
 * - A timestamp is `[h:]mm:ss` with optional `.mmm`, bare (then followed by whitespace) or in
 *   `[]` / `()`, optionally a range (`-->`, `-`, `–`, `—`, `~`, `to`), optionally followed by a
 *   `-`, `–`, `—` or `|` separator.
 * - A label starts with a letter, is at most {@link MAX_LABEL_CHARS} characters and
 *   {@link MAX_LABEL_WORDS} words of letters, digits and `.'’-` (any script), and is followed
 *   by `:` and whitespace (or the end of the line), or by `：`.
 *
 * Labels are accepted file-wide, never from one line alone, so prose keeps "Note: …",
 * "Step 1: …" or "http://…" as text: a label is a speaker only if it starts at least
 * {@link MIN_LABEL_REPEATS} lines, and either the lines such repeated labels speak for (their own
 * lines, and the lines under a heading line, see below) make up {@link MIN_LABELLED_SHARE} of the
 * file's lines, or at least {@link MIN_DISTINCT_SPEAKERS}
 * distinct labels repeat. Timestamps likewise need {@link MIN_LABEL_REPEATS} timestamped lines
 * (or a speaker label right after them).
 *
 * A line that holds only a head (`Host:`, `Speaker 1 (00:05):`, `0:05`) has no text of its
 * own: it is a heading for what follows, as in Rev or YouTube exports. Its speaker carries
 * to the following lines without a label until the next label (any label, even one that is
 * not a speaker); its time goes to the next line with text. A label inside a line (`Host: text`) does not carry.
 *
 * Only the first {@link HEAD_WINDOW} characters of a line are looked at, so the work per line
 * is bounded whatever its length.
 */
import { parseTimestamp } from './timestamps';

export const MAX_LABEL_CHARS = 40;
export const MAX_LABEL_WORDS = 4;
export const MIN_LABEL_REPEATS = 2;
export const MIN_LABELLED_SHARE = 0.3;
export const MIN_DISTINCT_SPEAKERS = 2;
export const HEAD_WINDOW = 160;

/** How one line of a transcript is read. */
export interface LineHead {
  /** Column where the line's text starts (after any accepted timestamp and label; may point at whitespace). */
  column: number;
  speaker?: string;
  /** Seconds. */
  start?: number;
  end?: number;
  /** The line is only a heading (label and/or time, no text): it makes no segment. */
  headOnly: boolean;
}

/** What the head of one line could be, before the file-wide decision. */
interface Candidate {
  /** Column after the timestamp (and its separator), if the line opens with one. */
  tsEnd?: number;
  start?: number;
  end?: number;
  label?: {
    name: string;
    /** Column after the label, its colon and emphasis. */
    end: number;
    start?: number;
    endTime?: number;
  };
}

const TS = String.raw`(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?`;
const RANGE = String.raw`(?:\s*(?:-->|[-–—~]|to)\s*(${TS}))?`;
/** A timestamp at the start of a line: `[ts]`, `(ts)` or bare `ts`, maybe a range, then a separator. */
const TS_HEAD = new RegExp(
  String.raw`^\s*(?:\[\s*(${TS})${RANGE}\s*\]|\(\s*(${TS})${RANGE}\s*\)|(${TS})${RANGE}(?=\s|$))(?:\s+[-–—|](?=\s|$))?`,
  'u',
);
const EMPH = String.raw`\*\*|__|\*|_`;
const WORD_CHARS = String.raw`[\p{L}\p{M}\p{N}'’.\-]`;
/** A speaker label: optional emphasis, name, optional `(ts)` / `[ts]`, colon, emphasis closing before or after the colon. */
const LABEL_HEAD = new RegExp(
  String.raw`^\s*(${EMPH})?(\p{L}${WORD_CHARS}*(?: +${WORD_CHARS}+){0,${MAX_LABEL_WORDS - 1}})` +
    String.raw`(?:\s*[[(]\s*(${TS})${RANGE}\s*[\])])?` +
    String.raw`(${EMPH})?[ \t\u00A0\u202F]?([:：])(${EMPH})?`,
  'u',
);

function timestampHead(line: string): { end: number; start?: number; endTime?: number } | undefined {
  const m = TS_HEAD.exec(line);
  if (!m) return undefined;
  const start = parseTimestamp(m[1] ?? m[3] ?? m[5] ?? '');
  if (start === undefined) return undefined;
  const to = m[2] ?? m[4] ?? m[6];
  return { end: m[0].length, start, endTime: to === undefined ? undefined : parseTimestamp(to) };
}

function labelHead(line: string, from: number): Candidate['label'] {
  const rest = line.slice(from);
  const m = LABEL_HEAD.exec(rest);
  if (!m) return undefined;
  const [all, open, rawName, ts, to, close1, colon, close2] = m;
  // Emphasis must close once, with the marker it opened with, before or after the colon.
  if (open ? (close1 ?? close2) !== open || (close1 !== undefined && close2 !== undefined) : close1 !== undefined || close2 !== undefined) return undefined;
  const name = rawName!.trim();
  if (name.length > MAX_LABEL_CHARS) return undefined;
  // An ASCII colon needs whitespace (or the end of the line) after it: "http://", "3:1" are not labels.
  const after = rest.charAt(all.length);
  if (colon === ':' && after !== '' && !/\s/u.test(after)) return undefined;
  return {
    name,
    end: from + all.length,
    start: ts === undefined ? undefined : parseTimestamp(ts),
    endTime: to === undefined ? undefined : parseTimestamp(to),
  };
}

function candidate(line: string): Candidate {
  const head = line.length > HEAD_WINDOW ? line.slice(0, HEAD_WINDOW) : line;
  const ts = timestampHead(head);
  const label = labelHead(head, ts?.end ?? 0);
  return { tsEnd: ts?.end, start: ts?.start, end: ts?.endTime, label };
}

/**
 * Reads the heads of a file's lines. `lines[n]` is undefined for a line that is not read
 * (front matter, blank, over-long); the answer has a head for every read line, with the
 * file-wide decisions and carrying described above already applied.
 */
export function readLineHeads(lines: readonly (string | undefined)[]): (LineHead | undefined)[] {
  const cands = lines.map((l) => (l === undefined ? undefined : candidate(l)));
  const read = cands.filter((c) => c !== undefined).length;

  const counts = new Map<string, number>();
  let timed = 0;
  for (const c of cands) {
    if (!c) continue;
    if (c.tsEnd !== undefined) timed++;
    if (c.label) counts.set(c.label.name, (counts.get(c.label.name) ?? 0) + 1);
  }
  const repeated = new Set([...counts].filter(([, k]) => k >= MIN_LABEL_REPEATS).map(([name]) => name));
  // Lines a repeated label speaks for: its own lines, and the lines after a heading line of it.
  let labelled = 0;
  let heading = false;
  for (const [n, c] of cands.entries()) {
    if (!c) continue;
    if (c.label && repeated.has(c.label.name)) {
      labelled++;
      heading = lines[n]!.slice(c.label.end).trim() === '';
    } else if (heading) labelled++;
  }
  const labelsOn = repeated.size >= MIN_DISTINCT_SPEAKERS || (read > 0 && labelled / read >= MIN_LABELLED_SHARE);
  const timesOn = timed >= MIN_LABEL_REPEATS;

  const out: (LineHead | undefined)[] = [];
  let carried: string | undefined;
  let pending: { start?: number; end?: number } | undefined;
  for (const [n, line] of lines.entries()) {
    const c = cands[n];
    if (line === undefined || !c) {
      out.push(undefined);
      continue;
    }
    const label = labelsOn && c.label && repeated.has(c.label.name) ? c.label : undefined;
    const timeOk = c.tsEnd !== undefined && (timesOn || label !== undefined);
    const column = label ? label.end : timeOk ? c.tsEnd! : 0;
    const start = timeOk ? c.start : label?.start;
    const end = timeOk ? c.end : label?.start !== undefined ? label.endTime : undefined;
    const headOnly = column > 0 && line.slice(column).trim() === '';
    if (headOnly) {
      if (label) carried = label.name;
      pending = start === undefined ? undefined : { start, end };
      out.push({ column, speaker: label?.name, start, end, headOnly });
      continue;
    }
    // Any label ends a heading's turn, also one that is not a speaker (seen once): better no speaker than a wrong one.
    if (c.label) carried = undefined;
    const speaker = label?.name ?? carried;
    const time = start !== undefined ? { start, end } : pending;
    pending = undefined;
    const head: LineHead = { column, headOnly };
    if (speaker !== undefined) head.speaker = speaker;
    if (time?.start !== undefined) head.start = time.start;
    if (time?.start !== undefined && time.end !== undefined) head.end = time.end;
    out.push(head);
  }
  return out;
}
