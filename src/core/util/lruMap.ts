/**
 * A map that keeps at most `max` entries, dropping the least recently used ones first: the
 * per-part caches of asking (sentence splits, tokens, word counts) are kept across questions
 * within a bound, whatever the corpus's size.
 *
 * Entries age a generation at a time (two maps of at most half of `max` each: an entry used
 * since the last turn is kept, the older ones are dropped together), so a hit costs one map
 * lookup, not a reordering.
 */
export class LruMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError(`LruMap: max must be at least 1 (got ${max})`);
    this.half = Math.ceil(max / 2);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** The value of `key` (now recently used), or undefined when absent. */
  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** Sets `key` (recently used); when the recent entries fill half the room, the older ones are dropped. */
  set(key: K, value: V): this {
    this.old.delete(key);
    this.young.set(key, value);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    return this;
  }

  /**
   * The value of `key`, made by `make` when absent (and kept).
   *
   * @example sentences.getOrSet(turnKey, () => segmentSentences(text))
   */
  getOrSet(key: K, make: () => V): V {
    const v = this.get(key);
    if (v !== undefined) return v;
    const made = make();
    this.set(key, made);
    return made;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}

/**
 * {@link LruMap} keyed by an object and a number together (a loaded part and a span's offsets):
 * the object compared by identity and the number as is, so a lookup builds no key string. At most
 * `max` entries in all, whatever the objects.
 */
export class PairLruMap<O extends object, V> {
  private young = new Map<O, Map<number, V>>();
  private old = new Map<O, Map<number, V>>();
  private youngSize = 0;
  private oldSize = 0;
  private readonly half: number;

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError(`PairLruMap: max must be at least 1 (got ${max})`);
    this.half = Math.ceil(max / 2);
  }

  get size(): number {
    return this.youngSize + this.oldSize;
  }

  /** The value of `(o, k)` (now recently used), or undefined when absent. */
  get(o: O, k: number): V | undefined {
    const v = this.young.get(o)?.get(k);
    if (v !== undefined) return v;
    const aged = this.old.get(o);
    const w = aged?.get(k);
    if (w !== undefined) {
      aged!.delete(k);
      this.oldSize--;
      this.set(o, k, w);
    }
    return w;
  }

  /** Sets `(o, k)` (recently used); when the recent entries fill half the room, the older ones are dropped. */
  set(o: O, k: number, value: V): this {
    const aged = this.old.get(o);
    if (aged?.delete(k)) this.oldSize--;
    let m = this.young.get(o);
    if (!m) this.young.set(o, (m = new Map()));
    if (!m.has(k)) this.youngSize++;
    m.set(k, value);
    if (this.youngSize >= this.half) {
      this.old = this.young;
      this.oldSize = this.youngSize;
      this.young = new Map();
      this.youngSize = 0;
    }
    return this;
  }

  /** The value of `(o, k)`, made by `make` when absent (and kept). */
  getOrSet(o: O, k: number, make: () => V): V {
    const v = this.get(o, k);
    if (v !== undefined) return v;
    const made = make();
    this.set(o, k, made);
    return made;
  }
}
