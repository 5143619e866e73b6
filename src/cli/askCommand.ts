/**
 * `marker-research ask <corpusDir> "<question>" [--item ID] [--history "<earlier question>"]... [--k 10]
 * [--budget-words N] [--explain] [--json]`: query understanding and the hybrid retriever.
 */
import type { AnswerSentence } from '../core/ask/answer';
import { askCorpus, describeQuery, entityStrings, type AskResult } from '../core/ask/ask';
import { openAskContext } from '../core/ask/askContext';
import type { ParsedQuery } from '../core/ask/query';
import { readReportCitations } from '../core/ask/reportCitations';
import { RunStoreError } from '../core/research/runStore';
import { locationLabel } from '../core/corpus/locationLabel';
import type { Corpus } from '../core/corpus/types';
import { createVectorSearcher } from '../core/ask/strategies/vector';
import type { VectorSearcher } from '../core/ask/types';
import { syncVectors } from '../core/ask/vectorSync';
import { createModelClient } from '../core/llm/client';
import { isCancellation } from '../core/llm/types';
import { createEmbeddingClient } from '../core/llm/embeddings';
import { formatClock } from '../core/text/clock';
import { whyNoHits } from '../core/ask/noHits';
import { openCorpusToSearch } from './commandCorpus';
import { integerOption, parseCommandArgs, UsageError, type CliContext } from './io';
import { promptsDir, timeoutMsOption } from './markersCommand';

export const ASK_USAGE = `marker-research ask <corpusDir> "<question>" [options]
  --item ID          the item in focus (default: the whole corpus)
  --history Q        an earlier question of the conversation (repeatable, oldest first)
  --run ID           the research run whose report's citations "[3]", "引用3", "fuente 3" refer to (or "latest")
  --k N              hits to show (default 10)
  --budget-words N   words of the passages chosen for an answer (default 2000)
  --explain          say why each strategy matched each hit
  --provider P       understand with a model: openai | ollama (default: offline rules)
  --base-url URL --model NAME   the model (API key from MARKER_RESEARCH_API_KEY or OPENAI_API_KEY)
  --timeout SECONDS  deadline of one model request (default 120; a timed-out request is retried once)
  --rerank           with --model: let the model reorder the best hits (one more call)
  --embedding-model NAME   add the vector strategy: embeddings from the --provider server
                     (vectors kept in .marker-research/vectors/, only new or changed windows embedded)
  --json             one JSON object on stdout`;

export async function askCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      item: { type: 'string' }, history: { type: 'string', multiple: true }, k: { type: 'string' }, 'budget-words': { type: 'string' },
      explain: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, provider: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' },
      'embedding-model': { type: 'string' }, rerank: { type: 'boolean', default: false }, run: { type: 'string' }, timeout: { type: 'string' },
    },
  });
  if (positionals.length !== 2) throw new UsageError('ask: expected a corpus folder and a question');
  const [dir, question] = positionals as [string, string];
  if (!question.trim()) throw new UsageError('ask: the question is empty');
  const provider = values.provider;
  if (provider !== undefined && provider !== 'openai' && provider !== 'ollama') throw new UsageError('--provider expects openai or ollama');
  if (provider && !values.model && !values['embedding-model']) throw new UsageError(`--provider ${provider} needs --model or --embedding-model`);
  if (values['embedding-model'] && !provider) throw new UsageError('--embedding-model needs --provider openai|ollama (and --base-url for a server other than the default)');
  const k = integerOption('k', values.k, 10);
  const budgetWords = integerOption('budget-words', values['budget-words'], 2000);
  const opened = await openCorpusToSearch(ctx, 'ask', dir);
  if (!opened) return 1;
  const { corpus } = opened;
  if (values.item !== undefined && !corpus.items.some((i) => i.id === values.item)) throw new UsageError(`--item: no item "${values.item}" in ${corpus.root}`);
  const { index, report } = await opened.searchIndex();
  ctx.err.write(`index ${report.mode} in ${report.ms} ms (${index.size.chunks} windows)\n`);
  const baseUrl = values['base-url'] ?? (provider === 'openai' ? 'https://api.openai.com/v1' : 'http://127.0.0.1:11434');
  const apiKey = process.env['MARKER_RESEARCH_API_KEY'] ?? process.env['OPENAI_API_KEY'];
  const timeoutMs = timeoutMsOption(values.timeout);
  let vectors: VectorSearcher | undefined;
  if (provider && values['embedding-model']) {
    const client = createEmbeddingClient({ provider, baseUrl, model: values['embedding-model'], apiKey, timeoutMs });
    try {
      const { store, report: sync } = await syncVectors(corpus, index, client, { signal: ctx.signal });
      ctx.err.write(`vectors: ${sync.embedded} windows embedded, ${sync.reused} reused, ${sync.removed} removed (${sync.ms} ms)\n`);
      for (const p of sync.problems) ctx.err.write(`vectors: ${p}\n`);
      vectors = createVectorSearcher(store, index, client);
    } catch (e) {
      if (isCancellation(e)) throw e;
      // The other strategies still answer; the user is told why vectors are missing.
      ctx.err.write(`note: the vector strategy is off for this question: embedding the corpus failed (${(e as Error).message})\n`);
    }
  }
  const cited = values.run
    ? await readReportCitations(corpus.root, values.run).catch((e: Error) => {
        // A run that does not exist or has no report: the --run value is wrong (exit 2).
        if (e instanceof RunStoreError || /^ask: /.test(e.message)) throw new UsageError(`--run ${values.run}: ${e.message.replace(/^(?:ask|research): /, '')}`);
        throw e;
      })
    : undefined;
  if (cited) ctx.err.write(`citations: ${cited.citations.length} from the report of run ${cited.runId}\n`);
  const askCtx = await openAskContext(corpus, index, { signal: ctx.signal, ...(vectors ? { vectors } : {}), ...(cited ? { citations: cited.citations } : {}) });
  const model = provider && values.model ? createModelClient({ provider, baseUrl, model: values.model, apiKey, timeoutMs }) : undefined;
  const result = await askCorpus(askCtx, { question, itemId: values.item, session: values.history ?? [] }, { k, budgetWords, model, promptsDir: promptsDir(), rerank: values.rerank, signal: ctx.signal });
  for (const n of result.notes) ctx.err.write(`note: ${n}\n`);
  const why = result.hits.length ? undefined : whyNoHits(result.query, corpus, index);
  if (values.json) ctx.out.write(`${JSON.stringify({ ...toJson(result, values.explain), ...(why !== undefined ? { whyNoHits: why } : {}) }, null, 2)}\n`);
  else ctx.out.write(render(result, values.explain, corpus, why));
  return 0;
}

