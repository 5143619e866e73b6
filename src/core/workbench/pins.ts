/**
 * Pinned spans made from what the researcher points at — a selection, a search hit, a marker's
 * evidence, a cited source of a report or a chat — and the notebook entries of each kind. The
 * quote is always the exact text of the span in the item's part as it is now (never a model's
 * paraphrase of it), so re-anchoring can find it again later. Pure: the caller has the item.
 */
import { mapSpan, storedRange } from '../corpus/spans';
import type { CorpusItem, PartKind } from '../corpus/types';
import type { Evidence, Marker } from '../markers/schema';
import type { SourceSpan } from '../research/schema';
import type { EntryOrigin, NotebookEntry, PinnedSpan } from './schema';

/** An entry before it is added to the notebook (which gives it an id and a time). */
export type NewEntry = Omit<NotebookEntry, 'id' | 'createdAt'>;

/** The text of a part of an item, or undefined when the item lacks it. */
export function partText(item: CorpusItem, part: PartKind): string | undefined {
  return (part === 'transcript' ? item.transcript : item.comments)?.text;
}

/**
 * The pinned span of `[start, end)` of an item's part: its ends moved in past white space, the
 * quote its exact text, its place in the original file from {@link mapSpan}. Undefined when the
 * item lacks the part or the span holds no text.
 *
 * @example
 * pinSpan(item, 'transcript', 120, 180) // { itemId, part: 'transcript', start: 121, end: 180, quote: 'Bike lanes…', source: { file: 'city/transcript.vtt', startLine: 14, … } }
 */
export function pinSpan(item: CorpusItem, part: PartKind, start: number, end: number): PinnedSpan | undefined {
  const text = partText(item, part);
  if (text === undefined) return undefined;
  let a = Math.max(0, Math.min(start, text.length));
  let z = Math.max(a, Math.min(end, text.length));
  while (a < z && /\s/u.test(text[a]!)) a++;
  while (z > a && /\s/u.test(text[z - 1]!)) z--;
  if (z <= a) return undefined;
  const src = mapSpan(item, { part, start: a, end: z });
  if (!src) return undefined;
  return { itemId: item.id, part, start: a, end: z, quote: text.slice(a, z), source: storedRange(src), itemTitle: item.title };
}

/**
 * A stored span (a marker's evidence, a report's or a chat's cited source) as a pinned span: from
 * the item as it is now when the item is at hand and the offsets fit its part; else as stored
 * (`quote`: the evidence's quote, which may not be exact — re-anchoring checks it).
 */
function fromStored(item: CorpusItem | undefined, itemId: string, s: { part: PartKind; start: number; end: number; source: PinnedSpan['source'] }, quote?: string): PinnedSpan | undefined {
  if (item) {
    const pinned = pinSpan(item, s.part, s.start, s.end);
    if (pinned) return pinned;
  }
  if (!quote?.trim() || s.end <= s.start) return undefined;
  return { itemId, part: s.part, start: s.start, end: s.end, quote, source: s.source };
}

/** A marker's evidence span as a pinned span. */
export function pinnedFromEvidence(item: CorpusItem | undefined, itemId: string, evidence: Evidence): PinnedSpan | undefined {
  return fromStored(item, itemId, evidence, evidence.quote);
}

/** A report's or a chat's cited source as a pinned span (undefined when the item is not at hand and nothing is stored to quote). */
export function pinnedFromSourceSpan(item: CorpusItem | undefined, span: SourceSpan): PinnedSpan | undefined {
  return fromStored(item, span.item_id, span);
}

/** A pinned span as a report's source span (what the citation links and the export take). */
export function toSourceSpan(span: PinnedSpan, sourceId: string): SourceSpan {
  return { source_id: sourceId, item_id: span.itemId, part: span.part, start: span.start, end: span.end, source: span.source };
}

/** One key per span of an item's part: two pins of the same text share it. */
export function spanKey(span: Pick<PinnedSpan, 'itemId' | 'part' | 'start' | 'end'>): string {
  return `${span.itemId}\u0000${span.part}\u0000${span.start}\u0000${span.end}`;
}

const defined = <T>(x: T | undefined): x is T => x !== undefined;

/** `DATA · battery range` */
function markerTitle(m: Marker): string {
  return m.topic.trim() ? `${m.kind} · ${m.topic.trim()}` : m.kind;
}

/** A marker: its claim, its evidence spans. */
export function markerEntry(item: CorpusItem | undefined, itemId: string, marker: Marker): NewEntry {
  return { kind: 'marker', title: markerTitle(marker), text: marker.text, spans: marker.evidence.map((e) => pinnedFromEvidence(item, itemId, e)).filter(defined), origin: { markerId: marker.id } };
}

/** A search hit of Ask, or any span the researcher keeps as it is. */
export function hitEntry(item: CorpusItem, part: PartKind, start: number, end: number, origin: EntryOrigin = {}): NewEntry | undefined {
  const span = pinSpan(item, part, start, end);
  return span && { kind: 'ask-hit', title: item.title, spans: [span], ...(Object.keys(origin).length ? { origin } : {}) };
}

/** A selection in the readable view (offsets into the part's text). */
export function selectionEntry(item: CorpusItem, part: PartKind, start: number, end: number): NewEntry | undefined {
  const span = pinSpan(item, part, start, end);
  return span && { kind: 'selection', title: item.title, spans: [span] };
}

/** Words written about the corpus (an answer sentence, a chat answer, a finding) with the spans they cite. */
function citedEntry(kind: 'answer-sentence' | 'chat-answer' | 'finding', title: string, text: string, spans: readonly (PinnedSpan | undefined)[], origin: EntryOrigin): NewEntry {
  return { kind, title, text, spans: spans.filter(defined), ...(Object.keys(origin).length ? { origin } : {}) };
}

/** A sentence of Ask's written answer and the spans it cites. */
export function answerSentenceEntry(question: string, sentence: string, spans: readonly (PinnedSpan | undefined)[]): NewEntry {
  return citedEntry('answer-sentence', question, sentence, spans, question ? { question } : {});
}

/** A chat answer (its Markdown, kept as text) and the spans it cites. */
export function chatAnswerEntry(question: string, answer: string, spans: readonly (PinnedSpan | undefined)[], conversationId?: string): NewEntry {
  return citedEntry('chat-answer', question, answer, spans, { ...(question ? { question } : {}), ...(conversationId ? { conversationId } : {}) });
}

/** A finding of a research report and its sources. */
export function findingEntry(runId: string, findingId: string, text: string, spans: readonly (PinnedSpan | undefined)[], title = findingId): NewEntry {
  return citedEntry('finding', title, text, spans, { runId, findingId });
}

/** A note of the researcher's own (its text is the entry's note, Markdown kept verbatim). */
export function noteEntry(title: string, note: string): NewEntry {
  return { kind: 'note', title, spans: [], ...(note.trim() ? { note } : {}) };
}
