/**
 * `reception`: what the audience says — comments ranked by engagement (likes,
 * replies), by the question's words, and by how strongly they judge; links
 * and self-promotion ("subscribe to my channel") never speak for the audience.
 */
import { polarity } from '../../markers/extractive';
import { queryWeights } from '../../search/retrieve';
import type { Candidate, RetrievalStrategy } from '../types';
import { entityNames } from './entityChunks';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';

/** Self-promotion and link spam in a comment. */
export const PROMO = /https?:\/\/|www\.|\.com\b|subscribe to my|check out my|my channel|mi canal|suscr[ií]bete|sígueme|follow me|订阅我|關注我|关注我/iu;

export const receptionStrategy: RetrievalStrategy = {
  name: 'reception',
  run(q, scope, ctx) {
    const { index } = ctx;
    const filters = { ...scopeFilters(scope), part: 'comments' as const };
    // The question's words without the entities' names: "what do viewers say about Alcasec" is about every comment of his episode.
    const names = new Set(q.entities.flatMap((e) => entityNames(e).map((n) => n.toLowerCase())));
    const words = searchText(q).split(/\s+/).filter((w) => w && !names.has(w.toLowerCase()));
    const weights = words.length ? queryWeights(index, words.join(' ')) : new Map<string, number>();
    const bm25 = new Map<number, number>();
    if (weights.size) for (const h of index.searchWeighted(weights, filters)) bm25.set(h.id, h.score);
    const maxBm = Math.max(1, ...bm25.values());
    const items = scope.itemIds ?? ctx.corpus.items.filter((i) => i.comments).map((i) => i.id);
    const out: Candidate[] = [];
    let promo = 0;
    for (const itemId of items) {
      const item = index.item(itemId);
      if (!item?.comments) continue;
      for (const id of index.itemChunkIds(itemId)) {
        const c = index.chunk(id);
        if (!c || c.part !== 'comments') continue;
        if (scope.minLikes !== undefined && (c.likes ?? 0) < scope.minLikes) continue;
        const text = item.comments.text.slice(c.start, c.end);
        if (PROMO.test(text)) {
          promo++;
          continue;
        }
        const likes = c.likes ?? 0;
        const replies = c.replyCount ?? 0;
        const pol = Math.abs(polarity(text));
        const topical = (bm25.get(id) ?? 0) / maxBm;
        // Engagement dominates; topical match and a clear judgement lift a comment; one-word comments sink.
        const score = Math.log1p(likes) + 0.7 * Math.log1p(replies) + 2 * topical + 0.5 * Math.min(1, pol) + (c.words >= 5 ? 0.3 : 0);
        out.push(chunkCandidate(c, score, `${likes} like${likes === 1 ? '' : 's'}${replies ? `, ${replies} repl${replies === 1 ? 'y' : 'ies'}` : ''}${topical > 0 ? ', on topic' : ''}`));
      }
    }
    out.sort((a, b) => b.score - a.score);
    return { list: out.slice(0, 200), ...(promo ? { note: `${promo} promotional or link comments left out of the reception strategy` } : {}) };
  },
};
