/**
 * REFI-QDA export (issue 24): generated projects — sources in English, Chinese (with astral
 * characters and emoji) and Spanish, random code trees, random coded selections, notes, variables,
 * speakers as cases, names full of markup, quotes and control characters — export to a `.qdpx`
 * whose `project.qde` validates against the REFI-QDA Project schema (xmllint), whose selections'
 * positions are the code-point positions of their text in the `Sources/` file, and which reads
 * back as the same project.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { exportQdpx } from '../../src/core/export/qdpx/qdpxExport';
import { readQdpx } from '../../src/core/export/qdpx/qdpxRead';
import { GUID_PATTERN } from '../../src/core/export/qdpx/guid';
import { wellFormed } from '../../src/core/export/qdpx/codePoints';
import { codePointsBefore, dropUndefined, expectedReadBack, generateProject } from '../support/qdpxProjects';
import { validateProjectXmls } from '../support/qdpxValidate';
import { checkZip } from '../support/qdpxZipCheck';
import { walkCodes } from '../../src/core/export/qdpx/qdaModel';
import { xmlSafe } from '../../src/core/export/qdpx/xmlEscape';

const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + i);
const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** Every PlainTextSelection's guid and positions as written in `project.qde`. */
function writtenSelections(xml: string): Map<string, { start: number; end: number }> {
  const out = new Map<string, { start: number; end: number }>();
  for (const m of xml.matchAll(/<PlainTextSelection ([^>]*)>/g)) {
    const a = (name: string): string => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1]!)![1]!;
    out.set(a('guid'), { start: Number(a('startPosition')), end: Number(a('endPosition')) });
  }
  return out;
}

describe('qdpx export of generated projects', () => {
  test('every project is schema-valid, reads back equal, and its positions are the code points of its text', async () => {
    const projects = SEEDS.map((seed) => ({ seed, ...generateProject(seed) }));
    const exports = projects.map((p) => exportQdpx(p.input));
    const schema = await validateProjectXmls(exports.map((e) => e.projectXml));
    const seen = { selections: 0, astralQuotes: 0, shiftedPositions: 0, languages: new Set<string>(), controlNames: 0, markupNames: 0, notes: 0, codings: 0, cases: 0, nestedCodes: 0 };
    for (const [i, { seed, languages }] of projects.entries()) {
      const out = exports[i]!;
      const where = `seed ${seed}`;
      assert.deepEqual(schema[i]!.errors, [], `${where}: project.qde is not valid against the schema`);
      assert.equal(schema[i]!.valid, true, where);

      // A well-formed zip (read by an independent reader: directory, local headers, sizes, CRC-32):
      // project.qde and one text file per source, nothing else.
      const files = Object.fromEntries(checkZip(out.bytes).map((e) => [e.name, e.data]));
      assert.deepEqual(Object.keys(files).sort(), ['project.qde', ...out.project.sources.map((s) => `Sources/${out.guids.of('source', s.id)}.txt`)].sort(), where);
      assert.equal(files['project.qde']!.toString('utf8'), out.projectXml, where);
      const written = writtenSelections(out.projectXml);
      for (const s of out.project.sources) {
        const sourceGuid = out.guids.of('source', s.id);
        assert.match(out.projectXml, new RegExp(`plainTextPath="internal://${sourceGuid}\\.txt"`), where);
        const file = files[`Sources/${sourceGuid}.txt`];
        assert.ok(file, `${where}: Sources/${sourceGuid}.txt missing from the zip`);
        const fileText = new TextDecoder().decode(file); // UTF-8, one leading BOM dropped
        assert.equal(fileText, wellFormed(s.text), `${where}: the text file of ${s.id}`);
        const fileChars = Array.from(fileText);
        for (const sel of s.selections) {
          const w = written.get(out.guids.of('selection', sel.id))!;
          assert.deepEqual(w, { start: codePointsBefore(s.text, sel.start), end: codePointsBefore(s.text, sel.end) }, `${where}: positions of ${sel.id}`);
          assert.equal(fileChars.slice(w.start, w.end).join(''), wellFormed(s.text.slice(sel.start, sel.end)), `${where}: the file's characters at ${sel.id}'s positions`);
          seen.selections++;
          if (ASTRAL.test(s.text.slice(sel.start, sel.end))) seen.astralQuotes++;
          if (w.start !== sel.start) seen.shiftedPositions++;
          seen.codings += sel.codings.length;
        }
        seen.languages.add(languages.get(s.id)!);
      }

      const back = readQdpx(out.bytes);
      assert.deepEqual(back.warnings, [], where);
      assert.deepEqual(dropUndefined(back.project), expectedReadBack(out.project, out.guids), `${where}: read back`);
      for (const s of back.project.sources) {
        const orig = out.project.sources.find((o) => out.guids.of('source', o.id) === s.id)!;
        for (const [k, sel] of s.selections.entries()) {
          assert.equal(s.text.slice(sel.start, sel.end), wellFormed(orig.text.slice(orig.selections[k]!.start, orig.selections[k]!.end)), `${where}: quoted text of ${sel.id}`);
        }
      }

      for (const { code } of walkCodes(out.project.codes)) {
        if (xmlSafe(code.name) !== code.name) seen.controlNames++;
        if (/[<&"']/.test(code.name)) seen.markupNames++;
      }
      seen.notes += out.project.notes.length;
      seen.cases += out.project.cases.length;
      seen.nestedCodes += out.project.codes.filter((c) => c.children.length > 0).length;
    }
    // The generated projects exercise what the test is for.
    assert.deepEqual([...seen.languages].sort(), ['en', 'es', 'zh']);
    for (const [k, v] of Object.entries(seen)) if (typeof v === 'number') assert.ok(v >= 5, `only ${v} ${k} in ${SEEDS.length} projects`);
  });

  test('the same project gives the same bytes; GUIDs follow the ids and the seed', () => {
    const { input } = generateProject(7);
    const a = exportQdpx(input);
    const b = exportQdpx(structuredClone(input));
    assert.deepEqual(a.bytes, b.bytes);
    const seeded = exportQdpx(input, { guidSeed: 'another corpus' });
    const ids = a.project.sources.map((s) => s.id);
    for (const id of ids) {
      assert.match(a.guids.of('source', id), GUID_PATTERN);
      assert.notEqual(a.guids.of('source', id), seeded.guids.of('source', id));
    }
    // Renaming a source keeps its GUID (derived from its id, not its name).
    const renamed = structuredClone(input);
    renamed.sources![0]!.name = 'renamed';
    assert.equal(exportQdpx(renamed).guids.of('source', ids[0]!), a.guids.of('source', ids[0]!));
  });

  test('a project read back exports to the same project.qde', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const out = exportQdpx(generateProject(seed).input);
      const again = exportQdpx(readQdpx(out.bytes).project);
      // Our own origin was written when the input had none; everything else is the same text.
      assert.equal(again.projectXml, out.projectXml, `seed ${seed}`);
    }
  });
});
