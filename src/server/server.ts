/**
 * The Marker Research engine process (dist/server.js), started by the
 * extension's language client over IPC. It owns the corpus, its indexes and
 * markers, and runs research, questions and chat (`engineServer.ts`).
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startEngineServer } from './engineServer';

const connection = createConnection(ProposedFeatures.all);
startEngineServer(connection);
connection.listen();
