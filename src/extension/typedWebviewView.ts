/**
 * What every view of the sidebar does the same way: a webview view that speaks
 * one half of the typed protocol (src/shared/webviewProtocol.ts). Nothing is
 * posted before the webview says `ready`; what it sends is parsed with the
 * view's zod schema (the webview is untrusted) and handed to {@link TypedWebviewView.handle}
 * inside a boundary that logs failures.
 */
import * as vscode from 'vscode';
import type { z } from 'zod';
import { webviewPage, whenReady } from './webviewHost';

export interface WebviewViewPage {
  /** Bundle under dist/. */
  script: string;
  /** Stylesheet under media/. */
  style: string;
  title: string;
  body: string;
}

export abstract class TypedWebviewView<Out extends { type: string }, In extends { type: string }> implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.readyEmitter];

  constructor(
    protected readonly extensionUri: vscode.Uri,
    protected readonly log: vscode.LogOutputChannel,
    private readonly page: WebviewViewPage,
    private readonly schema: z.ZodType<In>,
    /** How the log names this view ("the Research view"). */
    private readonly label: string,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = webviewPage(webview, this.extensionUri, this.page);
    // A view can be resolved again (moved, re-shown): the events of an earlier one must not touch the new one
    // (its late dispose would otherwise leave the new view unready, stuck at "Loading…").
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        if (this.view === view) void this.onMessage(raw);
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** True once the webview said `ready` (and until it is disposed). */
  get isReady(): boolean {
    return this.view !== undefined && this.ready;
  }

  /** Resolves true when the webview is ready, false after `ms`. */
  whenReady(ms: number): Promise<boolean> {
    return whenReady(() => this.isReady, this.readyEmitter.event, ms);
  }

  /** Posts when the webview is ready; dropped otherwise (the view sends its whole state on `ready`). */
  protected post(msg: Out): void {
    if (this.view && this.ready) void this.view.webview.postMessage(msg);
  }

  /** The webview said `ready`: post everything it shows (`whenReady` resolves once this is done). */
  protected abstract onReady(): void | Promise<void>;

  /** One parsed message other than `ready`. */
  protected abstract handle(msg: Exclude<In, { type: 'ready' }>): Promise<void>;

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored malformed message from ${this.label}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const msg = parsed.data;
    try {
      if (msg.type === 'ready') {
        this.ready = true;
        await this.onReady();
        this.readyEmitter.fire();
        return;
      }
      await this.handle(msg as Exclude<In, { type: 'ready' }>);
    } catch (e) {
      this.log.error(`${this.label}: action "${msg.type}" failed: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
