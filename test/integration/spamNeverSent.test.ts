/**
 * Spam never reaches a model (issue 21): through the real openai client against the fake model
 * server, on a generated corpus whose comments mix genuine ones and spam of every class in
 * English, Spanish and Chinese (test/support/spamGenerator.ts), no comment the detector flags is
 * in any request — marker generation (every window of every item), condensation, and a research
 * run whose model asks for every item in full and for passages about the spam's own words — and
 * no marker or cited source rests on one. The genuine comments do reach the model (the check
 * could fail).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import { createModelClient } from '../../src/core/llm/client';
import { condenseCorpus } from '../../src/core/markers/condense';
import { createMarkerEngine, promptSource } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import { corpusSpam } from '../../src/core/markers/spamFree';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { paraphrasingResponder, type PlantedClaim } from '../support/paraphrasingModel';
import { generateHam, generateSpam, seeded, type SpamLang } from '../support/spamGenerator';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');
const WINDOWS = { windowWords: 80, overlapWords: 5, windowLimit: 0 };
const TRANSCRIPT = [
  'Today we talk about the new bike lanes in the harbour district and what they changed for people.',
  'The city counted forty percent more cyclists on the avenue after the first year.',
  'Shop owners were worried about parking, but most of them now report more customers on foot.',
  'The next step is a protected crossing near the school, which the council votes on in spring.',
];

let server: FakeModelServer;
let work: string;

/** A corpus of `items` videos whose comments mix genuine ones and spam (seeded); the spam texts planted. */
async function spamCorpus(name: string, seed: number, items = 3): Promise<{ corpus: Corpus; planted: Set<string> }> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  const next = seeded(seed);
  const planted = new Set<string>();
  const langs: SpamLang[] = ['en', 'es', 'zh'];
  for (let v = 0; v < items; v++) {
    const lang = langs[v % langs.length]!;
    const spam = generateSpam(lang, seed + v, 1).filter((s) => s.text.length >= 20);
    const ham = generateHam(lang, seed + v, 1);
    const rows: string[] = [];
    let k = 0;
    while (ham.length) {
      const isSpam = next() < 0.4 && spam.length > 0;
      const text = isSpam ? spam.splice(Math.floor(next() * spam.length), 1)[0]!.text : ham.splice(Math.floor(next() * ham.length), 1)[0]!.text;
      if (isSpam) planted.add(text);
      rows.push(JSON.stringify({ comment_id: `v${v}c${k}`, author: `user${seed}-${v}-${k}`, text, likes: Math.floor(next() * 50), published_at: '2024-03-14T11:02:00Z', parent_id: null }));
      k++;
    }
    await mkdir(path.join(dir, `video-${v}`), { recursive: true });
    await writeFile(path.join(dir, `video-${v}`, 'meta.json'), JSON.stringify({ title: `Video ${v}: bike lanes`, video_id: `vid${v}xxxxxxx`.slice(0, 11) }));
    await writeFile(path.join(dir, `video-${v}`, 'comments.jsonl'), `${rows.join('\n')}\n`);
    await writeFile(path.join(dir, `video-${v}`, 'transcript.txt'), `${TRANSCRIPT.join('\n')}\n`);
  }
  return { corpus: await loadCorpus(dir), planted };
}

/** The comments the detector flags, and the genuine ones, of a corpus. */
function verdicts(corpus: Corpus): { flagged: { item: CorpusItem; id: string; text: string }[]; genuine: string[] } {
  const spam = corpusSpam(corpus);
  const flagged: { item: CorpusItem; id: string; text: string }[] = [];
  const genuine: string[] = [];
  for (const item of corpus.items) {
    for (const c of item.comments?.comments ?? []) {
      if (spam.get(item.id)?.ids.has(c.id)) flagged.push({ item, id: c.id, text: c.text });
      else genuine.push(c.text);
    }
  }
  return { flagged, genuine };
}

/** Everything the model was sent, request by request. */
const sent = (): string[] => server.chatRequests().map((r) => (r.messages ?? []).map((m) => m.content).join('\n'));

/** The flagged comments found in what the model was sent (a comment's text, or its first 40 characters). */
function leaks(flagged: readonly { text: string }[]): string[] {
  const all = sent();
  return flagged.filter((f) => all.some((s) => s.includes(f.text) || s.includes(f.text.slice(0, 40)))).map((f) => f.text);
}

