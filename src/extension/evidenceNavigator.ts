/**
 * Where evidence opens: a marker, a citation or an Ask hit shows its span in
 * the item's readable view (the full-item document: speakers, times, turns,
 * comment authors, likes and dates), highlighted, centred and word-wrapped,
 * with "Open original" one click away (a lens above the span, and the
 * `line N` link of every turn and comment). The original file opens at the
 * span, highlighted, centred and with word wrap on. `markerResearch.evidenceView`
 * = `original` opens the original file directly, as before. The engine says
 * where (ranges of the readable view or of the original file); this opens,
 * highlights and wraps.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PartKind, TextRange } from '../core/corpus/types';
import { OPEN_EVIDENCE_COMMAND } from '../core/research/citationLinks';
import { originalPlaceRequest, readableSpansRequest, resolveMarkerRequest, type EvidenceSpan, type OriginalPlace as EngineOriginalPlace, type ReadableTarget } from '../shared/lspProtocol';
import type { EvidenceView } from '../shared/settings';
import type { CorpusService } from './corpusService';
import { FULL_ITEM_SCHEME, FullItemDocuments, OPEN_ORIGINAL_COMMAND, type OriginalTarget } from './fullItemDocuments';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import { MarkerServiceError } from './markerService';
import type { SettingsService } from './settings';

export type { EvidenceSpan } from '../shared/lspProtocol';

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
  if (!back || back.startsWith('..') || path.isAbsolute(back)) throw new MarkerServiceError('outside-corpus', vscode.l10n.t('evidence path "{0}" is outside the corpus folder.', rel));
  return vscode.Uri.file(abs);
}

const rangeOf = (doc: vscode.TextDocument, r: TextRange): vscode.Range => doc.validateRange(new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn));
const at = (r: vscode.Range): string => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;
const atRange = (r: TextRange): string => `${r.startLine + 1}:${r.startColumn + 1}-${r.endLine + 1}:${r.endColumn + 1}`;

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

/** What is highlighted in a document: the ranges, and the span behind them with its `file:line` (readable views). */
interface Shown {
  uri: string;
  ranges: vscode.Range[];
  span?: EvidenceSpan;
  originalLabel?: string | null;
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
    private readonly client: CorpusLanguageClient,
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

  // ---- markers -----------------------------------------------------------------------------

  /**
   * By-marker retrieval: the first evidence (with the marker's other evidence
   * in the same part highlighted too) in the readable view or the original
   * file; without evidence, the best search match of the marker's text.
   */
  async open(itemId: string, markerId: string): Promise<void> {
    const r = await this.client.request(resolveMarkerRequest, { itemId, markerId, view: this.view });
    if (r.target?.kind === 'readable') await this.showReadable(r.target, r.what);
    else if (r.target) await this.reveal(vscode.Uri.file(r.target.path), r.target.ranges);
    this.log.info(r.log);
    if (r.notice) void vscode.window.showInformationMessage(`Marker Research: ${r.notice}`);
    if (r.stale) {
      this.log.warn(`markers of ${itemId} were made before its files last changed: the span may be off; run Generate Markers`);
      vscode.window.setStatusBarMessage(`$(warning) ${vscode.l10n.t('Marker Research: this item changed since its markers were made; the highlighted span may be off.')}`, 8000);
    }
  }

  // ---- spans: hits, citations --------------------------------------------------------------

  /**
   * Opens a span (an Ask hit, a chat or report citation) in the readable view
   * or, with `evidenceView` = `original` or when the span does not fit the
   * loaded item (the corpus changed since), at `original` in the original file.
   */
  async openSpan(span: EvidenceSpan, original: OriginalPlace, what: string): Promise<vscode.TextEditor> {
    if (this.view === 'readable') {
      // The engine out of reach: the original file still opens.
      const target = await this.client.request(readableSpansRequest, { itemId: span.itemId, spans: [{ part: span.part, start: span.start, end: span.end }] }).catch((e: Error) => {
        this.log.warn(`${what}: the readable view is not available (${e.message}); opening the original file`);
        return null;
      });
      if (target) return this.showReadable(target, what);
    }
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
    const root = this.corpus.root;
    if (!t) throw new EngineRequestError('not-found', 'the link names no span of the corpus.');
    if (!root) throw new EngineRequestError('no-corpus', vscode.l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    await this.openSpan(t.span, { uri: corpusFile(root, t.file), ranges: [t.range] }, `${t.span.itemId}/${t.span.part} [${t.span.start}, ${t.span.end})`);
  }

  // ---- the readable view -------------------------------------------------------------------

  /** Shows spans of one item in its readable view (as the engine placed them): the first selected and centred, all highlighted; word wrap on. */
  async showReadable(target: ReadableTarget, what: string): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(FullItemDocuments.uriFor(target.itemId));
    if (doc.getText().length !== target.textLength) await rendered(doc, 2_000); // re-indexed: the document is being rendered anew
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    const all: vscode.Range[] = [];
    let main: vscode.Range | undefined;
    for (const shown of target.spans) {
      const ranges = shown.ranges.map((r) => rangeOf(doc, r));
      all.push(...ranges);
      if (!main && ranges.length) main = new vscode.Range(ranges[0]!.start, ranges[ranges.length - 1]!.end);
    }
    // Anchored at the end, active at the start: the cursor sits where the evidence begins.
    if (main) editor.selection = new vscode.Selection(main.end, main.start);
    await this.ensureWordWrap(editor);
    if (main) editor.revealRange(main, vscode.TextEditorRevealType.InCenter);
    this.highlight('readable', editor, all, target.spans[0]?.span, target.originalLabel);
    this.log.info(`opened ${what} in the readable view of ${target.itemId} at ${main ? at(main) : '?'} (${target.label})`);
    return editor;
  }

