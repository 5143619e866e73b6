/**
 * What the engine serves to the editor besides its custom requests, all from
 * the one loaded corpus (nothing is parsed again): corpus items and
 * key-info markers as workspace symbols; corpus problems as diagnostics; in a
 * research report (`<corpus>/.marker-research/runs/<id>/report.md`) every
 * `[n]` citation as a document link that opens its span (the extension's
 * `markerResearch.openEvidence`: the item's readable view, or the original
 * file), and a hover with the item, where in words (speaker · time), file and
 * lines, time, speakers and the quoted text.
 */
import * as l10n from '@vscode/l10n';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DiagnosticSeverity, MarkupKind, SymbolKind, type Diagnostic, type DocumentLink, type Hover, type SymbolInformation, type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { locationLabel, storedLocationLabel } from '../core/corpus/locationLabel';
import type { Corpus, CorpusItem, CorpusProblem } from '../core/corpus/types';
import { allMarkers } from '../core/markers/store';
import { citationHover, citedFile, evidenceCommandTarget, findCitations, linesLabel, reportLocation, sliceRange, type CitationRef } from '../core/research/citationLinks';
import { reportSourcesSchema, type SourceSpan } from '../core/research/schema';
import { hoverText } from '../core/text/markdownSafe';
import type { HandlerContext } from './handlerContext';

