/**
 * The 100 M-word scale benchmark (issue 25): `node --import tsx bench/scale100m.ts [--quick] [--report-only] [--marker-items N|all] [--heap MB] [--skip-markers]`
 * (env `SCALE_ASK_BUDGET_MS`: the Ask questions' total wall-time budget, default 300000; `SCALE_ASK_WARM_UP=0`: Ask
 * measured without the engine's warm-up, as before it had one).
 *
 * On the synthetic corpus of 10,000 items × 10,000 words (100 M words; 1,000 items with
 * --quick), opened as the engine opens it (`loadCorpus` with a bounded {@link PartStore} and
 * an item cache, then `CorpusIndex.open`), each phase in a child process of its own so its
 * peak resident size (VmHWM from /proc) is its own:
 *
 * - build: a cold load (no outline, no index) + the index built and saved, and the entity
 *   index Ask opens (also persisted): wall time and peak RSS; the size of each index file.
 * - warm: a new process, the persisted outline and index, the corpus unchanged: time from the
 *   start of the load to the first answered search (and from the process's start, tsx's
 *   compile included); then search p95 over the corpus's generated queries (`queries.jsonl`,
 *   searched as the engine's search request does: `retrieve`, top 10, each hit's text read)
 *   and Ask p95 (`askCorpus`, offline, no vectors) over bench/askQuestions.ts's questions,
 *   corpus-wide and on one item each, after the engine's own warm-up of its Ask path
 *   (`warmUpAsking`, askWarmUp.ts: what the engine does after it opens a corpus this large; its
 *   questions are about words of the corpus the measured ones do not ask about, checked and
 *   reported) and the bench's warm-up questions, within a
 *   total budget (a question is not started past it; fewer questions than planned miss the target).
 * - markers: extractive markers, item by item (`generateMarkers`), on the first N items
 *   (`--marker-items`, default 300; `all` for every item): peak RSS. Then the kill-and-resume
 *   check: a fresh run is killed (SIGKILL) after K items were written, a new process runs again
 *   and must write only the items without a marker file (checked from the files: the ones
 *   written before the kill keep their inode and modification time; every item has one after).
 *
 * The corpus is generated once (cached under ~/.cache/marker-research-bench) and linked (hard
 * links, no copy) into a work folder beside it, so the index and markers written here never
 * touch the cached corpus other benches use. Results: bench/results/scale100m.md.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { askCorpus } from '../src/core/ask/ask';
import { warmUpAsking } from '../src/core/ask/askWarmUp';
import { openAskContext } from '../src/core/ask/askContext';
import { loadCorpus } from '../src/core/corpus/loader';
import { PartStore } from '../src/core/corpus/partStore';
import type { Corpus } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import { markerFileName } from '../src/core/markers/store';
import { CorpusIndex, indexDir } from '../src/core/search/corpusIndex';
import { retrieve } from '../src/core/search/retrieve';
import { STORAGE_DIR } from '../src/core/storage/storageDir';
import { ENGINE_EXEC_ARGV } from '../src/shared/engineProcess';
import { ASK_BENCH_QUESTIONS } from './askQuestions';
import { BenchError, linkCorpus, nearestRank, REPO, runBench, writeBenchResult, type BenchReport } from './benchSupport';
import { ensureSyntheticCorpus, QUERIES_FILE, syntheticCorpusDirName, type SyntheticQuery } from './syntheticCorpus';

const cache = process.env['MARKER_RESEARCH_BENCH_CACHE'] || path.join(os.homedir(), '.cache', 'marker-research-bench');
/** Words of parsed parts the PartStore keeps: the engine's PARSED_WORDS_KEPT (src/server/corpusEngine.ts). */
const PARSED_WORDS_KEPT = 2_000_000;
/** Generated queries searched in the warm phase (the first of queries.jsonl). */
const SEARCH_QUERIES = 300;
/** Wall time the Ask questions may take in all (ms; `SCALE_ASK_BUDGET_MS`): questions are not started past it (one question runs to its end). */
const ASK_BUDGET_MS = Number(process.env['SCALE_ASK_BUDGET_MS'] ?? 300_000);
/** Items after which the kill-and-resume check kills the first run. */
const KILL_AFTER = 40;

