/**
 * The engine's evidence and export requests through the protocol (an
 * in-memory connection to the real server) on the demo corpus: the readable
 * document is core's layout, with its `line N` links and files; a marker
 * resolves to ranges of the readable document that show its evidence (or to
 * its original file); an ungrounded marker to the best search match; a span
 * or a place of the readable view to the exact slice of its original file;
 * failures carry their reason; markers export as CSV and JSON.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ResponseError } from 'vscode-jsonrpc/node';
import { mapSpan } from '../../src/core/corpus/spans';
import type { Corpus, CorpusItem, PartKind, TextRange } from '../../src/core/corpus/types';
import { MARKER_COLUMNS } from '../../src/core/export/markersExport';
import { layoutFullItem } from '../../src/core/markers/fullItem';
import { allMarkers, readItemMarkers, writeItemMarkers } from '../../src/core/markers/store';
import { ENGINE_ERROR_CODE, indexRequest, type EngineErrorData } from '../../src/shared/lspProtocol';
import {
  exportMarkersRequest, exportReportRequest, originalPlaceRequest, readableDocumentRequest, readableSpansRequest, reportPreviewRequest, resolveMarkerRequest,
  type ExportMarkersResult, type MarkerResolution, type OriginalPlace, type ReadableDocument, type ReadableTarget,
} from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { ReadableLayouts } from '../../src/server/readableLayouts';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';

const settings = settingsSchema.parse({});

/** The text of `r` in `text` (zero-based lines and columns). */
function slice(text: string, r: TextRange): string {
  const lines = text.split('\n');
  if (r.startLine === r.endLine) return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  return [lines[r.startLine]!.slice(r.startColumn), ...lines.slice(r.startLine + 1, r.endLine), lines[r.endLine]!.slice(0, r.endColumn)].join('\n');
}

/** The readable document's text of `ranges`, joined by newlines: what the highlight shows. */
const highlighted = (doc: string, ranges: readonly TextRange[]): string => ranges.map((r) => slice(doc, r)).join('\n');

const partText = (item: CorpusItem, part: PartKind): string => (part === 'transcript' ? item.transcript : item.comments)?.text ?? '';
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A rejection with the engine's error code and `reason`. */
const engineError = (reason: string, message?: RegExp) => (e: ResponseError<EngineErrorData>) =>
  e.code === ENGINE_ERROR_CODE && e.data?.reason === reason && (!message || message.test(e.message));

