/**
 * Item ids (issue 10, class 7): unique and stable when two folders or flat-file stems share a
 * name in different sub-folders (relative-path ids, a visible `duplicate-id` notice, no
 * transcript dropped), and every loaded item is served — also one whose id holds `..`.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createMarkerEngine } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { RetrievalHandler, SourceRegistry } from '../../src/core/research/handler';
import { researchConfigSchema } from '../../src/core/research/schema';
import { runCli } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

function talk(topic: string, n: number): string {
  return [
    `Speaker A: Today we talk about ${topic} and why it matters to the city.`,
    `Speaker B: The ${topic} budget grew by ${n} percent in 2023, which is a record.`,
    `Speaker A: I think ${topic} is the best thing that happened to our neighbourhood.`,
    `Speaker B: Around ${n * 100} people joined the ${topic} meeting last spring.`,
    `Speaker A: Critics say ${topic} costs too much and helps too few people.`,
  ].join('\n');
}

async function put(root: string, rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

async function markersOf(corpus: Corpus): Promise<Map<string, ItemMarkers>> {
  const out = new Map<string, ItemMarkers>();
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    assert.ok(r.ok, `markers of "${item.id}" can be read back`);
    out.set(item.id, r.value);
  }
  return out;
}

function serve(corpus: Corpus, markers: Map<string, ItemMarkers>, requests: unknown[]) {
  const h = new RetrievalHandler(corpus, markers, researchConfigSchema.parse({ context_window_limit: 20000, max_content_items_per_turn: 10 }), new SourceRegistry());
  return h.serveTurn(requests, { used: 0 }, { stepId: 's1', round: 1 });
}

describe('item ids', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-itemids-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('two ep1/ folders in different sub-folders are two items with distinct, stable ids and both transcripts', async () => {
    const root = path.join(dir, 'clash');
    await put(root, 'season1/ep1/transcript.txt', talk('cycling', 12));
    await put(root, 'season2/ep1/transcript.txt', talk('gardening', 7));
    await put(root, 'season2/ep1/comments.jsonl', '{"text":"great episode about gardening"}\n');
    await put(root, 'a/x.transcript.txt', talk('trains', 3));
    await put(root, 'b/x.transcript.txt', talk('buses', 4));
    await put(root, 'solo/transcript.txt', talk('libraries', 5));
    const c = await loadCorpus(root);
    const ids = c.items.map((i) => i.id).sort();
    assert.deepEqual(ids, ['a/x', 'b/x', 'season1/ep1', 'season2/ep1', 'solo'], 'clashing items get their relative path; the rest keep their name');
    const s1 = c.items.find((i) => i.id === 'season1/ep1')!;
    const s2 = c.items.find((i) => i.id === 'season2/ep1')!;
    assert.match(s1.transcript!.text, /cycling/);
    assert.match(s2.transcript!.text, /gardening/);
    assert.equal(s2.comments?.comments.length, 1);
    assert.equal(s1.comments, undefined, 'parts are not mixed between the two items');
    assert.equal(s1.transcript!.file.relPath, 'season1/ep1/transcript.txt');
    assert.equal(c.problems.some((p) => p.code === 'duplicate-part'), false, 'no transcript is dropped as a duplicate part');
    const notices = c.problems.filter((p) => p.code === 'duplicate-id');
    assert.equal(notices.length, 2, notices.map((p) => p.message).join('\n'));
    const ep = notices.find((p) => p.message.includes('"ep1"'))!;
    assert.notEqual(ep.severity, 'error');
    assert.match(ep.message, /season1\/ep1/);
    assert.match(ep.message, /season2\/ep1/);
    assert.equal(c.stats.items, 5);
    // Stable: the same corpus gives the same ids on every load.
    assert.deepEqual((await loadCorpus(root)).items.map((i) => i.id).sort(), ids);

    // Each clashing item gets its own markers and is served by id.
    const { engine } = createMarkerEngine({ provider: 'extractive' }, { promptsDir: PROMPTS });
    const report = await generateMarkers(c, { engine });
    assert.deepEqual(report.items.map((r) => r.status).sort(), ['generated', 'generated', 'generated', 'generated', 'generated']);
    const markers = await markersOf(c);
    assert.equal(markers.get('season1/ep1')!.item_id, 'season1/ep1');
    assert.equal(markers.get('season2/ep1')!.item_id, 'season2/ep1');
    const m2 = allMarkers(markers.get('season2/ep1')!)[0]!;
    const turn = serve(c, markers, [
      { type: 'full_content_item', item_id: 'season1/ep1' },
      { type: 'full_content_item', item_id: 'season2/ep1' },
      { type: 'by_marker', marker_id: m2.id },
    ]);
    assert.deepEqual(turn.entries.map((e) => e.status), ['served', 'served', 'served'], turn.text);
    assert.match(turn.text, /cycling/);
    assert.match(turn.text, /gardening/);
  });

  test('a folder named a..b loads, and its markers, full item and search work', async () => {
    const root = path.join(dir, 'dots');
    await put(root, 'a..b/transcript.txt', talk('composting', 9));
    await put(root, 'a..b/comments.jsonl', '{"text":"composting saved my garden"}\n');
    await put(root, 'other/transcript.txt', talk('parking', 6));
    const c = await loadCorpus(root);
    const item = c.items.find((i) => i.transcript?.text.includes('composting'))!;
    assert.ok(item, 'the item loads');
    const id = item.id;

    const { engine } = createMarkerEngine({ provider: 'extractive' }, { promptsDir: PROMPTS });
    const report = await generateMarkers(c, { engine });
    assert.equal(report.items.find((r) => r.itemId === id)?.status, 'generated');
    const markers = await markersOf(c);
    const ms = allMarkers(markers.get(id)!);
    assert.ok(ms.length > 0);
    const kinds = [...new Set(ms.map((m) => m.kind))];
    const turn = serve(c, markers, [
      { type: 'full_content_item', item_id: id, part: 'transcript_with_comments' },
      { type: 'by_marker', marker_id: ms[0]!.id },
      { type: 'selective_markers', item_id: id, kinds },
      { type: 'by_topic', topic: 'composting garden', item_ids: [id] },
    ]);
    assert.deepEqual(turn.entries.map((e) => e.status), ['served', 'served', 'served', 'served'], turn.text);
    assert.match(turn.text, /composting saved my garden/);
    // A path-looking id that is not an item is still refused.
    const bad = serve(c, markers, [{ type: 'full_content_item', item_id: '../secrets' }, { type: 'full_content_item', item_id: 'a/../b' }]);
    assert.deepEqual(bad.entries.map((e) => e.status), ['rejected', 'rejected']);
    assert.match(bad.text, /looks like a path/);

    // The CLI: markers (cached now) and search limited to the item.
    const mk = await runCli(['markers', root, '--json']);
    assert.equal(mk.code, 0, mk.err);
    const s = await runCli(['search', root, 'composting', '--item', id, '--json']);
    assert.equal(s.code, 0, s.err);
    const hits = JSON.parse(s.out) as { itemId: string }[];
    assert.ok(hits.length > 0);
    assert.ok(hits.every((h) => h.itemId === id));
  });
});
