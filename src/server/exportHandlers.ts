/**
 * The export requests of the engine: the markers of the indexed corpus (CSV
 * or JSON), the report of a run (Markdown or HTML, with the corpus's titles
 * and quotes) and the linked copy of a report the Markdown preview shows.
 * Core formats and writes (src/core/export); the extension only picks where.
 * Core's `ExportError`s cross as engine errors with their reason and message.
 */
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import { z } from 'zod';
import type { Corpus } from '../core/corpus/types';
import { ExportError, exportMarkersFile, exportReportFile, writeReportPreview } from '../core/export/exportFiles';
import type { ItemMarkers } from '../core/markers/schema';
import { allMarkers } from '../core/markers/store';
import { exportMarkersRequest, exportReportRequest, reportPreviewRequest, type ExportMarkersResult } from '../shared/lspProtocol';
import { EngineError, type EngineState } from './engineState';
import type { HandlerContext } from './handlerContext';
import { parseParams } from './requestParams';
import { guarded } from './work';

const absoluteFile = z.string().refine((f) => path.isAbsolute(f), 'an absolute path');
const exportMarkersParams = z.object({ file: absoluteFile.optional() });
const exportReportParams = z.object({ runId: z.string().min(1), file: absoluteFile });
const reportPreviewParams = z.object({ runId: z.string().min(1) });

/** Core's export errors as engine errors (same reason, same `export: …` message). */
async function exporting<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ExportError) throw new EngineError(e.reason, e.message);
    throw e;
  }
}

function requireCorpus(state: EngineState): Corpus {
  const corpus = state.current();
  if (!corpus) throw new ExportError('no-corpus', l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first'));
  return corpus;
}

/** The markers the engine holds for the indexed corpus (items whose marker file was read). */
function corpusMarkers(state: EngineState): Map<string, ItemMarkers> {
  const out = new Map<string, ItemMarkers>();
  for (const [id, e] of state.markers()) if (e.ok) out.set(id, e.value);
  return out;
}

export function registerExportHandlers(ctx: HandlerContext): void {
  const { connection, state } = ctx;

  connection.onRequest(
    exportMarkersRequest,
    guarded((raw) =>
      exporting(async (): Promise<ExportMarkersResult> => {
        const params = parseParams(exportMarkersParams, raw, exportMarkersRequest.method);
        const corpus = requireCorpus(state);
        const markers = corpusMarkers(state);
        if (!markers.size) throw new ExportError('no-markers', l10n.t('no item has markers yet; run "Marker Research: Generate Markers" first'));
        if (!params.file) {
          let n = 0;
          for (const m of markers.values()) n += allMarkers(m).length;
          return { markers: n, items: markers.size, format: null, file: null };
        }
        const r = await exportMarkersFile(corpus, markers, params.file);
        state.log.info(`export: ${r.markers} markers of ${r.items} items → ${params.file}`);
        return { ...r, file: params.file };
      }),
    ),
  );

  connection.onRequest(
    exportReportRequest,
    guarded((raw) =>
      exporting(async () => {
        const params = parseParams(exportReportParams, raw, exportReportRequest.method);
        const r = await exportReportFile(requireCorpus(state), params.runId, params.file);
        state.log.info(`export: report of run ${r.runId} (${r.citations} citations) → ${params.file}`);
        return { ...r, file: params.file };
      }),
    ),
  );

  connection.onRequest(
    reportPreviewRequest,
    guarded((raw) =>
      exporting(async () => {
        const params = parseParams(reportPreviewParams, raw, reportPreviewRequest.method);
        return { file: await writeReportPreview(requireCorpus(state), params.runId) };
      }),
    ),
  );
}
