/**
 * A tree of {@link TreeNodeModel}s as a VS Code tree view: the nodes' models become `TreeItem`s
 * (the hover a Markdown string that is neither trusted nor HTML, a code's colour a filled circle
 * drawn as an SVG data URI), read again from the engine when the workbench changes.
 */
import * as vscode from 'vscode';
import type { TreeNodeModel } from './workbenchTreeNode';

/** A filled circle of `colour` (`#rrggbb`, checked by the codebook's schema) as an icon. */
export function circleIcon(colour: string): vscode.Uri {
  const c = /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : '#808080';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="5.5" fill="${c}" stroke="#80808080" stroke-width="1"/></svg>`;
  return vscode.Uri.parse(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
}

export function toTreeItem(node: TreeNodeModel): vscode.TreeItem {
  const state = !node.children?.length ? vscode.TreeItemCollapsibleState.None : node.collapsed === false ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(node.label, state);
  item.id = node.id;
  if (node.description) item.description = node.description;
  if (node.tooltip) {
    const md = new vscode.MarkdownString(node.tooltip);
    md.isTrusted = false;
    md.supportHtml = false;
    item.tooltip = md;
  }
  if (node.icon) item.iconPath = 'circle' in node.icon ? circleIcon(node.icon.circle) : new vscode.ThemeIcon(node.icon.codicon, node.icon.themeColour ? new vscode.ThemeColor(node.icon.themeColour) : undefined);
  if (node.contextValue) item.contextValue = node.contextValue;
  if (node.command) item.command = { command: node.command.command, title: node.command.title, arguments: node.command.args };
  return item;
}

/** A tree view's data: the nodes the last load gave, their parents (for `reveal`), a message when there is nothing. */
export class WorkbenchTree implements vscode.TreeDataProvider<TreeNodeModel>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNodeModel | undefined>();
  private roots: TreeNodeModel[] = [];
  private parents = new Map<TreeNodeModel, TreeNodeModel>();
  private loading: Promise<void> | undefined;
  private again = false;
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly what: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly load: () => Promise<TreeNodeModel[]>,
  ) {}

  /** Reads the tree again (one load at a time; a refresh asked for meanwhile loads once more after it). */
  refresh(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        try {
          this.roots = await this.load();
        } catch (e) {
          this.log.warn(`${this.what}: ${(e as Error).message}`);
          this.roots = [];
        }
        this.parents = new Map();
        const walk = (n: TreeNodeModel): void => {
          for (const c of n.children ?? []) {
            this.parents.set(c, n);
            walk(c);
          }
        };
        this.roots.forEach(walk);
      } while (this.again);
      this.emitter.fire(undefined);
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Every node of the tree (depth first). */
  all(): TreeNodeModel[] {
    const out: TreeNodeModel[] = [];
    const walk = (n: TreeNodeModel): void => {
      out.push(n);
      (n.children ?? []).forEach(walk);
    };
    this.roots.forEach(walk);
    return out;
  }

  getTreeItem(node: TreeNodeModel): vscode.TreeItem {
    return toTreeItem(node);
  }

  getChildren(node?: TreeNodeModel): TreeNodeModel[] {
    return node ? (node.children ?? []) : this.roots;
  }

  getParent(node: TreeNodeModel): TreeNodeModel | undefined {
    return this.parents.get(node);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
