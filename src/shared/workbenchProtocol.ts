/**
 * The engine protocol's methods for the researcher's workbench (issue 24), typed once: the
 * notebook and codes (pin, notebook and codes views, edits, export, re-anchoring, coded spans in a
 * readable view), the views across items, and the REFI-QDA export. Same conventions as
 * `lspProtocol.ts` (method names `markerResearch/<name>`, `ENGINE_ERROR_CODE` refusals, work-done
 * progress on long work).
 */
import { RequestType, type WorkDoneProgressParams } from 'vscode-languageserver-protocol';
import type { PartKind, TextRange } from '../core/corpus/types';
import type { AcrossQuery, CompareQuery, ItemsComparison, ItemTimeline, MarkersAcross, TimelineQuery } from './acrossModel';
import type { OriginalRange } from './lspProtocol';

// ---- notebook and codes ---------------------------------------------------------------------------
/**
 * The workbench methods of the engine protocol: pinning what the researcher points at to the
 * corpus's notebook (`.marker-research/notebook.md`), coding it with a code of the codebook
 * (`codebook.json`, `codings.json`), the Notebook and Codes views' data, their edits, the
 * notebook's export, re-anchoring after a re-index, and where coded segments show in a readable
 * view. The engine reads and writes the files (core's `src/core/workbench`); the extension saves
 * an unsaved notebook.md in the editor before any request that changes it. Errors:
 * `no-corpus`, `not-found` (no such item, marker, entry, code, segment, conversation or turn),
 * `no-span` (nothing of the corpus to pin or code), `stale-view` (a readable view rendered
 * before the last index), `workbench-file` (a workbench file that does not read, named with its
 * line or field), `bad-request`.
 */

/** A readable document's range: zero-based lines and UTF-16 columns. */
export interface ReadableRange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** What a pin or a code is applied to: something the researcher points at. */
export type WorkbenchTarget =
  /** A marker of the sidebar: its claim and its evidence spans. */
  | { kind: 'marker'; itemId: string; markerId: string }
  /** An Ask hit: its focus span. */
  | { kind: 'hit'; itemId: string; part: PartKind; start: number; end: number; question?: string }
  /** A sentence of Ask's answer: the source's own words, exactly its span. */
  | { kind: 'answer-sentence'; itemId: string; part: PartKind; start: number; end: number; text: string; question: string }
  /** A chat answer: its Markdown and the spans it cites. */
  | { kind: 'chat-answer'; conversationId: string; turn: number }
  /** A finding of a report: a line of `report.md` (as the editor has it) and the spans its `[n]` cite. */
  | { kind: 'finding'; reportFile: string; line: number; lineText: string }
  /** A selection in an item's readable view (`documentLength`: the length of the document selected in, to refuse an older rendering). */
  | { kind: 'selection'; itemId: string; range: ReadableRange; documentLength: number };

/** A note of the researcher's own, added between entries. */
export interface WorkbenchNote {
  kind: 'note';
  title: string;
  note: string;
}

/** A pinned span as the views show it: the span, its exact quote, where it is in words and in its original file. */
export interface PinnedSpanView {
  itemId: string;
  itemTitle: string;
  part: PartKind;
  start: number;
  end: number;
  quote: string;
  /** The original file relative to the corpus folder, and the zero-based range there. */
  file: string;
  range: OriginalRange;
  /** `file:12` (one-based line). */
  fileLine: string;
  /** Who and where in words: `Daniel · 0:33`, `@lena · 12 likes · 2024-03-14`. */
  location: string;
  /** Set when re-anchoring could not find the quote again (the span kept where it was). */
  lost: 'item-missing' | 'part-missing' | 'quote-not-found' | null;
}

export type NotebookEntryKind = 'marker' | 'ask-hit' | 'answer-sentence' | 'chat-answer' | 'finding' | 'selection' | 'note';

/** An entry of the notebook as the Notebook view shows it. */
export interface NotebookEntryView {
  id: string;
  kind: NotebookEntryKind;
  title: string;
  /** The pinned words (a marker's claim, an answer sentence, a chat answer, a finding), or null. */
  text: string | null;
  /** The researcher's note under the entry, or null. */
  note: string | null;
  createdAt: string;
  spans: PinnedSpanView[];
  /** Zero-based line of the entry in notebook.md. */
  line: number;
}

