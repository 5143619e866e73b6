/**
 * One CSV cell (RFC 4180) of untrusted text, for every CSV the project writes: quoted when needed,
 * and guarded against spreadsheet formula injection.
 */

/** What a spreadsheet reads as the start of a formula: `=`, `+`, `-`, `@` (also full-width), a tab or a CR, after any spaces. */
const FORMULA_START = /^[ \u00a0]*[=+\-@\uff1d\uff0b\uff0d\uff20\t\r]/u;
/** A plain number, which a spreadsheet reads as data: `-12.5`, `+3`, `1e-3`. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * One CSV cell: quoted when it holds a comma, a double quote, a line break or leading/trailing
 * spaces; double quotes doubled. With `guardFormulas` (the default), a text cell a spreadsheet
 * would run as a formula — it starts with `=`, `+`, `-`, `@`, a tab or a CR — gets a `'` in front,
 * unless the WHOLE cell is a plain number: `-1+cmd|' /C calc'!A0` and `-1+HYPERLINK(…)` become
 * text, `-12.5` and `+3` stay numbers.
 *
 * @example
 * csvCell('a, "b"') // '"a, ""b"""'
 * csvCell('-1+HYPERLINK(1)') // "'-1+HYPERLINK(1)"
 * csvCell('-12.5') // '-12.5'
 */
export function csvCell(value: string | number | boolean | null, guardFormulas = true): string {
  if (value === null) return '';
  let s = String(value);
  if (guardFormulas && typeof value === 'string' && FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/u.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
