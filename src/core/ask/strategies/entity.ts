/**
 * `entity`: the windows where the question's entities speak or are named,
 * ranked by the question's other words (BM25 within those windows). A role's
 * hit says which item's speaker it is ("speaker Project Manager · ES2009b").
 */
import { queryWeights } from '../../search/retrieve';
import { speakerInItem } from '../roleEntities';
import type { Candidate, RetrievalStrategy } from '../types';
import { entityChunks } from './entityChunks';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';

export const entityStrategy: RetrievalStrategy = {
  name: 'entity',
  run(q, scope, ctx) {
    if (!q.entities.length) return { list: [] };
    const weights = queryWeights(ctx.index, searchText(q));
    const bm25 = new Map<number, number>();
    if (weights.size) for (const h of ctx.index.searchWeighted(weights, scopeFilters(scope)).slice(0, 3000)) bm25.set(h.id, h.score);
    const within = bm25.size ? new Set(bm25.keys()) : undefined;
    const scored = new Map<number, Candidate>();
    const words = new Set(q.keywords.map((k) => k.toLowerCase()));
    for (const e of q.entities) {
      const speaker = e.kind === 'speaker' || e.speaker !== undefined;
      // A name the question's own words already search for adds nothing here; a speaker (who is rarely named in their own turns) does.
      if (!speaker && weights.size && [...words].some((w) => w.includes(e.text.toLowerCase()))) continue;
      for (const [id, where] of entityChunks(e, scope, ctx, within)) {
        const c = ctx.index.chunk(id);
        if (!c) continue;
        // Topical match first; speaking counts a little more than being named.
        const score = (bm25.get(id) ?? 0) + (where.speaks ? 0.5 : 0) + (where.mentions ? 0.3 : 0);
        const prev = scored.get(id);
        const why = `${where.speaks ? 'speaker' : 'names'} ${speakerInItem(e, c.itemId)}`;
        if (!prev || prev.score < score) scored.set(id, chunkCandidate(c, score + (prev ? 0.2 : 0), why));
      }
    }
    return { list: [...scored.values()].sort((a, b) => b.score - a.score).slice(0, 200) };
  },
};
