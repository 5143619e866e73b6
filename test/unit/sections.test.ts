/**
 * Sections and centrality of the extractive engine (issue 11): topic shifts are found where the
 * vocabulary changes, chapters cut by time, and LexRank ranks the sentence that shares most with
 * the others first.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lexRank } from '../../src/core/markers/centrality';
import { splitSections, type SectionUnit } from '../../src/core/markers/sections';
import { assertNearLinear } from '../support/scaling';
import { rng } from '../support/testing';

/** `n` sentences of 10 words drawn from `vocab`. */
function topicUnits(vocab: readonly string[], n: number, r: () => number, t0 = 0): SectionUnit[] {
  return Array.from({ length: n }, (_, i) => {
    const terms = Array.from({ length: 10 }, () => vocab[Math.floor(r() * vocab.length)]!);
    return { words: 10, terms, time: t0 + i * 4 };
  });
}

const A = 'battery charge range winter cold heater kilometres charger cell voltage'.split(' ');
const B = 'coffee harvest freight brazil price arabica roast beans export weather'.split(' ');
const C = 'office rent remote hybrid commute meeting desk city lease employee'.split(' ');

describe('sections', () => {
  test('three topics of 1,000 words each: boundaries at the topic shifts (within a block)', () => {
    const r = rng(7);
    const units = [...topicUnits(A, 100, r), ...topicUnits(B, 100, r), ...topicUnits(C, 100, r)];
    const starts = splitSections(units, { targetWords: 1000, blockWords: 50 });
    assert.equal(starts.length, 3, JSON.stringify(starts));
    assert.equal(starts[0], 0);
    assert.ok(Math.abs(starts[1]! - 100) <= 5, JSON.stringify(starts));
    assert.ok(Math.abs(starts[2]! - 200) <= 5, JSON.stringify(starts));
  });

  test('a short text is one section; nothing is no section', () => {
    const r = rng(1);
    assert.deepEqual(splitSections(topicUnits(A, 30, r), { targetWords: 1000 }), [0]);
    assert.deepEqual(splitSections([], {}), []);
  });

  test('chapters cut by time, and a long chapter is split further', () => {
    const r = rng(3);
    // 0–399 s: 100 units of A; chapter at 400 s: 300 units mixing B then C (3,000 words).
    const units = [...topicUnits(A, 100, r, 0), ...topicUnits(B, 150, r, 400), ...topicUnits(C, 150, r, 1000)];
    const starts = splitSections(units, { targetWords: 1000, chapters: [0, 400], blockWords: 50 });
    assert.equal(starts[0], 0);
    assert.equal(starts[1], 100, `the chapter start: ${JSON.stringify(starts)}`);
    assert.ok(starts.length >= 4, `the 3,000-word chapter is split: ${JSON.stringify(starts)}`);
    assert.ok(starts.some((s) => Math.abs(s - 250) <= 5), `the B→C shift: ${JSON.stringify(starts)}`);
  });

  test('sections are at least half the target apart', () => {
    const r = rng(11);
    const units = topicUnits([...A, ...B, ...C], 1000, r);
    const starts = splitSections(units, { targetWords: 1000 });
    for (let i = 1; i < starts.length; i++) assert.ok((starts[i]! - starts[i - 1]!) * 10 >= 500, JSON.stringify(starts));
    assert.ok(starts.length >= 7 && starts.length <= 12, `about one per 1,000 words: ${starts.length}`);
  });

  test('bounded: 200,000 words are split, and the work grows linearly with the words', async () => {
    const r = rng(5);
    const units = topicUnits([...A, ...B, ...C], 20_000, r);
    const starts = splitSections(units, { targetWords: 1000 });
    assert.ok(starts.length > 100);
    await assertNearLinear({ name: 'splitSections', n: 5_000, prepare: (n) => topicUnits([...A, ...B, ...C], n, rng(n)), run: (u: SectionUnit[]) => splitSections(u, { targetWords: 1000 }) });
  });
});

describe('LexRank centrality', () => {
  test('the sentence sharing most with the others ranks first; an outlier last; scores sum to 1', () => {
    const s = [
      ['battery', 'range', 'winter'],
      ['battery', 'range', 'cold'],
      ['battery', 'winter', 'cold', 'range'],
      ['pizza', 'cheese'],
    ];
    const scores = lexRank(s, () => 1);
    assert.ok(Math.abs(scores.reduce((a, b) => a + b, 0) - 1) < 1e-6);
    const best = scores.indexOf(Math.max(...scores));
    assert.equal(best, 2);
    assert.equal(scores.indexOf(Math.min(...scores)), 3);
  });

  test('no links: equal scores; empty: empty', () => {
    const scores = lexRank([['a'], ['b'], ['c']], () => 1);
    for (const x of scores) assert.ok(Math.abs(x - 1 / 3) < 1e-9);
    assert.deepEqual(lexRank([], () => 1), []);
  });
});
