/**
 * Issue 19, class 2 (second case): an unchanged item is never generated again. On fresh copies
 * (new paths, new modification times) of generated comments-only, transcript-only and mixed
 * corpora — comment ids repeated and missing as real exports have them, spam templates repeated
 * across items — `markers` followed by `research` generates nothing the second time, and a copy
 * of a corpus together with its markers reuses every one of them: a cache key depends on the
 * content and the engine / prompt versions only. With a model (the fake server), the second run
 * makes no marker calls.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { spamFreeComments } from '../../src/core/markers/spamFree';
import { STORAGE_DIR } from '../../src/core/storage/storageDir';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';
import { writeGeneratedCorpus, type CorpusShape } from '../support/markerCorpus';
import { runCli } from '../support/testing';

/** Copies `from` to `to` (the state folder too when `withState`), then gives every file a new modification time. */
async function freshCopy(from: string, to: string, withState: boolean, stamp: number): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true, filter: (p) => withState || !p.split(path.sep).includes(STORAGE_DIR) });
  const touch = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await touch(p);
      else await utimes(p, stamp, stamp);
    }
  };
  await touch(to);
}

/** Every marker file of the corpus at `dir`, by name: its bytes. */
async function markerFiles(dir: string): Promise<Map<string, string>> {
  const folder = path.join(dir, STORAGE_DIR, 'markers');
  const names = (await readdir(folder)).filter((n) => n.endsWith('.json') && n !== 'index.json').sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(path.join(folder, n), 'utf8')] as const)));
}

const generatedBy = (err: string): number => Number(/markers: (\d+) generated/.exec(err)?.[1] ?? 0);

describe('a cache key depends on content and versions only', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-cachekey-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const shapes: CorpusShape[] = ['comments', 'transcript', 'mixed', 'any'];
  for (const [i, shape] of shapes.entries()) {
    for (const seed of [11 + i * 7, 12 + i * 7]) {
      test(`${shape} corpus (seed ${seed}): markers then research on a fresh copy generate each item once`, async () => {
        const source = path.join(work, `${shape}-${seed}`, 'source');
        const written = await writeGeneratedCorpus(source, { items: 3 + (seed % 4), seed, shape });
        const copy = path.join(work, `${shape}-${seed}`, 'copy');
        await freshCopy(source, copy, false, 1_700_000_000 + seed);

        const first = await runCli(['markers', copy, '--json']);
        assert.equal(first.code, 0, first.err);
        assert.equal((JSON.parse(first.out) as { generated: number }).generated, written.length);
        const before = await markerFiles(copy);
        assert.equal(before.size, written.length);

        const research = await runCli(['research', copy]);
        assert.equal(generatedBy(research.err), 0, `research generated markers again: ${research.err}`);
        assert.deepEqual(await markerFiles(copy), before, 'research left every marker file as it was');

        const again = await runCli(['markers', copy, '--json']);
        assert.deepEqual(JSON.parse(again.out).generated, 0);

        // The corpus and its markers copied elsewhere, every file with a new time: all reused.
        const moved = path.join(work, `${shape}-${seed}`, 'moved');
        await freshCopy(copy, moved, true, 1_800_000_000 + seed);
        const there = await runCli(['markers', moved, '--json']);
        assert.equal((JSON.parse(there.out) as { generated: number; cached: number }).generated, 0);
        assert.deepEqual(await markerFiles(moved), before);
      });
    }
  }

  describe('with a model (fake server)', () => {
    let server: FakeModelServer;
    before(async () => {
      server = await startFakeModelServer();
    });
    after(async () => {
      await server.close();
    });
    const markerCalls = (reqs: readonly RecordedRequest[]): number =>
      reqs.filter((r) => /^markers_/.test(String((r.body as { response_format?: { json_schema?: { name?: string } } } | undefined)?.response_format?.json_schema?.name ?? ''))).length;

    for (const shape of ['comments', 'transcript', 'mixed'] as const) {
      test(`${shape} corpus: no marker calls for unchanged items in a later markers or research run, on a copy`, async () => {
        const seed = 90 + shape.length;
        const source = path.join(work, `model-${shape}`, 'source');
        const written = await writeGeneratedCorpus(source, { items: 3, seed, shape, turns: [3, 6], comments: [2, 6] });
        const copy = path.join(work, `model-${shape}`, 'copy');
        await freshCopy(source, copy, false, 1_700_000_000 + seed);
        const model = ['--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model'];

        server.reset();
        const first = await runCli(['markers', copy, ...model, '--json']);
        assert.equal((JSON.parse(first.out) as { generated: number }).generated, written.length, first.err);
        // Every item with something a model may read (spam is never sent: an item whose comments are all spam has nothing) is asked.
        const loaded = await loadCorpus(copy);
        const readable = loaded.items.filter((i) => (i.transcript?.wordCount ?? 0) > 0 || (spamFreeComments(i, loaded)?.wordCount ?? 0) > 0).length;
        assert.ok(markerCalls(server.chatRequests()) >= readable, 'the first run asked the model');
        const before = await markerFiles(copy);

        server.reset();
        await runCli(['research', copy, ...model]);
        assert.equal(markerCalls(server.chatRequests()), 0, 'research asked the model for markers it had');
        assert.deepEqual(await markerFiles(copy), before);

        const moved = path.join(work, `model-${shape}`, 'moved');
        await freshCopy(copy, moved, true, 1_800_000_000 + seed);
        server.reset();
        const there = await runCli(['markers', moved, ...model, '--json']);
        assert.equal((JSON.parse(there.out) as { generated: number }).generated, 0);
        assert.equal(markerCalls(server.chatRequests()), 0);
      });
    }
  });
});
