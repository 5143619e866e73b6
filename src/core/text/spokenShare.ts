/**
 * How much of a sentence is the talk around a statement rather than the statement: the share of
 * its words that are fillers (uh, um, 嗯), backchannels and discourse markers (yeah, so, well,
 * bueno, 然后), hedges (I mean, you know, kind of, o sea, 就是说) and the first and second persons
 * of conversation (I, you, we, yo, 我们). "So I think we , uh , we should you know look at it ."
 * is mostly talk; "The remote will sell for twenty five Euros ." is none. An answer prefers
 * statements (issue 22); what a sentence says is judged elsewhere (`contentFree.ts`).
 *
 * Closed classes, by language; Chinese is measured in characters covered by its markers.
 *
 * Read in one pass over the code points (classes from a table), each word looked up where it stands
 * in a memo keyed by its hash; the plain definition is kept in test/support/spokenShareReference.ts
 * (equal on every text, checked by test/unit/spokenShareFastPath.test.ts).
 */
import { isSpokenFiller } from './clean';
import { SPOKEN_WORDS } from './stopwords';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/** The talk words of English and Spanish besides the fillers and `SPOKEN_WORDS`. */
const TALK: ReadonlySet<string> = new Set([
  ...SPOKEN_WORDS.en,
  ...SPOKEN_WORDS.es,
  ...words(`
    i me my mine you your yours we us our ours i'm i've i'd i'll you're you've you'd you'll we're we've we'd we'll
    yes okay ok oh so well right just like actually really anyway mean know think guess sort kind stuff thing things
    yo mí me conmigo tú te ti contigo usted ustedes nosotros nosotras nos vosotros vosotras os
    sí bueno pues claro este esto eso entonces mira oye sabes digamos tipo como nada cosa cosas igual`),
]);

/** Chinese talk markers, longest first (a marker is counted once where longer ones overlap it). */
const ZH_TALK = [
  ...SPOKEN_WORDS.zh,
  ...words('就是说 我觉得 你知道 怎么说 的话 就是 然后 那个 这个 所以 反正 其实 这样 那样 我们 你们 咱们 他们 大家 我 你 他 她 嗯 呃 啊 哦 噢 额 哈 吧 呢 呀 嘛 吗 对'),
]
  .filter((w, i, all) => all.indexOf(w) === i)
  .sort((a, b) => b.length - a.length);
/** The markers by their first code unit (an index into `ZH_LISTS`, 0: none), in `ZH_TALK`'s order, each with its length in code points. */
const ZH_FIRST = new Uint16Array(0x10000);
const ZH_LISTS: { marker: string; points: number }[][] = [[]];
for (const marker of ZH_TALK) {
  const first = marker.charCodeAt(0);
  if (!ZH_FIRST[first]) ZH_FIRST[first] = ZH_LISTS.push([]) - 1;
  ZH_LISTS[ZH_FIRST[first]!]!.push({ marker, points: [...marker].length });
}

/** Per code point: Han, a letter, a letter or digit; worked out when first met (0: not yet). */
const IS_HAN = 1;
const IS_LETTER = 2;
const IS_WORD = 4;
const KNOWN = 8;
const HAN_CHAR = /^\p{Script=Han}$/u;
const LETTER_CHAR = /^\p{L}$/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const flagsOf = (ch: string): number =>
  KNOWN | (HAN_CHAR.test(ch) ? IS_HAN : 0) | (LETTER_CHAR.test(ch) ? IS_LETTER : 0) | (WORD_CHAR.test(ch) ? IS_WORD : 0);
/** The Basic Multilingual Plane's code points (lone surrogates included); astral ones are classed each time. */
const BMP_FLAGS = new Uint8Array(0x10000);
const flagsAt = (code: number): number =>
  code > 0xffff ? flagsOf(String.fromCodePoint(code)) : BMP_FLAGS[code] || (BMP_FLAGS[code] = flagsOf(String.fromCharCode(code)));
/** A word run continues over a letter or digit that is not Han (Han characters are no word's: they are measured apart). */
const wordAt = (f: number): boolean => (f & (IS_WORD | IS_HAN)) === IS_WORD;
const letterAt = (f: number): boolean => (f & (IS_LETTER | IS_HAN)) === IS_LETTER;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;

/** Whether each word met so far is talk (a filler or a talk word), judged once; bounded. */
const MEMO_WORDS = 50_000;
const judge = (w: string): boolean => TALK.has(w) || isSpokenFiller(w);

