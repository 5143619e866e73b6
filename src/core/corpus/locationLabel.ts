/**
 * Where a span is, in words a researcher reads: the speaker and the media time
 * (or the turn, without timestamps) and the item for a transcript span;
 * the author, likes and date for a comment span. The file and line of the
 * original stay for tooltips and hovers ({@link fileLineLabel}). Its words (turn,
 * likes, comment) are in the language of the text the span is in (locationWords.ts).
 */
import { formatClock } from '../text/clock';
import { locationWords, locationWordsOf, type LocationLanguage, type LocationWords } from './locationWords';
import { mapSpan } from './spans';
import type { CommentRecord, CorpusItem, PartKind, TextRange, TranscriptPart } from './types';

/** What a stored span keeps about where it is (the fields of the markers' `SourceRange` a label reads). */
export interface StoredSpanPlace {
  file: string;
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
  startTime?: number;
  endTime?: number;
  speakers?: readonly string[];
  commentIds?: readonly string[];
}

/** Characters of an item title a label keeps (then `…`). */
export const LABEL_TITLE_CHARS = 40;

export interface LocationLabelOptions {
  /** End the label with the item's title (default true; false where the item is shown around it, as in the sidebar). */
  title?: boolean;
  /** Characters of the title kept (default {@link LABEL_TITLE_CHARS}). */
  titleChars?: number;
  /** The language of the label's words (turn, likes, comment); default: the language of the text the span is in. */
  language?: LocationLanguage;
}

/** `text` cut to `n` characters (whole code points; at a space when one is near the cut), with `…` when cut; whitespace collapsed. */
export function clipLabel(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  if (points.length <= n) return flat;
  let cut = points.slice(0, Math.max(1, n - 1)).join('');
  const space = cut.lastIndexOf(' ');
  if (space > 0 && cut.length - space <= 12) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,.;:·–-]+$/u, '')}…`;
}

/** `Daniel`, `Daniel, Ana`, `Daniel +2`. */
function names(list: readonly string[]): string | undefined {
  if (!list.length) return undefined;
  return list.length <= 2 ? list.join(', ') : `${list[0]} +${list.length - 1}`;
}

/** A comment date as `2024-03-14` (ISO timestamps), else as written. */
function commentDate(at: string | undefined): string | undefined {
  const s = at?.trim();
  if (!s) return undefined;
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ]|$)/.exec(s);
  return iso ? iso[1] : clipLabel(s, 24);
}

/** `@author · 12 likes · 2024-03-14` of one comment (`comment #n` without an author; no likes said when there are none). */
function commentLabel(c: CommentRecord, W: LocationWords): string {
  const name = c.author?.trim().replace(/^@+/, '');
  const out = [name ? `@${name}` : W.commentNo(c.index + 1)];
  if (c.likes) out.push(W.likes(c.likes));
  const date = commentDate(c.publishedAt);
  if (date) out.push(date);
  return out.join(' · ');
}

function withTitle(parts: string[], item: CorpusItem, options: LocationLabelOptions): string {
  if (options.title ?? true) parts.push(clipLabel(item.title, options.titleChars ?? LABEL_TITLE_CHARS));
  return parts.join(' · ');
}

/**
 * The label of span `[start, end)` of an item's part (offsets into the part's
 * normalised text): `speaker · time · title` for a transcript with timestamps,
 * `speaker · turn n · title` without (turns numbered from 1, as the readable
 * view numbers them), `@author · likes · date · title` for a comment (`+n
 * comments` when the span covers more). An empty span labels the unit it sits
 * in; an item without the part, `part · title`.
 *
 * @example
 * locationLabel(item, 'transcript', 120, 180)  // "Daniel · 0:33 · Protected Bike Lanes…"
 * locationLabel(item, 'transcript', 120, 180, { title: false })  // "Daniel · turn 215"
 * locationLabel(item, 'comments', 0, 40)  // "@ridewithlena · 214 likes · 2024-03-14 · City Cycling…"
 */
export function locationLabel(item: CorpusItem, part: PartKind, start: number, end: number, options: LocationLabelOptions = {}): string {
  const src = mapSpan(item, { part, start, end: end > start ? end : start + 1 }) ?? mapSpan(item, { part, start: Math.max(0, start - 1), end: start });
  if (!src) return withTitle([part], item, options);
  const text = part === 'comments' ? item.comments : item.transcript;
  const W = options.language ? locationWords(options.language) : text ? locationWordsOf(text, text.text) : locationWords('en');
  if (part === 'comments') {
    const first = item.comments?.comments[src.firstIndex];
    const more = (src.commentIds?.length ?? 1) - 1;
    const out = [first ? commentLabel(first, W) : W.comment];
    if (more > 0) out.push(W.moreComments(more));
    return withTitle(out, item, options);
  }
  const out: string[] = [];
  const who = names(src.speakers);
  if (who) out.push(who);
  if (src.startTime !== undefined) out.push(formatClock(src.startTime));
  else if (item.transcript && !hasSpeakers(item.transcript)) out.push(lineWords(src.range, W));
  else out.push(src.firstIndex === src.lastIndex ? W.turn(src.firstIndex + 1) : W.turns(src.firstIndex + 1, src.lastIndex + 1));
  return withTitle(out, item, options);
}

const speakersKnown = new WeakMap<TranscriptPart, boolean>();

/** Whether any segment of the transcript names its speaker (found once per loaded part). */
function hasSpeakers(t: TranscriptPart): boolean {
  let v = speakersKnown.get(t);
  if (v === undefined) speakersKnown.set(t, (v = t.segments.some((s) => !!s.speaker)));
  return v;
}

/**
 * `line 110` / `lines 110–114` of the original file: an untimed transcript without speakers
 * (caption lines, plain text) has no turns, and the readable view heads its paragraphs with the
 * same line numbers. A range ending at column 0 ends on the line before.
 */
function lineWords(range: TextRange, W: LocationWords): string {
  const a = range.startLine + 1;
  const z = Math.max(a, (range.endColumn === 0 && range.endLine > range.startLine ? range.endLine - 1 : range.endLine) + 1);
  return a === z ? W.line(a) : W.lines(a, z);
}

/**
 * A label from what a stored span keeps (speakers or comment authors, times,
 * comment ids) when the item is not at hand: `Daniel · 0:33 · title`,
 * `@lena +1 comment · title`; a span that keeps none of it, its file and line.
 */
export function storedLocationLabel(source: StoredSpanPlace, part: PartKind, title?: string, language: LocationLanguage = 'en'): string {
  const W = locationWords(language);
  const out: string[] = [];
  if (part === 'comments') {
    const authors = source.speakers ?? [];
    const ids = source.commentIds ?? [];
    if (authors.length) out.push(`@${authors[0]!.replace(/^@+/, '')}`);
    else if (ids.length) out.push(W.commentId(clipLabel(ids[0]!, 16)));
    if (ids.length > 1) out.push(W.moreComments(ids.length - 1));
  } else {
    const who = names(source.speakers ?? []);
    if (who) out.push(who);
    if (source.startTime !== undefined) out.push(formatClock(source.startTime));
  }
  if (!out.length) out.push(fileLineLabel(source));
  if (title) out.push(clipLabel(title, LABEL_TITLE_CHARS));
  return out.join(' · ');
}

/** `transcript.json:2215` (the file's base name, one-based line): what a tooltip adds to a label. */
export function fileLineLabel(source: Pick<StoredSpanPlace, 'file' | 'startLine'>): string {
  return `${source.file.split('/').pop() ?? source.file}:${source.startLine + 1}`;
}
