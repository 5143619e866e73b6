/**
 * What every benchmark shares: where the dev corpora are (a missing one is an error that names
 * its path, never a skip), copying a corpus to a working folder, the targets (each printed with
 * ✓/✗ and the measured value; a missed one makes the bench exit 1 unless `--report-only`), the
 * summary file `bench/all.ts` reads, and the bench's own yardsticks — measures computed from what
 * crossed the wire or from the corpus, never from a number the code under test reported about
 * itself.
 */
import { chmod, copyFile, link, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { estimateTokens as wireTokens } from '../test/support/fakeModelServer';

export const REPO = path.resolve(__dirname, '..');
/** The four dev corpora, in table order. */
export const DEV_CORPORA = ['qmsum-dev', 'vcsum-zh-dev', 'yt-podcast-es-dev', 'yt-spam-en-dev'] as const;
/** The project's state folder inside a corpus; never copied. */
const STORAGE_DIR = '.marker-research';
const MAX_COPY_DEPTH = 32;
/** Environment variable naming the JSON file a bench writes its summary to (set by bench/all.ts). */
export const SUMMARY_ENV = 'MARKER_RESEARCH_BENCH_SUMMARY';

/**
 * The bench's token yardstick: the fake model server's estimate (one token per CJK character,
 * one per four other characters), which is test code, not the product's.
 */
export const yardstickTokens = wireTokens;

// ---------------------------------------------------------------------------
// Corpora
// ---------------------------------------------------------------------------

/** A failure of the bench itself (missing corpus, broken setup): reported, exit 1. */
export class BenchError extends Error {}

/** `$MARKER_RESEARCH_CORPORA`, default `<repo>/../shared/corpora`. */
export function corporaRoot(): string {
  return path.resolve(process.env['MARKER_RESEARCH_CORPORA'] || path.join(REPO, '..', 'shared', 'corpora'));
}

/**
 * The folder of dev corpus `name`.
 * @throws BenchError naming the path looked at when it is missing or not a folder.
 */
export async function requireCorpus(name: string, root = corporaRoot()): Promise<string> {
  const dir = path.join(root, name);
  const s = await stat(dir).catch((e: NodeJS.ErrnoException) => e);
  if (s instanceof Error || !s.isDirectory()) {
    const why = s instanceof Error ? (s.code === 'ENOENT' ? 'not found' : s.message) : 'not a folder';
    throw new BenchError(`corpus ${name} ${why} at ${dir} (set MARKER_RESEARCH_CORPORA; default <repo>/../shared/corpora)`);
  }
  return dir;
}

/**
 * Copies a corpus folder to `dst` (without `.marker-research/`), folders 0755 and files 0644 so
 * the copy is writable even when the source is read-only. Symbolic links are followed.
 * @throws BenchError when `src` is not a folder or nests deeper than 32 levels; I/O errors as they are.
 */
export async function copyCorpus(src: string, dst: string): Promise<string> {
  const s = await stat(src).catch(() => undefined);
  if (!s?.isDirectory()) throw new BenchError(`copy: ${src} does not exist or is not a folder`);
  const walk = async (from: string, to: string, depth: number): Promise<void> => {
    if (depth > MAX_COPY_DEPTH) throw new BenchError(`copy: ${from} is nested more than ${MAX_COPY_DEPTH} folders deep`);
    await mkdir(to, { recursive: true });
    await chmod(to, 0o755);
    for (const ent of await readdir(from, { withFileTypes: true })) {
      if (ent.name === STORAGE_DIR) continue;
      const a = path.join(from, ent.name);
      const b = path.join(to, ent.name);
      const st = ent.isSymbolicLink() ? await stat(a) : ent;
      if (st.isDirectory()) await walk(a, b, depth + 1);
      else if (st.isFile()) {
        await copyFile(a, b);
        await chmod(b, 0o644);
      }
    }
  };
  await walk(src, dst, 0);
  return dst;
}

/** Copies dev corpus `name` into `work/<as>` and returns the copy's path. */
export async function copyDevCorpus(name: string, work: string, as = name): Promise<string> {
  return copyCorpus(await requireCorpus(name), path.join(work, as));
}

// ---------------------------------------------------------------------------
// Targets, report, exit code
// ---------------------------------------------------------------------------

/** One checked target. */
export interface TargetResult {
  label: string;
  /** The measured value as printed. */
  value: string;
  ok: boolean;
}

/** What a bench writes to `$MARKER_RESEARCH_BENCH_SUMMARY`. */
export interface BenchSummary {
  bench: string;
  targets: TargetResult[];
  /** Setup or run failures (a missing corpus, a crash). */
  failures: string[];
  notes: string[];
  exitCode: number;
}

/** Collects a bench's targets, failures and notes. */
export class BenchReport {
  readonly targets: TargetResult[] = [];
  readonly failures: string[] = [];
  readonly notes: string[] = [];

  constructor(readonly bench: string) {}

  /** Records a target; returns `value ✓` or `value ✗` for a table cell. */
  check(label: string, ok: boolean, value: string): string {
    this.targets.push({ label, value, ok });
    return `${value} ${ok ? '✓' : '✗'}`;
  }

  fail(message: string): void {
    this.failures.push(message);
  }

  note(message: string): void {
    this.notes.push(message);
  }

  get missed(): TargetResult[] {
    return this.targets.filter((t) => !t.ok);
  }

  /** The targets block: one ✓/✗ line per target with its measured value, then failures. */
  lines(): string[] {
    const met = this.targets.length - this.missed.length;
    return [
      `Targets (${this.bench}): ${this.targets.length ? `${met}/${this.targets.length} met` : 'none checked'}${this.failures.length ? `; ${this.failures.length} failure(s)` : ''}`,
      ...this.targets.map((t) => `- ${t.ok ? '✓' : '✗'} ${t.label}: ${t.value}`),
      ...this.failures.map((f) => `- FAILED: ${f}`),
      ...this.notes.map((n) => `- note: ${n}`),
    ];
  }

  /** 1 on a failure, or on a missed target unless `reportOnly`; else 0. */
  exitCode(reportOnly: boolean): number {
    return this.failures.length || (!reportOnly && this.missed.length) ? 1 : 0;
  }

  summary(reportOnly: boolean): BenchSummary {
    return { bench: this.bench, targets: this.targets, failures: this.failures, notes: this.notes, exitCode: this.exitCode(reportOnly) };
  }

  /** Writes the summary to `$MARKER_RESEARCH_BENCH_SUMMARY` when it is set. */
  async writeSummary(reportOnly: boolean): Promise<void> {
    const file = process.env[SUMMARY_ENV];
    if (file) await writeFile(file, `${JSON.stringify(this.summary(reportOnly), null, 2)}\n`);
  }
}

/** Splits the shared flags off `argv`: `--report-only` (alias `--no-strict`); `--strict` is the default and accepted. */
export function splitBenchFlags(argv: readonly string[]): { reportOnly: boolean; rest: string[] } {
  let reportOnly = false;
  const rest: string[] = [];
  for (const a of argv) {
    if (a === '--report-only' || a === '--no-strict') reportOnly = true;
    else if (a !== '--strict') rest.push(a);
  }
  return { reportOnly, rest };
}

/**
 * Runs a bench: `body` measures and records targets on the report; an exception is a failure
 * (printed with its message, never turned into a skip). Prints the targets block, writes the
 * summary file and sets the exit code: 0 all targets met, 1 a target missed (unless
 * `--report-only`) or a failure.
 */
export async function runBench(name: string, body: (report: BenchReport, argv: string[]) => Promise<void>): Promise<void> {
  const { reportOnly, rest } = splitBenchFlags(process.argv.slice(2));
  const report = new BenchReport(name);
  try {
    await body(report, rest);
  } catch (e) {
    report.fail(e instanceof BenchError ? e.message : ((e as Error).stack ?? String(e)));
  }
  process.stdout.write(`\n${report.lines().join('\n')}\n`);
  if (report.missed.length && reportOnly) process.stdout.write('(--report-only: missed targets do not change the exit code)\n');
  await report.writeSummary(reportOnly).catch((e: unknown) => process.stderr.write(`bench ${name}: could not write the summary: ${(e as Error).message}\n`));
  process.exitCode = report.exitCode(reportOnly);
}

// ---------------------------------------------------------------------------
// Independent measures
// ---------------------------------------------------------------------------

/**
 * The bench's own tokens of a finding: lowercased letter/digit runs; a run of CJK characters
 * gives its character bigrams (a single character alone).
 */
export function findingTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []) {
    const parts = run.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+)/u);
    for (const p of parts) {
      if (!p) continue;
      if (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u.test(p)) {
        const chars = [...p];
        if (chars.length === 1) out.add(chars[0]!);
        for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
      } else out.add(p);
    }
  }
  return out;
}

