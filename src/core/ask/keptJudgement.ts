/**
 * The content-free judgement of a span (`spanJudgement`, partMemos.ts) made from the text the search
 * index kept, without parsing the item: what a candidate that is left out needs. A corpus-wide
 * question about comments proposes many comments that say nothing ("first!", "jajaja", "😂"); each
 * one judged in its parsed part cost a parse of its item's comments file (22 of a summary
 * question's 29 parses on the 100 M-word corpus were for candidates left out).
 *
 * The language is judged on the part's first {@link LANG_SAMPLE_CHARS} characters as the index kept
 * them (only the slices the detector samples of them are read, `sampleRanges`), as `partLang` judges the parsed part's: the kept windows' texts are the part's text (the same
 * characters at the same offsets). Undefined when the index did not keep the span's or the sample's
 * text: the caller judges the parsed part then.
 *
 * @example
 * keptSpanJudgement(index, 'syn-00001', 'comments', 120, 131)?.empty // true: "jajaja 😂😂"
 */
import type { PartKind } from '../corpus/types';
import type { CorpusIndex } from '../search/corpusIndex';
import type { ContentLang } from '../text/contentFree';
import { contentLang } from '../text/contentFree';
import { sampleRanges } from '../llm/langDetect';
import { LruMap } from '../util/lruMap';
import { keptTextOfSpan, partWindows } from './indexSpans';
import { judgeText, LANG_SAMPLE_CHARS, type SpanJudgement } from './partMemos';

/** Parts whose language is kept, per index (least recently used first out). */
const MEMO_PARTS = 1_000;
const langMemo = new WeakMap<CorpusIndex, LruMap<string, ContentLang | null>>();

/** The language of the item's part from its kept text, or null when the index did not keep it. */
function keptPartLang(index: CorpusIndex, itemId: string, part: PartKind): ContentLang | null {
  let memo = langMemo.get(index);
  if (!memo) langMemo.set(index, (memo = new LruMap(MEMO_PARTS)));
  return memo.getOrSet(`${itemId}\u0000${part}`, () => {
    const windows = partWindows(index, itemId, part);
    const length = windows.length ? windows[windows.length - 1]!.c.end : 0;
    if (!length) return null;
    // Only the characters the detector samples of the part's first LANG_SAMPLE_CHARS are read: joined, they give its answer.
    let sample = '';
    for (const [a, b] of sampleRanges(Math.min(LANG_SAMPLE_CHARS, length))) {
      const text = keptTextOfSpan(index, itemId, part, a, b);
      if (text === undefined) return null;
      sample += text;
    }
    return contentLang(sample);
  });
}

/** The judgement of the item's span [start, end) of `part` from the index's kept text; undefined when it did not keep it. */
export function keptSpanJudgement(index: CorpusIndex, itemId: string, part: PartKind, start: number, end: number): SpanJudgement | undefined {
  const text = keptTextOfSpan(index, itemId, part, start, end);
  if (text === undefined) return undefined;
  const lang = keptPartLang(index, itemId, part);
  return lang === null ? undefined : judgeText(text, lang);
}
