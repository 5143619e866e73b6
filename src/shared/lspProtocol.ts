/**
 * Every custom LSP method between the extension (client) and the language
 * server, typed once.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

export interface CorpusChangedParams {
  /** Absolute path of the corpus folder. */
  root: string;
}

export interface CorpusSummaryResult {
  root: string | null;
  items: number;
  problems: number;
}

/** Client → server: the corpus at `root` was (re)indexed; reload it, refresh symbols and diagnostics. */
export const corpusChangedNotification = new NotificationType<CorpusChangedParams>('markerResearch/corpusChanged');

/** Client → server: what the server currently serves. */
export const corpusSummaryRequest = new RequestType<void, CorpusSummaryResult, void>('markerResearch/corpusSummary');
