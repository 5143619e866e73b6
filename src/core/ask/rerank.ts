/**
 * The model reranker of the hybrid retriever (seed 004 "_rerank"): when a
 * model is configured and reranking is asked for, one structured call orders
 * the best fused hits by how well each answers the question. Ids the model
 * invents are dropped, ids it forgets keep their fused place after the ranked
 * ones; any failure leaves the fused order and says why.
 */
import { z } from 'zod';
import type { ModelClient } from '../llm/client';
import { detectLanguage } from '../llm/langDetect';
import { loadPrompt } from '../llm/prompts';
import { isCancellation } from '../llm/types';
import type { ParsedQuery } from './query';
import type { AskHit } from './types';

export const RERANK_PROMPT = 'ask-rerank';
/** Hits sent to the reranker (the rest keep their fused order after them). */
export const RERANK_DEPTH = 20;
/** Characters of each hit shown to the reranker. */
const PASSAGE_CHARS = 600;

export const rerankReplySchema = z.object({
  ranking: z.array(z.object({ id: z.string(), relevance: z.number().min(0).max(1).catch(0.5) })).max(200),
});
export type RerankReply = z.infer<typeof rerankReplySchema>;

export interface RerankResult {
  hits: AskHit[];
  /** Why the fused order was kept, or which ids the model invented. */
  note?: string;
}

/** Orders `hits` (best fused first) with the model; ranks are renumbered. */
export async function rerankHits(client: ModelClient, q: ParsedQuery, hits: readonly AskHit[], options: { promptsDir: string; signal?: AbortSignal }): Promise<RerankResult> {
  const head = hits.slice(0, RERANK_DEPTH);
  if (head.length < 2) return { hits: [...hits] };
  const ids = head.map((_, i) => `P${i + 1}`);
  const passages = head
    .map((h, i) => `[${ids[i]}] ${h.title} · ${h.part}${h.source?.speakers.length ? ` · ${h.source.speakers.slice(0, 3).join(', ')}` : ''}\n${h.text.replace(/\s+/g, ' ').slice(0, PASSAGE_CHARS)}`)
    .join('\n\n');
  try {
    const prompt = await loadPrompt(options.promptsDir, RERANK_PROMPT, detectLanguage(q.question));
    const understood = [q.intent, q.entities.map((e) => e.label).join(', '), q.timeConstraint ? `${q.timeConstraint.startS}s–${q.timeConstraint.endS ?? 'end'}` : ''].filter(Boolean).join(' · ');
    const { value } = await client.complete({
      messages: prompt.render({ question: q.resolvedQuery || q.question, understood, passages }),
      schema: rerankReplySchema,
      schemaName: 'ask_rerank',
      phase: 'ask',
      step: 'rerank',
      signal: options.signal,
    });
    const seen = new Set<number>();
    const invented: string[] = [];
    const ordered: AskHit[] = [];
    for (const r of [...value.ranking].sort((a, b) => b.relevance - a.relevance)) {
      const i = ids.indexOf(r.id.trim());
      if (i < 0) {
        invented.push(r.id);
        continue;
      }
      if (seen.has(i)) continue;
      seen.add(i);
      ordered.push(head[i]!);
    }
    head.forEach((h, i) => (seen.has(i) ? undefined : ordered.push(h)));
    const all = [...ordered, ...hits.slice(RERANK_DEPTH)].map((h, i) => ({ ...h, rank: i + 1 }));
    return { hits: all, ...(invented.length ? { note: `the reranker named passages that were not shown (${invented.slice(0, 3).join(', ')}); ignored` } : {}) };
  } catch (e) {
    if (isCancellation(e)) throw e;
    return { hits: [...hits], note: `reranking failed (${(e as Error).message}); hits in fused order` };
  }
}
