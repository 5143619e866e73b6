/**
 * The terms probe (termsProbe.ts) is exact: every token of a text holds its probe in the text's NFKC
 * lower-cased form, and `in` answers as tokenizing the text would, on generated texts of stemmed
 * English words ("-ies", "-sses", "-ing", "-ed", "-ly", "-s"), apostrophes, capitals, full-width
 * letters, Chinese runs, Spanish, Greek and stopwords, with term sets drawn from their own tokens and
 * from other words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenize } from '../../src/core/search/tokenize';
import { TermsProbe, tokenProbe } from '../../src/core/search/termsProbe';
import { rng as seeded } from '../support/testing';

const WORDS = [
  'studies', 'study', 'studied', 'policies', 'policy', 'classes', 'class', 'passes', 'running', 'run', 'hoped', 'hopping', 'stopped', 'quickly', 'early',
  'regulations', 'regulation', 'regulatory', 'costs', 'cost', 'bus', 'analysis', 'ies', 'flies', 'dies', "don't", 'it’s', "host's", 'Regulation', 'STUDIES',
  'ｒｅｇｕｌａｔｉｏｎ', 'ﬁnance', 'Ωmega', 'ΣΟΦΙΑ', 'σοφίας', 'año', 'regulación', 'políticas', '电池价格', '监管', '价', 'ev续航500', '12', '3.5', 'the', 'and', 'of',
  'Straße', 'İstanbul', 'café', 'cafe\u0301', 'x', 'yy', 'toys', 'days', 'keys', 'emptiness', 'replies', 'ladies',
];
const SEPS = [' ', ', ', '. ', '\n', ' — ', '', '!', '“', '”'];

function text(r: () => number): string {
  let s = '';
  for (let i = Math.floor(r() * 14); i > 0; i--) s += WORDS[Math.floor(r() * WORDS.length)]! + SEPS[Math.floor(r() * SEPS.length)]!;
  return s;
}

test('every token of a text holds its probe in the text NFKC lower-cased', () => {
  const r = seeded(25);
  let tokens = 0;
  for (let k = 0; k < 5_000; k++) {
    const t = text(r);
    const norm = t.normalize('NFKC').toLowerCase();
    for (const tok of tokenize(t)) {
      assert.ok(norm.includes(tokenProbe(tok)), `${JSON.stringify(tok)} of ${JSON.stringify(t)}`);
      tokens++;
    }
  }
  assert.ok(tokens > 20_000, `${tokens}`);
});

test('TermsProbe.in answers as tokenizing does, and mayBeIn is false only when no term is there', () => {
  const r = seeded(26);
  const vocabulary = [...new Set(WORDS.flatMap((w) => tokenize(w)))];
  let yes = 0;
  let no = 0;
  for (let k = 0; k < 5_000; k++) {
    const terms = new Set<string>();
    for (let i = 1 + Math.floor(r() * 3); i > 0; i--) terms.add(r() < 0.8 ? vocabulary[Math.floor(r() * vocabulary.length)]! : ['weather', 'stud', 'regul', '天气'][Math.floor(r() * 4)]!);
    const probe = new TermsProbe(terms);
    const t = text(r);
    const want = tokenize(t).some((x) => terms.has(x));
    assert.equal(probe.in(t), want, `${[...terms].join(',')} in ${JSON.stringify(t)}`);
    if (want) assert.ok(probe.mayBeIn(t));
    if (want) yes++;
    else no++;
  }
  assert.ok(yes > 500 && no > 500, `${yes} holding, ${no} not`);
  assert.equal(new TermsProbe(new Set()).in('anything'), false);
});
