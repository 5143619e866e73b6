/**
 * Where an Ask question's time goes (`node --import tsx bench/askStages.ts [--quick] [--questions N [--only REGEX] | --ask-questions] [--dump FILE] [--profile FILE]`):
 * on the synthetic corpus of bench/ask.ts (1,000 items; 100 with --quick), questions composed from
 * templates (English, Chinese, Spanish; corpus-wide and per item) and the corpus's own topic words,
 * each timed by stage — understanding, retrieval (strategies, fusion, hit focus, passages), the
 * extractive answer — by the bench's own wall clock and by the process's CPU time, after warm-up
 * questions that are not measured. Figures only: no targets. Results:
 * bench/results/ask-stages.md.
 *
 * `--dump FILE` also writes, per question, what askCorpus returned that must not change when the
 * code gets faster (the hits' places, the answer's sentences, the passages), one JSON line each: two dumps,
 * before and after a change, are compared line by line. `--profile FILE` writes a CPU profile
 * (.cpuprofile) of the measured questions only, the warm-up and the corpus's loading left out.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractiveAnswer } from '../src/core/ask/answer';
import { askCorpus } from '../src/core/ask/ask';
import { openAskContext } from '../src/core/ask/askContext';
import { hybridRetrieve, STRATEGIES } from '../src/core/ask/hybridRetriever';
import { understand } from '../src/core/ask/understand';
import { loadCorpus } from '../src/core/corpus/loader';
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { nearestRank, runBench, writeBenchResult, type BenchReport } from './benchSupport';
import { createRng, ensureSyntheticCorpus, syntheticCorpusDirName } from './syntheticCorpus';
import { TOPICS } from './syntheticVocabulary';
import { ASK_BENCH_QUESTIONS } from './askQuestions';

const cache = process.env['MARKER_RESEARCH_BENCH_CACHE'] || path.join(os.homedir(), '.cache', 'marker-research-bench');

/** Question templates: `{a}` and `{b}` are topic words, Chinese for a Chinese template, else English (the corpus is English and Chinese: a Spanish question asks about English words). */
const TEMPLATES: readonly { lang: 'en' | 'zh'; text: string }[] = [
  { lang: 'en', text: 'What was said about {a} in the first 10 minutes?' },
  { lang: 'en', text: 'Summarize the discussion about {a} and {b}' },
  { lang: 'en', text: 'Which themes keep coming back across the episodes about {a}?' },
  { lang: 'en', text: 'What do viewers think about the {a}?' },
  { lang: 'en', text: 'Which moments about {a} would make good short clips?' },
  { lang: 'en', text: 'What did the host say about {a} after the 20-minute mark?' },
  { lang: 'en', text: 'How do the guests compare on {a} and {b}?' },
  { lang: 'en', text: 'Why did the team change the plan for the {a}?' },
  { lang: 'en', text: 'Is there anything about {a} near {b}?' },
  { lang: 'zh', text: '这些视频里关于{a}的讨论有哪些？' },
  { lang: 'zh', text: '大家怎么看{a}和{b}？' },
  { lang: 'zh', text: '主持人在前十分钟说了什么关于{a}的话？' },
  { lang: 'en', text: '¿Qué opinan los espectadores sobre {a}?' },
  { lang: 'en', text: '¿Qué se dijo sobre {a} y {b}?' },
];


/** `n` questions, composed deterministically: template × two words of one topic × corpus-wide or one item. */
export function composeQuestions(n: number, itemIds: readonly string[]): { question: string; itemId?: string }[] {
  const rng = createRng(7, n);
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  const out: { question: string; itemId?: string }[] = [];
  for (let i = 0; i < n; i++) {
    const t = TEMPLATES[i % TEMPLATES.length]!;
    const topic = pick(TOPICS);
    const words = t.lang === 'zh' ? topic.zh : topic.en;
    // Common words most of the time, a rare one now and then (the needles' tail).
    const word = (): string => words[Math.floor(rng.next() ** 2 * words.length)]!;
    const question = t.text.replace('{a}', word()).replace('{b}', word());
    out.push({ question, ...(i % 3 === 2 ? { itemId: pick(itemIds) } : {}) });
  }
  return out;
}

interface Stages {
  understand: number;
  retrieve: number;
  answer: number;
  total: number;
}

/** The bench's clocks, in ms: wall, and the process's CPU time (user + system: less swayed by other processes on a busy machine). */
function now(): { wall: number; cpu: number } {
  const u = process.cpuUsage();
  return { wall: performance.now(), cpu: (u.user + u.system) / 1000 };
}

