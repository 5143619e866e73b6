/**
 * The tokens of a question for the time grammar: numbers (digits, English and Spanish words,
 * Chinese numerals), clocks ("1:15:00", "12:30"), ordinals written with digits ("2nd", "20th",
 * "2ª"), the lexicon's words (timeLexicon.ts, longest match: "a partir del", 开场, 分钟) and the
 * rest as "other". Chinese text is cut by the lexicon and by numeral runs. Articles and classifiers
 * (the, el, la, 的, 个) are dropped. Every token keeps its place in the question.
 */
import { CHINESE_NUMERAL_CHARS, parseChineseNumber, readNumberWords } from '../numbers';
import { CJK_MAX_CHARS, CJK_NOT_TIME, CJK_WORDS, DROPPED, LATIN_MAX_WORDS, LATIN_WORDS, RANGE_DASHES, type TimeRole, type TimeWord } from './timeLexicon';

/** What a token can be: a lexicon role, or a number, a clock, a range dash, other text. */
export type TokenRole = TimeRole | 'num' | 'clock' | 'dash' | 'other';

export interface TimeToken {
  /** Its place in the question: [from, to). */
  from: number;
  to: number;
  /** Lowercased text. */
  text: string;
  /** Written against the token before it, with no space between ("1h", "20m"). */
  attached: boolean;
  /** Written in Chinese characters. */
  cjk: boolean;
  roles: ReadonlySet<TokenRole>;
  /** For `num` and `ord` written with digits or words: the value. */
  value?: number;
  /** For `num`: an article that means one only before a unit ("a", "an", "un", "una"). */
  weak?: boolean;
  /** For `num`: written with digits. */
  digits?: boolean;
  /** For `clock`: seconds. */
  clock?: number;
  /** For `unit`: seconds, plural, and whether it counts only against a number. */
  unit?: number;
  plural?: boolean;
  unitAttached?: boolean;
  /** For `ord`: the ordinal. */
  ord?: number;
}

interface Piece {
  kind: 'word' | 'digits' | 'clock' | 'ordnum' | 'punct';
  text: string;
  from: number;
  to: number;
  attached: boolean;
  value?: number;
}

const CLOCK = /^\d{1,2}(?::\d{2}){1,2}(?![\d:])/;
const THOUSANDS = /^\d{1,3}(?:[.,]\d{3})+(?![\d.,]\d)/;
const DECIMAL = /^\d+(?:[.,]\d{1,2}(?!\d))?/;
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th|º|ª|\.º|\.ª|er|ero|era|do|da|ro|ra|to|ta|vo|va)(?![\p{L}\d])/u;
const LATIN_LETTER = /[\p{Script=Latin}\p{M}]/u;
const HAN = /[\p{Script=Han}]/u;
const WEAK = new Set(['a', 'an', 'un', 'una']);

/** Full-width forms as ASCII and letters lowercased, one character for one (places are kept). */
function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    let f = c >= 0xff01 && c <= 0xff5d ? String.fromCodePoint(c - 0xfee0) : ch;
    const lower = f.toLowerCase();
    if (lower.length === f.length) f = lower;
    out += f;
  }
  return out;
}

const parseClock = (s: string): number => s.split(':').reduce((a, p) => a * 60 + Number(p), 0);

/** One shared set for each combination of roles (tokens are many, combinations few). */
const ROLE_SETS = new Map<string, ReadonlySet<TokenRole>>();

function roleSet(roles: Iterable<TokenRole>): ReadonlySet<TokenRole> {
  const list = [...roles];
  const key = list.join(',');
  let set = ROLE_SETS.get(key);
  if (!set) ROLE_SETS.set(key, (set = new Set(list)));
  return set;
}

function token(from: number, to: number, text: string, attached: boolean, cjk: boolean, roles: Iterable<TokenRole>, extra: Partial<TimeToken> = {}): TimeToken {
  return { from, to, text, attached, cjk, roles: roleSet(roles), ...extra };
}

