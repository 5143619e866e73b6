/**
 * Asking the corpus (SPEC §5): understand the question, run the hybrid
 * retriever, return the understood query with the hits and the passages
 * within the word budget. Recent questions are cached per context.
 */
import { saveLanguages } from './crossLanguage/savedLanguages';
import type { PartKind } from '../corpus/types';
import type { ModelClient } from '../llm/client';
import { formatClock } from '../text/clock';
import { extractiveAnswer, type AnswerSentence } from './answer';
import { hybridRetrieve, type Passage } from './hybridRetriever';
import { keptItemTexts } from './indexSpans';
import type { AskInput, ParsedQuery } from './query';
import { termPhrases } from './questionTerms';
import { rerankHits, RERANK_DEPTH } from './rerank';
import { entityDisplay, roleNotes } from './roleEntities';
import type { AskContext, AskHit } from './types';
import { understand } from './understand';
import { translatedTermsLine } from './crossLanguage/translationDisplay';

export interface AskOptions {
  /** Hits to return (default 10). */
  k?: number;
  /** Words of passages chosen for an answer (default 2000). */
  budgetWords?: number;
  /** With a model, query understanding makes one structured call; without, the offline rules. */
  model?: ModelClient;
  /** Folder of the prompt files (needed with a model). */
  promptsDir?: string;
  /** With a model: let it reorder the best fused hits (one more call). */
  rerank?: boolean;
  signal?: AbortSignal;
  /**
   * Limits the question to one part of each item, whatever it asks; limited to the transcripts it
   * runs no reception strategy (the comments' own). The Ask warm-up asks so before the corpus's spam
   * is decided: a question that reads comments needs that decision, minutes of work at 100 M words.
   */
  part?: PartKind;
}

export interface AskResult {
  query: ParsedQuery;
  hits: AskHit[];
  passages: Passage[];
  /** The extractive answer: a few sentences of the top hits, each with its citation (empty when none qualifies). */
  answer: AnswerSentence[];
  /** Things the user should know (filters not applied, strategies with nothing to search, a model fallback). */
  notes: string[];
  ms: number;
}

const CACHE_SIZE = 50;
const caches = new WeakMap<AskContext, Map<string, AskResult>>();

/** `q` limited to `part` ({@link AskOptions.part}): the transcripts run no reception strategy. */
function limitedToPart(q: ParsedQuery, part: PartKind): ParsedQuery {
  return { ...q, part, strategies: part === 'comments' ? q.strategies : q.strategies.filter((s) => s !== 'reception') };
}

/**
 * Answers `input` with spans of the corpus.
 *
 * @example
 * const r = await askCorpus(ctx, { question: 'Did PhD A and PhD C agree about the variance?', itemId: 'qmsum-Bro014' });
 * r.query.intent  // 'search_relation'
 * r.hits[0].matchedBy // e.g. ['relation', 'keyword']
 */
export async function askCorpus(ctx: AskContext, input: AskInput, options: AskOptions = {}): Promise<AskResult> {
  const started = performance.now();
  const cacheKey = JSON.stringify([input.question.trim(), input.itemId ?? null, input.session ?? [], options.k ?? 10, options.budgetWords ?? 2000, !!options.model, !!options.rerank, ctx.citations?.length ?? 0, options.part ?? null]);
  let cache = caches.get(ctx);
  const cached = cache?.get(cacheKey);
  if (cached) return { ...cached, ms: performance.now() - started };
  const understood = await understand(input, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index, vectors: !!ctx.vectors, itemTexts: (id) => keptItemTexts(ctx.index, id) }, options);
  const { fallback } = understood;
  const query = options.part ? limitedToPart(understood.query, options.part) : understood.query;
  const k = options.k ?? 10;
  const res = await hybridRetrieve(query, ctx, { k: options.rerank && options.model ? Math.max(k, RERANK_DEPTH) : k, budgetWords: options.budgetWords, signal: options.signal });
  const notes = [...(fallback ? [fallback] : []), ...(query.notes ?? []), ...roleNotes(query), ...res.notes];
  let hits = res.hits;
  if (options.rerank && options.model && options.promptsDir) {
    const rr = await rerankHits(options.model, query, hits, { promptsDir: options.promptsDir, signal: options.signal });
    hits = rr.hits;
    if (rr.note) notes.push(rr.note);
  }
  const finalHits = hits.slice(0, k);
  const result: AskResult = { query, hits: finalHits, passages: res.passages, answer: extractiveAnswer(ctx, query, finalHits), notes, ms: performance.now() - started };
  // Languages this question worked out are saved for the next process (a corpus that cannot be written to only loses that).
  await saveLanguages(ctx.corpus).catch(() => false);
  if (!cache) caches.set(ctx, (cache = new Map()));
  cache.set(cacheKey, result);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

/** Drops the cached answers of a context (its citations or markers changed). */
export function forgetAnswers(ctx: AskContext): void {
  caches.delete(ctx);
}

/**
 * One line saying how a question was understood: `search_entity · PhD C · 0:00–15:00 · transcript · rules` (a role with its
 * item: `Project Manager · ES2009b`), with the question's own terms as it says them, whatever the intent:
 * `search_entity · Project Manager · ES2009b · "remote control", "price" · transcript · rules`; terms translated
 * into the corpus's other language follow them: `summary · "教授", "信念", "网络" · 教授 → "professor"; 信念 → "faith", "belief" · rules`.
 */
export function describeQuery(q: ParsedQuery): string {
  const parts: string[] = [q.intent];
  if (q.entities.length) parts.push(q.entities.map(entityDisplay).join(', '));
  // A name already shown as an entity is not repeated as a term.
  const shown = q.entities.flatMap((e) => [e.text, e.label]).map((n) => n.toLowerCase());
  const terms = termPhrases(q.question, q.keywords).filter((t) => !shown.some((n) => n.includes(t.toLowerCase())));
  if (terms.length) parts.push(terms.map((t) => `"${t}"`).join(', '));
  // The terms searched in the corpus's other language (offline dictionaries): `信念 → "faith", "belief"`.
  const translated = translatedTermsLine(q);
  if (translated) parts.push(translated);
  if (q.timeConstraint) parts.push(`${formatClock(q.timeConstraint.startS)}–${q.timeConstraint.endS === null ? 'end' : formatClock(q.timeConstraint.endS)}`);
  if (q.citationNumbers.length) parts.push(q.citationNumbers.map((n) => `[${n}]`).join(''));
  if (q.part) parts.push(q.part);
  parts.push(q.engine);
  return parts.join(' · ');
}

/** The entity strings of a parsed query as `ask --json` prints them: speaker labels as in the transcript, other names as asked. */
export function entityStrings(q: ParsedQuery): string[] {
  return q.entities.map((e) => (e.kind === 'speaker' ? e.label : e.text));
}
