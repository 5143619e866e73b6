/**
 * The "Notebook" tree view of the Marker Research container (`markerResearch.notebook`): the
 * entries of the corpus's notebook.md in order — title, kind and quote, the pinned words and
 * every quote with its place in the hover — each opening its span; lost spans flagged. Read from
 * the engine when the view is shown and whenever the workbench changes (while hidden, once it is
 * shown again).
 */
import * as vscode from 'vscode';
import type { NotebookEntryView, NotebookViewResult } from '../shared/lspProtocol';
import { notebookTree } from './notebookTreeModel';
import { WorkbenchTree } from './workbenchTreeItem';
import type { TreeNodeModel } from './workbenchTreeNode';
import type { WorkbenchService } from './workbenchService';

export class NotebookView implements vscode.Disposable {
  static readonly viewId = 'markerResearch.notebook';
  readonly tree: WorkbenchTree;
  readonly view: vscode.TreeView<TreeNodeModel>;
  private last: NotebookViewResult | undefined;
  private stale = true;
  private readonly subs: vscode.Disposable[];

  constructor(log: vscode.LogOutputChannel, workbench: WorkbenchService) {
    this.tree = new WorkbenchTree('the Notebook view', log, async () => {
      const v = await workbench.notebook();
      this.last = v;
      this.view.description = v.entries.length ? String(v.entries.length) : undefined;
      return notebookTree(vscode.l10n, v);
    });
    this.view = vscode.window.createTreeView(NotebookView.viewId, { treeDataProvider: this.tree, showCollapseAll: true });
    this.subs = [
      this.tree,
      this.view,
      workbench.onDidChange((what) => what === 'notebook' && this.changed()),
      this.view.onDidChangeVisibility((e) => e.visible && this.stale && void this.refresh()),
    ];
  }

  /** The workbench changed: read again now when shown, else when shown next. */
  private changed(): void {
    this.stale = true;
    if (this.view.visible) void this.refresh();
  }

  refresh(): Promise<void> {
    this.stale = false;
    return this.tree.refresh();
  }

  /** An entry as last read (for the edits that start from its words). */
  entry(id: string): NotebookEntryView | undefined {
    return this.last?.entries.find((e) => e.id === id);
  }

  /** The entries as last read. */
  get entries(): readonly NotebookEntryView[] {
    return this.last?.entries ?? [];
  }

  /** The node of entry `id` (after a refresh), shown and selected in the view. */
  async reveal(id: string): Promise<void> {
    await this.refresh();
    const node = this.tree.all().find((n) => n.ref?.kind === 'entry' && n.ref.id === id);
    if (node) await this.view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
