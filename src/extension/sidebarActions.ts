/**
 * What the sidebar's views ask the extension to do (the actions), and the Ask box's messages:
 * the types both views and the services share, kept apart from the view providers.
 */
import type { CorpusHostToWebview } from '../shared/webviewProtocol';
import type { SidebarTarget } from '../shared/workbenchTarget';

/** What the Ask box posts: results, progress and errors of a question (the `ask*` messages of the protocol). */
export type AskMessage = Extract<CorpusHostToWebview, { type: 'askBusy' | 'askResult' | 'askError' }>;

/** A question from the Ask box, validated by the protocol schema. */
export interface SidebarQuestion {
  question: string;
  itemId: string | undefined;
  session: string[];
}

/** A research goal as the sidebar sends it: a proposed goal's id or the user's text. */
export type SidebarGoal = { goalId: string } | { text: string };

export interface SidebarActions {
  indexCorpus(): Promise<void>;
  openItem(itemId: string, part: 'transcript' | 'comments'): Promise<void>;
  openProblem(index: number): Promise<void>;
  openMarker(itemId: string, markerId: string): Promise<void>;
  retrieveFullItem(itemId: string): Promise<void>;
  generateMarkers(): Promise<void>;
  discoverGoals(): Promise<void>;
  planResearch(goal: SidebarGoal): Promise<void>;
  runResearch(goal: SidebarGoal | undefined): Promise<void>;
  openReport(runId: string | undefined): Promise<void>;
  /** Opens the Chat view about the report of `runId`. */
  askFollowup(runId: string): Promise<void>;
  showRun(runId: string): Promise<void>;
  /** Resumes a cancelled, failed, partial or crashed run (default: the command `markerResearch.resumeResearch`). */
  resumeResearch?(runId: string): Promise<void>;
  /** "Use a model…" (default: the command `markerResearch.useModel`, else the Marker Research settings: provider, base URL, model). */
  openModelSettings?(): Promise<void>;
  cancel(): Promise<void>;
  /** Answers a question of the Ask box (results come back through {@link SidebarViewProvider.postAsk}). */
  ask(question: SidebarQuestion): Promise<void>;
  /** Opens a hit of the Ask box at its span in the original file. */
  openHit(itemId: string, part: 'transcript' | 'comments', start: number, end: number): Promise<void>;
  /** Pins a marker, an Ask hit or an answer sentence to the notebook, or codes it (the pin buttons of the view). */
  workbench(action: 'pin' | 'code', target: SidebarTarget): Promise<void>;
}

/** The actions with their defaults filled in, as the views use them. */
export type ViewActions = Required<SidebarActions>;

