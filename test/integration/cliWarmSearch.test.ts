/**
 * Issue 25: the CLI opens a corpus the way the engine does, so a warm `search` on an unchanged
 * corpus reads no item file. A generated corpus — items of every format (transcript.json with and
 * without times, .srt, .vtt, .txt with speaker labels and with timestamps, comments.jsonl alone and
 * beside a transcript, folder and flat layouts, meta files, a turn long enough to be cut at
 * sentence ends) — is searched by the real CLI in a child process, first cold (nothing under
 * `.marker-research/`), then warm with a preload that records every path opened through `fs`
 * (test/support/recordOpens.cjs). The warm run opens nothing in the corpus outside
 * `.marker-research/`, and prints exactly what the cold run printed; every hit's text and place
 * are what the item parsed from its files gives.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { mapSpan } from '../../src/core/corpus/spans';
import type { PartKind } from '../../src/core/corpus/types';
import { chunkText } from '../../src/core/search/chunker';
import { ALL_FORMATS, writeFormatCorpus } from '../support/formatCorpus';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'src', 'cli', 'main.ts');
const RECORDER = path.join(ROOT, 'test', 'support', 'recordOpens.cjs');
const QUERY = 'battery winter range';

interface Hit {
  itemId: string;
  part: PartKind;
  start: number;
  end: number;
  text: string;
  source: unknown;
}

/** Runs `marker-research search <dir> …args --json` in a child process, recording the files it opens when `record` names a log. */
async function search(dir: string, args: string[], record?: string): Promise<{ stdout: string; opened: string[] }> {
  const pre = record ? ['--require', RECORDER] : [];
  const { stdout } = await run(process.execPath, [...pre, '--import', 'tsx', CLI, 'search', dir, QUERY, ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...(record ? { MR_RECORD_OPENS: record } : {}) },
    maxBuffer: 64 * 1024 * 1024,
  });
  const opened = record ? (await readFile(record, 'utf8')).split('\n').filter(Boolean) : [];
  return { stdout, opened };
}

/** Opened paths inside the corpus folder but outside its `.marker-research/` (item files, meta files). */
function itemFilesOpened(dir: string, opened: readonly string[]): string[] {
  const state = path.join(dir, '.marker-research') + path.sep;
  return [...new Set(opened.filter((p) => p.startsWith(dir + path.sep) && !p.startsWith(state)))].sort();
}

describe('a warm CLI search reads no item file', () => {
  let work: string;
  let dir: string;
  let itemFiles: string[];

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-cli-warm-'));
    dir = path.join(work, 'corpus');
    itemFiles = (await writeFormatCorpus(dir, { seed: 2501, formats: ALL_FORMATS })).sort();
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  // The searches: a long ranked list, hits widened by their neighbours.
  for (const [name, args] of [['ranked hits', ['--k', '500']], ['hits widened by two windows each side', ['--k', '40', '--expand', '2']]] as const) {
    test(name, async () => {
      await rm(path.join(dir, '.marker-research'), { recursive: true, force: true });
      const cold = await search(dir, [...args], path.join(work, `cold-${args.length}.log`));
      // The recorder sees the reads: the cold run opened every item file.
      assert.deepEqual(itemFilesOpened(dir, cold.opened), itemFiles, 'the cold run opens every item file (the recorder records)');
      const hits = JSON.parse(cold.stdout) as Hit[];
      assert.ok(hits.length >= 20, `enough hits to compare (${hits.length})`);
      assert.ok(new Set(hits.map((h) => h.itemId.split('-').slice(0, -1).join('-'))).size >= 6, 'hits from most formats');

      const warm = await search(dir, [...args], path.join(work, `warm-${args.length}.log`));
      assert.deepEqual(itemFilesOpened(dir, warm.opened), [], 'the warm run opens no item file');
      assert.ok(warm.opened.some((p) => p.endsWith(path.join('.marker-research', 'index', 'postings.bin'))), 'the warm run reads the persisted index');
      assert.equal(warm.stdout, cold.stdout, 'the warm run prints what the cold run printed');

      // Each hit's text and place are what the item parsed from its files gives.
      const parsed = await loadCorpus(dir);
      const items = new Map(parsed.items.map((it) => [it.id, it]));
      for (const h of hits) {
        const item = items.get(h.itemId)!;
        assert.equal(h.text, chunkText(item, h), `${h.itemId} ${h.part} ${h.start}-${h.end}: text`);
        assert.deepEqual(h.source, JSON.parse(JSON.stringify(mapSpan(item, h) ?? null)), `${h.itemId} ${h.part} ${h.start}-${h.end}: source`);
      }
    });
  }
});
