/**
 * The parsed parts (transcript and comments) of lazily held items, kept up to
 * a number of words, least recently used first out. An item whose parts are
 * not kept parses its files again, synchronously, when its `transcript` or
 * `comments` is next read: a 10 M-word corpus then holds a bounded share of
 * its parsed text in memory, and a warm start parses nothing until an item is
 * used. Everything else of the item (id, title, metadata, hash, word count)
 * stays on the item object.
 */
import { parseItemSync, type FoundItem } from './itemParse';
import type { CommentsPart, CorpusItem, ItemFacts, TranscriptPart } from './types';

interface Parts {
  transcript?: TranscriptPart;
  comments?: CommentsPart;
}

/** An item without its parts; its facts say which parts it has. */
export type ItemShell = Omit<CorpusItem, 'transcript' | 'comments' | 'facts'> & { facts: ItemFacts };

function wordsOf(p: Parts): number {
  return (p.transcript?.wordCount ?? 0) + (p.comments?.wordCount ?? 0);
}

export class PartStore {
  /** Parts by item id, least recently used first (a Map keeps insertion order). */
  private readonly kept = new Map<string, { hash: string; parts: Parts; words: number }>();
  private keptWords = 0;
  /** Items parsed again on demand since the store was made. */
  reparsed = 0;
  /** Called with the item's id each time an item is parsed again on demand (a caller counting which items a piece of work reads). */
  onReparse: ((itemId: string) => void) | undefined;

  /**
   * @param maxWords Words of parsed parts kept (the most recently used item is always kept).
   * @param onStale Called when an item parsed again no longer has the content hash it was loaded with (its files changed since): the corpus should be loaded again.
   */
  constructor(
    readonly maxWords: number,
    private readonly onStale?: (itemId: string) => void,
  ) {}

  get words(): number {
    return this.keptWords;
  }

  get items(): number {
    return this.kept.size;
  }

  /**
   * An item whose `transcript` and `comments` are read through this store.
   * `parts`, when given, are the ones just parsed (kept, so the first use
   * parses nothing).
   */
  item(shell: ItemShell, found: FoundItem, parts?: Parts): CorpusItem {
    const hasTranscript = shell.facts.segments !== null;
    const hasComments = shell.facts.comments !== null;
    if (parts) this.keep(shell.id, shell.contentHash, parts);
    const item = shell as CorpusItem;
    const get = (): Parts => this.partsOf(shell.id, shell.contentHash, found);
    Object.defineProperty(item, 'transcript', { enumerable: true, configurable: true, get: () => (hasTranscript ? get().transcript : undefined) });
    Object.defineProperty(item, 'comments', { enumerable: true, configurable: true, get: () => (hasComments ? get().comments : undefined) });
    return item;
  }

  private partsOf(id: string, hash: string, found: FoundItem): Parts {
    const hit = this.kept.get(id);
    if (hit && hit.hash === hash) {
      // Most recently used: to the end.
      this.kept.delete(id);
      this.kept.set(id, hit);
      return hit.parts;
    }
    this.reparsed++;
    this.onReparse?.(id);
    const r = parseItemSync(found, []);
    if (r.item?.contentHash !== hash) this.onStale?.(id);
    const parts = { transcript: r.item?.transcript, comments: r.item?.comments };
    this.keep(id, hash, parts);
    return parts;
  }

  private keep(id: string, hash: string, parts: Parts): void {
    const old = this.kept.get(id);
    if (old) {
      this.kept.delete(id);
      this.keptWords -= old.words;
    }
    const words = wordsOf(parts);
    this.kept.set(id, { hash, parts, words });
    this.keptWords += words;
    for (const [k, v] of this.kept) {
      if (this.keptWords <= this.maxWords || this.kept.size <= 1) break;
      this.kept.delete(k);
      this.keptWords -= v.words;
    }
  }

  /** Forgets the parts of items no longer in the corpus. */
  retain(ids: ReadonlySet<string>): void {
    for (const [k, v] of this.kept) {
      if (ids.has(k)) continue;
      this.kept.delete(k);
      this.keptWords -= v.words;
    }
  }
}
