/** Every command of the extension, in one map registered by `activate`. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CancelledError } from '../core/util/abort';
import type { CorpusService } from './corpusService';
import type { CorpusLanguageClient } from './languageClient';
import { withCancellableProgress } from './progress';
import type { SettingsService } from './settings';
import { sidebarStateFor, type SidebarViewProvider } from './sidebarView';

export interface Services {
  log: vscode.LogOutputChannel;
  settings: SettingsService;
  corpus: CorpusService;
  sidebar: SidebarViewProvider;
  client: CorpusLanguageClient;
}

export type CommandMap = Record<string, (...args: unknown[]) => unknown>;

/** Shows an error with a "Show Logs" action. */
export async function showError(log: vscode.LogOutputChannel, message: string): Promise<void> {
  log.error(message);
  const pick = await vscode.window.showErrorMessage(`Marker Research: ${message}`, 'Show Logs');
  if (pick === 'Show Logs') log.show();
}

export function createCommands(s: Services): CommandMap {
  const indexCorpus = async (): Promise<void> => {
    const root = s.settings.corpusRoot();
    if (!root) {
      const pick = await vscode.window.showWarningMessage(
        'Marker Research: open a corpus folder first, or set "markerResearch.corpusPath".',
        'Open Folder',
        'Open Settings',
      );
      if (pick === 'Open Folder') await vscode.commands.executeCommand('vscode.openFolder');
      if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch.corpusPath');
      return;
    }
    s.sidebar.setLoading(`Indexing ${path.basename(root)}…`);
    try {
      const corpus = await withCancellableProgress('Marker Research: indexing corpus', (signal, onProgress) => s.corpus.load(root, signal, onProgress));
      s.sidebar.setState(sidebarStateFor(corpus));
      s.client.corpusChanged(root).catch((e: Error) => s.log.error(`language server did not take the corpus: ${e.message}`));
      const issues = corpus.problems.filter((p) => p.severity !== 'info').length;
      if (issues) {
        void vscode.window
          .showWarningMessage(`Marker Research: indexed ${corpus.stats.items} items; ${issues} problem${issues > 1 ? 's' : ''} in the corpus files.`, 'Show Problems')
          .then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
      }
    } catch (e) {
      const prev = s.corpus.current;
      s.sidebar.setState(prev ? sidebarStateFor(prev) : { status: 'error', message: 'Indexing did not finish.', corpusRoot: root, items: [], problems: [] });
      if (e instanceof CancelledError) {
        s.log.info('indexing cancelled');
        return;
      }
      await showError(s.log, `indexing ${root} failed: ${(e as Error).message}`);
    }
  };

  const openItem = async (itemId: unknown, part: unknown = 'transcript'): Promise<void> => {
    const item = s.corpus.current?.items.find((it) => it.id === itemId);
    if (!item) return showError(s.log, `no item "${String(itemId)}" in the indexed corpus; run Index Corpus again.`);
    const file = (part === 'comments' ? item.comments?.file : item.transcript?.file) ?? item.transcript?.file ?? item.comments?.file;
    if (!file) return;
    await vscode.window.showTextDocument(vscode.Uri.file(file.path), { preview: true });
  };

  const openProblem = async (index: unknown): Promise<void> => {
    const corpus = s.corpus.current;
    const p = typeof index === 'number' ? corpus?.problems[index] : undefined;
    if (!corpus || !p) return;
    const uri = vscode.Uri.file(path.isAbsolute(p.file) ? p.file : path.join(corpus.root, p.file));
    const pos = new vscode.Position(p.line ?? 0, p.column ?? 0);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
  };

  return {
    'markerResearch.indexCorpus': indexCorpus,
    'markerResearch.openItem': openItem,
    'markerResearch.openProblem': openProblem,
    'markerResearch.showLogs': () => s.log.show(),
  };
}
