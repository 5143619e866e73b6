/**
 * "Export Project (REFI-QDA)…" in the engine (issue 24): the indexed corpus, its codebook, coded
 * segments and notebook (and, when asked, its markers as codes) written as a `.qdpx` by core
 * (`src/core/workbench/qdpxExportFile.ts`), with work-done progress; cancellable. A workbench file
 * that does not read crosses as `workbench-file`, naming the file and line.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { WorkbenchFileError } from '../core/workbench/fileErrors';
import { exportQdpxFile } from '../core/workbench/qdpxExportFile';
import { EXPORT_QDPX_WARNINGS_SHOWN, exportQdpxRequest, type ExportQdpxResult } from '../shared/workbenchProtocol';
import { corpusMarkers } from './acrossHandlers';
import { EngineError } from './engineState';
import type { HandlerContext } from './handlerContext';
import { parseParams } from './requestParams';
import { runWork } from './work';

const exportQdpxParams = z.object({
  file: z
    .string()
    .refine((f) => path.isAbsolute(f), 'an absolute path')
    .refine((f) => /\.qdpx$/i.test(f), 'a .qdpx file'),
  markersAsCodes: z.boolean().optional(),
  workDoneToken: z.union([z.string(), z.number()]).optional(),
});

export function registerQdpxHandlers(ctx: HandlerContext): void {
  const { connection, state, running } = ctx;

  connection.onRequest(exportQdpxRequest, (raw, token) =>
    runWork(connection, running, { title: 'Exporting the project (REFI-QDA)', workDoneToken: raw?.workDoneToken, token }, async (signal, onProgress): Promise<ExportQdpxResult> => {
      const params = parseParams(exportQdpxParams, raw, exportQdpxRequest.method);
      const corpus = state.requireCorpus();
      onProgress({ done: 0, total: 1, message: path.basename(params.file) });
      const t0 = performance.now();
      let r;
      try {
        r = await exportQdpxFile(corpus, params.file, { markersAsCodes: !!params.markersAsCodes, markers: corpusMarkers(state), signal });
      } catch (e) {
        if (e instanceof WorkbenchFileError) throw new EngineError('workbench-file', e.message);
        throw e;
      }
      onProgress({ done: 1, total: 1, message: path.basename(params.file) });
      const s = r.stats;
      state.log.info(
        `export: REFI-QDA project of ${s.sources} items (${s.codes} codes, ${s.segments} coded segments${s.markers ? `, ${s.markers} markers as codes` : ''}, ${s.notes} notes, ${s.cases} cases) → ${params.file}, ${(r.bytes / 1024).toFixed(0)} KiB in ${(performance.now() - t0).toFixed(0)} ms`,
      );
      for (const w of r.warnings) state.log.warn(`export: ${w}`);
      return {
        file: params.file,
        bytes: r.bytes,
        sources: s.sources,
        codes: s.codes,
        segments: s.segments,
        segmentsLeftOut: s.segmentsLeftOut,
        markers: s.markers,
        notes: s.notes,
        cases: s.cases,
        selections: s.selections,
        warnings: r.warnings.slice(0, EXPORT_QDPX_WARNINGS_SHOWN),
        ms: Math.round(performance.now() - t0),
      };
    }),
  );
}
