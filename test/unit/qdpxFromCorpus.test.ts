/**
 * The researcher's project as REFI-QDA (issue 24): generated corpora (en/es/zh items, meetings and
 * caption transcripts, comments, hostile text, role and name speaker labels) with a generated
 * codebook (nested codes, memos), coded segments (inside one turn, across turns, in comments, some
 * duplicated under two codes, one whose quote is gone, one of an unknown code) and notebook entries,
 * mapped by `qdpxProject`, exported, validated against the XSD and read back.
 *
 * Oracles, not the mapping's own code: where a unit's text sits in the readable view is taken from
 * the layout's blocks (header line, two lines down, four columns in; a caption paragraph's sentence
 * lines counted in its shown text), and the expected selection of a span is from its first
 * character's place to its last character's place plus one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import type { CorpusItem, PartKind } from '../../src/core/corpus/types';
import { exportQdpx } from '../../src/core/export/qdpx/qdpxExport';
import { readQdpx } from '../../src/core/export/qdpx/qdpxRead';
import { layoutFullItem, type ReadableBlock, type ReadableItem } from '../../src/core/markers/fullItem';
import { allMarkers } from '../../src/core/markers/store';
import { addCode, emptyCodebook, setCodeMemoIn } from '../../src/core/workbench/codebookStore';
import { addSegmentIn, emptyCodings } from '../../src/core/workbench/codingStore';
import { markerEntry, noteEntry, pinSpan, selectionEntry } from '../../src/core/workbench/pins';
import { qdpxIds, qdpxProject } from '../../src/core/workbench/qdpxProject';
import { notebookEntrySchema, type Codebook, type Codings, type NotebookEntry, type PinnedSpan } from '../../src/core/workbench/schema';
import { acrossCorpus, type GeneratedAcrossCorpus } from '../support/acrossCorpus';
import { validateProjectXmls } from '../support/qdpxValidate';
import { rng } from '../support/testing';

const SEEDS = [3, 17, 29];
const NOW = '2025-02-03T04:05:06Z';

/** Deterministic ids and times for the stores' pure edits. */
function deps(seed: number): { now: () => Date; newId: () => string } {
  let n = 0;
  return { now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, n)), newId: () => `id-${seed}-${++n}` };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** The blocks of `part` that hold text, in offset order. */
const blocksOf = (layout: ReadableItem, part: PartKind): ReadableBlock[] => layout.blocks.filter((b) => b.part === part && b.text.trim() !== '');

/** Oracle: the offset in the readable text of character `k` (an offset into the part's text inside `b`). */
function readableOffset(layout: ReadableItem, b: ReadableBlock, k: number): number {
  const shown = b.shown ?? b.text;
  const before = shown.slice(0, k - b.offset);
  const lines = before.split('\n');
  const line = b.header + 2 + lines.length - 1;
  const column = 4 + lines[lines.length - 1]!.length;
  const docLines = layout.text.split('\n');
  let at = 0;
  for (let i = 0; i < line; i++) at += docLines[i]!.length + 1;
  return at + column;
}

/** Oracle: the readable selection `[start, end)` of span `[a, z)` of a part (first character's place to the last's plus one). */
function expectedSelection(layout: ReadableItem, part: PartKind, a: number, z: number): { start: number; end: number } {
  const blocks = blocksOf(layout, part);
  const holding = (k: number): ReadableBlock => blocks.find((b) => k >= b.offset && k < b.offset + b.text.length)!;
  return { start: readableOffset(layout, holding(a), a), end: readableOffset(layout, holding(z - 1), z - 1) + 1 };
}

interface Generated {
  corpus: GeneratedAcrossCorpus;
  codebook: Codebook;
  codings: Codings;
  notebook: NotebookEntry[];
  /** Segments that must be left out, by id, and why. */
  leftOut: Map<string, string>;
}

/** A random span of a part: inside one unit, or across 2–3 transcript turns. */
function randomSpan(r: () => number, item: CorpusItem): PinnedSpan | undefined {
  const part: PartKind = item.comments && r() < 0.3 ? 'comments' : 'transcript';
  const units = part === 'transcript' ? item.transcript!.segments : item.comments!.comments;
  const i = Math.floor(r() * units.length);
  const u = units[i]!;
  if (part === 'transcript' && r() < 0.3 && i + 2 < units.length) {
    const w = units[i + 1 + Math.floor(r() * 2)]!;
    return pinSpan(item, part, u.offset + Math.floor(r() * (u.text.length / 2)), w.offset + Math.max(1, Math.floor(r() * w.text.length)));
  }
  const a = u.offset + Math.floor(r() * Math.max(1, u.text.length - 8));
  return pinSpan(item, part, a, Math.min(u.offset + u.text.length, a + 4 + Math.floor(r() * 40)));
}

