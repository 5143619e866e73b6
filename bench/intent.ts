/**
 * Intent from evidence (issue 23): `node --import tsx bench/intent.ts [--quick] [--train] [--report-only]`.
 *
 * The labelled set is generated (test/support/intentQuestions.ts: templates × topics × speakers ×
 * names × item nouns × time phrases × languages, each question with its template id), asked in
 * that module's small corpus through the offline understanding itself (`understandWithRules`),
 * whose intent step hands this bench each question's evidence and feature vector
 * (`observeIntentEvidence`): the features measured are the features the product computes.
 *
 * Measured, on the same folds:
 * - **learned**: multinomial logistic regression over the features (full-batch gradient descent,
 *   softmax, L2 on every weight but the bias, each intent weighing the same in the loss), written
 *   here, no ML dependency; the L2 strength chosen by the same cross-validation from a small grid;
 * - **hand**: the first-match cue cascade the scorer replaced (kept below as it was, over the
 *   same cue lists).
 * Cross-validation is **by template group**: the folds split the templates (a simplified-Chinese
 * template and its traditional form are one group), so a fold's test questions are phrasings its
 * training never saw. Per language, overall, and a confusion table of the held-out predictions.
 *
 * Also measured with the shipped weights (src/core/ask/intentWeights.json): the dev `ask.jsonl`
 * of the four dev corpora and bench/askProbes.jsonl (never trained on; learned vs hand).
 *
 * `--train`: trains on the whole set with the chosen L2 and writes src/core/ask/intentWeights.json
 * (version bumped when the weights change). `--quick`: 3 folds instead of 5, one L2.
 * Targets: cross-validated accuracy (learned) ≥ 0.90; dev `ask.jsonl` intent accuracy ≥ 0.90.
 * Writes bench/results/intent.md.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { EntityIndex } from '../src/core/ask/entityIndex';
import { readAskLabels } from '../src/core/ask/evalAsk';
import { observeIntentEvidence } from '../src/core/ask/intentChoice';
import {
  AUDIENCE_CUES, CLIP_CUES, COMMENT_CUES, cueMatches, hasCue, OPEN_SUMMARY, REACTION_CUES, RELATION_CUES, STRONG_RELATION_CUES, SUMMARY_CUES, TOPIC_CUES,
} from '../src/core/ask/intentCues';
import { IN_THE_ITEM, INTENT_FEATURES, type IntentEvidence, joinedPair, PEOPLE_CUES, PEOPLE_SAY, THEME_NOUNS, WHAT_WAS_SAID } from '../src/core/ask/intentFeatures';
import { intentModel, type IntentModel, type IntentWeightsData, scoreIntents, SHIPPED_INTENT_WEIGHTS_FILE } from '../src/core/ask/intentScoring';
import { INTENTS, type Intent } from '../src/core/ask/query';
import { understandWithRules } from '../src/core/ask/understandRules';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { intentCorpus, intentQuestions, type IntentLang, type LabelledQuestion } from '../test/support/intentQuestions';
import { DEV_CORPORA, REPO, requireCorpus, runBench, writeBenchResult, type BenchReport } from './benchSupport';

const TARGET = 0.9;
const EPOCHS = 600;
const LEARNING_RATE = 0.5;
const L2_GRID = [0.0003, 0.001, 0.003];
const L2_QUICK = 0.001;
const SEED = 23;
const PER_TEMPLATE = 6;

// ---------------------------------------------------------------------------
// Evidence: what the product's intent step sees
// ---------------------------------------------------------------------------

interface Observed {
  evidence: IntentEvidence;
  features: Float64Array;
  /** What the product chose (shipped weights). */
  shipped: Intent;
}

/** Asks `question` through the offline understanding and returns what its intent step saw. */
function observe(question: string, itemId: string | undefined, session: readonly string[], ctx: { entities: EntityIndex; corpus: Corpus }): Observed {
  let seen: Observed | undefined;
  const before = observeIntentEvidence((evidence, features, chosen) => {
    seen = { evidence, features: Float64Array.from(features), shipped: chosen.intent };
  });
  try {
    understandWithRules({ question, itemId, session }, ctx);
  } finally {
    observeIntentEvidence(before);
  }
  if (!seen) throw new Error(`the intent step was not reached for ${JSON.stringify(question)}`);
  return seen;
}

// ---------------------------------------------------------------------------
// Hand: the first-match cue cascade the scorer replaced
// ---------------------------------------------------------------------------

