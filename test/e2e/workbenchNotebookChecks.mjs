// The Notebook and the Codes in a real VS Code (issue 24), called once from run.mjs after the Ask
// box checks (the box answers a question with cited sentences):
//   - the pin button of an Ask answer sentence adds an entry to .marker-research/notebook.md (its
//     record of kind answer-sentence, the sentence's exact quote) and the Notebook view lists it;
//   - the pin button of a marker in the Corpus & Markers tree adds a marker entry; the Notebook view
//     lists both (title, kind and quote) and a click on an entry opens its span;
//   - in an item's readable view (an answer sentence opened there), "Marker Research: Code
//     Selection…" with "New code…" (name, colour, description) writes the code to codebook.json and
//     the segment, at the selected text, to codings.json; the selection is marked in the code's colour;
//     "Pin Selection to Notebook" adds a selection entry;
//   - the Codes view lists the code with its count and, expanded, the segment's quote.
//   - "Code × Item Table" opens the table as a read-only Markdown preview.
// Screenshots: test-results/e2e/workbench-notebook.png, workbench-readable-coded.png, workbench-codes.png, workbench-code-table.png.

import fs from 'node:fs';
import path from 'node:path';

/**
 * @param {object} h what run.mjs lends: page, webview (the Corpus & Markers view's frame), check,
 *   runFromPalette, waitFor, sleep, shownErrors, folder, repo, firstLine, setEvidenceView, askInBox,
 *   askWorks, question (one the box answers with sentences)
 */
