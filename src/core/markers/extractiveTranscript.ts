/**
 * The extractive engine's transcript pass. The item is cut into sections (chapters, topic
 * shifts; {@link splitSections}); inside each section the sentences are ranked by LexRank
 * centrality plus cue features (a number with a unit, a stance), and about `density` markers per
 * 1,000 words are picked per section, so markers spread over the whole item. A marker reads as
 * the cleaned sentence (annotations, fillers and stutters removed) while its evidence is the
 * exact span of the original, trimmed of noise at its edges. Kinds: DATA (a number with a unit,
 * a percentage, money, a date or a duration), OPINION (stance cues), FACT (the rest).
 */
import { parseChapters } from '../corpus/chapters';
import type { CorpusItem, TranscriptSegment } from '../corpus/types';
import { tokenize } from '../search/tokenize';
import { cleanSpan, contentWordCount } from '../text/clean';
import { contentLang, isContentFree } from '../text/contentFree';
import { findNumbers, hasDataPoint } from '../text/spokenNumbers';
import { firstIndex } from '../util/sortedSearch';
import { dedupeMarkers, evidenceFor, makeMarker } from './build';
import { lexRank } from './centrality';
import { fullCoverage, isQuestion, topicOf, weightsOf } from './extractiveShared';
import type { TopicStats } from './keyphrases';
import type { Coverage, Marker, MarkerKind, TranscriptSummary } from './schema';
import { splitSections } from './sections';
import { partSentences } from './sentences';
import { isOpinion } from './stance';
import { countWork } from './workMeter';

/** Markers per 1,000 words of transcript by default. */
export const DEFAULT_DENSITY = 3;
/** Words per section the item is cut into. */
const SECTION_WORDS = 1000;
/** A marker is a sentence of this many (clean) words. */
const MIN_WORDS = 6;
const MAX_WORDS = 60;

export interface TranscriptOptions {
  /** Markers per 1,000 words (default {@link DEFAULT_DENSITY}). */
  density?: number;
}

/** A sentence as the transcript pass sees it. */
interface Unit {
  /** The exact span of the original (part text offsets), trimmed of noise at its edges. */
  start: number;
  end: number;
  /** The readable sentence. */
  text: string;
  words: number;
  terms: string[];
  segment: number;
  time?: number;
  kind: MarkerKind;
  /** How much data the sentence states (0–3; see {@link kindOf}). */
  data: number;
  question: boolean;
}

/**
 * The kind of a sentence and, for DATA, how much data it states: each number with a unit counts,
 * percentages and money more than a duration or a count ("rose by 48 percent between 2021 and
 * 2023" says more than "three years of data").
 */
function kindOf(text: string): { kind: MarkerKind; data: number } {
  if (hasDataPoint(text)) {
    const data = findNumbers(text).reduce((a, m) => a + (m.kind === 'percent' || m.kind === 'money' || m.kind === 'measure' ? 1 : 0.5), 0);
    return { kind: 'DATA', data: Math.min(3, Math.max(0.5, data)) };
  }
  return { kind: isOpinion(text) ? 'OPINION' : 'FACT', data: 0 };
}

/** A marker is compared for near duplicates with this many picked sentences nearest to it in the text (every pick of an item under ~40,000 words at the default density). */
export const NEAR_PICKS = 128;

/** Token-set overlap of two sentences' term sets (for near duplicates): shared terms ÷ the smaller set. */
function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size || !b.size) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / Math.min(a.size, b.size);
}

/** The largest of `values` and `floor`, as `Math.max` gives it, without spreading a long list into arguments. */
function maxOf(values: Iterable<number>, floor: number): number {
  let top = floor;
  for (const v of values) top = Math.max(top, v);
  return top;
}

/**
 * The sentences picked so far, for the near-duplicate check: a sentence clashes with a pick of
 * its own segment (any), or with one of the {@link NEAR_PICKS} picks nearest to it by position
 * whose terms overlap its own by 70 % or more. Bounded work per check, however long the item.
 */
class Picks {
  private readonly segments = new Set<number>();
  /** Picked units by start offset. */
  private readonly byStart: Unit[] = [];
  private readonly termSets = new Map<Unit, Set<string>>();

  private termsOf(u: Unit): Set<string> {
    let set = this.termSets.get(u);
    if (!set) this.termSets.set(u, (set = new Set(u.terms)));
    return set;
  }

  /** Index of the first pick starting at or after `start`. */
  private place(start: number): number {
    return firstIndex(this.byStart.length, (i) => this.byStart[i]!.start >= start);
  }

  clashes(u: Unit): boolean {
    if (this.segments.has(u.segment)) return true;
    const at = this.place(u.start);
    const from = Math.max(0, Math.min(at - NEAR_PICKS / 2, this.byStart.length - NEAR_PICKS));
    const to = Math.min(this.byStart.length, from + NEAR_PICKS);
    countWork('clash', to - from);
    const mine = this.termsOf(u);
    for (let i = from; i < to; i++) if (overlap(this.termsOf(this.byStart[i]!), mine) >= 0.7) return true;
    return false;
  }

  add(u: Unit): void {
    this.segments.add(u.segment);
    this.byStart.splice(this.place(u.start), 0, u);
  }
}

