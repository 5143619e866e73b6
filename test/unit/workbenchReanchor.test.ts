/**
 * Re-anchoring (issue 24): after an item's text changes (re-indexing), a pinned span whose text no
 * longer equals its quote is found again by its quote — exactly, else ignoring white space, case
 * and width — at the occurrence nearest its old offset; a quote that is gone is flagged `lost`
 * and never moved. The notebook and the coded segments are re-anchored by the same function.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mapSpan, storedRange } from '../../src/core/corpus/spans';
import type { CorpusItem } from '../../src/core/corpus/types';
import { createCode } from '../../src/core/workbench/codebookStore';
import { addSegment, readCodings, reanchorCodings } from '../../src/core/workbench/codingStore';
import { notebookEntries } from '../../src/core/workbench/notebookFormat';
import { addEntry, notebookFile, readNotebook, reanchorNotebook } from '../../src/core/workbench/notebookStore';
import { notebookWords } from '../../src/core/workbench/notebookWords';
import { partText, selectionEntry } from '../../src/core/workbench/pins';
import { reanchorSpan, reanchorSpans } from '../../src/core/workbench/reanchor';
import type { PinnedSpan } from '../../src/core/workbench/schema';
import { rng } from '../support/testing';
import { buildItem, buildItems, editedSpec, pick, randomSpan, unitOf, workbenchSpecs, type ItemSpec } from '../support/workbenchCorpus';

const NOW = '2025-02-03T04:05:06.000Z';
const LATER = '2025-03-04T05:06:07.000Z';

function count(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}

/** Text as the loose match reads it: no white space, NFKC, lower case. */
const folded = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');

/** Spans of the corpus whose quote occurs once in its part (so where it should go is known), no two overlapping. */
function uniqueSpans(seed: number, items: readonly CorpusItem[], n: number): PinnedSpan[] {
  const r = rng(seed);
  const out: PinnedSpan[] = [];
  while (out.length < n) {
    const item = pick(r, items);
    const s = randomSpan(r, item);
    const overlaps = out.some((o) => o.itemId === s.itemId && o.part === s.part && o.start < s.end && s.start < o.end);
    if (!overlaps && count(partText(item, s.part)!, s.quote) === 1 && count(folded(partText(item, s.part)!), folded(s.quote)) === 1) out.push(s);
  }
  return out;
}

/** The item of `spec` with the unit holding `span` rewritten by `fn` (its text, the span's offset in it). */
function withUnit(spec: ItemSpec, item: CorpusItem, span: PinnedSpan, fn: (text: string, at: number) => string, others?: (texts: string[], unit: number) => void): CorpusItem {
  const { unit, at } = unitOf(item, span);
  return buildItem(
    editedSpec(
      spec,
      (texts) => {
        texts[unit] = fn(texts[unit]!, at);
        others?.(texts, unit);
        return texts;
      },
      span.part,
    ),
  );
}

const INSERTS = ['Bueno, ', 'well, you know, ', '那个，', '（笑）', 'Mm-hmm. ', 'o sea '];

