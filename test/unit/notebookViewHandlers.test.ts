/**
 * The workbench requests through the protocol (an in-memory connection to the real engine) on the
 * demo corpus: pins of every kind land in notebook.md with the item's exact text as their quote
 * and are listed by the Notebook view at their line; selections of a readable document (random
 * ones, generated from the document's own lines) pin exactly the selected text; a selection in a
 * document rendered before the last index is refused; codes applied to selections are listed by
 * the Codes view and shown at the same text in the readable view; after the transcript changes
 * and the corpus is indexed again, pinned spans move with their quote or are flagged lost; the
 * notebook exports; malformed params are refused with `bad-request`.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ResponseError } from 'vscode-jsonrpc/node';
import type { Corpus, CorpusItem, TextRange } from '../../src/core/corpus/types';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { chatTurnRequest, ENGINE_ERROR_CODE, indexRequest, readableDocumentRequest, runResearchRequest, type EngineErrorData, type ChatTurnResult, type ReadableDocument, type ResearchRunResult } from '../../src/shared/lspProtocol';
import { applyCodeRequest, codeEditRequest, codeItemTableRequest, codesViewRequest, exportNotebookRequest, notebookEditRequest, notebookViewRequest, pinRequest, readableCodingsRequest, reanchorWorkbenchRequest, segmentEditRequest, type ApplyCodeResult, type CodeEditResult, type CodeItemTableResult, type CodesViewResult, type NotebookViewResult, type PinResult, type ReadableCodingsResult, type ReadableRange } from '../../src/shared/workbenchProtocol';
import { findCitations } from '../../src/core/research/citationLinks';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { rng } from '../support/testing';

const settings = settingsSchema.parse({});
const engineError = (reason: string) => (e: ResponseError<EngineErrorData>) => e.code === ENGINE_ERROR_CODE && e.data?.reason === reason;

/** The document's text of a range (zero-based lines, UTF-16 columns). */
function slice(text: string, r: ReadableRange): string {
  const lines = text.split('\n');
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startCharacter, r.endCharacter);
  return [lines[r.startLine]!.slice(r.startCharacter), ...lines.slice(r.startLine + 1, r.endLine), lines[r.endLine]!.slice(0, r.endCharacter)].join('\n');
}
const textOf = (text: string, r: TextRange): string => slice(text, { startLine: r.startLine, startCharacter: r.startColumn, endLine: r.endLine, endCharacter: r.endColumn });
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Random selections of whole words on one text line of a readable document (lines indented as a
 * turn's or comment's text: four spaces), as a researcher drags over them.
 */
function randomSelections(r: () => number, doc: string, n: number): ReadableRange[] {
  const lines = doc.split('\n');
  const textLines = lines.map((l, i) => ({ l, i })).filter(({ l }) => /^ {4}\S/.test(l) && l.trim().length > 12);
  const out: ReadableRange[] = [];
  for (let k = 0; k < n && textLines.length; k++) {
    const { l, i } = textLines[Math.floor(r() * textLines.length)]!;
    const words = [...l.matchAll(/\S+/g)].map((m) => ({ a: m.index, z: m.index + m[0].length }));
    const from = Math.floor(r() * words.length);
    const to = Math.min(words.length - 1, from + Math.floor(r() * 6));
    out.push({ startLine: i, startCharacter: words[from]!.a, endLine: i, endCharacter: words[to]!.z });
  }
  return out;
}