function generate(seed: number): Generated {
  const r = rng(seed * 7919);
  const d = deps(seed);
  const corpus = acrossCorpus({ seed, items: 12, captions: 0.3 });
  let book = emptyCodebook();
  const top = ['Barriers', 'Costs', 'Trust', '预算', 'Confianza <&> "x"'].map((name) => (({ book } = addCode(book, { name, description: `About ${name}` }, d)), book.codes[book.codes.length - 1]!));
  for (let k = 0; k < 6; k++) ({ book } = addCode(book, { name: `Sub ${k} ${pick(r, ['of', 'de', '的'])}`, parentId: pick(r, top).id }, d));
  ({ book } = addCode(book, { name: 'Grandchild', parentId: book.codes[book.codes.length - 1]!.id }, d));
  ({ book } = setCodeMemoIn(book, top[1]!.id, 'Costs: money and time.\nSecond line.', d));
  let codings = emptyCodings();
  const leftOut = new Map<string, string>();
  for (let k = 0; k < 60; k++) {
    const item = pick(r, corpus.items);
    const span = randomSpan(r, item);
    if (!span) continue;
    const code = pick(r, book.codes);
    let seg;
    ({ codings, segment: seg } = addSegmentIn(codings, { codeId: code.id, span, ...(r() < 0.2 ? { memo: `memo ${k}` } : {}) }, d));
    // The same span under a second code: one selection, two codings.
    if (r() < 0.2) ({ codings } = addSegmentIn(codings, { codeId: pick(r, book.codes.filter((c) => c.id !== code.id)).id, span }, d));
    void seg;
  }
  // A segment whose quote is no longer in its item, and one of a code not in the codebook.
  const item0 = corpus.items[0]!;
  const gone = { ...pinSpan(item0, 'transcript', 0, 5)!, quote: 'words that were edited away long ago' };
  let s;
  ({ codings, segment: s } = addSegmentIn(codings, { codeId: book.codes[0]!.id, span: gone }, d));
  leftOut.set(s.id, 'quote');
  ({ codings, segment: s } = addSegmentIn(codings, { codeId: 'no-such-code', span: pinSpan(item0, 'transcript', 0, 5)! }, d));
  leftOut.set(s.id, 'code');
  const notebook: NotebookEntry[] = [];
  const add = (e: ReturnType<typeof noteEntry> | undefined, note?: string): void => {
    if (e) notebook.push(notebookEntrySchema.parse({ ...e, ...(note ? { note } : {}), id: d.newId(), createdAt: d.now().toISOString() }));
  };
  for (let k = 0; k < 6; k++) {
    const item = pick(r, corpus.items);
    const t = item.transcript!;
    const seg = pick(r, t.segments);
    add(selectionEntry(item, 'transcript', seg.offset, seg.offset + seg.text.length), `Why this matters ${k} <b>`);
  }
  const withMarkers = corpus.items.find((it) => corpus.markers.get(it.id) && allMarkers(corpus.markers.get(it.id)!).some((m) => m.evidence.length))!;
  add(markerEntry(withMarkers, withMarkers.id, allMarkers(corpus.markers.get(withMarkers.id)!).find((m) => m.evidence.length)!));
  add(noteEntry('A thought of my own', 'Compare the **winter** items.'));
  return { corpus, codebook: book, codings, notebook, leftOut };
}

