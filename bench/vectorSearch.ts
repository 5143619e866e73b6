/**
 * Search time of the flat vector store: `node --import tsx bench/vectorSearch.ts [--vectors N]
 * [--dims D] [--k K] [--queries Q]` (defaults 130,000 vectors of 64 dimensions, k 50, 200
 * queries). Random vectors in items of 100 chunks; reports the median and p95 of one search
 * with no filter, with an `itemIds` filter of 20 items, and with a part filter, plus the time to
 * fill the store and to save and reopen it. Everything stays in memory and a temporary folder.
 * Figures only: no targets (exit 1 only when it fails).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { FlatVectorStore, textKey, vectorsDir, type VectorEntry, type VectorFilter } from '../src/core/ask/vectorStore';
import { BenchError, runBench, type BenchReport } from './benchSupport';
import { mulberry32 } from '../src/core/util/seededRandom';

const PER_ITEM = 100;

/** mulberry32: the same run every time. */
const rng = mulberry32;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function time(store: FlatVectorStore, queries: Float32Array[], K: number, filter: (i: number) => VectorFilter | undefined): { median: number; p95: number } {
  const ms: number[] = [];
  queries.forEach((q, i) => {
    const started = process.hrtime.bigint();
    const hits = store.search(q, K, filter(i));
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (hits.length === 0) throw new Error('no hits');
  });
  ms.sort((a, b) => a - b);
  return { median: percentile(ms, 50), p95: percentile(ms, 95) };
}

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      vectors: { type: 'string', default: '130000' },
      dims: { type: 'string', default: '64' },
      k: { type: 'string', default: '50' },
      queries: { type: 'string', default: '200' },
    },
  });
  const N = Number(values.vectors);
  const DIMS = Number(values.dims);
  const K = Number(values.k);
  const QUERIES = Math.min(10_000, Number(values.queries));
  if (![N, DIMS, K, QUERIES].every((x) => Number.isInteger(x) && x > 0)) throw new BenchError('--vectors, --dims, --k and --queries must be positive integers');
  const rand = rng(42);
  const info = { provider: 'bench', model: 'random' };
  const root = await mkdtemp(path.join(tmpdir(), 'mr-bench-vectors-'));
  const store = new FlatVectorStore(info, vectorsDir(root, info));
  const items: string[] = [];
  let started = Date.now();
  for (let id = 0; id < N; ) {
    const itemId = `item-${items.length}`;
    items.push(itemId);
    const entries: VectorEntry[] = [];
    for (let j = 0; j < PER_ITEM && id < N; j++, id++) {
      entries.push({ chunkId: id, key: textKey(String(id)), part: j % 4 === 0 ? 'transcript' : 'comments', vector: Float32Array.from({ length: DIMS }, () => rand() * 2 - 1) });
    }
    store.upsertItem(itemId, 'h', entries);
  }
  const fillMs = Date.now() - started;
  const queries = Array.from({ length: QUERIES }, () => Float32Array.from({ length: DIMS }, () => rand() * 2 - 1));
  time(store, queries.slice(0, 10), K, () => undefined); // warm-up
  const none = time(store, queries, K, () => undefined);
  const byItems = time(store, queries, K, (i) => ({ itemIds: Array.from({ length: 20 }, (_, j) => items[(i * 37 + j * 101) % items.length]!) }));
  const byPart = time(store, queries, K, () => ({ part: 'transcript' }));

  let saveMs = 0;
  let openMs = 0;
  try {
    started = Date.now();
    await store.save();
    saveMs = Date.now() - started;
    started = Date.now();
    const reopened = await FlatVectorStore.open(root, store.info);
    openMs = Date.now() - started;
    if (reopened.store.size !== N || reopened.problems.length > 0) throw new Error(`reopen: ${reopened.store.size} vectors, ${reopened.problems.join('; ')}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }

  const f = (x: number): string => x.toFixed(2);
  console.log(`flat vector store: ${N} vectors × ${DIMS} dims in ${items.length} items, k=${K}, ${QUERIES} queries (node ${process.version})`);
  console.log(`  fill ${fillMs} ms, save ${saveMs} ms, open ${openMs} ms`);
  console.log(`  search, no filter:          median ${f(none.median)} ms, p95 ${f(none.p95)} ms`);
  console.log(`  search, itemIds (20 items): median ${f(byItems.median)} ms, p95 ${f(byItems.p95)} ms`);
  console.log(`  search, part = transcript:  median ${f(byPart.median)} ms, p95 ${f(byPart.p95)} ms`);
  report.note('figures only, no targets');
}

void runBench('vectorSearch', bench);
