/**
 * The extractive answer (issue 22): two to six sentences of the top hits that answer the question,
 * each with its exact citation. Generated meetings and videos in English, Spanish and Chinese
 * (test/support/answerCorpus.ts), asked offline with questions of every intent about a topic word.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANSWER_BUDGET, answerSize, extractiveAnswer, type AnswerSentence } from '../../src/core/ask/answer';
import { askCorpus } from '../../src/core/ask/ask';
import { EntityIndex } from '../../src/core/ask/entityIndex';
import { termVector, cosine } from '../../src/core/ask/mmr';
import type { AskContext } from '../../src/core/ask/types';
import { locationLabel } from '../../src/core/corpus/locationLabel';
import { mapSpan } from '../../src/core/corpus/spans';
import type { Corpus } from '../../src/core/corpus/types';
import { isSpamComment } from '../../src/core/markers/spamFree';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { tokenize } from '../../src/core/search/tokenize';
import { contentWords, isContentFree, MIN_CONTENT_WORDS } from '../../src/core/text/contentFree';
import { ANSWER_LANGS, ANSWER_SPEAKERS, answerCorpus, mergedCorpus, REPEATED, TOPIC_WORDS, type AnswerLang, type GeneratedAnswerCorpus } from '../support/answerCorpus';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

type Intent = 'semantic' | 'summary' | 'entity' | 'reception';

/** Questions of each intent about topic `t` (`s`: a speaker), per language. */
const QUESTIONS: Record<AnswerLang, Record<Intent, (t: string, s: string) => string>> = {
  en: {
    semantic: (t) => `What was said about the ${t}?`,
    summary: (t) => `Summarize the discussion about the ${t}`,
    entity: (t, s) => `What did ${s} say about the ${t}?`,
    reception: (t) => `What do the comments say about the ${t}?`,
  },
  es: {
    semantic: (t) => `¿Qué se dijo sobre el ${t}?`,
    summary: (t) => `Resume la discusión sobre el ${t}`,
    entity: (t, s) => `¿Qué dijo ${s} sobre el ${t}?`,
    reception: (t) => `¿Qué opinan los comentarios sobre el ${t}?`,
  },
  zh: {
    semantic: (t) => `关于${t}说了什么？`,
    summary: (t) => `总结一下关于${t}的讨论`,
    entity: (t, s) => `${s}对${t}怎么看？`,
    reception: (t) => `评论对${t}怎么看？`,
  },
};
const INTENTS: readonly Intent[] = ['semantic', 'summary', 'entity', 'reception'];
const SEEDS = [3, 11, 29];

interface Asked {
  g: GeneratedAnswerCorpus;
  intent: Intent;
  question: string;
  speaker: string;
  itemId: string;
  answer: AnswerSentence[];
}

const contextOf = (corpus: Corpus): AskContext => ({ corpus, index: CorpusIndex.build(corpus), entities: EntityIndex.build(corpus).index, markers: new Map() });

/** Every question of every intent, language and seed, asked in its item (reception: the video, else the meeting). */
async function askAll(options: { long?: boolean } = {}): Promise<{ ctx: AskContext; asked: Asked[] }[]> {
  const out: { ctx: AskContext; asked: Asked[] }[] = [];
  for (const seed of SEEDS) {
    const parts = ANSWER_LANGS.map((l) => answerCorpus(l, seed * 13 + l.length, options));
    const ctx = contextOf(mergedCorpus(parts));
    const asked: Asked[] = [];
    for (const g of parts) {
      const speaker = ANSWER_SPEAKERS[g.lang][seed % 3]!;
      for (const intent of INTENTS) {
        const question = QUESTIONS[g.lang][intent](g.topic, speaker);
        const itemId = intent === 'reception' ? g.videoId : g.meetingId;
        const r = await askCorpus(ctx, { question, itemId });
        asked.push({ g, intent, question, speaker, itemId, answer: r.answer });
      }
    }
    out.push({ ctx, asked });
  }
  return out;
}

