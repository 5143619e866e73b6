/**
 * A compact BM25+ inverted index: documents (integer ids given by the caller)
 * with a few fields of tokens, term postings in flat typed arrays, scored as
 * MiniSearch 7.2 scores exact-term queries (which this replaced: its Map per
 * posting list cost about 1 GB on a 10 M-word corpus and seconds to load).
 * Same formula, same order of operations; the differences: the average field
 * length is the exact mean (MiniSearch keeps a running one, equal to ~1e-15),
 * a discarded document never counts in a term's document frequency
 * (MiniSearch counts it until a vacuum), ties are broken by id, and a hit's
 * terms are listed in query order.
 *
 * Layout. Terms are numbered (`Map` term → index). Per field, postings live in
 * two tiers:
 * - sealed: `offsets[t]..offsets[t+1]` into `docs` (Int32Array) and `freqs`
 *   (Uint32Array), the postings of term t, in ascending order of addition;
 * - delta: documents added since the last {@link PostingsIndex.seal}, one
 *   growable Int32Array of (doc, freq, previous, term) records chained per
 *   term, so an add costs no allocation per posting (a search follows a
 *   term's chain; a seal reads the records in order, by their term).
 * Discarding a document only marks it (a state byte per id): scoring, document
 * frequencies and averages skip it at once, and the next seal drops its
 * postings. A seal rewrites every posting, so it happens when the changes since
 * the last one are large (see {@link SEAL_MIN_CHANGE}), when a caller asks
 * (after a build), and in {@link PostingsIndex.serialize}.
 *
 * The binary file ({@link PostingsIndex.serialize} / {@link PostingsIndex.fromBytes})
 * is the sealed tier as is, so loading is one read, typed-array views and one
 * pass building the term map; every size and offset is checked against the
 * header and a checksum of the body (bodyChecksum.ts: a check against damage, not against tampering; a large body is hashed by sample), so a truncated or damaged file throws
 * {@link PostingsFormatError} instead of answering wrongly.
 *
 * No corpus knowledge here: callers tokenise, and map ids to what they index.
 */
import { bodyChecksum, newSalt } from './bodyChecksum';

/** BM25+ parameters: term-frequency saturation `k`, length normalisation `b`, lower bound `d`. */
export interface Bm25Params {
  k: number;
  b: number;
  d: number;
}

export interface PostingsOptions {
  /** Field names, in the order documents give their tokens (and scores are summed). */
  fields: readonly string[];
  /** Score multiplier of each field, same order as {@link fields}. */
  boosts: readonly number[];
  bm25: Bm25Params;
  /** Postings added or discarded past which the index seals by itself (default {@link SEAL_MIN_CHANGE}; the sealed size / 2 when larger). */
  sealAt?: number;
}

/** One query term and its weight; a term given twice counts twice. */
export interface QueryTerm {
  term: string;
  boost: number;
}

export interface PostingsHit {
  id: number;
  score: number;
  /** The distinct query terms that matched, in query order. */
  terms: string[];
}

/** The persisted bytes are not a whole, consistent index of these options. */
export class PostingsFormatError extends Error {
  constructor(message: string) {
    super(`postings file: ${message}`);
    this.name = 'PostingsFormatError';
  }
}

/** Document states (one byte per id): ids are used once, so a discarded id is never live again. */
const UNUSED = 0;
const LIVE = 1;
const DISCARDED = 2;

/**
 * Postings added or discarded since the last seal at which the index seals by
 * itself: at least this many, and at least half the sealed tier, so that the
 * copying of seals stays linear in the index size while the delta (12 bytes
 * a posting) and the dead postings stay small. (A seal rewrites every
 * posting: about 70 ms on a 10 M-word corpus.)
 */
const SEAL_MIN_CHANGE = 1 << 20;

const FILE_MAGIC = 'marker-research-postings';
const FILE_VERSION = 3;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A growable Int32Array. */
class IntBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push4(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) {
      const next = new Int32Array(Math.max(this.data.length * 2, this.length + 4));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
    this.data[this.length++] = d;
  }
}

/** The postings of one field. */
interface FieldPostings {
  /** Sealed tier: `offsets` has one entry per sealed term plus one. */
  offsets: Uint32Array;
  docs: Int32Array;
  freqs: Uint32Array;
  /** Delta tier: per term, the index (in records) of its newest delta posting, or -1. */
  head: Int32Array;
  /** Per term, its delta postings (live or not). */
  deltaCount: Int32Array;
  /** Records of 4 (doc, freq, previous posting of the same term or -1, term). */
  delta: IntBuffer;
}

