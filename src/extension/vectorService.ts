/**
 * Vectors for the Ask box: when `markerResearch.embeddingModel` is set (with
 * an `openai` or `ollama` provider), embeds the windows of the corpus that
 * have no vector yet — with progress and cancel — and gives the ask context a
 * vector searcher. Without an embedding model, or when embedding fails, there
 * are no vectors and the other strategies answer (the failure is shown once).
 */
import * as vscode from 'vscode';
import { createVectorSearcher } from '../core/ask/strategies/vector';
import type { VectorSearcher } from '../core/ask/types';
import { syncVectors } from '../core/ask/vectorSync';
import type { Corpus } from '../core/corpus/types';
import { createEmbeddingClient } from '../core/llm/embeddings';
import { isCancellation } from '../core/llm/types';
import type { CorpusIndex } from '../core/search/corpusIndex';
import type { ApiKeyStore } from './markerService';
import { withCancellableProgress } from './runningWork';
import type { SettingsService } from './settings';

const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;

export class VectorService {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: SettingsService,
    private readonly apiKey: ApiKeyStore,
    private readonly searchIndex: (corpus: Corpus) => Promise<CorpusIndex>,
  ) {}

  /** True when the settings ask for vectors. */
  get enabled(): boolean {
    const s = this.settings.value;
    return s.provider !== 'extractive' && s.embeddingModel.trim() !== '';
  }

  /** The vector searcher of `corpus` (its vectors brought up to date first), or undefined without an embedding model or after a failure. */
  readonly provider = async (corpus: Corpus): Promise<VectorSearcher | undefined> => {
    const s = this.settings.value;
    if (s.provider === 'extractive' || !s.embeddingModel.trim()) return undefined;
    const apiKey = await this.apiKey.get();
    if (s.provider === 'openai' && !s.baseUrl.trim() && !apiKey) {
      void vscode.window.showWarningMessage('Marker Research: vectors are off — the openai provider needs an API key for embeddings. Run "Marker Research: Set API Key".');
      return undefined;
    }
    try {
      const client = createEmbeddingClient({ provider: s.provider, baseUrl: s.baseUrl.trim() || DEFAULT_BASE_URL[s.provider], model: s.embeddingModel.trim(), apiKey }, { log: this.log });
      const index = await this.searchIndex(corpus);
      const { store, report } = await withCancellableProgress(`Marker Research: embedding the corpus (${s.embeddingModel.trim()})`, (signal, onProgress) =>
        syncVectors(corpus, index, client, { signal, onProgress, log: this.log }),
      );
      this.log.info(`vectors (${client.model}): ${report.embedded} windows embedded, ${report.reused} reused, ${report.removed} removed in ${report.ms} ms`);
      for (const p of report.problems) this.log.warn(`vectors: ${p}`);
      return createVectorSearcher(store, index, client);
    } catch (e) {
      const why = (e as Error).message.replace(/^llm: /, '');
      if (isCancellation(e)) this.log.info('vectors: embedding cancelled; asking without vectors');
      else {
        this.log.warn(`vectors: embedding the corpus failed: ${why}`);
        void vscode.window.showWarningMessage(`Marker Research: asking without vectors — embedding the corpus failed: ${why}`, 'Show Logs').then((a) => (a ? this.log.show() : undefined));
      }
      return undefined;
    }
  };
}