/** The cascade of cue lists that chose the intent before scoring (issue 23), as it was. */
function cascade(ev: IntentEvidence): Intent {
  const { question: q, bare, entities, mentions, hasComments } = ev;
  if (ev.citations) return 'citation_lookup';
  if (hasCue(q, CLIP_CUES)) return 'recommend_clip';
  const audience = hasCue(q, AUDIENCE_CUES) || (hasComments && !entities.length && hasCue(q, PEOPLE_CUES) && (hasCue(q, REACTION_CUES) || hasCue(q, PEOPLE_SAY)) && !hasCue(q, IN_THE_ITEM));
  if (audience || (hasCue(q, COMMENT_CUES) && hasCue(q, REACTION_CUES))) return 'analyze_reception';
  const summaryCues = cueMatches(q, SUMMARY_CUES);
  const summary = summaryCues.length > 0 && !(entities.length >= 1 && summaryCues.every((c) => WHAT_WAS_SAID.has(c.cue)));
  const topic = hasCue(q, TOPIC_CUES);
  if (summary && !(topic && THEME_NOUNS.test(q))) return 'summary';
  if (topic) return 'analyze_topic';
  if (!mentions.length && OPEN_SUMMARY.some((re) => re.test(bare))) return 'summary';
  const speakers = entities.filter((e) => e.kind === 'speaker' || e.speaker !== undefined).length;
  if (entities.length >= 2 && (hasCue(bare, RELATION_CUES) || joinedPair(q, mentions) || speakers >= 2)) return 'search_relation';
  if (entities.length >= 1 && hasCue(bare, STRONG_RELATION_CUES)) return 'search_relation';
  if (entities.length >= 1) return 'search_entity';
  return 'search_semantic';
}

// ---------------------------------------------------------------------------
// Learned: multinomial logistic regression
// ---------------------------------------------------------------------------

interface Sample {
  /** Indices of the non-zero features and their values. */
  on: Int32Array;
  val: Float64Array;
  y: number;
}

function sampleOf(features: Float64Array, intent: Intent): Sample {
  const on: number[] = [];
  const val: number[] = [];
  features.forEach((v, j) => {
    if (v) {
      on.push(j);
      val.push(v);
    }
  });
  return { on: Int32Array.from(on), val: Float64Array.from(val), y: INTENTS.indexOf(intent) };
}

/** Fits the weights (rows: {@link INTENTS}; columns: {@link INTENT_FEATURES}) by full-batch gradient descent with momentum. */
function train(samples: readonly Sample[], l2: number): Float64Array {
  const K = INTENTS.length;
  const F = INTENT_FEATURES.length;
  const bias = INTENT_FEATURES.indexOf('bias');
  const w = new Float64Array(K * F);
  const v = new Float64Array(K * F);
  const g = new Float64Array(K * F);
  // Each intent weighs the same in the loss, however many questions it has.
  const count = new Float64Array(K);
  for (const s of samples) count[s.y]!++;
  const present = count.filter((c) => c > 0).length;
  const weightOf = (y: number): number => 1 / (present * count[y]!);
  const z = new Float64Array(K);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    g.fill(0);
    for (const s of samples) {
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        let t = 0;
        for (let i = 0; i < s.on.length; i++) t += w[k * F + s.on[i]!]! * s.val[i]!;
        z[k] = t;
        if (t > max) max = t;
      }
      let sum = 0;
      for (let k = 0; k < K; k++) sum += (z[k] = Math.exp(z[k]! - max));
      const sw = weightOf(s.y);
      for (let k = 0; k < K; k++) {
        const d = sw * (z[k]! / sum - (k === s.y ? 1 : 0));
        for (let i = 0; i < s.on.length; i++) g[k * F + s.on[i]!]! += d * s.val[i]!;
      }
    }
    for (let k = 0; k < K; k++) {
      for (let j = 0; j < F; j++) {
        const at = k * F + j;
        const grad = g[at]! + (j === bias ? 0 : l2 * w[at]!);
        v[at] = 0.9 * v[at]! - LEARNING_RATE * grad;
        w[at]! += v[at]!;
      }
    }
  }
  return w;
}

const modelOf = (w: Float64Array): IntentModel => ({ intents: INTENTS, weights: w });

// ---------------------------------------------------------------------------
// Cross-validation by template group
// ---------------------------------------------------------------------------

interface Row {
  q: LabelledQuestion;
  obs: Observed;
  sample: Sample;
  hand: Intent;
}

