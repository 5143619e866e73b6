/**
 * Spam in the audience's voice: `node --import tsx bench/spamQuality.ts [--report-only]`.
 *
 * On a fresh copy of yt-spam-en-dev (labels: the `spam` field of each comments.jsonl, read by the
 * bench itself through scripts/spamLabels.ts) it measures the detector the way unseen videos meet
 * it, leave-one-video-out: for each video, the learned model is trained here, on the other videos'
 * labels only (src/core/markers/spamTrain.ts, the shipped defaults), and the video is judged alone
 * with it (rules + model, src/core/markers/spam.ts). Per video and pooled:
 *  - spam precision and recall against the labels (targets ≥ 0.95 and ≥ 0.90), beside the rules
 *    alone (no model) and the shipped model judged on the data it was trained on (no target);
 *  - the share of comment markers (facts, opinions, data, engagement of the extractive comments
 *    pass) whose evidence lies in a comment labelled spam — before (filtering off) and after
 *    (target ≤ 5 %);
 *  - the share of an offline report's comment citations that rest on a comment labelled spam: the
 *    video as a corpus of its own, spam decided with the fold's model, extractive markers, and two
 *    offline research runs (an automatic goal and a goal about the viewers) (target ≤ 5 %);
 * and on yt-podcast-es-dev (real Spanish comments, almost no spam, never trained on) the share of
 * comments the shipped detector flags (target ≤ 2 %), the flagged ones printed to be looked at.
 * A missing corpus is an error (exit 1). Writes bench/results/spamQuality.json and .md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { CorpusItem } from '../src/core/corpus/types';
import { extractComments } from '../src/core/markers/extractiveComments';
import { generateMarkers } from '../src/core/markers/generate';
import { TopicStats, topicCandidates } from '../src/core/markers/keyphrases';
import type { CommentsSummary, Marker } from '../src/core/markers/schema';
import { detectSpam, spamInputOf, type SpamDecision } from '../src/core/markers/spam';
import { corpusSpam } from '../src/core/markers/spamFree';
import { SpamModel, shippedSpamModel } from '../src/core/markers/spamModel';
import { trainSpamModel } from '../src/core/markers/spamTrain';
import { readRun, runResearch } from '../src/core/research/pipeline';
import { readSpamLabels, type LabelledRow } from '../scripts/spamLabels';
import { BenchError, copyCorpus, copyDevCorpus, REPO, runBench, type BenchReport } from './benchSupport';

const PROMPTS = path.join(REPO, 'prompts');
/** The offline research goals run on each held-out video. */
const GOALS = ['auto', 'What do the viewers say about this video?'] as const;

const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);
const ratio = (a: number, b: number): number => (b ? a / b : 0);

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
const counts = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
const precision = (c: Counts): number => c.tp / (c.tp + c.fp);
const recall = (c: Counts): number => c.tp / (c.tp + c.fn);
const add = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });

/** Precision/recall counts of a decision against the labels of one item's comments. */
function score(item: CorpusItem, d: SpamDecision | undefined, labels: ReadonlyMap<string, boolean>, misses?: string[], alarms?: string[]): Counts {
  const c = counts();
  for (const x of item.comments?.comments ?? []) {
    const gold = labels.get(x.id);
    if (gold === undefined) continue;
    const flagged = d?.ids.has(x.id) ?? false;
    if (flagged && gold) c.tp++;
    else if (flagged) {
      c.fp++;
      alarms?.push(`${x.text.slice(0, 90).replace(/\s+/g, ' ')}  [${d!.reasons.get(x.id)!.join(', ')}]`);
    } else if (gold) {
      c.fn++;
      misses?.push(`${x.text.slice(0, 90).replace(/\s+/g, ' ')}  {score ${d?.scores.get(x.id) ?? 0}}`);
    }
  }
  return c;
}

function commentMarkers(s: CommentsSummary): Marker[] {
  return [...s.key_facts_from_comments, ...s.key_opinions_from_comments, ...s.key_datapoints_from_comments, ...s.top_engagement_markers];
}

/** The ids of the comments a span of the comments part lies in, by the offsets of the loaded comments. */
function commentsIn(item: CorpusItem, start: number, end: number): string[] {
  return (item.comments?.comments ?? []).filter((x) => start < x.offset + x.text.length && end > x.offset).map((x) => x.id);
}

/** Comment markers of an item and how many rest on a comment labelled spam, with spam excluded or not. */
function markersOnSpam(item: CorpusItem, spam: SpamDecision, labels: ReadonlyMap<string, boolean>, excludeSpam: boolean, examples: string[]): { markers: number; onSpam: number } {
  const stats = new TopicStats();
  stats.addDocument(topicCandidates(item.comments?.text ?? ''));
  const r = extractComments(item, stats, { spam, excludeSpam });
  let markers = 0;
  let onSpam = 0;
  for (const m of r ? commentMarkers(r.summary) : []) {
    markers++;
    if (m.evidence.some((ev) => ev.part === 'comments' && commentsIn(item, ev.start, ev.end).some((id) => labels.get(id)))) {
      onSpam++;
      if (examples.length < 5) examples.push(`${m.kind}: ${m.text.slice(0, 100)}`);
    }
  }
  return { markers, onSpam };
}

