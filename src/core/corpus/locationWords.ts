/**
 * The fixed words of a location label (src/core/corpus/locationLabel.ts) in English, Chinese and
 * Spanish: the turn of a transcript without times, a comment's likes and number, further comments.
 * A label is written in the language of the text it points into (as a report is written in its
 * items' language: research/reportWords.ts), so a Chinese meeting's hit says `第 215 次发言`, a
 * Spanish comment `12 me gusta`. Nothing here is escaped: callers escape what they put around it.
 *
 * @example
 * locationWords('es').turns(565, 569)  // 'turnos 565–569'
 * locationWords('zh').likes(12)        // '12 赞'
 */
import { detectLanguageEsEnZh } from '../llm/langDetect';

/** The languages a label is written in (a report's: research/reportWords.ts). */
export type LocationLanguage = 'en' | 'zh' | 'es';

export interface LocationWords {
  lang: LocationLanguage;
  /** One transcript turn, numbered from 1 as the readable view numbers them. */
  turn(n: number): string;
  /** A span over turns `from`–`to`. */
  turns(from: number, to: number): string;
  /** Line `n` of the original file (a transcript without speakers or times: its units are the file's lines). */
  line(n: number): string;
  /** Lines `from`–`to` of the original file. */
  lines(from: number, to: number): string;
  /** A comment's likes (never said for 0). */
  likes(n: number): string;
  /** A comment without an author, by its number from 1. */
  commentNo(n: number): string;
  /** A comment whose place is not known. */
  comment: string;
  /** A comment by its id (`comment abc123`). */
  commentId(id: string): string;
  /** Further comments a span covers (`+2 comments`). */
  moreComments(n: number): string;
  /** How many comments a span covers (`3 comments`). */
  comments(n: number): string;
}

const en = (n: number): string => n.toLocaleString('en-US');

const WORDS: Record<LocationLanguage, LocationWords> = {
  en: {
    lang: 'en',
    turn: (n) => `turn ${n}`,
    turns: (a, b) => `turns ${a}–${b}`,
    line: (n) => `line ${n}`,
    lines: (a, b) => `lines ${a}–${b}`,
    likes: (n) => `${en(n)} ${n === 1 ? 'like' : 'likes'}`,
    commentNo: (n) => `comment #${n}`,
    comment: 'comment',
    commentId: (id) => `comment ${id}`,
    moreComments: (n) => `+${en(n)} ${n === 1 ? 'comment' : 'comments'}`,
    comments: (n) => `${en(n)} ${n === 1 ? 'comment' : 'comments'}`,
  },
  zh: {
    lang: 'zh',
    turn: (n) => `第 ${n} 次发言`,
    turns: (a, b) => `第 ${a}–${b} 次发言`,
    line: (n) => `第 ${n} 行`,
    lines: (a, b) => `第 ${a}–${b} 行`,
    likes: (n) => `${en(n)} 赞`,
    commentNo: (n) => `第 ${n} 条评论`,
    comment: '评论',
    commentId: (id) => `评论 ${id}`,
    moreComments: (n) => `另 ${en(n)} 条评论`,
    comments: (n) => `${en(n)} 条评论`,
  },
  es: {
    lang: 'es',
    turn: (n) => `turno ${n}`,
    turns: (a, b) => `turnos ${a}–${b}`,
    line: (n) => `línea ${n}`,
    lines: (a, b) => `líneas ${a}–${b}`,
    likes: (n) => `${n.toLocaleString('es-ES')} me gusta`,
    commentNo: (n) => `comentario n.º ${n}`,
    comment: 'comentario',
    commentId: (id) => `comentario ${id}`,
    moreComments: (n) => `+${n.toLocaleString('es-ES')} ${n === 1 ? 'comentario' : 'comentarios'}`,
    comments: (n) => `${n.toLocaleString('es-ES')} ${n === 1 ? 'comentario' : 'comentarios'}`,
  },
};

/** The words of a label in `lang`. */
export function locationWords(lang: LocationLanguage): LocationWords {
  return WORDS[lang];
}

/** The language of each text a label was asked about, found once (the parts of an item are kept as long as the item). */
const known = new WeakMap<object, LocationLanguage>();

/** The words for a label into `text` (an item's transcript or comments), by the language of that text; `key` holds the result. */
export function locationWordsOf(key: object, text: string): LocationWords {
  let lang = known.get(key);
  if (!lang) {
    lang = detectLanguageEsEnZh(text);
    known.set(key, lang);
  }
  return WORDS[lang];
}
