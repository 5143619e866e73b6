/**
 * How the Ask box shows an answer (SPEC §5 "Ask the corpus"): the understood
 * query in one line, and each hit with item, speaker, time, place in words, a
 * short quote and the strategies that found it — built in the engine from the
 * corpus it holds, sent as the plain views of src/shared/webviewProtocol.ts,
 * with where each hit opens.
 */
import { describeQuery, type AskResult } from '../core/ask/ask';
import type { ParsedQuery } from '../core/ask/query';
import type { AskHit } from '../core/ask/types';
import { whyNoHits, type NoHitsIndex } from '../core/ask/noHits';
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import { mapSpan } from '../core/corpus/spans';
import type { Corpus, CorpusItem } from '../core/corpus/types';
import { formatClock } from '../core/text/clock';
import type { SpanPlace } from '../shared/lspProtocol';
import type { AnswerSentence } from '../core/ask/answer';
import type { AskAnswerSentenceView, AskHitView, AskQueryView, AskResultView } from '../shared/webviewProtocol';
import { spanPlace } from './spanPlaces';

/** Characters of a hit's quote (the box shows one line of it; the tooltip more). */
const QUOTE_CHARS = 280;

/** `1:02–1:30`, `1:02`, or null without timestamps. */
export function timeRange(start: number | undefined, end: number | null | undefined): string | null {
  if (start === undefined) return null;
  if (end === undefined || end === null) return formatClock(start);
  return Math.floor(end) > Math.floor(start) ? `${formatClock(start)}–${formatClock(end)}` : formatClock(start);
}

/**
 * A short quote of `text`, whitespace collapsed: from its start, or from just
 * before the first keyword when that lies past the first line's worth.
 */
export function quoteOf(text: string, keywords: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const k of keywords) {
    const i = k.trim() ? lower.indexOf(k.trim().toLowerCase()) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  let start = 0;
  if (at > 60) {
    // back to the start of the sentence (or a word) shortly before the keyword
    const window = flat.slice(Math.max(0, at - 60), at);
    const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('。'), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('？'), window.lastIndexOf('！'));
    const space = window.indexOf(' ');
    start = Math.max(0, at - 60) + (sentence >= 0 ? sentence + 1 : space >= 0 ? space + 1 : 0);
  }
  if (start > 0 && flat.length - start < QUOTE_CHARS) {
    // Near the end the quote still fills its line: the whole text when it fits, else from a sentence start soon after
    // the earliest start that lets it (a word start when no sentence starts soon).
    const from = flat.length - QUOTE_CHARS;
    if (from <= 0) start = 0;
    else {
      const window = flat.slice(from, start);
      const ends = [window.indexOf('. '), window.indexOf('? '), window.indexOf('! '), window.indexOf('。'), window.indexOf('？'), window.indexOf('！')].filter((i) => i >= 0 && i < QUOTE_CHARS / 3);
      const space = window.indexOf(' ');
      start = from + (ends.length ? Math.min(...ends) + 1 : space >= 0 ? space + 1 : 0);
    }
  }
  const body = flat.slice(start, start + QUOTE_CHARS).trim();
  return `${start > 0 ? '…' : ''}${body}${start + QUOTE_CHARS < flat.length ? '…' : ''}`;
}

