/**
 * Content-free units: a turn, sentence, comment or finding that says nothing a researcher would
 * read — a backchannel ("Yeah.", "Mm-hmm.", "Sí, claro.", "对对对", "好的好的"), a filler run
 * ("Um, uh, so…"), an annotation ("{vocalsound}", "[Música]", "(risas)"), or talk with too few
 * content words ("That's all there is to say, I guess about it.", "Or like I dunno, some of you
 * can kind of think see as like"). Such a unit stays in the readable view but is never shown as
 * content: never a marker, an Ask hit or focus, a report finding or a chat line.
 *
 * **Words and content words.** The text is first cleaned by the cleaner's own rules
 * (`cleanText`: annotations, fillers, stutters out). Its words are then: for Latin script, runs
 * of letters/digits (inner apostrophes and hyphens kept: "we're", "mm-hmm"); for Chinese, the
 * words of the ICU word segmenter (`Intl.Segmenter('zh')`, as the keyphrases use), traditional
 * characters folded to simplified ones first; a single character the segmenter leaves next to a
 * content word is part of it ("养老|金" is one word, 养老金), so a rare compound counts once. A word is a *content word* unless it is
 * - a stopword of the text's language in stopwords-iso (English's too for Spanish and Chinese
 *   text: code-switching, loanwords), matched case- and accent-insensitively;
 * - a spoken filler by the cleaner's rules (`isSpokenFiller`: uh, ummm, mm-hmm, 嗯, 呃);
 * - a backchannel, interjection, hedge or spoken reduction of the language (the closed classes
 *   below: yeah, alright, gonna, dunno; vale, tío, o sea; 对对, 好的, 觉得, 然后呢), laughter
 *   (haha, jajaja, 哈哈) or one letter repeated (mmm, nnn);
 * - a single Latin letter, or a Chinese word made only of response characters (对, 好, 是, 的,
 *   嗯, 啊, 哦, 行, 哈, 吧 …) and single-character stopwords: the segmenter cuts "是的是的" into
 *   是|的是|的 and "委员会对吧" into 委员|会对|吧.
 * Numbers written in digits are content ("5 %", "2023") — not time stamps ("41:02", "1:46:32"),
 * which are taken out before counting; spoken number words are
 * stopwords as stopwords-iso has them ("twenty - eight to thirty - two dollars an hour" has two
 * content words), as in the measure the project is judged by.
 *
 * **The rule.** With W the words and C the content words, a unit is content-free when
 * 1. W is empty (only annotations, fillers, punctuation); or
 * 2. C is empty once response words are left out as well ("Great, thanks!", "Perfecto, gracias",
 *    "明白了，谢谢"): response words ({@link RESPONSE}) count as content inside a sentence ("the
 *    design is nice") but a unit made only of them is a reply, not content; or
 * 3. C has fewer than 3 words and they are less than half of W. So short real content is kept —
 *    "Prices rose 5 %." (3 of 3), "El precio sube." (2 of 3), "价格上涨了" (价格|上涨|了: 2 of 3),
 *    "Valentino Rossi" — while "so, yeah, I think we're OK, until we get the new disk." (1 of 12)
 *    is content-free; or
 * 4. the unit is long and its content words are too few for its length: fewer than
 *    {@link MIN_DENSITY} of its words once it has {@link DENSITY_FROM_WORDS} words or more (a
 *    sentence of thirty-three words with three content words is filler around them).
 * A unit of six words or more with fewer than three content words is therefore always
 * content-free. What must stand alone — a marker, a report finding — is judged `strict`: fewer
 * than three content words is content-free whatever the length ("¡Qué locura!", "El precio
 * sube."), so the marker target ("markers with fewer than 3 non-stopword words") is met by
 * construction wherever markers and findings consult this predicate.
 */
import stopwordsIso from 'stopwords-iso';
import { detectLanguageEsEnZh } from '../llm/langDetect';
import { foldText } from '../../shared/textFold';
import { cleanText, isSpokenFiller } from './clean';

/** The languages the predicate knows; other text is judged as English. */
export type ContentLang = 'en' | 'es' | 'zh';

/**
 * Below this share of content words, a long unit is filler around a few words (rule 4). Measured
 * on qmsum-dev's and yt-podcast-es-dev's extractive markers: real spoken sentences have 12–20 %
 * content words by stopwords-iso (its English list has 1,298 words), rambling ones under 10 %.
 */
