/**
 * Runs every benchmark, each as its own child process, even when an earlier one failed, then
 * prints one summary: per bench its status, targets met / checked and each missed target with
 * its measured value, followed by every checked target with ✓/✗. Exits 1 when any bench failed
 * or missed a target (with `--report-only`: only when one failed), 130 when interrupted.
 *
 * `node --import tsx bench/all.ts [--quick] [--report-only] [--bench NAME]... [--timeout-min N]`
 *
 * Each bench writes its targets to the JSON file named by `$MARKER_RESEARCH_BENCH_SUMMARY`
 * (see bench/benchSupport.ts); a bench that exits without writing one counts as failed.
 * The summary shows the machine's 1-minute load average before and after each bench: timing
 * targets measured on a busy machine say little. Writes bench/results/all.md.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchSummary, REPO, SUMMARY_ENV, writeBenchResult } from './benchSupport';

/** The benches in run order: name, script, and whether it takes `--quick`. */
export const BENCHES: readonly { name: string; script: string; quick: boolean }[] = [
  { name: 'retrieval', script: 'bench/run.ts', quick: true },
  { name: 'markers', script: 'bench/markers.ts', quick: true },
  { name: 'markerScale', script: 'bench/markerScale.ts', quick: true },
  { name: 'research', script: 'bench/research.ts', quick: false },
  { name: 'researchCoverage', script: 'bench/researchCoverage.ts', quick: true },
  { name: 'findingSupport', script: 'bench/findingSupport.ts', quick: false },
  { name: 'reportGold', script: 'bench/reportGold.ts', quick: true },
  { name: 'askProbes', script: 'bench/askProbes.ts', quick: false },
  { name: 'askDev', script: 'bench/askDev.ts', quick: false },
  { name: 'timePhrases', script: 'bench/timePhrases.ts', quick: true },
  { name: 'coreference', script: 'bench/coreference.ts', quick: true },
  { name: 'intent', script: 'bench/intent.ts', quick: true },
  { name: 'crossLanguage', script: 'bench/crossLanguage.ts', quick: false },
  { name: 'ask', script: 'bench/ask.ts', quick: true },
  { name: 'askQuotes', script: 'bench/askQuotes.ts', quick: false },
  { name: 'answers', script: 'bench/answers.ts', quick: false },
  { name: 'chat', script: 'bench/chat.ts', quick: false },
  { name: 'vectorSearch', script: 'bench/vectorSearch.ts', quick: false },
  { name: 'condense', script: 'bench/condense.ts', quick: false },
  { name: 'markerQuality', script: 'bench/markerQuality.ts', quick: true },
  { name: 'contentFree', script: 'bench/contentFree.ts', quick: true },
  { name: 'spamQuality', script: 'bench/spamQuality.ts', quick: true },
  { name: 'spamScale', script: 'bench/spamScale.ts', quick: true },
  { name: 'engine', script: 'bench/engine.ts', quick: true },
  { name: 'qdpxExport', script: 'bench/qdpxExport.ts', quick: false },
  { name: 'cliScale', script: 'bench/cliScale.ts', quick: true },
  { name: 'vectorScale', script: 'bench/vectorScale.ts', quick: true },
  { name: 'scale100m', script: 'bench/scale100m.ts', quick: true },
];

const USAGE = `Usage: node --import tsx bench/all.ts [options]

Runs every benchmark (${BENCHES.map((b) => b.name).join(', ')}) as a child process and prints a summary.

Options:
  --quick            Smaller synthetic corpus / fewer windows where a bench supports it.
  --report-only      Missed targets do not fail (alias --no-strict); a failed bench still does.
  --bench <name>     Run only this bench (repeatable).
  --timeout-min <n>  Per-bench timeout in minutes (default 60).
  -h, --help         Show this help.
`;

/** How one bench ended. */
export interface BenchOutcome {
  name: string;
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  ms: number;
  /** 1-minute load average before and after (timing figures are only as good as an idle machine). */
  load?: [number, number];
  summary?: BenchSummary;
}

/** The status word of an outcome. */
export function statusOf(o: BenchOutcome): string {
  if (o.timedOut) return 'timed out';
  if (!o.summary) return o.code === 0 ? 'no summary' : `crashed (exit ${o.code ?? o.signal})`;
  if (o.summary.failures.length) return 'failed';
  if (o.summary.targets.some((t) => !t.ok)) return 'targets missed';
  return o.code === 0 ? 'ok' : `exit ${o.code ?? o.signal}`;
}

/** True when the outcome makes the whole run fail. */
export function outcomeFails(o: BenchOutcome): boolean {
  return o.timedOut || !o.summary || o.code !== 0;
}

