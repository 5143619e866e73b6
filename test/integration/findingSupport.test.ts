/**
 * Findings checked against their cited spans, end to end (issue 20): the real openai client
 * against the fake model server, on a generated corpus of English, Spanish and Chinese items
 * (`test/support/findingCases.ts`: each turn a sentence with a number written one way). Each step
 * asks for its item in full, then answers with three findings per turn, each citing the served
 * passage that holds the turn: the turn restated with its number written another way (supported),
 * the same with the number changed (numbers not in the span), and another item's claim with the
 * turn's number (no words in common). Checks: 100 % of the changed and foreign findings are
 * marked unsupported in the step results, none of the restated ones; run.json counts them; the
 * synthesis prompt and the report say so (English and Chinese); the CLI prints the count; a run
 * whose findings all cite nothing ends `partial`, with the reason.
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
import { listRuns, readRun, runResearch } from '../../src/core/research/pipeline';
import type { RunManifest, StepResult } from '../../src/core/research/schema';
import { defaultResponder, startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { itemCases, type Case, type Lang } from '../support/findingCases';
import { rng, runCli } from '../support/testing';

const ROOT = path.join(__dirname, '..', '..');
const PROMPTS = path.join(ROOT, 'prompts');

let server: FakeModelServer;
let work: string;
/** The findings the last synthesis call was given (its first user message). */
let synthesisPrompt = '';

