/**
 * One turn of a conversation (seeds 003 and 004): understand the question with the earlier
 * questions (coreference), then answer
 * - from the cited originals, loaded on demand, when it asks what citations say;
 * - from the report alone, when the conversation has a run and the question is about its findings;
 * - from the corpus otherwise: the hybrid retriever finds passages within a token budget, and
 *   the answer cites them with new numbers that continue the report's;
 * written by the model (streamed) or, offline, by the extractive responder; then persisted.
 */
import { ANSWER_HITS } from '../ask/answerSentences';
import { extractiveAnswer } from '../ask/answer';
import { hybridRetrieve } from '../ask/hybridRetriever';
import { whyNoHits } from '../ask/noHits';
import type { AskContext } from '../ask/types';
import { understand } from '../ask/understand';
import type { ModelClient } from '../llm/client';
import { estimateTokens } from '../llm/tokens';
import { spamFreeComments } from '../markers/spamFree';
import { tokenize, tokenizeQuery } from '../search/tokenize';
import { isContentFree } from '../text/contentFree';
import { isCancellation } from '../llm/types';
import { loadCitations } from './citationLoader';
import { numberSpans } from './citationNumbering';
import { appendTurn } from './conversationStore';
import { answerCitations, answerFromPassages, answerFromReport, answerFromSentences, citationLabel, type CitedSentence } from './extractiveResponder';
import { referentsOf } from '../ask/referents';
import { answerWithModel } from './modelResponder';
import { aboutReport, readReportContext, type ReportContext } from './reportContext';
import type { ChatCitation, ChatMode, ChatTurn, Conversation, LoadedCitation } from './schema';

export interface ChatTurnOptions {
  /** With a model: it understands the question and writes the answer (streamed); without: rules and the extractive responder. */
  model?: ModelClient;
  promptsDir: string;
  signal?: AbortSignal;
  /** The answer as it streams (the extractive responder delivers it in one piece). */
  onDelta?: (text: string) => void;
  /** Words of retrieved passages for a question beyond the report (default 1200). */
  budgetWords?: number;
}

/** Earlier questions used for coreference. */
const SESSION = 6;
/** Hits a corpus answer cites at most. */
const MAX_HITS = 6;

/** The material of a turn as the model reads it, each source under its number. */
function materialOf(mode: ChatMode, report: ReportContext | undefined, loaded: readonly LoadedCitation[], citations: readonly ChatCitation[], passages: readonly { c: ChatCitation; text: string }[]): string {
  const parts: string[] = [];
  if (report && mode !== 'corpus') parts.push(`Research report (run ${report.runId}):\n\n${report.markdown}`);
  for (const l of loaded) {
    const c = citations.find((x) => x.number === l.number)!;
    parts.push(`Original of ${citationLabel(c)}:\n…${l.before}«${l.text}»${l.after}…`);
  }
  for (const p of passages) parts.push(`${citationLabel(p.c)}\n${p.text}`);
  return parts.join('\n\n---\n\n');
}

const MODE_LINE: Record<ChatMode, string> = {
  report: 'Answer from the research report below (its [n] are the citations of the report).',
  citation: 'The question asks what citations say: their original text is given below, between « and », with a little context around it. Quote it.',
  corpus: 'The question goes beyond the report: answer from the sentences (or passages) of the corpus below, each given with its item and who said it where.',
};

/**
 * Answers `question` in `conversation` and appends the turn (on disk too).
 *
 * @example
 * const conv = await createConversation(root, { runId: 'latest-run-id' });
 * const turn = await runChatTurn(ctx, conv, '引用3的原文是什么？', { promptsDir });
 * turn.mode    // 'citation'
 * turn.loaded  // [{ number: 3, text: '…verbatim…', before, after }]
 */
