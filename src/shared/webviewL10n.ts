/**
 * How a webview page gets its fixed UI words in the display language: the extension writes its
 * loaded l10n bundle (`vscode.l10n.bundle`: English message → translation; `{}` in English) into
 * the page as a JSON data block (never executed, so the page's CSP is untouched), and the page's
 * `@vscode/l10n` reads it before anything is drawn (src/webview/l10nSetup.ts). Pure: no zod, no
 * DOM, no VS Code (the smallest webview bundle imports it).
 */

/** The id of the page's `<script type="application/json">` block holding the bundle. */
export const WEBVIEW_L10N_ELEMENT_ID = 'marker-research-l10n';

/** The bundle a page carries: English message (or its `message/comment` key) → translation. */
export type WebviewL10nBundle = Record<string, string>;

/** The bundle as a page's data block: `<` and `>` escaped, so no text can end the block or open a tag. */
export function webviewL10nBlock(bundle: unknown): string {
  const json = JSON.stringify(webviewL10nBundle(bundle)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<script type="application/json" id="${WEBVIEW_L10N_ELEMENT_ID}">${json}</script>`;
}

/** The strings of `value` (a bundle, or the data block's parsed text); anything else is dropped. */
export function webviewL10nBundle(value: unknown): WebviewL10nBundle {
  const out: WebviewL10nBundle = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') out[k] = (v as { message: string }).message;
  }
  return out;
}
