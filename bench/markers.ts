/**
 * The Phase 0 benchmark: `node --import tsx bench/markers.ts [--quick]` (part of `npm run bench`).
 * Runs the marker pipeline through the real openai client against the project's fake model
 * server (127.0.0.1) on the dev corpora and reports:
 *  - coverage of every part and the read overhead at the default window settings
 *    (tokens of the windows as sent ÷ tokens of the parts read once; instructions excluded, and
 *    shown separately as prompt tokens ÷ corpus tokens);
 *  - the speed-up of 8 concurrent slots over 1 with a model that takes 200 ms per call on a
 *    corpus cut into ~200 windows;
 *  - the share of paraphrased markers grounded to the span they came from, and of extractive
 *    markers grounded;
 *  - model calls on a second run of an unchanged corpus.
 * Writes bench/results/markers.json and .md.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { estimateTokens } from '../src/core/llm/tokens';
import { createMarkerEngine } from '../src/core/markers/engineFactory';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { DEFAULT_WINDOW_SETTINGS, planWindows, renderWindow, type WindowSettings } from '../src/core/markers/windows';
import { startFakeModelServer, type FakeModelServer } from '../test/support/fakeModelServer';
import { paraphrasingResponder, type PlantedClaim } from '../test/support/paraphrasingModel';

const REPO = path.resolve(__dirname, '..');
const PROMPTS = path.join(REPO, 'prompts');
const CORPORA = ['qmsum-dev', 'vcsum-zh-dev', 'yt-podcast-es-dev', 'yt-spam-en-dev'];

async function copyCorpus(src: string, work: string, name: string): Promise<string> {
  const dst = path.join(work, name);
  await cp(src, dst, { recursive: true, filter: (p) => !p.includes(`${path.sep}.marker-research`) });
  return dst;
}

/** Window tokens as sent ÷ tokens of each part read once, over the whole corpus. */
function readOverhead(corpus: Corpus, settings: WindowSettings): { sent: number; once: number; windows: number } {
  let sent = 0;
  let once = 0;
  let windows = 0;
  for (const item of corpus.items) {
    for (const part of [item.transcript, item.comments]) {
      if (!part || part.wordCount === 0) continue;
      const ws = planWindows(part, settings);
      windows += ws.length;
      for (const w of ws) sent += estimateTokens(renderWindow(part, w));
      const whole = planWindows(part, { windowWords: Number.MAX_SAFE_INTEGER, overlapWords: 0, windowLimit: 0 });
      for (const w of whole) once += estimateTokens(renderWindow(part, w));
    }
  }
  return { sent, once, windows };
}

function engineFor(server: FakeModelServer, concurrency: number) {
  return createMarkerEngine({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency, timeoutMs: 60_000 }, { promptsDir: PROMPTS, apiKey: 'bench' });
}

