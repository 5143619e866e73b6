/**
 * The corpus engine behind a connection: the state (`corpusEngine.ts`) and
 * every handler group registered on it. `server.ts` runs it over the
 * extension's IPC; tests run it over an in-memory stream pair.
 */
import * as path from 'node:path';
import { TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { cancelAllNotification, engineLogNotification, type EngineLogParams } from '../shared/lspProtocol';
import type { Logger } from '../core/util/log';
import { CorpusEngine } from './corpusEngine';
import { configureEngineL10n } from './engineL10n';
import { registerCorpusHandlers } from './corpusHandlers';
import { registerEditorFeatures } from './editorFeatures';
import { registerEvidenceHandlers } from './evidenceHandlers';
import { registerResearchHandlers } from './researchHandlers';
import { registerAskHandlers } from './askHandlers';
import { registerChatHandlers } from './chatHandlers';
import { registerWorkbenchHandlers } from './workbenchHandlers';
import { registerAcrossHandlers } from './acrossHandlers';
import { registerQdpxHandlers } from './qdpxHandlers';
import type { HandlerContext } from './handlerContext';
import { RunningWork } from './work';

export interface EngineServerOptions {
  /** The prompts folder when the client names none (tests). */
  promptsDir?: string;
}

/** Registers the engine on `connection` (call `connection.listen()` after). */
export function startEngineServer(connection: Connection, options: EngineServerOptions = {}): { engine: CorpusEngine; running: RunningWork } {
  // A line sent after the connection closed is dropped (nothing is left to show it).
  const send = (level: EngineLogParams['level'], message: string): void => {
    try {
      void connection.sendNotification(engineLogNotification, { level, message }).catch(() => undefined);
    } catch {
      // the connection is disposed: it throws at once
    }
  };
  const log: Logger = {
    debug: (message) => send('debug', message),
    info: (message) => send('info', message),
    warn: (message) => send('warn', message),
    error: (message) => send('error', message),
  };
  const engine = new CorpusEngine(log, options.promptsDir ?? path.join(__dirname, '..', 'prompts'));
  const running = new RunningWork();
  const documents = new TextDocuments(TextDocument);
  const ctx: HandlerContext = { connection, state: engine, running };

  connection.onInitialize((params): InitializeResult => {
    const opts = params.initializationOptions as { promptsDir?: unknown; l10n?: unknown } | undefined;
    if (typeof opts?.promptsDir === 'string') engine.promptsDir = opts.promptsDir;
    // The engine's messages in the display language (the extension's bundle; none in English).
    configureEngineL10n(opts?.l10n);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        workspaceSymbolProvider: true,
        documentLinkProvider: { resolveProvider: false },
        hoverProvider: true,
      },
      serverInfo: { name: 'marker-research-engine' },
    };
  });
  const corpusViews = registerCorpusHandlers(ctx, engine);
  // The index changed in memory since it was written, and the Corpus view's kept items: written before the process ends.
  connection.onShutdown(async () => {
    await Promise.all([engine.flush(), corpusViews.save()]);
  });
  connection.onNotification(cancelAllNotification, () => {
    const n = running.cancelAll();
    if (n) log.info(`cancel: ${n} operation${n === 1 ? '' : 's'} told to stop`);
  });

  registerEditorFeatures(ctx, documents);
  registerEvidenceHandlers(ctx);
  registerResearchHandlers(ctx);
  registerAskHandlers(ctx);
  registerChatHandlers(ctx);
  registerWorkbenchHandlers(ctx);
  registerAcrossHandlers(ctx);
  registerQdpxHandlers(ctx);

  documents.listen(connection);
  return { engine, running };
}
