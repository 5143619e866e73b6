/**
 * The question's own topic is kept whatever the intent, and hits quote what matched (issue 22).
 * Question templates per intent (reception, entity, relation, summary, time-scoped, open) in
 * English, Spanish, simplified and traditional Chinese, composed with every topic (and speaker)
 * of a generated corpus where the answer is known (`test/support/topicCorpus.ts`): the topic is
 * in the understood keywords and line, never a cue word or a speaker label; a reception question
 * ranks the comments about the topic first (and says so when there are none); an entity question
 * ranks the speaker's own turns about it first; a hit's focus holds a topic term whenever its
 * span does.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { askCorpus, describeQuery } from '../../src/core/ask/ask';
import { EntityIndex } from '../../src/core/ask/entityIndex';
import { focusedSpan, hitFocus } from '../../src/core/ask/hitFocus';
import { termPhrases } from '../../src/core/ask/questionTerms';
import { understand } from '../../src/core/ask/understand';
import { parseReply } from '../../src/core/llm/structured';
import { createModelClient } from '../../src/core/llm/client';
import { LlmError, type ModelProvider, type StructuredRequest, type StructuredResult } from '../../src/core/llm/types';
import type { AskContext, AskHit } from '../../src/core/ask/types';
import { understandWithRules } from '../../src/core/ask/understandRules';
import type { CorpusItem } from '../../src/core/corpus/types';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';
import { SPEAKERS, TOPIC_LANGS, TOPICS, topicCorpus, type TopicLang } from '../support/topicCorpus';
import { compose, TEMPLATES, type TopicIntent } from '../support/topicQuestions';

const tc = topicCorpus();
const entities = EntityIndex.build(tc.corpus).index;
const ctx: AskContext = { corpus: tc.corpus, index: CorpusIndex.build(tc.corpus), entities, markers: new Map() };
const itemOfId = (id: string): CorpusItem => tc.corpus.items.find((i) => i.id === id)!;
const partText = (item: CorpusItem, h: AskHit): string => (h.part === 'transcript' ? item.transcript! : item.comments!).text;

/** Words of the questions that say what is asked, never what about: never keywords. */
const CUE_WORDS = new Set(
  ('viewers think comments commenters audience react opinion agree differ summarize discussion recap said ' +
    'opinan comentarios gente espectadores piensan reaccionó audiencia opina piensa dijo acuerdo diferencian resume resumen comentaron ' +
    '观众 评论 评论里 网友 评价 评论区 反应 看法 怎么看 一致 分歧 总结 概括 意见 大家 觀眾 評論 評論裡 網友 評價 評論區 反應 怎麼看 總結 意見 project manager').split(' '),
);

interface Composed {
  intent: TopicIntent;
  lang: TopicLang;
  topic: string;
  question: string;
  itemId: string;
  speaker?: string;
}

/** Every template of every intent and language with every topic (entity and relation: with every speaker, or pair). */
function compositions(): Composed[] {
  const out: Composed[] = [];
  for (const [intent, byLang] of Object.entries(TEMPLATES) as [TopicIntent, Record<TopicLang, readonly string[]>][]) {
    for (const lang of TOPIC_LANGS) {
      const speakers = SPEAKERS[lang];
      for (const template of byLang[lang]) {
        for (const topic of TOPICS[lang]) {
          const itemId = `${lang}-${intent === 'reception' ? 'video' : 'meeting'}`;
          if (intent === 'entity') for (const s of speakers) out.push({ intent, lang, topic, itemId, speaker: s.label, question: compose(template, topic, s.asked) });
          else if (intent === 'relation') for (let k = 0; k < speakers.length; k++) out.push({ intent, lang, topic, itemId, question: compose(template, topic, speakers[k]!.asked, speakers[(k + 1) % speakers.length]!.asked) });
          else out.push({ intent, lang, topic, itemId, question: compose(template, topic) });
        }
      }
    }
  }
  return out;
}

const ALL = compositions();

