/**
 * The sentiment fast path (src/core/markers/sentiment.ts) returns exactly what the code before it
 * returned (test/support/sentimentReference.ts, kept verbatim): the language guess counted in one
 * pass over the code points, the text folded once for the guess and the scoring, its tokens read
 * from a table of code point classes and looked up by hash where they stand, the idioms searched
 * only when a text may hold one, the Chinese entries found by their first character.
 *
 * Compared with Object.is on generated texts of the lexicons' own words and every character class the
 * expressions treat apart (test/support/lexiconTexts.ts), for `polarity(text)`, `polarity(text, lang)`
 * in each language and `sentimentLanguage(text)`; and on the comments and transcript turns of the dev
 * corpora when present.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LIKE_AFTER_EN, NEGATIVE_EN, NEGATIVE_ES, NEGATORS_EN, NEGATORS_ES, PHRASES_EN, PHRASES_ES, POSITIVE_EN, POSITIVE_ES,
} from '../../src/core/markers/commentLexicons';
import { polarity, sentimentLanguage, type SentimentLanguage } from '../../src/core/markers/sentiment';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { devCorpusTexts } from '../support/devCorpusTexts';
import { hashColliders, LEXICON_PIECES, lexiconTexts, variant } from '../support/lexiconTexts';
import { polarity as referencePolarity, sentimentLanguage as referenceLanguage } from '../support/sentimentReference';

const LANGS: readonly SentimentLanguage[] = ['en', 'es', 'zh'];
const IDIOMS = [...PHRASES_EN, ...PHRASES_ES].map(([p]) => p.replace(/'/g, ''));

/** Asserts the fast path equals the reference on a text; returns the reference's guess and polarity. */
function check(text: string, withLangs: boolean): { lang: SentimentLanguage; score: number } {
  const show = (): string => JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text);
  const lang = referenceLanguage(text);
  assert.equal(sentimentLanguage(text), lang, `sentimentLanguage ${show()}`);
  const score = referencePolarity(text);
  assert.ok(Object.is(polarity(text), score), `polarity ${show()}: ${polarity(text)} ≠ ${score}`);
  if (withLangs) {
    for (const l of LANGS) {
      const want = referencePolarity(text, l);
      assert.ok(Object.is(polarity(text, l), want), `polarity ${l} ${show()}: ${polarity(text, l)} ≠ ${want}`);
    }
  }
  return { lang, score };
}

test('polarity and sentimentLanguage equal the reference on 12,000 generated texts', () => {
  const texts = lexiconTexts(20_260_601, 12_000);
  const langs = { en: 0, es: 0, zh: 0 };
  let scored = 0;
  let strong = 0;
  let idioms = 0;
  let long = 0;
  for (const text of texts) {
    const { lang, score } = check(text, true);
    langs[lang]++;
    if (score !== 0) scored++;
    if (Math.abs(score) >= 2) strong++;
    const lower = text.toLowerCase().replace(/['’]/g, '');
    if (IDIOMS.some((p) => lower.includes(p))) idioms++;
    if (text.length > 5_000) long++;
  }
  // The texts reach every branch: each language guessed, scores of both signs, idioms, texts polarity cuts.
  assert.ok(langs.en > 1_000 && langs.es > 1_000 && langs.zh > 1_000, JSON.stringify(langs));
  assert.ok(scored > 5_000 && strong > 2_000, `${scored} scored, ${strong} at |score| ≥ 2`);
  assert.ok(idioms > 200, `${idioms} texts with an idiom`);
  assert.ok(long > 50, `${long} texts over 5,000 characters`);
});

test('polarity equals the reference on every piece alone and in the places that matter', () => {
  // Each piece as it is, capitalised, upper-cased, decomposed, accented and full-width; alone, twice, after
  // "not"/"no"/"不", before "like", between ¿ and ?, across a line break.
  const r = mulberry32(99);
  let n = 0;
  for (const piece of LEXICON_PIECES) {
    const forms = new Set([piece, piece.toUpperCase(), ...Array.from({ length: 6 }, () => variant(piece, r))]);
    for (const p of forms) {
      for (const text of [p, `${p} ${p}`, `not ${p}`, `no ${p}`, `不${p}`, `${p} like it`, `I ${p}, like`, `¿${p}?`, `${p}\n${p}`]) {
        check(text, true);
        n++;
      }
    }
  }
  assert.ok(n > 10_000, `${n} texts`);
});

test('words whose hash is a lexicon word\'s are not taken for it', () => {
  // The words the scoring and the language guess look up (sentiment words, negators, contrast, cue and idiom
  // words), each next to other words of the same hash in the fast path's table.
  const words = [
    ...POSITIVE_EN, ...NEGATIVE_EN, ...POSITIVE_ES, ...NEGATIVE_ES, ...NEGATORS_EN, ...NEGATORS_ES, ...LIKE_AFTER_EN, 'like', 'but', 'however', 'pero',
    'aunque', 'sino', 'que', 'de', 'el', 'la', 'es', 'muy', 'y', 'the', 'is', 'and', 'to', 'of', 'it', 'this', 'that', 'you', 'was', 'so', 'song',
    ...IDIOMS.flatMap((p) => p.split(' ')),
  ];
  let n = 0;
  for (const w of new Set(words)) {
    for (const c of hashColliders(w)) {
      for (const text of [c, `not ${c}`, `no ${c}`, `${c} like it`, `I ${c}`, `${w} ${c} ${w}`, `${c} ${c} ${c} ${w}`, `${c} wait`, `cant ${c}`]) {
        check(text, true);
        n++;
      }
    }
  }
  assert.ok(n > 2_000, `${n} texts`);
});

test('polarity and sentimentLanguage equal the reference on the dev corpora', async (t) => {
  const texts = await devCorpusTexts();
  if (!texts) {
    t.skip('no dev corpora');
    return;
  }
  let n = 0;
  for (const text of texts) {
    check(text, false);
    n++;
  }
  assert.ok(n > 1_000, `${n} texts`);
});
