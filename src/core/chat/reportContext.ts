/**
 * The report a conversation is about (seed 003): its Markdown without the source list (the
 * numbers stay), and whether a question is about its findings — then the report alone is the
 * context, a few thousand tokens instead of every step's results.
 */
import { tokenize, tokenizeQuery } from '../search/tokenize';
import { readRun } from '../research/runStore';
import type { ParsedQuery } from '../ask/query';

export interface ReportContext {
  runId: string;
  goal: string;
  /** The report's Markdown up to its "Sources" list. */
  markdown: string;
}

/** Words that point at the report itself ("the report", "the main conclusion", "结论", "el informe"). */
const ABOUT_REPORT = /(?<![\p{L}])(?:report|finding|findings|conclusion|conclusions|conclude|summary|takeaway|takeaways|result|results|evidence|the research|this research|overall|in short|so what|informe|conclusi[oó]n|conclusiones|hallazgos|resultados|resumen)(?![\p{L}])|报告|報告|结论|結論|发现|發現|研究结果|研究結果|总结|總結|总体|總體|要点|要點/iu;

/** Reads the report of `runId`; undefined when the run has no report yet. */
export async function readReportContext(root: string, runId: string): Promise<ReportContext | undefined> {
  const run = await readRun(root, runId);
  if (!run.report) return undefined;
  const cut = run.report.search(/^## (?:Sources|来源|來源|Fuentes)\s*$/mu);
  return { runId, goal: run.manifest.goal, markdown: (cut >= 0 ? run.report.slice(0, cut) : run.report).trim() };
}

/**
 * Whether the report can answer `q`: it asks about the report or its findings, or most of its
 * words occur in the report; a question about an entity or words the report never mentions goes
 * to the corpus.
 */
export function aboutReport(q: ParsedQuery, report: ReportContext): boolean {
  if (ABOUT_REPORT.test(q.question)) return true;
  const terms = tokenizeQuery(q.searchText || q.resolvedQuery);
  if (!terms.length) return true;
  const inReport = new Set(tokenize(report.markdown));
  const covered = terms.filter((t) => inReport.has(t)).length;
  const entitiesCovered = q.entities.every((e) => report.markdown.toLowerCase().includes(e.text.toLowerCase()) || report.markdown.includes(e.label));
  return entitiesCovered && covered / terms.length >= 0.6;
}
