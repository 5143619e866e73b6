/**
 * Codes (issue 24): the codebook (create, rename, recolour, describe, memo, move, delete) with
 * its rules; codebook.json and codings.json validated on read with errors naming the file and the
 * field; coded segments over a generated corpus (English, Chinese, Spanish); the Codes view's
 * queries — segments by code, the code × item table — checked against counts made directly; codes
 * suggested from the markers' topics, most frequent first.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeItemMarkers } from '../../src/core/markers/store';
import { deleteCode } from '../../src/core/workbench/codeDeletion';
import { codeItemTable, codeTree, segmentsByCode, segmentsOfCode } from '../../src/core/workbench/codeQueries';
import {
  addCode, CodebookEditError, codebookFile, codebookText, createCode, describeCode, emptyCodebook, moveCode, parseCodebook, readCodebook, recolourCode, renameCode, setCodeMemo,
} from '../../src/core/workbench/codebookStore';
import { addSegment, addSegmentIn, codingsFile, emptyCodings, parseCodings, readCodings, recodeSegment, removeSegment, setSegmentMemo } from '../../src/core/workbench/codingStore';
import { WorkbenchFileError } from '../../src/core/workbench/fileErrors';
import { nameKey, type Codebook, type Codings } from '../../src/core/workbench/schema';
import { readSuggestedCodes, suggestedCodes } from '../../src/core/workbench/suggestedCodes';
import { rng } from '../support/testing';
import { buildItems, generatedMarkers, markerFileOf, pick, randomSpan, workbenchSpecs } from '../support/workbenchCorpus';

const NAMES = ['safety', 'cost', '安全', '成本', 'seguridad', 'coste', 'trust', '信任', 'confianza', 'daily life', '日常生活', 'vida diaria'];

/** A codebook of generated codes (some nested), built with the pure edits. */
function generatedCodebook(seed: number, n: number): Codebook {
  const r = rng(seed);
  let book = emptyCodebook();
  let k = 0;
  for (let i = 0; i < n; i++) {
    const parent = book.codes.length && r() < 0.4 ? pick(r, book.codes).id : undefined;
    book = addCode(book, { name: `${pick(r, NAMES)} ${i}`, description: r() < 0.5 ? 'what it means' : undefined, parentId: parent }, { newId: () => `c${seed}-${k++}`, now: () => new Date(0) }).book;
  }
  return book;
}

/** Segments of random codes over random spans of the items. */
function generatedCodings(seed: number, book: Codebook, n: number, unknownCodes = 0): { codings: Codings; items: string[] } {
  const r = rng(seed);
  const items = buildItems(workbenchSpecs(seed));
  let c = emptyCodings();
  let k = 0;
  for (let i = 0; i < n; i++) {
    const codeId = i < unknownCodes ? `gone-${i}` : pick(r, book.codes).id;
    c = addSegmentIn(c, { codeId, span: randomSpan(r, pick(r, items)) }, { newId: () => `s${seed}-${k++}`, now: () => new Date(0) }).codings;
  }
  return { codings: c, items: items.map((i) => i.id) };
}

