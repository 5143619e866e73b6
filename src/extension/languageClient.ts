/** Starts the Marker Research language server (dist/server.js) over IPC. */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { corpusChangedNotification } from '../shared/lspProtocol';

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
      documentSelector: [{ scheme: 'file', language: 'markdown' }],
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

  dispose(): void {
    void this.client.stop();
  }
}
