/**
 * Local condensation through the real ollama client against the fake server:
 * every window read, claims grounded, counterpoints kept, cached, repaired once.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import { condenseCorpus, condensedDir, condensedItemSchema } from '../../src/core/markers/condense';
import { createMarkerEngine, promptSource } from '../../src/core/markers/engineFactory';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { windowText } from '../support/paraphrasingModel';

const ROOT = path.join(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'samples', 'demo-corpus');
const PROMPTS = path.join(ROOT, 'prompts');

/** Claims quoting the first sentence of every line of the window, with a counterpoint on the first. */
function condensingResponder(req: ChatRequestInfo): string {
  const lines = windowText(req).split('\n').map((l) => l.replace(/^\[c[^\]]*\]\s*/, '').replace(/^[^:：\s]{1,20}[:：]\s+/, '').trim()).filter((l) => l.length > 12);
  const claims = lines.slice(0, 6).map((l, i) => ({
    text: `Claim: ${l.slice(0, 80)}`,
    quote: l.slice(0, 40),
    category: i % 2 ? 'evidence' : 'argument',
    confidence: 0.7,
    counterpoints: i === 0 ? ['someone disagrees'] : [],
  }));
  return JSON.stringify({ claims, categories: ['argument', 'evidence'] });
}

describe('local condensation (ollama, fake server)', () => {
  let server: FakeModelServer;
  let dir: string;
  before(async () => {
    server = await startFakeModelServer();
    dir = await mkdtemp(path.join(tmpdir(), 'mr-condense-'));
    await cp(DEMO, dir, { recursive: true, filter: (p) => !p.includes('.marker-research') });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('condenses every item, grounded, persisted with an index; second run is cached', async () => {
    server.setResponder(condensingResponder);
    server.injectFault({ kind: 'badContent', content: '{"claims": [ broken', times: 1 });
    const corpus = await loadCorpus(dir);
    const { client } = createMarkerEngine({ provider: 'ollama', baseUrl: server.ollamaHost, model: 'qwen-local', concurrency: 2 }, { promptsDir: PROMPTS });
    const windows = { windowWords: 80, overlapWords: 5, windowLimit: 0 };
    const report = await condenseCorpus(corpus, { model: client!, prompts: promptSource(PROMPTS), windows });
    assert.equal(report.failed.length, 0);
    assert.equal(report.generated, corpus.items.length);
    assert.ok(report.claims > 10);
    assert.ok(report.grounded / report.claims >= 0.95, `${report.grounded}/${report.claims} grounded`);
    const file = condensedItemSchema.parse(JSON.parse(await readFile(path.join(condensedDir(dir), 'city-cycling-podcast.json'), 'utf8')));
    assert.ok(file.coverage.transcript?.complete);
    assert.ok(file.claims.some((c) => c.counterpoints.includes('someone disagrees')));
    assert.ok(file.claims.every((c) => !c.grounded || c.evidence[0]!.source.file.startsWith('city-cycling-podcast/')));
    const index = JSON.parse(await readFile(path.join(condensedDir(dir), 'index.json'), 'utf8')) as { items: Record<string, unknown> };
    assert.equal(Object.keys(index.items).length, corpus.items.length);
    const bodies = server.chatRequests('ollama').map((r) => r.body as { options?: { num_ctx?: number } });
    assert.ok(bodies.every((b) => b.options?.num_ctx === 8192), 'num_ctx set on every call');
    const calls = server.chatRequests().length;
    const again = await condenseCorpus(await loadCorpus(dir), { model: client!, prompts: promptSource(PROMPTS), windows });
    assert.equal(again.cached, corpus.items.length);
    assert.equal(server.chatRequests().length, calls, 'no model calls on the second run');
  });
});