/** Per-document working arrays of a search. */
interface Scratch {
  total: Float64Array;
  perTerm: Float64Array;
  /** The number of distinct query terms a document matched (MiniSearch's "quality"); 0: not a hit yet. */
  quality: Uint32Array;
  /** 1 while the current query term has touched the document. */
  touchedNow: Uint8Array;
  /** Per document, `words` 32-bit sets of the distinct query terms it matched. */
  matched: Uint32Array;
}

/** The header of the binary file (JSON, after a 4-byte length). */
interface FileHeader {
  magic: string;
  version: number;
  littleEndian: boolean;
  fields: string[];
  /** Ids below this have a state byte and field lengths. */
  idLimit: number;
  liveCount: number;
  termCount: number;
  /** UTF-8 bytes of the terms, joined by "\n". */
  termBytes: number;
  /** Postings per field. */
  postings: number[];
  /** Random per save, hashed with the body. */
  salt: string;
  /** The body's checksum (see bodyChecksum.ts: SHA-1 of the whole body, or of a sample of a large one). */
  sha1: string;
}

/** Rounds up to a multiple of 4 (typed-array sections start 4-byte aligned). */
const align4 = (n: number): number => (n + 3) & ~3;

function emptyField(termCapacity: number): FieldPostings {
  return {
    offsets: new Uint32Array(1),
    docs: new Int32Array(0),
    freqs: new Uint32Array(0),
    head: new Int32Array(termCapacity).fill(-1),
    deltaCount: new Int32Array(termCapacity),
    delta: new IntBuffer(),
  };
}

export class PostingsIndex {
  private readonly fieldCount: number;
  private readonly termIds = new Map<string, number>();
  private terms: string[] = [];
  /** Terms numbered below this have sealed postings (offsets entries). */
  private sealedTerms = 0;
  private fields: FieldPostings[];
  /** Capacity of the per-term delta arrays. */
  private termCapacity = 1024;
  /** Per id: {@link UNUSED}, {@link LIVE} or {@link DISCARDED}. */
  private state = new Uint8Array(1024);
  /** Per id × field: the number of distinct tokens (MiniSearch's field length). */
  private lengths: Uint32Array;
  private idLimit = 0;
  private liveCount = 0;
  /** Per field: sum of the lengths of live documents (exact: integers well below 2^53). */
  private readonly lengthSums: Float64Array;
  /** Postings in the delta tier, all fields. */
  private deltaPostings = 0;
  /** Documents discarded since the last seal (their postings are still stored). */
  private discardedSinceSeal = 0;
  /** About how many postings those documents have (their distinct tokens). */
  private discardedPostings = 0;
  private scratch: Scratch | undefined;
  /** Per term, its count in the field being added ({@link add}; zero between adds). */
  private tf = new Int32Array(1024);
  /** The distinct terms of the field being added, in order of first appearance. */
  private touched = new Int32Array(1024);
  /** See {@link termEpoch}. */
  private epoch = 0;

  constructor(readonly options: PostingsOptions) {
    if (options.fields.length === 0 || options.boosts.length !== options.fields.length) throw new Error('postings: one boost per field, at least one field');
    this.fieldCount = options.fields.length;
    this.fields = options.fields.map(() => emptyField(this.termCapacity));
    this.lengths = new Uint32Array(this.state.length * this.fieldCount);
    this.lengthSums = new Float64Array(this.fieldCount);
  }

  /** Live documents. */
  get documentCount(): number {
    return this.liveCount;
  }

  /** Distinct terms known (some may have no live posting until the next seal). */
  get termCount(): number {
    return this.terms.length;
  }

  /** Postings added since the last seal (the delta tier). */
  get pendingPostings(): number {
    return this.deltaPostings;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.idLimit && this.state[id] === LIVE;
  }

  /**
   * Adds document `id` with one token list per field. Empty tokens are not
   * indexed but count in the field's length, which is its number of distinct
   * tokens — both as MiniSearch does.
   * @throws when `id` is not a non-negative integer or was used before.
   */
  add(id: number, fieldTokens: readonly (readonly string[])[]): void {
    this.checkNewId(id);
    if (fieldTokens.length !== this.fieldCount) throw new Error(`postings: ${fieldTokens.length} token lists for ${this.fieldCount} fields`);
    let total = 0;
    for (const tokens of fieldTokens) total += tokens.length;
    const terms = new Int32Array(total);
    const starts = new Int32Array(this.fieldCount + 1);
    let at = 0;
    // Numbered field by field, each in order: new terms get the numbers of their first appearance.
    for (let f = 0; f < this.fieldCount; f++) {
      starts[f] = at;
      for (const token of fieldTokens[f]!) terms[at++] = token ? this.termId(token) : -1;
    }
    starts[this.fieldCount] = at;
    this.addTerms(id, terms, starts);
  }