export interface NotebookViewResult {
  /** The corpus folder, or null before an index. */
  root: string | null;
  /** notebook.md (absolute), or null before an index. */
  file: string | null;
  exists: boolean;
  lang: 'en' | 'zh' | 'es';
  entries: NotebookEntryView[];
  /** What does not read in notebook.md (`notebook.md:12: error: …`). */
  problems: string[];
}

/** Client → server: the Notebook view's data (an empty view before an index). */
export const notebookViewRequest = new RequestType<Record<string, never>, NotebookViewResult, void>('markerResearch/notebookView');

export interface PinParams {
  target: WorkbenchTarget | WorkbenchNote;
}

export interface PinResult {
  entry: NotebookEntryView;
  /** notebook.md (absolute). */
  file: string;
}

/** Client → server: adds an entry for the target (or a note) at the end of notebook.md (created when there is none, in the corpus's language). */
export const pinRequest = new RequestType<PinParams, PinResult, void>('markerResearch/pin');

export type NotebookEditParams = { op: 'remove'; id: string } | { op: 'update'; id: string; title?: string; note?: string | null };

/** Client → server: removes or changes an entry (`not-found` when there is none). */
export const notebookEditRequest = new RequestType<NotebookEditParams, { entry: NotebookEntryView | null }, void>('markerResearch/notebookEdit');

export interface ExportNotebookParams {
  /** Absolute; `.md` or `.html`. */
  file: string;
}

/** Client → server: writes the notebook as a report (Markdown or HTML, with its Sources). */
export const exportNotebookRequest = new RequestType<ExportNotebookParams, { file: string; entries: number; sources: number }, void>('markerResearch/exportNotebook');

/** What re-anchoring did to one file's spans. */
export interface ReanchorSummaryView {
  spans: number;
  moved: number;
  /** Spans not found (flagged), and of them the ones newly lost by this re-index. */
  lost: number;
  newlyLost: number;
  written: boolean;
}

/** Client → server: re-anchors the notebook's and the codings' spans against the indexed corpus. */
export const reanchorWorkbenchRequest = new RequestType<Record<string, never>, { notebook: ReanchorSummaryView; codings: ReanchorSummaryView }, void>('markerResearch/reanchorWorkbench');

/** A code as the Codes view shows it. */
export interface CodeView {
  id: string;
  name: string;
  colour: string;
  description: string | null;
  memo: string | null;
  parentId: string | null;
  /** 0 for a top-level code. */
  depth: number;
  /** Segments of this code, and of it with every code under it. */
  count: number;
  subtreeCount: number;
  /** Items with a segment of this code. */
  items: number;
}

/** A coded segment as the Codes view shows it. */
export interface SegmentView {
  id: string;
  codeId: string;
  span: PinnedSpanView;
  memo: string | null;
  createdAt: string;
}

/** A marker topic offered as a code. */
export interface SuggestedCodeView {
  topic: string;
  markers: number;
  items: number;
}

export interface CodesViewResult {
  root: string | null;
  /** In the codebook's tree order, each with its segments in reading order. */
  codes: (CodeView & { segments: SegmentView[] })[];
  /** Segments whose code is no longer in the codebook (kept, never dropped). */
  unknown: SegmentView[];
  suggested: SuggestedCodeView[];
  /** The colour a new code gets unless another is chosen. */
  nextColour: string;
  problems: string[];
}

/** Client → server: the Codes view's data (an empty view before an index). */
export const codesViewRequest = new RequestType<Record<string, never>, CodesViewResult, void>('markerResearch/codesView');

export type CodeEditParams =
  | { op: 'create'; name: string; colour?: string; description?: string; parentId?: string }
  | { op: 'rename'; id: string; name: string }
  | { op: 'recolour'; id: string; colour: string }
  | { op: 'describe'; id: string; description: string }
  | { op: 'memo'; id: string; text: string | null }
  | { op: 'delete'; id: string };

export interface CodeEditResult {
  code: CodeView | null;
  /** Segments removed with a deleted code. */
  segmentsRemoved: number;
}

/** Client → server: changes the codebook (`code-edit` when the edit breaks its rules: a duplicate name, an unknown code). */
export const codeEditRequest = new RequestType<CodeEditParams, CodeEditResult, void>('markerResearch/codeEdit');

export interface ApplyCodeParams {
  codeId: string;
  target: WorkbenchTarget;
}

