/**
 * The workbench's commands (issue 24): "Pin to Notebook" on a marker, an Ask hit or answer
 * sentence, a chat answer, a report finding (the line under the cursor in report.md) and a
 * selection in an item's readable view; "Code…" on the same; the Notebook view's actions (open
 * notebook.md, add a note, edit a note, remove an entry, export) and the Codes view's (new code,
 * rename, recolour, describe, memo, delete; a segment's memo, removal, recoding; a suggested code
 * created; the code × item table). What a command is given — a webview's context (its
 * `data-vscode-context`), a tree node, an editor — is checked before it is used.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { OPEN_EVIDENCE_COMMAND } from '../core/research/citationLinks';
import type { PinnedSpanView, WorkbenchNote, WorkbenchTarget } from '../shared/workbenchProtocol';
import { workbenchTargetSchema } from '../shared/workbenchTarget';
import { codeItemTableMarkdown } from './codesTreeModel';
import type { CodesView } from './codesView';
import { newCode, pickCode, pickColour } from './codePicker';
import type { EvidenceNavigator } from './evidenceNavigator';
import { FullItemDocuments } from './fullItemDocuments';
import { EngineRequestError } from './languageClient';
import type { NotebookView } from './notebookView';
import { OPEN_NOTEBOOK_COMMAND } from './notebookTreeModel';
import { OPEN_PINNED_SPAN_COMMAND, type TreeNodeModel } from './workbenchTreeNode';
import type { WorkbenchService } from './workbenchService';

/** The scheme of the code × item table's read-only document. */
export const CODE_TABLE_SCHEME = 'marker-research-codes';

export interface WorkbenchCommandServices {
  log: vscode.LogOutputChannel;
  workbench: WorkbenchService;
  notebookView: NotebookView;
  codesView: CodesView;
  evidence: EvidenceNavigator;
}

/** A report of a run: `<corpus>/.marker-research/runs/<id>/report.md`. */
const REPORT_PATH = /[\\/]\.marker-research[\\/]runs[\\/][^\\/]+[\\/]report\.md$/;

/** Serves the code × item table's document (read-only; its text is set before it is opened). */
class CodeTableDocuments implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  text = '';
  provideTextDocumentContent(): string {
    return this.text;
  }
  update(uri: vscode.Uri, text: string): void {
    this.text = text;
    this.emitter.fire(uri);
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

/** A target of kind `kind` from what a command was given (a webview's context, a target itself). */
export function targetArg(kind: 'marker' | 'hit' | 'answer-sentence', arg: unknown): WorkbenchTarget | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const r = workbenchTargetSchema.safeParse({ ...(arg as Record<string, unknown>), kind });
  return r.success ? r.data : undefined;
}

/** A chat answer: `(conversationId, turn)`, or the chat webview's context `{ conversationId, turn }`. */
export function chatAnswerTarget(a: unknown, b?: unknown): WorkbenchTarget {
  const arg = a && typeof a === 'object' ? (a as Record<string, unknown>) : { conversationId: a, turn: b };
  const r = workbenchTargetSchema.safeParse({ kind: 'chat-answer', conversationId: arg['conversationId'], turn: arg['turn'] });
  if (!r.success) throw new EngineRequestError('bad-request', vscode.l10n.t('no chat answer was given (use the pin button under an answer).'));
  return r.data;
}

