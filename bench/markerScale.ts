/**
 * Offline markers on single huge items (issue 19, class 3):
 * `node --import tsx bench/markerScale.ts [--quick] [--report-only] [--case NAME]...` (part of `npm run bench`).
 *
 * Generates three one-item corpora (seeded, from the synthetic vocabulary) and runs
 * `generateMarkers` with the extractive engine on each in a child process of its own, so each
 * case's peak memory is its own (`process.resourceUsage().maxRSS` of the child, beside the resident
 * size sampled every 50 ms):
 *  - `captions`: one `transcript.json` of 1,000,000 one-word turns with times (word-level
 *    auto-captions, no punctuation);
 *  - `longItem`: one `transcript.json` of 10,000,000 words (turns of one to three sentences);
 *  - `comments`: one `comments.jsonl` of 200,000 comments in threads.
 * `--quick` divides every size by 10. Each child reports the time to load the corpus and to make
 * the markers; the parent checks, from the stored marker file and the corpus text (not from the
 * engine's own counts), that the item got markers and that every marker's evidence is its span.
 * Targets: every case generated, every marker's evidence exactly its span, peak memory under
 * {@link MAX_RSS_MB} MB. `--case captions|longItem|comments` runs only those. Writes
 * bench/results/markerScale.json and .md.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/core/corpus/loader';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { type BenchReport, REPO, runBench, writeBenchResult } from './benchSupport';
import { createRng, type Rng } from './syntheticCorpus';
import { GENERAL_EN, TOPICS } from './syntheticVocabulary';

/** Peak resident memory a case may reach (MB): below V8's default heap limit of ~4 GB, which the 1,000,000-turn transcript used to run out of (4.4 GB). */
const MAX_RSS_MB = 3584;

export const CASES = ['captions', 'longItem', 'comments'] as const;
export type CaseName = (typeof CASES)[number];

/** The size of each case at full scale; `--quick` divides by 10. */
const FULL: Record<CaseName, number> = { captions: 1_000_000, longItem: 10_000_000, comments: 200_000 };
const UNIT: Record<CaseName, string> = { captions: 'one-word turns', longItem: 'words', comments: 'comments' };

/** What a child process reports about its case. */
interface CaseResult {
  name: CaseName;
  size: number;
  fileMB: number;
  loadMs: number;
  markersMs: number;
  status: string;
  error?: string;
  markers: number;
  /** Markers whose every evidence quote is exactly its span of the part's text. */
  exact: number;
  /** maxRSS when the corpus was loaded (before any marker work). */
  loadRssMB: number;
  /** The largest resident size sampled while the markers were made. */
  markersRssMB: number;
  /** maxRSS at the end: the case's peak. */
  maxRssMB: number;
}

// ---------------------------------------------------------------------------
// Generated corpora (written as a stream: the files are larger than one string should be)
// ---------------------------------------------------------------------------

/** A word of the item's current topic (the topic drifts every `drift` words) or of the general vocabulary, early ones more often. */
function wordSource(r: Rng): (at: number) => string {
  const general = [...GENERAL_EN.nouns, ...GENERAL_EN.verbs, ...GENERAL_EN.adjectives];
  const zipf = <T>(list: readonly T[]): T => list[Math.floor(r.next() ** 2 * list.length)]!;
  return (at) => (r.next() < 0.5 ? zipf(TOPICS[Math.floor(at / 3000) % TOPICS.length]!.en) : zipf(general));
}

