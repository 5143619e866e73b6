/**
 * Extractive answers (issue 22): `node --import tsx bench/answers.ts [--report-only] [--tune]`
 * (part of `npm run bench`). Offline (no model), on fresh copies of the meeting dev corpora with
 * their extractive markers generated, as the product is after Index Corpus.
 *
 * Every `queries.jsonl` question of qmsum-dev (English) and vcsum-zh-dev (Chinese) is asked within
 * its item; its extractive answer (`AskResult.answer`) is cut to the budget (120 words; 240 CJK
 * characters) and graded against the gold `answer` with
 *  - **ROUGE-1 F**: unigram overlap (clipped counts), F1 of precision and recall;
 *  - **ROUGE-L F**: longest common subsequence of the two token sequences, F1.
 * Tokens are the bench's own: English, lowercased runs of letters and digits; Chinese, every
 * character that is not punctuation, a symbol or a space. Transcript annotations in braces or
 * brackets ("{vocalsound}", "{disfmarker}", "[音乐]") are no words. No stemming, no stopwords
 * removed. (Implemented here: the npm ROUGE packages are unmaintained and English-only.)
 *
 * **Baseline**, computed in the same run: BM25 (k1 = 1.2, b = 0.75) over the item's sentences,
 * split as answers split them (`itemUnits`), scored with the question's tokens (`tokenizeQuery`,
 * sentences by `tokenize`: the index's tokens); the best sentences with a positive score, in score
 * order, until the budget is full, then cut to it.
 *
 * Targets: ROUGE-1 F ≥ baseline + 0.03 per corpus; content-free sentences in the answers ≤ 2 %;
 * content-free top-5 hit quotes (each hit's focus text) ≤ 2 %. Content-free by the bench's own
 * measure: fewer than 3 words outside stopwords-iso (English's too), fillers and bare numbers.
 *
 * `--tune`: a small grid over a few of the answer's weights (`ANSWER_TUNING`), the best setting on
 * each corpus evaluated on the other (nothing is fitted per question). Writes bench/results/answers.md.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import stopwordsIso from 'stopwords-iso';
import { ANSWER_BUDGET, tunedAnswer, type AnswerSentence } from '../src/core/ask/answer';
import { ANSWER_TUNING, type AnswerTuning } from '../src/core/ask/answerScoring';
import { itemUnits } from '../src/core/ask/answerSentences';
import { askCorpus, type AskResult } from '../src/core/ask/ask';
import { openAskContext } from '../src/core/ask/askContext';
import type { AskContext } from '../src/core/ask/types';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { tokenize, tokenizeQuery } from '../src/core/search/tokenize';
import { type BenchReport, copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

type Lang = 'en' | 'zh';

/** Hits per question whose quotes are checked for content. */
const TOP = 5;
/** Fewer words than this outside the stopwords: content-free. */
const CONTENT_WORDS = 3;
/** ROUGE-1 F the answers must gain over the baseline. */
const MARGIN = 0.03;

// ---------------------------------------------------------------------------
// ROUGE
// ---------------------------------------------------------------------------

const ANNOTATION = /\{[^}]*\}|\[[^\]]*\]/g;

/** The bench's ROUGE tokens: English lowercased letter/digit runs; Chinese characters without punctuation. */
export function rougeTokens(text: string, lang: Lang): string[] {
  const t = text.normalize('NFKC').replace(ANNOTATION, ' ').toLowerCase();
  if (lang === 'en') return t.match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...t].filter((c) => /[\p{L}\p{N}]/u.test(c));
}

const f1 = (hit: number, cand: number, ref: number): number => (hit && cand && ref ? (2 * hit) / (cand + ref) : 0);

/** ROUGE-1 F of token sequences: clipped unigram overlap. */
export function rouge1(cand: readonly string[], ref: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let hit = 0;
  for (const t of cand) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      hit++;
      counts.set(t, n - 1);
    }
  }
  return f1(hit, cand.length, ref.length);
}

