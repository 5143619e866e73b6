/**
 * The "Codes" tree view of the Marker Research container (`markerResearch.codes`): every code of
 * the codebook with its colour and counts, the codes under it and its coded segments across items
 * (each opening its span), segments of deleted codes, and the markers' topics as suggested codes.
 * Read from the engine when the view is shown and whenever the workbench changes.
 */
import * as vscode from 'vscode';
import type { CodesViewResult, CodeView, SegmentView } from '../shared/lspProtocol';
import { codesTree } from './codesTreeModel';
import { WorkbenchTree } from './workbenchTreeItem';
import type { TreeNodeModel } from './workbenchTreeNode';
import type { WorkbenchService } from './workbenchService';

export class CodesView implements vscode.Disposable {
  static readonly viewId = 'markerResearch.codes';
  readonly tree: WorkbenchTree;
  readonly view: vscode.TreeView<TreeNodeModel>;
  private last: CodesViewResult | undefined;
  private stale = true;
  private readonly subs: vscode.Disposable[];

  constructor(log: vscode.LogOutputChannel, workbench: WorkbenchService) {
    this.tree = new WorkbenchTree('the Codes view', log, async () => {
      const v = await workbench.codes();
      this.last = v;
      this.view.description = v.codes.length ? String(v.codes.length) : undefined;
      return codesTree(vscode.l10n, v);
    });
    this.view = vscode.window.createTreeView(CodesView.viewId, { treeDataProvider: this.tree, showCollapseAll: true });
    this.subs = [
      this.tree,
      this.view,
      workbench.onDidChange((what) => what === 'codes' && this.changed()),
      this.view.onDidChangeVisibility((e) => e.visible && this.stale && void this.refresh()),
    ];
  }

  private changed(): void {
    this.stale = true;
    if (this.view.visible) void this.refresh();
  }

  refresh(): Promise<void> {
    this.stale = false;
    return this.tree.refresh();
  }

  code(id: string): CodeView | undefined {
    return this.last?.codes.find((c) => c.id === id);
  }

  segment(id: string): SegmentView | undefined {
    return this.last?.codes.flatMap((c) => c.segments).find((s) => s.id === id) ?? this.last?.unknown.find((s) => s.id === id);
  }

  /** The node of code `id` (after a refresh), expanded and selected in the view. */
  async reveal(codeId: string): Promise<void> {
    await this.refresh();
    const node = this.tree.all().find((n) => n.ref?.kind === 'code' && n.ref.id === codeId);
    if (node) await this.view.reveal(node, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