/** One sentence about the current topic: a fact, a data point or an opinion, 8–20 words. */
function sentence(r: Rng, word: () => string): string {
  const k = r.int(6);
  const words = (n: number): string => Array.from({ length: n }, word).join(' ');
  if (k === 0) return `The ${words(2)} went up by ${2 + r.int(90)} percent over the last ${2 + r.int(10)} months, which ${words(3)}.`;
  if (k === 1) return `I think the ${words(2)} is really important for ${words(3)} and we should ${words(2)}.`;
  const s = words(6 + r.int(10));
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

async function writeLines(file: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  for (const line of lines) {
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((res) => out.once('drain', () => res()));
  }
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  return bytes;
}

function* captionsJson(n: number, r: Rng): Generator<string> {
  const word = wordSource(r);
  yield '{"title":"Word-level captions","turns":[\n';
  for (let i = 0; i < n; i++) {
    const t = Math.round(i * 0.32 * 100) / 100;
    yield `${JSON.stringify({ text: word(i), start: t, end: Math.round((t + 0.3) * 100) / 100 })}${i + 1 < n ? ',' : ''}\n`;
  }
  yield ']}\n';
}

function* longItemJson(words: number, r: Rng): Generator<string> {
  const word = wordSource(r);
  const speakers = GENERAL_EN.speakers.slice(0, 4);
  yield '{"title":"A very long recording","turns":[\n';
  let count = 0;
  let turn = 0;
  while (count < words) {
    const parts: string[] = [];
    for (let s = 0, m = 1 + r.int(3); s < m; s++) parts.push(sentence(r, () => word(count)));
    const text = parts.join(' ');
    count += text.split(' ').length;
    yield `${turn ? ',' : ''}${JSON.stringify({ speaker: speakers[turn % speakers.length], text })}\n`;
    turn++;
  }
  yield ']}\n';
}

function* commentsJsonl(n: number, r: Rng): Generator<string> {
  const word = wordSource(r);
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 1 + r.int(3) }, () => sentence(r, () => word(i * 10))).join(' ');
    const parent = i > 0 && r.int(4) === 0 ? `c${r.int(i)}` : null;
    yield `${JSON.stringify({ comment_id: `c${i}`, author: `user${r.int(Math.max(1, n / 4))}`, text, likes: r.int(3) === 0 ? r.int(500) : 0, parent_id: parent })}\n`;
  }
}

/** Writes case `name` of `size` units as a one-item corpus under `root`; returns the file's size in MB. */
export async function writeCase(root: string, name: CaseName, size: number): Promise<number> {
  const dir = path.join(root, name, 'item');
  await mkdir(dir, { recursive: true });
  const r = createRng(19, CASES.indexOf(name));
  const bytes =
    name === 'comments'
      ? await writeLines(path.join(dir, 'comments.jsonl'), commentsJsonl(size, r))
      : await writeLines(path.join(dir, 'transcript.json'), name === 'captions' ? captionsJson(size, r) : longItemJson(size, r));
  return bytes / 2 ** 20;
}

// ---------------------------------------------------------------------------
// One case, in a child process
// ---------------------------------------------------------------------------

/** Loads the corpus at `dir`, makes its markers, checks the stored ones; prints a {@link CaseResult} as JSON. */
export async function runCase(name: CaseName, size: number, dir: string, fileMB: number): Promise<void> {
  const t0 = performance.now();
  const corpus = await loadCorpus(dir);
  const t1 = performance.now();
  const loadRss = process.resourceUsage().maxRSS * 1024;
  let peak = process.memoryUsage().rss;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 50);
  const report = await generateMarkers(corpus, { engine: { kind: 'extractive' }, itemConcurrency: 1 });
  const t2 = performance.now();
  sample();
  clearInterval(timer);
  const item = corpus.items[0];
  let markers = 0;
  let exact = 0;
  if (item) {
    const stored = await readItemMarkers(corpus.root, item.id);
    if (stored.ok) {
      for (const m of allMarkers(stored.value)) {
        markers++;
        const ok = m.evidence.length > 0 && m.evidence.every((e) => {
          const part = e.part === 'transcript' ? item.transcript : item.comments;
          return !!part && e.start < e.end && part.text.slice(e.start, e.end) === e.quote;
        });
        if (ok) exact++;
      }
    }
  }
  const r = report.items[0];
  const result: CaseResult = {
    name, size, fileMB, loadMs: Math.round(t1 - t0), markersMs: Math.round(t2 - t1),
    status: r?.status ?? 'no item', ...(r?.error ? { error: r.error } : {}), markers, exact,
    loadRssMB: Math.round(loadRss / 2 ** 20), markersRssMB: Math.round(peak / 2 ** 20), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs one case in a child process; its result, or undefined with what it printed on failure. */
function childCase(name: CaseName, size: number, dir: string, fileMB: number): Promise<{ result?: CaseResult; output: string; code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', name, '--size', String(size), '--dir', dir, '--file-mb', fileMB.toFixed(1)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => {
      const line = out.trim().split('\n').pop() ?? '';
      let result: CaseResult | undefined;
      try {
        result = JSON.parse(line) as CaseResult;
      } catch {
        result = undefined;
      }
      resolve({ result, output: `${out}\n${err}`.trim().slice(-2000), code, signal });
    });
  });
}

