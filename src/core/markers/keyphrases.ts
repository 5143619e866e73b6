/**
 * Keyphrase candidates for topics: words and two-word phrases of spaced languages, Chinese words
 * from Intl.Segmenter (two characters or more), none of them a stopword of the text's language
 * (../text/stopwords.ts: stopwords-iso, spoken fillers and discourse words, words too general;
 * a phrase may hold a general word, "remote work", but never begins or ends with a function
 * word). Scored by tf × idf over the items of the corpus; a candidate common to nearly every
 * item of the corpus ({@link TopicStats.common}) is never a topic.
 */
import { detectLanguageEsEnZh } from '../llm/langDetect';
import { wordClass, type StopwordLang } from '../text/stopwords';
import type { ItemMarkers } from './schema';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** The languages topics are judged in (their stopword lists). */
export type TopicLang = StopwordLang;

/** The language of a text for its topics: Chinese, Spanish or English (a sample of it is read). */
export function topicLanguage(text: string): TopicLang {
  return detectLanguageEsEnZh(text);
}

/** Longest piece given to the word segmenter at once: ICU's dictionary segmentation of CJK slows down sharply on long runs (80k characters: seconds). */
const MAX_SEGMENT_CHARS = 2000;

/** Word segments of `text`, segmented piece by piece: at sentence ends and line breaks, and at most {@link MAX_SEGMENT_CHARS} at a time. */
function* segmentPieces(text: string): Generator<Intl.SegmentData> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + MAX_SEGMENT_CHARS);
    if (end < text.length) {
      // Cut after the last sentence end or line break in the piece, when there is one.
      const piece = text.slice(start, end);
      const cut = Math.max(piece.lastIndexOf('\n'), piece.lastIndexOf('。'), piece.lastIndexOf('！'), piece.lastIndexOf('？'), piece.lastIndexOf('. '));
      if (cut > MAX_SEGMENT_CHARS / 4) end = start + cut + 1;
    }
    yield* segmenter.segment(text.slice(start, end));
    start = end;
  }
}

/**
 * Calls `use` with each topic candidate of a text, in order: lower-cased surface forms (they
 * repeat). What {@link topicCandidates} lists, without holding them all (an item of ten million
 * words has some fifteen million). `lang`: the text's language (default: read from the text);
 * give it for a sentence of a longer text, whose own sample is too short to tell.
 */
export function eachTopicCandidate(text: string, use: (candidate: string) => void, lang: TopicLang = topicLanguage(text)): void {
  // Web addresses are not topics.
  text = text.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ');
  if (CJK.test(text)) {
    for (const s of segmentPieces(text)) {
      if (!s.isWordLike) continue;
      const w = CJK.test(s.segment) ? s.segment : s.segment.toLowerCase();
      if (wordClass(w, lang) === 'content') use(w);
    }
    return;
  }
  // A word is a candidate when it is no stopword; two words in a row are one when neither is a
  // function word and one of them is no stopword ("remote work", "new york").
  let prev: string | undefined;
  let prevContent = false;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0].replace(/['’].*$/, '');
    const cls = /n['’]t$/.test(m[0]) ? 'function' : wordClass(w, lang);
    if (cls === 'function') {
      prev = undefined;
      continue;
    }
    const content = cls === 'content';
    if (content) use(w);
    if (prev && prev !== w && (content || prevContent)) use(`${prev} ${w}`);
    prev = w;
    prevContent = content;
  }
}

/** Topic candidates of a text, lower-cased surface forms (may repeat); `lang` as for {@link eachTopicCandidate}. */
export function topicCandidates(text: string, lang?: TopicLang): string[] {
  const out: string[] = [];
  eachTopicCandidate(text, (c) => out.push(c), lang);
  return out;
}

/** How often each topic candidate of a text occurs, in order of first occurrence. */
export function topicCounts(text: string, lang?: TopicLang): Map<string, number> {
  const tf = new Map<string, number>();
  eachTopicCandidate(text, (c) => tf.set(c, (tf.get(c) ?? 0) + 1), lang);
  return tf;
}

/** A candidate in this share of the corpus's items or more is common to nearly every item: never a topic. */
export const COMMON_SHARE = 0.8;
/** Fewer items than this tell nothing about what is common (two items share most of their words by chance). */
export const COMMON_MIN_ITEMS = 5;

/**
 * Document frequency of candidates over the items of a corpus, built once per generation pass:
 * idf for ranking, and what is common to nearly every item.
 */
export class TopicStats {
  private readonly df = new Map<string, number>();
  private n = 0;

  addDocument(candidates: Iterable<string>): void {
    this.n++;
    for (const c of new Set(candidates)) this.df.set(c, (this.df.get(c) ?? 0) + 1);
  }

  idf(term: string): number {
    return Math.log(1 + (this.n + 1) / ((this.df.get(term) ?? 0) + 0.5));
  }

  /**
   * True when `term` is in {@link COMMON_SHARE} of the items or more, in a corpus of at least
   * {@link COMMON_MIN_ITEMS} items: it says nothing about any one item ("meeting" in a corpus of
   * meetings, the host's name in a podcast's episodes), so it is never a topic.
   */
  common(term: string): boolean {
    return this.n >= COMMON_MIN_ITEMS && (this.df.get(term) ?? 0) >= COMMON_SHARE * this.n;
  }

  get documents(): number {
    return this.n;
  }
}

/** The `k` best topics of one item's candidates: tf × idf, phrases preferred over their words, none common to nearly every item. */
export function topTopics(candidates: readonly string[], stats: TopicStats, k: number): { topic: string; weight: number }[] {
  const tf = new Map<string, number>();
  for (const c of candidates) tf.set(c, (tf.get(c) ?? 0) + 1);
  return topTopicsOfCounts(tf, stats, k);
}

/** {@link topTopics} of candidates already counted (`tf`: candidate → occurrences). */
export function topTopicsOfCounts(tf: ReadonlyMap<string, number>, stats: TopicStats, k: number): { topic: string; weight: number }[] {
  // Candidates seen twice or more come first; ones seen once only fill what is left.
  const scored = [...tf]
    .filter(([t]) => !stats.common(t))
    .map(([t, f]) => ({ topic: t, repeated: f >= 2, weight: (t.includes(' ') ? 1.5 : 1) * Math.log(1 + f) * stats.idf(t) }))
    .sort((a, b) => Number(b.repeated) - Number(a.repeated) || b.weight - a.weight || (a.topic < b.topic ? -1 : 1));
  const out: { topic: string; weight: number }[] = [];
  for (const s of scored) {
    if (out.some((o) => o.topic.includes(s.topic) || s.topic.includes(o.topic))) continue;
    out.push({ topic: s.topic, weight: s.weight });
    if (out.length >= k) break;
  }
  return out;
}

/**
 * Every topic stored with an item's markers: its transcript's `topic_areas`, its comments'
 * `major_themes` and each marker's `topic`. A generation pass checks them against the corpus as
 * it is now ({@link TopicStats.common}): an item whose topics became common to nearly every item
 * as the corpus grew is made again, while the others keep their cache (see generate.ts).
 */
export function storedTopics(m: ItemMarkers): string[] {
  const t = m.transcript_summary;
  const c = m.comments_summary;
  const markers = [
    ...(t ? [...t.key_facts, ...t.key_opinions, ...t.key_datapoints] : []),
    ...(c ? [...c.key_facts_from_comments, ...c.key_opinions_from_comments, ...c.key_datapoints_from_comments, ...c.top_engagement_markers] : []),
  ];
  return [...(t?.topic_areas ?? []), ...(c?.major_themes ?? []), ...markers.map((x) => x.topic)];
}
