/**
 * The answer a model writes from the extractive answer's sentences (issue 22): with a model
 * configured, the Ask box's answer is a short text in the model's words whose every claim cites
 * the numbered sentences it rests on, `[n]`. The sentences are the only material; a number the
 * sentences do not carry is removed and reported (the chat's check, `checkAnswerCitations`), and
 * the extractive sentences stay shown beneath it. Chat answers with the same sentences in
 * `chatTurn.ts`.
 */
import { answerWithModel } from '../chat/modelResponder';
import type { ModelClient } from '../llm/client';
import type { Usage } from '../llm/types';
import type { AnswerSentence } from './answer';

/** What the model is told the material is (the `mode` line of the chat-answer prompt). */
export const WRITTEN_ANSWER_MODE =
  'Answer the question in at most three sentences from the numbered sentences of the corpus below, each quoted with who said it and where. Cite every claim with the numbers of the sentences it rests on.';

export interface WrittenAnswer {
  /** Markdown with `[n]` naming `sentences[n - 1]`; unknown numbers removed. */
  text: string;
  /** Sentence numbers the text cites. */
  used: number[];
  /** Numbers the model wrote that no sentence carries (removed from `text`). */
  removed: number[];
  usage: Usage;
}

/** The numbered sentences as the model reads them: `[n] Title · Daniel · 0:33: «text»`. */
export function writtenAnswerMaterial(sentences: readonly AnswerSentence[]): string {
  return sentences.map((s, i) => `[${i + 1}] ${s.citation.title} · ${s.citation.location}: «${s.text}»`).join('\n');
}

/**
 * The model's short answer from `sentences` (numbered from 1 in order). Throws what the model
 * client throws (the caller keeps the extractive answer and says why).
 *
 * @example
 * const w = await writtenAnswer(model, 'What did the project manager say about the price?', answer, { promptsDir });
 * w.text // 'They aimed at a price of about twenty-five euros [1][2].'
 */
export async function writtenAnswer(model: ModelClient, question: string, sentences: readonly AnswerSentence[], options: { promptsDir: string; signal?: AbortSignal; referents?: readonly string[] }): Promise<WrittenAnswer> {
  const allowed = new Set(sentences.map((_, i) => i + 1));
  const a = await answerWithModel(model, { question, mode: WRITTEN_ANSWER_MODE, material: writtenAnswerMaterial(sentences), allowed, referents: options.referents ?? [] }, { promptsDir: options.promptsDir, ...(options.signal ? { signal: options.signal } : {}) });
  return { text: a.text.trim(), used: a.used, removed: a.removed, usage: a.usage };
}
