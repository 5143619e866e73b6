/**
 * A span of consecutive indexed chunks, its text and place from what the index kept
 * (keptSpans.ts), equals what the parsed item gives (`chunkText`, `mapSpan`) — for every chunk
 * and every run of up to four consecutive transcript chunks of a corpus of every format, with the
 * index built in memory and loaded from disk. Where the kept fields cannot tell the span's start
 * time (a timed transcript whose first turn in the span has no start) nothing is derived, and the
 * fallback parses the item.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { openCorpus } from '../../src/core/corpus/openCorpus';
import { mapSpan } from '../../src/core/corpus/spans';
import type { Corpus } from '../../src/core/corpus/types';
import { chunkText } from '../../src/core/search/chunker';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { keptSpanSource, keptSpanText, spanSourceOf, spanTextOf } from '../../src/core/search/keptSpans';
import { ALL_FORMATS, writeFormatCorpus } from '../support/formatCorpus';

/** Every chunk alone, and every run of 2–4 consecutive transcript chunks, of every item. */
function* spans(index: CorpusIndex, corpus: Corpus): Generator<{ itemId: string; ids: number[] }> {
  for (const item of corpus.items) {
    const ids = index.itemChunkIds(item.id);
    for (const [i, id] of ids.entries()) {
      yield { itemId: item.id, ids: [id] };
      for (let n = 2; n <= 4; n++) {
        const run = ids.slice(i, i + n);
        if (run.length === n && run.every((x) => index.chunk(x)!.part === 'transcript')) yield { itemId: item.id, ids: run };
      }
    }
  }
}

describe('spans from what the index kept', () => {
  let dir: string;
  let parsed: Corpus;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-kept-spans-'));
    await writeFormatCorpus(dir, { seed: 77, formats: [...ALL_FORMATS, 'json-partly-timed'], perFormat: 4 });
    parsed = await loadCorpus(dir);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const how of ['built in memory', 'loaded from disk'] as const) {
    test(`equal what the parsed item gives (index ${how})`, async () => {
      let index: CorpusIndex;
      let corpus = parsed;
      if (how === 'built in memory') index = CorpusIndex.build(parsed);
      else {
        await CorpusIndex.open(parsed);
        // A lazily held corpus, as a command opens it: the index's texts come from chunks.txt.
        corpus = await openCorpus(dir);
        const opened = await CorpusIndex.open(corpus);
        assert.equal(opened.report.mode, 'loaded');
        index = opened.index;
      }
      const items = new Map(parsed.items.map((it) => [it.id, it]));
      const lazy = new Map(corpus.items.map((it) => [it.id, it]));
      let derived = 0;
      let undetermined = 0;
      let multi = 0;
      for (const { itemId, ids } of spans(index, corpus)) {
        const item = items.get(itemId)!;
        const first = index.chunk(ids[0]!)!;
        const span = { part: first.part, start: first.start, end: index.chunk(ids[ids.length - 1]!)!.end };
        const where = `${itemId} ${span.part} ${span.start}-${span.end}`;
        assert.equal(keptSpanText(index, ids), chunkText(item, span), `${where}: text`);
        const expected = mapSpan(item, span);
        const kept = keptSpanSource(dir, lazy.get(itemId)!, index, ids);
        if (kept) {
          derived++;
          if (ids.length > 1) multi++;
          assert.deepStrictEqual(kept, expected, `${where}: source`);
        } else {
          undetermined++;
          assert.ok(itemId.startsWith('json-partly-timed'), `${where}: only a partly timed transcript leaves the source to the parse`);
        }
        assert.deepStrictEqual(spanSourceOf(dir, lazy.get(itemId)!, index, ids, span), expected, `${where}: source with the fallback`);
        assert.equal(spanTextOf(index, lazy.get(itemId)!, ids, span), chunkText(item, span), `${where}: text with the fallback`);
      }
      assert.ok(derived > 200 && multi > 50, `spans derived from the kept fields: ${derived} (${multi} of several chunks)`);
      assert.ok(undetermined > 0, 'the partly timed transcripts have spans whose start time the kept fields cannot tell');
    });
  }

  test('chunks that are not consecutive, or of another item, give nothing', () => {
    const index = CorpusIndex.build(parsed);
    const item = parsed.items.find((it) => index.itemChunkIds(it.id).length >= 3)!;
    const other = parsed.items.find((it) => it !== item && index.itemChunkIds(it.id).length)!;
    const [a, , c] = index.itemChunkIds(item.id);
    assert.equal(keptSpanText(index, [a!, c!]), undefined);
    assert.equal(keptSpanSource(dir, item, index, [a!, c!]), undefined);
    assert.equal(keptSpanText(index, [c!, a!]), undefined);
    assert.equal(keptSpanSource(dir, other, index, [a!]), undefined);
    assert.equal(keptSpanText(index, []), undefined);
  });
});
