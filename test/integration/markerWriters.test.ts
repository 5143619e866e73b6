/**
 * Issue 19, class 7 (part): two writers of one item's markers — the offline engine and a model
 * engine, or two processes — never silently overwrite each other. A marker file is replaced only
 * when it is still what its writer read before generating (compare-and-swap under the file's
 * lock); otherwise the file is kept and the writer is told (the item fails with a conflict that
 * names the file and the other writer), unless the other writer's result is the same (same cache key).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { createMarkerEngine } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import type { EngineName } from '../../src/core/markers/schema';
import { markerFileName, markersDir, MarkerWriteConflictError, readItemMarkers, readItemMarkersVersioned, readMarkersIndex, writeItemMarkers } from '../../src/core/markers/store';
import { MISSING_VERSION } from '../../src/core/storage/readStateJson';
import { defaultResponder, startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { writeGeneratedCorpus } from '../support/markerCorpus';
import { markersRecord } from '../support/markerRecord';
import { rng } from '../support/testing';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');
const ENGINES: EngineName[] = ['extractive', 'openai', 'ollama'];

describe('two writers of one item', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-writers-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('writers that all found no file: exactly one write per item goes through, the others are told', async () => {
    const root = path.join(work, 'race');
    await mkdir(root);
    const r = rng(719);
    for (let item = 0; item < 30; item++) {
      const id = `item-${item}`;
      const writers = 2 + Math.floor(r() * 5);
      const outcomes = await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const engine = ENGINES[Math.floor(r() * ENGINES.length)]!;
          try {
            await writeItemMarkers(root, markersRecord(id, engine, `${engine}-${w}`), { expected: MISSING_VERSION });
            return { w, ok: true as const };
          } catch (e) {
            assert.ok(e instanceof MarkerWriteConflictError, String(e));
            assert.ok(e.message.includes(markerFileName(id)), 'the conflict names the file');
            return { w, ok: false as const };
          }
        }),
      );
      const winners = outcomes.filter((o) => o.ok);
      assert.equal(winners.length, 1, `${id}: ${writers} writers`);
      const stored = await readItemMarkers(root, id);
      assert.ok(stored.ok);
      assert.ok(stored.value.cache_key.endsWith(`-${winners[0]!.w}`), `${id}: the file is the winner's`);
    }
    const left = (await readdir(markersDir(root))).filter((n) => n.includes('.lock'));
    assert.deepEqual(left, [], 'no lock file is left behind');
  });

  test('a writer that read the other writer’s file replaces it; one that read an older version does not', async () => {
    const root = path.join(work, 'sequence');
    await mkdir(root);
    const r = rng(2207);
    for (let item = 0; item < 20; item++) {
      const id = `item-${item}`;
      const [a, b] = [ENGINES[Math.floor(r() * 3)]!, ENGINES[Math.floor(r() * 3)]!];
      const seen = await readItemMarkersVersioned(root, id);
      assert.equal(seen.version, MISSING_VERSION);
      await writeItemMarkers(root, markersRecord(id, a, `${a}-first`), { expected: seen.version });
      const now = await readItemMarkersVersioned(root, id);
      // Same result (same cache key) written by a writer that did not see it: kept, no conflict.
      await writeItemMarkers(root, markersRecord(id, a, `${a}-first`), { expected: MISSING_VERSION });
      // A writer that read the first file may replace it…
      await writeItemMarkers(root, markersRecord(id, b, `${b}-second`), { expected: now.version! });
      // …and one that still holds the first version (or none) is refused.
      await assert.rejects(writeItemMarkers(root, markersRecord(id, a, `${a}-third`), { expected: now.version! }), MarkerWriteConflictError);
      await assert.rejects(writeItemMarkers(root, markersRecord(id, a, `${a}-third`), { expected: MISSING_VERSION }), MarkerWriteConflictError);
      const stored = await readItemMarkers(root, id);
      assert.ok(stored.ok && stored.value.cache_key === `key-${b}-second`, id);
    }
  });

  test('two processes writing the same items: each item is written by one of them, the other is told', async () => {
    const root = path.join(work, 'processes');
    await mkdir(root);
    const n = 40;
    const child = path.join(ROOT, 'test', 'support', 'markerWriterChild.ts');
    const start = (engine: string) => run(process.execPath, ['--import', 'tsx', child, root, engine, String(n)], { cwd: ROOT });
    const [x, y] = await Promise.all([start('extractive'), start('openai')]);
    const a = JSON.parse(x.stdout) as { written: string[]; conflicts: string[] };
    const b = JSON.parse(y.stdout) as { written: string[]; conflicts: string[] };
    for (let i = 0; i < n; i++) {
      const id = `item-${i}`;
      const wroteA = a.written.includes(id);
      const wroteB = b.written.includes(id);
      assert.ok(wroteA !== wroteB, `${id}: written by exactly one process`);
      assert.ok(wroteA ? b.conflicts.includes(id) : a.conflicts.includes(id), `${id}: the other process was told`);
      const stored = await readItemMarkers(root, id);
      assert.ok(stored.ok);
      assert.equal(stored.value.engine, wroteA ? 'extractive' : 'openai');
    }
  });

  describe('generateMarkers: the offline engine and a model engine at once', () => {
    let server: FakeModelServer;
    before(async () => {
      server = await startFakeModelServer();
    });
    after(async () => {
      await server.close();
    });

    test('the model run that read no markers does not overwrite the offline run’s; each item reports the conflict', async () => {
      const dir = path.join(work, 'engines');
      const items = await writeGeneratedCorpus(dir, { items: 12, seed: 4242, shape: 'any', turns: [3, 6], comments: [2, 6] });
      const corpus = await loadCorpus(dir);
      // The model's replies wait until the offline run has finished: both runs read "no markers" first.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let firstCall!: () => void;
      const called = new Promise<void>((resolve) => (firstCall = resolve));
      server.setResponder(async (req) => {
        firstCall();
        await gate;
        return defaultResponder(req);
      });
      const { engine } = createMarkerEngine({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 60_000 }, { promptsDir: PROMPTS, apiKey: 'sk-test' });
      const modelRun = generateMarkers(corpus, { engine });
      await called;
      const offline = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      assert.equal(offline.generated, items.length);
      const offlineFiles = new Map(await Promise.all(corpus.items.map(async (it) => [it.id, await readItemMarkers(dir, it.id)] as const)));
      release();
      const model = await modelRun;

      assert.equal(model.generated, 0, 'no model write went through over the offline markers');
      assert.equal(model.failed, items.length);
      for (const r of model.items) {
        assert.equal(r.status, 'failed');
        assert.match(r.error ?? '', /written by another writer \(extractive/);
        assert.ok(r.error!.includes(markerFileName(r.itemId)), 'the conflict names the file');
      }
      for (const it of corpus.items) assert.deepEqual(await readItemMarkers(dir, it.id), offlineFiles.get(it.id), `${it.id}: the offline markers are kept`);
      const index = await readMarkersIndex(dir);
      for (const it of corpus.items) assert.equal(index.items[it.id]?.engine, 'extractive');

      // Run again now that it has read them: the model engine replaces them (a replace is not a conflict).
      server.setResponder(undefined);
      const again = await generateMarkers(await loadCorpus(dir), { engine });
      assert.equal(again.generated, items.length);
      for (const it of corpus.items) assert.equal((await readItemMarkers(dir, it.id)).ok && ((await readItemMarkers(dir, it.id)) as { value: { engine: string } }).value.engine, 'openai');
    });
  });
});
