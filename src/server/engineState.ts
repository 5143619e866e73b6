/**
 * What every handler of the server may use: the loaded corpus, its search
 * index and markers (owned by the corpus engine, `corpusEngine.ts`), the
 * log, the prompts folder. Handlers never keep their own copy of a corpus.
 */
import type { Corpus, CorpusItem } from '../core/corpus/types';
import type { CorpusIndex } from '../core/search/corpusIndex';
import type { Logger } from '../core/util/log';
import type { MarkerEntry } from '../shared/sidebarModel';

/** A failure the user can act on; `reason` crosses the protocol (`ENGINE_ERROR_CODE`). */
export class EngineError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface Disposable {
  dispose(): void;
}

export interface EngineState {
  readonly log: Logger;
  /** The extension's `prompts/` folder. */
  readonly promptsDir: string;
  /** The indexed corpus, or undefined before the first index. */
  current(): Corpus | undefined;
  /** The indexed corpus; an `EngineError('no-corpus')` before the first index. */
  requireCorpus(): Corpus;
  /** An item of the indexed corpus. */
  item(itemId: string): CorpusItem | undefined;
  /** The search index of `corpus` (the persisted one, opened once per loaded corpus). */
  searchIndex(corpus: Corpus): Promise<CorpusIndex>;
  /** The marker files read for the indexed corpus, by item id. */
  markers(): ReadonlyMap<string, MarkerEntry>;
  /** Fires after a corpus was (re)loaded. */
  onDidLoad(listener: (corpus: Corpus) => void): Disposable;
  /** Fires after markers were read or written. */
  onDidChangeMarkers(listener: () => void): Disposable;
}
