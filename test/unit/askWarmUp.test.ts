/**
 * The Ask warm-up (askWarmUp.ts) on a copy of the demo corpus (English, Chinese and Spanish items
 * with comments): it asks one question of every kind about words of the corpus, corpus-wide and
 * within an item, in the three languages; leaves questions about comments out until the corpus's
 * spam is decided; stops at once when aborted and when its budget is spent; and leaves answers
 * unchanged (a question asked after it gets what it gets without it).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { askCorpus } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import { warmUpAsking, warmUpQuestions, warmUpTopics } from '../../src/core/ask/askWarmUp';
import { understand } from '../../src/core/ask/understand';
import { openCorpus, openSearchIndex } from '../../src/core/corpus/openCorpus';
import { knownCorpusSpam } from '../../src/core/markers/spamFree';
import { persistedCorpusSpam, spamFile } from '../../src/core/markers/spamStore';
import { isStopword } from '../../src/core/text/stopwords';
import { freshDemoCorpus } from '../support/demoCorpus';

describe('Ask warm-up', () => {
  let work: string;
  let root: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-ask-warm-up-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
  });
  after(() => rm(work, { recursive: true, force: true }));

  async function context() {
    const corpus = await openCorpus(root);
    const { index } = await openSearchIndex(corpus);
    return openAskContext(corpus, index, { markers: new Map() });
  }

  test('topic words are words of the corpus that are no function words, one Latin and one Chinese', async () => {
    const ctx = await context();
    const t = warmUpTopics(ctx);
    assert.ok(t.latin && t.han, JSON.stringify(t));
    const texts = ctx.corpus.items.map((i) => `${i.transcript?.text ?? ''}\n${i.comments?.text ?? ''}`.toLowerCase()).join('\n');
    assert.ok(texts.includes(t.latin) && texts.includes(t.han), JSON.stringify(t));
    assert.ok(!isStopword(t.latin, 'en') && !isStopword(t.latin, 'es'));
    // The Chinese topic is a whole word where the corpus uses it, not the first two characters of a run ("他觉" of 他觉得).
    const zh = new Intl.Segmenter('zh', { granularity: 'word' });
    assert.ok([...zh.segment(texts)].some((s) => s.segment === t.han), `${t.han} is no word of the corpus`);
    assert.ok(!isStopword(t.han, 'zh'));
  });

  test('before the spam decision, no question about comments; after it, one of every kind in three languages, corpus-wide and in an item', async () => {
    // The decision the markers' generation saved, removed: a context opened now does not know the corpus's spam.
    await rm(spamFile(root), { force: true });
    const ctx = await context();
    const first = warmUpQuestions(ctx);
    assert.equal(first.skippedComments, 3);
    await persistedCorpusSpam(ctx.corpus);
    const plan = warmUpQuestions(ctx);
    assert.equal(plan.skippedComments, 0);
    assert.equal(plan.questions.length, first.questions.length + 6);
    assert.ok(plan.questions.some((q) => q.itemId) && plan.questions.some((q) => !q.itemId));
    const intents = new Set<string>();
    const langs = new Set<string>();
    for (const q of plan.questions) {
      const { query } = await understand(q, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index, vectors: false });
      intents.add(query.intent);
      langs.add(/\p{Script=Han}/u.test(q.question) ? 'zh' : /[¿¡]/u.test(q.question) ? 'es' : 'en');
    }
    assert.deepEqual([...langs].sort(), ['en', 'es', 'zh']);
    assert.ok(intents.size >= 6, [...intents].join(', '));
  });

  test('before the spam decision it reads no comment: the decision is still not taken after it, and it asked the questions not about comments', async () => {
    await rm(spamFile(root), { force: true });
    const ctx = await context();
    const report = await warmUpAsking(ctx);
    assert.equal(report.stopped, undefined);
    assert.equal(report.skippedComments, 3);
    assert.equal(report.questions.length, warmUpQuestions(ctx).questions.length);
    assert.ok(report.questions.length > 0);
    assert.equal(knownCorpusSpam(ctx.corpus), undefined, 'the warm-up decided the corpus spam');
    // Its first question ("What was said about … in the first 5 minutes?") is read as one about the audience here.
    const first = await understand({ question: report.questions[0]! }, { entities: ctx.entities, corpus: ctx.corpus, index: ctx.index, vectors: false });
    assert.ok(first.query.strategies.includes('reception'), first.query.strategies.join(','));
  });

  test('a question limited to the transcripts runs no reception strategy and finds no comment; to the comments, only comments', async () => {
    const ctx = await context();
    await persistedCorpusSpam(ctx.corpus);
    const question = { question: 'What do viewers think about the heat pump?' };
    const free = await askCorpus(ctx, question);
    assert.ok(free.query.strategies.includes('reception') && free.hits.some((h) => h.part === 'comments'));
    const transcripts = await askCorpus(ctx, question, { part: 'transcript' });
    assert.equal(transcripts.query.part, 'transcript');
    assert.ok(!transcripts.query.strategies.includes('reception'), transcripts.query.strategies.join(','));
    assert.ok(transcripts.hits.length > 0 && transcripts.hits.every((h) => h.part === 'transcript'), JSON.stringify(transcripts.hits.map((h) => h.part)));
    const comments = await askCorpus(ctx, { question: 'What was said about the heat pump?' }, { part: 'comments' });
    assert.ok(comments.hits.length > 0 && comments.hits.every((h) => h.part === 'comments'), JSON.stringify(comments.hits.map((h) => h.part)));
  });

  test('asks them all, and a question asked afterwards gets the same answer as in a context never warmed up', async () => {
    const warmed = await context();
    await persistedCorpusSpam(warmed.corpus);
    const report = await warmUpAsking(warmed);
    assert.equal(report.stopped, undefined);
    assert.equal(report.questions.length, warmUpQuestions(warmed).questions.length);
    const fresh = await context();
    const q = { question: 'What did the reviewers say about the winter range of the heat pump?' };
    const a = await askCorpus(warmed, q);
    const b = await askCorpus(fresh, q);
    assert.deepEqual(a.hits.map((h) => [h.itemId, h.start, h.end]), b.hits.map((h) => [h.itemId, h.start, h.end]));
    assert.deepEqual(a.answer, b.answer);
  });

  test('stops at once when aborted (between questions and before the first) and when its budget is spent', async () => {
    const ctx = await context();
    const controller = new AbortController();
    const r = await warmUpAsking(ctx, { signal: controller.signal, beforeQuestion: (i) => void (i === 2 && controller.abort()) });
    assert.equal(r.stopped, 'aborted');
    assert.equal(r.questions.length, 2);
    const early = new AbortController();
    early.abort();
    const none = await warmUpAsking(ctx, { signal: early.signal });
    assert.deepEqual([none.stopped, none.questions.length], ['aborted', 0]);
    const budget = await warmUpAsking(ctx, { budgetMs: 0 });
    assert.deepEqual([budget.stopped, budget.questions.length], ['budget', 0]);
  });
});
