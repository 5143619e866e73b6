/**
 * Why a question found nothing (issue 19, class 9; issue 22): "no hits" alone leaves a researcher
 * guessing. The reason is looked up in the corpus the question was asked of: a question about
 * comments on a corpus without comments (or about what is said, without transcripts), items named
 * that are not there, a time range past every transcript's end or one that cannot be applied (no
 * timestamps, no duration), a speaker nobody is called, a like count no comment reaches, the
 * question's words found only outside the limits it sets (another item, the other part, another
 * time) — else that nothing matches its words. Each reason says what to do instead. One function
 * for the CLI, the Ask box and chat.
 */
import type { ParsedQuery } from './query';
import type { Corpus, CorpusItem, PartKind } from '../corpus/types';
import type { SearchHit, SearchOptions } from '../search/corpusIndex';
import { formatClock } from '../text/clock';
import { segmentAtOffset } from '../markers/speechUnits';
import { tokenize } from '../search/tokenize';
import { searchText } from './strategies/spanTools';

/** What the reasons need of the search index: keyword search over the whole corpus. */
export interface NoHitsIndex {
  search(query: string, options?: SearchOptions): SearchHit[];
}

function hasTranscript(item: CorpusItem): boolean {
  return (item.transcript?.segments.length ?? item.facts?.segments ?? 0) > 0;
}

function hasComments(item: CorpusItem): boolean {
  if (item.comments) return item.comments.comments.length > item.comments.emptyCount;
  return (item.facts?.comments ?? 0) > (item.facts?.emptyComments ?? 0);
}

const quote = (s: string): string => `"${s}"`;

/**
 * One sentence saying why `query` has no hits in `corpus` (without "no hits" itself), naming what
 * to do about it.
 * @example
 * whyNoHits(query, corpus) // → 'the question is about comments, and this corpus has no comments (3 items, transcripts only); ask about what is said, or add comments files'
 */
export function whyNoHits(query: ParsedQuery, corpus: Corpus, index?: NoHitsIndex): string {
  if (!corpus.items.length) return 'this corpus has no items (no transcript or comments files were found); check the folder with "marker-research index"';
  const limited = query.filters.itemIds?.length ? new Set(query.filters.itemIds) : undefined;
  const scope = limited ? corpus.items.filter((i) => limited.has(i.id)) : corpus.items;
  if (!scope.length) return `the question is limited to items that are not in this corpus (${[...limited!].map(quote).join(', ')})`;
  const where = !limited ? 'this corpus' : scope.length === 1 ? `item "${scope[0]!.id}"` : `the ${scope.length} items the question is limited to`;
  const withTranscript = scope.filter(hasTranscript).length;
  const withComments = scope.filter(hasComments).length;
  if (query.part === 'comments' && !withComments) {
    return `the question is about comments, and ${where} has no comments (${scope.length === 1 ? 'its one item has a transcript only' : `${withTranscript} of ${scope.length} items have a transcript, none has comments`}); ask about what is said, or add a comments file`;
  }
  if (query.part === 'transcript' && !withTranscript) {
    return `the question is about what is said, and ${where} has no transcript (${scope.length === 1 ? 'its one item has comments only' : `${withComments} of ${scope.length} items have comments, none has a transcript`}); ask what commenters say, or add a transcript file`;
  }
  if (!scope.some((i) => i.wordCount > 0)) return `${where} has no text (its files are empty or unreadable); check it with "marker-research index"`;
  const time = query.timeConstraint;
  if (time && query.part !== 'comments') {
    let lastEnd: number | undefined;
    let inRange = false;
    for (const item of scope) {
      for (const seg of item.transcript?.segments ?? []) {
        if (seg.start === undefined) continue;
        const end = seg.end ?? seg.start;
        lastEnd = Math.max(lastEnd ?? 0, end);
        if (end >= time.startS && (time.endS === null || seg.start <= time.endS)) inRange = true;
      }
    }
    const range = time.endS === null ? `the time from ${formatClock(time.startS)} on` : `${formatClock(time.startS)}–${formatClock(time.endS)}`;
    if (lastEnd !== undefined && !inRange) return `the question is limited to ${range}, and no transcript in ${where} has speech then (the latest ends at ${formatClock(lastEnd)})`;
  }
  const speaker = query.filters.speaker;
  if (speaker) {
    const s = speaker.toLowerCase();
    const named = scope.some((i) => (i.transcript?.segments ?? []).some((g) => g.speaker?.toLowerCase().includes(s)) || (i.comments?.comments ?? []).some((c) => c.author?.toLowerCase().includes(s)) || (i.facts?.speakers ?? []).some((x) => x.toLowerCase().includes(s)));
    if (!named) return `no speaker or comment author in ${where} is called ${quote(speaker)}`;
  }
  const minLikes = query.filters.minLikes;
  if (minLikes !== undefined) {
    let most = -1;
    for (const item of scope) for (const c of item.comments?.comments ?? []) most = Math.max(most, c.likes ?? -1);
    if (most < minLikes) return `no comment in ${where} has ${minLikes} likes or more (${most < 0 ? 'no comment has a like count' : `the most liked has ${most}`})`;
  }
  if (time && query.part !== 'comments' && !scope.some((i) => hasTranscript(i) && (i.transcript?.segments.some((g) => g.start !== undefined) || i.meta?.duration !== undefined))) {
    return `the question is limited to ${time.endS === null ? `the time from ${formatClock(time.startS)} on` : `${formatClock(time.startS)}–${formatClock(time.endS)}`}, and no transcript in ${where} has timestamps or a duration, so the time cannot be applied; ask without the time`;
  }
  const elsewhere = index ? outsideLimits(query, corpus, index, scope, limited) : undefined;
  if (elsewhere) return elsewhere;
  const words = query.keywords.length ? `the words ${query.keywords.slice(0, 8).map(quote).join(', ')}` : 'the question';
  return `nothing in ${where} matches ${words}${query.part ? ` in its ${query.part === 'comments' ? 'comments' : 'transcripts'}` : ''}; try other words${query.part || time || speaker ? ', or ask without the limits the question sets' : ''}`;
}

