/**
 * The retrieval benchmark: `npm run bench [-- --quick] [-- --only <name>]`.
 *
 * 1. Builds `dist/` when `dist/cli.js` is missing or older than `src/`.
 * 2. Copies each dev corpus (`$MARKER_RESEARCH_CORPORA`, default
 *    `<repo>/../shared/corpora`) to a temporary working folder, because the
 *    eval writes `.marker-research/` into the corpus folder; a missing corpus is
 *    a failure that names the path looked at.
 * 3. Generates (or reuses) the synthetic scale corpus in
 *    `${MARKER_RESEARCH_BENCH_CACHE:-~/.cache/marker-research-bench}/synthetic-<params>`
 *    and runs on a working copy of it.
 * 4. Runs `marker-research eval retrieval <dir> --scope item|corpus --budget-words N --json`
 *    as a child process per corpus and scope, each bounded by a timeout.
 * 5. Prints one table with the targets marked ✓/✗, then every target with its
 *    measured value, and writes `bench/results/latest.json` (raw output) and
 *    `bench/results/latest.md`. Besides the quality and speed targets it checks
 *    that the eval graded every line of `queries.jsonl` (counted by the bench)
 *    and that the re-index timing really re-indexed one item (no warning).
 *
 * Exit codes: 0 every run produced metrics and every target was met, 1 a run
 * failed, timed out or a corpus is missing, or a target was missed (unless
 * `--report-only`), 2 usage error or the eval command is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { BenchReport, copyCorpus, corporaRoot as devCorporaRoot, DEV_CORPORA, requireCorpus, type TargetResult } from './benchSupport';
import { ensureSyntheticCorpus, syntheticCorpusDirName, type SyntheticCorpusParams, type SyntheticCorpusSummary } from './syntheticCorpus';

const REPO = path.resolve(__dirname, '..');
const DEFAULT_CLI = path.join(REPO, 'bin', 'marker-research.js');
export { DEV_CORPORA };
const SYNTHETIC = 'synthetic';
const STORAGE_DIR = '.marker-research';
/** The eval's warning when the one-item re-index touched another number of items: the timing is void. */
const REINDEX_WARNING = /expected one item re-indexed/;

/** One eval run: a corpus, a scope, and what the child process returned. */
export interface RunResult {
  corpus: string;
  scope: Scope;
  status: 'ok' | 'failed' | 'timeout' | 'bad-output' | 'missing' | 'cancelled';
  note?: string;
  exitCode?: number | null;
  signal?: string | null;
  wallMs?: number;
  /** Peak RSS of the child read from /proc (Linux), used when the eval reports none. */
  harnessPeakRssMb?: number;
  /** The JSON object the eval printed. */
  metrics?: Record<string, unknown>;
  stderrTail?: string;
  /** `warning: …` lines the eval wrote to stderr. */
  warnings?: string[];
  /** Non-empty lines of the corpus's `queries.jsonl`, counted by the bench (undefined: no file). */
  goldLines?: number;
}

type Scope = 'item' | 'corpus';

/** Parsed command-line options of the bench. */
export interface BenchOptions {
  only: string[];
  quick: boolean;
  cli: string;
  budgetWords: number;
  timeoutS?: number;
  allScopes: boolean;
  /** Missed targets exit 0 (`--report-only`, alias `--no-strict`); failures still exit 1. */
  reportOnly: boolean;
  keep: boolean;
}

const USAGE = `Usage: npm run bench -- [options]
       node --import tsx bench/run.ts [options]

Options:
  --only <name>         Run one corpus (repeatable; a unique prefix is enough):
                        ${[...DEV_CORPORA, SYNTHETIC].join(', ')}
  --quick               Synthetic corpus of 100 items instead of 1,000 (fast smoke run).
  --all-scopes          Also run --scope item on the synthetic corpus (default: corpus only).
  --budget-words <n>    Word budget for recall (default 2000).
  --timeout <s>         Per-run timeout in seconds (default 300 for dev corpora, 1200 for synthetic).
  --cli <script>        Eval CLI to run (default bin/marker-research.js; dist/ is built when stale).
  --report-only         Exit 0 even when a target is missed (alias --no-strict); a failed run
                        or a missing corpus still exits 1. Default: a missed target exits 1.
  --keep                Keep the temporary working copies and print where they are.
  -h, --help            Show this help.

Environment: MARKER_RESEARCH_CORPORA (dev corpora folder, default <repo>/../shared/corpora),
MARKER_RESEARCH_BENCH_CACHE (synthetic corpus cache, default ~/.cache/marker-research-bench).
`;

