/**
 * The text of every chunk of a search index, kept on disk beside it
 * (`<corpus>/.marker-research/index/chunks.txt`) and read back one chunk at a
 * time: a search hit shows its chunk's text without its item's files being
 * parsed again (the engine keeps only a share of the corpus parsed, and a
 * parse costs ~7 ms per 10,000-word item). Texts added since the last save
 * are held in memory until the next one.
 *
 * The file is the UTF-8 texts one after the other; which bytes are whose is
 * recorded in the index manifest with the file's token (its first line), so a
 * file not saved with that manifest is never read.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** What the manifest records of the saved texts: the file's token and per chunk `[id, byte offset, byte length]`, flat. */
export interface ChunkTextsRecord {
  token: string;
  at: number[];
}

export class ChunkTexts {
  private readonly pending = new Map<number, string>();
  private saved: { file: string; token: string; at: Map<number, [number, number]>; fd?: number } | undefined;

  /** Texts held in memory (added since the last save). */
  get pendingCount(): number {
    return this.pending.size;
  }

  set(id: number, text: string): void {
    this.pending.set(id, text);
  }

  delete(id: number): void {
    this.pending.delete(id);
    this.saved?.at.delete(id);
  }

  /** The text of chunk `id`, or undefined when it is not kept (an index saved before texts were, or a file that went missing). */
  get(id: number): string | undefined {
    const held = this.pending.get(id);
    if (held !== undefined) return held;
    const s = this.saved;
    const at = s?.at.get(id);
    if (!s || !at) return undefined;
    try {
      s.fd ??= openSync(s.file, 'r');
      const buf = Buffer.allocUnsafe(at[1]);
      const n = readSync(s.fd, buf, 0, at[1], at[0]);
      return n === at[1] ? buf.toString('utf8') : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Uses the texts saved in `file` as `record` says, when the file's first
   * line is the record's token; false (nothing used) otherwise.
   */
  attach(file: string, record: ChunkTextsRecord | undefined): boolean {
    if (!record || typeof record.token !== 'string' || !Array.isArray(record.at) || record.at.length % 3) return false;
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
    const at = new Map<number, [number, number]>();
    for (let i = 0; i < record.at.length; i += 3) at.set(record.at[i]!, [record.at[i + 1]!, record.at[i + 2]!]);
    this.close();
    this.saved = { file, token: record.token, at, fd };
    return true;
  }

  /**
   * The file's bytes for the chunks `ids` (a text not kept is asked of
   * `missing`, and left out when it has none either) and,
   * once they are all written, the record to put in the manifest (then
   * {@link markSaved} with the file's final name).
   */
  serialize(ids: Iterable<number>, missing?: (id: number) => string | undefined): { parts: Generator<Uint8Array>; record: () => ChunkTextsRecord } {
    const token = randomBytes(12).toString('hex');
    const at: number[] = [];
    const get = (id: number): string | undefined => this.get(id) ?? missing?.(id);
    function* parts(): Generator<Uint8Array> {
      let offset = token.length + 1;
      // Written in batches of about a megabyte (one write per chunk would be ~130,000 writes at 10 M words).
      let batch: Buffer[] = [Buffer.from(`${token}\n`, 'latin1')];
      let batchBytes = 0;
      for (const id of ids) {
        const text = get(id);
        if (text === undefined) continue;
        const bytes = Buffer.from(text, 'utf8');
        at.push(id, offset, bytes.length);
        offset += bytes.length;
        batch.push(bytes);
        batchBytes += bytes.length;
        if (batchBytes >= 1 << 20) {
          yield Buffer.concat(batch);
          batch = [];
          batchBytes = 0;
        }
      }
      if (batch.length) yield Buffer.concat(batch);
    }
    return { parts: parts(), record: () => ({ token, at }) };
  }

  /**
   * The texts were written to `file` as `record` says: they are read from
   * there from now on, and the ones held in memory that it has are let go
   * (texts added while it was written stay held).
   */
  markSaved(file: string, record: ChunkTextsRecord): void {
    if (!this.attach(file, record)) return;
    for (let i = 0; i < record.at.length; i += 3) this.pending.delete(record.at[i]!);
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
}
