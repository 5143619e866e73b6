// The workbench with the display language set to Chinese (issue 24): a second, short code-server
// session started by run.mjs with `--locale zh-cn`, the extension installed from the same .vsix.
//
// code-server only switches its display language when a language pack for it is registered:
// without one it serves English and the extension host's vscode.env.language stays 'en' (measured
// with code-server 4.100.3 and `--locale zh-cn`, with a user argv.json {"locale":"zh-cn"}, and
// with chromium's --lang=zh-CN: env.language 'en' and vscode.l10n.bundle undefined each time).
// No Microsoft language pack can be downloaded here, so this session registers a language pack of
// its own in the user data folder's languagepacks.json — the file VS Code writes when a pack is
// installed — whose translations of VS Code's own strings are empty (VS Code's menus stay English).
// That is enough for VS Code to run with display language zh-cn: env.language is 'zh-cn', the
// extension's package.nls.zh-cn.json names its commands and views, vscode.l10n loads
// l10n/bundle.l10n.zh-cn.json, and the extension passes that bundle to its engine and webviews.
//
// Checks: a command title in the palette, the view names, the engine's status line and the
// webview's own words in Chinese; screenshot test-results/e2e/workbench-zh.png.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { webviewReport } from './webviewReport.mjs';
import { newWorkbenchContext } from './workbenchContext.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
async function waitFor(what, ms, fn, every = 250) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try { const v = await fn(); if (v) return v; } catch (e) { last = e; }
    if (Date.now() >= end) throw new Error(`timeout (${ms / 1000} s) waiting for ${what}${last ? ` (${String(last.message ?? last).split('\n')[0]})` : ''}`);
    await sleep(every);
  }
}

/** What the Chinese workbench must show (package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json). */
const ZH = {
  command: 'Marker Research: 索引语料库',
  views: ['语料库与标记', '研究'],
  status: /已索引 \d+ 个条目/,
  askPlaceholder: '向语料库提问',
};

/**
 * Runs the Chinese-locale checks with run.mjs's `check`; its own code-server is stopped before it returns.
 * @param {{ check: (name: string, fn: () => Promise<void>) => Promise<boolean>, browser: import('playwright-core').Browser,
 *   bin: string, vsix: string, run: string, env: NodeJS.ProcessEnv, corpus: string, extId: string, screenshot: string }} o
 */