const TARGET = { buildRssMb: 4096, warmStartMs: 10_000, searchP95Ms: 100, askP95Ms: 200 };

interface BuildResult {
  loadMs: number;
  indexMs: number;
  entitiesMs: number;
  peakRssMb: number;
  /** Peak RSS when the corpus was loaded, before the index. */
  loadRssMb: number;
  /** Peak RSS when the search index was built and saved, before the entity index. */
  indexRssMb: number;
  items: number;
  words: number;
  chunks: number;
  files: Record<string, number>;
}

interface WarmResult {
  warmMs: number;
  fromProcessStartMs: number;
  loadMs: number;
  indexOpenMs: number;
  mode: string;
  rssAfterOpenMb: number;
  searchP50: number;
  searchP95: number;
  searches: number;
  hitsWithText: number;
  askOpenMs: number;
  askP50: number;
  askP95: number;
  asks: number;
  /** Questions planned; fewer were asked when the budget ran out. */
  askPlanned?: number;
  askSlowest: string[];
  /** The engine's Ask warm-up before the questions (absent with SCALE_ASK_WARM_UP=0). */
  askWarmUp?: { ms: number; questions: number; topics: string[] };
  peakRssMb: number;
}

interface MarkersResult {
  items: number;
  ms: number;
  generated: number;
  peakRssMb: number;
}

