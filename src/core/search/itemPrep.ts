/**
 * An item's search documents made ready to be indexed: its chunks (with their
 * places in the files), their texts as UTF-8 and their tokens as numbers of a
 * {@link TokenNumbering} — everything of indexing an item that needs its
 * parsed parts but none of the index. The index adds a prepared item in
 * order, numbering the tokens as its terms ({@link NumberedTerms}); an item can
 * so be prepared where it was parsed (a worker thread, see itemPrepPool.ts)
 * and sent as a few arrays.
 */
import { mapSpanInPart } from '../corpus/spans';
import type { CorpusItem } from '../corpus/types';
import { chunkItem, chunkText, type Chunk, type ChunkOptions } from './chunker';
import type { PostingsIndex } from './postings';
import { TokenNumbering } from './tokenize';

export interface PreparedItem {
  itemId: string;
  contentHash: string;
  /** Transcript windows, then comments, each with its range in its file when it has one. */
  chunks: Chunk[];
  /** The chunks' texts in UTF-8, one after the other: chunk `i`'s ends at `textEnds[i]`. */
  textBytes: Uint8Array;
  textEnds: Uint32Array;
  /**
   * Token numbers: the title's (with the item id's words), then per chunk
   * its text's and its speakers'. `tokenEnds[0]` is where the title's end,
   * `tokenEnds[1 + 2i]` and `tokenEnds[2 + 2i]` where chunk `i`'s text's and speakers' do.
   */
  tokens: Int32Array;
  tokenEnds: Int32Array;
}

/**
 * Prepares `item` (its parts are read) with token numbers of `numbering`.
 *
 * @example
 * const numbering = new TokenNumbering();
 * const p = prepareItem(item, DEFAULT_CHUNK_OPTIONS, numbering);
 * p.chunks.length; numbering.names[p.tokens[0]]; // the title's first token
 */
export function prepareItem(item: CorpusItem, options: ChunkOptions, numbering: TokenNumbering): PreparedItem {
  const tokens: number[] = [];
  // The item id's words count with the title: folder names are often descriptive ("ev-winter-range"), and in another language than the item.
  numbering.add(`${item.title} ${item.id.replace(/[-_.]+/g, ' ')}`, tokens);
  const chunks = chunkItem(item, options);
  const tokenEnds = new Int32Array(1 + 2 * chunks.length);
  tokenEnds[0] = tokens.length;
  const texts: string[] = [];
  const textEnds = new Uint32Array(chunks.length);
  let bytes = 0;
  for (const [i, c] of chunks.entries()) {
    const part = c.part === 'transcript' ? item.transcript : item.comments;
    const src = part && mapSpanInPart(part, c.start, c.end);
    if (src) c.range = [src.range.startLine, src.range.startColumn, src.range.endLine, src.range.endColumn];
    const text = chunkText(item, c);
    texts.push(text);
    bytes += Buffer.byteLength(text, 'utf8');
    textEnds[i] = bytes;
    numbering.add(text, tokens);
    tokenEnds[1 + 2 * i] = tokens.length;
    if (c.speakers) numbering.add(c.speakers.join(' '), tokens);
    tokenEnds[2 + 2 * i] = tokens.length;
  }
  const textBytes = Buffer.alloc(bytes);
  let at = 0;
  for (const text of texts) at += textBytes.write(text, at, 'utf8');
  return { itemId: item.id, contentHash: item.contentHash, chunks, textBytes, textEnds, tokens: Int32Array.from(tokens), tokenEnds };
}

/**
 * The terms of a postings index for the numbers of one {@link TokenNumbering}
 * (whose `names` this reads: the numbering may be in another thread, its new
 * names sent along), each looked up once.
 */
export class NumberedTerms {
  /** Per token number, its term's number + 1 (0: not looked up yet). */
  private terms = new Int32Array(1024);
  private epoch = 0;

  constructor(readonly names: string[]) {}

  /**
   * Writes the term numbers in `postings` of `tokens[from, to)` to `out` from
   * `at`, in order (a new term is numbered as it is met); returns where they end.
   */
  map(postings: PostingsIndex, tokens: Int32Array, from: number, to: number, out: Int32Array, at: number): number {
    if (this.epoch !== postings.termEpoch) {
      this.terms.fill(0);
      this.epoch = postings.termEpoch;
    }
    for (let i = from; i < to; i++) {
      const n = tokens[i]!;
      if (n >= this.terms.length) this.grow(n);
      let t = this.terms[n]! - 1;
      if (t < 0) {
        t = postings.termNumber(this.names[n]!);
        this.terms[n] = t + 1;
      }
      out[at++] = t;
    }
    return at;
  }

  private grow(n: number): void {
    let capacity = this.terms.length;
    while (capacity <= n) capacity *= 2;
    const terms = new Int32Array(capacity);
    terms.set(this.terms);
    this.terms = terms;
  }
}
