/**
 * The report's "Not covered" section: every item of the goal's scope that no step researched,
 * grouped by reason (no text, nothing matching the goal, over the step budget, left out of the
 * reviewed plan), and the items a step could not read in full within its context budget. Item
 * titles are corpus text: escaped with {@link markdownText}. Nothing here is a link.
 */
import type { CorpusItem } from '../corpus/types';
import { markdownText } from '../text/markdownSafe';
import type { NotCoveredReason, ReportWords } from './reportWords';
import type { NotCovered } from './schema';

/** Titles listed per reason before "and N more" (plan.json lists every one). */
const LISTED = 12;

/**
 * The section's Markdown lines (empty when everything was covered and read in full), in the
 * report's words (`W`, see `reportWords.ts`).
 *
 * @example
 * notCoveredLines([{ item_id: 'a', reason: 'no_text' }], [], new Map(), reportWords('en'))
 * // ['## Not covered', '', '1 item … was researched by no step …', '', '- **no text to read …** (1): a', '']
 */
export function notCoveredLines(notCovered: readonly NotCovered[], deferred: readonly string[], items: ReadonlyMap<string, CorpusItem>, W: ReportWords, scopeSize?: number): string[] {
  const groups = new Map<NotCoveredReason, string[]>();
  for (const x of notCovered) groups.set(x.reason, [...(groups.get(x.reason) ?? []), x.item_id]);
  const left = new Set(notCovered.map((x) => x.item_id));
  const partial = [...new Set(deferred)].filter((id) => !left.has(id));
  if (partial.length) groups.set('deferred', partial);
  if (!groups.size) return [];
  const name = (id: string): string => {
    const title = items.get(id)?.title;
    return title && title !== id ? `${markdownText(title.replace(/\s+/g, ' '))} (${markdownText(id)})` : markdownText(id);
  };
  const n = left.size;
  const out = [`## ${W.notCovered}`, ''];
  if (n) out.push(W.notCoveredIntro(n, scopeSize), '');
  for (const [reason, ids] of groups) {
    const shown = ids.slice(0, LISTED).map(name).join(W.titleSeparator);
    const more = ids.length > LISTED ? W.andMore(ids.length - LISTED) : '';
    out.push(`- **${W.notCoveredReason[reason]}** (${ids.length}): ${shown}${more}`);
  }
  out.push('');
  return out;
}
