/**
 * The Marker Research language server: serves the corpus to the editor.
 * Corpus items as workspace symbols; corpus problems as diagnostics.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createConnection, DiagnosticSeverity, ProposedFeatures, SymbolKind,
  type Diagnostic, type InitializeResult, type SymbolInformation,
} from 'vscode-languageserver/node';
import { loadCorpus } from '../core/corpus/loader';
import type { Corpus, CorpusProblem } from '../core/corpus/types';
import { corpusChangedNotification, corpusSummaryRequest } from '../shared/lspProtocol';

const connection = createConnection(ProposedFeatures.all);
let corpus: Corpus | undefined;
let published = new Set<string>();

connection.onInitialize((): InitializeResult => ({
  capabilities: { workspaceSymbolProvider: true },
  serverInfo: { name: 'marker-research-server' },
}));

connection.onNotification(corpusChangedNotification, async ({ root }) => {
  try {
    corpus = await loadCorpus(root);
    publishProblems(corpus);
    connection.console.info(`marker-research server: ${corpus.items.length} items from ${root}`);
  } catch (e) {
    connection.console.error(`marker-research server: loading ${root} failed: ${(e as Error).message}`);
  }
});

connection.onRequest(corpusSummaryRequest, () => ({ root: corpus?.root ?? null, items: corpus?.items.length ?? 0, problems: corpus?.problems.length ?? 0 }));

connection.onWorkspaceSymbol(({ query }): SymbolInformation[] => {
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
  return out;
});

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

connection.listen();
