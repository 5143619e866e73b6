/**
 * Registers the "Across items" commands (Markers Across Items…, Compare Items…, Items Timeline)
 * and "Export Project (REFI-QDA)…" (issue 24); `activate` pushes what this returns.
 */
import * as vscode from 'vscode';
import { AcrossViews } from './acrossViews';
import type { CorpusService } from './corpusService';
import type { CorpusLanguageClient } from './languageClient';
import { QdpxExportCommand } from './qdpxExportCommand';

export function registerAcrossViews(extensionUri: vscode.Uri, log: vscode.LogOutputChannel, client: CorpusLanguageClient, corpus: CorpusService): vscode.Disposable[] {
  const across = new AcrossViews(extensionUri, log, client);
  const qdpx = new QdpxExportCommand(log, corpus, client);
  const commands: Record<string, (...args: unknown[]) => unknown> = { ...across.commands(), 'markerResearch.exportQdpx': (arg?: unknown) => qdpx.run(arg) };
  return [across, ...Object.entries(commands).map(([id, fn]) => vscode.commands.registerCommand(id, fn))];
}
