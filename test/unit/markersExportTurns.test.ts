/**
 * The markers export carries each marker's turns and times (issue 24): CSV columns added at the
 * end (the old ones where they were), and the place text of the Markdown and HTML documents —
 * on generated corpora in three languages, timed and untimed, whose item titles, marker texts,
 * topics and quotes are hostile (spreadsheet formulas, HTML, every Markdown link form).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { Corpus } from '../../src/core/corpus/types';
import { exportMarkersFile } from '../../src/core/export/exportFiles';
import { MARKER_COLUMNS, markerRows, markersFormatOf, markersToCsv, markersToHtml, markersToMarkdown, type MarkerRow } from '../../src/core/export/markersExport';
import { allMarkers } from '../../src/core/markers/store';
import { formatClock } from '../../src/core/text/clock';
import { acrossCorpus, readableParagraph, type GeneratedAcrossCorpus, type MarkerTruth } from '../support/acrossCorpus';
import { hostileNames, hostileTexts } from '../support/hostileMarkdown';
import { liveLinks, unescapeMarkdown } from '../support/markdownLinks';

/** The columns of the CSV before turns and times were added: still first, in this order. */
const OLD_COLUMNS = ['item', 'item_title', 'kind', 'text', 'topic', 'speaker', 'time', 'file', 'line', 'quote', 'part', 'grounded', 'engine', 'marker_id'];
const NEW_COLUMNS = ['turn', 'turn_end', 'start_seconds', 'end_seconds', 'paragraph'];

/** A CSV parser (RFC 4180) for reading the export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

/** A generated corpus whose titles, marker texts, topics and quotes are hostile, composed from parts by seed. */
function hostileCorpus(seed: number): GeneratedAcrossCorpus {
  const c = acrossCorpus({ seed, items: 12 });
  const texts = hostileTexts(seed * 101, 400);
  const names = hostileNames(seed * 103, 20);
  let k = 0;
  c.items.forEach((it, i) => {
    if (i % 2 === 0) it.title = names[i % names.length]!;
  });
  for (const file of c.markers.values()) {
    file.title = c.items.find((i) => i.id === file.item_id)!.title;
    for (const m of allMarkers(file)) {
      const roll = k++ % 4;
      if (roll === 0) m.text = texts[k % texts.length]!;
      if (roll === 1) m.topic = texts[k % texts.length]!;
      if (roll === 2 && m.evidence[0]) m.evidence[0].quote = texts[k % texts.length]!;
    }
  }
  return c;
}

/** Paragraph of a caption marker in the readable view, else null. */
function paragraphOf(c: GeneratedAcrossCorpus, t: MarkerTruth): number | null {
  return t.caption && t.start !== null ? readableParagraph(c.items.find((i) => i.id === t.itemId)!, t.start) : null;
}

/** `turn 3` / `turns 3–5`; in captions `¶ 2 · caption line 40` / `¶ 2 · caption lines 40–42`. */
function turnText(c: GeneratedAcrossCorpus, t: MarkerTruth): string {
  const p = paragraphOf(c, t);
  if (p !== null) return `¶ ${p} · ${t.turn === t.turnEnd ? `caption line ${t.turn}` : `caption lines ${t.turn}–${t.turnEnd}`}`;
  return t.turn === t.turnEnd ? `turn ${t.turn}` : `turns ${t.turn}–${t.turnEnd}`;
}
const timeText = (t: MarkerTruth): string => (t.endTime !== null && t.endTime > t.startTime! ? `${formatClock(t.startTime!)}–${formatClock(t.endTime)}` : formatClock(t.startTime!));

/** What a spreadsheet would run as a formula: `=`, `+`, `-`, `@` (also full-width), a tab or a CR after any spaces; not a plain number. */
const RUNS_AS_FORMULA = (s: string): boolean => /^[ \u00a0]*[=+\-@\uff1d\uff0b\uff0d\uff20\t\r]/u.test(s) && !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(s);

