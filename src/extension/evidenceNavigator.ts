/**
 * Where evidence opens: a marker, a citation or an Ask hit shows its span in
 * the item's readable view (the full-item document: speakers, times, turns,
 * comment authors, likes and dates), highlighted, centred and word-wrapped,
 * with "Open original" one click away (a lens above the span, and the
 * `line N` link of every turn and comment). The original file opens at the
 * span, highlighted, centred and with word wrap on. `markerResearch.evidenceView`
 * = `original` opens the original file directly, as before.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fileLineLabel, locationLabel } from '../core/corpus/locationLabel';
import { mapSpan } from '../core/corpus/spans';
import type { Corpus, CorpusItem, PartKind, TextRange } from '../core/corpus/types';
import { readablePlaceAt, readableRanges } from '../core/markers/readableSpans';
import { OPEN_EVIDENCE_COMMAND } from '../core/research/citationLinks';
import type { Marker } from '../core/markers/schema';
import { retrieve, type RetrievedSpan } from '../core/search/retrieve';
import { tokenize, tokenizeQuery } from '../core/search/tokenize';
import type { EvidenceView } from '../shared/settings';
import type { CorpusService } from './corpusService';
import { FULL_ITEM_SCHEME, FullItemDocuments, OPEN_ORIGINAL_COMMAND, type OriginalTarget } from './fullItemDocuments';
import { MarkerServiceError, type MarkerService } from './markerService';
import type { SettingsService } from './settings';

/** A span of an item's part: offsets into the part's normalised text. */
export interface EvidenceSpan {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** Where a span is in its original file: what opens when the span no longer fits the loaded corpus, and in the `original` view. */
export interface OriginalPlace {
  uri: vscode.Uri;
  ranges: readonly TextRange[];
}

/** Opens a span (a hit, a citation) where the settings say, falling back to `original` when the span does not fit the loaded item. */
export type SpanOpener = (span: EvidenceSpan, original: OriginalPlace, what: string) => Promise<unknown>;

/** Resolves a corpus-relative path, refusing anything outside the corpus folder. */
export function corpusFile(root: string, rel: string): vscode.Uri {
  const abs = path.resolve(root, rel);
  const back = path.relative(root, abs);
  if (!back || back.startsWith('..') || path.isAbsolute(back)) throw new MarkerServiceError('outside-corpus', `evidence path "${rel}" is outside the corpus folder.`);
  return vscode.Uri.file(abs);
}

/** The part's normalised text, or undefined when the item has no such part. */
function partText(item: CorpusItem, part: PartKind): string | undefined {
  return (part === 'transcript' ? item.transcript : item.comments)?.text;
}

/** True when `span` lies inside the loaded item's part (a span of an older version of the item may not). */
function fits(item: CorpusItem, span: Pick<EvidenceSpan, 'part' | 'start' | 'end'>): boolean {
  const text = partText(item, span.part);
  return text !== undefined && span.start >= 0 && span.end >= span.start && span.end <= text.length;
}

const rangeOf = (doc: vscode.TextDocument, r: TextRange): vscode.Range => doc.validateRange(new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn));
const at = (r: vscode.Range): string => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;

/** VS Code wraps a file "dominated by long lines" (`editor.wordWrapMinified`) on its own: lines of 10,000+ characters hold most of it. */
function dominatedByLongLines(doc: vscode.TextDocument): boolean {
  let long = 0;
  let short = 0;
  for (let i = 0; i < doc.lineCount; i++) {
    const n = doc.lineAt(i).text.length;
    if (n >= 10_000) long += n;
    else short += n;
  }
  return long > short;
}

/** Resolves when `doc` changes (its content was provided anew), or after `ms`. */
function rendered(doc: vscode.TextDocument, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => e.document === doc && done());
    const timer = setTimeout(done, ms);
  });
}

/** What is highlighted in a document: the ranges, and the span behind them (readable views). */
interface Shown {
  uri: string;
  ranges: vscode.Range[];
  span?: EvidenceSpan;
}