/** Transcript markers of one item. */
export function extractTranscript(item: CorpusItem, stats: TopicStats, opts: TranscriptOptions = {}): { summary: TranscriptSummary; coverage: Coverage } | undefined {
  const t = item.transcript;
  if (!t) return undefined;
  const density = Math.max(0.5, opts.density ?? DEFAULT_DENSITY);
  const bySegment = new Map<number, TranscriptSegment>(t.segments.map((s) => [s.index, s]));
  const units: Unit[] = [];
  // One string per distinct term: a long item repeats its terms millions of times.
  const interned = new Map<string, string>();
  const intern = (term: string): string => {
    const known = interned.get(term);
    if (known !== undefined) return known;
    interned.set(term, term);
    return term;
  };
  for (const s of partSentences(t)) {
    const c = cleanSpan(t.text, s.start, s.end);
    if (!c) continue;
    units.push({
      start: c.start,
      end: c.end,
      text: c.text,
      words: contentWordCount(c.text),
      terms: tokenize(c.text).map(intern),
      segment: s.unit,
      ...(bySegment.get(s.unit)?.start !== undefined ? { time: bySegment.get(s.unit)!.start } : {}),
      ...kindOf(c.text),
      question: isQuestion(c.text),
    });
  }
  const model = weightsOf(t.text, stats, 8);
  const { topics } = model;
  const fallbackTopic = topics[0] ?? item.title;
  const chapters = parseChapters(typeof item.meta.description === 'string' ? item.meta.description : '').map((c) => c.startS);
  const starts = splitSections(units, { targetWords: SECTION_WORDS, ...(chapters.length ? { chapters } : {}) });
  // Term weights for centrality: inverse frequency over the item's sentences.
  const df = new Map<string, number>();
  for (const u of units) for (const term of new Set(u.terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string): number => Math.log(1 + units.length / (df.get(term) ?? 1));

  const picked: { u: Unit; score: number }[] = [];
  // Never a content-free sentence: a backchannel, or too few content words to stand alone (judged once per sentence, when it is a candidate).
  const lang = contentLang(t.text);
  const free = new Map<Unit, boolean>();
  const contentFree = (u: Unit): boolean => {
    let f = free.get(u);
    if (f === undefined) free.set(u, (f = isContentFree(u.text, lang, { strict: true })));
    return f;
  };
  // A claim has content: at least four distinct content terms ("But you know, for now, I mean" has none).
  const fits = (u: Unit): boolean => u.words >= MIN_WORDS && u.words <= MAX_WORDS && !u.question && new Set(u.terms).size >= 4 && !contentFree(u);
  const picks = new Picks();
  const pick = (x: { u: Unit; score: number }): void => {
    picked.push(x);
    picks.add(x.u);
  };
  const scoreOf = new Map<Unit, number>();
  starts.forEach((a, j) => {
    const b = j + 1 < starts.length ? starts[j + 1]! : units.length;
    const section = units.slice(a, b);
    const words = section.reduce((n, u) => n + u.words, 0);
    const central = lexRank(section.map((u) => u.terms), idf);
    const top = maxOf(central, 1e-9);
    const ranked = section
      .map((u, i) => {
        // Centrality first; a stated number or stance is what researchers look for; very short or long sentences read badly.
        const lengthFit = u.words < 10 ? 0.75 : u.words > 40 ? 0.85 : 1;
        // The square root keeps one very central sentence (an introduction that names every topic) from outweighing the cues of all others.
        const score = Math.sqrt(central[i]! / top) * lengthFit + (u.kind === 'DATA' ? 0.15 + 0.1 * u.data : u.kind === 'OPINION' ? 0.2 : 0);
        scoreOf.set(u, score);
        return { u, score };
      })
      .filter((x) => fits(x.u))
      .sort((x, y) => y.score - x.score || x.u.start - y.u.start);
    // A short item (one small section) still gets three markers.
    let quota = Math.max(starts.length === 1 && words < 1000 ? 3 : 1, Math.round((density * words) / 1000));
    for (const x of ranked) {
      if (quota <= 0) break;
      if (picks.clashes(x.u)) continue;
      pick(x);
      quota--;
    }
  });
  // Every kind the text has is present: its best sentence joins when no section picked one.
  for (const kind of ['DATA', 'OPINION', 'FACT'] as const) {
    if (picked.some((p) => p.u.kind === kind)) continue;
    // The best of the kind that clashes with no pick (a stable sort: the first in the text wins a tie).
    const best = units
      .filter((u) => u.kind === kind && fits(u))
      .sort((x, y) => (scoreOf.get(y) ?? 0) - (scoreOf.get(x) ?? 0))
      .find((u) => !picks.clashes(u));
    if (best) pick({ u: best, score: scoreOf.get(best) ?? 0 });
  }
  picked.sort((x, y) => x.u.start - y.u.start);
  const topScore = maxOf(picked.map((p) => p.score), 1e-9);
  const byKind: Record<'FACT' | 'OPINION' | 'DATA', Marker[]> = { FACT: [], OPINION: [], DATA: [] };
  for (const { u, score } of picked) {
    const ev = evidenceFor(item, 'transcript', u.start, u.end, 'extractive');
    const topic = topicOf(model, u.text);
    // Confidence says how central the sentence is among those picked (0.5–0.95), not a certainty.
    byKind[u.kind as 'FACT' | 'OPINION' | 'DATA'].push(makeMarker(item.id, u.kind, u.text, topic || fallbackTopic, 0.5 + 0.45 * (score / topScore), ev ? [ev] : []));
  }
  const summary: TranscriptSummary = {
    key_facts: dedupeMarkers(byKind.FACT),
    key_opinions: dedupeMarkers(byKind.OPINION),
    key_datapoints: dedupeMarkers(byKind.DATA),
    topic_areas: topics,
    word_count: t.wordCount,
    total_markers: 0,
  };
  summary.total_markers = summary.key_facts.length + summary.key_opinions.length + summary.key_datapoints.length;
  return { summary, coverage: fullCoverage(t.wordCount) };
}
