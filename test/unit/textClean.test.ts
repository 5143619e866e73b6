/**
 * Cleaning (issue 11): annotations ({disfmarker}, [Música], (risas)…), filler runs (uh, um, eh,
 * 嗯, 呃…) and stutters leave marker texts and quotes, while spans stay exact offsets into the
 * original text. Fixtures are short excerpts in the shape of the dev corpora (QMSum meetings,
 * Spanish auto-captions, VCSum meetings); expected offsets are located in the fixture by hand.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cleanSpan, cleanText, contentWordCount, noiseIn } from '../../src/core/text/clean';
import { assertNearLinear } from '../support/scaling';

/** Offsets of `first` … `last` (inclusive) in `text`, located from `from`. */
function between(text: string, first: string, last: string, from = 0): { start: number; end: number } {
  const start = text.indexOf(first, from);
  assert.ok(start >= 0, `"${first}" in fixture`);
  const end = text.indexOf(last, start) + last.length;
  assert.ok(end >= start + first.length, `"${last}" in fixture`);
  return { start, end };
}

/** The first and last tokens of a text: whitespace-delimited words, single CJK characters. */
function edgeTokens(s: string): string[] {
  const words = s.split(/\s+/);
  const cut = (w: string, last: boolean): string => (/^[\u4e00-\u9fff]/.test(w) ? (last ? w.replace(/[。！？]+$/, '').slice(-1) : w[0]!) : w);
  return [cut(words[0]!, false), cut(words.at(-1)!, true)];
}

describe('cleanSpan: exact spans trimmed of noise, readable text without it', () => {
  const cases: Array<{ name: string; text: string; first: string; last: string; readable: string }> = [
    {
      name: 'QMSum turn: leading filler and trailing annotation trimmed, inner disfluency and stutter removed',
      text: 'Um , so we {disfmarker} we decided , uh , to go . {vocalsound}',
      first: 'so we',
      last: 'go .',
      readable: 'so we decided to go.',
    },
    {
      name: 'QMSum turn: tokenised contractions joined, repeated "it \'s" collapsed',
      text: "And in some ways it 's {disfmarker} it 's {disfmarker} it 's very similar , um , uh , to before {disfmarker}",
      first: 'And in',
      last: 'before',
      readable: "And in some ways it's very similar to before",
    },
    {
      name: 'QMSum turn: "Mm - hmm" and cut-off fragments ("m much") go',
      text: 'Mm - hmm . The result of m much thinking is , you know , a sheet .',
      first: 'The result',
      last: 'sheet .',
      readable: 'The result of much thinking is a sheet.',
    },
    {
      name: 'Spanish captions: [Música] and [ __ ] trimmed, repeated words collapsed, "eh" removed',
      text: '[Música]\nmuchos años muchos años 7 años eh [ __ ] ya ya va a entrar\n[Aplausos]',
      first: 'muchos',
      last: 'entrar',
      readable: 'muchos años 7 años ya va a entrar',
    },
    {
      name: 'Spanish question: the opening ¿ stays with its sentence',
      text: '(risas) ¿Qué pasa? eh',
      first: '¿Qué',
      last: 'pasa?',
      readable: '¿Qué pasa?',
    },
    {
      name: 'VCSum turn: 嗯/呃 and a clause-initial 啊 go, 我我 and 这个这个 collapse, the particle 啊 after 好 stays',
      text: '嗯，我我觉得这个这个方案呃很好啊。啊那么所所以我们就做。',
      first: '我我',
      last: '做。',
      readable: '我觉得这个方案很好啊。那么所以我们就做。',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = cleanSpan(c.text, 0, c.text.length);
      assert.ok(r);
      const want = between(c.text, c.first, c.last);
      assert.deepEqual({ start: r.start, end: r.end }, want);
      assert.equal(r.text, c.readable);
      assert.deepEqual(noiseIn(r.text), [], 'no noise left inside the readable text');
      // No annotation or filler at the edges of the exact span.
      const slice = c.text.slice(r.start, r.end);
      for (const edge of edgeTokens(slice)) assert.deepEqual(noiseIn(edge), [], `"${edge}" at an edge of "${slice}"`);
    });
  }

  test('offsets are into the original text when the span starts inside it', () => {
    const text = 'Grad F: OK . {vocalsound} Uh , the the budget is four thousand dollars , um . Next turn .';
    const start = text.indexOf('{vocalsound}');
    const end = text.indexOf('Next');
    const r = cleanSpan(text, start, end);
    assert.ok(r);
    assert.equal(text.slice(r.start, r.end), 'the the budget is four thousand dollars');
    assert.equal(r.text, 'the budget is four thousand dollars');
  });

  test('a span with nothing but noise is undefined', () => {
    for (const s of ['{vocalsound}', 'Mm - hmm .', 'Uh , um {disfmarker}', '[Música]', '嗯，呃。', '  ', '', '(risas) [Aplausos] ♪']) {
      assert.equal(cleanSpan(s, 0, s.length), undefined, JSON.stringify(s));
    }
    assert.equal(cleanSpan('abc', 2, 1), undefined);
  });

  test('content words that look like fillers stay', () => {
    const keep = [
      'este año ha sido duro',
      'the umbrella was ahead',
      'It is 5 mm wide.',
      'check out this you[tube] channel',
      'as shown in [1] above',
      'fue (como dijo) increíble',
      '谢谢大家，我们看看这个。',
      '好啊，我们常常见面。',
      'I know that that is wrong.',
      'one one two three',
      'Do you know, the answer?',
    ];
    for (const s of keep) {
      assert.deepEqual(noiseIn(s), [], s);
      assert.equal(cleanText(s), s.replace(' [1] ', ' [1] '), s);
    }
  });
});

