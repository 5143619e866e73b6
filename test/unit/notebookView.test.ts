/**
 * The Notebook view's model (issue 24), from notebooks written through core's store over a
 * generated corpus (English, Chinese, Spanish; entries of every kind, some with hostile titles,
 * words and notes): one node per entry in file order with its title, kind and quote, a hover in
 * which nothing of the corpus or the researcher is a live link or HTML, a click that opens the
 * entry's first span (a note: notebook.md at its line), children for entries of several spans,
 * lost spans flagged after the items change, unique ids when an entry is copied, problems first.
 * Also the shared schema of what the sidebar pins: every context the webview builds parses.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { addEntry, notebookFile, readNotebook, reanchorNotebook } from '../../src/core/workbench/notebookStore';
import type { NewEntry } from '../../src/core/workbench/pins';
import type { NotebookEntryView } from '../../src/shared/workbenchProtocol';
import { sidebarTargetSchema, workbenchTargetSchema } from '../../src/shared/workbenchTarget';
import { itemsById, notebookViewOf } from '../../src/server/workbenchViews';
import { kindLabel, notebookTree, OPEN_NOTEBOOK_COMMAND } from '../../src/extension/notebookTreeModel';
import { OPEN_PINNED_SPAN_COMMAND, type L10n, type TreeNodeModel } from '../../src/extension/workbenchTreeNode';
import { hostileTexts } from '../support/hostileMarkdown';
import { liveLinks } from '../support/markdownLinks';
import { rng } from '../support/testing';
import { buildItems, pick, pinnedEntries, randomSpan, workbenchSpecs } from '../support/workbenchCorpus';

/** English, with `{n}` filled in (what `vscode.l10n.t` does without a bundle). */
const l10n: L10n = { t: (m, ...args) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) };

const all = (nodes: readonly TreeNodeModel[]): TreeNodeModel[] => nodes.flatMap((n) => [n, ...all(n.children ?? [])]);

