/**
 * Who a question's pronouns refer to: the entities query understanding resolved from the
 * conversation ("he" → "Daniel"), by the corpus's own names. The answerer reads them beside the
 * user's own question, never a paraphrase in place of it.
 */
import { coreName } from './entityIndex';
import type { LinkedEntity, ParsedQuery } from './query';

/** How a referent is named: a speaker by its label as in the transcript, anything else by its core name. */
export function referentName(e: LinkedEntity): string {
  return e.kind === 'speaker' ? e.label : coreName(e.label);
}

/** The names the question's pronouns stand for, without repeats; [] when it has none. */
export function referentsOf(query: Pick<ParsedQuery, 'entities'>): string[] {
  return [...new Set(query.entities.filter((e) => e.fromSession).map(referentName))];
}