describe('cleanText and noiseIn', () => {
  test('line by line: lines of noise disappear, line breaks and blank lines stay', () => {
    const text = '[Música]\n[Música]\nthe the plan is um ready\n\n\nsecond {gap} paragraph\nlast line , uh ,';
    assert.equal(cleanText(text), 'the plan is ready\n\nsecond paragraph\nlast line');
  });

  test('noiseIn names the annotations, filler runs and stutters as written', () => {
    assert.deepEqual(noiseIn('Eh , um , {vocalsound} this this works [Music]'), ['Eh um {vocalsound}', 'this this', '[Music]']);
    assert.deepEqual(noiseIn('嗯，我我觉得'), ['嗯', '我我']);
    assert.deepEqual(noiseIn('A clean sentence.'), []);
  });

  test('cleaned text has no noise left (idempotent on a mixed excerpt)', () => {
    const excerpt = [
      "Uh , I {disfmarker} I mean , that {disfmarker} that 's my feeling , you know , that these are really hard uh , problems .",
      'So , um , So basically the result of m much thinking since the last time we met , um , but not as much writing .',
      'pues ya ya va a entrar el camarero [Música] estamos bien estamos listos',
      '我我其实对这个问题也没有什么研究。嗯，就是就是说那个那个媒介。',
    ].join('\n');
    const once = cleanText(excerpt);
    assert.deepEqual(noiseIn(once), []);
    assert.equal(cleanText(once), once);
  });

  test('contentWordCount counts words after cleaning', () => {
    assert.equal(contentWordCount('Um , the the plan {disfmarker} is ready .'), 4);
    assert.equal(contentWordCount('嗯，我我觉得'), 2);
    assert.equal(contentWordCount('{vocalsound}'), 0);
  });
});

describe('bounded work', () => {
  test('a few MB of transcript-like text, and pathological inputs, clean in linear time', async () => {
    const turn = "Um , so we {disfmarker} we decided , uh , to go with the the ninety hertz filter . {vocalsound} It 's fine . ";
    const inputs: Array<[string, string]> = [
      ['qmsum-like', turn.repeat(Math.ceil(2_000_000 / turn.length))],
      ['one repeated word', 'word '.repeat(400_000)],
      ['braces', '{'.repeat(2_000_000)],
      ['brackets', '[ '.repeat(1_000_000)],
      ['parentheses', '(risas '.repeat(300_000)],
      ['stutters', '我我这个这个嗯'.repeat(150_000)],
      ['one long line of punctuation', '., '.repeat(700_000)],
    ];
    for (const [name, s] of inputs) {
      const out = cleanText(s);
      const r = cleanSpan(s, 0, s.length);
      const noise = noiseIn(s.slice(0, 200_000));
      // The work grows linearly with the text: a quarter of it against the whole.
      await assertNearLinear({ name, n: Math.floor(s.length / 4), prepare: (n) => s.slice(0, n), run: (x: string) => [cleanText(x), cleanSpan(x, 0, x.length), noiseIn(x.slice(0, Math.floor(x.length / 10)))], tries: 2 });
      assert.ok(out.length <= s.length, name);
      if (r) assert.ok(r.start >= 0 && r.end <= s.length && r.start < r.end, name);
      assert.ok(Array.isArray(noise));
    }
    const big = cleanText(inputs[0]![1]);
    assert.ok(big.startsWith('so we decided to go with the ninety hertz filter. It\'s fine. so we decided'), big.slice(0, 80));
    assert.deepEqual(noiseIn(big.slice(0, 100_000)), []);
  });
});
