/**
 * Clock times read without the regular expression (timestamps.ts' plain path) give exactly what the
 * grammar gives: generated strings over the characters a time is made of, valid and broken shapes,
 * padded with every kind of space.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTimestamp } from '../../src/core/corpus/timestamps';

/** The grammar alone, as timestamps.ts read every time before the plain path. */
function byGrammar(s: string): number | undefined {
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$/.exec(s);
  if (!m) return undefined;
  const [, h, mi, se, ms] = m;
  return Number(h ?? 0) * 3600 + Number(mi) * 60 + Number(se) + (ms ? Number(ms.padEnd(3, '0')) / 1000 : 0);
}

let seed = 12345;
const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
const digits = (n: number): string => Array.from({ length: n }, () => String(rnd(10))).join('');

test('plain clock times equal the grammar on 60,000 generated strings', () => {
  const spaces = ['', ' ', '  ', '\t', '\r', '\u00a0', '\u3000', '\ufeff', '\n', ' \r'];
  const alphabet = ['0', '1', '5', '9', ':', ':', '.', ',', ' ', '\t', 'a', '-', '\u00a0', '٣'];
  let plain = 0;
  for (let k = 0; k < 60_000; k++) {
    let s: string;
    if (k % 2 === 0) {
      // A time's shape: hours of 0–11 digits (or none), minutes and seconds of 0–3, a fraction of 0–4 after . or ,.
      const h = rnd(3) === 0 ? '' : `${digits(rnd(12))}:`;
      const frac = rnd(3) === 0 ? '' : `${pick(['.', ',', ':', '.,'])}${digits(rnd(5))}`;
      s = `${pick(spaces)}${h}${digits(rnd(4))}:${digits(rnd(4))}${frac}${pick(spaces)}`;
    } else {
      s = Array.from({ length: rnd(16) }, () => pick(alphabet)).join('');
    }
    const want = byGrammar(s);
    assert.equal(parseTimestamp(s), want, JSON.stringify(s));
    if (want !== undefined) plain++;
  }
  assert.ok(plain > 3_000, `only ${plain} valid times generated`);
});

test('the times subtitle files write', () => {
  assert.equal(parseTimestamp('00:00:02.580 '), 2.58);
  assert.equal(parseTimestamp('01:02:03,4'), 3723.4);
  assert.equal(parseTimestamp('2:03'), 123);
  assert.equal(parseTimestamp('123:45'), undefined);
  assert.equal(parseTimestamp('00:00:02.5800'), undefined);
  assert.equal(parseTimestamp('\u00a000:01.5\u3000'), 1.5);
});