describe('spam never reaches a model (fake server)', () => {
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-spam-sent-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  test('marker generation and condensation: no flagged comment in any request, no marker on one', async () => {
    for (const seed of [3, 4]) {
      const { corpus, planted } = await spamCorpus(`markers-${seed}`, seed);
      const { flagged, genuine } = verdicts(corpus);
      assert.ok(flagged.length >= 0.9 * planted.size, `flagged ${flagged.length} of ${planted.size} planted spam`);
      assert.equal(genuine.filter((g) => planted.has(g)).length <= 0.1 * planted.size, true, 'planted spam left unflagged');
      server.reset();
      const claims: PlantedClaim[] = [];
      server.setResponder(paraphrasingResponder(claims));
      const { engine } = createMarkerEngine({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 5_000 }, { promptsDir: PROMPTS, apiKey: 'sk-test' });
      const report = await generateMarkers(corpus, { engine, windows: WINDOWS });
      assert.equal(report.failed, 0);
      assert.deepEqual(leaks(flagged), [], 'flagged comments sent to the model for markers');
      assert.ok(genuine.some((g) => sent().some((s) => s.includes(g))), 'genuine comments are sent');
      for (const item of corpus.items) {
        const r = await readItemMarkers(corpus.root, item.id);
        assert.ok(r.ok);
        const spamIds = new Set(flagged.filter((f) => f.item === item).map((f) => f.id));
        assert.deepEqual(new Set(r.value.comments_summary?.spam?.comment_ids ?? []), spamIds, 'the excluded comments are listed');
        for (const m of allMarkers(r.value)) {
          for (const ev of m.evidence) {
            if (ev.part !== 'comments') continue;
            const on = item.comments!.comments.filter((c) => spamIds.has(c.id) && ev.start < c.offset + c.text.length && ev.end > c.offset);
            assert.deepEqual(on.map((c) => c.text), [], `${m.kind} rests on spam: ${m.text}`);
          }
        }
      }
      server.reset();
      server.setResponder(() => JSON.stringify({ claims: [], categories: [] }));
      await condenseCorpus(corpus, { model: createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 5_000 }, { retry: { retries: 0 } }), prompts: promptSource(PROMPTS), windows: WINDOWS });
      assert.ok(server.chatRequests().length > 0);
      assert.deepEqual(leaks(flagged), [], 'flagged comments sent to the model for condensation');
    }
  });

  test('research with a model: full items and passages about the spam words are served without spam; no source rests on it', async () => {
    const { corpus } = await spamCorpus('research', 7);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    const { flagged, genuine } = verdicts(corpus);
    assert.ok(flagged.length > 0);
    const ids = corpus.items.map((i) => i.id);
    const name = (req: ChatRequestInfo): string => (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
    server.setResponder((req) => {
      const n = name(req);
      if (n === 'research_goals') return JSON.stringify({ goals: [{ goal_id: 'g1', title: 'What do viewers say?', rationale: 'r', item_ids: ids, marker_ids: [] }] });
      if (n === 'research_plan') return JSON.stringify({ steps: [{ step_id: 's1', goal: 'What do viewers say?', required_content_items: ids, required_data: 'comments', marker_relevance: [], retrieval_strategy: 'full_content' }] });
      if (n === 'research_step') {
        const round = req.messages.filter((m) => m.role === 'assistant').length;
        const requests = round === 0 ? [...ids.map((id) => ({ type: 'full_content_item', item_id: id, part: 'comments' })), { type: 'by_topic', topic: 'subscribe channel followers money search google suscríbete canal 关注 微信', max_results: 10 }] : [];
        const served = [...new Set([...([...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '').matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
        return JSON.stringify({ findings: served.length ? [{ finding_id: 'f1', text: 'Viewers talk about the bike lanes', confidence: 0.6, source_ids: served.slice(0, 5) }] : [], insights: [], confidence: 0.6, requests, done: round > 0 });
      }
      if (n === 'research_synthesis') {
        const s = [...new Set([...(req.messages.find((m) => m.role === 'user')?.content ?? '').matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
        return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Viewers', body: s.map((x) => `Claim [${x}].`).join(' ') || 'None.' }], conclusion: 'Done.' });
      }
      return '{}';
    });
    const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 5_000 }, { retry: { retries: 0 } });
    const r = await runResearch({ corpus, engine: client, promptsDir: PROMPTS, config: { max_content_items_per_turn: 5 } }, { goal: 'What do viewers say?', complexity: 'light' });
    assert.deepEqual(leaks(flagged), [], 'flagged comments sent to the model during research');
    assert.ok(genuine.some((g) => sent().some((s) => s.includes(g))), 'genuine comments are served');
    const run = await readRun(corpus.root, r.runId);
    const spamOf = corpusSpam(corpus);
    let sources = 0;
    for (const e of run.requests) {
      for (const sv of e.served) {
        if (sv.part !== 'comments') continue;
        sources++;
        const item = corpus.items.find((i) => i.id === sv.item_id)!;
        const on = item.comments!.comments.filter((c) => spamOf.get(item.id)?.ids.has(c.id) && sv.start < c.offset + c.text.length && sv.end > c.offset);
        assert.deepEqual(on.map((c) => c.text), [], `source ${sv.source_id} spans spam`);
      }
    }
    assert.ok(sources > 0);
  });
});
