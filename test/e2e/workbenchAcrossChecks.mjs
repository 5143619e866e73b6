// The "Across items" panels and the REFI-QDA export in a real VS Code (issue 24), called once from
// run.mjs after the corpus is indexed and its markers are shown:
//   - Markers Across Items… for the corpus's biggest topic (picked in the QuickPick the engine's
//     counts feed): the panel lists exactly that topic's markers (counted from the marker files),
//     and clicking one opens its evidence in the original file, selected at its span;
//   - Compare Items… for two items (ticked in the multi-select QuickPick): two columns with every
//     marker of each item, the topic overlap figure, the shared-topics section;
//   - Items Timeline: every item once, dated or not;
//   - Export Project (REFI-QDA)… with markers as codes: the save dialog's default file is written,
//     a valid zip holding project.qde (a REFI-QDA <Project>) and one Sources/*.txt per item; the
//     notification offers "Reveal in Explorer".
// Screenshots: test-results/e2e/across-markers.png, across-compare.png, across-timeline.png, qdpx-export.png.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * @param {object} h what run.mjs lends: page, check, runFromPalette, waitFor, sleep, shownErrors,
 *   notifications, outputLines, folder, extId, repo, firstLine
 */
export async function workbenchAcrossChecks(h) {
  const { page, check, runFromPalette, waitFor, sleep, shownErrors, notifications, folder, extId, repo, firstLine } = h;
  const shots = path.join(repo, 'test-results', 'e2e');
  const shot = async (name) => {
    fs.mkdirSync(shots, { recursive: true });
    await sleep(300);
    await page.screenshot({ path: path.join(shots, name), timeout: 30_000 });
  };
  /** A check of this file: nothing left open by an earlier one (a picker, a toast's focus), and the screen kept when it fails. */
  const acrossCheck = (name, fn) => check(name, async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    // The panel area (Problems, Output) hides half the editor in the screenshots.
    await runFromPalette('View: Hide Panel').catch(() => page.keyboard.press('Escape'));
    try {
      await fn();
    } catch (e) {
      await shot(`across-failed-${name.slice(0, 24).replace(/[^A-Za-z]+/g, '-')}.png`).catch(() => {});
      throw e;
    }
  });

  /** Every marker of the corpus, from the marker files on disk: { itemId, id, kind, topic, evidence }. */
  const markersOnDisk = () => {
    const dir = path.join(folder, '.marker-research', 'markers');
    const out = [];
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).filter((x) => x.endsWith('.json')) : []) {
      const rec = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      for (const part of [rec.transcript_summary, rec.comments_summary].filter(Boolean)) {
        for (const list of Object.values(part).filter(Array.isArray)) for (const m of list) if (m && typeof m === 'object' && m.id) out.push({ ...m, itemId: rec.item_id, itemTitle: rec.title });
      }
    }
    return out;
  };
  /** A topic as the views fold it (case, accents, width, punctuation and spacing; enough for the demo corpus's topics). */
  const fold = (t) => t.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, ' ').trim().replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, '');

  /** The content frame of the extension's editor panel whose page is `#app[data-view=viewType]`, with `selector` in it. */
  const panelWith = (viewType, selector, ms) => waitFor(`the ${viewType} panel with ${selector}`, ms, async () => {
    const frames = page.locator(`iframe.webview.ready[src*="extensionId=${extId}"]`);
    const n = await frames.count();
    for (let i = 0; i < n; i++) {
      const f = frames.nth(i).contentFrame().locator('#active-frame').contentFrame();
      if (await f.locator(`#app[data-view="${viewType}"] ${selector}`).count().catch(() => 0)) return f;
    }
    return null;
  }, 250);

  /** The active editor's status bar selection text once it sits at one-based `line`:`col`. */
  const statusAt = async (line, col) => {
    let text = '';
    await waitFor(`status bar "Ln ${line}, Col ${col}"`, 15_000, async () => {
      text = (await page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
      return text.startsWith(`Ln ${line}, Col ${col} `) || text === `Ln ${line}, Col ${col}`;
    }, 200).catch(async () => { const errs = await shownErrors(); throw new Error(`status bar says "${text}", the span starts at ${line}:${col}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    return text;
  };

  // ---- Markers Across Items for a topic; a click opens the span
  await acrossCheck('Markers Across Items…: the QuickPick offers a topic; its panel lists that topic\'s markers; a click opens the marker\'s span, selected', async () => {
    // The markers of the index (markersOnIndex, extractive) are written by now; wait a little if not.
    await waitFor('marker files on disk', 60_000, () => markersOnDisk().length > 0, 500);
    const all = markersOnDisk();
    if (!all.length) throw new Error('no marker files on disk');
    const byTopic = new Map();
    for (const m of all) {
      const k = fold(m.topic ?? '');
      if (k) byTopic.set(k, [...(byTopic.get(k) ?? []), m]);
    }
    const [key, ms] = [...byTopic].sort((a, b) => b[1].length - a[1].length || new Set(b[1].map((m) => m.itemId)).size - new Set(a[1].map((m) => m.itemId)).size || (a[0] < b[0] ? -1 : 1))[0];
    const label = ms[0].topic.replace(/\s+/g, ' ').trim();
    await runFromPalette('Marker Research: Markers Across Items…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
    const kinds = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).slice(0, 5).map((t) => t.replace(/\s+/g, ' ').trim());
    if (!kinds.some((t) => /^(FACT|OPINION|DATA|ENGAGEMENT)/.test(t))) throw new Error(`the picker does not start with the kinds: ${kinds.join(' | ')}`);
    await input.fill(label, { timeout: 10_000 }).catch(async () => {
      await input.click({ timeout: 5_000 }).catch(() => {});
      await page.keyboard.insertText(label);
    });
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }) }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => { throw new Error(`no row "${label}" (rows: ${(await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).slice(0, 5).join(' | ')})`); });
    const rowText = (await row.innerText()).replace(/\s+/g, ' ').trim();
    await row.click();
    const frame = await panelWith('markerResearch.markersAcross', '#across-topics details.topic', 20_000);
    const groups = await frame.locator('#across-topics details.topic').count();
    const rows = frame.locator('#across-topics li.marker');
    const shown = await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-item-id')}/${e.getAttribute('data-marker-id')}`).sort());
    const want = ms.map((m) => `${m.itemId}/${m.id}`).sort();
    if (groups !== 1) throw new Error(`${groups} topic groups for "${label}"`);
    if (JSON.stringify(shown) !== JSON.stringify(want)) throw new Error(`the panel shows ${shown.length} markers [${shown.slice(0, 4).join(', ')}…], the files have ${want.length} of "${label}" [${want.slice(0, 4).join(', ')}…]`);
    const heading = (await frame.locator('h1.view-title').innerText()).trim();
    if (!heading.includes(label)) throw new Error(`heading "${heading}" does not name "${label}"`);
    await shot('across-markers.png');
    // Click the first marker with evidence: its original file opens at its span (evidence view "original").
    const first = ms.find((m) => m.evidence?.length);
    if (!first) throw new Error(`no marker of "${label}" has evidence`);
    const ev = first.evidence[0].source;
    await frame.locator(`li.marker[data-marker-id="${first.id}"]`).click();
    const tab = page.locator('.editor-group-container.active .tab.active');
    await waitFor(`the active tab "${path.basename(ev.file)}"`, 15_000, async () => (await tab.innerText({ timeout: 1_000 }).catch(() => '')).includes(path.basename(ev.file)), 200)
      .catch(async () => { const errs = await shownErrors(); throw new Error(`active tab ${JSON.stringify(await tab.innerText().catch(() => ''))}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    const text = await statusAt(ev.startLine + 1, ev.startColumn + 1);
    if (!/selected/.test(text)) throw new Error(`status bar "${text}": the span is not selected`);
    await shot('across-markers-opened.png');
    console.log(`     picked "${rowText}" → ${shown.length} markers (${key}); ${first.id} → ${ev.file} "${text}"`);
  });

  // ---- Compare Items for two items
  await acrossCheck('Compare Items…: two items ticked in the QuickPick open side by side with every marker, the topic overlap and the shared topics', async () => {
    const all = markersOnDisk();
    const perItem = new Map();
    for (const m of all) perItem.set(m.itemId, (perItem.get(m.itemId) ?? 0) + 1);
    await runFromPalette('Marker Research: Compare Items…');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    const n = await rows.count();
    if (n < 2) throw new Error(`${n} items to pick`);
    // Tick the first two items that have markers (the row's description says "N markers").
    const ticked = [];
    for (let i = 0; i < n && ticked.length < 2; i++) {
      const r = rows.nth(i);
      const t = (await r.innerText()).replace(/\s+/g, ' ');
      if (!/\d+ markers?\b/.test(t)) continue;
      const box = r.locator('.quick-input-list-checkbox, input[type="checkbox"]').first();
      if (await box.count()) await box.click();
      else await r.click();
      ticked.push(t.trim());
    }
    if (ticked.length < 2) throw new Error(`fewer than two items with markers among ${n} rows`);
    await page.keyboard.press('Enter');
    const frame = await panelWith('markerResearch.compareItems', '#compare-grid article.compared', 20_000);
    const cols = frame.locator('#compare-grid article.compared');
    if ((await cols.count()) !== 2) throw new Error(`${await cols.count()} columns`);
    const ids = await cols.evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
    for (let i = 0; i < 2; i++) {
      const shownMarkers = await cols.nth(i).locator('li.marker').count();
      if (shownMarkers !== perItem.get(ids[i])) throw new Error(`${ids[i]}: ${shownMarkers} markers shown, ${perItem.get(ids[i])} in its file`);
    }
    const figure = (await frame.locator('#compare-similarity .similarity-figure').innerText()).replace(/\s+/g, ' ').trim();
    if (!/topics shared \(Jaccard (\d\.\d\d|—)\)/.test(figure)) throw new Error(`similarity "${figure}"`);
    if (!(await frame.locator('#compare-shared').count())) throw new Error('no shared-topics section');
    // Nothing overflows the page sideways.
    const over = await frame.locator('body').evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (over > 0) throw new Error(`the panel scrolls sideways by ${over}px`);
    await shot('across-compare.png');
    console.log(`     ${ids.join(' ↔ ')}: ${ids.map((id) => perItem.get(id)).join(' / ')} markers; "${figure}"`);
  });

  // ---- Items Timeline
  await acrossCheck('Items Timeline: every item once, by date or without one', async () => {
    await runFromPalette('Marker Research: Items Timeline');
    const frame = await panelWith('markerResearch.itemsTimeline', '#timeline-summary', 20_000);
    const ids = await frame.locator('li.timeline-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
    const withMarkers = [...new Set(markersOnDisk().map((m) => m.itemId))];
    if (new Set(ids).size !== ids.length) throw new Error(`an item is listed twice: ${ids.join(', ')}`);
    const missing = withMarkers.filter((id) => !ids.includes(id));
    if (missing.length) throw new Error(`items with markers not on the timeline: ${missing.join(', ')}`);
    const summary = (await frame.locator('#timeline-summary').innerText()).replace(/\s+/g, ' ').trim();
    await shot('across-timeline.png');
    console.log(`     ${ids.length} items; "${summary}"`);
  });

  // ---- Export Project (REFI-QDA)…
  await acrossCheck('Export Project (REFI-QDA)…: the default .qdpx is written, a zip with project.qde and a source per item; "Reveal in Explorer" offered', async () => {
    const out = path.join(folder, `${path.basename(folder)}.qdpx`);
    fs.rmSync(out, { force: true });
    await runFromPalette('Marker Research: Export Project (REFI-QDA)…');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    await rows.filter({ hasText: 'Also the markers as codes' }).first().click();
    const input = page.locator('.quick-input-widget input');
    let value = '';
    await waitFor('the suggested .qdpx in the save dialog', 15_000, async () => (value = await input.inputValue().catch(() => '')).endsWith(`${path.basename(folder)}.qdpx`), 200)
      .catch(() => { throw new Error(`the dialog suggests "${value}"`); });
    await page.keyboard.press('Enter');
    await waitFor(`${out} written`, 30_000, () => fs.existsSync(out) && fs.statSync(out).size > 0, 200)
      .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    const { unzipSync } = createRequire(path.join(repo, 'package.json'))('fflate');
    const files = unzipSync(new Uint8Array(fs.readFileSync(out)));
    const qde = files['project.qde'];
    if (!qde) throw new Error(`no project.qde in ${out} (${Object.keys(files).slice(0, 5).join(', ')})`);
    const xml = new TextDecoder().decode(qde);
    if (!/<Project\b[^>]*xmlns="urn:QDA-XML:project:1\.0"/.test(xml)) throw new Error(`project.qde is no REFI-QDA project: ${xml.slice(0, 160)}`);
    const sources = Object.keys(files).filter((f) => /^Sources\/[0-9a-f-]{36}\.txt$/.test(f));
    const items = (xml.match(/<TextSource\b/g) ?? []).length;
    if (!items || sources.length !== items) throw new Error(`${items} text sources, ${sources.length} Sources/*.txt files`);
    if (!/<Code [^>]*name="Marker kinds"/.test(xml)) throw new Error('no "Marker kinds" folder of codes');
    let toast = '';
    await waitFor('the "exported … Reveal in Explorer" notification', 15_000, async () => (toast = (await notifications()).find((t) => /exported .*\.qdpx/.test(t)) ?? ''), 300);
    const reveal = page.locator('.notification-toast .monaco-button').filter({ hasText: 'Reveal in Explorer' }).first();
    if (!(await reveal.count())) throw new Error(`the notification "${toast}" offers no "Reveal in Explorer"`);
    await shot('qdpx-export.png');
    // Not clicked: the Explorer would take the side bar from the Marker Research views the later checks use.
    await page.locator('.notification-toast').filter({ hasText: path.basename(out) }).locator('.codicon-notifications-clear, .codicon-close').first().click({ timeout: 3_000 }).catch(() => {});
    console.log(`     ${path.basename(out)}: ${(fs.statSync(out).size / 1024).toFixed(0)} KiB, ${items} sources, ${(xml.match(/<PlainTextSelection\b/g) ?? []).length} selections, ${(xml.match(/<Code\b/g) ?? []).length} codes; "${toast}"`);
  });

  // The editor area as the checks found it: no panels left open.
  await runFromPalette('View: Close All Editors').catch(() => {});
}
