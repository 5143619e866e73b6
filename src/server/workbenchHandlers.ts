/**
 * The workbench requests of the engine (see the workbench section of src/shared/lspProtocol.ts):
 * pins to the notebook, the Notebook and Codes views' data, their edits, the notebook's export,
 * re-anchoring after a re-index, coding what the researcher points at, the code × item table and
 * where an item's coded segments are in its readable view. Core (`src/core/workbench`) reads and
 * writes the files under their locks; its errors cross as engine errors the user can act on: a
 * workbench file that does not read (`workbench-file`, naming the file and the line or field), an
 * edit the codebook's rules refuse (`code-edit`), an invalid entry (`bad-request`).
 */
import { writeFile } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';
import { ZodError } from 'zod';
import type { Corpus } from '../core/corpus/types';
import { readableRanges } from '../core/markers/readableSpans';
import { deleteCode } from '../core/workbench/codeDeletion';
import { CodebookEditError, createCode, describeCode, readCodebook, recolourCode, renameCode, setCodeMemo } from '../core/workbench/codebookStore';
import { addSegment, readCodings, recodeSegment, reanchorCodings, removeSegment, setSegmentMemo } from '../core/workbench/codingStore';
import { WorkbenchFileError } from '../core/workbench/fileErrors';
import { notebookToHtml, notebookToMarkdown } from '../core/workbench/notebookExport';
import { notebookEntries } from '../core/workbench/notebookFormat';
import { addEntry, notebookFile, readNotebook, reanchorNotebook, removeEntry, updateEntry } from '../core/workbench/notebookStore';
import { readSuggestedCodes } from '../core/workbench/suggestedCodes';
import type { Codebook, Codings } from '../core/workbench/schema';
import { applyCodeRequest, codeEditRequest, codeItemTableRequest, codesViewRequest, exportNotebookRequest, notebookEditRequest, notebookViewRequest, pinRequest, readableCodingsRequest, reanchorWorkbenchRequest, segmentEditRequest, type ApplyCodeResult, type CodeEditResult, type CodesViewResult, type NotebookViewResult, type ReadableCodingsResult } from '../shared/workbenchProtocol';
import { EngineError } from './engineState';
import type { HandlerContext } from './handlerContext';
import { ReadableLayouts } from './readableLayouts';
import { guarded } from './work';
import { parseApplyCode, parseCodeEdit, parseExportNotebook, parseItemParam, parseNotebookEdit, parsePin, parseSegmentEdit } from './workbenchParams';
import { corpusNotebookLanguage, resolveTarget } from './workbenchTargets';
import { codeItemTableOf, codesViewOf, codeView, itemsById, notebookViewOf, reanchorSummary, segmentView } from './workbenchViews';

/** Readable layouts kept for selections and decorations (the evidence handlers keep their own). */
const LAYOUTS_KEPT = 8;
/** Suggested codes listed. */
const SUGGESTED_SHOWN = 40;

/** Core's workbench errors as engine errors (see the module comment). */
async function workbench<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof WorkbenchFileError) throw new EngineError('workbench-file', e.message);
    if (e instanceof CodebookEditError) throw new EngineError('code-edit', e.message);
    if (e instanceof ZodError) throw new EngineError('bad-request', e.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; '));
    throw e;
  }
}

