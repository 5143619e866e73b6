/**
 * The near-linear check that replaced wall-clock limits in tests (issue 19, class 8) tells linear
 * work from quadratic work: it passes a linear scan and fails a pairwise loop, on whatever load
 * the machine has (CPU time of this process, ratio of two sizes measured together).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertNearLinear } from '../support/scaling';

/** Work that touches each element a fixed number of times. */
function linear(a: Float64Array): number {
  let s = 0;
  for (let k = 0; k < 40; k++) for (let i = 0; i < a.length; i++) s += a[i]! * k;
  return s;
}

/** Work that compares every pair. */
function quadratic(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) s += a[i]! * a[j]!;
  return s;
}

const data = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => (i % 97) / 97);

describe('assertNearLinear', () => {
  test('passes linear work', async () => {
    const r = await assertNearLinear({ name: 'linear', n: 200_000, prepare: data, run: linear });
    assert.ok(r.largeMs > 0);
  });
  // Large enough that the small size's CPU time (~20 ms) stands above a busy machine's noise (at 3,000 it was ~5 ms and once passed for linear).
  test('fails quadratic work', async () => {
    await assert.rejects(assertNearLinear({ name: 'quadratic', n: 6_000, prepare: data, run: quadratic }), (e: Error) => e instanceof assert.AssertionError && /quadratic: 4× the input took/.test(e.message));
  });
});
