/**
 * Loads the page's l10n bundle (written by the extension, src/shared/webviewL10n.ts) into
 * `@vscode/l10n` before any view draws: every entry point imports this module first, so the
 * webviews' `l10n.t(...)` calls return the display language (English when the page has none).
 */
import * as l10n from '@vscode/l10n';
import { WEBVIEW_L10N_ELEMENT_ID, webviewL10nBundle } from '../shared/webviewL10n';

function pageBundle(): Record<string, string> {
  const text = document.getElementById(WEBVIEW_L10N_ELEMENT_ID)?.textContent;
  if (!text) return {};
  try {
    return webviewL10nBundle(JSON.parse(text));
  } catch {
    return {};
  }
}

l10n.config({ contents: pageBundle() });
