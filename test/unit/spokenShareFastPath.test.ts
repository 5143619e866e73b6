/**
 * The talk share's fast path (src/core/text/spokenShare.ts) returns exactly what the code before it
 * returned (test/support/spokenShareReference.ts, kept verbatim): its words and Han characters read in
 * one pass over the code points from a table of their classes instead of `matchAll` over the text with
 * its Han characters blanked, the Chinese markers found by their first character instead of one
 * alternation.
 *
 * Compared with Object.is on generated texts of talk words, fillers, Chinese markers, the sentiment
 * lexicons and every character class the expressions treat apart (test/support/lexiconTexts.ts), on
 * each piece alone and next to apostrophes, digits and Han characters, and on the comments and
 * transcript turns of the dev corpora when present.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spokenShare } from '../../src/core/text/spokenShare';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { devCorpusTexts } from '../support/devCorpusTexts';
import { hashColliders, LEXICON_PIECES, lexiconTexts, variant } from '../support/lexiconTexts';
import { spokenShare as referenceShare } from '../support/spokenShareReference';


/** Talk words, fillers in their shapes, and words whose apostrophe, digits or Han characters the word expression reads apart. */
const SPOKEN = [
  ...`uh um uhm umm ummmm uhhh erm er hmm hmmm hm mm mmm Mmm mhm ah ahh eh ehm em mm-hmm uh-huh hmm-mm mm-mm uh-uh yeah yep nah okay ok
    so well like you know i mean kind of sort of actually basically literally gonna wanna o sea bueno pues este tío vale 嗯 呃 啊 额 哦 噢`.split(/\s+/),
  "I'm", 'I’m', "you're", 'you’re', 'y’all', "we'll", 'we’ll', "don't", 'don’t', "'s", '’s', "5's", 'abc\'5', 'x’', '’x', "it''s", 'a’’b',
  "a'我", '我\'a', 'a’𝐀', "a'\ud800", 'a’\udc00', 'a我b', '我a我', 'mp3', '2nd', '3.5', '٣', '①', 'カタカナ', '𠀀', '𝐀𝐁', 'İ', 'Σ', 'ǅ',
];

function check(text: string): number {
  const want = referenceShare(text);
  const got = spokenShare(text);
  assert.ok(Object.is(got, want), `spokenShare ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…(${text.length})` : text)}: ${got} ≠ ${want}`);
  return want;
}

test('spokenShare equals the reference on 20,000 generated texts', () => {
  let talky = 0;
  let all = 0;
  let some = 0;
  for (const text of lexiconTexts(20_260_602, 20_000, SPOKEN)) {
    const share = check(text);
    if (share > 0) talky++;
    if (share === 1) all++;
    if (share > 0 && share < 1) some++;
  }
  // The texts reach every outcome: none, some and all of a text talk.
  assert.ok(talky > 8_000 && all > 150 && some > 5_000, `${talky} with talk, ${all} all talk, ${some} partly`);
});

test('spokenShare equals the reference on every piece alone and next to apostrophes, digits and Han characters', () => {
  const r = mulberry32(98);
  let n = 0;
  for (const piece of [...LEXICON_PIECES, ...SPOKEN]) {
    const forms = new Set([piece, piece.toUpperCase(), ...Array.from({ length: 4 }, () => variant(piece, r))]);
    for (const p of forms) {
      for (const text of [p, `${p} ${p}`, `${p}'s`, `${p}’${p}`, `${p}'5`, `5${p}`, `我${p}我`, `${p}嗯`, `um ${p}, uh`, `${p}\n${p}`]) {
        check(text);
        n++;
      }
    }
  }
  assert.ok(n > 10_000, `${n} texts`);
});

test('words whose hash is a talk word\'s are not taken for it', () => {
  let n = 0;
  for (const w of new Set(SPOKEN.map((p) => p.toLowerCase()))) {
    for (const c of hashColliders(w)) {
      for (const text of [c, `${c} ${w}`, `${w} ${c}`, `${c} ${c} ${w} ${w}`]) {
        check(text);
        n++;
      }
    }
  }
  assert.ok(n > 200, `${n} texts`);
});

test('spokenShare equals the reference past its memo\'s bound (70,000 distinct words)', () => {
  // The memo of judged words is emptied at 50,000 words; the words after it are judged again.
  const r = mulberry32(97);
  const letters = 'abcdefghijklmnopqrstuvwxyzñéü';
  const word = (): string => Array.from({ length: 3 + Math.floor(r() * 6) }, () => letters[Math.floor(r() * letters.length)]!).join('');
  let n = 0;
  for (let k = 0; k < 700; k++) {
    const text = Array.from({ length: 100 }, () => (r() < 0.2 ? SPOKEN[Math.floor(r() * 40)]! : word())).join(' ');
    check(text);
    n += 100;
  }
  assert.ok(n >= 70_000, `${n} words`);
});

test('spokenShare equals the reference on the dev corpora', async (t) => {
  const texts = await devCorpusTexts();
  if (!texts) {
    t.skip('no dev corpora');
    return;
  }
  let n = 0;
  for (const text of texts) {
    check(text);
    n++;
  }
  assert.ok(n > 1_000, `${n} texts`);
});