describe('code queries', () => {
  test('the code × item table counts what a direct count counts, over every item asked for', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const book = generatedCodebook(seed, 3 + (seed % 9));
      const { codings, items } = generatedCodings(seed, book, 10 + seed * 7, seed % 3);
      const order = items.filter((_, i) => i % 2 === 0);
      const t = codeItemTable(book, codings, order);
      // Columns: the asked items first (coded or not), then the other coded items.
      assert.deepEqual(t.items.slice(0, order.length), order);
      assert.equal(new Set(t.items).size, t.items.length);
      for (const row of t.rows)
        t.items.forEach((item, j) => {
          const direct = codings.segments.filter((s) => s.codeId === row.code.id && s.span.itemId === item).length;
          assert.equal(row.counts[j], direct, `seed ${seed}: ${row.code.name} × ${item}`);
        });
      assert.equal(t.unknownCode, seed % 3);
      assert.equal(t.total + t.unknownCode, codings.segments.length);
      assert.deepEqual(t.itemTotals, t.items.map((it) => codings.segments.filter((s) => s.span.itemId === it && !s.codeId.startsWith('gone-')).length));
      assert.deepEqual(new Set(t.rows.map((r) => r.code.id)), new Set(book.codes.map((c) => c.id)));
    }
  });

  test('segments by code: tree order (each parent before its children), reading order within a code, subtree counts, unknown codes kept apart', () => {
    for (let seed = 30; seed < 40; seed++) {
      const book = generatedCodebook(seed, 10);
      const { codings, items } = generatedCodings(seed, book, 80, 2);
      const { codes, unknown } = segmentsByCode(book, codings, items);
      assert.equal(unknown.length, 2);
      const pos = new Map(codes.map((c, i) => [c.code.id, i]));
      for (const c of codes) {
        if (c.code.parentId) assert.ok(pos.get(c.code.parentId)! < pos.get(c.code.id)!);
        const own = codings.segments.filter((s) => s.codeId === c.code.id);
        assert.equal(c.segments.length, own.length);
        const key = (x: (typeof c.segments)[number]): number[] => [items.indexOf(x.span.itemId), x.span.part === 'transcript' ? 0 : 1, x.span.start];
        for (let i = 1; i < c.segments.length; i++) {
          const [ka, kb] = [key(c.segments[i - 1]!), key(c.segments[i]!)];
          const cmp = ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
          assert.ok(cmp <= 0, `reading order: ${ka} then ${kb}`);
        }
        const sub = segmentsOfCode(book, codings, c.code.id, { withDescendants: true });
        assert.equal(c.subtreeCount, sub.length);
        assert.equal(c.depth, codeTree(book).find((x) => x.code.id === c.code.id)!.depth);
      }
    }
  });

  test('suggested codes: the markers topics counted across items (spelling, case and spacing folded), most frequent first; codes already named are left out', () => {
    const specs = workbenchSpecs(50, 3);
    const items = buildItems(specs);
    const markers = generatedMarkers(51, items, specs, [4, 12]);
    const files = items.map((it) => markerFileOf(it, markers.get(it.id)!));
    const all = suggestedCodes(files);
    const direct = new Map<string, { n: number; items: Set<string> }>();
    for (const [id, ms] of markers)
      for (const m of ms) {
        const key = nameKey(m.topic);
        const d = direct.get(key) ?? { n: 0, items: new Set() };
        d.n++;
        d.items.add(id);
        direct.set(key, d);
      }
    assert.equal(all.length, direct.size);
    for (const s of all) {
      assert.equal(s.markers, direct.get(nameKey(s.topic))!.n);
      assert.equal(s.items, direct.get(nameKey(s.topic))!.items.size);
      assert.equal(s.topic, s.topic.trim());
      assert.equal(Object.values(s.kinds).reduce((a, b) => a + b, 0), s.markers);
    }
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.markers >= all[i]!.markers);
    assert.ok(all.some((s) => /\p{Script=Han}/u.test(s.topic)) && all.some((s) => /í|ñ|ó|u/.test(s.topic)));
    // A code named like the top topic (any case): not suggested again, or marked with it.
    const book = addCode(emptyCodebook(), { name: `  ${all[0]!.topic.toUpperCase()} ` }).book;
    assert.ok(!suggestedCodes(files, book).some((s) => nameKey(s.topic) === nameKey(all[0]!.topic)));
    assert.equal(suggestedCodes(files, book, { includeExisting: true })[0]!.codeId, book.codes[0]!.id);
  });
});

