/**
 * Offline query understanding: every intent, every citation form, time phrases in three
 * languages, entity linking against the entity index of the demo corpus and of small
 * hand-made corpora, and coreference from the session. Questions here are new ones, not the
 * dev labels of the corpora ask.jsonl files.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadCorpus } from '../../src/core/corpus/loader';
import { askCorpus, describeQuery, entityStrings } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import { findCitationNumbers } from '../../src/core/ask/citationForms';
import { coreName, EntityIndex, parseChapters, parseDuration } from '../../src/core/ask/entityIndex';
import { findTimeConstraint } from '../../src/core/ask/timePhrases';
import { understandWithRules } from '../../src/core/ask/understandRules';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import type { Corpus, CorpusItem, TranscriptSegment } from '../../src/core/corpus/types';

/** A corpus in memory: items with speaker turns (and optional timestamps). */
function corpusOf(items: { id: string; title: string; turns: [string | null, string, number?][]; meta?: Record<string, unknown> }[]): Corpus {
  const out: CorpusItem[] = items.map((it) => {
    let offset = 0;
    const segments: TranscriptSegment[] = it.turns.map(([speaker, text, start], index) => {
      const seg: TranscriptSegment = { index, text, offset, source: { startLine: index, startColumn: 0, endLine: index, endColumn: text.length }, pieces: [], ...(speaker ? { speaker } : {}), ...(start !== undefined ? { start, end: start + 10 } : {}) };
      offset += text.length + 1;
      return seg;
    });
    const text = segments.map((s) => s.text).join('\n');
    return {
      id: it.id, title: it.title, meta: it.meta ?? {}, ignoredFiles: [], contentHash: it.id, wordCount: text.split(/\s+/).length,
      transcript: { kind: 'transcript', file: { path: `/x/${it.id}.json`, relPath: `${it.id}.json` }, format: 'json', segments, text, wordCount: text.split(/\s+/).length },
    };
  });
  return { root: '/nonexistent', items: out, problems: [], stats: { items: out.length, transcripts: out.length, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } };
}

const corpus = corpusOf([
  {
    id: 'lab', title: 'Lab meeting on acoustic models',
    turns: [
      ['Professor D', 'Let us start. Maria Lopez sent the new Aurora results yesterday.', 0],
      ['PhD A', 'The noise robustness improved by 12 percent on the Aurora task.', 30],
      ['PhD B', 'I disagree, the gains come from the silence model, not from the features.', 60],
      ['Professor D', 'We should check that with Maria Lopez before the deadline.', 90],
      ['PhD A', 'I think the latency is still too high for the mobile front end.', 120],
    ],
  },
  {
    id: 'panel', title: '圆桌：新能源汽车',
    turns: [
      ['speaker_1', '大家好，我叫王晓明，我在比亚迪负责电池研发。', 0],
      ['speaker_2', '我是李娜，来自宁德时代。我认为固态电池还需要五年。', 40],
      ['speaker_1', '王老师说得对，比亚迪和宁德时代在电池路线上有分歧。', 80],
    ],
  },
]);
corpus.items.push(
  ...corpusOf([
    {
      id: 'show', title: 'Product show',
      turns: [['Host', 'Welcome to the show. Today we look at pricing.', 0], ['Marketing', 'Our marketing budget grew by a third this year.', 20], ['Host', 'Pricing stays the same for now.', 40]],
    },
  ]).items,
);
const { index: entities } = EntityIndex.build(corpus);
const understand = (question: string, itemId?: string, session: string[] = []) => understandWithRules({ question, itemId, session }, { entities, corpus });