/** The held-out video as a corpus of its own: spam decided with the fold's model, extractive markers, offline research; its report's comment citations. */
async function reportCitations(enDir: string, video: string, work: string, model: SpamModel, labels: ReadonlyMap<string, boolean>, examples: string[]): Promise<{ citations: number; onSpam: number }> {
  const dir = path.join(work, `fold-${video}`);
  await copyCorpus(path.join(enDir, video), path.join(dir, video));
  const corpus = await loadCorpus(dir);
  const decided = corpusSpam(corpus, { model });
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  let citations = 0;
  let onSpam = 0;
  for (const goal of GOALS) {
    const r = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal, complexity: 'medium' });
    const run = await readRun(corpus.root, r.runId);
    for (const c of run.sources?.citations ?? []) {
      if (c.span.part !== 'comments') continue;
      const item = corpus.items.find((i) => i.id === c.span.item_id);
      if (!item) continue;
      citations++;
      if (commentsIn(item, c.span.start, c.span.end).some((id) => labels.get(id))) {
        onSpam++;
        if (examples.length < 5) examples.push(`${video}: ${item.comments!.text.slice(c.span.start, c.span.end).slice(0, 100).replace(/\s+/g, ' ')}`);
      }
    }
  }
  // The fold's decision must be the one the run read (not the shipped model's, trained on this very video).
  if (corpusSpam(corpus) !== decided) throw new BenchError(`spamQuality: the research run on ${video} did not read the fold's spam decision`);
  return { citations, onSpam };
}