export const MIN_DENSITY = 0.1;
/** Rule 4 applies from this many words on. */
export const DENSITY_FROM_WORDS = 20;
/** Fewer content words than this (and less than half the words) make a unit content-free (rule 3). */
export const MIN_CONTENT_WORDS = 3;

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/**
 * Backchannels, interjections, hedges and spoken reductions: never content words. Closed classes
 * of speech that stopwords-iso (built from written text) leaves out; laughter and stretched
 * letters are matched by shape ({@link isInterjectionShape}).
 */
const SPOKEN: Readonly<Record<ContentLang, readonly string[]>> = {
  en: words(`
    yeah yea yep yup yah ya nah nope ok okay okey k kk alright allright aight right sure uh-huh mm-hmm mhm hmm hm huh
    oh ah aha ahh ooh oops wow whoa gosh jeez hey hi hello bye goodbye thanks thank cheers sorry pardon please lol lmao
    yay ugh argh shh psst gotcha gonna wanna gotta kinda sorta lemme gimme cuz coz cos dunno y'know ya'll guess reckon
    suppose supposedly honestly basically literally like mean anyway anyways whatever stuff bit lot lots thing things`),
  es: words(`
    sí si vale claro bueno ya ajá aja okey ok oki venga vaya eh ah oh uf ay ea hala hombre mujer mira oye dale sale órale
    orale gracias tío tía tíos tías tio tia rollo digamos o sea osea pues nada bueno sabes sabe sé ves mira creo pienso
    digo dices dijo pasa tipo cosa cosas literal literalmente básicamente basicamente obviamente realmente igual hola adiós
    adios perdón perdon porfa`),
  zh: words(`
    嗯 嗯嗯 对 对对 对对对 对啊 对吧 对呀 是 是的 是啊 是吧 是呀 好 好的 好吧 好啊 好呀 行 行吧 哦 噢 喔 啊 呀 哈 哈哈 呵呵 嘿 嘿嘿
    诶 欸 唉 哎 哎呀 嗯哼 谢谢 感谢 再见 拜拜 那个 这个 就是 就是说 然后 然后呢 其实 反正 大概 基本上 所谓 觉得 我觉得 认为 知道
    一下 一点 这种 那种 真的 非常 比较 特别 已经 现在 没有 可能 应该 还是 的话 好像 感觉 什么的 之类 之类的 等等 哈哈哈 行行 好好
    怎么说 怎么说呢 这么说 也就是说 所以说 就是说 可以说 换句话说 说实话 老实说`),
};

/**
 * Hedges and fillers of several words, whose words may be content words alone ("sort of", "to be
 * honest", "en plan", "lo que pasa es que"): the whole phrase is no content. Chinese phrases
 * match however the segmenter cut them.
 */
const SPOKEN_PHRASES: Readonly<Record<ContentLang, readonly string[]>> = {
  en: ['sort of', 'kind of', 'to be honest', 'you know', 'i mean', 'as i said', 'or something', 'and stuff', 'at the end of the day', 'in a way', 'more or less'],
  es: ['en plan', 'o sea', 'lo que pasa es que', 'lo que pasa', 'y tal', 'no sé qué', 'a ver', 'de alguna manera', 'por así decirlo', 'en fin', 'al final'],
  zh: ['怎么说呢', '也就是说', '就是说', '所以说', '说实话', '然后呢', '对不对', '是不是', '好不好', '那什么', '这样子'],
};
/** Longest phrase of {@link SPOKEN_PHRASES}, in words (a Chinese phrase: in segments). */
const MAX_PHRASE_WORDS = 5;

/**
 * Response words: a reply made only of them (with stopwords and backchannels) is content-free
 * (rule 2), but inside a sentence they are content ("the new design is nice").
 */
const RESPONSE: Readonly<Record<ContentLang, readonly string[]>> = {
  en: words(`
    great nice cool perfect awesome interesting fine good correct true exactly absolutely definitely totally agreed fair
    excellent wonderful brilliant lovely indeed certainly precisely understood noted fantastic amazing sweet super`),
  es: words(`
    genial perfecto perfecta exacto exacta exactamente cierto cierta correcto verdad bien estupendo buenísimo interesante
    efectivamente totalmente obvio seguro buenísima increíble maravilloso entendido de acuerdo acuerdo`),
  zh: words(`不错 明白 明白了 了解 知道了 没问题 同意 当然 厉害 很好 太好了 有道理 确实 对的 可以 好的呀 没错 就是这样 清楚 懂了 懂`),
};

