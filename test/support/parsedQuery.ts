/**
 * A parsed query for tests that need one without understanding a question: every field of
 * `ParsedQuery` with a neutral value, the text and keywords given, the rest overridable.
 */
import { parsedQuerySchema, type ParsedQuery } from '../../src/core/ask/query';

/** `question` (default: the keywords joined), its keywords as the search text, and `over` on top; checked by the schema. */
export function parsedQuery(over: Partial<ParsedQuery> = {}): ParsedQuery {
  const keywords = over.keywords ?? [];
  const question = over.question ?? keywords.join(' ');
  return parsedQuerySchema.parse({
    question,
    intent: 'search_semantic',
    entities: [],
    keywords,
    searchText: keywords.join(' '),
    timeConstraint: null,
    part: null,
    citationNumbers: [],
    filters: {},
    resolvedQuery: question,
    confidence: 0.5,
    strategies: ['keyword'],
    engine: 'rules',
    ...over,
  });
}
