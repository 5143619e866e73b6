/**
 * The text of every chunk of a search index, kept on disk beside it
 * (`<corpus>/.marker-research/index/chunks.txt`) and read back one chunk at a
 * time: a search hit shows its chunk's text without its item's files being
 * parsed again (the engine keeps only a share of the corpus parsed, and a
 * parse costs ~7 ms per 10,000-word item).
 *
 * Texts added since the last save are held as UTF-8 bytes (copies: a text
 * sliced from its item's part would keep the whole part alive) up to
 * {@link chunkTextsLimits} (16 MB); past that, when a spool folder is set
 * ({@link ChunkTexts.spoolIn}), they are appended to a spool file there and
 * read back from it, so a build of 100 M words holds a few megabytes of
 * texts, not all of them. A save writes the texts file from the held bytes,
 * the spool and the previous texts file, each read in order in large blocks.
 *
 * The file is the UTF-8 texts one after the other; which bytes are whose is
 * recorded (typed arrays, see {@link ChunkTextsRecord}) with the file's token
 * (its first line), so a file not saved with that record is never read.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { pidAlive } from '../util/pidAlive';

/** What is recorded of the saved texts: the file's token and, per chunk, its id, byte offset and byte length. */
export interface ChunkTextsRecord {
  token: string;
  ids: Int32Array;
  offsets: Float64Array;
  lengths: Uint32Array;
}

/** Bytes of texts held in memory past which they go to the spool file (when one may be made); tests lower it. */
export const chunkTextsLimits = { spillBytes: 16 << 20 };
/** Size of the blocks a save reads the spool and the previous texts file in. */
const BLOCK_BYTES = 1 << 20;
/** Where a chunk's text is: not kept, in memory, in the saved texts file, in the spool file. */
const NONE = 0;
const HELD = 1;
const SAVED = 2;
const SPOOLED = 3;
const SPOOL_PREFIX = 'chunks.spool.';

/** Reads byte ranges of one file, in order, through a block buffer (a save reads ~one range per chunk). */
class BlockReader {
  private buf = Buffer.alloc(0);
  private start = 0;
  private fd = -1;
  read(fd: number, offset: number, length: number): Buffer | undefined {
    if (fd !== this.fd || offset < this.start || offset + length > this.start + this.buf.length) {
      this.fd = fd;
      this.start = offset;
      this.buf = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, length));
      const n = readSync(fd, this.buf, 0, this.buf.length, offset);
      this.buf = this.buf.subarray(0, n);
      if (n < length) return undefined;
    }
    return this.buf.subarray(offset - this.start, offset - this.start + length);
  }
}

/** Texts read from a file kept in memory, the most recently read (~1 MB of windows). */
const RECENT_TEXTS = 1024;

export class ChunkTexts {
  /** Per id: {@link NONE}, {@link HELD}, {@link SAVED} or {@link SPOOLED}. */
  private where = new Uint8Array(1024);
  /** Per id: byte offset in its file (saved or spool). */
  private offset = new Float64Array(1024);
  /** Per id: byte length. */
  private length = new Uint32Array(1024);
  private readonly held = new Map<number, Buffer>();
  /** Texts read from a file lately, the most recent last ({@link RECENT_TEXTS} at most). */
  private readonly recent = new Map<number, string>();
  private heldBytes = 0;
  /** The most bytes of texts held in memory at once. */
  private peakHeld = 0;
  private saved: { file: string; token: string; fd?: number } | undefined;
  private spool: { file: string; fd: number; size: number; live: number } | undefined;
  /** Folder the spool file may be made in; none: texts stay in memory until the save. */
  private spoolDir: string | undefined;

  /** Texts held in memory (added since the last save and not spooled). */
  get pendingCount(): number {
    return this.held.size;
  }

  /** Bytes of texts held in memory. */
  get pendingBytes(): number {
    return this.heldBytes;
  }

  /** The most bytes of texts held in memory at once since this was made. */
  get peakPendingBytes(): number {
    return this.peakHeld;
  }

  /** Texts in the spool file (added since the last save, past the memory budget). */
  get spooledCount(): number {
    return this.spool?.live ?? 0;
  }

