/** Clock times in transcripts (`HH:MM:SS,mmm`, `MM:SS.mmm`) as seconds. */

/** The grammar of a clock time; {@link plainTimestamp} reads the same times without it. */
const TIMESTAMP = /^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$/;

/** Parses `HH:MM:SS,mmm` or `MM:SS.mmm` (hours optional, milliseconds with `.` or `,`). */
export function parseTimestamp(s: string): number | undefined {
  const plain = plainTimestamp(s);
  if (plain !== null) return plain;
  const m = TIMESTAMP.exec(s);
  if (!m) return undefined;
  const [, h, mi, se, ms] = m;
  return Number(h ?? 0) * 3600 + Number(mi) * 60 + Number(se) + (ms ? Number(ms.padEnd(3, '0')) / 1000 : 0);
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const COLON = 58;
const ZERO = 48;
const NINE = 57;

/**
 * A caption's clock time read without the regular expression (a subtitle file has two a cue, a
 * transcript thousands): the value {@link TIMESTAMP} gives for a time of digits, colons and one
 * `.` or `,`, padded with spaces, tabs or a carriage return; null for anything else, which the
 * grammar then reads (or refuses).
 */
function plainTimestamp(s: string): number | null {
  let a = 0;
  let z = s.length;
  let c: number;
  while (a < z && ((c = s.charCodeAt(a)) === SPACE || c === TAB || c === CR)) a++;
  while (z > a && ((c = s.charCodeAt(z - 1)) === SPACE || c === TAB || c === CR)) z--;
  // Up to three groups of digits split by colons, then an optional fraction.
  const value = [0, 0, 0];
  const digits = [0, 0, 0];
  let groups = 0;
  let frac = -1;
  let fracDigits = 0;
  let i = a;
  for (; i < z; i++) {
    c = s.charCodeAt(i);
    if (c >= ZERO && c <= NINE) {
      if (frac >= 0) {
        frac = frac * 10 + (c - ZERO);
        fracDigits++;
      } else {
        value[groups] = value[groups]! * 10 + (c - ZERO);
        digits[groups]!++;
      }
    } else if (c === COLON && frac < 0 && groups < 2 && digits[groups]! > 0) groups++;
    else if ((c === 46 || c === 44) && frac < 0 && groups > 0) frac = 0;
    else return null;
  }
  if (groups === 0 || fracDigits > 3 || (frac >= 0 && fracDigits === 0)) return null;
  const [h, mi, se] = groups === 2 ? [value[0]!, value[1]!, value[2]!] : [0, value[0]!, value[1]!];
  const [hd, mid, sed] = groups === 2 ? [digits[0]!, digits[1]!, digits[2]!] : [1, digits[0]!, digits[1]!];
  if (hd > 9 || mid < 1 || mid > 2 || sed < 1 || sed > 2) return null;
  return h * 3600 + mi * 60 + se + (fracDigits ? (frac * 10 ** (3 - fracDigits)) / 1000 : 0);
}
