/**
 * The parsed parts (transcript and comments) of lazily held items, kept up to
 * a number of words, least recently used first out. An item whose part is
 * not kept parses that part's file again, synchronously, when its `transcript`
 * or `comments` is next read (its other files are read for the content hash,
 * not parsed: a hit in a transcript does not parse the item's thousands of
 * comments): a 10 M-word corpus then holds a bounded share of
 * its parsed text in memory, and a warm start parses nothing until an item is
 * used. Everything else of the item (id, title, metadata, hash, word count)
 * stays on the item object.
 */
import { parseItemPartSync, type FoundItem } from './itemParse';
import type { CommentsPart, CorpusItem, ItemFacts, TranscriptPart } from './types';

interface Parts {
  transcript?: TranscriptPart;
  comments?: CommentsPart;
}

/** Parts kept of an item, and which of them were parsed (a part parsed and absent is undefined). */
interface KeptParts extends Parts {
  parsed: ReadonlySet<keyof Parts>;
}

const BOTH: ReadonlySet<keyof Parts> = new Set(['transcript', 'comments']);

/** An item without its parts; its facts say which parts it has. */
export type ItemShell = Omit<CorpusItem, 'transcript' | 'comments' | 'facts'> & { facts: ItemFacts };

function wordsOf(p: Parts): number {
  return (p.transcript?.wordCount ?? 0) + (p.comments?.wordCount ?? 0);
}

export class PartStore {
  /** Parts by item id, least recently used first (a Map keeps insertion order). */
  private readonly kept = new Map<string, { hash: string; parts: KeptParts; words: number }>();
  private keptWords = 0;
  /** Items parsed again on demand since the store was made. */
  reparsed = 0;
  /** Parts parsed again on demand since the store was made, by part (an item's other part is not parsed with it). */
  readonly partsParsed = { transcript: 0, comments: 0 };
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
    if (parts) this.keep(shell.id, shell.contentHash, { ...parts, parsed: BOTH });
    const item = shell as CorpusItem;
    Object.defineProperty(item, 'transcript', { enumerable: true, configurable: true, get: () => (hasTranscript ? this.partOf(shell.id, shell.contentHash, found, 'transcript') : undefined) });
    Object.defineProperty(item, 'comments', { enumerable: true, configurable: true, get: () => (hasComments ? this.partOf(shell.id, shell.contentHash, found, 'comments') : undefined) });
    return item;
  }

  /** One part of an item: kept, else parsed again — that part only (a transcript asked for does not parse the comments). */
  private partOf<K extends keyof Parts>(id: string, hash: string, found: FoundItem, kind: K): Parts[K] {
    const hit = this.kept.get(id);
    if (hit && hit.hash === hash) {
      // Most recently used: to the end.
      this.kept.delete(id);
      this.kept.set(id, hit);
      if (hit.parts.parsed.has(kind)) return hit.parts[kind];
    }
    // Counted per item: its other part parsed later (still kept) is the same item read again.
    if (!hit || hit.hash !== hash) {
      this.reparsed++;
      this.onReparse?.(id);
    }
    this.partsParsed[kind]++;
    const r = parseItemPartSync(found, kind, []);
    if (r.contentHash !== hash) this.onStale?.(id);
    const known = hit && hit.hash === hash ? hit.parts : { parsed: new Set<keyof Parts>() };
    const parts: KeptParts = { ...known, [kind]: r.part, parsed: new Set([...known.parsed, kind]) };
    this.keep(id, hash, parts);
    return parts[kind];
  }

  private keep(id: string, hash: string, parts: KeptParts): void {
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
