/**
 * The "Across items" requests of the engine (issue 24): all markers of a kind or a topic across
 * items, two or more items side by side, and the items on a timeline. Built by core
 * (`src/core/across/`) from the indexed corpus and the marker files the engine holds; params are
 * checked with the models' zod schemas (`src/shared/acrossModel.ts`).
 */
import { compareItems } from '../core/across/compareItems';
import type { AcrossCorpus } from '../core/across/markerSelection';
import { markersAcross } from '../core/across/markersAcross';
import { itemTimeline } from '../core/across/timeline';
import type { ItemMarkers } from '../core/markers/schema';
import { acrossQuerySchema, compareQuerySchema, timelineQuerySchema } from '../shared/acrossModel';
import { compareItemsRequest, itemTimelineRequest, markersAcrossRequest } from '../shared/workbenchProtocol';
import type { EngineState } from './engineState';
import type { HandlerContext } from './handlerContext';
import { parseParams } from './requestParams';
import { guarded } from './work';

/** The markers the engine holds for the indexed corpus (items whose marker file was read). */
export function corpusMarkers(state: EngineState): Map<string, ItemMarkers> {
  const out = new Map<string, ItemMarkers>();
  for (const [id, e] of state.markers()) if (e.ok) out.set(id, e.value);
  return out;
}

/** The indexed corpus's items with their markers (`no-corpus` before the first index). */
function acrossCorpus(state: EngineState): AcrossCorpus {
  return { items: state.requireCorpus().items, markers: corpusMarkers(state) };
}

export function registerAcrossHandlers(ctx: HandlerContext): void {
  const { connection, state } = ctx;

  connection.onRequest(
    markersAcrossRequest,
    guarded((raw) => markersAcross(acrossCorpus(state), parseParams(acrossQuerySchema, raw ?? {}, markersAcrossRequest.method))),
  );

  connection.onRequest(
    compareItemsRequest,
    guarded((raw) => compareItems(acrossCorpus(state), parseParams(compareQuerySchema, raw, compareItemsRequest.method))),
  );

  connection.onRequest(
    itemTimelineRequest,
    guarded((raw) => itemTimeline(acrossCorpus(state), parseParams(timelineQuerySchema, raw ?? {}, itemTimelineRequest.method))),
  );
}
