/**
 * Known-item retrieval for corpora without gold queries (comment dumps): the
 * first words of a sampled comment are the query; a hit is that comment (or the
 * window holding it) in the top 5.
 */
import type { Corpus } from '../corpus/types';
import type { CorpusIndex } from './corpusIndex';
import { percentile } from './evalRetrieval';
import { retrieve } from './retrieve';

export interface KnownItemResult {
  queries: number;
  hit_at_5: number;
  mrr: number;
  p50_ms: number;
  p95_ms: number;
}

/** Samples up to `max` comments (every n-th, deterministic) with at least 8 words of text. */
export function knownItemEval(index: CorpusIndex, corpus: Corpus, options: { scope: 'item' | 'corpus'; max?: number; queryWords?: number }): KnownItemResult {
  const pool: { itemId: string; commentIndex: number; query: string }[] = [];
  for (const item of corpus.items) {
    for (const c of item.comments?.comments ?? []) {
      const words = c.text.split(/\s+/).filter(Boolean);
      if (words.length >= 8) pool.push({ itemId: item.id, commentIndex: c.index, query: words.slice(0, options.queryWords ?? 8).join(' ') });
    }
  }
  const max = options.max ?? 200;
  const step = Math.max(1, Math.floor(pool.length / max));
  const sample = pool.filter((_, i) => i % step === 0).slice(0, max);
  let hits = 0;
  let rr = 0;
  const times: number[] = [];
  for (const q of sample) {
    const t0 = performance.now();
    const res = retrieve(index, q.query, { budgetWords: 0, part: 'comments', itemIds: options.scope === 'item' ? [q.itemId] : undefined });
    times.push(performance.now() - t0);
    const rank = res.ranked.findIndex((r) => r.chunk.itemId === q.itemId && r.chunk.firstIndex === q.commentIndex);
    if (rank >= 0 && rank < 5) hits++;
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  const n = sample.length;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return { queries: n, hit_at_5: n ? round(hits / n) : 0, mrr: n ? round(rr / n) : 0, p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)) };
}
