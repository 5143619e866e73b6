/**
 * The numbered citations of a research report (`runs/<id>/report.sources.json`) as the citation
 * strategy reads them: what "[3]", "引用3" or "fuente 3" of a question refer to.
 */
import { listRuns, readRun } from '../research/runStore';
import type { CitedSpan } from './types';

/** A run's citations, by run id or `latest` (the newest run that has a report). */
export async function readReportCitations(root: string, runId: string): Promise<{ runId: string; citations: CitedSpan[] }> {
  let id = runId;
  if (runId === 'latest') {
    const runs = await listRuns(root);
    let found: string | undefined;
    for (const r of runs) {
      const run = await readRun(root, r.run_id).catch(() => undefined);
      if (run?.sources?.citations.length) {
        found = r.run_id;
        break;
      }
    }
    if (!found) throw new Error(`ask: no research run with a report in ${root}; run "marker-research research" first`);
    id = found;
  }
  const run = await readRun(root, id);
  if (!run.sources) throw new Error(`ask: run "${id}" has no report.sources.json (the run has no report yet)`);
  return { runId: id, citations: run.sources.citations.map((c) => ({ n: c.number, itemId: c.span.item_id, part: c.span.part, start: c.span.start, end: c.span.end })) };
}
