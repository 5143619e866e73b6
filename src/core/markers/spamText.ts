/**
 * How the spam detector reads a comment: the disguises spam uses undone
 * (full-width letters, look-alike letters, invisible characters, bracketed and
 * spaced-out words, stretched letters, disguised links such as "site dot com"
 * or "w w w . site . com") and the links found. Shared by the rules
 * (./spam) and the learned model's features (./spamFeatures).
 */

/** Cyrillic and Greek letters that look like Latin ones. */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ү: 'y', һ: 'h',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ο: 'o', ν: 'v', ρ: 'p', τ: 't', υ: 'u', ι: 'i', κ: 'k', ε: 'e', Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};
const HOMOGLYPH_CLASS = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'u');
const INVISIBLE = /[\u200B-\u200D\u2060\u00AD\u180E]/gu;
/** Words of letters (any script) and digits. */
export const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;
/** A Chinese, Japanese or Korean character. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
export const CJK_CHARS = new RegExp(CJK.source, 'gu');

/** Top-level domains that are no word in English or Spanish: a bare `name.tld` is a link. */
const TLDS = 'com|net|org|info|biz|ly|gl|gd|ru|su|pl|br|mx|cn|uk|gg|xyz|nl|ro|tk|ml|cf|vip|io|tv|cc|ws|fm|online|website|icu|buzz|shop|store|site|club';
/** Other top-level domains ("lo.es", "top.me" are words run together): a link only with a path. */
const PATH_TLDS = 'co|me|be|de|es|ar|cl|pe|us|in|app|to|am|fr|it|pt|ga|top|live|click|page|blog|space|fun|link';
/** Domains written with the dot disguised ("site dot com", "site (.) net"): only these endings, which are no word. */
const DISGUISED_TLDS = 'com|net|org|info|biz|xyz|online|website|site|club|store|shop|ru|io|tv';

/** Links: with a scheme or `www.`, a bare `name.tld` (see TLDS / PATH_TLDS), a `/watch?v=` fragment. */
export const URL_RE = new RegExp(
  String.raw`(?:\b[hH][tT][tT][pP][sS]?:\/\/|\b[wW][wW][wW]\.)[^\s<>"')\]]+|(?<![\p{L}\p{N}@.])(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+(?:(?:${TLDS})\b(?:\/[^\s<>"')\]]*)?|(?:${PATH_TLDS})\/[^\s<>"')\]]*)|(?:^|\s)\/?watch\?v=[\w-]{6,}\S*`,
  'gu',
);
/** A YouTube video id in a link. */
export const YT_ID = /(?:youtu\.be\/|[?&]v=|\/shorts\/|\/embed\/)([\w-]{11})/i;

/** Five or more single letters in a row, spaced out ("s u b s c r i b e", "s u s c r í b e t e"). */
const SPACED = /(?:^|(?<=\s))(?:[a-zA-Z\u00C0-\u024F][ _.*-]){4,}[a-zA-Z\u00C0-\u024F](?=\s|$|[!?.,])/gu;
/** A domain with its dot disguised: "site . com", "site dot com", "site(dot)com", "site (.) com", "site[.]net". */
const UNDOTTED = new RegExp(
  String.raw`(?<![a-zA-Z0-9-])([a-zA-Z0-9-]{2,63})(?:\s+\.\s*|\.\s+|\s*[([{]\s*(?:dot|\.)\s*[)\]}]\s*|\s+(?:dot|d0t|punto)\s+)(${DISGUISED_TLDS})(?=$|[\s/.,!?])`,
  'gi',
);
/** A domain written in capitals ("FASTFANS.COM"). */
const CAPITAL_DOMAIN = new RegExp(String.raw`(?<![\p{L}\p{N}@.])(?:[A-Z0-9][A-Z0-9-]{0,61}\.)+(?:${DISGUISED_TLDS.toUpperCase()})(?![\p{L}\p{N}])`, 'gu');

export interface Normalised {
  /** Lower-case, NFKC, homoglyphs folded, tricks undone, letters stretched three times or more shortened to one: what the cues read. */
  text: string;
  /** NFKC, homoglyphs folded, tricks undone, case and stretched letters kept: where links are looked for ("word.Es" is a typo, "site.es/x" a link). */
  cased: string;
  /** A second reading of `text` when spaced-out letters may have taken in a one-letter word after them; the cues read both. */
  alternative?: string;
  tricks: string[];
}

/** A letter three times or more in a row. */
const STRETCHED = /(\p{L})\1{2,}/gu;

/** Letters repeated three times or more ("SUBSCRIBEEEE", "pleaaase", "plzzz") shortened to one; "www" is kept. */
function unstretch(t: string): string {
  return mayStretch(t) ? t.replace(STRETCHED, (run, c: string) => (c === 'w' || c === 'W' ? run : c)) : t;
}