const runs = askAll();
const longRuns = askAll({ long: true });
const everyAnswer = async (): Promise<{ ctx: AskContext; a: Asked }[]> => [...(await runs), ...(await longRuns)].flatMap((r) => r.asked.map((a) => ({ ctx: r.ctx, a })));

describe('extractive answer: the question\'s topic is kept whatever the intent', () => {
  test('every intent, in English, Spanish and Chinese: at least half the sentences hold the topic word; a reception answer is made of comments about it', async () => {
    let answers = 0;
    for (const { a } of (await runs).flatMap((r) => r.asked.map((x) => ({ a: x })))) {
      const label = `${a.g.lang} ${a.intent} «${a.question}»`;
      assert.ok(a.answer.length >= 2, `${label}: ${a.answer.length} sentences`);
      const holding = a.answer.filter((s) => s.text.includes(a.g.topic)).length;
      assert.ok(holding * 2 >= a.answer.length, `${label}: ${holding} of ${a.answer.length} sentences hold «${a.g.topic}»: ${a.answer.map((s) => s.text).join(' | ')}`);
      if (a.intent === 'reception') {
        for (const s of a.answer) {
          assert.equal(s.citation.part, 'comments', `${label}: «${s.text}» is no comment`);
          assert.ok(s.text.includes(a.g.topic), `${label}: the comment «${s.text}» is not about «${a.g.topic}» (the most-liked ones are not)`);
        }
      }
      answers++;
    }
    assert.equal(answers, SEEDS.length * ANSWER_LANGS.length * INTENTS.length);
  });

  test('a question about a speaker prefers their turns, among hits that give every speaker the same room', async () => {
    let theirs = 0;
    let all = 0;
    for (const { ctx, a } of (await runs).flatMap((r) => r.asked.map((x) => ({ ctx: r.ctx, a: x }))).filter(({ a }) => a.intent === 'entity')) {
      const r = await askCorpus(ctx, { question: a.question, itemId: a.itemId });
      // The whole meeting as ten windows of consecutive turns, in order: the retriever's preference for the speaker's turns left out.
      const t = ctx.corpus.items.find((i) => i.id === a.g.meetingId)!.transcript!;
      const per = Math.ceil(t.segments.length / 10);
      const hits = Array.from({ length: 10 }, (_, k) => {
        const first = t.segments[k * per];
        const last = t.segments[Math.min(t.segments.length, (k + 1) * per) - 1];
        return first && last ? { ...r.hits[0]!, rank: k + 1, itemId: a.g.meetingId, part: 'transcript' as const, start: first.offset, end: last.offset + last.text.length, focus: { start: first.offset, end: last.offset + last.text.length } } : undefined;
      }).filter((h) => h !== undefined);
      const answer = extractiveAnswer(ctx, r.query, hits);
      theirs += answer.filter((s) => s.citation.speaker === a.speaker).length;
      all += answer.length;
    }
    // Three speakers take turns about equally: chance would be a third.
    assert.ok(all > 0 && theirs / all > 0.5, `${theirs} of ${all} sentences of speaker questions are the speaker's`);
  });
});