describe('re-anchoring pinned spans', () => {
  const specs = workbenchSpecs(404, 2);
  const items = buildItems(specs);
  const specOf = new Map(specs.map((s) => [s.id, s]));
  const spans = uniqueSpans(405, items, 60);
  const itemOf = new Map(items.map((i) => [i.id, i]));

  test('text inserted before a span (in its turn or in earlier ones): found exactly, moved by what was inserted, its place refreshed', () => {
    const r = rng(406);
    let moved = 0;
    for (const s of spans) {
      const item = itemOf.get(s.itemId)!;
      const ins = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, INSERTS));
      let added = 0;
      const changed = withUnit(
        specOf.get(s.itemId)!,
        item,
        s,
        (text, at) => {
          const p = Math.floor(r() * (at + 1));
          added += ins[0]!.length;
          return text.slice(0, p) + ins[0]! + text.slice(p);
        },
        (texts, unit) => {
          for (const x of ins.slice(1)) {
            const u = Math.floor(r() * (unit + 1));
            if (u === unit) continue;
            texts[u] = x + texts[u]!;
            added += x.length;
          }
        },
      );
      if (count(partText(changed, s.part)!, s.quote) !== 1) continue;
      const res = reanchorSpan(s, changed, NOW);
      assert.equal(res.outcome, 'moved');
      assert.equal(res.match, 'exact');
      assert.equal(res.span.start, s.start + added);
      assert.equal(partText(changed, s.part)!.slice(res.span.start, res.span.end), s.quote);
      assert.deepEqual(res.span.source, storedRange(mapSpan(changed, res.span)!));
      assert.equal(res.span.lost, undefined);
      moved++;
    }
    assert.ok(moved >= 40, `${moved} spans checked`);
  });

  test('text inserted after a span leaves it unchanged', () => {
    for (const s of spans.slice(0, 20)) {
      const changed = withUnit(specOf.get(s.itemId)!, itemOf.get(s.itemId)!, s, (text) => `${text} ${INSERTS[0]}`);
      const res = reanchorSpan(s, changed, NOW);
      assert.equal(res.outcome, 'unchanged');
      assert.deepEqual(res.span, s);
    }
  });

  test('a quote that now occurs several times goes to the occurrence nearest its old offset', () => {
    const r = rng(407);
    let notFirst = 0;
    for (const s of spans) {
      const item = itemOf.get(s.itemId)!;
      // The original occurrence replaced by other words; copies put in 2–3 turns (before and after).
      const changed = withUnit(
        specOf.get(s.itemId)!,
        item,
        s,
        (text, at) => `${text.slice(0, at)}${'～'.repeat(1 + Math.floor(r() * 9))}${text.slice(at + s.quote.length)}`,
        (texts) => {
          const copies = 2 + Math.floor(r() * 2);
          for (let k = 0; k < copies; k++) {
            const u = Math.floor(r() * texts.length);
            const p = Math.floor(r() * (texts[u]!.length + 1));
            texts[u] = `${texts[u]!.slice(0, p)} ${s.quote} ${texts[u]!.slice(p)}`;
          }
        },
      );
      const text = partText(changed, s.part)!;
      const at: number[] = [];
      for (let i = text.indexOf(s.quote); i >= 0; i = text.indexOf(s.quote, i + 1)) at.push(i);
      if (at.length < 2) continue;
      const nearest = at.reduce((a, b) => (Math.abs(b - s.start) < Math.abs(a - s.start) ? b : a));
      const res = reanchorSpan(s, changed, NOW);
      if (text.slice(s.start, s.end) === s.quote) {
        // A copy landed where the span was: its text is its quote, it stays.
        assert.equal(res.outcome, 'unchanged');
        continue;
      }
      assert.equal(res.outcome, 'moved');
      assert.equal(res.span.start, nearest);
      assert.equal(text.slice(res.span.start, res.span.end), s.quote);
      if (nearest !== at[0]) notFirst++;
    }
    assert.ok(notFirst >= 5, `${notFirst} spans went to an occurrence other than the first`);
  });

  test('a deleted quote is flagged lost (never moved), stays lost with its first time, and is recovered when it comes back', () => {
    for (const s of spans) {
      const spec = specOf.get(s.itemId)!;
      const item = itemOf.get(s.itemId)!;
      const changed = withUnit(spec, item, s, (text, at) => text.slice(0, at) + text.slice(at + s.quote.length));
      const res = reanchorSpan(s, changed, NOW);
      assert.equal(res.outcome, 'lost');
      assert.deepEqual(res.span, { ...s, lost: { reason: 'quote-not-found', since: NOW } });
      const again = reanchorSpan(res.span, changed, LATER);
      assert.equal(again.outcome, 'lost');
      assert.equal(again.span.lost!.since, NOW);
      const back = reanchorSpan(res.span, item, LATER);
      assert.equal(back.recovered, true);
      assert.deepEqual(back.span, s);
    }
  });

  test('white space, case and character width changed around the quote: found loosely, the quote becomes the text found', () => {
    const r = rng(408);
    let loose = 0;
    for (const s of spans) {
      const item = itemOf.get(s.itemId)!;
      const variant = [...s.quote]
        .map((ch) => (/\s/.test(ch) ? '  \n '.slice(0, 1 + Math.floor(r() * 3)) : /[0-9]/.test(ch) ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : r() < 0.5 ? ch.toUpperCase() : ch))
        .join('')
        .replace(/(\p{Script=Han})(?=\p{Script=Han})/gu, (c) => (r() < 0.3 ? `${c} ` : c));
      if (variant === s.quote) continue;
      let placedAt = -1;
      const changed = withUnit(specOf.get(s.itemId)!, item, s, (text, at) => {
        const pre = pick(r, INSERTS);
        placedAt = at + pre.length;
        return `${text.slice(0, at)}${pre}${variant}${text.slice(at + s.quote.length)}`;
      });
      const text = partText(changed, s.part)!;
      const res = reanchorSpan(s, changed, NOW);
      assert.equal(res.outcome, 'moved', `${s.quote} → ${variant}`);
      assert.equal(res.match, 'loose');
      assert.equal(res.span.quote, text.slice(res.span.start, res.span.end));
      assert.equal(folded(res.span.quote), folded(s.quote));
      assert.equal(res.span.start - (s.start + placedAt - unitOf(item, s).at), 0);
      loose++;
    }
    assert.ok(loose >= 40, `${loose} spans checked`);
  });

  test('an item that is gone, or lost its part: lost, saying why; the summary names them', () => {
    const s = spans[0]!;
    const spec = specOf.get(s.itemId)!;
    const noPart = buildItem(s.part === 'transcript' ? { ...spec, turns: [] } : { ...spec, comments: [] });
    const others = items.filter((i) => i.id !== s.itemId);
    const sum = reanchorSpans([s, s, spans[1]!], new Map([[s.itemId, noPart], ...others.map((i) => [i.id, i] as const)]), NOW);
    assert.equal(sum.results[0]!.span.lost?.reason, 'part-missing');
    const gone = reanchorSpans([s], others.length ? { items: others } : new Map(), NOW);
    assert.equal(gone.results[0]!.span.lost?.reason, 'item-missing');
    assert.deepEqual(gone.lost, [0]);
    assert.deepEqual(sum.lost.slice(0, 2), [0, 1]);
  });
});