describe('the question\'s own topic is kept whatever the intent', () => {
  test('every composition has its topic in the keywords and the understood line; no cue word or speaker label is a keyword', () => {
    assert.ok(ALL.length >= 350, `${ALL.length} compositions`);
    const labels = new Set(TOPIC_LANGS.flatMap((l) => SPEAKERS[l].flatMap((s) => s.label.toLowerCase().split(' '))));
    for (const c of ALL) {
      const q = understandWithRules({ question: c.question, itemId: c.itemId }, { entities, corpus: tc.corpus });
      assert.ok(q.keywords.includes(c.topic), `«${c.question}» (${q.intent}): keywords ${JSON.stringify(q.keywords)} lack «${c.topic}»`);
      for (const k of q.keywords) {
        assert.ok(!CUE_WORDS.has(k), `«${c.question}»: the cue word «${k}» is a keyword`);
        assert.ok(!labels.has(k), `«${c.question}»: the speaker label word «${k}» is a keyword`);
        assert.ok(c.question.toLowerCase().includes(k), `«${c.question}»: keyword «${k}» is not in the question`);
      }
      assert.ok(describeQuery(q).includes(`"${c.topic}"`), `«${c.question}»: the understood line «${describeQuery(q)}» does not show the topic`);
      // Keyword search always runs when the question has a topic (a reception question too).
      assert.ok(q.strategies.includes('keyword'), `«${c.question}» (${q.intent}): strategies ${q.strategies.join(', ')}`);
    }
  });

  test('"people" are the audience only where there are comments: about a meeting, a question about what people think is no reception question', () => {
    const people: Record<TopicLang, string> = { en: 'What do people think of the {t}?', es: '¿Qué dice la gente de {t}?', 'zh-Hans': '大家怎么看{t}？', 'zh-Hant': '大家怎麼看{t}？' };
    for (const lang of TOPIC_LANGS) {
      for (const topic of TOPICS[lang]) {
        const question = compose(people[lang], topic);
        const meeting = understandWithRules({ question, itemId: `${lang}-meeting` }, { entities, corpus: tc.corpus });
        const video = understandWithRules({ question, itemId: `${lang}-video` }, { entities, corpus: tc.corpus });
        assert.notEqual(meeting.intent, 'analyze_reception', `«${question}» about a meeting`);
        assert.equal(video.intent, 'analyze_reception', `«${question}» about a video with comments`);
        assert.ok(meeting.keywords.includes(topic) && video.keywords.includes(topic), `«${question}»: ${meeting.keywords} / ${video.keywords}`);
      }
    }
  });

  test('with a model that leaves the topic out of its keywords, the question\'s own terms stay', async () => {
    // A stub provider behind the real client: no model is called.
    const provider: ModelProvider = {
      kind: 'ollama',
      model: 'stub',
      contextTokens: 8192,
      async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
        const parsed = parseReply(JSON.stringify({ intent: 'analyze_reception', keywords: ['opinion'], corpus_keywords: [], part: 'comments', confidence: 0.9 }), req.schema);
        if (!parsed.ok) throw new LlmError('invalid-reply', parsed.issues.join('; '), { issues: parsed.issues });
        return { value: parsed.value, usage: { promptTokens: 10, completionTokens: 5, estimated: false }, repaired: false, attempts: 1 };
      },
    };
    const model = createModelClient({ provider: 'ollama', baseUrl: 'http://127.0.0.1:9', model: 'stub' }, { provider, retry: { retries: 0 } });
    const promptsDir = path.join(__dirname, '..', '..', 'prompts');
    for (const c of ALL.filter((x) => x.intent === 'reception').slice(0, 24)) {
      const { query } = await understand({ question: c.question, itemId: c.itemId }, { entities, corpus: tc.corpus }, { model, promptsDir });
      assert.equal(query.engine, 'model');
      assert.ok(query.keywords.includes(c.topic), `«${c.question}»: ${JSON.stringify(query.keywords)}`);
    }
  });

  test('the understood line shows the terms as the question says them: neighbours make one phrase', () => {
    assert.deepEqual(termPhrases("What did the project manager say about the remote control's price?", ['remote', 'control', 'price']), ['remote control', 'price']);
    assert.deepEqual(termPhrases('评论里对电池续航的看法', ['电池', '续航']), ['电池续航']);
    assert.deepEqual(termPhrases('¿Qué opinan sobre la pelea y el cinturón?', ['pelea', 'cinturón']), ['pelea', 'cinturón']);
    const r = rng(22);
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    for (let k = 0; k < 200; k++) {
      const picked = words.filter(() => r() < 0.5);
      const glue = picked.map(() => (r() < 0.5 ? ' ' : ' and the ')).slice(1);
      const question = `What about ${picked.map((w, i) => (i ? glue[i - 1] : '') + w).join('')}?`;
      const phrases = termPhrases(question, picked);
      // Every term is shown once, in a phrase the question says.
      assert.equal(phrases.join(' ').split(' ').filter((w) => words.includes(w)).length, picked.length, `${question}: ${JSON.stringify(phrases)}`);
      for (const p of phrases) assert.ok(question.toLowerCase().includes(p), `${question}: «${p}»`);
    }
  });
});