describe('engine: workbench requests through the protocol', () => {
  let work: string;
  let corpus: Corpus;
  let engine: EngineConnection;
  const request = <R>(method: string, params: unknown): Promise<R> => engine.client.sendRequest(method, params) as Promise<R>;
  const doc = (itemId: string) => request<ReadableDocument>(readableDocumentRequest.method, { itemId, withText: true });
  const item = (id: string): CorpusItem => corpus.items.find((it) => it.id === id)!;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-workbench-handlers-'));
    corpus = await freshDemoCorpus(work, 'demo');
    engine = await startEngine();
  });

  after(async () => {
    await engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: empty views; pins and codes are refused with no-corpus', async () => {
    const nb = await request<NotebookViewResult>(notebookViewRequest.method, {});
    assert.deepEqual(nb.entries, []);
    assert.equal(nb.root, null);
    const codes = await request<CodesViewResult>(codesViewRequest.method, {});
    assert.deepEqual(codes.codes, []);
    await assert.rejects(request(pinRequest.method, { target: { kind: 'note', title: 'x', note: '' } }), engineError('no-corpus'));
    await assert.rejects(request(codeEditRequest.method, { op: 'create', name: 'x' }), engineError('no-corpus'));
    await request(indexRequest.method, { root: corpus.root, settings });
  });

  test('malformed params are refused with bad-request', async () => {
    const bad: [string, unknown][] = [
      [pinRequest.method, {}],
      [pinRequest.method, { target: { kind: 'hit', itemId: 'a', part: 'transcript', start: 5, end: 5 } }],
      [pinRequest.method, { target: { kind: 'finding', reportFile: 'relative/report.md', line: 0, lineText: '' } }],
      [pinRequest.method, { target: { kind: 'note', title: '  ', note: '' } }],
      [codeEditRequest.method, { op: 'recolour', id: 'x', colour: 'red' }],
      [codeEditRequest.method, { op: 'create', name: '' }],
      [applyCodeRequest.method, { codeId: 'x', target: { kind: 'selection', itemId: 'a' } }],
      [exportNotebookRequest.method, { file: path.join(work, 'out.pdf') }],
      [segmentEditRequest.method, { op: 'recode', id: 's' }],
      [notebookEditRequest.method, { op: 'rename', id: 'e' }],
    ];
    for (const [method, params] of bad) await assert.rejects(request(method, params), engineError('bad-request'), `${method} ${JSON.stringify(params)}`);
  });

  test('random selections of readable documents pin exactly the selected text, listed in notebook.md at their line', async () => {
    const r = rng(24);
    let pinned = 0;
    for (const it of corpus.items) {
      const d = await doc(it.id);
      for (const range of randomSelections(r, d.text!, 4)) {
        const res = await request<PinResult>(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range, documentLength: d.textLength } });
        assert.equal(res.entry.kind, 'selection');
        assert.equal(res.entry.spans.length, 1);
        const s = res.entry.spans[0]!;
        assert.equal(flat(s.quote), flat(slice(d.text!, range)), `${it.id} ${JSON.stringify(range)}`);
        const partText = (s.part === 'transcript' ? item(it.id).transcript : item(it.id).comments)!.text;
        assert.equal(partText.slice(s.start, s.end), s.quote, 'the quote is the part\'s own text at the span');
        assert.equal(s.itemTitle, it.title);
        assert.match(s.fileLine, /:\d+(-\d+)?$/);
        pinned++;
      }
    }
    assert.ok(pinned >= 12, `selections pinned: ${pinned}`);
    const view = await request<NotebookViewResult>(notebookViewRequest.method, {});
    assert.equal(view.entries.length, pinned);
    const text = await readFile(view.file!, 'utf8');
    const lines = text.split('\n');
    for (const e of view.entries) assert.ok(lines[e.line]!.startsWith(`<!-- marker-research:entry {"id":"${e.id}"`), `entry ${e.id} at line ${e.line}: ${lines[e.line]}`);
    assert.deepEqual(view.problems, []);
  });

  test('a selection in a document of another length (an older rendering), outside the text, or across parts is refused', async () => {
    const it = corpus.items.find((x) => x.transcript?.text && x.comments?.text)!;
    const d = await doc(it.id);
    const [range] = randomSelections(rng(3), d.text!, 1);
    await assert.rejects(request(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range, documentLength: d.textLength + 1 } }), engineError('stale-view'));
    await assert.rejects(request(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range: { startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 3 }, documentLength: d.textLength } }), engineError('no-span'));
    const last = d.lineCount - 1;
    await assert.rejects(request(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range: { startLine: range!.startLine, startCharacter: range!.startCharacter, endLine: last, endCharacter: 4 }, documentLength: d.textLength } }), engineError('no-span'));
    await assert.rejects(request(pinRequest.method, { target: { kind: 'selection', itemId: 'no such item', range, documentLength: 1 } }), engineError('not-found'));
  });

  test('markers, hits, answer sentences and notes are pinned with their words and spans', async () => {
    const before = (await request<NotebookViewResult>(notebookViewRequest.method, {})).entries.length;
    let markers = 0;
    for (const it of corpus.items) {
      const stored = await readItemMarkers(corpus.root, it.id);
      if (!stored.ok) continue;
      const m = allMarkers(stored.value).find((x) => x.evidence.length)!;
      const res = await request<PinResult>(pinRequest.method, { target: { kind: 'marker', itemId: it.id, markerId: m.id } });
      assert.equal(res.entry.kind, 'marker');
      assert.equal(res.entry.text, m.text);
      assert.equal(res.entry.spans.length, m.evidence.length);
      markers++;
    }
    await assert.rejects(request(pinRequest.method, { target: { kind: 'marker', itemId: corpus.items[0]!.id, markerId: 'no such marker' } }), engineError('not-found'));
    const it = corpus.items.find((x) => x.transcript?.text)!;
    const text = it.transcript!.text;
    const at = text.indexOf(' ', 40);
    const hit = await request<PinResult>(pinRequest.method, { target: { kind: 'hit', itemId: it.id, part: 'transcript', start: at, end: at + 60, question: 'what about it?' } });
    assert.equal(hit.entry.spans[0]!.quote, text.slice(at + 1, at + 60).trimEnd());
    const sentence = await request<PinResult>(pinRequest.method, { target: { kind: 'answer-sentence', itemId: it.id, part: 'transcript', start: at + 1, end: at + 50, text: 'A sentence [x](command:evil)', question: 'Q?' } });
    assert.equal(sentence.entry.kind, 'answer-sentence');
    assert.equal(sentence.entry.title, 'Q?');
    const note = await request<PinResult>(pinRequest.method, { target: { kind: 'note', title: 'My idea', note: 'Compare with the **minutes**.' } });
    assert.equal(note.entry.note, 'Compare with the **minutes**.');
    const md = await readFile(note.file, 'utf8');
    assert.ok(!md.includes('[x](command:evil)'), 'pinned words are escaped in notebook.md');
    const view = await request<NotebookViewResult>(notebookViewRequest.method, {});
    assert.equal(view.entries.length, before + markers + 3);
    // Edits: a note changed, an entry removed.
    const edited = await request<{ entry: { note: string | null; title: string } }>(notebookEditRequest.method, { op: 'update', id: note.entry.id, title: 'Renamed', note: 'New words' });
    assert.equal(edited.entry.title, 'Renamed');
    assert.equal(edited.entry.note, 'New words');
    await request(notebookEditRequest.method, { op: 'remove', id: sentence.entry.id });
    await assert.rejects(request(notebookEditRequest.method, { op: 'remove', id: sentence.entry.id }), engineError('not-found'));
    assert.equal((await request<NotebookViewResult>(notebookViewRequest.method, {})).entries.length, before + markers + 2);
  });

  test('a finding of a report (a line with [n]) and a chat answer are pinned with the spans they cite, quoting the items\' own text', async () => {
    const run = await request<ResearchRunResult>(runResearchRequest.method, { settings, goal: 'auto' });
    assert.ok(run.reportPath);
    const sources = JSON.parse(await readFile(path.join(run.runDir, 'report.sources.json'), 'utf8')) as { citations: { number: number; span: { item_id: string } }[] };
    const cited = new Set(sources.citations.map((c) => c.number));
    const lines = (await readFile(run.reportPath!, 'utf8')).split('\n');
    const partOf = (itemId: string, part: string): string => ((part === 'transcript' ? item(itemId).transcript : item(itemId).comments)?.text ?? '');
    let findings = 0;
    for (const [line, lineText] of lines.entries()) {
      const numbers = [...new Set(findCitations(lineText).map((c) => c.number))].filter((n) => cited.has(n));
      if (!numbers.length || findings >= 8) continue;
      const res: PinResult = await request<PinResult>(pinRequest.method, { target: { kind: 'finding', reportFile: run.reportPath, line, lineText } });
      assert.equal(res.entry.kind, 'finding');
      assert.equal(res.entry.spans.length, numbers.length, `line ${line + 1}: ${lineText}`);
      for (const s of res.entry.spans) assert.equal(partOf(s.itemId, s.part).slice(s.start, s.end), s.quote);
      assert.ok(!/\[\d+\]/.test(res.entry.text ?? ''), 'the finding\'s words without its citations');
      findings++;
    }
    assert.ok(findings >= 2, `findings pinned: ${findings}`);
    const plain = lines.findIndex((l) => l.trim() && !findCitations(l).length);
    await assert.rejects(request(pinRequest.method, { target: { kind: 'finding', reportFile: run.reportPath, line: plain, lineText: lines[plain] } }), engineError('no-span'));
    await assert.rejects(request(pinRequest.method, { target: { kind: 'finding', reportFile: path.join(work, 'elsewhere', '.marker-research', 'runs', 'x', 'report.md'), line: 0, lineText: '[1]' } }), engineError('outside-corpus'));
    const turn = await request<ChatTurnResult>(chatTurnRequest.method, { settings, root: corpus.root, conversationId: null, runId: run.runId, askId: 1, question: 'What is the main conclusion?' });
    assert.ok(turn.turn.cited.length > 0, 'the answer cites');
    const res = await request<PinResult>(pinRequest.method, { target: { kind: 'chat-answer', conversationId: turn.conversationId, turn: turn.turn.turn } });
    assert.equal(res.entry.kind, 'chat-answer');
    assert.equal(res.entry.text, turn.turn.answer);
    assert.equal(res.entry.title, 'What is the main conclusion?');
    assert.equal(res.entry.spans.length, turn.turn.cited.length);
    for (const s of res.entry.spans) assert.equal(partOf(s.itemId, s.part).slice(s.start, s.end), s.quote);
    await assert.rejects(request(pinRequest.method, { target: { kind: 'chat-answer', conversationId: turn.conversationId, turn: 99 } }), engineError('not-found'));
    await assert.rejects(request(pinRequest.method, { target: { kind: 'chat-answer', conversationId: 'no-such-conversation', turn: 1 } }), engineError('not-found'));
  });

  test('codes applied to selections are listed with their segments, counted per item, and shown at the same text in the readable view', async () => {
    const names = ['safety', '安全', 'coste'];
    const codes: string[] = [];
    for (const name of names) codes.push((await request<CodeEditResult>(codeEditRequest.method, { op: 'create', name, description: `about ${name}` })).code!.id);
    await assert.rejects(request(codeEditRequest.method, { op: 'create', name: ' SAFETY ' }), engineError('code-edit'));
    const r = rng(7);
    const applied = new Map<string, number>();
    const docs = new Map<string, ReadableDocument>();
    for (const it of corpus.items) {
      const d = await doc(it.id);
      docs.set(it.id, d);
      for (const range of randomSelections(r, d.text!, 3)) {
        const codeId = codes[Math.floor(r() * codes.length)]!;
        const res = await request<ApplyCodeResult>(applyCodeRequest.method, { codeId, target: { kind: 'selection', itemId: it.id, range, documentLength: d.textLength } });
        applied.set(codeId, (applied.get(codeId) ?? 0) + res.added);
        // Coding the same span with the same code again adds nothing.
        const again = await request<ApplyCodeResult>(applyCodeRequest.method, { codeId, target: { kind: 'selection', itemId: it.id, range, documentLength: d.textLength } });
        assert.equal(again.added, 0);
      }
    }
    const view = await request<CodesViewResult>(codesViewRequest.method, {});
    assert.deepEqual(view.codes.map((c) => c.name), names);
    for (const c of view.codes) {
      assert.equal(c.count, applied.get(c.id) ?? 0, c.name);
      assert.equal(c.segments.length, c.count);
      assert.equal(c.items, new Set(c.segments.map((s) => s.span.itemId)).size);
    }
    const table = await request<CodeItemTableResult>(codeItemTableRequest.method, {});
    assert.deepEqual(table.items.map((i) => i.id).slice(0, corpus.items.length), corpus.items.map((i) => i.id));
    assert.equal(table.total, [...applied.values()].reduce((a, b) => a + b, 0));
    for (const it of corpus.items) {
      const shown = await request<ReadableCodingsResult>(readableCodingsRequest.method, { itemId: it.id });
      const d = docs.get(it.id)!;
      assert.equal(shown.textLength, d.textLength);
      for (const c of shown.codes) {
        const segs = view.codes.find((x) => x.id === c.codeId)!.segments.filter((s) => s.span.itemId === it.id);
        const quotes = new Set(segs.map((s) => flat(s.span.quote)));
        for (const range of c.ranges) assert.ok([...quotes].some((q) => q.includes(flat(textOf(d.text!, range)))), `${c.name}: "${textOf(d.text!, range)}" is a coded quote`);
      }
    }
    assert.equal(await request(readableCodingsRequest.method, { itemId: 'no such item' }), null);
    // Segment edits, then a code deleted with its segments.
    const seg = view.codes[0]!.segments[0]!;
    const memo = await request<{ segment: { memo: string } }>(segmentEditRequest.method, { op: 'memo', id: seg.id, text: 'key passage' });
    assert.equal(memo.segment.memo, 'key passage');
    const moved = await request<{ segment: { codeId: string } }>(segmentEditRequest.method, { op: 'recode', id: seg.id, codeId: codes[1] });
    assert.equal(moved.segment.codeId, codes[1]);
    const del = await request<CodeEditResult>(codeEditRequest.method, { op: 'delete', id: codes[2] });
    assert.equal(del.segmentsRemoved, applied.get(codes[2]!) ?? 0);
    assert.deepEqual((await request<CodesViewResult>(codesViewRequest.method, {})).codes.map((c) => c.name), names.slice(0, 2));
  });

  test('after the transcript changes and the corpus is indexed again, spans move with their quote or are flagged lost', async () => {
    const it = corpus.items.find((x) => x.transcript?.text && x.transcript.file.relPath.endsWith('.vtt')) ?? corpus.items.find((x) => x.transcript?.text)!;
    const d = await doc(it.id);
    const lines = d.text!.split('\n');
    // Two selections in two different text lines of the item: one kept (moves), one deleted (lost).
    const textLines = lines.map((l, i) => ({ l, i })).filter(({ l }) => /^ {4}\S/.test(l) && l.trim().split(/\s+/).length >= 4);
    assert.ok(textLines.length >= 2);
    const pick = (k: number) => {
      const { l, i } = textLines[k]!;
      const words = [...l.matchAll(/\S+/g)];
      return { startLine: i, startCharacter: words[0]!.index, endLine: i, endCharacter: words[2]!.index + words[2]![0].length };
    };
    const kept = await request<PinResult>(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range: pick(0), documentLength: d.textLength } });
    const gone = await request<PinResult>(pinRequest.method, { target: { kind: 'selection', itemId: it.id, range: pick(1), documentLength: d.textLength } });
    const file = path.join(corpus.root, it.transcript!.file.relPath);
    const original = await readFile(file, 'utf8');
    // The quotes as the file writes them (white space may differ from the part's normalised text).
    const inFile = (quote: string): RegExp => new RegExp(quote.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
    const goneAt = inFile(gone.entry.spans[0]!.quote).exec(original);
    assert.ok(goneAt, 'the quote is in the file as it is');
    // A sentence is added before the kept quote; the lost one's words are replaced.
    let edited = `${original.slice(0, goneAt.index)}words said differently now${original.slice(goneAt.index + goneAt[0].length)}`;
    const keptAt = inFile(kept.entry.spans[0]!.quote).exec(edited);
    assert.ok(keptAt);
    edited = `${edited.slice(0, keptAt.index)}Inserted words first. ${edited.slice(keptAt.index)}`;
    await writeFile(file, edited);
    await request(indexRequest.method, { root: corpus.root, settings });
    const r = await request<{ notebook: { moved: number; lost: number; newlyLost: number; written: boolean } }>(reanchorWorkbenchRequest.method, {});
    assert.ok(r.notebook.moved >= 1, JSON.stringify(r));
    assert.ok(r.notebook.lost >= 1 && r.notebook.newlyLost >= 1, JSON.stringify(r));
    assert.ok(r.notebook.written);
    const view = await request<NotebookViewResult>(notebookViewRequest.method, {});
    const k = view.entries.find((e) => e.id === kept.entry.id)!;
    const g = view.entries.find((e) => e.id === gone.entry.id)!;
    assert.equal(k.spans[0]!.lost, null);
    assert.equal(k.spans[0]!.quote, kept.entry.spans[0]!.quote);
    assert.ok(k.spans[0]!.start > kept.entry.spans[0]!.start, 'moved after the inserted words');
    assert.equal(g.spans[0]!.lost, 'quote-not-found');
    assert.equal(g.spans[0]!.start, gone.entry.spans[0]!.start, 'a lost span keeps its offsets');
    // A second re-anchor finds nothing new.
    const again = await request<{ notebook: { newlyLost: number; written: boolean } }>(reanchorWorkbenchRequest.method, {});
    assert.equal(again.notebook.newlyLost, 0);
    assert.equal(again.notebook.written, false);
  });

  test('the notebook exports as Markdown and HTML with a Sources appendix', async () => {
    const md = path.join(work, 'notebook-export.md');
    const html = path.join(work, 'notebook-export.html');
    const a = await request<{ entries: number; sources: number }>(exportNotebookRequest.method, { file: md });
    const b = await request<{ entries: number; sources: number }>(exportNotebookRequest.method, { file: html });
    assert.equal(a.entries, b.entries);
    assert.ok(a.sources > 10);
    assert.match(await readFile(md, 'utf8'), /\n## Sources\n/);
    assert.match(await readFile(html, 'utf8'), /<ol class="sources">/);
  });
});
