/**
 * `clip`: passages that would make good short clips or quotes — a clear claim,
 * a number, a strong opinion, said within one or a few turns, 20–90 s long
 * where timestamps exist; windows that comments point at by timestamp
 * ("12:34 😂") count as engaging.
 */
import { DIGIT_NUMBER, OPINION_CUES_EN, OPINION_CUES_ES, OPINION_CUES_ZH, ZH_NUMBER } from '../../markers/lexicons';
import { hasPart, type CorpusItem } from '../../corpus/types';
import { polarity } from '../../markers/extractive';
import { queryWeights } from '../../search/retrieve';
import { parseClock } from '../timePhrases';
import type { AskContext, Candidate, RetrievalStrategy } from '../types';
import { scopeFilters, searchText } from './spanTools';
import { timeOfSpan } from './timeMap';

const OPINION = [...OPINION_CUES_EN, ...OPINION_CUES_ES, ...OPINION_CUES_ZH];
const STRONG = /!|！|\b(?:never|always|best|worst|incredible|amazing|crazy|nunca|siempre|increíble|brutal|locura|mejor|peor)\b|绝对|絕對|最好|最差|一定|千万|千萬|太/iu;
const CLOCK_IN_COMMENT = /(?<![\d:])(\d{1,2}:\d{2}(?::\d{2})?)(?![\d:])/g;

/** Items analysed for a corpus-wide clip question: the most on-topic, else the most engaged. */
const MAX_ITEMS = 5;

interface BaseClip {
  start: number;
  end: number;
  score: number;
  reasons: string[];
  /** The search window the passage starts in. */
  chunkId: number | undefined;
}

/** The item's comment records, from its facts (a lazily held item is not parsed to count them). */
function commentCount(item: CorpusItem | undefined): number {
  return (item?.facts ? item.facts.comments : item?.comments?.comments.length) ?? 0;
}

/** The clip candidates of an item without the question's topic: computed once per index and item. */
const cache = new WeakMap<object, Map<string, BaseClip[]>>();

/**
 * The runs of letters and digits of `text` plus half its Han characters (what
 * `/[\p{L}\p{N}]+/gu` and `/\p{Script=Han}/gu` count), counted in one pass over its code points
 * without making the arrays of matches: every turn of the items a clip question reads is counted.
 */
export function countWordsFast(text: string): number {
  let runs = 0;
  let han = 0;
  let inRun = false;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    const cls = code > 0xffff ? classOf(String.fromCodePoint(code)) : BMP_CLASS[code] || (BMP_CLASS[code] = classOf(String.fromCharCode(code)));
    i += width;
    if (cls === NOT_WORD || cls === HAN_ONLY) {
      // A Han character that is no letter or digit (a radical: ⺀) is counted as Han but ends a run, as the two expressions count it.
      if (cls === HAN_ONLY) han++;
      inRun = false;
      continue;
    }
    if (!inRun) runs++;
    inRun = true;
    if (cls === HAN_CHAR) han++;
  }
  return runs + han / 2;
}

const NOT_WORD = 1;
const WORD_CHAR = 2;
const HAN_CHAR = 3;
const HAN_ONLY = 4;
/** Classes of the Basic Multilingual Plane's characters, worked out when first met (0: not yet). */
const BMP_CLASS = new Uint8Array(0x10000);
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const HAN = /^\p{Script=Han}$/u;
function classOf(ch: string): number {
  if (!LETTER_OR_DIGIT.test(ch)) return HAN.test(ch) ? HAN_ONLY : NOT_WORD;
  return HAN.test(ch) ? HAN_CHAR : WORD_CHAR;
}

