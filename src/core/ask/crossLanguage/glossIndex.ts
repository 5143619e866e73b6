/**
 * English → Chinese: the reverse index of CC-CEDICT's glosses (cedict.ts), built on first use
 * (once per process, ~0.5–1 s) from the cleaned glosses of every entry (at most
 * {@link MAX_GLOSS_WORDS} words each, so its size is bounded by the dictionary's: ~170,000
 * glosses).
 *
 * A gloss's key is its words lower-cased and stemmed as the search index stems them ("remote
 * controls" and "remote control" meet). Two maps:
 *  - `exact`: the whole gloss ("belief", "remote control", "network");
 *  - `head`: the first word of a gloss of several words ("shanghai" → "Shanghai municipality",
 *    "microsoft" → "Microsoft Corporation"): for a word no gloss is as a whole.
 * A posting packs into one number the entry's number, how many senses it has, the gloss's place
 * among them (0 = its main sense), whether the gloss is a name (capitalised) and its words.
 */
import { stem } from '../../search/tokenize';
import { cedict, cleanGlosses, MAX_GLOSS_WORDS, type Cedict } from './cedict';

/** One gloss an entry has for a key. */
export interface GlossPosting {
  entry: number;
  /** The gloss's place among the entry's glosses (0 = first, capped at 7). */
  position: number;
  /** The gloss is capitalised (a name: "Microsoft Corporation", "Shanghai municipality"). */
  name: boolean;
  /** Words of the gloss (capped at 7). */
  words: number;
  /** Glosses (senses) of the entry (capped at 15). */
  senses: number;
}

export interface GlossIndex {
  exact(key: string): GlossPosting[];
  head(word: string): GlossPosting[];
  readonly keys: number;
}

/**
 * The key of an English phrase: its words lower-cased, stemmed, joined by one space.
 *
 * @example glossKey('Remote Controls') // 'remote control'
 */
export function glossKey(phrase: string): string {
  const words = phrase.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g);
  if (!words) return '';
  let key = '';
  for (const w of words) key += (key ? ' ' : '') + stem(w.includes("'") ? w.slice(0, w.indexOf("'")) : w);
  return key;
}

/** A posting as one number: entry × 2048 + senses × 128 + position × 16 + name × 8 + words. */
const pack = (p: GlossPosting): number => p.entry * 2048 + Math.min(p.senses, 15) * 128 + Math.min(p.position, 7) * 16 + (p.name ? 8 : 0) + Math.min(p.words, 7);

function unpack(n: number): GlossPosting {
  const low = n % 2048;
  return { entry: (n - low) / 2048, senses: low >> 7, position: (low >> 4) & 7, name: (low & 8) !== 0, words: low & 7 };
}

/** Postings of a key: one number, or a list when several. */
type Postings = number | number[];

function push(map: Map<string, Postings>, key: string, posting: number): void {
  const at = map.get(key);
  if (at === undefined) map.set(key, posting);
  else if (typeof at === 'number') map.set(key, [at, posting]);
  else at.push(posting);
}

const postingsOf = (at: Postings | undefined): GlossPosting[] => (at === undefined ? [] : typeof at === 'number' ? [unpack(at)] : at.map(unpack));

/** Builds the reverse index of `dict` (every entry's cleaned glosses). */
export function buildGlossIndex(dict: Cedict): GlossIndex {
  const exact = new Map<string, Postings>();
  const head = new Map<string, Postings>();
  for (let i = 0; i < dict.size; i++) {
    const glosses = cleanGlosses(dict.englishAt(i));
    glosses.forEach((g, position) => {
      const key = glossKey(g);
      if (!key) return;
      const words = key.split(' ').length;
      if (words > MAX_GLOSS_WORDS) return;
      const posting = pack({ entry: i, position, name: /^[A-Z]/.test(g), words, senses: glosses.length });
      push(exact, key, posting);
      if (words > 1) push(head, key.slice(0, key.indexOf(' ')), posting);
    });
  }
  return {
    exact: (key) => postingsOf(exact.get(key)),
    head: (word) => postingsOf(head.get(word)),
    keys: exact.size,
  };
}

let built: GlossIndex | undefined;

/** The reverse index of the dictionary, built on first call. */
export function glossIndex(): GlossIndex {
  built ??= buildGlossIndex(cedict());
  return built;
}
