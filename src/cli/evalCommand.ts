/**
 * `marker-research eval retrieval <corpusDir> [--scope item|corpus] [--budget-words 2000] [--json]`:
 * retrieval quality against `queries.jsonl` gold turn ranges, plus index timings.
 */
import { openSearchIndex } from '../core/corpus/openCorpus';
import { CorpusIndex } from '../core/search/corpusIndex';
import { evalRetrieval, readGoldQueries } from '../core/search/evalRetrieval';
import { knownItemEval, type KnownItemResult } from '../core/search/knownItem';
import { openAskContext } from '../core/ask/askContext';
import { evalAsk, evalHybridOnGold, readAskLabels } from '../core/ask/evalAsk';
import { openCorpusToSearch, openExistingCorpus } from './commandCorpus';
import { integerOption, parseCommandArgs, UsageError, type CliContext } from './io';

export const EVAL_USAGE = `marker-research eval ask <corpusDir> [--budget-words 2000] [--json]
Reads <corpusDir>/ask.jsonl (labelled questions) and reports intent accuracy, entity F1, time,
citation and coreference accuracy, hit@5 / recall on questions with gold turn ranges (hybrid beside
keyword alone), latency, and a per-intent confusion table; with queries.jsonl, also its gold queries
through the hybrid retriever beside keyword retrieval alone.
marker-research eval retrieval <corpusDir> [options]
  --scope S          item (each query searches its own item) | corpus (default item)
  --budget-words N   word budget for recall (default 2000)
  --json             JSON on stdout
Reads <corpusDir>/queries.jsonl ({"item_id","query","relevant_turn_ranges":[[start,end],...]},
0-based inclusive turn indices). Without it, a known-item test on comments is run instead.`;

