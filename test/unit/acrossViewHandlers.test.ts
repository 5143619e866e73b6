/**
 * The "Across items" and REFI-QDA export requests through the protocol (an in-memory connection to
 * the real engine) on a copy of the demo corpus with its extractive markers: before an index they
 * are refused with `no-corpus`; after it, the topic picker's counts, a topic's markers, a
 * comparison and the timeline agree with the marker files read directly; malformed params are
 * refused with `bad-request`; the project exports to a .qdpx that reads back with the codebook's
 * codes and the coded segment (and the markers as codes when asked), with work-done progress; a
 * codebook that does not read is `workbench-file`.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ResponseError } from 'vscode-jsonrpc/node';
import { topicKey } from '../../src/core/across/topicKey';
import type { Corpus } from '../../src/core/corpus/types';
import { readQdpx } from '../../src/core/export/qdpx/qdpxRead';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { createCode } from '../../src/core/workbench/codebookStore';
import { addSegment } from '../../src/core/workbench/codingStore';
import { codebookFile } from '../../src/core/workbench/files';
import { pinSpan } from '../../src/core/workbench/pins';
import type { ItemsComparison, ItemTimeline, MarkersAcross } from '../../src/shared/acrossModel';
import { ENGINE_ERROR_CODE, indexRequest, type EngineErrorData } from '../../src/shared/lspProtocol';
import { compareItemsRequest, exportQdpxRequest, itemTimelineRequest, markersAcrossRequest, type ExportQdpxResult } from '../../src/shared/workbenchProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';

const settings = settingsSchema.parse({});
const engineError = (reason: string) => (e: ResponseError<EngineErrorData>) => e.code === ENGINE_ERROR_CODE && e.data?.reason === reason;

describe('engine: across-items and REFI-QDA export requests through the protocol', () => {
  let work: string;
  let corpus: Corpus;
  let engine: EngineConnection;
  const files = new Map<string, ItemMarkers>();
  const request = <R>(method: string, params: unknown): Promise<R> => engine.client.sendRequest(method, params) as Promise<R>;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-across-handlers-'));
    corpus = await freshDemoCorpus(work, 'demo');
    for (const item of corpus.items) {
      const r = await readItemMarkers(corpus.root, item.id);
      if (r.ok) files.set(item.id, r.value);
    }
    assert.ok(files.size >= 3);
    engine = await startEngine();
  });

  after(async () => {
    await engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: every request is refused with no-corpus', async () => {
    await assert.rejects(request(markersAcrossRequest.method, { detail: 'counts' }), engineError('no-corpus'));
    await assert.rejects(request(compareItemsRequest.method, { itemIds: ['a', 'b'] }), engineError('no-corpus'));
    await assert.rejects(request(itemTimelineRequest.method, {}), engineError('no-corpus'));
    await assert.rejects(request(exportQdpxRequest.method, { file: path.join(work, 'x.qdpx') }), engineError('no-corpus'));
    await request(indexRequest.method, { root: corpus.root, settings });
  });

  test("the picker's counts: every marker of the marker files, per kind and per folded topic", async () => {
    const m = await request<MarkersAcross>(markersAcrossRequest.method, { detail: 'counts' });
    const all = [...files.values()].flatMap((f) => allMarkers(f));
    assert.equal(m.totals.markers, all.length);
    for (const kind of ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] as const) assert.equal(m.totals.byKind[kind], all.filter((x) => x.kind === kind).length, kind);
    const byTopic = new Map<string, number>();
    for (const x of all) byTopic.set(topicKey(x.topic), (byTopic.get(topicKey(x.topic)) ?? 0) + 1);
    assert.deepEqual(new Map(m.topics.map((t) => [t.key, t.count])), byTopic);
    assert.ok(m.topics.every((t) => t.items.every((it) => it.markers.length === 0)), 'counts only');
  });

  test("a topic's markers across items: each with its item, id and place, the ones of the files", async () => {
    const counts = await request<MarkersAcross>(markersAcrossRequest.method, { detail: 'counts' });
    const topic = counts.topics.find((t) => t.key && t.itemCount >= 1)!;
    const m = await request<MarkersAcross>(markersAcrossRequest.method, { topic: topic.label });
    assert.equal(m.topics.length, 1);
    const ids = m.topics[0]!.items.flatMap((it) => it.markers.map((x) => `${x.itemId}/${x.markerId}`)).sort();
    const want = [...files].flatMap(([id, f]) => allMarkers(f).filter((x) => topicKey(x.topic) === topic.key).map((x) => `${id}/${x.id}`)).sort();
    assert.deepEqual(ids, want);
    for (const it of m.topics[0]!.items) for (const x of it.markers) if (x.grounded) assert.ok(x.place && x.place.end > x.place.start, `${x.markerId} has a place to open`);
    // Kinds narrow it.
    const facts = await request<MarkersAcross>(markersAcrossRequest.method, { topic: topic.label, kinds: ['FACT'] });
    assert.equal(facts.totals.markers, facts.totals.byKind.FACT);
  });

  test('a comparison of two items: their totals and kinds are those of their files; an unknown id is listed as missing', async () => {
    const [a, b] = [...files.keys()];
    const c = await request<ItemsComparison>(compareItemsRequest.method, { itemIds: [a, b, 'no-such-item'] });
    assert.deepEqual(c.items.map((it) => it.itemId), [a, b]);
    assert.deepEqual(c.missing, ['no-such-item']);
    for (const it of c.items) assert.equal(it.total, allMarkers(files.get(it.itemId)!).length);
    assert.equal(c.similarity.pairs.length, 1);
  });

  test('the timeline lists every item once, dated or not', async () => {
    const t = await request<ItemTimeline>(itemTimelineRequest.method, {});
    const listed = [...t.buckets.flatMap((b) => b.items), ...t.undated].map((it) => it.itemId).sort();
    assert.deepEqual(listed, corpus.items.map((it) => it.id).sort());
    const weekly = await request<ItemTimeline>(itemTimelineRequest.method, { bucket: 'week' });
    assert.equal(weekly.bucket, 'week');
  });

  test('malformed params are refused with bad-request', async () => {
    await assert.rejects(request(markersAcrossRequest.method, { kinds: ['NOPE'] }), engineError('bad-request'));
    await assert.rejects(request(compareItemsRequest.method, { itemIds: ['only-one'] }), engineError('bad-request'));
    await assert.rejects(request(itemTimelineRequest.method, { bucket: 'year' }), engineError('bad-request'));
    await assert.rejects(request(exportQdpxRequest.method, { file: 'relative.qdpx' }), engineError('bad-request'));
    await assert.rejects(request(exportQdpxRequest.method, { file: path.join(work, 'project.zip') }), engineError('bad-request'));
  });

  test('Export Project (REFI-QDA): the codebook and a coded segment in a .qdpx, markers as codes when asked, with progress', async () => {
    const item = corpus.items.find((it) => it.transcript)!;
    const seg = item.transcript!.segments[1]!;
    const code = await createCode(corpus.root, { name: 'Safety' });
    await addSegment(corpus.root, { codeId: code.id, span: pinSpan(item, 'transcript', seg.offset, seg.offset + seg.text.length)! });
    const file = path.join(work, 'demo.qdpx');
    const r = await request<ExportQdpxResult>(exportQdpxRequest.method, { file, workDoneToken: 'qdpx-1' });
    assert.equal(r.file, file);
    assert.equal(r.segments, 1);
    assert.equal(r.sources, corpus.items.length);
    assert.ok((engine.progress.get('qdpx-1') ?? []).some((v) => (v as { kind: string }).kind === 'end'));
    const back = readQdpx(new Uint8Array(await readFile(file)));
    assert.deepEqual(back.project.codes.map((c) => c.name), ['Safety']);
    const coded = back.project.sources.flatMap((s) => s.selections).filter((s) => s.codings.length);
    assert.equal(coded.length, 1);
    const withMarkers = await request<ExportQdpxResult>(exportQdpxRequest.method, { file, markersAsCodes: true });
    assert.equal(withMarkers.markers, [...files.values()].flatMap((f) => allMarkers(f)).filter((m) => m.evidence.length).length);
    assert.ok(readQdpx(new Uint8Array(await readFile(file))).project.codes.some((c) => c.name === 'Marker kinds'));
  });

  test('a codebook that does not read: workbench-file, naming the file and line', async () => {
    await mkdir(path.dirname(codebookFile(corpus.root)), { recursive: true });
    await writeFile(codebookFile(corpus.root), '{ "version": 1, "codes": [ { "id": 1 } ] }\n');
    await assert.rejects(request(exportQdpxRequest.method, { file: path.join(work, 'bad.qdpx') }), (e: ResponseError<EngineErrorData>) => engineError('workbench-file')(e) && /codebook\.json:1/.test(e.message));
  });
});
