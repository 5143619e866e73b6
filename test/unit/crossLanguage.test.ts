/**
 * Questions across languages, offline (issue 23): a question's content terms are translated
 * between Chinese and English with CC-CEDICT, and Spanish names are looked up as English ones,
 * only when the items asked about hold another language than the question's.
 *
 * Generated inputs: dictionary entries picked (seeded) from CC-CEDICT itself — unambiguous ones,
 * so that the expected translation is known: one sense, one word, the only entry with that
 * English gloss — composed into question templates in Chinese (simplified and traditional),
 * English and Spanish, over small generated corpora (meetings of filler turns, one turn per
 * picked entry saying it in the corpus's language). Checked: the translations land in
 * `translatedKeywords` (and the understood line); the keyword strategy then finds the turn in the
 * other language, which it does not without them; a same-language corpus (or a scope of
 * same-language items) gets no translation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeQuery } from '../../src/core/ask/ask';
import { cedict, cedictLoaded, cleanGloss, glossesOf, MAX_GLOSS_WORDS, type CedictEntry } from '../../src/core/ask/crossLanguage/cedict';
import { glossIndex, glossKey } from '../../src/core/ask/crossLanguage/glossIndex';
import { EntityIndex } from '../../src/core/ask/entityIndex';
import type { ParsedQuery } from '../../src/core/ask/query';
import { questionTerms } from '../../src/core/ask/questionTerms';
import { keywordStrategy } from '../../src/core/ask/strategies/keyword';
import type { AskContext } from '../../src/core/ask/types';
import { understandWithRules } from '../../src/core/ask/understandRules';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { QUERY_STOPWORDS, STOPWORDS, tokenize } from '../../src/core/search/tokenize';
import { isStopword } from '../../src/core/text/stopwords';
import { itemOf, transcriptPart, type Turn } from '../support/parts';
import { rng } from '../support/testing';

/** Ordinary meeting talk with no picked word in it. */
const FILLER = {
  en: [
    'We should book the room for Thursday afternoon .', 'The schedule slipped by a week again .', 'Somebody has to send the minutes around .',
    'I will check with the others and come back to you .', 'Let us move on to the next point .', 'That sounds fine to me .',
    'The numbers are in the shared folder .', 'We ran out of time last week .', 'Can everybody hear me ?', 'Okay , good .',
  ],
  zh: ['我们下周四下午再开一次会。', '时间安排又推迟了一个星期。', '请大家把纪要发一下。', '我跟其他人确认一下再回复你。', '我们看下一个问题吧。', '我觉得可以。', '数据都放在共享文件夹里了。', '上周时间不够了。', '大家能听到吗？', '好的，好的。'],
};

const HAN_ONLY = /^\p{Script=Han}+$/u;
const fillerText = (lang: 'en' | 'zh'): string => FILLER[lang].join(' ').toLowerCase();

/** `n` entries of the dictionary that `keep` accepts, looked at in a seeded random order. */
function pickEntries(n: number, seed: number, keep: (e: CedictEntry) => boolean): CedictEntry[] {
  const dict = cedict();
  const r = rng(seed);
  const out: CedictEntry[] = [];
  const seen = new Set<number>();
  for (let tries = 0; out.length < n && tries < 200_000; tries++) {
    const i = Math.floor(r() * dict.size);
    if (seen.has(i)) continue;
    seen.add(i);
    const e = dict.entry(i);
    if (keep(e)) out.push(e);
  }
  return out;
}

/** One sense that is one lower-case word, the only entry of its headwords and of its gloss, said in no filler. */
function unambiguous(e: CedictEntry): boolean {
  const dict = cedict();
  const index = glossIndex();
  const [gloss, ...more] = glossesOf(e);
  if (!gloss || more.length || !/^[a-z]{5,12}$/.test(gloss)) return false;
  const chars = [...e.simplified].length;
  if (chars < 2 || chars > 3 || !HAN_ONLY.test(e.simplified) || !HAN_ONLY.test(e.traditional)) return false;
  if (dict.lookup(e.simplified).length !== 1 || dict.lookup(e.traditional).length !== 1) return false;
  if (index.exact(glossKey(gloss)).length !== 1 || index.head(glossKey(gloss)).length) return false;
  if (STOPWORDS.has(gloss) || QUERY_STOPWORDS.has(gloss) || isStopword(gloss, 'en') || fillerText('en').includes(gloss) || FILLER.zh.join('').includes(e.simplified)) return false;
  return tokenize(gloss).length === 1;
}

