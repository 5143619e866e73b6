/**
 * Research through the engine protocol with a model: the real server on an
 * in-memory connection, the real openai client against the fake model server
 * (which requires the API key the request carries). Work-done progress arrives
 * with done/total; cancelling the request's token, or "Marker Research:
 * Cancel" (`cancelAll`), aborts the model call in flight and answers
 * RequestCancelled, the run stays resumable, and resume finishes it.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, type ResponseError } from 'vscode-jsonrpc/node';
import { LSPErrorCodes } from 'vscode-languageserver-protocol';
import { cancelAllNotification, generateMarkersRequest, indexRequest, type EngineProgressReport } from '../../src/shared/lspProtocol';
import {
  researchNoticeNotification, researchStateRequest, researchStepNotification, resumeResearchRequest, runResearchRequest,
  type ResearchNoticeParams, type ResearchRunResult, type ResearchSnapshot, type ResearchStepParams,
} from '../../src/shared/lspProtocol';
import { settingsSchema, type Settings } from '../../src/shared/settings';
import { DEMO_CORPUS } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { assertSettledBeforeAnswer } from '../support/cancelOrder';
import { defaultResponder, HOLD_OPEN_MS, startFakeModelServer, type ChatRequestInfo, type FakeModelServer, type RecordedRequest } from '../support/fakeModelServer';

const API_KEY = 'sk-protocol-test-7f3a';

function schemaName(req: ChatRequestInfo | RecordedRequest): string {
  const body = req.body as Record<string, unknown> | undefined;
  return (body?.['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
}
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);

/** A model that plans three steps over the corpus's items, answers each step at once (or after `stepDelayMs`), and writes a report. */
function responder(stepDelayMs = 0): (req: ChatRequestInfo) => Promise<string> {
  return async (req) => {
    const name = schemaName(req);
    if (name === 'research_plan') {
      const items = itemIds(firstUser(req));
      return JSON.stringify({
        steps: ['s1', 's2', 's3'].map((step_id, i) => ({ step_id, goal: `Examine ${items[i % items.length]}`, required_content_items: [items[i % items.length]], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' })),
      });
    }
    if (name === 'research_step') {
      if (stepDelayMs) await new Promise((r) => setTimeout(r, stepDelayMs).unref());
      // Cites the markers of its overview (the grounded ones resolve): a run whose findings all cite nothing is partial (issue 20).
      return JSON.stringify({ findings: [{ finding_id: 'f1', text: 'a finding', confidence: 0.7, source_ids: [...firstUser(req).matchAll(/\[([^\]\s]+:[FODE]:[0-9a-f]{10})\]/g)].map((m) => m[1]!) }], insights: ['i'], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: 'Body.' }], conclusion: 'Done.' });
    return defaultResponder(req);
  };
}

const exists = (p: string): Promise<boolean> => stat(p).then(
  () => true,
  () => false,
);

describe('research through the engine protocol with a model', () => {
  let work: string;
  let server: FakeModelServer;
  let engine: EngineConnection;
  let model: Settings;
  const steps: ResearchStepParams[] = [];
  const notices: ResearchNoticeParams[] = [];
  const state = (params: object = {}): Promise<ResearchSnapshot> => engine.client.sendRequest(researchStateRequest.method, params);

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-research-protocol-'));
    const root = path.join(work, 'demo');
    await cp(DEMO_CORPUS, root, { recursive: true, filter: (p) => !p.includes('.marker-research') });
    server = await startFakeModelServer({ apiKey: API_KEY, responderTimeoutMs: 2 * HOLD_OPEN_MS });
    model = settingsSchema.parse({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', requestTimeoutSeconds: (2 * HOLD_OPEN_MS) / 1000 });
    engine = await startEngine();
    engine.client.onNotification(researchStepNotification.method, (s: ResearchStepParams) => void steps.push(s));
    engine.client.onNotification(researchNoticeNotification.method, (n: ResearchNoticeParams) => void notices.push(n));
    const extractive = settingsSchema.parse({});
    await engine.client.sendRequest(indexRequest.method, { root, settings: extractive });
    await engine.client.sendRequest(generateMarkersRequest.method, { mode: 'all', settings: extractive });
  });

  after(async () => {
    engine.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  test('a run reports work-done progress with done/total, uses the key it was sent and never logs it', async () => {
    server.reset();
    server.setResponder(responder());
    const token = 'research-progress';
    const r: ResearchRunResult = await engine.client.sendRequest(runResearchRequest.method, { settings: model, apiKey: API_KEY, goal: { text: 'how do people travel in winter' }, workDoneToken: token });
    assert.equal(r.manifest.status, 'done', r.failure ?? '');
    assert.equal(r.manifest.engine, 'openai');
    assert.ok(r.reportPath && (await exists(r.reportPath)));
    const values = engine.progress.get(token) ?? [];
    assert.equal((values[0] as { kind: string }).kind, 'begin');
    assert.equal((values.at(-1) as { kind: string }).kind, 'end');
    const reports = values.filter((v): v is EngineProgressReport => (v as { kind: string }).kind === 'report');
    assert.ok(reports.length >= 2, `several reports: ${JSON.stringify(reports)}`);
    for (const rep of reports) {
      assert.equal(typeof rep.done, 'number');
      assert.equal(typeof rep.total, 'number');
      assert.ok(rep.done <= rep.total);
    }
    const last = reports.at(-1)!;
    assert.equal(last.done, last.total, 'the last report is complete');
    assert.ok(last.total >= 3, `steps counted: ${last.total}`);
    assert.ok(server.chatRequests('openai').every((q) => q.headers.authorization === `Bearer ${API_KEY}`), 'every model call carried the key');
    assert.ok(!JSON.stringify(engine.logs).includes(API_KEY), 'the key is never logged');
  });

  test('without the key the model refuses: planning says so in a notice, the run fails with its cause and is resumable', async () => {
    server.reset();
    server.setResponder(responder());
    notices.length = 0;
    const r: ResearchRunResult = await engine.client.sendRequest(runResearchRequest.method, { settings: model, goal: { text: 'how do people travel in winter' } });
    assert.equal(r.manifest.status, 'failed');
    assert.match(r.failure ?? '', /API key \(401\)/);
    assert.ok(notices.length >= 1 && notices.every((n) => n.message.length > 0), 'a planning notice for the client to show');
    const s = await state();
    assert.ok(s.resumable.includes(r.runId));
    assert.match(s.state.message ?? '', /^Run failed: .*Resume the run/);
  });

  test('cancelling the request aborts the model call in flight: RequestCancelled, the run resumable; resume finishes it', async () => {
    server.reset();
    // A step's model call is answered only after a minute, longer than the test waits for it.
    server.setResponder(responder(HOLD_OPEN_MS));
    steps.length = 0;
    const source = new CancellationTokenSource();
    const pending = engine.client.sendRequest(runResearchRequest.method, { settings: model, apiKey: API_KEY, goal: { text: 'winter range of electric cars' }, workDoneToken: 'research-cancel' }, source.token);
    const held = await server.waitForRequest((q) => schemaName(q) === 'research_step');
    source.cancel();
    await assert.rejects(pending, (e: ResponseError<unknown>) => e.code === LSPErrorCodes.RequestCancelled);
    await assertSettledBeforeAnswer(server, held, 'the cancelled research (the slow model call did not have to finish)');
    const runId = steps[0]?.runId ?? (await state({ reload: true })).runs[0]!.run_id;
    const s = await state({ reload: true });
    assert.equal(s.runs.find((m) => m.run_id === runId)?.status, 'cancelled');
    assert.ok(s.resumable.includes(runId), 'resumable');
    assert.equal(s.state.busy, null);
    const ended = engine.progress.get('research-cancel') ?? [];
    assert.equal((ended.at(-1) as { kind: string }).kind, 'end', 'the progress ended');

    server.setResponder(responder());
    const resumed: ResearchRunResult = await engine.client.sendRequest(resumeResearchRequest.method, { settings: model, apiKey: API_KEY, runId });
    assert.equal(resumed.runId, runId);
    assert.equal(resumed.manifest.status, 'done', resumed.failure ?? '');
    assert.ok(!(await state()).resumable.includes(runId));
  });

  test('"Marker Research: Cancel" (cancelAll) stops a run the same way', async () => {
    server.reset();
    server.setResponder(responder(HOLD_OPEN_MS));
    const pending = engine.client.sendRequest(runResearchRequest.method, { settings: model, apiKey: API_KEY, goal: { text: 'what do commenters say about charging' } });
    const held = await server.waitForRequest((q) => schemaName(q) === 'research_step');
    await engine.client.sendNotification(cancelAllNotification.method, {});
    await assert.rejects(pending, (e: ResponseError<unknown>) => e.code === LSPErrorCodes.RequestCancelled);
    await assertSettledBeforeAnswer(server, held, 'the cancelled research');
    const s = await state({ reload: true });
    assert.equal(s.runs[0]?.status, 'cancelled');
    assert.ok(s.resumable.includes(s.runs[0]!.run_id));
  });
});
