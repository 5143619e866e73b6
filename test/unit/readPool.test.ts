/**
 * The shared read pool (issue 19, class 2): bounded concurrency, nesting without deadlock, a lack
 * of handles retried a bounded number of times, every other error passed on at once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FileReadError, isNotFound, pooledRead, READ_CONCURRENCY, readErrorText, readPoolStats, resetReadPoolPeak } from '../../src/core/storage/readPool';
import { rng } from '../support/testing';

const FAST = { attempts: 6, baseDelayMs: 1, maxDelayMs: 2 };
const fsError = (code: string, file: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed, open '${file}'`), { code, path: file });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('read pool', () => {
  test('at most READ_CONCURRENCY reads at once, however many are asked for', async () => {
    const r = rng(31);
    for (const n of [READ_CONCURRENCY + 1, 5 * READ_CONCURRENCY, 20 * READ_CONCURRENCY + Math.floor(r() * 100)]) {
      resetReadPoolPeak();
      let active = 0;
      let most = 0;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          pooledRead(`f${i}`, async () => {
            most = Math.max(most, ++active);
            for (let t = Math.floor(r() * 3); t >= 0; t--) await tick();
            active--;
            return i;
          }),
        ),
      );
      assert.deepEqual(results, Array.from({ length: n }, (_, i) => i));
      assert.equal(most, READ_CONCURRENCY, `${n} reads`);
      assert.equal(readPoolStats().peak, READ_CONCURRENCY);
      assert.equal(readPoolStats().active, 0);
    }
  });

  test('a pooled read inside a pooled read runs in the outer slot (no deadlock when the pool is full)', async () => {
    let active = 0;
    let most = 0;
    const n = 4 * READ_CONCURRENCY;
    const out = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        pooledRead(`outer${i}`, async () => {
          most = Math.max(most, ++active);
          await tick();
          const inner = await pooledRead(`inner${i}`, async () => (await tick(), i * 2));
          active--;
          return inner;
        }),
      ),
    );
    assert.equal(out.reduce((a, b) => a + b, 0), n * (n - 1));
    assert.ok(most <= READ_CONCURRENCY);
  });

  test('out of handles (EMFILE, ENFILE, EAGAIN): tried again until it reads', async () => {
    const r = rng(77);
    for (let c = 0; c < 30; c++) {
      const code = ['EMFILE', 'ENFILE', 'EAGAIN'][c % 3]!;
      const failures = Math.floor(r() * (FAST.attempts - 1));
      let calls = 0;
      const value = await pooledRead(`file-${c}`, async () => {
        if (calls++ < failures) throw fsError(code, `file-${c}`);
        return `content-${c}`;
      }, { retry: FAST });
      assert.equal(value, `content-${c}`);
      assert.equal(calls, failures + 1);
    }
  });

  test('still out of handles after every try: a FileReadError that names the file', async () => {
    for (const code of ['EMFILE', 'ENFILE', 'EAGAIN']) {
      let calls = 0;
      const file = `/corpus/.marker-research/markers/${code}.json`;
      const e = await pooledRead(file, async () => {
        calls++;
        throw fsError(code, file);
      }, { retry: FAST }).then(() => assert.fail('read'), (x: unknown) => x);
      assert.ok(e instanceof FileReadError);
      assert.equal(e.code, code);
      assert.equal(e.file, file);
      assert.equal(e.attempts, FAST.attempts);
      assert.equal(calls, FAST.attempts);
      assert.ok(readErrorText(file, e).includes(file));
      assert.equal(isNotFound(e), false, 'never "not found"');
    }
  });

  test('any other error is passed on at once, unchanged; only ENOENT is "not found"', async () => {
    for (const code of ['ENOENT', 'EACCES', 'EIO', 'EISDIR', 'EPERM']) {
      let calls = 0;
      const e = await pooledRead(`x.${code}`, async () => {
        calls++;
        throw fsError(code, `x.${code}`);
      }, { retry: FAST }).then(() => assert.fail('read'), (x: unknown) => x);
      assert.equal(calls, 1, code);
      assert.equal((e as NodeJS.ErrnoException).code, code);
      assert.equal(isNotFound(e), code === 'ENOENT');
    }
  });
});