/** One sense that is a name of one capitalised word ("Huawei"), the only entry with it. */
function aName(e: CedictEntry): boolean {
  const dict = cedict();
  const index = glossIndex();
  const [gloss, ...more] = glossesOf(e);
  if (!gloss || more.length || !/^[A-Z][a-z]{4,10}$/.test(gloss)) return false;
  const chars = [...e.simplified].length;
  if (chars < 2 || chars > 4 || !HAN_ONLY.test(e.simplified) || dict.lookup(e.simplified).length !== 1) return false;
  return index.exact(glossKey(gloss)).length === 1 && !index.head(glossKey(gloss)).length && !isStopword(gloss.toLowerCase(), 'es');
}

/** A meeting of filler turns, with `said` spoken one per turn at seeded places. */
function meeting(id: string, lang: 'en' | 'zh', said: readonly string[], seed: number): CorpusItem {
  const r = rng(seed);
  const turns: Turn[] = [];
  const speakers = lang === 'en' ? ['Anna', 'Ben', 'Carla'] : ['张伟', '李娜', '王芳'];
  let t = 0;
  const push = (text: string): void => {
    turns.push({ text, speaker: speakers[turns.length % speakers.length]!, start: t, end: t + 5 });
    t += 6;
  };
  for (const s of said) {
    for (let k = 0; k < 4; k++) push(FILLER[lang][Math.floor(r() * FILLER[lang].length)]!);
    push(s);
  }
  for (let k = 0; k < 4; k++) push(FILLER[lang][Math.floor(r() * FILLER[lang].length)]!);
  return itemOf(id, { transcript: transcriptPart(turns, `${id}/transcript.json`) });
}

function contextOf(items: CorpusItem[]): AskContext {
  const corpus: Corpus = {
    root: '/corpus',
    items,
    problems: [],
    stats: { items: items.length, transcripts: items.length, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 },
  };
  return { corpus, index: CorpusIndex.build(corpus), entities: EntityIndex.build(corpus).index, markers: new Map() };
}

const understand = (ctx: AskContext, question: string, itemId?: string): ParsedQuery =>
  understandWithRules({ question, ...(itemId ? { itemId } : {}) }, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index });

const ZH_TEMPLATES = ['关于{w}说了什么？', '会上是怎么讨论{w}的？', '总结一下关于{w}的讨论', '大家对{w}有什么看法？'];
const ZH_HANT_TEMPLATES = ['關於{w}說了什麼？', '會上是怎麼討論{w}的？', '總結一下關於{w}的討論'];
const EN_TEMPLATES = ['What was said about {w}?', 'Summarize the discussion of {w}.', 'What did the group think about {w}?', 'How was {w} discussed in the meeting?'];
const ES_NAME_TEMPLATES = ['¿Qué se dijo sobre {w}?', '¿Qué opinan de {w} en la reunión?', 'Resume lo que se habló de {w}.'];

const fill = (template: string, w: string): string => template.replace('{w}', w);
/** The name with an accent on its last vowel, as Spanish may write a foreign name ("Shanghái"). */
const accented = (name: string): string => name.replace(/([aeiou])([^aeiou]*)$/u, (_, v: string, rest: string) => `${{ a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' }[v as 'a']}${rest}`);

// The same-language checks come first: the dictionary must not even be loaded for them.
describe('a corpus in the question\'s own language gets no translation', () => {
  test('English questions over English meetings and Chinese over Chinese: no translatedKeywords, and the dictionary is never loaded', () => {
    const en = contextOf([meeting('en-1', 'en', ['The battery costs too much for the budget .', 'The zeppelin was delayed .'], 1)]);
    const zh = contextOf([meeting('zh-1', 'zh', ['电池太贵了，超出预算。', '飞艇推迟了。'], 2)]);
    let n = 0;
    const same: [AskContext, string][] = [
      ...['battery', 'budget', 'zeppelin'].flatMap((w) => EN_TEMPLATES.map((t): [AskContext, string] => [en, fill(t, w)])),
      ...['电池', '预算', '飞艇'].flatMap((w) => ZH_TEMPLATES.map((t): [AskContext, string] => [zh, fill(t, w)])),
    ];
    for (const [ctx, question] of same) {
      const q = understand(ctx, question);
      assert.ok(q.keywords.length, question);
      assert.equal(q.translatedKeywords, undefined, question);
      n++;
    }
    assert.equal(n, 24);
    assert.equal(cedictLoaded(), false, 'a same-language question loaded the dictionary');
  });
});

