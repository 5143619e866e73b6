/**
 * The Codes view's model (issue 24) from generated codebooks (nested codes, hostile names and
 * memos) and codings over a generated corpus (English, Chinese, Spanish): every code once, under
 * its parent, with its colour, its segments (each opening its span) and counts that agree with a
 * direct count; segments of deleted codes kept under their own node; markers' topics offered as
 * codes; hovers with nothing live; the code × item table as Markdown whose cells read back to
 * the counts, one cell per column whatever the names hold.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addCode, emptyCodebook, setCodeMemoIn } from '../../src/core/workbench/codebookStore';
import { addSegmentIn, emptyCodings } from '../../src/core/workbench/codingStore';
import type { Codebook, Codings } from '../../src/core/workbench/schema';
import { suggestedCodes } from '../../src/core/workbench/suggestedCodes';
import { codeItemTableOf, codesViewOf } from '../../src/server/workbenchViews';
import { codeDescription, codeItemTableMarkdown, codesTree } from '../../src/extension/codesTreeModel';
import { OPEN_PINNED_SPAN_COMMAND, type L10n, type TreeNodeModel } from '../../src/extension/workbenchTreeNode';
import { hostileNames, hostileTexts } from '../support/hostileMarkdown';
import { liveLinks } from '../support/markdownLinks';
import { rng } from '../support/testing';
import { buildItems, generatedMarkers, markerFileOf, pick, randomSpan, workbenchSpecs } from '../support/workbenchCorpus';

/** English, with `{n}` filled in (what `vscode.l10n.t` does without a bundle). */
const l10n: L10n = { t: (m, ...args) => m.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) };

const all = (nodes: readonly TreeNodeModel[]): TreeNodeModel[] => nodes.flatMap((n) => [n, ...all(n.children ?? [])]);

/** A generated codebook (some codes nested, some with hostile names, descriptions and memos) and codings over the items. */
function generated(seed: number) {
  const r = rng(seed);
  const specs = workbenchSpecs(seed);
  const items = buildItems(specs);
  const names = [...hostileNames(seed, 6), 'safety', '安全', 'coste', 'daily life'];
  let book: Codebook = emptyCodebook();
  let k = 0;
  const deps = { newId: () => `id-${seed}-${k++}`, now: () => new Date(0) };
  const n = 3 + (seed % 7);
  for (let i = 0; i < n; i++) {
    const parentId = book.codes.length && r() < 0.4 ? pick(r, book.codes).id : undefined;
    book = addCode(book, { name: `${pick(r, names)} ${i}`, ...(r() < 0.5 ? { description: pick(r, hostileTexts(seed + i, 2)) } : {}), ...(parentId ? { parentId } : {}) }, deps).book;
    if (r() < 0.4) book = setCodeMemoIn(book, book.codes[book.codes.length - 1]!.id, pick(r, hostileTexts(seed * 7 + i, 2)), deps).book;
  }
  let codings: Codings = emptyCodings();
  const segments = 5 + seed * 4;
  for (let i = 0; i < segments; i++) {
    const codeId = i % 9 === 8 ? `deleted-${i}` : pick(r, book.codes).id;
    codings = addSegmentIn(codings, { codeId, span: randomSpan(r, pick(r, items)), ...(r() < 0.3 ? { memo: pick(r, hostileTexts(i, 2)) } : {}) }, deps).codings;
  }
  const markers = generatedMarkers(seed, items, specs);
  const suggested = suggestedCodes(items.map((it) => markerFileOf(it, markers.get(it.id)!)), book, { limit: 40 });
  return { items, book, codings, suggested };
}

