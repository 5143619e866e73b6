/**
 * Findings checked against their cited spans (issue 20): `judgeFinding` on generated findings in
 * English, Spanish and Chinese. From a seeded generator, each case composes a span (a speaker's
 * sentence with a number written one way) and findings about it:
 *  - supported: the span's claim restated, its number written another way (digits for words,
 *    other thousands separators, a decimal comma for a point, "%" for "percent", 两千 for 2000);
 *  - changed: the same finding with its number changed — unsupported, the number named;
 *  - another item's: a claim composed from another vocabulary, whose number the span happens to
 *    have — unsupported for want of common words;
 *  - unsourced: any finding with no span.
 * Also: `citedTexts` resolves ids through a registry (unknown ids, gone items and offsets outside
 * the text are left out), and `runOutcome` makes a run whose findings all cite nothing `partial`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CorpusItem } from '../../src/core/corpus/types';
import { runOutcome } from '../../src/core/research/failures';
import { citedTexts, judgeFinding, MIN_CONTENT_OVERLAP, supportMark, type CitedText } from '../../src/core/research/findingSupport';
import type { SourceSpan, StepResult } from '../../src/core/research/schema';
import { supportNote } from '../../src/core/research/synthesis';
import { cases } from '../support/findingCases';

// Five seeds, four rounds each: 360 spans, 120 per language, every number form.
const CASES = [20, 21, 22, 23, 24].flatMap((seed) => cases(seed, 4));

describe('finding support: numbers and content against the cited spans', () => {
  test(`generated cases cover three languages and every number form (${CASES.length} spans)`, () => {
    for (const lang of ['en', 'es', 'zh'] as const) assert.ok(CASES.filter((c) => c.lang === lang).length >= 40, lang);
  });

  test('a finding restating its span is supported, its number written another way (words, separators, decimal comma, %, 两千)', () => {
    const wrong = CASES.map((c) => ({ c, v: judgeFinding(c.good, [c.span]) })).filter((x) => !x.v.supported);
    assert.deepEqual(wrong.map((x) => `${x.c.good} ⟂ ${x.c.span.text}: ${JSON.stringify(x.v)}`), []);
  });

  test('the same finding with its number changed is unsupported, and names the number', () => {
    for (const c of CASES) {
      const v = judgeFinding(c.changed, [c.span]);
      assert.equal(v.supported, false, `${c.changed} ⟂ ${c.span.text}`);
      assert.equal(v.reason, 'numbers_not_in_sources', c.changed);
      assert.ok(v.missingNumbers?.some((m) => c.changedNumber.includes(m) || m.includes(c.changedNumber)), `${JSON.stringify(v.missingNumbers)} names ${c.changedNumber}`);
    }
  });

  test("another item's claim is unsupported for want of common words, even with the span's number", () => {
    const overlaps: number[] = [];
    for (const c of CASES) {
      const v = judgeFinding(c.foreign, [c.span]);
      assert.equal(v.supported, false, `${c.foreign} ⟂ ${c.span.text}`);
      assert.equal(v.reason, 'no_overlap', `${c.foreign}: ${JSON.stringify(v)}`);
      overlaps.push(v.overlap);
    }
    assert.ok(Math.max(...overlaps) < MIN_CONTENT_OVERLAP);
  });

  test('the verdict does not depend on which of several spans holds the number or the words', () => {
    for (const c of CASES) {
      assert.equal(judgeFinding(c.good, [c.noise, c.span]).supported, true, c.good);
      assert.equal(judgeFinding(c.changed, [c.span, c.noise]).supported, false, c.changed);
    }
  });

  test('a finding with no span is unsourced', () => {
    for (const c of CASES.slice(0, 12)) assert.deepEqual(judgeFinding(c.good, []), { supported: false, reason: 'no_sources', overlap: 0 });
  });

  test('citations, marker ids and names joined to digits are not numbers; labels (speaker, time, likes) are part of the span', () => {
    const span: CitedText = { text: 'The winter range of the battery dropped sharply.', labels: '@rider 120 likes 2024-01-03' };
    assert.equal(judgeFinding('speaker_4 [S12] says the winter range of the battery dropped (city-2).', [span]).supported, true);
    assert.equal(judgeFinding('The top comment on the winter battery range has 120 likes.', [span]).supported, true);
    assert.deepEqual(judgeFinding('The winter range of the battery dropped by 30 percent.', [span]).missingNumbers, ['30 percent']);
  });

  test('a finding in another language than its span is judged on its numbers only', () => {
    const span: CitedText = { text: 'Creo que la autonomía de la batería cae un veinticinco por ciento en invierno.' };
    assert.equal(judgeFinding('The speaker says winter cuts battery range by 25 %.', [span]).supported, true);
    assert.equal(judgeFinding('The speaker says winter cuts battery range by 40 %.', [span]).reason, 'numbers_not_in_sources');
  });

  test('supportMark and the report note: unsourced and unsupported, with the missing numbers', () => {
    assert.equal(supportMark({ supported: true, overlap: 1 }), undefined);
    const mark = supportMark({ supported: false, reason: 'numbers_not_in_sources', missingNumbers: ['42 %'], overlap: 0.8 })!;
    assert.deepEqual(mark, { status: 'unsupported', reason: 'numbers_not_in_sources', missing_numbers: ['42 %'], overlap: 0.8 });
    assert.match(supportNote({ support: mark }, false)!, /unsupported: number 42 % not in the cited span/);
    assert.match(supportNote({ support: mark }, true)!, /无依据：数字 42 % 不在所引片段中/);
    assert.equal(supportMark({ supported: false, reason: 'no_sources', overlap: 0 })!.status, 'unsourced');
  });
});

describe('finding support: resolving cited ids to span texts', () => {
  const text = 'Alpha beta gamma.\nDelta epsilon zeta.';
  const item = {
    id: 'it',
    title: 'Item title',
    meta: {},
    transcript: { kind: 'transcript', text, segments: [{ index: 0, speaker: 'Ann', start: 35, text: 'Alpha beta gamma.', offset: 0 }, { index: 1, speaker: 'Bo', start: 70, text: 'Delta epsilon zeta.', offset: 18 }] },
  } as unknown as CorpusItem;
  const spans = new Map<string, SourceSpan>([
    ['S1', { source_id: 'S1', item_id: 'it', part: 'transcript', start: 18, end: text.length } as SourceSpan],
    ['S2', { source_id: 'S2', item_id: 'gone', part: 'transcript', start: 0, end: 5 } as SourceSpan],
    ['S3', { source_id: 'S3', item_id: 'it', part: 'transcript', start: 0, end: text.length + 40 } as SourceSpan],
    ['S4', { source_id: 'S4', item_id: 'it', part: 'comments', start: 0, end: 5 } as SourceSpan],
  ]);
  const resolver = { registry: { get: (id: string) => spans.get(id) }, item: (id: string) => (id === 'it' ? item : undefined) };

  test('a resolvable id gives the text at its offsets and the labels of the units it touches', () => {
    assert.deepEqual(citedTexts(['S1'], resolver), [{ text: 'Delta epsilon zeta.', labels: 'Item title\nBo 1:10' }]);
  });

  test('unknown ids, gone items, missing parts and offsets past the text resolve to nothing', () => {
    assert.deepEqual(citedTexts(['S9', 'S2', 'S3', 'S4'], resolver), []);
  });
});

describe('finding support: a run whose findings all cite nothing', () => {
  const step = (id: string): StepResult => ({ step_id: id, status: 'done', rounds: 1, findings: [], insights: [], confidence: 0.5, sources: [], deferred: [] });
  const results = new Map([['s1', step('s1')], ['s2', step('s2')]]);

  test('is partial with the reason; one sourced finding, or none at all, keeps it done', () => {
    for (let total = 1; total <= 6; total++) {
      const all = runOutcome(['s1', 's2'], results, undefined, { total, unsourced: total });
      assert.equal(all.status, 'partial');
      assert.match(all.error ?? '', new RegExp(`none of the ${total} finding`));
      assert.deepEqual(all.causes, [all.error]);
      assert.equal(runOutcome(['s1', 's2'], results, undefined, { total, unsourced: total - 1 }).status, 'done');
    }
    assert.equal(runOutcome(['s1', 's2'], results, undefined, { total: 0, unsourced: 0 }).status, 'done');
  });
});
