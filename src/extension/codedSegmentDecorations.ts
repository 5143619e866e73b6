/**
 * Coded segments in the readable view (issue 24): each code's segments underlined in its colour,
 * with a faint background of it, a mark in the overview ruler, and the code's name on hover. The
 * engine says where (`markerResearch/readableCodings`: ranges of the readable document); a
 * document of another length is an older rendering and gets no marks rather than wrong ones.
 * Refreshed when a readable view shows, when it is rendered anew, and when the codes change.
 */
import * as vscode from 'vscode';
import { hoverText } from '../core/text/markdownSafe';
import { FullItemDocuments, FULL_ITEM_SCHEME } from './fullItemDocuments';
import type { WorkbenchService } from './workbenchService';

export class CodedSegmentDecorations implements vscode.Disposable {
  /** One decoration type per colour (created when first used). */
  private readonly types = new Map<string, vscode.TextEditorDecorationType>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly workbench: WorkbenchService,
  ) {
    this.subs = [
      vscode.window.onDidChangeVisibleTextEditors(() => void this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === FULL_ITEM_SCHEME) void this.refresh();
      }),
      workbench.onDidChange((what) => what === 'codes' && void this.refresh()),
    ];
    void this.refresh();
  }

  private typeFor(colour: string): vscode.TextEditorDecorationType {
    let type = this.types.get(colour);
    if (!type) {
      type = vscode.window.createTextEditorDecorationType({
        borderStyle: 'solid',
        borderColor: colour,
        borderWidth: '0 0 2px 0',
        backgroundColor: `${colour}1f`,
        overviewRulerColor: colour,
        overviewRulerLane: vscode.OverviewRulerLane.Right,
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      });
      this.types.set(colour, type);
    }
    return type;
  }

  /** Marks the coded segments of every visible readable view. */
  async refresh(): Promise<void> {
    for (const editor of vscode.window.visibleTextEditors) {
      const itemId = FullItemDocuments.itemIdOf(editor.document.uri);
      if (itemId === undefined) continue;
      const shown = await this.workbench.readableCodings(itemId).catch((e: Error) => {
        this.log.debug(`coded segments of ${itemId}: ${e.message}`);
        return null;
      });
      const fits = shown && editor.document.getText().length === shown.textLength;
      const byColour = new Map<string, vscode.DecorationOptions[]>();
      for (const c of fits ? shown.codes : []) {
        const hover = new vscode.MarkdownString(`$(tag) ${hoverText(c.name)}`, true);
        const list = byColour.get(c.colour) ?? [];
        for (const r of c.ranges) list.push({ range: new vscode.Range(r.startLine, r.startColumn, r.endLine, r.endColumn), hoverMessage: hover });
        byColour.set(c.colour, list);
      }
      for (const colour of byColour.keys()) this.typeFor(colour);
      for (const [colour, type] of this.types) editor.setDecorations(type, byColour.get(colour) ?? []);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const t of this.types.values()) t.dispose();
  }
}
