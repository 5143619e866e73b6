/**
 * `marker-research export <corpusDir> --markers out.csv|out.json`,
 * `marker-research export <corpusDir> --report RUN_ID|latest out.html|out.md` and
 * `marker-research export <corpusDir> --qdpx [--out FILE.qdpx] [--markers-as-codes]`: the markers of a
 * corpus as CSV, JSON, Markdown or HTML, the report of a run as Markdown (linked sources appendix) or standalone
 * HTML (an anchor per citation, links to the original files), the researcher's project (items,
 * codebook, coded segments, notebook, speakers) as a REFI-QDA `.qdpx` for ATLAS.ti, MAXQDA, NVivo
 * or QualCoder. They can be given at once.
 */
import * as path from 'node:path';
import { exportMarkersFile, exportReportFile, readCorpusMarkers } from '../core/export/exportFiles';
import { defaultQdpxName, exportQdpxFile } from '../core/workbench/qdpxExportFile';
import { openExistingCorpus } from './commandCorpus';
import { parseCommandArgs, UsageError, type CliContext } from './io';

export const EXPORT_USAGE = `marker-research export <corpusDir> [--markers FILE.csv|FILE.json|FILE.md|FILE.html] [--report RUN_ID|latest FILE.html|FILE.md] [--links relative|file] [--qdpx [--out FILE.qdpx] [--markers-as-codes]]
  --markers FILE      every marker (item, kind, text, topic, speaker, time, file, line, quote, turn, …) as CSV, JSON, Markdown or HTML
  --report RUN_ID     the report of a run (or the latest with a report) to the FILE after it: Markdown with a
                      sources appendix, or standalone HTML; every citation links to its span in the original file
  --links STYLE       links to original files: relative (default when FILE is inside the corpus) or file URIs
  --qdpx              the project as REFI-QDA (.qdpx, for ATLAS.ti, MAXQDA, NVivo, QualCoder): each item's readable
                      text as a source, the codebook, coded segments, notebook entries and memos as notes, speakers as cases
  --out FILE          where --qdpx writes (default: <corpus folder name>.qdpx in the current folder)
  --markers-as-codes  with --qdpx: markers as codes too (folders "Marker kinds" and "Marker topics"), their spans coded`;

/** Runs the export command. */
export async function exportCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: {
      markers: { type: 'string' },
      report: { type: 'string' },
      links: { type: 'string' },
      qdpx: { type: 'boolean' },
      out: { type: 'string' },
      'markers-as-codes': { type: 'boolean' },
    },
  });
  const [corpusDir, reportOut, ...extra] = positionals;
  if (!corpusDir) throw new UsageError('export: expected a corpus folder');
  if (!values.markers && !values.report && !values.qdpx) throw new UsageError('export: give --markers FILE, --report RUN_ID FILE and/or --qdpx');
  if (!values.qdpx && (values.out !== undefined || values['markers-as-codes'])) throw new UsageError(`export: ${values.out !== undefined ? '--out' : '--markers-as-codes'} goes with --qdpx`);
  if (values.out !== undefined && !/\.qdpx$/i.test(values.out)) throw new UsageError(`export: --out "${values.out}": a REFI-QDA project is written as a .qdpx file`);
  if (values.report && !reportOut) throw new UsageError('export: --report RUN_ID needs the output file after it (report.html or report.md)');
  if (!values.report && reportOut) throw new UsageError(`export: unexpected "${reportOut}" (an output file goes after --report RUN_ID)`);
  if (extra.length) throw new UsageError(`export: unexpected "${extra[0]!}"`);
  const links = values.links;
  if (links !== undefined && links !== 'relative' && links !== 'file') throw new UsageError('--links expects relative or file');
  const corpus = await openExistingCorpus(ctx, 'export', corpusDir);
  if (!corpus) return 1;
  try {
    if (values.markers) {
      const r = await exportMarkersFile(corpus, await readCorpusMarkers(corpus), values.markers);
      ctx.out.write(`markers: ${r.markers} markers of ${r.items} items → ${values.markers}\n`);
    }
    if (values.report && reportOut) {
      const r = await exportReportFile(corpus, values.report, reportOut, links ? { links } : {});
      ctx.out.write(`report: run ${r.runId} (${r.citations} citations) → ${reportOut}\n`);
    }
    if (values.qdpx) {
      const out = values.out ?? path.resolve(defaultQdpxName(corpus.root));
      const r = await exportQdpxFile(corpus, out, { markersAsCodes: !!values['markers-as-codes'], signal: ctx.signal });
      const s = r.stats;
      const n = (k: number, one: string, many = `${one}s`): string => `${k.toLocaleString('en-US')} ${k === 1 ? one : many}`;
      ctx.out.write(
        `qdpx: ${n(s.sources, 'source')}, ${n(s.codes, 'code')}, ${n(s.segments, 'coded segment')}${s.markers ? `, ${n(s.markers, 'marker')} as codes` : ''}, ${n(s.notes, 'note')}, ${n(s.cases, 'case')} (speakers), ${n(s.selections, 'selection')} → ${out} (${(r.bytes / 1024).toFixed(0)} KiB)\n`,
      );
      for (const w of r.warnings.slice(0, 20)) ctx.err.write(`marker-research export: ${w}\n`);
      if (r.warnings.length > 20) ctx.err.write(`marker-research export: … and ${r.warnings.length - 20} more left out\n`);
    }
  } catch (e) {
    if ((e as Error).name === 'WorkbenchFileError') {
      ctx.err.write(`marker-research export: ${(e as Error).message}\n`);
      return 1;
    }
    if ((e as Error).name !== 'ExportError') throw e;
    ctx.err.write(`marker-research ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
