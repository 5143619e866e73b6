/**
 * Query understanding on the dev `ask.jsonl` files (`node --import tsx bench/askDev.ts`, part of
 * `npm run bench`): `eval ask` (the product's grader, corpora/ASK.md's convention) over the four
 * dev corpora, offline, pooled and per question language, against issue 23's targets: intent
 * ≥ 0.90, entity F1 ≥ 0.85, time ≥ 0.95, coreference ≥ 0.90, citations 1.00. The labels are the
 * measurement set: nothing in the product is tuned to them. Results: bench/results/askDev.md.
 */
import { CorpusIndex } from '../src/core/search/corpusIndex';
import { openAskContext } from '../src/core/ask/askContext';
import { evalAsk, matchEntities, readAskLabels, type AskLabel, type AskQueryResult } from '../src/core/ask/evalAsk';
import { loadCorpus } from '../src/core/corpus/loader';
import { DEV_CORPORA, requireCorpus, runBench, writeBenchResult, type BenchReport } from './benchSupport';

type Lang = 'en' | 'es' | 'zh-Hans' | 'zh-Hant';

/** Characters only traditional Chinese writes (a few frequent ones suffice to tell a question's script). */
const TRADITIONAL = /[們說麼這個會議時間對從後裡來為關於與討論內容視頻觀眾網評價經濟開場結尾鐘頭點還麼讓發現問題認]/u;

/** The language a question is written in, by script and a few function words (the bench's own rule). */
function languageOf(q: string): Lang {
  if (/\p{Script=Han}/u.test(q)) return TRADITIONAL.test(q) ? 'zh-Hant' : 'zh-Hans';
  return /[¿¡ñáéíóú]|\b(?:qué|que|los|las|del|sobre|dice|dijo|cómo|cuál)\b/iu.test(q) ? 'es' : 'en';
}

interface Tally {
  n: number;
  intent: number;
  time: number;
  citation: number;
  tp: number;
  fp: number;
  fn: number;
  corefN: number;
  corefOk: number;
}

const empty = (): Tally => ({ n: 0, intent: 0, time: 0, citation: 0, tp: 0, fp: 0, fn: 0, corefN: 0, corefOk: 0 });

function add(t: Tally, label: AskLabel, r: AskQueryResult): void {
  t.n++;
  if (r.intent === r.gold_intent) t.intent++;
  if (r.time_ok) t.time++;
  if (r.citation_ok) t.citation++;
  const m = matchEntities(r.entities, r.gold_entities);
  t.tp += m;
  t.fp += r.entities.length - m;
  t.fn += r.gold_entities.length - m;
  if (label.session.length && label.entities.length) {
    t.corefN++;
    if (m === r.gold_entities.length) t.corefOk++;
  }
}

const f1 = (t: Tally): number => {
  const p = t.tp + t.fp ? t.tp / (t.tp + t.fp) : 1;
  const r = t.tp + t.fn ? t.tp / (t.tp + t.fn) : 1;
  return p + r ? (2 * p * r) / (p + r) : 0;
};
const ratio = (a: number, n: number): string => (n ? (a / n).toFixed(3) : '-');

async function bench(report: BenchReport): Promise<void> {
  const pooled = empty();
  const byLang = new Map<Lang, Tally>();
  const byCorpus: string[] = [];
  const missed: string[] = [];
  const ms: number[] = [];
  for (const name of DEV_CORPORA) {
    const root = await requireCorpus(name);
    const corpus = await loadCorpus(root);
    const { labels, problems, found } = await readAskLabels(corpus.root);
    if (!found) throw new Error(`${root}/ask.jsonl not found`);
    if (problems.length) report.fail(`${name}: ${problems.join('; ')}`);
    const index = CorpusIndex.build(corpus);
    const ctx = await openAskContext(corpus, index);
    const r = await evalAsk(ctx, labels);
    const local = empty();
    r.perQuery.forEach((q, i) => {
      const label = labels[i]!;
      add(pooled, label, q);
      add(local, label, q);
      const lang = languageOf(label.query);
      if (!byLang.has(lang)) byLang.set(lang, empty());
      add(byLang.get(lang)!, label, q);
      ms.push(q.ms);
      const m = matchEntities(q.entities, q.gold_entities);
      if (q.intent !== q.gold_intent || m !== q.gold_entities.length || m !== q.entities.length || !q.time_ok || !q.citation_ok) {
        missed.push(`- ${name} ${label.query_id} (${lang}): "${label.query}" → ${q.intent} ${JSON.stringify(q.entities)}${q.time_ok ? '' : ' time✗'}${q.citation_ok ? '' : ' citations✗'} (labelled ${q.gold_intent} ${JSON.stringify(q.gold_entities)})`);
      }
    });
    byCorpus.push(`| ${name} | ${local.n} | ${ratio(local.intent, local.n)} | ${f1(local).toFixed(3)} | ${ratio(local.time, local.n)} | ${ratio(local.corefOk, local.corefN)} (${local.corefN}) | ${ratio(local.citation, local.n)} | ${r.hit_at_5 ?? '-'} |`);
  }
  const row = (label: string, t: Tally): string => `| ${label} | ${t.n} | ${ratio(t.intent, t.n)} | ${f1(t).toFixed(3)} | ${ratio(t.time, t.n)} | ${ratio(t.corefOk, t.corefN)} (${t.corefN}) | ${ratio(t.citation, t.n)} |`;
  const intent = pooled.intent / pooled.n;
  const entity = f1(pooled);
  const time = pooled.time / pooled.n;
  const coref = pooled.corefN ? pooled.corefOk / pooled.corefN : 1;
  const cites = pooled.citation / pooled.n;
  const sorted = [...ms].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
  const lines = [
    `# Query understanding on the dev ask.jsonl files (${pooled.n} questions, offline)`,
    '',
    'Command: `node --import tsx bench/askDev.ts` (the product grader `eval ask` per corpus; pooled over the four dev corpora).',
    '',
    '| pooled | questions | intent | entity F1 | time | coreference (n) | citations |',
    '|---|---|---|---|---|---|---|',
    `| all | ${pooled.n} | ${report.check('dev intent accuracy ≥ 0.90', intent >= 0.9, intent.toFixed(3))} | ${report.check('dev entity F1 ≥ 0.85', entity >= 0.85, entity.toFixed(3))} | ${report.check('dev time ≥ 0.95', time >= 0.95, time.toFixed(3))} | ${report.check('dev coreference ≥ 0.90', coref >= 0.9, coref.toFixed(3))} (${pooled.corefN}) | ${report.check('dev citations = 1.00', cites === 1, cites.toFixed(3))} |`,
    '',
    '| language | questions | intent | entity F1 | time | coreference (n) | citations |',
    '|---|---|---|---|---|---|---|',
    ...[...byLang.entries()].sort().map(([l, t]) => row(l, t)),
    '',
    '| corpus | questions | intent | entity F1 | time | coreference (n) | citations | hybrid hit@5 on gold ranges |',
    '|---|---|---|---|---|---|---|---|',
    ...byCorpus,
    '',
    `Understanding + retrieval per question (eval ask's clock, dev corpora): p95 ${p95.toFixed(1)} ms (the latency target is measured on the synthetic corpus by bench/ask.ts).`,
    '',
    ...(missed.length ? ['Missed:', ...missed] : ['Nothing missed.']),
    '',
  ];
  await writeBenchResult('askDev.md', lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

void runBench('askDev', bench);