/** The summary: one row per bench, then every checked target. */
export function renderSummary(outcomes: readonly BenchOutcome[]): string {
  const rows = outcomes.map((o) => {
    const t = o.summary?.targets ?? [];
    const missed = t.filter((x) => !x.ok);
    return [
      o.name,
      statusOf(o),
      o.summary ? (t.length ? `${t.length - missed.length}/${t.length}` : 'none') : '–',
      [...missed.map((m) => `✗ ${m.label}: ${m.value}`), ...(o.summary?.failures ?? []).map((f) => `FAILED: ${f.split('\n')[0]}`)].join('; ') || '',
      `${(o.ms / 1000).toFixed(0)} s`,
      o.load ? `${o.load[0].toFixed(1)} → ${o.load[1].toFixed(1)}` : '–',
    ];
  });
  const header = ['bench', 'status', 'targets met', 'missed / failures', 'time', `load avg (${os.cpus().length} cpus)`];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)];
  const all: string[] = [];
  for (const o of outcomes) {
    for (const t of o.summary?.targets ?? []) all.push(`- ${t.ok ? '✓' : '✗'} [${o.name}] ${t.label}: ${t.value}`);
    for (const f of o.summary?.failures ?? []) all.push(`- FAILED [${o.name}] ${f.split('\n')[0]}`);
    for (const n of o.summary?.notes ?? []) all.push(`- note [${o.name}] ${n}`);
  }
  return [...lines, '', 'Every target:', ...all].join('\n');
}

function runOne(name: string, args: string[], summaryFile: string, timeoutMs: number, signal: AbortSignal): Promise<Omit<BenchOutcome, 'summary'>> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, [SUMMARY_ENV]: summaryFile } });
    let timedOut = false;
    let kill: NodeJS.Timeout | undefined;
    const stop = (): void => {
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    };
    const timer = setTimeout(() => { timedOut = true; stop(); }, timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (kill) clearTimeout(kill);
      signal.removeEventListener('abort', stop);
      resolve({ name, code, signal: sig, timedOut, ms: performance.now() - started });
    });
    child.on('error', (e) => process.stderr.write(`bench all: ${name}: ${e.message}\n`));
  });
}

/** Runs the benches for command-line `argv`; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean', default: false },
        'report-only': { type: 'boolean', default: false },
        'no-strict': { type: 'boolean', default: false },
        bench: { type: 'string', multiple: true, default: [] },
        'timeout-min': { type: 'string', default: '60' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (e) {
    process.stderr.write(`bench all: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const only = values.bench ?? [];
  const unknown = only.filter((n) => !BENCHES.some((b) => b.name === n));
  const timeoutMin = Number(values['timeout-min']);
  if (unknown.length || !(timeoutMin > 0)) {
    process.stderr.write(`bench all: ${unknown.length ? `unknown bench ${unknown.join(', ')}` : '--timeout-min must be a positive number'}\n\n${USAGE}`);
    return 2;
  }
  const reportOnly = !!values['report-only'] || !!values['no-strict'];
  const selected = BENCHES.filter((b) => !only.length || only.includes(b.name));
  const controller = new AbortController();
  const onSigint = (): void => { process.stderr.write('bench all: interrupted\n'); controller.abort(); };
  process.once('SIGINT', onSigint);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-all-'));
  const outcomes: BenchOutcome[] = [];
  const started = new Date();
  try {
    for (const b of selected) {
      if (controller.signal.aborted) break;
      const file = path.join(tmp, `${b.name}.json`);
      const args = [b.script, ...(values.quick && b.quick ? ['--quick'] : []), ...(reportOnly ? ['--report-only'] : [])];
      process.stderr.write(`\n=== bench ${b.name}: node --import tsx ${args.join(' ')}\n`);
      const load0 = os.loadavg()[0]!;
      const o: BenchOutcome = await runOne(b.name, args, file, timeoutMin * 60_000, controller.signal);
      o.load = [load0, os.loadavg()[0]!];
      o.summary = await readFile(file, 'utf8').then((t) => JSON.parse(t) as BenchSummary, () => undefined);
      outcomes.push(o);
      process.stderr.write(`=== bench ${b.name}: ${statusOf(o)} in ${(o.ms / 1000).toFixed(0)} s\n`);
    }
  } finally {
    process.off('SIGINT', onSigint);
    await rm(tmp, { recursive: true, force: true });
  }
  const summary = renderSummary(outcomes);
  const md = `# All benchmarks — ${started.toISOString()}\n\n${summary}\n`;
  process.stdout.write(`\n${md}`);
  await writeBenchResult('all.md', md);
  if (controller.signal.aborted) return 130;
  const failing = outcomes.filter(outcomeFails);
  if (failing.length) process.stderr.write(`bench all: ${failing.length} of ${outcomes.length} benches failed or missed a target: ${failing.map((o) => o.name).join(', ')}\n`);
  return failing.length ? 1 : 0;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
