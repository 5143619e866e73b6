/**
 * Grounding (issue 10): a claim is aligned to the span of the source it rests on — the quote
 * verbatim, then the quote normalised (case, width, spacing, punctuation), then the best run of
 * one to three sentences by token overlap (F1 ≥ FUZZY_THRESHOLD). Paraphrases with dropped and
 * substituted words must find their sentence past distractors that share some of their words; a
 * claim the window does not support must not ground at all.
 *
 * Expected spans are written out by hand from the fixture text; expected fuzzy scores are computed
 * here from the definition (F1 of the token sets), not by the code under test.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alignClaim, FUZZY_THRESHOLD, WindowAligner } from '../../src/core/markers/grounding';
import { tokenize } from '../../src/core/search/tokenize';
import { commentsPart, transcriptPart } from '../support/parts';

const TURNS = [
  'Welcome back. Last winter we talked about range anxiety on long trips.',
  'This week we drove the car through a cold week in Oslo, parking it outside every night.',
  'The battery lost about a third of its range when the temperature dropped below minus ten degrees.',
  'The heat pump helped, but not enough.',
  "Our neighbour's diesel car started fine every morning, and its range barely changed in the cold.",
  'Charging took longer too: a fast charge from 10 to 80 percent needed 40 minutes instead of 25.',
];
const EV = transcriptPart(TURNS);
const ALL = [0, EV.text.length] as const;

/** Offsets of `sentence` in the part's text (it must occur once). */
function at(text: string, sentence: string): { start: number; end: number } {
  const start = text.indexOf(sentence);
  assert.ok(start >= 0, `fixture: "${sentence}" is in the text`);
  assert.equal(text.indexOf(sentence, start + 1), -1, `fixture: "${sentence}" occurs once`);
  return { start, end: start + sentence.length };
}

/** F1 of the claim's token set against the span's token set: the definition, written independently. */
function f1(claim: string, span: string): number {
  const c = new Set(tokenize(claim));
  const s = new Set(tokenize(span));
  const inter = [...c].filter((t) => s.has(t)).length;
  return (2 * inter) / (c.size + s.size);
}

const BATTERY = 'The battery lost about a third of its range when the temperature dropped below minus ten degrees.';
const DIESEL = "Our neighbour's diesel car started fine every morning, and its range barely changed in the cold.";
const CHARGING = 'Charging took longer too: a fast charge from 10 to 80 percent needed 40 minutes instead of 25.';

