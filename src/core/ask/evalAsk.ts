/**
 * `eval ask`: query understanding and hybrid retrieval against labelled
 * questions (`ask.jsonl`, format in corpora/ASK.md): intent accuracy, entity
 * F1, time, citation numbers, coreference, and on questions with gold turn
 * ranges hit@5 and recall within the word budget, counted exactly as
 * `eval retrieval` counts them — beside keyword retrieval alone on the same
 * questions.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import type { CorpusIndex } from '../search/corpusIndex';
import { percentile, type GoldQuery } from '../search/evalRetrieval';
import { retrieve } from '../search/retrieve';
import { askCorpus, entityStrings } from './ask';
import { warmUp } from './askContext';
import { hybridRetrieve } from './hybridRetriever';
import { INTENTS, type Intent } from './query';
import type { AskContext } from './types';
import { understandWithRules } from './understandRules';

export const askLabelSchema = z.object({
  query_id: z.string(),
  item_id: z.string().nullable(),
  session: z.array(z.string()).default([]),
  query: z.string().min(1),
  intent: z.enum(INTENTS),
  entities: z.array(z.string()).default([]),
  time_constraint: z.object({ start_s: z.number(), end_s: z.number().nullable() }).nullable().default(null),
  part: z.enum(['transcript', 'comments']).nullable().default(null),
  citation_numbers: z.array(z.number().int()).default([]),
  relevant_turn_ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).optional(),
});
export type AskLabel = z.infer<typeof askLabelSchema>;

/** Reads `<corpus>/ask.jsonl`; a bad line is reported with its line number, the rest is read. */
export async function readAskLabels(root: string): Promise<{ labels: AskLabel[]; problems: string[]; found: boolean }> {
  let text: string;
  try {
    text = await readFile(path.join(root, 'ask.jsonl'), 'utf8');
  } catch {
    return { labels: [], problems: [], found: false };
  }
  const labels: AskLabel[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    try {
      const parsed = askLabelSchema.safeParse(JSON.parse(line));
      if (parsed.success) labels.push(parsed.data);
      else problems.push(`ask.jsonl:${n + 1}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    } catch (e) {
      problems.push(`ask.jsonl:${n + 1}: ${(e as Error).message}`);
    }
  });
  return { labels, problems, found: true };
}

/** The grading rule of ASK.md: equal after trimming and lower-casing, or one contains the other. */
export function entityMatches(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  return !!x && !!y && (x === y || x.includes(y) || y.includes(x));
}

/** Matched pairs between predicted and gold entities (each used once). */
export function matchEntities(predicted: readonly string[], gold: readonly string[]): number {
  const used = new Set<number>();
  let tp = 0;
  for (const g of gold) {
    const i = predicted.findIndex((p, j) => !used.has(j) && entityMatches(p, g));
    if (i >= 0) {
      used.add(i);
      tp++;
    }
  }
  return tp;
}

export interface AskQueryResult {
  query_id: string;
  intent: Intent;
  gold_intent: Intent;
  entities: string[];
  gold_entities: string[];
  time_ok: boolean;
  citation_ok: boolean;
  hit_at_5: boolean | null;
  recall: number | null;
  ms: number;
}

export interface AskEvalResult {
  queries: number;
  intent_accuracy: number;
  entity_f1: number;
  entity_precision: number;
  entity_recall: number;
  time_accuracy: number;
  citation_accuracy: number;
  /** Questions with a session whose gold entities all came out (null when none has a session with entities). */
  coref_accuracy: number | null;
  coref_queries: number;
  /** On questions with gold turn ranges: the hybrid retriever, then keyword retrieval alone. */
  range_queries: number;
  hit_at_5: number | null;
  recall_at_budget: number | null;
  keyword_hit_at_5: number | null;
  keyword_recall_at_budget: number | null;
  p50_ms: number;
  p95_ms: number;
  /** confusion[gold][predicted] = count. */
  confusion: Record<string, Record<string, number>>;
  perQuery: AskQueryResult[];
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function overlaps(a: number, b: number, ranges: readonly [number, number][]): boolean {
  return ranges.some(([s, e]) => a <= e && b >= s);
}

/** hit@5 and recall as `eval retrieval` counts them, for any ranked list of turn ranges and chosen passages. */
export function rangeScores(itemId: string, ranges: readonly [number, number][], top: readonly { itemId: string; first: number; last: number }[], chosen: readonly { itemId: string; first: number; last: number }[]): { hit: boolean; recall: number } {
  const hit = top.slice(0, 5).some((h) => h.itemId === itemId && overlaps(h.first, h.last, ranges));
  const gold = new Set<number>();
  for (const [s, e] of ranges) for (let t = s; t <= e; t++) gold.add(t);
  let covered = 0;
  for (const t of gold) if (chosen.some((c) => c.itemId === itemId && c.first <= t && t <= c.last)) covered++;
  return { hit, recall: gold.size ? covered / gold.size : 0 };
}

/** Runs every labelled question through understanding and the hybrid retriever (item scope as labelled). */
export async function evalAsk(ctx: AskContext, labels: readonly AskLabel[], options: { budgetWords?: number; signal?: AbortSignal } = {}): Promise<AskEvalResult> {
  const budgetWords = options.budgetWords ?? 2000;
  const perQuery: AskQueryResult[] = [];
  const confusion: Record<string, Record<string, number>> = {};
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let corefN = 0;
  let corefOk = 0;
  const kw: { hit: boolean; recall: number }[] = [];
  // Latency is per question in steady state: the one-time loading (tagger, name lookup) is paid first.
  warmUp(ctx);
  for (const l of labels) {
    const t0 = performance.now();
    const r = await askCorpus(ctx, { question: l.query, itemId: l.item_id ?? undefined, session: l.session }, { k: 10, budgetWords, signal: options.signal });
    const ms = performance.now() - t0;
    const q = r.query;
    const ents = entityStrings(q);
    const m = matchEntities(ents, l.entities);
    tp += m;
    fp += ents.length - m;
    fn += l.entities.length - m;
    if (l.session.length && l.entities.length) {
      corefN++;
      if (m === l.entities.length) corefOk++;
    }
    const gt = l.time_constraint;
    const tc = q.timeConstraint;
    const timeOk = (!gt && !tc) || (!!gt && !!tc && Math.abs(gt.start_s - tc.startS) <= 5 && ((gt.end_s === null && tc.endS === null) || (gt.end_s !== null && tc.endS !== null && Math.abs(gt.end_s - tc.endS) <= 5)));
    const citationOk = JSON.stringify([...q.citationNumbers].sort((a, b) => a - b)) === JSON.stringify([...l.citation_numbers].sort((a, b) => a - b));
    (confusion[l.intent] ??= {})[q.intent] = (confusion[l.intent]?.[q.intent] ?? 0) + 1;
    let hit: boolean | null = null;
    let recall: number | null = null;
    if (l.relevant_turn_ranges?.length && l.item_id) {
      const top = r.hits.filter((h) => h.part === 'transcript' && h.source).map((h) => ({ itemId: h.itemId, first: h.source!.firstIndex, last: h.source!.lastIndex }));
      const chosen = r.passages.filter((p) => p.part === 'transcript' && p.source).map((p) => ({ itemId: p.itemId, first: p.source!.firstIndex, last: p.source!.lastIndex }));
      ({ hit, recall } = rangeScores(l.item_id, l.relevant_turn_ranges, top, chosen));
      kw.push(keywordScores(ctx.index, { item_id: l.item_id, query: l.query, relevant_turn_ranges: l.relevant_turn_ranges }, budgetWords));
    }
    perQuery.push({ query_id: l.query_id, intent: q.intent, gold_intent: l.intent, entities: ents, gold_entities: l.entities, time_ok: timeOk, citation_ok: citationOk, hit_at_5: hit, recall, ms });
  }
  const n = perQuery.length;
  const p = tp + fp ? tp / (tp + fp) : 1;
  const rc = tp + fn ? tp / (tp + fn) : 1;
  const ranged = perQuery.filter((x) => x.hit_at_5 !== null);
  return {
    queries: n,
    intent_accuracy: n ? round(perQuery.filter((x) => x.intent === x.gold_intent).length / n) : 0,
    entity_f1: round(p + rc ? (2 * p * rc) / (p + rc) : 0),
    entity_precision: round(p),
    entity_recall: round(rc),
    time_accuracy: n ? round(perQuery.filter((x) => x.time_ok).length / n) : 0,
    citation_accuracy: n ? round(perQuery.filter((x) => x.citation_ok).length / n) : 0,
    coref_accuracy: corefN ? round(corefOk / corefN) : null,
    coref_queries: corefN,
    range_queries: ranged.length,
    hit_at_5: ranged.length ? round(ranged.filter((x) => x.hit_at_5).length / ranged.length) : null,
    recall_at_budget: ranged.length ? round(ranged.reduce((a, x) => a + (x.recall ?? 0), 0) / ranged.length) : null,
    keyword_hit_at_5: kw.length ? round(kw.filter((x) => x.hit).length / kw.length) : null,
    keyword_recall_at_budget: kw.length ? round(kw.reduce((a, x) => a + x.recall, 0) / kw.length) : null,
    p50_ms: round(percentile(perQuery.map((x) => x.ms), 50)),
    p95_ms: round(percentile(perQuery.map((x) => x.ms), 95)),
    confusion,
    perQuery,
  };
}

/** Keyword retrieval alone (as `eval retrieval --scope item|corpus`) on one question. */
export function keywordScores(index: CorpusIndex, q: GoldQuery, budgetWords: number, scope: 'item' | 'corpus' = 'item'): { hit: boolean; recall: number } {
  const res = retrieve(index, q.query, { budgetWords, ...(scope === 'item' ? { itemIds: [q.item_id] } : {}), part: 'transcript' });
  return rangeScores(
    q.item_id,
    q.relevant_turn_ranges,
    res.ranked.map((r) => ({ itemId: r.chunk.itemId, first: r.chunk.firstIndex, last: r.chunk.lastIndex })),
    res.spans.map((s) => ({ itemId: s.itemId, first: s.firstIndex, last: s.lastIndex })),
  );
}

/**
 * The gold queries of `eval retrieval` (queries.jsonl) through the hybrid retriever (offline
 * understanding, item scope, transcript), beside keyword retrieval alone.
 */
export async function evalHybridOnGold(
  ctx: AskContext,
  queries: readonly GoldQuery[],
  budgetWords = 2000,
  scope: 'item' | 'corpus' = 'item',
): Promise<{ queries: number; scope: 'item' | 'corpus'; hybrid: { hit_at_5: number; recall_at_budget: number; p95_ms: number }; keyword: { hit_at_5: number; recall_at_budget: number } }> {
  const h: { hit: boolean; recall: number; ms: number }[] = [];
  const k: { hit: boolean; recall: number }[] = [];
  for (const g of queries) {
    const t0 = performance.now();
    const q = understandWithRules({ question: g.query, ...(scope === 'item' ? { itemId: g.item_id } : {}) }, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index, vectors: !!ctx.vectors });
    const res = await hybridRetrieve({ ...q, part: 'transcript' }, ctx, { k: 10, budgetWords });
    const ms = performance.now() - t0;
    const s = rangeScores(
      g.item_id,
      g.relevant_turn_ranges,
      res.hits.filter((x) => x.source).map((x) => ({ itemId: x.itemId, first: x.source!.firstIndex, last: x.source!.lastIndex })),
      res.passages.filter((x) => x.source).map((x) => ({ itemId: x.itemId, first: x.source!.firstIndex, last: x.source!.lastIndex })),
    );
    h.push({ ...s, ms });
    k.push(keywordScores(ctx.index, g, budgetWords, scope));
  }
  const mean = (xs: readonly { hit: boolean; recall: number }[]): { hit_at_5: number; recall_at_budget: number } => ({
    hit_at_5: xs.length ? round(xs.filter((x) => x.hit).length / xs.length) : 0,
    recall_at_budget: xs.length ? round(xs.reduce((a, x) => a + x.recall, 0) / xs.length) : 0,
  });
  return { queries: queries.length, scope, hybrid: { ...mean(h), p95_ms: round(percentile(h.map((x) => x.ms), 95)) }, keyword: mean(k) };
}
