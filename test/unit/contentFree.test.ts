/**
 * Content-free units (issue 21, src/core/text/contentFree.ts), on generated inputs in English,
 * Spanish and Chinese (simplified and traditional): backchannels, filler runs, repetitions and
 * annotations composed with punctuation are always content-free; long talk of hedges around at
 * most two content words is content-free; content sentences never are — short ones ("Prices
 * rose.", "El precio sube.", "价格上涨了") are kept unless judged strictly (what must stand alone,
 * a marker or a finding), full ones are kept either way, with or without a backchannel, filler or
 * annotation around them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentProfile, contentWords, isContentFree } from '../../src/core/text/contentFree';
import { CaseGenerator, langOf, SCRIPTS } from '../support/contentFreeCases';

const N = 150;

describe('isContentFree: generated backchannels, fillers and annotations', () => {
  for (const script of SCRIPTS) {
    test(`${script}: every composed backchannel / filler run / annotation is content-free, with and without the language given`, () => {
      const g = new CaseGenerator(11 + script.length);
      const missed: string[] = [];
      for (let i = 0; i < N; i++) {
        const text = g.contentFree(script);
        if (!isContentFree(text, langOf(script)) || !isContentFree(text)) missed.push(`${text} → ${JSON.stringify(contentProfile(text, langOf(script)))}`);
      }
      assert.deepEqual(missed, []);
    });

    test(`${script}: long talk of hedges around at most two content words is content-free`, () => {
      const g = new CaseGenerator(23 + script.length);
      const missed: string[] = [];
      for (let i = 0; i < N; i++) {
        const text = g.hedgeTalk(script, i % 3);
        if (!isContentFree(text, langOf(script))) missed.push(`${text} → ${contentWords(text, langOf(script)).join('|')}`);
      }
      assert.deepEqual(missed, []);
    });

    test(`${script}: full content sentences are never content-free, salted with a backchannel, filler or annotation or not, strict or not`, () => {
      const g = new CaseGenerator(37 + script.length);
      const flagged: string[] = [];
      for (let i = 0; i < N; i++) {
        const text = g.content(script);
        if (isContentFree(text, langOf(script)) || isContentFree(text, langOf(script), { strict: true }) || isContentFree(text)) flagged.push(`${text} → ${contentWords(text, langOf(script)).join('|')}`);
      }
      assert.deepEqual(flagged, []);
    });

    test(`${script}: short real content (two content words) is kept, and is content-free only when judged strictly`, () => {
      const g = new CaseGenerator(41 + script.length);
      const wrong: string[] = [];
      for (let i = 0; i < N; i++) {
        const text = g.shortContent(script);
        if (isContentFree(text, langOf(script))) wrong.push(`kept? ${text} → ${contentWords(text, langOf(script)).join('|')}`);
        if (!isContentFree(text, langOf(script), { strict: true })) wrong.push(`strict? ${text} → ${contentWords(text, langOf(script)).join('|')}`);
      }
      assert.deepEqual(wrong, []);
    });
  }

  test('the issue\'s examples: each one in its class', () => {
    for (const t of ['Yeah .', 'Hmm yeah .', 'Mm-hmm .', '{vocalsound}', 'Or like I dunno, some of \' you can kind of think see as like', "That's all there is to say, I guess about it.", "so, yeah, I think we're OK, until we get the new disk."]) assert.ok(isContentFree(t, 'en'), t);
    for (const [t, l] of [['sí', 'es'], ['vale', 'es'], ['claro', 'es'], ['嗯', 'zh'], ['对对对', 'zh'], ['好的好的', 'zh'], ['[Música]', 'es']] as const) assert.ok(isContentFree(t, l), t);
    for (const [t, l] of [['Prices rose 5 %.', 'en'], ['El precio sube.', 'es'], ['价格上涨了', 'zh'], ['價格上漲了', 'zh']] as const) assert.ok(!isContentFree(t, l), t);
  });

  test('content words: numbers in digits count, stopwords-iso words, fillers and annotations do not; traditional characters are judged as simplified', () => {
    assert.deepEqual(contentWords('Um, prices rose 5 % {vocalsound} in 2023, yeah.', 'en'), ['prices', 'rose', '5', '2023']);
    assert.deepEqual(contentWords('我們的價格上漲了', 'zh'), contentWords('我们的价格上涨了', 'zh'));
    assert.equal(contentProfile('[Música] ♪ (risas)', 'es').words, 0);
  });

  test('linear: a text 100 times longer makes at most ~100 times the words, and the verdict of a long content-free run stays content-free', () => {
    const g = new CaseGenerator(5);
    const unit = Array.from({ length: 20 }, () => g.contentFree('en')).join(' ');
    const long = Array.from({ length: 100 }, () => unit).join(' ');
    assert.ok(isContentFree(long, 'en'));
    assert.ok(contentProfile(long, 'en').words <= 100 * contentProfile(unit, 'en').words + 100);
  });
});
