/** Binary search over anything indexable in order. */

/**
 * The first index in `[0, length)` at which `reached(i)` holds, or `length` when it never does.
 * `reached` must be monotone: false up to some index, true from it on.
 *
 * @example
 * firstIndex(starts.length, (i) => starts[i]! > offset) - 1 // the last start at or before offset
 */
export function firstIndex(length: number, reached: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reached(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