function fromWord(from: number, to: number, text: string, attached: boolean, cjk: boolean, w: TimeWord, extra: Partial<TimeToken> = {}, more: TokenRole[] = []): TimeToken {
  return token(from, to, text, attached, cjk, [...w.roles, ...more], {
    ...(w.unit !== undefined ? { unit: w.unit, plural: !!w.plural, unitAttached: !!w.attached } : {}),
    ...(w.ord !== undefined ? { ord: w.ord } : {}),
    ...extra,
  });
}

/** Chinese text from `i`: lexicon words of two or more characters, numeral runs, one-character words, other characters. */
function cjkTokens(text: string, start: number, end: number, firstAttached: boolean): TimeToken[] {
  const out: TimeToken[] = [];
  let i = start;
  while (i < end) {
    const attached = i === start ? firstAttached : true;
    // 三分之一: 分之 before a numeral is a fraction, not minutes (分) and "after" (之后).
    if (text.startsWith('分之', i) && CHINESE_NUMERAL_CHARS.includes(text[i + 2] ?? '')) {
      out.push(token(i, i + 2, '分之', attached, true, ['fractionOf']));
      i += 2;
      continue;
    }
    let done = false;
    for (let len = Math.min(CJK_MAX_CHARS, end - i); len >= 2 && !done; len--) {
      const key = text.slice(i, i + len);
      const w = CJK_NOT_TIME.has(key) ? undefined : CJK_WORDS.get(key);
      if (w || DROPPED.has(key) || CJK_NOT_TIME.has(key)) {
        out.push(w ? fromWord(i, i + len, key, attached, true, w) : token(i, i + len, key, attached, true, ['other']));
        i += len;
        done = true;
      }
    }
    if (done) continue;
    let j = i;
    while (j < end && CHINESE_NUMERAL_CHARS.includes(text[j]!)) j++;
    if (j > i) {
      const s = text.slice(i, j);
      const w = j - i === 1 ? CJK_WORDS.get(s) : undefined;
      out.push(token(i, j, s, attached, true, ['num', ...(w?.roles ?? [])], { value: parseChineseNumber(s) }));
      i = j;
      continue;
    }
    const ch = text[i]!;
    const w = CJK_WORDS.get(ch);
    out.push(w ? fromWord(i, i + 1, ch, attached, true, w) : token(i, i + 1, ch, attached, true, ['other']));
    i++;
  }
  return out;
}

/** The question cut into time tokens (articles and classifiers left out). */
export function timeTokens(question: string): TimeToken[] {
  const text = fold(question);
  const pieces: Piece[] = [];
  const out: TimeToken[] = [];
  const flush = (): void => {
    out.push(...latinTokens(pieces));
    pieces.length = 0;
  };
  let attached = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/u.test(ch)) {
      attached = false;
      i++;
      continue;
    }
    const rest = text.slice(i, i + 40);
    if (/\d/.test(ch)) {
      const c = CLOCK.exec(rest);
      if (c) {
        pieces.push({ kind: 'clock', text: c[0], from: i, to: i + c[0].length, attached, value: parseClock(c[0]) });
        i += c[0].length;
      } else {
        const t = THOUSANDS.exec(rest);
        const d = t ?? DECIMAL.exec(rest)!;
        const value = t ? Number(d[0].replace(/[.,]/g, '')) : Number(d[0].replace(',', '.'));
        const suffix = ORDINAL_SUFFIX.exec(text.slice(i + d[0].length, i + d[0].length + 4));
        if (suffix && !t && Number.isInteger(value)) {
          const len = d[0].length + suffix[0].length;
          pieces.push({ kind: 'ordnum', text: text.slice(i, i + len), from: i, to: i + len, attached, value });
          i += len;
        } else {
          pieces.push({ kind: 'digits', text: d[0], from: i, to: i + d[0].length, attached, value });
          i += d[0].length;
        }
      }
      attached = true;
      continue;
    }
    if (HAN.test(ch)) {
      flush();
      let j = i;
      while (j < text.length && HAN.test(text[j]!)) j++;
      out.push(...cjkTokens(text, i, j, attached));
      i = j;
      attached = true;
      continue;
    }
    if (LATIN_LETTER.test(ch)) {
      let j = i;
      while (j < text.length && LATIN_LETTER.test(text[j]!)) j++;
      pieces.push({ kind: 'word', text: text.slice(i, j), from: i, to: j, attached });
      i = j;
      attached = true;
      continue;
    }
    pieces.push({ kind: 'punct', text: ch, from: i, to: i + 1, attached });
    i++;
    attached = true;
  }
  flush();
  return out.filter((t) => !(DROPPED.has(t.text) && t.roles.size === 1 && t.roles.has('other')));
}