/** Characters that make a Chinese reply when a word is made only of them ("是的", "对对", "好吧", "哈哈"). */
const ZH_RESPONSE_CHARS = new Set([...'对好是的嗯啊哦噢喔行哈呵嘿诶欸唉哎呀吧呢嘛啦咯了']);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN_WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’-][\p{L}\p{N}\p{M}]+)*/gu;
const DIGIT = /\p{Nd}/u;
const TIMESTAMP = /(?<![\p{Nd}.,])\p{Nd}{1,2}(?::\p{Nd}{2}){1,2}(?![\p{Nd}])/gu;
/** Longest piece given to the word segmenter at once (ICU slows down on long CJK runs). */
const MAX_SEGMENT_CHARS = 2000;

const keys = new Map<string, string>();
const MEMO_KEYS = 100_000;

/** Lower case, accents removed, traditional Chinese folded to simplified, apostrophes straight (each word folded once: a unit's phrases fold its words again and again). */
function key(word: string): string {
  let k = keys.get(word);
  if (k === undefined) {
    k = foldText(word).replace(/’/g, "'");
    if (keys.size >= MEMO_KEYS) keys.clear();
    keys.set(word, k);
  }
  return k;
}

interface Vocab {
  stop: ReadonlySet<string>;
  spoken: ReadonlySet<string>;
  response: ReadonlySet<string>;
  phrases: ReadonlySet<string>;
}

let vocabs: Record<ContentLang, Vocab> | undefined;

/** The word sets of each language, built once: stopwords-iso plus the spoken classes, folded. */
function vocab(lang: ContentLang): Vocab {
  if (!vocabs) {
    // stopwords-iso ships one JSON file of every language's list (maintained upstream).
    const iso: Readonly<Record<string, readonly string[]>> = stopwordsIso;
    const set = (...lists: (readonly string[])[]): ReadonlySet<string> => new Set(lists.flat().map(key));
    const build = (l: ContentLang): Vocab => ({
      // English lists apply to every language (code-switching, loanwords), as in stopwords.ts.
      stop: set(iso[l] ?? [], l === 'en' ? [] : (iso['en'] ?? [])),
      spoken: set(SPOKEN[l], l === 'en' ? [] : SPOKEN.en),
      response: set(RESPONSE[l], l === 'en' ? [] : RESPONSE.en),
      phrases: set(SPOKEN_PHRASES[l], l === 'en' ? [] : SPOKEN_PHRASES.en),
    });
    vocabs = { en: build('en'), es: build('es'), zh: build('zh') };
  }
  return vocabs[lang];
}

/** Laughter ("haha", "jajaja", "hehe", "哈哈哈", "呵呵") and one letter repeated ("mmm", "nnn"). */
function isInterjectionShape(w: string): boolean {
  if (/^(.)\1+$/u.test(w)) return true;
  if (/^(?:[hj][aeiou]){2,}h?$/u.test(w) || /^(?:a?[hj]a){2,}$/u.test(w)) return true;
  return /^[哈呵嘿嘻]{2,}$/u.test(w);
}

/** "yeahhh" → ["yeahhh", "yeah", "yeahh"]: a letter written three times or more is tried once and twice. */
function variants(w: string): string[] {
  if (!/(\p{L})\1\1/u.test(w)) return [w];
  return [w, w.replace(/(\p{L})\1{2,}/gu, '$1'), w.replace(/(\p{L})\1{2,}/gu, '$1$1')];
}

/** What each word met so far is, by vocabulary: a word is classed once. */
const classes = new WeakMap<Vocab, Map<string, 'content' | 'response' | 'none'>>();

/** What one word is: content, a response word, or nothing (stopword, filler, backchannel). */
function classify(raw: string, v: Vocab): 'content' | 'response' | 'none' {
  let memo = classes.get(v);
  if (!memo) classes.set(v, (memo = new Map()));
  let c = memo.get(raw);
  if (c === undefined) {
    c = classifyWord(raw, v);
    if (memo.size >= MEMO_KEYS) memo.clear();
    memo.set(raw, c);
  }
  return c;
}

