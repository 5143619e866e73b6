/**
 * `reception`: what the audience says — comments ranked by engagement (likes,
 * replies), by the question's words, and by how strongly they judge; links
 * and self-promotion ("subscribe to my channel") never speak for the audience.
 */
import { polarity } from '../../markers/extractive';
import { corpusSpam } from '../../markers/spamFree';
import { queryWeights } from '../../search/retrieve';
import type { AskContext, Candidate, RetrievalStrategy } from '../types';
import { entityNames } from './entityChunks';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';

/** Self-promotion and link spam in a comment. */
export const PROMO = /https?:\/\/|www\.|\.com\b|subscribe to my|check out my|my channel|mi canal|suscr[ií]bete|sígueme|follow me|订阅我|關注我|关注我/iu;

/** Comments scored in full (promotion check, sentiment) per question: the best by engagement and by topic. */
const MAX_SCORED = 600;
/** Most-liked comments of each item considered for a corpus-wide question (fewer per item in a large corpus: 3,000 in all). */
const perItem = (items: number): number => Math.max(3, Math.min(30, Math.floor(3000 / Math.max(1, items))));

/** Comment windows of an item, most liked (then most replied) first; computed once per index and item. */
const byLikes = new WeakMap<object, Map<string, number[]>>();
function mostLiked(index: AskContext['index'], itemId: string): number[] {
  let perIndex = byLikes.get(index);
  if (!perIndex) byLikes.set(index, (perIndex = new Map()));
  let ids = perIndex.get(itemId);
  if (!ids) {
    ids = index.itemChunkIds(itemId).filter((id) => index.chunk(id)?.part === 'comments');
    ids.sort((a, b) => (index.chunk(b)!.likes ?? 0) - (index.chunk(a)!.likes ?? 0) || (index.chunk(b)!.replyCount ?? 0) - (index.chunk(a)!.replyCount ?? 0) || a - b);
    perIndex.set(itemId, ids);
  }
  return ids;
}

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
    if (weights.size) for (const h of index.searchWeighted(weights, filters).slice(0, MAX_SCORED)) bm25.set(h.id, h.score);
    const maxBm = Math.max(1, ...bm25.values());
    // With a topic ("what do viewers say about coffee prices?") the audience of the items the topic is in speaks; without one, every item's.
    const topicalItems = new Set([...bm25.keys()].map((id) => index.chunk(id)!.itemId));
    const items = scope.itemIds ?? ctx.corpus.items.filter((i) => i.comments && (!topicalItems.size || topicalItems.has(i.id))).map((i) => i.id);
    // Candidates: the most-liked comments of each item (all of them for one item) and the on-topic ones.
    const pre: { id: number; score: number }[] = [];
    const seen = new Set<number>();
    const engagement = (id: number): number => {
      const c = index.chunk(id)!;
      return Math.log1p(c.likes ?? 0) + 0.7 * Math.log1p(c.replyCount ?? 0) + 2 * ((bm25.get(id) ?? 0) / maxBm) + (c.words >= 5 ? 0.3 : 0);
    };
    for (const itemId of items) {
      const ids = mostLiked(index, itemId);
      for (const id of items.length === 1 ? ids : ids.slice(0, perItem(items.length))) {
        if (seen.has(id)) continue;
        pre.push({ id, score: engagement(id) });
        seen.add(id);
      }
    }
    for (const id of bm25.keys()) {
      if (seen.has(id) || (scope.itemIds && !scope.itemIds.includes(index.chunk(id)!.itemId))) continue;
      pre.push({ id, score: engagement(id) });
      seen.add(id);
    }
    pre.sort((a, b) => b.score - a.score);
    const out: Candidate[] = [];
    let promo = 0;
    // The corpus's spam decision, looked up once a question (finding it hashes every item's content).
    const spam = corpusSpam(ctx.corpus);
    for (const { id, score: base } of pre.slice(0, MAX_SCORED)) {
      const c = index.chunk(id)!;
      const item = index.item(c.itemId);
      if (!item?.comments) continue;
      if (scope.minLikes !== undefined && (c.likes ?? 0) < scope.minLikes) continue;
      const text = item.comments.text.slice(c.start, c.end);
      // Spam as decided for every reader (`spamFree.ts`), and the promotion this strategy leaves out besides.
      if (PROMO.test(text) || (c.commentId !== undefined && (spam.get(item.id)?.ids.has(c.commentId) ?? false))) {
        promo++;
        continue;
      }
      const likes = c.likes ?? 0;
      const replies = c.replyCount ?? 0;
      // Engagement dominates; topical match and a clear judgement lift a comment; one-word comments sink.
      const score = base + 0.5 * Math.min(1, Math.abs(polarity(text)));
      out.push(chunkCandidate(c, score, `${likes} like${likes === 1 ? '' : 's'}${replies ? `, ${replies} repl${replies === 1 ? 'y' : 'ies'}` : ''}${bm25.has(id) ? ', on topic' : ''}`));
    }
    out.sort((a, b) => b.score - a.score);
    return { list: out.slice(0, 200), ...(promo ? { note: `${promo} promotional or link comments left out of the reception strategy` } : {}) };
  },
};
