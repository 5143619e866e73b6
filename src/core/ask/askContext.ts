/**
 * Builds what asking needs for a loaded corpus: its search index, the entity
 * index (opened from `.marker-research/index/entities.json`, updated per item),
 * the markers, and optionally a vector searcher.
 */
import { loadSavedLanguages } from './crossLanguage/savedLanguages';
import type { Corpus } from '../corpus/types';
import type { ItemMarkers } from '../markers/schema';
import { readItemMarkers } from '../markers/store';
import { loadSavedCorpusSpam } from '../markers/spamStore';
import type { CorpusIndex } from '../search/corpusIndex';
import { throwIfAborted } from '../util/abort';
import { tagChinese } from './chineseTagger';
import { warmTranslation } from './crossLanguage/questionTranslation';
import { EntityIndex } from './entityIndex';
import type { AskContext, CitedSpan, VectorSearcher } from './types';

export interface OpenAskContextOptions {
  /** Markers per item; read from `.marker-research/markers/` when not given. */
  markers?: ReadonlyMap<string, ItemMarkers>;
  vectors?: VectorSearcher;
  citations?: readonly CitedSpan[];
  signal?: AbortSignal;
}

/** Reads the persisted markers of every item that has them (missing or invalid files are skipped). */
export async function readAllMarkers(corpus: Corpus): Promise<Map<string, ItemMarkers>> {
  const out = new Map<string, ItemMarkers>();
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    if (r.ok) out.set(item.id, r.value);
  }
  return out;
}

/**
 * @example
 * const { index } = await CorpusIndex.open(corpus);
 * const ctx = await openAskContext(corpus, index);
 * const result = await askCorpus(ctx, { question: 'What do viewers think of the guest?' });
 */
export async function openAskContext(corpus: Corpus, index: CorpusIndex, opts: OpenAskContextOptions = {}): Promise<AskContext> {
  const { index: entities } = await EntityIndex.open(corpus);
  throwIfAborted(opts.signal);
  const markers = opts.markers ?? (await readAllMarkers(corpus));
  // The corpus's saved spam decision, when it is current: every reader of comments then finds it (nothing parsed to decide it).
  await loadSavedCorpusSpam(corpus);
  // The items' languages worked out by an earlier process: a first corpus-wide question does not judge every item again.
  await loadSavedLanguages(corpus);
  return { corpus, index, entities, markers, ...(opts.vectors ? { vectors: opts.vectors } : {}), ...(opts.citations ? { citations: opts.citations } : {}) };
}

/**
 * Pays the one-time costs of a first question ahead of it: the name lookup of the entity index
 * and, when the corpus or the questions may be Chinese, the Chinese tagger's dictionary (~0.3 s),
 * and the bilingual dictionary of questions across languages (crossLanguage/, ~1–2 s).
 */
export function warmUp(ctx: AskContext): void {
  ctx.entities.names();
  tagChinese('预热');
  warmTranslation(ctx);
}