async function groundedRight(corpus: Corpus, planted: readonly PlantedClaim[]): Promise<{ right: number; total: number }> {
  let right = 0;
  let total = 0;
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    if (!r.ok) continue;
    for (const m of allMarkers(r.value)) {
      const p = planted.find((x) => x.claim === m.text);
      if (!p) continue;
      total++;
      const ev = m.evidence[0];
      const part = ev?.part === 'comments' ? item.comments : item.transcript;
      if (!ev || !part) continue;
      for (let at = part.text.indexOf(p.sentence); at >= 0; at = part.text.indexOf(p.sentence, at + 1)) {
        if (ev.start < at + p.sentence.length && ev.end > at) {
          right++;
          break;
        }
      }
    }
  }
  return { right, total };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const corporaRoot = path.resolve(process.env['MARKER_RESEARCH_CORPORA'] || path.join(REPO, '..', 'shared', 'corpora'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'marker-research-bench-markers-'));
  const server = await startFakeModelServer();
  const rows: Record<string, unknown>[] = [];
  const lines: string[] = [];
  try {
    for (const name of CORPORA) {
      const dir = await copyCorpus(path.join(corporaRoot, name), work, name).catch(() => undefined);
      if (!dir) {
        lines.push(`- ${name}: not found under ${corporaRoot}; skipped`);
        continue;
      }
      const corpus = await loadCorpus(dir);
      const o = readOverhead(corpus, DEFAULT_WINDOW_SETTINGS);
      // Extractive: every item, every marker grounded.
      const ex = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      const exMarkers = ex.items.reduce((a, i) => a + i.markers, 0);
      const exGrounded = ex.items.reduce((a, i) => a + i.grounded, 0);
      const itemsWithMarkers = ex.items.filter((i) => i.markers > 0).length;
      // Model (fake, paraphrasing) at the default windows, 8 slots.
      const planted: PlantedClaim[] = [];
      server.reset();
      server.setResponder(paraphrasingResponder(planted));
      const { engine, client } = engineFor(server, 8);
      const t0 = performance.now();
      const run = await generateMarkers(corpus, { engine, force: true });
      const ms = performance.now() - t0;
      const covs = run.items.flatMap((i) => [i.coverage?.transcript, i.coverage?.comments]).filter((c) => c);
      const complete = covs.every((c) => c!.complete && c!.wordsSeen === c!.totalWords);
      const g = await groundedRight(corpus, planted);
      const calls = server.chatRequests().length;
      await generateMarkers(await loadCorpus(dir), { engine });
      const secondRunCalls = server.chatRequests().length - calls;
      const promptTokens = client!.ledger.total().promptTokens;
      rows.push({
        corpus: name, items: corpus.items.length, words: corpus.stats.words, windows: o.windows,
        coverage_complete: complete, read_overhead: o.sent / o.once, prompt_tokens_per_corpus_token: promptTokens / o.once,
        model_ms: Math.round(ms), failed: run.failed, grounded_right: g.right, grounded_total: g.total,
        extractive_items_with_markers: itemsWithMarkers, extractive_items: corpus.items.length, extractive_markers: exMarkers, extractive_grounded: exGrounded,
        second_run_calls: secondRunCalls,
      });
    }

    // Speed-up: ~200 windows, 200 ms per call, 1 slot vs 8.
    const qmsum = await copyCorpus(path.join(corporaRoot, 'qmsum-dev'), work, 'qmsum-speed').catch(() => undefined);
    let speed: Record<string, unknown> | undefined;
    if (qmsum) {
      const corpus = await loadCorpus(qmsum);
      const words = corpus.items.reduce((a, i) => a + (i.transcript?.wordCount ?? 0), 0);
      const target = values.quick ? 60 : 200;
      const settings: WindowSettings = { windowWords: Math.round(words / target), overlapWords: 10, windowLimit: 0 };
      const windows = corpus.items.reduce((a, i) => a + (i.transcript ? planWindows(i.transcript, settings).length : 0) + (i.comments ? planWindows(i.comments, settings).length : 0), 0);
      const slow = (planted: PlantedClaim[]) => { const r = paraphrasingResponder(planted); return async (req: Parameters<typeof r>[0]) => { await new Promise((res) => setTimeout(res, 200)); return r(req); }; };
      const timeWith = async (slots: number): Promise<number> => {
        server.reset();
        server.setResponder(slow([]));
        const { engine } = engineFor(server, slots);
        const t0 = performance.now();
        const r = await generateMarkers(corpus, { engine, windows: settings, force: true });
        if (r.failed) throw new Error(`speed run with ${slots} slots: ${r.failed} items failed`);
        return performance.now() - t0;
      };
      const one = await timeWith(1);
      const eight = await timeWith(8);
      speed = { windows, one_slot_ms: Math.round(one), eight_slots_ms: Math.round(eight), speedup: one / eight };
    }

    const f = (x: number, d = 3): string => x.toFixed(d);
    const md = [
      `# Phase 0 markers benchmark — ${new Date().toISOString()}`,
      '',
      'Fake model server on 127.0.0.1, real `openai` client, default windows (' + `${DEFAULT_WINDOW_SETTINGS.windowWords} words, overlap ${DEFAULT_WINDOW_SETTINGS.overlapWords}` + ').',
      '',
      '| corpus | items | words | windows | coverage 100 % | read overhead | prompt tok ÷ corpus tok | grounded (paraphrase) | extractive grounded | items with extractive markers | 2nd-run calls |',
      '|:--|--:|--:|--:|:--:|--:|--:|--:|--:|--:|--:|',
      ...rows.map((r) => `| ${r['corpus']} | ${r['items']} | ${r['words']} | ${r['windows']} | ${r['coverage_complete'] ? '✓' : '✗'} | ${f(r['read_overhead'] as number)}× ${(r['read_overhead'] as number) <= 1.06 ? '✓' : '✗'} | ${f(r['prompt_tokens_per_corpus_token'] as number)}× | ${r['grounded_right']}/${r['grounded_total']} = ${f((100 * (r['grounded_right'] as number)) / Math.max(1, r['grounded_total'] as number), 1)} % ${(r['grounded_right'] as number) / Math.max(1, r['grounded_total'] as number) >= 0.95 ? '✓' : '✗'} | ${r['extractive_grounded']}/${r['extractive_markers']} ${r['extractive_grounded'] === r['extractive_markers'] ? '✓' : '✗'} | ${r['extractive_items_with_markers']}/${r['extractive_items']} | ${r['second_run_calls']} ${r['second_run_calls'] === 0 ? '✓' : '✗'} |`),
      '',
      speed ? `Speed-up (qmsum-dev cut into ${speed['windows']} windows, 200 ms per call): 1 slot ${speed['one_slot_ms']} ms, 8 slots ${speed['eight_slots_ms']} ms → ${f(speed['speedup'] as number, 2)}× ${(speed['speedup'] as number) >= 6 ? '✓' : '✗'} (target ≥ 6×)` : 'Speed-up: qmsum-dev not found; skipped',
      ...lines,
      '',
    ].join('\n');
    console.log(md);
    await mkdir(path.join(REPO, 'bench', 'results'), { recursive: true });
    await writeFile(path.join(REPO, 'bench', 'results', 'markers.json'), `${JSON.stringify({ rows, speed }, null, 2)}\n`);
    await writeFile(path.join(REPO, 'bench', 'results', 'markers.md'), md);
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
