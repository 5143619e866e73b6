/**
 * The content terms of a question (issue 22): the words it is about, whatever its intent —
 * "¿Qué opinan los comentarios sobre la pelea?" is about "pelea", "What did the project manager
 * say about the remote control's price?" about "remote control" and "price". Left out: the cue
 * words of the intent ("opinan", "comentarios", "think", "怎么看", "summarize", "agree"), the
 * stopwords of the question's language (`text/stopwords.ts`: function words, verbs of speech,
 * fillers; a word too general to be a topic — "people", "gente", "问题" — only when it stands
 * apart from every content word), the question words themselves, and the words of the entities
 * the caller passes as already linked (a role or a speaker label). Chinese runs are segmented
 * with jieba (traditional characters read as simplified, the word kept as written).
 */
import { foldText } from '../../shared/textFold';
import { STOPWORDS } from '../search/tokenize';
import { contentLang } from '../text/contentFree';
import { foldWord, GENERAL_WORDS, wordClass, type StopwordLang } from '../text/stopwords';
import { tagChinese } from './chineseTagger';
import {
  cueMatches, fold, REACTION_CUES, RELATION_CUES, STRONG_RELATION_CUES, SUMMARY_CUES, TOPIC_CUES, TRANSCRIPT_CUES, type CueList,
} from './intentCues';
import type { Intent } from './query';

/** Character ranges of a question. */
export type Range = readonly [number, number];

/** jieba tags of words that carry no topic: pronouns, particles, prepositions, conjunctions, adverbs, numerals, measure words, modal particles. */
const ZH_FUNCTION_TAGS = /^(?:r|u.*|p|c|d|m|q|mq|y|e|o|x|zg|uj|ul)$/u;
/** Chinese words of the question itself (what, which, discuss, say, opinion), simplified. */
const ZH_QUESTION_WORDS = new Set(
  '什么 哪些 哪个 怎么 怎样 如何 为什么 是否 有没有 讨论 谈到 提到 说 讲 认为 觉得 看法 意见 一下 这些 那些 里面 有关 关于'.split(' '),
);

const QUESTION_WORDS = new Set(
  ('what which who whom whose why how when where did does do is are was were can could would should will tell show give list find summarize summarise ' +
    'summary explain describe please about say said says think thought discuss discussed discussing discussion discussions talk talked talking ' +
    'mention mentioned mentioning comment commented commenting elaborate elaborated exactly ' +
    'que cual cuales quien quienes como cuando donde dime dame muestra explica describe resume dice dicen cuenta habla hablan sobre exactamente ' +
    'comenta comentan comento comentaron comentar comentamos').split(/\s+/),
);

/**
 * The cue words of each intent: what the question asks for, never what it is about. The cues of
 * the comments, the audience and clips are left out by the caller for every intent (they also
 * leave the search text).
 */
const INTENT_WORDS: Record<Intent, readonly CueList[]> = {
  summary: [SUMMARY_CUES, TRANSCRIPT_CUES],
  analyze_topic: [TOPIC_CUES, SUMMARY_CUES, TRANSCRIPT_CUES],
  analyze_reception: [REACTION_CUES, TRANSCRIPT_CUES],
  search_entity: [REACTION_CUES, TRANSCRIPT_CUES],
  search_relation: [RELATION_CUES, STRONG_RELATION_CUES, REACTION_CUES, TRANSCRIPT_CUES],
  search_semantic: [REACTION_CUES, TRANSCRIPT_CUES],
  recommend_clip: [TRANSCRIPT_CUES],
  citation_lookup: [REACTION_CUES, TRANSCRIPT_CUES],
};

/** Where the cue words of `intent` are in `question`. */
export function intentWordRanges(question: string, intent: Intent): Range[] {
  return INTENT_WORDS[intent].flatMap((list) => cueMatches(question, list).map((c) => c.range));
}

/** A word of the question, where it is, and how it stands as a topic. */
interface Word {
  word: string;
  start: number;
  end: number;
  /** `content`: a topic word; `general`: one only beside a content word; `no`: never. */
  kind: 'content' | 'general' | 'no';
}

const generalSet = (l: StopwordLang): ReadonlySet<string> => new Set(GENERAL_WORDS[l].map(foldWord));
const general: Record<StopwordLang, ReadonlySet<string>> = { en: generalSet('en'), es: generalSet('es'), zh: generalSet('zh') };

/** How `w` (lower-case) stands as a topic of a question in `lang`. */
function kindOf(w: string, lang: StopwordLang): Word['kind'] {
  const cls = wordClass(w, lang);
  if (cls === 'function') return 'no';
  if (cls === 'open') return general[lang].has(foldWord(w)) || general.en.has(foldWord(w)) ? 'general' : 'content';
  return 'content';
}

