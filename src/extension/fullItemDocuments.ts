/**
 * The readable view of an item: read-only `marker-research:` documents with
 * the whole transcript (speaker, time, turn) and every comment (author, likes,
 * date), rendered by core's `layoutFullItem`. Every unit header's `line N`
 * is a link to that turn or comment in the original file.
 */
import * as vscode from 'vscode';
import type { CorpusItem, PartKind } from '../core/corpus/types';
import { layoutFullItem, type ReadableItem } from '../core/markers/fullItem';
import type { CorpusService } from './corpusService';
import { MarkerServiceError } from './markerService';

/** The scheme of the read-only full-item documents. */
export const FULL_ITEM_SCHEME = 'marker-research';

/** The command that opens a span of an item in its original file (registered by the evidence navigator). */
export const OPEN_ORIGINAL_COMMAND = 'markerResearch.openOriginal';

/** What `markerResearch.openOriginal` takes: a span of an item's part (offsets into the part's normalised text). */
export interface OriginalTarget {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
}

/** A `command:` URI that runs `markerResearch.openOriginal` on `target` (document links and Markdown). */
export function openOriginalUri(target: OriginalTarget): vscode.Uri {
  return vscode.Uri.parse(`command:${OPEN_ORIGINAL_COMMAND}?${encodeURIComponent(JSON.stringify([target]))}`);
}

/** Serves `marker-research:/<item> (full item).md?item=<id>`: the item's whole transcript and comments, read-only. */
export class FullItemDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly sub: vscode.Disposable;
  private readonly layouts = new WeakMap<CorpusItem, ReadableItem>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly corpus: CorpusService,
  ) {
    // A re-index may change an open item: its document follows.
    this.sub = corpus.onDidLoad(() => {
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === FULL_ITEM_SCHEME) this.emitter.fire(doc.uri);
    });
  }

  static uriFor(itemId: string): vscode.Uri {
    const name = itemId.replace(/[/\\:*?"<>|\p{Cc}]/gu, '_').slice(0, 120);
    return vscode.Uri.from({ scheme: FULL_ITEM_SCHEME, path: `/${name} (full item).md`, query: new URLSearchParams({ item: itemId }).toString() });
  }

  /** The item id of a full-item document, or undefined for any other document. */
  static itemIdOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== FULL_ITEM_SCHEME) return undefined;
    return new URLSearchParams(uri.query).get('item') ?? undefined;
  }

  /** The item of the indexed corpus with id `itemId`. */
  item(itemId: string): CorpusItem | undefined {
    return this.corpus.current?.items.find((it) => it.id === itemId);
  }

  /** The rendered document of `item` and where each unit is in it (computed once per loaded item). */
  layout(item: CorpusItem): ReadableItem {
    let layout = this.layouts.get(item);
    if (!layout) this.layouts.set(item, (layout = layoutFullItem(item)));
    return layout;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = FullItemDocuments.itemIdOf(uri) ?? '';
    const item = this.item(id);
    if (!item) return `# Item not found\n\nThe item "${id}" is not in the indexed corpus. Run "Marker Research: Index Corpus" and try again.\n`;
    return this.layout(item).text;
  }

  /** Every unit header's `line N`: a link to the turn or comment in the original file. */
  provideDocumentLinks(doc: vscode.TextDocument): vscode.DocumentLink[] {
    const item = this.item(FullItemDocuments.itemIdOf(doc.uri) ?? '');
    if (!item) return [];
    const layout = this.layout(item);
    if (doc.lineCount !== layout.lineCount) return []; // an older rendering: the lines do not match
    const links: vscode.DocumentLink[] = [];
    for (const b of layout.blocks) {
      if (b.part === 'comments' && !b.text.trim()) continue;
      const text = doc.lineAt(b.header).text;
      const at = text.lastIndexOf(' · line ');
      if (at < 0) continue;
      const link = new vscode.DocumentLink(new vscode.Range(b.header, at + 3, b.header, text.length), openOriginalUri({ itemId: item.id, part: b.part, start: b.offset, end: b.offset + b.text.length }));
      link.tooltip = `Open this ${b.part === 'transcript' ? 'turn' : 'comment'} in ${(b.part === 'transcript' ? item.transcript : item.comments)?.file.relPath ?? 'the original file'}`;
      links.push(link);
    }
    return links;
  }

  /** Opens the full item in a (read-only) editor. */
  async open(itemId: string): Promise<vscode.TextEditor> {
    const item = this.item(itemId);
    if (!item) throw new MarkerServiceError('not-found', `no item "${itemId}" in the indexed corpus; run Index Corpus again.`);
    const uri = FullItemDocuments.uriFor(itemId);
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    this.log.info(`opened the full item ${itemId} (${doc.lineCount} lines) as ${uri.toString(true)}`);
    return editor;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}