describe('a reception question ranks the comments about its topic first', () => {
  test('every reception composition: the top hits mention the topic when comments do; otherwise a note says none does', async () => {
    let checked = 0;
    for (const c of ALL.filter((x) => x.intent === 'reception')) {
      const item = itemOfId(c.itemId);
      const about = tc.topicComments[c.lang][c.topic]!;
      const r = await askCorpus(ctx, { question: c.question, itemId: c.itemId }, { k: 5 });
      assert.equal(r.query.intent, 'analyze_reception', `«${c.question}»`);
      assert.ok(r.hits.length >= 3, `«${c.question}»: ${r.hits.length} hits`);
      const texts = r.hits.map((h) => partText(item, h).slice(h.start, h.end));
      if (about.length) {
        const want = Math.min(5, about.length);
        for (const t of texts.slice(0, want)) assert.ok(t.includes(c.topic), `«${c.question}»: a top hit «${t}» is not about ${c.topic}`);
      } else {
        assert.ok(r.notes.some((n) => n.includes('no comment') && n.includes(c.topic)), `«${c.question}»: notes ${JSON.stringify(r.notes)}`);
      }
      checked++;
    }
    assert.ok(checked >= 60, `${checked} questions`);
  });
});

describe('an entity question ranks the speaker\'s own turns about its topic first', () => {
  test('every entity composition: the first hit quotes that speaker saying the topic, and so does every hit whose span holds such a turn', async () => {
    let checked = 0;
    let holding = 0;
    for (const c of ALL.filter((x) => x.intent === 'entity')) {
      const item = itemOfId(c.itemId);
      const t = item.transcript!;
      const says = new Set(tc.turns[c.lang].flatMap((x, i) => (x.speaker === c.speaker && x.topics.includes(c.topic) ? [i] : [])));
      assert.ok(says.size >= 2);
      const r = await askCorpus(ctx, { question: c.question, itemId: c.itemId }, { k: 5 });
      assert.equal(r.query.intent, 'search_entity', `«${c.question}»`);
      const quotes = (h: AskHit): boolean => {
        const turns = t.segments.filter((s) => s.offset < h.focus.end && h.focus.start < s.offset + s.text.length);
        return t.text.slice(h.focus.start, h.focus.end).includes(c.topic) && turns.every((s) => s.speaker === c.speaker);
      };
      assert.ok(r.hits[0] && quotes(r.hits[0]), `«${c.question}»: the first hit quotes «${r.hits[0] ? t.text.slice(r.hits[0].focus.start, r.hits[0].focus.end) : ''}»`);
      for (const h of r.hits) {
        if (!t.segments.some((s) => says.has(s.index) && s.offset < h.end && h.start < s.offset + s.text.length)) continue;
        holding++;
        assert.ok(quotes(h), `«${c.question}»: hit ${h.rank} holds a turn of ${c.speaker} about ${c.topic} but quotes «${t.text.slice(h.focus.start, h.focus.end)}»`);
      }
      checked++;
    }
    assert.ok(checked >= 140 && holding >= checked * 1.5, `${checked} questions, ${holding} hits holding the turns`);
  });
});

