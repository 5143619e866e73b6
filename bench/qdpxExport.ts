/**
 * REFI-QDA export at the size of a real corpus (issue 24):
 * `node --import tsx bench/qdpxExport.ts [--report-only]`.
 *
 * On a fresh copy of qmsum-dev (12 meetings) with its extractive markers generated, builds the
 * project a researcher would export: each item's transcript text (the readable text) as a text
 * source with its date, speakers and word count as variables; every marker's evidence span as a
 * selection coded with its kind (under a folder "Marker kinds") and its topic (under "Topics"),
 * the marker's claim as a note on the selection; every turn as a selection referenced from its
 * speaker's case (speakers as cases). Then exports it (median time of 5 runs after one warm-up),
 * reads it back, and checks with its own yardsticks, not the exporter's counts:
 *  - `project.qde` validates against the REFI-QDA Project schema (xmllint-wasm);
 *  - every selection's positions, counted in code points of the `Sources/` text file of the zip,
 *    give exactly the span's text (`Array.from` over the file, not the exporter's conversion);
 *  - the project read back equals the one exported (every code, selection, note, source text).
 * Size and times are reported, not targets (times depend on the machine's load).
 * Writes bench/results/qdpxExport.md.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import { loadCorpus } from '../src/core/corpus/loader';
import type { Corpus } from '../src/core/corpus/types';
import type { QdaCodeInput, QdaProjectInput } from '../src/core/export/qdpx/qdaModel';
import { exportQdpx, type QdpxExport } from '../src/core/export/qdpx/qdpxExport';
import { readQdpx } from '../src/core/export/qdpx/qdpxRead';
import { generateMarkers } from '../src/core/markers/generate';
import { allMarkers, readItemMarkers } from '../src/core/markers/store';
import { dropUndefined, expectedReadBack } from '../test/support/qdpxProjects';
import { validateProjectXml } from '../test/support/qdpxValidate';
import { type BenchReport, copyDevCorpus, runBench, writeBenchResult } from './benchSupport';

const CORPUS = 'qmsum-dev';
const RUNS = 5;

interface Built {
  input: QdaProjectInput;
  items: number;
  textChars: number;
  textBytes: number;
  markerSelections: number;
  turnSelections: number;
}

/** The project of a corpus with markers: sources, marker and turn selections, kind and topic codes, notes, speaker cases. */
async function buildProject(corpus: Corpus): Promise<Built> {
  const kinds = new Map<string, QdaCodeInput>();
  const topics = new Map<string, QdaCodeInput>();
  const notes: NonNullable<QdaProjectInput['notes']> = [];
  const sources: NonNullable<QdaProjectInput['sources']> = [];
  const speakers = new Map<string, { sourceIds: Set<string>; selectionIds: string[] }>();
  const variables = [
    { id: 'date', name: 'Date', type: 'Date' as const },
    { id: 'speakers', name: 'Speakers', type: 'Text' as const },
    { id: 'words', name: 'Words', type: 'Integer' as const },
  ];
  let textChars = 0;
  let textBytes = 0;
  let markerSelections = 0;
  let turnSelections = 0;
  for (const item of corpus.items) {
    const part = item.transcript;
    if (!part) continue;
    const text = part.text;
    textChars += text.length;
    textBytes += Buffer.byteLength(text, 'utf8');
    const selections: NonNullable<NonNullable<QdaProjectInput['sources']>[number]['selections']> = [];
    const r = await readItemMarkers(corpus.root, item.id);
    if (!r.ok) throw new Error(`${item.id}: markers could not be read: ${r.error ?? 'missing'}`);
    for (const m of allMarkers(r.value)) {
      const kindId = `kind:${m.kind}`;
      if (!kinds.has(kindId)) kinds.set(kindId, { id: kindId, name: m.kind, isCodable: true, color: '#3366cc' });
      const topic = m.topic.trim();
      const topicId = topic ? `topic:${topic.toLowerCase()}` : undefined;
      if (topicId && !topics.has(topicId)) topics.set(topicId, { id: topicId, name: topic, isCodable: true });
      m.evidence.forEach((ev, k) => {
        if (ev.part !== 'transcript' || ev.end <= ev.start) return;
        const id = `${m.id}#${k}`;
        const noteId = `note:${id}`;
        notes.push({ id: noteId, name: `${m.kind}: ${topic}`, text: m.text });
        selections.push({ id, name: ev.quote.slice(0, 80), start: ev.start, end: ev.end, codings: [{ codeId: kindId }, ...(topicId ? [{ codeId: topicId }] : [])], noteIds: [noteId] });
        markerSelections++;
      });
    }
    for (const seg of part.segments) {
      if (!seg.speaker || !seg.text) continue;
      const id = `${item.id}/turn/${seg.index}`;
      selections.push({ id, start: seg.offset, end: seg.offset + seg.text.length });
      let s = speakers.get(seg.speaker);
      if (!s) speakers.set(seg.speaker, (s = { sourceIds: new Set(), selectionIds: [] }));
      s.sourceIds.add(item.id);
      s.selectionIds.push(id);
      turnSelections++;
    }
    const itemSpeakers = [...new Set(part.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])))];
    const date = typeof item.meta.published_at === 'string' && /^\d{4}-\d{2}-\d{2}/.test(item.meta.published_at) ? item.meta.published_at.slice(0, 10) : undefined;
    sources.push({
      id: item.id,
      name: item.title,
      text,
      selections,
      variables: [...(date ? [{ variableId: 'date', value: date }] : []), { variableId: 'speakers', value: itemSpeakers.join(', ') }, { variableId: 'words', value: item.wordCount }],
    });
  }
  const input: QdaProjectInput = {
    name: `${CORPUS} (Marker Research bench)`,
    createdAt: '2026-01-01T00:00:00Z',
    users: [{ id: 'bench', name: 'bench' }],
    createdBy: 'bench',
    variables,
    codes: [
      { id: 'kinds', name: 'Marker kinds', isCodable: false, children: [...kinds.values()] },
      { id: 'topics', name: 'Topics', isCodable: false, children: [...topics.values()] },
    ],
    sources,
    notes,
    cases: [...speakers].map(([name, s]) => ({ id: `speaker:${name}`, name, sourceIds: [...s.sourceIds], selectionIds: s.selectionIds })),
  };
  return { input, items: sources.length, textChars, textBytes, markerSelections, turnSelections };
}

