/**
 * The engine's Corpus-view items: the same state as `sidebarStateFor`, made
 * once per item — lazily held items are parsed only for their markers, and
 * only again when the item or its marker file changed; kept across restarts.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { PartStore } from '../../src/core/corpus/partStore';
import { generateMarkers } from '../../src/core/markers/generate';
import { markerFileName, markersDir, readItemMarkers } from '../../src/core/markers/store';
import { SidebarItems } from '../../src/server/sidebarItems';
import { sidebarStateFor, type MarkerEntry } from '../../src/shared/sidebarModel';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

describe('SidebarItems', () => {
  let dir: string;
  /** A marker file's stamp as the engine reads it: size and modification time. */
  const stamp = (id: string): string => {
    const st = statSync(path.join(markersDir(dir), markerFileName(id)), { throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeMs}` : 'missing';
  };
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-sidebar-items-'));
    await cp(DEMO, dir, { recursive: true, filter: (s) => path.basename(s) !== '.marker-research' });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('without markers, listing the items of a warm start parses none; with markers, each item once', async () => {
    await loadCorpus(dir, { parts: new PartStore(1) }); // writes the outline
    const parts = new PartStore(1);
    const corpus = await loadCorpus(dir, { parts });
    assert.equal(corpus.stats.filesRead, 0);
    const items = new SidebarItems();
    const bare = await items.of(corpus, new Map(), stamp);
    assert.equal(parts.reparsed, 0, 'facts come from the outline');
    assert.deepEqual(bare, sidebarStateFor(await loadCorpus(dir)).items, 'the same items as a plain load gives');

    await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
    const markers = new Map<string, MarkerEntry>();
    for (const it of corpus.items) {
      const r = await readItemMarkers(dir, it.id);
      if (r.ok) markers.set(it.id, { ok: true, value: r.value });
    }
    const before = parts.reparsed;
    const withMarkers = await items.of(corpus, markers, stamp);
    assert.equal(parts.reparsed - before, corpus.items.length, 'each item parsed once for its marker locations');
    assert.deepEqual(withMarkers, sidebarStateFor(await loadCorpus(dir), markers).items);

    const again = await items.of(corpus, new Map(markers), stamp);
    assert.equal(parts.reparsed - before, corpus.items.length, 'nothing parsed again when nothing changed');
    assert.equal(again[0], withMarkers[0], 'the same item object');

    // The marker file edited (by hand: its cache key and date unchanged): the view is made again.
    const first = corpus.items[0]!.id;
    await appendFile(path.join(markersDir(dir), markerFileName(first)), '\n');
    const r = await readItemMarkers(dir, first);
    assert.ok(r.ok);
    const changed = new Map(markers).set(first, { ok: true, value: r.value });
    const after = await items.of(corpus, changed, stamp);
    assert.equal(parts.reparsed - before, corpus.items.length + 1, 'only the item whose markers changed is made again');
    assert.notEqual(after[0], withMarkers[0]);
    assert.equal(after[1], withMarkers[1]);

    // A new engine (a restart): the kept views are read, nothing is parsed.
    await items.save();
    const restarted = new PartStore(1);
    const warm = await loadCorpus(dir, { parts: restarted });
    const views = await new SidebarItems().of(warm, changed, stamp);
    assert.equal(restarted.reparsed, 0, 'the views kept on disk are used');
    assert.deepEqual(views, after);
    await new SidebarItems().of(warm, markers, (id) => (id === first ? 'another stamp' : stamp(id)));
    assert.equal(restarted.reparsed, 1, 'a view kept for another marker file is made again');
  });
});