  /**
   * The number of `term` in this index (see {@link addTerms}), numbered now
   * when new: the next number. Numbers stay until {@link termEpoch} changes.
   */
  termNumber(term: string): number {
    if (!term) throw new Error('postings: an empty term has no number');
    return this.termId(term);
  }

  /** Changes when the terms are numbered anew (a seal that drops many terms left without postings). */
  get termEpoch(): number {
    return this.epoch;
  }

  /**
   * {@link add} with the tokens as term numbers ({@link termNumber}; -1 for
   * an empty token): field `f`'s are `terms[starts[f]]` up to `terms[starts[f + 1]]`.
   * @throws when `id` is not a non-negative integer or was used before, or a number is not a term's.
   */
  addTerms(id: number, terms: Int32Array, starts: ArrayLike<number>): void {
    this.checkNewId(id);
    if (starts.length !== this.fieldCount + 1) throw new Error(`postings: ${starts.length - 1} token lists for ${this.fieldCount} fields`);
    this.ensureId(id);
    const termCount = this.terms.length;
    for (let i = starts[0]!; i < starts[this.fieldCount]!; i++) if (terms[i]! < -1 || terms[i]! >= termCount) throw new Error(`postings: ${terms[i]} is not a term's number`);
    if (this.tf.length < termCount) this.growTf(termCount);
    const tf = this.tf;
    for (let f = 0; f < this.fieldCount; f++) {
      // Each distinct term's count, in the order of first appearance, without a map per document.
      const from = starts[f]!;
      const to = starts[f + 1]!;
      if (this.touched.length < to - from) this.touched = new Int32Array(Math.max(to - from, this.touched.length * 2));
      const touched = this.touched;
      let distinct = 0;
      let empty = 0;
      for (let i = from; i < to; i++) {
        const t = terms[i]!;
        // An empty token is not indexed, but counts once in the field's length.
        if (t < 0) empty = 1;
        else if (tf[t]++ === 0) touched[distinct++] = t;
      }
      this.lengths[id * this.fieldCount + f] = distinct + empty;
      this.lengthSums[f]! += distinct + empty;
      const field = this.fields[f]!;
      for (let k = 0; k < distinct; k++) {
        const t = touched[k]!;
        field.delta.push4(id, tf[t]!, field.head[t]!, t);
        field.head[t] = (field.delta.length >> 2) - 1;
        field.deltaCount[t]!++;
        tf[t] = 0;
      }
      this.deltaPostings += distinct;
    }
    this.state[id] = LIVE;
    this.liveCount++;
    if (id >= this.idLimit) this.idLimit = id + 1;
    this.sealIfLarge();
  }

  /**
   * Removes document `id` from every result, count and average at once; its
   * postings go at the next seal.
   * @throws when `id` is not a live document.
   */
  discard(id: number): void {
    if (!this.has(id)) throw new Error(`postings: cannot discard ${id}: not in the index`);
    this.state[id] = DISCARDED;
    this.liveCount--;
    for (let f = 0; f < this.fieldCount; f++) {
      this.lengthSums[f]! -= this.lengths[id * this.fieldCount + f]!;
      this.discardedPostings += this.lengths[id * this.fieldCount + f]!;
    }
    this.discardedSinceSeal++;
    this.sealIfLarge();
  }

  /**
   * Seals when the changes since the last seal are large (see {@link SEAL_MIN_CHANGE});
   * smaller ones are searched where they are: the delta by its chains, discarded
   * documents skipped (and document frequencies counted rather than read off).
   */
  private sealIfLarge(): void {
    if (this.deltaPostings + this.discardedPostings >= Math.max(this.options.sealAt ?? SEAL_MIN_CHANGE, this.sealedPostings() / 2)) this.seal();
  }

  /** Live documents with `term` in field number `field`. */
  documentFrequency(term: string, field: number): number {
    const t = this.termIds.get(term);
    return t === undefined || field < 0 || field >= this.fieldCount ? 0 : this.liveFrequency(t, field);
  }