describe('extractive answer: the time asked about', () => {
  const ASKED: Record<AnswerLang, (t: string) => string> = {
    en: (t) => `What was said about the ${t} in the first 3 minutes?`,
    es: (t) => `¿Qué se dijo sobre el ${t} en los primeros 3 minutos?`,
    zh: (t) => `前3分钟关于${t}说了什么？`,
  };
  test('sentences come from inside the time window, though the answer reads around its hits', async () => {
    let checked = 0;
    for (const seed of SEEDS) {
      for (const lang of ANSWER_LANGS) {
        const g = answerCorpus(lang, seed);
        const ctx = contextOf(g.corpus);
        const r = await askCorpus(ctx, { question: ASKED[lang](g.topic), itemId: g.meetingId });
        assert.deepEqual(r.query.timeConstraint, { startS: 0, endS: 180 }, `${lang}: the time asked about`);
        const item = g.corpus.items.find((i) => i.id === g.meetingId)!;
        assert.ok(r.answer.length >= 2, `${lang}: ${r.answer.length} sentences`);
        for (const s of r.answer) {
          const at = mapSpan(item, s.citation)!.startTime!;
          assert.ok(at <= 180, `${lang} seed ${seed}: «${s.text}» at ${at} s`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 18);
  });
});

describe('extractive answer: what is never chosen', () => {
  test('no content-free sentence, none with fewer than 3 content words, no spam comment, no repeat', async () => {
    let sentences = 0;
    for (const { ctx, a } of await everyAnswer()) {
      const label = `${a.g.lang} ${a.intent} «${a.question}»`;
      for (const s of a.answer) {
        const lang = a.g.lang;
        assert.ok(!isContentFree(s.text, lang), `${label}: content-free «${s.text}»`);
        assert.ok(contentWords(s.text, lang).length >= MIN_CONTENT_WORDS, `${label}: «${s.text}» has fewer than ${MIN_CONTENT_WORDS} content words`);
        if (s.citation.part === 'comments') {
          const item = ctx.corpus.items.find((i) => i.id === s.citation.itemId)!;
          const c = item.comments!.comments.find((x) => x.offset <= s.citation.start && s.citation.start < x.offset + x.text.length)!;
          assert.ok(!isSpamComment(item, c.id, ctx.corpus), `${label}: spam «${s.text}»`);
        }
        sentences++;
      }
      // The meeting says one sentence about the topic word for word in several turns: an answer holds it once at most.
      assert.ok(a.answer.filter((s) => s.text === REPEATED[a.g.lang](a.g.topic)).length <= 1, `${label}: the repeated sentence twice`);
      for (let i = 0; i < a.answer.length; i++) {
        for (let j = i + 1; j < a.answer.length; j++) {
          const sim = cosine(termVector(tokenize(a.answer[i]!.text)), termVector(tokenize(a.answer[j]!.text)));
          assert.ok(sim < 0.8, `${label}: near repeats (cosine ${sim.toFixed(2)}) «${a.answer[i]!.text}» / «${a.answer[j]!.text}»`);
        }
      }
    }
    assert.ok(sentences > 100, `${sentences} sentences checked`);
  });

  test('when every sentence holding the question\'s words is content-free, the answer is made of the sentences around them', async () => {
    for (const lang of ANSWER_LANGS) {
      for (const seed of SEEDS) {
        const g = answerCorpus(lang, seed);
        const other = TOPIC_WORDS[lang].find((w) => w !== g.topic)!;
        // The topic word is left only in mentions that say nothing ("Yeah , the zeppelin , yeah , okay .": content-free, or under 3 content words).
        const saysNothing = (x: string): boolean => isContentFree(x, lang) || contentWords(x, lang).length < MIN_CONTENT_WORDS;
        const t = g.corpus.items.find((i) => i.id === g.meetingId)!.transcript!;
        const turns = t.segments.map((x) => ({ text: saysNothing(x.text) ? x.text : x.text.split(g.topic).join(other), speaker: x.speaker, start: x.start, end: x.end }));
        assert.ok(turns.some((x) => x.text.includes(g.topic)), `${lang}: no content-free mention left`);
        const item = { ...itemOf(g.meetingId, { transcript: transcriptPart(turns, `${g.meetingId}/transcript.json`) }), title: 'Mentions' };
        const ctx = contextOf({ ...g.corpus, items: [item] });
        const r = await askCorpus(ctx, { question: QUESTIONS[lang].semantic(g.topic, ''), itemId: g.meetingId });
        if (!r.hits.length) continue;
        assert.ok(r.answer.length >= 2, `${lang} seed ${seed}: ${r.answer.length} sentences from ${r.hits.length} hits`);
        for (const x of r.answer) assert.ok(!saysNothing(x.text) && !x.text.includes(g.topic), `${lang}: «${x.text}»`);
      }
    }
  });

  test('no sentence qualifies: no hits, or a meeting of backchannels only → []', async () => {
    for (const lang of ANSWER_LANGS) {
      const g = answerCorpus(lang, 5);
      const ctx = contextOf(g.corpus);
      const r = await askCorpus(ctx, { question: QUESTIONS[lang].semantic(g.topic, ''), itemId: g.meetingId });
      assert.deepEqual(extractiveAnswer(ctx, r.query, []), [], `${lang}: no hits`);
      const chatter = { en: ['Yeah .', 'Mm-hmm .', 'Okay , yeah .', '{vocalsound}'], es: ['Sí .', 'Vale , vale .', 'Claro .'], zh: ['嗯。', '对对对。', '好的好的。'] }[lang];
      const turns = Array.from({ length: 40 }, (_, i) => ({ text: chatter[i % chatter.length]!, speaker: ANSWER_SPEAKERS[lang][i % 3]!, start: i * 3, end: i * 3 + 2 }));
      const only = itemOf(`${lang}-chatter`, { transcript: transcriptPart(turns, `${lang}-chatter/transcript.json`) });
      const c2 = contextOf({ ...g.corpus, items: [only] });
      const hits = r.hits.length ? [{ ...r.hits[0]!, itemId: only.id, start: 0, end: only.transcript!.text.length, focus: { start: 0, end: only.transcript!.text.length } }] : [];
      assert.deepEqual(extractiveAnswer(c2, r.query, hits), [], `${lang}: backchannels only`);
    }
  });
});

describe('extractive answer: shape, budget and citations', () => {
  test('2–6 sentences within 120 words and 240 CJK characters; tighter budgets held too', async () => {
    for (const { ctx, a } of await everyAnswer()) {
      const label = `${a.g.lang} ${a.intent}`;
      assert.ok(a.answer.length >= 2 && a.answer.length <= 6, `${label}: ${a.answer.length} sentences`);
      const size = a.answer.reduce((n, s) => ({ words: n.words + answerSize(s.text).words, cjk: n.cjk + answerSize(s.text).cjk }), { words: 0, cjk: 0 });
      assert.ok(size.words <= ANSWER_BUDGET.maxWords && size.cjk <= ANSWER_BUDGET.maxCjkChars, `${label}: ${size.words} words, ${size.cjk} CJK characters`);
      const r = await askCorpus(ctx, { question: a.question, itemId: a.itemId });
      for (const [maxWords, maxCjkChars, maxSentences] of [[40, 80, 6], [25, 50, 3], [200, 400, 2]] as const) {
        const tight = extractiveAnswer(ctx, r.query, r.hits, { maxWords, maxCjkChars, maxSentences });
        const t = tight.reduce((n, s) => ({ words: n.words + answerSize(s.text).words, cjk: n.cjk + answerSize(s.text).cjk }), { words: 0, cjk: 0 });
        assert.ok(t.words <= maxWords && t.cjk <= maxCjkChars && tight.length <= maxSentences, `${label}: budget ${maxWords}/${maxCjkChars}/${maxSentences} → ${t.words} words, ${t.cjk} CJK, ${tight.length} sentences`);
      }
    }
    // The long corpora's sentences are long enough that the budget binds.
    const long = (await longRuns).flatMap((r) => r.asked).filter((a) => a.intent !== 'reception');
    assert.ok(long.some((a) => a.answer.length < 6), 'the budget never bound');
  });

  test('a unit takes at most its share of the budget: long comments leave room for two, and are taken only when nothing shorter is there', async () => {
    for (const lang of ANSWER_LANGS) {
      const g = answerCorpus(lang, 17);
      const video = g.corpus.items.find((i) => i.id === g.videoId)!;
      const r0 = rng(17);
      // Long comments about the topic: the meeting's own sentences, strung together past half the budget.
      const said = g.corpus.items.find((i) => i.id === g.meetingId)!.transcript!.segments.map((x) => x.text).filter((x) => answerSize(x).words >= 8 || answerSize(x).cjk >= 16);
      const long = (k: number): string => {
        const parts = [said.find((x) => x.includes(g.topic))!];
        for (let i = k * 7; answerSize(parts.join(' ')).words <= 70 && answerSize(parts.join('')).cjk <= 140; i++) parts.push(said[i % said.length]!);
        return parts.join(lang === 'zh' ? '' : ' ');
      };
      for (const withShort of [true, false]) {
        const texts = [...Array.from({ length: 5 }, (_, k) => long(k)), ...(withShort ? video.comments!.comments.map((c) => c.text) : [])];
        for (let i = texts.length - 1; i > 0; i--) {
          const j = Math.floor(r0() * (i + 1));
          [texts[i], texts[j]] = [texts[j]!, texts[i]!];
        }
        const item = { ...itemOf(`${lang}-long-${withShort}`, { comments: commentsPart(texts, `${lang}-long/comments.jsonl`) }), title: 'Long comments' };
        const ctx = contextOf({ ...g.corpus, items: [item] });
        const r = await askCorpus(ctx, { question: QUESTIONS[lang].reception(g.topic, ''), itemId: item.id });
        const size = r.answer.reduce((n, s) => n + answerSize(s.text).words + answerSize(s.text).cjk / 2, 0);
        assert.ok(size <= ANSWER_BUDGET.maxWords, `${lang}: ${size}`);
        if (withShort) {
          assert.ok(r.answer.length >= 2, `${lang}: ${r.answer.length} sentences: ${r.answer.map((s) => s.text.slice(0, 60)).join(' | ')}`);
          for (const s of r.answer) assert.ok(answerSize(s.text).words <= ANSWER_BUDGET.maxWords / 2 && answerSize(s.text).cjk <= ANSWER_BUDGET.maxCjkChars / 2, `${lang}: a long comment taken: «${s.text.slice(0, 60)}…»`);
        } else {
          // More than half the budget each, within the whole of it: one is the answer.
          assert.ok(texts.every((t) => answerSize(t).words > ANSWER_BUDGET.maxWords / 2 || answerSize(t).cjk > ANSWER_BUDGET.maxCjkChars / 2), `${lang}: a comment is not long`);
          assert.equal(r.answer.length, 1, `${lang}: only long comments: one of them`);
        }
      }
    }
  });

  test('one item\'s sentences come in source order, and each citation is exactly its sentence: text, place, location, speaker', async () => {
    for (const { ctx, a } of await everyAnswer()) {
      const label = `${a.g.lang} ${a.intent}`;
      if (new Set(a.answer.map((s) => s.citation.itemId)).size === 1) {
        for (let i = 1; i < a.answer.length; i++) {
          const p = a.answer[i - 1]!.citation;
          const c = a.answer[i]!.citation;
          assert.ok(p.part === c.part ? p.start < c.start : p.part === 'transcript', `${label}: sentence ${i + 1} comes before sentence ${i} in the source`);
        }
      }
      for (const s of a.answer) {
        const c = s.citation;
        const item = ctx.corpus.items.find((i) => i.id === c.itemId)!;
        const part = c.part === 'transcript' ? item.transcript! : item.comments!;
        assert.equal(part.text.slice(c.start, c.end).replace(/\s+/g, ' ').trim(), s.text, `${label}: the citation's span is not the sentence`);
        assert.equal(c.title, item.title);
        assert.deepEqual(c.source, mapSpan(item, { part: c.part, start: c.start, end: c.end }) ?? null);
        assert.equal(c.location, locationLabel(item, c.part, c.start, c.end, { title: false }));
        assert.ok(c.hitRank !== undefined && c.hitRank >= 1);
        if (c.part === 'transcript') {
          const seg = item.transcript!.segments.find((x) => x.offset <= c.start && c.end <= x.offset + x.text.length);
          assert.ok(seg, `${label}: «${s.text}» crosses a turn`);
          assert.equal(c.speaker, seg.speaker, `${label}: speaker of «${s.text}»`);
        } else assert.equal(c.speaker, undefined);
      }
    }
  });
});
