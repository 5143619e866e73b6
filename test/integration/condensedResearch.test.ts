/**
 * Condensed claims in research (seed 001, option B, Phase 3), through the real ollama client (the
 * condensation) and the real openai client (research) against the fake model server:
 * (a) a step that requests `condensed_claims` gets the claims served with their exact evidence
 *     spans as sources (each opens the quote in the original file), an ungrounded claim clearly
 *     marked with nothing to cite, and its findings cite the claims' sources;
 * (b) a condensation whose item changed since (content hash) is refused with the reason, and the
 *     overview says so;
 * (c) the same step costs fewer prompt tokens at condensed level than at full content.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { condenseCorpus, readCondensedItem, type CondensedItem } from '../../src/core/markers/condense';
import { createMarkerEngine, promptSource } from '../../src/core/markers/engineFactory';
import { generateMarkers } from '../../src/core/markers/generate';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import type { Plan } from '../../src/core/research/schema';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { windowText } from '../support/paraphrasingModel';
import { rng } from '../support/testing';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');
const ITEM = 'design-meeting';
const INVENTED = 'Zebra quantum marmalade orchestras were never mentioned by anyone here';

const VOCAB = (
  'budget remote control design battery button market research user interface prototype colour shape material rubber ' +
  'plastic speech recognition scroll wheel trend fashion price target audience evaluation meeting agenda component energy ' +
  'kinetic solar chip case curved titanium wood logo corporate identity presentation requirement feature lighting screen menu cost profit'
).split(' ');

/** A deterministic meeting of about `words` words, one turn per line. */
function meeting(words: number, seed = 4242): string {
  const random = rng(seed);
  const next = (n: number): number => Math.floor(random() * n);
  const lines: string[] = [];
  let total = 0;
  while (total < words) {
    const sentences: string[] = [];
    for (let k = 0; k < 3; k++) {
      const s = Array.from({ length: 9 + next(8) }, () => VOCAB[next(VOCAB.length)]!).join(' ');
      sentences.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
      total += s.split(' ').length;
    }
    lines.push(sentences.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

const SENTENCE = /[^.!?。！？\n]+[.!?。！？]?/gu;

/** The condensation "model": claims on every fourth sentence of the window, each quoting its first ten words verbatim; one invented claim. */
function condenser(req: ChatRequestInfo): string {
  const sentences = windowText(req)
    .split('\n')
    .map((l) => l.replace(/^\[c[^\]]*\]\s*/, ''))
    .flatMap((l) => l.match(SENTENCE) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= 9);
  const claims = sentences
    .filter((_, i) => i % 4 === 0)
    .slice(0, 4)
    .map((s, k) => ({ text: `The team says: ${s}`, quote: s.split(/\s+/).slice(0, 10).join(' '), category: ['design', 'budget', 'market'][k % 3]!, confidence: 0.8, counterpoints: k === 0 ? ['someone doubts it'] : [] }));
  // The transcript's first window (a comments window starts with its "[c…]" comment ids).
  if (/window 1 of/.test(req.messages.find((m) => m.role === 'user')?.content ?? '') && !windowText(req).startsWith('[c')) {
    claims.push({ text: INVENTED, quote: INVENTED, category: 'design', confidence: 0.4, counterpoints: [] });
  }
  return JSON.stringify({ claims, categories: ['design', 'budget', 'market'] });
}

const schemaName = (req: ChatRequestInfo): string => (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const roundOf = (req: ChatRequestInfo): number => req.messages.filter((m) => m.role === 'assistant').length;

/** How the research "model" reads the item in a run. */
type Mode = 'condensed' | 'full';

/** Research replies: round 1 asks for the item at `mode`'s level (the full item after a refusal), later rounds cite what was served. */
function researcher(mode: () => Mode, seen: { overview?: string; served: string[] }): (req: ChatRequestInfo) => string {
  return (req) => {
    const name = schemaName(req);
    if (name === 'research_step') {
      const round = roundOf(req);
      if (round === 0) {
        seen.overview = firstUser(req);
        const request = mode() === 'condensed' ? { type: 'condensed_claims', item_id: ITEM } : { type: 'full_content_item', item_id: ITEM };
        return JSON.stringify({ findings: [], insights: [], confidence: 0.2, requests: [request], done: false });
      }
      const served = lastUser(req);
      seen.served.push(served);
      if (/rejected/.test(served) && round === 1) {
        return JSON.stringify({ findings: [], insights: [], confidence: 0.2, requests: [{ type: 'full_content_item', item_id: ITEM }], done: false });
      }
      // A claim line: "3. [S4][S5] budget: The team says …" — cite its sources; passages: "[S1] (item, …)".
      const claimIds = [...served.matchAll(/^\d+\. ((?:\[S\d+\])+) /gm)].map((m) => [...m[1]!.matchAll(/S\d+/g)].map((x) => x[0]));
      const passageIds = [...served.matchAll(/^\[(S\d+)\] \(/gm)].map((m) => [m[1]!]);
      const cite = (claimIds.length ? claimIds : passageIds).slice(0, 3);
      const findings = cite.map((ids, i) => ({ finding_id: `f${i + 1}`, text: `Finding ${i + 1} from the served ${mode()} content`, confidence: 0.7, source_ids: ids }));
      return JSON.stringify({ findings, insights: ['ok'], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') {
      const ids = [...new Set([...firstUser(req).matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
      return JSON.stringify({ title: 'Report', summary: `Summary [${ids[0] ?? 'S1'}].`, sections: [{ heading: 'Findings', body: ids.map((id) => `Claim [${id}].`).join(' ') || 'None.' }], conclusion: 'Done.' });
    }
    return '{}';
  };
}

const plan = (): Plan => ({
  goal: 'What did the design meeting decide about the budget?',
  complexity: 'light',
  steps: [{ step_id: 's1', goal: 'What did the design meeting decide about the budget and the remote control design?', required_content_items: [ITEM], required_data: 'transcript_with_comments', marker_relevance: [], retrieval_strategy: 'selective_by_markers' }],
});

let server: FakeModelServer;
let work: string;

async function meetingCorpus(name: string): Promise<Corpus> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, ITEM), { recursive: true });
  await writeFile(path.join(dir, ITEM, 'transcript.txt'), meeting(1500));
  const comments = Array.from({ length: 12 }, (_, i) => JSON.stringify({ comment_id: `c${i + 1}`, author: `viewer${i}`, text: `Comment ${i + 1}: ${meeting(30, i + 1).trim()}`, likes: i * 3 }));
  await writeFile(path.join(dir, ITEM, 'comments.jsonl'), `${comments.join('\n')}\n`);
  await writeFile(path.join(dir, ITEM, 'meta.json'), JSON.stringify({ title: 'Design meeting', source: 'test' }));
  const corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  return corpus;
}

async function condense(corpus: Corpus): Promise<CondensedItem> {
  server.setResponder(condenser);
  const { client } = createMarkerEngine({ provider: 'ollama', baseUrl: server.ollamaHost, model: 'qwen-local', concurrency: 2 }, { promptsDir: PROMPTS });
  const report = await condenseCorpus(corpus, { model: client!, prompts: promptSource(PROMPTS), windows: { windowWords: 400, overlapWords: 20, windowLimit: 0 } });
  assert.equal(report.failed.length, 0, JSON.stringify(report.failed));
  const r = await readCondensedItem(corpus.root, ITEM);
  assert.ok(r.ok, 'the condensation was written');
  return r.value;
}

function client(): ModelClient {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 2, timeoutMs: 5_000 }, { retry: { retries: 0 } });
}

/** Runs the plan with the research "model" at `mode`; its stored run, and the prompt tokens of its step calls as the server counted them. */
async function research(corpus: Corpus, mode: Mode) {
  const seen: { overview?: string; served: string[] } = { served: [] };
  server.reset();
  server.setResponder(researcher(() => mode, seen));
  const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS }, { plan: plan() });
  const stored = await readRun(corpus.root, result.runId);
  const serverTokens = server
    .chatRequests()
    .filter((r) => JSON.stringify(r.body).includes('research_step'))
    .reduce((a, r) => a + ((r.body as { messages?: { content?: unknown }[] }).messages ?? []).reduce((b, m) => b + String(m.content ?? '').length, 0), 0);
  return { result, stored, seen, serverChars: serverTokens };
}

describe('condensed claims in research (fake model server)', () => {
  let corpus: Corpus;
  let condensed: CondensedItem;
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-condensed-research-'));
    corpus = await meetingCorpus('meeting');
    condensed = await condense(corpus);
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  test('(a) a step requesting condensed claims gets them with their exact evidence spans as sources, and its findings cite them', async () => {
    assert.ok(condensed.claims.filter((c) => c.grounded).length >= 6, `grounded claims: ${condensed.claims.filter((c) => c.grounded).length}`);
    assert.ok(condensed.claims.some((c) => !c.grounded && c.text === INVENTED), 'the invented claim is kept, not grounded');
    const { result, stored, seen } = await research(corpus, 'condensed');
    assert.equal(result.manifest.status, 'done', result.manifest.error);
    // The model was told which items have condensed claims.
    assert.match(seen.overview ?? '', /\*\*Condensed claims\*\*/);
    assert.match(seen.overview ?? '', new RegExp(`- ${ITEM}: \\d+ claims \\(\\d+ grounded\\)`));
    // Served, with every grounded claim's evidence span as a source linked to its claim.
    const entry = stored.requests.find((e) => e.step_id === 's1' && (e.request as { type: string }).type === 'condensed_claims')!;
    assert.equal(entry.status, 'served', entry.reason);
    const grounded = condensed.claims.filter((c) => c.grounded);
    assert.equal(new Set(entry.served.map((s) => s.claim_id)).size, grounded.length, 'every grounded claim served');
    const item = corpus.items.find((i) => i.id === ITEM)!;
    for (const sv of entry.served) {
      const claim = condensed.claims.find((c) => c.claim_id === sv.claim_id);
      assert.ok(claim?.grounded, `${sv.source_id} belongs to a grounded claim`);
      const ev = claim.evidence.find((e) => e.start === sv.start && e.end === sv.end && e.part === sv.part);
      assert.ok(ev, `${sv.source_id} is exactly the claim's evidence span`);
      const text = (sv.part === 'transcript' ? item.transcript! : item.comments!).text;
      assert.equal(text.slice(sv.start, sv.end), ev.quote);
    }
    // The ungrounded claim is shown, marked, with nothing to cite.
    const servedText = seen.served[0] ?? '';
    if (process.env['SHOW']) console.log(seen.overview, servedText);
    const line = servedText.split('\n').find((l) => l.includes(INVENTED));
    assert.ok(line, 'the ungrounded claim is listed');
    assert.match(line, /NOT GROUNDED/);
    assert.doesNotMatch(line, /\[S\d+\]/);
    // Findings cite the claims' sources; the trace links them; every citation opens the exact quote in the original file.
    const s1 = stored.steps.get('s1')!;
    const claimSources = new Set(entry.served.map((s) => s.source_id));
    assert.ok(s1.findings.length >= 3);
    assert.ok(s1.findings.every((f) => f.source_ids.length > 0 && f.source_ids.every((id) => claimSources.has(id))), JSON.stringify(s1.findings));
    assert.ok(entry.cited_by.length >= 3);
    const original = (await readFile(path.join(corpus.root, ITEM, 'transcript.txt'), 'utf8')).split('\n');
    for (const id of s1.findings.flatMap((f) => f.source_ids)) {
      const span = s1.sources.find((s) => s.source_id === id)!;
      assert.ok(span, `${id} is among the step's sources`);
      const claim = condensed.claims.find((c) => c.claim_id === entry.served.find((x) => x.source_id === id)!.claim_id)!;
      if (span.part === 'transcript') {
        assert.equal(span.source.file, `${ITEM}/transcript.txt`);
        assert.equal(span.source.startLine, span.source.endLine);
        assert.equal(original[span.source.startLine]!.slice(span.source.startColumn, span.source.endColumn), claim.evidence.find((e) => e.start === span.start)!.quote);
      }
    }
    const sources = JSON.parse(await readFile(path.join(result.runDir, 'report.sources.json'), 'utf8')) as { citations: { span: { source_id: string } }[] };
    assert.ok(sources.citations.some((c) => claimSources.has(c.span.source_id)), 'the report cites condensed claims');
  });

  test('(b) a stale condensation (the item changed since) is refused with the reason, and the overview says so', async () => {
    const dir = path.join(work, 'stale');
    const fresh = await meetingCorpus('stale');
    await condense(fresh);
    await appendFile(path.join(dir, ITEM, 'transcript.txt'), 'A late remark about the budget was added after the condensation ran.\n');
    const changed = await loadCorpus(dir);
    const { result, stored, seen } = await research(changed, 'condensed');
    assert.equal(result.manifest.status, 'done', result.manifest.error);
    assert.match(seen.overview ?? '', new RegExp(`- ${ITEM}: condensation stale`));
    const entry = stored.requests.find((e) => (e.request as { type: string }).type === 'condensed_claims')!;
    assert.equal(entry.status, 'rejected');
    assert.match(entry.reason ?? '', /stale: the item changed after it was condensed/);
    assert.equal(entry.served.length, 0);
    assert.match(seen.served[0] ?? '', /condensed_claims design-meeting — rejected: the condensation of "design-meeting" is stale[^\n]*full_content_item/);
    // The model then read the item in full.
    assert.ok(stored.requests.some((e) => (e.request as { type: string }).type === 'full_content_item' && e.status === 'served'));
  });

  test('(c) the same step costs fewer prompt tokens at condensed level than at full content', async () => {
    const full = await research(corpus, 'full');
    const cond = await research(corpus, 'condensed');
    for (const r of [full, cond]) assert.equal(r.result.manifest.status, 'done', r.result.manifest.error);
    assert.ok(cond.stored.requests.some((e) => (e.request as { type: string }).type === 'condensed_claims' && e.status === 'served' && e.served.length > 0), 'served at condensed level');
    assert.ok(full.stored.requests.some((e) => (e.request as { type: string }).type === 'full_content_item' && e.status === 'served'), 'served in full');
    const tokens = (r: typeof full): number => r.stored.usage!.byStep['execute/s1']!.promptTokens;
    console.log(`# step s1 prompt tokens: condensed ${tokens(cond)} vs full ${tokens(full)} (${((1 - tokens(cond) / tokens(full)) * 100).toFixed(1)} % fewer); prompt characters ${cond.serverChars} vs ${full.serverChars}`);
    assert.ok(tokens(cond) < tokens(full), `condensed ${tokens(cond)} < full ${tokens(full)}`);
    assert.ok(cond.serverChars < full.serverChars, 'what the server received is smaller too');
  });
});
