/**
 * Writing exports to disk, for the CLI and the extension alike: the markers of a corpus (CSV or
 * JSON by the file's extension) and the report of a run (Markdown or HTML), plus the linked
 * Markdown copy of a report the editor previews (`report.preview.md` in the run's folder).
 */
import * as path from 'node:path';
import type { Corpus } from '../corpus/types';
import { detectLanguageEsEnZh } from '../llm/langDetect';
import type { ItemMarkers } from '../markers/schema';
import { readItemMarkers } from '../markers/store';
import { listRuns, readRun, runDir } from '../research/runStore';
import { writeFileAtomic } from '../storage/atomic';
import { markerRows, markersDocument, markersFormatOf, type MarkersFormat } from './markersExport';
import { reportFormatOf, reportToHtml, reportToMarkdown, type LinkStyle } from './reportExport';

/** An export that cannot be made; `reason` says why. Messages start with `export:`. */
export class ExportError extends Error {
  constructor(
    readonly reason: 'format' | 'no-corpus' | 'no-markers' | 'no-run' | 'no-report',
    message: string,
  ) {
    super(`export: ${message}`);
    this.name = 'ExportError';
  }
}

/** The stored markers of every item of `corpus` that has them (unreadable files are skipped). */
export async function readCorpusMarkers(corpus: Corpus): Promise<Map<string, ItemMarkers>> {
  const out = new Map<string, ItemMarkers>();
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    if (r.ok) out.set(item.id, r.value);
  }
  return out;
}

/**
 * Writes the markers of `corpus` to `outFile`: CSV for `.csv`, JSON for `.json`, Markdown for `.md`,
 * HTML for `.html` (the file and line of each marker linked to the original file).
 * @returns how many markers and items were written.
 * @throws ExportError (`format`) for another extension, (`no-markers`) when no item has markers.
 */
export async function exportMarkersFile(corpus: Corpus, markers: ReadonlyMap<string, ItemMarkers>, outFile: string): Promise<{ markers: number; items: number; format: MarkersFormat }> {
  const format = markersFormatOf(outFile);
  if (!format) throw new ExportError('format', `"${path.basename(outFile)}": markers are exported as .csv or .json (tables), or .md or .html (documents)`);
  const rows = markerRows(corpus, markers);
  if (!rows.length) throw new ExportError('no-markers', 'no item has markers yet; generate them first ("Generate Markers", or `marker-research markers <corpusDir>`)');
  await writeFileAtomic(outFile, markersDocument(rows, format, { links: { corpusRoot: corpus.root, outFile: path.resolve(outFile) } }));
  return { markers: rows.length, items: new Set(rows.map((r) => r.item)).size, format };
}

/** The id of the newest run with a report, for `latest`; other ids are returned as they are. */
export async function resolveReportRun(root: string, runId: string): Promise<string> {
  if (runId !== 'latest') return runId;
  const run = (await listRuns(root)).find((r) => r.report);
  if (!run) throw new ExportError('no-run', `no research run of ${root} has a report yet`);
  return run.run_id;
}

/**
 * Writes the report of run `runId` to `outFile`: Markdown (`.md`) with a linked sources appendix,
 * or standalone HTML (`.html`) with an anchor per citation. Links to original files are relative
 * when `outFile` lies in the corpus folder, else `file:` URIs (or as `links` says).
 * @throws ExportError (`format`, `no-run`, `no-report`).
 */
export async function exportReportFile(corpus: Corpus, runId: string, outFile: string, opts: { links?: LinkStyle } = {}): Promise<{ runId: string; citations: number; format: 'md' | 'html' }> {
  const format = reportFormatOf(outFile);
  if (!format) throw new ExportError('format', `"${path.basename(outFile)}": reports are exported as .md or .html`);
  const id = await resolveReportRun(corpus.root, runId);
  const run = await readRun(corpus.root, id).catch((e: Error) => {
    throw new ExportError('no-run', e.message.replace(/^research: /, ''));
  });
  if (!run.report || !run.sources) throw new ExportError('no-report', `run ${id} has no report (${run.manifest.status})`);
  const input = { markdown: run.report, sources: run.sources, corpusRoot: corpus.root, corpus, outFile: path.resolve(outFile), ...(opts.links ? { links: opts.links } : {}) };
  const text = format === 'md' ? reportToMarkdown(input) : reportToHtml(input, { lang: htmlLang(run.report) });
  await writeFileAtomic(outFile, text);
  return { runId: id, citations: run.sources.citations.length, format };
}

/** The file the editor previews for a report: report.md with linked citations, in the run's folder. */
export function reportPreviewFile(root: string, runId: string): string {
  return path.join(runDir(root, runId), 'report.preview.md');
}

/**
 * Writes `report.preview.md` next to the run's report.md: the same report, every `[n]` a relative
 * link to its span in the original file (the Markdown preview opens it at the cited lines), and
 * the linked sources appendix.
 * @returns the file written.
 */
export async function writeReportPreview(corpus: Corpus, runId: string): Promise<string> {
  const run = await readRun(corpus.root, runId);
  if (!run.report || !run.sources) throw new ExportError('no-report', `run ${runId} has no report (${run.manifest.status})`);
  const file = reportPreviewFile(corpus.root, runId);
  await writeFileAtomic(file, reportToMarkdown({ markdown: run.report, sources: run.sources, corpusRoot: corpus.root, corpus, outFile: file, links: 'relative' }));
  return file;
}

/** The HTML `lang` of a report: the language of its text (English, Spanish or Chinese). */
function htmlLang(markdown: string): string {
  return detectLanguageEsEnZh(markdown);
}
