/**
 * Export in the editor: "Export Markers" (CSV or JSON), "Export Report" (Markdown with a sources
 * appendix, or HTML with working links) through a save dialog that starts in the corpus folder,
 * and "Open Report Preview": the report in the Markdown preview beside its editor, every `[n]` a
 * link that opens the cited span. The engine formats and writes (core's src/core/export, on the
 * corpus it holds); this picks where, and turns the engine's export errors back into
 * `ExportError`s with the same reason and message.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ExportError } from '../core/export/exportFiles';
import { reportLocation } from '../core/research/citationLinks';
import { exportMarkersRequest, exportReportRequest, reportPreviewRequest } from '../shared/lspProtocol';
import type { CorpusService } from './corpusService';
import { EngineRequestError, type CorpusLanguageClient } from './languageClient';
import type { ResearchService } from './researchService';

const EXPORT_REASONS = ['format', 'no-corpus', 'no-markers', 'no-run', 'no-report'] as const;
type ExportReason = (typeof EXPORT_REASONS)[number];
const isExportReason = (r: string): r is ExportReason => (EXPORT_REASONS as readonly string[]).includes(r);

/** What an export command was given: a run id (a string or `{ runId }`) or the report's URI (editor title). */
export function runIdArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' ? reportLocation(arg.fsPath)?.runId : undefined;
  if (arg && typeof arg === 'object' && 'runId' in arg && typeof arg.runId === 'string' && arg.runId) return arg.runId;
  return undefined;
}