/** Selections whose code-point positions in the zip's text file do not give their span's text. */
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

async function body(report: BenchReport): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'mr-bench-qdpx-'));
  let md: string;
  try {
    const dir = await copyDevCorpus(CORPUS, work);
    const corpus = await loadCorpus(dir);
    const gen = await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    if (gen.failed) throw new Error(`${CORPUS}: extractive markers failed for ${gen.failed} item(s)`);
    const built = await buildProject(corpus);

    exportQdpx(built.input); // warm-up
    const times: number[] = [];
    let out!: QdpxExport;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      out = exportQdpx(built.input);
      times.push(performance.now() - t);
    }
    const readTimes: number[] = [];
    let back!: ReturnType<typeof readQdpx>;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      back = readQdpx(out.bytes);
      readTimes.push(performance.now() - t);
    }
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
    const qdeBytes = Buffer.byteLength(out.projectXml, 'utf8');
    const selections = built.markerSelections + built.turnSelections;
    const codes = out.project.codes.reduce((n, c) => n + 1 + c.children.length, 0);

    const rows = [
      `| items (text sources) | ${built.items} |`,
      `| source text | ${built.textChars.toLocaleString('en')} UTF-16 units, ${kb(built.textBytes)} UTF-8 |`,
      `| selections | ${selections.toLocaleString('en')} (${built.markerSelections.toLocaleString('en')} marker spans, ${built.turnSelections.toLocaleString('en')} turns) |`,
      `| codes | ${codes} (2 folders, ${out.project.codes[0]!.children.length} kinds, ${out.project.codes[1]!.children.length} topics) |`,
      `| notes | ${out.project.notes.length.toLocaleString('en')} |`,
      `| cases (speakers) | ${out.project.cases.length} |`,
      `| project.qde | ${kb(qdeBytes)} |`,
      `| .qdpx | ${kb(out.bytes.length)} (${((100 * out.bytes.length) / (qdeBytes + built.textBytes)).toFixed(0)} % of project.qde + texts) |`,
      `| export time | ${median(times).toFixed(0)} ms median of ${RUNS} (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) |`,
      `| read-back time | ${median(readTimes).toFixed(0)} ms median of ${RUNS} |`,
      `| schema (xmllint-wasm, Project-mrt2019.xsd) | ${report.check('project.qde valid against the REFI-QDA Project schema', schema.valid, schema.valid ? 'valid' : `invalid: ${schema.errors.slice(0, 3).join('; ')}`)} (${validateMs.toFixed(0)} ms) |`,
      `| selections whose code-point positions in Sources/ give their span’s text | ${report.check('every selection’s positions give its span’s text', misplaced === 0, `${selections - misplaced}/${selections}`)} |`,
      `| read back | ${report.check('the project read back equals the one exported', roundTrip === 'equal', roundTrip)} |`,
    ];
    md = [
      `# REFI-QDA export — ${new Date().toISOString()}`,
      '',
      `${CORPUS} with its extractive markers, exported as a .qdpx: transcripts as text sources, marker spans coded by kind and topic with the marker's claim as a note, turns as selections of their speaker's case. \`node --import tsx bench/qdpxExport.ts\`; see the file for the measures. Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}.`,
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