/** The words of `question` in order, Chinese runs segmented. */
function wordsOf(question: string, lang: StopwordLang): Word[] {
  const out: Word[] = [];
  for (const m of question.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu)) {
    const raw = m[0];
    const at = m.index!;
    if (/\p{Script=Han}/u.test(raw)) {
      for (const part of raw.matchAll(/\p{Script=Han}+|[^\p{Script=Han}]+/gu)) {
        const p = part[0];
        const pAt = at + part.index!;
        if (!/\p{Script=Han}/u.test(p)) {
          const w = p.normalize('NFKC').toLowerCase();
          out.push({ word: w, start: pAt, end: pAt + p.length, kind: w.length < 2 || STOPWORDS.has(w) ? 'no' : kindOf(w, 'en') });
          continue;
        }
        // Traditional characters are read as simplified (jieba's dictionary); the word is kept as written.
        const simplified = foldText(p);
        const run = simplified.length === p.length ? simplified : p;
        let k = 0;
        for (const { word, tag } of tagChinese(run)) {
          const written = p.slice(k, k + word.length);
          const start = pAt + k;
          k += word.length;
          const no = word.length < 2 || ZH_FUNCTION_TAGS.test(tag) || ZH_QUESTION_WORDS.has(word);
          out.push({ word: written, start, end: start + word.length, kind: no ? 'no' : kindOf(word, 'zh') });
        }
      }
      continue;
    }
    // "the project manager's opinion": the possessive is no part of the word (nor of the role it names).
    const bare = raw.replace(/['’]s?$/u, '');
    const w = bare.normalize('NFKC').toLowerCase();
    const f = fold(w);
    const no = w.length < 2 || STOPWORDS.has(w) || STOPWORDS.has(f) || QUESTION_WORDS.has(f);
    out.push({ word: w, start: at, end: at + bare.length, kind: no ? 'no' : kindOf(w, lang) });
  }
  return out;
}

/**
 * The content terms of `question` (lower-case, as written, each once, in order): see the module
 * comment. `drop`: ranges whose words are no terms (time and citation phrases, cue words, linked
 * speaker labels); a word counts as dropped when it lies inside one.
 *
 * @example
 * questionTerms("What did the project manager say about the remote control's price?", [[13, 28]], 'search_entity')
 * // ['remote', 'control', 'price']
 */
export function questionTerms(question: string, drop: readonly Range[], intent: Intent): string[] {
  const detected = contentLang(question);
  const lang: StopwordLang = detected === 'zh' ? 'en' : detected;
  const ranges = [...drop, ...intentWordRanges(question, intent)];
  const words = wordsOf(question, lang).map((w) => (ranges.some(([a, b]) => a <= w.start && w.end <= b) ? { ...w, kind: 'no' as const } : w));
  const content = words.some((w) => w.kind === 'content');
  const out: string[] = [];
  words.forEach((w, i) => {
    // A general word is a term beside a content word ("screen time", "remote work"), or when the question has nothing else.
    const beside = words[i - 1]?.kind === 'content' || words[i + 1]?.kind === 'content';
    if (w.kind === 'content' || (w.kind === 'general' && (beside || !content))) out.push(w.word);
  });
  return [...new Set(out)];
}

/**
 * `terms` as the phrases the question says them in: terms next to each other in `question`
 * (only spaces or hyphens between; nothing between in Chinese) make one phrase, a term not
 * found in it stays alone. For the understood line: `"remote control", "price"`.
 *
 * @example
 * termPhrases("What did the project manager say about the remote control's price?", ['remote', 'control', 'price'])
 * // ['remote control', 'price']
 */
export function termPhrases(question: string, terms: readonly string[]): string[] {
  const hay = question.toLowerCase();
  const found: { term: string; at: number }[] = [];
  const loose: string[] = [];
  let from = 0;
  for (const t of terms) {
    const at = hay.indexOf(t.toLowerCase(), from);
    const anywhere = at >= 0 ? at : hay.indexOf(t.toLowerCase());
    if (anywhere < 0) loose.push(t);
    else {
      found.push({ term: t, at: anywhere });
      if (at >= 0) from = at + t.length;
    }
  }
  found.sort((a, b) => a.at - b.at);
  const phrases: { text: string; end: number }[] = [];
  for (const f of found) {
    const last = phrases[phrases.length - 1];
    if (last && f.at >= last.end && /^[\s-]*$/u.test(hay.slice(last.end, f.at))) {
      last.text += `${question.slice(last.end, f.at)}${f.term}`;
      last.end = f.at + f.term.length;
      continue;
    }
    phrases.push({ text: f.term, end: f.at + f.term.length });
  }
  return [...new Set([...phrases.map((p) => p.text.toLowerCase()), ...loose])];
}