describe('CC-CEDICT as loaded', () => {
  test('every cleaned gloss of every entry is plain English of at most four words, and both headwords find their entry', () => {
    const dict = cedict();
    assert.ok(dict.size > 100_000, `${dict.size} entries`);
    const r = rng(7);
    for (let k = 0; k < 5000; k++) {
      const e = dict.entry(Math.floor(r() * dict.size));
      for (const g of glossesOf(e)) {
        assert.doesNotMatch(g, /[()[\]\p{Script=Han}]/u, `${e.simplified}: «${g}»`);
        assert.ok(g.split(' ').length <= MAX_GLOSS_WORDS, `${e.simplified}: «${g}»`);
        assert.doesNotMatch(g, /^(?:to|a|an|the) /i, `${e.simplified}: «${g}»`);
      }
      for (const w of [e.simplified, e.traditional]) assert.ok(dict.lookup(w).some((x) => x.simplified === e.simplified && x.english.join() === e.english.join()), w);
    }
    assert.deepEqual(cleanGloss('CL:個|个[ge4]'), []);
  });
});

/** The picked entries, their corpus and their compositions (made in the tests, not when the suites are collected: the same-language test comes first). */
function chineseOverEnglish(): { ctx: AskContext; cases: { e: CedictEntry; word: string; question: string }[]; asked: { e: CedictEntry; word: string; question: string }[] } {
  // The headword must be one of the question's terms for its translation to be asked for (segmentation is jieba's): kept when it is in a plain question.
  const picked = pickEntries(24, 11, (e) => unambiguous(e) && questionTerms(fill(ZH_TEMPLATES[0]!, e.simplified), [], 'search_semantic').includes(e.simplified));
  const ctx = contextOf([0, 1, 2].map((m) => meeting(`en-${m}`, 'en', picked.filter((_, i) => i % 3 === m).map((e) => `I think the ${glossesOf(e)[0]} matters here .`), 20 + m)));
  const cases = picked.flatMap((e) => [
    ...ZH_TEMPLATES.map((t) => ({ e, word: e.simplified, question: fill(t, e.simplified) })),
    ...(e.traditional !== e.simplified ? ZH_HANT_TEMPLATES.map((t) => ({ e, word: e.traditional, question: fill(t, e.traditional) })) : []),
  ]);
  return { ctx, cases, asked: cases.filter((c) => questionTerms(c.question, [], 'search_semantic').includes(c.word)) };
}

describe('Chinese questions over English meetings', () => {
  let made: ReturnType<typeof chineseOverEnglish> | undefined;
  const setup = (): ReturnType<typeof chineseOverEnglish> => (made ??= chineseOverEnglish());

  test('the English gloss of the headword lands in translatedKeywords, from the headword as written, and on the understood line', () => {
    const { ctx, cases, asked } = setup();
    assert.ok(cases.length >= 96 && asked.length >= 0.8 * cases.length, `${asked.length} of ${cases.length} compositions have their headword as a term`);
    for (const c of asked) {
      const q = understand(ctx, c.question);
      const gloss = glossesOf(c.e)[0]!;
      assert.ok(q.translatedKeywords?.some((t) => t.term === gloss && t.lang === 'en' && t.from === c.word), `«${c.question}»: ${JSON.stringify(q.translatedKeywords)} lacks ${gloss}`);
      assert.ok(describeQuery(q).includes(`${c.word} → "${gloss}"`), describeQuery(q));
    }
  });

  test('the keyword strategy finds the English turn that says it first, and nothing without the translation', async () => {
    const { ctx, asked } = setup();
    for (const c of asked) {
      const q = understand(ctx, c.question);
      const gloss = glossesOf(c.e)[0]!;
      const { translatedKeywords: _, ...untranslated } = q;
      const scope = { part: 'transcript' as const };
      const top = (await keywordStrategy.run(q, scope, ctx)).list[0];
      assert.ok(top, `«${c.question}»: no candidate`);
      const text = ctx.corpus.items.find((i) => i.id === top.itemId)!.transcript!.text.slice(top.start, top.end);
      assert.ok(text.includes(gloss), `«${c.question}»: the first candidate does not say ${gloss}: «${text}»`);
      const without = (await keywordStrategy.run(untranslated, scope, ctx)).list;
      assert.ok(!without.some((x) => ctx.corpus.items.find((i) => i.id === x.itemId)!.transcript!.text.slice(x.start, x.end).includes(gloss)), `«${c.question}»: found without translation`);
    }
  });
});