// ---------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { quick: { type: 'boolean', default: false }, case: { type: 'string', multiple: true, default: [] } } });
  const only = (values.case ?? []) as string[];
  const unknown = only.filter((c) => !(CASES as readonly string[]).includes(c));
  if (unknown.length) throw new Error(`unknown case ${unknown.join(', ')} (cases: ${CASES.join(', ')})`);
  const cases = CASES.filter((c) => !only.length || only.includes(c));
  const work = await mkdtemp(path.join(os.tmpdir(), 'marker-research-bench-scale-'));
  const rows: CaseResult[] = [];
  const table: string[] = [];
  try {
    for (const name of cases) {
      const size = values.quick ? FULL[name] / 10 : FULL[name];
      const fileMB = await writeCase(work, name, size);
      console.log(`markerScale ${name}: ${size.toLocaleString('en-US')} ${UNIT[name]}, ${fileMB.toFixed(1)} MB; running…`);
      const { result, output, code, signal } = await childCase(name, size, path.join(work, name), fileMB);
      await rm(path.join(work, name), { recursive: true, force: true });
      const label = `${name} (${size.toLocaleString('en-US')} ${UNIT[name]})`;
      if (!result) {
        report.fail(`${label}: the child process ended without a result (exit ${code ?? signal}): ${output}`);
        table.push(`| ${label} | ${fileMB.toFixed(1)} | – | – | crashed | – | – | – | – |`);
        continue;
      }
      rows.push(result);
      const status = report.check(`${label}: markers generated`, result.status === 'generated' && result.markers > 0, `${result.status}${result.error ? ` (${result.error})` : ''}, ${result.markers} markers`);
      const exact = report.check(`${label}: every marker's evidence is exactly its span`, result.markers > 0 && result.exact === result.markers, `${result.exact}/${result.markers}`);
      const memory = report.check(`${label}: peak memory ≤ ${MAX_RSS_MB} MB`, result.maxRssMB <= MAX_RSS_MB, `${result.maxRssMB} MB`);
      table.push(`| ${label} | ${fileMB.toFixed(1)} | ${(result.loadMs / 1000).toFixed(1)} | ${(result.markersMs / 1000).toFixed(1)} | ${status} | ${exact} | ${memory} | ${result.loadRssMB} | ${result.markersRssMB} |`);
      console.log(`markerScale ${name}: load ${result.loadMs} ms, markers ${result.markersMs} ms, ${result.markers} markers (${result.exact} exact), max RSS ${result.maxRssMB} MB`);
    }
    const md = [
      `# Offline markers on huge single items — ${new Date().toISOString()}`,
      '',
      `Extractive engine, one item per corpus, each case in its own child process (${os.cpus().length} cpus, load average ${os.loadavg()[0]!.toFixed(1)} at the end). ` +
        'Load: reading and parsing the corpus; markers: `generateMarkers` (corpus statistics, spam, the item\'s markers, the marker file written). ' +
        'Peak memory: the child\'s maxRSS at the end; after load: its maxRSS once the corpus was read (the loader\'s share); during markers: the largest resident size sampled every 50 ms while the markers were made.',
      '',
      '| case | file MB | load s | markers s | status, markers | evidence = span | peak memory (maxRSS) | maxRSS after load MB | RSS during markers MB |',
      '|:--|--:|--:|--:|:--|:--|:--|--:|--:|',
      ...table,
      '',
    ].join('\n');
    console.log(md);
    await writeBenchResult('markerScale.json', `${JSON.stringify({ quick: values.quick, rows, targets: report.targets, failures: report.failures }, null, 2)}\n`);
    await writeBenchResult('markerScale.md', `${md}\n${report.lines().join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function child(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { child: { type: 'string' }, size: { type: 'string' }, dir: { type: 'string' }, 'file-mb': { type: 'string' } } });
  await runCase(values.child as CaseName, Number(values.size), values.dir!, Number(values['file-mb']));
}

if (require.main !== module) {
  // Imported (a profile of one case): nothing runs.
} else if (process.argv.includes('--child')) {
  child(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  });
} else {
  void runBench('markerScale', bench);
}