async function bench(_report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const at = (flag: string): string | undefined => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const count = Number(at('--questions') ?? 300);
  const dump = at('--dump');
  const params = { items: quick ? 100 : 1000, wordsPerItem: 10_000, seed: 1 };
  const dir = path.join(cache, syntheticCorpusDirName(params));
  await ensureSyntheticCorpus(dir, params);
  const corpus = await loadCorpus(dir);
  const { index } = await CorpusIndex.open(corpus);
  const ctx = await openAskContext(corpus, index, { markers: new Map() });
  for (const q of ['这些节目谈到了哪些公司？', 'What do the commenters complain about?', 'Which parts would make good highlights?', 'What did the host say about the weather?']) await askCorpus(ctx, { question: q });
  const items = corpus.items.slice(0, 20).map((i) => i.id);
  const questions = argv.includes('--ask-questions')
    ? ASK_BENCH_QUESTIONS.flatMap((question, i) => [{ question }, { question, itemId: items[i % items.length]! }])
    : composeQuestions(count, corpus.items.slice(0, 50).map((i) => i.id)).filter((q) => !at('--only') || new RegExp(at('--only')!, 'u').test(q.question));
  const profile = at('--profile');
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const rows: { q: string; item: boolean; intent: string; wall: Stages; cpu: Stages; strategies: Map<string, number> }[] = [];
  // Each strategy's CPU time, per question (the strategies run one after another on one thread: their times add up).
  let byStrategy = new Map<string, number>();
  for (const [name, s] of Object.entries(STRATEGIES)) {
    const run = s.run.bind(s);
    // Timed until the strategy returns: the offline strategies do their work synchronously (the retriever awaits them
    // together, so timing to their promises' ends would count the others' work too).
    s.run = (...args) => {
      const c0 = now().cpu;
      try {
        return run(...args);
      } finally {
        byStrategy.set(name, (byStrategy.get(name) ?? 0) + now().cpu - c0);
      }
    };
  }
  const lines: string[] = [];
  for (const [i, input] of questions.entries()) {
    if (dump) {
      // What askCorpus returns, through its own path (its per-context answer cache never hits: every question differs or has its own session).
      const r = await askCorpus(ctx, { ...input, session: [`unrelated ${i}`] });
      lines.push(JSON.stringify({
        q: input.question,
        item: input.itemId ?? null,
        intent: r.query.intent,
        hits: r.hits.map((h) => [h.itemId, h.part, h.start, h.end, h.focus.start, h.focus.end, h.score]),
        answer: r.answer.map((a) => [a.citation.itemId, a.citation.part, a.citation.start, a.citation.end, a.citation.hitRank, a.text]),
        passages: r.passages.map((p) => [p.itemId, p.part, p.start, p.end, p.words, p.matchedBy.join('+')]),
      }));
      continue;
    }
    byStrategy = new Map();
    const c0 = now();
    const { query } = await understand({ ...input, session: [`unrelated ${i}`] }, { entities: ctx.entities, corpus: ctx.corpus, vectors: false });
    const c1 = now();
    const res = await hybridRetrieve(query, ctx, { k: 10 });
    const c2 = now();
    extractiveAnswer(ctx, query, res.hits);
    const c3 = now();
    const stages = (k: 'wall' | 'cpu'): Stages => ({ understand: c1[k] - c0[k], retrieve: c2[k] - c1[k], answer: c3[k] - c2[k], total: c3[k] - c0[k] });
    rows.push({ q: input.question, item: !!input.itemId, intent: query.intent, wall: stages('wall'), cpu: stages('cpu'), strategies: byStrategy });
  }
  if (session && profile) {
    const { profile: cpu } = await session.post('Profiler.stop');
    await writeFile(profile, JSON.stringify(cpu));
    session.disconnect();
  }
  if (dump) {
    await writeFile(dump, `${lines.join('\n')}\n`);
    process.stdout.write(`${lines.length} questions written to ${dump}\n`);
    return;
  }
  const stage = (k: keyof Stages): string => {
    const f = (xs: number[]): string => `${nearestRank(xs, 50).toFixed(1)} | ${nearestRank(xs, 95).toFixed(1)} | ${(xs.reduce((x, y) => x + y, 0) / xs.length).toFixed(1)}`;
    return `| ${k} | ${f(rows.map((r) => r.wall[k]))} | ${f(rows.map((r) => r.cpu[k]))} |`;
  };
  const slow = [...rows].sort((a, b) => b.cpu.total - a.cpu.total).slice(0, argv.includes('--ask-questions') ? rows.length : 8);
  const out = [
    `# Ask stages (${params.items} items, ${rows.length} ${argv.includes('--ask-questions') ? 'questions of bench/ask.ts' : 'composed questions'})`,
    '',
    'Per question, ms: understanding, retrieval (strategies, fusion, hit focus, passages), the extractive answer, as askCorpus runs them (after four warm-up questions), by the bench\'s wall clock and by the process\'s CPU time.',
    '',
    '| stage | wall p50 | wall p95 | wall mean | cpu p50 | cpu p95 | cpu mean |',
    '|---|---|---|---|---|---|---|',
    ...(['understand', 'retrieve', 'answer', 'total'] as const).map(stage),
    '',
    `1-minute load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cpus.`,
    '',
    `${argv.includes('--ask-questions') ? 'Every question' : 'Slowest'} by CPU time (retrieval: each strategy's share; the rest is fusion, hit focus and passages):`,
    ...slow.map((r) => {
      const strategies = [...r.strategies].sort((a, b) => b[1] - a[1]).map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(', ');
      return `- ${r.cpu.total.toFixed(0)} ms (understand ${r.cpu.understand.toFixed(0)}, retrieve ${r.cpu.retrieve.toFixed(0)} [strategies: ${strategies}], answer ${r.cpu.answer.toFixed(0)}) ${r.item ? 'item' : 'corpus'} ${r.intent}: ${r.q}`;
    }),
    '',
  ];
  await writeBenchResult('ask-stages.md', out.join('\n'));
  process.stdout.write(out.join('\n'));
}

void runBench('ask-stages', bench);
