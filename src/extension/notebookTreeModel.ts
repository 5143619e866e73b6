/**
 * The Notebook view's tree from the engine's notebook (pure): one node per entry in the order of
 * notebook.md — its title, its kind and the start of its quote, a hover with the pinned words,
 * every quote and where it is (escaped), the researcher's note; a click opens its first span (a
 * note opens notebook.md at its line); an entry citing several spans lists them as children.
 * Spans not found after a re-index are flagged (a warning icon, "lost" in the description), never
 * hidden. Problems of notebook.md come first, each opening its line.
 */
import { hoverText } from '../core/text/markdownSafe';
import type { NotebookEntryKind, NotebookEntryView, NotebookViewResult } from '../shared/workbenchProtocol';
import { hoverQuote, LABEL_QUOTE_CHARS, oneLine, openSpanCommand, spanHover, type L10n, type NodeIcon, type TreeNodeModel } from './workbenchTreeNode';

/** The command that opens notebook.md (at a zero-based line when given). */
export const OPEN_NOTEBOOK_COMMAND = 'markerResearch.openNotebook';

const KIND_ICONS: Record<NotebookEntryKind, string> = {
  marker: 'bookmark',
  'ask-hit': 'search',
  'answer-sentence': 'quote',
  'chat-answer': 'comment-discussion',
  finding: 'checklist',
  selection: 'selection',
  note: 'note',
};

/** An entry kind in words. */
export function kindLabel(l10n: L10n, kind: NotebookEntryKind): string {
  switch (kind) {
    case 'marker':
      return l10n.t('Marker');
    case 'ask-hit':
      return l10n.t('Search hit');
    case 'answer-sentence':
      return l10n.t('Answer sentence');
    case 'chat-answer':
      return l10n.t('Chat answer');
    case 'finding':
      return l10n.t('Finding');
    case 'selection':
      return l10n.t('Selection');
    case 'note':
      return l10n.t('Note');
  }
}

const WARNING: NodeIcon = { codicon: 'warning', themeColour: 'list.warningForeground' };

/** The node of an entry (and its spans' nodes when it has more than one). */
export function entryNode(l10n: L10n, e: NotebookEntryView): TreeNodeModel {
  const lost = e.spans.filter((s) => s.lost).length;
  const first = e.spans[0];
  const words = e.text ?? first?.quote ?? e.note ?? '';
  const description = [kindLabel(l10n, e.kind), ...(lost ? [l10n.t('⚠ {0} lost', lost)] : []), ...(words ? [`“${oneLine(words, LABEL_QUOTE_CHARS)}”`] : [])].join(' · ');
  const hover = [`**${hoverText(e.title || kindLabel(l10n, e.kind))}**`, '', `*${hoverText(`${kindLabel(l10n, e.kind)} · ${e.createdAt.slice(0, 10)}`)}*`];
  if (e.text) hover.push('', hoverText(oneLine(e.text, 600)));
  for (const s of e.spans) hover.push('', ...spanHover(l10n, s));
  if (e.note) hover.push('', `${hoverText(l10n.t('Note:'))}`, hoverQuote(e.note, 600));
  const node: TreeNodeModel = {
    id: `entry:${e.id}`,
    label: e.title.trim() || kindLabel(l10n, e.kind),
    description,
    tooltip: hover.join('\n'),
    icon: lost ? WARNING : { codicon: KIND_ICONS[e.kind] },
    contextValue: e.spans.length ? 'notebookEntry' : 'notebookNote',
    command: first ? openSpanCommand(l10n, first) : { command: OPEN_NOTEBOOK_COMMAND, title: l10n.t('Open notebook.md'), args: [e.line] },
    ref: { kind: 'entry', id: e.id, spans: e.spans.length },
  };
  if (e.spans.length > 1) {
    node.collapsed = true;
    node.children = e.spans.map((s, i) => ({
      id: `entry:${e.id}:${i}`,
      label: oneLine(s.quote, LABEL_QUOTE_CHARS),
      description: [s.itemTitle, s.location, ...(s.lost ? [l10n.t('⚠ lost')] : [])].join(' · '),
      tooltip: spanHover(l10n, s).join('\n'),
      icon: s.lost ? WARNING : { codicon: 'quote' },
      contextValue: 'notebookSpan',
      command: openSpanCommand(l10n, s),
      ref: { kind: 'span', span: s },
    }));
  }
  return node;
}

/** The one-based line of a problem (`notebook.md:12: error: …`). */
function problemLine(p: string): number | undefined {
  const m = /:(\d+): (?:error|warning): /.exec(p);
  return m ? Number(m[1]) : undefined;
}

/** The whole tree: problems (when notebook.md has some), then every entry in order. */
export function notebookTree(l10n: L10n, v: NotebookViewResult): TreeNodeModel[] {
  const out: TreeNodeModel[] = [];
  if (v.problems.length) {
    out.push({
      id: 'problems',
      label: l10n.t('notebook.md: {0} problem(s)', v.problems.length),
      description: l10n.t('kept as text; click one to see its line'),
      icon: WARNING,
      contextValue: 'notebookProblems',
      collapsed: false,
      children: v.problems.map((p, i) => {
        const line = problemLine(p);
        return {
          id: `problem:${i}`,
          label: oneLine(p.replace(/^[^:]*:\d+: /, ''), 200),
          description: line ? l10n.t('line {0}', line) : undefined,
          tooltip: hoverText(p),
          icon: WARNING,
          command: { command: OPEN_NOTEBOOK_COMMAND, title: l10n.t('Open notebook.md'), args: [line ? line - 1 : 0] },
        };
      }),
    });
  }
  // An entry the researcher copied in notebook.md has the same id twice: the tree's ids stay unique.
  const seen = new Map<string, number>();
  for (const e of v.entries) {
    const n = seen.get(e.id) ?? 0;
    seen.set(e.id, n + 1);
    out.push(n ? uniqueIds(entryNode(l10n, e), `#${n}`) : entryNode(l10n, e));
  }
  return out;
}

function uniqueIds(node: TreeNodeModel, suffix: string): TreeNodeModel {
  return { ...node, id: `${node.id}${suffix}`, ...(node.children ? { children: node.children.map((c) => uniqueIds(c, suffix)) } : {}) };
}
