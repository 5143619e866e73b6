/**
 * The clip strategy's word count (`countWordsFast`) counts what its two expressions count — runs of
 * letters and digits, plus half the Han characters — on generated texts of every script it meets:
 * Latin with accents, digits, Chinese (radicals too), Japanese kana, emoji and other astral
 * characters, lone surrogates, punctuation and spaces.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countWordsFast } from '../../src/core/ask/strategies/clip';
import { rng } from '../support/testing';

const byExpressions = (text: string): number => (text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) + (text.match(/\p{Script=Han}/gu)?.length ?? 0) / 2;

test('the one-pass count equals the two expressions on 20,000 generated texts', () => {
  const r = rng(777);
  const pieces = ['word', 'Año', 'niño', '42', '3.5', '电池', '价格', '⺀', '〇', '々', 'カタカナ', 'ひら', '😂', '𠀀', '𝐀', '\ud800', '\udc00', ' ', '  ', ',', '。', '！', '-', "'", '\u00a0', '\n', 'é', 'ß', 'Ω', 'ж', '٣', '①', '½'];
  let words = 0;
  for (let k = 0; k < 20_000; k++) {
    const text = Array.from({ length: Math.floor(r() * 14) }, () => pieces[Math.floor(r() * pieces.length)]!).join(r() < 0.5 ? '' : ' ');
    const want = byExpressions(text);
    assert.equal(countWordsFast(text), want, JSON.stringify(text));
    words += want;
  }
  assert.ok(words > 50_000, `${words} words counted`);
});
