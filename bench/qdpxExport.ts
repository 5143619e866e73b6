/**
 * REFI-QDA export at the size of a real corpus (issue 24):
 * `node --import tsx bench/qdpxExport.ts [--report-only]`.
 *
 * On a fresh copy of qmsum-dev (12 meetings) with its extractive markers generated, a small
 * workbench is written through the stores a researcher's clicks use: a codebook of 4 codes (one
 * nested, one with a memo), about a hundred coded segments (a turn every ~60 turns of every
 * meeting, some across two turns, some with a memo) and a notebook entry per meeting. Then the
 * real export path runs — `exportQdpxFile` (read the workbench, `qdpxProject` maps the corpus:
 * each item's readable text as a source, spans placed through `readableRanges`, markers as codes
 * by kind and topic, notebook notes, speakers as cases; `exportQdpx` packs it; the file written):
 * median time of 5 runs after one warm-up, with and without markers as codes, and once the whole
 * CLI command (`marker-research export <dir> --qdpx --markers-as-codes`, corpus load included).
 * It reads the file back and checks with its own yardsticks, not the exporter's counts:
 *  - `project.qde` validates against the REFI-QDA Project schema (xmllint-wasm);
 *  - every selection's positions, counted in code points of the `Sources/` text file of the zip,
 *    give exactly the readable text the project holds (`Array.from` over the file);
 *  - every coded segment comes back as a selection coded with its code whose readable text is the
 *    segment's quote (white space aside: a caption paragraph shows line breaks as the view does);
 *  - the project read back equals the one exported (every code, selection, note, source text).
 * Size and times are reported, not targets (times depend on the machine's load).
 * Writes bench/results/qdpxExport.md.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { unzipSync } from 'fflate';
import { main as cliMain } from '../src/cli/main';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import { readCorpusMarkers } from '../src/core/export/exportFiles';
import { exportQdpx, type QdpxExport } from '../src/core/export/qdpx/qdpxExport';
import { readQdpx } from '../src/core/export/qdpx/qdpxRead';
import { generateMarkers } from '../src/core/markers/generate';
import { createCode, readCodebook, setCodeMemo } from '../src/core/workbench/codebookStore';
import { addSegment, readCodings } from '../src/core/workbench/codingStore';
import { addEntry, listEntries } from '../src/core/workbench/notebookStore';
import { pinSpan, selectionEntry } from '../src/core/workbench/pins';
import { exportQdpxFile, type QdpxFileResult } from '../src/core/workbench/qdpxExportFile';
import { qdpxIds, qdpxProject } from '../src/core/workbench/qdpxProject';
import { dropUndefined, expectedReadBack } from '../test/support/qdpxProjects';
import { validateProjectXml } from '../test/support/qdpxValidate';
import { type BenchReport, copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

const CORPUS = 'qmsum-dev';
const RUNS = 5;
/** A coded segment every this many turns of each meeting. */
const SEGMENT_EVERY = 60;
const NOW = '2026-01-01T00:00:00Z';

/** The researcher's workbench written through the stores: codes, coded segments, notebook entries. */
async function writeWorkbench(corpus: Corpus): Promise<{ codes: number; segments: number; entries: number }> {
  const root = corpus.root;
  const decisions = await createCode(root, { name: 'Design decisions', description: 'What the meeting decided' });
  const codes = [decisions, await createCode(root, { name: 'Costs', parentId: decisions.id }), await createCode(root, { name: 'Disagreement' }), await createCode(root, { name: '待定问题 / open questions' })];
  await setCodeMemo(root, codes[2]!.id, 'Where two people argue a point, not a mere question.');
  let segments = 0;
  let entries = 0;
  for (const item of corpus.items) {
    const segs = item.transcript?.segments ?? [];
    for (let i = 3; i < segs.length - 1; i += SEGMENT_EVERY) {
      const s = segs[i]!;
      const across = segments % 4 === 3; // some segments run into the next turn
      const end = across ? segs[i + 1]!.offset + Math.min(segs[i + 1]!.text.length, 40) : s.offset + s.text.length;
      const span = pinSpan(item, 'transcript', s.offset, end);
      if (!span) continue;
      await addSegment(root, { codeId: codes[segments % codes.length]!.id, span, ...(segments % 5 === 0 ? { memo: `Memo ${segments}: why this passage.` } : {}) });
      segments++;
    }
    const s = segs[Math.min(10, segs.length - 1)];
    const e = s && selectionEntry(item, 'transcript', s.offset, s.offset + s.text.length);
    if (e) {
      await addEntry(root, { ...e, note: `Worth comparing with the other meetings (${item.title}).` });
      entries++;
    }
  }
  return { codes: codes.length, segments, entries };
}

