/**
 * The research pipeline end to end through the real openai client against the fake model
 * server: a responder that reads each prompt and answers per phase (told apart by the schema
 * name). Covers every request type, rejected requests, a budget overflow, an oversize item in
 * chunks, a kill and resume, an epic run (requests in flight at once and duplicate rate), citation resolution,
 * and the offline extractive run.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { generateMarkers } from '../../src/core/markers/generate';
import { citedNumbers } from '../../src/core/research/citations';
import { readRun, resumeResearch, runResearch, type ResearchEvent } from '../../src/core/research/pipeline';
import type { ResearchConfigInput } from '../../src/core/research/schema';
import { CancelledError } from '../../src/core/util/abort';
import { HOLD_OPEN_MS, inFlightGate, startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { recordingLogger } from '../support/testing';
import { freshDemoCorpus } from '../support/demoCorpus';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');

let server: FakeModelServer;
let work: string;

function schemaName(req: ChatRequestInfo): string {
  const rf = req.body['response_format'] as { json_schema?: { name?: string } } | undefined;
  return rf?.json_schema?.name ?? '';
}
const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);
const markerIds = (text: string): string[] => [...new Set([...text.matchAll(/\[([^\]\s]+:[FODE]:[0-9a-f]{10})\]/g)].map((m) => m[1]!))];
const sourceIds = (text: string): string[] => [...new Set([...text.matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
const stepOf = (req: ChatRequestInfo): string | undefined => /\*\*(?:Step|步骤) ([A-Za-z0-9_-]+):/.exec(firstUser(req))?.[1];
const roundOf = (req: ChatRequestInfo): number => req.messages.filter((m) => m.role === 'assistant').length;

/** Per step and round: the requests the "model" makes. */
type Script = (step: string, round: number, req: ChatRequestInfo) => unknown[];

interface ResponderOptions {
  script?: Script;
  /** Awaited before a step request is answered (e.g. an {@link inFlightGate}). */
  beforeStep?: () => Promise<void>;
  /** The first plan names a ghost item (to trigger the repair round). */
  ghostInPlan?: boolean;
  /** Epic: phases from these groups of item ids. */
  phases?: string[][];
  /** Findings that repeat across steps (for the duplicate rate). */
  sharedFinding?: string;
}

function researchResponder(o: ResponderOptions = {}): (req: ChatRequestInfo) => Promise<string> {
  return async (req) => {
    const name = schemaName(req);
    const prompt = firstUser(req);
    if (name === 'research_goals') {
      const items = itemIds(prompt);
      return JSON.stringify({ goals: [{ goal_id: 'g1', title: 'How do remote work and winter driving affect people?', rationale: 'markers', item_ids: [...items.slice(0, 3), 'no-such-item'], marker_ids: markerIds(prompt).slice(0, 3) }] });
    }
    if (name === 'research_plan') {
      const items = itemIds(prompt);
      const repair = req.messages.some((m) => m.content.includes('These ids do not exist'));
      const steps = items.slice(0, 3).map((id, i) => ({ step_id: `s${i + 1}`, goal: `Examine ${id}`, required_content_items: [id], required_data: 'transcript_with_comments', marker_relevance: markerIds(prompt).slice(i, i + 2), retrieval_strategy: 'selective_by_markers' }));
      if (o.ghostInPlan && !repair) steps[0]!.required_content_items.push('ghost-item');
      return JSON.stringify({ steps });
    }
    if (name === 'research_epic_phases') {
      return JSON.stringify({ phases: (o.phases ?? []).map((ids, i) => ({ name: `Phase ${i + 1}`, description: 'd', item_ids: ids, threads: ['facts', 'reception'] })) });
    }
    if (name === 'research_step') {
      await o.beforeStep?.();
      const step = stepOf(req) ?? '?';
      const round = roundOf(req);
      const requests = o.script?.(step, round, req) ?? [];
      const seen = sourceIds(lastUser(req));
      const ov = markerIds(prompt);
      const findings = [
        ...(seen.length ? [{ finding_id: 'f1', text: `Served evidence for ${step} round ${round}`, confidence: 0.8, source_ids: [...seen.slice(0, 3), 'S999'] }] : []),
        ...(ov.length ? [{ finding_id: 'f2', text: `Marker-backed finding of ${step}`, confidence: 0.7, source_ids: [ov[0]!] }] : []),
        ...(o.sharedFinding && ov.length ? [{ finding_id: 'f3', text: o.sharedFinding, confidence: 0.6, source_ids: [ov[0]!] }] : []),
      ];
      return JSON.stringify({ findings, insights: [`insight ${step}`], confidence: 0.7, requests, done: requests.length === 0 });
    }
    if (name === 'research_synthesis') {
      const ids = sourceIds(prompt);
      const phases = [...prompt.matchAll(/\[phase: ([^\]]+)\]/g)].map((m) => m[1]!);
      const sections = (phases.length ? [...new Set(phases)] : ['Findings']).map((p, i) => ({ heading: `Section ${i + 1}`, ...(phases.length ? { phase_name: p } : {}), body: `Claim one [${ids[i % Math.max(1, ids.length)] ?? 'S1'}][${ids[(i + 1) % Math.max(1, ids.length)] ?? 'S2'}]. A made-up source [S999] and a bare number [7].` }));
      return JSON.stringify({ title: 'Report', summary: `Summary [${ids[0] ?? 'S1'}].`, sections, conclusion: 'Done.' });
    }
    return '{}';
  };
}

