/**
 * The corpus-wide spam decision at scale: `node --import tsx bench/spamScale.ts [--quick] [--report-only]`.
 *
 * On the synthetic corpus of 10,000 items × 10,000 words (~860,000 comments; 1,000 items with
 * --quick), opened as the engine opens it (`loadCorpus` with a bounded {@link PartStore} of
 * {@link PARSED_WORDS_KEPT} words), a child process decides the corpus's spam (`corpusSpam`: every
 * item's comments parsed — the part store keeps a bounded share — and judged) and reports its wall
 * and CPU time, the comments judged and its peak resident size (VmHWM). Before the fast path
 * (commit f7fd656) the decision took ~0.3 ms per comment (259 s on the full corpus) and held every
 * item's parsed comments at once (~4 GB).
 *
 * Targets: at most {@link TARGET}.usPerComment µs of CPU per comment (parsing included), peak RSS at
 * most {@link TARGET}.rssMb MB. The corpus is generated once (cached under
 * ~/.cache/marker-research-bench) and linked (hard links) into a work folder beside it, so nothing
 * is written into the cached corpus. Results: bench/results/spamScale.md.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import { PartStore } from '../src/core/corpus/partStore';
import { corpusSpam } from '../src/core/markers/spamFree';
import { BenchError, linkCorpus, REPO, runBench, writeBenchResult, type BenchReport } from './benchSupport';
import { ensureSyntheticCorpus, syntheticCorpusDirName } from './syntheticCorpus';

const cache = process.env['MARKER_RESEARCH_BENCH_CACHE'] || path.join(os.homedir(), '.cache', 'marker-research-bench');
/** Words of parsed parts the PartStore keeps: the engine's (src/core/corpus/openCorpus.ts). */
const PARSED_WORDS_KEPT = 2_000_000;
/** CPU per comment (parsing included) and peak resident size the decision may take. */
const TARGET = { usPerComment: 150, rssMb: 2048 };

interface DecideResult {
  items: number;
  comments: number;
  flagged: number;
  loadMs: number;
  decideMs: number;
  decideCpuMs: number;
  /** Peak resident size once the corpus was loaded, and at the end (MB). */
  loadRssMb: number;
  rssMb: number;
}

/** Peak resident size of this process (VmHWM), MB. */
async function peakRssMb(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : Math.round(process.resourceUsage().maxRSS / 1024);
}

/** The child: loads the corpus as the engine does, decides its spam, prints a {@link DecideResult}. */
async function child(dir: string): Promise<void> {
  const t0 = performance.now();
  const corpus = await loadCorpus(dir, { parts: new PartStore(PARSED_WORDS_KEPT) });
  const loadMs = performance.now() - t0;
  const loadRssMb = await peakRssMb();
  const cpu = process.cpuUsage();
  const t1 = performance.now();
  const spam = corpusSpam(corpus);
  const decideMs = performance.now() - t1;
  const used = process.cpuUsage(cpu);
  let flagged = 0;
  for (const d of spam.values()) flagged += d.ids.size;
  // Comments judged: counted from the items' facts (nothing parsed again).
  const comments = corpus.items.reduce((a, i) => a + ((i.facts?.comments ?? 0) - (i.facts?.emptyComments ?? 0)), 0);
  const result: DecideResult = {
    items: corpus.items.length,
    comments,
    flagged,
    loadMs: Math.round(loadMs),
    decideMs: Math.round(decideMs),
    decideCpuMs: Math.round((used.user + used.system) / 1000),
    loadRssMb,
    rssMb: await peakRssMb(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(dir: string): Promise<DecideResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', dir], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('close', (code, signal) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as DecideResult);
      } catch {
        reject(new BenchError(`the child ended without a result (exit ${code ?? signal}): ${`${out}\n${err}`.trim().slice(-2000)}`));
      }
    });
  });
}

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const params = { items: quick ? 1000 : 10_000, wordsPerItem: 10_000, seed: 1 };
  const src = path.join(cache, syntheticCorpusDirName(params));
  await ensureSyntheticCorpus(src, params);
  const dir = path.join(cache, 'spamScale-work', syntheticCorpusDirName(params));
  await linkCorpus(src, dir);
  const loadBefore = os.loadavg()[0]!;
  process.stderr.write(`spamScale: corpusSpam on ${params.items} items × ${params.wordsPerItem} words (${dir})…\n`);
  const r = await runChild(dir);
  const loadAfter = os.loadavg()[0]!;
  const us = (r.decideCpuMs * 1000) / Math.max(1, r.comments);
  const time = report.check(`corpusSpam: CPU per comment ≤ ${TARGET.usPerComment} µs (parsing included)`, us <= TARGET.usPerComment, `${us.toFixed(0)} µs`);
  const memory = report.check(`corpusSpam: peak RSS ≤ ${TARGET.rssMb} MB`, r.rssMb <= TARGET.rssMb, `${r.rssMb} MB`);
  const md = [
    `# Corpus spam decision at scale — ${new Date().toISOString()}`,
    '',
    `Synthetic corpus, ${r.items.toLocaleString('en-US')} items, ${r.comments.toLocaleString('en-US')} comments; \`corpusSpam\` in a child process after \`loadCorpus\` with a PartStore of ${PARSED_WORDS_KEPT.toLocaleString('en-US')} words ` +
      `(${os.cpus().length} cpus, load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after).`,
    '',
    '| measure | value |',
    '|:--|--:|',
    `| load (outline or parse) | ${(r.loadMs / 1000).toFixed(1)} s, peak RSS ${r.loadRssMb} MB |`,
    `| corpusSpam wall | ${(r.decideMs / 1000).toFixed(1)} s |`,
    `| corpusSpam CPU per comment | ${time} |`,
    `| peak RSS | ${memory} |`,
    `| comments flagged | ${r.flagged.toLocaleString('en-US')} |`,
    '',
  ].join('\n');
  console.log(md);
  await writeBenchResult('spamScale.json', `${JSON.stringify({ quick, ...r, usPerComment: us, targets: report.targets }, null, 2)}\n`);
  await writeBenchResult('spamScale.md', `${md}\n${report.lines().join('\n')}\n`);
}

if (require.main !== module) {
  // Imported: nothing runs.
} else if (process.argv[2] === '--child') {
  child(process.argv[3]!).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
} else {
  void runBench('spamScale', bench);
}
