/**
 * What the learned spam model (./spamModel) reads of a comment: word unigrams
 * and bigrams, character 3- to 5-grams of each word (robust to misspelling),
 * Chinese/Japanese/Korean characters and their pairs, the links' hosts and
 * endings, and a few shapes (capitals, a link, punctuation runs, length). The
 * text is read as the rules read it ({@link normaliseForSpam}: disguises undone,
 * stretched letters shortened); digits are one class. Each of a comment's
 * features has the value 1/√n (n: its number of distinct features), so a long
 * comment does not weigh more than a short one. Features are named by a 32-bit
 * hash of their text (FNV-1a, base 36): the model file holds weights, not words.
 */
import { CJK, hostOf, linksOf, normaliseForSpam, scanned, URL_RE, WORD_RUN } from './spamText';

/** The feature set's version: part of the model file (a model is only read with the features it was trained on). */
export const SPAM_FEATURES_VERSION = 1;

/** Character n-gram lengths taken inside each Latin word (padded with `_`). */
export const CHAR_NGRAMS = [3, 4, 5] as const;

/** The words of a normalised text, links removed: Latin words whole, each CJK character on its own; numbers as `0`. */
function wordsOf(text: string): string[] {
  return featureWords(text.replace(URL_RE, ' ').match(WORD_RUN) ?? []);
}

/**
 * The words the features read of a text's word runs ({@link WORD_RUN}, links removed): Latin words
 * whole, each CJK character on its own; numbers as `0`. `cjk` false: the caller knows no run has a
 * CJK character.
 */
export function featureWords(runs: readonly string[], cjk = true): string[] {
  const out: string[] = [];
  for (const w of runs) {
    if (cjk && CJK.test(w)) {
      let run = '';
      for (const ch of w) {
        if (CJK.test(ch)) {
          if (run) out.push(numberClass(run));
          run = '';
          out.push(ch);
        } else run += ch;
      }
      if (run) out.push(numberClass(run));
    } else out.push(numberClass(w));
  }
  return out;
}

/** `0` for a number (a word starting with a-z is none). */
function numberClass(w: string): string {
  const c = w.charCodeAt(0);
  if (c >= 97 && c <= 122) return w;
  return /^\p{N}+$/u.test(w) ? '0' : w;
}

/** The name a feature has in the model: FNV-1a of its text over UTF-16 code units, base 36. */
export function featureKey(feature: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * The features of a comment (by {@link featureKey}) and their values.
 *
 * @example
 * spamFeatures('Check out my channel!').has(featureKey('b:my channel')) // true
 */
export function spamFeatures(raw: string): Map<string, number> {
  const n = normaliseForSpam(scanned(raw));
  const names = new Set<string>();
  const links = linksOf(n.cased);
  for (const link of links) {
    names.add('m:link');
    const host = hostOf(link);
    const labels = host.split('.').filter(Boolean);
    if (labels.length >= 2) {
      names.add(`t:${labels[labels.length - 1]}`);
      names.add(`h:${labels[labels.length - 2]}`);
    }
    if (/[?&=]/.test(link)) names.add('m:link-query');
  }
  const words = wordsOf(n.text);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    names.add(`w:${w}`);
    if (i + 1 < words.length) names.add(`b:${w} ${words[i + 1]}`);
    if (CJK.test(w) || w === '0') continue;
    const padded = `_${w}_`;
    for (const k of CHAR_NGRAMS) for (let j = 0; j + k <= padded.length; j++) names.add(`c:${padded.slice(j, j + k)}`);
  }
  // Shapes: capitals (of the text without links), a run of ! or ?, length class, no words at all.
  const bare = n.cased.replace(URL_RE, ' ');
  const letters = (bare.match(/\p{L}/gu) ?? []).length;
  const upper = (bare.match(/\p{Lu}/gu) ?? []).length;
  if (letters >= 8 && upper / letters >= 0.6) names.add('m:caps');
  if (/[!?]{3,}/u.test(bare)) names.add('m:punct-run');
  if (n.tricks.length) names.add('m:tricks');
  names.add(`m:len${words.length === 0 ? 0 : Math.min(6, Math.ceil(Math.log2(words.length + 1)))}`);
  const value = 1 / Math.sqrt(names.size);
  return new Map([...names].map((f) => [featureKey(f), value]));
}
