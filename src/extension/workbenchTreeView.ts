/**
 * A tree view of the workbench (the Notebook, the Codes) read from the engine: read when the view
 * is shown and whenever its part of the workbench changes (while hidden, once it is shown again),
 * its count as the view's description, the last reading kept for the commands that start from it.
 */
import * as vscode from 'vscode';
import { WorkbenchTree } from './workbenchTreeItem';
import type { TreeNodeModel } from './workbenchTreeNode';
import type { WorkbenchChange, WorkbenchService } from './workbenchService';

/** What a workbench tree view reads and how it draws it. */
export interface WorkbenchTreeSpec<R> {
  viewId: string;
  /** The view as the log names it ("the Codes view"). */
  name: string;
  /** The change of the workbench that makes it read again. */
  part: WorkbenchChange;
  read: () => Promise<R>;
  /** Shown as the view's description when not 0. */
  count: (r: R) => number;
  build: (r: R) => TreeNodeModel[];
}

export class WorkbenchTreeView<R> implements vscode.Disposable {
  readonly tree: WorkbenchTree;
  readonly view: vscode.TreeView<TreeNodeModel>;
  /** The reading the tree was last drawn from. */
  protected last: R | undefined;
  private stale = true;
  private readonly subs: vscode.Disposable[];

  constructor(spec: WorkbenchTreeSpec<R>, log: vscode.LogOutputChannel, workbench: WorkbenchService) {
    this.tree = new WorkbenchTree(spec.name, log, async () => {
      const v = await spec.read();
      this.last = v;
      const n = spec.count(v);
      this.view.description = n ? String(n) : undefined;
      return spec.build(v);
    });
    this.view = vscode.window.createTreeView(spec.viewId, { treeDataProvider: this.tree, showCollapseAll: true });
    this.subs = [
      this.tree,
      this.view,
      workbench.onDidChange((what) => what === spec.part && this.changed()),
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

  /** The node `ref.kind` `id` (after a refresh), shown and selected in the view. */
  protected async revealNode(kind: 'entry' | 'code', id: string, expand: boolean): Promise<void> {
    await this.refresh();
    const node = this.tree.all().find((n) => n.ref?.kind === kind && n.ref.id === id);
    if (node) await this.view.reveal(node, { select: true, focus: false, ...(expand ? { expand: true } : {}) }).then(undefined, () => undefined);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