/** VmHWM (peak resident set) of this process, MB. */
async function peakRss(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  const m = /^VmHWM:\s+(\d+) kB/m.exec(status);
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function rssNow(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** Opens the corpus as the engine does: a bounded PartStore, an item cache, the outline. */
async function openCorpus(dir: string): Promise<Corpus> {
  return loadCorpus(dir, { itemCache: new Map(), parts: new PartStore(PARSED_WORDS_KEPT) });
}

function log(message: string): void {
  process.stderr.write(`  ${message}\n`);
}

async function phaseBuild(dir: string): Promise<BuildResult> {
  await rm(path.join(dir, STORAGE_DIR), { recursive: true, force: true });
  const t0 = performance.now();
  const corpus = await openCorpus(dir);
  const loadMs = performance.now() - t0;
  const loadRssMb = await peakRss();
  log(`cold load: ${Math.round(loadMs)} ms, ${corpus.stats.items} items, ${corpus.stats.words} words, peak RSS ${loadRssMb} MB`);
  const t1 = performance.now();
  let last = 0;
  const { index } = await CorpusIndex.open(corpus, undefined, undefined, (p) => {
    if (p.done - last >= 1000 || p.done === p.total) {
      last = p.done;
      void rssNow().then((rss) => log(`index: ${p.done}/${p.total} items, ${Math.round(performance.now() - t1)} ms, RSS ${rss} MB`));
    }
  });
  const indexMs = performance.now() - t1;
  const indexRssMb = await peakRss();
  log(`index built and saved: ${Math.round(indexMs)} ms, ${index.size.chunks} chunks, peak RSS ${indexRssMb} MB`);
  const t2 = performance.now();
  await openAskContext(corpus, index, { markers: new Map() });
  const entitiesMs = performance.now() - t2;
  log(`entity index built and saved: ${Math.round(entitiesMs)} ms`);
  const files: Record<string, number> = {};
  for (const f of await readdir(indexDir(dir))) files[f] = (await stat(path.join(indexDir(dir), f))).size;
  return { loadMs, indexMs, entitiesMs, peakRssMb: await peakRss(), loadRssMb, indexRssMb, items: corpus.stats.items, words: corpus.stats.words, chunks: index.size.chunks, files };
}

async function readQueries(dir: string, n: number): Promise<string[]> {
  const lines = (await readFile(path.join(dir, QUERIES_FILE), 'utf8')).split('\n').filter(Boolean);
  // Spread over the corpus: every k-th query, so the hits fall in items all over it.
  const step = Math.max(1, Math.floor(lines.length / n));
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < n; i += step) out.push((JSON.parse(lines[i]!) as SyntheticQuery).query);
  return out;
}

async function phaseWarm(dir: string): Promise<WarmResult> {
  const queries = await readQueries(dir, SEARCH_QUERIES);
  const t0 = performance.now();
  const corpus = await openCorpus(dir);
  const loadMs = performance.now() - t0;
  const { index, report } = await CorpusIndex.open(corpus);
  const indexOpenMs = performance.now() - t0 - loadMs;
  // The first answered search, as the engine answers it (hit texts read).
  const first = retrieve(index, queries[0]!, { budgetWords: 0 }).ranked.slice(0, 10);
  for (const r of first) index.chunkTextOf(r.id);
  const warmMs = performance.now() - t0;
  const fromProcessStartMs = performance.now();
  const rssAfterOpenMb = await rssNow();
  log(`warm start: load ${Math.round(loadMs)} ms, index ${report.mode} ${Math.round(indexOpenMs)} ms, first search answered at ${Math.round(warmMs)} ms (${Math.round(fromProcessStartMs)} ms since the process started); RSS ${rssAfterOpenMb} MB`);

  const ms: number[] = [];
  let hitsWithText = 0;
  for (const q of queries) {
    const s = performance.now();
    const ranked = retrieve(index, q, { budgetWords: 0 }).ranked.slice(0, 10);
    for (const r of ranked) if (index.chunkTextOf(r.id)) hitsWithText++;
    ms.push(performance.now() - s);
  }
  log(`search: ${queries.length} queries, p50 ${nearestRank(ms, 50).toFixed(1)} ms, p95 ${nearestRank(ms, 95).toFixed(1)} ms`);

  const a0 = performance.now();
  const ctx = await openAskContext(corpus, index, { markers: new Map() });
  const askOpenMs = performance.now() - a0;
  // As the engine after it opens a corpus this large (src/server/askWarming.ts): its Ask path warmed up, about words of the
  // corpus. Those must not be the measured questions' words: a measured question would then find its search or items cached.
  let askWarmUp: WarmResult['askWarmUp'];
  if (process.env['SCALE_ASK_WARM_UP'] !== '0') {
    const r = await warmUpAsking(ctx);
    const topics = [r.topics.latin, r.topics.han].filter((t): t is string => !!t);
    const measured = ASK_BENCH_QUESTIONS.join(' ').toLowerCase();
    const shared = topics.filter((t) => measured.includes(t));
    if (shared.length) throw new Error(`the warm-up's topic words ${shared.join(', ')} are in the measured questions: choose another corpus seed`);
    askWarmUp = { ms: r.ms, questions: r.questions.length, topics };
    log(`ask warm-up (the engine's): ${r.questions.length} questions in ${Math.round(r.ms)} ms about ${topics.join(', ')}`);
  }
  // As bench/ask.ts: warm-up questions not in the measured set, then every question corpus-wide and on one item.
  // The budget counts from the first warm-up question (at 100 M words one corpus-wide question can take minutes).
  const askStart = performance.now();
  for (const q of ['这些节目谈到了哪些公司？', 'What do the commenters complain about?', 'Which parts would make good highlights?', 'What did the host say about the weather?']) {
    if (performance.now() - askStart > ASK_BUDGET_MS) break;
    const w = performance.now();
    await askCorpus(ctx, { question: q });
    log(`ask warm-up: ${Math.round(performance.now() - w)} ms: ${q}`);
  }
  const items = corpus.items.slice(0, 20).map((i) => i.id);
  const askMs: number[] = [];
  const named: [number, string][] = [];
  for (const [i, q] of ASK_BENCH_QUESTIONS.entries()) {
    for (const itemId of [undefined, items[i % items.length]]) {
      if (performance.now() - askStart > ASK_BUDGET_MS) break;
      const s = performance.now();
      await askCorpus(ctx, { question: q, ...(itemId ? { itemId } : {}), session: [`unrelated ${i}`] });
      const t = performance.now() - s;
      askMs.push(t);
      named.push([t, `${t.toFixed(0)} ms ${itemId ? 'item' : 'corpus'}: ${q}`]);
      log(`ask ${askMs.length}: ${named[named.length - 1]![1]}`);
    }
  }
  log(`ask: ${askMs.length} questions, p50 ${nearestRank(askMs, 50).toFixed(1)} ms, p95 ${nearestRank(askMs, 95).toFixed(1)} ms (context opened in ${Math.round(askOpenMs)} ms)`);
  return {
    warmMs, fromProcessStartMs, loadMs, indexOpenMs, mode: report.mode, rssAfterOpenMb,
    searchP50: nearestRank(ms, 50), searchP95: nearestRank(ms, 95), searches: ms.length, hitsWithText,
    askOpenMs, askP50: nearestRank(askMs, 50), askP95: nearestRank(askMs, 95), asks: askMs.length, askPlanned: ASK_BENCH_QUESTIONS.length * 2,
    askSlowest: named.sort((x, y) => y[0] - x[0]).slice(0, 3).map(([, s]) => s),
    ...(askWarmUp ? { askWarmUp } : {}),
    peakRssMb: await peakRss(),
  };
}

/** Extractive markers on the first `n` items (0: all), item by item; progress lines `marker-done <k>` on stderr. */
async function phaseMarkers(dir: string, n: number): Promise<MarkersResult> {
  const corpus = await openCorpus(dir);
  const sub: Corpus = n > 0 ? { ...corpus, items: corpus.items.slice(0, n) } : corpus;
  const t0 = performance.now();
  let generated = 0;
  const r = await generateMarkers(sub, {
    engine: { kind: 'extractive' },
    onProgress: (p) => {
      if (!p.message?.endsWith('(cached)')) process.stderr.write(`marker-done ${++generated}\n`);
    },
  });
  return { items: sub.items.length, ms: performance.now() - t0, generated: r.generated, peakRssMb: await peakRss() };
}

/** Runs one phase in a child process; its last stdout line is its JSON result. */
async function runPhase<T>(phase: string, dir: string, args: string[], heapMb: number | undefined, opts: { killAfterMarkers?: number } = {}): Promise<{ result?: T; killed: boolean }> {
  // The engine's own V8 flags (src/shared/engineProcess.ts): each phase does the engine's work.
  const flags = ['--import', 'tsx', ...ENGINE_EXEC_ARGV, ...(heapMb ? [`--max-old-space-size=${heapMb}`] : [])];
  const child = spawn(process.execPath, [...flags, __filename, '--phase', phase, dir, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let killed = false;
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  let errBuf = '';
  child.stderr.on('data', (b: Buffer) => {
    errBuf += b.toString('utf8');
    let nl: number;
    while ((nl = errBuf.indexOf('\n')) >= 0) {
      const line = errBuf.slice(0, nl);
      errBuf = errBuf.slice(nl + 1);
      const m = /^marker-done (\d+)$/.exec(line);
      if (m) {
        if (opts.killAfterMarkers !== undefined && Number(m[1]) >= opts.killAfterMarkers && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
        continue;
      }
      process.stderr.write(`${line}\n`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  if (killed) return { killed };
  if (code !== 0) throw new BenchError(`phase ${phase} exited ${code}`);
  const line = out.trim().split('\n').pop() ?? '';
  return { result: JSON.parse(line) as T, killed };
}

/** Inode and mtime of each marker file of `ids` that exists. */
async function markerStamps(dir: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const s = await stat(path.join(dir, STORAGE_DIR, 'markers', markerFileName(id))).catch(() => undefined);
    if (s) out.set(id, `${s.ino}:${s.mtimeMs}`);
  }
  return out;
}

async function itemIdsOf(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const heapAt = argv.indexOf('--heap');
  const heapMb = heapAt >= 0 ? Number(argv[heapAt + 1]) : undefined;
  const mAt = argv.indexOf('--marker-items');
  const markerArg = mAt >= 0 ? argv[mAt + 1]! : '300';
  const markerItems = markerArg === 'all' ? 0 : Number(markerArg);
  const params = { items: quick ? 1000 : 10_000, wordsPerItem: 10_000, seed: 1 };
  const src = path.join(cache, syntheticCorpusDirName(params));
  const g0 = performance.now();
  await ensureSyntheticCorpus(src, params);
  log(`corpus ready at ${src} (${Math.round(performance.now() - g0)} ms)`);
  const dir = path.join(cache, 'scale100m-work', syntheticCorpusDirName(params));
  await linkCorpus(src, dir);
  const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' ');

  process.stderr.write(`scale bench on ${params.items} items × ${params.wordsPerItem} words (work folder ${dir})\nbuild (cold load, index, entity index):\n`);
  const loadBuild = load();
  const build = (await runPhase<BuildResult>('build', dir, [], heapMb)).result!;
  process.stderr.write('warm (new process, persisted outline and index):\n');
  const loadWarm = load();
  const warm = (await runPhase<WarmResult>('warm', dir, [], heapMb)).result!;

  const rows: string[][] = [
    ['build: cold load (parse every item)', `${(build.loadMs / 1000).toFixed(1)} s, peak RSS ${build.loadRssMb} MB`],
    ['build: search index built and saved', `${(build.indexMs / 1000).toFixed(1)} s, peak RSS ${build.indexRssMb} MB`],
    ['build: entity index (Ask) built and saved', `${(build.entitiesMs / 1000).toFixed(1)} s`],
    ['build: peak RSS', report.check(`index build peak RSS ≤ ${TARGET.buildRssMb} MB (${params.items} items)`, build.peakRssMb <= TARGET.buildRssMb, `${build.peakRssMb} MB`)],
    ['index files', Object.entries(build.files).map(([f, b]) => `${f} ${mb(b)}`).join(', ')],
    ['warm start (load + index open → first search answered)', report.check(`warm start ≤ ${TARGET.warmStartMs / 1000} s (${params.items} items)`, warm.warmMs <= TARGET.warmStartMs, `${(warm.warmMs / 1000).toFixed(2)} s`) + ` (load ${(warm.loadMs / 1000).toFixed(2)} s, index ${warm.mode} ${(warm.indexOpenMs / 1000).toFixed(2)} s; ${(warm.fromProcessStartMs / 1000).toFixed(2)} s since the process started, tsx included; RSS then ${warm.rssAfterOpenMb} MB)`],
    [`search (${warm.searches} generated queries, top 10, texts read)`, `p50 ${warm.searchP50.toFixed(1)} ms, p95 ` + report.check(`search p95 ≤ ${TARGET.searchP95Ms} ms (${params.items} items)`, warm.searchP95 <= TARGET.searchP95Ms, `${warm.searchP95.toFixed(1)} ms`) + ` (${warm.hitsWithText} hit texts read)`],
    [`Ask (${warm.asks} of ${warm.askPlanned ?? warm.asks} questions asked within ${ASK_BUDGET_MS / 1000} s, offline, no vectors)`, `p50 ${warm.askP50.toFixed(1)} ms, p95 ` + report.check(`Ask p95 ≤ ${TARGET.askP95Ms} ms (${params.items} items)`, warm.askP95 <= TARGET.askP95Ms && warm.asks === (warm.askPlanned ?? warm.asks), `${warm.askP95.toFixed(1)} ms`) + ` (context opened in ${(warm.askOpenMs / 1000).toFixed(2)} s; ${warm.askWarmUp ? `after the engine's warm-up: ${warm.askWarmUp.questions} questions in ${(warm.askWarmUp.ms / 1000).toFixed(1)} s about ${warm.askWarmUp.topics.join(', ')}` : 'without the engine\'s warm-up (SCALE_ASK_WARM_UP=0)'}; slowest: ${warm.askSlowest.join('; ')})`],
    ['warm phase peak RSS', `${warm.peakRssMb} MB`],
  ];
  report.note(`${build.items} items, ${build.words.toLocaleString('en-US')} words, ${build.chunks.toLocaleString('en-US')} chunks; load average at build ${loadBuild}, at warm ${loadWarm} (${os.cpus().length} cpus)`);

  if (!argv.includes('--skip-markers')) {
    const ids = (await itemIdsOf(dir)).slice(0, markerItems || undefined);
    await rm(path.join(dir, STORAGE_DIR, 'markers'), { recursive: true, force: true });
    process.stderr.write(`markers (extractive, ${markerItems ? `first ${markerItems}` : 'all'} items):\n`);
    const loadMarkers = load();
    const markers = (await runPhase<MarkersResult>('markers', dir, [String(markerItems)], heapMb)).result!;
    const written = await markerStamps(dir, ids);
    rows.push([`markers (extractive, ${markers.items} items, item by item)`, `${(markers.ms / 1000).toFixed(1)} s (${(markers.ms / markers.items).toFixed(0)} ms per item), peak RSS ${markers.peakRssMb} MB; ${written.size}/${ids.length} marker files written`]);
    report.check(`markers on ${markers.items} items: every item has its marker file`, written.size === ids.length, `${written.size}/${ids.length}`);

    // Kill and resume: a fresh run killed after KILL_AFTER items, then a new run.
    await rm(path.join(dir, STORAGE_DIR, 'markers'), { recursive: true, force: true });
    process.stderr.write(`markers kill-and-resume (killed after ${KILL_AFTER} items):\n`);
    const first = await runPhase<MarkersResult>('markers', dir, [String(markerItems)], heapMb, { killAfterMarkers: KILL_AFTER });
    if (!first.killed) throw new BenchError('the markers run to kill finished before it was killed');
    const before = await markerStamps(dir, ids);
    const resumed = (await runPhase<MarkersResult>('markers', dir, [String(markerItems)], heapMb)).result!;
    const after = await markerStamps(dir, ids);
    const kept = [...before].filter(([id, s]) => after.get(id) === s).length;
    const rewritten = before.size - kept;
    const resumeOk = before.size >= KILL_AFTER && kept === before.size && after.size === ids.length;
    rows.push(['markers kill-and-resume', report.check('markers resume after a kill: no done item redone, every item done', resumeOk, `${before.size} files before the restart, ${kept} untouched by it, ${rewritten} rewritten, ${after.size}/${ids.length} after`) + ` (resumed run ${(resumed.ms / 1000).toFixed(1)} s, peak RSS ${resumed.peakRssMb} MB)`]);
    report.note(`load average at markers ${loadMarkers}`);
  }

  const table = ['| measure | value |', '|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)];
  process.stdout.write(`\n${table.join('\n')}\n`);
  await writeBenchResult('scale100m.md', `# Scale benchmark (${params.items} items × ${params.wordsPerItem} words)\n\n${table.join('\n')}\n\n${report.lines().join('\n')}\n`);
}

async function child(argv: string[]): Promise<void> {
  const [, phase, dir, arg] = argv;
  const result = phase === 'build' ? await phaseBuild(dir!) : phase === 'warm' ? await phaseWarm(dir!) : phase === 'markers' ? await phaseMarkers(dir!, Number(arg)) : undefined;
  if (!result) throw new Error(`unknown phase ${phase}`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[2] === '--phase') {
  child(process.argv.slice(2)).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
} else void runBench('scale100m', bench);

