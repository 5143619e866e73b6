/**
 * The language detectors look at three slices of a long text (`sampleRanges`): joining just those
 * slices gives the same answer as the whole text, which lets a caller holding a long text in
 * pieces (the search index's kept windows, keptJudgement.ts) read 6,000 characters instead of
 * 20,000. Checked on generated texts whose regions are in different languages, at lengths around
 * every boundary of the sample.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage, detectLanguageEsEnZh, sampleRanges } from '../../src/core/llm/langDetect';
import { rng as seeded } from '../support/testing';

const WORDS = {
  en: 'the battery prices went up and we think that it was about the supply chain so they know'.split(' '),
  es: 'los precios de la batería subieron porque la fábrica cambió de proveedor y eso es lo que creo'.split(' '),
  zh: ['电池', '价格', '上涨', '因为', '工厂', '更换', '供应商', '我们', '觉得'],
  mark: ['¿', '¡', 'ñ', '😀', '𝐀', '—', '…', '\n', '12', '  '],
};
type Region = keyof typeof WORDS;

function region(r: () => number, kind: Region, chars: number): string {
  let s = '';
  const list = WORDS[kind];
  while (s.length < chars) s += list[Math.floor(r() * list.length)]! + (kind === 'zh' ? '' : ' ');
  return s.slice(0, chars);
}

function joined(text: string): string {
  return sampleRanges(text.length).map(([a, b]) => text.slice(a, b)).join('');
}

test('sampleRanges: the whole text when short, else three slices of 2,000 inside the text', () => {
  assert.deepEqual(sampleRanges(0), [[0, 0]]);
  assert.deepEqual(sampleRanges(6_000), [[0, 6_000]]);
  for (const n of [6_001, 7_777, 20_000, 123_457]) {
    const r = sampleRanges(n);
    assert.equal(r.length, 3);
    assert.deepEqual(r[0], [0, 2_000]);
    assert.deepEqual(r[2], [n - 2_000, n]);
    assert.equal(r[1]![1] - r[1]![0], 2_000);
  }
});

test('the detectors give the same answer on the joined slices as on the whole text (regions in different languages)', () => {
  const r = seeded(20261127);
  const kinds: Region[] = ['en', 'es', 'zh', 'mark'];
  const seen = new Set<string>();
  let n = 0;
  for (const length of [1, 50, 1_999, 2_000, 2_001, 5_999, 6_000, 6_001, 6_002, 9_000, 12_345, 19_999, 20_000]) {
    for (let k = 0; k < 60; k++) {
      // Up to five regions of random lengths: what the start, the middle and the end say differs.
      let text = '';
      const regions = 1 + Math.floor(r() * 5);
      for (let i = 0; i < regions; i++) text += region(r, kinds[Math.floor(r() * kinds.length)]!, Math.ceil(length / regions));
      text = text.slice(0, length);
      const whole = detectLanguageEsEnZh(text);
      assert.equal(detectLanguageEsEnZh(joined(text)), whole, `length ${text.length}`);
      assert.equal(detectLanguage(joined(text)), detectLanguage(text), `length ${text.length}`);
      seen.add(whole);
      n++;
    }
  }
  assert.deepEqual([...seen].sort(), ['en', 'es', 'zh']);
  assert.ok(n > 700);
});
