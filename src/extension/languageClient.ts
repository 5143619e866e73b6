/** Starts the Marker Research language server (dist/server.js) over IPC: corpus symbols, problems, report citations. */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { corpusChangedNotification, markersChangedNotification } from '../shared/lspProtocol';

export class CorpusLanguageClient implements vscode.Disposable {
  private readonly client: LanguageClient;
  private started: Promise<void> | undefined;

  constructor(context: vscode.ExtensionContext, log: vscode.LogOutputChannel) {
    const module = context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
      // Research reports (and the other Markdown of a run): citations become links and hovers.
      documentSelector: [{ scheme: 'file', language: 'markdown', pattern: '**/.marker-research/runs/**/*.md' }],
      outputChannel: log,
    };
    this.client = new LanguageClient('markerResearch', 'Marker Research Language Server', serverOptions, clientOptions);
  }

  start(): Promise<void> {
    this.started ??= this.client.start();
    return this.started;
  }

  async corpusChanged(root: string): Promise<void> {
    await this.start();
    await this.client.sendNotification(corpusChangedNotification, { root });
  }

  /** Marker files of the corpus at `root` were written: the server reloads its marker symbols. */
  async markersChanged(root: string): Promise<void> {
    await this.start();
    await this.client.sendNotification(markersChangedNotification, { root });
  }

  dispose(): void {
    void this.client.stop();
  }
}