  /**
   * Scores live documents for `queries` (OR): per query term and field,
   * boost × field boost × BM25+, summed per term, then over terms; the sum is
   * multiplied by the number of distinct query terms the document matched.
   * Documents `filter` rejects are left out. Best first, ties by id.
   *
   * With `limit`, the first `limit` of that list, the same hits and scores: every
   * posting is still scored (exact), but the hits are chosen with a bounded
   * heap, so only the `limit` best are sorted and given terms, and `filter` is
   * asked only about documents that would enter the heap.
   */
  search(queries: readonly QueryTerm[], filter?: (id: number) => boolean, limit = Number.POSITIVE_INFINITY): PostingsHit[] {
    const { k, b, d } = this.options.bm25;
    const F = this.fieldCount;
    const n = this.idLimit;
    // The distinct query terms, numbered in order of first appearance: a document's matched terms are a bit set.
    const unique: string[] = [];
    const uniqueOf = new Map<string, number>();
    for (const { term } of queries) if (!uniqueOf.has(term)) uniqueOf.set(term, unique.push(term) - 1);
    const words = Math.max(1, Math.ceil(unique.length / 32));
    // Taken, not shared: a filter that searches again, or one that throws, cannot leave it half used.
    const scratch = this.takeScratch(n, words);
    const { total, perTerm, quality, touchedNow, matched } = scratch;
    const touched: number[] = [];
    const hits: number[] = [];
    const state = this.state;
    const lengths = this.lengths;
    for (const { term, boost } of queries) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      for (let f = 0; f < F; f++) {
        const matching = this.liveFrequency(t, f);
        if (matching === 0) continue;
        // MiniSearch's calcBM25Score and weighting, operation for operation: given the same average, the same bits.
        const idf = Math.log(1 + (this.liveCount - matching + 0.5) / (matching + 0.5));
        const weight = boost * this.options.boosts[f]!;
        const avgLength = this.lengthSums[f]! / this.liveCount;
        const field = this.fields[f]!;
        // The sealed postings of the term, then its delta chain (doc, freq, previous, term).
        const sealed = t < this.sealedTerms;
        const data = field.delta.data;
        let i = sealed ? field.offsets[t]! : 0;
        const end = sealed ? field.offsets[t + 1]! : 0;
        let p = t < field.head.length ? field.head[t]! : -1;
        for (;;) {
          let doc: number;
          let tf: number;
          if (i < end) {
            doc = field.docs[i]!;
            tf = field.freqs[i++]!;
          } else if (p >= 0) {
            doc = data[p * 4]!;
            tf = data[p * 4 + 1]!;
            p = data[p * 4 + 2]!;
          } else break;
          if (state[doc] !== LIVE) continue;
          const length = lengths[doc * F + f]!;
          const s = weight * (idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / avgLength))));
          if (touchedNow[doc]) perTerm[doc]! += s;
          else {
            touchedNow[doc] = 1;
            perTerm[doc] = s;
            touched.push(doc);
          }
        }
      }
      // As MiniSearch combines one query term's results with the others': the term's sum over fields is added to the total.
      const u = uniqueOf.get(term)!;
      const word = u >>> 5;
      const bit = 1 << (u & 31);
      for (const doc of touched) {
        touchedNow[doc] = 0;
        if (quality[doc] === 0) {
          total[doc] = perTerm[doc]!;
          hits.push(doc);
        } else total[doc]! += perTerm[doc]!;
        const at = doc * words + word;
        if (!(matched[at]! & bit)) {
          matched[at]! |= bit;
          quality[doc]!++;
        }
      }
      touched.length = 0;
    }
    let kept: Int32Array;
    if (limit < hits.length) {
      for (const doc of hits) total[doc]! *= quality[doc]!;
      kept = topK(hits, total, Math.max(0, Math.floor(limit)), filter);
    } else {
      kept = Int32Array.from(filter ? hits.filter((doc) => filter(doc)) : hits);
      for (const doc of kept) total[doc]! *= quality[doc]!;
      kept.sort((x, y) => total[y]! - total[x]! || x - y);
    }
    const out: PostingsHit[] = new Array<PostingsHit>(kept.length);
    for (let r = 0; r < kept.length; r++) {
      const doc = kept[r]!;
      const terms: string[] = [];
      for (let u = 0; u < unique.length; u++) if (matched[doc * words + (u >>> 5)]! & (1 << (u & 31))) terms.push(unique[u]!);
      out[r] = { id: doc, score: total[doc]!, terms };
    }
    // The scratch arrays go back clean (zero) where this search wrote; scores are overwritten on first touch.
    if (words === 1) {
      // The usual case (up to 32 distinct terms): no call per hit.
      for (const doc of hits) quality[doc] = matched[doc] = 0;
    } else {
      for (const doc of hits) {
        quality[doc] = 0;
        matched.fill(0, doc * words, doc * words + words);
      }
    }
    this.scratch = scratch;
    return out;
  }

  /**
   * Per-document arrays for {@link search}, kept between searches (a search
   * over a large index otherwise allocates and clears megabytes each time);
   * all zero when handed out, but for the scores, which a search overwrites before reading.
   */
  private takeScratch(ids: number, words: number): Scratch {
    let s = this.scratch;
    this.scratch = undefined;
    if (!s || s.quality.length < ids) {
      const capacity = Math.max(ids, 1024);
      s = { total: new Float64Array(capacity), perTerm: new Float64Array(capacity), quality: new Uint32Array(capacity), touchedNow: new Uint8Array(capacity), matched: new Uint32Array(capacity * words) };
    } else if (s.matched.length < ids * words) s = { ...s, matched: new Uint32Array(s.quality.length * words) };
    return s;
  }

  /**
   * Moves the delta into the sealed tier and drops the postings of discarded
   * documents (and, when many, terms left without postings). Cost: one pass
   * over every posting (a block copy where nothing was discarded).
   */
  seal(): void {
    if (this.deltaPostings === 0 && this.discardedSinceSeal === 0) return;
    const T = this.terms.length;
    const newFields = this.fields.map((field) => sealField(field, this.sealedTerms, T, this.state, this.discardedSinceSeal > 0));
    // Terms without a posting left have empty ranges: dropping them renumbers the terms and rebuilds the
    // term map, but moves no posting. Worth it only when many went empty.
    const keep = new Uint8Array(T);
    let empty = 0;
    for (let t = 0; t < T; t++) {
      keep[t] = newFields.some((f) => f.offsets[t + 1]! > f.offsets[t]!) ? 1 : 0;
      empty += 1 - keep[t]!;
    }
    if (empty > 1024 && empty * 4 > T) {
      this.epoch++;
      this.terms = this.terms.filter((_, t) => keep[t]);
      this.termIds.clear();
      this.terms.forEach((term, t) => this.termIds.set(term, t));
      for (const f of newFields) {
        const offsets = new Uint32Array(this.terms.length + 1);
        let nt = 0;
        for (let t = 0; t < T; t++) if (keep[t]) offsets[nt++] = f.offsets[t]!;
        offsets[nt] = f.offsets[T]!;
        f.offsets = offsets;
      }
    }
    this.termCapacity = Math.max(1024, this.terms.length * 2);
    this.fields = newFields.map((s) => ({ ...emptyField(this.termCapacity), ...s }));
    this.sealedTerms = this.terms.length;
    this.deltaPostings = 0;
    this.discardedSinceSeal = 0;
    this.discardedPostings = 0;
  }

  /**
   * The index as the parts of a binary file (written one after the other)
   * and the file's checksum: seals first. The parts stay valid while the file
   * is written and the index changes: the postings are views of arrays a seal
   * replaces but never changes; the per-document states and lengths, changed
   * in place, are copies (small: a few bytes per document).
   */
  serialize(): { parts: Uint8Array[]; checksum: string } {
    this.seal();
    const terms = this.terms;
    for (const term of terms) if (term.includes('\n')) throw new Error(`postings: a term with a line break cannot be stored: ${JSON.stringify(term)}`);
    const termBytes = new TextEncoder().encode(terms.join('\n'));
    const bytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const pad = (n: number): Uint8Array => new Uint8Array(align4(n) - n);
    const body: Uint8Array[] = [termBytes, pad(termBytes.length), this.state.slice(0, this.idLimit), pad(this.idLimit), bytes(this.lengths.slice(0, this.idLimit * this.fieldCount))];
    for (const field of this.fields) body.push(bytes(field.offsets), bytes(field.docs), bytes(field.freqs));
    const salt = newSalt();
    const header: FileHeader = {
      magic: FILE_MAGIC,
      version: FILE_VERSION,
      littleEndian: LITTLE_ENDIAN,
      fields: [...this.options.fields],
      idLimit: this.idLimit,
      liveCount: this.liveCount,
      termCount: terms.length,
      termBytes: termBytes.length,
      postings: this.fields.map((f) => f.docs.length),
      salt,
      sha1: bodyChecksum(body, salt),
    };
    const json = new TextEncoder().encode(JSON.stringify(header));
    const prefix = new Uint8Array(align4(4 + json.length));
    new DataView(prefix.buffer).setUint32(0, json.length, true);
    prefix.set(json, 4);
    return { parts: [prefix, ...body], checksum: header.sha1 };
  }

  /**
   * Reads what {@link serialize} wrote. The postings arrays are views of
   * `bytes` (copied only when `bytes` is not 4-byte aligned).
   * @param checksum When given, the file must be the one {@link serialize} gave this checksum (pairs it with what was saved with it).
   * @throws PostingsFormatError for anything but a whole, undamaged file of these fields.
   */
  static fromBytes(input: Uint8Array, options: PostingsOptions, checksum?: string): PostingsIndex {
    const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
    const { header, bodyStart } = readHeader(bytes);
    if (checksum !== undefined && header.sha1 !== checksum) throw new PostingsFormatError('not the file saved with the manifest (checksum differs)');
    const F = options.fields.length;
    if (header.littleEndian !== LITTLE_ENDIAN) throw new PostingsFormatError('written on a machine of the other byte order');
    if (header.fields.length !== F || header.fields.some((f, i) => f !== options.fields[i])) throw new PostingsFormatError(`fields ${JSON.stringify(header.fields)}, expected ${JSON.stringify(options.fields)}`);
    const { idLimit, termCount, termBytes, postings, liveCount } = header;
    const counts = [idLimit, termCount, termBytes, liveCount, ...postings];
    if (postings.length !== F || counts.some((c) => !Number.isSafeInteger(c) || c < 0) || idLimit > 0x80000000) throw new PostingsFormatError('bad counts in the header');
    let size = bodyStart + align4(termBytes) + align4(idLimit) + 4 * idLimit * F;
    for (const p of postings) size += 4 * (termCount + 1) + 8 * p;
    if (bytes.length !== size) throw new PostingsFormatError(`${bytes.length} bytes, the header says ${size}`);
    if (bodyChecksum([bytes.subarray(bodyStart)], header.salt) !== header.sha1) throw new PostingsFormatError('checksum mismatch (damaged file)');

    let at = bodyStart;
    const take = <A>(make: (buffer: ArrayBufferLike, offset: number, length: number) => A, length: number, width: number): A => {
      const view = make(bytes.buffer, bytes.byteOffset + at, length);
      at += align4(length * width);
      return view;
    };
    const termText = new TextDecoder('utf-8', { fatal: true }).decode(take((b, o, l) => new Uint8Array(b, o, l), termBytes, 1));
    const terms = termCount === 0 ? [] : termText.split('\n');
    if (terms.length !== termCount || (termCount === 0 && termText !== '')) throw new PostingsFormatError(`${terms.length} terms, the header says ${termCount}`);
    const state = take((b, o, l) => new Uint8Array(b, o, l), idLimit, 1);
    const lengths = take((b, o, l) => new Uint32Array(b, o, l), idLimit * F, 4);
    const fields = postings.map((p) => ({
      offsets: take((b, o, l) => new Uint32Array(b, o, l), termCount + 1, 4),
      docs: take((b, o, l) => new Int32Array(b, o, l), p, 4),
      freqs: take((b, o, l) => new Uint32Array(b, o, l), p, 4),
    }));

    const index = new PostingsIndex(options);
    // Sealed files hold live and unused ids only, and postings of live documents only.
    let live = 0;
    for (let id = 0; id < idLimit; id++) {
      const s = state[id]!;
      if (s === LIVE) live++;
      else if (s !== UNUSED && s !== DISCARDED) throw new PostingsFormatError(`bad state ${s} of document ${id}`);
    }
    if (live !== liveCount) throw new PostingsFormatError(`${live} live documents, the header says ${liveCount}`);
    for (const [f, field] of fields.entries()) {
      const problem = checkPostings(field.offsets, field.docs, field.freqs, idLimit);
      if (problem) throw new PostingsFormatError(`field ${f}: ${problem}`);
    }
    for (let t = 0; t < termCount; t++) {
      const term = terms[t]!;
      if (!term || index.termIds.has(term)) throw new PostingsFormatError(`term ${t} is empty or repeated`);
      index.termIds.set(term, t);
    }
    index.terms = terms;
    index.sealedTerms = termCount;
    index.termCapacity = Math.max(1024, termCount * 2);
    index.fields = fields.map((s) => ({ ...emptyField(index.termCapacity), ...s }));
    // State and lengths grow as documents are added: copies with room, not views.
    index.ensureId(Math.max(0, idLimit - 1));
    index.state.set(state);
    index.lengths.set(lengths);
    index.idLimit = idLimit;
    index.liveCount = liveCount;
    for (let id = 0; id < idLimit; id++) if (state[id] === LIVE) for (let f = 0; f < F; f++) index.lengthSums[f]! += lengths[id * F + f]!;
    return index;
  }

  /** The number of term `t`'s postings in `field`, live or not. */
  private storedCount(field: FieldPostings, t: number): number {
    const sealed = t < this.sealedTerms ? field.offsets[t + 1]! - field.offsets[t]! : 0;
    return sealed + (t < field.deltaCount.length ? field.deltaCount[t]! : 0);
  }

  /** The number of term `t`'s postings in `field` of live documents. */
  private countLive(field: FieldPostings, t: number): number {
    let n = 0;
    if (t < this.sealedTerms) for (let i = field.offsets[t]!, end = field.offsets[t + 1]!; i < end; i++) if (this.state[field.docs[i]!] === LIVE) n++;
    if (t < field.head.length) for (let p = field.head[t]!, data = field.delta.data; p >= 0; p = data[p * 4 + 2]!) if (this.state[data[p * 4]!] === LIVE) n++;
    return n;
  }

  /** Live documents with term `t` in field `f`: a count while nothing was discarded since the seal, else a scan. */
  private liveFrequency(t: number, f: number): number {
    const field = this.fields[f]!;
    return this.discardedSinceSeal ? this.countLive(field, t) : this.storedCount(field, t);
  }

  private sealedPostings(): number {
    let n = 0;
    for (const field of this.fields) n += field.docs.length;
    return n;
  }

  /** The number of `term`, added when new. */
  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t !== undefined) return t;
    t = this.terms.length;
    this.terms.push(term);
    this.termIds.set(term, t);
    if (t >= this.termCapacity) {
      this.termCapacity *= 2;
      for (const field of this.fields) {
        const head = new Int32Array(this.termCapacity).fill(-1);
        head.set(field.head);
        field.head = head;
        const count = new Int32Array(this.termCapacity);
        count.set(field.deltaCount);
        field.deltaCount = count;
      }
    }
    return t;
  }

  /** @throws when `id` is not a non-negative integer or was used before. */
  private checkNewId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff) throw new Error(`postings: bad document id ${id}`);
    if (id < this.state.length && this.state[id] !== UNUSED) throw new Error(`postings: document id ${id} used before`);
  }

  /** Room in {@link tf} for term `t`. */
  private growTf(t: number): void {
    let capacity = this.tf.length;
    while (capacity <= t) capacity *= 2;
    const tf = new Int32Array(capacity);
    tf.set(this.tf);
    this.tf = tf;
  }

  /** Room in the per-id arrays for `id`. */
  private ensureId(id: number): void {
    if (id < this.state.length) return;
    let capacity = this.state.length;
    while (capacity <= id) capacity *= 2;
    const state = new Uint8Array(capacity);
    state.set(this.state);
    this.state = state;
    const lengths = new Uint32Array(capacity * this.fieldCount);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}

