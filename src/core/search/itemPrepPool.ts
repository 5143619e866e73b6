/**
 * Worker threads that read, parse and prepare items for the search index
 * (itemPrepWorker.ts): a first build of a large corpus spends most of its
 * time there, and the thread that builds the index then only adds what they
 * send (see openCorpusForSearch). Each worker numbers tokens its own way; its
 * replies bring the names, read here through one {@link NumberedTerms} per worker.
 *
 * The worker's file sits beside this module: `itemPrepWorker.js` beside the
 * bundle that includes this (dist/cli.js, dist/server.js, dist/extension.js:
 * esbuild.mjs builds it), `itemPrepWorker.ts` when run from the sources
 * (run with tsx, registered in the worker first). Without it, or
 * when a worker fails, items are parsed in this thread instead (same results).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseItemIsolated, type FoundItem, type LoadedItem } from '../corpus/itemParse';
import type { CorpusProblem } from '../corpus/types';
import type { ChunkOptions } from './chunker';
import { NumberedTerms, type PreparedItem } from './itemPrep';
import type { PrepReply, PrepRequest } from './itemPrepProtocol';

/** An item as a worker loaded it: without its parts (held lazily), with what was prepared of it for the index. */
export interface PreparedLoad {
  loaded: LoadedItem;
  prepared?: { item: PreparedItem; terms: NumberedTerms };
}

interface Pending {
  resolve: (r: PrepReply) => void;
  reject: (e: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  names: string[];
  terms: NumberedTerms;
  pending: Map<number, Pending>;
  dead: boolean;
}

/** Workers a first build uses by default: one per core when there are at least two (up to 4), else none. */
export function defaultPrepWorkers(): number {
  const cores = availableParallelism();
  return cores >= 2 ? Math.min(cores, 4) : 0;
}

/**
 * A parse makes many short-lived objects (a node per JSON value): a young
 * generation of 64 MB (about twice the default) halves a worker's time in the
 * garbage collector on the 10 M-word synthetic corpus (~1.5 -> ~0.7 s), for
 * some 100 MB more at most per worker.
 */
const WORKER_OPTIONS = { resourceLimits: { maxYoungGenerationSizeMb: 64 } };

/** A worker running the worker's file, or undefined when the file is not there. */
function newWorker(): Worker | undefined {
  const fromSources = __filename.endsWith('.ts');
  const file = path.join(__dirname, fromSources ? 'itemPrepWorker.ts' : 'itemPrepWorker.js');
  if (!existsSync(file)) return undefined;
  if (!fromSources) return new Worker(file, WORKER_OPTIONS);
  // From the sources (tests, benches under tsx): the worker registers tsx first (a worker does not get the process's `--import tsx`).
  const dir = JSON.stringify(__dirname);
  return new Worker(`require(require.resolve('tsx/cjs/api', { paths: [${dir}] })).register(); require(${JSON.stringify(file)});`, { ...WORKER_OPTIONS, eval: true });
}

export class ItemPrepPool {
  private seq = 0;
  private closed = false;

  private constructor(
    private readonly workers: PoolWorker[],
    private readonly chunk: ChunkOptions,
  ) {}

  /** Workers started. */
  get size(): number {
    return this.workers.length;
  }

  /** Starts `count` workers that prepare items with `chunk`; undefined (nothing started) when `count` < 1 or the worker's file is missing. */
  static start(count: number, chunk: ChunkOptions): ItemPrepPool | undefined {
    const workers: PoolWorker[] = [];
    for (let i = 0; i < count; i++) {
      const worker = newWorker();
      if (!worker) break;
      const names: string[] = [];
      const w: PoolWorker = { worker, names, terms: new NumberedTerms(names), pending: new Map(), dead: false };
      const fail = (e: Error): void => {
        w.dead = true;
        for (const p of w.pending.values()) p.reject(e);
        w.pending.clear();
      };
      w.worker.on('message', (r: PrepReply) => {
        // The names first: this reply's tokens may be numbered among them.
        for (const name of r.names) names.push(name);
        const p = w.pending.get(r.seq);
        w.pending.delete(r.seq);
        p?.resolve(r);
      });
      w.worker.on('error', fail);
      w.worker.on('messageerror', fail);
      w.worker.on('exit', (code) => fail(new Error(`item prep worker exited (${code})`)));
      workers.push(w);
    }
    return workers.length ? new ItemPrepPool(workers, chunk) : undefined;
  }

  /**
   * Reads, parses and prepares one item in a worker (the one with the fewest
   * items in hand); parsed here, without a prepared part, when no worker can.
   * Problems go to `problems`, as the loader's own parse reports them.
   */
  async prepare(found: FoundItem, problems: CorpusProblem[]): Promise<PreparedLoad> {
    const live = this.workers.filter((w) => !w.dead);
    const w = this.closed ? undefined : live.reduce<PoolWorker | undefined>((best, x) => (!best || x.pending.size < best.pending.size ? x : best), undefined);
    if (w) {
      try {
        const r = await this.ask(w, found);
        if (r.ok) {
          problems.push(...r.problems);
          const loaded: LoadedItem = { skipped: r.skipped, filesRead: r.filesRead, item: r.shell };
          return { loaded, prepared: r.prepared && { item: r.prepared, terms: w.terms } };
        }
      } catch {
        // The worker is gone: parsed here.
      }
    }
    return { loaded: await parseItemIsolated(found, problems) };
  }

  private ask(w: PoolWorker, found: FoundItem): Promise<PrepReply> {
    const seq = this.seq++;
    const request: PrepRequest = { seq, found, chunk: this.chunk };
    return new Promise<PrepReply>((resolve, reject) => {
      w.pending.set(seq, { resolve, reject });
      w.worker.postMessage(request);
    });
  }

  /** Stops the workers (an item asked for after this is parsed in this thread). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
