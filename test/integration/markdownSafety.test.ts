/**
 * Model-written Markdown never reaches a report as markup (issue 19, class 1), through the real
 * pipeline and the real openai client against the fake model server: a "model" whose plan (step
 * goals, phase names), findings and synthesis (title, headings, summary, section bodies,
 * conclusion) are hostile texts GENERATED from parts — every link and autolink form, bare URLs,
 * images, HTML, fences left open — around real source-id citations. report.md, report.preview.md
 * and the Markdown export keep no link but the project's own citations, no HTML, one Sources
 * section outside any fence, and every citation resolves.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Corpus } from '../../src/core/corpus/types';
import { createModelClient, type ModelClient } from '../../src/core/llm/client';
import { exportReportFile, writeReportPreview } from '../../src/core/export/exportFiles';
import { exportedSources } from '../../src/core/export/reportExport';
import { findCitations } from '../../src/core/research/citationLinks';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../support/fakeModelServer';
import { hostileTexts } from '../support/hostileMarkdown';
import { fencedLines, liveLinks, type LiveLink } from '../support/markdownLinks';
import { rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

let server: FakeModelServer;
let work: string;

const schemaName = (req: ChatRequestInfo): string => (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const itemIds = (text: string): string[] => [...text.matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);
const markerIds = (text: string): string[] => [...new Set([...text.matchAll(/\[([^\]\s]+:[FODE]:[0-9a-f]{10})\]/g)].map((m) => m[1]!))];
const sourceIds = (text: string): string[] => [...new Set([...text.matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
const show = (found: readonly LiveLink[]): string => found.map((f) => `${f.kind} ${JSON.stringify(f.target)} in ${JSON.stringify(f.text.slice(0, 160))}`).join('\n');

/** A "model" that writes hostile text (from `seed`) everywhere it writes text, around real citations. */
function hostileModel(seed: number, phases?: string[][]): (req: ChatRequestInfo) => string {
  const r = rng(seed);
  const texts = hostileTexts(seed, 200);
  const one = (): string => texts[Math.floor(r() * texts.length)]!;
  const phaseNames = (phases ?? []).map((_, i) => `Phase ${i + 1} ${hostileTexts(seed + i, 1, { lineBreaks: false })[0]!.slice(0, 40)}`);
  return (req) => {
    const name = schemaName(req);
    const prompt = firstUser(req);
    if (name === 'research_epic_phases') return JSON.stringify({ phases: (phases ?? []).map((ids, i) => ({ name: phaseNames[i], description: one(), item_ids: ids, threads: ['facts'] })) });
    if (name === 'research_plan') {
      const steps = itemIds(prompt).slice(0, 3).map((id, i) => ({ step_id: `s${i + 1}`, goal: `Examine ${id}: ${one()}`, required_content_items: [id], required_data: 'transcript_with_comments', marker_relevance: markerIds(prompt).slice(i, i + 2), retrieval_strategy: 'selective_by_markers' }));
      return JSON.stringify({ steps });
    }
    if (name === 'research_step') {
      const seen = sourceIds(lastUser(req));
      const ov = markerIds(prompt);
      const findings = [
        ...(seen.length ? [{ finding_id: 'f1', text: `Served evidence: ${one()}`, confidence: 0.8, source_ids: seen.slice(0, 2) }] : []),
        ...(ov.length ? [{ finding_id: 'f2', text: `Marker-backed: ${one()}`, confidence: 0.7, source_ids: [ov[0]!] }] : []),
      ];
      return JSON.stringify({ findings, insights: [one()], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') {
      const ids = sourceIds(prompt);
      const cite = (i: number): string => `[${ids[i % Math.max(1, ids.length)] ?? 'S1'}]`;
      const sections = (phaseNames.length ? phaseNames : ['Findings', 'Reception']).map((p, i) => ({
        heading: `${p.slice(0, 10)} ${one()}`,
        ...(phaseNames.length ? { phase_name: p } : {}),
        body: `Claim ${cite(i)}${cite(i + 1)}: ${one()}\n\n- point ${cite(i)} ${one()}\n\n${one()}${i % 2 ? '\n```\nunclosed fence swallows what follows' : '\n~~~\n'}`,
      }));
      return JSON.stringify({ title: one(), summary: `Summary ${cite(0)}(command:workbench.action.terminal.new) ${one()}`, sections, conclusion: `${one()}\n\`\`\`js\nstill open` });
    }
    return '{}';
  };
}

function client(): ModelClient {
  return createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 5_000 }, { retry: { retries: 0 } });
}