/** Opens evidence in the readable view or the original file, highlighted; serves "Open original". */
export class EvidenceNavigator implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly spanDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
    borderStyle: 'solid',
    borderWidth: '1px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  private readonly lineDecoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });
  /** The highlight of the readable view and of the original file (one each), re-applied when their editors show again. */
  private readonly shown: { readable?: Shown; original?: Shown } = {};
  /** Documents this extension turned word wrap on for (VS Code keeps the toggle per document until it closes). */
  private readonly wrapped = new Set<string>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  private readonly subs: vscode.Disposable[];
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly markers: MarkerService,
    private readonly corpus: CorpusService,
    private readonly fullItems: FullItemDocuments,
    private readonly settings: SettingsService,
  ) {
    this.subs = [
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        for (const e of editors) this.redecorate(e);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const key = doc.uri.toString();
        this.wrapped.delete(key);
        if (this.shown.readable?.uri === key) this.shown.readable = undefined;
        if (this.shown.original?.uri === key) this.shown.original = undefined;
      }),
      corpus.onDidLoad(() => {
        // The readable documents are rendered anew: the old ranges may not fit.
        this.shown.readable = undefined;
        this.lensesChanged.fire();
      }),
    ];
  }

  private get view(): EvidenceView {
    return this.settings.value.evidenceView;
  }

  private item(itemId: string): CorpusItem | undefined {
    return this.corpus.current?.items.find((it) => it.id === itemId);
  }

  // ---- markers -----------------------------------------------------------------------------

  /**
   * By-marker retrieval: the first evidence (with the marker's other evidence
   * in the same part highlighted too) in the readable view or the original
   * file; without evidence, the best search match of the marker's text.
   */
  async open(itemId: string, markerId: string): Promise<void> {
    const corpus = this.corpus.current;
    if (!corpus) throw new MarkerServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    const { item, marker, stale } = this.markers.find(itemId, markerId);
    const first = marker.evidence[0];
    if (!first) return this.openBySearch(corpus, itemId, marker);
    const s = first.source;
    const what = `marker ${marker.id} (${marker.kind})`;
    const samePart = marker.evidence.filter((e) => e.part === first.part);
    if (this.view === 'readable' && samePart.every((e) => fits(item, e))) {
      const spans = samePart.map((e) => ({ itemId, part: e.part, start: e.start, end: e.end }));
      await this.showReadable(item, spans, what);
      this.log.info(`${what}: evidence ${s.file}:${s.startLine + 1}:${s.startColumn + 1}-${s.endLine + 1}:${s.endColumn + 1}`);
    } else {
      const sameFile = marker.evidence.filter((e) => e.source.file === s.file).map((e) => e.source);
      const editor = await this.reveal(corpusFile(corpus.root, s.file), sameFile);
      this.log.info(`opened ${what} at ${s.file}:${s.startLine + 1}:${s.startColumn + 1}-${s.endLine + 1}:${s.endColumn + 1}${editor ? '' : ' (no editor)'}`);
    }
    if (stale) {
      this.log.warn(`markers of ${itemId} were made before its files last changed: the span may be off; run Generate Markers`);
      vscode.window.setStatusBarMessage('$(warning) Marker Research: this item changed since its markers were made; the highlighted span may be off.', 8000);
    }
  }

  private async openBySearch(corpus: Corpus, itemId: string, marker: Marker): Promise<void> {
    const index = await this.markers.searchIndex(corpus);
    const query = `${marker.text} ${marker.topic}`.trim();
    let scope = 'item';
    let span = retrieve(index, query, { itemIds: [itemId], budgetWords: 1000 }).spans.find((x) => x.source);
    if (!span) {
      scope = 'corpus';
      span = retrieve(index, query, { budgetWords: 1000 }).spans.find((x) => x.source);
    }
    if (!span?.source) {
      this.log.info(`marker ${marker.id} has no evidence and a search of its text found nothing`);
      void vscode.window.showInformationMessage('Marker Research: this marker has no evidence span, and a search of its text found nothing in the corpus.');
      return;
    }
    const best = bestUnit(corpus, span, query);
    const item = this.item(span.itemId);
    if (this.view === 'readable' && item) {
      const unit = best ?? { start: span.start, end: span.end };
      await this.showReadable(item, [{ itemId: span.itemId, part: span.part, ...unit }], `the best search match for marker ${marker.id}`);
    } else {
      await this.reveal(vscode.Uri.file(span.source.file.path), [best?.range ?? span.source.range]);
    }
    this.log.info(`marker ${marker.id} has no evidence span: opened the best search match in the ${scope} at ${span.source.file.relPath}:${(best?.range ?? span.source.range).startLine + 1}`);
    void vscode.window.showInformationMessage(
      `Marker Research: this marker has no evidence span (ungrounded); opened the best search match for its text${scope === 'corpus' ? ' elsewhere in the corpus' : ''} instead.`,
    );
  }

  // ---- spans: hits, citations --------------------------------------------------------------

  /**
   * Opens a span (an Ask hit, a chat or report citation) in the readable view
   * or, with `evidenceView` = `original` or when the span does not fit the
   * loaded item (the corpus changed since), at `original` in the original file.
   */
  async openSpan(span: EvidenceSpan, original: OriginalPlace, what: string): Promise<vscode.TextEditor> {
    const item = this.item(span.itemId);
    if (this.view === 'readable' && item && fits(item, span)) return this.showReadable(item, [span], what);
    const editor = await this.reveal(original.uri, original.ranges);
    const main = editor.selection;
    this.log.info(`opened ${what} at ${vscode.workspace.asRelativePath(original.uri)}:${at(new vscode.Range(main.active, main.anchor))}${this.view === 'readable' ? ' (the span does not fit the indexed item: original file)' : ''}`);
    return editor;
  }

  /**
   * `markerResearch.openEvidence`: what a report citation links to. Takes
   * `{ itemId, part, start, end, file, range }` (`file` relative to the corpus
   * root, `range` zero-based in it).
   */
  async openEvidence(arg: unknown): Promise<void> {
    const t = parseEvidenceArg(arg);
    const corpus = this.corpus.current;
    if (!t) throw new MarkerServiceError('not-found', 'the link names no span of the corpus.');
    if (!corpus) throw new MarkerServiceError('no-corpus', 'no corpus is indexed; run "Marker Research: Index Corpus" first.');
    await this.openSpan(t.span, { uri: corpusFile(corpus.root, t.file), ranges: [t.range] }, `${t.span.itemId}/${t.span.part} [${t.span.start}, ${t.span.end})`);
  }

  // ---- the readable view -------------------------------------------------------------------

  /** Shows `spans` (of one item) in the item's readable view: the first selected and centred, all highlighted; word wrap on. */
  async showReadable(item: CorpusItem, spans: readonly EvidenceSpan[], what: string): Promise<vscode.TextEditor> {
    const layout = this.fullItems.layout(item);
    const doc = await vscode.workspace.openTextDocument(FullItemDocuments.uriFor(item.id));
    if (doc.getText().length !== layout.text.length) await rendered(doc, 2_000); // re-indexed: the document is being rendered anew
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    const all: vscode.Range[] = [];
    let main: vscode.Range | undefined;
    for (const span of spans) {
      const pieces = readableRanges(layout, span.part, span.start, span.end).map((r) => rangeOf(doc, r));
      const visible = pieces.filter((r) => !r.isEmpty);
      const shown = visible.length ? visible : pieces.slice(0, 1);
      all.push(...shown);
      if (!main && shown.length) main = new vscode.Range(shown[0]!.start, shown[shown.length - 1]!.end);
    }
    // Anchored at the end, active at the start: the cursor sits where the evidence begins.
    if (main) editor.selection = new vscode.Selection(main.end, main.start);
    await this.ensureWordWrap(editor);
    if (main) editor.revealRange(main, vscode.TextEditorRevealType.InCenter);
    this.highlight('readable', editor, all, spans[0]);
    const first = spans[0];
    const label = first ? locationLabel(item, first.part, first.start, first.end, { title: false }) : '';
    this.log.info(`opened ${what} in the readable view of ${item.id} at ${main ? at(main) : '?'} (${label})`);
    return editor;
  }

  /** "Open original" lenses: above the highlighted span, and the item's files on the title line. */
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const item = this.item(FullItemDocuments.itemIdOf(doc.uri) ?? '');
    if (!item) return [];
    const lenses: vscode.CodeLens[] = [];
    const top = new vscode.Range(0, 0, 0, 0);
    for (const part of ['transcript', 'comments'] as const) {
      const p = part === 'transcript' ? item.transcript : item.comments;
      if (!p?.text) continue;
      lenses.push(new vscode.CodeLens(top, { title: `$(go-to-file) ${p.file.relPath}`, tooltip: `Open the original ${part} file`, command: OPEN_ORIGINAL_COMMAND, arguments: [{ itemId: item.id, part, start: 0, end: 0 } satisfies OriginalTarget] }));
    }
    const shown = this.shown.readable;
    if (shown?.span && shown.uri === doc.uri.toString() && shown.ranges[0]) {
      const s = shown.span;
      const src = mapSpan(item, s);
      const title = `$(go-to-file) Open original${src ? `: ${fileLineLabel({ file: src.file.relPath, startLine: src.range.startLine })}` : ''}`;
      lenses.push(new vscode.CodeLens(shown.ranges[0], { title, tooltip: 'Open the highlighted span in the original file (word wrap on)', command: OPEN_ORIGINAL_COMMAND, arguments: [s satisfies OriginalTarget] }));
    }
    return lenses;
  }

  // ---- the original file -------------------------------------------------------------------

  /**
   * `markerResearch.openOriginal`: a span (`{ itemId, part, start, end }`; an
   * empty span opens the turn or comment it sits in) in its original file; with
   * no span (palette, editor title: a URI), the span highlighted in the active
   * readable view when the cursor is in it, else the turn or comment under the cursor.
   */
  async openOriginal(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const target = parseOriginalArg(arg) ?? this.targetAtCursor(arg instanceof vscode.Uri ? arg : undefined);
    if (!target) {
      void vscode.window.showInformationMessage('Marker Research: "Open Original" opens the turn or comment under the cursor of an item\'s readable view (open a marker or an item\'s full view first).');
      return undefined;
    }
    const item = this.item(target.itemId);
    const text = item && partText(item, target.part);
    if (!item || text === undefined) throw new MarkerServiceError('not-found', `no ${target.part} of "${target.itemId}" in the indexed corpus; run Index Corpus again.`);
    let { start, end } = target;
    if (end <= start) {
      // An empty span: the unit it sits in.
      const unit = unitAt(item, target.part, Math.min(start, Math.max(0, text.length - 1)));
      start = unit?.start ?? start;
      end = unit?.end ?? start;
    }
    const src = mapSpan(item, { part: target.part, start, end });
    if (!src) throw new MarkerServiceError('not-found', `the span has no place in the ${target.part} file of "${target.itemId}".`);
    const editor = await this.reveal(vscode.Uri.file(src.file.path), [src.range]);
    this.log.info(`opened the original of ${target.itemId}/${target.part} [${start}, ${end}) at ${src.file.relPath}:${src.range.startLine + 1}:${src.range.startColumn + 1}-${src.range.endLine + 1}:${src.range.endColumn + 1}`);
    return editor;
  }

  /** The span under the cursor of the readable view shown (by `uri`, else the active editor). */
  private targetAtCursor(uri: vscode.Uri | undefined): OriginalTarget | undefined {
    const editor = uri ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) : vscode.window.activeTextEditor;
    const doc = editor?.document;
    const itemId = doc && FullItemDocuments.itemIdOf(doc.uri);
    const item = itemId ? this.item(itemId) : undefined;
    if (!editor || !doc || !item) return undefined;
    const pos = editor.selection.active;
    const shown = this.shown.readable;
    if (shown?.span && shown.uri === doc.uri.toString() && shown.ranges.some((r) => r.start.line <= pos.line && pos.line <= r.end.line)) return shown.span;
    const layout = this.fullItems.layout(item);
    const place = readablePlaceAt(layout, pos.line, pos.character);
    if (place) return { itemId: item.id, part: place.part, start: place.offset, end: place.offset };
    const part: PartKind = item.transcript?.text ? 'transcript' : 'comments';
    return { itemId: item.id, part, start: 0, end: 0 };
  }

  /**
   * Opens `uri`, selects the first range (cursor at its start), centres it,
   * highlights every range and turns word wrap on: the original file of a
   * marker, a hit or a citation.
   */
  async reveal(uri: vscode.Uri, ranges: readonly TextRange[]): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const valid = ranges.map((r) => rangeOf(doc, r));
    const main = valid[0] ?? new vscode.Range(0, 0, 0, 0);
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    // Anchored at the end, active at the start: the cursor (and the status bar's "Ln, Col") sits where the evidence begins.
    editor.selection = new vscode.Selection(main.end, main.start);
    await this.ensureWordWrap(editor);
    editor.revealRange(main, vscode.TextEditorRevealType.InCenter);
    this.highlight(doc.uri.scheme === FULL_ITEM_SCHEME ? 'readable' : 'original', editor, valid);
    return editor;
  }

  // ---- highlight and word wrap ----------------------------------------------------------------

  private highlight(kind: 'readable' | 'original', editor: vscode.TextEditor, ranges: vscode.Range[], span?: EvidenceSpan): void {
    const key = editor.document.uri.toString();
    const before = this.shown[kind];
    if (before && before.uri !== key) {
      for (const e of vscode.window.visibleTextEditors) {
        if (e.document.uri.toString() !== before.uri) continue;
        e.setDecorations(this.spanDecoration, []);
        e.setDecorations(this.lineDecoration, []);
      }
    }
    this.shown[kind] = { uri: key, ranges, span };
    editor.setDecorations(this.spanDecoration, ranges);
    editor.setDecorations(this.lineDecoration, ranges);
    if (kind === 'readable') this.lensesChanged.fire();
  }

  /** An editor shown again (another tab was in front) gets its highlight back. */
  private redecorate(editor: vscode.TextEditor): void {
    const key = editor.document.uri.toString();
    for (const s of [this.shown.readable, this.shown.original]) {
      if (s?.uri !== key) continue;
      editor.setDecorations(this.spanDecoration, s.ranges);
      editor.setDecorations(this.lineDecoration, s.ranges);
    }
  }

  /**
   * Word wrap on for `editor`'s document. The API has no per-editor word wrap
   * option: "View: Toggle Word Wrap" sets an override on the active editor's
   * document, kept until the document closes. It is run once per document, and
   * only when the settings leave wrapping off (`editor.wordWrap` for the
   * document's language, and no automatic wrapping of a minified file).
   */
  private async ensureWordWrap(editor: vscode.TextEditor): Promise<void> {
    const doc = editor.document;
    const key = doc.uri.toString();
    if (this.wrapped.has(key)) return;
    const cfg = vscode.workspace.getConfiguration('editor', doc);
    if (cfg.get<string>('wordWrap', 'off') !== 'off') return;
    if (cfg.get<boolean>('wordWrapMinified', true) && dominatedByLongLines(doc)) return;
    const active = vscode.window.activeTextEditor;
    if (active?.document.uri.toString() !== key || active.viewColumn !== editor.viewColumn) return; // the toggle acts on the active editor only
    await vscode.commands.executeCommand('editor.action.toggleWordWrap');
    this.wrapped.add(key);
    this.log.info(`word wrap on for ${doc.uri.scheme === 'file' ? vscode.workspace.asRelativePath(doc.uri) : doc.uri.toString(true)}`);
  }

  /** The commands the navigator serves: "Open Original" and the target of report citation links. */
  commands(): Record<string, (...args: unknown[]) => unknown> {
    const boundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
      try {
        await fn();
      } catch (e) {
        const message = (e as Error).message.replace(/^markers: /, '');
        if (e instanceof MarkerServiceError) {
          this.log.warn(`${what}: ${message}`);
          void vscode.window.showWarningMessage(`Marker Research: ${message}`);
          return;
        }
        this.log.error(`${what} failed: ${(e as Error).stack ?? message}`);
        const pick = await vscode.window.showErrorMessage(`Marker Research: ${what} failed: ${message}`, 'Show Logs');
        if (pick) this.log.show();
      }
    };
    return {
      [OPEN_ORIGINAL_COMMAND]: (arg?: unknown) => boundary('opening the original file', () => this.openOriginal(arg)),
      [OPEN_EVIDENCE_COMMAND]: (arg?: unknown) => boundary('opening the citation', () => this.openEvidence(arg)),
    };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.lensesChanged.dispose();
    this.spanDecoration.dispose();
    this.lineDecoration.dispose();
  }
}

