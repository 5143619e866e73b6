/**
 * The condensation benchmark (`node --import tsx bench/condense.ts`): how many prompt tokens Phase 3
 * saves when a step's items are read at the condensed level (seed 001, option B: `condensed_claims`)
 * instead of in full, on a copy of the QMSum dev corpus (`$MARKER_RESEARCH_CORPORA`, default
 * ../shared/corpora; copied to a temp folder, never into the repo).
 *
 * 1. Extractive markers, then `condenseCorpus` through the real ollama client against the project's
 *    fake model server. The fake condenser reads each window it is sent and returns up to 15 claims
 *    (the prompt's "at most about fifteen") on sentences spread over the window, each quoting the
 *    first words of its sentence verbatim, so claims ground the way a faithful model's would.
 * 2. The same research steps run twice through the real openai client against the fake server —
 *    once where the "model" asks for each of the step's items as `condensed_claims`, once as
 *    `full_content_item` — then cites what it was served. Steps: the extractive medium plan of
 *    one goal, and one step per item.
 * 3. Prompt tokens are those the fake server counted for every research_step request it received
 *    (its request log), checked against the run's usage.json; served-content tokens are the
 *    turn messages that carried the served content. Every claim served as a source is checked:
 *    a grounded claim, its span exactly its evidence quote in the loaded item.
 *
 * Exits 1 when a run does not finish `done`, a served claim is not grounded, or the counts disagree.
 * Writes bench/results/condense.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { createModelClient } from '../src/core/llm/client';
import { estimateTokens } from '../src/core/llm/tokens';
import { condenseCorpus, readCondensedItem, type CondensedItem } from '../src/core/markers/condense';
import { createMarkerEngine, promptSource } from '../src/core/markers/engineFactory';
import { generateMarkers } from '../src/core/markers/generate';
import { planResearch, readRun, runResearch } from '../src/core/research/pipeline';
import type { Plan } from '../src/core/research/schema';
import { startFakeModelServer, type ChatRequestInfo, type FakeModelServer } from '../test/support/fakeModelServer';
import { windowText } from '../test/support/paraphrasingModel';
import { type BenchReport, copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

const REPO = path.resolve(__dirname, '..');
const PROMPTS = path.join(REPO, 'prompts');
const CLAIMS_PER_WINDOW = 15;
const SENTENCE = /[^.!?。！？\n]+[.!?。！？]?/gu;
const CATEGORIES: [RegExp, string][] = [
  [/\b(budget|cost|price|money|fund|euro|pound|pay)/i, 'cost'],
  [/\b(design|button|remote|colour|color|shape|case|prototype)/i, 'design'],
  [/\b(data|results?|experiment|recogni[sz]er|features?|training|test)/i, 'research'],
  [/\b(covid|health|hospital|care|vaccin)/i, 'health'],
  [/\b(school|education|teacher|pupil|student|curriculum)/i, 'education'],
  [/\b(decide|decision|agree|plan|should|will)/i, 'decision'],
];

const schemaName = (req: ChatRequestInfo): string => (req.body['response_format'] as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? '';
const lastUser = (req: ChatRequestInfo): string => [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
const firstUser = (req: ChatRequestInfo): string => req.messages.find((m) => m.role === 'user')?.content ?? '';

/** The fake condenser: up to 15 claims on sentences spread over the window, each quoting its sentence's first 12 words verbatim. */
function condenseReply(req: ChatRequestInfo): string {
  const sentences = windowText(req)
    .split('\n')
    .map((l) => l.replace(/^\[c[^\]]*\]\s*/, '').replace(/^(?:[A-Z][\w.]*(?: [A-Z0-9][\w.]*){0,3}|[^\s:：]{1,20})[:：]\s+/u, ''))
    .flatMap((l) => l.match(SENTENCE) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.replace(/\{[^}]*\}/g, ' ').split(/\s+/).filter(Boolean).length >= 12);
  const step = Math.max(1, sentences.length / CLAIMS_PER_WINDOW);
  const picked = Array.from({ length: Math.min(CLAIMS_PER_WINDOW, sentences.length) }, (_, k) => sentences[Math.floor(k * step)]!);
  const claims = picked.map((s) => {
    const clean = s.replace(/\{[^}]*\}/g, ' ').replace(/\s+([,.?!])/g, '$1').replace(/\s+/g, ' ').trim();
    const words = clean.split(' ');
    const but = /\bbut\b(.+)/i.exec(clean)?.[1]?.trim();
    return {
      text: words.length > 35 ? `${words.slice(0, 35).join(' ')} …` : clean,
      quote: s.split(/\s+/).slice(0, 12).join(' '),
      category: CATEGORIES.find(([re]) => re.test(clean))?.[1] ?? 'discussion',
      confidence: 0.7,
      counterpoints: but ? [but.split(' ').slice(0, 12).join(' ')] : [],
    };
  });
  return JSON.stringify({ claims, categories: [...new Set(claims.map((c) => c.category))] });
}

