/**
 * Spam in the audience's voice: `node --import tsx bench/spamQuality.ts [--report-only]`.
 *
 * On a fresh copy of yt-spam-en-dev (labels: the `spam` field of each comments.jsonl, read by the
 * bench itself) it runs the spam detector over the corpus and the extractive comments pass of every
 * item, and measures:
 *  - spam precision and recall against the labels (targets ≥ 0.90 each);
 *  - the share of comment markers (facts, opinions, data, engagement) whose evidence lies in a
 *    comment labelled spam — before (the pass with spam filtering off, as it was before the
 *    detector) and after (target ≤ 5 %); themes before and after are printed;
 *  - on yt-podcast-es-dev (real Spanish comments, almost no spam) the share of comments flagged
 *    (target ≤ 2 %), with the flagged comments printed to be looked at.
 * A missing corpus is an error (exit 1). Writes bench/results/spamQuality.json and .md.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus, CorpusItem } from '../src/core/corpus/types';
import { extractComments } from '../src/core/markers/extractiveComments';
import { TopicStats, topicCandidates } from '../src/core/markers/keyphrases';
import type { CommentsSummary, Marker } from '../src/core/markers/schema';
import { detectCorpusSpam, type SpamDecision } from '../src/core/markers/spam';
import { BenchError, copyDevCorpus, REPO, runBench, type BenchReport } from './benchSupport';

const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);

/** `comment_id` → label, from every `comments.jsonl` under the corpus copy (the bench's own reading). */
async function readLabels(dir: string): Promise<Map<string, boolean>> {
  const labels = new Map<string, boolean>();
  for (const ent of await readdir(dir, { withFileTypes: true })) {
    if (!ent.isDirectory()) continue;
    const file = path.join(dir, ent.name, 'comments.jsonl');
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { comment_id?: string; spam?: number };
      if (typeof row.comment_id === 'string' && (row.spam === 0 || row.spam === 1)) labels.set(row.comment_id, row.spam === 1);
    }
  }
  if (!labels.size) throw new BenchError(`no spam labels found under ${dir}`);
  return labels;
}