function englishOverChinese(): { ctx: AskContext; cases: { e: CedictEntry; question: string }[] } {
  const picked = pickEntries(24, 12, unambiguous);
  const ctx = contextOf([0, 1, 2].map((m) => meeting(`zh-${m}`, 'zh', picked.filter((_, i) => i % 3 === m).map((e) => `我觉得${e.simplified}在这里很关键。`), 30 + m)));
  return { ctx, cases: picked.flatMap((e) => EN_TEMPLATES.map((t) => ({ e, question: fill(t, glossesOf(e)[0]!) }))) };
}

describe('English questions over Chinese meetings', () => {
  let made: ReturnType<typeof englishOverChinese> | undefined;
  const setup = (): ReturnType<typeof englishOverChinese> => (made ??= englishOverChinese());

  test('the headword lands in translatedKeywords, and the keyword strategy finds its Chinese turn first', async () => {
    const { ctx, cases } = setup();
    assert.equal(cases.length, 96);
    for (const c of cases) {
      const q = understand(ctx, c.question);
      assert.ok(q.translatedKeywords?.some((t) => t.term === c.e.simplified && t.lang === 'zh' && t.from === glossesOf(c.e)[0]), `«${c.question}»: ${JSON.stringify(q.translatedKeywords)} lacks ${c.e.simplified}`);
      const top = (await keywordStrategy.run(q, { part: 'transcript' }, ctx)).list[0];
      assert.ok(top, `«${c.question}»: no candidate`);
      assert.ok(ctx.corpus.items.find((i) => i.id === top.itemId)!.transcript!.text.slice(top.start, top.end).includes(c.e.simplified), `«${c.question}»: first candidate lacks ${c.e.simplified}`);
    }
  });

  test('in a corpus of both languages, a question scoped to an item in its own language gets no translation; the whole corpus does', () => {
    const { ctx, cases } = setup();
    const mixed = contextOf([...ctx.corpus.items, meeting('en-x', 'en', ['We talked about the weather .'], 40)]);
    for (const c of cases.slice(0, 24)) {
      assert.equal(understand(mixed, c.question, 'en-x').translatedKeywords, undefined, c.question);
      assert.ok(understand(mixed, c.question).translatedKeywords?.length, c.question);
    }
  });
});

function namesCorpora(): { picked: CedictEntry[]; zh: AskContext; en: AskContext } {
  const picked = pickEntries(12, 13, aName);
  const zh = contextOf([meeting('zh-n', 'zh', picked.map((e) => `昨天我们又谈到了${e.simplified}。`), 50)]);
  const en = contextOf([meeting('en-n', 'en', picked.map((e) => `Yesterday we talked about ${glossesOf(e)[0]} again .`), 51)]);
  return { picked, zh, en };
}

describe('Spanish names over Chinese and English meetings', () => {
  let made: ReturnType<typeof namesCorpora> | undefined;
  const setup = (): ReturnType<typeof namesCorpora> => (made ??= namesCorpora());

  test('a capitalised name (with or without an accent) is looked up as an English name: its Chinese headword lands in translatedKeywords', () => {
    const { picked, zh } = setup();
    assert.equal(picked.length, 12);
    for (const e of picked) {
      const name = glossesOf(e)[0]!;
      for (const written of [name, accented(name)]) {
        for (const t of ES_NAME_TEMPLATES) {
          const q = understand(zh, fill(t, written));
          assert.ok(q.translatedKeywords?.some((x) => x.term === e.simplified && x.lang === 'zh'), `«${fill(t, written)}»: ${JSON.stringify(q.translatedKeywords)} lacks ${e.simplified}`);
        }
      }
    }
  });

  test('over English meetings, an accented name is searched without its accent (no Spanish–English dictionary: nothing else)', () => {
    const { picked, en } = setup();
    for (const e of picked) {
      const name = glossesOf(e)[0]!;
      const q = understand(en, fill(ES_NAME_TEMPLATES[0]!, accented(name)));
      assert.deepEqual(q.translatedKeywords?.map((t) => [t.term, t.lang]), [[name.toLowerCase(), 'en']], fill(ES_NAME_TEMPLATES[0]!, accented(name)));
    }
  });
});
