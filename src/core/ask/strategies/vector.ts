/**
 * The `vector` retrieval strategy (seed 004): the chunks whose embeddings are nearest to the
 * question's (cosine). Off — no candidates — when no embedding model is configured
 * (`ctx.vectors` absent).
 */
import type { EmbeddingClient } from '../../llm/embeddings';
import { LlmError } from '../../llm/types';
import type { Chunk } from '../../search/chunker';
import type { CorpusIndex } from '../../search/corpusIndex';
import type { ParsedQuery } from '../query';
import type { AskScope, Candidate, RetrievalStrategy, VectorSearcher } from '../types';
import type { VectorStore } from '../vectorStore';

/** Candidates the strategy proposes. */
export const VECTOR_CANDIDATES = 50;
/** With filters the store cannot apply (likes, speaker), this many times more are fetched first. */
const OVERFETCH = 5;

/** Query embeddings kept per searcher (a question is often searched more than once). */
const QUERY_CACHE_SIZE = 32;

/**
 * The text embedded for a question: the resolved question (pronouns replaced), then the
 * keywords it does not already contain.
 */
export function vectorQueryText(query: Pick<ParsedQuery, 'resolvedQuery' | 'question' | 'keywords'>): string {
  const base = (query.resolvedQuery.trim() || query.question.trim()).replace(/\s+/g, ' ');
  const lower = base.toLowerCase();
  const extra = [...new Set(query.keywords.map((k) => k.trim()).filter((k) => k !== '' && !lower.includes(k.toLowerCase())))];
  return [base, ...extra].filter((s) => s !== '').join(' ');
}

/**
 * A {@link VectorSearcher} over `store`: embeds the text with `client` (the last few query
 * vectors are cached), searches the store, and returns only chunks `index` still has. Throws
 * `LlmError('config')` when the model's vectors no longer have the store's dimensions (the model
 * changed under the same name: {@link syncVectors} again).
 *
 * @example
 * ```ts
 * const { store } = await syncVectors(corpus, index, embedder, { signal });
 * const ctx: AskContext = { ...rest, vectors: createVectorSearcher(store, index, embedder) };
 * ```
 */
export function createVectorSearcher(store: VectorStore, index: CorpusIndex, client: EmbeddingClient): VectorSearcher {
  const cache = new Map<string, Float32Array>();
  return {
    model: client.model,
    async search(text, { k, itemIds, part, signal }) {
      let query = cache.get(text);
      if (query === undefined) {
        const [vector] = await client.embed([text], signal);
        if (vector === undefined) return [];
        query = vector;
        cache.set(text, query);
        if (cache.size > QUERY_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      if (store.dimensions !== undefined && query.length !== store.dimensions) {
        throw new LlmError('config', `${client.model} now gives ${query.length} dimensions, the stored vectors have ${store.dimensions}: sync the vectors again`);
      }
      const matches = store.search(query, k, { itemIds, part, accept: (chunkId, itemId) => index.chunk(chunkId)?.itemId === itemId });
      return matches.map(({ chunkId, score }) => ({ chunkId, score }));
    },
  };
}

/**
 * Nearest chunks by embedding (cosine above 0), within the scope's items, part, likes and
 * speaker; each candidate says `embedding <model> cos 0.83`. The time range is left to the
 * retriever (it filters after fusion). Off — an empty list — without an embedding model.
 * Embedding failures are thrown (the retriever notes them and goes on with the other
 * strategies); a cancel is a `CancelledError`.
 */
export const vectorStrategy: RetrievalStrategy = {
  name: 'vector',
  async run(query, scope, ctx, signal) {
    const searcher = ctx.vectors;
    if (searcher === undefined) return { list: [] };
    if (scope.itemIds !== undefined && scope.itemIds.length === 0) return { list: [] };
    const text = vectorQueryText(query);
    if (text === '') return { list: [] };
    const postFiltered = scope.minLikes !== undefined || scope.speaker !== undefined;
    const k = postFiltered ? VECTOR_CANDIDATES * OVERFETCH : VECTOR_CANDIDATES;
    const hits = await searcher.search(text, { k, itemIds: scope.itemIds, part: scope.part, signal });
    const inScope = scopeCheck(scope);
    const list: Candidate[] = [];
    for (const { chunkId, score } of hits) {
      const chunk = ctx.index.chunk(chunkId);
      if (!chunk || score <= 0 || !inScope(chunk)) continue;
      list.push({ itemId: chunk.itemId, part: chunk.part, start: chunk.start, end: chunk.end, score, why: `embedding ${searcher.model} cos ${score.toFixed(2)}` });
      if (list.length >= VECTOR_CANDIDATES) break;
    }
    return { list };
  },
};

/** Whether a chunk is within the scope's items, part, likes and speaker. */
function scopeCheck(scope: AskScope): (chunk: Chunk) => boolean {
  const items = scope.itemIds === undefined ? undefined : new Set(scope.itemIds);
  const speaker = scope.speaker?.toLowerCase();
  return (c) =>
    (items === undefined || items.has(c.itemId)) &&
    (scope.part === undefined || c.part === scope.part) &&
    (scope.minLikes === undefined || (c.likes ?? 0) >= scope.minLikes) &&
    (speaker === undefined || (c.speakers ?? []).some((s) => s.toLowerCase().includes(speaker)));
}
