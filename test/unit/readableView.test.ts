/**
 * The readable view (issue 12, item 1): a span of a part's normalised text maps onto the
 * full-item document exactly — the document's text of the ranges, joined by newlines, is the
 * span's text — for every unit, for spans across units and joining newlines, for multi-line
 * comments, Chinese text, and the real evidence of extractive markers; and a place in the
 * document maps back to its unit and offset.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem, PartKind, TextRange } from '../../src/core/corpus/types';
import { BLOCK_INDENT, layoutFullItem, renderFullItem, TEXT_BELOW_HEADER, type ReadableItem } from '../../src/core/markers/fullItem';
import { generateMarkers } from '../../src/core/markers/generate';
import { readablePlaceAt, readableRanges } from '../../src/core/markers/readableSpans';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { rng } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** The document's text of `ranges`, joined by newlines: what the highlight shows. */
function highlighted(layout: ReadableItem, ranges: readonly TextRange[]): string {
  const lines = layout.text.split('\n');
  return ranges
    .map((r) => {
      assert.equal(r.startLine, r.endLine, 'one range per line');
      assert.ok(r.startColumn >= BLOCK_INDENT && r.endColumn >= r.startColumn, JSON.stringify(r));
      return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
    })
    .join('\n');
}

function partText(item: CorpusItem, part: PartKind): string {
  return (part === 'transcript' ? item.transcript : item.comments)?.text ?? '';
}

/** Asserts the exact mapping of `[start, end)`. */
function assertExact(item: CorpusItem, layout: ReadableItem, part: PartKind, start: number, end: number): void {
  const want = partText(item, part).slice(start, end);
  const ranges = readableRanges(layout, part, start, end);
  assert.equal(highlighted(layout, ranges), want, `${item.id}/${part} [${start}, ${end})`);
}

