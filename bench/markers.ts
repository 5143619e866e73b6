/**
 * The Phase 0 benchmark: `node --import tsx bench/markers.ts [--quick] [--report-only]` (part of
 * `npm run bench`). Runs the marker pipeline through the real openai client against the project's
 * fake model server (127.0.0.1) on copies of the dev corpora and measures, from what the server
 * received and from the corpus (never from the pipeline's own coverage or grounding counts):
 *  - coverage: the windows as the model received them, found back in each part's text; every
 *    non-space character of every part must have been sent;
 *  - read overhead: characters sent ÷ distinct characters sent (overlap re-reads), same source;
 *  - prompt tokens on the wire ÷ corpus tokens (the bench's yardstick; no target);
 *  - the speed-up of 8 concurrent slots over 1 with a model that takes 200 ms per call on a
 *    corpus cut into ~200 windows (wall clock);
 *  - paraphrased claims grounded to the sentence the fake model paraphrased (it records which),
 *    over every sentence it claimed, so a marker the pipeline dropped counts as a miss;
 *  - extractive markers whose stored evidence span contains the marker's text;
 *  - model calls the server sees on a second run of an unchanged corpus.
 * A missing dev corpus is a failure naming its path. Exit 1 on a failure or a missed target
 * (`--report-only`: failures only). Writes bench/results/markers.json and .md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/core/corpus/loader';
import type { CommentsPart, Corpus, TranscriptPart } from '../src/core/corpus/types';
import { createMarkerEngine } from '../src/core/markers/engineFactory';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { DEFAULT_WINDOW_SETTINGS, planWindows, type WindowSettings } from '../src/core/markers/windows';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from '../test/support/fakeModelServer';
import { paraphrasingResponder, type PlantedClaim } from '../test/support/paraphrasingModel';
import { type BenchReport, copyDevCorpus, coverageFromCounts, DEV_CORPORA, lineCandidates, markWindowLines, REPO, runBench, writeBenchResult, yardstickTokens } from './benchSupport';
import { itemSpam } from '../src/core/markers/spamFree';

const PROMPTS = path.join(REPO, 'prompts');

function engineFor(server: FakeModelServer, concurrency: number) {
  return createMarkerEngine({ provider: 'openai', baseUrl: server.openaiBaseUrl, model: 'fake-model', concurrency, timeoutMs: 60_000 }, { promptsDir: PROMPTS, apiKey: 'bench' });
}

const norm = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Letter/digit runs of a text, folded (a CJK run one character at a time). */
const wordsOf = (s: string): string[] => norm(s).match(/[\p{Script=Han}]|[\p{L}\p{N}\p{M}]+/gu) ?? [];

/**
 * Whether every word of `text` is found in `span`, in order: a marker's text is its span cleaned
 * (fillers, annotations and stutters taken out, whitespace normalised), never words the span does not have.
 */
function wordsInOrder(text: string, span: string): boolean {
  const want = wordsOf(text);
  const have = wordsOf(span);
  let k = 0;
  for (const w of have) if (k < want.length && w === want[k]) k++;
  return want.length > 0 && k === want.length;
}

/** Extractive markers as stored: how many have a span whose words contain the marker's words, in order. */
async function extractiveCheck(corpus: Corpus): Promise<{ markers: number; verified: number; items: number; unreadable: string[]; bad: string[] }> {
  let markers = 0;
  let verified = 0;
  let items = 0;
  const unreadable: string[] = [];
  const bad: string[] = [];
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    if (!r.ok) {
      unreadable.push(`${item.id}: ${r.missing ? 'no markers file' : r.error}`);
      continue;
    }
    const ms = allMarkers(r.value);
    if (ms.length) items++;
    for (const m of ms) {
      markers++;
      const ev = m.evidence[0];
      const part = ev?.part === 'comments' ? item.comments : item.transcript;
      const span = ev && part && ev.end <= part.text.length && ev.start < ev.end ? part.text.slice(ev.start, ev.end) : undefined;
      if (span !== undefined && wordsInOrder(m.text, span)) verified++;
      else if (bad.length < 3) bad.push(`${m.id}: ${ev ? `span ${ev.start}-${ev.end}` : 'no evidence'}`);
    }
  }
  return { markers, verified, items, unreadable, bad };
}