/** `md` with our own link targets blanked out. */
function withoutOwn(md: string, own: readonly string[]): string {
  let out = md;
  for (const href of own) out = out.split(href).join(' '.repeat(href.length));
  return out;
}

/** The checks every report of a run passes: report.md, its preview and the Markdown export. */
async function assertSafeRun(corpus: Corpus, runId: string, label: string): Promise<void> {
  const run = await readRun(corpus.root, runId);
  const report = run.report!;
  const n = run.sources!.citations.length;
  // A hostile goal is about the items that mention its words (issue 20: the goal decides the scope), which may be one.
  assert.ok(n >= 1, `${label}: the report cites ${n} spans`);
  const found = liveLinks(report);
  assert.deepEqual(found, [], `${label}: report.md\n${show(found)}`);
  assert.equal(report.match(/^## Sources$/gm)?.length, 1, `${label}: one Sources heading`);
  const lines = report.split('\n');
  const at = lines.indexOf('## Sources');
  const fenced = fencedLines(report);
  assert.ok(!fenced[at] && lines.slice(at + 1).every((_, k) => !fenced[at + 1 + k]), `${label}: the Sources section is outside every fence`);
  assert.equal(lines.slice(at + 1).filter((l) => /^\[\d+\] /.test(l)).length, n, `${label}: one line per source`);
  const cited = new Set(findCitations(report).map((c) => c.number));
  for (const c of cited) assert.ok(c >= 1 && c <= n, `${label}: [${c}] resolves`);
  assert.ok(cited.size >= Math.min(2, n), `${label}: citations of the model survive as links for the editor`);
  assert.doesNotMatch(report, /\[S\d+\]/, `${label}: no raw source ids`);

  const preview = await writeReportPreview(corpus, runId);
  const out = path.join(work, `${label}.md`);
  await exportReportFile(corpus, runId, out, { links: 'file' });
  for (const [file, links] of [[preview, 'relative'], [out, 'file']] as const) {
    const md = await readFile(file, 'utf8');
    const own = (['start', 'range'] as const).flatMap((f) => exportedSources({ markdown: report, sources: run.sources!, corpusRoot: corpus.root, corpus, outFile: file, links }, f).map((s) => s.href!)).filter(Boolean);
    const rest = liveLinks(withoutOwn(md, own)).filter((f) => !(f.kind === 'link' && f.target.trim() === '') && !(f.kind === 'html' && /^<a id="source-\d+">$|^<\/a>$/.test(f.target)));
    assert.deepEqual(rest, [], `${label}: ${path.basename(file)}\n${show(rest)}`);
    for (const l of liveLinks(md).filter((f) => f.kind === 'link')) assert.ok(own.includes(l.target), `${label}: ${path.basename(file)} links to ${l.target}`);
    assert.equal(md.match(/^## Sources$/gm)?.length, 1, `${label}: ${path.basename(file)} has one appendix`);
  }
}

describe('model-written Markdown in a report (fake model server)', () => {
  before(async () => {
    server = await startFakeModelServer();
    work = await mkdtemp(path.join(tmpdir(), 'mr-md-model-'));
  });
  after(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  for (const seed of [19_101, 19_102, 19_103]) {
    test(`a medium run whose model writes hostile Markdown everywhere (seed ${seed})`, async () => {
      const corpus = await freshDemoCorpus(work, `medium-${seed}`);
      server.setResponder(hostileModel(seed));
      const goal = hostileTexts(seed + 50, 1)[0]!;
      const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS }, { goal, complexity: 'medium' });
      assert.equal(result.manifest.status, 'done', result.manifest.error);
      await assertSafeRun(corpus, result.runId, `medium-${seed}`);
    });
  }

  test('an epic run: hostile phase names in the chapter headings stay text', async () => {
    const corpus = await freshDemoCorpus(work, 'epic');
    const ids = corpus.items.map((i) => i.id).sort();
    server.setResponder(hostileModel(19_104, [[ids[0]!, ids[1]!], [ids[2]!, ids[3]!, ids[4]!]]));
    const result = await runResearch({ corpus, engine: client(), promptsDir: PROMPTS }, { goal: 'how the topics change', complexity: 'epic' });
    assert.equal(result.manifest.status, 'done', result.manifest.error);
    const report = (await readRun(corpus.root, result.runId)).report!;
    assert.ok((report.match(/^## Chapter \d+: Phase \d+ /gm) ?? []).length >= 2, 'one chapter per phase');
    await assertSafeRun(corpus, result.runId, 'epic');
  });
});
