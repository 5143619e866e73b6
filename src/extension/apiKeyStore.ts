/**
 * The model API key: only ever in VS Code's SecretStorage, never logged. The
 * extension reads it for each engine request that may call a model and sends
 * it along; the engine holds it in memory for that request only.
 */
import type * as vscode from 'vscode';

/** The one SecretStorage key of the extension. */
export const API_KEY_SECRET = 'markerResearch.apiKey' as const;

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(): Thenable<string | undefined> {
    return this.secrets.get(API_KEY_SECRET);
  }

  set(key: string): Thenable<void> {
    return this.secrets.store(API_KEY_SECRET, key);
  }

  clear(): Thenable<void> {
    return this.secrets.delete(API_KEY_SECRET);
  }
}