describe('re-anchoring the notebook and the coded segments', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-reanchor-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('one function for both: the same spans move and are lost alike; notebook.md shows the lost ones and keeps every note', async () => {
    const specs = workbenchSpecs(500, 2);
    const items = buildItems(specs);
    const spans = uniqueSpans(501, items, 24);
    const r = rng(502);
    const root = path.join(dir, 'both');
    await mkdir(root);
    const code = await createCode(root, { name: '安全 / seguridad' });
    for (const s of spans) {
      const item = items.find((i) => i.id === s.itemId)!;
      await addEntry(root, selectionEntry(item, s.part, s.start, s.end)!, { lang: 'es' });
      await addSegment(root, { codeId: code.id, span: s });
    }
    // The researcher's notes between the entries.
    const file = notebookFile(root);
    const withNotes = (await readFile(file, 'utf8')).replace(/<!-- \/marker-research:entry -->\n/g, (m) => `${m}\nMi nota 我的笔记 ${Math.floor(r() * 1000)}\n`);
    await writeFile(file, withNotes);
    // Re-index: in each item, every turn gets words in front; a few quotes are deleted.
    const deleted = new Set(spans.filter((_, i) => i % 5 === 0).map((s) => `${s.itemId}:${s.start}`));
    const changed = specs.map((spec) => {
      let out = spec;
      for (const part of ['transcript', 'comments'] as const)
        out = editedSpec(
          out,
          (texts) => {
            let t = texts.map((x) => `Bueno, ${x}`);
            for (const s of spans.filter((x) => x.itemId === spec.id && x.part === part && deleted.has(`${x.itemId}:${x.start}`))) t = t.map((x) => x.replace(s.quote, ''));
            return t;
          },
          part,
        );
      return buildItem(out);
    });
    const nb = await reanchorNotebook(root, { items: changed }, { now: () => new Date(NOW) });
    const cd = await reanchorCodings(root, { items: changed }, { now: () => new Date(NOW) });
    assert.equal(nb.written, true);
    assert.equal(cd.written, true);
    assert.equal(nb.lost.length, deleted.size);
    assert.equal(nb.moved.length + nb.lost.length, spans.length);
    const entries = notebookEntries(await readNotebook(root));
    const segments = (await readCodings(root)).segments;
    assert.deepEqual(
      entries.map((e) => e.spans[0]),
      segments.map((s) => s.span),
    );
    for (const s of segments) {
      const item = changed.find((i) => i.id === s.span.itemId)!;
      if (s.span.lost) assert.equal(s.span.lost.reason, 'quote-not-found');
      else assert.equal(partText(item, s.span.part)!.slice(s.span.start, s.span.end), s.span.quote);
    }
    const text = await readFile(file, 'utf8');
    assert.equal(text.split(notebookWords('es').lost).length - 1, deleted.size);
    assert.deepEqual(text.match(/^Mi nota .*$/gm), withNotes.match(/^Mi nota .*$/gm));
    // Nothing changed since: nothing is written.
    const again = await reanchorNotebook(root, { items: changed }, { now: () => new Date(LATER) });
    assert.equal(again.written, false);
    assert.equal(again.lost.length, deleted.size);
    assert.equal(await readFile(file, 'utf8'), text);
  });
});
