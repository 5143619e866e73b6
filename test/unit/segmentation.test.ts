/**
 * Segmentation (issue 11): punctuated turns split by `Intl.Segmenter` (never across a turn),
 * punctuated caption cues joined into sentences that may span cues, and unpunctuated
 * auto-captions (the Spanish podcast) cut into pseudo-sentences at pauses, speaker changes,
 * noise-only lines and length bounds. Offsets are always exact: `part.text.slice(start, end)`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_SENTENCE_CHARS, PSEUDO_SENTENCE, partSentences, segmentSentences, transcriptStyle, type Sentence } from '../../src/core/markers/sentences';
import { countWords } from '../../src/core/text/words';
import { commentsPart, transcriptPart, type Turn } from '../support/parts';
import { assertNearLinear } from '../support/scaling';

function assertExact(text: string, sentences: Sentence[]): void {
  let last = -1;
  for (const s of sentences) {
    assert.equal(text.slice(s.start, s.end), s.text, 'text is the exact slice');
    assert.equal(s.text, s.text.trim(), 'trimmed');
    assert.ok(s.start >= last, 'in order, not overlapping');
    last = s.end;
  }
}

/** Caption lines in the shape of the Spanish podcast's auto-captions (no punctuation). */
const CAPTION_LINES = [
  'pues ya va a entrar el camarero', 'estamos bien estamos listos Andrea', 'entonces nosotros cómo os llamáis', 'yo con él sí que coincidí',
  'muchos años 7 años', 'vamos a aprovechar para contar', 'cómo ocurrió la idea de hacer este', 'podcast vamos a contarlo',
  'y lo cuadramos con calma y tal porque no', 'y digo bueno claro no te preocupes si', 'está tu avísame y', 'no sé si a las 8:15 me dice',
  'dónde estás y le digo que vengo', 'del aeropuerto directo a cenar', 'con un amigo que hace tiempo que', 'no le veo y me dice a ver',
];

describe('punctuated text: Intl.Segmenter, bounded and exact', () => {
  test('sentences of turns, never across a turn; numbers and addresses do not end a sentence; semicolons do', () => {
    const part = transcriptPart([
      'It costs 2.31 dollars. See youtu.be/x! Ok?',
      'First clause; second clause. Mr Smith agreed',
      '{vocalsound}',
      'Um , yeah .',
    ]);
    const s = partSentences(part);
    assertExact(part.text, s);
    assert.deepEqual(s.map((x) => [x.text, x.unit]), [
      ['It costs 2.31 dollars.', 0],
      ['See youtu.be/x!', 0],
      ['Ok?', 0],
      ['First clause;', 1],
      ['second clause.', 1],
      ['Mr Smith agreed', 1],
      ['Um , yeah .', 3],
    ]);
    assert.ok(s.every((x) => x.lastUnit === undefined));
    assert.equal(transcriptStyle(part), 'turns');
  });

  test('comments: sentences per comment, a line break ends a sentence', () => {
    const part = commentsPart(['Great video\nThanks for the tips!', '你好。这个视频很好！']);
    const s = partSentences(part);
    assertExact(part.text, s);
    assert.deepEqual(s.map((x) => [x.text, x.unit]), [['Great video', 0], ['Thanks for the tips!', 0], ['你好。', 1], ['这个视频很好！', 1]]);
  });

  test('segmentSentences reads long texts in windows: same sentences as a short read, linear time', async () => {
    const unit = 'The battery lost 38 percent of its range. It was 2.31 dollars per kWh; prices fell! Why? ';
    const short = segmentSentences(unit.repeat(3), 0, 0).map((x) => x.text);
    assert.deepEqual(short.slice(0, 5), ['The battery lost 38 percent of its range.', 'It was 2.31 dollars per kWh;', 'prices fell!', 'Why?', 'The battery lost 38 percent of its range.']);
    const long = unit.repeat(30_000); // 2.7 MB
    const s = segmentSentences(long, 10, 4);
    assert.equal(s.length, 120_000);
    await assertNearLinear({ name: 'segmentSentences', n: 7_500, prepare: (n) => unit.repeat(n), run: (t: string) => segmentSentences(t, 10, 4), tries: 2 });
    for (const x of s.slice(0, 200)) assert.equal(long.slice(x.start - 10, x.end - 10), x.text);
    assert.equal(s.at(-1)!.end, 10 + long.trimEnd().length);
  });

  test('a sentence without an end is cut into pieces of at most MAX_SENTENCE_CHARS at spaces', async () => {
    const text = 'word '.repeat(1_000_000); // 5 MB, no punctuation
    const s = segmentSentences(text, 0, 0);
    await assertNearLinear({ name: 'segmentSentences without an end', n: 250_000, prepare: (n) => 'word '.repeat(n), run: (t: string) => segmentSentences(t, 0, 0), tries: 2 });
    assert.ok(s.length > 1000 && s.every((x) => x.text.length <= MAX_SENTENCE_CHARS));
    assert.equal(s.at(-1)!.end, text.trimEnd().length);
    assert.ok(s.every((x) => x.text.startsWith('word') && x.text.endsWith('word')));
  });
});