// ---- helpers -------------------------------------------------------------------------------------

const isPart = (v: unknown): v is PartKind => v === 'transcript' || v === 'comments';
const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** `{ itemId, part, start, end }`, as a command argument (links and lenses pass it; anything else is not a target). */
function parseOriginalArg(arg: unknown): OriginalTarget | undefined {
  if (!arg || typeof arg !== 'object' || arg instanceof vscode.Uri) return undefined;
  const o = arg as Record<string, unknown>;
  if (typeof o['itemId'] !== 'string' || !isPart(o['part']) || !isOffset(o['start']) || !isOffset(o['end'])) return undefined;
  return { itemId: o['itemId'], part: o['part'], start: o['start'], end: o['end'] };
}

/** `{ itemId, part, start, end, file, range }` of a report citation link. */
function parseEvidenceArg(arg: unknown): { span: EvidenceSpan; file: string; range: TextRange } | undefined {
  const span = parseOriginalArg(arg);
  if (!span) return undefined;
  const o = arg as Record<string, unknown>;
  const r = o['range'] as Record<string, unknown> | undefined;
  if (typeof o['file'] !== 'string' || !r || typeof r !== 'object') return undefined;
  const range = { startLine: r['startLine'], startColumn: r['startColumn'], endLine: r['endLine'], endColumn: r['endColumn'] };
  if (!Object.values(range).every(isOffset)) return undefined;
  return { span, file: o['file'], range: range as TextRange };
}

