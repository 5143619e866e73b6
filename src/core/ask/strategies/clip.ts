/**
 * `clip`: passages that would make good short clips or quotes — a clear claim,
 * a number, a strong opinion, said within one or a few turns, 20–90 s long
 * where timestamps exist; windows that comments point at by timestamp
 * ("12:34 😂") count as engaging.
 */
import { DIGIT_NUMBER, OPINION_CUES_EN, OPINION_CUES_ES, OPINION_CUES_ZH, ZH_NUMBER } from '../../markers/lexicons';
import { polarity } from '../../markers/extractive';
import { queryWeights } from '../../search/retrieve';
import { parseClock } from '../timePhrases';
import type { Candidate, RetrievalStrategy } from '../types';
import { scopeFilters, searchText } from './spanTools';
import { timeOfSpan } from './timeMap';

const OPINION = [...OPINION_CUES_EN, ...OPINION_CUES_ES, ...OPINION_CUES_ZH];
const STRONG = /!|！|\b(?:never|always|best|worst|incredible|amazing|crazy|nunca|siempre|increíble|brutal|locura|mejor|peor)\b|绝对|絕對|最好|最差|一定|千万|千萬|太/iu;
const CLOCK_IN_COMMENT = /(?<![\d:])(\d{1,2}:\d{2}(?::\d{2})?)(?![\d:])/g;

export const clipStrategy: RetrievalStrategy = {
  name: 'clip',
  run(q, scope, ctx) {
    const { index } = ctx;
    const weights = queryWeights(index, searchText(q));
    const bm25 = new Map<number, number>();
    if (weights.size && q.keywords.length) for (const h of index.searchWeighted(weights, { ...scopeFilters(scope), part: 'transcript' })) bm25.set(h.id, h.score);
    const maxBm = Math.max(1, ...bm25.values());
    const items = scope.itemIds ?? ctx.corpus.items.filter((i) => i.transcript).map((i) => i.id);
    const out: Candidate[] = [];
    for (const itemId of items) {
      const item = index.item(itemId);
      const t = item?.transcript;
      if (!item || !t) continue;
      const ents = ctx.entities.item(itemId);
      // Times that comments point at.
      const cited: number[] = [];
      for (const c of item.comments?.comments ?? []) for (const m of c.text.matchAll(CLOCK_IN_COMMENT)) cited.push(parseClock(m[1]!));
      // Candidate passages: one turn, or a run of consecutive turns by one speaker, of 25–250 words.
      const segs = t.segments;
      for (let i = 0; i < segs.length; ) {
        let j = i;
        let words = segs[i]!.text.split(/\s+/).length + (segs[i]!.text.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;
        while (j + 1 < segs.length && words < 60 && (segs[j + 1]!.speaker ?? null) === (segs[i]!.speaker ?? null)) {
          j++;
          words += segs[j]!.text.split(/\s+/).length + (segs[j]!.text.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;
        }
        const start = segs[i]!.offset;
        const end = segs[j]!.offset + segs[j]!.text.length;
        i = j + 1;
        if (words < 25 || words > 250) continue;
        const text = t.text.slice(start, end);
        const lower = text.toLowerCase();
        const reasons: string[] = [];
        let score = 0;
        if (DIGIT_NUMBER.test(text) || ZH_NUMBER.test(text)) {
          score += 1;
          reasons.push('a number');
        }
        if (OPINION.some((c) => lower.includes(c))) {
          score += 1;
          reasons.push('an opinion');
        }
        if (STRONG.test(text) || Math.abs(polarity(text)) >= 2) {
          score += 0.7;
          reasons.push('strong words');
        }
        const time = timeOfSpan(item, ents, start, end);
        if (time && !time.estimated) {
          const len = time.endS - time.startS;
          if (len >= 20 && len <= 90) {
            score += 0.8;
            reasons.push(`${Math.round(len)} s`);
          } else score -= 0.3;
        }
        const hits = time ? cited.filter((s) => s >= time.startS - 5 && s <= time.endS + 5).length : 0;
        if (hits) {
          score += Math.min(2, hits * 0.7);
          reasons.push(`cited by ${hits} comment${hits === 1 ? '' : 's'}`);
        }
        const chunkId = index.itemChunkIds(itemId).find((id) => {
          const c = index.chunk(id);
          return c && c.part === 'transcript' && c.start <= start && start < c.end;
        });
        const topical = chunkId === undefined ? 0 : (bm25.get(chunkId) ?? 0) / maxBm;
        if (topical > 0) reasons.push('on topic');
        score += 1.5 * topical;
        if (score <= 0.5) continue;
        out.push({ itemId, part: 'transcript', start, end, score, why: `clip: ${reasons.join(', ')}` });
      }
    }
    out.sort((a, b) => b.score - a.score);
    return { list: out.slice(0, 200) };
  },
};
