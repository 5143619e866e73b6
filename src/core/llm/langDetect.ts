/**
 * Which prompt variant fits a text: Chinese when enough of its letters are Han characters.
 */

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;
/** Characters looked at, taken as three slices (start, middle, end) of a long text. */
const SAMPLE_CHARS = 6_000;
/** Share of Han characters among the letters of the sample above which a text is Chinese. */
const ZH_THRESHOLD = 0.2;

const NOT_LETTER = 1;
const HAN_LETTER = 2;
const OTHER_LETTER = 3;
const classOf = (ch: string): number => (!LETTER.test(ch) ? NOT_LETTER : HAN.test(ch) ? HAN_LETTER : OTHER_LETTER);
/** The classes of the Basic Multilingual Plane's characters, each found once when first met (0: not yet). */
const BMP_CLASS = new Uint8Array(0x10000);

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
  const s = sample(text);
  for (let i = 0; i < s.length; ) {
    const code = s.codePointAt(i)!;
    // A character of the Basic Multilingual Plane is classed once (a sample reads thousands); the others each time.
    let cls: number;
    if (code > 0xffff) {
      cls = classOf(String.fromCodePoint(code));
      i += 2;
    } else {
      cls = BMP_CLASS[code] || (BMP_CLASS[code] = classOf(String.fromCharCode(code)));
      i++;
    }
    if (cls === NOT_LETTER) continue;
    letters++;
    if (cls === HAN_LETTER) han++;
  }
  return letters > 0 && han / letters > ZH_THRESHOLD ? 'zh' : 'en';
}

/**
 * The ranges [start, end) of a text of `length` characters the detectors look at: the whole text
 * when short, else three slices (start, middle, end). A caller that holds a long text in pieces
 * reads only these, joins them, and the detectors give the same answer on the joined text.
 */
export function sampleRanges(length: number): readonly (readonly [number, number])[] {
  if (length <= SAMPLE_CHARS) return [[0, length]];
  const slice = Math.floor(SAMPLE_CHARS / 3);
  const mid = Math.floor(length / 2 - slice / 2);
  return [
    [0, slice],
    [mid, mid + slice],
    [length - slice, length],
  ];
}

function sample(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text;
  let out = '';
  for (const [a, b] of sampleRanges(text.length)) out += text.slice(a, b);
  return out;
}

/** Function words frequent in Spanish text and rare in English (and the reverse), for telling them apart. */
const ES_MARKERS = new Set(['que', 'de', 'el', 'la', 'los', 'las', 'del', 'y', 'en', 'es', 'un', 'una', 'por', 'para', 'con', 'pero', 'como', 'más', 'muy', 'porque', 'está', 'eso', 'esto', 'hay', 'yo', 'lo', 'se', 'mi', 'sí', 'también', 'cuando', 'qué', 'sobre', 'entre', 'fue', 'ser', 'tiene', 'creo', 'pues', 'bueno']);
const EN_MARKERS = new Set(['the', 'and', 'of', 'to', 'is', 'that', 'it', 'you', 'for', 'with', 'this', 'was', 'are', 'have', 'not', 'but', 'they', 'what', 'we', 'be', 'on', 'at', 'from', 'there', 'so', 'just', 'about', 'would', 'can', 'like', 'think', 'know']);

/**
 * As {@link detectLanguage}, and Spanish (`'es'`) for a Latin-script text whose common function
 * words are more Spanish than English ("que", "los", "está" against "the", "and", "of"), or
 * that has Spanish-only punctuation and letters (¿ ¡ ñ) with no clear English majority.
 *
 * @example
 * detectLanguageEsEnZh('Creo que la gente no sabe lo que pasa ahí')  // 'es'
 * detectLanguageEsEnZh('I think people do not know what goes on')    // 'en'
 * detectLanguageEsEnZh('今天我们讨论一下新的排名系统')                   // 'zh'
 */
export function detectLanguageEsEnZh(text: string): 'zh' | 'en' | 'es' {
  if (detectLanguage(text) === 'zh') return 'zh';
  const s = sample(text).toLowerCase();
  let es = 0;
  let en = 0;
  for (const m of s.matchAll(/\p{L}+/gu)) {
    if (ES_MARKERS.has(m[0])) es++;
    else if (EN_MARKERS.has(m[0])) en++;
  }
  const special = (s.match(/[¿¡ñ]/gu) ?? []).length;
  if (es > en * 1.2 && es >= 2) return 'es';
  return special > 0 && es >= en ? 'es' : 'en';
}
