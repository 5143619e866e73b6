/**
 * Generated corpora for the across-items tests (issue 24): items in English, Spanish and Chinese
 * (simplified and traditional) built in memory from parts — a transcript of speakers' turns, timed
 * or not, and sometimes comments — with random markers of every kind on random spans, and what is
 * true of them, computed here from how they were made (never by the code under test):
 *
 * - each marker's topic is one spelling of a topic concept: case, spaces, punctuation, accents
 *   (`batería`, `bateria`, `BATERÍA`) and Chinese script (`电池`, `電池`) vary; some concepts are
 *   spelled the same in every language (`YouTube`, `COVID-19`); some markers have no topic;
 * - each marker's turns (from 1) and media times, from the turns its span covers;
 * - each item's date as the calendar day it was written from, in one of several formats (ISO
 *   date-time, ISO date, `YYYYMMDD`, `YYYY年M月D日`, `YYYY/MM/DD`, epoch seconds), or none, or a
 *   value that is no date;
 * - some markers are ungrounded (no span), some items have no marker file;
 * - some transcripts are captions (short speakerless lines without sentence ends, timed or not),
 *   which the readable view shows as paragraphs.
 *
 * Turn and comment texts now and then carry hostile text (a spreadsheet formula, HTML, a Markdown
 * link), and so do some marker texts and topics.
 */
import assert from 'node:assert/strict';
import type { CorpusItem, TranscriptPart } from '../../src/core/corpus/types';
import { layoutFullItem } from '../../src/core/markers/fullItem';
import { MARKER_KINDS, type ItemMarkers, type Marker, type MarkerKind } from '../../src/core/markers/schema';
import { commentsPart, itemOf, transcriptPart, type Turn } from './parts';
import { rng } from './testing';

export type AcrossLang = 'en' | 'es' | 'zh';
export const ACROSS_LANGS: readonly AcrossLang[] = ['en', 'es', 'zh'];

/** A topic concept: its id and the spellings markers use for it (all fold to one key). */
export interface TopicConcept {
  id: string;
  spellings: readonly string[];
}

/** Concepts of each language; `shared` ones occur in every language. */
export const CONCEPTS: Record<AcrossLang | 'shared', readonly TopicConcept[]> = {
  en: [
    { id: 'en-battery', spellings: ['battery', 'Battery', ' BATTERY ', 'battery.'] },
    { id: 'en-bike-lanes', spellings: ['bike lanes', 'Bike  Lanes', 'bike-lanes'] },
    { id: 'en-budget', spellings: ['budget', 'Budget'] },
  ],
  es: [
    { id: 'es-bateria', spellings: ['batería', 'bateria', 'BATERÍA', 'Batería'] },
    { id: 'es-presupuesto', spellings: ['presupuesto', 'Presupuesto'] },
    { id: 'es-carril-bici', spellings: ['carril bici', 'Carril Bici', 'carril-bici'] },
  ],
  zh: [
    { id: 'zh-dianchi', spellings: ['电池', '電池'] },
    { id: 'zh-yusuan', spellings: ['预算', '預算'] },
    { id: 'zh-diandongche', spellings: ['电动车', '電動車', '电 动 车'] },
  ],
  shared: [
    { id: 'youtube', spellings: ['YouTube', 'youtube', 'ＹｏｕＴｕｂｅ'] },
    { id: 'covid', spellings: ['COVID-19', 'covid 19', 'Covid-19'] },
  ],
};

/** Concept id of markers without a topic. */
export const NO_TOPIC = '';

const SENTENCES: Record<AcrossLang, readonly string[]> = {
  en: ['We looked at the schedule for the next prototype .', 'The drawings from the factory arrived late again .', 'Customers asked about the warranty .', 'Shipping gets slower every winter .'],
  es: ['Revisamos el calendario del próximo prototipo .', 'Los planos llegaron tarde otra vez .', 'Los clientes preguntaron por la garantía .', 'Los envíos van más lentos en invierno .'],
  zh: ['我们周一看了下一个样机的排期。', '工厂的图纸又来晚了。', '店裡的顧客問了保修的條件。', '冬天仓库发货越来越慢。'],
};
const SPEAKERS: Record<AcrossLang, readonly string[]> = { en: ['Daniel', 'Laura', 'Project Manager'], es: ['Marta', 'Lucía', 'Andrés'], zh: ['张三', '李四', '趙六'] };

