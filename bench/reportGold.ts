/**
 * Does the offline report quote what answers its goal? `node --import tsx bench/reportGold.ts [--quick] [--report-only]`
 * (issue 22, "Offline report as an evidence brief").
 *
 * For every line of `queries.jsonl` of qmsum-dev (English) and vcsum-zh-dev (Chinese) — a question
 * (or a segment headline) about one item, with the item's turns that answer it (`relevant_turn_ranges`,
 * 0-based, inclusive) — an offline run (extractive markers and research, no model) with the question
 * as its goal and the item as its scope (`research --goal <query> --items <item_id>`), in process,
 * on a fresh copy of the corpus (markers generated once), each run bounded by {@link RUN_TIMEOUT_MS}.
 * Measured from the run's `report.sources.json` (what the report cites, resolved), not from anything
 * the run says about itself:
 *  - **ours**: of the report's cited transcript spans of the item, the share whose turn (the turn it
 *    starts in) lies inside a gold range;
 *  - **baseline**: the same number of the item's sentences taken at even intervals across its
 *    transcript (`readingSentences`: the sentences the product reads), the same share.
 * Pooled over the corpus's queries (a query whose report cites nothing counts nothing on either
 * side), and the mean per query beside it. Target: ours above the baseline on each corpus.
 * `--quick` runs every fourth query. Writes bench/results/reportGold.md.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import { mapSpan } from '../src/core/corpus/spans';
import type { Corpus, CorpusItem } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import { readingSentences } from '../src/core/markers/speechUnits';
import { readRun, runResearch } from '../src/core/research/pipeline';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { copyDevCorpus, REPO, runBench, type BenchReport } from './benchSupport';

const PROMPTS = path.join(REPO, 'prompts');
const CORPORA = ['qmsum-dev', 'vcsum-zh-dev'] as const;
/** A run longer than this is cancelled and counted as failed. */
const RUN_TIMEOUT_MS = 120_000;

interface GoldQuery {
  item_id: string;
  query: string;
  relevant_turn_ranges: [number, number][];
}

/** One query's counts: cited spans (ours) and baseline sentences, and how many of each lie in gold. */
interface QueryCount {
  query: string;
  itemId: string;
  cited: number;
  inside: number;
  baselineInside: number;
  error?: string;
}

function inGold(turn: number, ranges: readonly [number, number][]): boolean {
  return ranges.some(([a, b]) => a <= turn && turn <= b);
}

/** The turns (first turn of each) of `n` sentences of the item taken at even intervals: sentence ⌊(k + ½)·N/n⌋ for k < n. */
function evenTurns(item: CorpusItem, n: number): number[] {
  const part = item.transcript;
  if (!part || n <= 0) return [];
  const sents = readingSentences(part);
  if (!sents.length) return [];
  return Array.from({ length: n }, (_, k) => sents[Math.min(sents.length - 1, Math.floor(((k + 0.5) * sents.length) / n))]!.unit);
}

