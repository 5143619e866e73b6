/**
 * Every message between the extension host and the sidebar webview, typed once.
 * The webview is untrusted: the host parses what it receives with
 * {@link webviewToHostSchema}. The host posts nothing before `ready`.
 */
import { z } from 'zod';

/** One corpus item as the sidebar shows it. */
export interface ItemSummary {
  id: string;
  title: string;
  /** Transcript segments (turns / cues / lines), or null without a transcript. */
  transcriptSegments: number | null;
  /** Comment records, or null without comments. */
  comments: number | null;
  words: number;
  transcriptFile: string | null;
  commentsFile: string | null;
}

export interface ProblemSummary {
  severity: 'error' | 'warning' | 'info';
  /** Path relative to the corpus root. */
  file: string;
  /** One-based line, when known. */
  line: number | null;
  message: string;
}

export interface SidebarState {
  status: 'empty' | 'loading' | 'ready' | 'error';
  /** One line shown at the top of the view. */
  message: string;
  corpusRoot: string | null;
  items: ItemSummary[];
  problems: ProblemSummary[];
}

/** Host → webview. */
export type HostToWebview =
  | { type: 'state'; state: SidebarState }
  | { type: 'progress'; message: string; done: number; total: number };

export const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('indexCorpus') }),
  z.object({ type: z.literal('openItem'), itemId: z.string().max(1000), part: z.enum(['transcript', 'comments']) }),
  z.object({ type: z.literal('openProblem'), index: z.number().int().nonnegative() }),
]);

/** Webview → host. */
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