/** Selections whose code-point positions in the zip's text file do not give the readable text the project holds. */
function misplacedSelections(out: QdpxExport): number {
  const files = unzipSync(out.bytes);
  const written = new Map<string, [number, number]>();
  for (const m of out.projectXml.matchAll(/<PlainTextSelection guid="([^"]+)"[^>]*? startPosition="(\d+)" endPosition="(\d+)"/g)) written.set(m[1]!, [Number(m[2]), Number(m[3])]);
  let bad = 0;
  for (const s of out.project.sources) {
    const chars = Array.from(new TextDecoder().decode(files[`Sources/${out.guids.of('source', s.id)}.txt`]));
    for (const sel of s.selections) {
      const at = written.get(out.guids.of('selection', sel.id));
      if (!at || chars.slice(at[0], at[1]).join('') !== s.text.slice(sel.start, sel.end)) bad++;
    }
  }
  return bad;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
const ms = (n: number): string => `${n.toFixed(0)} ms`;

/** `exportQdpxFile` RUNS times after a warm-up: the last result and the median of each stage. */
async function timedExports(corpus: Corpus, file: string, markersAsCodes: boolean): Promise<{ last: QdpxFileResult; total: number; read: number; map: number; pack: number; write: number }> {
  await exportQdpxFile(corpus, file, { markersAsCodes, now: NOW });
  const runs: QdpxFileResult[] = [];
  const totals: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    runs.push(await exportQdpxFile(corpus, file, { markersAsCodes, now: NOW }));
    totals.push(performance.now() - t);
  }
  const stage = (k: keyof QdpxFileResult['ms']): number => median(runs.map((r) => r.ms[k]));
  return { last: runs[runs.length - 1]!, total: median(totals), read: stage('read'), map: stage('map'), pack: stage('pack'), write: stage('write') };
}

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-qdpx-'));
  let md: string;
  try {
    const dir = await copyDevCorpus(CORPUS, work);
    const corpus = await loadCorpus(dir);
    const gen = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    if (gen.failed) throw new Error(`${CORPUS}: extractive markers failed for ${gen.failed} item(s)`);
    const wb = await writeWorkbench(corpus);

    const file = path.join(work, `${CORPUS}.qdpx`);
    const plain = await timedExports(corpus, file, false);
    const full = await timedExports(corpus, file, true);
    const bytes = new Uint8Array(await readFile(file));

    // The CLI command once, as a researcher runs it (corpus load, workbench read, export, write).
    const cliFile = path.join(work, 'cli.qdpx');
    const sink = new PassThrough();
    sink.resume();
    const tc = performance.now();
    const code = await cliMain(['export', dir, '--qdpx', '--out', cliFile, '--markers-as-codes'], sink, sink);
    const cliMs = performance.now() - tc;
    if (code !== 0) throw new Error(`marker-research export --qdpx exited ${code}`);

    // The same project in memory, for the yardsticks (the file written is this project's bytes).
    const [codebook, codings, notebook, markers] = await Promise.all([readCodebook(dir), readCodings(dir), listEntries(dir), readCorpusMarkers(corpus)]);
    const project = qdpxProject({ corpus, codebook, codings, notebook, markers }, { markersAsCodes: true, now: NOW });
    const out = exportQdpx(project.input, { guidSeed: path.basename(dir) });
    const sameBytes = Buffer.compare(Buffer.from(out.bytes), Buffer.from(bytes)) === 0;

    const tr = performance.now();
    const back = readQdpx(bytes);
    const readMs = performance.now() - tr;
    const tv = performance.now();
    const schema = await validateProjectXml(out.projectXml);
    const validateMs = performance.now() - tv;
    let roundTrip = 'equal';
    try {
      deepStrictEqual(dropUndefined(back.project), expectedReadBack(out.project, out.guids));
      if (back.warnings.length) roundTrip = `${back.warnings.length} warning(s): ${back.warnings[0]}`;
    } catch (e) {
      roundTrip = `differs: ${(e as Error).message.split('\n').slice(0, 6).join(' ')}`;
    }
    const misplaced = misplacedSelections(out);
    // Every coded segment: a selection coded with its code whose readable text is its quote.
    const flat = (s: string): string => s.replace(/\s+/gu, ' ').trim();
    let segmentsOk = 0;
    for (const seg of codings.segments) {
      const at = project.segmentSelections.get(seg.id);
      const src = back.project.sources.find((s) => s.id === out.guids.of('source', seg.span.itemId));
      const sel = at && src?.selections.find((s) => s.id === out.guids.of('selection', at.selectionId));
      if (!sel || !src || !sel.codings.some((c) => c.codeId === out.guids.of('code', qdpxIds.code(seg.codeId)))) continue;
      const shown = flat(src.text.slice(sel.start, sel.end));
      const lines = seg.span.quote.split('\n');
      if (lines.length === 1 ? shown === flat(seg.span.quote) : shown.startsWith(flat(lines[0]!)) && shown.endsWith(flat(lines[lines.length - 1]!))) segmentsOk++;
    }

    const s = full.last.stats;
    const textChars = out.project.sources.reduce((n, x) => n + x.text.length, 0);
    const textBytes = out.project.sources.reduce((n, x) => n + Buffer.byteLength(x.text, 'utf8'), 0);
    const qdeBytes = Buffer.byteLength(out.projectXml, 'utf8');
    const rows = [
      `| items (text sources: the readable text) | ${s.sources} (${textChars.toLocaleString('en')} UTF-16 units, ${kb(textBytes)} UTF-8) |`,
      `| workbench | ${wb.codes} codes, ${wb.segments} coded segments, ${wb.entries} notebook entries |`,
      `| codes | ${s.codes} (${wb.codes} of the codebook; 2 folders of markers by kind and topic) |`,
      `| selections | ${s.selections.toLocaleString('en')} (${s.segments} coded segments, ${s.markers} markers' spans, every speaker turn) |`,
      `| notes | ${s.notes.toLocaleString('en')} (notebook entries, memos, markers' claims) |`,
      `| cases (speakers) | ${s.cases} |`,
      `| left out | ${s.segmentsLeftOut} coded segments; ${full.last.warnings.length} warning(s) |`,
      `| .qdpx without / with markers as codes | ${kb(plain.last.bytes)} / ${kb(full.last.bytes)} (project.qde ${kb(qdeBytes)}) |`,
      `| exportQdpxFile, without markers as codes | ${ms(plain.total)} median of ${RUNS} (read ${ms(plain.read)}, map ${ms(plain.map)}, zip ${ms(plain.pack)}, write ${ms(plain.write)}) |`,
      `| exportQdpxFile, with markers as codes | ${ms(full.total)} median of ${RUNS} (read ${ms(full.read)}, map ${ms(full.map)}, zip ${ms(full.pack)}, write ${ms(full.write)}) |`,
      `| \`marker-research export <dir> --qdpx --markers-as-codes\` | ${ms(cliMs)} once, in process (corpus load included) |`,
      `| read-back time | ${ms(readMs)} |`,
      `| the file written is the in-memory project's bytes | ${report.check('the file exportQdpxFile wrote is the project mapped in memory', sameBytes, sameBytes ? 'yes' : 'no')} |`,
      `| schema (xmllint-wasm, Project-mrt2019.xsd) | ${report.check('project.qde valid against the REFI-QDA Project schema', schema.valid, schema.valid ? 'valid' : `invalid: ${schema.errors.slice(0, 3).join('; ')}`)} (${ms(validateMs)}) |`,
      `| selections whose code-point positions in Sources/ give their readable text | ${report.check('every selection’s positions give its text', misplaced === 0, `${s.selections - misplaced}/${s.selections}`)} |`,
      `| coded segments back with their code, at their quote's readable text | ${report.check('every coded segment round-trips at its quote', segmentsOk === codings.segments.length, `${segmentsOk}/${codings.segments.length}`)} |`,
      `| read back | ${report.check('the project read back equals the one exported', roundTrip === 'equal', roundTrip)} |`,
    ];
    md = [
      `# REFI-QDA export — ${new Date().toISOString()}`,
      '',
      `${CORPUS} with its extractive markers and a small workbench written through the stores, exported by the real path (\`exportQdpxFile\`: \`qdpxProject\` + \`exportQdpx\`): each item's readable text as a source, coded segments, markers as codes by kind and topic (second row of times), notebook entries and memos as notes, speakers as cases with their turns. \`node --import tsx bench/qdpxExport.ts\`; see the file for the measures. Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...rows,
      '',
    ].join('\n');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(`${md}\n`);
  await writeBenchResult('qdpxExport.md', md);
}

void runBench('qdpxExport', body);
