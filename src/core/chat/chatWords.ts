/**
 * The fixed words of a chat answer written without a model, in English, Chinese and Spanish
 * (issue 22: Spanish questions were answered under English labels). The language is the
 * question's (`detectLanguageEsEnZh`). Nothing here is escaped: callers escape what they put in.
 *
 * @example
 * chatWords('¿Qué dijo Marta sobre los precios?').fromCorpus // 'Del corpus (extractivo: sus propias frases, sin modelo):'
 */
import { detectLanguageEsEnZh } from '../llm/langDetect';

export interface ChatWords {
  lang: 'en' | 'zh' | 'es';
  /** Heads an answer made of the corpus's own sentences. */
  fromCorpus: string;
  /** Heads an answer made of the report's own lines. */
  fromReport: string;
  /** No sentence of the corpus answers: `why` says why (English, from `whyNoHits`). */
  nothing(why: string | undefined): string;
  /** Numbers asked for that no citation carries (`numbers` already formatted). */
  noCitation(numbers: string): string;
}

const WORDS: Record<ChatWords['lang'], ChatWords> = {
  en: {
    lang: 'en',
    fromCorpus: 'From the corpus (extractive: its own sentences, no model):',
    fromReport: 'From the report (extractive: its own lines, no model):',
    nothing: (why) => `Nothing in the corpus answers this question${why ? `: ${why}` : '.'}`,
    noCitation: (numbers) => `There is no citation ${numbers} in this conversation.`,
  },
  zh: {
    lang: 'zh',
    fromCorpus: '语料中的相关原句（摘录，未使用模型）：',
    fromReport: '报告中与此相关的内容（摘录，未使用模型）：',
    nothing: (why) => `语料中没有找到回答这个问题的内容${why ? `（${why}）` : '。'}`,
    noCitation: (numbers) => `没有编号为 ${numbers} 的引用。`,
  },
  es: {
    lang: 'es',
    fromCorpus: 'Del corpus (extractivo: sus propias frases, sin modelo):',
    fromReport: 'Del informe (extractivo: sus propias líneas, sin modelo):',
    nothing: (why) => `Nada en el corpus responde a esta pregunta${why ? ` (${why})` : '.'}`,
    noCitation: (numbers) => `No hay ninguna cita ${numbers} en esta conversación.`,
  },
};

/** The fixed words for an answer to `question`, in its language. */
export function chatWords(question: string): ChatWords {
  return WORDS[detectLanguageEsEnZh(question)];
}
