/**
 * A cue line's tags (`<v Host>`, `<c.x>`, `<00:00:01.000>`, `</v>`) are dropped and the rest trimmed as
 * one text: generated WebVTT files of lines built from tags, words, entities and every kind of space
 * give, per cue, the text a plain strip-and-trim gives, and every verbatim piece of the source map
 * points at exactly those characters of the file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTranscript } from '../../src/core/corpus/transcriptParsers';

let seed = 99;
const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };
/** A cue line as the format reads it: tags out, entities decoded, trimmed. */
function expectedLine(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; ) {
    if (raw[i] === '<') {
      const close = raw.indexOf('>', i);
      if (close > i) {
        i = close + 1;
        continue;
      }
    }
    const m = raw[i] === '&' ? /^&(amp|lt|gt|quot|#39|nbsp);/.exec(raw.slice(i, i + 6)) : null;
    if (m) {
      out += ENTITIES[m[0]]!;
      i += m[0].length;
      continue;
    }
    out += raw[i];
    i++;
  }
  return out.trim();
}

test('tagged cue lines: the text of strip-and-trim, and verbatim pieces that point at the file', () => {
  const pieces = ['<v Host>', '<v.loud Ana María>', '</v>', '<c.yellow>', '</c>', '<00:00:01.000>', '<b>', '</b>', '<>', '<i>', ' ', '  ', '\t', '\u3000', '\u00a0', 'word', '价格', 'precio,', '&amp;', '&lt;', '&nbsp;', '&bogus;', '<unclosed', 'x>y', '>'];
  const lines: string[] = ['WEBVTT', ''];
  const want: string[] = [];
  for (let c = 0; c < 3000; c++) {
    lines.push(`00:00:${String(c % 60).padStart(2, '0')}.000 --> 00:00:${String(c % 60).padStart(2, '0')}.500`);
    const texts: string[] = [];
    const count = 1 + rnd(3);
    for (let k = 0; k < count; k++) {
      let line = Array.from({ length: rnd(7) }, () => pick(pieces)).join('');
      if (!line.trim()) line += 'w';
      lines.push(line);
      const t = expectedLine(line);
      if (t) texts.push(t);
    }
    lines.push('');
    if (texts.length) want.push(texts.join(' '));
  }
  const file = lines.join('\n');
  const r = parseTranscript(file, 'vtt', 'gen.vtt');
  assert.deepEqual(r.segments.map((s) => s.text), want);
  let verbatim = 0;
  for (const s of r.segments) {
    for (const p of s.pieces ?? []) {
      if (p.length !== p.rawLength) continue;
      assert.equal(lines[p.line]!.slice(p.column, p.column + p.length), s.text.slice(p.at, p.at + p.length), `piece ${JSON.stringify(p)} of ${JSON.stringify(s.text)}`);
      verbatim++;
    }
  }
  assert.ok(verbatim > 3000, `${verbatim} verbatim pieces`);
});
