/**
 * The fixed words of a notebook (notebook.md and its exports) in English, Chinese and Spanish:
 * its title, the label of each kind of entry, the flag of a span lost after re-indexing. The
 * notebook's language is written in its first line, so it reads back with the same words.
 * Nothing here is escaped: callers write these words as they are.
 */
import type { ReportLanguage } from '../research/reportWords';
import type { EntryKind } from './schema';

export type NotebookLanguage = ReportLanguage;
export const NOTEBOOK_LANGUAGES: readonly NotebookLanguage[] = ['en', 'zh', 'es'];

export interface NotebookWords {
  title: string;
  kinds: Record<EntryKind, string>;
  /** Said above the quote of a span that could not be found after re-indexing. */
  lost: string;
  sources: string;
}

const WORDS: Record<NotebookLanguage, NotebookWords> = {
  en: {
    title: 'Notebook',
    kinds: { marker: 'Marker', 'ask-hit': 'Search hit', 'answer-sentence': 'Answer sentence', 'chat-answer': 'Chat answer', finding: 'Finding', selection: 'Selection', note: 'Note' },
    lost: '⚠ Not found after re-indexing: the quote is no longer in the item (kept where it was).',
    sources: 'Sources',
  },
  zh: {
    title: '笔记本',
    kinds: { marker: '标记', 'ask-hit': '检索结果', 'answer-sentence': '回答句', 'chat-answer': '对话回答', finding: '发现', selection: '选段', note: '笔记' },
    lost: '⚠ 重新索引后未找到：引文已不在该条目中（保留原位置）。',
    sources: '来源',
  },
  es: {
    title: 'Cuaderno',
    kinds: { marker: 'Marcador', 'ask-hit': 'Resultado de búsqueda', 'answer-sentence': 'Frase de respuesta', 'chat-answer': 'Respuesta del chat', finding: 'Hallazgo', selection: 'Selección', note: 'Nota' },
    lost: '⚠ No encontrado tras reindexar: la cita ya no está en el elemento (se mantiene donde estaba).',
    sources: 'Fuentes',
  },
};

export function notebookWords(lang: NotebookLanguage): NotebookWords {
  return WORDS[lang];
}

export function isNotebookLanguage(s: string): s is NotebookLanguage {
  return (NOTEBOOK_LANGUAGES as readonly string[]).includes(s);
}
