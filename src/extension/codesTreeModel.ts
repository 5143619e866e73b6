/**
 * The Codes view's tree from the engine's codes (pure): each code (its colour, its count of
 * segments and items) with the codes under it and its segments across items (the quote, the item,
 * who and when; a click opens the span), segments of codes no longer in the codebook under their
 * own node, and the markers' topics offered as codes under "Suggested". Also the code × item table
 * as a Markdown document. Every corpus value and name is escaped (hovers: the hover escape; the
 * table: the Markdown escape).
 */
import { hoverText, markdownText } from '../core/text/markdownSafe';
import type { CodeItemTableResult, CodesViewResult, CodeView, SegmentView } from '../shared/workbenchProtocol';
import { hoverQuote, LABEL_QUOTE_CHARS, oneLine, openSpanCommand, spanHover, type L10n, type TreeNodeModel } from './workbenchTreeNode';

/** The command that creates a code from a suggested topic. */
export const CREATE_SUGGESTED_CODE_COMMAND = 'markerResearch.createSuggestedCode';

/** A segment's node. */
export function segmentNode(l10n: L10n, s: SegmentView, idPrefix = 'segment'): TreeNodeModel {
  const hover = spanHover(l10n, s.span);
  if (s.memo) hover.push('', hoverText(l10n.t('Memo:')), hoverQuote(s.memo, 600));
  return {
    id: `${idPrefix}:${s.id}`,
    label: oneLine(s.span.quote, LABEL_QUOTE_CHARS),
    description: [s.span.itemTitle, s.span.location, ...(s.span.lost ? [l10n.t('⚠ lost')] : []), ...(s.memo ? [l10n.t('memo')] : [])].join(' · '),
    tooltip: hover.join('\n'),
    icon: s.span.lost ? { codicon: 'warning', themeColour: 'list.warningForeground' } : { codicon: s.memo ? 'note' : 'quote' },
    contextValue: 'codedSegment',
    command: openSpanCommand(l10n, s.span),
    ref: { kind: 'segment', id: s.id, codeId: s.codeId },
  };
}

/** A code's description: its segments and items (with the codes under it, when it has some). */
export function codeDescription(l10n: L10n, c: CodeView): string {
  const own = c.count === 1 ? l10n.t('1 segment') : l10n.t('{0} segments', c.count);
  const items = c.items === 1 ? l10n.t('1 item') : l10n.t('{0} items', c.items);
  const parts = [c.count ? `${own} · ${items}` : own];
  if (c.subtreeCount !== c.count) parts.push(l10n.t('{0} with sub-codes', c.subtreeCount));
  return parts.join(' · ');
}

/** A code's node (its sub-codes and segments as children). */
function codeNode(l10n: L10n, c: CodesViewResult['codes'][number], children: TreeNodeModel[]): TreeNodeModel {
  const hover = [`**${hoverText(c.name)}** · ${hoverText(codeDescription(l10n, c))}`];
  if (c.description) hover.push('', hoverText(c.description));
  if (c.memo) hover.push('', hoverText(l10n.t('Memo:')), hoverQuote(c.memo, 600));
  return {
    id: `code:${c.id}`,
    label: c.name,
    description: codeDescription(l10n, c),
    tooltip: hover.join('\n'),
    icon: { circle: c.colour },
    contextValue: 'code',
    collapsed: children.length ? true : undefined,
    children,
    ref: { kind: 'code', id: c.id, name: c.name },
  };
}

