/**
 * One runner per run and one sanitiser of stored ids (issue 10, class 6): the lock file
 * `runs/<id>/.lock` (pid, host, since; created with `wx`), refused while its holder lives, taken
 * over from a dead process; step ids made safe, unique (also ignoring case) and stable.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { acquireRunLock, RunLockedError } from '../../src/core/research/runLock';
import { SAFE_ID, sanitizeIds, stepFileName } from '../../src/core/research/runStore';

let work: string;
let n = 0;
const runFolder = async (): Promise<string> => {
  const dir = path.join(work, `c${++n}`, '.marker-research', 'runs', `run-${n}`);
  await mkdir(dir, { recursive: true });
  return dir;
};
/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('run lock', () => {
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-lock-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('the lock file holds pid, host and start time; a second runner is refused naming the holder; release frees it', async () => {
    const dir = await runFolder();
    const lock = await acquireRunLock(dir, 'r');
    const info = JSON.parse(await readFile(path.join(dir, '.lock'), 'utf8')) as { pid: number; host: string; since: string };
    assert.equal(info.pid, process.pid);
    assert.equal(info.host, hostname());
    assert.ok(!Number.isNaN(Date.parse(info.since)));
    await assert.rejects(acquireRunLock(dir, 'r'), (e: unknown) => {
      assert.ok(e instanceof RunLockedError);
      assert.match(e.message, new RegExp(`pid ${process.pid}`));
      assert.ok(e.message.includes(hostname()) && e.message.includes(info.since), e.message);
      return true;
    });
    await lock.release();
    await assert.rejects(stat(path.join(dir, '.lock')), { code: 'ENOENT' });
    const again = await acquireRunLock(dir, 'r');
    await again.release();
  });

  test('concurrent acquisitions: exactly one wins', async () => {
    const dir = await runFolder();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireRunLock(dir, 'r')));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof RunLockedError);
    for (const r of results) if (r.status === 'fulfilled') await r.value.release();
  });

  test('concurrent acquisitions: every refused runner names the holder (the lock file is never seen without its line)', async () => {
    // 60 rounds of 2–6 runners at once: a refusal read between the winner's create and its write named nobody.
    for (let round = 0; round < 60; round++) {
      const dir = await runFolder();
      const results = await Promise.allSettled(Array.from({ length: 2 + (round % 5) }, () => acquireRunLock(dir, 'r')));
      const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof acquireRunLock>>> => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) {
        if (r.status !== 'rejected') continue;
        assert.ok(r.reason instanceof RunLockedError);
        assert.equal(r.reason.holder?.token, won[0]!.value.info.token, `round ${round}: ${r.reason.message}`);
        assert.match(r.reason.message, new RegExp(`pid ${process.pid} on ${hostname()} since \\d{4}-`));
      }
      await won[0]!.value.release();
      assert.deepEqual((await readdir(dir)).filter((f) => f.includes('.lock')), [], 'no lock or temporary file is left');
    }
  });

  test('a lock file caught between its creation and its line: the refusal waits for the line and names the holder', async () => {
    for (const delayMs of [0, 15, 120]) {
      const dir = await runFolder();
      const file = path.join(dir, '.lock');
      await writeFile(file, '');
      const since = '2024-05-06T07:08:09.000Z';
      const line = setTimeout(() => void writeFile(file, JSON.stringify({ pid: 4242, host: 'another-host', since, run_id: 'r', token: 't' })), delayMs);
      try {
        await assert.rejects(acquireRunLock(dir, 'r'), (e: unknown) => e instanceof RunLockedError && e.holder?.host === 'another-host' && e.message.includes(`pid 4242 on another-host since ${since}`));
      } finally {
        clearTimeout(line);
      }
    }
  });

  test('a stale lock of a dead process on this host is taken over', async () => {
    const dir = await runFolder();
    const pid = deadPid();
    await writeFile(path.join(dir, '.lock'), JSON.stringify({ pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', run_id: 'r', token: 'old' }));
    const lock = await acquireRunLock(dir, 'r');
    assert.equal(lock.info.pid, process.pid);
    const info = JSON.parse(await readFile(path.join(dir, '.lock'), 'utf8')) as { pid: number };
    assert.equal(info.pid, process.pid);
    await lock.release();
  });

  test('a lock with this pid that this process does not hold (a previous process with the same pid) is taken over', async () => {
    const dir = await runFolder();
    await writeFile(path.join(dir, '.lock'), JSON.stringify({ pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', run_id: 'r', token: 'not-ours' }));
    const lock = await acquireRunLock(dir, 'r');
    await lock.release();
  });

  test('a lock of a live process, or of another host, is not taken over', async () => {
    const dir = await runFolder();
    await writeFile(path.join(dir, '.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), since: '2024-01-01T00:00:00.000Z', run_id: 'r', token: 't' }));
    await assert.rejects(acquireRunLock(dir, 'r'), new RegExp(`pid ${process.ppid} on ${hostname()} since 2024-01-01`));
    const dir2 = await runFolder();
    await writeFile(path.join(dir2, '.lock'), JSON.stringify({ pid: deadPid(), host: 'some-other-host', since: '2024-01-01T00:00:00.000Z', run_id: 'r', token: 't' }));
    await assert.rejects(acquireRunLock(dir2, 'r'), /on some-other-host since/);
  });

  test('a lock that is a symbolic link is refused, never followed', async () => {
    const dir = await runFolder();
    const { symlink } = await import('node:fs/promises');
    await symlink(path.join(work, 'elsewhere'), path.join(dir, '.lock'));
    await assert.rejects(acquireRunLock(dir, 'r'));
    await assert.rejects(stat(path.join(work, 'elsewhere')), { code: 'ENOENT' });
  });
});

describe('sanitizeIds: the one sanitiser of stored ids', () => {
  test('unsafe and duplicate ids become safe and unique; safe unique ids never change', () => {
    const raw = ['../s1', 's 1', 's 1', 's1', 'S1', '', '../../etc/passwd', 'x'.repeat(200), 'x'.repeat(200), 'a/b', 'a_b'];
    const ids = sanitizeIds(raw);
    assert.equal(ids.length, raw.length);
    for (const id of ids) assert.match(id, SAFE_ID);
    assert.equal(new Set(ids.map((i) => i.toLowerCase())).size, ids.length, `unique ignoring case: ${ids.join(' ')}`);
    assert.equal(ids[3], 's1', 'a safe id keeps its name even after an unsafe one that maps to it');
    assert.equal(ids[10], 'a_b');
    for (const id of ids) assert.equal(stepFileName(id), `${id}.json`);
  });

  test('stable: the same list gives the same ids, and sanitising again changes nothing', () => {
    const raw = ['../s1', 's 1', 's 1', 'p1-t1', 'p1-t1'];
    const a = sanitizeIds(raw);
    assert.deepEqual(sanitizeIds(raw), a);
    assert.deepEqual(sanitizeIds(a), a);
  });

  test('a file name is only ever made from a sanitised id', () => {
    assert.throws(() => stepFileName('../x'));
    assert.throws(() => stepFileName('s 1'));
  });
});