describe('grounding: quotes', () => {
  test('a verbatim quote is found exactly, score 1', () => {
    const a = alignClaim(EV, ...ALL, 'lost about a third of its range', 'Range fell by a third');
    const want = at(EV.text, 'lost about a third of its range');
    assert.deepEqual(a, { ...want, match: 'exact', score: 1 });
  });

  test('a quote that also occurs before the window is found inside the window', () => {
    const part = transcriptPart(['The heater drew four kilowatts.', 'Then we parked.', 'The heater drew four kilowatts.']);
    const second = part.text.lastIndexOf('The heater');
    const a = alignClaim(part, part.segments[1]!.offset, part.text.length, 'The heater drew four kilowatts', 'Heating took 4 kW');
    assert.deepEqual(a, { start: second, end: second + 'The heater drew four kilowatts'.length, match: 'exact', score: 1 });
  });

  test('a quote ending exactly at the end of the window is in the window (not its earlier copy)', () => {
    const part = transcriptPart(['Cold mornings hurt range.', 'We measured it.', 'Cold mornings hurt range.', 'Then spring came.']);
    const second = part.text.indexOf('Cold mornings', 1);
    const to = second + 'Cold mornings hurt range'.length;
    const a = alignClaim(part, part.segments[1]!.offset, to, 'Cold mornings hurt range', 'x');
    assert.deepEqual(a, { start: second, end: to, match: 'exact', score: 1 });
  });

  test('a verbatim quote outside the window is still found in the part (exact)', () => {
    const window = at(EV.text, CHARGING);
    const a = alignClaim(EV, window.start, window.end, 'parking it outside every night', 'The car stayed outside');
    assert.deepEqual(a, { ...at(EV.text, 'parking it outside every night'), match: 'exact', score: 1 });
  });

  test('surrounding spaces of a quote do not matter', () => {
    assert.deepEqual(alignClaim(EV, ...ALL, '  lost about a third of its range \n', 'x'), { ...at(EV.text, 'lost about a third of its range'), match: 'exact', score: 1 });
  });

  test('a quote at the very start of the part, outside the window, is found there', () => {
    const window = at(EV.text, CHARGING);
    assert.deepEqual(alignClaim(EV, window.start, window.end, 'Welcome back', 'x'), { start: 0, end: 'Welcome back'.length, match: 'exact', score: 1 });
  });

  test('a quote that is in the window only in part (or after it) is not taken from there: its first occurrence in the part is', () => {
    const part = transcriptPart(['Cold mornings hurt range.', 'We measured it twice.', 'Cold mornings hurt range.']);
    const second = part.text.lastIndexOf('Cold mornings');
    const q = 'Cold mornings hurt range';
    // The window ends inside the second copy.
    assert.deepEqual(alignClaim(part, part.segments[1]!.offset, second + 6, q, 'x'), { start: 0, end: q.length, match: 'exact', score: 1 });
    // The window ends before the second copy.
    assert.deepEqual(alignClaim(part, part.segments[1]!.offset, second - 1, q, 'x'), { start: 0, end: q.length, match: 'exact', score: 1 });
  });

  test('a normalised quote at the very start of the window', () => {
    const battery = at(EV.text, BATTERY);
    assert.deepEqual(alignClaim(EV, battery.start, EV.text.length, 'THE BATTERY LOST', 'x'), { start: battery.start, end: battery.start + 'The battery lost'.length, match: 'normalised', score: 1 });
  });

  test('quotes of four characters are searched; shorter ones are not', () => {
    assert.deepEqual(alignClaim(EV, ...ALL, 'Oslo', 'city'), { ...at(EV.text, 'Oslo'), match: 'exact', score: 1 });
    // "ten" is in the text, but a three-character quote is too short to trust: the claim decides.
    const a = alignClaim(EV, ...ALL, 'ten', 'battery lost a third of its range');
    assert.equal(a?.match, 'fuzzy');
    assert.deepEqual({ start: a.start, end: a.end }, at(EV.text, BATTERY));
  });

  test('a re-cased, re-punctuated quote is found by its normalised form, at the exact original words', () => {
    const window = { start: EV.segments[1]!.offset, end: EV.text.length };
    const a = alignClaim(EV, window.start, window.end, 'BATTERY LOST -- about a THIRD, of its range!', 'Range fell by a third');
    assert.deepEqual(a, { ...at(EV.text, 'battery lost about a third of its range'), match: 'normalised', score: 1 });
  });

  test('a quote with extra spaces and full-width characters is found by its normalised form', () => {
    const a = alignClaim(EV, ...ALL, 'from  １０ ＴＯ ８０   percent', 'charging 10 to 80');
    assert.deepEqual(a, { ...at(EV.text, 'from 10 to 80 percent'), match: 'normalised', score: 1 });
  });

  test('a quote whose normalised form has four characters is searched', () => {
    assert.deepEqual(alignClaim(EV, ...ALL, 'OSLO', 'x'), { ...at(EV.text, 'Oslo'), match: 'normalised', score: 1 });
  });

  test('a quote of punctuation and spaces only (normalised to less than four characters) falls back to the claim', () => {
    const a = alignClaim(EV, ...ALL, '—— … ——', 'the heat pump helped but not enough');
    assert.deepEqual(a && { start: a.start, end: a.end, match: a.match }, { ...at(EV.text, 'The heat pump helped, but not enough.'), match: 'fuzzy' });
  });

  test('Chinese: a quote with different punctuation is found by its normalised form', () => {
    const part = transcriptPart(['我们这周在奥斯陆测试。', '电池在零下十度时，续航下降了三分之一。']);
    const a = alignClaim(part, 0, part.text.length, '零下十度时 续航下降', '冬天续航下降');
    assert.deepEqual(a, { ...at(part.text, '零下十度时，续航下降'), match: 'normalised', score: 1 });
  });

  test('a normalised quote is looked for in the window only', () => {
    const window = at(EV.text, CHARGING);
    // Re-cased text of turn 3: not verbatim anywhere, and outside the window: no normalised match.
    const a = alignClaim(EV, window.start, window.end, 'THE HEAT PUMP HELPED', 'the heat pump helped');
    assert.equal(a, undefined);
  });

  test('a truncated quote ("…") is neither verbatim nor normalised: the sentence is found by overlap', () => {
    const a = alignClaim(EV, ...ALL, 'The battery lost ... minus ten degrees', 'Range fell in the cold');
    assert.equal(a?.match, 'fuzzy');
    assert.deepEqual({ start: a.start, end: a.end }, at(EV.text, BATTERY));
  });
});

