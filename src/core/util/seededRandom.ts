/**
 * The project's one seeded pseudo-random generator (mulberry32): the same seed gives the same
 * sequence on every machine, so training (the spam model), benches and generated test inputs are
 * reproducible. Not for anything that must be unpredictable.
 */

/**
 * A generator of numbers in [0, 1) from a 32-bit seed.
 *
 * @example
 * const next = mulberry32(42);
 * next(); // 0.6011037519201636, every time
 */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
