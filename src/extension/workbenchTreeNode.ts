/**
 * A node of the Notebook and Codes trees as plain data (no VS Code here, so the trees' models are
 * tested without it): its label and description, a hover (Markdown, every corpus value escaped
 * with the hover escape), an icon, the context value menus key on, the command a click runs, and
 * the children. The views turn it into a `TreeItem` (`workbenchTreeItem.ts`).
 */
import { hoverText, markdownCode } from '../core/text/markdownSafe';
import type { PinnedSpanView } from '../shared/workbenchProtocol';

/** `vscode.l10n` as the models use it (injected: the tests pass their own). */
export interface L10n {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/** A codicon (with a theme colour id), or a filled circle of a code's colour (`#rrggbb`). */
export type NodeIcon = { codicon: string; themeColour?: string } | { circle: string };

export interface TreeNodeModel {
  /** Unique in its tree and stable across refreshes (selection and expansion follow it). */
  id: string;
  label: string;
  description?: string;
  /** Markdown; every corpus value in it already escaped. */
  tooltip?: string;
  icon?: NodeIcon;
  contextValue?: string;
  collapsed?: boolean;
  command?: { command: string; title: string; args: unknown[] };
  children?: TreeNodeModel[];
  /** What the node stands for, for the commands its menus run. */
  ref?: { kind: 'entry'; id: string; spans: number } | { kind: 'span'; span: PinnedSpanView } | { kind: 'code'; id: string; name: string } | { kind: 'segment'; id: string; codeId: string } | { kind: 'suggested'; topic: string };
}

/** The command a pinned span's node runs: opens the span (the readable view, or the original file when the span was lost). */
export const OPEN_PINNED_SPAN_COMMAND = 'markerResearch.openPinnedSpan';

/** Characters of a quote in a label. */
export const LABEL_QUOTE_CHARS = 90;
/** Characters of a quote or a text in a hover. */
const HOVER_CHARS = 1200;

/** One line, clipped to `n` characters with an ellipsis. */
export function oneLine(s: string, n: number): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n - 1).trimEnd()}…` : line;
}

/** A hover's quote: `> ` lines of escaped text. */
export function hoverQuote(text: string, n = HOVER_CHARS): string {
  const t = text.trim();
  const cut = t.length > n ? `${t.slice(0, n)}…` : t;
  return cut
    .split(/\r?\n/)
    .map((l) => `> ${hoverText(l)}`)
    .join('\n');
}

/** The reason a span was lost, in words. */
export function lostWords(l10n: L10n, reason: NonNullable<PinnedSpanView['lost']>): string {
  if (reason === 'item-missing') return l10n.t('its item is no longer in the corpus');
  if (reason === 'part-missing') return l10n.t('its item no longer has this part');
  return l10n.t('its quote is no longer in the item');
}

/** A span's hover lines: the quote, where it is (item · who and when · `file:line`), and a lost span's flag. */
export function spanHover(l10n: L10n, s: PinnedSpanView): string[] {
  const lines = [hoverQuote(s.quote), '', `${hoverText(s.itemTitle)} · ${hoverText(s.location)} · ${markdownCode(s.fileLine)}`];
  if (s.lost) lines.push('', `⚠ ${hoverText(l10n.t('Not found after the corpus was indexed again: {0}; kept where it was.', lostWords(l10n, s.lost)))}`);
  return lines;
}

/** The click of a span's node. */
export function openSpanCommand(l10n: L10n, span: PinnedSpanView): NonNullable<TreeNodeModel['command']> {
  return { command: OPEN_PINNED_SPAN_COMMAND, title: l10n.t('Open'), args: [span] };
}
