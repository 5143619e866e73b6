/**
 * Keyphrase candidates for topics: English (and other spaced languages) words
 * and two-word phrases without stopwords; Chinese words from Intl.Segmenter
 * (two characters or more). Scored by tf × idf over the items of the corpus.
 */
import { STOPWORDS } from '../search/tokenize';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Chinese words too common to be a topic. */
const ZH_STOP = new Set(
  ('我们 你们 他们 她们 它们 这个 那个 这些 那些 一个 一些 就是 然后 所以 因为 但是 还是 可以 没有 这样 那么 什么 怎么 为什么 如果 因此 而且 或者 ' +
    '自己 大家 现在 时候 已经 非常 比较 真的 其实 可能 觉得 认为 知道 一下 一样 这种 那种 问题 事情 东西 方面 来说 的话 出来 起来 进行 需要 ' +
    '今天 我们的 这里 那里 还有 以及 对于 关于 通过 其中 之后 之前 以后 以前 一定 应该 必须 希望 不是 就会 不会 会有 有的 这么 那么多 一点')
    .split(/\s+/),
);
/** Filler words of transcripts (ASR noise, meeting markers) that are not topics. */
const EN_NOISE = new Set(['vocalsound', 'disfmarker', 'gap', 'laugh', 'laughter', 'pause', 'inaudible', 'yeah', 'okay', 'right', 'um', 'uh', 'mm', 'hmm', 'like', 'know', 'think', 'just', 'really', 'well', 'actually', 'gonna', 'kind', 'sort', 'thing', 'things', 'lot', 'also', 'one', 'two', 'get', 'got', 'go', 'going', 'say', 'said', 'see', 'mean', 'want', 'make', 'way', 'yes', 'no', 'maybe', 'good', 'need', 'us', 'could', 'would', 'also', 'que', 'es', 'lo', 'pues', 'bueno', 'entonces', 'porque', 'como', 'eso', 'esto', 'hay', 'ser', 'está', 'tiene', 'cosa', 'vale', 'sea', 'claro', 'cause', 'guys', 'guy', 'dunno', 'wanna', 'kinda', 'sorta', 'alright', 'anyway', 'stuff', 'bit', 'yep', 'yeah', 'nope', 'oh', 'ooh', 'wow']);

/** More English function words that make poor topics (on top of the search stopwords). */
const EN_FUNCTION = new Set(
  ('about above after again against all also although always among another any anything around away back because before behind below beside between ' +
    'beyond both came can cannot come comes down during each either else enough even ever every everything few first from further get gets getting ' +
    'give given goes gone great however into last later least less let lot lots made many may might more most much must near never new next ' +
    'nothing now often once one ones only other others over per perhaps put quite rather really said same several shall since something sometimes ' +
    'soon still sure take taken than that then thing things though three through today together too toward two under upon used using want wants ' +
    'week well went whatever whether which while whole within without yet year years yesterday honestly everyone anyone someone people time times')
    .split(/\s+/),
);

/** Number words (English, Spanish): "point eight" or "ninety" alone is not a topic. */
const NUMBER_WORDS = new Set(
  ('zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion point percent half quarter dozen first second third ' +
    'cero uno una dos tres cuatro cinco seis siete ocho nueve diez once doce veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa cien ciento cientos mil millón millones punto por ciento mitad')
    .split(/\s+/),
);

function isTopicWord(w: string): boolean {
  return (
    w.length > 2 &&
    !STOPWORDS.has(w) &&
    !EN_NOISE.has(w) &&
    !EN_FUNCTION.has(w) &&
    !NUMBER_WORDS.has(w) &&
    !/^\d+(?:[.,]\d+)?$/.test(w) &&
    // "nnn", "mmm", "hmmm": one letter repeated, or Latin letters without a vowel ("hmm", "shh")
    !/^(.)\1+$/u.test(w) &&
    !/^[b-df-hj-np-tv-xz]+$/.test(w)
  );
}

/** Chinese numerals alone ("二十", "百分") are not topics. */
const ZH_NUMERAL_ONLY = /^[零一二三四五六七八九十百千万亿两几第半多]+$|^百分/u;

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
 * words has some fifteen million).
 */
export function eachTopicCandidate(text: string, use: (candidate: string) => void): void {
  // Web addresses are not topics.
  text = text.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ');
  if (CJK.test(text)) {
    for (const s of segmentPieces(text)) {
      if (!s.isWordLike) continue;
      const w = s.segment;
      if (CJK.test(w)) {
        if ([...w].length >= 2 && !ZH_STOP.has(w) && !ZH_NUMERAL_ONLY.test(w)) use(w);
      } else {
        const lw = w.toLowerCase();
        if (isTopicWord(lw)) use(lw);
      }
    }
    return;
  }
  let prev: string | undefined;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0].replace(/['’].*$/, '');
    if (!isTopicWord(w) || /n['’]t$/.test(m[0])) {
      prev = undefined;
      continue;
    }
    use(w);
    if (prev && prev !== w) use(`${prev} ${w}`);
    prev = w;
  }
}

/** Topic candidates of a text, lower-cased surface forms (may repeat). */
export function topicCandidates(text: string): string[] {
  const out: string[] = [];
  eachTopicCandidate(text, (c) => out.push(c));
  return out;
}

/** How often each topic candidate of a text occurs, in order of first occurrence. */
export function topicCounts(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  eachTopicCandidate(text, (c) => tf.set(c, (tf.get(c) ?? 0) + 1));
  return tf;
}

/** Document frequency of candidates over items, for idf. */
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

  get documents(): number {
    return this.n;
  }
}

/** The `k` best topics of one item's candidates: tf × idf, phrases preferred over their words. */
export function topTopics(candidates: readonly string[], stats: TopicStats, k: number): { topic: string; weight: number }[] {
  const tf = new Map<string, number>();
  for (const c of candidates) tf.set(c, (tf.get(c) ?? 0) + 1);
  return topTopicsOfCounts(tf, stats, k);
}

/** {@link topTopics} of candidates already counted (`tf`: candidate → occurrences). */
export function topTopicsOfCounts(tf: ReadonlyMap<string, number>, stats: TopicStats, k: number): { topic: string; weight: number }[] {
  // Candidates seen twice or more come first; ones seen once only fill what is left.
  const scored = [...tf]
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
