/**
 * Content-free units shown as content (issue 21): `node --import tsx bench/contentFree.ts [--report-only] [--quick]`.
 *
 * On fresh copies of the dev corpora, measured by the bench's own yardstick (never the product's
 * predicate): a text is *content-free* when it has fewer than 3 words outside stopwords-iso of
 * its corpus's language, once bracketed annotations (`{vocalsound}`, `[Música]`, `(risas)`) are
 * taken out. Words: Latin letter/digit runs (inner apostrophes kept), Chinese words of
 * `Intl.Segmenter('zh')`; every digit run counts as a word outside the list.
 *  - markers: the share of extractive markers (transcript and comment markers alike) that are
 *    content-free, per corpus — target ≤ 1 % on each;
 *  - offline report findings: extractive research runs on qmsum-dev and vcsum-zh-dev (the automatic
 *    goal, and with `--quick` left out, the first queries of `queries.jsonl` as goals), the share of
 *    step findings that are content-free — target ≤ 1 %.
 * Beside each, how many the product's own `isContentFree` flags (a note, not the yardstick).
 * Writes bench/results/contentFree.md.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import stopwordsIso from 'stopwords-iso';
import { loadCorpus } from '../src/core/corpus/loader';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { readRun, runResearch } from '../src/core/research/pipeline';
import { isContentFree } from '../src/core/text/contentFree';
import { copyDevCorpus, DEV_CORPORA, REPO, runBench, type BenchReport } from './benchSupport';

const PROMPTS = path.join(REPO, 'prompts');
/** The language of each dev corpus (its README says so). */
const LANG: Record<(typeof DEV_CORPORA)[number], 'en' | 'es' | 'zh'> = { 'qmsum-dev': 'en', 'vcsum-zh-dev': 'zh', 'yt-podcast-es-dev': 'es', 'yt-spam-en-dev': 'en' };
const RESEARCH_CORPORA = ['qmsum-dev', 'vcsum-zh-dev'] as const;
/** Query goals per research corpus (besides the automatic goal). */
const QUERY_GOALS = 3;

const iso: Readonly<Record<string, readonly string[]>> = stopwordsIso;
const STOP: Record<string, Set<string>> = {};
function stopwords(lang: string): Set<string> {
  return (STOP[lang] ??= new Set((iso[lang] ?? []).map((w) => w.toLowerCase())));
}

const ANNOTATION = /\{[^}\n]{0,40}\}|\[[^\]\n]{0,40}\]|\((?:risas?|laughter|laughs|applause|aplausos|música|music|inaudible|crosstalk|笑|笑声|掌声)\)/giu;
const CJK_RUN = /[\p{Script=Han}]+/u;
const zhWords = new Intl.Segmenter('zh', { granularity: 'word' });

/** The bench's own words of a text: Latin runs lowercased, Chinese words of the ICU segmenter. */
function benchWords(text: string): string[] {
  const t = text.replace(ANNOTATION, ' ').toLowerCase();
  if (!CJK_RUN.test(t)) return t.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)?.map((w) => w.replace('’', "'")) ?? [];
  return [...zhWords.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);
}

/** Words of `text` outside stopwords-iso of `lang` (digit runs always count). */
export function nonStopwords(text: string, lang: string): string[] {
  const stop = stopwords(lang);
  return benchWords(text).filter((w) => /\d/.test(w) || !stop.has(w));
}

/** The yardstick: fewer than 3 words outside stopwords-iso of the language. */
export function benchContentFree(text: string, lang: string): boolean {
  return nonStopwords(text, lang).length < 3;
}

interface Tally {
  n: number;
  free: number;
  product: number;
  examples: string[];
}

const tally = (): Tally => ({ n: 0, free: 0, product: 0, examples: [] });