export function registerEditorFeatures(ctx: HandlerContext, documents: TextDocuments<TextDocument>): void {
  const { connection, state } = ctx;
  let published = new Set<string>();
  let markerSymbols: SymbolInformation[] | undefined;
  state.onDidLoad((c) => publishProblems(c));
  state.onDidChangeMarkers(() => (markerSymbols = undefined));

  connection.onWorkspaceSymbol(({ query }): SymbolInformation[] => {
    const corpus = state.current();
    if (!corpus) return [];
    const q = query.toLowerCase();
    const out: SymbolInformation[] = [];
    for (const it of corpus.items) {
      if (q && !it.title.toLowerCase().includes(q) && !it.id.toLowerCase().includes(q)) continue;
      const file = it.metaFile ?? it.transcript?.file ?? it.comments?.file;
      if (!file) continue;
      out.push({
        name: it.title,
        kind: SymbolKind.File,
        containerName: it.id,
        location: { uri: pathToFileURL(file.path).toString(), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
      });
    }
    markerSymbols ??= symbolsOfMarkers(corpus);
    for (const s of markerSymbols) if (!q || s.name.toLowerCase().includes(q) || (s.containerName ?? '').toLowerCase().includes(q)) out.push(s);
    return out;
  });

  /** Every grounded marker of the corpus as a symbol: `id: text`, at its first evidence range (from the markers the engine holds). */
  function symbolsOfMarkers(c: Corpus): SymbolInformation[] {
    const out: SymbolInformation[] = [];
    const markers = state.markers();
    for (const it of c.items) {
      const r = markers.get(it.id);
      if (!r?.ok) continue;
      for (const m of allMarkers(r.value)) {
        const s = m.evidence[0]?.source;
        const abs = s && citedFile(c.root, s.file);
        if (!s || !abs) continue;
        out.push({
          name: `${m.id}: ${m.text.length > 160 ? `${m.text.slice(0, 160)}…` : m.text}`,
          kind: SymbolKind.Key,
          containerName: `${m.kind} · ${it.title}`,
          location: { uri: pathToFileURL(abs).toString(), range: { start: { line: s.startLine, character: s.startColumn }, end: { line: s.endLine, character: s.endColumn } } },
        });
      }
    }
    return out;
  }

  // ---- report citations -----------------------------------------------------------------------

  /** report.sources.json of a run, by number; cached per run folder until the file changes. */
  const sourcesCache = new Map<string, { mtimeMs: number; byNumber: Map<number, SourceSpan> }>();

  async function reportSources(runDir: string): Promise<Map<number, SourceSpan>> {
    const file = path.join(runDir, 'report.sources.json');
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      return new Map();
    }
    const hit = sourcesCache.get(runDir);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit.byNumber;
    const byNumber = new Map<number, SourceSpan>();
    try {
      const parsed = reportSourcesSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      if (!parsed.success) connection.console.warn(`marker-research server: ${file}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      else for (const c of parsed.data.citations) byNumber.set(c.number, c.span);
    } catch (e) {
      connection.console.warn(`marker-research server: ${file}: ${(e as Error).message}`);
    }
    sourcesCache.set(runDir, { mtimeMs: stat.mtimeMs, byNumber });
    return byNumber;
  }

  /** The indexed corpus when it is the one at `root` (a report of another corpus gets no item titles: nothing is loaded twice). */
  function corpusAt(root: string): Corpus | undefined {
    const c = state.current();
    return c && path.resolve(c.root) === path.resolve(root) ? c : undefined;
  }

  /** The report behind a document, with its citations and their sources; undefined for any other document. */
  async function reportOf(uri: string): Promise<{ loc: NonNullable<ReturnType<typeof reportLocation>>; refs: CitationRef[]; sources: Map<number, SourceSpan> } | undefined> {
    if (!uri.startsWith('file:')) return undefined;
    const doc = documents.get(uri);
    const loc = reportLocation(fileURLToPath(uri));
    if (!doc || !loc) return undefined;
    return { loc, refs: findCitations(doc.getText()), sources: await reportSources(loc.runDir) };
  }

  /** Where a cited span is, in words: from the loaded item when the span fits it, else from what the span stored. */
  function spanLocation(span: SourceSpan, item: CorpusItem | undefined, title = true): string {
    const text = (span.part === 'transcript' ? item?.transcript : item?.comments)?.text;
    if (item && text !== undefined && span.end <= text.length) return locationLabel(item, span.part, span.start, span.end, { title });
    return storedLocationLabel(span.source, span.part, title ? (item?.title ?? span.item_id) : undefined);
  }

  connection.onDocumentLinks(async ({ textDocument }): Promise<DocumentLink[]> => {
    const r = await reportOf(textDocument.uri);
    if (!r) return [];
    // Labels from the indexed corpus when it is this report's (no corpus is loaded just for link tooltips).
    const corpus = state.current();
    const items = corpus && path.resolve(corpus.root) === path.resolve(r.loc.corpusRoot) ? new Map(corpus.items.map((it) => [it.id, it])) : undefined;
    const links: DocumentLink[] = [];
    let dangling = 0;
    for (const c of r.refs) {
      const span = r.sources.get(c.number);
      const target = span && evidenceCommandTarget(r.loc.corpusRoot, span);
      if (!span || !target) {
        dangling++;
        continue;
      }
      // VS Code shows the tooltip as the label of a link in a TRUSTED Markdown hover, escaping only its
      // `]`: the corpus's title and path are hover text (escaped, one line), never a link or a way out of the label.
      const tooltip = hoverText(l10n.t('Open citation {0}: {1} ({2})', c.number, spanLocation(span, items?.get(span.item_id)), linesLabel(span.source)).replace(/\s+/g, ' '));
      links.push({ range: { start: { line: c.line, character: c.start }, end: { line: c.line, character: c.end } }, target, tooltip });
    }
    if (dangling) connection.console.warn(`marker-research server: ${dangling} citation(s) of run ${r.loc.runId} resolve to no span in report.sources.json`);
    return links;
  });

  connection.onHover(async ({ textDocument, position }): Promise<Hover | null> => {
    const r = await reportOf(textDocument.uri);
    if (!r) return null;
    const c = r.refs.find((x) => x.line === position.line && position.character >= x.start && position.character < x.end);
    const span = c && r.sources.get(c.number);
    if (!c || !span) return null;
    const abs = citedFile(r.loc.corpusRoot, span.source.file);
    let quote = '';
    if (abs) quote = sliceRange(await fs.readFile(abs, 'utf8').catch(() => ''), span.source);
    const item = corpusAt(r.loc.corpusRoot)?.items.find((it) => it.id === span.item_id);
    // Every corpus value of the hover is escaped by citationHover (hoverText / markdownCode).
    return {
      contents: { kind: MarkupKind.Markdown, value: citationHover(c.number, span, { title: item?.title, quote, location: spanLocation(span, item, false) }) },
      range: { start: { line: c.line, character: c.start }, end: { line: c.line, character: c.end } },
    };
  });

  // ---- diagnostics ----------------------------------------------------------------------------

  function severity(p: CorpusProblem): DiagnosticSeverity {
    return p.severity === 'error' ? DiagnosticSeverity.Error : p.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
  }

  function publishProblems(c: Corpus): void {
    const byUri = new Map<string, Diagnostic[]>();
    for (const p of c.problems) {
      const abs = path.isAbsolute(p.file) ? p.file : path.join(c.root, p.file);
      const uri = pathToFileURL(abs).toString();
      const line = p.line ?? 0;
      const col = p.column ?? 0;
      const list = byUri.get(uri) ?? [];
      list.push({ severity: severity(p), range: { start: { line, character: col }, end: { line, character: col + 1 } }, message: p.message, code: p.code, source: 'Marker Research' });
      byUri.set(uri, list);
    }
    for (const uri of published) if (!byUri.has(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
    for (const [uri, diagnostics] of byUri) void connection.sendDiagnostics({ uri, diagnostics });
    published = new Set(byUri.keys());
  }
}
