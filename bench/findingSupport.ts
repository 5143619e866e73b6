/**
 * The content-overlap threshold of the finding support check (`src/core/research/findingSupport.ts`,
 * issue 20), measured: `node --import tsx bench/findingSupport.ts [--report-only]`.
 *
 * Stand-ins for a model's findings, from the dev corpora with gold query spans (qmsum-dev, English;
 * vcsum-zh-dev, Chinese), read from fresh copies:
 *  - **abstractive**: each sentence of a human-written gold answer (`queries.jsonl`), against its
 *    gold turns — as a model paraphrases what it was served;
 *  - **extractive**: each extractive marker's text against its evidence span;
 * and each of them against a **random** span of the same number of turns from another item of the
 * same corpus (a claim that has nothing to do with what it cites). Spans are read as a step serves
 * them: at most {@link WINDOW} turns, the gold (or random) range cut to the window that shares most
 * with the sentence (the same rule for both, so the random side gets the same chance). The turns'
 * speakers count as labels, as in the product.
 *
 * For each threshold: the share of real sentences below it (would be marked unsupported wrongly)
 * and the share of random pairings at or above it (would pass). Also: the share of gold answer
 * sentences whose numbers are not in their whole gold range (the number rule on human paraphrase).
 * Target: at the product's {@link MIN_CONTENT_OVERLAP}, at most 10 % of abstractive sentences are
 * below it and at least 85 % of random pairings are, on each corpus.
 * Writes bench/results/findingSupport.md.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { CorpusItem, TranscriptSegment } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import type { Marker } from '../src/core/markers/schema';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { contentOverlap, judgeFinding, MIN_CONTENT_OVERLAP } from '../src/core/research/findingSupport';
import { findNumbers } from '../src/core/text/spokenNumbers';
import { rng } from '../test/support/testing';
import { copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

/** Turns of a served passage at most (a `by_topic` passage or a marker's context is a few turns; a chunk more). */
const WINDOW = 12;
const THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5];
const CORPORA = ['qmsum-dev', 'vcsum-zh-dev'] as const;
const MAX_MARKERS = 600;

interface Query {
  item_id: string;
  answer: string;
  relevant_turn_ranges: [number, number][];
}

/** Sentence ends: . ! ? followed by a space (not the point of "0.59"), or a CJK end or semicolon. */
const SENTENCE_END = /(?<=[.!?;])\s+|(?<=[。！？；])|\n+/u;

function sentences(text: string): string[] {
  return text.split(SENTENCE_END).map((s) => s.trim()).filter((s) => [...s].length >= 12);
}

function segs(item: CorpusItem): TranscriptSegment[] {
  return item.transcript?.segments ?? [];
}

/** Text and speakers of turns [a, b] (inclusive). */
function turnsText(item: CorpusItem, a: number, b: number): string[] {
  const ss = segs(item).slice(a, b + 1);
  return [ss.map((s) => s.text).join('\n'), [...new Set(ss.map((s) => s.speaker ?? ''))].join(' ')];
}

