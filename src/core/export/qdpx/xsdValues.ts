/**
 * Numbers written as the schema's simple types: `xsd:decimal` has no exponent, so a float such as
 * 1e-7 or 1e21 is written out in full; `xsd:integer` likewise.
 */

/** `n` (finite) as an `xsd:decimal` / `xsd:integer` literal, which reads back as the same number. */
export function xsdDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const s = String(n);
  const e = s.search(/e/i);
  if (e < 0) return s;
  const neg = s.startsWith('-');
  const mantissa = s.slice(neg ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const point = (dot < 0 ? mantissa.length : dot) + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${out}` : out;
}