function classifyWord(raw: string, v: Vocab): 'content' | 'response' | 'none' {
  if (DIGIT.test(raw)) return 'content';
  const w = key(raw);
  if (!w) return 'none';
  const cjk = CJK.test(w);
  if (!cjk && [...w].length === 1) return 'none';
  for (const x of variants(w)) {
    if (v.stop.has(x) || v.spoken.has(x) || isSpokenFiller(x) || isInterjectionShape(x)) return 'none';
    // "we're", "that's", "dunno's": the part before the apostrophe decides.
    const base = x.includes("'") ? x.slice(0, x.indexOf("'")) : '';
    if (base && (v.stop.has(base) || v.spoken.has(base))) return 'none';
    if (v.response.has(x)) return 'response';
  }
  // "的是", "会对": the segmenter's cut across two function characters ("是的是的" → 是|的是|的, "委员会对吧" → 委员|会对|吧).
  if (cjk && [...w].every((ch) => ZH_RESPONSE_CHARS.has(ch) || v.stop.has(ch))) return 'none';
  return 'content';
}

/** A word of a cleaned text and where it is. */
interface Word {
  text: string;
  start: number;
  end: number;
  cjk: boolean;
}

/** The words of a cleaned text (see the module's comment), in order. Chinese text is folded (traditional to simplified) before it is segmented: the segmenter cuts simplified text best. */
function wordsOf(clean: string): Word[] {
  const out: Word[] = [];
  if (!CJK.test(clean)) {
    for (const m of clean.matchAll(LATIN_WORD)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length, cjk: false });
    return out;
  }
  const text = foldText(clean);
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + MAX_SEGMENT_CHARS);
    // Never cut a surrogate pair.
    if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
    for (const s of zhSegmenter().segment(text.slice(start, end))) {
      if (s.isWordLike) out.push({ text: s.segment, start: start + s.index, end: start + s.index + s.segment.length, cjk: CJK.test(s.segment) });
    }
    start = end;
  }
  return out;
}

/** Marks the words that belong to a spoken phrase of `v` (the longest one starting at each word). */
function phraseWords(ws: readonly Word[], v: Vocab): Uint8Array {
  const inPhrase = new Uint8Array(ws.length);
  for (let i = 0; i < ws.length; i++) {
    let cand = key(ws[i]!.text);
    let longest = -1;
    for (let j = i + 1; j < ws.length && j < i + MAX_PHRASE_WORDS; j++) {
      const glued = ws[j - 1]!.cjk && ws[j]!.cjk && ws[j - 1]!.end === ws[j]!.start;
      cand += (glued ? '' : ' ') + key(ws[j]!.text);
      if (v.phrases.has(cand)) longest = j;
    }
    for (let j = i; j <= longest; j++) inPhrase[j] = 1;
  }
  return inPhrase;
}

let segmenter: Intl.Segmenter | undefined;
/** ICU's Chinese word segmenter (`Intl.Segmenter('zh')`), made once. */
export function zhSegmenter(): Intl.Segmenter {
  return (segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }));
}

/** The language to judge `text` in: the one given, else guessed from the text. */
function langsFor(text: string, lang: ContentLang | undefined): ContentLang {
  if (lang) return lang;
  if (CJK.test(text)) return 'zh';
  return contentLang(text);
}

/**
 * The language a whole item (or any long text) is judged in: Chinese, Spanish or English, by
 * the project's detector (`detectLanguageEsEnZh`, a bounded sample of the text). Callers that
 * judge many units of one item ask once and pass it to {@link isContentFree}.
 */
export function contentLang(text: string): ContentLang {
  return detectLanguageEsEnZh(text);
}

/** What the predicate measures of a unit: its words, content words and response words (after cleaning). */
export interface ContentProfile {
  /** Words left after cleaning (annotations, fillers and stutters out). */
  words: number;
  /** The content words, as first written, each once (see the module's comment). */
  content: string[];
  /** Response words among the content words ("great", "perfecto", "明白"). */
  responses: number;
}

