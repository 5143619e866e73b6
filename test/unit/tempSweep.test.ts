/**
 * Temporary files of killed saves are swept (issue 19, class 7): child processes are killed
 * (SIGKILL) in the middle of atomic writes of generated files; the next process's first write
 * into that folder removes every temporary file they left, and leaves alone the one a live
 * writer is still writing.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeFileAtomic } from '../../src/core/storage/atomic';
import { rng } from '../support/testing';

const ATOMIC = path.join(__dirname, '..', '..', 'src', 'core', 'storage', 'atomic.ts');

/** A child that starts an atomic write of `file` and kills itself after `chunks` pieces of it. */
function killedSave(file: string, chunks: number): void {
  const script = `
    const { writeFileAtomic } = require(${JSON.stringify(ATOMIC)});
    function* parts() { for (let i = 0; ; i++) { if (i === ${chunks}) process.kill(process.pid, 'SIGKILL'); yield Buffer.alloc(4096, 97 + (i % 26)); } }
    writeFileAtomic(${JSON.stringify(file)}, parts());`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.signal, 'SIGKILL', r.stderr);
}

const temps = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.tmp'));

describe('temporary files of killed saves', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'mr-sweep-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('the next write into the folder removes what killed saves left; a live writer’s file stays', async () => {
    const r = rng(Date.now() % 10_000);
    const dir = path.join(root, '.marker-research', 'index');
    await mkdir(dir, { recursive: true });
    const names = ['chunks.txt', 'postings.bin', 'manifest.json', 'outline.json'];
    const kills = 3 + Math.floor(r() * 3);
    for (let k = 0; k < kills; k++) killedSave(path.join(dir, names[k % names.length]!), 1 + Math.floor(r() * 40));
    assert.equal((await temps(dir)).length, kills, 'each killed save left its temporary file');

    // A writer that is alive (a sleeping child) has its own temporary file here.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const liveTemp = `chunks.txt.${live.pid}.${Date.now()}.0.tmp`;
      await writeFile(path.join(dir, liveTemp), 'half');
      // Something that only looks like a temporary file but is a folder is never removed.
      await mkdir(path.join(dir, `x.999999.2.3.tmp`));
      await writeFileAtomic(path.join(dir, 'manifest.json'), '{}');
      assert.deepEqual((await temps(dir)).sort(), [liveTemp, 'x.999999.2.3.tmp'].sort());
    } finally {
      live.kill('SIGKILL');
    }
  });
});