describe('the Codes view model', () => {
  test('every code once, under its parent, with its colour, its segments (opening their spans) and counts equal to a direct count', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { items, book, codings, suggested } = generated(seed);
      const view = codesViewOf('/corpus', book, codings, { items }, suggested);
      const nodes = codesTree(l10n, view);
      const codeNodes = all(nodes).filter((x) => x.ref?.kind === 'code');
      assert.deepEqual(codeNodes.map((x) => x.ref?.kind === 'code' && x.ref.id).sort(), book.codes.map((c) => c.id).sort(), `seed ${seed}: each code once`);
      for (const code of book.codes) {
        const node = codeNodes.find((x) => x.ref?.kind === 'code' && x.ref.id === code.id)!;
        assert.equal(node.label, code.name);
        assert.deepEqual(node.icon, { circle: code.colour });
        // Its parent in the tree is its parent in the codebook.
        const parent = all(nodes).find((p) => p.children?.includes(node));
        assert.equal(parent?.ref?.kind === 'code' ? parent.ref.id : undefined, code.parentId);
        const direct = codings.segments.filter((s) => s.codeId === code.id);
        const segs = (node.children ?? []).filter((c) => c.ref?.kind === 'segment');
        assert.equal(segs.length, direct.length, `seed ${seed}: ${code.name}`);
        for (const s of segs) {
          const seg = direct.find((d) => s.ref?.kind === 'segment' && d.id === s.ref.id)!;
          assert.equal(s.command?.command, OPEN_PINNED_SPAN_COMMAND);
          assert.equal((s.command?.args[0] as { quote: string }).quote, seg.span.quote);
        }
        const v = view.codes.find((c) => c.id === code.id)!;
        assert.equal(v.count, direct.length);
        assert.equal(v.items, new Set(direct.map((d) => d.span.itemId)).size);
        assert.equal(node.description, codeDescription(l10n, v));
      }
      const unknown = codings.segments.filter((s) => !book.codes.some((c) => c.id === s.codeId));
      const unknownNode = nodes.find((x) => x.id === 'unknown');
      assert.equal(unknownNode?.children?.length ?? 0, unknown.length, 'segments of deleted codes are kept');
      const sug = nodes.find((x) => x.id === 'suggested');
      assert.deepEqual(sug?.children?.map((c) => c.label) ?? [], suggested.map((s) => s.topic));
      for (const x of all(nodes)) assert.deepEqual(liveLinks(x.tooltip ?? ''), [], `seed ${seed}: ${x.id}: ${x.tooltip}`);
      const ids = all(nodes).map((x) => x.id);
      assert.equal(new Set(ids).size, ids.length, 'unique ids');
    }
  });

  test('the code × item table reads back to the counts, one cell per column, every name escaped', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { items, book, codings } = generated(seed);
      const table = codeItemTableOf(book, codings, { items });
      const md = codeItemTableMarkdown(l10n, table);
      assert.deepEqual(liveLinks(md), [], `seed ${seed}`);
      const rows = md.split('\n').filter((l) => l.startsWith('| '));
      // Cells split at the pipes the table writes (a name's own | is escaped as \|).
      const cells = rows.map((l) => l.slice(2, -2).split(/(?<!\\) \| /));
      const width = cells[0]!.length;
      for (const c of cells) assert.equal(c.length, width, `seed ${seed}: ${JSON.stringify(c)}`);
      const cols = table.items.map((_, j) => j).filter((j) => table.itemTotals[j]! > 0);
      assert.equal(width, cols.length + 2);
      table.rows.forEach((r, i) => {
        const row = cells[i + 2]!;
        assert.deepEqual(row.slice(1, -1).map(Number), cols.map((j) => r.counts[j]));
        assert.equal(row[row.length - 1], `**${r.total}**`);
        // The direct count: segments of this code in each item.
        cols.forEach((j) => assert.equal(r.counts[j], codings.segments.filter((s) => s.codeId === r.codeId && s.span.itemId === table.items[j]!.id).length));
      });
      const totals = cells[cells.length - 1]!;
      assert.equal(totals[totals.length - 1], `**${table.total}**`);
      assert.equal(table.total + table.unknownCode, codings.segments.length);
    }
  });
});