/** The turn or comment of `part` that holds offset `k`, as a span. */
function unitAt(item: CorpusItem, part: PartKind, k: number): { start: number; end: number } | undefined {
  const units = part === 'transcript' ? item.transcript?.segments : item.comments?.comments.filter((c) => c.text.trim());
  let best: { start: number; end: number } | undefined;
  for (const u of units ?? []) {
    if (u.offset > k) break;
    best = { start: u.offset, end: u.offset + u.text.length };
  }
  return best;
}

/**
 * Within a retrieved span (a chunk of several turns or comments), the turn or
 * comment that shares the most query terms: what the fallback of an ungrounded
 * marker opens.
 */
function bestUnit(corpus: Corpus, span: RetrievedSpan, query: string): { start: number; end: number; range: TextRange } | undefined {
  const item = corpus.items.find((it) => it.id === span.itemId);
  const units = span.part === 'transcript' ? item?.transcript?.segments : item?.comments?.comments;
  const terms = new Set(tokenizeQuery(query));
  let best: { start: number; end: number; range: TextRange; score: number } | undefined;
  for (const u of units ?? []) {
    if (u.index < span.firstIndex || u.index > span.lastIndex) continue;
    const score = new Set(tokenize(u.text).filter((t) => terms.has(t))).size;
    if (score > (best?.score ?? 0)) best = { start: u.offset, end: u.offset + u.text.length, range: u.source, score };
  }
  return best;
}
