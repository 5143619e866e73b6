/**
 * One term of a question in the corpus's other language, by CC-CEDICT (cedict.ts, glossIndex.ts):
 *  - Chinese → English: the term's entries (simplified or traditional headword; a run no entry
 *    has as a whole is split into the longest headwords it holds), their cleaned glosses, the main
 *    sense first and short glosses before long ones;
 *  - English → Chinese: the entries that have the phrase as a whole gloss (the phrase's longest
 *    runs of words first: "remote control" before "remote", "control"), else a gloss it begins
 *    ("shanghai" → "Shanghai municipality"); main senses and entries with few senses first; a
 *    name asked with a capital prefers names, a lower-case word the rest.
 * With the search index's frequencies, a translation the corpus never says is dropped, and on the
 * English → Chinese side a more frequent one is preferred a little (the usual word of several
 * synonyms); the written form (simplified or traditional) is the one the corpus uses.
 */
import { tokenize } from '../../search/tokenize';
import { cedict, glossesOf } from './cedict';
import { glossIndex, glossKey, type GlossPosting } from './glossIndex';

/** How often the corpus says a token (a search-index token: a stemmed word, a CJK bigram). */
export interface TermFrequencies {
  /** Chunks that hold `token` (0 = never said). */
  frequency(token: string): number;
  /** Chunks in the index. */
  readonly documents: number;
}

/** A translation with its score (higher is better). */
export interface Translation {
  text: string;
  score: number;
}

const HAN = /\p{Script=Han}/u;

/** The least frequency of `text`'s search tokens (0 when one is never said; undefined when it has none, e.g. only stopwords). */
function presence(text: string, stats: TermFrequencies): number | undefined {
  const tokens = tokenize(text);
  if (!tokens.length) return undefined;
  let min = Number.POSITIVE_INFINITY;
  for (const t of new Set(tokens)) min = Math.min(min, stats.frequency(t));
  return min;
}

/** Splits a Chinese run into the longest headwords it holds (two characters or more); characters no headword covers are left out. */
export function splitByDictionary(run: string): string[] {
  const dict = cedict();
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i < chars.length; ) {
    let taken = 0;
    for (let n = Math.min(dict.maxHeadword, chars.length - i); n >= 2; n--) {
      if (dict.lookup(chars.slice(i, i + n).join('')).length) {
        taken = n;
        break;
      }
    }
    if (taken) out.push(chars.slice(i, i + taken).join(''));
    i += taken || 1;
  }
  return out;
}

/** A gloss's words: short ones are translations, long ones paraphrases. */
const lengthFactor = (words: number): number => (words <= 2 ? 1 : words === 3 ? 0.7 : 0.5);

/**
 * English translations of a Chinese term, best first, at most `k` (each a distinct set of search tokens).
 *
 * @example chineseToEnglish('信念', 2) // [{ text: 'faith', … }, { text: 'belief', … }]
 */
export function chineseToEnglish(term: string, k: number, stats?: TermFrequencies, namesOnly = false): Translation[] {
  const dict = cedict();
  const whole = dict.lookup(term);
  const pieces = whole.length ? [term] : splitByDictionary(term);
  const out: Translation[] = [];
  // A compound no entry has ("项目经理") whose parts' glosses make a phrase some entry has ("project manager"): that phrase first.
  if (pieces.length === 2) out.push(...best(compoundGlosses(pieces[0]!, pieces[1]!, namesOnly), 1, stats));
  for (const piece of pieces) {
    const scored: Translation[] = [];
    dict.lookup(piece).forEach((e, entryAt) => {
      glossesOf(e).forEach((g, pos) => {
        if (namesOnly && !/^[A-Z]/.test(g)) return;
        const words = g.split(' ').length;
        const score = (1 / (1 + pos)) * (1 / (1 + 0.25 * entryAt)) * lengthFactor(words);
        scored.push({ text: g, score });
      });
    });
    out.push(...best(scored, Math.max(1, Math.ceil(k / pieces.length)), stats));
  }
  return out.slice(0, Math.max(k, pieces.length));
}

