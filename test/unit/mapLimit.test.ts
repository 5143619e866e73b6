/**
 * `mapLimit` (src/core/util/abort.ts): at most `limit` calls at once, results in order, and when a
 * call throws, no new call starts and the calls already started are awaited before the error is
 * thrown — none is left running behind the caller (the class of bug that left a failed item's
 * model calls running after a marker run returned).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CancelledError, mapLimit } from '../../src/core/util/abort';
import { mulberry32 } from '../../src/core/util/seededRandom';

/** A promise settled after `turns` trips through the event loop (no clock). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}

describe('mapLimit', () => {
  test('results in order, never more than `limit` calls at once', async () => {
    const rnd = mulberry32(41);
    for (let c = 0; c < 40; c++) {
      const n = Math.floor(rnd() * 30);
      const limit = 1 + Math.floor(rnd() * 6);
      let active = 0;
      let most = 0;
      const out = await mapLimit(Array.from({ length: n }, (_, i) => i), limit, async (x) => {
        most = Math.max(most, ++active);
        await turns(1 + Math.floor(rnd() * 4));
        active--;
        return x * 2;
      });
      assert.deepEqual(out, Array.from({ length: n }, (_, i) => i * 2));
      assert.ok(most <= limit, `${most} at once with limit ${limit}`);
    }
  });

  test('a call that throws: the error is thrown after every started call ended, and no call starts after it', async () => {
    const rnd = mulberry32(97);
    for (let c = 0; c < 60; c++) {
      const n = 2 + Math.floor(rnd() * 30);
      const limit = 1 + Math.floor(rnd() * 6);
      const failAt = Math.floor(rnd() * n);
      let started = 0;
      let ended = 0;
      let startedAfterFailure = 0;
      let failed = false;
      const err = new Error(`boom ${c}`);
      await assert.rejects(
        mapLimit(Array.from({ length: n }, (_, i) => i), limit, async (x) => {
          started++;
          if (failed) startedAfterFailure++;
          try {
            await turns(1 + Math.floor(rnd() * 6));
            if (x === failAt) {
              failed = true;
              throw err;
            }
            return x;
          } finally {
            ended++;
          }
        }),
        (e) => e === err,
      );
      assert.equal(ended, started, `case ${c}: every started call had ended when mapLimit threw (${started} started)`);
      assert.equal(startedAfterFailure, 0, `case ${c}: no call started after the failure`);
    }
  });

  test('an aborted signal: no new call starts; the error is a CancelledError', async () => {
    const controller = new AbortController();
    let started = 0;
    await assert.rejects(
      mapLimit(Array.from({ length: 20 }, (_, i) => i), 3, async (x) => {
        started++;
        if (x === 4) controller.abort();
        await turns(2);
        return x;
      }, controller.signal),
      (e) => e instanceof CancelledError,
    );
    assert.ok(started <= 7, `${started} calls started (the abort came at the 5th)`);
  });
});
