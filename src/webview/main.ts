/**
 * The sidebar UI (runs in the webview, a browser). Renders the state posted by
 * the host with DOM APIs only (textContent), so corpus text is never parsed as HTML.
 */
import type { HostToWebview, ItemSummary, ProblemSummary, SidebarState, WebviewToHost } from '../shared/webviewProtocol';

interface VsCodeApi {
  postMessage(msg: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function countsText(it: ItemSummary): string {
  const parts: string[] = [];
  parts.push(it.transcriptSegments === null ? 'no transcript' : `${it.transcriptSegments} transcript segment${it.transcriptSegments === 1 ? '' : 's'}`);
  parts.push(it.comments === null ? 'no comments' : `${it.comments} comment${it.comments === 1 ? '' : 's'}`);
  parts.push(`${it.words.toLocaleString('en-US')} words`);
  return parts.join(' · ');
}

function renderItem(it: ItemSummary): HTMLLIElement {
  const li = el('li', 'item');
  li.dataset['itemId'] = it.id;
  li.tabIndex = 0;
  li.title = `Open ${it.transcriptFile ?? it.commentsFile ?? it.id}`;
  li.append(el('div', 'item-title', it.title), el('div', 'item-id', it.id), el('div', 'item-counts', countsText(it)));
  const open = (): void => vscode.postMessage({ type: 'openItem', itemId: it.id, part: it.transcriptFile ? 'transcript' : 'comments' });
  li.addEventListener('click', open);
  li.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  });
  return li;
}

function renderProblem(p: ProblemSummary, index: number): HTMLLIElement {
  const li = el('li', `problem severity-${p.severity}`);
  li.tabIndex = 0;
  li.append(el('span', 'problem-path', p.file), el('span', 'problem-line', p.line === null ? '' : `:${p.line}`), el('div', 'problem-message', p.message));
  li.addEventListener('click', () => vscode.postMessage({ type: 'openProblem', index }));
  return li;
}

function render(state: SidebarState): void {
  app.replaceChildren();
  const status = el('p', `status status-${state.status}`, state.message);
  status.id = 'status';
  status.setAttribute('role', 'status');
  app.append(status);
  if (state.status === 'empty' || state.status === 'error') {
    const button = el('button', 'primary', 'Index Corpus');
    button.addEventListener('click', () => vscode.postMessage({ type: 'indexCorpus' }));
    app.append(button);
  }
  if (state.items.length) {
    const list = el('ul', 'items');
    list.setAttribute('aria-label', 'Corpus items');
    list.append(...state.items.map(renderItem));
    app.append(list);
  }
  const shown = state.problems.map((p, i) => [p, i] as const).filter(([p]) => p.severity !== 'info');
  if (shown.length) {
    const details = el('details', 'problems');
    details.open = true;
    details.append(el('summary', undefined, `Problems (${shown.length})`));
    const list = el('ul', 'problem-list');
    list.append(...shown.map(([p, i]) => renderProblem(p, i)));
    details.append(list);
    app.append(details);
  }
}

window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'state':
      render(msg.state);
      break;
    case 'progress': {
      const status = document.getElementById('status');
      if (status) status.textContent = `${msg.message} (${msg.done}/${msg.total})`;
      break;
    }
  }
});

vscode.postMessage({ type: 'ready' });