/** Jaccard of two token sets and the containment of the smaller in the larger. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): { jaccard: number; containment: number } {
  if (!a.size || !b.size) return { jaccard: 0, containment: 0 };
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) inter++;
  return { jaccard: inter / (a.size + b.size - inter), containment: inter / small.size };
}

/** Rule of {@link duplicateShare}: Jaccard ≥ 0.6, or ≥ 80 % of a finding of at least 4 tokens inside another. */
export const DUPLICATE_RULE = 'same normalised text, token Jaccard ≥ 0.6, or ≥ 80 % of the shorter one\'s tokens (≥ 4) in the other';

/**
 * Share of findings that repeat an earlier one by the bench's own rule ({@link DUPLICATE_RULE}),
 * with a few example pairs.
 */
export function duplicateShare(texts: readonly string[]): { rate: number; duplicates: number; examples: [string, string][] } {
  const toks = texts.map(findingTokens);
  const norm = texts.map((t) => t.toLowerCase().replace(/\s+/g, ' ').trim());
  let duplicates = 0;
  const examples: [string, string][] = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = 0; j < i; j++) {
      const o = overlap(toks[i]!, toks[j]!);
      const shorter = Math.min(toks[i]!.size, toks[j]!.size);
      if (norm[i] === norm[j] || o.jaccard >= 0.6 || (shorter >= 4 && o.containment >= 0.8)) {
        duplicates++;
        if (examples.length < 3) examples.push([texts[j]!, texts[i]!]);
        break;
      }
    }
  }
  return { rate: texts.length ? duplicates / texts.length : 0, duplicates, examples };
}

