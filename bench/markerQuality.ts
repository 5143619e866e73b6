/**
 * Quality of the offline (extractive) markers on real transcripts:
 * `node --import tsx bench/markerQuality.ts [--report-only]` (part of `npm run bench`).
 *
 * For each dev corpus with transcripts, on a fresh copy, generates extractive markers and measures
 * from the corpus and the stored markers (never from numbers the engine reports about itself):
 *  - density: transcript markers per 1,000 transcript words;
 *  - gold query segments (`queries.jsonl` turn ranges) containing ≥ 1 marker's evidence;
 *  - gold topics (`topics.jsonl`) with ≥ 1 marker in their ranges;
 *  - noise: marker texts with a transcript annotation ({vocalsound}, [Música]), a filler
 *    (uh, um, eh, 嗯, 呃) or a stutter ("the the") — the bench's own patterns;
 *  - DATA markers per item; items with every kind present;
 *  - topics that are stopwords: every topic field (`topic_areas`, comment `major_themes`, each
 *    marker's `topic`, transcript and comments) whose words are all stopwords of the corpus's
 *    language by stopwords-iso (plus English, plus the bench's filler patterns and bare numbers);
 *  - markers (transcript and comments) with fewer than 3 words outside those stopwords.
 * Beside each, the evenly-spaced baseline: the same number of turns per item picked at even
 * intervals. Targets (issue 11) are checked on qmsum-dev; the other corpora are reported. Issue 21's
 * targets (stopword topics ≤ 1 %, markers with < 3 non-stopword words ≤ 1 %) are checked on every
 * dev corpus, the comments-only one included.
 * Writes bench/results/markerQuality.json and .md.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { CorpusItem } from '../src/core/corpus/types';
import { generateMarkers } from '../src/core/markers/generate';
import type { Marker, MarkerKind } from '../src/core/markers/schema';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import stopwordsIso from 'stopwords-iso';
import { copyDevCorpus, DEV_CORPORA, REPO, runBench, type BenchReport } from './benchSupport';

/** Annotation tokens, fillers and stutters, as this bench defines noise (independent of the product's cleaner). */
const NOISE = [
  /\{[a-z_]+\}/i,
  /\[[^\]\n]{1,40}\]/,
  /(?:^|[^\p{L}])(?:uh|um|umm|eh|er|erm|hmm|mm|mhm|uh-huh|ah)(?=$|[^\p{L}])/iu,
  /[嗯呃]/u,
  /(?:^|[^\p{L}])(\p{L}+) \1(?=$|[^\p{L}])/iu,
  /(?:^|[^\p{L}])(nnn|nn)(?=$|[^\p{L}])/iu,
];

export function noisy(text: string): boolean {
  return NOISE.some((re) => re.test(text));
}

/** The language of each dev corpus (from its README), for its stopword list. */
const CORPUS_LANG: Record<string, 'en' | 'es' | 'zh'> = { 'qmsum-dev': 'en', 'vcsum-zh-dev': 'zh', 'yt-podcast-es-dev': 'es', 'yt-spam-en-dev': 'en' };

const ISO = stopwordsIso as Record<string, string[]>;
const foldLatin = (w: string): string => w.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
/** stopwords-iso of a language, plus English (code-switching), folded (case, accents). */
const isoSets = new Map<string, Set<string>>();
function isoStopwords(lang: 'en' | 'es' | 'zh'): Set<string> {
  let set = isoSets.get(lang);
  if (!set) isoSets.set(lang, (set = new Set([...ISO[lang]!, ...ISO['en']!].map((w) => foldLatin(w.normalize('NFKC'))))));
  return set;
}
/** Fillers as this bench's noise patterns define them, for one word. */
const FILLER_WORD = /^(?:u+h+|u+m+|e+r+m*|h+m+|m+h*m+|e+h+|a+h+|uh-huh|mm-hmm|mhm|nnn|nn|[嗯呃啊哦]+)$/u;
const benchSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /\p{Script=Han}/u;

/** The words of a text as this bench counts them: Latin words (hyphens and apostrophes split), CJK by Intl.Segmenter. */
function benchWords(text: string): string[] {
  const out: string[] = [];
  for (const s of benchSegmenter.segment(text.normalize('NFKC').replace(/\{[^}]*\}|\[[^\]]*\]/g, ' '))) {
    if (!s.isWordLike) continue;
    if (HAN.test(s.segment)) out.push(s.segment);
    else out.push(...(s.segment.match(/[\p{L}\p{N}]+/gu) ?? []));
  }
  return out;
}

/** A word that is a stopword of `lang` for this bench: stopwords-iso (and English), a filler, a number. */
function benchStopword(word: string, lang: 'en' | 'es' | 'zh'): boolean {
  const w = foldLatin(word);
  return isoStopwords(lang).has(w) || FILLER_WORD.test(w) || /^\p{N}+$/u.test(w);
}

