/**
 * Issue 19, class 2: a marker file (or condensation) that exists but cannot be read is an error
 * that names the file — never "missing". Errors are injected at the file system's `open`: a lack
 * of handles for a while (retried: everything is read), and a lasting refusal (EACCES, EIO) of some
 * generated items' files — those items fail with the file named and are not generated again (their
 * files stay as they were), the research session lists them, the engine shows them as errors, the
 * condensed reader marks them unusable; the other items are read as usual.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, mock, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { condensedFile, condensedItemSchema, readCondensedItem } from '../../src/core/markers/condense';
import { generateMarkers } from '../../src/core/markers/generate';
import { markerFileName, markersDir, readItemMarkers } from '../../src/core/markers/store';
import { loadCondensedClaims } from '../../src/core/research/condensedSource';
import { openSession } from '../../src/core/research/session';
import { writeFileAtomic } from '../../src/core/storage/atomic';
import { CorpusEngine } from '../../src/server/corpusEngine';
import { writeGeneratedCorpus } from '../support/markerCorpus';
import { recordingLogger, rng } from '../support/testing';

const realOpen = fsp.open;
type OpenArgs = Parameters<typeof fsp.open>;

/** Makes `open` fail for the files `failFor` says, with the code it gives. */
function injectOpenErrors(failFor: (file: string) => string | undefined): void {
  mock.method(fsp, 'open', async (...args: OpenArgs) => {
    const file = String(args[0]);
    const code = failFor(file);
    if (code) throw Object.assign(new Error(`${code}: injected, open '${file}'`), { code, path: file });
    return realOpen(...args);
  });
}

describe('marker files that cannot be read', () => {
  let work: string;
  let corpus: Corpus;
  const bytes = new Map<string, string>();

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-readerr-'));
    const dir = path.join(work, 'corpus');
    await writeGeneratedCorpus(dir, { items: 40, seed: 5150, shape: 'any', turns: [2, 8], comments: [1, 8] });
    corpus = await loadCorpus(dir);
    const first = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.equal(first.generated, corpus.items.length);
    for (const item of corpus.items) {
      bytes.set(item.id, await readFile(path.join(markersDir(dir), markerFileName(item.id)), 'utf8'));
      const condensed = condensedItemSchema.parse({
        item_id: item.id, title: item.title, content_hash: item.contentHash, model: 'fake', prompt_version: 'v', cache_key: 'k', generated_at: new Date(0).toISOString(),
        claims: [], categories: [], coverage: { transcript: null, comments: null }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
      });
      await writeFileAtomic(condensedFile(dir, item.id), `${JSON.stringify(condensed)}\n`);
    }
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });
  afterEach(() => mock.restoreAll());

  test('out of handles for a while: every cached item is still cached, nothing generated', async () => {
    const r = rng(8);
    // Each state file's first opens fail with EMFILE/ENFILE (1–3 times, fewer than the pool's tries).
    const left = new Map<string, number>();
    injectOpenErrors((file) => {
      if (!file.includes('.marker-research')) return undefined;
      if (!left.has(file)) left.set(file, 1 + Math.floor(r() * 3));
      const n = left.get(file)!;
      if (n === 0) return undefined;
      left.set(file, n - 1);
      return r() < 0.5 ? 'EMFILE' : 'ENFILE';
    });
    const report = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.deepEqual({ generated: report.generated, cached: report.cached, failed: report.failed }, { generated: 0, cached: corpus.items.length, failed: 0 });
    assert.ok(left.size >= corpus.items.length, 'errors were injected');
  });

  test('a lasting read error: the item fails naming its file and is not generated again; every reader reports it', async () => {
    const r = rng(99);
    const refused = new Map(corpus.items.filter(() => r() < 0.25).map((it) => [it.id, r() < 0.5 ? 'EACCES' : 'EIO'] as const));
    assert.ok(refused.size > 0 && refused.size < corpus.items.length);
    const byFile = new Map<string, string>();
    for (const [id, code] of refused) {
      byFile.set(markerFileName(id), code);
    }
    injectOpenErrors((file) => (file.includes('.marker-research') ? byFile.get(path.basename(file)) : undefined));

    // Reading: an error naming the file, never "missing".
    for (const item of corpus.items) {
      const read = await readItemMarkers(corpus.root, item.id);
      const condensed = await readCondensedItem(corpus.root, item.id);
      if (!refused.has(item.id)) {
        assert.ok(read.ok && condensed.ok, item.id);
        continue;
      }
      for (const x of [read, condensed]) {
        assert.ok(!x.ok && !x.missing && x.unreadable, `${item.id}: unreadable, not missing`);
        assert.ok(x.error?.includes(markerFileName(item.id)) && x.error.includes(refused.get(item.id)!), x.error);
      }
    }

    // Generating: those items fail with the file named; nothing is generated; their files are untouched.
    const log = recordingLogger();
    const report = await generateMarkers(corpus, { engine: { kind: 'extractive' }, log });
    assert.equal(report.generated, 0);
    assert.equal(report.failed, refused.size);
    assert.equal(report.cached, corpus.items.length - refused.size);
    for (const it of report.items.filter((i) => i.status === 'failed')) assert.ok(it.error?.includes(markerFileName(it.itemId)), it.error);
    mock.restoreAll();
    for (const item of corpus.items) assert.equal(await readFile(path.join(markersDir(corpus.root), markerFileName(item.id)), 'utf8'), bytes.get(item.id), `${item.id} not rewritten`);
    injectOpenErrors((file) => (file.includes('.marker-research') ? byFile.get(path.basename(file)) : undefined));

    // The research session says which files it could not read (in the plan's notes and the report).
    const session = await openSession({ corpus, engine: 'extractive', promptsDir: path.join(__dirname, '..', '..', 'prompts'), log: recordingLogger() });
    assert.equal(session.markers.size, corpus.items.length - refused.size);
    assert.equal(session.notes.length, 1);
    assert.match(session.notes[0]!, new RegExp(`marker files of ${refused.size} items? could not be read`));

    // The engine shows an error entry for each; the condensed reader marks them unusable.
    const engine = new CorpusEngine(recordingLogger(), '');
    await engine.load(corpus.root);
    const entries = engine.markers();
    for (const item of corpus.items) {
      const e = entries.get(item.id);
      if (refused.has(item.id)) assert.ok(e && !e.ok && e.error.includes(markerFileName(item.id)), item.id);
      else assert.ok(e?.ok, item.id);
    }
    const claims = await loadCondensedClaims(corpus, recordingLogger());
    for (const item of corpus.items) assert.equal(claims.get(item.id)?.status, refused.has(item.id) ? 'invalid' : 'fresh', item.id);
  });
});
