/**
 * The report's "Not covered" section: every item of the goal's scope that no step researched,
 * grouped by reason (no text, nothing matching the goal, over the step budget, left out of the
 * reviewed plan), and the items a step could not read in full within its context budget. Item
 * titles are corpus text: escaped with {@link markdownText}. Nothing here is a link.
 */
import type { CorpusItem } from '../corpus/types';
import { markdownText } from '../text/markdownSafe';
import type { NotCovered } from './schema';

/** Titles listed per reason before "and N more" (plan.json lists every one). */
const LISTED = 12;

const REASONS: Record<'en' | 'zh', Record<NotCovered['reason'] | 'deferred', string>> = {
  en: {
    no_text: 'no text to read (no transcript text, no comments)',
    no_matching_part: 'nothing in the item matches the goal',
    over_budget: 'over the step budget of the run',
    not_in_plan: 'left out of the reviewed plan',
    deferred: 'not read in full: it did not fit the context budget of its step, or its rounds',
  },
  zh: {
    no_text: '没有可读的文本（无转录、无评论）',
    no_matching_part: '内容项中没有与目标相关的部分',
    over_budget: '超出本次运行的步骤上限',
    not_in_plan: '审阅后的计划未包含',
    deferred: '未完整读取：超出所在步骤的上下文预算或轮数',
  },
};

/**
 * The section's Markdown lines (empty when everything was covered and read in full).
 *
 * @example
 * notCoveredLines([{ item_id: 'a', reason: 'no_text' }], [], new Map(), false)
 * // ['## Not covered', '', '1 item of the goal's scope …', '', '- **no text to read …** (1): a', '']
 */
export function notCoveredLines(notCovered: readonly NotCovered[], deferred: readonly string[], items: ReadonlyMap<string, CorpusItem>, zh: boolean, scopeSize?: number): string[] {
  const R = REASONS[zh ? 'zh' : 'en'];
  const groups = new Map<keyof typeof R, string[]>();
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
  const out = [zh ? '## 未覆盖' : '## Not covered', ''];
  if (n) {
    const of = scopeSize !== undefined ? (zh ? `（范围内共 ${scopeSize} 个）` : ` of the ${scopeSize} in the goal's scope`) : '';
    out.push(zh ? `目标范围内有 ${n} 个内容项没有被任何步骤研究${of}，原因如下（plan.json 的 not_covered 列出全部）。` : `${n} item${n === 1 ? '' : 's'}${of} ${n === 1 ? 'was' : 'were'} researched by no step, for the reasons below (plan.json's not_covered lists every one).`, '');
  }
  for (const [reason, ids] of groups) {
    const shown = ids.slice(0, LISTED).map(name).join(zh ? '；' : '; ');
    const more = ids.length > LISTED ? (zh ? ` 等另外 ${ids.length - LISTED} 个` : ` and ${ids.length - LISTED} more`) : '';
    out.push(`- **${R[reason]}** (${ids.length}): ${shown}${more}`);
  }
  out.push('');
  return out;
}