// ---------------------------------------------------------------------------
// Targets and table
// ---------------------------------------------------------------------------

interface Column {
  header: string;
  /** Key in the eval JSON (or a function of the row). */
  value: (r: RunResult) => number | undefined;
  format: (v: number) => string;
  /** Text appended to the cell, e.g. the eval's mode. */
  suffix?: (r: RunResult) => string;
  /** The target for this cell, when one applies to the row. */
  target?: (r: RunResult) => { ok: (v: number) => boolean; label: string } | undefined;
}

function metric(r: RunResult, key: string): number | undefined {
  const v = r.metrics?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Gold queries (not the eval's known-item fallback) exist, so the quality targets apply. */
const hasGoldQueries = (r: RunResult): boolean => (metric(r, 'queries') ?? 0) > 0 && (r.metrics?.['mode'] ?? 'gold') === 'gold';
const modeSuffix = (r: RunResult): string => {
  const mode = r.metrics?.['mode'];
  return typeof mode === 'string' && mode !== 'gold' ? ` (${mode})` : '';
};
const fixed = (d: number) => (v: number): string => v.toFixed(d);
const ms = (v: number): string => (v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));
const compact = (v: number): string => (v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : String(v));

function columns(budgetWords: number): Column[] {
  const budget = budgetWords % 1000 === 0 ? `${budgetWords / 1000}kw` : `${budgetWords}w`;
  return [
    { header: 'items', value: (r) => metric(r, 'items'), format: compact },
    { header: 'words', value: (r) => metric(r, 'words'), format: compact },
    {
      header: 'queries', value: (r) => metric(r, 'queries'), format: String, suffix: modeSuffix,
      target: (r) => (hasGoldQueries(r) && r.goldLines !== undefined
        ? { ok: (v) => v === r.goldLines, label: `every line of queries.jsonl graded (${r.goldLines} lines)` } : undefined),
    },
    {
      header: 'hit@5', value: (r) => metric(r, 'hit_at_5'), format: fixed(3),
      target: (r) => (r.scope === 'item' && hasGoldQueries(r) ? { ok: (v) => v >= 0.95, label: 'hit@5 ≥ 0.95 (item scope)' } : undefined),
    },
    {
      header: `recall@${budget}`, value: (r) => metric(r, 'recall_at_budget'), format: fixed(3),
      target: (r) => (!hasGoldQueries(r) ? undefined : r.scope === 'item'
        ? { ok: (v) => v >= 0.7, label: `recall@${budget} ≥ 0.70 (item scope)` }
        : { ok: (v) => v >= 0.6, label: `recall@${budget} ≥ 0.60 (corpus scope)` }),
    },
    { header: 'p50 ms', value: (r) => metric(r, 'p50_ms'), format: ms },
    {
      header: 'p95 ms', value: (r) => metric(r, 'p95_ms'), format: ms,
      target: (r) => (r.corpus === SYNTHETIC ? { ok: (v) => v <= 50, label: 'p95 ≤ 50 ms (synthetic)' } : undefined),
    },
    { header: 'index ms', value: (r) => metric(r, 'index_ms'), format: ms },
    { header: 'load ms', value: (r) => metric(r, 'persisted_load_ms'), format: ms },
    {
      header: 'reindex-1 ms', value: (r) => metric(r, 'reindex_one_item_ms'), format: ms,
      target: (r) => {
        const void_ = (r.warnings ?? []).some((w) => REINDEX_WARNING.test(w));
        return { ok: (v) => v <= 1000 && !void_, label: `reindex one item ≤ 1000 ms${void_ ? ' (void: the eval did not re-index exactly one item)' : ''}` };
      },
    },
    { header: 'RSS MB', value: (r) => metric(r, 'peak_rss_mb') ?? r.harnessPeakRssMb, format: (v) => String(Math.round(v)) },
  ];
}

/** A rendered table plus the targets that were checked. */
export interface RenderedTable {
  markdown: string;
  missed: string[];
  checked: number;
  /** Every checked target with its measured value. */
  targets: TargetResult[];
}

/** Renders the results as an aligned Markdown table with ✓/✗ on every cell that has a target. */
export function renderTable(results: readonly RunResult[], budgetWords: number): RenderedTable {
  const cols = columns(budgetWords);
  const header = ['corpus', 'scope', ...cols.map((c) => c.header)];
  const rows: string[][] = [];
  const missed: string[] = [];
  const targets: TargetResult[] = [];
  let checked = 0;
  for (const r of results) {
    if (r.status !== 'ok') {
      rows.push([r.corpus, r.scope, `${r.status}${r.note ? `: ${r.note}` : ''}`, ...cols.slice(1).map(() => '')]);
      continue;
    }
    rows.push([r.corpus, r.scope, ...cols.map((c) => {
      const v = c.value(r);
      if (v === undefined) return '–';
      const t = c.target?.(r);
      if (!t) return c.format(v) + (c.suffix?.(r) ?? '');
      checked++;
      const ok = t.ok(v);
      targets.push({ label: `${r.corpus}/${r.scope}: ${t.label}`, value: c.format(v), ok });
      if (!ok) missed.push(`${r.corpus}/${r.scope}: ${t.label}, got ${c.format(v)}`);
      return `${c.format(v)} ${ok ? '✓' : '✗'}`;
    })]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return { markdown: [line(header), sep, ...rows.map(line)].join('\n'), missed, checked, targets };
}

const TARGETS_LEGEND = 'Targets: recall@budget ≥ 0.70 (item scope) / ≥ 0.60 (corpus scope); hit@5 ≥ 0.95 (item scope); ' +
  'p95 ≤ 50 ms (synthetic); reindex one item ≤ 1000 ms (and exactly one item re-indexed); every line of queries.jsonl graded. ' +
  'Rows without gold queries (none, or the eval\'s known-item fallback) have no recall/hit targets. hit@5 and recall are graded by ' +
  'the eval command against the gold turn ranges of queries.jsonl (labels from outside the project; synthetic: planted by the generator).';

// ---------------------------------------------------------------------------
// Processes and files
// ---------------------------------------------------------------------------

async function newestMtime(dir: string, depth = 0): Promise<number> {
  if (depth > 12) return 0;
  let newest = 0;
  for (const ent of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) newest = Math.max(newest, await newestMtime(p, depth + 1));
    else if (ent.isFile()) newest = Math.max(newest, (await stat(p)).mtimeMs);
  }
  return newest;
}

/** Builds `dist/` with `node esbuild.mjs` when `dist/cli.js` is missing or older than anything in `src/`. */
export async function ensureBuilt(log: (s: string) => void): Promise<boolean> {
  const bundle = path.join(REPO, 'dist', 'cli.js');
  const built = await stat(bundle).then((s) => s.mtimeMs, () => 0);
  const src = await newestMtime(path.join(REPO, 'src'));
  if (built >= src) return true;
  log(built ? 'bench: dist/cli.js is older than src/, rebuilding (node esbuild.mjs)' : 'bench: dist/cli.js is missing, building (node esbuild.mjs)');
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  return r.status === 0;
}

/** True when `<cli> eval retrieval --help` works and mentions the retrieval eval. */
function evalAvailable(cli: string): { ok: boolean; detail: string } {
  const r = spawnSync(process.execPath, [cli, 'eval', 'retrieval', '--help'], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const ok = r.status === 0 && /retrieval/i.test(out);
  return { ok, detail: ok ? '' : `exit ${r.status ?? r.signal}; ${out.trim().split('\n')[0] ?? ''}` };
}

/** Non-empty lines of `<dir>/queries.jsonl`, or undefined when there is none. */
async function countGoldLines(dir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dir, 'queries.jsonl'), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  return text === undefined ? undefined : text.split('\n').filter((l) => l.trim()).length;
}

function readPeakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    // Synchronous read of a tiny procfs file; fine inside a 250 ms poll.
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface ChildOutcome { code: number | null; signal: string | null; stdout: string; stderr: string; timedOut: boolean; wallMs: number; peakRssMb?: number }

function runChild(args: string[], timeoutMs: number, signal: AbortSignal): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let peak: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr = (stderr + d).slice(-20_000); });
    const poll = setInterval(() => {
      const v = readPeakRssMb(child.pid);
      if (v !== undefined) peak = Math.max(peak ?? 0, v);
    }, 250);
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
    };
    const timer = setTimeout(() => { timedOut = true; stop(); }, timeoutMs);
    const onAbort = (): void => stop();
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('close', (code, sig) => {
      clearInterval(poll);
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      signal.removeEventListener('abort', onAbort);
      resolve({ code, signal: sig, stdout, stderr, timedOut, wallMs: performance.now() - started, peakRssMb: peak });
    });
    child.on('error', (e) => { stderr += `\n${e.message}`; });
  });
}