export async function runChatTurn(ctx: AskContext, conversation: Conversation, question: string, options: ChatTurnOptions): Promise<ChatTurn> {
  const started = performance.now();
  const q0 = question.trim();
  if (!q0) throw new Error('chat: the question is empty');
  const notes: string[] = [];
  const byPhase: ChatTurn['usage']['byPhase'] = {};
  const session = conversation.turns.slice(-SESSION).map((t) => t.question);
  // The citation strategy resolves numbers against the conversation's own numbering.
  const citeCtx: AskContext = { ...ctx, citations: conversation.citations.map((c) => ({ n: c.number, itemId: c.span.item_id, part: c.span.part, start: c.span.start, end: c.span.end })) };
  const understood = await understand({ question: q0, session }, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index, vectors: !!ctx.vectors }, { model: options.model, promptsDir: options.promptsDir, signal: options.signal });
  if (understood.fallback) notes.push(understood.fallback);
  notes.push(...(understood.query.notes ?? []));
  if (understood.usage) byPhase.understand = { promptTokens: understood.usage.promptTokens, completionTokens: understood.usage.completionTokens };
  const query = understood.query;

  const report = conversation.header.runId ? await readReportContext(ctx.corpus.root, conversation.header.runId).catch(() => undefined) : undefined;
  if (conversation.header.runId && !report) notes.push(`run ${conversation.header.runId} has no report yet: answered from the corpus`);
  const mode: ChatMode = query.citationNumbers.length ? 'citation' : report && aboutReport(query, report) ? 'report' : 'corpus';

  let loaded: LoadedCitation[] = [];
  let missing: number[] = [];
  let passages: { c: ChatCitation; text: string }[] = [];
  let turnCitations: ChatCitation[] = [];
  /** Corpus mode: the answer's sentences with their numbers. */
  const citedSentences: CitedSentence[] = [];
  let whyNone: string | undefined;
  if (mode === 'citation') {
    ({ loaded, missing } = loadCitations(ctx.corpus, conversation.citations, query.citationNumbers));
    if (missing.length) notes.push(`no citation ${missing.map((n) => `[${n}]`).join(', ')} in this conversation${conversation.header.runId ? ' or its report' : ''}`);
    turnCitations = loaded.map((l) => conversation.citations.find((c) => c.number === l.number)!);
  } else if (mode === 'corpus') {
    /** The comments of `[start, end)` as the model may read them: spam blanked (`spamFree.ts`, decided over the corpus). */
    const spamFreeText = (itemId: string, start: number, end: number): string => {
      const item = ctx.corpus.items.find((i) => i.id === itemId);
      return (item && spamFreeComments(item, ctx.corpus)?.text.slice(start, end).replace(/[ \t]{2,}/g, ' ')) ?? '';
    };
    const res = await hybridRetrieve(query, citeCtx, { k: ANSWER_HITS, budgetWords: options.budgetWords ?? 1200, signal: options.signal });
    notes.push(...res.notes);
    if (!res.hits.length) whyNone = whyNoHits(query, ctx.corpus, ctx.index);
    // The answer: 2–6 sentences of the corpus that answer the question (what the Ask box shows), each cited by its own span.
    const chosen = extractiveAnswer(citeCtx, query, res.hits);
    // A chat answer cites only sentences that say what was asked about, when any does (the Ask box shows the rest too).
    const asked = new Set(tokenizeQuery(query.searchText || query.resolvedQuery));
    const onTopic = chosen.filter((a) => tokenize(a.text).some((t) => asked.has(t)));
    const sentences = onTopic.length ? onTopic : chosen;
    if (sentences.length) {
      const numbered = numberSpans(conversation.citations, sentences.map((a) => ({ itemId: a.citation.itemId, part: a.citation.part, start: a.citation.start, end: a.citation.end })), ctx.corpus);
      for (const a of sentences) {
        const c = numbered.find((x) => x.span.item_id === a.citation.itemId && x.span.part === a.citation.part && x.span.start === a.citation.start && x.span.end === a.citation.end);
        if (c && !citedSentences.some((x) => x.citation === c)) citedSentences.push({ sentence: a, citation: c });
      }
      turnCitations = citedSentences.map((x) => x.citation);
      // The model reads the same sentences, each saying who said it where.
      passages = citedSentences.map((x) => ({ c: x.citation, text: `${x.sentence.citation.title} · ${x.sentence.citation.location}: «${x.sentence.text}»` }));
    } else {
      // No sentence qualifies (e.g. only short comments): the best hits, each cited by its focus, within the word budget.
      const budget = options.budgetWords ?? 1200;
      let words = 0;
      const spans: { itemId: string; part: 'transcript' | 'comments'; start: number; end: number }[] = [];
      // Hits that share none of the question's words (a small corpus fills the list with anything) are not cited, but the first.
      const terms = new Set(tokenizeQuery(query.searchText || query.resolvedQuery));
      for (const h of res.hits.slice(0, MAX_HITS)) {
        // Spam never speaks in a chat answer: a hit whose focus is only spam comments (blanked in the spam-free part) is not cited.
        if (h.part === 'comments' && !spamFreeText(h.itemId, h.focus.start, h.focus.end).trim()) continue;
        const focusText = h.text.slice(h.focus.start - h.start, h.focus.end - h.start);
        // A content-free focus ("Yeah.", "Mm-hmm.", "{vocalsound}", "对对对") is never quoted as an answer line.
        if (isContentFree(focusText)) continue;
        if (spans.length && terms.size && !tokenize(focusText).some((t) => terms.has(t))) continue;
        const w = Math.max(1, Math.round(h.words * ((h.focus.end - h.focus.start) / Math.max(1, h.end - h.start))));
        if (spans.length && words + w > budget) break;
        spans.push({ itemId: h.itemId, part: h.part, start: h.focus.start, end: h.focus.end });
        words += w;
      }
      turnCitations = numberSpans(conversation.citations, spans, ctx.corpus);
      passages = turnCitations.map((c) => {
        const item = ctx.corpus.items.find((i) => i.id === c.span.item_id);
        return { c, text: c.span.part === 'transcript' ? (item?.transcript?.text.slice(c.span.start, c.span.end) ?? '') : spamFreeText(c.span.item_id, c.span.start, c.span.end) };
      });
    }
  }
  const allowed = new Set<number>([...(mode === 'report' ? conversation.citations.map((c) => c.number) : []), ...turnCitations.map((c) => c.number)]);
  const material = materialOf(mode, report, loaded, conversation.citations, passages);
  const contextTokens = estimateTokens(material);

  let answer = '';
  let engine: ChatTurn['engine'] = 'extractive';
  let cancelled = false;
  let used: number[] = [];
  if (options.model) {
    try {
      const a = await answerWithModel(options.model, { question: q0, mode: MODE_LINE[mode], material, allowed, referents: referentsOf(query) }, { promptsDir: options.promptsDir, signal: options.signal, onDelta: options.onDelta });
      answer = a.text;
      used = a.used;
      cancelled = a.cancelled;
      engine = 'model';
      byPhase.answer = { promptTokens: a.usage.promptTokens, completionTokens: a.usage.completionTokens };
      if (a.removed.length) notes.push(`the model cited ${a.removed.map((n) => `[${n}]`).join(', ')}, which no source of this answer has: removed`);
    } catch (e) {
      if (isCancellation(e)) throw e;
      notes.push(`the model could not answer (${(e as Error).message.replace(/^llm: /, '')}); answered extractively`);
    }
  }
  if (engine === 'extractive') {
    answer = mode === 'citation' ? answerCitations(query, loaded, conversation.citations, missing) : mode === 'report' ? answerFromReport(query, report!) : citedSentences.length ? answerFromSentences(query, citedSentences) : answerFromPassages(query, ctx.corpus, turnCitations, undefined, whyNone);
    options.onDelta?.(answer);
    used = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).filter((n, i, a) => a.indexOf(n) === i && allowed.has(n));
  }
  // The turn's citations: the spans it cites (report citations it names, the new spans, the loaded originals).
  const cited = [...new Set([...used, ...loaded.map((l) => l.number)])]
    .map((n) => conversation.citations.find((c) => c.number === n) ?? turnCitations.find((c) => c.number === n))
    .filter((c): c is ChatCitation => !!c);
  const focus = query.entities.map((e) => e.label);
  const turn: ChatTurn = {
    turn: conversation.turns.length + 1,
    question: q0,
    query,
    mode,
    answer,
    engine,
    citations: cited,
    loaded,
    usage: { byPhase, contextTokens },
    ms: performance.now() - started,
    createdAt: new Date().toISOString(),
    focus,
    cancelled,
    notes,
  };
  await appendTurn(ctx.corpus.root, conversation, turn);
  return turn;
}
