/**
 * What asking measures of a loaded part's text, measured once and kept across questions (a
 * question's time went mostly to splitting, tokenizing and counting the same text again):
 * the part's language, the sentences of a meeting's turns, the tokens, the words and the
 * content-free judgement of a span.
 * Hit focus, the extractive answer and the retriever's passages all read them here, so a turn
 * that one of them split is split for the others too. Every memo is bounded (least recently
 * used dropped first) whatever the corpus's size (the language: one per loaded part, weakly
 * held); a memo is keyed by the part object, so a reloaded item is measured afresh.
 */
import type { TranscriptPart } from '../corpus/types';
import { segmentSentences, type Sentence } from '../markers/sentences';
import { tokenize } from '../search/tokenize';
import { contentLang, contentProfile, profileIsContentFree, type ContentLang } from '../text/contentFree';
import { countWords, walkWords } from '../text/words';
import { PairLruMap } from '../util/lruMap';

/** Turns whose sentences are kept (all parts together). */
export const MEMO_TURNS = 20_000;
/** Spans whose tokens are kept. */
export const MEMO_TOKENS = 50_000;
/** Spans whose word counts are kept. */
export const MEMO_WORDS = 50_000;
/** Spans whose content-free judgement is kept. */
export const MEMO_JUDGED = 50_000;

/** One number per span (Cantor's pairing of its offsets: distinct for every pair, exact below 2^53). */
const spanKey = (start: number, end: number): number => ((start + end) * (start + end + 1)) / 2 + end;

/** The language of a part's text (its first 20,000 characters), judged once per loaded part. */
const langs = new WeakMap<object, ContentLang>();
export function partLang(part: { text: string }): ContentLang {
  let l = langs.get(part);
  if (!l) langs.set(part, (l = contentLang(part.text.slice(0, LANG_SAMPLE_CHARS))));
  return l;
}

const turns = new PairLruMap<TranscriptPart, Sentence[]>(MEMO_TURNS);

/**
 * The sentences of turn `i` (array position) of a meeting transcript, as `segmentSentences`
 * splits the turn's text in the part's language (Chinese, else English rules); split once.
 *
 * @example turnSentences(item.transcript, 4).map((s) => s.text) // ['We could sell it for twenty five Euros .', 'Okay .']
 */
export function turnSentences(t: TranscriptPart, i: number): readonly Sentence[] {
  const seg = t.segments[i]!;
  return turns.getOrSet(t, i, () => segmentSentences(seg.text, seg.offset, seg.index, partLang(t) === 'zh' ? 'zh' : 'en'));
}

const tokens = new PairLruMap<object, readonly string[]>(MEMO_TOKENS);
const turnTokenMemo = new PairLruMap<TranscriptPart, readonly string[]>(MEMO_TURNS);

/** The search tokens (`tokenize`) of turn `i` (array position) of a transcript's own text, tokenized once. */
export function turnTokens(t: TranscriptPart, i: number): readonly string[] {
  return turnTokenMemo.getOrSet(t, i, () => tokenize(t.segments[i]!.text));
}

/** The search tokens (`tokenize`) of `part.text[start, end)`, tokenized once. */
export function spanTokens(part: { text: string }, start: number, end: number): readonly string[] {
  return tokens.getOrSet(part, spanKey(start, end), () => tokenize(part.text.slice(start, end)));
}

const words = new PairLruMap<object, number>(MEMO_WORDS);

/**
 * The words (`countWords`) of `part.text[start, end)`; with `limit`, exact when at most `limit`,
 * else some number above it (the count stops there: a span that cannot fit a budget is not
 * read to its end). Exact counts are kept.
 *
 * @example spanWords(part, 0, 40) // 7
 * @example spanWords(part, 0, 40_000, 50) // 51: more than 50, not counted further
 */
export function spanWords(part: { text: string }, start: number, end: number, limit = Number.POSITIVE_INFINITY): number {
  const text = part.text;
  const z = Math.min(end, text.length);
  if (z <= start) return 0;
  const key = spanKey(start, z);
  const known = words.get(part, key);
  if (known !== undefined) return known;
  // A span that ends inside a surrogate pair ends with half a character, as its slice does: counted on the slice.
  const code = text.charCodeAt(z - 1);
  if (z < text.length && code >= 0xd800 && code <= 0xdbff) {
    const n = countWords(text.slice(start, z));
    words.set(part, key, n);
    return n;
  }
  const r = Number.isFinite(limit) ? walkWords(text, start, z, (n) => n > limit) : walkWords(text, start, z);
  // Stopped before the end: above the limit, not the span's count. (The count so far never decreases, so the whole span's is above it too.)
  if (r.offset >= z) words.set(part, key, r.words);
  return r.words;
}

/** What the content-free judgement (`contentProfile` in the part's language) says of a span: its content words, and whether it says nothing. */
export interface SpanJudgement {
  content: number;
  empty: boolean;
}

const judged = new PairLruMap<object, SpanJudgement>(MEMO_JUDGED);

/** The content-free judgement of `part.text[start, end)`, judged once. */
export function spanJudgement(part: { text: string }, start: number, end: number): SpanJudgement {
  return judged.getOrSet(part, spanKey(start, end), () => judgeText(part.text.slice(start, end), partLang(part)));
}

/** The content-free judgement of a text in `lang` (what {@link spanJudgement} keeps). */
export function judgeText(text: string, lang: ContentLang): SpanJudgement {
  const p = contentProfile(text, lang);
  return { content: p.content.length, empty: profileIsContentFree(p) };
}

/** The characters of a part's text its language is judged on ({@link partLang}). */
export const LANG_SAMPLE_CHARS = 20_000;

/** How many entries each memo holds (for tests). */
export function memoSizes(): { turns: number; turnTokens: number; tokens: number; words: number; judged: number } {
  return { turns: turns.size, turnTokens: turnTokenMemo.size, tokens: tokens.size, words: words.size, judged: judged.size };
}
