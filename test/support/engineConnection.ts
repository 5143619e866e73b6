/**
 * The engine server on an in-memory stream pair, and a JSON-RPC client
 * connection to it: what the protocol handler tests drive. Initialised (with
 * the repo's prompts folder) before it is returned.
 */
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { createConnection } from 'vscode-languageserver/node';
import { engineLogNotification, type EngineLogParams } from '../../src/shared/lspProtocol';
import { startEngineServer } from '../../src/server/engineServer';

export interface EngineConnection {
  client: MessageConnection;
  /** Log lines the server sent. */
  logs: EngineLogParams[];
  /** `$/progress` values the server sent, by token. */
  progress: Map<string, unknown[]>;
  /** Waits until the engine's background work (the search index) is done, then closes both ends. */
  close(): Promise<void>;
}

export async function startEngine(): Promise<EngineConnection> {
  const up = new PassThrough();
  const down = new PassThrough();
  const server = createConnection(new StreamMessageReader(up), new StreamMessageWriter(down));
  startEngineServer(server, { promptsDir: path.join(__dirname, '..', '..', 'prompts') });
  server.listen();
  const client = createMessageConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const logs: EngineLogParams[] = [];
  const progress = new Map<string, unknown[]>();
  client.onNotification(engineLogNotification.method, (p: EngineLogParams) => void logs.push(p));
  client.onNotification('$/progress', (p: { token: string; value: unknown }) => {
    const list = progress.get(String(p.token)) ?? [];
    list.push(p.value);
    progress.set(String(p.token), list);
  });
  client.onNotification('textDocument/publishDiagnostics', () => undefined);
  client.listen();
  await client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: {} });
  await client.sendNotification('initialized', {});
  return {
    client,
    logs,
    progress,
    close: async () => {
      const until = Date.now() + 30_000;
      for (;;) {
        const stats = (await client.sendRequest('markerResearch/engineStats', {})) as { items: number; searchIndexReady: boolean };
        if (!stats.items || stats.searchIndexReady || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // As a language client stops a server: the engine writes what it keeps in memory (the index, the view's items).
      await client.sendRequest('shutdown').catch(() => undefined);
      client.dispose();
      server.dispose();
      up.end();
      down.end();
    },
  };
}