export async function workbenchNotebookChecks(h) {
  const { page, webview, check, runFromPalette, waitFor, sleep, shownErrors, folder, repo, firstLine, setEvidenceView, askInBox, askWorks, question } = h;
  const shots = path.join(repo, 'test-results', 'e2e');
  const shot = async (name) => {
    fs.mkdirSync(shots, { recursive: true });
    await sleep(400);
    await page.screenshot({ path: path.join(shots, name), timeout: 30_000 });
  };
  const state = (name) => path.join(folder, '.marker-research', name);
  const read = (name) => (fs.existsSync(state(name)) ? fs.readFileSync(state(name), 'utf8') : '');
  /** The records of notebook.md's entries (the JSON of each entry comment, its escapes undone by JSON.parse). */
  const entries = () => [...read('notebook.md').matchAll(/^<!-- marker-research:entry (\{.*\}) -->$/gm)].map((m) => JSON.parse(m[1]));
  const flat = (s) => s.replace(/\s+/g, ' ').trim();

  /** The pane of a view of the Marker Research container by its title. */
  const pane = (title) => page.locator('.pane').filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(`^\\s*${title}\\s*$`) }) }).first();
  /** The rows of a tree view: each row's label and description as one line. */
  const rows = async (title) => (await pane(title).locator('.monaco-list-row').allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
  /** Shows a view of the container ("Focus on … View"), waiting for its pane. */
  const focusView = async (title) => {
    await runFromPalette(`Focus on ${title} View`);
    await pane(title).locator('.pane-body').waitFor({ state: 'visible', timeout: 10_000 });
  };
  /** Picks `label` in the open QuickPick (typed, then Enter once its row shows). */
  const quickPick = async (label) => {
    await sleep(400); // the widget of the step before closes, this one opens
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(label);
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: label }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.press('Enter');
  };
  /** Answers the open input box with `text`. */
  const inputBox = async (text) => {
    await sleep(400);
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(text);
    await page.keyboard.press('Enter');
  };

  let sentence = null; // { text, n, entries }
  const pinnedSentence = await check('Notebook: the pin button of an Ask answer sentence adds it to notebook.md and the Notebook view', async () => {
    if (!askWorks) throw new Error('no answer in the Ask box');
    await askInBox(question);
    const li = webview.locator('li.ask-answer-sentence').first();
    await li.waitFor({ state: 'visible', timeout: 10_000 });
    const text = flat(await li.locator('.ask-answer-text').innerText());
    await li.hover();
    await li.locator('.pin-button').click();
    await waitFor('an answer-sentence entry in notebook.md', 15_000, () => entries().some((e) => e.kind === 'answer-sentence'), 200)
      .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    const e = entries().find((x) => x.kind === 'answer-sentence');
    if (flat(e.text) !== text) throw new Error(`the entry's words "${e.text}" are not the sentence "${text}"`);
    if (e.title !== question) throw new Error(`the entry's title "${e.title}" is not the question`);
    if (e.spans.length !== 1 || !text.includes(flat(e.spans[0].quote).slice(0, 20))) throw new Error(`the entry's span ${JSON.stringify(e.spans)} does not quote the sentence`);
    await focusView('Notebook');
    let seen = [];
    await waitFor('the entry in the Notebook view', 10_000, async () => (seen = await rows('Notebook')).some((r) => r.includes(question) && r.includes('Answer sentence')), 250)
      .catch(() => { throw new Error(`Notebook rows: ${JSON.stringify(seen)}`); });
    sentence = { text };
    console.log(`     pinned "${text.slice(0, 80)}" → ${path.relative(folder, state('notebook.md'))} (${e.spans[0].source.file}:${e.spans[0].source.startLine + 1}); view: ${JSON.stringify(seen.slice(0, 2))}`);
  });

  await check('Notebook: the pin button of a marker adds it; the view lists both entries (title, kind, quote); a click opens the span', async () => {
    // The first item with markers, all its groups open.
    const item = webview.locator('li.item:has(li.marker)').first();
    await item.evaluate((el) => el.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const marker = item.locator('li.marker').first();
    await marker.scrollIntoViewIfNeeded();
    const markerId = await marker.getAttribute('data-marker-id');
    await marker.hover();
    await marker.locator('.pin-button').click();
    await waitFor(`a marker entry for ${markerId} in notebook.md`, 15_000, () => entries().some((e) => e.kind === 'marker' && e.origin?.markerId === markerId), 200)
      .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    const e = entries().find((x) => x.kind === 'marker');
    if (!e.spans.length) throw new Error('the marker entry has no evidence span');
    await focusView('Notebook');
    let seen = [];
    await waitFor('two entries in the Notebook view', 10_000, async () => {
      seen = await rows('Notebook');
      return seen.some((r) => r.includes('Marker') && r.includes(e.title)) && seen.some((r) => r.includes('Answer sentence'));
    }, 250).catch(() => { throw new Error(`Notebook rows: ${JSON.stringify(seen)}`); });
    // A click on the marker entry opens its first span (the original file: evidenceView is "original" here).
    const file = e.spans[0].source.file;
    // The view refreshes when notebook.md changes (the pin writes it, the watcher reports it): a click that
    // lands while its rows are re-rendered opens nothing, so click again, up to three times.
    const tab = page.locator('.editor-group-container.active .tab.active');
    let opened = false, label = '';
    for (let attempt = 1; !opened && attempt <= 3; attempt++) {
      await pane('Notebook').locator('.monaco-list-row').filter({ hasText: e.title }).first().click();
      opened = await waitFor(`the editor on ${file}`, 8_000, async () => (label = await tab.innerText({ timeout: 1_000 }).catch(() => '')).includes(path.basename(file)), 200).then(() => true, () => false);
    }
    if (!opened) {
      const errs = await shownErrors();
      throw new Error(`three clicks on the Notebook row "${e.title}" did not open ${file} (active tab "${flat(label)}")${errs.length ? `; ${errs.join(' | ')}` : ''}`);
    }
    let status = '';
    const want = `Ln ${e.spans[0].source.startLine + 1},`;
    await waitFor(`the cursor at line ${e.spans[0].source.startLine + 1} of ${file}`, 10_000, async () => (status = (await page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ')).startsWith(want), 200)
      .catch(() => { throw new Error(`the status bar says "${status}", expected line ${e.spans[0].source.startLine + 1} of ${file}`); });
    await focusView('Notebook');
    await shot('workbench-notebook.png');
    console.log(`     ${entries().length} entries; rows ${JSON.stringify(seen.slice(0, 3))}; opened ${file} at "${status}"`);
  });

  let coded = null;
  await check('Codes: "Code Selection…" in the readable view with "New code…" writes the code and the segment at the selected text', async () => {
    if (!pinnedSentence || !sentence) throw new Error('no pinned answer sentence');
    setEvidenceView('readable');
    try {
      // The settings file is watched: until the change arrives a click still opens the original; click again.
      const li = webview.locator('li.ask-answer-sentence').first();
      const tab = page.locator('.editor-group-container.active .tab.active');
      let readable = false;
      for (let attempt = 1; !readable && attempt <= 8; attempt++) {
        await sleep(1_000);
        await li.locator('.ask-answer-text').click();
        readable = await waitFor('the readable view (a "(full item)" tab)', 5_000, async () => (await tab.innerText({ timeout: 1_000 }).catch(() => '')).includes('(full item)'), 200).then(() => true, () => false);
      }
      if (!readable) throw new Error('clicking the answer sentence did not open the readable view');
      await waitFor('a selection in the readable view', 10_000, async () => /selected/.test(await page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => '')), 200);
      const name = 'workbench e2e code';
      await runFromPalette('Marker Research: Code Selection…');
      await quickPick('New code…');
      await inputBox(name);
      await quickPick('Blue');
      await inputBox('passages the e2e run coded');
      await waitFor('the code in codebook.json and a segment in codings.json', 15_000, () => {
        const book = read('codebook.json');
        const codings = read('codings.json');
        if (!book || !codings) return false;
        const code = JSON.parse(book).codes.find((c) => c.name === name);
        const seg = code && JSON.parse(codings).segments.find((s) => s.codeId === code.id);
        return seg ? (coded = { code, seg }) : false;
      }, 200).catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
      if (coded.code.colour !== '#4363d8') throw new Error(`the code's colour is ${coded.code.colour}, not the blue picked`);
      if (!flat(sentence.text).includes(flat(coded.seg.span.quote).slice(0, 30))) throw new Error(`the segment quotes "${coded.seg.span.quote}", not the sentence "${sentence.text}"`);
      // The segment is marked in the code's colour (a decoration with its border colour).
      const marked = await waitFor('the coded segment marked in the readable view', 8_000, async () => {
        const n = await page.locator('.editor-group-container.active .monaco-editor .view-overlays div[class*="ced-"], .editor-group-container.active .monaco-editor .view-lines span[class*="ced-"]').count();
        return n > 0 ? n : null;
      }, 250).catch(() => 0);
      // The same selection pinned from the palette.
      await runFromPalette('Marker Research: Pin Selection to Notebook');
      await waitFor('a selection entry in notebook.md', 10_000, () => entries().some((e) => e.kind === 'selection'), 200);
      const pinned = entries().find((e) => e.kind === 'selection');
      if (flat(pinned.spans[0].quote) !== flat(coded.seg.span.quote)) throw new Error(`the pinned selection "${pinned.spans[0].quote}" differs from the coded one "${coded.seg.span.quote}"`);
      await shot('workbench-readable-coded.png');
      console.log(`     "${name}" (${coded.code.colour}) → "${coded.seg.span.quote.slice(0, 80)}" (${coded.seg.span.itemId}/${coded.seg.span.part} [${coded.seg.span.start}, ${coded.seg.span.end})); ${marked} decoration element(s); pinned as a selection too`);
    } finally {
      setEvidenceView('original');
    }
  });

  await check('Codes: the Codes view lists the code with its count and, expanded, the segment\'s quote', async () => {
    if (!coded) throw new Error('nothing was coded');
    await focusView('Codes');
    const codeRow = pane('Codes').locator('.monaco-list-row').filter({ hasText: coded.code.name }).first();
    await codeRow.waitFor({ state: 'visible', timeout: 10_000 });
    const text = (await codeRow.innerText()).replace(/\s+/g, ' ');
    if (!/1 segment/.test(text)) throw new Error(`the code's row says "${text}", expected "1 segment"`);
    if ((await codeRow.getAttribute('aria-expanded')) !== 'true') await codeRow.click();
    const head = flat(coded.seg.span.quote).slice(0, 24);
    let seen = [];
    await waitFor('the segment under the code', 10_000, async () => (seen = await rows('Codes')).some((r) => r.includes(head)), 250)
      .catch(() => { throw new Error(`Codes rows: ${JSON.stringify(seen)}`); });
    await shot('workbench-codes.png');
    console.log(`     rows ${JSON.stringify(seen.slice(0, 4))}`);
  });

  await check('Codes: "Code × Item Table" opens the table (a read-only Markdown preview) with the code\'s row', async () => {
    if (!coded) throw new Error('nothing was coded');
    await runFromPalette('Marker Research: Code × Item Table');
    const tab = page.locator('.editor-group-container.active .tab.active');
    let title = '';
    await waitFor('a tab "Codes × items"', 15_000, async () => (title = await tab.innerText({ timeout: 1_000 }).catch(() => '')).includes('Codes × items'), 250)
      .catch(async (e) => { const errs = await shownErrors(); throw new Error(`${firstLine(e)}: tab "${title}"${errs.length ? `; ${errs.join(' | ')}` : ''}`); });
    // The preview's page (VS Code's Markdown preview, a webview) shows the table with the code's row.
    const preview = page.locator('iframe.webview.ready[src*="markdown-language-features"]').last().contentFrame().locator('#active-frame').contentFrame();
    let cells = [];
    await waitFor(`the table with a row "${coded.code.name}" in the preview`, 20_000, async () => {
      cells = await preview.locator('table tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent.trim()))).catch(() => []);
      return cells.some((r) => r[0]?.includes(coded.code.name) && r[r.length - 1] === '1');
    }, 300).catch(() => { throw new Error(`the preview's table rows: ${JSON.stringify(cells.slice(0, 4))}`); });
    await shot('workbench-code-table.png');
    // Closed again: a preview that takes the focus as it finishes loading would close the next check's QuickPick.
    await sleep(1_000);
    await runFromPalette('View: Close Editor');
    await waitFor('the table\'s tab closed', 5_000, async () => !(await tab.innerText({ timeout: 1_000 }).catch(() => '')).includes('Codes × items'), 200).catch(() => {});
    console.log(`     tab "${title.replace(/\s+/g, ' ').trim()}"; rows ${JSON.stringify(cells.slice(0, 3))}`);
  });
}
