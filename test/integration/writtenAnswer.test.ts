/**
 * The answer a model writes from the extractive answer's sentences (issue 22), through the real
 * openai and ollama clients against the fake model server: the sentences are the numbered
 * material (each with its item and who said it where), the question goes with them, and every
 * `[n]` of the reply is checked — a number no sentence carries is removed and reported.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AnswerSentence } from '../../src/core/ask/answer';
import { writtenAnswer, writtenAnswerMaterial } from '../../src/core/ask/writtenAnswer';
import { createModelClient } from '../../src/core/llm/client';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

function sentence(i: number, text: string, location: string): AnswerSentence {
  return { text, citation: { itemId: `item-${i}`, title: `Meeting ${i}`, part: 'transcript', start: i * 100, end: i * 100 + text.length, source: null, location } };
}

const SENTENCES: Record<'en' | 'zh' | 'es', AnswerSentence[]> = {
  en: [sentence(1, 'The remote will sell for twenty five Euros.', 'Project Manager · 3:10'), sentence(2, 'Production costs must stay under twelve fifty.', 'Marketing · 5:02'), sentence(3, 'A kinetic battery adds to the cost.', 'Industrial Designer · 9:41')],
  zh: [sentence(1, '遥控器的售价定在二十五欧元。', '项目经理 · 3:10'), sentence(2, '生产成本不能超过十二点五欧元。', '市场 · 5:02')],
  es: [sentence(1, 'El mando se venderá por veinticinco euros.', 'Marta · 3:10'), sentence(2, 'El coste de producción no puede pasar de doce cincuenta.', 'Luis · 5:02')],
};
const QUESTIONS = { en: 'What price did they settle on?', zh: '他们定了什么价格？', es: '¿Qué precio decidieron?' };

describe('written answer (fake model server)', () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    await server.close();
  });

  for (const provider of ['openai', 'ollama'] as const) {
    for (const lang of ['en', 'zh', 'es'] as const) {
      test(`${provider} · ${lang}: the sentences are the numbered material; an [n] no sentence carries is removed`, async () => {
        server.reset();
        const sentences = SENTENCES[lang];
        const invented = sentences.length + 4;
        server.setResponder(() => `They settled on the first figure [1], within the cost limit [2][${invented}].`);
        const model = createModelClient({ provider, baseUrl: provider === 'openai' ? server.openaiBaseUrl : server.ollamaHost, model: 'fake-model', apiKey: 'sk-test', timeoutMs: 5_000 });
        const w = await writtenAnswer(model, QUESTIONS[lang], sentences, { promptsDir: PROMPTS });
        assert.deepEqual(w.used, [1, 2]);
        assert.deepEqual(w.removed, [invented]);
        assert.ok(!w.text.includes(`[${invented}]`), w.text);
        const sent = server.chatRequests().pop()!.messages!.map((m) => m.content).join('\n');
        assert.ok(sent.includes(writtenAnswerMaterial(sentences)), 'every sentence went, numbered, with its item and who said it where');
        for (const [i, s] of sentences.entries()) assert.ok(sent.includes(`[${i + 1}] ${s.citation.title} · ${s.citation.location}: «${s.text}»`));
        assert.ok(sent.includes(QUESTIONS[lang]), 'the question itself went (not a paraphrase)');
      });
    }
  }
});
