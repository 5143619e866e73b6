/**
 * The workbench as the extension sees it (issue 24): the notebook and the codes of the indexed
 * corpus, held by the engine (`markerResearch/pin`, `…/codesView`, …). Every change goes through
 * here: an unsaved notebook.md in the editor is saved first (the engine edits the file, never the
 * editor's copy), and listeners hear what changed. The workbench files are watched, so an edit of
 * notebook.md or codebook.json by hand (or by another window) shows in the views; after every
 * index the pinned spans are re-anchored, and the researcher is told when some could not be found.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyCodeRequest, codeEditRequest, codeItemTableRequest, codesViewRequest, exportNotebookRequest, notebookEditRequest, notebookViewRequest, pinRequest, readableCodingsRequest, reanchorWorkbenchRequest, segmentEditRequest, type ApplyCodeResult, type CodeEditParams, type CodeEditResult, type CodeItemTableResult, type CodesViewResult, type NotebookEditParams, type NotebookViewResult, type PinResult, type ReadableCodingsResult, type SegmentEditParams, type SegmentView, type WorkbenchNote, type WorkbenchTarget } from '../shared/workbenchProtocol';
import type { CorpusService } from './corpusService';
import type { CorpusLanguageClient } from './languageClient';

/** What changed: the notebook, the codebook or the coded segments. */
export type WorkbenchChange = 'notebook' | 'codes';

/** The folder the workbench files are in, inside the corpus folder. */
const STATE_DIR = '.marker-research';
/** Changes of the files closer together than this are one refresh. */
const WATCH_DEBOUNCE_MS = 250;

export class WorkbenchService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkbenchChange>();
  private readonly subs: vscode.Disposable[] = [];
  private watcher: { root: string; disposables: vscode.Disposable[] } | undefined;
  private readonly pending = new Map<WorkbenchChange, NodeJS.Timeout>();
  /** Fires when the notebook or the codes changed (by a request here, a re-index, or the files). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly client: CorpusLanguageClient,
    private readonly corpus: CorpusService,
  ) {
    this.subs.push(
      corpus.onDidLoad((r) => {
        this.watch(r.root);
        // The views read again after every index (titles and places come from the corpus as it is now), re-anchored or not.
        void this.reanchor()
          .catch((e: Error) => this.log.warn(`workbench: re-anchoring after the index failed: ${e.message}`))
          .finally(() => {
            this.fire('notebook');
            this.fire('codes');
          });
      }),
    );
  }

  /** The corpus folder, when one is indexed. */
  get root(): string | undefined {
    return this.corpus.root;
  }

  /** notebook.md of the indexed corpus. */
  notebookFile(root = this.root): string | undefined {
    return root ? path.join(root, STATE_DIR, 'notebook.md') : undefined;
  }

  private fire(what: WorkbenchChange): void {
    clearTimeout(this.pending.get(what));
    this.pending.set(
      what,
      setTimeout(() => {
        this.pending.delete(what);
        this.changed.fire(what);
      }, WATCH_DEBOUNCE_MS),
    );
  }

  /** Watches the workbench files of `root` (outside the workspace too). */
  private watch(root: string): void {
    if (this.watcher?.root === root) return;
    for (const d of this.watcher?.disposables ?? []) d.dispose();
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.join(root, STATE_DIR)), '{notebook.md,codebook.json,codings.json}'));
    const on = (uri: vscode.Uri): void => this.fire(path.basename(uri.fsPath) === 'notebook.md' ? 'notebook' : 'codes');
    this.watcher = { root, disposables: [w, w.onDidChange(on), w.onDidCreate(on), w.onDidDelete(on)] };
  }

  /**
   * Saves notebook.md when the editor holds it with unsaved changes: the engine changes the file,
   * and the researcher's typing must not be lost or overwritten.
   */
  async saveNotebook(): Promise<void> {
    const file = this.notebookFile();
    if (!file) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === path.resolve(file));
    if (doc?.isDirty && !(await doc.save())) throw new Error(vscode.l10n.t('notebook.md has unsaved changes that could not be saved; save it and try again.'));
  }

  // ---- the notebook ---------------------------------------------------------------------------

  notebook(): Promise<NotebookViewResult> {
    return this.client.request(notebookViewRequest, {});
  }

  async pin(target: WorkbenchTarget | WorkbenchNote): Promise<PinResult> {
    await this.saveNotebook();
    const r = await this.client.request(pinRequest, { target });
    this.fire('notebook');
    return r;
  }

  async editEntry(params: NotebookEditParams): Promise<void> {
    await this.saveNotebook();
    await this.client.request(notebookEditRequest, params);
    this.fire('notebook');
  }

  async exportNotebook(file: string): Promise<{ file: string; entries: number; sources: number }> {
    await this.saveNotebook();
    return this.client.request(exportNotebookRequest, { file });
  }

  /** Re-anchors the notebook's and the codings' spans against the corpus just indexed (the caller refreshes the views); says so when some are lost. */
  async reanchor(): Promise<void> {
    await this.saveNotebook();
    const r = await this.client.request(reanchorWorkbenchRequest, {});
    const lost = r.notebook.newlyLost + r.codings.newlyLost;
    if (lost) {
      this.log.warn(`workbench: ${r.notebook.newlyLost} notebook span(s) and ${r.codings.newlyLost} coded segment(s) not found after the index: flagged, kept where they were`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Marker Research: {0} pinned or coded span(s) could not be found after the corpus was indexed again; they are flagged in the Notebook and Codes views and kept where they were.', lost),
      );
    }
  }

  // ---- the codes -------------------------------------------------------------------------------

  codes(): Promise<CodesViewResult> {
    return this.client.request(codesViewRequest, {});
  }

  async editCode(params: CodeEditParams): Promise<CodeEditResult> {
    const r = await this.client.request(codeEditRequest, params);
    this.fire('codes');
    return r;
  }

  async applyCode(codeId: string, target: WorkbenchTarget): Promise<ApplyCodeResult> {
    const r = await this.client.request(applyCodeRequest, { codeId, target });
    this.fire('codes');
    return r;
  }

  async editSegment(params: SegmentEditParams): Promise<SegmentView | null> {
    const r = await this.client.request(segmentEditRequest, params);
    this.fire('codes');
    return r.segment;
  }

  codeItemTable(): Promise<CodeItemTableResult> {
    return this.client.request(codeItemTableRequest, {});
  }

  readableCodings(itemId: string): Promise<ReadableCodingsResult | null> {
    return this.client.request(readableCodingsRequest, { itemId });
  }

  /** Tells the views to read again (the Refresh buttons). */
  refresh(what: WorkbenchChange): void {
    this.changed.fire(what);
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const d of this.watcher?.disposables ?? []) d.dispose();
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
