/**
 * The parts of the REFI-QDA export (issue 24), each against an independent oracle on generated
 * inputs: code-point positions (`Array.from`), the XML escape (a conforming parser reading it
 * back), `xsd:decimal` numbers (`Number`), GUIDs (the schema's pattern, RFC 4122 bits), the
 * model's refusals (each fault in an otherwise valid project names its place), and the zip's size
 * budget.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { CodePointIndex, splitsSurrogatePair, wellFormed } from '../../src/core/export/qdpx/codePoints';
import { canonicalGuid, derivedGuid, GUID_PATTERN } from '../../src/core/export/qdpx/guid';
import { QdaGuids } from '../../src/core/export/qdpx/qdaGuids';
import { qdaProjectSchema, type QdaProject, type QdaProjectInput } from '../../src/core/export/qdpx/qdaModel';
import { unpackZip } from '../../src/core/export/qdpx/qdpxZip';
import { escapeXml, xmlSafe } from '../../src/core/export/qdpx/xmlEscape';
import { xsdDecimal } from '../../src/core/export/qdpx/xsdValues';
import { mulberry32 } from '../../src/core/util/seededRandom';
import { generateProject } from '../support/qdpxProjects';

/** Random strings over every kind of UTF-16 unit that matters here. */
function randomStrings(seed: number, count: number): string[] {
  const r = mulberry32(seed);
  const units = ['a', 'é', '中', '\u0000', '\u0001', '\t', '\n', '\r', '\u000B', '\u001F', '\u007F', '\u0085', '\u2028', '\uFFFD', '\uFFFE', '\uFFFF', '\uD83D', '\uDE00', '😀', '𠀀', '🇪🇸', '<', '>', '&', '"', "'", ']]>', '&#10;', ' '];
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(r() * 40) }, () => units[Math.floor(r() * units.length)]!).join(''));
}

describe('code points', () => {
  test('UTF-16 offsets and code-point positions convert both ways, as Array.from counts them', () => {
    for (const s of randomStrings(1, 400)) {
      const index = new CodePointIndex(s);
      const chars = Array.from(s);
      assert.equal(index.codePointLength, chars.length);
      let u = 0;
      for (let cp = 0; cp <= chars.length; cp++) {
        assert.equal(index.toCodePoint(u), cp, JSON.stringify(s));
        assert.equal(index.toUtf16(cp), u, JSON.stringify(s));
        assert.equal(splitsSurrogatePair(s, u), false);
        if (cp < chars.length) {
          if (chars[cp]!.length === 2) assert.equal(splitsSurrogatePair(s, u + 1), true);
          u += chars[cp]!.length;
        }
      }
      assert.equal(wellFormed(s).length, s.length);
      assert.equal(new TextDecoder().decode(new TextEncoder().encode(s)), wellFormed(s));
    }
  });
});

describe('the XML escape', () => {
  test('a conforming parser reads every escaped text back as xmlSafe(text), in attributes and in content', () => {
    const errors: string[] = [];
    for (const s of randomStrings(2, 400)) {
      const e = escapeXml(s);
      // XML 1.0 end-of-line handling, as the reader parses (xmldom's default is XML 1.1's, folding U+2028 and U+0085 too)
      const doc = new DOMParser({ normalizeLineEndings: (x) => x.replace(/\r\n?/g, '\n'), onError: (level, msg) => void (level !== 'warning' && errors.push(`${level} ${msg}`)) }).parseFromString(`<a d="${e}" s='${e}'>${e}</a>`, 'application/xml');
      const a = doc.documentElement!;
      assert.equal(a.getAttribute('d'), xmlSafe(s), JSON.stringify(s));
      assert.equal(a.getAttribute('s'), xmlSafe(s), JSON.stringify(s));
      assert.equal(a.textContent, xmlSafe(s), JSON.stringify(s));
      assert.equal(xmlSafe(s).length, s.length);
    }
    assert.deepEqual(errors, []);
  });
});

describe('xsd:decimal', () => {
  test('every finite double is written without an exponent and reads back as itself', () => {
    const r = mulberry32(3);
    const specials = [0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, 123.456e-20];
    const randoms = Array.from({ length: 2000 }, () => (r() - 0.5) * 10 ** Math.floor(r() * 620 - 310)).filter(Number.isFinite);
    for (const n of [...specials, ...randoms]) {
      const s = xsdDecimal(n);
      assert.match(s, /^-?\d+(\.\d+)?$/, `${n} → ${s}`);
      assert.equal(Number(s), n, `${n} → ${s}`);
    }
    assert.throws(() => xsdDecimal(Infinity), /finite/);
  });
});

describe('GUIDs', () => {
  test('derived GUIDs fit the schema, are version 5, stable, and distinct per kind and id', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      for (const kind of ['code', 'source']) {
        const g = derivedGuid('', kind, `id-${i}`);
        assert.match(g, GUID_PATTERN);
        assert.match(g, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.equal(derivedGuid('', kind, `id-${i}`), g);
        seen.add(g);
      }
    }
    assert.equal(seen.size, 6000);
    assert.notEqual(derivedGuid('a', 'b:c'), derivedGuid('a:b', 'c'));
    // The namespace is fixed: the same code keeps its GUID from one release to the next.
    assert.equal(derivedGuid('', 'code', 'c1'), '12db4d42-3dda-51be-871c-ed98b2583139');
    assert.equal(canonicalGuid('{ABCDEF01-2345-6789-ABCD-EF0123456789}'), 'abcdef01-2345-6789-abcd-ef0123456789');
    assert.throws(() => canonicalGuid('abc'), /not a GUID/);
  });

  test('two entities given the same GUID are refused', () => {
    const g = '12345678-1234-4234-8234-123456789abc';
    const project = qdaProjectSchema.parse({ name: 'p', codes: [{ id: 'a', name: 'a', guid: g }], notes: [{ id: 'n', text: '', guid: g.toUpperCase() }] });
    assert.throws(() => new QdaGuids(project), /GUID 12345678-1234-4234-8234-123456789abc of note "n" is also the GUID of code "a"/);
  });
});

