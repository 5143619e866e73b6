/**
 * What the researcher points at (a marker, an Ask hit or answer sentence, a chat answer, a report
 * finding, a selection in a readable view) as a notebook entry and its pinned spans, from the
 * indexed corpus: quotes are always the item's own text at the span (core's `pins.ts`). A
 * selection's place in the readable document becomes offsets into its part's text through the
 * item's layout (`readablePlaceAt`), refused when the document is an older rendering.
 */
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { loadConversation } from '../core/chat/conversationStore';
import type { CorpusItem } from '../core/corpus/types';
import { detectLanguageEsEnZh } from '../core/llm/langDetect';
import { readablePlaceAt } from '../core/markers/readableSpans';
import { allMarkers } from '../core/markers/store';
import { findCitations, reportLocation } from '../core/research/citationLinks';
import { readRun } from '../core/research/runStore';
import type { NotebookLanguage } from '../core/workbench/notebookWords';
import { answerSentenceEntry, chatAnswerEntry, findingEntry, hitEntry, markerEntry, noteEntry, pinnedFromSourceSpan, selectionEntry, type NewEntry } from '../core/workbench/pins';
import type { PinnedSpan } from '../core/workbench/schema';
import type { Corpus } from '../core/corpus/types';
import type { WorkbenchNote, WorkbenchTarget } from '../shared/workbenchProtocol';
import { EngineError, type EngineState } from './engineState';
import type { ReadableLayouts } from './readableLayouts';