/** The group of a template: its id (the traditional-Chinese form of a simplified template shares it). */
const groupOf = (q: LabelledQuestion): string => q.template;

/** Folds of template groups, stratified by intent (each intent's groups dealt round-robin after a seeded shuffle). */
function folds(rows: readonly Row[], k: number, seed: number): Map<string, number> {
  let state = seed >>> 0;
  const rand = (): number => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const byIntent = new Map<Intent, string[]>();
  for (const r of rows) {
    const list = byIntent.get(r.q.intent) ?? [];
    if (!list.includes(groupOf(r.q))) list.push(groupOf(r.q));
    byIntent.set(r.q.intent, list);
  }
  const out = new Map<string, number>();
  let offset = 0;
  for (const intent of INTENTS) {
    const groups = [...(byIntent.get(intent) ?? [])].sort();
    for (let i = groups.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [groups[i], groups[j]] = [groups[j]!, groups[i]!];
    }
    groups.forEach((g, i) => out.set(g, (i + offset) % k));
    offset += groups.length;
  }
  return out;
}

interface CvResult {
  l2: number;
  /** Held-out predictions, one per row. */
  learned: Intent[];
  accuracy: number;
}

function crossValidate(rows: readonly Row[], k: number, l2: number): CvResult {
  const fold = folds(rows, k, SEED);
  const learned: Intent[] = new Array<Intent>(rows.length);
  for (let f = 0; f < k; f++) {
    const trainRows = rows.filter((r) => fold.get(groupOf(r.q)) !== f);
    const model = modelOf(train(trainRows.map((r) => r.sample), l2));
    rows.forEach((r, i) => {
      if (fold.get(groupOf(r.q)) === f) learned[i] = scoreIntents(r.obs.features, model).intent;
    });
  }
  const right = rows.filter((r, i) => learned[i] === r.q.intent).length;
  return { l2, learned, accuracy: right / rows.length };
}

// ---------------------------------------------------------------------------
// Measuring sets with the shipped weights: dev ask.jsonl and the probes
// ---------------------------------------------------------------------------

interface Measured {
  name: string;
  n: number;
  learned: number;
  hand: number;
  missed: string[];
}

async function loaded(name: string, cache: Map<string, { corpus: Corpus; entities: EntityIndex }>): Promise<{ corpus: Corpus; entities: EntityIndex }> {
  let got = cache.get(name);
  if (!got) {
    const corpus = await loadCorpus(await requireCorpus(name));
    if (!corpus.items.length) throw new Error(`corpus ${name} at ${corpus.root} has no items`);
    got = { corpus, entities: EntityIndex.build(corpus).index };
    cache.set(name, got);
  }
  return got;
}

function measure(name: string, items: readonly { query: string; itemId?: string; session: string[]; intent: Intent }[], ctxOf: (i: number) => { corpus: Corpus; entities: EntityIndex }): Measured {
  let learned = 0;
  let hand = 0;
  const missed: string[] = [];
  items.forEach((x, i) => {
    const obs = observe(x.query, x.itemId, x.session, ctxOf(i));
    const h = cascade(obs.evidence);
    if (obs.shipped === x.intent) learned++;
    else missed.push(`- ${name}: ${x.query} → ${obs.shipped} (labelled ${x.intent}; hand: ${h})`);
    if (h === x.intent) hand++;
  });
  return { name, n: items.length, learned, hand, missed };
}

