/**
 * The researcher's workbench in the extension (issue 24), built once by `activate`: the service
 * that talks to the engine, the Notebook and Codes views, the coded segments' marks in readable
 * views, and the commands (pins, codes, the views' actions).
 */
import type * as vscode from 'vscode';
import type { SidebarTarget } from '../shared/workbenchTarget';
import { CodedSegmentDecorations } from './codedSegmentDecorations';
import { CodesView } from './codesView';
import type { CorpusService } from './corpusService';
import type { EvidenceNavigator } from './evidenceNavigator';
import type { CorpusLanguageClient } from './languageClient';
import { NotebookView } from './notebookView';
import { createWorkbenchCommands } from './workbenchCommands';
import { WorkbenchService } from './workbenchService';

export interface Workbench {
  service: WorkbenchService;
  commands: Record<string, (...args: unknown[]) => unknown>;
  /** Add to `context.subscriptions`. */
  disposables: vscode.Disposable[];
}

export function setUpWorkbench(deps: { log: vscode.LogOutputChannel; client: CorpusLanguageClient; corpus: CorpusService; evidence: EvidenceNavigator }): Workbench {
  const service = new WorkbenchService(deps.log, deps.client, deps.corpus);
  const notebookView = new NotebookView(deps.log, service);
  const codesView = new CodesView(deps.log, service);
  const decorations = new CodedSegmentDecorations(deps.log, service);
  const { commands, disposables } = createWorkbenchCommands({ log: deps.log, workbench: service, notebookView, codesView, evidence: deps.evidence });
  return { service, commands, disposables: [service, notebookView, codesView, decorations, ...disposables] };
}

/** The command a pin or code button of the sidebar runs for its target. */
export function sidebarWorkbenchCommand(action: 'pin' | 'code', target: SidebarTarget): string {
  const what = target.kind === 'marker' ? 'Marker' : target.kind === 'hit' ? 'Hit' : 'AnswerSentence';
  return `markerResearch.${action}${what}`;
}
