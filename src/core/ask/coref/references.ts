/**
 * Every reference to a person in a question, in English, Chinese and Spanish,
 * without the ones that are a mention of the question itself ("the host" when
 * a speaker is labelled Host, "这位主持人" when one is labelled 主持人).
 */
import { chineseReferences } from './chineseReferences';
import { englishReferences } from './englishReferences';
import type { Reference } from './reference';
import { spanishReferences } from './spanishReferences';

/**
 * The references of `question`, in order.
 *
 * @param own where the question names its own entities
 */
export function findReferences(question: string, own: readonly [number, number][] = []): Reference[] {
  const refs: Reference[] = [];
  if (/\p{Script=Han}/u.test(question)) refs.push(...chineseReferences(question));
  if (/\p{Script=Latin}/u.test(question)) refs.push(...englishReferences(question), ...spanishReferences(question, own));
  const out: Reference[] = [];
  for (const r of refs.sort((a, b) => a.range[0] - b.range[0])) {
    if (own.some(([s, e]) => r.range[0] < e && s < r.range[1])) continue;
    if (out.some((x) => x.range[0] < r.range[1] && r.range[0] < x.range[1])) continue;
    out.push(r);
  }
  return out;
}