function count(t: Tally, text: string, lang: 'en' | 'es' | 'zh', where: string): void {
  t.n++;
  if (isContentFree(text, lang, { strict: true })) t.product++;
  if (!benchContentFree(text, lang)) return;
  t.free++;
  if (t.examples.length < 6) t.examples.push(`${where}: ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
}

const pct = (n: number, d: number): string => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');

interface Query {
  query: string;
}

async function queryGoals(dir: string, n: number): Promise<string[]> {
  const text = await readFile(path.join(dir, 'queries.jsonl'), 'utf8').catch(() => '');
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || out.length >= n) continue;
    const q = (JSON.parse(line) as Query).query;
    if (q && !out.includes(q)) out.push(q);
  }
  return out;
}

async function body(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-cf-'));
  const lines = ['# Content-free units shown as content', '', `Yardstick: fewer than 3 words outside stopwords-iso of the corpus language (annotations removed); ${new Date().toISOString().slice(0, 10)}.`, ''];
  try {
    lines.push('## Extractive markers', '', '| corpus | markers | content-free (target ≤ 1 %) | flagged by the product\'s isContentFree |', '|---|---|---|---|');
    const examples: string[] = [];
    for (const name of DEV_CORPORA) {
      const lang = LANG[name];
      const dir = await copyDevCorpus(name, work);
      const corpus = await loadCorpus(dir);
      const r = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      if (r.failed) throw new Error(`${name}: extractive markers failed for ${r.failed} item(s)`);
      const t = tally();
      for (const item of corpus.items) {
        const m = await readItemMarkers(dir, item.id);
        if (!m.ok) throw new Error(`${name}/${item.id}: markers unreadable`);
        for (const marker of allMarkers(m.value)) count(t, marker.text, lang, item.id);
      }
      const cell = report.check(`${name}: markers with fewer than 3 non-stopword words ≤ 1 %`, t.free <= 0.01 * t.n, `${t.free}/${t.n} = ${pct(t.free, t.n)}`);
      lines.push(`| ${name} | ${t.n} | ${cell} | ${t.product} (${pct(t.product, t.n)}) |`);
      examples.push(...t.examples.map((e) => `- ${name} ${e}`));
      process.stdout.write(`markers ${name}: ${t.free}/${t.n} content-free (product: ${t.product})\n`);
    }
    if (examples.length) lines.push('', 'Examples:', '', ...examples);

    lines.push('', '## Offline report findings (extractive research runs)', '', '| corpus | runs | findings | content-free (target ≤ 1 %) | flagged by the product |', '|---|---|---|---|---|');
    const fexamples: string[] = [];
    for (const name of RESEARCH_CORPORA) {
      const lang = LANG[name];
      const dir = path.join(work, name);
      const corpus = await loadCorpus(dir);
      const goals: ('auto' | string)[] = ['auto', ...(quick ? [] : await queryGoals(dir, QUERY_GOALS))];
      const t = tally();
      for (const goal of goals) {
        const res = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal, complexity: 'medium' });
        const run = await readRun(corpus.root, res.runId);
        for (const step of run.steps.values()) for (const f of step.findings) count(t, f.text, lang, `${goal.slice(0, 30)} ${f.finding_id}`);
      }
      const cell = report.check(`${name}: offline report findings with fewer than 3 non-stopword words ≤ 1 %`, t.free <= 0.01 * t.n, `${t.free}/${t.n} = ${pct(t.free, t.n)}`);
      lines.push(`| ${name} | ${goals.length} | ${t.n} | ${cell} | ${t.product} (${pct(t.product, t.n)}) |`);
      fexamples.push(...t.examples.map((e) => `- ${name} ${e}`));
      process.stdout.write(`findings ${name}: ${t.free}/${t.n} content-free over ${goals.length} runs (product: ${t.product})\n`);
    }
    if (fexamples.length) lines.push('', 'Examples:', '', ...fexamples);
    process.stdout.write(`\n${lines.join('\n')}\n`);
    const out = path.join(REPO, 'bench', 'results');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'contentFree.md'), `${lines.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (require.main === module) void runBench('contentFree', body);