describe('engine: evidence and export requests through the protocol', () => {
  let work: string;
  let corpus: Corpus;
  let engine: EngineConnection;
  let ungrounded: { itemId: string; markerId: string };
  const request = <R>(method: string, params: unknown): Promise<R> => engine.client.sendRequest(method, params) as Promise<R>;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-evidence-handlers-'));
    corpus = await freshDemoCorpus(work, 'demo');
    // One marker loses its evidence (an ungrounded marker, as a model may write): it opens the best search match.
    const item = corpus.items.find((it) => it.transcript?.text)!;
    const stored = await readItemMarkers(corpus.root, item.id);
    assert.ok(stored.ok);
    const marker = stored.value.transcript_summary!.key_facts[0]!;
    marker.evidence = [];
    marker.grounded = false;
    await writeItemMarkers(corpus.root, stored.value);
    ungrounded = { itemId: item.id, markerId: marker.id };
    engine = await startEngine();
  });

  after(async () => {
    engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: markers are refused with no-corpus, documents and spans are null', async () => {
    await assert.rejects(request(resolveMarkerRequest.method, { itemId: 'x', markerId: 'm', view: 'readable' }), engineError('no-corpus', /Index Corpus/));
    await assert.rejects(request(exportMarkersRequest.method, {}), engineError('no-corpus', /^export: /));
    assert.equal(await request(readableDocumentRequest.method, { itemId: 'x' }), null);
    assert.equal(await request(readableSpansRequest.method, { itemId: 'x', spans: [{ part: 'transcript', start: 0, end: 1 }] }), null);
    await request(indexRequest.method, { root: corpus.root, settings });
  });

  test('the readable document is core\'s layout, with a link on every unit header and the item\'s files', async () => {
    for (const item of corpus.items) {
      const layout = layoutFullItem(item);
      const doc = await request<ReadableDocument>(readableDocumentRequest.method, { itemId: item.id, withText: true });
      assert.equal(doc.text, layout.text, item.id);
      assert.equal(doc.textLength, layout.text.length);
      assert.equal(doc.lineCount, layout.lineCount);
      const lines = layout.text.split('\n');
      const units = layout.blocks.filter((b) => b.part === 'transcript' || b.text.trim());
      assert.equal(doc.links.length, units.length, `${item.id}: one link per unit`);
      for (const l of doc.links) {
        assert.match(lines[l.line]!.slice(l.startCharacter, l.endCharacter), /^line \d+$/);
        assert.equal(partText(item, l.target.part).slice(l.target.start, l.target.end), units.find((b) => b.header === l.line)!.text);
      }
      assert.deepEqual(doc.files.map((f) => f.relPath), [item.transcript, item.comments].filter((p) => p?.text).map((p) => p!.file.relPath));
      const meta = await request<ReadableDocument>(readableDocumentRequest.method, { itemId: item.id });
      assert.equal(meta.text, undefined, 'no text unless asked for');
    }
    assert.equal(await request(readableDocumentRequest.method, { itemId: 'no such item' }), null);
  });

  test('a marker opens in the readable view: the highlighted ranges show its evidence', async () => {
    let checked = 0;
    for (const item of corpus.items) {
      const stored = await readItemMarkers(corpus.root, item.id);
      if (!stored.ok) continue;
      const text = layoutFullItem(item).text;
      for (const marker of allMarkers(stored.value).filter((m) => m.evidence.length)) {
        const r = await request<MarkerResolution>(resolveMarkerRequest.method, { itemId: item.id, markerId: marker.id, view: 'readable' });
        assert.equal(r.stale, false);
        assert.equal(r.target?.kind, 'readable', marker.id);
        const target = r.target as ReadableTarget;
        const first = marker.evidence[0]!;
        const same = marker.evidence.filter((e) => e.part === first.part);
        assert.equal(target.spans.length, same.length);
        for (const [i, e] of same.entries()) {
          const shown = highlighted(text, target.spans[i]!.ranges);
          assert.equal(shown, partText(item, e.part).slice(e.start, e.end), `${marker.id}: the ranges are the span`);
          assert.ok(flat(shown).includes(flat(e.quote)) || flat(e.quote).includes(flat(shown)), `${marker.id}: "${e.quote}" in "${shown}"`);
        }
        assert.match(target.originalLabel ?? '', /:\d+$/);
        assert.match(r.log, new RegExp(`^marker ${marker.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
        checked++;
      }
    }
    assert.ok(checked > 10, `markers checked: ${checked}`);
  });

  test('with view original, a marker opens its original file at its evidence', async () => {
    const item = corpus.items.find((it) => it.transcript?.text)!;
    const stored = await readItemMarkers(corpus.root, item.id);
    assert.ok(stored.ok);
    const marker = allMarkers(stored.value).find((m) => m.evidence.length)!;
    const r = await request<MarkerResolution>(resolveMarkerRequest.method, { itemId: item.id, markerId: marker.id, view: 'original' });
    assert.equal(r.target?.kind, 'original');
    if (r.target?.kind !== 'original') return;
    const s = marker.evidence[0]!.source;
    assert.equal(r.target.path, path.join(corpus.root, s.file));
    assert.deepEqual(r.target.ranges[0], { startLine: s.startLine, startColumn: s.startColumn, endLine: s.endLine, endColumn: s.endColumn });
  });

  test('a marker without evidence opens the best search match, and says so', async () => {
    const r = await request<MarkerResolution>(resolveMarkerRequest.method, { ...ungrounded, view: 'readable' });
    assert.match(r.notice ?? '', /no evidence span \(ungrounded\)/);
    assert.equal(r.target?.kind, 'readable');
    assert.match(r.log, /has no evidence span: opened the best search match/);
    const o = await request<MarkerResolution>(resolveMarkerRequest.method, { ...ungrounded, view: 'original' });
    assert.equal(o.target?.kind, 'original');
  });

  test('unknown markers and items are not-found; malformed requests are bad-request', async () => {
    const item = corpus.items[0]!;
    await assert.rejects(request(resolveMarkerRequest.method, { itemId: item.id, markerId: 'nope', view: 'readable' }), engineError('not-found', /no marker "nope"/));
    await assert.rejects(request(originalPlaceRequest.method, { itemId: 'nope', part: 'transcript', start: 0, end: 1 }), engineError('not-found'));
    await assert.rejects(request(originalPlaceRequest.method, { itemId: 'nope', line: 3, character: 0 }), engineError('not-found'));
    await assert.rejects(request(resolveMarkerRequest.method, { itemId: item.id, view: 'sideways' }), engineError('bad-request', /markerId/));
  });

  test('spans: the readable ranges of a span that fits, null for one that does not', async () => {
    const item = corpus.items.find((it) => it.comments?.text)!;
    const text = partText(item, 'comments');
    const span = { part: 'comments' as const, start: 5, end: Math.min(text.length, 80) };
    const r = await request<ReadableTarget>(readableSpansRequest.method, { itemId: item.id, spans: [span] });
    assert.equal(highlighted(layoutFullItem(item).text, r.spans[0]!.ranges), text.slice(span.start, span.end));
    assert.ok(r.label.length > 0);
    assert.equal(await request(readableSpansRequest.method, { itemId: item.id, spans: [{ ...span, end: text.length + 10 }] }), null);
  });

  test('original place: a span maps to the exact slice of its file; an empty span and a cursor to their unit', async () => {
    for (const item of corpus.items) {
      for (const part of ['transcript', 'comments'] as const) {
        const text = partText(item, part);
        if (!text) continue;
        // Inside the first turn or comment: one string of the file.
        const unit = part === 'transcript' ? item.transcript!.segments[0]! : item.comments!.comments.find((c) => c.text.trim())!;
        const span = { itemId: item.id, part, start: unit.offset, end: unit.offset + Math.min(unit.text.length, 40) };
        const place = await request<OriginalPlace>(originalPlaceRequest.method, span);
        const src = mapSpan(item, span)!;
        assert.equal(place.path, src.file.path);
        assert.deepEqual(place.range, src.range);
        const raw = slice(await readFile(place.path, 'utf8'), place.range);
        const ext = path.extname(place.path);
        // JSON and plain text keep the text verbatim (escapes aside): the slice is the span.
        if (ext === '.json' || ext === '.jsonl') assert.equal(JSON.parse(`"${raw}"`), text.slice(span.start, span.end), `${item.id}/${part}`);
        else if (ext === '.txt') assert.equal(raw, text.slice(span.start, span.end), `${item.id}/${part}`);
        else assert.ok(raw.length > 0);
        assert.match(place.label, /:\d+$/);

        const empty = await request<OriginalPlace>(originalPlaceRequest.method, { itemId: item.id, part, start: 0, end: 0 });
        assert.ok(empty.span.end > empty.span.start, 'an empty span opens its unit');
      }
      // The cursor on a unit's text: that unit.
      const layout = layoutFullItem(item);
      const b = layout.blocks.find((x) => x.text.trim())!;
      const place = await request<OriginalPlace>(originalPlaceRequest.method, { itemId: item.id, line: b.header + 1, character: 6 });
      assert.deepEqual(place.span, { itemId: item.id, part: b.part, start: b.offset, end: b.offset + b.text.length });
      // Above the first unit: the start of the first part.
      const top = await request<OriginalPlace>(originalPlaceRequest.method, { itemId: item.id, line: 0, character: 0 });
      assert.equal(top.span.start, 0);
    }
  });

  test('export: markers as CSV and JSON with the expected columns; bad formats and runs refused', async () => {
    const check = await request<ExportMarkersResult>(exportMarkersRequest.method, {});
    assert.equal(check.file, null);
    assert.ok(check.markers > 0 && check.items > 0);
    const csvFile = path.join(work, 'out', 'markers.csv');
    const csv = await request<ExportMarkersResult>(exportMarkersRequest.method, { file: csvFile });
    assert.equal(csv.format, 'csv');
    assert.equal(csv.markers, check.markers);
    const csvText = await readFile(csvFile, 'utf8');
    assert.equal(csvText.replace(/^\uFEFF/, '').split(/\r?\n/)[0], MARKER_COLUMNS.join(','));
    const jsonFile = path.join(work, 'out', 'markers.json');
    const json = await request<ExportMarkersResult>(exportMarkersRequest.method, { file: jsonFile });
    assert.equal(json.format, 'json');
    const rows = JSON.parse(await readFile(jsonFile, 'utf8')) as Record<string, unknown>[] | { markers: Record<string, unknown>[] };
    const list = Array.isArray(rows) ? rows : rows.markers;
    assert.equal(list.length, check.markers);
    for (const c of ['item', 'kind', 'text', 'topic', 'speaker', 'time', 'file', 'line', 'quote']) assert.ok(c in list[0]!, `column ${c}`);
    await assert.rejects(request(exportMarkersRequest.method, { file: path.join(work, 'out', 'markers.txt') }), engineError('format', /^export: /));
    await assert.rejects(request(exportMarkersRequest.method, { file: 'relative.csv' }), engineError('bad-request'));
    await assert.rejects(request(exportReportRequest.method, { runId: 'latest', file: path.join(work, 'out', 'r.html') }), engineError('no-run'));
    await assert.rejects(request(reportPreviewRequest.method, { runId: 'nope' }));
  });

  test('a re-index renders the documents anew', async () => {
    await request(indexRequest.method, { root: corpus.root, settings });
    const item = corpus.items[0]!;
    const doc = await request<ReadableDocument>(readableDocumentRequest.method, { itemId: item.id, withText: true });
    assert.equal(doc.text, layoutFullItem(item).text);
  });
});

describe('readable layouts of the engine', () => {
  test('rendered once per loaded item, the most recent kept, all dropped when a corpus loads', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'mr-layouts-'));
    try {
      const corpus = await freshDemoCorpus(work, 'demo');
      let reload = (): void => undefined;
      const layouts = new ReadableLayouts({ onDidLoad: (l) => ((reload = () => l(corpus)), { dispose: () => undefined }) }, 2);
      const [a, b, c] = corpus.items;
      const first = layouts.get(a!);
      assert.equal(layouts.get(a!), first, 'the same entry for the same loaded item');
      layouts.get(b!);
      layouts.get(c!);
      assert.equal(layouts.size, 2);
      assert.notEqual(layouts.get(a!), first, 'the least recently used was dropped');
      assert.notEqual(layouts.get({ ...a! }).layout, first.layout, 'another object for the item (a new load): rendered anew');
      reload();
      assert.equal(layouts.size, 0);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
