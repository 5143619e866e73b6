/**
 * Retrieval evaluation against gold turn ranges (`queries.jsonl`, as in the
 * QMSum / VCSum dev corpora): hit@5 and recall at a word budget.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { CorpusIndex } from './corpusIndex';
import { retrieve, type RetrieveOptions } from './retrieve';

export const goldQuerySchema = z.object({
  item_id: z.string(),
  query_id: z.string().optional(),
  query: z.string().min(1),
  relevant_turn_ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).min(1),
});

export type GoldQuery = z.infer<typeof goldQuerySchema>;

/** Reads `<corpus>/queries.jsonl`; bad lines are returned as problems, not thrown. */
export async function readGoldQueries(root: string): Promise<{ queries: GoldQuery[]; problems: string[]; found: boolean }> {
  let text: string;
  try {
    text = await readFile(path.join(root, 'queries.jsonl'), 'utf8');
  } catch {
    return { queries: [], problems: [], found: false };
  }
  const queries: GoldQuery[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    try {
      const parsed = goldQuerySchema.safeParse(JSON.parse(line));
      if (parsed.success) queries.push(parsed.data);
      else problems.push(`queries.jsonl:${n + 1}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    } catch (e) {
      problems.push(`queries.jsonl:${n + 1}: ${(e as Error).message}`);
    }
  });
  return { queries, problems, found: true };
}

export interface EvalOptions extends Pick<RetrieveOptions, 'neighbourWeight' | 'neighbourRadius' | 'feedbackDocs' | 'feedbackTerms' | 'feedbackWeight'> {
  scope: 'item' | 'corpus';
  budgetWords: number;
}

export interface QueryResult {
  query: string;
  itemId: string;
  hitAt5: boolean;
  recall: number;
  ms: number;
}

export interface EvalResult {
  queries: number;
  hit_at_5: number;
  recall_at_budget: number;
  p50_ms: number;
  p95_ms: number;
  perQuery: QueryResult[];
}

function overlaps(a: number, b: number, ranges: readonly [number, number][]): boolean {
  return ranges.some(([s, e]) => a <= e && b >= s);
}

/** Percentile by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Runs every gold query. hit@5: a top-5 chunk of the item overlaps a gold range.
 * recall: share of gold turns inside the spans chosen within the budget (mean over queries).
 */
export function evalRetrieval(index: CorpusIndex, queries: readonly GoldQuery[], options: EvalOptions): EvalResult {
  const perQuery: QueryResult[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const res = retrieve(index, q.query, {
      budgetWords: options.budgetWords,
      itemIds: options.scope === 'item' ? [q.item_id] : undefined,
      part: 'transcript',
      neighbourWeight: options.neighbourWeight,
      neighbourRadius: options.neighbourRadius,
      feedbackDocs: options.feedbackDocs,
      feedbackTerms: options.feedbackTerms,
      feedbackWeight: options.feedbackWeight,
    });
    const ms = performance.now() - t0;
    const ranges = q.relevant_turn_ranges;
    const hitAt5 = res.ranked.slice(0, 5).some((r) => r.chunk.itemId === q.item_id && overlaps(r.chunk.firstIndex, r.chunk.lastIndex, ranges));
    const gold = new Set<number>();
    for (const [s, e] of ranges) for (let t = s; t <= e; t++) gold.add(t);
    let covered = 0;
    for (const t of gold) {
      if (res.spans.some((sp) => sp.itemId === q.item_id && sp.firstIndex <= t && t <= sp.lastIndex)) covered++;
    }
    perQuery.push({ query: q.query, itemId: q.item_id, hitAt5, recall: gold.size ? covered / gold.size : 0, ms });
  }
  const n = perQuery.length;
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    queries: n,
    hit_at_5: n ? round(perQuery.filter((r) => r.hitAt5).length / n) : 0,
    recall_at_budget: n ? round(perQuery.reduce((a, r) => a + r.recall, 0) / n) : 0,
    p50_ms: round(percentile(perQuery.map((r) => r.ms), 50)),
    p95_ms: round(percentile(perQuery.map((r) => r.ms), 95)),
    perQuery,
  };
}
