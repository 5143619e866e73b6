/**
 * The readable view of an item: read-only `marker-research:` documents with
 * the whole transcript (speaker, time, turn) and every comment (author, likes,
 * date), rendered by the engine (core's `layoutFullItem`, once per loaded
 * item). Every unit header's `line N` is a link to that turn or comment in the
 * original file. The extension keeps only what links and lenses need of the
 * items opened (never their text), until the next index.
 */
import * as vscode from 'vscode';
import { readableDocumentRequest, type EvidenceSpan, type ReadableDocument } from '../shared/lspProtocol';
import type { CorpusService } from './corpusService';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';

/** The scheme of the read-only full-item documents. */
export const FULL_ITEM_SCHEME = 'marker-research';

/** The command that opens a span of an item in its original file (registered by the evidence navigator). */
export const OPEN_ORIGINAL_COMMAND = 'markerResearch.openOriginal';

/** What `markerResearch.openOriginal` takes: a span of an item's part (offsets into the part's normalised text). */
export type OriginalTarget = EvidenceSpan;

/** What the extension keeps of a readable document: its size, its header links and its files (no text). */
export type ReadableMeta = Omit<ReadableDocument, 'text'>;

/** A `command:` URI that runs `markerResearch.openOriginal` on `target` (document links and Markdown). */
export function openOriginalUri(target: OriginalTarget): vscode.Uri {
  return vscode.Uri.parse(`command:${OPEN_ORIGINAL_COMMAND}?${encodeURIComponent(JSON.stringify([target]))}`);
}

/** Serves `marker-research:/<item> (full item).md?item=<id>`: the item's whole transcript and comments, read-only. */
export class FullItemDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly sub: vscode.Disposable;
  /** By item id, for the loaded corpus: null when the engine has no such item. */
  private metas = new Map<string, Promise<ReadableMeta | null>>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly client: CorpusLanguageClient,
    corpus: CorpusService,
  ) {
    // A re-index may change an open item: its document follows.
    this.sub = corpus.onDidLoad(() => {
      this.metas = new Map();
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

  /** The size, links and files of item `itemId`'s readable document; null when the indexed corpus has no such item. */
  meta(itemId: string): Promise<ReadableMeta | null> {
    let meta = this.metas.get(itemId);
    if (!meta) {
      const metas = this.metas;
      meta = this.client.request(readableDocumentRequest, { itemId });
      metas.set(itemId, meta);
      // A failed request is not kept: the next call asks again.
      void meta.then(undefined, () => {
        if (metas.get(itemId) === meta) metas.delete(itemId);
      });
    }
    return meta;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = FullItemDocuments.itemIdOf(uri) ?? '';
    let doc: ReadableDocument | null;
    try {
      doc = await this.client.request(readableDocumentRequest, { itemId: id, withText: true });
    } catch (e) {
      this.log.warn(`the full item ${id} could not be rendered: ${(e as Error).message}`);
      return `# ${vscode.l10n.t('Item not shown')}\n\n${vscode.l10n.t('The engine could not render "{0}": {1}', id, (e as Error).message)}\n`;
    }
    if (!doc) return `# ${vscode.l10n.t('Item not found')}\n\n${vscode.l10n.t('The item "{0}" is not in the indexed corpus. Run "Marker Research: Index Corpus" and try again.', id)}\n`;
    const { text, ...meta } = doc;
    this.metas.set(id, Promise.resolve(meta));
    return text ?? '';
  }

  /** Every unit header's `line N`: a link to the turn or comment in the original file. */
  async provideDocumentLinks(doc: vscode.TextDocument): Promise<vscode.DocumentLink[]> {
    const id = FullItemDocuments.itemIdOf(doc.uri);
    const meta = id === undefined ? null : await this.meta(id).catch(() => null);
    if (!meta || doc.lineCount !== meta.lineCount) return []; // an older rendering: the lines do not match
    return meta.links.map((l) => {
      const link = new vscode.DocumentLink(new vscode.Range(l.line, l.startCharacter, l.line, l.endCharacter), openOriginalUri(l.target));
      link.tooltip = l.tooltip;
      return link;
    });
  }

  /** Opens the full item in a (read-only) editor. */
  async open(itemId: string): Promise<vscode.TextEditor> {
    if (!(await this.meta(itemId))) throw new EngineRequestError('not-found', vscode.l10n.t('no item "{0}" in the indexed corpus; run Index Corpus again.', itemId));
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
