/**
 * How a question's role entities are told to the user (issue 21 "role labels
 * belong to their item"): a role or an anonymous id ("Project Manager",
 * "speaker_3") is a different person in each item, so the understood line
 * says whose ("Project Manager · qmsum-ES2009b"), and when the question has
 * not said which item and several have the role, the answer lists them and
 * asks which one instead of treating them as one person.
 */
import type { LinkedEntity, ParsedQuery } from './query';
import { classifySpeakerLabel } from './speakerLabels';

/** Items named in a note before "and N more". */
const LISTED = 5;

/** True for a speaker entity whose label is a role or id of more than one item (the question did not say which). */
export function isAmbiguousRole(e: LinkedEntity): boolean {
  return e.kind === 'speaker' && (e.speakerItems?.length ?? 0) > 1;
}

/**
 * An entity as the understood line shows it: a role of one item with that item
 * ("Project Manager · qmsum-ES2009b"), of several with their count
 * ("Project Manager · 4 items"), anything else by its label (speakers) or text.
 */
export function entityDisplay(e: LinkedEntity): string {
  const base = e.kind === 'speaker' ? e.label : e.text;
  if (e.kind !== 'speaker' || !e.speakerItems?.length) return base;
  return e.speakerItems.length === 1 ? `${base} · ${e.speakerItems[0]}` : `${base} · ${e.speakerItems.length} items`;
}

/** The item a role speaker of a hit belongs to, for the hit's reason ("speaker Project Manager · qmsum-ES2009b"); the label alone otherwise. */
export function speakerInItem(e: LinkedEntity, itemId: string): string {
  const base = e.kind === 'speaker' ? e.label : e.text;
  return e.kind === 'speaker' && e.speakerItems && itemSet(e.speakerItems).has(itemId) ? `${base} · ${itemId}` : base;
}

/** The items of a role as a set, made once per list: a role of a large corpus ("Host") is in thousands of items, asked of every window. */
const itemSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function itemSet(items: readonly string[]): ReadonlySet<string> {
  let set = itemSets.get(items);
  if (!set) itemSets.set(items, (set = new Set(items)));
  return set;
}

/**
 * The notes asking which item's speaker a role means, one per ambiguous role entity:
 * the items that have it and how to say which.
 *
 * @example
 * roleNotes(q) // → ['"Project Manager" is a role: a different speaker in each of 4 items (qmsum-ES2009b, …). Which one? …']
 */
export function roleNotes(q: ParsedQuery): string[] {
  const out: string[] = [];
  for (const e of q.entities) {
    if (!isAmbiguousRole(e)) continue;
    const items = e.speakerItems!;
    const list = `${items.slice(0, LISTED).join(', ')}${items.length > LISTED ? ` and ${items.length - LISTED} more` : ''}`;
    const what = classifySpeakerLabel(e.label).kind === 'generic' ? 'an anonymous speaker id' : 'a role';
    const via = e.fromSession ? ' (of an earlier question)' : '';
    out.push(
      `${JSON.stringify(e.label)}${via} is ${what}: a different speaker in each of ${items.length} items (${list}). ` +
        `Which one do you mean? Ask with that item in focus, or name it in the question; meanwhile each hit says whose ${e.label} it is.`,
    );
  }
  return out;
}
