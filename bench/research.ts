/**
 * The research benchmark: `node --import tsx bench/research.ts`. On copies of the dev corpora
 * (`$MARKER_RESEARCH_CORPORA`, default ../shared/corpora), with extractive markers and the real
 * openai client against the project's fake model server (127.0.0.1), it measures the issue's
 * targets:
 *  - marker overview of the whole corpus ÷ source tokens (target ≤ 3 %);
 *  - Phase 3 prompt tokens on QMSum vs a naive baseline that sends each step's items in full
 *    (target ≥ 75 % fewer), and whether the step's cited findings are the same set;
 *  - epic: execute time with 8 slots vs 1 and a 200 ms model (target ≥ 6×), and the duplicate
 *    rate of findings after de-duplication (target ≤ 2 %).
 * The fake model is deterministic: in a step it asks for the evidence of the markers the plan
 * names (`by_marker`) and cites what was served; in the baseline it would cite the same markers'
 * evidence spans from the full text — so the sets are compared span by span.
 * Writes bench/results/research.md.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { createModelClient } from '../src/core/llm/client';
import { estimateTokens } from '../src/core/llm/tokens';
import { generateMarkers } from '../src/core/markers/generate';
import { renderFullItem } from '../src/core/markers/fullItem';
import { formatMarkerOverview } from '../src/core/research/overview';
import { planResearch, readRun, runResearch } from '../src/core/research/pipeline';
import { loadMarkerMap } from '../src/core/research/session';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../test/support/fakeModelServer';

const REPO = path.resolve(__dirname, '..');
const PROMPTS = path.join(REPO, 'prompts');
const CORPORA = ['qmsum-dev', 'vcsum-zh-dev', 'yt-podcast-es-dev', 'yt-spam-en-dev'];

const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';
const schemaName = (req: ChatRequestInfo): string => (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';

/** The fake model: asks for the evidence of the plan's markers, cites what was served. */
function responder(delayMs = 0): (req: ChatRequestInfo) => Promise<string> {
  return async (req) => {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const name = schemaName(req);
    if (name === 'research_step') {
      const planned = /(?:Most relevant markers \(from the plan\)|最相关的标记（来自计划）)[:：] (.*)/.exec(firstUser(req))?.[1]?.split(', ').filter((x) => x.includes(':')) ?? [];
      const round = req.messages.filter((m) => m.role === 'assistant').length;
      if (round === 0 && planned.length) return JSON.stringify({ findings: [], insights: [], confidence: 0.3, requests: planned.map((id) => ({ type: 'by_marker', marker_id: id })), done: false });
      const last = [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const evidence = [...last.matchAll(/Evidence \[(S\d+)\]: "([^"\n]*)"/g)].map((m) => ({ id: m[1]!, quote: m[2]! }));
      return JSON.stringify({ findings: evidence.map((e, i) => ({ finding_id: `f${i + 1}`, text: e.quote, confidence: 0.7, source_ids: [e.id] })), insights: [], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') {
      const ids = [...new Set([...firstUser(req).matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
      return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: ids.map((id) => `Claim [${id}].`).join(' ') || 'None.' }], conclusion: 'Done.' });
    }
    return '{}';
  };
}

async function copyCorpus(src: string, work: string, name: string): Promise<Corpus> {
  const dst = path.join(work, name);
  await cp(src, dst, { recursive: true, filter: (p) => !p.includes(`${path.sep}.marker-research`) });
  const corpus = await loadCorpus(dst);
  await generateMarkers(corpus, { engine: { kind: 'extractive' } });
  return corpus;
}

async function main(): Promise<void> {
  const corporaRoot = path.resolve(process.env['MARKER_RESEARCH_CORPORA'] || path.join(REPO, '..', 'shared', 'corpora'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-research-'));
  const server: FakeModelServer = await startFakeModelServer();
  const lines: string[] = ['# Research pipeline benchmark', '', `Fake model server on 127.0.0.1, extractive markers, ${new Date().toISOString().slice(0, 10)}.`, ''];
  try {
    // 1. Overview size.
    lines.push('## Marker overview of a whole corpus ÷ its source tokens (target ≤ 3 %)', '', '| corpus | items | source tokens | default overview (3 markers per kind) | with maxTokens = 3 % of source |', '|---|---|---|---|---|');
    const corpora = new Map<string, Corpus>();
    for (const name of CORPORA) {
      const corpus = await copyCorpus(path.join(corporaRoot, name), work, name).catch(() => undefined);
      if (!corpus) {
        lines.push(`| ${name} | not found | | | |`);
        continue;
      }
      corpora.set(name, corpus);
      const markers = await loadMarkerMap(corpus);
      const source = corpus.items.reduce((a, i) => a + estimateTokens(i.transcript?.text ?? '') + estimateTokens(i.comments?.text ?? ''), 0);
      const inputs = corpus.items.map((item) => ({ item, markers: markers.get(item.id) }));
      // The default overview (no token cap) is the honest figure; the capped one shows what the budget option does.
      const plain = formatMarkerOverview(inputs, { maxItems: corpus.items.length });
      const ov = formatMarkerOverview(inputs, { maxItems: corpus.items.length, maxTokens: Math.floor(source * 0.03) });
      const plainShare = plain.tokens / Math.max(1, source);
      const share = ov.tokens / Math.max(1, source);
      lines.push(`| ${name} | ${corpus.items.length} | ${source} | ${plain.tokens} = ${(plainShare * 100).toFixed(2)} % ${plainShare <= 0.03 ? '✓' : '✗'} | ${ov.tokens} = ${(share * 100).toFixed(2)} % |`);
      console.log(`overview ${name}: default ${plain.tokens} / ${source} = ${(plainShare * 100).toFixed(2)} %; with a 3 % token cap ${(share * 100).toFixed(2)} %`);
    }

    // 2. Phase 3 tokens vs the naive baseline on QMSum.
    const qmsum = corpora.get('qmsum-dev');
    if (qmsum) {
      server.reset();
      server.setResponder(responder());
      const plan = await planResearch({ corpus: qmsum, engine: 'extractive', promptsDir: PROMPTS }, 'What did the groups decide and why?', { complexity: 'medium' });
      const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 8, timeoutMs: 10_000 });
      const result = await runResearch({ corpus: qmsum, engine: client, promptsDir: PROMPTS, config: { context_window_limit: 200_000, max_content_items_per_turn: 20 } }, { plan });
      const stored = await readRun(qmsum.root, result.runId);
      const ours = Object.entries(stored.usage!.byStep).filter(([k]) => k.startsWith('execute/')).reduce((a, [, u]) => a + u.promptTokens, 0);
      // Naive: the step's instructions and header, then every item of the step in full (one round).
      const stepSystem = server.chatRequests().find((r) => JSON.stringify(r.body).includes('research_step'))?.messages?.find((m) => m.role === 'system')?.content ?? '';
      let naive = 0;
      let same = 0;
      const markers = await loadMarkerMap(qmsum);
      const evidenceOf = new Map([...markers.values()].flatMap((im) => [...(im.transcript_summary ? [...im.transcript_summary.key_facts, ...im.transcript_summary.key_opinions, ...im.transcript_summary.key_datapoints] : []), ...(im.comments_summary ? [...im.comments_summary.key_facts_from_comments, ...im.comments_summary.key_opinions_from_comments, ...im.comments_summary.key_datapoints_from_comments, ...im.comments_summary.top_engagement_markers] : [])].map((m) => [m.id, m.evidence[0]] as const)));
      for (const st of plan.steps) {
        naive += estimateTokens(stepSystem) + estimateTokens(`**Step ${st.step_id}: ${st.goal}**\n${st.required_content_items.map((id) => renderFullItem(qmsum.items.find((i) => i.id === id)!)).join('\n\n')}`);
        const cited = new Set((stored.steps.get(st.step_id)?.findings ?? []).flatMap((f) => f.source_ids).map((id) => stored.steps.get(st.step_id)!.sources.find((s) => s.source_id === id)).filter((s) => s).map((s) => `${s!.item_id}:${s!.part}:${s!.start}-${s!.end}`));
        // Compare by span: the baseline's cited spans are the planned markers' evidence spans.
        const baseSpans = new Set(
          st.marker_relevance.flatMap((id) => {
            const e = evidenceOf.get(id);
            const item = id.slice(0, id.lastIndexOf(':', id.lastIndexOf(':') - 1));
            return e ? [`${item}:${e.part}:${e.start}-${e.end}`] : [];
          }),
        );
        if (cited.size === baseSpans.size && [...cited].every((c) => baseSpans.has(c))) same++;
      }
      const saved = 1 - ours / Math.max(1, naive);
      lines.push('', '## Phase 3 prompt tokens on qmsum-dev vs sending each step\'s items in full (target ≥ 75 % fewer)', '');
      lines.push(`- plan: ${plan.steps.length} steps (extractive plan, medium), model run against the fake server`);
      lines.push(`- Phase 3 prompt tokens: ${ours} (all rounds) vs naive ${naive} (one round, items in full): **${(saved * 100).toFixed(1)} % fewer** ${saved >= 0.75 ? '✓' : '✗'}`);
      lines.push(`- steps whose cited findings are the same set of spans as the baseline's: ${same} of ${plan.steps.length}`);
      console.log(`phase 3: ${ours} vs naive ${naive}: ${(saved * 100).toFixed(1)} % fewer; same findings in ${same}/${plan.steps.length} steps`);

      // 3. Epic: 8 slots vs 1 with a 200 ms model; duplicate rate.
      const epicGoal = { goal_id: 'g1', title: 'How do the meetings evolve?', rationale: 'every item', item_ids: qmsum.items.map((i) => i.id), marker_ids: [] };
      const epicPlan = await planResearch({ corpus: qmsum, engine: 'extractive', promptsDir: PROMPTS }, epicGoal, { complexity: 'epic' });
      const timed = async (slots: number): Promise<{ ms: number; dedup: NonNullable<typeof result.manifest.dedup> }> => {
        server.reset();
        server.setResponder(responder(200));
        const c = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: slots, timeoutMs: 10_000 });
        let t0 = 0;
        let t1 = 0;
        const r = await runResearch({ corpus: qmsum, engine: c, promptsDir: PROMPTS, config: { max_content_items_per_turn: 20 }, onEvent: (e) => e.type === 'phase' && e.phase === 'execute' && (e.status === 'running' ? (t0 = Date.now()) : (t1 = Date.now())) }, { plan: epicPlan });
        return { ms: t1 - t0, dedup: r.manifest.dedup! };
      };
      const one = await timed(1);
      const eight = await timed(8);
      const speedup = one.ms / Math.max(1, eight.ms);
      lines.push('', '## Epic run on qmsum-dev (200 ms model)', '');
      lines.push(`- ${epicPlan.phases?.length ?? 0} phases, ${epicPlan.steps.length} threads; execute ${one.ms} ms with 1 slot vs ${eight.ms} ms with 8 slots: **${speedup.toFixed(1)}×** ${speedup >= 6 ? '✓' : '✗'} (target ≥ 6×)`);
      lines.push(`- findings ${eight.dedup.findings_before} → ${eight.dedup.findings_after}; within-phase duplicates before ${(eight.dedup.within_phase_rate_before * 100).toFixed(1)} %, cross-phase before ${(eight.dedup.cross_phase_rate_before * 100).toFixed(1)} %, after ${(eight.dedup.rate_after * 100).toFixed(1)} % ${eight.dedup.rate_after <= 0.02 ? '✓' : '✗'} (target ≤ 2 %, similarity ≥ ${eight.dedup.threshold})`);
      console.log(`epic: ${one.ms} ms vs ${eight.ms} ms = ${speedup.toFixed(1)}x; duplicates after ${(eight.dedup.rate_after * 100).toFixed(1)} %`);
    }
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
  await mkdir(path.join(REPO, 'bench', 'results'), { recursive: true });
  await writeFile(path.join(REPO, 'bench', 'results', 'research.md'), `${lines.join('\n')}\n`);
  console.log('wrote bench/results/research.md');
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
