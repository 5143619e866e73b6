/**
 * checkModelReading (src/core/ask/modelReading.ts): a model's reading is kept only where the
 * question, the session or the corpus backs it. Inputs are composed: question templates in
 * English, Spanish and Chinese × how the number is written (digits, words, ordinals, Chinese
 * numerals) × what the model claims.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkModelReading, numbersInQuestion, type ModelReading } from '../../src/core/ask/modelReading';
import type { LinkedEntity, TimeConstraint } from '../../src/core/ask/query';
import { parsedQuery } from '../support/parsedQuery';

const NO_CITATION = [
  'What is the main conclusion of the report?',
  'Summarize what the committee decided.',
  '¿Cuál es la conclusión principal del informe?',
  '¿Qué opinan los comentarios sobre la pelea?',
  '报告的主要结论是什么？',
  '會議最後決定了什麼？',
];
/** A number written in the question, each way a question writes it, with its value. */
const WRITTEN: [string, number][] = [
  ['[3]', 3], ['source 7', 7], ['the fourth source', 4], ['citation twelve', 12], ['la fuente 5', 5], ['la segunda fuente', 2], ['引用三', 3], ['來源 8', 8], ['第十五条', 15],
];
const READING = (over: Partial<ModelReading> = {}): ModelReading => ({ intent: 'search_semantic', entities: [], citationNumbers: [], timeConstraint: null, ...over });
const unlinked = (text: string): LinkedEntity => ({ text, label: text, kind: 'unlinked', itemIds: [], fromSession: false });
const linked = (text: string): LinkedEntity => ({ text, label: text, kind: 'name', itemIds: ['a'], fromSession: false });

describe('citation numbers must be written in the question', () => {
  for (const q of NO_CITATION) {
    for (const invented of [5404319552844595, 3, 1, 42]) {
      test(`${q} + model [${invented}] → dropped, not a citation lookup`, () => {
        const rules = parsedQuery({ question: q, intent: 'summary' });
        const r = checkModelReading(q, [], READING({ intent: 'citation_lookup', citationNumbers: [invented] }), rules);
        assert.deepEqual(r.citationNumbers, []);
        assert.equal(r.intent, 'summary');
        assert.ok(r.notes.some((n) => n.includes(String(invented))), r.notes.join(' | '));
      });
    }
  }
  for (const [phrase, n] of WRITTEN) {
    test(`"What does ${phrase} say?" + model [${n}] → kept`, () => {
      const q = `What does ${phrase} say?`;
      const r = checkModelReading(q, [], READING({ intent: 'citation_lookup', citationNumbers: [n] }), parsedQuery({ question: q }));
      assert.deepEqual(r.citationNumbers, [n]);
      assert.equal(r.intent, 'citation_lookup');
      assert.deepEqual(r.notes, []);
    });
  }
  test('numbersInQuestion reads digits, words, ordinals and Chinese numerals', () => {
    for (const [phrase, n] of WRITTEN) assert.ok(numbersInQuestion(phrase).has(n), phrase);
  });
  test("the rules' citation numbers win over the model's", () => {
    const q = 'What do [2] and [5] say?';
    const r = checkModelReading(q, [], READING({ intent: 'citation_lookup', citationNumbers: [9] }), parsedQuery({ question: q, intent: 'citation_lookup', citationNumbers: [2, 5] }));
    assert.deepEqual(r.citationNumbers, [2, 5]);
  });
});

describe('entities must link to the corpus or be said', () => {
  const cases: [string, string[], LinkedEntity, boolean][] = [
    ['What did Daniel say about parking?', [], unlinked('Daniel'), true],
    ['¿Qué dijo Ilia sobre la dieta?', [], unlinked('Ilia'), true],
    ['张三对电池说了什么？', [], unlinked('张三'), true],
    ['And what did he say then?', ['What did Daniel say?'], unlinked('Daniel'), true],
    ['What is the main conclusion?', [], unlinked('Zorblax Industries'), false],
    ['¿Qué opinan de la pelea?', [], unlinked('Floyd Mayweather'), false],
    ['What is the main conclusion?', [], linked('ICSI'), true],
  ];
  for (const [q, session, e, kept] of cases) {
    test(`${q} · ${e.text} (${e.kind}) → ${kept ? 'kept' : 'dropped'}`, () => {
      const r = checkModelReading(q, session, READING({ entities: [e] }), parsedQuery({ question: q }));
      assert.equal(r.entities.length, kept ? 1 : 0);
      assert.equal(r.notes.some((n) => n.includes(e.text)), !kept);
    });
  }
});

describe('time: the rules decide when they read a phrase; a model limit needs a time word', () => {
  const T = (startS: number, endS: number | null): TimeConstraint => ({ startS, endS });
  test('disagreeing with the rules: reported, rules kept', () => {
    for (const [rules, model] of [[T(0, 600), T(0, 900)], [T(1200, null), T(1200, 1800)], [T(60, 120), null]] as [TimeConstraint, TimeConstraint | null][]) {
      const q = 'What happens in that part?';
      const r = checkModelReading(q, [], READING({ timeConstraint: model }), parsedQuery({ question: q, timeConstraint: rules }));
      assert.deepEqual(r.timeConstraint, rules);
      assert.equal(r.notes.length, 1);
    }
  });
  test('agreeing within 5 s: no note', () => {
    const q = 'What was said in the first ten minutes?';
    const r = checkModelReading(q, [], READING({ timeConstraint: T(2, 603) }), parsedQuery({ question: q, timeConstraint: T(0, 600) }));
    assert.deepEqual(r.timeConstraint, T(0, 600));
    assert.deepEqual(r.notes, []);
  });
  for (const q of ['What did they say in the last ten minutes?', '¿Qué dicen en la última media hora?', '最后十分钟讲了什么？', 'What is said around 12:30?']) {
    test(`${q}: the model's limit is kept where the rules read none`, () => {
      const r = checkModelReading(q, [], READING({ timeConstraint: T(100, 200) }), parsedQuery({ question: q }));
      assert.deepEqual(r.timeConstraint, T(100, 200));
    });
  }
  for (const q of NO_CITATION) {
    test(`${q}: a model time limit with no time word is dropped`, () => {
      const r = checkModelReading(q, [], READING({ timeConstraint: T(600, 900) }), parsedQuery({ question: q }));
      assert.equal(r.timeConstraint, null);
      assert.ok(r.notes.some((n) => /no time/.test(n)));
    });
  }
});
