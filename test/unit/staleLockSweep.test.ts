/**
 * Locks left by killed processes are swept (src/core/storage/fileLock.ts, issue 25): real child
 * processes take the locks of files in a folder (withFileLock, held) and are killed with SIGKILL.
 * Their lock files stay until a sweep: {@link sweepStaleLocks} of the folder, the first lock of a
 * dead process that a writer finds there (its whole folder is swept), and the start of a marker
 * run (the markers folder). A lock held by a live child, and one of another host, are never
 * removed.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openCorpus } from '../../src/core/corpus/openCorpus';
import { PartStore } from '../../src/core/corpus/partStore';
import { generateMarkers } from '../../src/core/markers/generate';
import { markersDir } from '../../src/core/markers/store';
import { sweepStaleLocks, withFileLock } from '../../src/core/storage/fileLock';
import { writeGeneratedCorpus } from '../support/markerCorpus';
import { rng } from '../support/testing';

const FILE_LOCK = path.join(__dirname, '..', '..', 'src', 'core', 'storage', 'fileLock.ts');

/** A child that takes the locks of `files` (withFileLock, never released) and says so; it is then left running. */
async function lockingChild(files: readonly string[]): Promise<ChildProcess> {
  const script = `
    const { withFileLock } = require(${JSON.stringify(FILE_LOCK)});
    const files = ${JSON.stringify(files)};
    let taken = 0;
    for (const f of files) void withFileLock(f, () => { if (++taken === files.length) process.stdout.write('locked\\n'); return new Promise(() => {}); });
    setInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked\n')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`locking child ended (${code ?? signal}) before taking its locks: ${err}`)));
  });
  return child;
}

/** Kills the child with SIGKILL and waits until it is gone (reaped: its pid no longer exists). */
async function kill(child: ChildProcess): Promise<void> {
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await gone;
}

/** A child killed with SIGKILL while holding the locks of `files`. */
async function killedWithLocks(files: readonly string[]): Promise<number> {
  const child = await lockingChild(files);
  const pid = child.pid!;
  await kill(child);
  return pid;
}

const locks = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.lock') || n.includes('.lock.')).sort();

describe('locks of killed processes are swept', () => {
  let root: string;
  const live: ChildProcess[] = [];
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-locksweep-'));
  });
  after(async () => {
    for (const c of live) if (c.exitCode === null && c.signalCode === null) await kill(c);
    await rm(root, { recursive: true, force: true });
  });

  test('sweepStaleLocks removes a killed process’s locks; a live process’s and another host’s stay', async () => {
    const r = rng(Date.now() % 10_000);
    const dir = path.join(root, 'plain');
    await mkdir(dir, { recursive: true });
    const files = Array.from({ length: 3 + Math.floor(r() * 5) }, (_, i) => path.join(dir, `f${i}.json`));
    const deadPid = await killedWithLocks(files);
    assert.equal((await locks(dir)).length, files.length, 'the killed child left every lock');
    // A live holder, and a lock of another host (its pid means nothing here, even a dead one).
    const holder = await lockingChild([path.join(dir, 'live.json')]);
    live.push(holder);
    await writeFile(path.join(dir, 'remote.json.lock'), `${JSON.stringify({ pid: deadPid, host: `${hostname()}-elsewhere`, since: new Date().toISOString(), token: 'x' })}\n`);
    // Not a lock of ours: names that only end like one.
    await writeFile(path.join(dir, 'yarn.lock'), '# not json\n');
    await mkdir(path.join(dir, 'folder.lock'));

    const removed = await sweepStaleLocks(dir);
    assert.deepEqual(removed.sort(), files.map((f) => `${path.basename(f)}.lock`).sort());
    assert.deepEqual(await locks(dir), ['folder.lock', 'live.json.lock', 'remote.json.lock', 'yarn.lock']);
    const liveLock = JSON.parse(await readFile(path.join(dir, 'live.json.lock'), 'utf8')) as { pid: number };
    assert.equal(liveLock.pid, holder.pid);
    assert.deepEqual(await sweepStaleLocks(dir), [], 'nothing more to remove');
  });

  test('the first dead lock a writer finds has its whole folder swept', async () => {
    const dir = path.join(root, 'found');
    await mkdir(dir, { recursive: true });
    const files = Array.from({ length: 6 }, (_, i) => path.join(dir, `g${i}.json`));
    await killedWithLocks(files);
    const holder = await lockingChild([path.join(dir, 'busy.json')]);
    live.push(holder);
    assert.equal((await locks(dir)).length, files.length + 1);
    // A writer of one file: it takes over that dead lock, and the killed process's other locks go with it.
    await withFileLock(files[2]!, () => writeFile(files[2]!, 'x'));
    assert.deepEqual(await locks(dir), ['busy.json.lock']);
  });

  test('a marker run starts by sweeping the markers folder', async () => {
    const dir = path.join(root, 'corpus');
    await writeGeneratedCorpus(dir, { items: 8, seed: 5, shape: 'any' });
    const run = async (): Promise<number> => (await generateMarkers(await openCorpus(dir, { parts: new PartStore(1_000) }), { engine: { kind: 'extractive' } })).cached;
    assert.equal(await run(), 0);
    const folder = markersDir(dir);
    // A killed run held the locks of marker files; the next run writes none of them (all cached). (Not the index's: the
    // run writes the index, and a writer that finds a dead lock sweeps its folder anyway.)
    const markerFiles = (await readdir(folder)).filter((n) => n.endsWith('.json') && n !== 'index.json');
    await killedWithLocks(markerFiles.map((n) => path.join(folder, n)));
    const holder = await lockingChild([path.join(folder, 'other-writer.json')]);
    live.push(holder);
    assert.equal((await locks(folder)).length, markerFiles.length + 1);
    assert.equal(await run(), 8, 'every item cached');
    assert.deepEqual(await locks(folder), ['other-writer.json.lock'], 'the killed run’s locks are gone, the live writer’s stays');
  });
});
