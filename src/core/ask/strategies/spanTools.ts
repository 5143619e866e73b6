/**
 * Small helpers the strategies share: a chunk as a candidate, the search text
 * of a query, scope filters for the search index.
 */
import type { Chunk } from '../../search/chunker';
import type { SearchFilters } from '../../search/corpusIndex';
import type { ParsedQuery } from '../query';
import type { AskScope, Candidate } from '../types';

export function chunkCandidate(c: Chunk, score: number, why?: string): Candidate {
  return { itemId: c.itemId, part: c.part, start: c.start, end: c.end, score, ...(why ? { why } : {}) };
}

/** The words keyword search looks for: the query's search text, else the resolved question. */
export function searchText(q: ParsedQuery): string {
  return q.searchText.trim() || (q.keywords.length ? q.keywords.join(' ') : q.resolvedQuery);
}

/** Search-index filters for a scope. Time is filtered after fusion (estimated times need the item). */
export function scopeFilters(scope: AskScope): SearchFilters {
  return {
    ...(scope.itemIds ? { itemIds: scope.itemIds } : {}),
    ...(scope.part ? { part: scope.part } : {}),
    ...(scope.minLikes !== undefined ? { minLikes: scope.minLikes } : {}),
  };
}