/** Phrases of a gloss of `a` then one of `b` that are a whole gloss of some entry (an English compound the dictionary knows). */
function compoundGlosses(a: string, b: string, namesOnly: boolean): Translation[] {
  const dict = cedict();
  const index = glossIndex();
  const senses = (w: string): string[] => dict.lookup(w).flatMap((e) => glossesOf(e)).filter((g) => g.split(' ').length <= 2).slice(0, 6);
  const out: Translation[] = [];
  const bs = senses(b);
  senses(a).forEach((ga, i) => {
    bs.forEach((gb, j) => {
      const phrase = `${ga} ${gb}`;
      if (namesOnly && !/^[A-Z]/.test(phrase)) return;
      if (index.exact(glossKey(phrase)).length) out.push({ text: phrase, score: 2 / (1 + i + j) });
    });
  });
  return out;
}

/** The best `k` of `scored` with distinct search tokens, dropping those the corpus never says (when its frequencies are given). */
function best(scored: Translation[], k: number, stats?: TermFrequencies): Translation[] {
  scored.sort((a, b) => b.score - a.score);
  const seen = new Set<string>();
  const out: Translation[] = [];
  for (const t of scored) {
    const key = tokenize(t.text).join(' ');
    if (!key || seen.has(key)) continue;
    if (stats && !presence(t.text, stats)) continue;
    seen.add(key);
    out.push(t);
    if (out.length >= k) break;
  }
  return out;
}

/** The written form of an entry the corpus uses (traditional when only it is said), and how often. */
function writtenForm([simplified, traditional]: readonly [string, string], stats?: TermFrequencies): { text: string; df: number } {
  if (!stats) return { text: simplified, df: 1 };
  const s = presence(simplified, stats) ?? 0;
  if (traditional === simplified) return { text: simplified, df: s };
  const t = presence(traditional, stats) ?? 0;
  return t > s ? { text: traditional, df: t } : { text: simplified, df: s };
}

/** Chinese candidates of one English key: whole glosses, else glosses it begins. */
function candidatesOf(key: string, name: boolean, namesOnly: boolean, stats?: TermFrequencies): Translation[] {
  const index = glossIndex();
  const dict = cedict();
  let postings: (GlossPosting & { head: boolean })[] = index.exact(key).map((p) => ({ ...p, head: false }));
  if (!key.includes(' ') && !postings.some((p) => p.name === name)) postings = [...postings, ...index.head(key).filter((p) => p.words <= 3).map((p) => ({ ...p, head: true }))];
  if (namesOnly) postings = postings.filter((p) => p.name);
  const out: Translation[] = [];
  for (const p of postings) {
    const form = writtenForm(dict.headwordsAt(p.entry), stats);
    if (stats && form.df === 0) continue;
    let score = (p.head ? 0.5 : 1) / (1 + p.position);
    score *= 1 / (1 + 0.1 * (p.senses - 1));
    // A name asked as a name ("Microsoft") prefers the entries that are names; a lower-case word the others.
    score *= p.name === name ? 1 : 0.3;
    // One character is rarely the word meant; a long compound ("发展研究中心") is a name of its own, its bigrams all said apart.
    const chars = [...form.text].length;
    if (chars < 2) score *= 0.4;
    else if (chars > 4) score *= 0.5;
    if (stats) score *= 1 + (0.5 * Math.log(1 + form.df)) / Math.log(2 + stats.documents);
    out.push({ text: form.text, score });
  }
  return out;
}

/**
 * Chinese translations of an English phrase, at most `k` per run of words translated: the
 * longest runs (up to four words) that are a gloss as a whole first, each remaining word alone.
 * `name`: the phrase was written capitalised (a name).
 *
 * @example englishToChinese('remote control', 2) // [{ text: '遥控', … }, { text: '遥控器', … }]
 */
export function englishToChinese(phrase: string, k: number, stats?: TermFrequencies, options: { name?: boolean; namesOnly?: boolean } = {}): Translation[] {
  const words = glossKey(phrase).split(' ').filter(Boolean);
  const out: Translation[] = [];
  for (let i = 0; i < words.length; ) {
    let done = 0;
    for (let n = Math.min(4, words.length - i); n >= 1; n--) {
      const cands = candidatesOf(words.slice(i, i + n).join(' '), !!options.name, !!options.namesOnly, stats);
      const chosen = best(cands, k);
      if (chosen.length || n === 1) {
        out.push(...chosen);
        done = n;
        break;
      }
    }
    i += done;
  }
  return out.filter((t) => HAN.test(t.text));
}
