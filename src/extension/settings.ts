/** Reads `markerResearch.*` once per change, parsed with the shared zod schema. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETTINGS_SECTION, settingsSchema, type Settings } from '../shared/settings';

export class SettingsService implements vscode.Disposable {
  private current: Settings;
  private readonly emitter = new vscode.EventEmitter<Settings>();
  private readonly listener: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.current = this.read();
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SETTINGS_SECTION)) return;
      this.current = this.read();
      this.emitter.fire(this.current);
    });
  }

  get value(): Settings {
    return this.current;
  }

  /** The corpus folder: the setting, resolved against the first workspace folder. */
  corpusRoot(): string | undefined {
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri;
    const configured = this.current.corpusPath.trim();
    if (configured) {
      if (path.isAbsolute(configured)) return configured;
      return ws?.scheme === 'file' ? path.join(ws.fsPath, configured) : undefined;
    }
    return ws?.scheme === 'file' ? ws.fsPath : undefined;
  }

  private read(): Settings {
    const cfg = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const raw = Object.fromEntries(Object.keys(settingsSchema.shape).map((k) => [k, cfg.get(k)]));
    const parsed = settingsSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.log.warn(`invalid markerResearch settings, using defaults: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return settingsSchema.parse({});
  }

  dispose(): void {
    this.listener.dispose();
    this.emitter.dispose();
  }
}
