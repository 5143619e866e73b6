/**
 * The corpus requests: index (load the corpus, open its persisted index, read
 * its markers), generate markers, the Corpus & Markers view's state, and the
 * engine's summary and stats. Tells the client when the state changed.
 */
import * as path from 'node:path';
import { mapSpan } from '../core/corpus/spans';
import type { CorpusItem, TextRange } from '../core/corpus/types';
import { allMarkers } from '../core/markers/store';
import type { Chunk } from '../core/search/chunker';
import { retrieve } from '../core/search/retrieve';
import { sidebarStateOf } from '../shared/sidebarModel';
import {
  corpusSummaryRequest, engineChangedNotification, engineStatsRequest, generateMarkersRequest, indexRequest, searchRequest, SIDEBAR_STATE_PIECE_CHARS, sidebarStatePieceRequest, sidebarStateRequest,
  type EngineChangedParams,
} from '../shared/lspProtocol';
import type { CorpusEngine } from './corpusEngine';
import type { HandlerContext } from './handlerContext';
import { modelAccessOf } from './requestParams';
import { SidebarItems } from './sidebarItems';
import { guarded, runWork } from './work';

/** Registers the corpus requests; returns the Corpus view's kept items (saved at shutdown). */
export function registerCorpusHandlers(ctx: HandlerContext, engine: CorpusEngine): SidebarItems {
  const { connection, running } = ctx;
  const sidebarItems = new SidebarItems(engine.log);
  const changed = (what: EngineChangedParams['what']): void => {
    const root = engine.current()?.root;
    if (root) void connection.sendNotification(engineChangedNotification, { root, what, generating: engine.generating });
  };
  engine.onDidLoad(() => changed('corpus'));
  engine.onDidChangeMarkers(() => changed('markers'));
  engine.onDidChangeGenerating(() => changed('generating'));

  connection.onRequest(indexRequest, (params, token) =>
    runWork(connection, running, { title: 'Marker Research: indexing corpus', workDoneToken: params.workDoneToken, token }, async (signal, onProgress) => {
      const started = Date.now();
      const corpus = await engine.load(params.root, signal, onProgress);
      // The search index is opened (loaded, updated or built) while the view shows the markers; failures are logged.
      engine.searchIndex(corpus).catch((e: Error) => engine.log.error(`search index of ${corpus.root} failed: ${e.message}`));
      const s = corpus.stats;
      return { root: corpus.root, items: s.items, words: s.words, comments: s.comments, problems: corpus.problems.filter((p) => p.severity !== 'info').length, ms: Date.now() - started };
    }),
  );

  connection.onRequest(generateMarkersRequest, (params, token) =>
    runWork(connection, running, { title: `Marker Research: generating markers (${params.settings.provider})`, workDoneToken: params.workDoneToken, token }, (signal, onProgress) =>
      engine.generate(params.mode, modelAccessOf(params), signal, onProgress),
    ),
  );

  /** The last serialised view state, kept while its pieces are fetched. */
  let serialized = { seq: 0, json: '' };
  connection.onRequest(
    sidebarStateRequest,
    guarded(async ({ extras }) => {
      const corpus = engine.current();
      if (!corpus) return null;
      const items = await sidebarItems.of(corpus, engine.markers(), (id) => engine.markerStamp(id));
      const state = sidebarStateOf(corpus, items, { generating: engine.generating, ...(extras ?? {}) });
      const json = JSON.stringify(state);
      serialized = { seq: serialized.seq + 1, json };
      return {
        json: json.slice(0, SIDEBAR_STATE_PIECE_CHARS),
        pieces: Math.max(1, Math.ceil(json.length / SIDEBAR_STATE_PIECE_CHARS)),
        seq: serialized.seq,
        status: state.status,
        items: state.items.length,
        itemsWithMarkers: state.items.filter((i) => i.markers).length,
      };
    }),
  );
  connection.onRequest(
    sidebarStatePieceRequest,
    guarded(({ seq, index }) => {
      if (seq !== serialized.seq || !Number.isInteger(index) || index < 1) return null;
      const json = serialized.json.slice(index * SIDEBAR_STATE_PIECE_CHARS, (index + 1) * SIDEBAR_STATE_PIECE_CHARS);
      return json ? { json } : null;
    }),
  );

  connection.onRequest(
    searchRequest,
    guarded(async ({ query, itemIds, limit }) => {
      const started = Date.now();
      const corpus = engine.requireCorpus();
      const index = await engine.searchIndex(corpus);
      const ranked = retrieve(index, query, { ...(itemIds?.length ? { itemIds } : {}), budgetWords: 0 }).ranked.slice(0, limit ?? 10);
      const hits = ranked.map((r, i) => {
        const { itemId, part, start, end } = r.chunk;
        const item = engine.item(itemId);
        const place = item && storedPlace(corpus.root, item, r.chunk);
        // Without the place the index kept (an index saved before it kept places), the item is parsed for its span.
        const src = place ? undefined : item ? mapSpan(item, { part, start, end }) : undefined;
        return {
          rank: i + 1,
          itemId,
          title: item?.title ?? itemId,
          part,
          start,
          end,
          score: Math.round(r.listScore * 1000) / 1000,
          file: place?.file ?? src?.file.path ?? null,
          range: place?.range ?? src?.range ?? null,
          text: index.chunkTextOf(r.id) ?? '',
        };
      });
      return { hits, ms: Date.now() - started };
    }),
  );

  connection.onRequest(corpusSummaryRequest, () => {
    const corpus = engine.current();
    let markers = 0;
    for (const e of engine.markers().values()) if (e.ok) markers += allMarkers(e.value).length;
    return { root: corpus?.root ?? null, items: corpus?.items.length ?? 0, problems: corpus?.problems.length ?? 0, markers };
  });

  connection.onRequest(engineStatsRequest, () => {
    const m = process.memoryUsage();
    const corpus = engine.current();
    return { rssBytes: m.rss, heapUsedBytes: m.heapUsed, filesParsed: engine.filesParsed, itemsReparsed: engine.parts.reparsed, partsWordsKept: engine.parts.words, items: corpus?.items.length ?? 0, words: corpus?.stats.words ?? 0, searchIndexReady: engine.searchIndexReady };
  });
  return sidebarItems;
}

/** A hit's file and range from what the index kept of its chunk (no parse of the item), when it kept them. */
function storedPlace(root: string, item: CorpusItem, chunk: Chunk): { file: string; range: TextRange } | undefined {
  const rel = chunk.part === 'transcript' ? item.facts?.transcriptFile : item.facts?.commentsFile;
  if (!chunk.range || !rel) return undefined;
  const [startLine, startColumn, endLine, endColumn] = chunk.range;
  return { file: path.join(root, ...rel.split('/')), range: { startLine, startColumn, endLine, endColumn } };
}
