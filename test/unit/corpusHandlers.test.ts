/**
 * The engine's corpus requests through the protocol (an in-memory
 * connection to the real server): index with work-done progress, the view
 * state, marker generation, change notifications, cancel, errors with a
 * reason, and each file parsed once per index.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import {
  corpusSummaryRequest, ENGINE_ERROR_CODE, engineChangedNotification, engineStatsRequest, generateMarkersRequest, indexRequest, searchRequest, SIDEBAR_STATE_PIECE_CHARS,
  sidebarStatePieceRequest, sidebarStateRequest, type EngineChangedParams, type EngineStatsResult, type SerializedSidebarState, type EngineErrorData, type EngineProgressReport,
} from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { DEMO_CORPUS } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';

const settings = settingsSchema.parse({});

describe('engine: corpus requests through the protocol', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection;
  const changes: EngineChangedParams[] = [];

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-corpus-handlers-'));
    root = path.join(work, 'demo');
    await cp(DEMO_CORPUS, root, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    engine = await startEngine();
    engine.client.onNotification(engineChangedNotification.method, (p: EngineChangedParams) => void changes.push(p));
  });

  after(async () => {
    await engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: generate is refused with reason no-corpus, the view state is null', async () => {
    await assert.rejects(
      engine.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings }),
      (e: ResponseError<EngineErrorData>) => e.code === ENGINE_ERROR_CODE && e.data?.reason === 'no-corpus' && /Index Corpus/.test(e.message),
    );
    assert.equal(await engine.client.sendRequest(sidebarStateRequest.method, {}), null);
  });

  test('index reports work-done progress with done/total, parses each file once, and tells the client', async () => {
    const token = 'index-1';
    const before = (await engine.client.sendRequest(engineStatsRequest.method, {})) as { filesParsed: number };
    const r = (await engine.client.sendRequest(indexRequest.method, { root, settings, workDoneToken: token })) as { items: number; words: number; root: string };
    assert.ok(r.items >= 3, `items: ${r.items}`);
    assert.ok(r.words > 100);
    const values = engine.progress.get(token) ?? [];
    assert.equal((values[0] as { kind: string }).kind, 'begin');
    assert.equal((values.at(-1) as { kind: string }).kind, 'end');
    const reports = values.filter((v): v is EngineProgressReport => (v as { kind: string }).kind === 'report');
    assert.ok(reports.length >= 1, 'at least one report');
    const last = reports.at(-1)!;
    assert.equal(last.done, last.total, 'the last report is complete');
    assert.equal(last.percentage, 100);
    const after = (await engine.client.sendRequest(engineStatsRequest.method, {})) as { filesParsed: number; items: number; rssBytes: number };
    const state = (await viewState(engine)) as { items: { transcriptFile: string | null; commentsFile: string | null }[] };
    const files = state.items.reduce((a, it) => a + (it.transcriptFile ? 1 : 0) + (it.commentsFile ? 1 : 0), 0);
    assert.ok(after.filesParsed - before.filesParsed >= files, 'every transcript and comments file read');
    assert.ok(after.filesParsed - before.filesParsed <= files + state.items.length, 'and each at most once (plus one metadata file per item)');
    assert.equal(after.items, r.items);
    assert.ok(after.rssBytes > 0);
    await waitFor(() => changes.some((c) => c.what === 'corpus' && c.root === r.root));
  });

  test('the view state lists every item; generate (extractive) writes markers the next state shows', async () => {
    const token = 'gen-1';
    const report = (await engine.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings, workDoneToken: token })) as { engine: string; items: number; markers: number; grounded: number };
    assert.equal(report.engine, 'extractive');
    assert.ok(report.markers > 0);
    assert.equal(report.grounded, report.markers, 'extractive markers are all grounded');
    await waitFor(() => changes.some((c) => c.what === 'generating' && c.generating) && changes.some((c) => c.what === 'generating' && !c.generating));
    const state = (await viewState(engine)) as { status: string; items: { markers: { total: number } | null }[] };
    assert.equal(state.status, 'ready');
    assert.equal(state.items.length, report.items);
    assert.equal(state.items.reduce((a, it) => a + (it.markers?.total ?? 0), 0), report.markers);
    const summary = (await engine.client.sendRequest(corpusSummaryRequest.method, {})) as { markers: number; items: number };
    assert.equal(summary.markers, report.markers);
    // Again, with mode missing: nothing to do.
    assert.equal(await engine.client.sendRequest(generateMarkersRequest.method, { mode: 'missing', settings }), null);
  });

  test('re-indexing after one item changed parses only that item and updates the search index in memory', async () => {
    const stats = async (): Promise<{ filesParsed: number; searchIndexReady: boolean }> => (await engine.client.sendRequest(engineStatsRequest.method, {})) as { filesParsed: number; searchIndexReady: boolean };
    await waitForAsync(async () => (await stats()).searchIndexReady);
    const before = (await stats()).filesParsed;
    const dir = path.join(root, await firstItemDir(root));
    const { appendFile } = await import('node:fs/promises');
    // A comment with words no item has.
    await appendFile(path.join(dir, 'comments.jsonl'), '{"id": "zz-1", "author": "@probe", "text": "Zanzibarian flamingos aside, the route was fine."}\n');
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    const after = (await stats()).filesParsed;
    assert.ok(after - before >= 1 && after - before <= 3, `files parsed again: ${after - before} (one item's files)`);
    const found = (await engine.client.sendRequest(searchRequest.method, { query: 'zanzibarian flamingos' })) as { hits: { itemId: string; text: string; file: string | null }[] };
    assert.equal(found.hits[0]?.itemId, path.basename(dir), JSON.stringify(found.hits.slice(0, 2)));
    assert.match(found.hits[0]!.text, /Zanzibarian flamingos/);
  });

  test('a new engine (after a crash) serves the persisted state: the search index is loaded, not built, and the markers are read, not generated', async () => {
    const stats = async (c: EngineConnection): Promise<{ searchIndexReady: boolean }> => (await c.client.sendRequest(engineStatsRequest.method, {})) as { searchIndexReady: boolean };
    await waitForAsync(async () => (await stats(engine)).searchIndexReady);
    type Hits = { hits: { itemId: string; file: string | null; range: unknown; text: string }[] };
    const query = 'coffee prices';
    const before = (await engine.client.sendRequest(searchRequest.method, { query })) as Hits;
    const second = await startEngine();
    try {
      await second.client.sendRequest(indexRequest.method, { root, settings });
      await waitForAsync(async () => (await stats(second)).searchIndexReady);
      // Hits come with their text and place from what the index kept: no item is parsed for them.
      const reparsed = ((await second.client.sendRequest(engineStatsRequest.method, {})) as EngineStatsResult).itemsReparsed;
      const again = (await second.client.sendRequest(searchRequest.method, { query })) as Hits;
      const place = (h: Hits['hits'][number]): unknown[] => [h.itemId, h.file, h.range, h.text];
      assert.ok(again.hits.length > 0);
      assert.deepEqual(again.hits.map(place), before.hits.map(place));
      const parts = (await second.client.sendRequest(engineStatsRequest.method, {})) as EngineStatsResult;
      assert.equal(parts.itemsReparsed - reparsed, 0, 'no item parsed again for the hits');
      const lines = second.logs.map((l) => l.message);
      assert.ok(lines.some((l) => /^search index (loaded|updated)/.test(l)), lines.filter((l) => l.startsWith('search index')).join(' | '));
      assert.ok(!lines.some((l) => /^search index built/.test(l)));
      assert.ok(!lines.some((l) => /^markers: generating/.test(l)), 'no marker is generated');
      const state = (await viewState(second)) as { items: { markers: { total: number } | null }[] };
      assert.ok(state.items.every((it) => it.markers && it.markers.total > 0), 'every item has its markers back');
      const found = (await second.client.sendRequest(searchRequest.method, { query: 'coffee prices' })) as { hits: unknown[] };
      assert.ok(found.hits.length > 0);
    } finally {
      await second.close();
    }
  });

  test('a cancelled index answers RequestCancelled and keeps the corpus served before', async () => {
    const big = path.join(work, 'big');
    for (let i = 0; i < 60; i++) {
      const dir = path.join(big, `item-${String(i).padStart(3, '0')}`);
      await cp(path.join(root, (await firstItemDir(root))), dir, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    }
    const source = new CancellationTokenSource();
    const pending = engine.client.sendRequest(indexRequest.method, { root: big, settings, workDoneToken: 'index-cancel' }, source.token);
    source.cancel();
    await assert.rejects(pending, (e: ResponseError<unknown>) => e.code === -32800);
    const state = (await viewState(engine)) as { corpusRoot: string };
    assert.equal(state.corpusRoot, root, 'the corpus indexed before is still served');
  });

  test('a model provider without a key or base URL is refused with reason no-api-key', async () => {
    await assert.rejects(
      engine.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings: { ...settings, provider: 'openai', baseUrl: '' } }),
      (e: ResponseError<EngineErrorData>) => e.code === ENGINE_ERROR_CODE && e.data?.reason === 'no-api-key',
    );
  });

  test('a corpus problem is served in the view state with its file', async () => {
    await writeFile(path.join(root, (await firstItemDir(root)), 'comments.jsonl'), '{"id": "c1", "text": "fine"}\n{not json\n');
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    const state = (await viewState(engine)) as { problems: { file: string; line: number | null }[] };
    assert.ok(state.problems.some((p) => p.file.endsWith('comments.jsonl') && p.line === 2), JSON.stringify(state.problems));
  });
});

describe('engine: a large view state comes in pieces', () => {
  let work: string;
  let engine: EngineConnection;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-state-pieces-'));
    // Enough items that the state passes one piece: each item's entry is a few hundred characters.
    const n = Math.ceil((SIDEBAR_STATE_PIECE_CHARS * 1.5) / 250);
    await Promise.all(Array.from({ length: n }, (_, i) => writeFile(path.join(work, `episode-${String(i).padStart(4, '0')}.transcript.txt`), `Host: Episode ${i} talks about winter range and battery prices.\nGuest: It does, in episode ${i}.\n`)));
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root: work, settings });
  });
  after(async () => {
    await engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('the pieces join to the whole state; a newer state makes the pieces of the older one null', async () => {
    const first = (await engine.client.sendRequest(sidebarStateRequest.method, {})) as SerializedSidebarState;
    assert.ok(first.pieces >= 2, `${first.pieces} pieces`);
    assert.equal(first.json.length, SIDEBAR_STATE_PIECE_CHARS);
    const state = (await viewState(engine)) as { items: unknown[] };
    assert.equal(state.items.length, first.items);
    // viewState asked for a newer state: the first one is gone.
    assert.equal(await engine.client.sendRequest(sidebarStatePieceRequest.method, { seq: first.seq, index: 1 }), null);
    const latest = (await engine.client.sendRequest(sidebarStateRequest.method, {})) as SerializedSidebarState;
    assert.equal(await engine.client.sendRequest(sidebarStatePieceRequest.method, { seq: latest.seq, index: latest.pieces }), null, 'past the last piece');
  });
});

/** The view state the engine serialised (the extension passes the string to the webview unparsed), all its pieces fetched, parsed. */
async function viewState(c: EngineConnection): Promise<unknown> {
  const r = (await c.client.sendRequest(sidebarStateRequest.method, {})) as SerializedSidebarState | null;
  if (!r) return null;
  const parts = [r.json];
  for (let index = 1; index < r.pieces; index++) {
    const piece = (await c.client.sendRequest(sidebarStatePieceRequest.method, { seq: r.seq, index })) as { json: string } | null;
    assert.ok(piece, `piece ${index} of ${r.pieces}`);
    parts.push(piece.json);
  }
  const state = JSON.parse(parts.join('')) as { status: string; items: { markers: unknown }[] };
  assert.equal(r.items, state.items.length, 'the item count beside the JSON matches it');
  assert.equal(r.itemsWithMarkers, state.items.filter((i) => i.markers).length);
  assert.equal(r.status, state.status);
  return state;
}

async function firstItemDir(root: string): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const names = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
  return names[0]!;
}

/** Waits for `ok`; the bound is a safety net against a hang on a busy machine, not a time limit under test. */
async function waitForAsync(ok: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits for `ok`; the bound is a safety net against a hang on a busy machine, not a time limit under test. */
async function waitFor(ok: () => boolean, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
