/**
 * Tokenisation for search, for English (and other space-separated languages)
 * and Chinese/Japanese: lower-cased NFKC text; letter/digit runs become words
 * (light English stemming, stopwords dropped); CJK runs become overlapping
 * character bigrams (a single character stays a unigram).
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const TOKEN_RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}]+)?/gu;
/** Splits a letter run into its CJK and non-CJK parts ("ev续航500" → "ev", "续航", "500"). */
const SCRIPT_PARTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** English function words: never indexed or searched. */
export const STOPWORDS = new Set(
  ('a an and are as at be been but by can could did do does doing for from had has have having he her here hers him his how i if in into is it its ' +
    "it's itself just me more most my no nor not of off on once only or other our ours out over own same she should so some such than that the their " +
    'theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will with ' +
    "would you your yours yourself um uh yeah okay ok mm hmm oh gonna wanna let's i'm don't that's it's we're they're you're i've i'd i'll s t re ve ll d m " +
    'de la el en y los las del se que por un una con para es al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también ' +
    'me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él ' +
    'tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas nosotras vosotros')
    .split(/\s+/),
);

/**
 * Words that carry no topic in a question ("What did the group discuss about
 * X?"): dropped from queries only, so documents that use them still match the rest.
 */
export const QUERY_STOPWORDS = new Set(
  ('discuss discussed discussion discussing talk talked talking say said says mention mentioned mentions think thought thinks opinion opinions ' +
    'group team meeting meetings summarize summarise summary what whats why how when who which whether did does do decide decided decision ' +
    'speaker speakers people person everyone anyone member members question questions regarding about towards toward according consider considered ' +
    '讨论 什么 如何 怎么 为什么 哪些 关于 认为 觉得 会议 大家 我们 他们 你们 这个 那个 一个 就是 然后 所以 因为 但是 还是 可以 没有 这样 那么 的话')
    .split(/\s+/),
);

/** Chinese particles and conjunctions: a query bigram that spans one ("链的", "的有") is noise. */
const CJK_PARTICLE = /[的了和与及着吗呢吧啊或]/u;

/** A light English suffix stripper: plurals, -ing, -ed, -ly; leaves short words alone. */
export function stem(w: string): string {
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2));
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Tokens of a CJK run: overlapping bigrams, or the character itself when alone. */
function cjkTokens(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/**
 * Tokens of `text` for indexing.
 *
 * @example tokenize('Remote controls cost 12.5 euros') → ['remote', 'control', 'cost', '12', '5', 'euro']
 * @example tokenize('电动车续航') → ['电动', '动车', '车续', '续航']
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC').toLowerCase();
  // A text without CJK characters (most of them) has no word to split by script.
  const cjk = CJK_RUN.test(norm);
  for (const m of norm.matchAll(TOKEN_RUN)) {
    if (!cjk || !CJK_RUN.test(m[0])) {
      wordToken(m[0], out);
      continue;
    }
    for (const part of m[0].matchAll(SCRIPT_PARTS)) {
      if (CJK_RUN.test(part[0])) cjkTokens(part[0], out);
      else wordToken(part[0], out);
    }
  }
  return out;
}

/** The token of each word met so far (null: a stopword), found once; bounded. */
const wordTokens = new Map<string, string | null>();
const MEMO_WORDS = 100_000;

/** A non-CJK word: dropped when a stopword, otherwise stemmed (the part before an apostrophe). */
function wordToken(run: string, out: string[]): void {
  let t = wordTokens.get(run);
  if (t === undefined) {
    t = tokenOfWord(run);
    if (wordTokens.size >= MEMO_WORDS) wordTokens.clear();
    wordTokens.set(run, t);
  }
  if (t !== null) out.push(t);
}

function tokenOfWord(run: string): string | null {
  const w = run.replace('’', "'");
  if (STOPWORDS.has(w)) return null;
  const base = w.includes("'") ? w.slice(0, w.indexOf("'")) : w;
  if (!base || STOPWORDS.has(base)) return null;
  return stem(base);
}

/** Tokens of a query: as {@link tokenize}, without question words, de-duplicated. */
export function tokenizeQuery(query: string): string[] {
  const norm = query.normalize('NFKC').toLowerCase();
  let cleaned = norm;
  for (const w of QUERY_STOPWORDS) if (/[^ -~]/.test(w)) cleaned = cleaned.split(w).join(' ');
  const tokens = tokenize(cleaned).filter((t) => !QUERY_STOPWORDS.has(t) && !(t.length === 2 && CJK_PARTICLE.test(t)));
  const unique = [...new Set(tokens)];
  return unique.length ? unique : [...new Set(tokenize(norm))];
}