export interface ApplyCodeResult {
  /** Segments added, and spans that had this code already. */
  added: number;
  existing: number;
  segments: SegmentView[];
}

/** Client → server: codes the target's spans (a marker's evidence, a hit, a finding's cited spans, a selection) with a code. */
export const applyCodeRequest = new RequestType<ApplyCodeParams, ApplyCodeResult, void>('markerResearch/applyCode');

export type SegmentEditParams = { op: 'remove'; id: string } | { op: 'memo'; id: string; text: string | null } | { op: 'recode'; id: string; codeId: string };

/** Client → server: removes, annotates or recodes a coded segment (`not-found` when there is none). */
export const segmentEditRequest = new RequestType<SegmentEditParams, { segment: SegmentView | null }, void>('markerResearch/segmentEdit');

/** The code × item table: segments per code (rows, in the codebook's tree order) and item (columns). */
export interface CodeItemTableResult {
  /** The columns: every item of the corpus in its order, then any other coded item. */
  items: { id: string; title: string }[];
  rows: { codeId: string; name: string; colour: string; depth: number; counts: number[]; total: number }[];
  itemTotals: number[];
  total: number;
  /** Segments whose code is not in the codebook (not in the table). */
  unknownCode: number;
}

/** Client → server: the code × item table of the indexed corpus. */
export const codeItemTableRequest = new RequestType<Record<string, never>, CodeItemTableResult, void>('markerResearch/codeItemTable');

export interface ReadableCodingsResult {
  itemId: string;
  /** The length and lines of the readable document the ranges are for (another length: an older rendering). */
  textLength: number;
  lineCount: number;
  /** Per code with segments in the item: its name, colour and the ranges of its segments in the readable document. */
  codes: { codeId: string; name: string; colour: string; ranges: TextRange[] }[];
}

/** Client → server: where the coded segments of an item are in its readable view (null when the indexed corpus has no such item). */
export const readableCodingsRequest = new RequestType<{ itemId: string }, ReadableCodingsResult | null, void>('markerResearch/readableCodings');

// ---- across items and the REFI-QDA export (issue 24) ---------------------------------------------

/**
 * Client → server: all markers of a kind or a topic across items, grouped by topic, then item
 * (`src/shared/acrossModel.ts`); with `detail: 'counts'`, topics and items with their counts only
 * (the picker). Errors: `no-corpus`, `bad-request`.
 */
export const markersAcrossRequest = new RequestType<AcrossQuery, MarkersAcross, void>('markerResearch/markersAcross');

/** Client → server: two or more items side by side (markers by kind, shared and distinct topics, similarity). Errors: `no-corpus`, `bad-request`. */
export const compareItemsRequest = new RequestType<CompareQuery, ItemsComparison, void>('markerResearch/compareItems');

/** Client → server: the items by date with their marker counts (undated ones apart). Errors: `no-corpus`, `bad-request`. */
export const itemTimelineRequest = new RequestType<TimelineQuery, ItemTimeline, void>('markerResearch/itemTimeline');

export interface ExportQdpxParams extends WorkDoneProgressParams {
  /** Absolute path of the `.qdpx` to write. */
  file: string;
  /** Markers as codes (folders "Marker kinds" and "Marker topics"), their spans coded. */
  markersAsCodes?: boolean;
}

export interface ExportQdpxResult {
  file: string;
  /** Size of the `.qdpx` in bytes. */
  bytes: number;
  sources: number;
  codes: number;
  segments: number;
  segmentsLeftOut: number;
  markers: number;
  notes: number;
  cases: number;
  selections: number;
  /** What was left out, and why (at most {@link EXPORT_QDPX_WARNINGS_SHOWN}; the engine's log has them all). */
  warnings: string[];
  ms: number;
}

/** Warnings an {@link ExportQdpxResult} carries. */
export const EXPORT_QDPX_WARNINGS_SHOWN = 20;

/**
 * Client → server: writes the researcher's project (items as their readable text, the codebook,
 * coded segments, the notebook, speakers as cases) as a REFI-QDA `.qdpx`; work-done progress,
 * cancellable. Errors: `no-corpus`, `bad-request`, `workbench-file` (a workbench file that does not read).
 */
export const exportQdpxRequest = new RequestType<ExportQdpxParams, ExportQdpxResult, void>('markerResearch/exportQdpx');