/** Whether a text may have a letter three times in a row: it has a code unit three times in a row, or a surrogate (a letter beyond the BMP takes two). */
function mayStretch(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if ((c & 0xf800) === 0xd800 || (i >= 2 && c === t.charCodeAt(i - 1) && c === t.charCodeAt(i - 2))) return true;
  }
  return false;
}

/** An invisible character between two letters or digits. */
const INVISIBLE_INSIDE = /[\p{L}\p{N}][\u200B-\u200D\u2060\u00AD\u180E][\p{L}\p{N}]/u;
const BYTE_ORDER_MARK = /\uFEFF/g;
/** A word broken by brackets: you[tube], chan(nel). */
const BRACKETED = /(?<![a-zA-Z])([a-zA-Z]{2,40})[[({]([a-zA-Z]{2,40})[\])}]/g;
/** w w w . site: the three w's spaced out. */
const SPACED_WWW = /(?<![a-zA-Z])[wW][ _*-]+[wW][ _*-]+[wW](?:\s*\.\s*|\s+dot\s+|\s*[([{]\s*(?:dot|\.)\s*[)\]}]\s*)(?=[a-zA-Z0-9])/g;

// What each step below needs to find anything: a text without it is left as it is, and the step is not run.
/** Every invisible character removed below. */
const ANY_INVISIBLE = /[\u200B-\u200D\u2060\u00AD\u180E\uFEFF]/;
/** A bracket opening inside a word ("you[tube]"). */
const ANY_BRACKET = /[[({]/;
/** A w and a separator ("w w w"). */
const ANY_SPACED_W = /[wW][ _*-]/;
/** An ending of a disguised domain after what can come right before it (a dot, a space, a closing bracket), as UNDOTTED (same flags) reads it. */
const ANY_UNDOTTED = new RegExp(String.raw`[.\s)\]}](?:${DISGUISED_TLDS})(?=$|[\s/.,!?])`, 'i');
/** A dot before a capital, as in "SITE.COM". */
const ANY_CAPITAL_DOMAIN = /\.[A-Z]/;
/** What every link has (URL_RE): "://", "www.", a dot before a lower-case letter (its ending), "watch?v=". */
const ANY_LINK = /:\/\/|[wW]{3}\.|\.[a-z]|watch\?v=/;

/**
 * Each pattern of a step of {@link normaliseForSpam} and {@link linksOf} with the hint that lets a
 * text skip it: whatever text the pattern matches, the hint matches too (the tests check it).
 */
export const SPAM_TEXT_HINTS: readonly { hint: { test(text: string): boolean }; pattern: RegExp }[] = [
  { hint: ANY_INVISIBLE, pattern: INVISIBLE_INSIDE },
  { hint: ANY_INVISIBLE, pattern: INVISIBLE },
  { hint: ANY_INVISIBLE, pattern: BYTE_ORDER_MARK },
  { hint: ANY_BRACKET, pattern: BRACKETED },
  { hint: ANY_SPACED_W, pattern: SPACED_WWW },
  { hint: ANY_UNDOTTED, pattern: UNDOTTED },
  { hint: ANY_CAPITAL_DOMAIN, pattern: CAPITAL_DOMAIN },
  { hint: { test: mayStretch }, pattern: STRETCHED },
  { hint: ANY_LINK, pattern: URL_RE },
];

/**
 * Undoes the disguises spam uses so the cues can read it: full-width letters
 * (NFKC), Cyrillic/Greek look-alikes inside Latin words, invisible characters,
 * `you[tube]`, `y o u t u b e`, `w w w`, `site . com` / `site dot com` /
 * `site(.)com`, stretched letters (`SUBSCRIBEEEE`).
 *
 * @example
 * normaliseForSpam('SUBSCRIBEEEE to mysite dot com').text // 'subscribe to mysite.com'
 */
export function normaliseForSpam(raw: string): Normalised {
  const tricks: string[] = [];
  let t = raw.normalize('NFKC');
  if (ANY_INVISIBLE.test(t)) {
    if (INVISIBLE_INSIDE.test(t)) tricks.push('invisible characters');
    t = t.replace(INVISIBLE, '').replace(BYTE_ORDER_MARK, '');
  }
  // A Latin word with Cyrillic or Greek look-alikes in it ("Рlеаse" with Cyrillic Р, е, а).
  let mixed = false;
  // (Only a text with a look-alike letter somewhere has such a word: the word-by-word pass is skipped for the others.)
  if (HOMOGLYPH_CLASS.test(t))
    t = t.replace(WORD_RUN, (w) => {
      if (!/[a-zA-Z]/.test(w) || !HOMOGLYPH_CLASS.test(w)) return w;
      mixed = true;
      return [...w].map((c) => HOMOGLYPHS[c] ?? c).join('');
    });
  if (mixed) tricks.push('look-alike letters');
  // you[tube], chan(nel): a word broken by brackets.
  const bracketed = ANY_BRACKET.test(t) ? t.replace(BRACKETED, '$1$2') : t;
  if (bracketed !== t) {
    tricks.push('bracketed word');
    t = bracketed;
  }
  // w w w . site: the three w's spaced out.
  const www = ANY_SPACED_W.test(t) ? t.replace(SPACED_WWW, 'www.') : t;
  if (www !== t) {
    tricks.push('disguised link');
    t = www;
  }
  // s u b s c r i b e, s u s c r í b e t e: five or more single letters in a row. The run may have swallowed a
  // one-letter word after it ("s u s c r í b e t e a mi canal"): a second reading leaves a final a/o/y apart.
  const spaced = t.replace(SPACED, (m) => m.replace(/[ _.*-]/g, ''));
  let alternative: string | undefined;
  if (spaced !== t) {
    tricks.push('spaced letters');
    const apart = t.replace(SPACED, (m) => m.replace(/[ _.*-]/g, '').replace(/^(.{5,})([aoyAOY])$/u, '$1 $2'));
    if (apart !== spaced) alternative = apart;
    t = spaced;
  }
  // "site . com", "site dot com", "site(dot)com", "site (.) com", "site[.]net".
  const undotted = ANY_UNDOTTED.test(t) ? t.replace(UNDOTTED, '$1.$2') : t;
  if (undotted !== t) {
    if (!tricks.includes('disguised link')) tricks.push('disguised link');
    t = undotted;
  }
  // A domain written in capitals ("FASTFANS.COM", "SITE DOT NET" once undotted): its name and ending lower-cased, so it reads as a link.
  if (ANY_CAPITAL_DOMAIN.test(t)) t = t.replace(CAPITAL_DOMAIN, (m) => m.toLowerCase());
  const stretched = unstretch(t);
  if (stretched !== t && /(\p{L})\1{2,}/u.test(t.replace(/www/gi, ''))) tricks.push('stretched letters');
  // The cues read lower case; bare domains are looked for in the original case (a TLD is lower case: "site.com", not "word.Es").
  return { text: stretched.toLowerCase(), tricks, cased: t, ...(alternative ? { alternative: unstretch(alternative).toLowerCase() } : {}) };
}

/** What the cues read of a comment: all of it up to 6,000 characters, else its first 5,000 and last 1,000 (bounded work per comment). */
export function scanned(text: string): string {
  return text.length <= 6_000 ? text : `${text.slice(0, 5_000)}\n${text.slice(-1_000)}`;
}

/** The host of a link, lower case, without `www.` or `m.`. */
export function hostOf(url: string): string {
  const m = /^(?:https?:\/\/)?([^/?#\s:]+)/i.exec(url.replace(/^\/?watch\?/, 'youtube.com/watch?'));
  return (m?.[1] ?? '').toLowerCase().replace(/^www\d*\./, '').replace(/^m\./, '');
}

/** The links of a text (normalised with {@link normaliseForSpam}, its `cased` form). */
export function linksOf(cased: string): string[] {
  return ANY_LINK.test(cased) ? [...cased.matchAll(URL_RE)].map((m) => m[0].trim()) : [];
}

/**
 * A comment read once for every part of the detector — its own cues, its template words, the
 * learned model's features — instead of once by each ({@link readForSpam}).
 */
export interface SpamReading {
  /** The comment as the cues read it ({@link scanned}). */
  raw: string;
  /** `raw` normalised ({@link normaliseForSpam}). */
  n: Normalised;
  /** The links of `n.cased` ({@link linksOf}). */
  links: string[];
  /** `n.cased` with its links replaced by a space. */
  bare: string;
  /** The words ({@link WORD_RUN}) of `n.text` with its links replaced by a space. */
  words: string[];
  /** Whether a word may have a Chinese, Japanese or Korean character ({@link CJK}: none is below U+1100); false: none has. */
  cjk: boolean;
}

/**
 * Reads a comment for the detector: scanned, normalised, its links and words found, once.
 *
 * @example
 * readForSpam('Visit mysite dot com').links // ['mysite.com']
 */
export function readForSpam(text: string): SpamReading {
  const raw = scanned(text);
  const n = normaliseForSpam(raw);
  const links = linksOf(n.cased);
  const bare = links.length ? n.cased.replace(URL_RE, ' ') : n.cased;
  const unlinked = ANY_LINK.test(n.text) ? n.text.replace(URL_RE, ' ') : n.text;
  return { raw, n, links, bare, words: unlinked.match(WORD_RUN) ?? [], cjk: /[\u1100-\uffff]/.test(unlinked) };
}