describe('markers export: turns and times', () => {
  const seeds = [91, 92, 93, 94];

  test('rows: each marker\'s first and last turn and its start and end seconds; none for comments and ungrounded markers', () => {
    let timed = 0;
    let turns = 0;
    let captions = 0;
    for (const seed of seeds) {
      const c = acrossCorpus({ seed, items: 12 });
      const truth = new Map(c.truth.markers.map((t) => [t.markerId, t]));
      const rows = markerRows(c, c.markers);
      assert.equal(rows.length, c.truth.markers.length);
      for (const r of rows) {
        const t = truth.get(r.marker_id)!;
        assert.deepEqual([r.turn, r.turn_end, r.start_seconds, r.end_seconds, r.paragraph], [t.turn, t.turnEnd, t.startTime, t.endTime, paragraphOf(c, t)], r.marker_id);
        captions += r.paragraph ? 1 : 0;
        assert.equal(r.time, t.startTime === null ? '' : timeText(t), 'the time text says the same times');
        turns += t.turn === null ? 0 : 1;
        timed += t.startTime === null ? 0 : 1;
      }
    }
    assert.ok(turns > 50 && timed > 30 && captions > 10, `turns ${turns}, timed ${timed}, in captions ${captions}`);
  });

  test('CSV: the old columns where they were, turns and times at the end; every cell reads back; formulas guarded', () => {
    let guarded = 0;
    for (const seed of seeds) {
      const c = hostileCorpus(seed);
      const truth = new Map(c.truth.markers.map((t) => [t.markerId, t]));
      const rows = markerRows(c, c.markers);
      const parsed = parseCsv(markersToCsv(rows).replace(/^\uFEFF/, ''));
      assert.deepEqual(parsed[0], [...OLD_COLUMNS, ...NEW_COLUMNS]);
      assert.deepEqual([...MARKER_COLUMNS], [...OLD_COLUMNS, ...NEW_COLUMNS]);
      assert.equal(parsed.length, rows.length + 1);
      parsed.slice(1).forEach((cells, i) => {
        const r = rows[i]!;
        const t = truth.get(r.marker_id)!;
        assert.equal(cells.length, MARKER_COLUMNS.length);
        const at = (col: string): string => cells[MARKER_COLUMNS.indexOf(col as keyof MarkerRow)]!;
        assert.deepEqual(NEW_COLUMNS.map(at), [t.turn, t.turnEnd, t.startTime, t.endTime, paragraphOf(c, t)].map((x) => (x === null ? '' : String(x))), r.marker_id);
        for (const col of ['item_title', 'text', 'topic', 'quote'] as const) {
          const raw = r[col];
          const runs = RUNS_AS_FORMULA(raw);
          assert.equal(at(col), runs ? `'${raw}` : raw, `${col} of ${r.marker_id}`);
          guarded += runs ? 1 : 0;
        }
      });
    }
    assert.ok(guarded > 10, `formula cells guarded: ${guarded}`);
  });

  test('Markdown: each marker\'s place says its turns and times; nothing live but the links to the original files', () => {
    for (const seed of seeds) {
      const c = hostileCorpus(seed);
      const truth = new Map(c.truth.markers.map((t) => [t.markerId, t]));
      const rows = markerRows(c, c.markers);
      const md = markersToMarkdown(rows, { links: { corpusRoot: '/corpus', outFile: '/corpus/exports/markers.md' } });
      const live = liveLinks(md);
      for (const l of live) assert.ok(l.kind === 'link' && /^\.\.\/[a-z]{2}-item-\d+-\d+\/(?:transcript\.json|comments\.jsonl)#L\d+,1$/.test(l.target), `only links to the files: ${JSON.stringify(l)}`);
      assert.equal(live.length, rows.filter((r) => r.line !== null).length, 'one link per grounded marker');
      // Entries in row order: a "- **Kind**" line, then its place line.
      const lines = md.split('\n');
      const entries = lines.flatMap((l, i) => (l.startsWith('- **') ? [i] : []));
      assert.equal(entries.length, rows.length);
      entries.forEach((at, i) => {
        const r = rows[i]!;
        const t = truth.get(r.marker_id)!;
        assert.ok(unescapeMarkdown(lines[at]!).includes(r.text.replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ')), `the text reads as written: ${JSON.stringify(r.text)}`);
        const place = unescapeMarkdown(lines[at + 1] ?? '');
        if (t.turn !== null) assert.ok(place.includes(turnText(c, t)), `${place} has ${turnText(c, t)}`);
        if (t.startTime !== null) assert.ok(place.includes(timeText(t)), `${place} has ${timeText(t)}`);
        if (t.line !== null) assert.ok(place.includes(`${t.file}:${t.line}`), `${place} has the file and line`);
        if (!t.grounded) assert.ok(place.includes('ungrounded'));
      });
    }
  });

  test('HTML: each marker\'s entry carries its turn and times; no tag or attribute of the corpus gets through', () => {
    const allowed = new Set(['!doctype', 'html', 'head', 'meta', 'title', 'style', 'body', 'main', 'h1', 'h2', 'p', 'section', 'ol', 'li', 'span', 'div', 'blockquote', 'a']);
    for (const seed of seeds) {
      const c = hostileCorpus(seed);
      const truth = new Map(c.truth.markers.map((t) => [t.markerId, t]));
      const rows = markerRows(c, c.markers);
      const html = markersToHtml(rows, { links: { corpusRoot: '/corpus', outFile: '/corpus/markers.html' } });
      for (const tag of html.matchAll(/<\/?([!A-Za-z][^\s>/]*)([^>]*)>/g)) {
        assert.ok(allowed.has(tag[1]!.toLowerCase()), `tag ${tag[0]}`);
        assert.doesNotMatch(tag[2]!, /\son[a-z]+\s*=/i, `no event attribute: ${tag[0]}`);
        const href = /href="([^"]*)"/.exec(tag[2]!)?.[1];
        if (href !== undefined) assert.match(href, /^[a-z]{2}-item-\d+-\d+\/(?:transcript\.json|comments\.jsonl)#L\d+,1$/, 'links go to the files');
      }
      const entries = [...html.matchAll(/<li id="marker-([^"]+)"([^>]*)>([\s\S]*?)<\/li>/g)];
      assert.equal(entries.length, rows.length);
      for (const [, id, attrs, body] of entries) {
        const t = truth.get(id!)!;
        assert.equal(/data-turn="(\d+)"/.exec(attrs!)?.[1] ?? null, t.turn === null ? null : String(t.turn));
        assert.equal(/data-start="([\d.]+)"/.exec(attrs!)?.[1] ?? null, t.startTime === null ? null : String(t.startTime));
        assert.equal(/data-end="([\d.]+)"/.exec(attrs!)?.[1] ?? null, t.endTime === null ? null : String(t.endTime));
        if (t.turn !== null) assert.ok(body!.includes(turnText(c, t)), `${body} has ${turnText(c, t)}`);
        if (t.startTime !== null) assert.ok(body!.includes(timeText(t)));
      }
    }
  });

  test('export files: .md, .markdown, .html and .htm write documents with turns; .csv and .json as before', async () => {
    assert.deepEqual(['a.md', 'a.MARKDOWN', 'a.html', 'a.HTM', 'a.csv', 'a.json', 'a.txt'].map(markersFormatOf), ['md', 'md', 'html', 'html', 'csv', 'json', undefined]);
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-export-turns-'));
    try {
      const c = acrossCorpus({ seed: 95, items: 9 });
      const corpus: Corpus = { root: dir, items: c.items, problems: [], stats: { items: 9, transcripts: 9, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 0 } };
      const withTurn = c.truth.markers.find((t) => t.turn !== null)!;
      for (const [name, format] of [['m.md', 'md'], ['m.markdown', 'md'], ['m.html', 'html'], ['m.htm', 'html'], ['m.csv', 'csv'], ['m.json', 'json']] as const) {
        const r = await exportMarkersFile(corpus, c.markers, path.join(dir, name));
        assert.equal(r.format, format);
        assert.equal(r.markers, c.truth.markers.length);
        const text = await readFile(path.join(dir, name), 'utf8');
        if (format === 'md' || format === 'html') assert.ok(text.includes(turnText(c, withTurn)), `${name} says ${turnText(c, withTurn)}`);
        if (format === 'json') assert.equal((JSON.parse(text) as MarkerRow[]).find((x) => x.marker_id === withTurn.markerId)!.turn, withTurn.turn);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