export async function evalCommand(ctx: CliContext): Promise<number> {
  const [sub, ...rest] = ctx.args;
  if (sub === 'ask') return evalAskCommand({ ...ctx, args: rest });
  if (sub !== 'retrieval') throw new UsageError(`eval: unknown evaluation "${sub ?? ''}"; try "eval retrieval" or "eval ask"`);
  const { values, positionals } = parseCommandArgs({
    args: rest,
    allowPositionals: true,
    options: { scope: { type: 'string', default: 'item' }, 'budget-words': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError('eval retrieval: expected exactly one corpus folder');
  const scope = values.scope;
  if (scope !== 'item' && scope !== 'corpus') throw new UsageError('--scope expects item or corpus');
  const budgetWords = integerOption('budget-words', values['budget-words'], 2000);
  const root = positionals[0]!;

  const loadStart = performance.now();
  const corpus = await openExistingCorpus(ctx, 'eval', root);
  const loadMs = performance.now() - loadStart;
  if (!corpus) return 1;
  const gold = await readGoldQueries(corpus.root);
  for (const p of gold.problems) ctx.err.write(`${p}\n`);
  const known = new Set(corpus.items.map((i) => i.id));
  const queries = gold.queries.filter((q) => known.has(q.item_id));
  if (queries.length < gold.queries.length) ctx.err.write(`${gold.queries.length - queries.length} queries name items that are not in the corpus; skipped\n`);

  const t0 = performance.now();
  const index = CorpusIndex.build(corpus, undefined, ctx.signal);
  const indexMs = performance.now() - t0;
  const t1 = performance.now();
  await index.save(corpus.root);
  const saveMs = performance.now() - t1;
  const t2 = performance.now();
  const reopened = await openSearchIndex(corpus, ctx.signal);
  const persistedLoadMs = performance.now() - t2;
  if (reopened.report.mode !== 'loaded') ctx.err.write(`warning: the persisted index did not load as is (${reopened.report.mode})\n`);

  // One item "changes": the in-memory update re-indexes it alone.
  let reindexMs: number | null = null;
  const victim = corpus.items[Math.floor(corpus.items.length / 2)];
  if (victim) {
    const changed = { ...corpus, items: corpus.items.map((it) => (it === victim ? { ...it, contentHash: `${it.contentHash}-changed` } : it)) };
    const t3 = performance.now();
    const { reindexed } = reopened.index.update(changed, ctx.signal);
    reindexMs = performance.now() - t3;
    if (reindexed.length !== 1) ctx.err.write(`warning: expected one item re-indexed, got ${reindexed.length}\n`);
  }

  const evalIndex = reopened.index;
  let result: Record<string, unknown>;
  if (gold.found) {
    const r = evalRetrieval(evalIndex, queries, { scope, budgetWords });
    result = { mode: 'gold', queries: r.queries, hit_at_5: r.hit_at_5, recall_at_budget: r.recall_at_budget, p50_ms: r.p50_ms, p95_ms: r.p95_ms };
  } else {
    const r: KnownItemResult = knownItemEval(evalIndex, corpus, { scope });
    result = { mode: 'known-item', queries: r.queries, hit_at_5: r.hit_at_5, recall_at_budget: null, mrr: r.mrr, p50_ms: r.p50_ms, p95_ms: r.p95_ms };
  }
  const round = (x: number): number => Math.round(x * 10) / 10;
  const report = {
    corpus: corpus.root,
    scope,
    budget_words: budgetWords,
    ...result,
    index_ms: round(indexMs),
    items: corpus.items.length,
    chunks: evalIndex.size.chunks,
    words: corpus.stats.words,
    load_corpus_ms: round(loadMs),
    save_ms: round(saveMs),
    persisted_load_ms: round(persistedLoadMs),
    reindex_one_item_ms: reindexMs === null ? null : round(reindexMs),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  if (values.json) ctx.out.write(`${JSON.stringify(report, null, 2)}\n`);
  else ctx.out.write(`${Object.entries(report).map(([k, v]) => `${k.padEnd(20)} ${v === null ? '-' : String(v)}`).join('\n')}\n`);
  return 0;
}

async function evalAskCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args: ctx.args, allowPositionals: true, options: { 'budget-words': { type: 'string' }, json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new UsageError('eval ask: expected exactly one corpus folder');
  const budgetWords = integerOption('budget-words', values['budget-words'], 2000);
  const root = positionals[0]!;
  const opened = await openCorpusToSearch(ctx, 'eval', root);
  if (!opened) return 1;
  const { corpus } = opened;
  const { labels, problems, found } = await readAskLabels(corpus.root);
  for (const p of problems) ctx.err.write(`${p}\n`);
  if (!found) {
    ctx.err.write(`marker-research eval ask: ${corpus.root}/ask.jsonl not found (format: corpora/ASK.md)\n`);
    return 1;
  }
  const { index } = await opened.searchIndex();
  const askCtx = await openAskContext(corpus, index, { signal: ctx.signal });
  const r = await evalAsk(askCtx, labels, { budgetWords, signal: ctx.signal });
  const gold = await readGoldQueries(corpus.root);
  const known = new Set(corpus.items.map((i) => i.id));
  const goldQueries = gold.queries.filter((q) => known.has(q.item_id));
  const goldRun = gold.found
    ? { item: await evalHybridOnGold(askCtx, goldQueries, budgetWords, 'item'), corpus: await evalHybridOnGold(askCtx, goldQueries, budgetWords, 'corpus') }
    : null;
  const { perQuery, ...summary } = r;
  const report = { corpus: corpus.root, budget_words: budgetWords, ...summary, gold_queries: goldRun };
  if (values.json) {
    ctx.out.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const lines = Object.entries(summary)
    .filter(([k]) => k !== 'confusion')
    .map(([k, v]) => `${k.padEnd(26)} ${v === null ? '-' : String(v)}`);
  lines.push('', 'confusion (gold → predicted):');
  for (const [g, row] of Object.entries(r.confusion)) lines.push(`  ${g.padEnd(18)} ${Object.entries(row).map(([p, n]) => `${p}:${n}`).join('  ')}`);
  if (goldRun) {
    for (const g of [goldRun.item, goldRun.corpus]) {
      lines.push(`queries.jsonl (${g.queries}, ${g.scope} scope): hybrid hit@5 ${g.hybrid.hit_at_5} recall ${g.hybrid.recall_at_budget} · keyword hit@5 ${g.keyword.hit_at_5} recall ${g.keyword.recall_at_budget}`);
    }
  }
  const wrong = perQuery.filter((q) => q.intent !== q.gold_intent || !q.time_ok || !q.citation_ok);
  if (wrong.length) lines.push('', 'missed:', ...wrong.map((q) => `  ${q.query_id}: ${q.intent} (gold ${q.gold_intent})${q.time_ok ? '' : ' time'}${q.citation_ok ? '' : ' citation'}`));
  ctx.out.write(`${lines.join('\n')}\n`);
  return 0;
}
