/**
 * Overlapping re-reads apply only the last one started, in every order they can finish in (the
 * Research view showed a finished run as still running: a re-read started before the run ended
 * finished after the one started when it ended).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NewestWins } from '../../src/core/util/newestWins';

/** Every order of finishing for `n` reads. */
function orders(n: number): number[][] {
  if (n === 1) return [[0]];
  return orders(n - 1).flatMap((o) => Array.from({ length: n }, (_, i) => [...o.slice(0, i), n - 1, ...o.slice(i)]));
}

test('of reads started 1..n and finished in any order, only the last started is applied', async () => {
  for (let n = 1; n <= 4; n++) {
    for (const order of orders(n)) {
      const reads = new NewestWins();
      let shown = -1;
      const gates = Array.from({ length: n }, () => {
        let resolve!: (v: number) => void;
        const promise = new Promise<number>((r) => (resolve = r));
        return { promise, resolve };
      });
      const running = gates.map(async (g) => {
        const newest = reads.begin();
        const value = await g.promise;
        if (newest()) shown = value;
      });
      for (const k of order) {
        gates[k]!.resolve(k);
        await new Promise((r) => setImmediate(r));
      }
      await Promise.all(running);
      assert.equal(shown, n - 1, `order ${order.join(',')}`);
    }
  }
});

test('a read started after the others finished is applied too', async () => {
  const reads = new NewestWins();
  const first = reads.begin();
  assert.equal(first(), true);
  const second = reads.begin();
  assert.equal(first(), false);
  assert.equal(second(), true);
});
