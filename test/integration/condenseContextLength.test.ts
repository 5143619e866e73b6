/**
 * The local condensation under a model whose context is far below the configured window (issue 10,
 * "also finish"), through the real ollama client against the fake model server: a rejected window
 * is split (≤ 0.75×, to the limit the server states) and the smaller size is shared by every later
 * window and item of the pass — one rejection in all, not one per item — and every word is read.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { condenseCorpus } from '../../src/core/markers/condense';
import { createMarkerEngine, promptSource } from '../../src/core/markers/engineFactory';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer';
import { recordingLogger, rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const VOCAB = 'budget remote control design battery button market research user interface prototype colour shape material rubber plastic speech scroll wheel price target evaluation'.split(' ');

function transcript(seed: number, words: number): string {
  const random = rng(seed);
  const lines: string[] = [];
  for (let total = 0; total < words; ) {
    const n = 8 + Math.floor(random() * 8);
    const s = Array.from({ length: n }, () => VOCAB[Math.floor(random() * VOCAB.length)]!).join(' ');
    lines.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
    total += n;
  }
  return `${lines.join('\n')}\n`;
}

describe('condense: context-length rejections (fake model server)', () => {
  let server: FakeModelServer;
  let dir: string;
  before(async () => {
    server = await startFakeModelServer({ maxContextTokens: 1200 });
    dir = await mkdtemp(path.join(tmpdir(), 'mr-condense-ctx-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('a rejected window is split and the smaller size carries to every later item: one rejection in all, every word read', async () => {
    for (let i = 1; i <= 5; i++) {
      await mkdir(path.join(dir, `meeting-${i}`), { recursive: true });
      await writeFile(path.join(dir, `meeting-${i}`, 'transcript.txt'), transcript(i, 1500 + i * 50));
    }
    const corpus = await loadCorpus(dir);
    const { client } = createMarkerEngine({ provider: 'ollama', baseUrl: server.ollamaHost, model: 'qwen-local', concurrency: 4, contextTokens: 32_768 }, { promptsDir: PROMPTS });
    const log = recordingLogger();
    const report = await condenseCorpus(corpus, { model: client!, prompts: promptSource(PROMPTS), windows: { windowWords: 1200, overlapWords: 40, windowLimit: 0 }, log });
    assert.equal(report.failed.length, 0, JSON.stringify(report.failed));
    assert.equal(report.generated, 5);
    const requests = server.chatRequests('ollama');
    const rejected = requests.filter((r) => r.status !== 200);
    assert.equal(rejected.length, 1, `rejections: ${rejected.length} of ${requests.length} requests`);
    // Every word of every item was in an accepted window.
    for (const item of corpus.items) {
      const ranges = requests
        .filter((r) => r.status === 200)
        .map((r) => r.messages?.find((m) => m.role === 'user')?.content ?? '')
        .filter((u) => u.includes(`Title: ${item.title}\n`))
        .map((u) => /words (\d+)–(\d+) of (\d+)/.exec(u)!)
        .map((m) => [Number(m[1]), Number(m[2])] as const)
        .sort((a, b) => a[0] - b[0]);
      let reach = 0;
      for (const [a, b] of ranges) {
        assert.ok(a <= reach, `${item.id}: gap before word ${a}`);
        reach = Math.max(reach, b);
      }
      assert.ok(reach >= item.transcript!.wordCount, `${item.id}: read to ${reach} of ${item.transcript!.wordCount}`);
    }
    assert.ok(log.lines.some((l) => /^info condense: .*rejected for context length/.test(l)), 'the shrink is logged as condensation');
  });
});
