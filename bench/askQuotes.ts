/**
 * What Ask quotes (issue 21, speech-aware units): `node --import tsx bench/askQuotes.ts [--report-only]`
 * (part of `npm run bench`). Offline (no model), on fresh copies of the dev corpora with their
 * extractive markers generated, as the product is after Index Corpus.
 *
 * The quote of a hit is what the Ask box shows (the server's `hitView`: the hit's focus, shortened
 * to one line's worth). Over the top 5 hits of each question:
 *  - **short quotes** on the Spanish caption corpus (yt-podcast-es-dev): quotes with fewer than 8
 *    words — a caption line ("Valentino Rossi", "pero Márquez") instead of a sentence. Questions:
 *    the corpus's `ask.jsonl`, and one question per marker topic (up to {@link TOPICS_PER_ITEM} per
 *    item: "¿Qué se dice sobre <topic>?" asked in that item). Target ≤ 5 %.
 *  - **content-free quotes** over the meeting questions of `queries.jsonl` (qmsum-dev, English;
 *    vcsum-zh-dev, Chinese), each asked in its item: quotes with fewer than 3 words outside
 *    stopwords-iso of the language (English's too), the bench's filler patterns and bare numbers —
 *    "Yeah .", "Mm-hmm .", "{vocalsound}", "嗯对对对". Target ≤ 2 % per corpus.
 * Words are the bench's own (ICU word segmentation, annotations in braces and brackets left out),
 * not the product's. Writes bench/results/askQuotes.md.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import stopwordsIso from 'stopwords-iso';
import { askCorpus } from '../src/core/ask/ask';
import { openAskContext } from '../src/core/ask/askContext';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { hitView } from '../src/server/askViews';
import { type BenchReport, copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

type Lang = 'en' | 'es' | 'zh';

/** Hits per question whose quotes are measured. */
const TOP = 5;
/** Marker topics turned into questions per item of the caption corpus. */
const TOPICS_PER_ITEM = 8;
/** A quote with fewer words than this is a scrap (target: at most 5 % of them on the caption corpus). */
const SHORT_WORDS = 8;
/** A quote with fewer words than this outside the stopwords says nothing (target: at most 2 % on meetings). */
const CONTENT_WORDS = 3;

const ISO = stopwordsIso as Record<string, string[]>;
const fold = (w: string): string => w.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const stopSets = new Map<Lang, Set<string>>();
/** stopwords-iso of a language plus English (code-switching), folded (case, accents). */
function stopwords(lang: Lang): Set<string> {
  let set = stopSets.get(lang);
  if (!set) stopSets.set(lang, (set = new Set([...ISO[lang]!, ...ISO['en']!].map((w) => fold(w.normalize('NFKC'))))));
  return set;
}
/** Fillers by shape (uh, ummm, mm-hmm, 嗯, 呃). */
const FILLER = /^(?:u+h+|u+m+|e+r+m*|h+m+|m+h*m+|e+h+|a+h+|uh-huh|mm-hmm|mhm|nnn|nn|[嗯呃啊哦]+)$/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{Script=Han}/u;

/** The bench's words of a text: annotations in braces or brackets left out; Latin words split at hyphens and apostrophes; CJK words by ICU. */
export function benchWords(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').replace(/\{[^}]*\}|\[[^\]]*\]/g, ' '))) {
    if (!s.isWordLike) continue;
    if (HAN.test(s.segment)) out.push(s.segment);
    else out.push(...(s.segment.match(/[\p{L}\p{N}]+/gu) ?? []));
  }
  return out;
}

/** Words of a text outside the stopwords of `lang`, the fillers and bare numbers. */
export function contentWords(text: string, lang: Lang): number {
  const stop = stopwords(lang);
  return benchWords(text).filter((w) => {
    const f = fold(w);
    return !stop.has(f) && !FILLER.test(f) && !/^\p{N}+$/u.test(f);
  }).length;
}

interface Question {
  question: string;
  itemId?: string;
  session?: string[];
}

async function readJsonl<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

/** A copy of corpus `name` with its extractive markers, and its Ask context. */
async function prepare(name: string, work: string): Promise<{ dir: string; corpus: Corpus; ask: Awaited<ReturnType<typeof openAskContext>> }> {
  const dir = await copyDevCorpus(name, work);
  const corpus = await loadCorpus(dir);
  const report = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  if (report.failed) throw new Error(`${name}: extractive markers failed for ${report.failed} item(s)`);
  const { index } = await CorpusIndex.open(corpus);
  return { dir, corpus, ask: await openAskContext(corpus, index) };
}

interface QuoteFigures {
  corpus: string;
  questions: number;
  quotes: number;
  flagged: number;
  examples: string[];
}

