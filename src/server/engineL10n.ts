/**
 * The engine's messages in the display language: the extension passes its loaded l10n bundle
 * (`vscode.l10n.bundle`, the same `l10n/bundle.l10n.<locale>.json` its own strings come from) in
 * the `initialize` request's options, and the engine's `l10n.t(...)` calls (`@vscode/l10n`) read it.
 * No bundle (English, tests, the CLI): every message is its English source.
 */
import * as l10n from '@vscode/l10n';

/** The bundle as the extension sends it: English message (or `message/comment` key) → translation. */
export type EngineL10nBundle = Record<string, string | { message: string; comment: string[] }>;

/** A bundle from the untrusted options, or undefined when it is not one (ignored: English). */
export function engineL10nBundle(value: unknown): EngineL10nBundle | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: EngineL10nBundle = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') out[k] = { message: (v as { message: string }).message, comment: [] };
  }
  return out;
}

/** Loads `value` (the `l10n` initialization option) as the engine's bundle; anything else leaves English. */
export function configureEngineL10n(value: unknown): void {
  const contents = engineL10nBundle(value);
  if (contents) l10n.config({ contents });
}