/** `A`, `A, B`, or `A, B +3`; null without names. */
export function speakersOf(names: readonly string[]): string | null {
  if (!names.length) return null;
  return names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} +${names.length - 2}`;
}

/** How the box shows a parsed query. */
export function queryView(q: ParsedQuery): AskQueryView {
  return {
    question: q.question,
    intent: q.intent,
    line: describeQuery(q),
    entities: q.entities.map((e) => ({ label: e.label, fromSession: e.fromSession })),
    time: q.timeConstraint ? (q.timeConstraint.endS === null ? `from ${formatClock(q.timeConstraint.startS)}` : timeRange(q.timeConstraint.startS, q.timeConstraint.endS)) : null,
    part: q.part,
    resolvedQuery: q.resolvedQuery,
    engine: q.engine,
  };
}

/** A hit's place in words from what the retriever mapped, when the item is not at hand. */
function storedHitLocation(h: AskHit): string {
  const src = h.source;
  if (!src) return h.part;
  return storedLocationLabel({ file: src.file.relPath, ...src.range, startTime: src.startTime, endTime: src.endTime, speakers: src.speakers, commentIds: src.commentIds }, h.part);
}

/** The focus of a hit (the best turns of the span) mapped in `item`, when it maps. */
function focusOf(h: AskHit, item: CorpusItem | undefined): ReturnType<typeof mapSpan> {
  return item ? mapSpan(item, { part: h.part, start: h.focus.start, end: h.focus.end }) : undefined;
}

/** How the box shows a hit. */
export function hitView(h: AskHit, keywords: readonly string[], item?: CorpusItem): AskHitView {
  // The focus (the best turns of the span) is what the box quotes and opens; the whole span stays in the tooltip's reasons.
  const focused = focusOf(h, item);
  const src = focused ?? h.source;
  const text = focused && item ? (h.part === 'transcript' ? item.transcript : item.comments)!.text.slice(h.focus.start, h.focus.end) : h.text;
  return {
    rank: h.rank,
    itemId: h.itemId,
    title: h.title,
    part: h.part,
    start: focused ? h.focus.start : h.start,
    end: focused ? h.focus.end : h.end,
    speaker: src ? speakersOf(src.speakers) : null,
    time: src ? timeRange(src.startTime, src.endTime) : null,
    where: src ? `${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}` : null,
    location: item ? locationLabel(item, h.part, focused ? h.focus.start : h.start, focused ? h.focus.end : h.end, { title: false }) : storedHitLocation(h),
    quote: quoteOf(text, keywords),
    matchedBy: [...h.matchedBy],
    why: [...h.why],
    score: h.score,
  };
}

/** Where a hit opens: the span its view names (the focus when it maps) and its place in the original file; null when unmapped. */
export function hitPlace(root: string, h: AskHit, item: CorpusItem | undefined): SpanPlace | null {
  const focused = focusOf(h, item);
  const src = focused ?? h.source;
  if (!src) return null;
  const span = { itemId: h.itemId, part: h.part, start: focused ? h.focus.start : h.start, end: focused ? h.focus.end : h.end };
  try {
    return spanPlace(root, span, src.file.relPath, src.range);
  } catch {
    return null; // a file outside the corpus folder does not open
  }
}

/** How the box shows a sentence of the answer (numbered from 1). */
export function answerSentenceView(s: AnswerSentence, n: number): AskAnswerSentenceView {
  const c = s.citation;
  const src = c.source;
  return { n, text: s.text, itemId: c.itemId, title: c.title, part: c.part, start: c.start, end: c.end, location: c.location, where: src ? `${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}` : null };
}

/** Where a sentence of the answer opens: its own span; null when unmapped. */
function answerPlace(root: string, s: AnswerSentence): SpanPlace | null {
  const c = s.citation;
  if (!c.source) return null;
  try {
    return spanPlace(root, { itemId: c.itemId, part: c.part, start: c.start, end: c.end }, c.source.file.relPath, c.source.range);
  } catch {
    return null; // a file outside the corpus folder does not open
  }
}

/** The whole answer as the box shows it (the model's written answer, when there is one), and where each hit and each answer sentence opens. */
export function askResultView(
  askId: number,
  r: AskResult,
  scope: AskResultView['scope'],
  notes: readonly string[],
  corpus: Corpus,
  index?: NoHitsIndex,
  written: string | null = null,
): { result: AskResultView; places: (SpanPlace | null)[]; answerPlaces: (SpanPlace | null)[] } {
  const keywords = [...r.query.keywords, ...r.query.entities.map((e) => e.label)];
  const items = new Map(corpus.items.map((i) => [i.id, i]));
  return {
    result: {
      askId,
      query: queryView(r.query),
      hits: r.hits.map((h) => hitView(h, keywords, items.get(h.itemId))),
      scope,
      ms: Math.round(r.ms),
      notes: [...notes, ...r.notes],
      whyNoHits: r.hits.length ? null : whyNoHits(r.query, corpus, index),
      answer: { sentences: r.answer.map((a, i) => answerSentenceView(a, i + 1)), written },
    },
    places: r.hits.map((h) => hitPlace(corpus.root, h, items.get(h.itemId))),
    answerPlaces: r.answer.map((a) => answerPlace(corpus.root, a)),
  };
}
