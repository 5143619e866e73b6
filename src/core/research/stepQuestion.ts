/**
 * What a research step asks, as the search index reads it. An offline plan's step goal is a facet
 * label before the run's goal ("Facts and figures: What did the team think about distributing the
 * corpus?"); the step's question is then the run's goal. Its terms are tokenized as the index
 * tokenizes (stemmed words, Chinese bigrams): the goal's content terms (`goalContentTerms`, weight
 * 1) and the other words a search would keep ("corpus", weight ½), each weighed by its rarity in
 * the index. The speakers it names ("the project manager", "Grad A") are the labels of the items'
 * speakers that the question spells out.
 */
import type { CorpusItem } from '../corpus/types';
import type { CorpusIndex } from '../search/corpusIndex';
import { QUERY_STOPWORDS, tokenize, tokenizeQuery } from '../search/tokenize';
import { foldWord, isStopword } from '../text/stopwords';
import { goalContentTerms } from './goalScope';

/** A step's question, ready to score sentences with. */
export interface StepQuestion {
  /** The question asked (the run's goal for a facet step, else the step's goal). */
  text: string;
  /** Its searchable words as written, in order ("distributing", "corpus"): a topic search uses them. */
  words: string[];
  /** Of those, the goal's content words ("distributing"): what the question is about. */
  primaryWords: string[];
  /** Search tokens and their weights (role × rarity); empty for a question about everything ("What are the main facts?"). */
  weights: Map<string, number>;
  /** Speaker labels of the step's items that the question names, folded. */
  speakers: string[];
}

/** Weight of a term a search keeps that is not a content term of the goal ("corpus", "meeting"). */
const SECONDARY = 0.5;
/** Share of its weight a term keeps when it is a word of a speaker label the question names. */
const SPEAKER_TERM = 0.3;
/**
 * Words of research questions that a search keeps but that name no topic (the kind of answer, the
 * parts of an item, the audience, verbs of opinion), as search tokens.
 */
const RESEARCH_TOKENS = new Set(
  tokenize(
    'fact facts figure figures opinion opinions data number numbers point points main key important overall summary summarize summarise whole meeting meetings ' +
      'video videos episode episodes item items transcript transcripts comment comments commenter commenters viewer viewers audience react reaction reactions ' +
      'receive received reception respond response responses argument arguments view views theme themes topic topics ' +
      'hecho hechos dato datos cifra cifras opinión opiniones opinan opina piensan piensa dicen dice dijo comentario comentarios comentaristas audiencia ' +
      'reunión reuniones vídeo vídeos episodio episodios tema temas principal principales resumen argumento argumentos reciben recepción ' +
      'team group people everyone equipo grupo gente todos opinó opinaron opinaban pensó pensaron pensaba dijeron decía hablaron habló comentó comentaron ' +
      '看法 观点 看待 认为 觉得 评价 团队 大家 讨论 内容 会议 视频 评论 什么 哪些 如何 怎么 怎样 最近 上次 这次 今天 昨天 今年 去年 本周 上周 主要 事实 数据 数字 要点 全部 所有 总结 概述 发现',
  ),
);
/** An acronym: two to eight capitals or digits starting with a capital, as a whole word (not "I", "OK"). */
const ACRONYM = /(?<![\p{L}\p{N}])(?!OK\b)[A-Z][A-Z0-9]{1,7}(?![\p{L}\p{N}])/gu;
/** A Chinese bigram that only counts or dates ("三场", "近三", "两次"): a numeral with a measure word, another numeral or 近/前/后/最. */
const CJK_COUNT = /^(?:[一二三四五六七八九十两几百千万零][一二三四五六七八九十两几百千万零场个次位条篇年月天周]|[近前后最][一二三四五六七八九十两几])$/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORDS = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * The question a step asks: the run's goal when the step goal is a label before it ("Hechos y
 * datos: <goal>", "事实与数据：<goal>", possibly with a part suffix), else the step goal itself.
 */
export function stepQuestionText(stepGoal: string, runGoal: string | undefined): string {
  const goal = runGoal?.trim();
  return goal && goal !== stepGoal.trim() && stepGoal.includes(goal) ? goal : stepGoal.trim();
}

