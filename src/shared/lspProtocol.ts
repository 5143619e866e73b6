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
  /** Markers served as workspace symbols. */
  markers: number;
}

/** Client → server: the corpus at `root` was (re)indexed; reload it, refresh symbols and diagnostics. */
export const corpusChangedNotification = new NotificationType<CorpusChangedParams>('markerResearch/corpusChanged');

/** Client → server: what the server currently serves. */
export const corpusSummaryRequest = new RequestType<void, CorpusSummaryResult, void>('markerResearch/corpusSummary');

export interface MarkersChangedParams {
  /** Absolute path of the corpus folder whose marker files changed. */
  root: string;
}

/** Client → server: marker files of the corpus at `root` were written; reload them (workspace symbols). */
export const markersChangedNotification = new NotificationType<MarkersChangedParams>('markerResearch/markersChanged');