describe('the Notebook view model', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-notebook-view-'));
  });
  after(() => rm(work, { recursive: true, force: true }));

  test('one node per entry, in file order: title, kind and quote; a click opens the first span, a note its line', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const root = path.join(work, `c${seed}`);
      await mkdir(root, { recursive: true });
      const specs = workbenchSpecs(seed);
      const items = buildItems(specs);
      const hostile = hostileTexts(seed, 12, { lineBreaks: true });
      const r = rng(seed);
      const entries: NewEntry[] = pinnedEntries(seed, items, 14).map((e, i) =>
        i % 3 === 0 ? { ...e, title: pick(r, hostile), ...(e.text !== undefined ? { text: pick(r, hostile) } : {}), note: pick(r, hostile) } : e,
      );
      for (const e of entries) await addEntry(root, e, { lang: pick(r, ['en', 'zh', 'es'] as const) });
      const read = await readNotebook(root);
      const view = notebookViewOf(read, root, notebookFile(root), itemsById({ items }));
      const nodes = notebookTree(l10n, view);
      assert.equal(nodes.length, entries.length, `seed ${seed}`);
      const lines = (await readFile(notebookFile(root), 'utf8')).split('\n');
      nodes.forEach((n, i) => {
        const e = view.entries[i]!;
        assert.equal(n.id, `entry:${e.id}`);
        assert.equal(n.label, e.title.trim() || kindLabel(l10n, e.kind));
        assert.ok(n.description!.startsWith(kindLabel(l10n, e.kind)), n.description);
        assert.ok(lines[e.line]!.startsWith(`<!-- marker-research:entry {"id":"${e.id}"`), `line ${e.line} of notebook.md is the entry's`);
        if (e.spans.length) {
          assert.equal(n.command?.command, OPEN_PINNED_SPAN_COMMAND);
          assert.deepEqual(n.command?.args, [e.spans[0]]);
          // The quote of a hit or selection (no words of its own) is in the description.
          if (e.text === null) assert.ok(n.description!.includes(`“${e.spans[0]!.quote.replace(/\s+/g, ' ').trim().slice(0, 40)}`), n.description);
        } else assert.deepEqual(n.command, { command: OPEN_NOTEBOOK_COMMAND, title: 'Open notebook.md', args: [e.line] });
        assert.equal(n.children?.length ?? 0, e.spans.length > 1 ? e.spans.length : 0);
        for (const [k, c] of (n.children ?? []).entries()) assert.deepEqual(c.command?.args, [e.spans[k]]);
      });
      // The hovers: every quote and note in them, and nothing live.
      for (const n of all(nodes)) {
        const live = liveLinks(n.tooltip ?? '');
        assert.deepEqual(live, [], `seed ${seed}: ${n.id}: ${JSON.stringify(live.slice(0, 2))} in ${n.tooltip}`);
      }
      const ids = all(nodes).map((n) => n.id);
      assert.equal(new Set(ids).size, ids.length);
    }
  });

  test('spans lost after the items change are flagged (icon, description, hover), never hidden; found ones are not', async () => {
    const root = path.join(work, 'lost');
    await mkdir(root, { recursive: true });
    const specs = workbenchSpecs(11);
    const items = buildItems(specs);
    const r = rng(11);
    const pinned: NotebookEntryView['id'][] = [];
    for (let k = 0; k < 12; k++) {
      const item = pick(r, items);
      const s = randomSpan(r, item);
      pinned.push((await addEntry(root, { kind: 'selection', title: item.title, spans: [s] })).id);
    }
    // Half the items are gone from the corpus: their spans cannot be found.
    const kept = items.filter((_, i) => i % 2 === 0);
    await reanchorNotebook(root, { items: kept });
    const view = notebookViewOf(await readNotebook(root), root, notebookFile(root), itemsById({ items: kept }));
    const nodes = notebookTree(l10n, view);
    let lost = 0;
    for (const [i, n] of nodes.entries()) {
      const e = view.entries[i]!;
      const gone = !kept.some((it) => it.id === e.spans[0]!.itemId);
      assert.equal(e.spans[0]!.lost, gone ? 'item-missing' : null);
      assert.equal(n.icon && 'codicon' in n.icon ? n.icon.codicon : '', gone ? 'warning' : 'selection');
      assert.equal(n.description!.includes('⚠ 1 lost'), gone);
      assert.equal(n.tooltip!.includes('Not found after the corpus was indexed again'), gone);
      if (gone) lost++;
    }
    assert.ok(lost > 0 && lost < nodes.length, `lost ${lost} of ${nodes.length}`);
  });

  test('an entry copied in notebook.md gets unique node ids; a record that does not read is listed first, opening its line', async () => {
    const root = path.join(work, 'copied');
    await mkdir(root, { recursive: true });
    const items = buildItems(workbenchSpecs(5));
    for (const e of pinnedEntries(5, items, 4)) await addEntry(root, e);
    const file = notebookFile(root);
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.startsWith('<!-- marker-research:entry'));
    const end = lines.findIndex((l, i) => i > start && l.startsWith('<!-- /marker-research:entry'));
    const copy = lines.slice(start, end + 1);
    const broken = ['<!-- marker-research:entry {"id": oops} -->', '### Broken', '<!-- /marker-research:entry -->'];
    await writeFile(file, `${text}\n${copy.join('\n')}\n\n${broken.join('\n')}\n`);
    const view = notebookViewOf(await readNotebook(root), root, file, itemsById({ items }));
    const nodes = notebookTree(l10n, view);
    assert.equal(nodes[0]!.id, 'problems');
    const badLine = (await readFile(file, 'utf8')).split('\n').indexOf(broken[0]!);
    assert.ok(nodes[0]!.children!.some((c) => c.command?.command === OPEN_NOTEBOOK_COMMAND && (c.command.args[0] as number) === badLine), JSON.stringify(nodes[0]!.children));
    const ids = all(nodes).map((n) => n.id);
    assert.equal(new Set(ids).size, ids.length, 'unique ids');
    assert.equal(nodes.filter((n) => n.ref?.kind === 'entry').length, 5);
  });
});

describe('what the sidebar pins or codes', () => {
  test('every context the webview builds for markers, hits and answer sentences parses; malformed ones do not', () => {
    const r = rng(3);
    const items = buildItems(workbenchSpecs(3));
    for (let k = 0; k < 200; k++) {
      const item = pick(r, items);
      const s = randomSpan(r, item);
      const question = pick(r, hostileTexts(k, 3));
      const contexts = [
        { webviewSection: 'marker', itemId: item.id, markerId: `${item.id}:F:${k}`, preventDefaultContextMenuItems: true, kind: 'marker' },
        { webviewSection: 'askHit', itemId: item.id, part: s.part, start: s.start, end: s.end, question, kind: 'hit' },
        { webviewSection: 'askSentence', itemId: item.id, part: s.part, start: s.start, end: s.end, text: s.quote, question, kind: 'answer-sentence' },
      ];
      for (const c of contexts) {
        assert.ok(sidebarTargetSchema.safeParse(c).success, JSON.stringify(c));
        assert.ok(workbenchTargetSchema.safeParse(c).success);
      }
      const bad = [
        { ...contexts[1], end: s.start },
        { ...contexts[1], part: 'meta' },
        { ...contexts[0], markerId: '' },
        { ...contexts[2], start: -1 },
        { kind: 'selection', itemId: item.id, range: { startLine: 0, startCharacter: 0, endLine: 0 }, documentLength: 3 },
        { kind: 'finding', reportFile: 'runs/x/report.md', line: 1, lineText: '' },
        { kind: 'chat-answer', conversationId: '../x', turn: 1 },
      ];
      for (const b of bad) assert.equal(workbenchTargetSchema.safeParse(b).success, false, JSON.stringify(b));
      assert.equal(sidebarTargetSchema.safeParse({ kind: 'chat-answer', conversationId: 'c1', turn: 1 }).success, false, 'the sidebar pins no chat answers');
    }
  });
});
