/** Every command of the extension, in one map registered by `activate`. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CancelledError } from '../core/util/abort';
import { sidebarStateFor } from '../shared/sidebarModel';
import type { SidebarState } from '../shared/webviewProtocol';
import type { CorpusService } from './corpusService';
import type { CorpusLanguageClient } from './languageClient';
import { itemFiles, MarkerServiceError, type ApiKeyStore, type EvidenceNavigator, type FullItemDocuments, type MarkerService } from './markerService';
import { withCancellableProgress } from './progress';
import type { SettingsService } from './settings';
import type { SidebarViewProvider } from './sidebarView';

export interface Services {
  log: vscode.LogOutputChannel;
  settings: SettingsService;
  corpus: CorpusService;
  sidebar: SidebarViewProvider;
  client: CorpusLanguageClient;
  markers: MarkerService;
  evidence: EvidenceNavigator;
  fullItems: FullItemDocuments;
  apiKey: ApiKeyStore;
}

/** The sidebar state for the current corpus and its markers, or undefined before the first index. */
export function currentSidebarState(s: Pick<Services, 'corpus' | 'markers'>): SidebarState | undefined {
  const corpus = s.corpus.current;
  if (!corpus) return undefined;
  return sidebarStateFor(corpus, s.markers.markers, { generating: s.markers.generating, markersMessage: s.markers.generating ? 'Generating markers…' : undefined });
}

/** Posts the current state to the sidebar (nothing before the first index). */
export function refreshSidebar(s: Pick<Services, 'corpus' | 'markers' | 'sidebar'>): void {
  const state = currentSidebarState(s);
  if (state) s.sidebar.setState(state);
}