/** The whole tree: problems, codes (nested as the codebook nests them), segments of deleted codes, suggestions. */
export function codesTree(l10n: L10n, v: CodesViewResult): TreeNodeModel[] {
  const out: TreeNodeModel[] = [];
  if (v.problems.length) {
    out.push({
      id: 'problems',
      label: l10n.t('{0} workbench file(s) could not be read', v.problems.length),
      icon: { codicon: 'error', themeColour: 'list.errorForeground' },
      collapsed: false,
      children: v.problems.map((p, i) => ({ id: `problem:${i}`, label: oneLine(p, 200), tooltip: hoverText(p), icon: { codicon: 'error', themeColour: 'list.errorForeground' } })),
    });
  }
  // Codes come in tree order (a parent before its children): build each parent's children, then the top level.
  const known = new Set(v.codes.map((c) => c.id));
  const subCodes = new Map<string, TreeNodeModel[]>();
  const nodes: { parent: string | null; node: TreeNodeModel }[] = [];
  for (let i = v.codes.length - 1; i >= 0; i--) {
    const c = v.codes[i]!;
    const children = [...(subCodes.get(c.id) ?? []), ...c.segments.map((s) => segmentNode(l10n, s))];
    const node = codeNode(l10n, c, children);
    const parent = c.parentId && known.has(c.parentId) ? c.parentId : null;
    if (parent) subCodes.set(parent, [node, ...(subCodes.get(parent) ?? [])]);
    else nodes.unshift({ parent, node });
  }
  out.push(...nodes.map((n) => n.node));
  if (v.unknown.length) {
    out.push({
      id: 'unknown',
      label: l10n.t('Segments of deleted codes'),
      description: String(v.unknown.length),
      tooltip: hoverText(l10n.t('These segments name a code that is no longer in codebook.json; they are kept (recode or remove them).')),
      icon: { codicon: 'question' },
      collapsed: true,
      children: v.unknown.map((s) => segmentNode(l10n, s, 'unknown')),
    });
  }
  if (v.suggested.length) {
    out.push({
      id: 'suggested',
      label: l10n.t('Suggested'),
      description: l10n.t('topics of the markers: {0}', v.suggested.length),
      tooltip: hoverText(l10n.t('Topics of the markers across items, most frequent first: create a code from one with the + button.')),
      icon: { codicon: 'lightbulb' },
      contextValue: 'suggestedCodes',
      collapsed: true,
      children: v.suggested.map((s) => ({
        id: `suggested:${s.topic}`,
        label: s.topic,
        description: l10n.t('markers: {0} · items: {1}', s.markers, s.items),
        tooltip: hoverText(l10n.t('Create a code named "{0}" (a topic of {1} markers in {2} items).', s.topic, s.markers, s.items)),
        icon: { codicon: 'lightbulb-autofix' },
        contextValue: 'suggestedCode',
        ref: { kind: 'suggested', topic: s.topic },
      })),
    });
  }
  return out;
}

/**
 * The code × item table as a Markdown document: a row per code (indented under its parent), a
 * column per item with a coded segment (the other items are counted below the table), totals.
 */
export function codeItemTableMarkdown(l10n: L10n, t: CodeItemTableResult): string {
  const cols = t.items.map((it, j) => ({ ...it, j })).filter((c) => t.itemTotals[c.j]! > 0);
  const lines = [`# ${markdownText(l10n.t('Codes × items'))}`, ''];
  if (!t.rows.length) {
    lines.push(markdownText(l10n.t('No codes yet: create one in the Codes view, or code a selection of an item.')), '');
    return lines.join('\n');
  }
  lines.push(markdownText(l10n.t('Coded segments: {0} · codes: {1} · items with a coded segment: {2} of {3}', t.total, t.rows.length, cols.length, t.items.length)), '');
  const header = [markdownText(l10n.t('Code')), ...cols.map((c) => markdownText(oneLine(c.title, 60))), markdownText(l10n.t('Total'))];
  lines.push(`| ${header.join(' | ')} |`, `| --- | ${cols.map(() => '---:').join(' | ')}${cols.length ? ' | ' : ''}---: |`);
  for (const r of t.rows) {
    const name = `${'\u00a0\u00a0'.repeat(r.depth)}${markdownText(r.name)}`;
    lines.push(`| ${[name, ...cols.map((c) => String(r.counts[c.j] ?? 0)), `**${r.total}**`].join(' | ')} |`);
  }
  lines.push(`| ${[`**${markdownText(l10n.t('Total'))}**`, ...cols.map((c) => `**${t.itemTotals[c.j]}**`), `**${t.total}**`].join(' | ')} |`, '');
  const uncoded = t.items.length - cols.length;
  if (uncoded) lines.push(markdownText(l10n.t('Items without a coded segment (not shown as columns): {0}', uncoded)), '');
  if (t.unknownCode) lines.push(markdownText(l10n.t('Segments of codes no longer in the codebook (not counted): {0}', t.unknownCode)), '');
  return lines.join('\n');
}