describe('intents', () => {
  const cases: [string, string | undefined, string][] = [
    ['Give me an overview of this lab meeting', 'lab', 'summary'],
    ['概括一下这场圆桌的主要内容', 'panel', 'summary'],
    ['Resúmeme el episodio, por favor', undefined, 'summary'],
    ['What did PhD B say about the silence model?', 'lab', 'search_entity'],
    ['Did PhD A and PhD B disagree on the features?', 'lab', 'search_relation'],
    ['比亚迪和宁德时代在电池路线上有什么分歧？', 'panel', 'search_relation'],
    ['Why was the latency still a problem?', 'lab', 'search_semantic'],
    ['Which themes recur across all the meetings?', undefined, 'analyze_topic'],
    ['¿Qué temas se tratan a lo largo de la charla?', undefined, 'analyze_topic'],
    ['What do viewers think about the host?', undefined, 'analyze_reception'],
    ['网友对这期节目怎么看？', undefined, 'analyze_reception'],
    ['¿Qué opinan los espectadores del invitado?', undefined, 'analyze_reception'],
    ['Which moments would make good TikTok clips?', 'lab', 'recommend_clip'],
    ['哪些片段适合做成短视频？', 'panel', 'recommend_clip'],
    ['¿Qué fragmentos servirían como clips cortos?', undefined, 'recommend_clip'],
    ['What does [2] say?', 'lab', 'citation_lookup'],
  ];
  for (const [q, item, intent] of cases) test(`${q} → ${intent}`, () => assert.equal(understand(q, item).intent, intent));
  test('a comment search without a reaction is a semantic search over the comments', () => {
    const u = understand('Which comments link to other websites?');
    assert.equal(u.intent, 'search_semantic');
    assert.equal(u.part, 'comments');
  });
});

describe('citation forms', () => {
  const cases: [string, number[]][] = [
    ['What does [3] say?', [3]], ['Compare [1][5]', [1, 5]], ['see [2, 4]', [2, 4]], ['引用3的原文', [3]], ['引用 3 是谁说的', [3]],
    ['来源3', [3]], ['來源 3 的內容', [3]], ['source 3 please', [3]], ['sources 2 and 6', [2, 6]], ['citation 7', [7]], ['citation #12', [12]],
    ['la fuente 4', [4]], ['fuentes 2 y 5', [2, 5]], ['第二条引用', [2]], ['出处5', [5]],
  ];
  for (const [q, nums] of cases) test(q, () => assert.deepEqual(findCitationNumbers(q).numbers, nums));
  test('no citation in ordinary uses of the words', () => {
    for (const q of ['收入来源是什么', '引用一下他的话', 'What sources did they use?', 'array[3] is out of range', 'la fuente de energía']) assert.deepEqual(findCitationNumbers(q).numbers, [], q);
  });
});

describe('time phrases', () => {
  const cases: [string, number, number | null][] = [
    ['in the first 10 minutes', 0, 600], ['during the first hour', 0, 3600], ['after the 45-minute mark', 2700, null], ['between minute 5 and 9', 300, 540],
    ['from 0:30:00 to 0:35:00', 1800, 2100], ['in the second hour', 3600, 7200], ['the first half hour', 0, 1800],
    ['前五分钟', 0, 300], ['前十五分鐘', 0, 900], ['第30分钟以后', 1800, null], ['20分钟之后', 1200, null], ['第二个小时', 3600, 7200], ['从10:00到12:00', 600, 720],
    ['en los primeros 8 minutos', 0, 480], ['después del minuto 25', 1500, null], ['a partir del minuto 3', 180, null], ['entre el minuto 2 y el 7', 120, 420], ['la primera hora', 0, 3600],
  ];
  for (const [q, s, e] of cases) test(q, () => assert.deepEqual(findTimeConstraint(q)?.constraint, { startS: s, endS: e }));
  test('"the last N minutes" needs the duration', () => {
    assert.equal(findTimeConstraint('in the last 5 minutes'), null);
    assert.deepEqual(findTimeConstraint('in the last 5 minutes', 3000)?.constraint, { startS: 2700, endS: 3000 });
  });
  test('numbers that are not times give no constraint', () => {
    for (const q of ['after 3 goals', 'the first 2 speakers', 'más de 100 comentarios']) assert.equal(findTimeConstraint(q), null, q);
  });
});