type Level = 'condensed' | 'full';

/** Per level: the prompt tokens the server counted for research_step requests, and the served-content tokens. */
interface Tally {
  promptTokens: number;
  servedTokens: number;
  calls: number;
}

/** The research "model": round 1 asks for every item of the step at `level`, round 2 cites what was served. */
function researcher(level: () => Level, tally: () => Tally): (req: ChatRequestInfo) => string {
  return (req) => {
    const name = schemaName(req);
    if (name === 'research_step') {
      const t = tally();
      t.promptTokens += req.promptTokens;
      t.calls++;
      const round = req.messages.filter((m) => m.role === 'assistant').length;
      const items = [...firstUser(req).matchAll(/\*\*(?:Item|内容项) \d+: ([^*]+)\*\*/g)].map((m) => m[1]!);
      if (round === 0) {
        const requests = items.map((id) => (level() === 'condensed' ? { type: 'condensed_claims', item_id: id } : { type: 'full_content_item', item_id: id, part: 'transcript' }));
        return JSON.stringify({ findings: [], insights: [], confidence: 0.3, requests, done: false });
      }
      const served = lastUser(req);
      t.servedTokens += estimateTokens(served);
      const claimIds = [...served.matchAll(/^\d+\. ((?:\[S\d+\])+) /gm)].map((m) => /S\d+/.exec(m[1]!)![0]);
      const passageIds = [...served.matchAll(/^\[(S\d+)\] \(/gm)].map((m) => m[1]!);
      const ids = (claimIds.length ? claimIds : passageIds).slice(0, 5);
      const findings = ids.map((id, i) => ({ finding_id: `f${i + 1}`, text: `Finding ${i + 1} read at the ${level()} level`, confidence: 0.7, source_ids: [id] }));
      return JSON.stringify({ findings, insights: [], confidence: 0.7, requests: [], done: true });
    }
    if (name === 'research_synthesis') {
      const ids = [...new Set([...firstUser(req).matchAll(/\[(S\d+)\]/g)].map((m) => m[1]!))];
      return JSON.stringify({ title: 'Report', summary: 'Summary.', sections: [{ heading: 'Findings', body: ids.map((id) => `Claim [${id}].`).join(' ') || 'None.' }], conclusion: 'Done.' });
    }
    if (req.schema && JSON.stringify(req.schema).includes('counterpoints')) return condenseReply(req);
    return '{}';
  };
}

/** What one run of a plan at one level cost, and what its served claims were. */
interface LevelRun {
  tally: Tally;
  usagePromptTokens: number;
  servedClaims: number;
  servedSpans: number;
  ungroundedServed: string[];
  findings: number;
  citingServed: number;
}

async function runAt(server: FakeModelServer, corpus: Corpus, plan: Plan, level: Level, condensed: ReadonlyMap<string, CondensedItem>): Promise<LevelRun> {
  const tally: Tally = { promptTokens: 0, servedTokens: 0, calls: 0 };
  server.reset();
  server.setResponder(researcher(() => level, () => tally));
  const client = createModelClient({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency: 4, timeoutMs: 30_000 });
  const result = await runResearch({ corpus, engine: client, promptsDir: PROMPTS, config: { context_window_limit: 400_000, max_content_items_per_turn: 20 } }, { plan });
  if (result.manifest.status !== 'done') throw new Error(`bench condense: the ${level} run ${result.runId} ended ${result.manifest.status}: ${result.manifest.error ?? ''}`);
  const run = await readRun(corpus.root, result.runId);
  const usagePromptTokens = Object.entries(run.usage!.byStep).filter(([k]) => k.startsWith('execute/')).reduce((a, [, u]) => a + u.promptTokens, 0);
  // Every claim served as a source: grounded, and its span exactly one of its evidence quotes.
  let servedSpans = 0;
  const claimsServed = new Set<string>();
  const ungroundedServed: string[] = [];
  const servedIds = new Set<string>();
  for (const e of run.requests) {
    const type = (e.request as { type?: string }).type;
    if (type !== (level === 'condensed' ? 'condensed_claims' : 'full_content_item')) continue;
    if (e.status !== 'served') throw new Error(`bench condense: a ${type} request of ${e.step_id} was ${e.status}: ${e.reason ?? ''}`);
    for (const sv of e.served) {
      servedIds.add(sv.source_id);
      if (level !== 'condensed') continue;
      servedSpans++;
      claimsServed.add(`${e.step_id}\u0000${sv.claim_id ?? sv.source_id}`);
      const claim = condensed.get(sv.item_id)?.claims.find((c) => c.claim_id === sv.claim_id);
      const item = corpus.items.find((i) => i.id === sv.item_id)!;
      const text = (sv.part === 'transcript' ? item.transcript : item.comments)?.text ?? '';
      const exact = claim?.evidence.some((ev) => ev.start === sv.start && ev.end === sv.end && text.slice(sv.start, sv.end) === ev.quote);
      if (!claim?.grounded || !exact) ungroundedServed.push(`${sv.source_id} (${sv.claim_id ?? 'no claim'})`);
    }
  }
  const all = [...run.steps.values()].flatMap((s) => s.findings);
  return { tally, usagePromptTokens, servedClaims: claimsServed.size, servedSpans, ungroundedServed, findings: all.length, citingServed: all.filter((f) => f.source_ids.some((id) => servedIds.has(id))).length };
}

const pct = (a: number, b: number): string => `${((1 - a / Math.max(1, b)) * 100).toFixed(1)} %`;

async function body(bench: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-condense-'));
  const server = await startFakeModelServer();
  const fail = (message: string): void => bench.fail(message);
  const lines: string[] = ['# Condensation benchmark — Phase 3 prompt tokens at condensed level vs full content', '', `qmsum-dev (copied to a temp folder), real openai / ollama clients against the fake model server on 127.0.0.1, ${new Date().toISOString().slice(0, 10)}.`, ''];
  try {
    const dir = path.join(work, 'qmsum-dev');
    await copyDevCorpus('qmsum-dev', work);
    const corpus = await loadCorpus(dir);
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });

    // 1. Condense (the fake local model).
    server.setResponder(researcher(() => 'condensed', () => ({ promptTokens: 0, servedTokens: 0, calls: 0 })));
    const { client: local } = createMarkerEngine({ provider: 'ollama', baseUrl: server.ollamaHost, model: 'fake-local', concurrency: 4 }, { promptsDir: PROMPTS });
    const report = await condenseCorpus(corpus, { model: local!, prompts: promptSource(PROMPTS) });
    if (report.failed.length) throw new Error(`bench condense: condensation failed for ${report.failed.map((f) => `${f.itemId}: ${f.error}`).join('; ')}`);
    const condensed = new Map<string, CondensedItem>();
    for (const item of corpus.items) {
      const r = await readCondensedItem(corpus.root, item.id);
      if (!r.ok) throw new Error(`bench condense: no condensation of ${item.id}`);
      condensed.set(item.id, r.value);
    }
    const words = corpus.items.reduce((a, i) => a + i.wordCount, 0);
    lines.push(
      '## Condensation (fake local model)',
      '',
      `- ${corpus.items.length} items, ${words} words; ${report.usage.calls} model calls (${report.usage.promptTokens} prompt tokens on the local model — not the research model)`,
      `- ${report.claims} claims, ${report.grounded} grounded (${((report.grounded / Math.max(1, report.claims)) * 100).toFixed(1)} %); at most ${CLAIMS_PER_WINDOW} claims per window of 4,000 words`,
      '',
    );
    console.log(`condensed ${corpus.items.length} items: ${report.claims} claims, ${report.grounded} grounded`);

    // 2. The same steps at both levels.
    const plans: [string, Plan][] = [
      ['extractive medium plan of "What did the groups decide and why?"', await planResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, 'What did the groups decide and why?', { complexity: 'medium' })],
      [
        'one step per item',
        {
          goal: 'What was decided in each meeting?',
          complexity: 'medium',
          steps: corpus.items.map((i, k) => ({ step_id: `item${k + 1}`, goal: `What was decided in ${i.id} and why?`, required_content_items: [i.id], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'selective_by_markers' })),
        },
      ],
    ];
    lines.push('## Phase 3 prompt tokens (fake research model: round 1 asks for every item of the step, round 2 cites)', '');
    lines.push('| steps | items per step | prompt tokens, condensed | prompt tokens, full content | saving | served-content tokens, condensed / full | saving | claims served (evidence spans as sources), all grounded | findings citing what was served (condensed / full) |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    let headline = '';
    for (const [label, plan] of plans) {
      const cond = await runAt(server, corpus, plan, 'condensed', condensed);
      const full = await runAt(server, corpus, plan, 'full', condensed);
      for (const [lvl, r] of [['condensed', cond], ['full', full]] as const) {
        if (r.tally.promptTokens !== r.usagePromptTokens) {
          fail(`bench condense: ${label}, ${lvl}: the server counted ${r.tally.promptTokens} prompt tokens, usage.json says ${r.usagePromptTokens}`);
        }
      }
      if (cond.servedClaims === 0) {
        fail(`bench condense: ${label}: no condensed claim was served`);
      }
      if (cond.ungroundedServed.length) {
        fail(`bench condense: ${label}: served claims without an exact grounded span: ${cond.ungroundedServed.slice(0, 10).join(', ')}`);
      }
      const perStep = (plan.steps.reduce((a, s) => a + s.required_content_items.length, 0) / plan.steps.length).toFixed(1);
      lines.push(
        `| ${label} (${plan.steps.length}) | ${perStep} | ${cond.tally.promptTokens} | ${full.tally.promptTokens} | **${pct(cond.tally.promptTokens, full.tally.promptTokens)}** | ${cond.tally.servedTokens} / ${full.tally.servedTokens} | ${pct(cond.tally.servedTokens, full.tally.servedTokens)} | ${cond.servedClaims} (${cond.servedSpans}), ${cond.ungroundedServed.length ? `✗ ${cond.ungroundedServed.length} not` : '✓'} | ${cond.citingServed}/${cond.findings} / ${full.citingServed}/${full.findings} |`,
      );
      const msg = `${label}: prompt tokens condensed ${cond.tally.promptTokens} vs full ${full.tally.promptTokens} (${pct(cond.tally.promptTokens, full.tally.promptTokens)} fewer); served content ${cond.tally.servedTokens} vs ${full.tally.servedTokens} (${pct(cond.tally.servedTokens, full.tally.servedTokens)} fewer); ${cond.servedClaims} claims served, ${cond.ungroundedServed.length ? `${cond.ungroundedServed.length} NOT grounded` : 'all grounded'}`;
      console.log(msg);
      if (!headline) {
        headline = `${pct(cond.tally.promptTokens, full.tally.promptTokens)}`;
        bench.check('Phase 3 prompt tokens at the condensed level ≥ 50 % fewer than in full (seed 001 option B; the plan\'s steps)', cond.tally.promptTokens <= 0.5 * full.tally.promptTokens, `${headline} fewer`);
      }
    }
    lines.push(
      '',
      `Seed 001 target (option B): ≥ 50 % fewer tokens sent to the main model — the plan's steps: ${headline} fewer.`,
      '',
      'Prompt tokens: every research_step call of the run (all rounds, system prompt and overview included), as the fake server counted them (the same numbers the client recorded in usage.json, checked). Served-content tokens: the project estimate of the turn messages that carried the served content. The fake condenser sets the claim density; a real local model that writes longer claims or more evidence per claim would save less.',
      '',
    );
  } catch (e) {
    fail(`bench condense: ${(e as Error).stack ?? String(e)}`);
    lines.push('', `**Failed**: ${(e as Error).message}`, '');
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
  await writeBenchResult('condense.md', `${lines.join('\n')}\n`);
  console.log('wrote bench/results/condense.md');
}

void runBench('condense', body);
