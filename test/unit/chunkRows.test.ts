/**
 * The chunk columns of the index's chunks file (src/core/search/chunkRows.ts,
 * binarySections.ts): chunks come back as a JSON round trip of the objects
 * gives them (the demo corpus's, and generated ones with every optional
 * property present or not), and a damaged, truncated or foreign file is refused;
 * a table read from a file takes removals and additions, and writes only the
 * live chunks and the strings they use.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { decodeSections, encodeSections, SectionsFormatError } from '../../src/core/search/binarySections';
import { chunkItem, type Chunk } from '../../src/core/search/chunker';
import { ChunkTable, fromColumns, toColumns } from '../../src/core/search/chunkRows';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

function roundTrip(chunks: [number, Chunk][]): [number, Chunk][] {
  const { meta, sections } = toColumns(chunks);
  const { parts, checksum } = encodeSections('test-chunks', meta, sections);
  const file = Buffer.concat(parts);
  const decoded = decodeSections(file, 'test-chunks', checksum);
  return fromColumns(decoded.meta, decoded.sections);
}

/** A seeded generator of chunks: each optional property present or not, strings in several scripts. */
function generatedChunks(n: number, seed: number): [number, Chunk][] {
  let x = seed;
  const next = (): number => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const int = (k: number): number => Math.floor(next() * k);
  const words = ['Host', 'Guest A', '主持人', 'Señora López', 'x'.repeat(40), 'Ana: the "quoted"\nline'];
  const out: [number, Chunk][] = [];
  let id = 0;
  for (let i = 0; i < n; i++) {
    id += 1 + int(3);
    const c: Chunk = { itemId: `item-${int(7)}`, part: next() < 0.5 ? 'transcript' : 'comments', seq: int(1000), start: int(1e6), end: int(1e6), firstIndex: int(5000), lastIndex: int(5000), words: int(400) };
    if (next() < 0.5) c.speakers = Array.from({ length: int(3) }, () => words[int(words.length)]!);
    if (next() < 0.5) c.startTime = next() * 10_000;
    if (next() < 0.5) c.endTime = int(10_000) + 0.25;
    if (next() < 0.5) c.likes = int(100_000);
    if (next() < 0.5) c.replyCount = int(50);
    if (next() < 0.5) c.commentId = `c${int(1e9)}`;
    if (next() < 0.5) c.parentId = words[int(words.length)];
    if (next() < 0.5) c.publishedAt = new Date(int(2e12)).toISOString();
    if (next() < 0.5) c.range = [int(1e5), int(200), int(1e5), int(200)];
    out.push([id, c]);
  }
  return out;
}

