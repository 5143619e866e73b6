/**
 * `keyword`: BM25 retrieval over the search index (CorpusIndex), as `search`
 * and research use it — neighbour-smoothed scores for passages, a diversified
 * list for hits.
 *
 * A question whose terms were translated into the corpus's other languages
 * (`translatedKeywords`, crossLanguage/questionTranslation.ts) searches the
 * translations too ({@link CROSS_LANGUAGE}): "教授对信念网络说了什么？" finds
 * English meetings' passages about the belief network.
 */
import { retrieve } from '../../search/retrieve';
import type { ParsedQuery } from '../query';
import type { AskContext, AskScope, Candidate, RetrievalStrategy, StrategyOutput } from '../types';
import { chunkCandidate, scopeFilters, searchText } from './spanTools';

/**
 * How the translated terms join the keyword search: `append` adds them to the question's search
 * text (one retrieval; BM25 weighs them by their own rarity in the index); `merge` runs them as a
 * retrieval of their own, fused with the question's by reciprocal rank, the translation's ranks
 * counting `weight` times the question's. bench/crossLanguage.ts (`--tune`), hit@5 on hand-translated
 * dev questions: append 0.750 zh → en, 0.735 en → zh; merge at weight 0.5 the same, at 1 0.719 /
 * 0.706, at 2 0.750 / 0.706. Append is kept: as good, and one retrieval instead of two.
 */
export const CROSS_LANGUAGE = { mode: 'append' as 'merge' | 'append', weight: 1 };

/** The constant of the reciprocal-rank merge (as the hybrid retriever's fusion). */
const RRF_K = 60;

/** Hits and passages of one retrieval. */
function search(text: string, scope: AskScope, ctx: AskContext): StrategyOutput {
  const res = retrieve(ctx.index, text, { ...scopeFilters(scope), budgetWords: 0 });
  const list = res.ranked.filter((r) => r.bm25 > 0 || r.listScore > 0).slice(0, 200).map((r) => chunkCandidate(r.chunk, r.listScore, `BM25 ${r.bm25.toFixed(1)}`));
  // The order `retrieve` chooses passages in: smoothed over neighbouring windows.
  const passages = [...res.ranked].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 400).map((r) => chunkCandidate(r.chunk, r.score));
  return { list, passages };
}

const spanKey = (c: Candidate): string => `${c.itemId}\u0000${c.part}\u0000${c.start}\u0000${c.end}`;

/** Merges ranked lists by weighted reciprocal rank (the same span in both adds up), best first. */
export function mergeRanked(lists: readonly { list: readonly Candidate[]; weight: number }[], limit: number): Candidate[] {
  const merged = new Map<string, { c: Candidate; score: number }>();
  for (const { list, weight } of lists) {
    list.forEach((c, r) => {
      const k = spanKey(c);
      const add = weight / (RRF_K + r + 1);
      const m = merged.get(k);
      if (m) m.score += add;
      else merged.set(k, { c, score: add });
    });
  }
  return [...merged.values()].sort((a, b) => b.score - a.score).slice(0, limit).map((m) => ({ ...m.c, score: m.score }));
}

/** The translated terms to search, as one text (those in the corpus's languages are all searched: the index has one vocabulary). */
function translatedText(q: ParsedQuery): string {
  return [...new Set((q.translatedKeywords ?? []).map((t) => t.term))].join(' ');
}

export const keywordStrategy: RetrievalStrategy = {
  name: 'keyword',
  run(q, scope, ctx) {
    const topic = searchText(q);
    const translated = translatedText(q);
    if (!topic.trim() && !translated) return { list: [] };
    // The question's speakers are cut from its search text; given back here, they reach the index's
    // speaker field, so a topical window where the named speaker talks ranks above one where others do.
    const speakers = [...new Set(q.entities.filter((e) => e.kind === 'speaker').map((e) => e.label))];
    const text = [topic, ...speakers].join(' ');
    if (!translated) return search(text, scope, ctx);
    if (CROSS_LANGUAGE.mode === 'append') return search(`${text} ${translated}`, scope, ctx);
    const own = search(text, scope, ctx);
    const other = search([translated, ...speakers].join(' '), scope, ctx);
    const w = CROSS_LANGUAGE.weight;
    return {
      list: mergeRanked([{ list: own.list, weight: 1 }, { list: other.list, weight: w }], 200),
      passages: mergeRanked([{ list: own.passages ?? [], weight: 1 }, { list: other.passages ?? [], weight: w }], 400),
    };
  },
};
