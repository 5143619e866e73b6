/**
 * Answers written by the model (seed 004 "ResponseGenerator"), streamed: the material (the
 * report, loaded originals or retrieved passages, each numbered) and the question go in one
 * call; the Markdown answer streams out; afterwards every `[n]` is checked against the numbers
 * the material carried — the others are removed and reported, never shown.
 */
import type { ModelClient } from '../llm/client';
import { detectLanguage } from '../llm/langDetect';
import { loadPrompt } from '../llm/prompts';
import type { Usage } from '../llm/types';
import { checkAnswerCitations } from './citationNumbering';

export const CHAT_PROMPT = 'chat-answer';

export interface ModelAnswer {
  text: string;
  /** Numbers the answer cites (after removing unknown ones). */
  used: number[];
  /** Numbers the model wrote that the material did not carry. */
  removed: number[];
  usage: Usage;
  promptTokens: number;
  cancelled: boolean;
  /** The prompt as sent (for tests and the log). */
  messages: { role: string; content: string }[];
}

/**
 * Who the question's pronouns refer to, as query understanding resolved them from the conversation
 * ("And what did he say?" after a question about Daniel): a line after the user's own question,
 * which the answerer always sees as typed (never the model's paraphrase of it).
 */
export function referentLine(referents: readonly string[], lang: string): string {
  if (!referents.length) return '';
  const names = referents.join(lang === 'zh' ? '、' : ', ');
  return lang === 'zh' ? `\n（问题中的代词所指：${names}）` : `\n(Who the question's pronouns refer to, from the conversation: ${names}.)`;
}

/**
 * Streams an answer. `onDelta` receives the text as it comes (unknown citation numbers may show
 * in the stream; the returned text has them removed).
 */
export async function answerWithModel(
  client: ModelClient,
  input: { question: string; mode: string; material: string; allowed: ReadonlySet<number>; referents?: readonly string[] },
  options: { promptsDir: string; signal?: AbortSignal; onDelta?: (text: string) => void },
): Promise<ModelAnswer> {
  const lang = detectLanguage(input.question);
  const prompt = await loadPrompt(options.promptsDir, CHAT_PROMPT, lang);
  const messages = prompt.render({ mode: input.mode, material: input.material, question: input.question, referents: referentLine(input.referents ?? [], lang) });
  const res = await client.streamText({ messages, phase: 'chat', step: 'answer', signal: options.signal }, (d) => options.onDelta?.(d));
  const checked = checkAnswerCitations(res.text, input.allowed);
  return {
    text: checked.text,
    used: checked.used,
    removed: checked.removed,
    usage: res.usage,
    promptTokens: res.usage.promptTokens,
    cancelled: res.finishReason === 'cancelled',
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  };
}