/**
 * The `k` best of `docs` by `score` (higher first, ties by lower id) that
 * `filter` accepts, best first: the order a full sort gives, cut at `k`. A
 * min-heap of the `k` best so far (its root the worst of them); `filter` is
 * asked only about a document better than the root (or while the heap fills).
 */
function topK(docs: readonly number[], score: Float64Array, k: number, filter?: (id: number) => boolean): Int32Array {
  const heap = new Int32Array(k);
  let size = 0;
  /** Whether document `a` ranks below document `b`. */
  const worse = (a: number, b: number): boolean => score[a]! < score[b]! || (score[a] === score[b] && a > b);
  for (const doc of docs) {
    if (size === k) {
      if (k === 0 || !worse(heap[0]!, doc)) continue;
      if (filter && !filter(doc)) continue;
      // Replaces the root and sifts it down.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && worse(heap[r]!, heap[l]!) ? r : l;
        if (!worse(heap[c]!, doc)) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = doc;
    } else {
      if (filter && !filter(doc)) continue;
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(doc, heap[parent]!)) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = doc;
    }
  }
  const out = heap.slice(0, size);
  out.sort((x, y) => score[y]! - score[x]! || x - y);
  return out;
}

/**
 * One field's postings sealed: per term (`terms` of them, the first
 * `sealedTerms` with sealed postings), its sealed postings then its delta
 * postings, in order of addition, without those of documents no longer live
 * (`filter`: there may be some). The sealed tier is copied term by term (a
 * block copy where nothing is dropped); the delta is read once in order, each
 * posting put after the ones of its term before it (a counting sort by term:
 * no walk along the chains, whose postings lie all over the delta).
 */
