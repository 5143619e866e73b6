/**
 * The evidence requests of the engine (src/shared/lspProtocol.ts):
 * the readable view of an item, where a marker, spans or a place of the
 * readable view open, and (exportHandlers.ts) the exports. Params are checked
 * against their schemas; a malformed request is refused (`bad-request`).
 */
import { z } from 'zod';
import {
  originalPlaceRequest, readableDocumentRequest, readableSpansRequest, resolveMarkerRequest,
  type ReadableDocument,
} from '../shared/lspProtocol';
import { EVIDENCE_VIEWS } from '../shared/settings';
import { originalPlace, readableSpans, resolveMarker } from './evidenceResolve';
import { registerExportHandlers } from './exportHandlers';
import type { HandlerContext } from './handlerContext';
import { ReadableLayouts } from './readableLayouts';
import { parseParams } from './requestParams';
import { guarded } from './work';

const offset = z.number().int().nonnegative();
const part = z.enum(['transcript', 'comments']);
const partSpan = z.object({ part, start: offset, end: offset });

const readableDocumentParams = z.object({ itemId: z.string(), withText: z.boolean().optional() });
const readableSpansParams = z.object({ itemId: z.string(), spans: z.array(partSpan) });
const resolveMarkerParams = z.object({ itemId: z.string(), markerId: z.string(), view: z.enum(EVIDENCE_VIEWS) });
const originalPlaceParams = z.union([partSpan.extend({ itemId: z.string() }), z.object({ itemId: z.string(), line: offset, character: offset })]);

export function registerEvidenceHandlers(ctx: HandlerContext): void {
  const { connection, state } = ctx;
  const layouts = new ReadableLayouts(state);

  connection.onRequest(
    readableDocumentRequest,
    guarded((raw): ReadableDocument | null => {
      const params = parseParams(readableDocumentParams, raw, readableDocumentRequest.method);
      const item = state.item(params.itemId);
      if (!item) return null;
      const { layout, links, files, annotations } = layouts.get(item);
      return { itemId: item.id, ...(params.withText ? { text: layout.text } : {}), textLength: layout.text.length, lineCount: layout.lineCount, links, files, annotations };
    }),
  );

  connection.onRequest(
    readableSpansRequest,
    guarded((raw) => {
      const params = parseParams(readableSpansParams, raw, readableSpansRequest.method);
      return readableSpans(state, layouts, params.itemId, params.spans);
    }),
  );

  connection.onRequest(
    resolveMarkerRequest,
    guarded((raw) => {
      const params = parseParams(resolveMarkerParams, raw, resolveMarkerRequest.method);
      return resolveMarker(state, layouts, params.itemId, params.markerId, params.view);
    }),
  );

  connection.onRequest(
    originalPlaceRequest,
    guarded((raw) => originalPlace(state, layouts, parseParams(originalPlaceParams, raw, originalPlaceRequest.method))),
  );

  registerExportHandlers(ctx);
}