function client(concurrency = 4, timeoutMs = 5_000): ModelClient {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency, timeoutMs }, { retry: { retries: 0 } });
}

const freshDemo = (name: string): Promise<Corpus> => freshDemoCorpus(work, name);

/** Every [n] of the report resolves to a stored span whose file exists in the corpus. */
async function assertCitationsResolve(runDir: string, corpus: Corpus): Promise<number> {
  const report = await readFile(path.join(runDir, 'report.md'), 'utf8');
  const sources = JSON.parse(await readFile(path.join(runDir, 'report.sources.json'), 'utf8')) as { citations: { number: number; span: { item_id: string; source: { file: string } } }[] };
  const known = new Set(sources.citations.map((c) => c.number));
  const cited = citedNumbers(report);
  assert.ok(cited.length > 0, 'the report cites something');
  for (const n of cited) assert.ok(known.has(n), `citation [${n}] resolves`);
  for (const c of sources.citations) {
    assert.ok(corpus.items.some((i) => i.id === c.span.item_id));
    await readFile(path.join(corpus.root, c.span.source.file));
  }
  assert.doesNotMatch(report, /\[S\d+\]/, 'no raw source ids left');
  return cited.length;
}

describe('research pipeline (fake model server)', () => {
  before(async () => {
    server = await startFakeModelServer({ responderTimeoutMs: 2 * HOLD_OPEN_MS });
    work = await mkdtemp(path.join(tmpdir(), 'mr-research-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  test('a full run serves every request type, rejects bad requests, repairs the plan and resolves every citation', async () => {
    const corpus = await freshDemo('full');
    const target = corpus.items.find((i) => i.id === 'remote-work-panel')!.id;
    server.setResponder(
      researchResponder({
        ghostInPlan: true,
        script: (step, round, req) => {
          if (step !== 's1' || round > 0) return [];
          const ms = markerIds(firstUser(req));
          const item = itemIds(firstUser(req))[0] ?? target;
          return [
            { type: 'by_marker', marker_id: ms[0] },
            { type: 'selective_markers', item_id: item, kinds: ['FACT', 'OPINION'] },
            { type: 'by_topic', topic: 'remote work office days', max_results: 2 },
            { type: 'full_content_item', item_id: item, part: 'transcript' },
            { type: 'full_content_item', item_id: '../../etc/passwd' },
            { type: 'by_marker', marker_id: 'nope:F:0000000000' },
            { type: 'by_topic', item_ids: 'not-an-array' },
          ];
        },
      }),
    );
    const log = recordingLogger();
    const events: ResearchEvent[] = [];
    const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS, log, onEvent: (e) => events.push(e), config: { max_content_items_per_turn: 5 } }, { goal: 'auto', complexity: 'medium' });
    assert.equal(result.manifest.status, 'done');
    const stored = await readRun(corpus.root, result.runId);
    // The plan's ghost item triggered one repair call; the saved plan has only known items.
    assert.equal(server.chatRequests().filter((r) => JSON.stringify(r.body).includes('research_plan')).length, 2);
    for (const st of stored.plan!.steps) for (const id of st.required_content_items) assert.ok(corpus.items.some((i) => i.id === id));
    // Every request type served; the three bad ones rejected with a reason the model sees.
    const s1 = stored.requests.filter((e) => e.step_id === 's1');
    const served = new Set(s1.filter((e) => e.status === 'served').map((e) => (e.request as { type: string }).type));
    assert.deepEqual([...served].sort(), ['by_marker', 'by_topic', 'full_content_item', 'selective_markers']);
    const rejected = s1.filter((e) => e.status === 'rejected');
    assert.equal(rejected.length, 3);
    assert.ok(rejected.some((e) => /looks like a path/.test(e.reason ?? '')));
    assert.ok(rejected.some((e) => /unknown marker id/.test(e.reason ?? '')));
    assert.ok(rejected.some((e) => /malformed request/.test(e.reason ?? '')));
    const second = server.chatRequests().map((r) => r.messages ?? []).find((ms) => ms.some((m) => m.role === 'assistant') && ms.some((m) => m.content.includes('**Step s1:')));
    assert.ok(second?.at(-1)?.content.includes('rejected'), 'the model is told about the rejected requests');
    // The full item is served whole: its transcript spans cover the whole part.
    const full = s1.find((e) => (e.request as { type: string }).type === 'full_content_item' && e.status === 'served')!;
    const item = corpus.items.find((i) => i.id === full.served[0]!.item_id)!;
    assert.equal(Math.min(...full.served.map((x) => x.start)), 0);
    assert.equal(Math.max(...full.served.map((x) => x.end)), item.transcript!.text.length);
    // The trace links served spans to the findings that cite them; the invented S999 was dropped.
    assert.ok(s1.some((e) => e.cited_by.length > 0));
    const s1Result = stored.steps.get('s1')!;
    assert.ok(s1Result.findings.every((f) => !f.source_ids.includes('S999')));
    assert.ok(log.lines.some((l) => l.includes('unknown source "S999"')));
    // Report: every number resolves; the unresolvable [S999] and [7] were removed and logged.
    const n = await assertCitationsResolve(result.runDir, corpus);
    assert.ok(result.manifest.removed_citations?.includes('S999') && result.manifest.removed_citations.includes('7'));
    console.log(`# full run: ${n} citations in the report, all resolved; ${result.manifest.removed_citations?.length} unresolvable removed`);
    // Usage per phase and step, and live step status events.
    assert.ok(stored.usage!.byPhase['execute']!.promptTokens > 0 && stored.usage!.byStep['execute/s1']);
    for (const st of ['running', 'retrieving', 'done']) assert.ok(events.some((e) => e.type === 'step' && e.step_id === 's1' && e.status === st), st);
  });

  test('budget overflow defers whole items (deferral in the next prompt); an oversize item comes in chunks', async () => {
    const dir = path.join(work, 'budget');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const sentence = (i: number, topic: string): string => `Sentence ${i} about ${topic} explains how the battery, the heater and the road change the numbers we measured.`;
    const turns = (n: number, topic: string) => ({ turns: Array.from({ length: n }, (_, i) => ({ speaker: i % 2 ? 'B' : 'A', text: sentence(i, topic) })) });
    await mkdir(path.join(dir, 'big'));
    await writeFile(path.join(dir, 'big', 'transcript.json'), JSON.stringify(turns(300, 'winter range')));
    for (const k of ['m1', 'm2', 'm3']) {
      await mkdir(path.join(dir, k));
      await writeFile(path.join(dir, k, 'transcript.json'), JSON.stringify(turns(30, `topic ${k}`)));
    }
    const corpus = await loadCorpus(dir);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    server.setResponder(
      researchResponder({
        script: (step, round) => {
          if (step !== 's1') return [];
          if (round === 0) return [{ type: 'full_content_item', item_id: 'big' }];
          if (round === 1) return [{ type: 'full_content_item', item_id: 'big', chunk: 2 }, { type: 'full_content_item', item_id: 'm1' }, { type: 'full_content_item', item_id: 'm2' }, { type: 'full_content_item', item_id: 'm3' }];
          return [];
        },
      }),
    );
    const plan = { goal: 'winter range', complexity: 'light', steps: [{ step_id: 's1', goal: 'What limits winter range?', required_content_items: ['big', 'm1', 'm2', 'm3'], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'full_content' }] };
    const config: ResearchConfigInput = { context_window_limit: 6000, max_followups_per_step: 3, max_content_items_per_turn: 4 };
    const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS, config }, { plan });
    const prompts = server.chatRequests().filter((r) => JSON.stringify(r.body).includes('research_step')).map((r) => r.messages!.at(-1)!.content);
    assert.match(prompts[1]!, /chunk 1 of \d+/, 'the first chunk is labelled');
    assert.match(prompts[2]!, /chunk 2 of \d+/, 'the model pages to chunk 2');
    assert.match(prompts[2]!, /Deferred \(context budget\)/, 'the deferral message is in the next prompt');
    const stored = await readRun(corpus.root, result.runId);
    const statuses = stored.requests.map((e) => e.status);
    assert.ok(statuses.includes('chunked') && statuses.includes('deferred'));
    // Whatever was served of an m-item is the whole item.
    for (const e of stored.requests.filter((x) => x.status === 'served')) {
      const it = corpus.items.find((i) => i.id === e.served[0]!.item_id)!;
      assert.equal(Math.max(...e.served.map((x) => x.end)), it.transcript!.text.length);
    }
    assert.ok(stored.steps.get('s1')!.deferred.length > 0);
    await assertCitationsResolve(result.runDir, corpus);
  });

  test('a run killed after a step resumes without redoing finished steps', async () => {
    const corpus = await freshDemo('resume');
    server.setResponder(researchResponder({ script: (_step, round, req) => (round === 0 ? [{ type: 'by_marker', marker_id: markerIds(firstUser(req))[0] }] : []) }));
    const controller = new AbortController();
    let done = 0;
    await assert.rejects(
      runResearch(
        { corpus, engine: client(), promptsDir: PROMPTS, signal: controller.signal, onEvent: (e) => e.type === 'step' && e.status === 'done' && ++done === 1 && controller.abort() },
        { plan: { goal: 'what the corpus says', complexity: 'medium', steps: corpus.items.slice(0, 3).map((it, i) => ({ step_id: `s${i + 1}`, goal: `Examine ${it.id}`, required_content_items: [it.id], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' })) }, runId: 'killed-run' },
      ),
      CancelledError,
    );
    const killed = await readRun(corpus.root, 'killed-run');
    assert.equal(killed.manifest.status, 'cancelled');
    const finished = [...killed.steps.values()].filter((s) => s.status === 'done').map((s) => s.step_id);
    assert.ok(finished.length >= 1 && finished.length < killed.plan!.steps.length, `finished ${finished.join(',')}`);
    const before = server.chatRequests().length;
    const resumed = await resumeResearch({ corpus, engine: client(), promptsDir: PROMPTS }, 'killed-run');
    assert.equal(resumed.manifest.status, 'done');
    const after = server.chatRequests().slice(before);
    const perStep = new Map<string, number>();
    for (const r of after) {
      const m = /\*\*Step ([A-Za-z0-9_-]+):/.exec(r.messages?.find((x) => x.role === 'user')?.content ?? '');
      if (m) perStep.set(m[1]!, (perStep.get(m[1]!) ?? 0) + 1);
    }
    for (const id of finished) assert.equal(perStep.get(id) ?? 0, 0, `finished step ${id} is not redone`);
    for (const st of killed.plan!.steps) if (!finished.includes(st.step_id)) assert.ok((perStep.get(st.step_id) ?? 0) > 0, `${st.step_id} runs on resume`);
    const stored = await readRun(corpus.root, 'killed-run');
    assert.ok([...stored.steps.values()].every((s) => s.status === 'done'));
    await assertCitationsResolve(resumed.runDir, corpus);
  });

  test('epic: phases run in parallel under the global limit (8 model calls at once with 8 slots, 3 with 3, 1 with 1), findings de-duplicated, chapters per phase', async () => {
    const corpus = await freshDemo('epic');
    const ids = corpus.items.map((i) => i.id).sort();
    const phases = [[ids[0]!], [ids[1]!], [ids[2]!], [ids[3]!, ids[4]!]];
    // The concurrency achieved, counted by the server: step calls are held until `slots` of them
    // (or every call holding a slot, if more) are in flight at once (a safety net of a minute,
    // after which the count says how many were).
    const run = async (slots: number): Promise<{ maxInFlight: number; steps: number; runDir: string; dedup: NonNullable<Awaited<ReturnType<typeof runResearch>>['manifest']['dedup']> }> => {
      server.reset();
      const engine = client(slots, 2 * HOLD_OPEN_MS);
      const gate = inFlightGate(server, () => Math.max(slots, engine.semaphore.active));
      server.setResponder(researchResponder({ beforeStep: gate, phases, sharedFinding: 'Everyone agrees that the weather matters a lot' }));
      const r = await runResearch({ corpus, engine, promptsDir: PROMPTS }, { goal: 'how the topics of the corpus change over time', complexity: 'epic' });
      assert.equal(r.manifest.status, 'done', `${slots} slots`);
      const steps = server.chatRequests().filter((q) => (q.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name === 'research_step').length;
      return { maxInFlight: server.maxInFlight, steps, runDir: r.runDir, dedup: r.manifest.dedup! };
    };
    const serial = await run(1);
    const limited = await run(3);
    const parallel = await run(8);
    console.log(`# epic: ${parallel.steps} step calls; at most ${serial.maxInFlight} / ${limited.maxInFlight} / ${parallel.maxInFlight} model calls in flight at once with 1 / 3 / 8 slots; findings ${parallel.dedup.findings_before} -> ${parallel.dedup.findings_after}, cross-phase duplicates ${(parallel.dedup.cross_phase_rate_before * 100).toFixed(1)} % -> ${(parallel.dedup.rate_after * 100).toFixed(1)} %`);
    assert.equal(parallel.steps, 8, '4 phases of 2 threads, one call each');
    assert.equal(serial.maxInFlight, 1, 'one slot: one call at a time');
    assert.equal(limited.maxInFlight, 3, 'three slots: the global limit holds while phases run in parallel');
    assert.equal(parallel.maxInFlight, 8, 'eight slots: every thread of every phase in flight at once');
    assert.ok(parallel.dedup.cross_phase_rate_before > 0.02, 'the shared finding repeats across phases before dedup');
    assert.ok(parallel.dedup.rate_after <= 0.02);
    const stored = await readRun(corpus.root, path.basename(parallel.runDir));
    assert.equal(stored.plan!.phases!.length, 4);
    for (const s of stored.steps.values()) for (const f of s.findings) assert.ok(f.phase_name, 'each finding keeps its phase');
    const report = stored.report!;
    for (let k = 1; k <= 4; k++) assert.match(report, new RegExp(`## Chapter ${k}: Phase ${k}`));
    await assertCitationsResolve(parallel.runDir, corpus);
  });

  test('offline: the extractive engine runs the whole pipeline on the demo corpus with resolved citations', async () => {
    const corpus = await freshDemo('offline');
    const result = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal: 'auto', complexity: 'deep' });
    assert.equal(result.manifest.status, 'done');
    const report = await readFile(result.reportPath!, 'utf8');
    assert.match(report, /extractive/i);
    const n = await assertCitationsResolve(result.runDir, corpus);
    const stored = await readRun(corpus.root, result.runId);
    assert.ok(stored.requests.length > 0 && stored.requests.every((e) => e.status !== 'rejected'));
    assert.equal(server.chatRequests().length, 0, 'no model calls');
    console.log(`# offline: ${stored.plan!.steps.length} steps, ${n} citations resolved`);
  });
});