function schemaName(req: ChatRequestInfo): string {
  return (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
}
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const stepOf = (req: ChatRequestInfo): string => /\*\*(?:Step|步骤) ([A-Za-z0-9_-]+):/.exec(firstUser(req))?.[1] ?? '?';
const roundOf = (req: ChatRequestInfo): number => req.messages.filter((m) => m.role === 'assistant').length;

/** A generated corpus: two items per (language, vocabulary side), each turn one case's span. */
interface Generated {
  corpus: Corpus;
  /** Item id → its cases, in turn order. */
  cases: Map<string, Case[]>;
  plan: { goal: string; complexity: 'medium'; steps: unknown[] };
}

async function generatedCorpus(name: string, langs: readonly Lang[], seed: number): Promise<Generated> {
  const dir = path.join(work, name);
  await rm(dir, { recursive: true, force: true });
  const r = rng(seed);
  const cases = new Map<string, Case[]>();
  for (const lang of langs) {
    for (const side of [0, 1] as const) {
      for (const k of [1, 2]) {
        const id = `${lang}-${side ? 'b' : 'a'}${k}`;
        const cs = itemCases(lang, side, r);
        cases.set(id, cs);
        await mkdir(path.join(dir, id), { recursive: true });
        const turns = cs.map((c, i) => ({ speaker: `Speaker ${(i % 3) + 1}`, text: c.span.text }));
        await writeFile(path.join(dir, id, 'transcript.json'), JSON.stringify({ title: `Generated ${lang} meeting ${side ? 'B' : 'A'}${k}`, turns }));
      }
    }
  }
  const corpus = await loadCorpus(dir);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  const ids = [...cases.keys()];
  const plan = {
    goal: 'what the meetings measured',
    complexity: 'medium' as const,
    steps: ids.map((id, i) => ({ step_id: `s${i + 1}`, goal: `What was measured in ${id}`, required_content_items: [id], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'full_content' })),
  };
  return { corpus, cases, plan };
}

/** The source id of the served block holding `sentence` ("[S3] (item, transcript)\n…sentence…"), if served. */
function servedSource(served: string, sentence: string): string | undefined {
  const at = served.indexOf(sentence);
  if (at < 0) return undefined;
  const ids = [...served.slice(0, at).matchAll(/\[(S\d+)\] \(/g)];
  return ids.at(-1)?.[1];
}

type Mode = 'checked' | 'unsourced';

/**
 * The "model": a step asks for its item in full, then writes three findings per turn citing the
 * block that holds it (`checked`), or findings that cite nothing that resolves (`unsourced`).
 * Synthesis answers with one section, or with an error page when `synthesisFails`.
 */
function responder(g: Generated, mode: Mode, synthesisFails = false): (req: ChatRequestInfo) => string {
  const items = [...g.cases.keys()];
  return (req) => {
    const name = schemaName(req);
    if (name === 'research_step') {
      const step = stepOf(req);
      const itemId = items[Number(step.slice(1)) - 1]!;
      if (mode === 'unsourced') {
        const findings = g.cases.get(itemId)!.map((c, i) => ({ finding_id: `good${i}`, text: c.good, confidence: 0.7, source_ids: i % 2 ? [] : ['S999', 'nope:F:0000000000'] }));
        return JSON.stringify({ findings, insights: ['i'], confidence: 0.7, requests: [], done: true });
      }
      if (roundOf(req) === 0) return JSON.stringify({ findings: [], insights: [], confidence: 0.5, requests: [{ type: 'full_content_item', item_id: itemId, part: 'transcript' }], done: false });
      const served = lastUser(req);
      const findings = g.cases.get(itemId)!.flatMap((c, i) => {
        const sid = servedSource(served, c.span.text);
        if (!sid) return [];
        return [
          { finding_id: `good${i}`, text: c.good, confidence: 0.8, source_ids: [sid] },
          { finding_id: `changed${i}`, text: c.changed, confidence: 0.8, source_ids: [sid] },
          { finding_id: `foreign${i}`, text: c.foreign, confidence: 0.6, source_ids: [sid] },
        ];
      });
      return JSON.stringify({ findings, insights: ['i'], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') {
      synthesisPrompt = firstUser(req);
      if (synthesisFails) return '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
      const ids = [...new Set([...firstUser(req).matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
      return JSON.stringify({ title: 'Report', summary: `Summary [${ids[0] ?? 'S1'}].`, sections: [{ heading: 'Findings', body: `What was measured [${ids[0] ?? 'S1'}].` }], conclusion: 'Done.' });
    }
    return defaultResponder(req);
  };
}

function client(): ModelClient {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', timeoutMs: 5_000 }, { retry: { retries: 0 } });
}

/** Every finding of the run's steps, with its kind (good / changed / foreign) from its id. */
function findingsByKind(steps: ReadonlyMap<string, StepResult>): Map<string, StepResult['findings']> {
  const out = new Map<string, StepResult['findings']>([['good', []], ['changed', []], ['foreign', []]]);
  for (const r of steps.values()) for (const f of r.findings) out.get(/-(good|changed|foreign)\d+$/.exec(f.finding_id)![1]!)!.push(f);
  return out;
}

async function manifestOf(corpus: Corpus): Promise<RunManifest> {
  const runs = await listRuns(corpus.root);
  assert.equal(runs.length, 1, 'one run');
  return runs[0]!;
}

describe('findings checked against their cited spans (fake model server)', () => {
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-finding-support-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  test('CLI, English, Spanish and Chinese items: every finding whose number is not in its span is marked unsupported, none of the supported ones; run.json, the synthesis prompt, the report and the summary count them', async () => {
    const g = await generatedCorpus('mixed', ['en', 'es', 'zh'], 20);
    server.setResponder(responder(g, 'checked'));
    await writeFile(path.join(work, 'mixed-plan.json'), JSON.stringify(g.plan));
    const r = await runCli(['research', g.corpus.root, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model', '--plan', path.join(work, 'mixed-plan.json')]);
    assert.equal(r.code, 0, `exit code (stderr: ${r.err.slice(-800)})`);
    const m = await manifestOf(g.corpus);
    assert.equal(m.status, 'done', m.error);
    const stored = await readRun(g.corpus.root, m.run_id);
    const kinds = findingsByKind(stored.steps);
    const total = [...g.cases.values()].reduce((a, cs) => a + cs.length, 0);
    for (const [kind, fs] of kinds) assert.equal(fs.length, total, `every ${kind} finding was written (${fs.length} of ${total})`);

    const changed = kinds.get('changed')!;
    const changedMarked = changed.filter((f) => f.support?.status === 'unsupported' && f.support.reason === 'numbers_not_in_sources' && (f.support.missing_numbers?.length ?? 0) > 0);
    const foreignMarked = kinds.get('foreign')!.filter((f) => f.support?.status === 'unsupported' && f.support.reason === 'no_overlap');
    const goodMarked = kinds.get('good')!.filter((f) => f.support);
    console.log(`# numbers not in their spans: ${changedMarked.length} of ${changed.length} marked unsupported (${((100 * changedMarked.length) / changed.length).toFixed(1)} %); another item's claims: ${foreignMarked.length} of ${total}; supported findings marked: ${goodMarked.length} of ${total}`);
    assert.equal(changedMarked.length, changed.length, JSON.stringify(changed.filter((f) => !changedMarked.includes(f)).slice(0, 3)));
    assert.equal(foreignMarked.length, total);
    assert.deepEqual(goodMarked, []);
    // The missing number is the one that was changed, as the finding writes it.
    for (const [itemId, cs] of g.cases) {
      cs.forEach((c, i) => {
        const f = changed.find((x) => x.finding_id.endsWith(`-changed${i}`) && x.source_ids.some((id) => stored.steps.get(`s${[...g.cases.keys()].indexOf(itemId) + 1}`)?.sources.some((s) => s.source_id === id)));
        assert.ok(f?.support?.missing_numbers?.some((n) => c.changedNumber.includes(n) || n.includes(c.changedNumber)), `${itemId} #${i}: ${JSON.stringify(f?.support)} names ${c.changedNumber}`);
      });
    }

    assert.deepEqual(m.finding_support, { checked: 3 * total, unsupported: 2 * total, unsourced: 0 });
    assert.match(r.out, new RegExp(`findings not supported by their cited spans: ${2 * total} of ${3 * total}`));
    // The model writing the report was told which findings their spans do not support.
    const lines = synthesisPrompt.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(lines.length, 3 * total);
    assert.equal(lines.filter((l) => l.includes('[⚠ unsupported')).length, 2 * total);
    for (const c of [...g.cases.values()].flat()) assert.ok(lines.some((l) => l.startsWith(`- ${c.good} `) && !l.includes('⚠')), c.good);
    const report = await readFile(path.join(g.corpus.root, '.marker-research', 'runs', m.run_id, 'report.md'), 'utf8');
    assert.match(report.split('\n').slice(0, 8).join('\n'), new RegExp(`⚠ Of ${3 * total} findings, ${2 * total} are not supported by the spans they cite`));
  });

  test('a fallback report of a Chinese run lists the unsupported findings marked in Chinese, the supported ones unmarked', async () => {
    const g = await generatedCorpus('zh', ['zh'], 7);
    server.setResponder(responder(g, 'checked', true));
    const result = await runResearch({ corpus: g.corpus, engine: client(), promptsDir: PROMPTS }, { plan: g.plan });
    assert.equal(result.manifest.status, 'partial', 'the report is a fallback');
    assert.ok(result.manifest.fallback_report);
    const report = await readFile(result.reportPath!, 'utf8');
    const cases = [...g.cases.values()].flat();
    const lineOf = (text: string): string | undefined => report.split('\n').find((l) => l.startsWith(`- ${text} `));
    for (const c of cases) {
      assert.doesNotMatch(lineOf(c.good) ?? 'missing', /⚠|missing/, `supported: ${lineOf(c.good)}`);
      assert.match(lineOf(c.changed) ?? '', /\*\*⚠ 无依据：数字 .+ 不在所引片段中\*\*/, `changed: ${lineOf(c.changed)}`);
      assert.match(lineOf(c.foreign) ?? '', /\*\*⚠ 无依据：其内容只有 \d+ % 出现在所引片段中\*\*/, `foreign: ${lineOf(c.foreign)}`);
    }
    assert.match(report.split('\n').slice(0, 10).join('\n'), new RegExp(`⚠ ${3 * cases.length} 条发现中，${2 * cases.length} 条得不到所引片段的支持`));
  });

  test('CLI, every finding cites nothing that resolves: the run is partial with the reason, exit 1, counts in run.json and the report', async () => {
    const g = await generatedCorpus('unsourced', ['en', 'es'], 3);
    server.setResponder(responder(g, 'unsourced'));
    await writeFile(path.join(work, 'unsourced-plan.json'), JSON.stringify(g.plan));
    const r = await runCli(['research', g.corpus.root, '--provider', 'openai', '--base-url', server.openaiBaseUrl, '--model', 'fake-model', '--plan', path.join(work, 'unsourced-plan.json')]);
    assert.equal(r.code, 1, `exit code (stderr: ${r.err.slice(-800)})`);
    const m = await manifestOf(g.corpus);
    const total = [...g.cases.values()].reduce((a, cs) => a + cs.length, 0);
    assert.equal(m.status, 'partial');
    assert.match(m.error ?? '', new RegExp(`none of the ${total} findings cites a source`));
    assert.match(r.err, /none of the \d+ findings cites a source/);
    assert.deepEqual(m.finding_support, { checked: total, unsupported: 0, unsourced: total });
    assert.match(r.out, new RegExp(`citing no source: ${total}`));
    const stored = await readRun(g.corpus.root, m.run_id);
    for (const st of stored.steps.values()) for (const f of st.findings) assert.equal(f.support?.status, 'unsourced', f.finding_id);
    const report = await readFile(path.join(g.corpus.root, '.marker-research', 'runs', m.run_id, 'report.md'), 'utf8');
    assert.match(report.split('\n').slice(0, 8).join('\n'), new RegExp(`⚠ Of ${total} findings, ${total} cite no source that resolves`));
  });
});
