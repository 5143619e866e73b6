/**
 * Research started from the CLI reads the corpus's saved spam decision (issue 25): when every
 * marker is cached, marker generation never reads it, and research then decided spam again
 * (every item with comments parsed; ~7 minutes on the 100 M-word corpus). After prepareResearch
 * the decision is the saved one, known without deciding, on generated corpora of comment-heavy and
 * mixed items.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import type { CliContext } from '../../src/cli/io';
import { prepareResearch } from '../../src/cli/researchSetup';
import { knownCorpusSpam } from '../../src/core/markers/spamFree';
import { nullLogger } from '../../src/core/util/log';
import { writeGeneratedCorpus } from '../support/markerCorpus';

function cli(): CliContext {
  return { args: [], out: new PassThrough(), err: new PassThrough(), signal: new AbortController().signal };
}

for (const [shape, seed] of [['comments', 5], ['mixed', 9]] as const) {
  test(`research on a corpus whose markers are all cached uses the saved spam decision (${shape})`, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-research-spam-'));
    try {
      await writeGeneratedCorpus(dir, { items: 10, seed, shape });
      const opts = { command: 'research', dir, engine: { provider: 'extractive' as const }, config: {}, json: true, log: nullLogger };
      // The first run makes the markers, deciding spam and saving the decision.
      const first = await prepareResearch(cli(), opts);
      assert.ok(first);
      const decided = knownCorpusSpam(first.corpus);
      assert.ok(decided, 'the first run decided spam');
      // A later run (a new process: the corpus opened again) finds every marker cached.
      const later = await prepareResearch(cli(), opts);
      assert.ok(later);
      assert.notEqual(later.corpus, first.corpus);
      const known = knownCorpusSpam(later.corpus);
      assert.ok(known, 'the saved decision is known before research reads a comment');
      assert.deepEqual([...known.keys()].sort(), [...decided.keys()].sort());
      for (const [id, d] of decided) assert.deepEqual([...known.get(id)!.ids].sort(), [...d.ids].sort(), id);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
