/**
 * `reception`: what the audience says — with a topic, the comments that mention it first (more
 * of its terms first), ranked among them by engagement (likes, replies) and by how strongly they
 * judge; without one (or when no comment mentions it, which a note says), by engagement alone.
 * Links and self-promotion ("subscribe to my channel") never speak for the audience.
 */
import { hasPart } from '../../corpus/types';
import { polarity } from '../../markers/extractive';
import { persistedCorpusSpam } from '../../markers/spamStore';
import { queryWeights } from '../../search/retrieve';
import { tokenize } from '../../search/tokenize';
import { LruMap } from '../../util/lruMap';
import type { AskContext, Candidate, RetrievalStrategy } from '../types';
import { chunkCandidate, scopeFilters } from './spanTools';
import { questionTopic } from './topic';

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
    ids = index.itemChunkIds(itemId).filter((id) => index.chunkSpan(id)?.part === 'comments');
    const likes = new Map(ids.map((id) => [id, index.chunkNumber(id, 'likes') ?? 0]));
    const replies = new Map(ids.map((id) => [id, index.chunkNumber(id, 'replyCount') ?? 0]));
    ids.sort((a, b) => likes.get(b)! - likes.get(a)! || replies.get(b)! - replies.get(a)! || a - b);
    perIndex.set(itemId, ids);
  }
  return ids;
}

/**
 * Comments' polarity by index and window, judged once (a reception question judges hundreds; the most liked come back every
 * question); bounded, and judged again when the window's text is not the one judged (an updated item).
 */
const polarities = new WeakMap<object, LruMap<number, { text: string; value: number }>>();
const MEMO_POLARITIES = 20_000;
function commentPolarity(index: AskContext['index'], id: number, text: string): number {
  let memo = polarities.get(index);
  if (!memo) polarities.set(index, (memo = new LruMap(MEMO_POLARITIES)));
  const known = memo.get(id);
  if (known && known.text === text) return known.value;
  const value = polarity(text);
  memo.set(id, { text, value });
  return value;
}

/** What a comment's mention of the topic adds to its score: more than any engagement, so the comments on topic come first. */
const ON_TOPIC = 100;

export const receptionStrategy: RetrievalStrategy = {
  name: 'reception',
  async run(q, scope, ctx) {
    const { index } = ctx;
    const filters = { ...scopeFilters(scope), part: 'comments' as const };
    // The question's topic, whatever it asks of the audience ("¿qué opinan los comentarios sobre la pelea?": "pelea"); without
    // the entities' names: "what do viewers say about Alcasec" is about every comment of his episode.
    const topic = questionTopic(q);
    const weights = topic.length ? queryWeights(index, topic.join(' ')) : new Map<string, number>();
    const bm25 = new Map<number, number>();
    // Share of the topic's terms a comment says, the rarer ones counting more: comments with more of them first ("remote control
    // price"; "interrupciones" before "entrevistador").
    const cover = new Map<number, number>();
    const n = index.documentCount;
    const idf = new Map([...weights.keys()].map((t) => [t, Math.log(1 + n / (1 + index.documentFrequency(t)))]));
    const total = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
    if (weights.size) {
      for (const h of index.searchWeighted(weights, filters, MAX_SCORED)) {
        bm25.set(h.id, h.score);
        // Said in the comment itself (the item's title matches every comment of it).
        const text = index.chunkTextOf(h.id) ?? '';
        const said = new Set(tokenize(text).filter((t) => weights.has(t)));
        if (said.size) cover.set(h.id, [...said].reduce((a, t) => a + idf.get(t)!, 0) / total);
      }
    }
    const maxBm = Math.max(1, ...bm25.values());
    // With a topic ("what do viewers say about coffee prices?") the audience of the items the topic is in speaks; without one, every item's.
    const topicalItems = new Set([...cover.keys()].map((id) => index.chunkItemId(id)!));
    const items = scope.itemIds ?? ctx.corpus.items.filter((i) => (!topicalItems.size || topicalItems.has(i.id)) && hasPart(i, 'comments')).map((i) => i.id);
    // Candidates: the most-liked comments of each item (all of them for one item) and the on-topic ones.
    const pre: { id: number; score: number }[] = [];
    const seen = new Set<number>();
    // Comments on the topic first, those with more of its terms before the others; among them (and without a topic) engagement.
    // Read from the index's columns: every item's most-liked comments are scored, the windows are not made for it.
    const engagement = (id: number): number => {
      const onTopic = cover.has(id) ? ON_TOPIC * (1 + cover.get(id)!) + 2 * ((bm25.get(id) ?? 0) / maxBm) : 0;
      return onTopic + Math.log1p(index.chunkNumber(id, 'likes') ?? 0) + 0.7 * Math.log1p(index.chunkNumber(id, 'replyCount') ?? 0) + ((index.chunkNumber(id, 'words') ?? 0) >= 5 ? 0.3 : 0);
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
      if (seen.has(id) || (scope.itemIds && !scope.itemIds.includes(index.chunkItemId(id)!))) continue;
      pre.push({ id, score: engagement(id) });
      seen.add(id);
    }
    pre.sort((a, b) => b.score - a.score);
    const out: Candidate[] = [];
    let promo = 0;
    let onTopic = 0;
    // The corpus's spam decision, looked up once a question: known, else the saved one (spamStore.ts), else decided (every
    // item with comments parsed, once per corpus content) and saved for the next process.
    const { spam } = await persistedCorpusSpam(ctx.corpus);
    for (const { id, score: base } of pre.slice(0, MAX_SCORED)) {
      const c = index.chunk(id)!;
      const item = index.item(c.itemId);
      if (!item || !hasPart(item, 'comments')) continue;
      if (scope.minLikes !== undefined && (c.likes ?? 0) < scope.minLikes) continue;
      // The comment's text as the index kept it (its item is not parsed for it).
      const text = index.chunkTextOf(id) ?? '';
      // Spam as decided for every reader (`spamFree.ts`), and the promotion this strategy leaves out besides.
      if (PROMO.test(text) || (c.commentId !== undefined && (spam.get(item.id)?.ids.has(c.commentId) ?? false))) {
        promo++;
        continue;
      }
      const likes = c.likes ?? 0;
      const replies = c.replyCount ?? 0;
      if (cover.has(id)) onTopic++;
      // A clear judgement lifts a comment a little; one-word comments sink.
      const score = base + 0.5 * Math.min(1, Math.abs(commentPolarity(index, id, text)));
      out.push(chunkCandidate(c, score, `${likes} like${likes === 1 ? '' : 's'}${replies ? `, ${replies} repl${replies === 1 ? 'y' : 'ies'}` : ''}${cover.has(id) ? ', on topic' : ''}`));
    }
    out.sort((a, b) => b.score - a.score);
    const notes = [
      ...(topic.length && !onTopic && out.length ? [`no comment${scope.itemIds ? ' of the item' : ''} mentions ${topic.map((t) => `"${t}"`).join(', ')}: the most-liked comments instead`] : []),
      ...(promo ? [`${promo} promotional or link comments left out of the reception strategy`] : []),
    ];
    return { list: out.slice(0, 200), ...(notes.length ? { note: notes.join('; ') } : {}) };
  },
};
