/**
 * How the Chat view shows a conversation (SPEC §5 "Follow-up chat"): each
 * turn, and each citation chip with its item, place in words and a quote from
 * the indexed corpus — built in the engine, sent as the plain views of
 * src/shared/chatProtocol.ts.
 */
import { describeQuery } from '../core/ask/ask';
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import type { ChatCitation, ChatTurn } from '../core/chat/schema';
import type { Corpus } from '../core/corpus/types';
import type { ChatCitationView, ChatTurnView } from '../shared/chatProtocol';
import type { ChatCitationPlace } from '../shared/lspProtocol';
import { quoteOf, speakersOf, timeRange } from './askViews';
import { spanPlace } from './spanPlaces';

/** How a chip shows a citation (title, place, quote from the indexed corpus when there is one). */
export function citationView(c: ChatCitation, corpus: Corpus | undefined): ChatCitationView {
  const s = c.span;
  const item = corpus?.items.find((i) => i.id === s.item_id);
  const text = (s.part === 'transcript' ? item?.transcript : item?.comments)?.text;
  return {
    number: c.number,
    itemId: s.item_id,
    title: item?.title ?? s.item_id,
    part: s.part,
    where: `${s.source.file}:${s.source.startLine + 1}:${s.source.startColumn + 1}`,
    location: item && text !== undefined && s.end <= text.length ? locationLabel(item, s.part, s.start, s.end, { title: false }) : storedLocationLabel(s.source, s.part),
    time: timeRange(s.source.startTime, s.source.endTime),
    speaker: speakersOf(s.source.speakers ?? []),
    quote: text !== undefined && s.end <= text.length && s.end > s.start ? quoteOf(text.slice(s.start, s.end), []) : null,
  };
}

/** How the view shows a turn. */
export function turnView(t: ChatTurn): ChatTurnView {
  return {
    turn: t.turn,
    question: t.question,
    answer: t.answer,
    mode: t.mode,
    engine: t.engine,
    understood: describeQuery(t.query),
    cited: t.citations.map((c) => c.number),
    loaded: t.loaded.map((l) => ({ number: l.number, text: l.text, before: l.before, after: l.after })),
    cancelled: t.cancelled,
    notes: [...t.notes],
    ms: Math.round(t.ms),
    createdAt: t.createdAt,
  };
}

/** Where a citation opens (its span and its stored place in the original file). */
export function citationPlace(root: string, c: ChatCitation): ChatCitationPlace {
  const s = c.span;
  return { number: c.number, ...spanPlace(root, { itemId: s.item_id, part: s.part, start: s.start, end: s.end }, s.source.file, s.source) };
}