export async function l10nChecks(o) {
  const { check, browser, bin, vsix, env, extId } = o;
  const root = path.join(o.run, 'zh-cn');
  const dirs = { data: path.join(root, 'data'), exts: path.join(root, 'extensions'), ws: path.join(root, 'ws'), xdg: path.join(root, 'xdg'), tmp: path.join(root, 'tmp') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(dirs.data, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.data, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'extensions.autoCheckUpdates': false,
    'workbench.tips.enabled': false, 'security.workspace.trust.enabled': false,
  }, null, 2));
  // The language pack registration (see the top of this file): VS Code's strings untranslated, the display language zh-cn.
  const translations = path.join(root, 'vscode-zh-cn.i18n.json');
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  fs.writeFileSync(path.join(dirs.data, 'languagepacks.json'), JSON.stringify({
    'zh-cn': { hash: 'marker-research-e2e-1', label: '中文(简体)', extensions: [{ extensionIdentifier: { id: 'marker-research-e2e.zh-cn-pack' }, version: '1.0.0' }], translations: { vscode: translations } },
  }));
  // A copy of the corpus without the first session's .marker-research (two engines never share a folder).
  const folder = path.join(dirs.ws, path.basename(o.corpus));
  fs.cpSync(o.corpus, folder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.marker-research') && !src.split(path.sep).includes('.vscode') });
  const zEnv = { ...env, TMPDIR: dirs.tmp, XDG_CONFIG_HOME: dirs.xdg, XDG_DATA_HOME: path.join(dirs.xdg, 'data'), XDG_CACHE_HOME: path.join(dirs.xdg, 'cache') };

  let cs = null;
  let context = null;
  try {
    const installed = await check('zh-cn: code-server starts with --locale zh-cn (extension installed)', async () => {
      const r = spawnSync(path.join(bin, 'code-server'), ['--user-data-dir', dirs.data, '--extensions-dir', dirs.exts, '--install-extension', vsix], { env: zEnv, encoding: 'utf8', timeout: 180_000 });
      if (r.status !== 0) throw new Error(`--install-extension: exit ${r.status ?? r.signal} ${(r.stderr || '').trim().split('\n').pop()}`);
      const port = await freePort();
      const logFd = fs.openSync(path.join(root, 'code-server.log'), 'a');
      cs = spawn(path.join(bin, 'code-server'), [
        '--user-data-dir', dirs.data, '--extensions-dir', dirs.exts, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
        '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', '--locale', 'zh-cn', folder,
      ], { cwd: root, env: zEnv, detached: true, stdio: ['ignore', logFd, logFd] });
      fs.closeSync(logFd);
      let exited = null;
      cs.on('exit', (code, signal) => { exited = `code-server exited (${code ?? signal})`; });
      await waitFor('code-server /healthz', 60_000, async () => {
        if (exited) throw new Error(exited);
        return (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
      }, 200);
      context = await newWorkbenchContext(browser);
      const page = await context.newPage();
      // Every console line of the page and its frames (webviews included), kept for the failure report below.
      o.zhConsole = [];
      page.on('console', (m) => o.zhConsole.push(`${new Date().toISOString().slice(11, 23)} [${m.type()}] ${m.location()?.url?.replace(/\?.*$/, '').split('/').slice(-2).join('/') ?? ''}: ${m.text().slice(0, 300)}`));
      page.on('pageerror', (e) => o.zhConsole.push(`[pageerror] ${e.message}`));
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`, { timeout: 60_000, waitUntil: 'domcontentloaded' });
      await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
      o.page = page;
    });
    if (!installed) return;
    const page = o.page;

    const palette = async (typed) => {
      const input = page.locator('.quick-input-widget input');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${typed}`);
      return page.locator('.quick-input-list .monaco-list-row');
    };

    await check(`zh-cn: the palette lists "${ZH.command}" (package.nls.zh-cn.json) and runs it`, async () => {
      // Right after the workbench loads the palette can say "No matching commands" for a while: open it again until the row is there.
      let rows = null;
      let row = null;
      await waitFor(`a palette row "${ZH.command}"`, 45_000, async () => {
        if (rows) await page.keyboard.press('Escape');
        rows = await palette('Marker Research: 索引');
        row = rows.filter({ hasText: ZH.command }).first();
        return row.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true);
      }, 500).catch(async (e) => {
        const seen = (await rows?.allInnerTexts().catch(() => []) ?? []).map((t) => t.replace(/\s+/g, ' ').trim()).slice(0, 5);
        throw new Error(`${e.message} (rows: ${seen.join(' | ') || 'none'})`);
      });
      console.log(`     palette row: ${(await row.innerText()).replace(/\s+/g, ' ').trim()}`);
      await row.click();
    });

    let corpusView = null;
    await check(`zh-cn: the Marker Research views are named ${ZH.views.map((v) => `"${v}"`).join(' and ')}`, async () => {
      const item = page.locator('.part.activitybar .action-item').filter({ has: page.locator('a[aria-label^="Marker Research"]') }).first();
      await item.waitFor({ state: 'visible', timeout: 30_000 });
      if (!/\bchecked\b/.test((await item.getAttribute('class')) ?? '')) await item.click();
      const titles = page.locator('.pane-header .title');
      await waitFor(`view headers ${ZH.views.join(', ')}`, 30_000, async () => {
        const shown = (await titles.allInnerTexts()).map((t) => t.trim());
        return ZH.views.every((v) => shown.some((s) => s.toLowerCase() === v.toLowerCase()));
      }, 300).catch(async (e) => { throw new Error(`${e.message}; headers: ${(await titles.allInnerTexts().catch(() => [])).join(' | ')}`); });
      const frames = page.locator(`iframe.webview.ready[src*="extensionId=${extId}"][src*="purpose=webviewView"]`);
      const corpusFrame = (ms) => waitFor('the Corpus & Markers webview (#status)', ms, async () => {
        const n = await frames.count();
        for (let i = 0; i < n; i++) {
          const f = frames.nth(i).contentFrame().locator('#active-frame').contentFrame();
          if (await f.locator('#status').count().catch(() => 0)) return f;
        }
        return null;
      }, 300);
      // A view with no content after 20 s: code-server's own service worker took the first webview host page (before
      // workbenchContext.mjs kept it out), or two host pages registered VS Code's webview service worker at the same
      // time and one was left waiting (its log: "Waiting for controllerchange"; iframe ready, no #active-frame). The
      // report says what the page holds, and the webviews are reloaded once, as a user would.
      corpusView = await corpusFrame(20_000).catch(async () => {
        console.log(`     the Corpus & Markers view had no content after 20 s (${await webviewReport(page)}); "Developer: Reload Webviews"`);
        await page.keyboard.press('Escape');
        const rows = await palette('Developer: Reload Webviews');
        await rows.filter({ hasText: 'Developer: Reload Webviews' }).first().click({ timeout: 10_000 });
        return corpusFrame(60_000);
      }).catch(async (e) => { throw new Error(`${e.message}; ${await webviewReport(page)}`); });
    });

    await check('zh-cn: the engine\'s status line and the webview\'s own words are Chinese (bundle.l10n.zh-cn.json)', async () => {
      if (!corpusView) throw new Error('the Corpus & Markers view did not open');
      let status = '';
      await waitFor(`#status ${ZH.status}`, 90_000, async () => {
        status = (await corpusView.locator('#status').innerText({ timeout: 2_000 })).replace(/\s+/g, ' ').trim();
        return ZH.status.test(status);
      }, 500).catch((e) => { throw new Error(`${e.message}; #status: "${status}"`); });
      const placeholder = await corpusView.locator('#ask-input').getAttribute('placeholder');
      if (!placeholder?.startsWith(ZH.askPlaceholder)) throw new Error(`Ask box placeholder "${placeholder}"`);
      const lang = await corpusView.locator('html').getAttribute('lang');
      console.log(`     #status: "${status}"; Ask box: "${placeholder}"; page lang=${lang}`);
    });

    await check(`zh-cn: screenshot ${path.relative(process.cwd(), o.screenshot)}`, async () => {
      fs.mkdirSync(path.dirname(o.screenshot), { recursive: true });
      await page.keyboard.press('Escape');
      await page.screenshot({ path: o.screenshot, timeout: 30_000 });
    });
  } finally {
    if (o.zhConsole?.length) fs.writeFileSync(path.join(root, 'browser-console.log'), o.zhConsole.join('\n'));
    if (context) await Promise.race([context.close().catch(() => {}), sleep(10_000)]);
    if (cs?.pid) { try { process.kill(-cs.pid, 'SIGTERM'); } catch { /* already gone */ } }
  }
}
