/**
 * The approximate nearest-neighbour index under the vector store: an HNSW graph from `usearch`
 * (Unum, Apache-2.0; an N-API addon with prebuilt binaries for linux x64/arm64, macOS and
 * Windows, so it loads in Node, in VS Code's Electron and in code-server without a compiler).
 * Vectors are L2-normalised by the store and compared by inner product (= cosine), kept in
 * half precision (f16) inside the graph; the store re-scores every candidate from its own
 * float32 copy, so scores are exact and only recall is approximate.
 *
 * The addon is loaded on first use; when it cannot load (an unsupported platform, a damaged
 * install) {@link loadAnn} says why and the store keeps its exact scan.
 */
import { rename, rm } from 'node:fs/promises';
import type * as Usearch from 'usearch';

/** HNSW parameters: edges per node, candidate list while adding and (at least) while searching. */
export const ANN_PARAMS = { connectivity: 16, expansionAdd: 64, expansionSearch: 64, quantization: 'f16' } as const;

let loaded: typeof Usearch | string | undefined;

/**
 * The `usearch` addon, or why it cannot be loaded (asked once per process).
 *
 * In the bundles (`dist/`) the library's JavaScript is bundled and finds its binaries in
 * `dist/prebuilds/<platform>-<arch>/usearch.node` (copied there by `esbuild.mjs`); from the
 * sources it is `node_modules/usearch`.
 */
export function loadAnn(): typeof Usearch | string {
  if (loaded === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require('usearch') as typeof Usearch;
    } catch (error) {
      loaded = `the usearch addon does not load on ${process.platform}-${process.arch} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    }
  }
  return loaded;
}

/** For tests: behave as if the addon were missing (`reason`) or load it again (undefined). */
export function simulateAnnUnavailable(reason: string | undefined): void {
  loaded = reason;
}

/** One HNSW index of `dims`-dimensional unit vectors, keyed by non-negative integers. */
export class AnnIndex {
  readonly #index: Usearch.Index;

  private constructor(
    readonly dims: number,
    index: Usearch.Index,
  ) {
    this.#index = index;
  }

  /**
   * An empty index.
   * @throws Error when the addon is unavailable ({@link loadAnn} says why).
   */
  static create(dims: number): AnnIndex {
    const lib = loadAnn();
    if (typeof lib === 'string') throw new Error(`vectors: ${lib}`);
    const index = new lib.Index({
      dimensions: dims,
      metric: lib.MetricKind.IP,
      quantization: lib.ScalarKind.F16,
      connectivity: ANN_PARAMS.connectivity,
      expansion_add: ANN_PARAMS.expansionAdd,
      expansion_search: ANN_PARAMS.expansionSearch,
      multi: false,
    });
    return new AnnIndex(dims, index);
  }

  /**
   * The index saved in `file`.
   * @throws Error when the addon is unavailable or the file is unreadable or of other dimensions.
   */
  static load(file: string, dims: number): AnnIndex {
    const ann = AnnIndex.create(dims);
    ann.#index.load(file);
    if (ann.#index.dimensions() !== dims) throw new Error(`vectors: the ANN index has ${ann.#index.dimensions()} dimensions, the store ${dims}`);
    return ann;
  }

  /** Vectors held. */
  get size(): number {
    return this.#index.size();
  }

  /** Adds `keys.length` vectors, row after row in `vectors`, using up to `threads` threads. */
  add(keys: readonly number[], vectors: Float32Array, threads = 1): void {
    if (keys.length === 0) return;
    this.#index.add(BigUint64Array.from(keys, BigInt), vectors, threads);
  }

  /** Removes the vectors of `keys` (absent keys are ignored). */
  remove(keys: readonly number[]): void {
    if (keys.length > 0) this.#index.remove(BigUint64Array.from(keys, BigInt));
  }

  /** The keys of (about) the `k` vectors nearest to the unit vector `query`, best first. */
  search(query: Float32Array, k: number): number[] {
    if (this.size === 0 || k <= 0) return [];
    const { keys } = this.#index.search(query, Math.min(k, this.size), 1) as Usearch.Matches;
    return Array.from(keys, Number);
  }

  /** Writes the index to `file` through a temporary file beside it (a reader never sees half a file). */
  async save(file: string): Promise<void> {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      this.#index.save(tmp);
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}
