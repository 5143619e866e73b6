/**
 * Pre-optimisation reference of src/core/text/spokenShare.ts (spokenShare), copied verbatim before its
 * fast path, kept only for the equivalence tests (test/unit/spokenShareFastPath.test.ts): the optimised
 * function must return exactly what this returns. Do not change or optimise this copy.
 */
/**
 * How much of a sentence is the talk around a statement rather than the statement: the share of
 * its words that are fillers (uh, um, 嗯), backchannels and discourse markers (yeah, so, well,
 * bueno, 然后), hedges (I mean, you know, kind of, o sea, 就是说) and the first and second persons
 * of conversation (I, you, we, yo, 我们). "So I think we , uh , we should you know look at it ."
 * is mostly talk; "The remote will sell for twenty five Euros ." is none. An answer prefers
 * statements (issue 22); what a sentence says is judged elsewhere (`contentFree.ts`).
 *
 * Closed classes, by language; Chinese is measured in characters covered by its markers.
 */
import { isSpokenFiller } from '../../src/core/text/clean';
import { SPOKEN_WORDS } from '../../src/core/text/stopwords';

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
const ZH_PATTERN = new RegExp(ZH_TALK.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gu');
const HAN = /\p{Script=Han}/gu;
const HAS_HAN = /\p{Script=Han}/u;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Whether each word met so far is talk (a filler or a talk word), judged once; bounded. */
const talkWords = new Map<string, boolean>();
const MEMO_WORDS = 50_000;

function isTalk(w: string): boolean {
  let v = talkWords.get(w);
  if (v === undefined) {
    v = TALK.has(w) || isSpokenFiller(w);
    if (talkWords.size >= MEMO_WORDS) talkWords.clear();
    talkWords.set(w, v);
  }
  return v;
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
  let han = 0;
  let talk = 0;
  let latinText = lower;
  if (HAS_HAN.test(lower)) {
    han = lower.match(HAN)?.length ?? 0;
    for (const m of lower.matchAll(ZH_PATTERN)) talk += [...m[0]].length;
    latinText = lower.replace(HAN, ' ');
  }
  let latin = 0;
  for (const m of latinText.matchAll(WORD)) {
    latin++;
    const w = m[0];
    if (isTalk(w.includes('’') ? w.replace('’', "'") : w)) talk++;
  }
  const total = han + latin;
  return total ? Math.min(1, talk / total) : 0;
}