/** The top-5 quotes of every question, and those `bad` flags. */
async function measureQuotes(name: string, ctx: Awaited<ReturnType<typeof prepare>>, questions: readonly Question[], bad: (quote: string) => boolean): Promise<QuoteFigures> {
  const items = new Map(ctx.corpus.items.map((i) => [i.id, i]));
  const out: QuoteFigures = { corpus: name, questions: questions.length, quotes: 0, flagged: 0, examples: [] };
  for (const q of questions) {
    const r = await askCorpus(ctx.ask, { question: q.question, ...(q.itemId ? { itemId: q.itemId } : {}), ...(q.session?.length ? { session: q.session } : {}) }, { k: TOP });
    const keywords = [...r.query.keywords, ...r.query.entities.map((e) => e.label)];
    for (const h of r.hits.slice(0, TOP)) {
      const quote = hitView(h, keywords, items.get(h.itemId)).quote.replace(/…/g, ' ').trim();
      out.quotes++;
      if (!bad(quote)) continue;
      out.flagged++;
      if (out.examples.length < 8) out.examples.push(`${q.question} → ${h.itemId} «${quote.slice(0, 100)}»`);
    }
  }
  return out;
}

const pct = (n: number, d: number): string => `${d ? ((100 * n) / d).toFixed(1) : '0.0'} %`;

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-askquotes-'));
  const rows: string[] = [];
  const examples: string[] = [];
  try {
    // The Spanish caption corpus: short quotes.
    {
      const name = 'yt-podcast-es-dev';
      const ctx = await prepare(name, work);
      const questions: Question[] = (await readJsonl<{ query: string; item_id: string | null; session: string[] }>(path.join(ctx.dir, 'ask.jsonl'))).map((l) => ({
        question: l.query,
        ...(l.item_id ? { itemId: l.item_id } : {}),
        session: l.session,
      }));
      for (const item of ctx.corpus.items) {
        const r = await readItemMarkers(ctx.dir, item.id);
        if (!r.ok) continue;
        const topics = [...new Set(allMarkers(r.value).filter((m) => m.evidence[0]?.part === 'transcript').map((m) => m.topic.trim()).filter(Boolean))];
        for (const t of topics.slice(0, TOPICS_PER_ITEM)) questions.push({ question: `¿Qué se dice sobre ${t}?`, itemId: item.id });
      }
      const f = await measureQuotes(name, ctx, questions, (q) => benchWords(q).length < SHORT_WORDS);
      const share = f.quotes ? f.flagged / f.quotes : 0;
      rows.push(`| ${name} | quotes with < ${SHORT_WORDS} words | ${f.questions} | ${f.quotes} | ${report.check(`${name}: Ask top-${TOP} quotes with fewer than ${SHORT_WORDS} words ≤ 5 %`, share <= 0.05, pct(f.flagged, f.quotes))} |`);
      examples.push(`### ${name}: short quotes`, ...f.examples.map((e) => `- ${e}`), '');
    }
    // Meetings: content-free quotes.
    for (const [name, lang] of [['qmsum-dev', 'en'], ['vcsum-zh-dev', 'zh']] as const) {
      const ctx = await prepare(name, work);
      const questions = (await readJsonl<{ query: string; item_id: string }>(path.join(ctx.dir, 'queries.jsonl'))).map((l) => ({ question: l.query, itemId: l.item_id }));
      if (!questions.length) throw new Error(`${name}: no queries.jsonl questions at ${ctx.dir}`);
      const f = await measureQuotes(name, ctx, questions, (q) => contentWords(q, lang) < CONTENT_WORDS);
      const share = f.quotes ? f.flagged / f.quotes : 0;
      rows.push(`| ${name} | content-free quotes (< ${CONTENT_WORDS} non-stopword words) | ${f.questions} | ${f.quotes} | ${report.check(`${name}: Ask top-${TOP} quotes with fewer than ${CONTENT_WORDS} non-stopword words ≤ 2 %`, share <= 0.02, pct(f.flagged, f.quotes))} |`);
      examples.push(`### ${name}: content-free quotes`, ...f.examples.map((e) => `- ${e}`), '');
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const md = [
    `# Ask quotes — ${new Date().toISOString()}`,
    '',
    `Top ${TOP} hits per question, offline, extractive markers generated. See bench/askQuotes.ts for the measures.`,
    '',
    '| corpus | measure | questions | quotes | share |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '## Examples',
    '',
    ...examples,
  ].join('\n');
  process.stdout.write(`${md}\n`);
  await writeBenchResult('askQuotes.md', `${md}\n`);
}

void runBench('askQuotes', body);