/**
 * The words, content words and response words of `text` in `lang`. Without a language, Chinese
 * text is judged as Chinese and other text by the English and Spanish lists together (a word is
 * a content word only when it is one in both: a unit's language cannot be told from a few
 * words). Content words are counted once each ("prices, prices" is one). Linear in the length of
 * the text.
 */
export function contentProfile(text: string, lang?: ContentLang): ContentProfile {
  // Time stamps and clock times ("41:02", "1:46:32") are references, not words.
  const clean = cleanText(text).replace(TIMESTAMP, ' ');
  const ws = wordsOf(clean);
  const l = langsFor(clean, lang);
  const v = vocab(l);
  const other = !lang && l !== 'zh' ? vocab(l === 'en' ? 'es' : 'en') : undefined;
  const inPhrase = phraseWords(ws, v);
  const otherPhrase = other ? phraseWords(ws, other) : undefined;
  // Content words as found, then Chinese compounds the segmenter cut glued back together.
  const found: { w: Word; response: boolean }[] = [];
  let words = ws.length;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (inPhrase[i] || otherPhrase?.[i]) continue;
    let c = classify(w.text, v);
    if (c !== 'none' && other) {
      const o = classify(w.text, other);
      if (o === 'none' || (o === 'response' && c === 'content')) c = o;
    }
    if (c === 'none') continue;
    const prev = found[found.length - 1];
    // "养老|金", "通|胀", "麦克|风": a single character next to a content word is part of it.
    if (prev && prev.w.cjk && w.cjk && prev.w.end === w.start && ([...prev.w.text].length === 1 || [...w.text].length === 1)) {
      prev.w = { text: prev.w.text + w.text, start: prev.w.start, end: w.end, cjk: true };
      prev.response = prev.response && c === 'response';
      words--;
      continue;
    }
    found.push({ w, response: c === 'response' });
  }
  const content: string[] = [];
  const seen = new Set<string>();
  let responses = 0;
  for (const f of found) {
    const k = key(f.w.text);
    if (seen.has(k)) continue;
    seen.add(k);
    content.push(f.w.text);
    if (f.response) responses++;
  }
  return { words, content, responses };
}

/**
 * The content words of `text`: its words once cleaned, less stopwords-iso of `lang` (and
 * English), spoken fillers, backchannels and laughter; numbers in digits are content.
 *
 * @example
 * contentWords('So, yeah, I think we\'re OK, until we get the new disk.') // ['disk']
 * contentWords('Prices rose 5 %.')                                       // ['Prices', 'rose', '5']
 * contentWords('价格上涨了', 'zh')                                         // ['价格', '上涨']
 */
export function contentWords(text: string, lang?: ContentLang): string[] {
  return contentProfile(text, lang).content;
}

/** How a unit is judged: `strict` for what must stand alone (a marker, a finding): fewer than three content words is content-free whatever the length. */
export interface ContentFreeOptions {
  strict?: boolean;
}

/** The rule of the module's comment applied to a measured profile. */
export function profileIsContentFree(p: ContentProfile, opts: ContentFreeOptions = {}): boolean {
  const c = p.content.length;
  if (p.words === 0 || c === p.responses) return true;
  if (c < MIN_CONTENT_WORDS && (opts.strict || c * 2 < p.words)) return true;
  return p.words >= DENSITY_FROM_WORDS && c < MIN_DENSITY * p.words;
}

/**
 * True when `text` is content-free: a backchannel, filler run or annotation in English,
 * Spanish or Chinese (simplified or traditional), or talk with too few content words — the
 * rule in the module's comment. Short real content is not content-free ("El precio sube.").
 *
 * @example
 * isContentFree('Mm-hmm .')                       // true
 * isContentFree('{vocalsound}')                   // true
 * isContentFree('Sí, claro, vale.', 'es')         // true
 * isContentFree('對對對，好的好的', 'zh')          // true
 * isContentFree("That's all there is to say, I guess about it.") // true
 * isContentFree('Prices rose 5 %.')               // false
 * isContentFree('价格上涨了', 'zh')                // false
 * isContentFree('价格上涨了', 'zh', { strict: true }) // true: two content words cannot stand alone as a marker
 */
export function isContentFree(text: string, lang?: ContentLang, opts: ContentFreeOptions = {}): boolean {
  return profileIsContentFree(contentProfile(text, lang), opts);
}