/** Paraphrased claims: sentences the fake model claimed, and how many a stored marker grounds to that sentence. */
async function groundingCheck(corpus: Corpus, planted: readonly PlantedClaim[]): Promise<{ sentences: number; kept: number; right: number }> {
  const sentenceOf = new Map<string, string>();
  for (const p of planted) sentenceOf.set(p.claim, p.sentence);
  const all = new Set(sentenceOf.values());
  const kept = new Set<string>();
  const right = new Set<string>();
  for (const item of corpus.items) {
    const r = await readItemMarkers(corpus.root, item.id);
    if (!r.ok) continue; // the sentences of this item stay unmatched: misses
    for (const m of allMarkers(r.value)) {
      const sentence = sentenceOf.get(m.text);
      if (sentence === undefined) continue;
      kept.add(sentence);
      const ok = m.evidence.some((ev) => {
        const part = ev.part === 'comments' ? item.comments : item.transcript;
        if (!part) return false;
        for (let at = part.text.indexOf(sentence); at >= 0; at = part.text.indexOf(sentence, at + 1)) if (ev.start < at + sentence.length && ev.end > at) return true;
        return false;
      });
      if (ok) right.add(sentence);
    }
  }
  return { sentences: all.size, kept: kept.size, right: right.size };
}

const WINDOW_BLOCK = /<(window|comments)>\n?([\s\S]*?)\n?<\/\1>/;

/**
 * Coverage and re-reading from the requests the server received: each window is found back in
 * the part it belongs to (by the title in the prompt and its own text).
 */
function wireCoverage(corpus: Corpus, requests: readonly RecordedRequest[]): {
  chars: number; covered: number; sent: number; parts: number; partsComplete: number; unmatchedLines: number; unattributed: number; windowTokens: number; promptTokens: number; gaps: string[]; spamChars: number;
} {
  const counts = new Map<TranscriptPart | CommentsPart, Uint8Array>();
  let unmatchedLines = 0;
  let unattributed = 0;
  let windowTokens = 0;
  let promptTokens = 0;
  for (const req of requests) {
    const messages = req.messages ?? [];
    promptTokens += yardstickTokens(messages.map((m) => m.content).join(''));
    if (messages.some((m) => m.role === 'assistant')) continue; // a repair round repeats its window
    const user = [...messages].reverse().find((m) => m.role === 'user' && WINDOW_BLOCK.test(m.content))?.content;
    const block = user ? WINDOW_BLOCK.exec(user) : null;
    if (!user || !block) continue;
    windowTokens += yardstickTokens(block[2]!);
    const title = /^(?:Video: |视频：)(.*)$/m.exec(user)?.[1];
    const lines = block[2]!.split('\n');
    const kind = block[1] === 'comments' ? 'comments' : 'transcript';
    const longest = lineCandidates(lines.reduce((a, l) => (l.length > a.length ? l : a), ''), kind);
    const partOf = (i: (typeof corpus.items)[number]): TranscriptPart | CommentsPart | undefined => (block[1] === 'comments' ? i.comments : i.transcript);
    const candidates = corpus.items.filter((i) => i.title === title);
    const item = [...candidates, ...corpus.items].find((i) => {
      const p = partOf(i);
      return !!p && longest.some((c) => p.text.includes(c));
    });
    const part = item && partOf(item);
    if (!part) {
      unattributed++;
      continue;
    }
    let c = counts.get(part);
    if (!c) counts.set(part, (c = new Uint8Array(part.text.length)));
    unmatchedLines += markWindowLines(part.text, lines, c, kind);
  }
  let chars = 0;
  let covered = 0;
  let sent = 0;
  let parts = 0;
  let partsComplete = 0;
  const gaps: string[] = [];
  let spamChars = 0;
  for (const item of corpus.items) {
    for (const part of [item.transcript, item.comments]) {
      if (!part || !part.text.trim()) continue;
      parts++;
      const c = counts.get(part) ?? new Uint8Array(part.text.length);
      // Comments judged spam are never sent to a model (issue 21): their characters count as accounted for, and are reported.
      if (part.kind === 'comments') {
        const spam = itemSpam(item, corpus).ids;
        for (const x of part.comments) {
          if (!spam.has(x.id)) continue;
          for (let k = x.offset; k < Math.min(c.length, x.offset + x.text.length); k++) if (!c[k]) {
            c[k] = 1;
            if (!/\s/.test(part.text[k]!)) spamChars++;
          }
        }
      }
      const cov = coverageFromCounts(part.text, c);
      chars += cov.chars;
      covered += cov.covered;
      sent += cov.sent;
      if (cov.covered === cov.chars) partsComplete++;
      else if (gaps.length < 3) gaps.push(`${item.id} ${part.kind}: ${cov.chars - cov.covered} chars never sent, first at ${cov.firstGap?.[0]}–${cov.firstGap?.[1]} ("${part.text.slice(cov.firstGap?.[0] ?? 0, Math.min((cov.firstGap?.[0] ?? 0) + 60, cov.firstGap?.[1] ?? 0)).replace(/\s+/g, ' ')}")`);
    }
  }
  return { chars, covered, sent, parts, partsComplete, unmatchedLines, unattributed, windowTokens, promptTokens, gaps, spamChars };
}

