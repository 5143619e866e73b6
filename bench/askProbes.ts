/**
 * Query-understanding probes (`node --import tsx bench/askProbes.ts`, part of `npm run bench`):
 * questions written for this project in the style of corpora/ASK.md — not the dev labels — over
 * the four dev corpora (`$MARKER_RESEARCH_CORPORA`, default ../shared/corpora, read only; a
 * missing one is a failure naming its path). A check that the offline rules generalise beyond the
 * labelled dev lines, graded by the bench itself with the ASK.md convention (not the product's
 * `eval ask` grader). Figures only: no targets. Results: bench/results/ask-probes.md.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { EntityIndex } from '../src/core/ask/entityIndex';
import { understandWithRules } from '../src/core/ask/understandRules';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { requireCorpus, runBench, type BenchReport } from './benchSupport';

interface Probe {
  corpus: string;
  item_id: string | null;
  session: string[];
  query: string;
  intent: string;
  entities: string[];
  time_constraint: { start_s: number; end_s: number | null } | null;
  citation_numbers: number[];
}

/** ASK.md: an entity counts as found when both match case-insensitively after trimming, or one contains the other; each used once. */
function matched(predicted: readonly string[], gold: readonly string[]): number {
  const same = (a: string, b: string): boolean => {
    const x = a.trim().toLowerCase();
    const y = b.trim().toLowerCase();
    return !!x && !!y && (x === y || x.includes(y) || y.includes(x));
  };
  const used = new Set<number>();
  let tp = 0;
  for (const g of gold) {
    const i = predicted.findIndex((p, j) => !used.has(j) && same(p, g));
    if (i >= 0) {
      used.add(i);
      tp++;
    }
  }
  return tp;
}

async function bench(report: BenchReport): Promise<void> {
  const probes = readFileSync(path.join(__dirname, 'askProbes.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Probe);
  const loaded = new Map<string, { corpus: Corpus; entities: EntityIndex }>();
  let intents = 0;
  let times = 0;
  let citations = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const missed: string[] = [];
  for (const p of probes) {
    if (!loaded.has(p.corpus)) {
      const corpus = await loadCorpus(await requireCorpus(p.corpus));
      if (!corpus.items.length) throw new Error(`corpus ${p.corpus} at ${corpus.root} has no items`);
      loaded.set(p.corpus, { corpus, entities: EntityIndex.build(corpus).index });
    }
    const { corpus, entities } = loaded.get(p.corpus)!;
    const q = understandWithRules({ question: p.query, itemId: p.item_id ?? undefined, session: p.session }, { entities, corpus });
    const ents = q.entities.map((e) => (e.kind === 'speaker' ? e.label : e.text));
    const m = matched(ents, p.entities);
    tp += m;
    fp += ents.length - m;
    fn += p.entities.length - m;
    const g = p.time_constraint;
    const t = q.timeConstraint;
    const timeOk = (!g && !t) || (!!g && !!t && Math.abs(g.start_s - t.startS) <= 5 && ((g.end_s === null && t.endS === null) || (g.end_s !== null && t.endS !== null && Math.abs(g.end_s - t.endS) <= 5)));
    const citeOk = JSON.stringify(q.citationNumbers) === JSON.stringify(p.citation_numbers);
    if (q.intent === p.intent) intents++;
    if (timeOk) times++;
    if (citeOk) citations++;
    if (q.intent !== p.intent || m !== p.entities.length || ents.length !== m || !timeOk || !citeOk) missed.push(`- ${p.query} → ${q.intent} ${JSON.stringify(ents)} (labelled ${p.intent} ${JSON.stringify(p.entities)})`);
  }
  const n = probes.length;
  const prec = tp + fp ? tp / (tp + fp) : 1;
  const rec = tp + fn ? tp / (tp + fn) : 1;
  const lines = [
    `# Query-understanding probes (${n} questions, offline rules)`,
    '',
    `intent ${(intents / n).toFixed(3)} · entity F1 ${(prec + rec ? (2 * prec * rec) / (prec + rec) : 0).toFixed(3)} · time ${(times / n).toFixed(3)} · citations ${(citations / n).toFixed(3)}`,
    '',
    ...(missed.length ? ['Missed:', ...missed] : ['Nothing missed.']),
    '',
  ];
  report.note('figures only, no targets (the probes check that the rules generalise; see bench/results/ask-probes.md)');
  await mkdir(path.join(__dirname, 'results'), { recursive: true });
  await writeFile(path.join(__dirname, 'results', 'ask-probes.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

void runBench('askProbes', bench);
