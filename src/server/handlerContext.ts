/** What each group of request handlers is registered with: the connection, the engine state, the work in flight. */
import type { Connection } from 'vscode-languageserver/node';
import type { EngineState } from './engineState';
import type { RunningWork } from './work';

export interface HandlerContext {
  connection: Connection;
  state: EngineState;
  running: RunningWork;
}