/** ROUGE-L F of token sequences: longest common subsequence (two rows of the table). */
export function rougeL(cand: readonly string[], ref: readonly string[]): number {
  if (!cand.length || !ref.length) return 0;
  let prev = new Uint16Array(ref.length + 1);
  let cur = new Uint16Array(ref.length + 1);
  for (let i = 1; i <= cand.length; i++) {
    for (let j = 1; j <= ref.length; j++) cur[j] = cand[i - 1] === ref[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    [prev, cur] = [cur, prev];
  }
  return f1(prev[ref.length]!, cand.length, ref.length);
}

/** The answer's tokens cut to the budget: 120 words (English), 240 characters (Chinese). */
const cut = (tokens: string[], lang: Lang): string[] => tokens.slice(0, lang === 'en' ? ANSWER_BUDGET.maxWords : ANSWER_BUDGET.maxCjkChars);

// ---------------------------------------------------------------------------
// Content-free, by the bench's own measure
// ---------------------------------------------------------------------------

const ISO = stopwordsIso as Record<string, string[]>;
const fold = (w: string): string => w.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
const STOP: Record<Lang, Set<string>> = {
  en: new Set(ISO['en']!.map(fold)),
  zh: new Set([...ISO['zh']!, ...ISO['en']!].map(fold)),
};
const FILLER = /^(?:u+h+|u+m+|e+r+m*|h+m+|m+h*m+|e+h+|a+h+|uh-huh|mm-hmm|mhm|nnn|nn|[嗯呃啊哦]+)$/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Words outside the stopwords, fillers and bare numbers. */
export function benchContentWords(text: string, lang: Lang): number {
  let n = 0;
  for (const s of segmenter.segment(text.normalize('NFKC').replace(ANNOTATION, ' '))) {
    if (!s.isWordLike) continue;
    for (const w of /\p{Script=Han}/u.test(s.segment) ? [s.segment] : (s.segment.match(/[\p{L}\p{N}]+/gu) ?? [])) {
      const f = fold(w);
      if (!STOP[lang].has(f) && !FILLER.test(f) && !/^\p{N}+$/u.test(f)) n++;
    }
  }
  return n;
}

// ---------------------------------------------------------------------------
// Baseline: BM25 over the item's sentences
// ---------------------------------------------------------------------------

interface Bm25Sentences {
  texts: string[];
  tokens: string[][];
  df: Map<string, number>;
  avg: number;
}

function bm25Sentences(ctx: AskContext, corpus: Corpus, itemId: string): Bm25Sentences {
  const item = corpus.items.find((i) => i.id === itemId);
  if (!item) throw new Error(`answers: no item ${itemId}`);
  const texts = itemUnits(ctx, item, 'transcript').map((u) => u.text.replace(/\s+/g, ' ').trim());
  const tokens = texts.map((t) => tokenize(t));
  const df = new Map<string, number>();
  for (const ts of tokens) for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
  return { texts, tokens, df, avg: tokens.reduce((a, t) => a + t.length, 0) / Math.max(1, tokens.length) };
}

/** The baseline's answer: best BM25 sentences, in score order, until `tokens` (the bench's, of the language) fill the budget. */
function bm25Answer(s: Bm25Sentences, question: string, lang: Lang): string[] {
  const K1 = 1.2;
  const B = 0.75;
  const q = tokenizeQuery(question);
  const n = s.texts.length;
  const scores = s.tokens.map((ts, i) => {
    let score = 0;
    for (const t of q) {
      const tf = ts.filter((x) => x === t).length;
      if (!tf) continue;
      const df = s.df.get(t) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * ts.length) / s.avg));
    }
    return { i, score };
  });
  scores.sort((a, b) => b.score - a.score || a.i - b.i);
  const limit = lang === 'en' ? ANSWER_BUDGET.maxWords : ANSWER_BUDGET.maxCjkChars;
  const out: string[] = [];
  for (const { i, score } of scores) {
    if (score <= 0 || out.length >= limit) break;
    out.push(...rougeTokens(s.texts[i]!, lang));
  }
  return out.slice(0, limit);
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

interface Query {
  item_id: string;
  query: string;
  answer: string;
}

interface Asked {
  q: Query;
  r: AskResult;
  gold: string[];
  baseline: string[];
}

/** A copy of corpus `name` with its extractive markers, its Ask context, and every question asked. */
async function prepare(name: string, lang: Lang, work: string): Promise<{ ctx: AskContext; asked: Asked[] }> {
  const dir = await copyDevCorpus(name, work);
  const corpus = await loadCorpus(dir);
  const report = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  if (report.failed) throw new Error(`${name}: extractive markers failed for ${report.failed} item(s)`);
  const { index } = await CorpusIndex.open(corpus);
  const ctx = await openAskContext(corpus, index);
  const text = await readFile(path.join(dir, 'queries.jsonl'), 'utf8');
  const queries = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Query);
  if (!queries.length) throw new Error(`${name}: no queries.jsonl questions at ${dir}`);
  const sentences = new Map<string, Bm25Sentences>();
  const asked: Asked[] = [];
  for (const q of queries) {
    const r = await askCorpus(ctx, { question: q.query, itemId: q.item_id });
    let s = sentences.get(q.item_id);
    if (!s) sentences.set(q.item_id, (s = bm25Sentences(ctx, corpus, q.item_id)));
    asked.push({ q, r, gold: rougeTokens(q.answer, lang), baseline: bm25Answer(s, q.query, lang) });
  }
  return { ctx, asked };
}

