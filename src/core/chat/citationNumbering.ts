/**
 * Citation numbers of a conversation: they continue the report's ([1]…[N] are the report's
 * own); a span an answer adds gets the next number, the same span keeps its number; an answer's
 * `[n]` that resolves to no known span is removed (and reported), never shown.
 */
import { mapSpan, storedRange } from '../corpus/spans';
import type { Corpus, PartKind } from '../corpus/types';
import type { ChatCitation } from './schema';

export interface SpanRef {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

const same = (c: ChatCitation, s: SpanRef): boolean => c.span.item_id === s.itemId && c.span.part === s.part && c.span.start === s.start && c.span.end === s.end;

/** The citation of each span: an existing number for a span already cited, else a new one after the highest. Unmappable spans are left out. */
export function numberSpans(known: readonly ChatCitation[], spans: readonly SpanRef[], corpus: Corpus): ChatCitation[] {
  let next = known.reduce((m, c) => Math.max(m, c.number), 0) + 1;
  const added: ChatCitation[] = [];
  const out: ChatCitation[] = [];
  for (const s of spans) {
    const existing = known.find((c) => same(c, s)) ?? added.find((c) => same(c, s));
    if (existing) {
      if (!out.includes(existing)) out.push(existing);
      continue;
    }
    const item = corpus.items.find((i) => i.id === s.itemId);
    const src = item ? mapSpan(item, s) : undefined;
    if (!src) continue;
    const c: ChatCitation = { number: next++, span: { source_id: `C${next - 1}`, item_id: s.itemId, part: s.part, start: s.start, end: s.end, source: storedRange(src) } };
    added.push(c);
    out.push(c);
  }
  return out;
}

const BRACKET = /\[(\s*\d{1,5}(?:\s*[,，]\s*\d{1,5})*\s*)\]/g;

/** `answer` with the number of every `[n]` (and each of `[n, m]`) replaced by `to(n)`. */
export function renumberCitations(answer: string, to: (n: number) => number): string {
  return answer.replace(BRACKET, (_whole, inner: string) => `[${inner.replace(/\d+/g, (d) => String(to(Number(d))))}]`);
}

/**
 * Keeps the `[n]` of `answer` that are in `allowed`, removes the others.
 * @returns the cleaned answer, the numbers it cites (in order of first use) and those removed
 */
export function checkAnswerCitations(answer: string, allowed: ReadonlySet<number>): { text: string; used: number[]; removed: number[] } {
  const used: number[] = [];
  const removed: number[] = [];
  const text = answer.replace(BRACKET, (_whole, inner: string) => {
    const nums = inner.split(/[,，]/).map((x) => Number(x.trim()));
    const ok = nums.filter((n) => allowed.has(n));
    for (const n of nums) if (!allowed.has(n) && !removed.includes(n)) removed.push(n);
    for (const n of ok) if (!used.includes(n)) used.push(n);
    return ok.map((n) => `[${n}]`).join('');
  });
  return { text: text.replace(/[ \t]+([.,;:!?。，；：！？])/g, '$1').replace(/[ \t]{2,}/g, ' '), used, removed };
}
