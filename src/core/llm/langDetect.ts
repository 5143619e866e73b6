/**
 * Which prompt variant fits a text: Chinese when enough of its letters are Han characters.
 */

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;
/** Characters looked at, taken as three slices (start, middle, end) of a long text. */
const SAMPLE_CHARS = 6_000;
/** Share of Han characters among the letters of the sample above which a text is Chinese. */
const ZH_THRESHOLD = 0.2;

/**
 * `'zh'` when more than 20 % of the letters in a sample of `text` are Han characters, else `'en'`
 * (also for empty text). The sample is three slices spread over the text, so an English title
 * in front of a Chinese transcript does not decide it.
 *
 * @example
 * ```ts
 * detectLanguage('今天我们讨论一下新的排名系统');   // 'zh'
 * detectLanguage('The new ranking system, 排名系统'); // 'en'
 * ```
 */
export function detectLanguage(text: string): 'zh' | 'en' {
  let han = 0;
  let letters = 0;
  for (const ch of sample(text)) {
    if (!LETTER.test(ch)) continue;
    letters++;
    if (HAN.test(ch)) han++;
  }
  return letters > 0 && han / letters > ZH_THRESHOLD ? 'zh' : 'en';
}

function sample(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text;
  const slice = Math.floor(SAMPLE_CHARS / 3);
  const mid = Math.floor(text.length / 2 - slice / 2);
  return text.slice(0, slice) + text.slice(mid, mid + slice) + text.slice(text.length - slice);
}
