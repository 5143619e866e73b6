/**
 * Why `ask` found nothing (issue 19, class 9): "no hits" alone leaves a new user guessing. The
 * reason is looked up in the corpus the question was asked of: a question about comments on a
 * corpus without comments (or about what is said, without transcripts), items named that are not
 * there, a time range past every transcript's end, a speaker nobody is called, a like count no
 * comment reaches — else that nothing matches its words.
 */
import type { ParsedQuery } from '../core/ask/query';
import type { Corpus, CorpusItem } from '../core/corpus/types';
import { formatClock } from '../core/text/clock';

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
export function whyNoHits(query: ParsedQuery, corpus: Corpus): string {
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
  const words = query.keywords.length ? `the words ${query.keywords.slice(0, 8).map(quote).join(', ')}` : 'the question';
  return `nothing in ${where} matches ${words}${query.part ? ` in its ${query.part === 'comments' ? 'comments' : 'transcripts'}` : ''}; try other words${query.part || time || speaker ? ', or ask without the limits the question sets' : ''}`;
}