/**
 * How a window line may appear in the part's text: as it is, without a `[c<id> likes=N] `
 * comment label, or without a `Speaker: ` label (cut at any `: ` in the first 200 characters,
 * since labels such as `Hon. X (Minister of …): ` are long and may hold a colon). Empty when the
 * line of a transcript window is only a `Speaker: ` label (an empty turn): nothing to find.
 */
export function lineCandidates(line: string, kind: 'transcript' | 'comments' = 'transcript'): string[] {
  const out = [line];
  const comment = /^\[c[^\]\n]*\] /.exec(line);
  if (comment) out.push(line.slice(comment[0].length));
  else if (kind === 'transcript' && /^[^\n]{1,200}?: $/.test(line)) return [];
  for (let at = line.indexOf(': '); at > 0 && at <= 200; at = line.indexOf(': ', at + 1)) out.push(line.slice(at + 2));
  return out.filter((c) => c.trim());
}

/**
 * Finds the lines of one window (as the model received it) in the text of a part, and counts,
 * per character of the part, how many times it was sent. A line is looked up by
 * {@link lineCandidates}. The longest line anchors the window; the lines after it are found in
 * order after it, those before it in reverse order before it.
 * @returns how many lines were not found in the part
 */
export function markWindowLines(text: string, lines: readonly string[], counts: Uint8Array, kind: 'transcript' | 'comments' = 'transcript'): number {
  const ls = lines.filter((l) => l.trim().length > 0).map((l) => lineCandidates(l, kind)).filter((c) => c.length > 0);
  if (!ls.length) return 0;
  const mark = (at: number, len: number): void => {
    for (let i = at; i < at + len; i++) if (counts[i]! < 255) counts[i]!++;
  };
  let anchor = 0;
  for (let i = 1; i < ls.length; i++) if (ls[i]![0]!.length > ls[anchor]![0]!.length) anchor = i;
  let unmatched = 0;
  let start = -1;
  let end = -1;
  for (const c of ls[anchor]!) {
    const at = text.indexOf(c);
    if (at >= 0) {
      mark(at, c.length);
      start = at;
      end = at + c.length;
      break;
    }
  }
  if (start < 0) return ls.length; // the window is not in this part at all
  let cursor = end;
  for (let i = anchor + 1; i < ls.length; i++) {
    const hit = ls[i]!.map((c) => ({ c, at: text.indexOf(c, cursor) })).find((x) => x.at >= 0);
    if (!hit) { unmatched++; continue; }
    mark(hit.at, hit.c.length);
    cursor = hit.at + hit.c.length;
  }
  cursor = start;
  for (let i = anchor - 1; i >= 0; i--) {
    const hit = ls[i]!.map((c) => ({ c, at: cursor - c.length >= 0 ? text.lastIndexOf(c, cursor - c.length) : -1 })).find((x) => x.at >= 0);
    if (!hit) { unmatched++; continue; }
    mark(hit.at, hit.c.length);
    cursor = hit.at;
  }
  return unmatched;
}

