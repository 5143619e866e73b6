/**
 * What the sidebar's webview views share: the HTML page with its strict CSP and nonce, and
 * waiting for a webview's `ready` handshake.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewL10nBlock } from '../shared/webviewL10n';

/** The page of a webview view: one script (`dist/<script>`), one stylesheet (`media/<style>`), nothing else allowed. */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: { script: string; style: string; title: string; body: string }): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', page.script));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', page.style));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="${htmlLang(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${style.toString()}" rel="stylesheet">
<title>${page.title}</title>
</head>
<body>
${webviewL10nBlock(vscode.l10n.bundle)}
${page.body}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** A display language as an HTML `lang` (`zh-cn` → `zh-CN`), for the fonts and line breaking of the page. */
function htmlLang(language: string): string {
  const [lang, region] = language.split('-');
  return /^[a-z]{2,3}$/i.test(lang ?? '') ? (region && /^[a-z0-9]{2,4}$/i.test(region) ? `${lang!.toLowerCase()}-${region.toUpperCase()}` : lang!.toLowerCase()) : 'en';
}

/** Resolves true when `event` fires (the webview said `ready`), false after `ms`; at once when `ready()` is already true. */
export function whenReady(ready: () => boolean, event: vscode.Event<void>, ms: number): Promise<boolean> {
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(false);
    }, ms);
    const sub = event(() => {
      clearTimeout(timer);
      sub.dispose();
      resolve(true);
    });
  });
}
