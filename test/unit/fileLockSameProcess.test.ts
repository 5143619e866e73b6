/**
 * withFileLock (src/core/storage/fileLock.ts) between writers of one process: each read-modify-write
 * of a shared file happens under the lock alone, so every one of N concurrent appends lands. Before
 * the fix a second waiter could read the first one's fresh lock file before it was marked held, take
 * it for a stale lock of its own pid and take it over (1–2 of 24 appends lost in 1 of 3 runs).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { withFileLock } from '../../src/core/storage/fileLock';

test('concurrent read-modify-write appends under withFileLock in one process all land, one holder at a time', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mr-lock-'));
  try {
    const file = path.join(dir, 'shared.json');
    await writeFile(file, '[]');
    for (const writers of [8, 24, 48]) {
      await writeFile(file, '[]');
      let inside = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: writers }, (_, i) =>
          withFileLock(file, async () => {
            inside++;
            most = Math.max(most, inside);
            const list = JSON.parse(await readFile(file, 'utf8')) as number[];
            await new Promise((r) => setImmediate(r));
            list.push(i);
            await writeFile(file, JSON.stringify(list));
            inside--;
          }),
        ),
      );
      const list = JSON.parse(await readFile(file, 'utf8')) as number[];
      assert.equal(most, 1, `${writers} writers: one holder at a time`);
      assert.deepEqual([...list].sort((a, b) => a - b), Array.from({ length: writers }, (_, i) => i), `${writers} writers: every append landed`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
