/**
 * Where a marker is, for the across-items views and the exports: its first evidence span (part and
 * offsets, to open it), the transcript turns it covers (numbered from 1, as the readable view
 * numbers them), its media times, the file and line, and the sidebar's words for it.
 */
import { locationLabel, storedLocationLabel } from '../corpus/locationLabel';
import { mapSpan } from '../corpus/spans';
import type { CorpusItem, TranscriptPart } from '../corpus/types';
import { isCaptionTranscript, transcriptParagraphs } from '../markers/speechUnits';
import { formatClock } from '../text/clock';
import type { AcrossMarker, MarkerPlace } from '../../shared/acrossModel';
import type { PartMarker } from './markerSelection';

/** The paragraph (from 1) of caption transcript `part` holding offset `at`, as the readable view numbers them; null for a transcript of turns. */
export function captionParagraph(part: TranscriptPart, at: number): number | null {
  if (!isCaptionTranscript(part)) return null;
  const ps = transcriptParagraphs(part);
  let lo = 0;
  let hi = ps.length - 1;
  if (hi < 0) return null;
  // The last paragraph starting at or before `at` (a separator between two belongs to the next).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ps[mid]!.start <= at + 1) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * The place of a marker's first evidence; null when it has none. Turns, times and speakers come
 * from the item's parts when the span fits its text (turns are null otherwise, and times and
 * speakers are the ones the marker file keeps); comments have no turns or times.
 */
export function markerPlace(item: CorpusItem | undefined, marker: PartMarker['marker']): MarkerPlace | null {
  const ev = marker.evidence[0];
  if (!ev) return null;
  const text = item && (ev.part === 'transcript' ? item.transcript : item.comments)?.text;
  const fits = item !== undefined && text !== undefined && ev.start <= ev.end && ev.end <= text.length;
  const src = fits ? mapSpan(item, { part: ev.part, start: ev.start, end: ev.end > ev.start ? ev.end : ev.start + 1 }) : undefined;
  const transcript = ev.part === 'transcript';
  const startTime = transcript ? (src ? src.startTime : ev.source.startTime) : undefined;
  const endTime = transcript ? (src ? src.endTime : ev.source.endTime) : undefined;
  return {
    part: ev.part,
    start: ev.start,
    end: ev.end,
    file: ev.source.file,
    line: ev.source.startLine + 1,
    turn: transcript && src ? src.firstIndex + 1 : null,
    turnEnd: transcript && src ? src.lastIndex + 1 : null,
    paragraph: transcript && src && fits && item.transcript ? captionParagraph(item.transcript, ev.start) : null,
    startTime: startTime ?? null,
    endTime: endTime ?? null,
    speakers: src ? src.speakers : [...(ev.source.speakers ?? [])],
    label: fits ? locationLabel(item, ev.part, ev.start, ev.end, { title: false }) : storedLocationLabel(ev.source, ev.part),
  };
}

/** A marker as the across-items views show it, with its place. */
export function acrossMarker(item: CorpusItem | undefined, itemId: string, pm: PartMarker): AcrossMarker {
  const m = pm.marker;
  return { itemId, markerId: m.id, kind: m.kind, text: m.text, topic: m.topic, confidence: m.confidence, grounded: m.grounded, place: markerPlace(item, m) };
}

/**
 * `turn 12`, `turns 12–14`; in a caption transcript (a paragraph known) `¶ 3 · caption lines
 * 40–44`, as the readable view shows paragraphs there, not lines; '' without turns.
 */
export function turnWords(place: Pick<MarkerPlace, 'turn' | 'turnEnd' | 'paragraph'>): string {
  if (place.turn === null) return '';
  const several = place.turnEnd !== null && place.turnEnd !== place.turn;
  if (place.paragraph !== null) return `¶ ${place.paragraph} · ${several ? `caption lines ${place.turn}–${place.turnEnd}` : `caption line ${place.turn}`}`;
  return several ? `turns ${place.turn}–${place.turnEnd}` : `turn ${place.turn}`;
}

/** `1:05–1:20`, `1:05` (no end, or none after the start), or '' without times. */
export function timeWords(place: Pick<MarkerPlace, 'startTime' | 'endTime'>): string {
  if (place.startTime === null) return '';
  return place.endTime !== null && place.endTime > place.startTime ? `${formatClock(place.startTime)}–${formatClock(place.endTime)}` : formatClock(place.startTime);
}
