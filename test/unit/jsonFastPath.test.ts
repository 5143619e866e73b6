/**
 * The clean-file readers (JSON.parse + jsonRecordOffsets) must give exactly what the jsonc-parser
 * tree readers give, or step aside. Generated transcripts and JSONL comment lines compose the
 * things JSON.parse hides or the tree reader decides on: keys written twice (top, record, nested),
 * keys and texts written with escapes, other "text" keys before and inside the turns, whitespace
 * and CRLF between tokens, turns the schemas check, syntax errors, "__proto__", deep nesting.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonl } from '../../src/core/corpus/commentParsers';
import { jsonRecordOffsets } from '../../src/core/corpus/jsonRecordOffsets';
import { cleanTranscriptJson, parseTranscript, transcriptJsonTree } from '../../src/core/corpus/transcriptParsers';
import { lineStarts } from '../../src/core/text/words';
import { rng } from '../support/testing';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const TEXTS = ['We talked about the price.', 'He said "no" \\ then left', '电池价格下降了 20%。', 'Línea con acentos: ¿qué? ñ', 'tab\there', 'line\nbreak', 'emoji 🎉 and \u2028 sep', '', ' spaced  out '];

/** A JSON string literal for `s`, written as JSON.stringify does or with more escapes (\u for letters, \/). */
function literal(r: Rand, s: string): string {
  const plain = JSON.stringify(s);
  const mode = r();
  if (mode < 0.6) return plain;
  if (mode < 0.8) return plain.replace(/[a-zé]/g, (c) => (r() < 0.3 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
  return plain.replace(/ /g, () => (r() < 0.2 ? '\\u0020' : ' ')).replace(/\//g, '\\/');
}

const space = (r: Rand): string => pick(r, ['', '', ' ', '\n', '\r\n  ', '\t']);

/** An object written from `[key as written, value as written]` pairs. */
function obj(r: Rand, members: [string, string][]): string {
  return `{${space(r)}${members.map(([k, v]) => `${k}${space(r)}:${space(r)}${v}`).join(`,${space(r)}`)}${space(r)}}`;
}

function turn(r: Rand): string {
  const members: [string, string][] = [];
  const text = pick(r, TEXTS);
  const textKey = r() < 0.05 ? '"te\\u0078t"' : '"text"';
  if (r() < 0.8) members.push(['"speaker"', r() < 0.1 ? String(Math.floor(r() * 9)) : r() < 0.1 ? 'null' : literal(r, pick(r, ['Morgan', 'Chris', '主持人', 'Ana']))]);
  members.push([textKey, r() < 0.03 ? '42' : literal(r, text)]);
  if (r() < 0.7) members.push(['"start"', pick(r, ['1.5', '"00:01:02"', 'null', '"abc"', '-3', '1e2'])]);
  if (r() < 0.5) members.push(['"end"', pick(r, ['9.25', '"1:02:03.5"', 'null', 'true'])]);
  if (r() < 0.1) members.push(['"meta"', obj(r, [['"text"', literal(r, text)], ['"n"', '1']])]);
  if (r() < 0.05) members.push([pick(r, ['"speaker"', '"start"', '"text"']), literal(r, 'again')]);
  if (r() < 0.05) members.push(['"__proto__"', '{}']);
  // Keys in any order.
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return obj(r, members);
}

function transcript(r: Rand): string {
  const members: [string, string][] = [];
  if (r() < 0.5) members.push(['"title"', r() < 0.1 ? '7' : literal(r, 'An "episode" título')]);
  if (r() < 0.2) members.push(['"chapters"', `[${obj(r, [['"text"', literal(r, TEXTS[0]!)], ['"start"', '0']])}]`]);
  if (r() < 0.1) members.push(['"note"', literal(r, 'has \\"text\\": \\"We talked about the price.\\" inside')]);
  const list = Array.from({ length: Math.floor(r() * 6) }, () => turn(r));
  const listKey = pick(r, ['"turns"', '"turns"', '"segments"', '"tu\\u0072ns"']);
  members.push([listKey, `[${space(r)}${list.join(`,${space(r)}`)}${space(r)}]`]);
  if (r() < 0.1) members.push(['"segments"', `[${turn(r)}]`]);
  if (r() < 0.05) members.push([listKey, '[]']);
  if (r() < 0.05) members.push(['"title"', literal(r, 'twice')]);
  if (r() < 0.05) {
    const n = 60 + Math.floor(r() * 10); // the limit is 64 in all: the tree reader refuses the deeper ones
    members.push(['"deep"', `${'['.repeat(n)}${']'.repeat(n)}`]);
  }
  let doc = `${space(r)}${obj(r, members)}${space(r)}`;
  const broken = r();
  if (broken < 0.04) doc = doc.replace(/}(\s*)$/, ',}$1');
  else if (broken < 0.06) doc = doc.slice(0, Math.floor(doc.length * r()));
  else if (broken < 0.07) doc = `${'['.repeat(300)}${']'.repeat(300)}`;
  else if (broken < 0.08) doc = `[${list.join(',')}]`;
  return doc;
}

function commentLine(r: Rand): string {
  const members: [string, string][] = [];
  const text = pick(r, TEXTS);
  const key = pick(r, ['"text"', '"text"', '"textOriginal"', '"content"', '"te\\u0078t"']);
  if (r() < 0.2 && key !== '"text"') members.push(['"text"', literal(r, pick(r, TEXTS))]);
  members.push([key, literal(r, text)]);
  if (r() < 0.1) members.push(['"content"', literal(r, text)]);
  if (r() < 0.7) members.push(['"comment_id"', r() < 0.5 ? literal(r, 'Ugz1') : '17']);
  if (r() < 0.6) members.push(['"author"', literal(r, pick(r, ['@ana', '@李', '@x "y"']))]);
  if (r() < 0.6) members.push(['"likes"', pick(r, ['0', '12', '"3"', 'null', '1.5e1'])]);
  if (r() < 0.4) members.push(['"parent_id"', pick(r, ['null', '"Ugz1"'])]);
  if (r() < 0.1) members.push(['"snippet"', obj(r, [['"textDisplay"', literal(r, text)]])]);
  if (r() < 0.05) members.push([pick(r, ['"author"', key]), literal(r, 'again')]);
  if (r() < 0.03) members.push(['"__proto__"', '{"text": "p"}']);
  let line = obj(r, members).replace(/\r?\n/g, ' ');
  const broken = r();
  if (broken < 0.05) line = line.slice(0, Math.floor(line.length * r()));
  else if (broken < 0.07) line = `[${line}]`;
  else if (broken < 0.08) line = '"just a string"';
  else if (broken < 0.09) line = `{"snippet": {"topLevelComment": {"snippet": {"textOriginal": ${literal(r, text)}}}}}`;
  else if (broken < 0.1) line = `{"author": "@a", "__proto__": {"text": ${literal(r, text)}}}`;
  else if (broken < 0.12) {
    // Nested 61–70 deep in all (the limit is 64): the tree reader refuses the deeper ones.
    const n = 60 + Math.floor(r() * 10);
    line = `{"text": ${literal(r, text)}, "deep": ${'['.repeat(n)}${']'.repeat(n)}}`;
  }
  return line;
}

describe('jsonRecordOffsets', () => {
  test('finds each record, its own keys and its text value, not nested ones nor other arrays', () => {
    const text = '{"chapters":[{"text":"a"}],"turns":[ {"text":"b","m":{"text":"c","k":1}} ,{"x":1,"text" : "d\\"e"}],"z":{"text":"f"}}';
    const o = jsonRecordOffsets(text, '"turns"', ['"text"'])!;
    assert.equal(o.rootKeys, 3);
    assert.deepEqual(o.records.map((r) => [text.slice(r.start, r.end), r.keys, text.slice(r.values.get('"text"')!.offset, r.values.get('"text"')!.offset + r.values.get('"text"')!.length)]), [
      ['{"text":"b","m":{"text":"c","k":1}}', 2, '"b"'],
      ['{"x":1,"text" : "d\\"e"}', 2, '"d\\"e"'],
    ]);
    assert.equal(jsonRecordOffsets('{"segments":[]}', '"turns"', []), undefined);
  });
});

describe('clean JSON readers give what the tree readers give', () => {
  test('transcripts: 3,000 generated files', () => {
    const r = rng(25);
    let clean = 0;
    for (let i = 0; i < 3000; i++) {
      const doc = transcript(r);
      const starts = lineStarts(doc);
      const tree = transcriptJsonTree(doc, starts, 'x/transcript.json');
      const fast = cleanTranscriptJson(doc, starts);
      if (fast) {
        clean++;
        assert.deepEqual(fast, tree, `file ${i}: ${doc}`);
      }
      assert.deepEqual(parseTranscript(doc, 'json', 'x/transcript.json'), tree, `file ${i}: ${doc}`);
    }
    // The generator keeps most files clean: the fast reader is the one that answered for them.
    assert.ok(clean > 600 && clean < 2900, `${clean} of 3000 read clean`);
  });

  test('JSONL comments: 400 generated files of 1–12 lines', () => {
    const r = rng(26);
    let lines = 0;
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 1 + Math.floor(r() * 12) }, () => commentLine(r)).join(pick(r, ['\n', '\r\n']));
      lines += text.split('\n').length;
      assert.deepEqual(parseJsonl(text, 'x/comments.jsonl'), parseJsonl(text, 'x/comments.jsonl', true), `file ${i}: ${text}`);
    }
    assert.ok(lines > 1000);
  });
});
