/**
 * The CLI at the size of a large corpus (issue 25): `node --import tsx bench/cliScale.ts [--quick] [--report-only]`.
 *
 * On a fresh copy of the synthetic corpus (1,000 items / 10 M words; 100 items with --quick),
 * without `.marker-research/`, the built CLI (`node dist/cli.js`, as `bin/marker-research.js`
 * runs it; build first with `node esbuild.mjs`) runs `search` once cold (every file read, the
 * outline and the search index built and saved), then warm ({@link WARM_RUNS} searches of other
 * queries, each a new process, then the cold run's query again). Each run is a child process:
 * its wall time is measured from spawn to exit (Node's start included); its peak RSS is the
 * child's own `process.resourceUsage().maxRSS`, printed at exit by a preload; the files it opens
 * are recorded by another preload (test/support/recordOpens.cjs).
 *
 * Targets: warm `search` ≤ 4 s (median of the warm runs) and peak RSS ≤ 1.5 GB; cold ≤ 25 s and
 * peak RSS ≤ 1.5 GB; the warm runs open no item file; the warm run of the cold run's query prints
 * what the cold run printed. Writes bench/results/cliScale.md.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { BenchError, copyCorpus, REPO, runBench, writeBenchResult, type BenchReport } from './benchSupport';
import { ensureSyntheticCorpus, syntheticCorpusDirName } from './syntheticCorpus';

const cache = process.env['MARKER_RESEARCH_BENCH_CACHE'] ?? path.join(os.homedir(), '.cache', 'marker-research-bench');
const CLI = path.join(REPO, 'dist', 'cli.js');
const RECORDER = path.join(REPO, 'test', 'support', 'recordOpens.cjs');
const COLD_QUERY = 'battery prices in winter';
const WARM_QUERIES = ['what did the host say about regulation', 'market growth forecast', 'delivery plan changes', 'viewers complain about pricing', '电池 价格'];
const WARM_RUNS = WARM_QUERIES.length;
const WARM_TARGET_MS = 4_000;
const COLD_TARGET_MS = 25_000;
const RSS_TARGET_MB = 1_536;
/** The line the RSS preload prints on stderr at exit. */
const RSS_LINE = /^MR_MAX_RSS_KB (\d+)$/m;

interface CliRun {
  query: string;
  ms: number;
  rssMb: number;
  stdout: string;
  /** The CLI's own line about the index (`index built in … ms …`). */
  indexLine: string;
  /** Files opened inside the corpus outside `.marker-research/`. */
  itemFilesOpened: number;
  /** Files opened inside `.marker-research/`. */
  stateFilesOpened: number;
}

/** Runs `node dist/cli.js search <dir> <query> --json` as a child; wall time from spawn to exit. */
async function runSearch(work: string, dir: string, query: string, n: number): Promise<CliRun> {
  const rssPreload = path.join(work, 'maxRss.cjs');
  const log = path.join(work, `opens-${n}.log`);
  await writeFile(log, '');
  const args = ['--require', rssPreload, '--require', RECORDER, CLI, 'search', dir, query, '--json'];
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, MR_RECORD_OPENS: log }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
  });
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`search "${query}" exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const rss = RSS_LINE.exec(stderr);
  if (!rss) throw new Error(`search "${query}": no peak RSS line on stderr`);
  const state = path.join(dir, '.marker-research') + path.sep;
  const opened = [...new Set((await readFile(log, 'utf8')).split('\n').filter((p) => p.startsWith(dir + path.sep)))];
  return {
    query,
    ms,
    rssMb: Number(rss[1]) / 1024,
    stdout,
    indexLine: /^index .*$/m.exec(stderr)?.[0] ?? '',
    itemFilesOpened: opened.filter((p) => !p.startsWith(state)).length,
    stateFilesOpened: opened.filter((p) => p.startsWith(state)).length,
  };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mb = (x: number): string => `${Math.round(x)} MB`;

async function body(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  if (!existsSync(CLI)) throw new BenchError(`${CLI} is missing: build it first (node esbuild.mjs)`);
  const params = { items: quick ? 100 : 1000, wordsPerItem: 10_000, seed: 1 };
  const src = path.join(cache, syntheticCorpusDirName(params));
  const syn = await ensureSyntheticCorpus(src, params);
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-cli-'));
  try {
    await writeFile(path.join(work, 'maxRss.cjs'), "process.on('exit', () => process.stderr.write(`\\nMR_MAX_RSS_KB ${process.resourceUsage().maxRSS}\\n`));\n");
    const dir = await copyCorpus(src, path.join(work, 'corpus'));
    const load = os.loadavg()[0]!.toFixed(1);
    const cold = await runSearch(work, dir, COLD_QUERY, 0);
    const warm: CliRun[] = [];
    for (const [i, q] of WARM_QUERIES.entries()) warm.push(await runSearch(work, dir, q, i + 1));
    const again = await runSearch(work, dir, COLD_QUERY, WARM_RUNS + 1);
    const all = [...warm, again];
    const warmMs = median(all.map((r) => r.ms));
    const warmRss = Math.max(...all.map((r) => r.rssMb));
    const itemFiles = all.reduce((n, r) => n + r.itemFilesOpened, 0);
    const hits = (JSON.parse(cold.stdout) as unknown[]).length;
    const words = `${(syn.words / 1e6).toFixed(1)} M words`;

    const rows = [
      `| cold \`search "${COLD_QUERY}"\` (nothing under .marker-research/) | ${report.check(`cold search on ${words} ≤ ${s(COLD_TARGET_MS)}`, cold.ms <= COLD_TARGET_MS, s(cold.ms))} | ${report.check(`cold search peak RSS ≤ ${mb(RSS_TARGET_MB)}`, cold.rssMb <= RSS_TARGET_MB, mb(cold.rssMb))} | ${cold.itemFilesOpened} | ${cold.indexLine} |`,
      ...all.map((r, i) => `| warm ${i + 1}: \`search "${r.query}"\` | ${s(r.ms)} | ${mb(r.rssMb)} | ${r.itemFilesOpened} | ${r.indexLine} |`),
    ];
    const md = [
      `# CLI at scale — ${new Date().toISOString()}`,
      '',
      `\`node dist/cli.js search <corpus> <query> --json\` on a fresh copy of the synthetic corpus (${syn.items} items, ${syn.words.toLocaleString('en')} words; \`node --import tsx bench/cliScale.ts${quick ? ' --quick' : ''}\`). Each run a new process: wall time from spawn to exit (Node's start included), the child's peak RSS (\`process.resourceUsage().maxRSS\` at exit), item files it opened (outside \`.marker-research/\`). Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the start.`,
      '',
      '| run | wall | peak RSS | item files opened | index |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Warm: median ${report.check(`warm search on ${words} ≤ ${s(WARM_TARGET_MS)} (median of ${all.length})`, warmMs <= WARM_TARGET_MS, s(warmMs))}, slowest ${s(Math.max(...all.map((r) => r.ms)))}; peak RSS ${report.check(`warm search peak RSS ≤ ${mb(RSS_TARGET_MB)}`, warmRss <= RSS_TARGET_MB, mb(warmRss))}; item files opened ${report.check('warm searches open no item file', itemFiles === 0, String(itemFiles))}; the warm run of the cold query prints the cold run's ${hits} hits: ${report.check('warm output equals the cold output', again.stdout === cold.stdout, again.stdout === cold.stdout ? 'equal' : 'differs')}.`,
      '',
    ].join('\n');
    process.stdout.write(`${md}\n`);
    await writeBenchResult('cliScale.md', md);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('cliScale', body);
