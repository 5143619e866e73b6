/**
 * Entry point. `activate` only builds the services and registers the command
 * map, the sidebar view and the language client into `context.subscriptions`.
 */
import * as vscode from 'vscode';
import { createCommands, showError } from './commands';
import { CorpusService } from './corpusService';
import { CorpusLanguageClient } from './languageClient';
import { SettingsService } from './settings';
import { SidebarViewProvider } from './sidebarView';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Marker Research', { log: true });
  context.subscriptions.push(log);
  try {
    const settings = new SettingsService(log);
    const corpus = new CorpusService(log);
    const client = new CorpusLanguageClient(context, log);
    const sidebar = new SidebarViewProvider(
      context.extensionUri,
      {
        indexCorpus: async () => void (await vscode.commands.executeCommand('markerResearch.indexCorpus')),
        openItem: async (id, part) => void (await vscode.commands.executeCommand('markerResearch.openItem', id, part)),
        openProblem: async (i) => void (await vscode.commands.executeCommand('markerResearch.openProblem', i)),
      },
      log,
    );
    const commands = createCommands({ log, settings, corpus, client, sidebar });
    context.subscriptions.push(
      settings,
      corpus,
      client,
      sidebar,
      vscode.window.registerWebviewViewProvider(SidebarViewProvider.viewId, sidebar),
      ...Object.entries(commands).map(([id, fn]) => vscode.commands.registerCommand(id, fn)),
    );
    client.start().catch((e: Error) => void showError(log, `the language server did not start: ${e.message}`));
    if (settings.value.indexOnOpen) void vscode.commands.executeCommand('markerResearch.indexCorpus');
    log.info(`Marker Research activated (version ${String(context.extension.packageJSON.version)})`);
  } catch (e) {
    void showError(log, `activation failed: ${(e as Error).message}`);
    throw e;
  }
}

export function deactivate(): void {}