/** Document frequencies over the corpus, as the marker generator builds them. */
function topicStats(corpus: Corpus): TopicStats {
  const stats = new TopicStats();
  for (const item of corpus.items) stats.addDocument(topicCandidates(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`));
  return stats;
}

function commentMarkers(s: CommentsSummary): Marker[] {
  return [...s.key_facts_from_comments, ...s.key_opinions_from_comments, ...s.key_datapoints_from_comments, ...s.top_engagement_markers];
}

/** The ids of the comments a marker's evidence lies in, by the offsets of the loaded comments. */
function evidenceComments(item: CorpusItem, m: Marker): string[] {
  const out: string[] = [];
  for (const ev of m.evidence) {
    if (ev.part !== 'comments') continue;
    const c = item.comments?.comments.find((x) => ev.start < x.offset + x.text.length && ev.end > x.offset);
    if (c) out.push(c.id);
  }
  return out;
}

interface PassFigures {
  markers: number;
  onSpam: number;
  examples: string[];
  themes: Record<string, string[]>;
}

function runPass(corpus: Corpus, stats: TopicStats, spam: Map<string, SpamDecision>, labels: Map<string, boolean>, excludeSpam: boolean): PassFigures {
  const f: PassFigures = { markers: 0, onSpam: 0, examples: [], themes: {} };
  for (const item of corpus.items) {
    const r = extractComments(item, stats, { spam: spam.get(item.id), excludeSpam });
    if (!r) continue;
    f.themes[item.id] = r.summary.major_themes;
    for (const m of commentMarkers(r.summary)) {
      f.markers++;
      if (evidenceComments(item, m).some((id) => labels.get(id))) {
        f.onSpam++;
        if (f.examples.length < 5) f.examples.push(`${m.kind}: ${m.text.slice(0, 100)}`);
      }
    }
  }
  return f;
}

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-spam-'));
  try {
    // --- yt-spam-en-dev: detection and the comments pass -----------------------------------------
    const enDir = await copyDevCorpus('yt-spam-en-dev', work);
    const labels = await readLabels(enDir);
    const en = await loadCorpus(enDir);
    const t0 = Date.now();
    const spam = detectCorpusSpam(en.items);
    const detectMs = Date.now() - t0;
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let labelled = 0;
    const misses: string[] = [];
    const falseAlarms: string[] = [];
    for (const item of en.items) {
      for (const c of item.comments?.comments ?? []) {
        const gold = labels.get(c.id);
        if (gold === undefined) continue;
        labelled++;
        const flagged = spam.get(item.id)?.ids.has(c.id) ?? false;
        if (flagged && gold) tp++;
        else if (flagged) {
          fp++;
          falseAlarms.push(`${c.text.slice(0, 90).replace(/\s+/g, ' ')}  [${spam.get(item.id)!.reasons.get(c.id)!.join(', ')}]`);
        } else if (gold) {
          fn++;
          misses.push(c.text.slice(0, 90).replace(/\s+/g, ' '));
        }
      }
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    const stats = topicStats(en);
    const before = runPass(en, stats, spam, labels, false);
    const after = runPass(en, stats, spam, labels, true);
    const shareBefore = before.markers ? before.onSpam / before.markers : 0;
    const shareAfter = after.markers ? after.onSpam / after.markers : 0;

    // --- yt-podcast-es-dev: how much real, mostly genuine Spanish comment traffic is flagged ---------
    const esDir = await copyDevCorpus('yt-podcast-es-dev', work);
    const es = await loadCorpus(esDir);
    const esSpam = detectCorpusSpam(es.items);
    const esTotal = es.items.reduce((a, i) => a + (i.comments?.comments.length ?? 0), 0);
    const esFlagged: string[] = [];
    for (const item of es.items) for (const c of item.comments?.comments ?? []) if (esSpam.get(item.id)?.ids.has(c.id)) esFlagged.push(`${c.text.slice(0, 110).replace(/\s+/g, ' ')}  [${esSpam.get(item.id)!.reasons.get(c.id)!.join(', ')}]`);
    const esShare = esTotal ? esFlagged.length / esTotal : 0;

    const lines = [
      `yt-spam-en-dev: ${en.items.length} items, ${labelled} labelled comments (${tp + fn} spam); detection ${detectMs} ms`,
      '',
      '| measure | value |',
      '|---|---|',
      `| spam precision | ${report.check('yt-spam-en-dev: spam precision ≥ 0.90', precision >= 0.9, precision.toFixed(3))} (${tp} of ${tp + fp} flagged) |`,
      `| spam recall | ${report.check('yt-spam-en-dev: spam recall ≥ 0.90', recall >= 0.9, recall.toFixed(3))} (${tp} of ${tp + fn} spam) |`,
      `| comment markers on a spam comment, before (filtering off) | ${pct(shareBefore)} (${before.onSpam}/${before.markers}) |`,
      `| comment markers on a spam comment, after | ${report.check('yt-spam-en-dev: comment markers on spam ≤ 5 %', shareAfter <= 0.05, pct(shareAfter))} (${after.onSpam}/${after.markers}) |`,
      `| yt-podcast-es-dev comments flagged | ${report.check('yt-podcast-es-dev: comments flagged as spam ≤ 2 %', esShare <= 0.02, pct(esShare))} (${esFlagged.length}/${esTotal}) |`,
    ];
    const themeLines = Object.keys(after.themes).map((id) => `- ${id}: before: ${(before.themes[id] ?? []).join(' · ') || '–'} | after: ${after.themes[id]!.join(' · ') || '–'}`);
    process.stdout.write(`${lines.join('\n')}\n\nthemes:\n${themeLines.join('\n')}\n`);
    if (before.examples.length) process.stdout.write(`\nmarkers on spam before (first ${before.examples.length}):\n${before.examples.map((e) => `  ${e}`).join('\n')}\n`);
    if (after.examples.length) process.stdout.write(`\nmarkers on spam after:\n${after.examples.map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nfalse alarms (${falseAlarms.length}):\n${falseAlarms.slice(0, 10).map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nmissed spam (${misses.length}, first 10):\n${misses.slice(0, 10).map((e) => `  ${e}`).join('\n')}\n`);
    process.stdout.write(`\nflagged in yt-podcast-es-dev (${esFlagged.length}):\n${esFlagged.slice(0, 20).map((e) => `  ${e}`).join('\n')}\n`);

    const out = path.join(REPO, 'bench', 'results');
    await mkdir(out, { recursive: true });
    const figures = { precision, recall, tp, fp, fn, markersOnSpam: { before: { share: shareBefore, ...before }, after: { share: shareAfter, ...after } }, es: { flagged: esFlagged.length, total: esTotal, share: esShare, examples: esFlagged } };
    await writeFile(path.join(out, 'spamQuality.json'), `${JSON.stringify(figures, null, 2)}\n`);
    await writeFile(path.join(out, 'spamQuality.md'), `# Spam in comments (extractive engine)\n\n${lines.join('\n')}\n\nThemes:\n\n${themeLines.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('spamQuality', body);
