/**
 * The topic of a question as the strategies about people and the audience rank by it (issue 22):
 * its content terms (`ParsedQuery.keywords`, which never hold cue words or speaker labels),
 * without the names of its entities — "what do viewers say about Alcasec's hack" ranks
 * Alcasec's comments by "hack" — and without the words that name the material ("episode",
 * "meeting"). Empty when the question has no topic of its own.
 */
import { tokenizeQuery } from '../../search/tokenize';
import type { ParsedQuery } from '../query';
import { topicWords } from '../strategyPlan';
import { entityNames } from './entityChunks';

/** The topic's words (as the question says them). */
export function questionTopic(q: ParsedQuery): string[] {
  const names = new Set(q.entities.flatMap((e) => entityNames(e).flatMap((n) => tokenizeQuery(n))));
  return topicWords(q.keywords).filter((k) => {
    const toks = tokenizeQuery(k);
    return toks.length > 0 && !toks.every((t) => names.has(t));
  });
}

/** The topic's search terms (tokenized as the index does), each once. */
export function topicTerms(q: ParsedQuery): string[] {
  return [...new Set(tokenizeQuery(questionTopic(q).join(' ')))];
}