/** A topic whose words are all stopwords (or that has no word at all). */
export function stopwordTopic(topic: string, lang: 'en' | 'es' | 'zh'): boolean {
  return benchWords(topic).every((w) => benchStopword(w, lang));
}

/** Words of a marker text outside the stopwords of `lang`. */
export function contentWordsOf(text: string, lang: 'en' | 'es' | 'zh'): number {
  return benchWords(text).filter((w) => !benchStopword(w, lang)).length;
}

interface GoldRange {
  item_id: string;
  relevant_turn_ranges: [number, number][];
  topic?: string;
}

async function readJsonl(file: string): Promise<GoldRange[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldRange);
}

/** Turn index (segment index) of each marker's first evidence span. */
function turnsOf(item: CorpusItem, markers: readonly Marker[]): number[] {
  const t = item.transcript!;
  const out: number[] = [];
  for (const m of markers) {
    const ev = m.evidence[0];
    if (!ev || ev.part !== 'transcript') continue;
    // Every turn the span touches counts (a pseudo-sentence may span several caption lines).
    for (const s of t.segments) if (s.offset < ev.end && ev.start < s.offset + s.text.length) out.push(s.index);
  }
  return out;
}

/** `n` turn indices at even intervals over the item's turns. */
function evenTurns(item: CorpusItem, n: number): number[] {
  const segs = item.transcript!.segments;
  if (!segs.length || n <= 0) return [];
  return Array.from({ length: n }, (_, i) => segs[Math.min(segs.length - 1, Math.floor(((i + 0.5) * segs.length) / n))]!.index);
}

function share(ranges: readonly GoldRange[], turns: ReadonlyMap<string, readonly number[]>): number {
  if (!ranges.length) return NaN;
  let hit = 0;
  for (const g of ranges) {
    const ts = turns.get(g.item_id) ?? [];
    if (g.relevant_turn_ranges.some(([a, b]) => ts.some((t) => t >= a && t <= b))) hit++;
  }
  return hit / ranges.length;
}

interface CorpusFigures {
  corpus: string;
  items: number;
  words: number;
  markers: number;
  density: number;
  noise: number;
  noiseExamples: string[];
  dataPerItem: number;
  allKindsItems: number;
  querySegments: number;
  querySegmentsEven: number;
  topics: number;
  topicsEven: number;
  kinds: Record<MarkerKind, number>;
  /** Every topic of every field (each occurrence), and those that are stopwords. */
  topicFields: number;
  stopwordTopics: number;
  stopwordTopicExamples: string[];
  /** Every marker (transcript and comments), and those with fewer than 3 non-stopword words. */
  allMarkers: number;
  thinMarkers: number;
  thinExamples: string[];
}

async function measure(name: string, work: string): Promise<CorpusFigures> {
  const dir = await copyDevCorpus(name, work);
  const corpus = await loadCorpus(dir);
  const report = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  if (report.failed) throw new Error(`${name}: extractive markers failed for ${report.failed} item(s): ${report.items.filter((i) => i.status === 'failed').map((i) => `${i.itemId}: ${i.error}`).join('; ')}`);
  const queries = await readJsonl(path.join(dir, 'queries.jsonl'));
  const topics = await readJsonl(path.join(dir, 'topics.jsonl'));
  const turns = new Map<string, number[]>();
  const even = new Map<string, number[]>();
  let words = 0;
  let markers = 0;
  let noiseCount = 0;
  let data = 0;
  let allKinds = 0;
  let items = 0;
  const noiseExamples: string[] = [];
  const kinds: Record<MarkerKind, number> = { FACT: 0, OPINION: 0, DATA: 0, ENGAGEMENT: 0 };
  const lang = CORPUS_LANG[name] ?? 'en';
  let topicFields = 0;
  let stopwordTopics = 0;
  const stopwordTopicExamples: string[] = [];
  let everyMarker = 0;
  let thinMarkers = 0;
  const thinExamples: string[] = [];
  for (const item of corpus.items) {
    const r = await readItemMarkers(dir, item.id);
    if (!r.ok) throw new Error(`${name}/${item.id}: markers unreadable: ${r.missing ? 'missing' : r.error}`);
    const every = allMarkers(r.value);
    const topicList = [...(r.value.transcript_summary?.topic_areas ?? []), ...(r.value.comments_summary?.major_themes ?? []), ...every.map((m) => m.topic)];
    topicFields += topicList.length;
    for (const t of topicList) {
      if (!stopwordTopic(t, lang)) continue;
      stopwordTopics++;
      if (stopwordTopicExamples.length < 12 && !stopwordTopicExamples.includes(t)) stopwordTopicExamples.push(t);
    }
    everyMarker += every.length;
    for (const m of every) {
      if (contentWordsOf(m.text, lang) >= 3) continue;
      thinMarkers++;
      if (thinExamples.length < 5) thinExamples.push(`${item.id}: ${m.text.slice(0, 120)}`);
    }
    if (!item.transcript) continue;
    items++;
    const ms = allMarkers(r.value).filter((m) => m.evidence[0]?.part === 'transcript');
    words += item.transcript.wordCount;
    markers += ms.length;
    for (const m of ms) {
      kinds[m.kind]++;
      if (noisy(m.text)) {
        noiseCount++;
        if (noiseExamples.length < 5) noiseExamples.push(`${item.id}: ${m.text.slice(0, 120)}`);
      }
    }
    const k = new Set(ms.map((m) => m.kind));
    if (k.has('FACT') && k.has('OPINION') && k.has('DATA')) allKinds++;
    data += ms.filter((m) => m.kind === 'DATA').length;
    turns.set(item.id, turnsOf(item, ms));
    even.set(item.id, evenTurns(item, ms.length));
  }
  return {
    corpus: name,
    items,
    words,
    markers,
    density: words ? (markers * 1000) / words : 0,
    noise: markers ? noiseCount / markers : 0,
    noiseExamples,
    dataPerItem: items ? data / items : 0,
    allKindsItems: allKinds,
    querySegments: share(queries, turns),
    querySegmentsEven: share(queries, even),
    topics: share(topics, turns),
    topicsEven: share(topics, even),
    kinds,
    topicFields,
    stopwordTopics,
    stopwordTopicExamples,
    allMarkers: everyMarker,
    thinMarkers,
    thinExamples,
  };
}

