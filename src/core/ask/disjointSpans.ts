/**
 * Spans of one part that never overlap one another, sorted by start, each with its value and the
 * order it was added in: which of them a span overlaps or touches is found by binary search, not by
 * reading them all (the retriever fuses and spreads hundreds of candidates of one part).
 */
export class DisjointSpans<T> {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly values: T[] = [];
  private readonly order: number[] = [];

  /** Position of the first span ending after `at`. */
  private firstEndingAfter(at: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! > at) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Adds `[start, end)`, which overlaps none of the spans held. */
  add(start: number, end: number, value: T): void {
    const i = this.firstEndingAfter(start);
    this.starts.splice(i, 0, start);
    this.ends.splice(i, 0, end);
    this.values.splice(i, 0, value);
    this.order.splice(i, 0, this.order.length);
  }

  /** The value of the earliest added span that overlaps `[start, end)`, if any. */
  firstOverlapping(start: number, end: number): T | undefined {
    let best = -1;
    for (let i = this.firstEndingAfter(start); i < this.starts.length && this.starts[i]! < end; i++) if (best < 0 || this.order[i]! < this.order[best]!) best = i;
    return best < 0 ? undefined : this.values[best];
  }

  /** Whether a span held overlaps `[start, end)`, touches it or is one character away from it (offsets are integers). */
  touches(start: number, end: number): boolean {
    const i = this.firstEndingAfter(start - 2);
    return i < this.starts.length && this.starts[i]! <= end + 1;
  }
}