describe('the model', () => {
  /** A generated project with sources, a selection with a coding, a note, a variable and a case. */
  function base(): QdaProjectInput {
    for (let seed = 1; ; seed++) {
      const { input } = generateProject(seed);
      const p = qdaProjectSchema.parse(input);
      const sel = p.sources.flatMap((s) => s.selections).find((s) => s.codings.length);
      if (sel && p.notes.length && p.variables.some((v) => v.type === 'Integer') && p.cases.length && p.sources.some((s) => /[\uD800-\uDBFF]/.test(s.text))) return input;
    }
  }
  type Fault = [string, (p: QdaProject) => void, RegExp];
  const firstSel = (p: QdaProject): QdaProject['sources'][number]['selections'][number] => p.sources.flatMap((s) => s.selections).find((s) => s.codings.length)!;
  const sourceOf = (p: QdaProject, id: string): QdaProject['sources'][number] => p.sources.find((s) => s.selections.some((x) => x.id === id))!;
  const faults: Fault[] = [
    ['end past the text', (p) => { const s = firstSel(p); s.end = sourceOf(p, s.id).text.length + 1; }, /past the end of the source's text/],
    ['empty selection', (p) => { const s = firstSel(p); s.end = s.start; }, /end \(\d+\) must be greater than start/],
    ['offset inside a surrogate pair', (p) => {
      const src = p.sources.find((s) => /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(s.text))!;
      const at = src.text.search(/[\uD800-\uDBFF][\uDC00-\uDFFF]/) + 1;
      src.selections.push({ id: 'split', start: at, end: at + 1, codings: [], noteIds: [] });
    }, /selection "split": start \(\d+\) falls inside a surrogate pair/],
    ['unknown code', (p) => { firstSel(p).codings[0]!.codeId = 'nope'; }, /unknown code "nope"/],
    ['code applied twice', (p) => { const s = firstSel(p); s.codings.push({ ...s.codings[0]! }); }, /is applied twice/],
    ['coding with a folder', (p) => { p.codes.push({ id: 'folder', name: 'f', isCodable: false, noteIds: [], children: [] }); firstSel(p).codings[0]!.codeId = 'folder'; }, /is not codable/],
    ['unknown note', (p) => { firstSel(p).noteIds.push('nope'); }, /unknown note "nope"/],
    ['duplicate nested code id', (p) => { p.codes[0]!.children.push({ id: p.codes[0]!.id, name: 'x', isCodable: true, noteIds: [], children: [] }); }, /duplicate code id/],
    ['duplicate selection id across sources', (p) => { const s = firstSel(p); p.sources.find((x) => x !== sourceOf(p, s.id))!.selections.push({ ...s, codings: [], noteIds: [], start: 0, end: 0 }); }, /duplicate selection id/],
    ['unknown variable', (p) => { p.sources[0]!.variables.push({ variableId: 'nope', value: 'x' }); }, /unknown variable "nope"/],
    ['value of the wrong type', (p) => { p.sources[0]!.variables.push({ variableId: p.variables.find((v) => v.type === 'Integer')!.id, value: 1.5 }); }, /of type Integer: expected a safe integer/],
    ['case with an unknown selection', (p) => { p.cases[0]!.selectionIds.push('nope'); }, /unknown selection "nope"/],
    ['unknown user', (p) => { p.sources[0]!.createdBy = 'nobody'; }, /unknown user "nobody"/],
  ];

  test('a valid project parses; each fault is refused at its place', () => {
    const input = base();
    assert.equal(qdaProjectSchema.safeParse(input).success, true);
    for (const [what, apply, message] of faults) {
      const p = qdaProjectSchema.parse(structuredClone(input));
      apply(p);
      const r = qdaProjectSchema.safeParse(p);
      assert.equal(r.success, false, `${what} was accepted`);
      assert.ok(r.error!.issues.some((i) => message.test(i.message)), `${what}: ${r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')}`);
    }
    const shapes: [string, unknown][] = [
      ['colour', { name: 'p', codes: [{ id: 'c', name: 'c', color: 'red' }] }],
      ['dateTime without time', { name: 'p', createdAt: '2024-05-01' }],
      ['GUID', { name: 'p', users: [{ id: 'u', guid: '1234' }] }],
      ['empty project name', { name: '' }],
    ];
    for (const [what, p] of shapes) assert.equal(qdaProjectSchema.safeParse(p).success, false, `${what} was accepted`);
  });
});

describe('the zip', () => {
  test('only wanted entries are inflated, within the size budget', () => {
    const big = new Uint8Array(1 << 20).fill(65);
    const zip = zipSync({ 'project.qde': strToU8('<Project/>'), 'Sources/a.txt': big, 'Sources/b.pdf': big });
    assert.deepEqual([...unpackZip(zip, (p) => p.endsWith('.qde')).keys()], ['project.qde']);
    assert.equal(unpackZip(zip, (p) => p.endsWith('.txt')).get('Sources/a.txt')!.length, 1 << 20);
    assert.throws(() => unpackZip(zip, () => true, { maxEntryBytes: 1000, maxTotalBytes: 1e9 }), /Sources\/a.txt inflates to 1048576 bytes \(at most 1000\)/);
    assert.throws(() => unpackZip(zip, () => true, { maxEntryBytes: 1e9, maxTotalBytes: 1.5e6 }), /more than 1500000 bytes/);
  });
});