const PART_WORD: Record<PartKind, string> = { transcript: 'transcripts', comments: 'comments' };

/**
 * When the question's words are found in the corpus, but only outside the limits the question sets
 * (the item in focus, transcripts or comments, a time range): where they are, and which limit to
 * drop. Undefined when the words are found nowhere (or the question sets no limit).
 */
function outsideLimits(query: ParsedQuery, corpus: Corpus, index: NoHitsIndex, scope: readonly CorpusItem[], limited: ReadonlySet<string> | undefined): string | undefined {
  const words = searchText(query).trim();
  if (!words || !query.keywords.length) return undefined;
  const found = index.search(words, { k: 200 });
  if (!found.length) return undefined;
  const inScope = new Set(scope.map((i) => i.id));
  const titles = new Map(corpus.items.map((i) => [i.id, i.title || i.id]));
  const listed = (ids: readonly string[]): string => `${ids.slice(0, 3).map((id) => quote(titles.get(id) ?? id)).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
  const shown = query.keywords.slice(0, 4).map(quote).join(', ');
  const scoped = found.filter((h) => inScope.has(h.chunk.itemId));
  if (limited && !scoped.length) {
    const others = [...new Set(found.map((h) => h.chunk.itemId))];
    return `${shown} ${query.keywords.length > 1 ? 'are' : 'is'} not in ${scope.length === 1 ? 'the item the question is limited to' : `the ${scope.length} items the question is limited to`}, but ${others.length === 1 ? 'in' : `in ${others.length} other items:`} ${listed(others)}; ask the whole corpus (✕ on the item chip, or without --item)`;
  }
  const part = query.part;
  if (part && !scoped.some((h) => h.chunk.part === part)) {
    const other: PartKind = part === 'transcript' ? 'comments' : 'transcript';
    if (scoped.some((h) => h.chunk.part === other)) return `${shown} ${query.keywords.length > 1 ? 'occur' : 'occurs'} in the ${PART_WORD[other]}, not in the ${PART_WORD[part]} the question is about; ask about the ${PART_WORD[other]} instead`;
  }
  const time = query.timeConstraint;
  if (time && part !== 'comments') {
    const byId = new Map(scope.map((i) => [i.id, i]));
    const at: number[] = [];
    for (const h of scoped) {
      if (h.chunk.part !== 'transcript') continue;
      // The turns of the window that say the words (the window may begin well before them).
      const segs = byId.get(h.chunk.itemId)?.transcript?.segments ?? [];
      const terms = new Set(h.terms);
      for (let i = segs.length ? segmentAtOffset(segs, h.chunk.start) : 0; i < segs.length && segs[i]!.offset < h.chunk.end; i++) {
        const g = segs[i]!;
        if (g.start !== undefined && tokenize(g.text).some((t) => terms.has(t))) at.push(g.start);
      }
    }
    if (at.length) {
      at.sort((a, b) => a - b);
      const range = time.endS === null ? `the time from ${formatClock(time.startS)} on` : `${formatClock(time.startS)}–${formatClock(time.endS)}`;
      return `${shown} ${query.keywords.length > 1 ? 'are' : 'is'} said outside ${range} (at ${[...new Set(at.map((s) => formatClock(s)))].slice(0, 4).join(', ')}${at.length > 4 ? ', …' : ''}); ask without the time`;
    }
  }
  return undefined;
}
