/** Holds the loaded corpus of the workspace and tells listeners when it changes. */
import * as vscode from 'vscode';
import { loadCorpus } from '../core/corpus/loader';
import { formatProblem, type Corpus } from '../core/corpus/types';
import type { ProgressSink } from '../core/util/abort';

export class CorpusService implements vscode.Disposable {
  private corpus: Corpus | undefined;
  private readonly emitter = new vscode.EventEmitter<Corpus>();
  readonly onDidLoad = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {}

  get current(): Corpus | undefined {
    return this.corpus;
  }

  /** Loads (or reloads) the corpus at `root`. */
  async load(root: string, signal?: AbortSignal, onProgress?: ProgressSink): Promise<Corpus> {
    const started = Date.now();
    this.log.info(`indexing corpus ${root}`);
    const corpus = await loadCorpus(root, { signal, onProgress });
    const s = corpus.stats;
    this.log.info(`indexed ${s.items} items (${s.words} words, ${s.comments} comments) in ${Date.now() - started} ms; ${corpus.problems.length} problems, ${s.skipped} skipped`);
    for (const p of corpus.problems) {
      const line = formatProblem(p);
      if (p.severity === 'error') this.log.error(line);
      else if (p.severity === 'warning') this.log.warn(line);
      else this.log.info(line);
    }
    this.corpus = corpus;
    this.emitter.fire(corpus);
    return corpus;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
