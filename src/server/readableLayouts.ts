/**
 * The readable views of the loaded items (core's `layoutFullItem`), rendered
 * once per loaded item and kept for the items opened most recently, with the
 * header links and part files of each. Dropped whenever a corpus loads: the
 * items are new objects, and their documents may differ.
 */
import * as l10n from '@vscode/l10n';
import type { CorpusItem } from '../core/corpus/types';
import { layoutFullItem, type ReadableItem } from '../core/markers/fullItem';
import { readableAnnotations } from '../core/markers/readableSpans';
import { hoverText } from '../core/text/markdownSafe';
import type { ReadableLineRange, ReadableLink, ReadablePartFile } from '../shared/lspProtocol';
import type { EngineState } from './engineState';

/** How many items' layouts are kept (each holds a copy of its item's text, rendered). */
export const LAYOUTS_KEPT = 64;

/** A rendered item: the layout, and what the client's links and lenses need. */
export interface ReadableEntry {
  item: CorpusItem;
  layout: ReadableItem;
  links: ReadableLink[];
  files: ReadablePartFile[];
  /** Where the annotations are (dimmed or hidden by the extension). */
  annotations: ReadableLineRange[];
}

/** The `line N` (a paragraph's `lines N–M`) of every unit header (empty comments have none): a link to the unit in its original file; a comment's id is in its tooltip. */
function headerLinks(item: CorpusItem, layout: ReadableItem): ReadableLink[] {
  const lines = layout.text.split('\n');
  const links: ReadableLink[] = [];
  for (const b of layout.blocks) {
    if (b.part === 'comments' && !b.text.trim()) continue;
    const text = lines[b.header] ?? '';
    const at = Math.max(text.lastIndexOf(' · line '), text.lastIndexOf(' · lines '));
    if (at < 0) continue;
    const file = (b.part === 'transcript' ? item.transcript : item.comments)?.file.relPath ?? l10n.t('the original file');
    const id = b.part === 'comments' ? item.comments?.comments[b.position]?.id : undefined;
    const tooltip =
      b.part === 'comments'
        ? id ? l10n.t('Open this comment {0} in {1}', hoverText(id), hoverText(file)) : l10n.t('Open this comment in {0}', hoverText(file))
        : b.lastPosition !== undefined ? l10n.t('Open this paragraph in {0}', hoverText(file)) : l10n.t('Open this turn in {0}', hoverText(file));
    links.push({
      line: b.header,
      startCharacter: at + 3,
      endCharacter: text.length,
      target: { itemId: item.id, part: b.part, start: b.offset, end: b.offset + b.text.length },
      // Shown as a link label in a trusted Markdown hover: the path and the id are hover text, never a way out of the label.
      tooltip,
    });
  }
  return links;
}

function partFiles(item: CorpusItem): ReadablePartFile[] {
  const out: ReadablePartFile[] = [];
  if (item.transcript?.text) out.push({ part: 'transcript', relPath: item.transcript.file.relPath });
  if (item.comments?.text) out.push({ part: 'comments', relPath: item.comments.file.relPath });
  return out;
}

/** The layouts of the loaded corpus's items, least recently used first out. */
export class ReadableLayouts {
  private readonly entries = new Map<string, ReadableEntry>();

  constructor(
    state: Pick<EngineState, 'onDidLoad'>,
    private readonly limit = LAYOUTS_KEPT,
  ) {
    state.onDidLoad(() => this.entries.clear());
  }

  /** The rendered `item` (rendered now when not kept). */
  get(item: CorpusItem): ReadableEntry {
    let entry = this.entries.get(item.id);
    if (entry?.item === item) {
      this.entries.delete(item.id); // re-inserted last: the most recently used
    } else {
      const layout = layoutFullItem(item);
      entry = { item, layout, links: headerLinks(item, layout), files: partFiles(item), annotations: readableAnnotations(layout).map((r) => ({ line: r.line, startCharacter: r.start, endCharacter: r.end })) };
    }
    this.entries.set(item.id, entry);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