/** Text a spreadsheet, an HTML page or a Markdown reader would act on, if it were not escaped. */
export const HOSTILE = ['=cmd|\' /C calc\'!A0', '+HYPERLINK("http://evil.example","x")', '<script>alert(1)</script>', '[free bike](javascript:alert(1))', '@SUM(1+1)*cmd|x', '<img src=x onerror=alert(1)>'];

/** What is true of one generated marker. */
export interface MarkerTruth {
  itemId: string;
  markerId: string;
  kind: MarkerKind;
  part: 'transcript' | 'comments';
  /** Concept id ({@link NO_TOPIC} for none). */
  concept: string;
  topic: string;
  grounded: boolean;
  /** First and last turn of the span, from 1 (null for comments and ungrounded markers). */
  turn: number | null;
  turnEnd: number | null;
  startTime: number | null;
  endTime: number | null;
  /** The item's transcript is captions. */
  caption: boolean;
  /** Offsets of the span in the part's text (null when ungrounded). */
  start: number | null;
  end: number | null;
  /** One-based line of the span's start in the original file. */
  line: number | null;
  file: string | null;
  text: string;
}

/** What is true of one generated item. */
export interface ItemTruth {
  itemId: string;
  lang: AcrossLang;
  /** The day its date was written from, or null (no date, or a value that is no date). */
  day: string | null;
  /** The date as the metadata has it (null when the item has none). */
  raw: string | null;
  hasMarkers: boolean;
  timed: boolean;
  caption: boolean;
}

export interface AcrossCorpusOptions {
  seed: number;
  items?: number;
  /** Days from the first possible date to the last (default 400). */
  spanDays?: number;
  /** First possible date (default 2023-01-01). */
  from?: string;
  /** Share of items without a date (default 0.25). */
  undated?: number;
  /** Share of items whose transcript is captions (default 0.25). */
  captions?: number;
}

export interface GeneratedAcrossCorpus {
  root: string;
  items: CorpusItem[];
  markers: Map<string, ItemMarkers>;
  truth: { items: ItemTruth[]; markers: MarkerTruth[] };
}

const DAY_MS = 86_400_000;
const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** The date `day` (`YYYY-MM-DD`) written one of several ways; the field it goes in. */
function writeDate(r: () => number, day: string): { field: string; value: string | number } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const roll = Math.floor(r() * 6);
  if (roll === 0) return { field: 'published_at', value: `${day}T${pad(Math.floor(r() * 24))}:${pad(Math.floor(r() * 60))}:00Z` };
  if (roll === 1) return { field: 'published_at', value: day };
  if (roll === 2) return { field: 'upload_date', value: `${y}${pad(m)}${pad(d)}` };
  if (roll === 3) return { field: 'date', value: `${y}年${m}月${d}日` };
  if (roll === 4) return { field: 'published_at', value: `${y}/${pad(m)}/${pad(d)}` };
  // Epoch seconds at noon UTC: the UTC day is the day.
  return { field: 'published_at', value: Date.UTC(y, m - 1, d, 12) / 1000 };
}