/** Latin-script pieces as tokens: number words and lexicon entries by longest match. */
function latinTokens(pieces: readonly Piece[]): TimeToken[] {
  const out: TimeToken[] = [];
  let k = 0;
  while (k < pieces.length) {
    const p = pieces[k]!;
    if (p.kind === 'clock') out.push(token(p.from, p.to, p.text, p.attached, false, ['clock'], { clock: p.value! }));
    else if (p.kind === 'digits') out.push(token(p.from, p.to, p.text, p.attached, false, ['num'], { value: p.value!, digits: true }));
    else if (p.kind === 'ordnum') out.push(token(p.from, p.to, p.text, p.attached, false, ['ord'], { ord: p.value! }));
    else if (p.kind === 'punct') out.push(token(p.from, p.to, p.text, p.attached, false, RANGE_DASHES.has(p.text) ? ['dash', 'to'] : p.text === '&' ? ['and'] : ['other']));
    if (p.kind !== 'word') {
      k++;
      continue;
    }
    // The longest lexicon entry from here (words separated by spaces only).
    let lexLen = 0;
    let lex: TimeWord | undefined;
    for (let len = Math.min(LATIN_MAX_WORDS, pieces.length - k); len >= 1 && !lex; len--) {
      const run = pieces.slice(k, k + len);
      if (run.some((q, j) => q.kind !== 'word' || (j > 0 && q.attached))) continue;
      const w = LATIN_WORDS.get(run.map((q) => q.text).join(' '));
      if (w) {
        lex = w;
        lexLen = len;
      }
    }
    // The longest number in words from here ("twenty-five", "treinta y cinco").
    const words: string[] = [];
    for (let j = k; j < pieces.length && j < k + 6; j++) {
      const q = pieces[j]!;
      if (q.kind === 'word' || (q.kind === 'punct' && q.text === '-')) words.push(q.text);
      else break;
    }
    const n = readNumberWords(words);
    const numLen = n?.count ?? 0;
    if (n && numLen >= lexLen) {
      const last = pieces[k + numLen - 1]!;
      const extra = numLen === 1 && lex ? lex : undefined;
      out.push(token(p.from, last.to, words.slice(0, numLen).join(' '), p.attached, false, ['num', ...(extra?.roles ?? [])], {
        value: n.value,
        weak: numLen === 1 && WEAK.has(p.text),
        ...(extra?.unit !== undefined ? { unit: extra.unit, plural: !!extra.plural, unitAttached: !!extra.attached } : {}),
        ...(extra?.ord !== undefined ? { ord: extra.ord } : {}),
      }));
      k += numLen;
    } else if (lex) {
      const last = pieces[k + lexLen - 1]!;
      out.push(fromWord(p.from, last.to, pieces.slice(k, k + lexLen).map((q) => q.text).join(' '), p.attached, false, lex));
      k += lexLen;
    } else {
      out.push(token(p.from, p.to, p.text, p.attached, false, ['other']));
      k++;
    }
  }
  return out;
}