/** The best overlap of `sentence` with a window of at most WINDOW turns inside turns [a, b]. */
function bestWindow(sentence: string, item: CorpusItem, a: number, b: number): number {
  let best = 0;
  const step = Math.max(1, WINDOW >> 1);
  for (let s = a; s <= b; s += step) {
    const e = Math.min(b, s + WINDOW - 1);
    const o = contentOverlap(sentence, turnsText(item, s, e));
    if (o.overlap > best) best = o.overlap;
    if (e === b) break;
  }
  return best;
}

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)} %` : '-';
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
}

interface Measured {
  corpus: string;
  kind: 'abstractive' | 'extractive';
  real: number[];
  random: number[];
}

void runBench('findingSupport', async (report) => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-finding-support-'));
  const measured: Measured[] = [];
  const numberLines: string[] = [];
  try {
    for (const name of CORPORA) {
      const dir = await copyDevCorpus(name, work);
      const corpus = await loadCorpus(dir);
      const items = corpus.items.filter((i) => segs(i).length > 0);
      const byId = new Map(items.map((i) => [i.id, i]));
      const random = rng(20);
      const other = (id: string): CorpusItem => {
        const rest = items.filter((i) => i.id !== id);
        return rest[Math.floor(random() * rest.length)]!;
      };
      const queries = (await readFile(path.join(dir, 'queries.jsonl'), 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Query);
      const abs: Measured = { corpus: name, kind: 'abstractive', real: [], random: [] };
      let withNumbers = 0;
      let numbersMissing = 0;
      let total = 0;
      for (const q of queries) {
        const item = byId.get(q.item_id);
        if (!item) continue;
        for (const s of sentences(q.answer)) {
          total++;
          for (const [a, b] of q.relevant_turn_ranges.slice(0, 1)) {
            abs.real.push(bestWindow(s, item, a, b));
            const o = other(item.id);
            const n = Math.min(b - a + 1, segs(o).length);
            const start = Math.floor(random() * (segs(o).length - n + 1));
            abs.random.push(bestWindow(s, o, start, start + n - 1));
          }
          const [text, labels] = q.relevant_turn_ranges.reduce<[string, string]>((acc, [a, b]) => {
            const [t, l] = turnsText(item, a, b);
            return [`${acc[0]}\n${t}`, `${acc[1]} ${l}`];
          }, ['', '']);
          const v = judgeFinding(s, [{ text, labels }]);
          if (findNumbers(s).length) withNumbers++;
          if (v.reason === 'numbers_not_in_sources') numbersMissing++;
        }
      }
      measured.push(abs);
      numberLines.push(`| ${name} | ${total} | ${withNumbers} | ${numbersMissing} (${pct(numbersMissing, total)}) |`);

      await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      const ext: Measured = { corpus: name, kind: 'extractive', real: [], random: [] };
      const all: { itemId: string; marker: Marker }[] = [];
      for (const item of items) {
        const r = await readItemMarkers(dir, item.id);
        if (r.ok) for (const marker of allMarkers(r.value)) if (marker.evidence[0]?.part === 'transcript') all.push({ itemId: item.id, marker });
      }
      const pick = all.length > MAX_MARKERS ? all.filter((_, i) => i % Math.ceil(all.length / MAX_MARKERS) === 0) : all;
      for (const { itemId, marker } of pick) {
        const item = byId.get(itemId);
        const ev = marker.evidence[0]!;
        if (!item?.transcript) continue;
        ext.real.push(contentOverlap(marker.text, [item.transcript.text.slice(ev.start, ev.end)]).overlap);
        const o = other(itemId);
        const len = ev.end - ev.start;
        const at = Math.floor(random() * Math.max(1, o.transcript!.text.length - len));
        ext.random.push(contentOverlap(marker.text, [o.transcript!.text.slice(at, at + len)]).overlap);
      }
      measured.push(ext);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const lines: string[] = [
    '# Finding support: content overlap of real and random pairings',
    '',
    `Command: \`node --import tsx bench/findingSupport.ts\`. Spans: at most ${WINDOW} turns (the best window of the gold or random range). Threshold in the product: ${MIN_CONTENT_OVERLAP}.`,
    '',
    '| corpus | findings | n | real p10 / p25 / median | random median / p90 / p95 |',
    '|---|---|---|---|---|',
    ...measured.map((m) => `| ${m.corpus} | ${m.kind} | ${m.real.length} | ${quantile(m.real, 0.1).toFixed(2)} / ${quantile(m.real, 0.25).toFixed(2)} / ${quantile(m.real, 0.5).toFixed(2)} | ${quantile(m.random, 0.5).toFixed(2)} / ${quantile(m.random, 0.9).toFixed(2)} / ${quantile(m.random, 0.95).toFixed(2)} |`),
    '',
    'Per threshold: real findings below it (marked unsupported wrongly) · random pairings at or above it (passed wrongly).',
    '',
    `| threshold | ${measured.map((m) => `${m.corpus} ${m.kind}`).join(' | ')} |`,
    `|---|${measured.map(() => '---').join('|')}|`,
    ...THRESHOLDS.map((t) => `| ${t} | ${measured.map((m) => `${pct(m.real.filter((x) => x < t).length, m.real.length)} · ${pct(m.random.filter((x) => x >= t).length, m.random.length)}`).join(' | ')} |`),
    '',
    'The number rule on gold answer sentences against their whole gold range:',
    '',
    '| corpus | sentences | with a number | numbers not in the range |',
    '|---|---|---|---|',
    ...numberLines,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await writeBenchResult('findingSupport.md', lines.join('\n'));
  for (const m of measured.filter((x) => x.kind === 'abstractive')) {
    const wrong = m.real.filter((x) => x < MIN_CONTENT_OVERLAP).length / Math.max(1, m.real.length);
    const caught = m.random.filter((x) => x < MIN_CONTENT_OVERLAP).length / Math.max(1, m.random.length);
    report.check(`${m.corpus}: abstractive sentences below ${MIN_CONTENT_OVERLAP} ≤ 10 %`, wrong <= 0.1, `${(wrong * 100).toFixed(1)} %`);
    report.check(`${m.corpus}: random pairings below ${MIN_CONTENT_OVERLAP} ≥ 85 %`, caught >= 0.85, `${(caught * 100).toFixed(1)} %`);
  }
});