/** `n` caption lines: the language's sentences without their ends, cut into runs of 3–6 words (Chinese: 6–12 characters). */
function captionLines(r: () => number, lang: AcrossLang, n: number): string[] {
  const out: string[] = [];
  let words: string[] = [];
  while (out.length < n) {
    if (!words.length) words = lang === 'zh' ? [...pick(r, SENTENCES.zh).replace(/[。，]/g, '')] : pick(r, SENTENCES[lang]).replace(/\s*[.,]$/u, '').toLowerCase().split(' ');
    const take = lang === 'zh' ? 6 + Math.floor(r() * 7) : 3 + Math.floor(r() * 4);
    out.push(words.splice(0, take).join(lang === 'zh' ? '' : ' '));
  }
  return out;
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** A marker's concept and topic spelling: mostly its language's concepts, sometimes a shared one, sometimes none. */
function topicFor(r: () => number, lang: AcrossLang): { concept: string; topic: string } {
  const roll = r();
  if (roll < 0.08) return { concept: NO_TOPIC, topic: pick(r, ['', '  ', '—']) };
  const c = roll < 0.25 ? pick(r, CONCEPTS.shared) : pick(r, CONCEPTS[lang]);
  return { concept: c.id, topic: pick(r, c.spellings) };
}

/**
 * A corpus of `items` generated items (default 12) and its truth. The same seed gives the same corpus.
 */
export function acrossCorpus(options: AcrossCorpusOptions): GeneratedAcrossCorpus {
  const r = rng(options.seed);
  const n = options.items ?? 12;
  const from = Date.parse(`${options.from ?? '2023-01-01'}T00:00:00Z`);
  const span = options.spanDays ?? 400;
  const items: CorpusItem[] = [];
  const markers = new Map<string, ItemMarkers>();
  const truth: GeneratedAcrossCorpus['truth'] = { items: [], markers: [] };
  for (let i = 0; i < n; i++) {
    const lang = ACROSS_LANGS[i % ACROSS_LANGS.length]!;
    const id = `${lang}-item-${options.seed}-${i}`;
    const timed = r() < 0.6;
    const caption = r() < (options.captions ?? 0.25);
    const turns: Turn[] = caption
      ? captionLines(r, lang, 40 + Math.floor(r() * 80)).map((text, k) => ({ text, ...(timed ? { start: k * 2.5, end: k * 2.5 + 2.4 } : {}) }))
      : Array.from({ length: 8 + Math.floor(r() * 20) }, (_, k) => {
          const text = r() < 0.1 ? `${pick(r, HOSTILE)} ${pick(r, SENTENCES[lang])}` : `${pick(r, SENTENCES[lang])} ${pick(r, SENTENCES[lang])}`;
          return { text, speaker: pick(r, SPEAKERS[lang]), ...(timed ? { start: k * 7.5, end: k * 7.5 + 6.25 } : {}) };
        });
    const transcript = transcriptPart(turns, `${id}/transcript.json`);
    const comments = r() < 0.6 ? commentsPart(Array.from({ length: 3 + Math.floor(r() * 8) }, () => (r() < 0.15 ? pick(r, HOSTILE) : pick(r, SENTENCES[lang]))), `${id}/comments.jsonl`) : undefined;
    const item = itemOf(id, { transcript, ...(comments ? { comments } : {}) });
    item.title = r() < 0.2 ? `${pick(r, HOSTILE)} ${lang} ${i}` : `Episode ${i} (${lang})`;
    // Date: a day of the span written some way, none, or a value that is no date.
    const roll = r();
    const undatedShare = options.undated ?? 0.25;
    let day: string | null = null;
    let raw: string | null = null;
    if (roll < undatedShare / 2) {
      // none
    } else if (roll < undatedShare) {
      raw = pick(r, ['sometime in spring', 'TBD', '2023-13-45']);
      item.meta = { published_at: raw };
    } else {
      const t = new Date(from + Math.floor(r() * (span + 1)) * DAY_MS);
      day = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
      const w = writeDate(r, day);
      item.meta = { [w.field]: w.value };
      raw = String(w.value);
    }
    items.push(item);
    const hasMarkers = r() < 0.85;
    truth.items.push({ itemId: id, lang, day, raw, hasMarkers, timed, caption });
    if (!hasMarkers) continue;
    const file = makeMarkers(r, item, lang, transcript, caption, truth.markers);
    markers.set(id, file);
  }
  return { root: '/corpus', items, markers, truth };
}

/** The random markers of an item, recorded in `out`. */
function makeMarkers(r: () => number, item: CorpusItem, lang: AcrossLang, transcript: TranscriptPart, caption: boolean, out: MarkerTruth[]): ItemMarkers {
  const lists: Record<'transcript' | 'comments', Record<MarkerKind, Marker[]>> = {
    transcript: { FACT: [], OPINION: [], DATA: [], ENGAGEMENT: [] },
    comments: { FACT: [], OPINION: [], DATA: [], ENGAGEMENT: [] },
  };
  const count = 2 + Math.floor(r() * 14);
  for (let k = 0; k < count; k++) {
    const part = item.comments && r() < 0.3 ? 'comments' : 'transcript';
    const kinds: readonly MarkerKind[] = part === 'comments' ? MARKER_KINDS : MARKER_KINDS.filter((x) => x !== 'ENGAGEMENT');
    const kind = pick(r, kinds);
    const { concept, topic } = topicFor(r, lang);
    const grounded = r() < 0.9;
    const text = r() < 0.1 ? `${pick(r, HOSTILE)} said ${k}` : `${pick(r, SENTENCES[lang])} (${k})`;
    const markerId = `${item.id}:${kind[0]}:${k}`;
    const t: MarkerTruth = { itemId: item.id, markerId, kind, part, concept, topic, grounded, caption: caption && part === 'transcript', turn: null, turnEnd: null, startTime: null, endTime: null, start: null, end: null, line: null, file: null, text };
    const marker: Marker = { id: markerId, kind, text, topic, confidence: 0.5, evidence: [], grounded };
    if (grounded && part === 'transcript') {
      const segs = transcript.segments;
      const a = Math.floor(r() * segs.length);
      const b = Math.min(segs.length - 1, a + Math.floor(r() * 3));
      const sa = segs[a]!;
      const sb = segs[b]!;
      const start = sa.offset + Math.floor(r() * Math.min(5, sa.text.length - 1));
      const end = sb.offset + sb.text.length - Math.floor(r() * Math.min(3, sb.text.length - 1));
      const speakers = [...new Set(segs.slice(a, b + 1).flatMap((s) => (s.speaker ? [s.speaker] : [])))];
      marker.evidence = [{
        quote: transcript.text.slice(start, end),
        part,
        start,
        end,
        match: 'extractive',
        source: { file: transcript.file.relPath, startLine: a, startColumn: start - sa.offset, endLine: b, endColumn: end - sb.offset, ...(sa.start !== undefined ? { startTime: sa.start, endTime: sb.end! } : {}), ...(speakers.length ? { speakers } : {}) },
      }];
      Object.assign(t, { turn: a + 1, turnEnd: b + 1, startTime: sa.start ?? null, endTime: sb.end ?? null, start, end, line: a + 1, file: transcript.file.relPath });
    } else if (grounded) {
      const cs = item.comments!.comments;
      const c = cs[Math.floor(r() * cs.length)]!;
      marker.evidence = [{
        quote: c.text,
        part,
        start: c.offset,
        end: c.offset + c.text.length,
        match: 'extractive',
        source: { file: item.comments!.file.relPath, startLine: c.source.startLine, startColumn: 0, endLine: c.source.endLine, endColumn: c.text.length, commentIds: [c.id], speakers: [c.author!] },
      }];
      Object.assign(t, { start: c.offset, end: c.offset + c.text.length, line: c.source.startLine + 1, file: item.comments!.file.relPath });
    }
    if (kind === 'ENGAGEMENT') Object.assign(marker, { likes: Math.floor(r() * 500), replies: Math.floor(r() * 9) });
    lists[part][kind].push(marker);
    out.push(t);
  }
  const tr = lists.transcript;
  const co = lists.comments;
  const total = (xs: Record<MarkerKind, Marker[]>): number => MARKER_KINDS.reduce((a, k) => a + xs[k].length, 0);
  return {
    item_id: item.id,
    title: item.title,
    content_hash: item.contentHash,
    engine: 'extractive',
    model: null,
    prompt_version: null,
    cache_key: `k-${item.id}`,
    generated_at: '2024-01-01T00:00:00Z',
    transcript_summary: { key_facts: tr.FACT, key_opinions: tr.OPINION, key_datapoints: tr.DATA, topic_areas: [], word_count: transcript.wordCount, total_markers: total(tr) },
    comments_summary: item.comments
      ? { key_facts_from_comments: co.FACT, key_opinions_from_comments: co.OPINION, key_datapoints_from_comments: co.DATA, major_themes: [], sentiment_overview: 'mixed', top_engagement_markers: co.ENGAGEMENT, total_comments: item.comments.comments.length, total_markers: total(co) }
      : null,
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  };
}

/**
 * The paragraph (from 1) the readable view shows span start `at` of a caption transcript in: the
 * last of its transcript blocks starting at or before it (a separator belongs to the next one).
 */
export function readableParagraph(item: CorpusItem, at: number): number {
  const blocks = layoutFullItem(item).blocks.filter((b) => b.part === 'transcript');
  let k = 0;
  blocks.forEach((b, i) => {
    if (b.offset <= at + 1) k = i;
  });
  assert.ok(blocks[k]!.lastPosition !== undefined, 'the readable view shows paragraphs');
  return k + 1;
}

/** Markers of the truth per concept, then item: `concept → itemId → marker ids`. */
export function truthByConcept(markers: readonly MarkerTruth[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const m of markers) {
    let byItem = out.get(m.concept);
    if (!byItem) out.set(m.concept, (byItem = new Map()));
    byItem.set(m.itemId, [...(byItem.get(m.itemId) ?? []), m.markerId]);
  }
  return out;
}