export function registerWorkbenchHandlers(ctx: HandlerContext): void {
  const { connection, state } = ctx;
  const layouts = new ReadableLayouts(state, LAYOUTS_KEPT);
  const log = state.log;

  function requireCorpus(): Corpus {
    const c = state.current();
    if (!c) throw new EngineError('no-corpus', l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    return c;
  }

  async function notebookView(corpus: Corpus): Promise<NotebookViewResult> {
    const read = await readNotebook(corpus.root);
    return notebookViewOf(read, corpus.root, notebookFile(corpus.root), itemsById(corpus));
  }

  connection.onRequest(
    notebookViewRequest,
    guarded(() =>
      workbench(async (): Promise<NotebookViewResult> => {
        const corpus = state.current();
        if (!corpus) return { root: null, file: null, exists: false, lang: 'en', entries: [], problems: [] };
        return notebookView(corpus);
      }),
    ),
  );

  connection.onRequest(
    pinRequest,
    guarded((raw) =>
      workbench(async () => {
        const p = parsePin(raw, pinRequest.method);
        const corpus = requireCorpus();
        const { entry } = await resolveTarget(state, layouts, p.target);
        const stored = await addEntry(corpus.root, entry, { lang: corpusNotebookLanguage(corpus) });
        log.info(`notebook: pinned ${stored.kind} "${stored.title.slice(0, 80)}" (${stored.spans.length} span${stored.spans.length === 1 ? '' : 's'})`);
        const view = await notebookView(corpus);
        const shown = view.entries.filter((e) => e.id === stored.id).pop();
        if (!shown) throw new Error(`the entry ${stored.id} was written but is not in notebook.md`);
        return { entry: shown, file: notebookFile(corpus.root) };
      }),
    ),
  );

  connection.onRequest(
    notebookEditRequest,
    guarded((raw) =>
      workbench(async () => {
        const p = parseNotebookEdit(raw, notebookEditRequest.method);
        const corpus = requireCorpus();
        if (p.op === 'remove') {
          if (!(await removeEntry(corpus.root, p.id))) throw new EngineError('not-found', l10n.t('the entry is no longer in notebook.md.'));
          log.info(`notebook: removed entry ${p.id}`);
          return { entry: null };
        }
        const e = await updateEntry(corpus.root, p.id, { ...(p.title !== undefined ? { title: p.title } : {}), ...(p.note !== undefined ? { note: p.note } : {}) });
        if (!e) throw new EngineError('not-found', l10n.t('the entry is no longer in notebook.md.'));
        return { entry: (await notebookView(corpus)).entries.find((x) => x.id === e.id) ?? null };
      }),
    ),
  );

  connection.onRequest(
    exportNotebookRequest,
    guarded((raw) =>
      workbench(async () => {
        const p = parseExportNotebook(raw, exportNotebookRequest.method);
        const corpus = requireCorpus();
        const read = await readNotebook(corpus.root);
        const input = { doc: read, corpusRoot: corpus.root, corpus, outFile: p.file };
        const html = /\.html?$/i.test(p.file);
        const text = html ? notebookToHtml(input) : notebookToMarkdown(input);
        await writeFile(p.file, text, 'utf8');
        const entries = notebookEntries(read);
        const sources = new Set(entries.flatMap((e) => e.spans.map((s) => `${s.itemId}\u0000${s.part}\u0000${s.start}\u0000${s.end}`))).size;
        log.info(`notebook: exported ${entries.length} entries (${sources} sources) → ${p.file}`);
        return { file: p.file, entries: entries.length, sources };
      }),
    ),
  );

  connection.onRequest(
    reanchorWorkbenchRequest,
    guarded(() =>
      workbench(async () => {
        const corpus = requireCorpus();
        const lostNotebook = new Set(notebookEntries(await readNotebook(corpus.root)).flatMap((e) => e.spans.flatMap((s, i) => (s.lost ? [`${e.id}:${i}`] : []))));
        const lostCodings = new Set((await readCodings(corpus.root)).segments.flatMap((s) => (s.span.lost ? [`${s.id}:0`] : [])));
        const notebook = reanchorSummary(await reanchorNotebook(corpus.root, corpus), lostNotebook);
        const codings = reanchorSummary(await reanchorCodings(corpus.root, corpus), lostCodings);
        if (notebook.spans || codings.spans)
          log.info(`workbench: re-anchored ${notebook.spans} notebook span(s) (${notebook.moved} moved, ${notebook.lost} lost) and ${codings.spans} coded segment(s) (${codings.moved} moved, ${codings.lost} lost)`);
        return { notebook, codings };
      }),
    ),
  );

  async function codesView(corpus: Corpus): Promise<CodesViewResult> {
    const problems: string[] = [];
    // One file that does not read leaves the other shown; the view says which and why.
    const book: Codebook = await readCodebook(corpus.root).catch((e: Error) => (problems.push(e.message), { version: 1 as const, codes: [] }));
    const codings: Codings = await readCodings(corpus.root).catch((e: Error) => (problems.push(e.message), { version: 1 as const, segments: [] }));
    const suggested = await readSuggestedCodes(corpus.root, corpus.items.map((it) => it.id), book, { limit: SUGGESTED_SHOWN }).catch((e: Error) => {
      log.warn(`codes: suggested codes could not be read: ${e.message}`);
      return [];
    });
    return codesViewOf(corpus.root, book, codings, corpus, suggested, problems);
  }

  connection.onRequest(
    codesViewRequest,
    guarded(() =>
      workbench(async (): Promise<CodesViewResult> => {
        const corpus = state.current();
        if (!corpus) return { root: null, codes: [], unknown: [], suggested: [], nextColour: '#e6194b', problems: [] };
        return codesView(corpus);
      }),
    ),
  );

  connection.onRequest(
    codeEditRequest,
    guarded((raw) =>
      workbench(async (): Promise<CodeEditResult> => {
        const p = parseCodeEdit(raw, codeEditRequest.method);
        const root = requireCorpus().root;
        const segmentsOf = async (id: string) => (await readCodings(root)).segments.filter((s) => s.codeId === id);
        switch (p.op) {
          case 'create': {
            const code = await createCode(root, { name: p.name, ...(p.colour ? { colour: p.colour } : {}), ...(p.description ? { description: p.description } : {}), ...(p.parentId ? { parentId: p.parentId } : {}) });
            log.info(`codes: created "${code.name}" (${code.colour})`);
            return { code: codeView(code, 0, []), segmentsRemoved: 0 };
          }
          case 'rename':
            return { code: codeView(await renameCode(root, p.id, p.name), 0, await segmentsOf(p.id)), segmentsRemoved: 0 };
          case 'recolour':
            return { code: codeView(await recolourCode(root, p.id, p.colour), 0, await segmentsOf(p.id)), segmentsRemoved: 0 };
          case 'describe':
            return { code: codeView(await describeCode(root, p.id, p.description), 0, await segmentsOf(p.id)), segmentsRemoved: 0 };
          case 'memo':
            return { code: codeView(await setCodeMemo(root, p.id, p.text), 0, await segmentsOf(p.id)), segmentsRemoved: 0 };
          case 'delete': {
            const r = await deleteCode(root, p.id);
            log.info(`codes: deleted "${r.code.name}" and its ${r.segmentsRemoved} segment(s)`);
            return { code: null, segmentsRemoved: r.segmentsRemoved };
          }
        }
      }),
    ),
  );

  connection.onRequest(
    applyCodeRequest,
    guarded((raw) =>
      workbench(async (): Promise<ApplyCodeResult> => {
        const p = parseApplyCode(raw, applyCodeRequest.method);
        const corpus = requireCorpus();
        const book = await readCodebook(corpus.root);
        const code = book.codes.find((c) => c.id === p.codeId);
        if (!code) throw new EngineError('not-found', l10n.t('the code is no longer in the codebook.'));
        const { spans } = await resolveTarget(state, layouts, p.target);
        if (!spans.length) throw new EngineError('no-span', l10n.t('there is no span of the corpus to code (an ungrounded marker has no evidence).'));
        const items = itemsById(corpus);
        let added = 0;
        const segments = [];
        for (const span of spans) {
          const r = await addSegment(corpus.root, { codeId: code.id, span });
          if (r.added) added++;
          segments.push(segmentView(r.segment, items));
        }
        log.info(`codes: "${code.name}" applied to ${spans.length} span(s) of a ${p.target.kind} (${added} new)`);
        return { added, existing: spans.length - added, segments };
      }),
    ),
  );

  connection.onRequest(
    segmentEditRequest,
    guarded((raw) =>
      workbench(async () => {
        const p = parseSegmentEdit(raw, segmentEditRequest.method);
        const corpus = requireCorpus();
        const gone = (): EngineError => new EngineError('not-found', l10n.t('the coded segment is no longer in codings.json.'));
        if (p.op === 'remove') {
          if (!(await removeSegment(corpus.root, p.id))) throw gone();
          return { segment: null };
        }
        const s = p.op === 'memo' ? await setSegmentMemo(corpus.root, p.id, p.text) : await recodeSegment(corpus.root, p.id, p.codeId).catch((e: Error) => {
          throw /no code with id/.test(e.message) ? new EngineError('not-found', l10n.t('the code is no longer in the codebook.')) : e;
        });
        if (!s) throw gone();
        return { segment: segmentView(s, itemsById(corpus)) };
      }),
    ),
  );

  connection.onRequest(
    codeItemTableRequest,
    guarded(() =>
      workbench(async () => {
        const corpus = requireCorpus();
        return codeItemTableOf(await readCodebook(corpus.root), await readCodings(corpus.root), corpus);
      }),
    ),
  );

  connection.onRequest(
    readableCodingsRequest,
    guarded((raw) =>
      workbench(async (): Promise<ReadableCodingsResult | null> => {
        const p = parseItemParam(raw, readableCodingsRequest.method);
        const corpus = state.current();
        const item = corpus && state.item(p.itemId);
        if (!corpus || !item) return null;
        const { layout } = layouts.get(item);
        const codings = await readCodings(corpus.root);
        const mine = codings.segments.filter((s) => s.span.itemId === item.id && !s.span.lost);
        const out: ReadableCodingsResult = { itemId: item.id, textLength: layout.text.length, lineCount: layout.lineCount, codes: [] };
        if (!mine.length) return out;
        const book = await readCodebook(corpus.root);
        for (const code of book.codes) {
          const ranges = mine.filter((s) => s.codeId === code.id).flatMap((s) => readableRanges(layout, s.span.part, s.span.start, s.span.end));
          if (ranges.length) out.codes.push({ codeId: code.id, name: code.name, colour: code.colour, ranges });
        }
        return out;
      }),
    ),
  );
}