interface Figures {
  questions: number;
  r1: number;
  rl: number;
  baseR1: number;
  baseRL: number;
  sentences: number;
  /** Mean sentences and budget tokens per answer. */
  tokens: number;
  empty: number;
  contentFree: number;
  examples: string[];
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function grade(asked: readonly Asked[], lang: Lang, answerOf: (a: Asked) => AnswerSentence[]): Figures {
  const r1: number[] = [];
  const rl: number[] = [];
  const f: Figures = { questions: asked.length, r1: 0, rl: 0, baseR1: 0, baseRL: 0, sentences: 0, tokens: 0, empty: 0, contentFree: 0, examples: [] };
  const tokens: number[] = [];
  for (const a of asked) {
    const answer = answerOf(a);
    if (!answer.length) f.empty++;
    f.sentences += answer.length;
    for (const s of answer) {
      if (benchContentWords(s.text, lang) >= CONTENT_WORDS) continue;
      f.contentFree++;
      if (f.examples.length < 6) f.examples.push(`${a.q.query} → «${s.text.slice(0, 100)}»`);
    }
    const cand = cut(answer.flatMap((s) => rougeTokens(s.text, lang)), lang);
    tokens.push(cand.length);
    r1.push(rouge1(cand, a.gold));
    rl.push(rougeL(cand, a.gold));
  }
  f.r1 = mean(r1);
  f.rl = mean(rl);
  f.baseR1 = mean(asked.map((a) => rouge1(a.baseline, a.gold)));
  f.baseRL = mean(asked.map((a) => rougeL(a.baseline, a.gold)));
  f.tokens = mean(tokens);
  return f;
}

/** Content-free focus texts among the top-5 hits. */
function hitQuotes(asked: readonly Asked[], ctx: AskContext, lang: Lang): { quotes: number; flagged: number; examples: string[] } {
  let quotes = 0;
  let flagged = 0;
  const examples: string[] = [];
  for (const a of asked) {
    for (const h of a.r.hits.slice(0, TOP)) {
      const item = ctx.index.item(h.itemId);
      const part = h.part === 'transcript' ? item?.transcript : item?.comments;
      const quote = part ? part.text.slice(h.focus.start, h.focus.end) : h.text;
      quotes++;
      if (benchContentWords(quote, lang) >= CONTENT_WORDS) continue;
      flagged++;
      if (examples.length < 6) examples.push(`${a.q.query} → «${quote.replace(/\s+/g, ' ').slice(0, 100)}»`);
    }
  }
  return { quotes, flagged, examples };
}

const pct = (n: number, d: number): string => `${d ? ((100 * n) / d).toFixed(1) : '0.0'} %`;
const f3 = (x: number): string => x.toFixed(3);

/** The grid `--tune` searches: each weight left out (an ablation), then one weight at a time around the defaults. */
const GRID: Partial<AnswerTuning>[] = [
  {},
  ...(['centrality', 'spoken', 'region', 'context', 'support', 'focus', 'question', 'proximity', 'frequency', 'speaker'] as const).map((k) => ({ [k]: 0 })),
  { localIdf: false },
  { aroundHits: 0 },
  ...[0.25, 1].map((rank) => ({ rank })),
  ...[1, 3].map((centrality) => ({ centrality })),
  ...[1, 3].map((spoken) => ({ spoken })),
  ...[0.5, 1.5].map((region) => ({ region })),
  ...[0.5, 1.5].map((context) => ({ context })),
  ...[3, 5].map((aroundHits) => ({ aroundHits })),
  ...[150, 500].map((aroundWords) => ({ aroundWords })),
  ...[0.5, 0.85].map((lambda) => ({ lambda })),
  ...[0, 0.5].map((stopShare) => ({ stopShare })),
  ...[0, 0.34, 0.67].map((termQuota) => ({ termQuota })),
  { commentsNeedTerm: false },
];

function tune(runs: { name: string; lang: Lang; ctx: AskContext; asked: Asked[] }[]): string[] {
  const score = (run: (typeof runs)[number], t: Partial<AnswerTuning>): number =>
    grade(run.asked, run.lang, (a) => tunedAnswer(run.ctx, a.r.query, a.r.hits, {}, { ...ANSWER_TUNING, ...t })).r1;
  const table = GRID.map((t) => ({ t, scores: runs.map((r) => score(r, t)) }));
  const lines = ['## Tuning (ROUGE-1 F; one weight changed from the defaults at a time: 0 is its ablation)', '', `| setting | ${runs.map((r) => r.name).join(' | ')} |`, `|---|${runs.map(() => '---').join('|')}|`];
  for (const row of table) lines.push(`| ${JSON.stringify(row.t)} | ${row.scores.map(f3).join(' | ')} |`);
  lines.push('');
  runs.forEach((r, i) => {
    const best = table.reduce((m, x) => (x.scores[i]! > m.scores[i]! ? x : m));
    const other = runs.map((o, j) => (j === i ? '' : `${o.name} ${f3(best.scores[j]!)} (defaults ${f3(table[0]!.scores[j]!)})`)).filter(Boolean).join(', ');
    lines.push(`- best on ${r.name}: ${JSON.stringify(best.t)} → ${f3(best.scores[i]!)}; on ${other}`);
  });
  return lines;
}

async function body(report: BenchReport, argv: string[]): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-answers-'));
  const rows: string[] = [];
  const quoteRows: string[] = [];
  const examples: string[] = [];
  const runs: { name: string; lang: Lang; ctx: AskContext; asked: Asked[] }[] = [];
  try {
    for (const [name, lang] of [['qmsum-dev', 'en'], ['vcsum-zh-dev', 'zh']] as const) {
      const { ctx, asked } = await prepare(name, lang, work);
      runs.push({ name, lang, ctx, asked });
      const f = grade(asked, lang, (a) => a.r.answer);
      const ok = f.r1 >= f.baseR1 + MARGIN;
      rows.push(
        `| ${name} | ${f.questions} | ${report.check(`${name}: answers' ROUGE-1 F ≥ BM25 baseline + ${MARGIN}`, ok, `${f3(f.r1)} vs ${f3(f.baseR1)}`)} | ${f3(f.rl)} vs ${f3(f.baseRL)} | ${(f.sentences / Math.max(1, f.questions)).toFixed(1)} | ${f.tokens.toFixed(0)} | ${f.empty} | ${report.check(`${name}: content-free sentences in answers ≤ 2 %`, f.contentFree <= 0.02 * f.sentences, pct(f.contentFree, f.sentences))} |`,
      );
      const h = hitQuotes(asked, ctx, lang);
      quoteRows.push(`| ${name} | ${h.quotes} | ${report.check(`${name}: content-free top-${TOP} hit quotes ≤ 2 %`, h.flagged <= 0.02 * h.quotes, pct(h.flagged, h.quotes))} |`);
      examples.push(`### ${name}: content-free answer sentences`, ...f.examples.map((e) => `- ${e}`), '', `### ${name}: content-free hit quotes`, ...h.examples.map((e) => `- ${e}`), '');
      const sample = asked.slice(0, 2);
      examples.push(`### ${name}: first answers`, ...sample.flatMap((a) => [`- **${a.q.query}**`, ...a.r.answer.map((s) => `  - ${s.text} _(${s.citation.location})_`)]), '');
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const tuning = argv.includes('--tune') ? tune(runs) : [];
  const md = [
    `# Extractive answers — ${new Date().toISOString()}`,
    '',
    `Every queries.jsonl question asked in its item, offline, extractive markers generated; answers cut to ${ANSWER_BUDGET.maxWords} words / ${ANSWER_BUDGET.maxCjkChars} CJK characters. ROUGE F1 (bench tokens: English words, Chinese characters). Baseline: BM25 (k1 1.2, b 0.75) over the item's sentences, same budget. See bench/answers.ts.`,
    '',
    '| corpus | questions | ROUGE-1 F answer vs baseline | ROUGE-L F answer vs baseline | sentences / answer | tokens / answer | empty answers | content-free answer sentences |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `| corpus | top-${TOP} hit quotes (focus text) | content-free |`,
    '|---|---|---|',
    ...quoteRows,
    '',
    ...tuning,
    '',
    '## Examples',
    '',
    ...examples,
  ].join('\n');
  process.stdout.write(`${md}\n`);
  await writeBenchResult('answers.md', `${md}\n`);
}

void runBench('answers', body);
