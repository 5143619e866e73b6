/**
 * The tokeniser's scanner (src/core/search/tokenize.ts `tokenize`: one pass
 * over the characters with a class table, each word's token found in a memo
 * keyed by the characters' span) gives exactly the tokens of the regular
 * expressions it replaced (`tokenizeByRegex`): on generated English, Spanish
 * and Chinese text, on text mixing scripts, marks, apostrophes, digits,
 * characters beyond the Basic Multilingual Plane and lone surrogates, and
 * after the memo has started over (more distinct words than it holds).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SpanMemo, foldHash } from '../../src/core/search/spanMemo';
import { tokenize, tokenizeByRegex } from '../../src/core/search/tokenize';

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const EN = 'the battery prices in winter went up, didn’t they? Users’ complaints about charging stations keep growing: 12.5 percent. Don\'t stop, it\'s fine. Running, walked, quickly, classes, ladies'.split(' ');
const ES = 'los precios de las baterías subieron en invierno; ¿qué opinan los usuarios? Está muy caro, según él. Niño, pingüino, acción, camión'.split(' ');
const ZH = ['电池价格在冬天上涨', '用户抱怨充电桩太少', '续航500公里', '我们讨论了什么', 'ev续航', '特斯拉Model3', '的了和', '电', '「价格」', 'カタカナ', 'ひらがな', '한국어'];
/** Characters that test the edges: marks, digits of other scripts, fullwidth and compatibility forms, apostrophes, surrogates. */
const ODD = ['\u0301', '\u0300', '²', '½', '٣', 'Ⅻ', 'ﬁ', 'ｱ', 'Ａ', 'İ', 'ß', 'ǅ', 'ς', "'", '’', "''", "'s", '’t', '𠀀', '𝐀', '😀', '\ud800', '\udc00', '_', '-', '\n', '\t', ' ', '.'];

function text(r: () => number, words: number, lists: string[][]): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const list = lists[Math.floor(r() * lists.length)]!;
    out.push(list[Math.floor(r() * list.length)]!);
    const sep = r();
    out.push(sep < 0.7 ? ' ' : sep < 0.85 ? '' : ODD[Math.floor(r() * ODD.length)]!);
  }
  return out.join('');
}

describe('tokenize (scanner) = tokenize by regular expressions', () => {
  test('English, Spanish and Chinese text, alone and mixed, with odd characters between words', () => {
    const r = rng(25);
    const cases: string[] = [];
    for (const lists of [[EN], [ES], [ZH], [EN, ZH], [ES, ODD], [EN, ES, ZH, ODD], [ODD]]) for (let k = 0; k < 400; k++) cases.push(text(r, 1 + Math.floor(r() * 40), lists));
    let tokens = 0;
    for (const s of cases) {
      const expected = tokenizeByRegex(s);
      assert.deepEqual(tokenize(s), expected, JSON.stringify(s));
      tokens += expected.length;
    }
    assert.ok(tokens > 20_000, `${tokens} tokens compared`);
  });

  test('every character of short random strings of the odd and CJK characters', () => {
    const r = rng(7);
    const chars = [...ODD, ...ZH.join('').split(''), 'a', 'z', '1', 'é'];
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      for (let j = Math.floor(r() * 12); j > 0; j--) s += chars[Math.floor(r() * chars.length)]!;
      assert.deepEqual(tokenize(s), tokenizeByRegex(s), JSON.stringify(s));
    }
  });

  test('after the memo started over: more distinct words than it keeps, then the first ones again', () => {
    const words: string[] = [];
    for (let i = 0; i < 250_000; i++) words.push(`w${i.toString(36)}ing`);
    const first = words.slice(0, 2000).join(' ');
    const before = tokenize(first);
    const all = words.join(' ');
    assert.deepEqual(tokenize(all), tokenizeByRegex(all));
    assert.deepEqual(tokenize(first), before);
    assert.deepEqual(before, tokenizeByRegex(first));
  });
});

describe('SpanMemo', () => {
  test('finds a span by its characters, makes each value once while kept, and starts over when full', () => {
    const memo = new SpanMemo<string>(4);
    let made = 0;
    const make = (s: string): string => `${s}#${++made}`;
    const hashOf = (s: string, a: number, b: number): number => {
      let h = 0;
      for (let i = a; i < b; i++) h = foldHash(h, s.charCodeAt(i));
      return h;
    };
    const get = (s: string, a: number, b: number): string => memo.get(s, a, b, hashOf(s, a, b), make);
    assert.equal(get('xx abc yy', 3, 6), 'abc#1');
    assert.equal(get('abc', 0, 3), 'abc#1');
    assert.equal(get('abcd', 0, 3), 'abc#1');
    assert.equal(get('abcd', 0, 4), 'abcd#2');
    // Same hash, other characters: told apart (a colliding hash is passed on purpose).
    assert.equal(memo.get('abd', 0, 3, hashOf('abc', 0, 3), make), 'abd#3');
    assert.equal(get('q', 0, 1), 'q#4');
    assert.equal(memo.size, 4);
    assert.equal(get('r', 0, 1), 'r#5');
    assert.equal(memo.size, 1);
    assert.equal(get('abc', 0, 3), 'abc#6');
  });
});