describe('punctuated captions: sentences across cues', () => {
  test('cues that stop mid-sentence are joined; unit is the first cue, lastUnit the last', () => {
    const cues: Turn[] = [
      { text: 'Our survey of 1,200 employees found that', start: 0, end: 3 },
      { text: '64 percent now work from home', start: 3, end: 6 },
      { text: 'at least two days a week. Managers reported', start: 6, end: 9 },
      { text: 'that onboarding takes three weeks longer.', start: 9, end: 12 },
      { text: '[Music]', start: 12, end: 20 },
      { text: 'Welcome back to the show and', start: 20, end: 23 },
      { text: 'today we talk about cycling.', start: 23, end: 26 },
    ];
    const part = transcriptPart(cues);
    assert.equal(transcriptStyle(part), 'captions');
    const s = partSentences(part);
    assertExact(part.text, s);
    assert.deepEqual(s.map((x) => [x.text.replace(/\n/g, ' '), x.unit, x.lastUnit]), [
      ['Our survey of 1,200 employees found that 64 percent now work from home at least two days a week.', 0, 2],
      ['Managers reported that onboarding takes three weeks longer.', 2, 3],
      ['Welcome back to the show and today we talk about cycling.', 5, 6],
    ]);
  });
});

describe('unpunctuated captions: pseudo-sentences', () => {
  test('lines are joined up to the length bounds; offsets exact; every word kept once', () => {
    const turns = Array.from({ length: 12 }, () => CAPTION_LINES).flat();
    const part = transcriptPart(turns);
    assert.equal(transcriptStyle(part), 'unpunctuated');
    const s = partSentences(part);
    assertExact(part.text, s);
    const words = s.map((x) => countWords(x.text));
    assert.ok(words.every((w) => w <= PSEUDO_SENTENCE.maxWords), `max ${Math.max(...words)}`);
    assert.ok(words.slice(0, -1).every((w) => w >= PSEUDO_SENTENCE.minWords), `min ${Math.min(...words.slice(0, -1))}`);
    assert.ok(words.filter((w) => w <= PSEUDO_SENTENCE.targetWords).length >= words.length * 0.9);
    assert.equal(words.reduce((a, b) => a + b, 0), countWords(part.text), 'every word in exactly one pseudo-sentence');
    // A pseudo-sentence spans several lines: unit is the first, lastUnit the last.
    for (const x of s) {
      const first = part.segments[x.unit]!;
      const last = part.segments[x.lastUnit ?? x.unit]!;
      assert.ok(x.start >= first.offset && x.start < first.offset + first.text.length);
      assert.ok(x.end > last.offset && x.end <= last.offset + last.text.length);
    }
    assert.ok(s.some((x) => x.lastUnit !== undefined && x.lastUnit > x.unit));
  });

  test('cut at pauses of a second or more, at speaker changes and at lines of noise', () => {
    let t = 0;
    const line = (text: string, speaker: string, gap = 0.2): Turn => {
      t += gap;
      const turn = { text, speaker, start: t, end: t + 2 };
      t += 2;
      return turn;
    };
    const turns: Turn[] = [
      line('pues ya va a entrar el camarero', 'A'),
      line('estamos bien estamos listos', 'A'),
      line('entonces nosotros cómo os llamáis', 'A', 1.5), // a pause before
      line('yo con él sí que coincidí', 'A'),
      line('muchos años siete años', 'B'), // a speaker change
      line('vamos a aprovechar para contar', 'B'),
      line('[Música]', 'B'),
      line('cómo ocurrió la idea de hacer este podcast', 'B'),
    ];
    const part = transcriptPart(turns);
    assert.equal(transcriptStyle(part), 'unpunctuated');
    const s = partSentences(part);
    assertExact(part.text, s);
    assert.deepEqual(s.map((x) => [x.unit, x.lastUnit]), [[0, 1], [2, 3], [4, 5], [7, undefined]]);
    assert.equal(s[0]!.text, 'pues ya va a entrar el camarero\nestamos bien estamos listos');
  });

  test('one long unpunctuated line is cut inside at the length bound, exactly and in linear time', async () => {
    const line = 'word '.repeat(780_000).trim(); // 3.9 M characters
    const part = transcriptPart([line]);
    const s = partSentences(part);
    await assertNearLinear({ name: 'partSentences of one long line', n: 195_000, prepare: (n) => transcriptPart(['word '.repeat(n).trim()]), run: (p: ReturnType<typeof transcriptPart>) => partSentences(p), tries: 2 });
    assert.ok(s.every((x) => countWords(x.text) <= PSEUDO_SENTENCE.maxWords && x.text.length <= MAX_SENTENCE_CHARS));
    assert.equal(s.length, Math.ceil(780_000 / PSEUDO_SENTENCE.targetWords));
    assert.equal(s.at(-1)!.end, line.length);
    for (const x of s.slice(0, 100)) assert.equal(part.text.slice(x.start, x.end), x.text);
  });

  test('Chinese captions without punctuation and without spaces are cut too', () => {
    const part = transcriptPart(Array.from({ length: 30 }, () => '然后我们今天讨论一下这个方案的成本和效率问题'));
    const s = partSentences(part);
    assertExact(part.text, s);
    assert.ok(s.length > 1 && s.every((x) => countWords(x.text) <= PSEUDO_SENTENCE.maxWords));
  });
});