/** The item id a command was given: a string, or `{ itemId }` (the webview's context menu passes its `data-vscode-context`). */
function itemIdArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (arg && typeof arg === 'object' && 'itemId' in arg && typeof arg.itemId === 'string' && arg.itemId) return arg.itemId;
  return undefined;
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
      refreshSidebar(s);
      s.client.corpusChanged(root).catch((e: Error) => s.log.error(`language server did not take the corpus: ${e.message}`));
      const issues = corpus.problems.filter((p) => p.severity !== 'info').length;
      if (issues) {
        void vscode.window
          .showWarningMessage(`Marker Research: indexed ${corpus.stats.items} items; ${issues} problem${issues > 1 ? 's' : ''} in the corpus files.`, 'Show Problems')
          .then((pick) => pick && vscode.commands.executeCommand('workbench.actions.view.problems'));
      }
    } catch (e) {
      s.sidebar.setState(currentSidebarState(s) ?? { status: 'error', message: 'Indexing did not finish.', markersMessage: null, generating: false, corpusRoot: root, items: [], problems: [] });
      if (e instanceof CancelledError) {
        s.log.info('indexing cancelled');
        return;
      }
      await showError(s.log, `indexing ${root} failed: ${(e as Error).message}`);
      return;
    }
    // Markers: the ones on disk, and (markersOnIndex + extractive) the missing ones. Failing here never fails the index.
    const corpus = s.corpus.current;
    if (corpus) await markerBoundary('loading markers', () => s.markers.afterIndex(corpus));
  };

  /** Runs a marker action, turning its failures into messages (cancel is not a failure). */
  const markerBoundary = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (e instanceof CancelledError) return void vscode.window.showInformationMessage('Marker Research: marker generation cancelled; markers of the items that finished are kept.');
      if (e instanceof MarkerServiceError && (e.reason === 'bad-settings' || e.reason === 'no-api-key')) {
        s.log.warn(e.message);
        const action = e.reason === 'no-api-key' ? 'Set API Key' : 'Open Settings';
        const pick = await vscode.window.showWarningMessage(`Marker Research: ${e.message.replace(/^markers: /, '')}`, action);
        if (pick === 'Set API Key') await vscode.commands.executeCommand('markerResearch.setApiKey');
        if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'markerResearch');
        return;
      }
      if (e instanceof MarkerServiceError && e.reason === 'busy') return void vscode.window.showInformationMessage(`Marker Research: ${e.message.replace(/^markers: /, '')}`);
      await showError(s.log, `${what} failed: ${(e as Error).message}`);
    }
  };

  const generateMarkers = async (): Promise<void> => {
    if (!s.corpus.current) {
      await indexCorpus();
      if (!s.corpus.current) return;
    }
    await markerBoundary('generating markers', async () => {
      const report = await s.markers.generate('all');
      if (!report) return;
      const markers = report.items.reduce((a, r) => a + r.markers, 0);
      const grounded = report.items.reduce((a, r) => a + r.grounded, 0);
      const summary = `${markers} markers for ${report.items.length - report.failed} items (${report.generated} generated, ${report.cached} unchanged), ${grounded} grounded`;
      if (report.failed) {
        const pick = await vscode.window.showWarningMessage(`Marker Research: ${summary}; ${report.failed} item${report.failed > 1 ? 's' : ''} failed.`, 'Show Logs');
        if (pick === 'Show Logs') s.log.show();
      } else void vscode.window.setStatusBarMessage(`$(check) Marker Research: ${summary}`, 10_000);
    });
  };

  const openMarker = async (itemId: unknown, markerId: unknown): Promise<void> => {
    if (typeof itemId !== 'string' || typeof markerId !== 'string') return;
    await markerBoundary('opening the marker', () => s.evidence.open(itemId, markerId));
  };

  /** Asks for an item when a command was run from the palette. */
  const pickItem = async (placeHolder: string): Promise<string | undefined> => {
    const corpus = s.corpus.current;
    if (!corpus) {
      void vscode.window.showWarningMessage('Marker Research: no corpus is indexed; run "Marker Research: Index Corpus" first.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      corpus.items.map((it) => ({ label: it.title, description: it.id, detail: itemFiles(it), id: it.id })),
      { placeHolder, matchOnDescription: true },
    );
    return pick?.id;
  };

  const retrieveFullItem = async (arg?: unknown): Promise<void> => {
    const itemId = itemIdArg(arg) ?? (await pickItem('Item to open in full (transcript and every comment)'));
    if (!itemId) return;
    await markerBoundary('retrieving the full item', () => s.fullItems.open(itemId));
  };

  const setApiKey = async (): Promise<void> => {
    const had = (await s.apiKey.get()) !== undefined;
    const key = await vscode.window.showInputBox({
      title: 'Marker Research: Set API Key',
      prompt: `API key for the model provider, kept in VS Code's secret storage (never in settings or logs).${had ? ' A key is stored: a new one replaces it; run "Clear API Key" to remove it.' : ''}`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: had ? 'Enter a new key to replace the stored one' : 'sk-…',
      validateInput: (v) => (v.trim() && /\s/.test(v.trim()) ? 'An API key has no spaces.' : undefined),
    });
    if (key === undefined || !key.trim()) return;
    await s.apiKey.set(key.trim());
    s.log.info('API key stored in secret storage');
    void vscode.window.showInformationMessage('Marker Research: API key stored in secret storage.');
  };

  const clearApiKey = async (): Promise<void> => {
    if ((await s.apiKey.get()) === undefined) return void vscode.window.showInformationMessage('Marker Research: no API key is stored.');
    const pick = await vscode.window.showWarningMessage('Marker Research: remove the stored API key?', { modal: true }, 'Remove');
    if (pick !== 'Remove') return;
    await s.apiKey.clear();
    s.log.info('API key removed from secret storage');
    void vscode.window.showInformationMessage('Marker Research: API key removed.');
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
    'markerResearch.generateMarkers': generateMarkers,
    'markerResearch.openMarker': openMarker,
    'markerResearch.retrieveFullItem': retrieveFullItem,
    'markerResearch.setApiKey': setApiKey,
    'markerResearch.clearApiKey': clearApiKey,
    'markerResearch.showLogs': () => s.log.show(),
  };
}