describe('hits quote what matched', () => {
  test('every composition about the transcript: a hit whose span holds the topic has it in its focus', async () => {
    let spans = 0;
    for (const c of ALL.filter((x) => x.intent !== 'reception')) {
      const item = itemOfId(c.itemId);
      const r = await askCorpus(ctx, { question: c.question, itemId: c.itemId }, { k: 5 });
      for (const h of r.hits) {
        const text = partText(item, h);
        if (!text.slice(h.start, h.end).includes(c.topic)) continue;
        spans++;
        assert.ok(text.slice(h.focus.start, h.focus.end).includes(c.topic), `«${c.question}» (${r.query.intent}): hit ${h.rank} quotes «${text.slice(h.focus.start, h.focus.end)}»`);
      }
    }
    assert.ok(spans >= ALL.length, `${spans} spans with the topic`);
  });

  test('a long turn is narrowed to its sentences with the rarest terms, never its first sentence for want of one', () => {
    const r = rng(2209);
    const filler = ['We should book the room for the review on Thursday .', 'The drawings from the factory came in late again .', 'Somebody has to call the supplier about the plastic .', 'Shipping gets slower every single winter .'];
    const weights = new Map([['remote', 0.2], ['control', 0.2], ['price', 3]]);
    let checked = 0;
    for (let k = 0; k < 120; k++) {
      const sentences = Array.from({ length: 5 + Math.floor(r() * 5) }, () => filler[Math.floor(r() * filler.length)]!);
      // A sentence with the common terms, and one with the rare term, anywhere but first.
      const common = 1 + Math.floor(r() * (sentences.length - 1));
      let rare = 1 + Math.floor(r() * (sentences.length - 1));
      if (rare === common) rare = common === 1 ? 2 : common - 1;
      sentences[common] = 'Current remote controls all look the same in the shop .';
      sentences[rare] = 'We want to sell it at a good price of twenty five Euros .';
      const turns = [{ text: 'Yeah .', speaker: 'Marketing' }, { text: sentences.join(' '), speaker: 'Project Manager' }, { text: 'Mm-hmm .', speaker: 'Marketing' }];
      const item = itemOf('m', { transcript: transcriptPart(turns) });
      const t = item.transcript!;
      const c = { itemId: 'm', part: 'transcript' as const, start: 0, end: t.text.length };
      for (const speakers of [new Set<string>(), new Set(['Project Manager'])]) {
        const f = hitFocus(item, c, weights, speakers)!;
        const quote = t.text.slice(f.start, f.end);
        assert.ok(quote.includes('price of twenty five Euros'), `the focus «${quote}» misses the price`);
        assert.ok(!quote.startsWith(sentences[0]!) || rare === 1, `the focus «${quote}» starts with the turn`);
        assert.ok(quote.split(' . ').length <= 3, `the focus «${quote}» is more than three sentences`);
        assert.deepEqual(focusedSpan(c, f), c);
        checked++;
      }
    }
    assert.equal(checked, 240);
  });

  test('a span without the question\'s terms is quoted by what says the most, not by its first lines', () => {
    const r = rng(2210);
    for (let k = 0; k < 100; k++) {
      const thin = ['Half past . Half past ten . Yeah .', 'Okay . Right .', 'Yeah , yeah .', 'Mm-hmm .'];
      const plain = 'The drawings arrived from the factory .';
      const rich = 'The marketing survey says young customers want a bright yellow casing with soft rubber buttons and a small speaker .';
      // The span opens with backchannels and a plain line; the turn that says the most comes later.
      const n = 4 + Math.floor(r() * 4);
      const at = 2 + Math.floor(r() * (n - 2));
      const turns = Array.from({ length: n }, (_, i) => ({ text: i === at ? rich : i === 1 ? plain : thin[Math.floor(r() * thin.length)]!, speaker: i % 2 ? 'Marketing' : 'Project Manager' }));
      const item = itemOf('m', { transcript: transcriptPart(turns) });
      const t = item.transcript!;
      const f = hitFocus(item, { itemId: 'm', part: 'transcript', start: 0, end: t.text.length }, new Set(['zeppelin']))!;
      assert.equal(t.text.slice(f.start, f.end), rich);
    }
  });
});
