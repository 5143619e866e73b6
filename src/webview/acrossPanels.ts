/**
 * The page of the "Across items" panels (runs in the webview): Markers Across Items, Compare Items
 * or Items Timeline, whichever model the host sends (see src/shared/acrossWebviewProtocol.ts);
 * clicks go back to the host. Scroll position is kept when the same view is drawn again (a kind
 * toggled, the buckets changed).
 */
// First: the page's l10n bundle is loaded before any view draws.
import './l10nSetup';
import type { AcrossHostToWebview, AcrossToHost } from '../shared/acrossWebviewProtocol';
import { markersAcrossView } from './acrossMarkersView';
import { compareView } from './compareView';
import { el } from './dom';
import { timelineView } from './timelineView';
import { vscodeApi } from './vscodeApi';

const vscode = vscodeApi<AcrossToHost, Record<string, never>>();
const app = document.getElementById('app')!;
const post = (msg: AcrossToHost): void => vscode.postMessage(msg);
let shown: string | undefined;

function draw(kind: string, view: HTMLElement): void {
  const y = shown === kind ? window.scrollY : 0;
  app.replaceChildren(view);
  app.removeAttribute('aria-busy');
  shown = kind;
  window.scrollTo(0, y);
}

window.addEventListener('message', (event: MessageEvent<AcrossHostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'markers':
      return draw('markers', markersAcrossView(msg.model, post));
    case 'compare':
      return draw('compare', compareView(msg.model, post));
    case 'timeline':
      return draw('timeline', timelineView(msg.model, post));
    case 'busy': {
      app.setAttribute('aria-busy', 'true');
      if (!shown) app.replaceChildren(el('p', 'status', msg.message));
      return;
    }
    case 'error':
      app.removeAttribute('aria-busy');
      app.prepend(el('p', 'status status-error', msg.message));
      return;
  }
});

post({ type: 'ready' });