function sealField(field: FieldPostings, sealedTerms: number, terms: number, state: Uint8Array, filter: boolean): { offsets: Uint32Array; docs: Int32Array; freqs: Uint32Array } {
  // Locals, not property reads, in the loops over millions of postings.
  const { offsets: oldOffsets, docs: oldDocs, freqs: oldFreqs } = field;
  const data = field.delta.data;
  const records = field.delta.length >> 2;
  // Per term, the live delta postings (then, below, where the next one goes).
  const next = new Uint32Array(terms);
  if (filter) {
    for (let p = 0; p < records; p++) if (state[data[p * 4]!] === LIVE) next[data[p * 4 + 3]!]!++;
  } else for (let t = 0; t < terms && t < field.deltaCount.length; t++) next[t] = field.deltaCount[t]!;
  let capacity = oldDocs.length;
  for (let t = 0; t < terms; t++) capacity += next[t]!;
  const offsets = new Uint32Array(terms + 1);
  let docs = new Int32Array(capacity);
  let freqs = new Uint32Array(capacity);
  let at = 0;
  for (let t = 0; t < terms; t++) {
    offsets[t] = at;
    if (t < sealedTerms) {
      const from = oldOffsets[t]!;
      const to = oldOffsets[t + 1]!;
      if (filter) {
        for (let i = from; i < to; i++) {
          const doc = oldDocs[i]!;
          if (state[doc] !== LIVE) continue;
          docs[at] = doc;
          freqs[at++] = oldFreqs[i]!;
        }
      } else if (to - from > 256) {
        // A block copy for long lists only: the views it needs cost more than a short loop.
        docs.set(oldDocs.subarray(from, to), at);
        freqs.set(oldFreqs.subarray(from, to), at);
        at += to - from;
      } else {
        for (let i = from; i < to; i++) {
          docs[at] = oldDocs[i]!;
          freqs[at++] = oldFreqs[i]!;
        }
      }
    }
    const live = next[t]!;
    next[t] = at;
    at += live;
  }
  for (let p = 0; p < records; p++) {
    const doc = data[p * 4]!;
    if (filter && state[doc] !== LIVE) continue;
    const i = next[data[p * 4 + 3]!]!++;
    docs[i] = doc;
    freqs[i] = data[p * 4 + 1]!;
  }
  offsets[terms] = at;
  if (at < capacity) {
    docs = docs.slice(0, at);
    freqs = freqs.slice(0, at);
  }
  return { offsets, docs, freqs };
}

