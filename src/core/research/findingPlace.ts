/**
 * Where a finding of a report comes from, in words: the label of its first cited span (speaker ·
 * time or turn · item; @author · likes · date · item) and who said it (the speakers of a
 * transcript span, the authors of a comment span), as the span stored them.
 */
import { locationLabel, storedLocationLabel } from '../corpus/locationLabel';
import type { CorpusItem } from '../corpus/types';
import type { SourceSpan } from './schema';

/** A cited span's place. */
export interface FindingPlace {
  /** `Grad A · turn 174 · ICSI research-group meeting Bmr003`, `@lena · 214 likes · 2024-03-14 · City Cycling…` (raw: the caller escapes). */
  label: string;
  /** Who said it: transcript speakers, or comment authors (without "@"). */
  who: string[];
  /** Whether `who` are speakers or commenters. */
  part: SourceSpan['part'];
  itemId: string;
}

/**
 * The place of a cited span; the label is made from the item when it is at hand and the span still
 * fits it, else from what the span stored.
 *
 * @example
 * findingPlace(span, item) // { label: 'Grad A · turn 174 · ICSI research-group meeting Bmr003', who: ['Grad A'], part: 'transcript', itemId: 'qmsum-Bmr003' }
 */
export function findingPlace(span: SourceSpan, item?: CorpusItem): FindingPlace {
  const text = (span.part === 'transcript' ? item?.transcript : item?.comments)?.text;
  const label = item && text !== undefined && span.end <= text.length ? locationLabel(item, span.part, span.start, span.end) : storedLocationLabel(span.source, span.part, item?.title ?? span.item_id);
  const who = (span.source.speakers ?? []).map((w) => (span.part === 'comments' ? w.replace(/^@+/, '') : w).trim()).filter(Boolean);
  return { label, who: [...new Set(who)], part: span.part, itemId: span.item_id };
}