export function createWorkbenchCommands(s: WorkbenchCommandServices): { commands: Record<string, (...args: unknown[]) => unknown>; disposables: vscode.Disposable[] } {
  const { log, workbench, notebookView, codesView } = s;
  const tables = new CodeTableDocuments();
  const tableUri = vscode.Uri.from({ scheme: CODE_TABLE_SCHEME, path: `/${vscode.l10n.t('Codes × items')}.md` });

  /** Runs a command: a reason the researcher can act on as a warning, anything else as an error with "Show Logs". */
  const guard =
    (what: string, fn: (...args: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await fn(...args);
      } catch (e) {
        const message = (e as Error).message;
        if (e instanceof EngineRequestError) {
          log.warn(`${what}: ${message}`);
          void vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: {0}', message));
          return;
        }
        log.error(`${what} failed: ${(e as Error).stack ?? message}`);
        const logs = vscode.l10n.t('Show Logs');
        const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Marker Research: {0} failed: {1}', what, message), logs);
        if (pick === logs) log.show();
      }
    };

  // ---- what the researcher points at ----------------------------------------------------------

  /** The selection of the active readable view as a target (undefined, with a message, when there is none). */
  function selectionTarget(): WorkbenchTarget | undefined {
    const editor = vscode.window.activeTextEditor;
    const itemId = editor && FullItemDocuments.itemIdOf(editor.document.uri);
    if (!editor || !itemId) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: select words in an item\'s readable view (open a marker, a hit or "Retrieve Full Item") first.'));
      return undefined;
    }
    const sel = editor.selection;
    if (sel.isEmpty) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: select the words to keep first.'));
      return undefined;
    }
    return {
      kind: 'selection',
      itemId,
      range: { startLine: sel.start.line, startCharacter: sel.start.character, endLine: sel.end.line, endCharacter: sel.end.character },
      documentLength: editor.document.getText().length,
    };
  }

  /** The line under the cursor of the active report.md (or of the report a menu was opened on) as a finding. */
  function findingTarget(arg: unknown): WorkbenchTarget | undefined {
    const uri = arg instanceof vscode.Uri ? arg : undefined;
    const editor = uri ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) : vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme !== 'file' || !REPORT_PATH.test(editor.document.uri.fsPath)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: put the cursor on a finding of a research report (report.md) first.'));
      return undefined;
    }
    const line = editor.selection.active.line;
    return { kind: 'finding', reportFile: editor.document.uri.fsPath, line, lineText: editor.document.lineAt(line).text };
  }

  function requireTarget(kind: 'marker' | 'hit' | 'answer-sentence', arg: unknown): WorkbenchTarget {
    const target = targetArg(kind, arg);
    if (!target) throw new EngineRequestError('bad-request', vscode.l10n.t('nothing to pin or code was given (use the button or the context menu of a marker, a hit or an answer sentence).'));
    return target;
  }

  // ---- pins -----------------------------------------------------------------------------------

  async function pin(target: WorkbenchTarget | WorkbenchNote | undefined): Promise<void> {
    if (!target) return;
    const r = await workbench.pin(target);
    const lost = r.entry.spans.filter((x) => x.lost).length;
    log.info(`pinned ${r.entry.kind} "${r.entry.title.slice(0, 80)}" to ${r.file}${lost ? ` (${lost} lost)` : ''}`);
    // Quietly: the Notebook view shows the new entry (selected when the view is open), the status bar says so.
    if (notebookView.view.visible) void notebookView.reveal(r.entry.id);
    vscode.window.setStatusBarMessage(
      lost ? vscode.l10n.t('$(pin) Pinned to the notebook: {0} ({1} span(s) not found)', r.entry.title, lost) : vscode.l10n.t('$(pin) Pinned to the notebook: {0}', r.entry.title),
      6000,
    );
  }

  async function openNotebook(line?: unknown): Promise<void> {
    const file = workbench.notebookFile();
    if (!file) throw new EngineRequestError('no-corpus', vscode.l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    try {
      await vscode.workspace.fs.stat(vscode.Uri.file(file));
    } catch {
      void vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: the notebook is empty. Pin a marker, a hit, an answer or a selection, or add a note, and it is written to {0}.', path.join('.marker-research', 'notebook.md')));
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const at = typeof line === 'number' && Number.isInteger(line) && line >= 0 ? Math.min(line, doc.lineCount - 1) : 0;
    const pos = new vscode.Position(at, 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: false });
  }

  /** Opens a pinned span: where the evidence setting says; a lost span at its old place in the original file, with a warning. */
  async function openPinnedSpan(arg: unknown): Promise<void> {
    const span = arg as PinnedSpanView | undefined;
    if (!span || typeof span !== 'object' || typeof span.itemId !== 'string' || typeof span.file !== 'string' || !span.range) return;
    const root = workbench.root;
    if (span.lost && root) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Marker Research: this quote was not found after the corpus was indexed again; showing where it was in the original file.'));
      const { startLine, startColumn, endLine, endColumn } = span.range;
      await s.evidence.reveal(vscode.Uri.file(path.resolve(root, span.file)), [{ startLine, startColumn, endLine, endColumn }]);
      return;
    }
    await vscode.commands.executeCommand(OPEN_EVIDENCE_COMMAND, { itemId: span.itemId, part: span.part, start: span.start, end: span.end, file: span.file, range: span.range });
  }

  /** The entry a Notebook command is about: the node it was run on, else the view's selection. */
  function entryOf(arg: unknown): string | undefined {
    const node = (arg as TreeNodeModel | undefined) ?? notebookView.view.selection[0];
    return node?.ref?.kind === 'entry' ? node.ref.id : undefined;
  }

  async function addNote(): Promise<void> {
    const title = await vscode.window.showInputBox({ title: vscode.l10n.t('Add note'), prompt: vscode.l10n.t('Title of the note'), placeHolder: vscode.l10n.t('e.g. Idea for chapter 2') });
    if (!title?.trim()) return;
    const note = await vscode.window.showInputBox({ title: vscode.l10n.t('Add note'), prompt: vscode.l10n.t('The note (Markdown; write more in notebook.md)'), placeHolder: vscode.l10n.t('Your note') });
    if (note === undefined) return;
    await pin({ kind: 'note', title: title.trim(), note });
  }

  async function editNote(arg: unknown): Promise<void> {
    const id = entryOf(arg);
    const entry = id ? notebookView.entry(id) : undefined;
    if (!id || !entry) return;
    const note = await vscode.window.showInputBox({ title: vscode.l10n.t('Edit note: {0}', entry.title), prompt: vscode.l10n.t('Your note under the entry (empty: none; longer notes: edit notebook.md)'), value: entry.note ?? '' });
    if (note === undefined) return;
    await workbench.editEntry({ op: 'update', id, note: note.trim() ? note : null });
  }

  async function removeEntry(arg: unknown): Promise<void> {
    const id = entryOf(arg);
    const entry = id ? notebookView.entry(id) : undefined;
    if (!id) return;
    const remove = vscode.l10n.t('Remove');
    const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Remove "{0}" from the notebook?', entry?.title ?? id), { modal: true, detail: vscode.l10n.t('Its record, quotes and note leave notebook.md; the corpus is not changed.') }, remove);
    if (pick !== remove) return;
    await workbench.editEntry({ op: 'remove', id });
  }

  async function exportNotebook(): Promise<void> {
    const root = workbench.root;
    if (!root) throw new EngineRequestError('no-corpus', vscode.l10n.t('no corpus is indexed; run "Marker Research: Index Corpus" first.'));
    const uri = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(root, `${path.basename(root)}-notebook.md`)),
      filters: { [vscode.l10n.t('Markdown')]: ['md'], HTML: ['html'] },
      title: vscode.l10n.t('Export Notebook'),
    });
    if (!uri) return;
    const r = await workbench.exportNotebook(uri.fsPath);
    log.info(`exported the notebook (${r.entries} entries, ${r.sources} sources) to ${r.file}`);
    const open = vscode.l10n.t('Open');
    const pick = await vscode.window.showInformationMessage(vscode.l10n.t('Marker Research: exported {0} entries with {1} sources to {2}.', r.entries, r.sources, path.basename(r.file)), open);
    if (pick === open) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(r.file));
  }

  // ---- codes ----------------------------------------------------------------------------------

  async function code(target: WorkbenchTarget | undefined): Promise<void> {
    if (!target) return;
    const chosen = await pickCode(workbench, vscode.l10n.t('Code with…'));
    if (!chosen) return;
    const r = await workbench.applyCode(chosen.id, target);
    log.info(`coded ${r.added + r.existing} span(s) of a ${target.kind} with "${chosen.name}" (${r.added} new)`);
    vscode.window.setStatusBarMessage(
      r.added ? vscode.l10n.t('$(tag) Coded with "{0}" ({1} span(s))', chosen.name, r.added) : vscode.l10n.t('$(tag) Already coded with "{0}"', chosen.name),
      5000,
    );
    if (codesView.view.visible) void codesView.reveal(chosen.id);
  }

  /** The code (or segment) a Codes command is about: the node it was run on, else the view's selection. */
  function codeOf(arg: unknown): string | undefined {
    const node = (arg as TreeNodeModel | undefined) ?? codesView.view.selection[0];
    return node?.ref?.kind === 'code' ? node.ref.id : undefined;
  }
  function segmentOf(arg: unknown): string | undefined {
    const node = (arg as TreeNodeModel | undefined) ?? codesView.view.selection[0];
    return node?.ref?.kind === 'segment' ? node.ref.id : undefined;
  }

  async function renameCode(arg: unknown): Promise<void> {
    const c = codesView.code(codeOf(arg) ?? '');
    if (!c) return;
    const name = await vscode.window.showInputBox({ title: vscode.l10n.t('Rename code'), value: c.name, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A code needs a name.')) });
    if (!name?.trim() || name.trim() === c.name) return;
    await workbench.editCode({ op: 'rename', id: c.id, name: name.trim() });
  }

  async function recolourCode(arg: unknown): Promise<void> {
    const c = codesView.code(codeOf(arg) ?? '');
    if (!c) return;
    const colour = await pickColour(vscode.l10n.t('Colour of "{0}"', c.name), c.colour);
    if (colour && colour !== c.colour) await workbench.editCode({ op: 'recolour', id: c.id, colour });
  }

  async function describeCode(arg: unknown): Promise<void> {
    const c = codesView.code(codeOf(arg) ?? '');
    if (!c) return;
    const description = await vscode.window.showInputBox({ title: vscode.l10n.t('Description of "{0}"', c.name), prompt: vscode.l10n.t('What the code means (empty: none)'), value: c.description ?? '' });
    if (description !== undefined) await workbench.editCode({ op: 'describe', id: c.id, description });
  }

  async function codeMemo(arg: unknown): Promise<void> {
    const c = codesView.code(codeOf(arg) ?? '');
    if (!c) return;
    const memo = await vscode.window.showInputBox({ title: vscode.l10n.t('Memo on "{0}"', c.name), prompt: vscode.l10n.t('Your memo on the code (empty: none)'), value: c.memo ?? '' });
    if (memo !== undefined) await workbench.editCode({ op: 'memo', id: c.id, text: memo.trim() ? memo : null });
  }

  async function deleteCode(arg: unknown): Promise<void> {
    const c = codesView.code(codeOf(arg) ?? '');
    if (!c) return;
    const del = vscode.l10n.t('Delete');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete the code "{0}"?', c.name),
      { modal: true, detail: c.count ? vscode.l10n.t('Its {0} coded segment(s) are removed too; codes under it move up. The corpus is not changed.', c.count) : vscode.l10n.t('It has no coded segments; codes under it move up.') },
      del,
    );
    if (pick !== del) return;
    const r = await workbench.editCode({ op: 'delete', id: c.id });
    vscode.window.setStatusBarMessage(vscode.l10n.t('Deleted the code "{0}" and {1} segment(s)', c.name, r.segmentsRemoved), 5000);
  }

  async function segmentMemo(arg: unknown): Promise<void> {
    const seg = codesView.segment(segmentOf(arg) ?? '');
    if (!seg) return;
    const memo = await vscode.window.showInputBox({ title: vscode.l10n.t('Memo on the segment'), prompt: vscode.l10n.t('Your memo on "{0}" (empty: none)', seg.span.quote.slice(0, 60)), value: seg.memo ?? '' });
    if (memo !== undefined) await workbench.editSegment({ op: 'memo', id: seg.id, text: memo.trim() ? memo : null });
  }

  async function removeSegment(arg: unknown): Promise<void> {
    const id = segmentOf(arg);
    if (id) await workbench.editSegment({ op: 'remove', id });
  }

  async function recodeSegment(arg: unknown): Promise<void> {
    const seg = codesView.segment(segmentOf(arg) ?? '');
    if (!seg) return;
    const chosen = await pickCode(workbench, vscode.l10n.t('Recode the segment with…'), seg.codeId);
    if (chosen) await workbench.editSegment({ op: 'recode', id: seg.id, codeId: chosen.id });
  }

  async function createSuggested(arg: unknown): Promise<void> {
    const node = (arg as TreeNodeModel | undefined) ?? codesView.view.selection[0];
    if (node?.ref?.kind !== 'suggested') return;
    const created = await newCode(workbench, undefined, node.ref.topic);
    if (created) vscode.window.setStatusBarMessage(vscode.l10n.t('$(tag) Created the code "{0}"', created.name), 5000);
  }

  async function codeItemTable(): Promise<void> {
    const table = await workbench.codeItemTable();
    tables.update(tableUri, codeItemTableMarkdown(vscode.l10n, table));
    const doc = await vscode.workspace.openTextDocument(tableUri);
    // The Markdown preview of the read-only document; the document itself where there is no preview.
    await vscode.commands.executeCommand('markdown.showPreview', doc.uri).then(undefined, () => vscode.window.showTextDocument(doc, { preview: true }));
  }

  const commands: Record<string, (...args: unknown[]) => unknown> = {
    'markerResearch.pinMarker': guard(vscode.l10n.t('pinning the marker'), (arg) => pin(requireTarget('marker', arg))),
    'markerResearch.pinHit': guard(vscode.l10n.t('pinning the hit'), (arg) => pin(requireTarget('hit', arg))),
    'markerResearch.pinAnswerSentence': guard(vscode.l10n.t('pinning the sentence'), (arg) => pin(requireTarget('answer-sentence', arg))),
    'markerResearch.pinChatAnswer': guard(vscode.l10n.t('pinning the answer'), (a, b) => pin(chatAnswerTarget(a, b))),
    'markerResearch.pinFinding': guard(vscode.l10n.t('pinning the finding'), (arg) => pin(findingTarget(arg))),
    'markerResearch.pinSelection': guard(vscode.l10n.t('pinning the selection'), () => pin(selectionTarget())),
    'markerResearch.codeMarker': guard(vscode.l10n.t('coding the marker'), (arg) => code(requireTarget('marker', arg))),
    'markerResearch.codeHit': guard(vscode.l10n.t('coding the hit'), (arg) => code(requireTarget('hit', arg))),
    'markerResearch.codeAnswerSentence': guard(vscode.l10n.t('coding the sentence'), (arg) => code(requireTarget('answer-sentence', arg))),
    'markerResearch.codeFinding': guard(vscode.l10n.t('coding the finding'), (arg) => code(findingTarget(arg))),
    'markerResearch.codeSelection': guard(vscode.l10n.t('coding the selection'), () => code(selectionTarget())),
    [OPEN_NOTEBOOK_COMMAND]: guard(vscode.l10n.t('opening the notebook'), (line) => openNotebook(line)),
    [OPEN_PINNED_SPAN_COMMAND]: guard(vscode.l10n.t('opening the span'), (span) => openPinnedSpan(span)),
    'markerResearch.addNote': guard(vscode.l10n.t('adding the note'), () => addNote()),
    'markerResearch.editNotebookNote': guard(vscode.l10n.t('editing the note'), (arg) => editNote(arg)),
    'markerResearch.removeNotebookEntry': guard(vscode.l10n.t('removing the entry'), (arg) => removeEntry(arg)),
    'markerResearch.exportNotebook': guard(vscode.l10n.t('exporting the notebook'), () => exportNotebook()),
    'markerResearch.refreshNotebook': guard(vscode.l10n.t('reading the notebook'), () => notebookView.refresh()),
    'markerResearch.newCode': guard(vscode.l10n.t('creating the code'), async () => {
      const c = await newCode(workbench);
      if (c && codesView.view.visible) await codesView.reveal(c.id);
    }),
    'markerResearch.renameCode': guard(vscode.l10n.t('renaming the code'), (arg) => renameCode(arg)),
    'markerResearch.recolourCode': guard(vscode.l10n.t('changing the colour'), (arg) => recolourCode(arg)),
    'markerResearch.describeCode': guard(vscode.l10n.t('describing the code'), (arg) => describeCode(arg)),
    'markerResearch.editCodeMemo': guard(vscode.l10n.t('editing the memo'), (arg) => codeMemo(arg)),
    'markerResearch.deleteCode': guard(vscode.l10n.t('deleting the code'), (arg) => deleteCode(arg)),
    'markerResearch.editSegmentMemo': guard(vscode.l10n.t('editing the memo'), (arg) => segmentMemo(arg)),
    'markerResearch.removeSegment': guard(vscode.l10n.t('removing the segment'), (arg) => removeSegment(arg)),
    'markerResearch.recodeSegment': guard(vscode.l10n.t('recoding the segment'), (arg) => recodeSegment(arg)),
    'markerResearch.createSuggestedCode': guard(vscode.l10n.t('creating the code'), (arg) => createSuggested(arg)),
    'markerResearch.codeItemTable': guard(vscode.l10n.t('making the code × item table'), () => codeItemTable()),
    'markerResearch.refreshCodes': guard(vscode.l10n.t('reading the codes'), () => codesView.refresh()),
  };
  return { commands, disposables: [tables, vscode.workspace.registerTextDocumentContentProvider(CODE_TABLE_SCHEME, tables)] };
}
