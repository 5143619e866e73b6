/**
 * Near-linear checks that hold on a busy machine: no wall-clock limit, but the ratio of the CPU
 * time this process spends on an input of size `factor·n` to that on size `n`, both measured in
 * the same test, interleaved, best of a few tries each. Other processes on the machine slow both
 * sizes alike and take no CPU time of ours; a quadratic algorithm gives about `factor²`, a linear
 * one about `factor`.
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection before each measured run, so that neither size is charged for the
 * other's garbage or for a major collection the other one made due (the test's own large inputs
 * and results live on the same heap).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** CPU time (user + system, ms) this process spent in `fn`. */
export async function cpuMs(fn: () => unknown): Promise<number> {
  const t0 = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

export interface ScalingCheck {
  /** What is measured (for the message). */
  name: string;
  /** Runs the work on the input `prepare` built. */
  run: (input: never) => unknown;
  /** Builds the input of size `n` (awaited) outside the measured time. */
  prepare: (n: number) => unknown;
  /** The small size. */
  n: number;
  /** The large size is `factor·n` (default 4). */
  factor?: number;
  /** The largest accepted ratio (default: halfway between linear and quadratic on a log scale, `factor^1.5`, ×1.25). */
  maxRatio?: number;
  /** Tries per size (at least 3); the least CPU time of each size counts. */
  tries?: number;
}

/**
 * Asserts that `run` scales near-linearly between `n` and `factor·n`.
 * @returns the two CPU times and their ratio (for a benchmark's or a message's use)
 */
export async function assertNearLinear(check: ScalingCheck): Promise<{ smallMs: number; largeMs: number; ratio: number }> {
  const factor = check.factor ?? 4;
  const maxRatio = check.maxRatio ?? Math.pow(factor, 1.5) * 1.25;
  const tries = Math.max(3, check.tries ?? 3);
  const small: unknown = await check.prepare(check.n);
  const large: unknown = await check.prepare(check.n * factor);
  const run = check.run as (input: unknown) => unknown;
  await run(small); // warm-up: compiled code, caches
  let smallMs = Infinity;
  let largeMs = Infinity;
  for (let i = 0; i < tries; i++) {
    collectGarbage();
    smallMs = Math.min(smallMs, await cpuMs(() => run(small)));
    collectGarbage();
    largeMs = Math.min(largeMs, await cpuMs(() => run(large)));
  }
  // Below a few milliseconds the clock's grain dominates: count such a small size as 2 ms.
  const ratio = largeMs / Math.max(2, smallMs);
  assert.ok(ratio <= maxRatio, `${check.name}: ${factor}× the input took ${ratio.toFixed(1)}× the CPU time (${smallMs.toFixed(0)} → ${largeMs.toFixed(0)} ms); near-linear allows ≤ ${maxRatio.toFixed(1)}×`);
  return { smallMs, largeMs, ratio };
}
