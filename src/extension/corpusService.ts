/**
 * The indexed corpus as the extension sees it: its root and counts. The
 * corpus itself lives in the engine (the language server); this only asks
 * the engine to index and tells listeners when it did.
 */
import * as vscode from 'vscode';
import type { ProgressUpdate } from '../core/util/abort';
import { indexRequest, type IndexResult } from '../shared/lspProtocol';
import type { CorpusLanguageClient } from './languageClient';
import type { SettingsService } from './settings';

export class CorpusService implements vscode.Disposable {
  private last: IndexResult | undefined;
  private readonly emitter = new vscode.EventEmitter<IndexResult>();
  /** Fires after the engine (re)loaded the corpus. */
  readonly onDidLoad = this.emitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly client: CorpusLanguageClient,
    private readonly settings: SettingsService,
  ) {}

  /** What the last index found (root, counts), or undefined before the first index. */
  get current(): IndexResult | undefined {
    return this.last;
  }

  /** The root of the indexed corpus. */
  get root(): string | undefined {
    return this.last?.root;
  }

  /** Has the engine index `root` (progress notification with Cancel; `onProgress` sees every update). */
  async load(root: string, opts: { onProgress?: (u: ProgressUpdate) => void } = {}): Promise<IndexResult> {
    const result = await this.client.work(vscode.l10n.t('Marker Research: indexing corpus'), indexRequest, { root, settings: this.settings.value }, opts);
    this.log.info(`engine indexed ${result.items} items (${result.words} words, ${result.comments} comments) in ${result.ms} ms; ${result.problems} problems`);
    this.last = result;
    this.emitter.fire(result);
    return result;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