interface Fold {
  video: string;
  comments: number;
  spam: number;
  lovo: Counts;
  rules: Counts;
  markers: { before: { markers: number; onSpam: number }; after: { markers: number; onSpam: number } };
  report: { citations: number; onSpam: number };
}

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-spam-'));
  try {
    // --- yt-spam-en-dev: leave one video out -----------------------------------------------------
    const enDir = await copyDevCorpus('yt-spam-en-dev', work);
    const rows: LabelledRow[] = await readSpamLabels(enDir);
    if (!rows.length) throw new BenchError(`no spam labels found under ${enDir}`);
    const labels = new Map(rows.map((r) => [r.id, r.spam]));
    const en = await loadCorpus(enDir);
    const videos = [...new Set(rows.map((r) => r.item))];
    const folds: Fold[] = [];
    const misses: string[] = [];
    const alarms: string[] = [];
    const markerExamples: string[] = [];
    const citationExamples: string[] = [];
    for (const video of videos) {
      const item = en.items.find((i) => i.id === video);
      const input = item && spamInputOf(item);
      if (!item || !input) throw new BenchError(`yt-spam-en-dev: labelled item ${video} has no comments in the loaded corpus`);
      const model = new SpamModel(trainSpamModel(rows.filter((r) => r.item !== video), { labels: `yt-spam-en-dev without ${video}` }));
      const decision = detectSpam([input], { model }).get(video)!;
      const rulesOnly = detectSpam([input], { model: null }).get(video)!;
      const heldOut = rows.filter((r) => r.item === video);
      folds.push({
        video,
        comments: heldOut.length,
        spam: heldOut.filter((r) => r.spam).length,
        lovo: score(item, decision, labels, misses, alarms),
        rules: score(item, rulesOnly, labels),
        markers: { before: markersOnSpam(item, decision, labels, false, []), after: markersOnSpam(item, decision, labels, true, markerExamples) },
        report: await reportCitations(enDir, video, work, model, labels, citationExamples),
      });
    }
    const pooled = folds.reduce((a, f) => add(a, f.lovo), counts());
    const pooledRules = folds.reduce((a, f) => add(a, f.rules), counts());
    const sum = (pick: (f: Fold) => number): number => folds.reduce((a, f) => a + pick(f), 0);
    const markersBefore = ratio(sum((f) => f.markers.before.onSpam), sum((f) => f.markers.before.markers));
    const markersAfter = ratio(sum((f) => f.markers.after.onSpam), sum((f) => f.markers.after.markers));
    const citationShare = ratio(sum((f) => f.report.onSpam), sum((f) => f.report.citations));
    // The shipped model on the data it was trained on: an upper bound, no target.
    const shipped = corpusSpam(en, { model: shippedSpamModel() });
    const inSample = en.items.reduce((a, i) => add(a, score(i, shipped.get(i.id), labels)), counts());

    // --- yt-podcast-es-dev: how much real, mostly genuine Spanish comment traffic is flagged ---------
    const esDir = await copyDevCorpus('yt-podcast-es-dev', work);
    const es = await loadCorpus(esDir);
    const esSpam = corpusSpam(es);
    const esTotal = es.items.reduce((a, i) => a + (i.comments?.comments.length ?? 0), 0);
    const esFlagged: string[] = [];
    for (const item of es.items) for (const c of item.comments?.comments ?? []) if (esSpam.get(item.id)?.ids.has(c.id)) esFlagged.push(`${c.text.slice(0, 110).replace(/\s+/g, ' ')}  [${esSpam.get(item.id)!.reasons.get(c.id)!.join(', ')}]`);
    const esShare = ratio(esFlagged.length, esTotal);

    const row = (f: Fold): string =>
      `| ${f.video} | ${f.comments} (${f.spam} spam) | ${report.check(`LOVO ${f.video}: spam precision ≥ 0.95`, precision(f.lovo) >= 0.95, precision(f.lovo).toFixed(3))} | ${report.check(`LOVO ${f.video}: spam recall ≥ 0.90`, recall(f.lovo) >= 0.9, recall(f.lovo).toFixed(3))} | ${precision(f.rules).toFixed(3)} / ${recall(f.rules).toFixed(3)} | ${pct(ratio(f.markers.before.onSpam, f.markers.before.markers))} → ${pct(ratio(f.markers.after.onSpam, f.markers.after.markers))} (${f.markers.after.onSpam}/${f.markers.after.markers}) | ${pct(ratio(f.report.onSpam, f.report.citations))} (${f.report.onSpam}/${f.report.citations}) |`;
    const lines = [
      `yt-spam-en-dev, leave one video out: the model is trained on the other videos' labels, the video judged alone (rules + model).`,
      '',
      '| held-out video | labelled comments | precision | recall | rules alone: P / R | comment markers on spam: filtering off → on | offline report: comment citations on spam |',
      '|---|---|---|---|---|---|---|',
      ...folds.map(row),
      `| pooled | ${sum((f) => f.comments)} (${sum((f) => f.spam)} spam) | ${report.check('LOVO pooled: spam precision ≥ 0.95', precision(pooled) >= 0.95, precision(pooled).toFixed(3))} | ${report.check('LOVO pooled: spam recall ≥ 0.90', recall(pooled) >= 0.9, recall(pooled).toFixed(3))} | ${precision(pooledRules).toFixed(3)} / ${recall(pooledRules).toFixed(3)} | ${pct(markersBefore)} → ${report.check('LOVO pooled: comment markers on spam ≤ 5 %', markersAfter <= 0.05, pct(markersAfter))} | ${report.check('LOVO pooled: offline report comment citations on spam ≤ 5 %', citationShare <= 0.05, pct(citationShare))} (${sum((f) => f.report.onSpam)}/${sum((f) => f.report.citations)}) |`,
      '',
      '| measure | value |',
      '|---|---|',
      `| shipped model on the corpus it was trained on (no target): precision / recall | ${precision(inSample).toFixed(3)} / ${recall(inSample).toFixed(3)} |`,
      `| yt-podcast-es-dev comments flagged (shipped detector) | ${report.check('yt-podcast-es-dev: comments flagged as spam ≤ 2 %', esShare <= 0.02, pct(esShare))} (${esFlagged.length}/${esTotal}) |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (markerExamples.length) process.stdout.write(`\nmarkers on spam (filtering on):\n${markerExamples.map((e) => `  ${e}`).join('\n')}\n`);
    if (citationExamples.length) process.stdout.write(`\nreport citations on spam:\n${citationExamples.map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nfalse alarms, leave one video out (${alarms.length}):\n${alarms.slice(0, 10).map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nmissed spam, leave one video out (${misses.length}, first 15):\n${misses.slice(0, 15).map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nflagged in yt-podcast-es-dev (${esFlagged.length}):\n${esFlagged.slice(0, 20).map((e) => `  ${e}`).join('\n')}\n`);

    const out = path.join(REPO, 'bench', 'results');
    await mkdir(out, { recursive: true });
    const figures = {
      lovo: { folds, pooled: { ...pooled, precision: precision(pooled), recall: recall(pooled) }, rulesOnly: { ...pooledRules, precision: precision(pooledRules), recall: recall(pooledRules) } },
      markersOnSpam: { before: markersBefore, after: markersAfter },
      reportCitationsOnSpam: citationShare,
      inSample: { ...inSample, precision: precision(inSample), recall: recall(inSample) },
      es: { flagged: esFlagged.length, total: esTotal, share: esShare, examples: esFlagged },
    };
    await writeFile(path.join(out, 'spamQuality.json'), `${JSON.stringify(figures, null, 2)}\n`);
    await writeFile(path.join(out, 'spamQuality.md'), `# Spam in comments\n\n${lines.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('spamQuality', body);
