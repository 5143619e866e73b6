/**
 * Lazily held items (the engine's load): parsed parts in a bounded store, the
 * persisted outline read instead of the files on a warm start, and the same
 * corpus as a plain load in every observable way.
 */
import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { outlineFile } from '../../src/core/corpus/corpusOutline';
import { loadCorpus } from '../../src/core/corpus/loader';
import { PartStore } from '../../src/core/corpus/partStore';
import type { Corpus } from '../../src/core/corpus/types';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** The corpus as plain data: every getter read, paths as they are. */
function plain(c: Corpus): unknown {
  return JSON.parse(JSON.stringify({ items: c.items, problems: c.problems, stats: { ...c.stats, filesRead: 0 } }));
}

describe('lazily held items', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-lazy-'));
    await cp(DEMO, dir, { recursive: true });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a first load reads every file, writes the outline, and gives the same corpus as a plain load', async () => {
    const parts = new PartStore(1_000_000);
    const lazy = await loadCorpus(dir, { parts });
    const eager = await loadCorpus(dir);
    assert.ok(lazy.stats.filesRead > 0);
    assert.deepEqual(plain(lazy), plain(eager));
    assert.equal(parts.reparsed, 0, 'the parts parsed at load are kept: nothing parsed twice');
    const outline = JSON.parse(await readFile(outlineFile(dir), 'utf8')) as { items: Record<string, unknown> };
    for (const it of eager.items) assert.ok(it.id in outline.items, `${it.id} is in the outline`);
  });

  test('a warm start reads no file; parts are parsed when first used, and equal a plain load', async () => {
    const parts = new PartStore(1_000_000);
    const warm = await loadCorpus(dir, { parts });
    assert.equal(warm.stats.filesRead, 0, 'every item came from the outline');
    assert.equal(parts.items, 0, 'nothing parsed at load');
    const eager = await loadCorpus(dir);
    assert.deepEqual(warm.stats.words, eager.stats.words);
    assert.deepEqual(warm.stats.comments, eager.stats.comments);
    assert.deepEqual(warm.problems, eager.problems, 'the problems are the ones found when the files were read');
    const zh = warm.items.find((i) => i.id === 'ev-winter-range')!;
    assert.equal(zh.transcript?.segments[2]?.speaker, '工程师');
    assert.equal(parts.reparsed, 1, 'one item parsed, once for both of its parts');
    assert.equal(zh.comments?.comments[0]?.likes, 1520);
    assert.equal(parts.reparsed, 1);
    assert.deepEqual(plain(warm), plain(eager));
  });

  test('a changed file is read again (only its item); the outline follows', async () => {
    const file = path.join(dir, 'coffee-market-report', 'transcript.txt');
    await appendFile(file, '\nA closing line about harvest yields.\n');
    const parts = new PartStore(1_000_000);
    const c = await loadCorpus(dir, { parts });
    assert.ok(c.stats.filesRead > 0 && c.stats.filesRead <= 3, `only the changed item's files are read (${c.stats.filesRead})`);
    const coffee = c.items.find((i) => i.id === 'coffee-market-report')!;
    assert.match(coffee.transcript!.text, /harvest yields\.$/);
    const again = await loadCorpus(dir, { parts: new PartStore(1_000_000) });
    assert.equal(again.stats.filesRead, 0);
    assert.equal(again.items.find((i) => i.id === 'coffee-market-report')!.contentHash, coffee.contentHash);
  });

  test('the store keeps at most its words (the last used item always); an evicted item parses again, the same', async () => {
    const parts = new PartStore(1);
    const c = await loadCorpus(dir, { parts });
    assert.equal(parts.items, 0);
    const [a, b] = c.items;
    const first = JSON.stringify(a!.transcript ?? a!.comments);
    assert.equal(parts.items, 1);
    void (b!.transcript ?? b!.comments);
    assert.equal(parts.items, 1, 'the first was let go');
    assert.equal(JSON.stringify(a!.transcript ?? a!.comments), first);
    assert.equal(parts.reparsed, 3);
  });

  test('an item whose files changed since the load says so when it is parsed again', async () => {
    const stale: string[] = [];
    const parts = new PartStore(1, (id) => stale.push(id));
    const c = await loadCorpus(dir, { parts });
    const remote = c.items.find((i) => i.id === 'remote-work-panel')!;
    await appendFile(remote.comments!.file.path, '\nc9,New commenter,late comment,0\n');
    void c.items.find((i) => i.id !== 'remote-work-panel')!.transcript; // evicts remote-work-panel
    assert.ok(remote.comments, 'still served');
    assert.deepEqual(stale, ['remote-work-panel']);
  });

  test('an outline that does not validate is ignored: every file is read, and it is written afresh', async () => {
    await writeFile(outlineFile(dir), '{"version": "x", "items": 3}');
    const c = await loadCorpus(dir, { parts: new PartStore(1_000_000) });
    assert.ok(c.stats.filesRead > 0);
    const again = await loadCorpus(dir, { parts: new PartStore(1_000_000) });
    assert.equal(again.stats.filesRead, 0);
  });
});
