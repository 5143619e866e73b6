/**
 * Loads cited originals on demand (seed 003 "lazy load"): a citation's span verbatim from the
 * corpus, with a little of what surrounds it — only for the numbers a question asks about.
 */
import type { Corpus } from '../corpus/types';
import type { ChatCitation, LoadedCitation } from './schema';

/** Characters of context on each side of a loaded span. */
export const CONTEXT_CHARS = 240;

/** The cited texts of `numbers` (in that order); numbers the conversation does not know are returned in `missing`. */
export function loadCitations(corpus: Corpus, citations: readonly ChatCitation[], numbers: readonly number[]): { loaded: LoadedCitation[]; missing: number[] } {
  const loaded: LoadedCitation[] = [];
  const missing: number[] = [];
  for (const n of numbers) {
    const c = citations.find((x) => x.number === n);
    const item = c ? corpus.items.find((i) => i.id === c.span.item_id) : undefined;
    const text = item ? (c!.span.part === 'transcript' ? item.transcript : item.comments)?.text : undefined;
    if (!c || text === undefined || c.span.end > text.length) {
      missing.push(n);
      continue;
    }
    const { start, end } = c.span;
    // Context to the nearest line break within reach, so it starts and ends on whole turns or comments where it can.
    let a = Math.max(0, start - CONTEXT_CHARS);
    const nl = text.indexOf('\n', a);
    if (a > 0 && nl >= 0 && nl < start) a = nl + 1;
    let z = Math.min(text.length, end + CONTEXT_CHARS);
    const nl2 = text.lastIndexOf('\n', z);
    if (z < text.length && nl2 > end) z = nl2;
    loaded.push({ number: n, text: text.slice(start, end), before: text.slice(a, start), after: text.slice(end, z) });
  }
  return { loaded, missing };
}