  /** "Open original" lenses: above the highlighted span, and the item's files on the title line. */
  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const itemId = FullItemDocuments.itemIdOf(doc.uri);
    const meta = itemId === undefined ? null : await this.fullItems.meta(itemId).catch(() => null);
    if (!itemId || !meta) return [];
    const lenses: vscode.CodeLens[] = [];
    const top = new vscode.Range(0, 0, 0, 0);
    for (const f of meta.files) {
      lenses.push(new vscode.CodeLens(top, { title: `$(go-to-file) ${f.relPath}`, tooltip: f.part === 'comments' ? vscode.l10n.t('Open the original comments file') : vscode.l10n.t('Open the original transcript file'), command: OPEN_ORIGINAL_COMMAND, arguments: [{ itemId, part: f.part, start: 0, end: 0 } satisfies OriginalTarget] }));
    }
    const shown = this.shown.readable;
    if (shown?.span && shown.uri === doc.uri.toString() && shown.ranges[0]) {
      const title = `$(go-to-file) ${shown.originalLabel ? vscode.l10n.t('Open original: {0}', shown.originalLabel) : vscode.l10n.t('Open original')}`;
      lenses.push(new vscode.CodeLens(shown.ranges[0], { title, tooltip: vscode.l10n.t('Open the highlighted span in the original file (word wrap on)'), command: OPEN_ORIGINAL_COMMAND, arguments: [shown.span satisfies OriginalTarget] }));
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
    const target = parseOriginalArg(arg);
    let place: EngineOriginalPlace;
    if (target) place = await this.client.request(originalPlaceRequest, target);
    else {
      const cursor = this.readableCursor(arg instanceof vscode.Uri ? arg : undefined);
      if (!cursor) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: "Open Original" opens the turn or comment under the cursor of an item\'s readable view (open a marker or an item\'s full view first).'));
        return undefined;
      }
      place = await this.client.request(originalPlaceRequest, cursor);
    }
    const editor = await this.reveal(vscode.Uri.file(place.path), [place.range]);
    const s = place.span;
    this.log.info(`opened the original of ${s.itemId}/${s.part} [${s.start}, ${s.end}) at ${place.relPath}:${atRange(place.range)}`);
    return editor;
  }

  /**
   * What the cursor of the readable view shown (by `uri`, else the active
   * editor) points at: the highlighted span when the cursor is in it, else the
   * place (the engine finds its turn or comment).
   */
  private readableCursor(uri: vscode.Uri | undefined): OriginalTarget | { itemId: string; line: number; character: number } | undefined {
    const editor = uri ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) : vscode.window.activeTextEditor;
    const doc = editor?.document;
    const itemId = doc && FullItemDocuments.itemIdOf(doc.uri);
    if (!editor || !doc || !itemId) return undefined;
    const pos = editor.selection.active;
    const shown = this.shown.readable;
    if (shown?.span && shown.uri === doc.uri.toString() && shown.ranges.some((r) => r.start.line <= pos.line && pos.line <= r.end.line)) return shown.span;
    return { itemId, line: pos.line, character: pos.character };
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

  private highlight(kind: 'readable' | 'original', editor: vscode.TextEditor, ranges: vscode.Range[], span?: EvidenceSpan, originalLabel?: string | null): void {
    const key = editor.document.uri.toString();
    const before = this.shown[kind];
    if (before && before.uri !== key) {
      for (const e of vscode.window.visibleTextEditors) {
        if (e.document.uri.toString() !== before.uri) continue;
        e.setDecorations(this.spanDecoration, []);
        e.setDecorations(this.lineDecoration, []);
      }
    }
    this.shown[kind] = { uri: key, ranges, span, originalLabel };
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
        if (e instanceof MarkerServiceError || e instanceof EngineRequestError) {
          this.log.warn(`${what}: ${message}`);
          void vscode.window.showWarningMessage(`Marker Research: ${message}`);
          return;
        }
        this.log.error(`${what} failed: ${(e as Error).stack ?? message}`);
        const pick = await vscode.window.showErrorMessage(`Marker Research: ${vscode.l10n.t('{0} failed: {1}', what, message)}`, vscode.l10n.t('Show Logs'));
        if (pick) this.log.show();
      }
    };
    return {
      [OPEN_ORIGINAL_COMMAND]: (arg?: unknown) => boundary(vscode.l10n.t('opening the original file'), () => this.openOriginal(arg)),
      [OPEN_EVIDENCE_COMMAND]: (arg?: unknown) => boundary(vscode.l10n.t('opening the citation'), () => this.openEvidence(arg)),
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
