/**
 * The messages between {@link ItemPrepPool} (itemPrepPool.ts) and its worker
 * threads (itemPrepWorker.ts): an item to read, parse and prepare; the item
 * without its parts, its problems and what was prepared of it, or why that failed.
 */
import type { FoundItem } from '../corpus/itemParse';
import type { ItemShell } from '../corpus/partStore';
import type { CorpusProblem } from '../corpus/types';
import type { ChunkOptions } from './chunker';
import type { PreparedItem } from './itemPrep';

export interface PrepRequest {
  seq: number;
  found: FoundItem;
  chunk: ChunkOptions;
}

/** Every reply brings the token names the worker numbered since its previous reply, in order. */
export type PrepReply =
  | {
      seq: number;
      ok: true;
      skipped: number;
      filesRead: number;
      problems: CorpusProblem[];
      /** The item without its parts, when the files made one. */
      shell?: ItemShell;
      prepared?: PreparedItem;
      names: string[];
    }
  | { seq: number; ok: false; error: string; names: string[] };
