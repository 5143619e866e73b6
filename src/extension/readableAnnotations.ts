/**
 * Annotations in the readable view (`{disfmarker}`, `{vocalsound}`, `[Música]`, `[ __ ]`,
 * `(risas)`): transcription marks, not what was said. The engine says where they are in each
 * readable document (core's `readableAnnotations`); this dims them (the default), hides them, or
 * leaves them as they are, as `markerResearch.readableAnnotations` says. "Marker Research: Dim,
 * Hide or Show Annotations" (the eye in the readable view's title bar) goes to the next of the
 * three. The document's text never changes: spans and their highlights stay exact.
 */
import * as vscode from 'vscode';
import { READABLE_ANNOTATIONS, SETTINGS_SECTION, type ReadableAnnotationsMode } from '../shared/settings';
import { FullItemDocuments, FULL_ITEM_SCHEME } from './fullItemDocuments';
import type { SettingsService } from './settings';

/** The command that goes to the next mode. */
export const TOGGLE_ANNOTATIONS_COMMAND = 'markerResearch.toggleAnnotations';

const SAID: Record<ReadableAnnotationsMode, string> = { dim: 'dimmed', hide: 'hidden', show: 'shown as they are' };

/** Dims or hides the annotations of every visible readable view. */
export class ReadableAnnotations implements vscode.Disposable {
  private readonly dimmed = vscode.window.createTextEditorDecorationType({ opacity: '0.4', fontStyle: 'italic', rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed });
  // Hidden: not rendered at all (the same CSS the editor's own folding of inline text uses); the cursor still walks over it.
  private readonly hidden = vscode.window.createTextEditorDecorationType({ textDecoration: 'none; display: none', rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed });
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly fullItems: FullItemDocuments,
    private readonly settings: SettingsService,
  ) {
    this.subs = [
      vscode.window.onDidChangeVisibleTextEditors(() => void this.refresh()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === FULL_ITEM_SCHEME) void this.refresh();
      }),
      settings.onDidChange(() => void this.refresh()),
      vscode.commands.registerCommand(TOGGLE_ANNOTATIONS_COMMAND, () => this.toggle()),
    ];
    void this.refresh();
  }

  /** The mode in force. */
  get mode(): ReadableAnnotationsMode {
    return this.settings.value.readableAnnotations;
  }

  /** Goes to the next mode (dim → hide → show → dim), saved in the user's settings. */
  async toggle(): Promise<void> {
    const next = READABLE_ANNOTATIONS[(READABLE_ANNOTATIONS.indexOf(this.mode) + 1) % READABLE_ANNOTATIONS.length]!;
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('readableAnnotations', next, vscode.ConfigurationTarget.Global);
    this.log.info(`readable view: annotations ${SAID[next]}`);
    const said = next === 'dim' ? vscode.l10n.t('Marker Research: annotations dimmed in the readable view') : next === 'hide' ? vscode.l10n.t('Marker Research: annotations hidden in the readable view') : vscode.l10n.t('Marker Research: annotations shown as they are in the readable view');
    void vscode.window.setStatusBarMessage(said, 4000);
  }

  /** Decorates every visible readable view by the mode in force. */
  async refresh(): Promise<void> {
    const mode = this.mode;
    for (const editor of vscode.window.visibleTextEditors) {
      const id = FullItemDocuments.itemIdOf(editor.document.uri);
      if (id === undefined) continue;
      const meta = await this.fullItems.meta(id).catch(() => null);
      // An older rendering (the lines do not match): nothing, rather than marks in the wrong places.
      const ranges = meta && editor.document.lineCount === meta.lineCount ? meta.annotations.map((r) => new vscode.Range(r.line, r.startCharacter, r.line, r.endCharacter)) : [];
      editor.setDecorations(this.dimmed, mode === 'dim' ? ranges : []);
      editor.setDecorations(this.hidden, mode === 'hide' ? ranges : []);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.dimmed.dispose();
    this.hidden.dispose();
  }
}