async function bench(report: BenchReport, argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { quick: { type: 'boolean', default: false } } });
  const work = await mkdtemp(path.join(os.tmpdir(), 'marker-research-bench-markers-'));
  const server = await startFakeModelServer();
  const rows: Record<string, unknown>[] = [];
  const table: string[] = [];
  let speed: Record<string, unknown> | undefined;
  let speedLine = '';
  const f = (x: number, d = 3): string => x.toFixed(d);
  const pct = (a: number, b: number, d = 1): string => `${a}/${b} = ${f((100 * a) / Math.max(1, b), d)} %`;
  try {
    for (const name of DEV_CORPORA) {
      let dir: string;
      try {
        dir = await copyDevCorpus(name, work);
      } catch (e) {
        report.fail((e as Error).message);
        table.push(`| ${name} | missing | | | | | | | | | |`);
        continue;
      }
      const corpus = await loadCorpus(dir);
      // Extractive: every item; the stored spans are checked against the text.
      await generateMarkers(corpus, { engine: { kind: 'extractive' } });
      const ex = await extractiveCheck(corpus);
      // Model (fake, paraphrasing) at the default windows, 8 slots.
      const planted: PlantedClaim[] = [];
      server.reset();
      server.setResponder(paraphrasingResponder(planted));
      const { engine } = engineFor(server, 8);
      const t0 = performance.now();
      const run = await generateMarkers(corpus, { engine, force: true });
      const ms = performance.now() - t0;
      const requests = server.chatRequests();
      const cov = wireCoverage(corpus, requests);
      const g = await groundingCheck(corpus, planted);
      const calls = requests.length;
      await generateMarkers(await loadCorpus(dir), { engine });
      const secondRunCalls = server.chatRequests().length - calls;
      const corpusTokens = corpus.items.reduce((a, i) => a + yardstickTokens(i.transcript?.text ?? '') + yardstickTokens(i.comments?.text ?? ''), 0);
      const overhead = cov.sent / Math.max(1, cov.covered);
      const complete = cov.partsComplete === cov.parts && cov.unattributed === 0;
      const covCell = report.check(`${name}: every part's text reached the model (windows found back in the parts)`, complete,
        `${cov.partsComplete}/${cov.parts} parts, ${f((100 * cov.covered) / Math.max(1, cov.chars), 2)} % of chars${cov.spamChars ? ` (${cov.spamChars} chars of spam comments never sent, by design)` : ''}${cov.unattributed ? `, ${cov.unattributed} windows not found in any part` : ''}`);
      const ovCell = report.check(`${name}: read overhead ≤ 1.06× (chars sent ÷ distinct chars sent, from the wire)`, overhead <= 1.06, `${f(overhead)}×`);
      const groundCell = report.check(`${name}: paraphrased claims grounded to their sentence ≥ 95 % (of every sentence the model claimed)`, g.right / Math.max(1, g.sentences) >= 0.95, pct(g.right, g.sentences));
      const exCell = report.check(`${name}: extractive markers whose stored span contains their words, in order = 100 %`, ex.markers > 0 && ex.verified === ex.markers && !ex.unreadable.length,
        `${ex.verified}/${ex.markers}${ex.unreadable.length ? `, ${ex.unreadable.length} items unreadable` : ''}`);
      const cacheCell = report.check(`${name}: model calls on a second run of the unchanged corpus = 0`, secondRunCalls === 0, String(secondRunCalls));
      for (const gap of cov.gaps) report.note(`${name}: ${gap}`);
      for (const b of ex.bad) report.note(`${name}: extractive span does not contain the marker text: ${b}`);
      for (const u of ex.unreadable.slice(0, 3)) report.note(`${name}: ${u}`);
      if (cov.unmatchedLines) report.note(`${name}: ${cov.unmatchedLines} window lines were not found in their part`);
      rows.push({
        corpus: name, items: corpus.items.length, words: corpus.stats.words, requests: calls, failed_items_reported: run.failed,
        parts: cov.parts, parts_complete: cov.partsComplete, chars: cov.chars, chars_covered: cov.covered, chars_sent: cov.sent, unmatched_lines: cov.unmatchedLines, unattributed_windows: cov.unattributed,
        read_overhead: overhead, window_tokens_on_wire: cov.windowTokens, prompt_tokens_on_wire: cov.promptTokens, corpus_tokens: corpusTokens,
        model_ms: Math.round(ms), claimed_sentences: g.sentences, kept_sentences: g.kept, grounded_right: g.right,
        extractive_items_with_markers: ex.items, extractive_markers: ex.markers, extractive_verified: ex.verified, second_run_calls: secondRunCalls,
      });
      table.push(`| ${name} | ${corpus.items.length} | ${corpus.stats.words} | ${calls} | ${covCell} | ${ovCell} | ${f(cov.promptTokens / Math.max(1, corpusTokens))}× | ${groundCell} (kept ${g.kept}) | ${exCell} | ${ex.items}/${corpus.items.length} | ${cacheCell} |`);
      console.log(`markers ${name}: ${calls} requests, coverage ${cov.covered}/${cov.chars} chars, overhead ${f(overhead)}×, grounded ${g.right}/${g.sentences}, extractive ${ex.verified}/${ex.markers}, 2nd run ${secondRunCalls} calls`);
    }

    // Speed-up: ~200 windows, 200 ms per call, 1 slot vs 8 (wall clock).
    try {
      const qmsum = await copyDevCorpus('qmsum-dev', work, 'qmsum-speed');
      const corpus = await loadCorpus(qmsum);
      const words = corpus.items.reduce((a, i) => a + (i.transcript?.wordCount ?? 0), 0);
      const target = values.quick ? 60 : 200;
      const settings: WindowSettings = { windowWords: Math.round(words / target), overlapWords: 10, windowLimit: 0 };
      const windows = corpus.items.reduce((a, i) => a + (i.transcript ? planWindows(i.transcript, settings).length : 0) + (i.comments ? planWindows(i.comments, settings).length : 0), 0);
      const slow = (planted: PlantedClaim[]) => { const r = paraphrasingResponder(planted); return async (req: Parameters<typeof r>[0]) => { await new Promise((res) => setTimeout(res, 200)); return r(req); }; };
      const timeWith = async (slots: number): Promise<{ ms: number; calls: number }> => {
        server.reset();
        server.setResponder(slow([]));
        const { engine } = engineFor(server, slots);
        const t0 = performance.now();
        await generateMarkers(corpus, { engine, windows: settings, force: true });
        const ms = performance.now() - t0;
        return { ms, calls: server.chatRequests().length };
      };
      const one = await timeWith(1);
      const eight = await timeWith(8);
      const speedup = one.ms / eight.ms;
      speed = { windows_planned: windows, one_slot_ms: Math.round(one.ms), one_slot_calls: one.calls, eight_slots_ms: Math.round(eight.ms), eight_slots_calls: eight.calls, speedup };
      const cell = report.check('speed-up of 8 slots over 1 (200 ms model, wall clock) ≥ 6×', speedup >= 6 && one.calls === eight.calls && one.calls > 0, `${f(speedup, 2)}×`);
      speedLine = `Speed-up (qmsum-dev cut into ~${windows} windows; the server saw ${one.calls} / ${eight.calls} calls, 200 ms each): 1 slot ${Math.round(one.ms)} ms, 8 slots ${Math.round(eight.ms)} ms → ${cell} (target ≥ 6×)`;
    } catch (e) {
      report.fail(`speed-up: ${(e as Error).message}`);
      speedLine = `Speed-up: not measured (${(e as Error).message})`;
    }

    const md = [
      `# Phase 0 markers benchmark — ${new Date().toISOString()}`,
      '',
      `Fake model server on 127.0.0.1, real \`openai\` client, default windows (${DEFAULT_WINDOW_SETTINGS.windowWords} words, overlap ${DEFAULT_WINDOW_SETTINGS.overlapWords}). ` +
        'Coverage and read overhead come from the windows the server received, found back in the corpus text; grounding counts every sentence the fake model claimed; tokens are the bench\'s yardstick (the fake server\'s estimate).',
      '',
      '| corpus | items | words | model calls | coverage (from the wire) | read overhead | prompt tok ÷ corpus tok | grounded (paraphrase, per claimed sentence) | extractive spans verified | items with extractive markers | 2nd-run calls |',
      '|:--|--:|--:|--:|:--|--:|--:|--:|--:|--:|--:|',
      ...table,
      '',
      speedLine,
      '',
    ].join('\n');
    console.log(md);
    await writeBenchResult('markers.json', `${JSON.stringify({ rows, speed, targets: report.targets, failures: report.failures }, null, 2)}\n`);
    await writeBenchResult('markers.md', `${md}\n${report.lines().join('\n')}\n`);
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

void runBench('markers', bench);
