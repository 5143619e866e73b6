/**
 * `marker-research export <dir> --qdpx [--out FILE] [--markers-as-codes]` (issue 24): a generated
 * corpus on disk with extractive markers, a codebook, coded segments and a notebook written through
 * the workbench stores; the .qdpx the CLI writes validates and reads back with every code and
 * segment; the default file lands in the current folder; bad arguments and a broken codebook say
 * what is wrong.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { readQdpx } from '../../src/core/export/qdpx/qdpxRead';
import { generateMarkers } from '../../src/core/markers/generate';
import { createCode } from '../../src/core/workbench/codebookStore';
import { addSegment } from '../../src/core/workbench/codingStore';
import { codebookFile } from '../../src/core/workbench/files';
import { addEntry } from '../../src/core/workbench/notebookStore';
import { pinSpan, selectionEntry } from '../../src/core/workbench/pins';
import type { Code } from '../../src/core/workbench/schema';
import { writeGeneratedCorpus } from '../support/markerCorpus';
import { validateProjectXml } from '../support/qdpxValidate';
import { runCli } from '../support/testing';

describe('marker-research export --qdpx', () => {
  let work: string;
  let dir: string;
  let corpus: Corpus;
  const codes: Code[] = [];
  let segments = 0;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-qdpx-cli-'));
    dir = path.join(work, 'field study');
    await mkdir(dir);
    await writeGeneratedCorpus(dir, { items: 8, seed: 41, shape: 'mixed', turns: [6, 14], comments: [3, 8] });
    corpus = await loadCorpus(dir);
    const gen = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.equal(gen.failed, 0);
    const parent = await createCode(dir, { name: 'Costs', description: 'Money and time' });
    codes.push(parent, await createCode(dir, { name: 'Hidden costs', parentId: parent.id }), await createCode(dir, { name: 'Opinions' }));
    for (const [i, item] of corpus.items.entries()) {
      const segs = item.transcript?.segments ?? [];
      for (let k = i % 2; k < segs.length; k += 3) {
        const s = segs[k]!;
        const span = pinSpan(item, 'transcript', s.offset, s.offset + Math.min(s.text.length, 30 + k));
        if (span) {
          await addSegment(dir, { codeId: codes[(i + k) % codes.length]!.id, span });
          segments++;
        }
      }
      const c = item.comments?.comments[0];
      if (c) {
        const e = selectionEntry(item, 'comments', c.offset, c.offset + c.text.length);
        if (e) await addEntry(dir, { ...e, note: `Why ${item.id} matters` });
      }
    }
    assert.ok(segments > 10);
  });
  after(async () => rm(work, { recursive: true, force: true }));

  test('writes a schema-valid .qdpx with every code and coded segment, and markers as codes when asked', async () => {
    const out = path.join(work, 'project.qdpx');
    const r = await runCli(['export', dir, '--qdpx', '--out', out, '--markers-as-codes']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^qdpx: ${corpus.items.length} sources, \\d+ codes, ${segments} coded segments, [\\d,]+ markers as codes, [\\d,]+ notes, \\d+ cases \\(speakers\\), [\\d,]+ selections → .*project\\.qdpx \\(\\d+ KiB\\)\\n$`, 'u'));
    const bytes = new Uint8Array(await import('node:fs/promises').then((f) => f.readFile(out)));
    assert.ok(unzipSync(bytes)['project.qde'], 'a zip with project.qde');
    const { project, warnings } = readQdpx(bytes);
    assert.deepEqual(warnings, []);
    const names = new Set<string>();
    const walk = (cs: typeof project.codes): void => cs.forEach((c) => (names.add(c.name), walk(c.children)));
    walk(project.codes);
    for (const c of codes) assert.ok(names.has(c.name), c.name);
    assert.ok(names.has('Marker kinds') && names.has('Marker topics'));
    const codings = project.sources.flatMap((s) => s.selections).reduce((n, s) => n + s.codings.length, 0);
    assert.ok(codings >= segments, `${codings} codings for ${segments} segments`);
    const qde = new TextDecoder().decode(unzipSync(bytes)['project.qde']);
    const valid = await validateProjectXml(qde);
    assert.ok(valid.valid, valid.errors.slice(0, 3).join('; '));
  });

  test('without --out, writes <corpus folder>.qdpx in the current folder; without --markers-as-codes, only the codebook', async () => {
    const cwd = process.cwd();
    const here = await mkdtemp(path.join(work, 'cwd-'));
    process.chdir(here);
    try {
      const r = await runCli(['export', dir, '--qdpx']);
      assert.equal(r.code, 0, r.err);
      const file = path.join(here, 'field study.qdpx');
      assert.ok((await stat(file)).size > 0);
      assert.ok(r.out.includes(file), r.out);
      const { project } = readQdpx(new Uint8Array(await import('node:fs/promises').then((f) => f.readFile(file))));
      assert.deepEqual(project.codes.map((c) => c.name).sort(), ['Costs', 'Opinions']);
    } finally {
      process.chdir(cwd);
    }
  });

  test('usage errors: --out without --qdpx, --markers-as-codes without --qdpx, an --out that is not .qdpx', async () => {
    for (const args of [['--out', 'x.qdpx'], ['--markers-as-codes'], ['--qdpx', '--out', 'x.zip']]) {
      const r = await runCli(['export', dir, ...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, /qdpx/);
    }
  });

  test('a codebook that does not validate: exit 1 naming the file, line and field; nothing written', async () => {
    const broken = path.join(work, 'broken');
    await mkdir(broken);
    await writeGeneratedCorpus(broken, { items: 2, seed: 5, shape: 'transcript' });
    await mkdir(path.dirname(codebookFile(broken)), { recursive: true });
    await writeFile(codebookFile(broken), '{\n "version": 1,\n "codes": [\n  { "id": "a", "name": "A", "colour": "red" }\n ]\n}\n');
    const out = path.join(work, 'broken.qdpx');
    const r = await runCli(['export', broken, '--qdpx', '--out', out]);
    assert.equal(r.code, 1);
    assert.match(r.err, /codebook\.json:4: codes\[0\]\.colour/);
    await assert.rejects(stat(out));
  });
});
