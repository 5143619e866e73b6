/**
 * "Marker Research: Export Project (REFI-QDA)…" (issue 24): the researcher's project — every item
 * as its readable text, the codebook, coded segments, the notebook, speakers as cases, and (when
 * chosen) the markers as codes — as a `.qdpx` that ATLAS.ti, MAXQDA, NVivo and QualCoder import.
 * Asks whether markers go in as codes, then where to save (the corpus folder by default); the
 * engine writes the file (`markerResearch/exportQdpx`, progress with Cancel); then says what went
 * in and offers "Reveal in Explorer".
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CancelledError } from '../core/util/abort';
import { exportQdpxRequest, type ExportQdpxResult } from '../shared/workbenchProtocol';
import type { CorpusService } from './corpusService';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';

/** What the command was given (the e2e test and other commands pass these to skip the questions). */
interface QdpxArgs {
  file?: string;
  markersAsCodes?: boolean;
}

function qdpxArgs(arg: unknown): QdpxArgs {
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as Record<string, unknown>;
  return {
    ...(typeof a['file'] === 'string' && path.isAbsolute(a['file']) ? { file: a['file'] } : {}),
    ...(typeof a['markersAsCodes'] === 'boolean' ? { markersAsCodes: a['markersAsCodes'] } : {}),
  };
}

/** `file` ending in `.qdpx` (a save dialog may return a name without it). */
function withQdpx(file: string): string {
  return /\.qdpx$/i.test(file) ? file : `${file}.qdpx`;
}

export class QdpxExportCommand {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly corpus: CorpusService,
    private readonly client: CorpusLanguageClient,
  ) {}

  /** The command: returns the file written, or undefined (cancelled, or nothing to export). */
  async run(arg?: unknown): Promise<string | undefined> {
    try {
      return await this.export(qdpxArgs(arg));
    } catch (e) {
      if (e instanceof CancelledError) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: the export was cancelled; nothing was written.'));
        return undefined;
      }
      if (e instanceof EngineRequestError && e.reason === 'no-corpus') {
        const index = vscode.l10n.t('Index Corpus');
        const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: no corpus is indexed yet.'), index);
        if (pick === index) await vscode.commands.executeCommand('markerResearch.indexCorpus');
        return undefined;
      }
      const message = (e as Error).message;
      this.log.error(`exporting the project (REFI-QDA) failed: ${message}`);
      const logs = vscode.l10n.t('Show Logs');
      const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Marker Research: the REFI-QDA export failed: {0}', message), logs);
      if (pick === logs) this.log.show();
      return undefined;
    }
  }

  private async export(args: QdpxArgs): Promise<string | undefined> {
    const root = this.corpus.root;
    if (!root) throw new EngineRequestError('no-corpus', 'no corpus is indexed');
    const markersAsCodes = args.markersAsCodes ?? (await this.askMarkersAsCodes());
    if (markersAsCodes === undefined) return undefined;
    let file = args.file;
    if (!file) {
      const uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Marker Research: Export Project (REFI-QDA)'),
        saveLabel: vscode.l10n.t('Export'),
        defaultUri: vscode.Uri.file(path.join(root, `${path.basename(root)}.qdpx`)),
        filters: { [vscode.l10n.t('REFI-QDA project (ATLAS.ti, MAXQDA, NVivo, QualCoder)')]: ['qdpx'] },
      });
      if (!uri) return undefined;
      file = uri.fsPath;
    }
    file = withQdpx(file);
    const r = await this.client.work(vscode.l10n.t('Marker Research: exporting the project (REFI-QDA)'), exportQdpxRequest, { file, markersAsCodes });
    this.say(r);
    return file;
  }

  /** Whether the markers go in as codes; undefined when the question was dismissed. */
  private async askMarkersAsCodes(): Promise<boolean | undefined> {
    const without = { label: vscode.l10n.t('Codebook and coded segments'), detail: vscode.l10n.t('Your codes, coded segments, notebook and memos; speakers as cases.'), value: false };
    const withMarkers = {
      label: vscode.l10n.t('Also the markers as codes'),
      detail: vscode.l10n.t('Adds folders "Marker kinds" and "Marker topics": every marker\'s span coded with its kind and topic, its claim as a note.'),
      value: true,
    };
    const pick = await vscode.window.showQuickPick([without, withMarkers], { title: vscode.l10n.t('Marker Research: Export Project (REFI-QDA)'), placeHolder: vscode.l10n.t('What goes into the project?') });
    return pick?.value;
  }

  /** What went in, with "Reveal in Explorer" (and "Show Logs" when something was left out). */
  private say(r: ExportQdpxResult): void {
    const size = r.bytes >= 1024 * 1024 ? `${(r.bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(r.bytes / 1024))} KB`;
    const n = (k: number): string => k.toLocaleString('en-US');
    const what = [
      r.sources === 1 ? vscode.l10n.t('1 item') : vscode.l10n.t('{0} items', n(r.sources)),
      r.codes === 1 ? vscode.l10n.t('1 code') : vscode.l10n.t('{0} codes', n(r.codes)),
      r.segments === 1 ? vscode.l10n.t('1 coded segment') : vscode.l10n.t('{0} coded segments', n(r.segments)),
      r.notes === 1 ? vscode.l10n.t('1 note') : vscode.l10n.t('{0} notes', n(r.notes)),
      r.cases === 1 ? vscode.l10n.t('1 speaker as a case') : vscode.l10n.t('{0} speakers as cases', n(r.cases)),
    ].join(' · ');
    const leftOut = r.segmentsLeftOut
      ? ` ${r.segmentsLeftOut === 1 ? vscode.l10n.t('1 coded segment was left out: its text is no longer in the corpus (see the log).') : vscode.l10n.t('{0} coded segments were left out: their text is no longer in the corpus (see the log).', n(r.segmentsLeftOut))}`
      : '';
    const reveal = vscode.l10n.t('Reveal in Explorer');
    const logs = vscode.l10n.t('Show Logs');
    const actions = r.segmentsLeftOut ? [reveal, logs] : [reveal];
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: exported {0} to {1} ({2}).', what, path.basename(r.file), size) + leftOut, ...actions).then(async (pick) => {
      if (pick === logs) this.log.show();
      if (pick !== reveal) return;
      const uri = vscode.Uri.file(r.file);
      // In the Explorer when the file is in the workspace; else the system's file manager.
      if (vscode.workspace.getWorkspaceFolder(uri)) await vscode.commands.executeCommand('revealInExplorer', uri);
      else await vscode.commands.executeCommand('revealFileInOS', uri);
    });
  }
}