// ---------------------------------------------------------------------------
// Weights file
// ---------------------------------------------------------------------------

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The weights file's text: header indented, one intent's row per line. */
function serialise(data: IntentWeightsData): string {
  const { weights, features, intents, ...head } = data;
  const headText = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${headText},\n  "intents": ${JSON.stringify(intents)},\n  "features": ${JSON.stringify(features)},\n  "weights": [\n${weights.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`;
}

// ---------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------

const pct = (x: number): string => x.toFixed(3);
const LANGS: readonly IntentLang[] = ['en', 'es', 'zh-Hans', 'zh-Hant'];

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const doTrain = argv.includes('--train');
  const k = quick ? 3 : 5;

  const corpus = intentCorpus();
  const ctx = { corpus, entities: EntityIndex.build(corpus).index };
  const questions = intentQuestions(PER_TEMPLATE, SEED);
  const rows: Row[] = questions.map((q) => {
    const obs = observe(q.question, q.itemId, q.session, ctx);
    return { q, obs, sample: sampleOf(obs.features, q.intent), hand: cascade(obs.evidence) };
  });
  const templates = new Set(questions.map((q) => q.template)).size;
  process.stdout.write(`${rows.length} questions from ${templates} template groups; ${k} folds\n`);

  const grid = quick ? [L2_QUICK] : L2_GRID;
  const runs = grid.map((l2) => {
    const r = crossValidate(rows, k, l2);
    process.stdout.write(`l2 ${l2}: cross-validated accuracy ${pct(r.accuracy)}\n`);
    return r;
  });
  const cv = runs.reduce((a, b) => (b.accuracy > a.accuracy ? b : a));
  const handAcc = rows.filter((r) => r.hand === r.q.intent).length / rows.length;

  const perLang = LANGS.map((lang) => {
    const idx = rows.map((r, i) => (r.q.lang === lang ? i : -1)).filter((i) => i >= 0);
    const learned = idx.filter((i) => cv.learned[i] === rows[i]!.q.intent).length / idx.length;
    const hand = idx.filter((i) => rows[i]!.hand === rows[i]!.q.intent).length / idx.length;
    return { lang, n: idx.length, templates: new Set(idx.map((i) => rows[i]!.q.template)).size, learned, hand };
  });
  const perIntent = INTENTS.map((intent) => {
    const idx = rows.map((r, i) => (r.q.intent === intent ? i : -1)).filter((i) => i >= 0);
    return { intent, n: idx.length, learned: idx.filter((i) => cv.learned[i] === intent).length / idx.length, hand: idx.filter((i) => rows[i]!.hand === intent).length / idx.length };
  });
  const confusion = new Map<string, number>();
  rows.forEach((r, i) => confusion.set(`${r.q.intent}→${cv.learned[i]}`, (confusion.get(`${r.q.intent}→${cv.learned[i]}`) ?? 0) + 1));
  // Held-out misses by template and language: how many, and one example.
  const missGroups = new Map<string, { n: number; of: number; example: string }>();
  rows.forEach((r, i) => {
    const key = `${r.q.template} ${r.q.lang}`;
    const g = missGroups.get(key) ?? { n: 0, of: 0, example: '' };
    g.of++;
    if (cv.learned[i] !== r.q.intent) {
      g.n++;
      if (!g.example) g.example = `${r.q.question} → ${cv.learned[i]} (${r.q.scope})`;
    }
    missGroups.set(key, g);
  });
  const heldOutMisses = [...missGroups].filter(([, g]) => g.n).sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0])).map(([key, g]) => `- ${key}: ${g.n}/${g.of}, e.g. ${g.example}`);

  // Train on everything and (with --train) write the shipped weights.
  const weightsPath = path.join(REPO, SHIPPED_INTENT_WEIGHTS_FILE);
  if (doTrain) {
    const w = train(rows.map((r) => r.sample), cv.l2);
    const current = JSON.parse(await readFile(weightsPath, 'utf8')) as IntentWeightsData;
    const weights = INTENTS.map((_, kk) => INTENT_FEATURES.map((_f, j) => round(w[kk * INTENT_FEATURES.length + j]!)));
    const same = JSON.stringify(current.weights) === JSON.stringify(weights) && JSON.stringify(current.features) === JSON.stringify(INTENT_FEATURES);
    const data: IntentWeightsData = {
      format: 'marker-research/intent-weights',
      version: same ? current.version : current.version + 1,
      trained: { labels: 'test/support/intentQuestions.ts', questions: rows.length, templates, epochs: EPOCHS, l2: cv.l2, learningRate: LEARNING_RATE },
      intents: [...INTENTS],
      features: [...INTENT_FEATURES],
      weights,
    };
    intentModel(data);
    await writeFile(weightsPath, serialise(data));
    process.stdout.write(`wrote ${SHIPPED_INTENT_WEIGHTS_FILE} (version ${data.version}${same ? ', unchanged' : ''}); rerun without --train to measure the written weights\n`);
  }
  const shippedData = JSON.parse(readFileSync(weightsPath, 'utf8')) as IntentWeightsData;
  const shippedOnSet = rows.filter((r) => r.obs.shipped === r.q.intent).length / rows.length;

  // Dev ask.jsonl and the probes, with the shipped weights.
  const cache = new Map<string, { corpus: Corpus; entities: EntityIndex }>();
  const dev: Measured[] = [];
  for (const name of DEV_CORPORA) {
    const root = await requireCorpus(name);
    const { labels } = await readAskLabels(root);
    const c = await loaded(name, cache);
    dev.push(measure(name, labels.map((l) => ({ query: l.query, itemId: l.item_id ?? undefined, session: l.session, intent: l.intent })), () => c));
  }
  const probeRows = readFileSync(path.join(__dirname, 'askProbes.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { corpus: string; item_id: string | null; session: string[]; query: string; intent: Intent });
  const probeCtx: { corpus: Corpus; entities: EntityIndex }[] = [];
  for (const p of probeRows) probeCtx.push(await loaded(p.corpus, cache));
  const probes = measure('probes', probeRows.map((p) => ({ query: p.query, itemId: p.item_id ?? undefined, session: p.session, intent: p.intent })), (i) => probeCtx[i]!);
  const devN = dev.reduce((a, d) => a + d.n, 0);
  const devLearned = dev.reduce((a, d) => a + d.learned, 0) / devN;
  const devHand = dev.reduce((a, d) => a + d.hand, 0) / devN;

  const better = cv.accuracy >= handAcc ? 'learned' : 'hand';
  const lines = [
    '# Intent from evidence (issue 23)',
    '',
    `Labelled set: ${rows.length} generated questions from ${templates} template groups (test/support/intentQuestions.ts; en, es, zh-Hans, zh-Hant; none from the dev ask.jsonl).`,
    `Cross-validation by template group: ${k} folds (a fold's test templates are never in its training); L2 ${grid.length > 1 ? `chosen from ${grid.join(', ')} → ${cv.l2}` : cv.l2}.`,
    `Shipped weights: ${SHIPPED_INTENT_WEIGHTS_FILE} version ${shippedData.version} (trained on ${shippedData.trained.questions} questions, L2 ${shippedData.trained.l2}).`,
    '',
    '| language | questions | templates | learned (held-out) | hand (cue cascade) |',
    '|---|---|---|---|---|',
    ...perLang.map((l) => `| ${l.lang} | ${l.n} | ${l.templates} | ${pct(l.learned)} | ${pct(l.hand)} |`),
    `| all | ${rows.length} | ${templates} | ${report.check(`cross-validated intent accuracy by template group (learned) ≥ ${TARGET}`, cv.accuracy >= TARGET, pct(cv.accuracy))} | ${pct(handAcc)} |`,
    '',
    `Kept: **${better}** (${better === 'learned' ? 'the learned weights score better on the same folds; the product scores with them' : 'the hand cascade scores better'}).`,
    '',
    '| intent | questions | learned | hand |',
    '|---|---|---|---|',
    ...perIntent.map((p) => `| ${p.intent} | ${p.n} | ${pct(p.learned)} | ${pct(p.hand)} |`),
    '',
    'Confusion of the held-out predictions (rows: label; columns: learned):',
    '',
    `| label \\ predicted | ${INTENTS.map((i) => i.replace('_', ' ')).join(' | ')} |`,
    `|---|${INTENTS.map(() => '---').join('|')}|`,
    ...INTENTS.map((a) => `| ${a} | ${INTENTS.map((b) => confusion.get(`${a}→${b}`) ?? 0).join(' | ')} |`),
    '',
    'With the shipped weights (never trained on these):',
    '',
    '| set | questions | learned | hand |',
    '|---|---|---|---|',
    ...dev.map((d) => `| dev ${d.name} ask.jsonl | ${d.n} | ${pct(d.learned / d.n)} | ${pct(d.hand / d.n)} |`),
    `| dev, all | ${devN} | ${report.check(`dev ask.jsonl intent accuracy (shipped weights) ≥ ${TARGET}`, devLearned >= TARGET, pct(devLearned))} | ${pct(devHand)} |`,
    `| bench/askProbes.jsonl | ${probes.n} | ${pct(probes.learned / probes.n)} | ${pct(probes.hand / probes.n)} |`,
    `| the labelled set itself (training fit) | ${rows.length} | ${pct(shippedOnSet)} | ${pct(handAcc)} |`,
    '',
    ...([...dev.flatMap((d) => d.missed), ...probes.missed].length ? ['Missed with the shipped weights:', ...dev.flatMap((d) => d.missed), ...probes.missed, ''] : []),
    `Held-out misses by template and language (${heldOutMisses.length} of ${missGroups.size}; first 60):`,
    ...heldOutMisses.slice(0, 60),
    '',
  ];
  report.note(`hand cascade on the same folds: ${pct(handAcc)}; kept: ${better}`);
  await writeBenchResult('intent.md', lines.join('\n'));
  process.stdout.write(lines.slice(0, 40).join('\n'));
}

void runBench('intent', bench);
