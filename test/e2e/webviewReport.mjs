// What the workbench page holds when a webview view is not found, for the failure message: each
// webview iframe (its classes — "ready" once VS Code's host page answered —, purpose, extension,
// size) and each frame of the page (detached ones marked). A blank view whose iframe never became
// ready reads differently from a drawn one the harness looked for in the wrong place.
/** What the page holds when a webview view is not found: its webview iframes (class, purpose, inner frame) and its frames. */
export async function webviewReport(page) {
  const iframes = await page.locator('iframe.webview').evaluateAll((els) => els.map((e) => {
    const u = new URL(e.src);
    return `${e.className.replace(/\s+/g, '.')} ${u.searchParams.get('purpose')} ${(u.searchParams.get('extensionId') ?? '').split('.').pop()} ${e.offsetWidth}x${e.offsetHeight}`;
  })).catch((e) => [`(${e.message})`]);
  // Inside each: is VS Code's #active-frame there, and what its document holds (ids of its first elements, length of its text).
  const inner = [];
  const hosts = page.locator('iframe.webview');
  const n = await hosts.count().catch(() => 0);
  for (let i = 0; i < n; i++) {
    const host = hosts.nth(i).contentFrame();
    const active = await host.locator('#active-frame').count().catch(() => -1);
    const pending = await host.locator('#pending-frame').count().catch(() => -1);
    const body = active > 0 ? await host.locator('#active-frame').contentFrame().locator('body').evaluate((b) => `${[...b.querySelectorAll('[id]')].slice(0, 4).map((e) => `#${e.id}`).join(',')} ${b.innerText.length} chars`, null, { timeout: 2_000 }).catch((e) => `(${String(e.message).split('\n')[0].slice(0, 80)})`) : '';
    inner.push(`[${i}] active=${active} pending=${pending} ${body}`);
  }
  const frames = page.frames().map((f) => `${f.url().replace(/\?.*$/, '').split('/').slice(-1)[0] || '(blank)'}${f.isDetached() ? ' detached' : ''}`);
  return `webview iframes: ${iframes.join(' | ') || 'none'}; inside: ${inner.join(' | ') || 'none'}; frames: ${frames.join(', ')}`;
}

