/**
 * A bounded memo keyed by a span of a string (`text[start, end)`), looked up
 * without the span being cut out: the tokeniser meets each word of a corpus
 * thousands of times and finds its token here from the characters it already
 * scanned (a hash of them, then a character-by-character comparison), so a
 * known word costs no new string and no string hashing. An open-addressing
 * table of `2 × limit` slots or more; full at `limit` entries, when it starts
 * over empty.
 */

/** The hash {@link SpanMemo} expects: fold each UTF-16 code unit `c` into `h` (start at 0). */
export const foldHash = (h: number, c: number): number => (Math.imul(h, 0x01000193) ^ c) | 0;

export class SpanMemo<V> {
  private readonly mask: number;
  private keys: (string | undefined)[];
  private values: V[];
  private readonly hashes: Int32Array;
  private count = 0;

  constructor(readonly limit: number) {
    let slots = 1024;
    while (slots < limit * 2) slots *= 2;
    this.mask = slots - 1;
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.values = new Array<V>(slots);
    this.hashes = new Int32Array(slots);
  }

  get size(): number {
    return this.count;
  }

  /**
   * The value kept for `text[start, end)` (whose {@link foldHash} is `hash`),
   * else the one `make` gives for it, kept.
   */
  get(text: string, start: number, end: number, hash: number, make: (span: string) => V): V {
    const len = end - start;
    let slot = hash & this.mask;
    for (let key = this.keys[slot]; key !== undefined; key = this.keys[(slot = (slot + 1) & this.mask)]) {
      if (this.hashes[slot] !== hash || key.length !== len) continue;
      let k = 0;
      while (k < len && key.charCodeAt(k) === text.charCodeAt(start + k)) k++;
      if (k === len) return this.values[slot]!;
    }
    const span = text.slice(start, end);
    const value = make(span);
    if (this.count >= this.limit) {
      this.keys.fill(undefined);
      this.values = new Array<V>(this.keys.length);
      this.count = 0;
      slot = hash & this.mask;
      // The slot found above may be taken no longer: the first free one from the start is used.
    }
    while (this.keys[slot] !== undefined) slot = (slot + 1) & this.mask;
    this.keys[slot] = span;
    this.values[slot] = value;
    this.hashes[slot] = hash;
    this.count++;
    return value;
  }
}