/** Coverage of a part's non-space characters by the windows sent, and how often each was sent. */
export function coverageFromCounts(text: string, counts: Uint8Array): { chars: number; covered: number; sent: number; firstGap?: [number, number] } {
  let chars = 0;
  let covered = 0;
  let sent = 0;
  let firstGap: [number, number] | undefined;
  for (let i = 0; i < text.length; i++) {
    if (/\s/.test(text[i]!)) continue;
    chars++;
    if (counts[i]! > 0) {
      covered++;
      sent += counts[i]!;
    } else if (!firstGap) {
      let j = i;
      while (j < text.length && counts[j] === 0) j++;
      firstGap = [i, j];
    }
  }
  return { chars, covered, sent, ...(firstGap ? { firstGap } : {}) };
}

/** The findings listed in a synthesis prompt: lines `- <text> [S1][S2] (confidence 0.7)`. */
export function synthesisFindings(prompt: string): string[] {
  const out: string[] = [];
  for (const line of prompt.split('\n')) {
    const m = /^- (.*?)((?:\s*\[[^\]\n]+\])*)\s*\(confidence [\d.]+\)\s*$/.exec(line);
    if (m) out.push(m[1]!.trim());
  }
  return out;
}

/** Nearest-rank percentile (the bench's own, not the product's). */
export function nearestRank(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Writes `text` to `bench/results/<file>` (the folder made if need be): every bench's results file goes through here. */
export async function writeBenchResult(file: string, text: string): Promise<void> {
  const dir = path.join(REPO, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, file), text);
}

/**
 * The corpus's items linked (hard links: no copy) into `work`, without its state folder; once (a
 * `.linked` marker says it was done), so a bench's index and markers stay beside the links and the
 * cached corpus is never written into.
 */
export async function linkCorpus(src: string, work: string): Promise<void> {
  const marker = path.join(work, '.linked');
  if (await stat(marker).catch(() => undefined)) return;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  for (const ent of await readdir(src, { withFileTypes: true })) {
    if (ent.name.startsWith('.')) continue;
    const from = path.join(src, ent.name);
    const to = path.join(work, ent.name);
    if (ent.isDirectory()) {
      await mkdir(to);
      for (const f of await readdir(from)) await link(path.join(from, f), path.join(to, f));
    } else if (ent.isFile()) await link(from, to);
  }
  await writeFile(marker, '');
}