/** A target as an entry (for the notebook) and the spans it is about (for coding). */
export interface ResolvedTarget {
  entry: NewEntry;
  spans: PinnedSpan[];
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function requireItem(state: EngineState, itemId: string): CorpusItem {
  const item = state.item(itemId);
  if (!item) throw new EngineError('not-found', l10n.t('no item "{0}" in the indexed corpus; run Index Corpus again.', itemId));
  return item;
}

function noSpan(what: string): EngineError {
  return new EngineError('no-span', what);
}

/**
 * A report line as a finding's words: list markers, heading marks, emphasis marks and its `[n]`
 * citations taken out, white space collapsed.
 *
 * @example
 * findingText('- **Lanes** cut injuries by 40 % [2][5].') // 'Lanes cut injuries by 40 %.'
 */
export function findingText(line: string): string {
  return line
    .replace(/^\s{0,3}(?:#{1,6}\s+|>\s*|[-+*]\s+|\d{1,9}[.)]\s+)/, '')
    .replace(/\s*\[\d{1,6}\]/g, '')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A selection of a readable document as offsets into one part of the item.
 * @throws EngineError `stale-view` for a document of another length (rendered before the last index), `no-span` for a selection outside the item's text or across parts.
 */
export function selectionSpan(layouts: ReadableLayouts, item: CorpusItem, target: Extract<WorkbenchTarget, { kind: 'selection' }>): { part: 'transcript' | 'comments'; start: number; end: number } {
  const { layout } = layouts.get(item);
  if (layout.text.length !== target.documentLength) throw new EngineError('stale-view', l10n.t('the readable view of "{0}" was rendered before the corpus was last indexed; close it, open it again and select again.', item.title));
  const r = target.range;
  const a = readablePlaceAt(layout, r.startLine, r.startCharacter);
  const b = readablePlaceAt(layout, r.endLine, r.endCharacter);
  if (!a || !b) throw noSpan(l10n.t('the selection is not in the text of a turn or comment (select words of the transcript or the comments).'));
  if (a.part !== b.part) throw noSpan(l10n.t('the selection runs from the transcript into the comments; select within one of them.'));
  if (b.offset <= a.offset) throw noSpan(l10n.t('the selection holds no text of the item.'));
  return { part: a.part, start: a.offset, end: b.offset };
}

/** The entry and spans of a target (see the module comment). */
export async function resolveTarget(state: EngineState, layouts: ReadableLayouts, target: WorkbenchTarget | WorkbenchNote): Promise<ResolvedTarget> {
  const corpus = state.requireCorpus();
  switch (target.kind) {
    case 'note':
      return { entry: noteEntry(target.title.trim(), target.note), spans: [] };
    case 'marker': {
      const file = state.markers().get(target.itemId);
      if (!file?.ok) throw new EngineError('not-found', l10n.t('no markers of "{0}" are loaded; run Generate Markers or Index Corpus again.', target.itemId));
      const marker = allMarkers(file.value).find((m) => m.id === target.markerId);
      if (!marker) throw new EngineError('not-found', l10n.t('no marker "{0}" in "{1}"; run Index Corpus again.', target.markerId, target.itemId));
      const entry = markerEntry(state.item(target.itemId), target.itemId, marker);
      return { entry, spans: entry.spans };
    }
    case 'hit': {
      const item = requireItem(state, target.itemId);
      const entry = hitEntry(item, target.part, target.start, target.end, target.question?.trim() ? { question: target.question.trim() } : {});
      if (!entry) throw noSpan(l10n.t('the hit is no longer a span of "{0}"; ask again.', item.title));
      return { entry, spans: entry.spans };
    }
    case 'answer-sentence': {
      const item = requireItem(state, target.itemId);
      const hit = hitEntry(item, target.part, target.start, target.end);
      if (!hit) throw noSpan(l10n.t('the sentence is no longer a span of "{0}"; ask again.', item.title));
      const entry = answerSentenceEntry(target.question.trim(), target.text.trim() || hit.spans[0]!.quote, hit.spans);
      return { entry, spans: entry.spans };
    }
    case 'chat-answer': {
      let conversation;
      try {
        conversation = await loadConversation(corpus.root, target.conversationId);
      } catch (e) {
        throw new EngineError('not-found', (e as Error).message.replace(/^chat: /, ''));
      }
      const turn = conversation.turns.find((t) => t.turn === target.turn);
      if (!turn) throw new EngineError('not-found', l10n.t('no turn {0} in conversation {1}.', target.turn, target.conversationId));
      const spans = turn.citations.map((c) => pinnedFromSourceSpan(state.item(c.span.item_id), c.span));
      const entry = chatAnswerEntry(turn.question, turn.answer, spans, conversation.header.id);
      return { entry, spans: entry.spans };
    }
    case 'finding': {
      const loc = reportLocation(target.reportFile);
      if (!loc || path.resolve(loc.corpusRoot) !== path.resolve(corpus.root)) throw new EngineError('outside-corpus', l10n.t('the report is not a report of the indexed corpus (<corpus>/.marker-research/runs/<run>/report.md).'));
      const numbers = [...new Set(findCitations(target.lineText).map((c) => c.number))];
      if (!numbers.length) throw noSpan(l10n.t('line {0} of the report cites no source ([n]); put the cursor on a line with citations.', target.line + 1));
      const run = await readRun(corpus.root, loc.runId).catch((e: Error) => {
        throw new EngineError('not-found', e.message.replace(/^research: /, ''));
      });
      const byNumber = new Map((run.sources?.citations ?? []).map((c) => [c.number, c.span]));
      const spans = numbers.map((n) => byNumber.get(n)).map((s) => s && pinnedFromSourceSpan(state.item(s.item_id), s));
      const text = findingText(target.lineText);
      const entry = findingEntry(loc.runId, `line-${target.line + 1}`, text, spans, clip(text, 80) || `${loc.runId} · line ${target.line + 1}`);
      if (!entry.spans.length) throw noSpan(l10n.t('the citations of line {0} resolve to no source in the run\'s report.sources.json.', target.line + 1));
      return { entry, spans: entry.spans };
    }
    case 'selection': {
      const item = requireItem(state, target.itemId);
      const s = selectionSpan(layouts, item, target);
      const entry = selectionEntry(item, s.part, s.start, s.end);
      if (!entry) throw noSpan(l10n.t('the selection holds no text of the item.'));
      return { entry, spans: entry.spans };
    }
  }
}

/** Items whose text decides the notebook's language: the first few of the corpus. */
const LANGUAGE_SAMPLE_ITEMS = 24;
const languages = new WeakMap<Corpus, NotebookLanguage>();

/** The language most of the corpus's items are in (a sample of each item's text; a new notebook is written in it). */
export function corpusNotebookLanguage(corpus: Corpus): NotebookLanguage {
  let lang = languages.get(corpus);
  if (lang) return lang;
  const votes = new Map<NotebookLanguage, number>();
  for (const it of corpus.items.slice(0, LANGUAGE_SAMPLE_ITEMS)) {
    const text = `${it.title}\n${(it.transcript?.text ?? it.comments?.text ?? '').slice(0, 2_000)}`;
    const l = detectLanguageEsEnZh(text);
    votes.set(l, (votes.get(l) ?? 0) + 1);
  }
  lang = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en';
  languages.set(corpus, lang);
  return lang;
}
