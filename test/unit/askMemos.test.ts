/**
 * What asking keeps across questions (the Ask latency work): a bounded least-recently-used map,
 * the per-part memos that hit focus, answers and passages share (a turn split once, a span
 * tokenized and counted once, each bounded), and the disjoint-span lookup the retriever fuses and
 * spreads candidates with — each checked against the plain computation it replaces, on generated
 * inputs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DisjointSpans } from '../../src/core/ask/disjointSpans';
import { MEMO_WORDS, memoSizes, spanTokens, spanWords, turnSentences } from '../../src/core/ask/partMemos';
import { segmentSentences } from '../../src/core/markers/sentences';
import { tokenize } from '../../src/core/search/tokenize';
import { countWords } from '../../src/core/text/words';
import { LruMap, PairLruMap } from '../../src/core/util/lruMap';
import { transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

/** Pieces texts are composed of: words of three languages, numbers, punctuation, CJK, an astral character, line breaks. */
const PIECES = ['price', 'Remote', 'control', 'twenty', '25', '2.31', 'euros', 'precio', 'señal', 'está', '价格', '电池', '续航', '𠀀', '😀', ' ', ' ', ' ', '. ', '? ', ', ', '\n', '¿', '—', "we're", 'l’été'];

function composed(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)]!;
  return s;
}

describe('LruMap', () => {
  test('never holds more than its bound, whatever is set', () => {
    const r = rng(3);
    for (const max of [1, 2, 3, 10, 64]) {
      const m = new LruMap<number, number>(max);
      for (let i = 0; i < 2000; i++) {
        const k = Math.floor(r() * 500);
        if (r() < 0.5) m.set(k, i);
        else m.get(k);
        assert.ok(m.size <= max, `size ${m.size} > ${max}`);
      }
    }
  });

  test('a value is made once while it is used, and again only after it was dropped', () => {
    const m = new LruMap<string, string>(8);
    let made = 0;
    const make = (k: string) => () => {
      made++;
      return k.toUpperCase();
    };
    // A key asked for between every other key stays: made once however many others pass through.
    for (let i = 0; i < 100; i++) {
      assert.equal(m.getOrSet('kept', make('kept')), 'KEPT');
      m.getOrSet(`other${i}`, make(`other${i}`));
    }
    assert.equal(made, 1 + 100);
    // A key not asked for while many others pass is dropped, and made again.
    m.getOrSet('other0', make('other0'));
    assert.equal(made, 102);
  });

  test('a bound below 1 is refused', () => {
    assert.throws(() => new LruMap(0), RangeError);
    assert.throws(() => new PairLruMap(0), RangeError);
  });
});

describe('PairLruMap', () => {
  test('holds what a map of (object, number) pairs holds while within its bound, and never more than the bound', () => {
    const r = rng(23);
    const objects = Array.from({ length: 7 }, (_, i) => ({ i }));
    for (const max of [1, 4, 50, 1000]) {
      const m = new PairLruMap<{ i: number }, number>(max);
      const plain = new Map<string, number>();
      for (let n = 0; n < 3000; n++) {
        const o = objects[Math.floor(r() * objects.length)]!;
        const k = Math.floor(r() * 40);
        if (r() < 0.5) {
          m.set(o, k, n);
          plain.set(`${o.i}:${k}`, n);
        } else {
          const v = m.get(o, k);
          // What it still holds is what was last set; what it dropped, it no longer has.
          if (v !== undefined) assert.equal(v, plain.get(`${o.i}:${k}`));
        }
        assert.ok(m.size <= max, `size ${m.size} > ${max}`);
      }
      // With room for every pair, nothing is dropped.
      if (max >= objects.length * 40 * 2) for (const [key, v] of plain) assert.equal(m.get(objects[Number(key.split(':')[0])]!, Number(key.split(':')[1])), v);
    }
  });

  test('a pair used between others stays; the same number under another object is another entry', () => {
    const m = new PairLruMap<object, string>(10);
    const a = {};
    const b = {};
    let made = 0;
    for (let i = 0; i < 50; i++) {
      m.getOrSet(a, 1, () => (made++, 'a1'));
      m.set(b, 100 + i, 'x');
    }
    assert.equal(made, 1);
    assert.equal(m.get(b, 1), undefined);
    m.set(b, 1, 'b1');
    assert.equal(m.get(a, 1), 'a1');
    assert.equal(m.get(b, 1), 'b1');
  });
});