/**
 * What is wrong with one field's sealed postings, if anything: offsets must
 * run from 0 to the end without decreasing, and every posting must be of a
 * document id below the file's id limit with a frequency of at least 1.
 * Whether that document is live is not checked here: it is a random read per
 * posting (~0.9 s of a 100 M-word index's ~70 M postings, against ~0.3 s for
 * this sequential pass), and a search skips a posting of a document that is
 * not live anyway (such damage would only skew a term's document frequency).
 * (A function of its own: the loops over millions of postings are compiled tight.)
 */
function checkPostings(offsets: Uint32Array, docs: Int32Array, freqs: Uint32Array, idLimit: number): string | undefined {
  const last = offsets.length - 1;
  if (offsets[0] !== 0 || offsets[last] !== docs.length) return 'offsets do not span the postings';
  for (let t = 0; t < last; t++) if (offsets[t + 1]! < offsets[t]!) return `offsets decrease at term ${t}`;
  // Branch-free: flags or-ed over every posting, the place looked for only when one is bad.
  // `doc >>> 0` folds a negative id into a huge one: one comparison for both bounds.
  let bad = 0;
  const n = docs.length;
  for (let i = 0; i < n; i++) bad |= (docs[i]! >>> 0 >= idLimit ? 1 : 0) | (freqs[i] === 0 ? 1 : 0);
  if (!bad) return undefined;
  for (let i = 0; i < n; i++) if (docs[i]! >>> 0 >= idLimit || freqs[i] === 0) return `bad posting ${i}`;
  return undefined;
}

/** The JSON header at the start of `bytes` and where the body starts. */
function readHeader(bytes: Uint8Array): { header: FileHeader; bodyStart: number } {
  if (bytes.length < 4) throw new PostingsFormatError('too short');
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  if (4 + length > bytes.length) throw new PostingsFormatError('truncated header');
  let header: FileHeader;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(4, 4 + length))) as FileHeader;
  } catch {
    throw new PostingsFormatError('unreadable header');
  }
  if (header === null || typeof header !== 'object' || header.magic !== FILE_MAGIC) throw new PostingsFormatError('not a postings file');
  if (header.version !== FILE_VERSION) throw new PostingsFormatError(`version ${header.version}, expected ${FILE_VERSION}`);
  if (!Array.isArray(header.fields) || !Array.isArray(header.postings) || typeof header.sha1 !== 'string' || typeof header.salt !== 'string') throw new PostingsFormatError('incomplete header');
  return { header, bodyStart: align4(4 + length) };
}
