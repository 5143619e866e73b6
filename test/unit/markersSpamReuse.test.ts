/**
 * Marker generation reads the corpus's saved spam decision (src/core/markers/spamStore.ts) instead
 * of deciding it again (issue 25). A generated corpus (spam templates repeated across items,
 * repeated and empty comment ids) is opened as the engine and the CLI open it (openCorpus, a part
 * store of one word: every read of an item's parts not just read parses it, counted), markers are
 * made once (the decision is made and saved), then again in a new "process" (a new open) where
 * the marker files must be made again — some deleted, or all with `force` — and the item parses
 * made for the spam decision (those under corpusSpam) are counted: none, and the markers equal
 * the first run's. A run over a part of the corpus (the missing items) decides spam over the whole
 * corpus and leaves the saved decision in place. Condensation reads it the same way.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openCorpus } from '../../src/core/corpus/openCorpus';
import { PartStore } from '../../src/core/corpus/partStore';
import type { StructuredRequest, StructuredResult } from '../../src/core/llm/types';
import { condenseCorpus } from '../../src/core/markers/condense';
import { promptSource } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import type { MarkerModel } from '../../src/core/markers/modelEngine';
import { loadSavedCorpusSpam, spamFile } from '../../src/core/markers/spamStore';
import { markersDir } from '../../src/core/markers/store';
import { writeGeneratedCorpus } from '../support/markerCorpus';

/** Opens the corpus with a one-word part store; counts the parses made under corpusSpam (the decision). */
async function open(dir: string): Promise<{ corpus: Awaited<ReturnType<typeof openCorpus>>; parses: { all: number; forSpam: number } }> {
  const parts = new PartStore(1);
  const parses = { all: 0, forSpam: 0 };
  parts.onReparse = () => {
    parses.all++;
    if (/\bcorpusSpam\b/.test(new Error().stack ?? '')) parses.forSpam++;
  };
  return { corpus: await openCorpus(dir, { parts }), parses };
}

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

/** A local model that finds no claim in any window (what it says does not matter here: which items are read does). */
const emptyModel: MarkerModel = {
  provider: 'ollama',
  model: 'empty',
  complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    return Promise.resolve({ value: req.schema.parse({ claims: [], categories: [] }), usage: { promptTokens: 1, completionTokens: 1, estimated: false }, repaired: false, attempts: 1 });
  },
};

/** Every marker file's content, without the time it was written. */
async function markerFiles(dir: string): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const name of (await readdir(markersDir(dir))).sort()) {
    if (!name.endsWith('.json') || name === 'index.json') continue;
    const { generated_at: _, ...rest } = JSON.parse(await readFile(path.join(markersDir(dir), name), 'utf8')) as Record<string, unknown>;
    out.set(name, rest);
  }
  return out;
}

describe('marker generation reads the saved spam decision', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-markerspam-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  for (const seed of [3, 17]) {
    test(`a second run parses no item to decide spam; its markers equal the first run's (seed ${seed})`, async () => {
      const dir = path.join(root, `c${seed}`);
      const written = await writeGeneratedCorpus(dir, { items: 24, seed, shape: 'any' });
      const withComments = written.filter((w) => w.comments).length;
      assert.ok(withComments >= 8);

      const first = await open(dir);
      const r1 = await generateMarkers(first.corpus, { engine: { kind: 'extractive' }, itemConcurrency: 2 });
      assert.equal(r1.generated, 24);
      assert.ok(first.parses.forSpam >= withComments, `the first run decides (${first.parses.forSpam} parses for it)`);
      assert.ok(await loadSavedCorpusSpam((await open(dir)).corpus), 'and saves the decision');
      const before = await markerFiles(dir);
      assert.equal(before.size, 24);

      // Some marker files lost: the stored verdicts do not cover the corpus, the decision is needed.
      for (const name of [...before.keys()].slice(0, 5)) await rm(path.join(markersDir(dir), name));
      const second = await open(dir);
      const r2 = await generateMarkers(second.corpus, { engine: { kind: 'extractive' }, itemConcurrency: 2 });
      assert.equal(r2.generated, 5);
      assert.equal(second.parses.forSpam, 0, 'no item parsed for the spam decision');
      assert.deepEqual(await markerFiles(dir), before);

      // Everything made again (force): still read, not decided.
      const third = await open(dir);
      const r3 = await generateMarkers(third.corpus, { engine: { kind: 'extractive' }, itemConcurrency: 2, force: true });
      assert.equal(r3.generated, 24);
      assert.equal(third.parses.forSpam, 0, 'no item parsed for the spam decision (force)');
      assert.deepEqual(await markerFiles(dir), before);
    });
  }

  test('a run over a part of the corpus decides over the whole corpus and keeps its saved decision', async () => {
    const dir = path.join(root, 'part');
    await writeGeneratedCorpus(dir, { items: 20, seed: 41, shape: 'comments' });
    const whole = await open(dir);
    await generateMarkers(whole.corpus, { engine: { kind: 'extractive' } });
    const savedBefore = await readFile(spamFile(dir), 'utf8');
    const before = await markerFiles(dir);
    const lost = [...before.keys()].slice(0, 3);
    for (const name of lost) await rm(path.join(markersDir(dir), name));

    const again = await open(dir);
    const part = { ...again.corpus, items: again.corpus.items.filter((i) => lost.includes(`${i.id}.json`)) };
    assert.equal(part.items.length, 3);
    const r = await generateMarkers(part, { engine: { kind: 'extractive' }, spamCorpus: again.corpus, force: true });
    assert.equal(r.generated, 3);
    assert.equal(again.parses.forSpam, 0, 'the whole corpus\'s saved decision was read');
    assert.equal(await readFile(spamFile(dir), 'utf8'), savedBefore, 'not replaced by a decision over the part');
    const after = await markerFiles(dir);
    // (Topics differ: the extractive engine's topic table covers the part only.)
    const spamOf = (m: unknown): unknown => (m as { comments_summary?: { spam?: unknown } }).comments_summary?.spam;
    for (const name of lost) assert.deepEqual(spamOf(after.get(name)), spamOf(before.get(name)), `${name}: the same spam left out`);
  });

  test('condensation reads the saved decision: a second pass (force) parses no item to decide spam', async () => {
    const dir = path.join(root, 'condense');
    const written = await writeGeneratedCorpus(dir, { items: 12, seed: 23, shape: 'mixed' });
    const opts = { model: emptyModel, prompts: promptSource(PROMPTS), windows: { windowWords: 400, overlapWords: 20, windowLimit: 0 } };
    const first = await open(dir);
    const r1 = await condenseCorpus(first.corpus, opts);
    assert.equal(r1.generated, written.length, JSON.stringify(r1.failed));
    assert.ok(first.parses.forSpam >= written.length, `the first pass decides (${first.parses.forSpam})`);
    const second = await open(dir);
    const r2 = await condenseCorpus(second.corpus, { ...opts, force: true });
    assert.equal(r2.generated, written.length);
    assert.equal(second.parses.forSpam, 0, 'no item parsed for the spam decision');
    // Nothing to condense: no decision needed at all.
    const third = await open(dir);
    assert.equal((await condenseCorpus(third.corpus, opts)).cached, written.length);
    assert.equal(third.parses.all, 0, 'every item cached: none parsed');
  });
});
