/**
 * One "Across items" webview panel in the editor area (Markers Across Items, Compare Items, Items
 * Timeline): created on first use, revealed after; its page (`dist/across.js`, `media/across.css`,
 * the strict CSP of {@link webviewPage}) is sent the last model once it says `ready` (also after
 * the page is reloaded); what it sends is parsed with {@link acrossToHostSchema} and handed to
 * `onMessage` inside a boundary that logs failures.
 */
import * as vscode from 'vscode';
import { acrossToHostSchema, type AcrossHostToWebview, type AcrossToHost } from '../shared/acrossWebviewProtocol';
import { webviewPage } from './webviewHost';

export class AcrossPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private last: AcrossHostToWebview | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    /** `markerResearch.markersAcross`, … (the panel's view type). */
    private readonly viewType: string,
    private readonly onMessage: (msg: Exclude<AcrossToHost, { type: 'ready' }>) => Promise<void> | void,
  ) {}

  /** Whether the panel is open. */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Opens the panel (or brings it forward) titled `title`, then shows `msg` (posted once the page is ready). */
  show(title: string, msg: AcrossHostToWebview): void {
    if (!this.panel) this.create(title);
    else {
      this.panel.title = title;
      if (!this.panel.visible) this.panel.reveal(undefined, false);
    }
    this.post(msg);
  }

  /** Posts to the page when it is ready; otherwise kept and posted on `ready`. */
  post(msg: AcrossHostToWebview): void {
    if (msg.type !== 'busy') this.last = msg;
    if (this.panel && this.ready) void this.panel.webview.postMessage(msg);
  }

  private create(title: string): void {
    const panel = vscode.window.createWebviewPanel(this.viewType, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
    panel.webview.html = webviewPage(panel.webview, this.extensionUri, { script: 'across.js', style: 'across.css', title, body: `<main id="app" data-view="${this.viewType}"></main>` });
    this.panel = panel;
    this.ready = false;
    this.subs.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        if (this.panel === panel) void this.receive(raw);
      }),
      panel.onDidDispose(() => {
        if (this.panel !== panel) return;
        this.panel = undefined;
        this.ready = false;
      }),
    );
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = acrossToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`ignored malformed message from the ${this.viewType} panel: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const msg = parsed.data;
    try {
      if (msg.type === 'ready') {
        this.ready = true;
        if (this.last && this.panel) void this.panel.webview.postMessage(this.last);
        return;
      }
      await this.onMessage(msg);
    } catch (e) {
      this.log.error(`${this.viewType}: action "${msg.type}" failed: ${(e as Error).message}`);
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.panel?.dispose();
  }
}
