/**
 * `marker-research export <corpusDir> --markers out.csv|out.json` and
 * `marker-research export <corpusDir> --report RUN_ID|latest out.html|out.md`: the markers of a
 * corpus as CSV, JSON, Markdown or HTML, the report of a run as Markdown (linked sources appendix) or standalone
 * HTML (an anchor per citation, links to the original files). Both can be given at once.
 */
import { loadCorpus } from '../core/corpus/loader';
import { exportMarkersFile, exportReportFile, readCorpusMarkers } from '../core/export/exportFiles';
import { parseCommandArgs, UsageError, type CliContext } from './io';

export const EXPORT_USAGE = `marker-research export <corpusDir> [--markers FILE.csv|FILE.json|FILE.md|FILE.html] [--report RUN_ID|latest FILE.html|FILE.md] [--links relative|file]
  --markers FILE      every marker (item, kind, text, topic, speaker, time, file, line, quote, turn, …) as CSV, JSON, Markdown or HTML
  --report RUN_ID     the report of a run (or the latest with a report) to the FILE after it: Markdown with a
                      sources appendix, or standalone HTML; every citation links to its span in the original file
  --links STYLE       links to original files: relative (default when FILE is inside the corpus) or file URIs`;

/** Runs the export command. */
export async function exportCommand(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: ctx.args,
    allowPositionals: true,
    options: { markers: { type: 'string' }, report: { type: 'string' }, links: { type: 'string' } },
  });
  const [corpusDir, reportOut, ...extra] = positionals;
  if (!corpusDir) throw new UsageError('export: expected a corpus folder');
  if (!values.markers && !values.report) throw new UsageError('export: give --markers FILE and/or --report RUN_ID FILE');
  if (values.report && !reportOut) throw new UsageError('export: --report RUN_ID needs the output file after it (report.html or report.md)');
  if (!values.report && reportOut) throw new UsageError(`export: unexpected "${reportOut}" (an output file goes after --report RUN_ID)`);
  if (extra.length) throw new UsageError(`export: unexpected "${extra[0]!}"`);
  const links = values.links;
  if (links !== undefined && links !== 'relative' && links !== 'file') throw new UsageError('--links expects relative or file');
  const corpus = await loadCorpus(corpusDir, { signal: ctx.signal });
  if (corpus.problems.some((p) => p.code === 'not-a-folder')) {
    ctx.err.write(`marker-research export: ${corpusDir}: corpus folder does not exist or is not a folder\n`);
    return 1;
  }
  try {
    if (values.markers) {
      const r = await exportMarkersFile(corpus, await readCorpusMarkers(corpus), values.markers);
      ctx.out.write(`markers: ${r.markers} markers of ${r.items} items → ${values.markers}\n`);
    }
    if (values.report && reportOut) {
      const r = await exportReportFile(corpus, values.report, reportOut, links ? { links } : {});
      ctx.out.write(`report: run ${r.runId} (${r.citations} citations) → ${reportOut}\n`);
    }
  } catch (e) {
    if ((e as Error).name !== 'ExportError') throw e;
    ctx.err.write(`marker-research ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