describe('part memos', () => {
  test('spanWords counts what countWords counts, and with a limit stops above it', () => {
    const r = rng(11);
    for (let t = 0; t < 300; t++) {
      const part = { text: composed(r, 5 + Math.floor(r() * 60)) };
      const a = Math.floor(r() * part.text.length);
      const z = a + Math.floor(r() * (part.text.length - a + 5));
      const want = countWords(part.text.slice(a, z));
      const limit = Math.floor(r() * 12);
      const bounded = spanWords(part, a, z, limit);
      if (want <= limit) assert.equal(bounded, want, `${JSON.stringify(part.text.slice(a, z))} within ${limit}`);
      else assert.ok(bounded > limit, `${JSON.stringify(part.text.slice(a, z))}: ${bounded} should be above ${limit} (${want})`);
      assert.equal(spanWords(part, a, z), want);
      // Counted once: the same answer again, from the memo.
      assert.equal(spanWords(part, a, z, limit), want <= limit ? want : spanWords(part, a, z));
    }
  });

  test('a turn is split once and a span tokenized once, as the plain calls split and tokenize them', () => {
    const r = rng(5);
    const turns = Array.from({ length: 30 }, () => composed(r, 20));
    const t = transcriptPart(turns.map((text, i) => ({ text, speaker: `S${i % 3}` })));
    for (let i = 0; i < turns.length; i++) {
      const seg = t.segments[i]!;
      const first = turnSentences(t, i);
      assert.deepEqual(first.map((s) => [s.start, s.end, s.text]), segmentSentences(seg.text, seg.offset, seg.index, 'en').map((s) => [s.start, s.end, s.text]));
      assert.equal(turnSentences(t, i), first, 'the same sentences, not split again');
      const toks = spanTokens(t, seg.offset, seg.offset + seg.text.length);
      assert.deepEqual(toks, tokenize(seg.text));
      assert.equal(spanTokens(t, seg.offset, seg.offset + seg.text.length), toks, 'the same tokens, not tokenized again');
    }
  });

  test('the word counts kept stay within their bound', () => {
    const part = { text: 'one two three four five six seven eight nine ten '.repeat(20) };
    for (let a = 0; a < part.text.length; a++) for (let z = a + 1; z <= Math.min(part.text.length, a + 70); z++) spanWords(part, a, z);
    assert.ok(memoSizes().words <= MEMO_WORDS);
    assert.ok(memoSizes().words > 0);
  });
});

describe('DisjointSpans', () => {
  test('finds what reading every span finds: the first overlapping one in the order added, and whether one is near', () => {
    const r = rng(17);
    for (let t = 0; t < 200; t++) {
      const spans = new DisjointSpans<number>();
      const held: { start: number; end: number; value: number }[] = [];
      for (let k = 0; k < 60; k++) {
        const start = Math.floor(r() * 400);
        const end = start + Math.floor(r() * 30);
        const first = held.find((g) => g.start < end && start < g.end);
        assert.equal(spans.firstOverlapping(start, end), first?.value, `[${start}, ${end})`);
        const near = held.some((g) => g.start <= end + 1 && start <= g.end + 1);
        assert.equal(spans.touches(start, end), near, `near [${start}, ${end})`);
        // As fusion does: a span that overlaps none is kept.
        if (!first) {
          spans.add(start, end, k);
          held.push({ start, end, value: k });
        }
      }
    }
  });
});