const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-mq-'));
  try {
    const rows: CorpusFigures[] = [];
    for (const name of DEV_CORPORA) {
      const t0 = Date.now();
      const f = await measure(name, work);
      rows.push(f);
      process.stdout.write(`${name}: ${f.items} items with a transcript, ${f.words} words, ${f.markers} transcript markers, ${f.allMarkers} markers in all, in ${Date.now() - t0} ms\n`);
    }
    const transcriptRows = rows.filter((f) => f.items > 0);
    const lines = [
      '| corpus | markers / 1k words | query segments with a marker (even baseline) | gold topics with a marker (even baseline) | noisy marker texts | DATA per item | items with FACT+OPINION+DATA |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const f of transcriptRows) {
      const q = f.corpus === 'qmsum-dev';
      const cell = (label: string, ok: boolean, value: string): string => (q ? report.check(`${f.corpus}: ${label}`, ok, value) : value);
      lines.push(
        `| ${f.corpus} | ${cell('density ≤ 4 markers / 1k words', f.density <= 4, f.density.toFixed(2))} | ${cell('query segments with a marker ≥ 80 %', f.querySegments >= 0.8, pct(f.querySegments))} (${pct(f.querySegmentsEven)}) | ${cell('gold topics with a marker ≥ 95 %', f.topics >= 0.95, pct(f.topics))} (${pct(f.topicsEven)}) | ${cell('noisy marker texts ≤ 2 %', f.noise <= 0.02, pct(f.noise))} | ${f.dataPerItem.toFixed(1)} | ${f.allKindsItems}/${f.items} |`,
      );
    }
    const topicLines = [
      '| corpus | topics that are stopwords (stopwords-iso) | markers with < 3 non-stopword words |',
      '|---|---|---|',
    ];
    for (const f of rows) {
      const st = f.topicFields ? f.stopwordTopics / f.topicFields : 0;
      const thin = f.allMarkers ? f.thinMarkers / f.allMarkers : 0;
      topicLines.push(
        `| ${f.corpus} | ${report.check(`${f.corpus}: stopword topics ≤ 1 %`, st <= 0.01, `${pct(st)} (${f.stopwordTopics}/${f.topicFields})`)} | ${report.check(`${f.corpus}: markers with < 3 non-stopword words ≤ 1 %`, thin <= 0.01, `${pct(thin)} (${f.thinMarkers}/${f.allMarkers})`)} |`,
      );
    }
    lines.push('', ...topicLines);
    process.stdout.write(`\n${lines.join('\n')}\n`);
    for (const f of rows) if (f.stopwordTopicExamples.length) process.stdout.write(`\nstopword topics (${f.corpus}): ${f.stopwordTopicExamples.join(' · ')}\n`);
    for (const f of rows) if (f.thinExamples.length) process.stdout.write(`\nmarkers with < 3 non-stopword words (${f.corpus}):\n${f.thinExamples.map((e) => `  ${e}`).join('\n')}\n`);
    for (const f of rows) if (f.noiseExamples.length) process.stdout.write(`\nnoisy examples (${f.corpus}):\n${f.noiseExamples.map((e) => `  ${e}`).join('\n')}\n`);
    const out = path.join(REPO, 'bench', 'results');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'markerQuality.json'), `${JSON.stringify(rows, null, 2)}\n`);
    await writeFile(path.join(out, 'markerQuality.md'), `# Extractive marker quality\n\n${lines.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('markerQuality', body);
