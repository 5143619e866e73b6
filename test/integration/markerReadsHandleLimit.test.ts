/**
 * Issue 19, class 2: cached markers must never count as missing when the process runs short of
 * file handles. A generated corpus of 600 items gets its extractive markers in a child process
 * limited to 256 open files (`ulimit -n 256`); a second run must generate nothing, and the
 * research session, the language server's engine and the condensed-claims reader must read every
 * file — more files than handles, so the reads have to be bounded (and a lack of handles retried),
 * never taken for "no file".
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { condensedFile, condensedItemSchema } from '../../src/core/markers/condense';
import { writeFileAtomic } from '../../src/core/storage/atomic';
import { writeGeneratedCorpus } from '../support/markerCorpus';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const CHILD = path.join(ROOT, 'test', 'support', 'markerReadsChild.ts');
const HANDLES = 256;
const ITEMS = 600;

/** Runs the child script under `ulimit -n HANDLES`; its JSON line. */
async function limited(mode: string, dir: string): Promise<Record<string, number>> {
  const script = `ulimit -n ${HANDLES} && exec "${process.execPath}" --import tsx "${CHILD}" ${mode} "${dir}"`;
  const { stdout } = await run('bash', ['-c', script], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
}

describe(`marker files read under a limit of ${HANDLES} open files`, () => {
  let work: string;
  let dir: string;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-handles-'));
    dir = path.join(work, 'corpus');
    await writeGeneratedCorpus(dir, { items: ITEMS, seed: 1901, shape: 'any', turns: [2, 6], comments: [1, 6] });
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('the limit is in force in the child', async () => {
    const { stdout } = await run('bash', ['-c', `ulimit -n ${HANDLES} && ulimit -n`]);
    assert.equal(stdout.trim(), String(HANDLES));
  });

  // The tests run in order: the first writes the markers the others read.
  test('markers for every item, then a second run generates 0 items', async () => {
    const first = await limited('markers', dir);
    assert.deepEqual(first, { items: ITEMS, generated: ITEMS, cached: 0, failed: 0 });
    const second = await limited('markers', dir);
    assert.deepEqual(second, { items: ITEMS, generated: 0, cached: ITEMS, failed: 0 }, 'an unchanged corpus: every item cached, none generated again');
  });

  test('the research session reads every marker file', async () => {
    assert.deepEqual(await limited('session', dir), { items: ITEMS, read: ITEMS, unreadable: 0 });
  });

  test("the language server's engine reads every marker file", async () => {
    assert.deepEqual(await limited('engine', dir), { items: ITEMS, read: ITEMS, unreadable: 0 });
  });

  test('a research run reads every condensation', async () => {
    // A condensation per item (what `condense` writes).
    const corpus = await loadCorpus(dir);
    for (const item of corpus.items) {
      const condensed = condensedItemSchema.parse({
        item_id: item.id, title: item.title, content_hash: item.contentHash, model: 'fake', prompt_version: 'v', cache_key: 'k', generated_at: new Date(0).toISOString(),
        claims: [], categories: [], coverage: { transcript: null, comments: null }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
      });
      await writeFileAtomic(condensedFile(dir, item.id), `${JSON.stringify(condensed)}\n`);
    }
    assert.deepEqual(await limited('condensed', dir), { items: ITEMS, read: ITEMS, unreadable: 0 });
  });
});