describe('readableRanges: a span in the readable view is exactly the span', () => {
  let corpus: Corpus;
  before(async () => {
    corpus = await loadCorpus(DEMO);
  });

  test('the layout is the rendered document; every block\'s text is under its header, indented', () => {
    for (const item of corpus.items) {
      const layout = layoutFullItem(item);
      assert.equal(layout.text, renderFullItem(item));
      const lines = layout.text.split('\n');
      assert.equal(layout.lineCount, lines.length);
      for (const b of layout.blocks) {
        if (!b.text.trim()) continue;
        assert.equal(lines[b.header + 1], '', `${item.id}: a blank line between header and text (the text is a code block)`);
        assert.equal(lines[b.header + TEXT_BELOW_HEADER], `${' '.repeat(BLOCK_INDENT)}${b.text.split('\n')[0]}`, `${item.id} block at ${b.header}`);
        assert.match(lines[b.header]!, / · line \d+$/);
      }
    }
  });

  test('every turn and every comment of every demo item, whole', () => {
    let n = 0;
    for (const item of corpus.items) {
      const layout = layoutFullItem(item);
      for (const s of item.transcript?.segments ?? []) {
        assertExact(item, layout, 'transcript', s.offset, s.offset + s.text.length);
        n++;
      }
      for (const c of item.comments?.comments ?? []) {
        if (!c.text.trim()) continue;
        assertExact(item, layout, 'comments', c.offset, c.offset + c.text.length);
        n++;
      }
    }
    assert.ok(n > 40, `${n} units`);
  });

  test('random spans, across units and joining newlines, English and Chinese', () => {
    const r = rng(12);
    for (const item of corpus.items) {
      const layout = layoutFullItem(item);
      for (const part of ['transcript', 'comments'] as const) {
        const len = partText(item, part).length;
        if (!len) continue;
        for (let i = 0; i < 300; i++) {
          const a = Math.floor(r() * len);
          const b = Math.min(len, a + Math.floor(r() * (i % 3 === 0 ? 400 : 40)));
          assertExact(item, layout, part, a, b);
        }
        // on the joining newlines themselves: starting on one, ending after one, only one
        const units = part === 'transcript' ? item.transcript!.segments : item.comments!.comments.filter((c) => c.text.trim());
        for (const u of units.slice(0, -1)) {
          const joint = u.offset + u.text.length;
          assertExact(item, layout, part, joint, joint + 3);
          assertExact(item, layout, part, joint - 2, joint + 1);
          assertExact(item, layout, part, joint, joint + 1);
          assertExact(item, layout, part, Math.max(0, joint - 5), joint);
        }
      }
    }
    const zh = corpus.items.find((i) => i.id === 'ev-winter-range')!;
    assert.match(zh.transcript!.text, /\p{Script=Han}/u);
  });

  test('the highlighted text is the quote of every extractive marker\'s evidence', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-readable-'));
    try {
      await cp(DEMO, dir, { recursive: true });
      const copy = await loadCorpus(dir);
      await generateMarkers(copy, { engine: { kind: 'extractive' } });
      let checked = 0;
      for (const item of copy.items) {
        const r = await readItemMarkers(copy.root, item.id);
        if (!r.ok) continue;
        const layout = layoutFullItem(item);
        for (const m of allMarkers(r.value)) {
          for (const ev of m.evidence) {
            const ranges = readableRanges(layout, ev.part, ev.start, ev.end);
            const text = partText(item, ev.part).slice(ev.start, ev.end);
            assert.equal(highlighted(layout, ranges), text, `${m.id}`);
            // ...which is what the marker quotes (whitespace aside)
            assert.equal(text.replace(/\s+/g, ' ').trim(), ev.quote.replace(/\s+/g, ' ').trim(), `${m.id} quote`);
            checked++;
          }
        }
      }
      assert.ok(checked >= 10, `${checked} evidence spans`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('outside the part: clamped; an empty span is one empty range where it sits', () => {
    const item = corpus.items.find((i) => i.transcript)!;
    const layout = layoutFullItem(item);
    const len = item.transcript!.text.length;
    assert.equal(highlighted(layout, readableRanges(layout, 'transcript', len - 5, len + 50)), item.transcript!.text.slice(len - 5));
    const empty = readableRanges(layout, 'transcript', 3, 3);
    assert.equal(empty.length, 1);
    assert.equal(empty[0]!.startColumn, empty[0]!.endColumn);
    const noComments = corpus.items.find((i) => !i.comments);
    if (noComments) assert.deepEqual(readableRanges(layoutFullItem(noComments), 'comments', 0, 10), []);
  });
});

describe('readableRanges: multi-line units, empty comments, line breaks in names', () => {
  let dir: string;
  let item: CorpusItem;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-readable-lines-'));
    await mkdir(path.join(dir, 'talk'));
    await writeFile(
      path.join(dir, 'talk', 'transcript.json'),
      JSON.stringify({ turns: [
        { speaker: 'Ana\nMaría', text: 'First line.\nSecond line of the same turn.', start: 1, end: 5 },
        { speaker: 'Ben', text: 'Short.', start: 5, end: 6 },
        { speaker: '王', text: '冬天续航下降。\n\n空调很耗电。', start: 6, end: 9 },
      ] }),
    );
    await writeFile(
      path.join(dir, 'talk', 'comments.jsonl'),
      [
        { comment_id: 'a', author: 'lena', text: 'one\ntwo\nthree', likes: 3 },
        { comment_id: 'b', author: 'ghost', text: '   ', likes: 0 },
        { comment_id: 'c', author: 'x\ny', text: 'after the empty one', likes: 1 },
      ].map((c) => JSON.stringify(c)).join('\n'),
    );
    item = (await loadCorpus(dir)).items[0]!;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('every span of every part, exact', () => {
    const layout = layoutFullItem(item);
    for (const part of ['transcript', 'comments'] as const) {
      const len = partText(item, part).length;
      for (let a = 0; a <= len; a++) for (let b = a; b <= len; b++) assertExact(item, layout, part, a, b);
    }
  });

  test('headers stay on one line (a speaker or author with a line break)', () => {
    const layout = layoutFullItem(item);
    const lines = layout.text.split('\n');
    const first = layout.blocks[0]!;
    assert.match(lines[first.header]!, /^\[1\] · 0:01 → 0:05 · Ana María · line \d+$/);
    assert.equal(lines[first.header + 2], '    First line.');
    assert.equal(lines[first.header + 3], '    Second line of the same turn.');
    assert.match(layout.text, /@x y · 1 like/);
  });

  test('readablePlaceAt: a header is its unit\'s start; a place in the text its offset; above the units nothing', () => {
    const layout = layoutFullItem(item);
    assert.equal(readablePlaceAt(layout, 0, 0), undefined);
    for (const b of layout.blocks) {
      const at = readablePlaceAt(layout, b.header, 0);
      if (b.part === 'comments' && !b.text.trim()) {
        assert.equal(at, undefined);
        continue;
      }
      assert.deepEqual(at && { part: at.part, offset: at.offset }, { part: b.part, offset: b.offset });
    }
    // the second line of the first turn, column 4 + 3: "Sec|ond"
    const t = layout.blocks[0]!;
    const p = readablePlaceAt(layout, t.header + TEXT_BELOW_HEADER + 1, BLOCK_INDENT + 3)!;
    assert.equal(item.transcript!.text.slice(p.offset, p.offset + 4), 'ond ');
    // round trip: the start of every range maps back to its offset
    const text = item.transcript!.text;
    for (let k = 0; k < text.length; k++) {
      if (text[k] === '\n') continue;
      const [r] = readableRanges(layout, 'transcript', k, k + 1);
      assert.equal(readablePlaceAt(layout, r!.startLine, r!.startColumn)!.offset, k, `offset ${k}`);
    }
  });
});