async function readQueries(dir: string): Promise<GoldQuery[]> {
  const text = await readFile(path.join(dir, 'queries.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldQuery);
}

/** Runs one query's report and counts its cited spans in gold and the baseline's. */
async function measure(corpus: Corpus, index: CorpusIndex, q: GoldQuery): Promise<QueryCount> {
  const item = corpus.items.find((i) => i.id === q.item_id);
  const base: QueryCount = { query: q.query, itemId: q.item_id, cited: 0, inside: 0, baselineInside: 0 };
  if (!item) return { ...base, error: 'item not in corpus' };
  try {
    const r = await runResearch({ corpus, index, engine: 'extractive', promptsDir: PROMPTS, scope: [q.item_id], signal: AbortSignal.timeout(RUN_TIMEOUT_MS) }, { goal: q.query });
    const run = await readRun(corpus.root, r.runId);
    const spans = (run.sources?.citations ?? []).map((c) => c.span).filter((s) => s.item_id === q.item_id && s.part === 'transcript');
    const turns = spans.flatMap((s) => mapSpan(item, { part: 'transcript', start: s.start, end: s.end })?.firstIndex ?? []);
    const even = evenTurns(item, turns.length);
    return { ...base, cited: turns.length, inside: turns.filter((t) => inGold(t, q.relevant_turn_ranges)).length, baselineInside: even.filter((t) => inGold(t, q.relevant_turn_ranges)).length };
  } catch (e) {
    return { ...base, error: (e as Error).message.slice(0, 200) };
  }
}

const pct = (a: number, b: number): string => (b ? `${((a / b) * 100).toFixed(1)} %` : '—');

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-report-gold-'));
  const lines: string[] = [
    '# Offline report against gold turns (issue 22)',
    '',
    `Offline (extractive markers and research), ${new Date().toISOString().slice(0, 10)}${quick ? ', --quick (every fourth query)' : ''}. Each query of queries.jsonl is a run with \`--goal <query> --items <item_id>\`; measured: the share of the report's cited transcript spans whose turn lies in a gold range, against the same number of the item's sentences at even intervals.`,
    '',
    '| corpus | queries | runs failed | cited spans | ours: in gold | baseline: in gold | ours, mean per query | baseline, mean per query | queries citing nothing |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const detail: string[] = [];
  try {
    for (const name of CORPORA) {
      const dir = await copyDevCorpus(name, work);
      const corpus = await loadCorpus(dir);
      await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      const index = CorpusIndex.build(corpus);
      const all = await readQueries(dir);
      const queries = quick ? all.filter((_, i) => i % 4 === 0) : all;
      const counts: QueryCount[] = [];
      const t0 = Date.now();
      for (const q of queries) counts.push(await measure(corpus, index, q));
      const failed = counts.filter((c) => c.error);
      for (const f of failed.slice(0, 5)) report.note(`${name}: "${f.query.slice(0, 60)}" (${f.itemId}) failed: ${f.error}`);
      const cited = counts.reduce((a, c) => a + c.cited, 0);
      const inside = counts.reduce((a, c) => a + c.inside, 0);
      const baseline = counts.reduce((a, c) => a + c.baselineInside, 0);
      const citing = counts.filter((c) => c.cited > 0);
      const mean = (f: (c: QueryCount) => number): number => (citing.length ? citing.reduce((a, c) => a + f(c) / c.cited, 0) / citing.length : 0);
      const ours = cited ? inside / cited : 0;
      const even = cited ? baseline / cited : 0;
      const ok = cited > 0 && ours > even && failed.length === 0;
      lines.push(
        `| ${name} | ${queries.length} | ${failed.length} | ${cited} | ${report.check(`${name}: cited spans in gold turns above the even-interval baseline (${pct(baseline, cited)})`, ok, pct(inside, cited))} | ${pct(baseline, cited)} | ${(mean((c) => c.inside) * 100).toFixed(1)} % | ${(mean((c) => c.baselineInside) * 100).toFixed(1)} % | ${queries.length - citing.length} |`,
      );
      process.stdout.write(`${name}: ${queries.length} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s; cited ${cited}, in gold ${pct(inside, cited)} vs baseline ${pct(baseline, cited)}\n`);
      detail.push(`## ${name}: per query`, '', '| item | query | cited | in gold | baseline in gold |', '|---|---|---|---|---|');
      for (const c of counts) detail.push(`| ${c.itemId} | ${c.query.replace(/\|/g, '\\|').slice(0, 80)} | ${c.error ? `failed: ${c.error.replace(/\|/g, '\\|').slice(0, 60)}` : c.cited} | ${c.inside} | ${c.baselineInside} |`);
      detail.push('');
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const out = path.join(REPO, 'bench', 'results');
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'reportGold.md'), `${[...lines, '', ...detail].join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

void runBench('reportGold', bench);