/** The words of a text as written (Latin words whole; Chinese cut by the word segmenter), with their offsets. */
export function surfaceWords(text: string): { word: string; index: number }[] {
  const out: { word: string; index: number }[] = [];
  for (const s of WORDS.segment(text)) if (s.isWordLike) out.push({ word: s.segment, index: s.index });
  return out;
}

/**
 * The terms of a question with their roles: content terms of the goal (1) and other searchable
 * words (½), without stopwords and question words. Rarity is not applied here ({@link stepQuestion} does).
 */
export function questionTerms(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of goalContentTerms(text)) if (!RESEARCH_TOKENS.has(t) && !CJK_COUNT.test(t)) out.set(t, 1);
  // An acronym as written ("MSG", "DAT", "LDC") names the topic even when a stopword list has it.
  for (const m of text.matchAll(ACRONYM)) for (const t of tokenize(m[0])) if (!/^\d+$/.test(t)) out.set(t, 1);
  // A Chinese bigram across two words of the question ("队对" of "团队|对") is not a term of it.
  const words = surfaceWords(text).map((w) => w.word);
  for (const t of tokenizeQuery(text)) {
    if (out.has(t) || /^\d+$/.test(t) || CJK_COUNT.test(t)) continue;
    if (CJK.test(t) && !words.some((w) => w.includes(t))) continue;
    // A query of question words only falls back to all its tokens ("summarize", "meeting"): those are not terms.
    if (QUERY_STOPWORDS.has(t) || RESEARCH_TOKENS.has(t) || [...t].length < 2 || (!CJK.test(t) && (t.length < 3 || isStopword(t, 'en') || isStopword(t, 'es')))) continue;
    out.set(t, SECONDARY);
  }
  return out;
}

/** Inverse document frequency of a term in the index (windows), at least a small floor. */
function rarity(index: CorpusIndex | undefined, term: string): number {
  if (!index || index.documentCount === 0) return 1;
  const df = index.documentFrequency(term);
  return Math.max(0.2, Math.log(1 + index.documentCount / (1 + df)));
}

/**
 * The step's question: its text, content words, weighted terms and the speakers it names among
 * `items`' speakers.
 *
 * @example
 * stepQuestion('Facts and figures: What did Grad A say about the corpus?', 'What did Grad A say about the corpus?', items, index)
 * // { text: 'What did Grad A say about the corpus?', words: ['Grad', 'A', 'corpus'], weights: Map{…}, speakers: ['grad a'] }
 */
export function stepQuestion(stepGoal: string, runGoal: string | undefined, items: readonly CorpusItem[], index?: CorpusIndex): StepQuestion {
  const text = stepQuestionText(stepGoal, runGoal);
  const roles = questionTerms(text);
  const speakers = namedSpeakers(text, items);
  // Words that name a speaker the question asks about ("project manager") weigh less as terms: who said it is scored on its own.
  const speakerTokens = new Set(speakers.flatMap((sp) => tokenize(sp)));
  const weights = new Map([...roles].map(([t, w]) => [t, w * rarity(index, t) * (speakerTokens.has(t) ? SPEAKER_TERM : 1)]));
  const all = surfaceWords(text).map((w) => w.word);
  const words = all.filter((w) => tokenize(w).some((t) => roles.has(t)));
  const primaryWords = all.filter((w) => tokenize(w).some((t) => roles.get(t) === 1));
  return { text, words: [...new Set(words)], primaryWords: [...new Set(primaryWords)], weights, speakers };
}

/** Speaker labels of `items` that `text` spells out (whole words, case and accents folded). */
export function namedSpeakers(text: string, items: readonly CorpusItem[]): string[] {
  const folded = ` ${fold(text)} `;
  const out = new Set<string>();
  for (const item of items) {
    const seen = new Set<string>();
    for (const seg of item.transcript?.segments ?? []) {
      const label = seg.speaker?.trim();
      if (!label || seen.has(label)) continue;
      seen.add(label);
      const f = fold(label);
      if (f.length >= 3 && (CJK.test(f) ? folded.includes(f) : folded.includes(` ${f} `))) out.add(f);
    }
  }
  return [...out];
}

/** Folded for matching names: lower case, accents off, punctuation and underscores as spaces. */
export function fold(text: string): string {
  return foldWord(text.normalize('NFKC')).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