/** The `--json` shape: the understood query, the extractive answer (each sentence with its citation), hits as `search --json` prints them plus `matchedBy`, and the time taken. */
export function toJson(r: AskResult, explain: boolean): Record<string, unknown> {
  return {
    query: queryJson(r.query),
    answer: r.answer.map((s) => ({ text: s.text, citation: s.citation })),
    hits: r.hits.map((h) => ({
      rank: h.rank, itemId: h.itemId, title: h.title, part: h.part, start: h.start, end: h.end, words: h.words, score: h.score, source: h.source, text: h.text,
      matchedBy: h.matchedBy, focus: h.focus, ...(explain ? { why: h.why } : {}),
    })),
    passages: r.passages.map((p) => ({ itemId: p.itemId, part: p.part, start: p.start, end: p.end, words: p.words, source: p.source, matchedBy: p.matchedBy })),
    notes: r.notes,
    ms: Math.round(r.ms * 10) / 10,
  };
}

/** The understood query as `ask --json` and `chat --json` print it. */
export function queryJson(q: ParsedQuery): Record<string, unknown> {
  return {
    intent: q.intent,
    entities: entityStrings(q),
    keywords: q.keywords,
    ...(q.translatedKeywords ? { translatedKeywords: q.translatedKeywords } : {}),
    timeConstraint: q.timeConstraint,
    part: q.part,
    citationNumbers: q.citationNumbers,
    resolvedQuery: q.resolvedQuery,
    confidence: Math.round(q.confidence * 100) / 100,
    strategies: q.strategies,
    engine: q.engine,
    linkedEntities: q.entities,
    filters: q.filters,
  };
}

function render(r: AskResult, explain: boolean, corpus: Corpus, why: string | undefined): string {
  const lines = [`understood: ${describeQuery(r.query)}`, `strategies: ${r.query.strategies.join(', ')}  ·  ${Math.round(r.ms)} ms`, ''];
  if (why !== undefined) lines.push(`no hits: ${why}`);
  lines.push(...answerLines(r.answer));
  const items = new Map(corpus.items.map((it) => [it.id, it]));
  for (const h of r.hits) {
    const src = h.source;
    const item = items.get(h.itemId);
    const where = src ? `${src.file.relPath}:${src.range.startLine + 1}` : h.itemId;
    // Where in words: speaker · time (or turn), author · likes · date; the range when the item is not at hand.
    const time = src?.startTime !== undefined ? ` [${formatClock(src.startTime)}${src.endTime !== undefined ? `–${formatClock(src.endTime)}` : ''}]` : '';
    const label = item ? locationLabel(item, h.part, h.focus.start, h.focus.end, { title: false }) : `${h.part}${time}`;
    // The quote is the hit's focus (the sentences that answer), never simply the window's first line.
    const quoted = h.text.slice(Math.max(0, h.focus.start - h.start), Math.max(0, h.focus.end - h.start)).replace(/\s+/g, ' ').trim() || h.text.replace(/\s+/g, ' ');
    lines.push(`${h.rank}. ${h.title} — ${label} — ${h.part} · ${where}  [${h.matchedBy.join(' ')}]`);
    lines.push(`   ${quoted.slice(0, 200)}${quoted.length > 200 ? '…' : ''}`);
    if (explain) for (const w of h.why) lines.push(`   · ${w}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The answer block above the hits: each sentence with its number, then one line per number saying
 * where it is (title — who and where — file:line). Nothing when there is no answer.
 */
export function answerLines(answer: readonly AnswerSentence[]): string[] {
  if (!answer.length) return [];
  const out = ['answer:'];
  answer.forEach((s, i) => out.push(`  ${s.text} [${i + 1}]`));
  answer.forEach((s, i) => {
    const c = s.citation;
    const file = c.source ? `${c.source.file.relPath}:${c.source.range.startLine + 1}` : `${c.itemId} ${c.part} ${c.start}–${c.end}`;
    out.push(`  [${i + 1}] ${c.title} — ${c.location} — ${file}`);
  });
  out.push('');
  return out;
}
