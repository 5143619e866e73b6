/**
 * The "Notebook" tree view of the Marker Research container (`markerResearch.notebook`): the
 * entries of the corpus's notebook.md in order — title, kind and quote, the pinned words and
 * every quote with its place in the hover — each opening its span; lost spans flagged. Read from
 * the engine when the view is shown and whenever the workbench changes (while hidden, once it is
 * shown again).
 */
import * as vscode from 'vscode';
import type { NotebookEntryView, NotebookViewResult } from '../shared/workbenchProtocol';
import { notebookTree } from './notebookTreeModel';
import type { WorkbenchService } from './workbenchService';
import { WorkbenchTreeView } from './workbenchTreeView';

export class NotebookView extends WorkbenchTreeView<NotebookViewResult> {
  static readonly viewId = 'markerResearch.notebook';

  constructor(log: vscode.LogOutputChannel, workbench: WorkbenchService) {
    super({ viewId: NotebookView.viewId, name: 'the Notebook view', part: 'notebook', read: () => workbench.notebook(), count: (v) => v.entries.length, build: (v) => notebookTree(vscode.l10n, v) }, log, workbench);
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
  reveal(id: string): Promise<void> {
    return this.revealNode('entry', id, false);
  }
}