describe('entities', () => {
  test('speaker labels, by label and by role', () => {
    assert.deepEqual(entityStrings(understand('Did PhD A and PhD B agree?', 'lab')), ['PhD A', 'PhD B']);
    assert.deepEqual(entityStrings(understand('What did the professor decide?', 'lab')), ['Professor D']);
  });
  test('a one-word label: "the host" is the speaker, "for marketing" is the word', () => {
    assert.deepEqual(entityStrings(understand('What did the host say about pricing?', 'show')), ['Host']);
    assert.deepEqual(entityStrings(understand('Summarize the findings for marketing.', 'show')), []);
    assert.deepEqual(entityStrings(understand('Did Marketing agree with the host?', 'show')), ['Marketing', 'Host']);
  });
  test('names in the text, with capitals; common words and acronyms are not names', () => {
    assert.deepEqual(entityStrings(understand('What did the team hear from Maria Lopez?', 'lab')), ['Maria Lopez']);
    assert.deepEqual(entityStrings(understand('What was said about the VAD and the latency?', 'lab')), []);
  });
  test('Chinese names introduced in the text and organisations', () => {
    assert.deepEqual(entityStrings(understand('李娜对固态电池怎么看？', 'panel')), ['李娜']);
    assert.deepEqual(entityStrings(understand('比亚迪和宁德时代有什么分歧？', 'panel')), ['比亚迪', '宁德时代']);
  });
  test('a self-introduction links a name to its speaker', () => {
    const e = understand('王晓明负责什么？', 'panel').entities[0];
    assert.equal(e?.text, '王晓明');
    assert.equal(e?.speaker, 'speaker_1');
  });
  test('speaker labels without honorifics', () => {
    assert.equal(coreName('Right Hon. Justin Trudeau'), 'Justin Trudeau');
    assert.equal(coreName('Kirsty Williams AM'), 'Kirsty Williams');
    assert.equal(coreName('The Acting Chair (Mrs. Carol Hughes)'), 'Acting Chair');
  });
});

describe('coreference from the session', () => {
  test('a pronoun takes the first entity of the latest question that named one', () => {
    const u = understand('And what did he say about the deadline?', 'lab', ['What did the professor think of the Aurora results?']);
    assert.deepEqual(entityStrings(u), ['Professor D']);
    assert.equal(u.intent, 'search_entity');
    assert.match(u.resolvedQuery, /Professor D/);
  });
  test('Chinese and Spanish pronouns', () => {
    assert.deepEqual(entityStrings(understand('她还说了什么？', 'panel', ['李娜来自哪家公司？'])), ['李娜']);
    assert.deepEqual(entityStrings(understand('¿Y qué dice ella de las baterías?', 'panel', ['¿Quién es Li Na?', '李娜来自哪家公司？'])), ['李娜']);
  });
  test('a plural pronoun takes every entity of that question', () => {
    assert.deepEqual(entityStrings(understand('Did they agree in the end?', 'lab', ['What did PhD A and PhD B say about the features?'])), ['PhD A', 'PhD B']);
  });
  test('a possessive next to a name of the question belongs to that name', () => {
    assert.deepEqual(entityStrings(understand('¿Qué cuenta Maria Lopez sobre su equipo?', 'lab', ['What did PhD A say about latency?'])), ['Maria Lopez']);
    assert.deepEqual(entityStrings(understand('Did he agree with Maria Lopez?', 'lab', ['What did PhD A say about latency?'])), ['Maria Lopez', 'PhD A']);
  });
  test('no pronoun, no entity from the session; a citation lookup takes none', () => {
    assert.deepEqual(entityStrings(understand('What about the deadline?', 'lab', ['What did PhD A say?'])), []);
    assert.deepEqual(entityStrings(understand('What does [1] say about him?', 'lab', ['What did PhD A say?'])), []);
  });
});

describe('entity index extras', () => {
  test('durations and chapters', () => {
    assert.equal(parseDuration('PT1H2M3S'), 3723);
    assert.equal(parseDuration(90), 90);
    assert.deepEqual(parseChapters('Intro text\n0:00 Start\n5:31 Who is Pep\n1:02:03 The end'), [{ startS: 0, title: 'Start' }, { startS: 331, title: 'Who is Pep' }, { startS: 3723, title: 'The end' }]);
    assert.deepEqual(parseChapters('only 0:00 one line'), []);
  });
});

describe('asking the demo corpus', () => {
  test('an English question finds the Chinese item, hits say which strategies matched', async () => {
    const demo = await loadCorpus(path.join(__dirname, '../../samples/demo-corpus'));
    const index = CorpusIndex.build(demo);
    const ctx = await openAskContext(demo, index, { markers: new Map() });
    const r = await askCorpus(ctx, { question: 'What did the reviewers say about the winter range of the heat pump?' });
    assert.ok(r.hits.length > 0);
    for (const h of r.hits) assert.ok(h.matchedBy.length > 0 && h.source, 'each hit has strategies and a source');
    assert.match(describeQuery(r.query), /rules$/);
  });
});