/** Exports of the current corpus and its runs. */
export class ExportService {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly corpus: CorpusService,
    private readonly research: ResearchService,
    private readonly client: CorpusLanguageClient,
  ) {}

  /** The root of the indexed corpus. */
  private requireRoot(): string {
    const root = this.corpus.root;
    if (!root) throw new ExportError('no-corpus', vscode.l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first'));
    return root;
  }

  /** An engine request, its export failures turned back into `ExportError`s (the engine logs what it wrote). */
  private async engine<R>(request: () => Promise<R>): Promise<R> {
    try {
      return await request();
    } catch (e) {
      if (e instanceof EngineRequestError && isExportReason(e.reason)) throw new ExportError(e.reason, e.message.replace(/^export: /, ''));
      throw e;
    }
  }

  /** Save dialog for markers: CSV or JSON (tables), Markdown or HTML (documents grouped by item), in the corpus folder. Writes the file and says where; undefined when cancelled. */
  async exportMarkers(): Promise<string | undefined> {
    const root = this.requireRoot();
    await this.engine(() => this.client.request(exportMarkersRequest, {})); // no markers: said before the dialog
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Marker Research: Export Markers'),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: vscode.Uri.file(path.join(root, `${path.basename(root)}-markers.csv`)),
      filters: {
        [vscode.l10n.t('CSV (spreadsheets)')]: ['csv'],
        JSON: ['json'],
        [vscode.l10n.t('Markdown (a document by item, with turns and times)')]: ['md'],
        [vscode.l10n.t('HTML (a document by item, linked to the original files)')]: ['html'],
      },
    });
    if (!uri) return undefined;
    const file = withExtension(uri.fsPath, ['.csv', '.json', '.md', '.markdown', '.html', '.htm'], '.csv');
    const r = await this.engine(() => this.client.request(exportMarkersRequest, { file }));
    const open = vscode.l10n.t('Open');
    const inBrowser = vscode.l10n.t('Open in Browser');
    const preview = vscode.l10n.t('Open Preview');
    const actions = r.format === 'html' ? [inBrowser, open] : r.format === 'md' ? [open, preview] : [open];
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: exported {0} markers of {1} items to {2}.', r.markers, r.items, path.basename(file)), ...actions).then(async (pick) => {
      if (pick === inBrowser) await vscode.env.openExternal(vscode.Uri.file(file));
      if (pick === open) await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
      if (pick === preview) await vscode.commands.executeCommand('markdown.showPreviewToSide', vscode.Uri.file(file));
    });
    return file;
  }

  /** The run whose report is wanted: the one given, else one picked among the runs with a report (the only one without asking). */
  private async pickReportRun(given: string | undefined, title: string): Promise<string | undefined> {
    if (given) return given;
    await this.research.reload(this.requireRoot());
    const withReport = this.research.runManifests.filter((r) => r.report);
    if (!withReport.length) throw new ExportError('no-report', vscode.l10n.t('no research run has a report yet; run "Marker Research: Run Research" first'));
    const shown = this.research.shownRun?.manifest;
    if (withReport.length === 1) return withReport[0]!.run_id;
    const pick = await vscode.window.showQuickPick(
      withReport.map((r) => ({ label: r.goal, description: `${r.run_id} · ${r.status}`, detail: `${r.complexity} · ${r.engine}${r.model ? ` ${r.model}` : ''}`, runId: r.run_id, picked: r.run_id === shown?.run_id })),
      { title, placeHolder: vscode.l10n.t('The report of which run? (newest first; type a goal or a run id)'), matchOnDescription: true },
    );
    return pick?.runId;
  }

  /** Save dialog for a report: HTML or Markdown, in the corpus folder. Undefined when cancelled. */
  async exportReport(runId?: string): Promise<string | undefined> {
    const root = this.requireRoot();
    const id = await this.pickReportRun(runId, vscode.l10n.t('Marker Research: Export Report'));
    if (!id) return undefined;
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Marker Research: Export Report (run {0})', id),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: vscode.Uri.file(path.join(root, `report-${id}.html`)),
      filters: { [vscode.l10n.t('HTML (links to the original files)')]: ['html'], [vscode.l10n.t('Markdown (sources appendix)')]: ['md'] },
    });
    if (!uri) return undefined;
    const file = withExtension(uri.fsPath, ['.html', '.htm', '.md', '.markdown'], '.html');
    const r = await this.engine(() => this.client.request(exportReportRequest, { runId: id, file }));
    const [inBrowser, open, preview] = [vscode.l10n.t('Open in Browser'), vscode.l10n.t('Open'), vscode.l10n.t('Open Preview')];
    const actions = r.format === 'html' ? [inBrowser, open] : [open, preview];
    void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: exported the report of run {0} ({1} citations) to {2}.', r.runId, r.citations, path.basename(file)), ...actions).then(async (pick) => {
      if (pick === inBrowser) await vscode.env.openExternal(vscode.Uri.file(file));
      if (pick === open) await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
      if (pick === preview) await vscode.commands.executeCommand('markdown.showPreviewToSide', vscode.Uri.file(file));
    });
    return file;
  }

  /**
   * The report in the Markdown preview beside the editor: report.preview.md (written next to
   * report.md, citations linked to their spans) is previewed; the text editor stays as it is.
   * Run: the one given, else the report in the active editor, else the run shown, else the newest with a report.
   */
  async openReportPreview(runId?: string): Promise<string | undefined> {
    this.requireRoot();
    const fromEditor = runIdArg(vscode.window.activeTextEditor?.document.uri);
    let id = runId ?? fromEditor;
    if (!id) {
      const shown = this.research.shownRun?.manifest;
      id = shown?.report ? shown.run_id : await this.pickReportRun(undefined, vscode.l10n.t('Marker Research: Open Report Preview'));
    }
    if (!id) return undefined;
    const { file } = await this.engine(() => this.client.request(reportPreviewRequest, { runId: id }));
    await vscode.commands.executeCommand('markdown.showPreviewToSide', vscode.Uri.file(file));
    this.log.info(`opened the report preview of run ${id} (${file})`);
    return file;
  }
}

/** `file` with one of `allowed` extensions (a save dialog may return a name without one). */
function withExtension(file: string, allowed: readonly string[], fallback: string): string {
  return allowed.includes(path.extname(file).toLowerCase()) ? file : `${file}${fallback}`;
}
