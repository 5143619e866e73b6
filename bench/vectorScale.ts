/**
 * The vector store at the size of a team's corpus (issue 25): `node --import tsx
 * bench/vectorScale.ts [--cases 100000x64,100000x768,1000000x64,1000000x768] [--queries Q]
 * [--quick]`. For each case (windows × dimensions) it fills an in-memory store with clustered
 * vectors (1,000 topic centres plus noise, items of 100 windows, one item at a time) and reports
 * the exact scan's median and p95 for one search of k = 50 (what the vector strategy asks for)
 * with no filter, an `itemIds` filter of 20 items and a part filter.
 *
 * Target: the vector part of a question ≤ {@link BUDGET_MS} ms p95 (the Ask budget with vectors
 * is 200 ms p95 per question at 100 M words ≈ 1 M windows; the vector search gets a quarter).
 * `--quick` runs the 100k × 64 case only.
 */
import { parseArgs } from 'node:util';
import { FlatVectorStore, textKey, type VectorEntry, type VectorFilter } from '../src/core/ask/vectorStore';
import { mulberry32 } from '../src/core/util/seededRandom';
import { BenchError, runBench, type BenchReport } from './benchSupport';

/** p95 budget of the vector search of one question, in ms. */
export const BUDGET_MS = 50;
const PER_ITEM = 100;
const CENTRES = 1000;
/** Noise per dimension relative to a centre's spread: neighbours are close but not trivial. */
const NOISE = 0.8;
const K = 50;

interface Case {
  windows: number;
  dims: number;
}

/** Clustered vectors: the same sequence for the same (seed, dims). */
export class ClusteredVectors {
  readonly #rand: () => number;
  readonly #centres: Float32Array;

  constructor(
    readonly dims: number,
    seed: number,
  ) {
    this.#rand = mulberry32(seed);
    this.#centres = Float32Array.from({ length: CENTRES * dims }, () => this.#rand() * 2 - 1);
  }

  next(): Float32Array {
    const c = Math.floor(this.#rand() * CENTRES) * this.dims;
    const v = new Float32Array(this.dims);
    for (let d = 0; d < this.dims; d++) v[d] = this.#centres[c + d]! + (this.#rand() * 2 - 1) * NOISE;
    return v;
  }
}

/** Fills an in-memory store with `windows` clustered vectors, item by item. */
export function fillStore(store: FlatVectorStore, windows: number, dims: number, seed = 42): string[] {
  const gen = new ClusteredVectors(dims, seed);
  const items: string[] = [];
  for (let id = 0; id < windows; ) {
    const itemId = `item-${items.length}`;
    items.push(itemId);
    const entries: VectorEntry[] = [];
    for (let j = 0; j < PER_ITEM && id < windows; j++, id++) {
      entries.push({ chunkId: id, key: textKey(String(id)), part: j % 4 === 0 ? 'transcript' : 'comments', vector: gen.next() });
    }
    store.upsertItem(itemId, 'h', entries);
  }
  return items;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Median and p95 in ms of `search` over the queries. */
export function timeSearches(queries: readonly Float32Array[], search: (q: Float32Array, i: number) => unknown[]): { median: number; p95: number } {
  const ms: number[] = [];
  queries.forEach((q, i) => {
    const started = process.hrtime.bigint();
    const hits = search(q, i);
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (hits.length === 0) throw new Error('no hits');
  });
  ms.sort((a, b) => a - b);
  return { median: percentile(ms, 50), p95: percentile(ms, 95) };
}

function parseCases(text: string): Case[] {
  return text.split(',').map((c) => {
    const [w, d] = c.split('x').map(Number);
    if (!Number.isInteger(w) || !Number.isInteger(d) || w! <= 0 || d! <= 0) throw new BenchError(`--cases: "${c}" is not WINDOWSxDIMS`);
    return { windows: w!, dims: d! };
  });
}

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      cases: { type: 'string', default: '100000x64,100000x768,1000000x64,1000000x768' },
      queries: { type: 'string', default: '100' },
      quick: { type: 'boolean', default: false },
    },
  });
  const cases = parseCases(values.quick ? '100000x64' : values.cases);
  const QUERIES = Math.min(10_000, Number(values.queries));
  if (!Number.isInteger(QUERIES) || QUERIES <= 0) throw new BenchError('--queries must be a positive integer');
  const f = (x: number): string => x.toFixed(2);
  console.log(`vector store at scale: clustered vectors (${CENTRES} centres), items of ${PER_ITEM} windows, k=${K}, ${QUERIES} queries, budget ${BUDGET_MS} ms p95 (node ${process.version})`);
  for (const { windows, dims } of cases) {
    const info = { provider: 'bench', model: 'clustered' };
    let store: FlatVectorStore | undefined = new FlatVectorStore(info);
    const started = Date.now();
    const items = fillStore(store, windows, dims);
    const fillMs = Date.now() - started;
    const gen = new ClusteredVectors(dims, 7);
    const queries = Array.from({ length: QUERIES }, () => gen.next());
    const s = store;
    const filters: [string, (i: number) => VectorFilter | undefined][] = [
      ['no filter', () => undefined],
      ['itemIds (20 items)', (i) => ({ itemIds: Array.from({ length: 20 }, (_, j) => items[(i * 37 + j * 101) % items.length]!) })],
      ['part = transcript', () => ({ part: 'transcript' })],
    ];
    timeSearches(queries.slice(0, 5), (q) => s.search(q, K)); // warm-up
    const label = `${windows / 1000}k × ${dims}`;
    console.log(`${label}: fill ${fillMs} ms, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
    for (const [name, filter] of filters) {
      const t = timeSearches(queries, (q, i) => s.search(q, K, filter(i)));
      console.log(`  scan, ${name.padEnd(20)} median ${f(t.median)} ms, p95 ${f(t.p95)} ms`);
      if (name === 'no filter') report.check(`vector search p95, ${label}, no filter`, t.p95 <= BUDGET_MS, `${f(t.p95)} ms`);
    }
    store = undefined;
    (globalThis as { gc?: () => void }).gc?.();
  }
}

void runBench('vectorScale', bench);