describe('codebook and codings files', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-codes-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Ways a researcher (or a merge) breaks codebook.json, and the field the error must name. */
  const breakages: [string, (b: Record<string, unknown> & { codes: Record<string, unknown>[] }) => void, RegExp][] = [
    ['a colour by name', (b) => (b.codes[2]!['colour'] = 'red'), /codes\[2\]\.colour: expected a colour as #rrggbb \(found "red"\)/],
    ['a short colour', (b) => (b.codes[0]!['colour'] = '#fff'), /codes\[0\]\.colour:/],
    ['an empty name', (b) => (b.codes[1]!['name'] = '  '), /codes\[1\]\.name: a code needs a name/],
    ['a duplicate id', (b) => (b.codes[3]!['id'] = b.codes[1]!['id']), /codes\[3\]\.id: duplicate code id/],
    ['a duplicate name', (b) => (b.codes[3]!['name'] = String(b.codes[0]!['name']).toUpperCase()), /codes\[3\]\.name: duplicate code name/],
    ['an unknown parent', (b) => (b.codes[2]!['parentId'] = 'nope'), /codes\[2\]\.parentId: unknown parent code "nope"/],
    ['a cycle of parents', (b) => ((b.codes[0]!['parentId'] = b.codes[1]!['id']), (b.codes[1]!['parentId'] = b.codes[0]!['id'])), /codes\[\d\]\.parentId: .* is its own ancestor/],
    ['a number for a name', (b) => (b.codes[4]!['name'] = 42), /codes\[4\]\.name:/],
    ['a newer version', (b) => (b['version'] = 2), /version:/],
    ['codes not a list', (b) => (b['codes'] = {} as never), /codes:/],
    ['a memo without its time', (b) => (b.codes[1]!['memo'] = { text: 'x' }), /codes\[1\]\.memo\.updatedAt:/],
  ];
  for (const [name, breakIt, expected] of breakages) {
    test(`codebook.json with ${name}: an error naming the file and the field; the file is not replaced`, async () => {
      const root = path.join(dir, name.replace(/\W+/g, '-'));
      await mkdir(path.join(root, '.marker-research'), { recursive: true });
      const book = JSON.parse(codebookText(generatedCodebook(7, 6))) as Parameters<(typeof breakages)[0][1]>[0];
      for (const c of book.codes) delete c['parentId'];
      breakIt(book);
      const text = JSON.stringify(book, null, 2);
      await writeFile(codebookFile(root), text);
      // The line named is the field's (or, for a field left out, its object's).
      const check = (e: unknown): boolean => {
        if (!(e instanceof WorkbenchFileError) || !expected.test(e.message)) return false;
        const m = /^\.marker-research\/codebook\.json:(\d+): ([\w[\].]+):/.exec(e.message);
        if (!m) return false;
        const key = m[2]!.split('.').pop()!.replace(/\[\d+\]$/, '');
        const line = text.split('\n')[Number(m[1]) - 1]!;
        return line.includes(`"${key}"`) || (key === 'updatedAt' && line.includes('"memo"'));
      };
      await assert.rejects(readCodebook(root), check);
      await assert.rejects(createCode(root, { name: 'new' }), check);
      assert.equal(await readFile(codebookFile(root), 'utf8'), text);
    });
  }

  test('invalid JSON: the error names the file and the line', () => {
    const text = codebookText(generatedCodebook(8, 4));
    const lines = text.split('\n');
    lines[6] = `${lines[6]!.replace(/,$/, '')} ,,`;
    assert.throws(() => parseCodebook(lines.join('\n'), 'codebook.json'), (e: unknown) => e instanceof WorkbenchFileError && /^codebook\.json:7: not valid JSON \(/.test(e.message));
  });

  test('codings.json with a bad span: the error names the file and the field', () => {
    const book = generatedCodebook(9, 3);
    const raw = JSON.parse(JSON.stringify(generatedCodings(9, book, 5).codings)) as { segments: { span: Record<string, unknown> }[] };
    raw.segments[3]!.span['end'] = raw.segments[3]!.span['start'];
    assert.throws(() => parseCodings(JSON.stringify(raw), '.marker-research/codings.json'), (e: unknown) => e instanceof WorkbenchFileError && /^\.marker-research\/codings\.json:\d+: segments\[3\]\.span\.end: end must be greater than start/.test(e.message));
    raw.segments[3]!.span['end'] = 9;
    raw.segments[1]!.span['part'] = 'video';
    assert.throws(() => parseCodings(JSON.stringify(raw), 'codings.json'), (e: unknown) => e instanceof WorkbenchFileError && /^codings\.json:\d+: segments\[1\]\.span\.part: .*\(found "video"\)/.test(e.message));
  });

  test('the codebook edits: create (palette colours), rename, recolour, describe, memo, move, delete (children move up, segments go); rules kept', async () => {
    const root = path.join(dir, 'edits');
    await mkdir(root);
    const a = await createCode(root, { name: '安全' });
    const b = await createCode(root, { name: 'coste', parentId: a.id });
    const c = await createCode(root, { name: 'daily life', parentId: b.id, colour: '#ABCDEF' });
    assert.notEqual(a.colour, b.colour);
    assert.equal(c.colour, '#abcdef');
    await assert.rejects(createCode(root, { name: ' COSTE ', parentId: a.id }), CodebookEditError);
    await assert.rejects(moveCode(root, a.id, c.id), /own ancestor/);
    await assert.rejects(recolourCode(root, a.id, 'blue'), /#rrggbb/);
    await assert.rejects(renameCode(root, 'nope', 'x'), /no code with id "nope"/);
    assert.equal((await renameCode(root, b.id, 'coste de vida')).name, 'coste de vida');
    assert.equal((await recolourCode(root, b.id, '#112233')).colour, '#112233');
    assert.equal((await describeCode(root, b.id, 'lo que cuesta vivir')).description, 'lo que cuesta vivir');
    assert.equal((await setCodeMemo(root, b.id, '要和访谈对比', { now: () => new Date(5) })).memo?.text, '要和访谈对比');
    assert.equal((await setCodeMemo(root, b.id, null)).memo, undefined);
    const items = buildItems(workbenchSpecs(60));
    const r = rng(61);
    const spans = Array.from({ length: 12 }, () => randomSpan(r, pick(r, items)));
    for (const [i, s] of spans.entries()) await addSegment(root, { codeId: [a, b, c][i % 3]!.id, span: s, memo: i % 4 ? undefined : 'memo 备注' });
    const again = await addSegment(root, { codeId: a.id, span: spans[0]! });
    assert.equal(again.added, false);
    await assert.rejects(addSegment(root, { codeId: 'nope', span: spans[0]! }), /no code with id/);
    const segs = (await readCodings(root)).segments;
    assert.equal(segs.length, 12);
    assert.equal(segs.filter((s) => s.memo).length, 3);
    assert.equal((await setSegmentMemo(root, segs[1]!.id, 'nota', { now: () => new Date(7) }))?.memo?.text, 'nota');
    assert.equal((await recodeSegment(root, segs[2]!.id, a.id))?.codeId, a.id);
    assert.equal(await removeSegment(root, segs[5]!.id), true);
    assert.equal(await removeSegment(root, segs[5]!.id), false);
    const ofB = (await readCodings(root)).segments.filter((s) => s.codeId === b.id).length;
    assert.ok(ofB > 0);
    const del = await deleteCode(root, b.id);
    assert.deepEqual(del.reparented, [c.id]);
    assert.equal(del.segmentsRemoved, ofB);
    const book = await readCodebook(root);
    assert.deepEqual(book.codes.map((x) => [x.name, x.parentId]), [['安全', undefined], ['daily life', a.id]]);
    assert.ok((await readCodings(root)).segments.every((s) => s.codeId !== b.id));
    JSON.parse(await readFile(codingsFile(root), 'utf8'));
  });

  test('codes suggested from the marker files of a corpus folder', async () => {
    const root = path.join(dir, 'suggest');
    await mkdir(root);
    const specs = workbenchSpecs(70, 2);
    const items = buildItems(specs);
    const markers = generatedMarkers(71, items, specs);
    for (const it of items) await writeItemMarkers(root, markerFileOf(it, markers.get(it.id)!));
    const fromFiles = await readSuggestedCodes(root, [...items.map((i) => i.id), 'no-markers']);
    assert.deepEqual(fromFiles, suggestedCodes(items.map((it) => markerFileOf(it, markers.get(it.id)!))));
    assert.ok(fromFiles.length >= 6);
  });
});