  /**
   * Lets texts past {@link SPILL_BYTES} go to a spool file in `dir` (a real
   * folder, the index's own). Spool files of processes that are gone are removed.
   */
  spoolIn(dir: string): void {
    this.spoolDir = dir;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.startsWith(SPOOL_PREFIX)) continue;
      const pid = Number(name.slice(SPOOL_PREFIX.length).split('.')[0]);
      if (pid !== process.pid && !pidAlive(pid)) rmSync(path.join(dir, name), { force: true });
    }
  }

  set(id: number, text: string): void {
    this.setBytes(id, Buffer.from(text, 'utf8'));
  }

  /** {@link set} with the text's UTF-8 bytes (held as given: a view into a larger buffer keeps that buffer). */
  setBytes(id: number, utf8: Uint8Array): void {
    this.delete(id);
    this.ensure(id);
    const bytes = Buffer.isBuffer(utf8) ? utf8 : Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength);
    this.held.set(id, bytes);
    this.heldBytes += bytes.length;
    this.where[id] = HELD;
    if (this.heldBytes > this.peakHeld) this.peakHeld = this.heldBytes;
    if (this.heldBytes > chunkTextsLimits.spillBytes && this.spoolDir !== undefined) this.spill();
  }

  delete(id: number): void {
    this.recent.delete(id);
    if (id >= this.where.length) return;
    const w = this.where[id];
    if (w === HELD) {
      this.heldBytes -= this.held.get(id)!.length;
      this.held.delete(id);
    } else if (w === SPOOLED) this.spool!.live--;
    this.where[id] = NONE;
  }

  /** The text of chunk `id`, or undefined when it is not kept (an index saved before texts were, or a file that went missing). */
  get(id: number): string | undefined {
    const w = id >= 0 && id < this.where.length ? this.where[id] : NONE;
    if (w !== SAVED && w !== SPOOLED) return this.bytes(id)?.toString('utf8');
    // Read from a file: the most recently read texts are kept (a question reads its hits' windows many times).
    const known = this.recent.get(id);
    if (known !== undefined) {
      this.recent.delete(id);
      this.recent.set(id, known);
      return known;
    }
    const text = this.bytes(id)?.toString('utf8');
    if (text === undefined) return undefined;
    this.recent.set(id, text);
    if (this.recent.size > RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    return text;
  }

  private bytes(id: number, reader?: BlockReader): Buffer | undefined {
    const w = id >= 0 && id < this.where.length ? this.where[id] : NONE;
    if (w === HELD) return this.held.get(id);
    if (w === NONE) return undefined;
    try {
      let fd: number;
      if (w === SPOOLED) fd = this.spool!.fd;
      else {
        const s = this.saved!;
        fd = s.fd ??= openSync(s.file, 'r');
      }
      const at = this.offset[id]!;
      const len = this.length[id]!;
      if (reader) return reader.read(fd, at, len);
      const buf = Buffer.allocUnsafe(len);
      return readSync(fd, buf, 0, len, at) === len ? buf : undefined;
    } catch {
      return undefined;
    }
  }

  /** Appends the held texts to the spool file (made on first use) and lets them go. */
  private spill(): void {
    if (!this.spool) {
      const file = path.join(this.spoolDir!, `${SPOOL_PREFIX}${process.pid}.${randomBytes(6).toString('hex')}`);
      this.spool = { file, fd: openSync(file, 'wx+'), size: 0, live: 0 };
    }
    const sp = this.spool;
    const ids = [...this.held.keys()];
    const chunks = ids.map((id) => this.held.get(id)!);
    const all = Buffer.concat(chunks);
    let written = 0;
    while (written < all.length) written += writeSync(sp.fd, all, written, all.length - written, sp.size + written);
    let at = sp.size;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      this.where[id] = SPOOLED;
      this.offset[id] = at;
      this.length[id] = chunks[i]!.length;
      at += chunks[i]!.length;
    }
    sp.size = at;
    sp.live += ids.length;
    this.held.clear();
    this.heldBytes = 0;
  }

  /**
   * Uses the texts saved in `file` as `record` says, when the file's first
   * line is the record's token; false (nothing used) otherwise.
   */
  attach(file: string, record: ChunkTextsRecord | undefined): boolean {
    this.recent.clear();
    if (!record || typeof record.token !== 'string' || record.ids.length !== record.offsets.length || record.ids.length !== record.lengths.length) return false;
    let fd: number | undefined;
    try {
      fd = openSync(file, 'r');
      const head = Buffer.alloc(record.token.length + 1);
      if (readSync(fd, head, 0, head.length, 0) !== head.length || head.toString('latin1') !== `${record.token}\n`) {
        closeSync(fd);
        return false;
      }
    } catch {
      if (fd !== undefined) closeSync(fd);
      return false;
    }
    this.close();
    // Texts of the file attached before are no longer readable.
    for (let id = 0; id < this.where.length; id++) if (this.where[id] === SAVED) this.where[id] = NONE;
    const { ids, offsets, lengths } = record;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) continue;
      this.delete(id);
      this.ensure(id);
      this.where[id] = SAVED;
      this.offset[id] = offsets[i]!;
      this.length[id] = lengths[i]!;
    }
    this.saved = { file, token: record.token, fd };
    if (this.spool && this.spool.live === 0) this.dropSpool();
    return true;
  }

  /**
   * The file's bytes for the chunks `ids` (a text not kept is asked of
   * `missing`, and left out when it has none either) and,
   * once they are all written, the record to keep (then
   * {@link markSaved} with the file's final name).
   */
  serialize(ids: Iterable<number>, missing?: (id: number) => string | undefined): { parts: Generator<Uint8Array>; record: () => ChunkTextsRecord } {
    const token = randomBytes(12).toString('hex');
    const outIds: number[] = [];
    const outOffsets: number[] = [];
    const outLengths: number[] = [];
    const reader = new BlockReader();
    const get = (id: number): Buffer | undefined => {
      const b = this.bytes(id, reader);
      if (b !== undefined) return b;
      const text = missing?.(id);
      return text === undefined ? undefined : Buffer.from(text, 'utf8');
    };
    function* parts(): Generator<Uint8Array> {
      let offset = token.length + 1;
      // Written in batches of about a megabyte (one write per chunk would be ~130,000 writes at 10 M words).
      let batch: Buffer[] = [Buffer.from(`${token}\n`, 'latin1')];
      let batchBytes = 0;
      for (const id of ids) {
        const bytes = get(id);
        if (bytes === undefined) continue;
        outIds.push(id);
        outOffsets.push(offset);
        outLengths.push(bytes.length);
        offset += bytes.length;
        // A copy: the reader's block is reused.
        batch.push(Buffer.from(bytes));
        batchBytes += bytes.length;
        if (batchBytes >= BLOCK_BYTES) {
          yield Buffer.concat(batch);
          batch = [];
          batchBytes = 0;
        }
      }
      if (batch.length) yield Buffer.concat(batch);
    }
    return { parts: parts(), record: () => ({ token, ids: Int32Array.from(outIds), offsets: Float64Array.from(outOffsets), lengths: Uint32Array.from(outLengths) }) };
  }

  /**
   * The texts were written to `file` as `record` says: they are read from
   * there from now on, and the ones held in memory or spooled that it has
   * are let go (texts added while it was written stay).
   */
  markSaved(file: string, record: ChunkTextsRecord): void {
    this.attach(file, record);
  }

  close(): void {
    if (this.saved?.fd !== undefined) {
      try {
        closeSync(this.saved.fd);
      } catch {
        // already closed
      }
    }
    if (this.saved) this.saved.fd = undefined;
  }

  /** Closes and removes the spool file (nothing in it is needed any more). */
  private dropSpool(): void {
    const sp = this.spool;
    if (!sp) return;
    this.spool = undefined;
    try {
      closeSync(sp.fd);
    } catch {
      // already closed
    }
    rmSync(sp.file, { force: true });
  }

  private ensure(id: number): void {
    if (id < this.where.length) return;
    let capacity = this.where.length;
    while (capacity <= id) capacity *= 2;
    const where = new Uint8Array(capacity);
    where.set(this.where);
    this.where = where;
    const offset = new Float64Array(capacity);
    offset.set(this.offset);
    this.offset = offset;
    const length = new Uint32Array(capacity);
    length.set(this.length);
    this.length = length;
  }
}