describe('qdpxProject: the corpus, codebook, codings and notebook as a REFI-QDA project', () => {
  const runs = SEEDS.map((seed) => {
    const g = generate(seed);
    const project = qdpxProject({ corpus: g.corpus, codebook: g.codebook, codings: g.codings, notebook: g.notebook, markers: g.corpus.markers }, { markersAsCodes: true, now: NOW });
    const out = exportQdpx(project.input, { guidSeed: `seed-${seed}` });
    return { seed, g, project, out, back: readQdpx(out.bytes) };
  });

  test('every project.qde validates against the REFI-QDA Project schema', async () => {
    const results = await validateProjectXmls(runs.map((r) => r.out.projectXml));
    results.forEach((res, i) => assert.ok(res.valid, `seed ${runs[i]!.seed}: ${res.errors.slice(0, 3).join('; ')}`));
  });

  test("each source is the item's readable text, in the zip as in the readable view", () => {
    for (const { g, out, back } of runs) {
      const files = unzipSync(out.bytes);
      assert.equal(back.project.sources.length, g.corpus.items.length);
      for (const item of g.corpus.items) {
        const text = layoutFullItem(item).text;
        const guid = out.guids.of('source', item.id);
        assert.equal(new TextDecoder().decode(files[`Sources/${guid}.txt`]), text, item.id);
        const src = back.project.sources.find((s) => s.id === guid)!;
        assert.equal(src.text, text);
        assert.equal(src.name, item.title);
      }
    }
  });

  test('every coded segment comes back at the readable offsets of its span, coded with its code; the unplaceable are left out and said', () => {
    for (const { seed, g, out, back, project } of runs) {
      let checked = 0;
      const layouts = new Map(g.corpus.items.map((it) => [it.id, layoutFullItem(it)]));
      for (const seg of g.codings.segments) {
        const why = g.leftOut.get(seg.id);
        if (why) {
          assert.equal(project.segmentSelections.get(seg.id), undefined, `seed ${seed}: ${seg.id} must be left out`);
          assert.ok(project.warnings.some((w) => w.includes(seg.id)), `seed ${seed}: no warning for ${seg.id}`);
          continue;
        }
        const layout = layouts.get(seg.span.itemId)!;
        const want = expectedSelection(layout, seg.span.part, seg.span.start, seg.span.end);
        const src = back.project.sources.find((s) => s.id === out.guids.of('source', seg.span.itemId))!;
        const sel = src.selections.find((s) => s.start === want.start && s.end === want.end);
        assert.ok(sel, `seed ${seed}: no selection at ${want.start}-${want.end} for “${seg.span.quote.slice(0, 30)}” (${seg.span.part})`);
        assert.ok(sel.codings.some((c) => c.codeId === out.guids.of('code', qdpxIds.code(seg.codeId))), `seed ${seed}: ${seg.id} lost its code`);
        // The selected readable text is the span's text, unit headers between turns aside.
        const shown = src.text.slice(sel.start, sel.end).replace(/\s+/gu, ' ');
        const quote = seg.span.quote.replace(/\s+/gu, ' ');
        if (!seg.span.quote.includes('\n')) assert.equal(shown, quote);
        else {
          const lines = seg.span.quote.split('\n');
          assert.ok(shown.startsWith(lines[0]!.replace(/\s+/gu, ' ')) && shown.endsWith(lines[lines.length - 1]!.replace(/\s+/gu, ' ')), `seed ${seed}: “${shown.slice(0, 60)}…”`);
        }
        if (seg.memo) assert.ok(sel.codings.some((c) => c.noteIds.length), `seed ${seed}: the memo of ${seg.id} is not on its coding`);
        checked++;
      }
      assert.ok(checked >= 40, `seed ${seed}: only ${checked} segments checked`);
      assert.equal(project.stats.segmentsLeftOut, g.leftOut.size);
    }
  });

  test('every code of the codebook comes back with its name, colour, parent and memo; markers as codes under their folders', () => {
    for (const { g, out, back } of runs) {
      const parentOf = new Map<string, string | undefined>();
      const names = new Map<string, string>();
      const walk = (codes: typeof back.project.codes, parent?: string): void => {
        for (const c of codes) {
          parentOf.set(c.id, parent);
          names.set(c.id, c.name);
          walk(c.children, c.id);
        }
      };
      walk(back.project.codes);
      for (const c of g.codebook.codes) {
        const guid = out.guids.of('code', qdpxIds.code(c.id));
        assert.equal(names.get(guid), c.name);
        assert.equal(parentOf.get(guid), c.parentId ? out.guids.of('code', qdpxIds.code(c.parentId)) : undefined, c.name);
        const code = [...flatten(back.project.codes)].find((x) => x.id === guid)!;
        assert.equal(code.color, c.colour);
        if (c.memo) assert.equal(back.project.notes.find((n) => n.id === code.noteIds[0])?.text, c.memo.text);
      }
      const kinds = back.project.codes.find((c) => c.id === out.guids.of('code', qdpxIds.kindsFolder))!;
      const topics = back.project.codes.find((c) => c.id === out.guids.of('code', qdpxIds.topicsFolder))!;
      assert.equal(kinds.isCodable, false);
      assert.equal(topics.isCodable, false);
      // Every marker with evidence: its span's selection coded with its kind.
      for (const item of g.corpus.items) {
        const file = g.corpus.markers.get(item.id);
        if (!file) continue;
        const layout = layoutFullItem(item);
        const src = back.project.sources.find((s) => s.id === out.guids.of('source', item.id))!;
        for (const m of allMarkers(file)) {
          const ev = m.evidence[0];
          if (!ev) continue;
          const span = pinSpan(item, ev.part, ev.start, ev.end)!;
          const want = expectedSelection(layout, span.part, span.start, span.end);
          const sel = src.selections.find((s) => s.start === want.start && s.end === want.end);
          assert.ok(sel?.codings.some((c) => c.codeId === out.guids.of('code', qdpxIds.kind(m.kind))), `${m.id}: no ${m.kind} coding at ${want.start}-${want.end}`);
        }
      }
    }
  });

  test('notebook entries are notes, on the selections of their spans; an entry without a span is a note of the project', () => {
    for (const { g, out, back } of runs) {
      for (const e of g.notebook) {
        const guid = out.guids.of('note', `entry:${e.id}`);
        const note = back.project.notes.find((n) => n.id === guid);
        assert.ok(note, e.title);
        if (e.note) assert.ok(note.text.includes(e.note.trim()), 'the researcher’s note is in the note');
        if (!e.spans.length) {
          assert.ok(back.project.noteIds.includes(guid));
          continue;
        }
        const refs = back.project.sources.flatMap((s) => s.selections).filter((s) => s.noteIds.includes(guid));
        assert.equal(refs.length, e.spans.length, e.title);
      }
    }
  });

  test('speakers are cases: a name is one case across items, a role a case per item; each case lists its turns', () => {
    let roleItems = 0;
    for (const { g, out, back } of runs) {
      const byName = new Map<string, Set<string>>();
      for (const item of g.corpus.items) {
        for (const s of item.transcript?.segments ?? []) if (s.speaker) byName.set(s.speaker, (byName.get(s.speaker) ?? new Set()).add(item.id));
      }
      for (const [label, items] of byName) {
        const cases = back.project.cases.filter((c) => c.name === label || c.name?.startsWith(`${label} (`));
        if (label === 'Project Manager') {
          assert.equal(cases.length, items.size, 'a role is another person in each item');
          for (const c of cases) assert.equal(c.sourceIds.length, 1);
          roleItems += items.size;
        } else {
          assert.equal(cases.length, 1, `${label}: one person`);
          assert.deepEqual(new Set(cases[0]!.sourceIds), new Set([...items].map((id) => out.guids.of('source', id))));
        }
        // Every turn of the speaker is a selection of the case, and its text is the turn's.
        const turns = g.corpus.items.flatMap((it) => (it.transcript?.segments ?? []).filter((s) => s.speaker === label && s.text.trim()).map((s) => ({ it, s })));
        const selIds = new Set(cases.flatMap((c) => c.selectionIds));
        assert.equal(selIds.size, turns.length, label);
      }
    }
    assert.ok(roleItems >= 2, 'the generated corpora have a role label in several items');
  });

  test('the same input gives the same bytes', () => {
    const g = generate(SEEDS[0]!);
    const a = exportQdpx(qdpxProject({ corpus: g.corpus, codebook: g.codebook, codings: g.codings, notebook: g.notebook }, { now: NOW }).input, { guidSeed: 'x' });
    const b = exportQdpx(qdpxProject({ corpus: g.corpus, codebook: g.codebook, codings: g.codings, notebook: g.notebook }, { now: NOW }).input, { guidSeed: 'x' });
    assert.deepEqual(a.bytes, b.bytes);
    // Without markersAsCodes, no marker folders.
    assert.ok(!a.project.codes.some((c) => c.id === qdpxIds.kindsFolder));
  });
});

function* flatten<T extends { children: T[] }>(codes: readonly T[]): Generator<T> {
  for (const c of codes) {
    yield c;
    yield* flatten(c.children);
  }
}
