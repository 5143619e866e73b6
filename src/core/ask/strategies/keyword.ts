/**
 * `keyword`: BM25 retrieval over the search index (CorpusIndex), as `search`
 * and research use it — neighbour-smoothed scores for passages, a diversified
 * list for hits.
 */
import { retrieve } from '../../search/retrieve';
import type { RetrievalStrategy } from '../types';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';

export const keywordStrategy: RetrievalStrategy = {
  name: 'keyword',
  run(q, scope, ctx) {
    const topic = searchText(q);
    if (!topic.trim()) return { list: [] };
    // The question's speakers are cut from its search text; given back here, they reach the index's
    // speaker field, so a topical window where the named speaker talks ranks above one where others do.
    const speakers = [...new Set(q.entities.filter((e) => e.kind === 'speaker').map((e) => e.label))];
    const text = [topic, ...speakers].join(' ');
    const res = retrieve(ctx.index, text, { ...scopeFilters(scope), budgetWords: 0 });
    const list = res.ranked.filter((r) => r.bm25 > 0 || r.listScore > 0).slice(0, 200).map((r) => chunkCandidate(r.chunk, r.listScore, `BM25 ${r.bm25.toFixed(1)}`));
    // The order `retrieve` chooses passages in: smoothed over neighbouring windows.
    const passages = [...res.ranked].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 400).map((r) => chunkCandidate(r.chunk, r.score));
    return { list, passages };
  },
};