describe('grounding: paraphrases (fuzzy)', () => {
  test('a paraphrase with dropped and substituted words finds its sentence past distractors that share words', () => {
    // Shares "range" with turn 0 and "car", "range", "cold" with the diesel sentence; its sentence is the battery one.
    const claim = 'In the cold the car battery gave up roughly one third of its range below minus ten';
    const a = alignClaim(EV, ...ALL, '', claim);
    assert.ok(a, 'grounded');
    assert.equal(a.match, 'fuzzy');
    assert.deepEqual({ start: a.start, end: a.end }, at(EV.text, BATTERY));
    assert.ok(Math.abs(a.score - f1(` ${claim}`, BATTERY)) < 1e-9, `score ${a.score} is the F1 of claim and sentence`);
    // The first sentence sharing a word is not the answer, and it scores lower.
    assert.ok(f1(claim, TURNS[0]!.split('. ')[1]!) > 0 && f1(claim, TURNS[0]!.split('. ')[1]!) < a.score);
    assert.ok(f1(claim, DIESEL) > 0 && f1(claim, DIESEL) < a.score);
  });

  test('numbers written out differently still ground the charging sentence', () => {
    const claim = 'Fast charging from 10 to 80 percent took forty minutes rather than twenty-five';
    const a = alignClaim(EV, ...ALL, '', claim);
    assert.deepEqual(a && { start: a.start, end: a.end, match: a.match }, { ...at(EV.text, CHARGING), match: 'fuzzy' });
    assert.ok(Math.abs(a!.score - f1(claim, CHARGING)) < 1e-9);
  });

  test('the quote\'s words count with the claim\'s', () => {
    // The claim alone points at the diesel sentence; the (paraphrased) quote points at the battery one.
    const a = alignClaim(EV, ...ALL, 'battery lost a third, temperature below minus ten', 'range in the cold');
    assert.deepEqual(a && { start: a.start, end: a.end }, at(EV.text, BATTERY));
  });

  test('a claim the window does not support does not ground, though it shares a word with it', () => {
    const claim = 'The city council approved a new budget for public libraries in Oslo';
    assert.ok(f1(claim, TURNS[1]!) > 0, 'fixture: the claim shares "Oslo" with turn 1');
    assert.equal(alignClaim(EV, ...ALL, '', claim), undefined);
    assert.equal(alignClaim(EV, ...ALL, 'libraries got more money', 'Electric cars are popular in Norway'), undefined);
  });

  test('a claim without any word of the window does not ground', () => {
    assert.equal(alignClaim(EV, ...ALL, '', 'Interest rates rose sharply in spring'), undefined);
    assert.equal(alignClaim(EV, ...ALL, '', 'and so it was'), undefined, 'stopwords only: no tokens');
  });

  test(`the threshold: F1 = ${FUZZY_THRESHOLD} grounds, just below does not`, () => {
    const sentence = 'Alpha bravo charlie delta echo foxtrot golf hotel india juliet.';
    const part = transcriptPart([sentence]);
    const at3of10 = 'alpha bravo charlie kilo lima mike november oscar papa quebec';
    assert.equal(tokenize(at3of10).length, 10);
    assert.equal(tokenize(sentence).length, 10);
    const a = alignClaim(part, 0, part.text.length, '', at3of10);
    assert.deepEqual(a, { start: 0, end: sentence.length, match: 'fuzzy', score: FUZZY_THRESHOLD });
    assert.equal(alignClaim(part, 0, part.text.length, '', `${at3of10} romeo`), undefined, 'F1 6/21 < 0.3');
  });

  test('of two equally good sentences the first is taken', () => {
    const part = transcriptPart(['The ferry was late again.', 'Snow tyres cost extra money each winter.', 'We had coffee.', 'Snow tyres cost extra money each winter.']);
    const a = alignClaim(part, 0, part.text.length, '', 'winter tyres for snow cost extra money');
    assert.deepEqual(a && { start: a.start, end: a.end }, { start: part.segments[1]!.offset, end: part.segments[1]!.offset + part.segments[1]!.text.length });
  });

  test('a sentence that adds no word does not extend the span, before or after', () => {
    const part = transcriptPart(['And so it was.', 'Snow tyres cost extra money each winter.', 'And so it was.']);
    const a = alignClaim(part, 0, part.text.length, '', 'winter tyres for snow cost extra money');
    assert.deepEqual(a && { start: a.start, end: a.end }, { start: part.segments[1]!.offset, end: part.segments[1]!.offset + part.segments[1]!.text.length });
  });

  test('a claim that sums up consecutive turns of a transcript is grounded in all of them (up to three sentences)', () => {
    const part = transcriptPart([
      'The ferry was late again.',
      'Snow tyres cost extra money.',
      'The heater drains the battery quickly.',
      'Charging stations freeze overnight.',
      'We had coffee.',
    ]);
    const two = alignClaim(part, 0, part.text.length, '', 'snow tyres cost extra money and the heater drains the battery');
    assert.deepEqual(two && { start: two.start, end: two.end }, { start: part.segments[1]!.offset, end: part.segments[2]!.offset + part.segments[2]!.text.length });
    const three = alignClaim(part, 0, part.text.length, '', 'snow tyres cost money, the heater drains the battery, charging stations freeze');
    assert.deepEqual(three && { start: three.start, end: three.end }, { start: part.segments[1]!.offset, end: part.segments[3]!.offset + part.segments[3]!.text.length });
    const four = alignClaim(part, 0, part.text.length, '', 'ferry late, snow tyres cost money, heater drains battery, charging stations freeze');
    assert.ok(four, 'grounded');
    const sentences = [0, 1, 2, 3].filter((k) => four.start <= part.segments[k]!.offset && part.segments[k]!.offset < four.end);
    assert.equal(sentences.length, 3, 'at most three sentences');
  });

  test('in comments a span never crosses from one comment to the next; within one comment it may', () => {
    const part = commentsPart(['Snow tyres cost extra money.', 'The heater drains the battery quickly. Charging stations freeze overnight.', 'Nice video!']);
    const across = alignClaim(part, 0, part.text.length, '', 'snow tyres cost extra money and the heater drains the battery');
    assert.ok(across, 'grounded');
    const unitOf = (o: number): number => part.comments.filter((c) => c.offset <= o).length - 1;
    assert.equal(unitOf(across.start), unitOf(across.end - 1), 'one comment');
    const within = alignClaim(part, 0, part.text.length, '', 'the heater drains the battery and charging stations freeze overnight');
    assert.deepEqual(within && { start: within.start, end: within.end }, { start: part.comments[1]!.offset, end: part.comments[1]!.offset + part.comments[1]!.text.length });
  });

  test('only sentences of the window are candidates, also inside a turn the window cuts', () => {
    const turn = 'The battery lost a third of its range in the cold. Snow tyres cost extra money. The heater drew four kilowatts.';
    const part = transcriptPart([turn]);
    const snow = at(part.text, 'Snow tyres cost extra money.');
    // The window starts at the second sentence: the first (the better match) is not a candidate.
    const a = alignClaim(part, snow.start, part.text.length, '', 'the battery lost a third of its range in the cold, snow tyres');
    assert.deepEqual(a && { start: a.start, end: a.end }, snow);
    // The window starts right where the first sentence ends (on the space): still not a candidate.
    const first = at(part.text, 'The battery lost a third of its range in the cold.');
    const b = alignClaim(part, first.end, part.text.length, '', 'the battery lost a third of its range in the cold, snow tyres');
    assert.deepEqual(b && { start: b.start, end: b.end }, snow);
    // And a window that ends before the last sentence, or exactly where it starts, does not offer it.
    assert.equal(alignClaim(part, 0, snow.end, '', 'the heater drew four kilowatts'), undefined);
    assert.equal(alignClaim(part, 0, at(part.text, 'The heater drew four kilowatts.').start, '', 'the heater drew four kilowatts'), undefined);
  });

  test('turns outside the window are not candidates', () => {
    const battery = at(EV.text, BATTERY);
    assert.equal(alignClaim(EV, EV.segments[3]!.offset, EV.text.length, '', 'the battery lost a third of its range below minus ten degrees')?.start === battery.start, false);
    assert.equal(alignClaim(EV, 0, EV.segments[2]!.offset, '', 'the heat pump helped, but not enough'), undefined);
    // A window ending exactly where a turn starts does not offer that turn.
    assert.equal(alignClaim(EV, 0, EV.segments[3]!.offset - 1, '', 'the heat pump helped, but not enough'), undefined);
  });

  test('a WindowAligner serves many claims of one window, each like alignClaim', () => {
    const w = new WindowAligner(EV, 0, EV.text.length);
    const claims: [string, string][] = [
      ['', 'In the cold the car battery gave up roughly one third of its range below minus ten'],
      ['THE HEAT PUMP HELPED', 'heat pump'],
      ['parking it outside every night', ''],
      ['', 'Interest rates rose sharply in spring'],
      ['', 'Fast charging from 10 to 80 percent took forty minutes rather than twenty-five'],
    ];
    for (const [q, c] of claims) assert.deepEqual(w.align(q, c), alignClaim(EV, 0, EV.text.length, q, c), `${q} | ${c}`);
    assert.equal(w.normalisedText().norm, 'welcome back last winter we talked about range anxiety on long trips this week we drove the car through a cold week in oslo parking it outside every night the battery lost about a third of its range when the temperature dropped below minus ten degrees the heat pump helped but not enough our neighbour s diesel car started fine every morning and its range barely changed in the cold charging took longer too a fast charge from 10 to 80 percent needed 40 minutes instead of 25 ');
    assert.deepEqual(w.sentenceTokens().list.map((x) => x.text), ['Welcome back.', 'Last winter we talked about range anxiety on long trips.', ...TURNS.slice(1)]);
    // The normalised text of a window that starts on punctuation or a space has no leading space.
    const mid = new WindowAligner(EV, EV.text.indexOf(', parking'), EV.text.indexOf(' every night'));
    assert.equal(mid.normalisedText().norm, 'parking it outside');
    assert.equal(mid.normalisedText().map[0], EV.text.indexOf('parking'));
  });
});