function baseClips(ctx: AskContext, itemId: string): BaseClip[] {
  let perIndex = cache.get(ctx.index);
  if (!perIndex) cache.set(ctx.index, (perIndex = new Map()));
  const known = perIndex.get(itemId);
  if (known) return known;
  const out: BaseClip[] = [];
  const item = ctx.index.item(itemId);
  const t = item?.transcript;
  if (item && t) {
    const ents = ctx.entities.item(itemId);
    // Times that comments point at.
    const cited: number[] = [];
    for (const c of item.comments?.comments ?? []) for (const m of c.text.matchAll(CLOCK_IN_COMMENT)) cited.push(parseClock(m[1]!));
    const chunkIds = ctx.index.itemChunkIds(itemId).filter((id) => ctx.index.chunk(id)?.part === 'transcript');
    let ci = 0;
    // Candidate passages: one turn, or a run of consecutive turns by one speaker, of 25–250 words.
    const segs = t.segments;
    for (let i = 0; i < segs.length; ) {
      let j = i;
      let words = countWordsFast(segs[i]!.text);
      while (j + 1 < segs.length && words < 60 && (segs[j + 1]!.speaker ?? null) === (segs[i]!.speaker ?? null)) {
        j++;
        words += countWordsFast(segs[j]!.text);
      }
      const start = segs[i]!.offset;
      const end = segs[j]!.offset + segs[j]!.text.length;
      i = j + 1;
      if (words < 25 || words > 250) continue;
      const text = t.text.slice(start, end);
      const lower = text.toLowerCase();
      const reasons: string[] = [];
      let score = 0;
      if (DIGIT_NUMBER.test(text) || ZH_NUMBER.test(text)) {
        score += 1;
        reasons.push('a number');
      }
      if (OPINION.some((c) => lower.includes(c))) {
        score += 1;
        reasons.push('an opinion');
      }
      if (STRONG.test(text) || Math.abs(polarity(text)) >= 2) {
        score += 0.7;
        reasons.push('strong words');
      }
      const time = timeOfSpan(item, ents, start, end);
      if (time && !time.estimated) {
        const len = time.endS - time.startS;
        if (len >= 20 && len <= 90) {
          score += 0.8;
          reasons.push(`${Math.round(len)} s`);
        } else score -= 0.3;
      }
      const hits = time ? cited.filter((x) => x >= time.startS - 5 && x <= time.endS + 5).length : 0;
      if (hits) {
        score += Math.min(2, hits * 0.7);
        reasons.push(`cited by ${hits} comment${hits === 1 ? '' : 's'}`);
      }
      while (ci + 1 < chunkIds.length && ctx.index.chunk(chunkIds[ci + 1]!)!.start <= start) ci++;
      out.push({ start, end, score, reasons, chunkId: chunkIds[ci] });
    }
  }
  perIndex.set(itemId, out);
  return out;
}

export const clipStrategy: RetrievalStrategy = {
  name: 'clip',
  run(q, scope, ctx) {
    const { index } = ctx;
    const weights = queryWeights(index, searchText(q));
    const bm25 = new Map<number, number>();
    if (weights.size && q.keywords.length) for (const h of index.searchWeighted(weights, { ...scopeFilters(scope), part: 'transcript' }, 2000)) bm25.set(h.id, h.score);
    const maxBm = Math.max(1, ...bm25.values());
    let items = scope.itemIds ?? ctx.corpus.items.filter((i) => hasPart(i, 'transcript')).map((i) => i.id);
    let note: string | undefined;
    if (items.length > MAX_ITEMS) {
      // Corpus-wide: the items the question's words point at, else the ones with the most comments.
      const byTopic = new Map<string, number>();
      for (const [id, sc] of bm25) {
        const c = index.chunk(id)!;
        byTopic.set(c.itemId, Math.max(byTopic.get(c.itemId) ?? 0, sc));
      }
      const ranked = byTopic.size
        ? [...byTopic].sort((a, b) => b[1] - a[1]).map(([id]) => id)
        : [...items].sort((a, b) => commentCount(index.item(b)) - commentCount(index.item(a)));
      note = `clips looked for in the ${MAX_ITEMS} ${byTopic.size ? 'items most on topic' : 'most-commented items'} of ${items.length}; ask within an item for all of its clips`;
      items = ranked.slice(0, MAX_ITEMS);
    }
    const out: Candidate[] = [];
    for (const itemId of items) {
      for (const b of baseClips(ctx, itemId)) {
        const topical = b.chunkId === undefined ? 0 : (bm25.get(b.chunkId) ?? 0) / maxBm;
        const score = b.score + 1.5 * topical;
        if (score <= 0.5) continue;
        out.push({ itemId, part: 'transcript', start: b.start, end: b.end, score, why: `clip: ${[...b.reasons, ...(topical > 0 ? ['on topic'] : [])].join(', ')}` });
      }
    }
    out.sort((a, b) => b.score - a.score);
    return { list: out.slice(0, 200), ...(note ? { note } : {}) };
  },
};