describe('chunk columns', () => {
  test('every chunk of the demo corpus round-trips as its object does through JSON', async () => {
    const corpus = await loadCorpus(DEMO);
    const chunks: [number, Chunk][] = corpus.items.flatMap((item) => chunkItem(item, { windowWords: 40 })).map((c, i) => [i * 3 + 1, c]);
    assert.ok(chunks.some(([, c]) => c.part === 'comments' && c.likes !== undefined && c.commentId !== undefined));
    assert.ok(chunks.some(([, c]) => c.part === 'transcript' && c.speakers?.length && c.startTime !== undefined));
    assert.deepEqual(roundTrip(chunks), JSON.parse(JSON.stringify(chunks)));
  });

  test('generated chunks (every optional property present or absent, empty speaker lists, many scripts) round-trip', () => {
    for (const [n, seed] of [[0, 1], [1, 2], [17, 3], [2000, 4]] as const) {
      const chunks = generatedChunks(n, seed);
      assert.deepEqual(roundTrip(chunks), JSON.parse(JSON.stringify(chunks)), `${n} chunks, seed ${seed}`);
    }
  });

  test('span(id) and number(id, key) are the chunk\'s part, offsets, times and numbers, for added and loaded tables alike', () => {
    for (const [n, seed] of [[1, 5], [300, 6]] as const) {
      const chunks = generatedChunks(n, seed);
      const { meta, sections } = toColumns(chunks);
      const decoded = decodeSections(Buffer.concat(encodeSections('test-chunks', meta, sections).parts), 'test-chunks');
      for (const table of [ChunkTable.of(chunks), ChunkTable.fromColumns(decoded.meta, decoded.sections)]) {
        for (const [id, c] of chunks) {
          const want = { part: c.part, start: c.start, end: c.end, ...(c.startTime !== undefined ? { startTime: c.startTime } : {}), ...(c.endTime !== undefined ? { endTime: c.endTime } : {}) };
          assert.deepEqual(table.span(id), want, `chunk ${id}`);
          for (const key of ['seq', 'start', 'end', 'firstIndex', 'lastIndex', 'words', 'startTime', 'endTime', 'likes', 'replyCount'] as const) assert.equal(table.number(id, key), c[key], `chunk ${id} ${key}`);
          assert.equal(table.itemOf(id), c.itemId);
        }
        assert.equal(table.span(chunks[chunks.length - 1]![0] + 1), undefined);
        assert.equal(table.span(-1), undefined);
      }
    }
  });

  test('a chunk the columns cannot hold is refused at save, not stored wrongly', () => {
    for (const bad of [{ start: -1 }, { words: 1.5 }, { end: 2 ** 32 }, { range: [0, -3, 0, 0] as [number, number, number, number] }]) {
      const c = { ...generatedChunks(1, 9)[0]![1], ...bad };
      assert.throws(() => toColumns([[1, c]]), /chunk rows/, JSON.stringify(bad));
    }
  });

  test('a damaged, truncated, foreign or unpaired file is refused', () => {
    const { meta, sections } = toColumns(generatedChunks(300, 5));
    const { parts, checksum } = encodeSections('test-chunks', meta, sections);
    const file = Buffer.concat(parts);
    const original = JSON.parse(JSON.stringify(fromColumns(decodeSections(file, 'test-chunks').meta, decodeSections(file, 'test-chunks').sections))) as unknown;
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      // Any byte, header and padding included: the file is refused, or (a padding byte) reads as it was — never as other chunks.
      const at = Math.floor((((i * 7919) % 1000) / 1000) * file.length);
      const damaged = Buffer.from(file);
      damaged[at] = damaged[at]! ^ 0x5a;
      try {
        const d = decodeSections(damaged, 'test-chunks', checksum);
        assert.deepEqual(fromColumns(d.meta, d.sections), original, `byte ${at} changed what is read`);
      } catch (e) {
        assert.ok(e instanceof SectionsFormatError, `byte ${at}: ${String(e)}`);
        refused++;
      }
    }
    assert.ok(refused >= 50, `${refused} of 60 damaged files refused`);
    assert.throws(() => decodeSections(file.subarray(0, file.length - 8), 'test-chunks'), SectionsFormatError);
    assert.throws(() => decodeSections(file, 'other-kind'), SectionsFormatError);
    assert.throws(() => decodeSections(file, 'test-chunks', 'not-its-checksum'), SectionsFormatError);
    const ok = decodeSections(file, 'test-chunks', checksum);
    assert.equal(fromColumns(ok.meta, ok.sections).length, 300);
  });

  test('a loaded table takes removals and additions; its columns hold the live chunks and only the strings they use', () => {
    for (const seed of [6, 7, 8]) {
      const chunks = generatedChunks(400, seed);
      const { meta, sections } = toColumns(chunks);
      const file = Buffer.concat(encodeSections('test-chunks', meta, sections).parts);
      const decoded = decodeSections(file, 'test-chunks');
      const table = ChunkTable.fromColumns(decoded.meta, decoded.sections);
      const expected = new Map(chunks.map(([id, c]) => [id, JSON.parse(JSON.stringify(c)) as Chunk]));
      // Every other chunk removed, then new ones (above every id) added: the file's views are copied, not written into.
      for (const [i, [id]] of chunks.entries()) if (i % 2 === 0) {
        table.delete(id);
        expected.delete(id);
      }
      const before = Buffer.from(file);
      const more = generatedChunks(300, seed + 100).map(([id, c]): [number, Chunk] => [id + chunks[chunks.length - 1]![0], { ...c, speakers: [`new speaker ${seed}`] }]);
      for (const [id, c] of more) {
        table.add(id, c);
        expected.set(id, JSON.parse(JSON.stringify(c)) as Chunk);
      }
      assert.ok(file.equals(before), 'the file bytes are unchanged');
      assert.throws(() => table.add(1, more[0]![1]), /not above/);
      assert.equal(table.size, expected.size);
      assert.equal(table.get(chunks[0]![0]), undefined);
      assert.deepEqual(table.entries(), [...expected]);
      const again = table.columns();
      assert.deepEqual(fromColumns(again.meta, new Map(Object.entries(again.sections))), [...expected]);
      // Only the strings the live chunks use: every string of the table is some live chunk's.
      const used = new Set([...expected.values()].flatMap((c) => [...(c.speakers ?? []), c.commentId, c.parentId, c.publishedAt].filter((s) => s !== undefined)));
      const table2 = ChunkTable.fromColumns(again.meta, new Map(Object.entries(again.sections)));
      const offsets = again.sections['stringOffsets']!;
      assert.equal(offsets.length - 1, used.size, `seed ${seed}: ${offsets.length - 1} strings stored, ${used.size} used`);
      assert.equal(table2.size, expected.size);
    }
  });
});
