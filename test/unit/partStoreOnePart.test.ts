/**
 * A lazily held item parses only the part that is read (issue 25: an Ask hit in a transcript
 * parsed the item's comments too): on a generated corpus of every transcript and comments format,
 * each part read through the PartStore equals the plain load's, only that part is parsed, and the
 * content hash worked out without parsing the other part is the item's own (no item is taken for
 * changed).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { PartStore } from '../../src/core/corpus/partStore';
import type { Corpus } from '../../src/core/corpus/types';
import { ALL_FORMATS, writeFormatCorpus } from '../support/formatCorpus';

describe('PartStore parses one part at a time', () => {
  let dir: string;
  let eager: Corpus;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-onepart-'));
    await writeFormatCorpus(dir, { seed: 7, formats: ALL_FORMATS, perFormat: 3 });
    // A first lazy load writes the outline: the next one is a warm start that parses nothing.
    await loadCorpus(dir, { parts: new PartStore(1_000_000) });
    eager = await loadCorpus(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const first of ['transcript', 'comments'] as const) {
    test(`${first} read first: only it is parsed, it equals the plain load's, the other follows when read`, async () => {
      const stale: string[] = [];
      const parts = new PartStore(1_000_000, (id) => stale.push(id));
      const warm = await loadCorpus(dir, { parts });
      assert.equal(parts.items, 0, 'a warm start parses nothing');
      const other = first === 'transcript' ? 'comments' : 'transcript';
      let withBoth = 0;
      for (const item of warm.items) {
        const plain = eager.items.find((i) => i.id === item.id)!;
        const before = { ...parts.partsParsed };
        assert.deepEqual(JSON.parse(JSON.stringify(item[first] ?? null)), JSON.parse(JSON.stringify(plain[first] ?? null)), `${item.id} ${first}`);
        const has = { transcript: plain.transcript !== undefined, comments: plain.comments !== undefined };
        assert.equal(parts.partsParsed[first] - before[first], has[first] ? 1 : 0, `${item.id}: its ${first} parsed once`);
        assert.equal(parts.partsParsed[other], before[other], `${item.id}: its ${other} not parsed with it`);
        assert.deepEqual(JSON.parse(JSON.stringify(item[other] ?? null)), JSON.parse(JSON.stringify(plain[other] ?? null)), `${item.id} ${other}`);
        assert.equal(parts.partsParsed[other] - before[other], has[other] ? 1 : 0, `${item.id}: its ${other} parsed when read`);
        // Read again: both kept, nothing parsed.
        const again = { ...parts.partsParsed };
        void item.transcript;
        void item.comments;
        assert.deepEqual(parts.partsParsed, again, `${item.id}: kept parts are not parsed again`);
        if (has.transcript && has.comments) withBoth++;
      }
      assert.ok(withBoth >= 3, `the corpus has items with both parts (${withBoth})`);
      assert.equal(parts.reparsed, warm.items.length, 'each item counted once');
      assert.deepEqual(stale, [], 'the hash without the other part parsed is the item\'s own');
    });
  }

  test('an item whose other file changed is reported stale when one part is parsed', async () => {
    const stale: string[] = [];
    const parts = new PartStore(1, (id) => stale.push(id));
    const warm = await loadCorpus(dir, { parts });
    const item = warm.items.find((i) => eager.items.find((e) => e.id === i.id)?.comments && eager.items.find((e) => e.id === i.id)?.transcript)!;
    const { appendFile } = await import('node:fs/promises');
    await appendFile(item.comments === undefined ? '' : path.join(dir, item.comments.file.relPath), '\n');
    // Evict it, then read its transcript only: the changed comments file is in the hash.
    void warm.items.find((i) => i.id !== item.id && i.transcript)?.transcript;
    void item.transcript;
    assert.ok(stale.includes(item.id), `${item.id} reported changed`);
  });
});
