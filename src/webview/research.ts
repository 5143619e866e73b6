/**
 * The Research view (runs in the webview, a browser): goals, the plan of the
 * run shown with live step status, earlier runs (see researchPanel.ts). Talks
 * to the host only through the Research half of the typed protocol.
 */
// First: the page's l10n bundle is loaded before any view draws.
import './l10nSetup';
import type { ResearchHostToWebview, ResearchToHost } from '../shared/webviewProtocol';
import { ResearchPanel } from './researchPanel';
import { vscodeApi } from './vscodeApi';

const vscode = vscodeApi<ResearchToHost, Record<string, never>>();
const app = document.getElementById('app')!;
const panel = new ResearchPanel((msg) => vscode.postMessage(msg));
app.replaceChildren(panel.el);

window.addEventListener('message', (event: MessageEvent<ResearchHostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'research':
      panel.render(msg.research);
      break;
    case 'stepStatus':
      panel.stepStatus(msg.runId, msg.stepId, msg.status);
      break;
    case 'corpus':
      panel.setCorpus(msg.corpus);
      break;
  }
});

vscode.postMessage({ type: 'ready' });
