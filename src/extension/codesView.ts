/**
 * The "Codes" tree view of the Marker Research container (`markerResearch.codes`): every code of
 * the codebook with its colour and counts, the codes under it and its coded segments across items
 * (each opening its span), segments of deleted codes, and the markers' topics as suggested codes.
 * Read from the engine when the view is shown and whenever the workbench changes.
 */
import * as vscode from 'vscode';
import type { CodesViewResult, CodeView, SegmentView } from '../shared/workbenchProtocol';
import { codesTree } from './codesTreeModel';
import type { WorkbenchService } from './workbenchService';
import { WorkbenchTreeView } from './workbenchTreeView';

export class CodesView extends WorkbenchTreeView<CodesViewResult> {
  static readonly viewId = 'markerResearch.codes';

  constructor(log: vscode.LogOutputChannel, workbench: WorkbenchService) {
    super({ viewId: CodesView.viewId, name: 'the Codes view', part: 'codes', read: () => workbench.codes(), count: (v) => v.codes.length, build: (v) => codesTree(vscode.l10n, v) }, log, workbench);
  }

  code(id: string): CodeView | undefined {
    return this.last?.codes.find((c) => c.id === id);
  }

  segment(id: string): SegmentView | undefined {
    return this.last?.codes.flatMap((c) => c.segments).find((s) => s.id === id) ?? this.last?.unknown.find((s) => s.id === id);
  }

  /** The node of code `id` (after a refresh), expanded and selected in the view. */
  reveal(codeId: string): Promise<void> {
    return this.revealNode('code', codeId, true);
  }
}