/** Parses the eval's stdout: the whole text, or else the outermost `{...}`. */
export function parseEvalJson(stdout: string): Record<string, unknown> | undefined {
  const tryParse = (s: string): Record<string, unknown> | undefined => {
    try {
      const v = JSON.parse(s) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const whole = tryParse(stdout.trim());
  if (whole) return whole;
  const a = stdout.indexOf('{');
  const b = stdout.lastIndexOf('}');
  return a >= 0 && b > a ? tryParse(stdout.slice(a, b + 1)) : undefined;
}

async function runEval(corpus: string, dir: string, scope: Scope, opts: BenchOptions, timeoutS: number, signal: AbortSignal, log: (s: string) => void): Promise<RunResult> {
  await rm(path.join(dir, STORAGE_DIR), { recursive: true, force: true });
  log(`bench: ${corpus} --scope ${scope} …`);
  const args = [opts.cli, 'eval', 'retrieval', dir, '--scope', scope, '--budget-words', String(opts.budgetWords), '--json'];
  const out = await runChild(args, timeoutS * 1000, signal);
  const warnings = out.stderr.split('\n').filter((l) => /^warning:/i.test(l.trim())).map((l) => l.trim());
  const base: RunResult = {
    corpus, scope, status: 'ok', exitCode: out.code, signal: out.signal, wallMs: Math.round(out.wallMs),
    harnessPeakRssMb: out.peakRssMb === undefined ? undefined : Math.round(out.peakRssMb), stderrTail: out.stderr.slice(-2000) || undefined,
    ...(warnings.length ? { warnings } : {}),
  };
  const lastErr = out.stderr.trim().split('\n').pop()?.slice(0, 160) ?? '';
  let result: RunResult;
  if (signal.aborted) result = { ...base, status: 'cancelled' };
  else if (out.timedOut) result = { ...base, status: 'timeout', note: `after ${timeoutS} s` };
  else if (out.code !== 0) result = { ...base, status: 'failed', note: `exit ${out.code ?? out.signal}${lastErr ? ` — ${lastErr}` : ''}` };
  else {
    const metrics = parseEvalJson(out.stdout);
    result = metrics ? { ...base, metrics } : { ...base, status: 'bad-output', note: 'stdout is not one JSON object' };
  }
  log(`bench: ${corpus} --scope ${scope}: ${result.status}${result.note ? ` (${result.note})` : ''} in ${(out.wallMs / 1000).toFixed(1)} s`);
  return result;
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

function resolveOnly(only: string[]): { names: string[]; error?: string } {
  const all = [...DEV_CORPORA, SYNTHETIC];
  if (!only.length) return { names: all };
  const names: string[] = [];
  for (const o of only) {
    const hits = all.filter((n) => n === o || n.startsWith(o));
    const exact = all.find((n) => n === o);
    if (!exact && hits.length !== 1) return { names, error: `--only ${o}: ${hits.length ? `ambiguous (${hits.join(', ')})` : 'unknown'}; corpora: ${all.join(', ')}` };
    names.push(exact ?? hits[0]!);
  }
  return { names: all.filter((n) => names.includes(n)) };
}

/** Parses argv into {@link BenchOptions}; returns an error message on bad input. */
export function parseBenchArgs(argv: string[]): { options?: BenchOptions; help?: boolean; error?: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        only: { type: 'string', multiple: true, default: [] },
        quick: { type: 'boolean', default: false },
        'all-scopes': { type: 'boolean', default: false },
        'budget-words': { type: 'string', default: '2000' },
        timeout: { type: 'string' },
        cli: { type: 'string' },
        strict: { type: 'boolean', default: false },
        'report-only': { type: 'boolean', default: false },
        'no-strict': { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return { error: (e as Error).message };
  }
  const v = parsed.values;
  if (v.help) return { help: true };
  const budgetWords = Number(v['budget-words']);
  if (!Number.isInteger(budgetWords) || budgetWords <= 0) return { error: `--budget-words must be a positive integer, got ${v['budget-words']}` };
  const timeoutS = v.timeout === undefined ? undefined : Number(v.timeout);
  if (timeoutS !== undefined && !(timeoutS > 0)) return { error: `--timeout must be a positive number of seconds, got ${v.timeout}` };
  return {
    options: {
      only: v.only ?? [], quick: !!v.quick, cli: v.cli ? path.resolve(v.cli) : DEFAULT_CLI, budgetWords, timeoutS,
      allScopes: !!v['all-scopes'], reportOnly: !!v['report-only'] || !!v['no-strict'], keep: !!v.keep,
    },
  };
}

/**
 * Runs the benchmark with command-line `argv` and returns the exit code.
 *
 * @example node --import tsx bench/run.ts --quick --only synthetic
 */
export async function main(argv: string[]): Promise<number> {
  const log = (s: string): void => { process.stderr.write(`${s}\n`); };
  const parsed = parseBenchArgs(argv);
  if (parsed.help) { process.stdout.write(USAGE); return 0; }
  if (!parsed.options) { log(`bench: ${parsed.error}\n\n${USAGE}`); return 2; }
  const opts = parsed.options;
  const { names, error } = resolveOnly(opts.only);
  if (error) { log(`bench: ${error}`); return 2; }

  if (opts.cli === DEFAULT_CLI && !(await ensureBuilt(log))) { log('bench: build failed'); return 1; }
  const available = evalAvailable(opts.cli);
  if (!available.ok) {
    log(`bench: \`${path.relative(REPO, opts.cli) || opts.cli} eval retrieval\` is not available (${available.detail}).\n` +
      'bench: build a version of the CLI that has it (npm run build), or point --cli at another implementation.');
    return 2;
  }

  const controller = new AbortController();
  const onSigint = (): void => { log('bench: interrupted, stopping the current run'); controller.abort(); };
  process.once('SIGINT', onSigint);
  const corporaRoot = devCorporaRoot();
  const cacheRoot = path.resolve(process.env['MARKER_RESEARCH_BENCH_CACHE'] || path.join(os.homedir(), '.cache', 'marker-research-bench'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'marker-research-bench-'));
  const results: RunResult[] = [];
  const notes: string[] = [];
  let synthetic: (SyntheticCorpusSummary & { cacheDir: string }) | undefined;
  const started = new Date();
  try {
    for (const name of names) {
      if (controller.signal.aborted) break;
      if (name === SYNTHETIC) {
        const params: SyntheticCorpusParams = { items: opts.quick ? 100 : 1000, wordsPerItem: 10_000, seed: 1 };
        const cacheDir = path.join(cacheRoot, syntheticCorpusDirName(params));
        log(`bench: synthetic corpus ${syntheticCorpusDirName(params)} in ${cacheRoot}`);
        const summary = await ensureSyntheticCorpus(cacheDir, {
          ...params,
          signal: controller.signal,
          onProgress: (done, total) => { if (done % 100 === 0 || done === total) log(`bench:   generated ${done}/${total} items`); },
        });
        synthetic = { ...summary, cacheDir };
        log(`bench: synthetic corpus ${summary.reused ? 'reused' : `generated in ${(summary.ms / 1000).toFixed(1)} s`}: ` +
          `${summary.items} items, ${summary.words.toLocaleString('en-US')} words, ${summary.queries} queries, ${(summary.bytes / 1e6).toFixed(1)} MB`);
        const dir = path.join(work, SYNTHETIC);
        await copyCorpus(cacheDir, dir);
        const goldLines = await countGoldLines(dir);
        const scopes: Scope[] = opts.allScopes ? ['item', 'corpus'] : ['corpus'];
        for (const scope of scopes) {
          if (controller.signal.aborted) break;
          results.push({ ...(await runEval(SYNTHETIC, dir, scope, opts, opts.timeoutS ?? 1200, controller.signal, log)), ...(goldLines !== undefined ? { goldLines } : {}) });
        }
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      let src: string;
      try {
        src = await requireCorpus(name, corporaRoot);
      } catch (e) {
        const note = (e as Error).message;
        log(`bench: FAILED: ${note}`);
        for (const scope of ['item', 'corpus'] as const) results.push({ corpus: name, scope, status: 'missing', note });
        continue;
      }
      const dir = path.join(work, name);
      await copyCorpus(src, dir);
      const goldLines = await countGoldLines(dir);
      if (goldLines === undefined) notes.push(`${name}: no queries.jsonl; the table shows what the eval returns for it (known-item mode, no quality targets)`);
      for (const scope of ['item', 'corpus'] as const) {
        if (controller.signal.aborted) break;
        results.push({ ...(await runEval(name, dir, scope, opts, opts.timeoutS ?? 300, controller.signal, log)), ...(goldLines !== undefined ? { goldLines } : {}) });
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    if (opts.keep) log(`bench: working copies kept in ${work}`);
    else await rm(work, { recursive: true, force: true });
  }

  const table = renderTable(results, opts.budgetWords);
  const failed = results.filter((r) => r.status !== 'ok');
  const report = new BenchReport('retrieval');
  report.targets.push(...table.targets);
  for (const r of failed) report.fail(`${r.corpus}/${r.scope}: ${r.status}${r.note ? ` — ${r.note}` : ''}`);
  for (const r of results) for (const w of r.warnings ?? []) report.note(`${r.corpus}/${r.scope}: eval ${w}`);
  const lines = [
    `# Retrieval benchmark — ${started.toISOString()}`,
    '',
    table.markdown,
    '',
    TARGETS_LEGEND,
    '',
    ...report.lines(),
    ...notes.map((n) => `- note: ${n}`),
    ...(synthetic ? [`- synthetic: ${synthetic.items} items × ${synthetic.params.wordsPerItem} words (seed ${synthetic.params.seed}), ` +
      `${synthetic.words.toLocaleString('en-US')} words, ${synthetic.queries} queries, cache ${synthetic.cacheDir}`] : []),
    '',
  ];
  const markdown = lines.join('\n');
  process.stdout.write(`\n${markdown}`);

  if (controller.signal.aborted) {
    log('bench: interrupted; bench/results/latest.* left as they were');
    return 130;
  }
  const resultsDir = path.join(REPO, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  const raw = {
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    options: { ...opts, cli: path.relative(REPO, opts.cli) || opts.cli },
    environment: {
      node: process.version, platform: `${process.platform}-${process.arch}`, cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model, total_mem_mb: Math.round(os.totalmem() / 1048576), commit: gitCommit(),
    },
    corpora_root: corporaRoot,
    synthetic: synthetic ?? null,
    targets: { legend: TARGETS_LEGEND, checked: table.checked, missed: table.missed, all: table.targets },
    runs: results,
  };
  await writeFile(path.join(resultsDir, 'latest.json'), `${JSON.stringify(raw, null, 2)}\n`);
  await writeFile(path.join(resultsDir, 'latest.md'), markdown);
  log(`bench: wrote ${path.relative(REPO, path.join(resultsDir, 'latest.md'))} and latest.json`);

  await report.writeSummary(opts.reportOnly);
  if (table.missed.length && opts.reportOnly) log('bench: --report-only: missed targets do not change the exit code');
  return report.exitCode(opts.reportOnly);
}

function gitCommit(): string | undefined {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