/** Words with ’ (judged with ' in its place), by the word. */
const talkWords = new Map<string, boolean>();
function isTalk(w: string): boolean {
  let v = talkWords.get(w);
  if (v === undefined) {
    v = judge(w);
    if (talkWords.size >= MEMO_WORDS) talkWords.clear();
    talkWords.set(w, v);
  }
  return v;
}

/**
 * The other words, by a hash of their code units in an open-addressed table, so that a word of a text
 * is looked up where it stands and sliced out only the first time it is met.
 */
const SLOT_MASK = (1 << 17) - 1;
const slotHash = new Int32Array(SLOT_MASK + 1);
const slotWord: (string | undefined)[] = new Array<undefined>(SLOT_MASK + 1).fill(undefined);
const slotTalk = new Uint8Array(SLOT_MASK + 1);
let slotsUsed = 0;
/** Whether `lower.slice(start, end)` is talk. */
function isTalkAt(lower: string, start: number, end: number): boolean {
  // Kept to 30 bits: a small integer to V8, never a boxed number.
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + lower.charCodeAt(i)) & 0x3fffffff;
  let slot = hash & SLOT_MASK;
  for (let w = slotWord[slot]; w !== undefined; w = slotWord[slot]) {
    if (slotHash[slot] === hash && w.length === end - start && lower.startsWith(w, start)) return slotTalk[slot] === 1;
    slot = (slot + 1) & SLOT_MASK;
  }
  const w = lower.slice(start, end);
  const v = judge(w);
  if (slotsUsed >= MEMO_WORDS) {
    slotWord.fill(undefined);
    slotsUsed = 0;
    slot = hash & SLOT_MASK;
  }
  slotWord[slot] = w;
  slotHash[slot] = hash;
  slotTalk[slot] = v ? 1 : 0;
  slotsUsed++;
  return v;
}

/** The code points of `lower` covered by the Chinese talk markers, each marker the first of `ZH_TALK` to start where the last one ended or later. */
function zhTalk(lower: string): number {
  let talk = 0;
  for (let i = 0; i < lower.length; ) {
    const unit = lower.charCodeAt(i);
    const list = ZH_FIRST[unit] ? ZH_LISTS[ZH_FIRST[unit]]! : undefined;
    const hit = list?.find((m) => lower.startsWith(m.marker, i));
    if (hit) {
      talk += hit.points;
      i += hit.marker.length;
    } else i += unit >= 0xd800 && unit <= 0xdbff && i + 1 < lower.length && (lower.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return talk;
}

/**
 * The share (0–1) of `text` that is talk: Latin words that are fillers or talk words, and Chinese
 * characters covered by talk markers, over all words and Chinese characters.
 *
 * @example
 * spokenShare('So I think we , uh , we should you know look at it .') // ≈ 0.64
 * spokenShare('The remote will sell for twenty five Euros .')          // 0
 * spokenShare('嗯然后我们就是说价格')                                      // 0.8
 */
export function spokenShare(text: string): number {
  const lower = text.toLowerCase();
  // One pass over the code points: the Han characters, and the words of /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu
  // in the text with its Han characters blanked.
  let han = 0;
  let latin = 0;
  let talk = 0;
  const n = lower.length;
  for (let i = 0; i < n; ) {
    let code = lower.codePointAt(i)!;
    let f = flagsAt(code);
    if (!wordAt(f)) {
      if (f & IS_HAN) han++;
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    // Letters and digits…
    do {
      i += code > 0xffff ? 2 : 1;
      if (i >= n) break;
      code = lower.codePointAt(i)!;
      f = flagsAt(code);
    } while (wordAt(f));
    // …then an apostrophe and letters.
    let quote = -1;
    if (i + 1 < n && (code === APOSTROPHE || code === RIGHT_QUOTE)) {
      let after = lower.codePointAt(i + 1)!;
      if (letterAt(flagsAt(after))) {
        quote = i;
        i++;
        do {
          i += after > 0xffff ? 2 : 1;
          if (i >= n) break;
          after = lower.codePointAt(i)!;
        } while (letterAt(flagsAt(after)));
      }
    }
    latin++;
    if (quote >= 0 && lower.charCodeAt(quote) === RIGHT_QUOTE ? isTalk(`${lower.slice(start, quote)}'${lower.slice(quote + 1, i)}`) : isTalkAt(lower, start, i)) talk++;
  }
  if (han > 0) talk += zhTalk(lower);
  const total = han + latin;
  return total ? Math.min(1, talk / total) : 0;
}
