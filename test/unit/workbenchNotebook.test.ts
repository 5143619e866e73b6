/**
 * The notebook (issue 24): entries of every kind pinned over a generated corpus in English,
 * Chinese and Spanish are written to notebook.md and read back the same; a researcher's random
 * edits (notes written between and inside entries, entries moved, deleted, renamed, a quote line
 * overwritten) read back as they mean, the untouched text byte for byte; bad records are reported
 * with file and line and kept as text; the store appends atomically under the file's lock.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { markdownText } from '../../src/core/text/markdownSafe';
import { emptyNotebook, notebookCitations, notebookEntries, parseNotebook, renderEntry, renderNotebook, rewriteBlocks, type NotebookBlock, type NotebookDoc } from '../../src/core/workbench/notebookFormat';
import { addEntry, notebookFile, readNotebook, removeEntry, updateEntry } from '../../src/core/workbench/notebookStore';
import type { NotebookLanguage } from '../../src/core/workbench/notebookWords';
import { partText } from '../../src/core/workbench/pins';
import { ENTRY_KINDS, notebookEntrySchema, type NotebookEntry } from '../../src/core/workbench/schema';
import { WorkbenchFileError } from '../../src/core/workbench/fileErrors';
import { hostileTexts } from '../support/hostileMarkdown';
import { rng } from '../support/testing';
import { buildItems, pick, pinnedEntries, workbenchSpecs } from '../support/workbenchCorpus';

const LANGS: readonly NotebookLanguage[] = ['en', 'zh', 'es'];

/** Entries of every kind over a generated corpus, with ids and times. */
function entriesOf(seed: number, count: number): NotebookEntry[] {
  const items = buildItems(workbenchSpecs(seed));
  return pinnedEntries(seed, items, count).map((e, i) => notebookEntrySchema.parse({ ...e, id: `e${seed}-${i}`, createdAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString() }));
}

/** A notebook of `entries` as the store writes it: the title, then each entry after a blank line. */
function docOf(entries: readonly NotebookEntry[], lang: NotebookLanguage): NotebookDoc {
  const doc = emptyNotebook(lang);
  const title = doc.blocks[0] as { text: string };
  title.text += '\n';
  entries.forEach((entry, i) => doc.blocks.push(...(i ? [{ type: 'text' as const, text: '' }] : []), { type: 'entry', entry }));
  return doc;
}

const NOTE_LINES = ['My own reading: the numbers look too good.', '我的看法：这些数字太好了。', 'Mi lectura: las cifras parecen demasiado buenas.', '## A heading of mine', '- a list item', '> a quote I typed', '```', 'code', '```', '[3] is not a citation of mine'];

/** Lines of a note the researcher writes: sentences in three languages, Markdown, hostile text (one line each, no CR). */
function noteLines(r: () => number): string[] {
  const n = 1 + Math.floor(r() * 4);
  return Array.from({ length: n }, () => (r() < 0.3 ? hostileTexts(Math.floor(r() * 1e6), 1, { lineBreaks: false })[0]! : pick(r, NOTE_LINES)).replace(/[\r\n\u2028\u2029]/g, ' '));
}

type Chunk = { kind: 'text'; lines: string[] } | { kind: 'entry'; lines: string[]; entry: NotebookEntry; noteLines: string[]; editedQuotes: string[] };

/** The entry a chunk should read back as. */
function expectedEntry(c: Extract<Chunk, { kind: 'entry' }>): NotebookEntry {
  const lines = [...c.editedQuotes, ...(c.noteLines.length ? ['', ...c.noteLines] : [])];
  let a = 0;
  let z = lines.length;
  while (a < z && !lines[a]!.trim()) a++;
  while (z > a && !lines[z - 1]!.trim()) z--;
  const { note: _n, ...rest } = c.entry;
  return z > a ? { ...rest, note: lines.slice(a, z).join('\n') } : rest;
}

/** Random researcher edits of a rendered notebook; the text and the blocks it should read back as. */
function editedNotebook(seed: number, doc: NotebookDoc): { text: string; expected: NotebookBlock[]; ops: string[] } {
  const r = rng(seed);
  const chunks: Chunk[] = doc.blocks.map((b) =>
    b.type === 'text' ? { kind: 'text', lines: b.text.split('\n') } : { kind: 'entry', lines: renderEntry(b.entry, doc.lang), entry: b.entry, noteLines: b.entry.note ? b.entry.note.split('\n') : [], editedQuotes: [] },
  );
  const entryIdx = (): number[] => chunks.flatMap((c, i) => (c.kind === 'entry' ? [i] : []));
  const ops: string[] = [];
  const n = 1 + Math.floor(r() * 10);
  for (let k = 0; k < n; k++) {
    const op = pick(r, ['insert-note', 'insert-note', 'move', 'delete', 'edit-note', 'rename', 'edit-free', 'overwrite-quote'] as const);
    const es = entryIdx();
    if (op === 'insert-note') {
      chunks.splice(Math.floor(r() * (chunks.length + 1)), 0, { kind: 'text', lines: noteLines(r) });
    } else if (op === 'edit-free') {
      const ts = chunks.flatMap((c, i) => (c.kind === 'text' ? [i] : []));
      if (!ts.length) continue;
      chunks[pick(r, ts)]!.lines = noteLines(r);
    } else {
      if (!es.length) continue;
      const i = pick(r, es);
      const c = chunks[i] as Extract<Chunk, { kind: 'entry' }>;
      if (op === 'move') {
        chunks.splice(i, 1);
        chunks.splice(Math.floor(r() * (chunks.length + 1)), 0, c);
      } else if (op === 'delete') {
        chunks.splice(i, 1);
      } else if (op === 'edit-note') {
        const add = noteLines(r);
        c.lines.splice(c.lines.length - 1, 0, ...(c.noteLines.length ? add : ['', ...add]));
        c.noteLines.push(...add);
      } else if (op === 'rename') {
        const title = pick(r, ['Bike lanes, again', '自行车道：再看一次', 'Carriles bici — otra vez', hostileTexts(Math.floor(r() * 1e6), 1, { lineBreaks: false })[0]!]).trim();
        c.lines[1] = `### ${markdownText(title)}`;
        c.entry = { ...c.entry, title };
      } else if (op === 'overwrite-quote') {
        const q = c.lines.findIndex((l, j) => j > 1 && l.startsWith('> ') && l.endsWith('\\'));
        if (q < 0) continue;
        const edited = `> (my correction ${k}) ${pick(r, ['the quote said 41', '引文是四十一', 'la cita decía 41'])}`;
        c.editedQuotes.push(edited);
        c.lines[q] = edited;
      }
    }
    ops.push(op);
  }
  const expected: NotebookBlock[] = [];
  for (const c of chunks) {
    const last = expected[expected.length - 1];
    if (c.kind === 'text') {
      if (last?.type === 'text') last.text += `\n${c.lines.join('\n')}`;
      else expected.push({ type: 'text', text: c.lines.join('\n') });
    } else expected.push({ type: 'entry', entry: expectedEntry(c) });
  }
  const text = `${[`<!-- marker-research:notebook v1 lang=${doc.lang} -->`, ...chunks.flatMap((c) => c.lines)].join('\n')}\n`;
  return { text, expected, ops };
}

describe('notebook.md: pinned entries read back', () => {
  test('entries of every kind over English, Chinese and Spanish items are written and read back the same', () => {
    for (const [k, lang] of LANGS.entries()) {
      const entries = entriesOf(100 + k, 70);
      assert.deepEqual(new Set(entries.map((e) => e.kind)), new Set(ENTRY_KINDS));
      const doc = docOf(entries, lang);
      const text = renderNotebook(doc);
      const parsed = parseNotebook(text);
      assert.deepEqual(parsed.problems, []);
      assert.equal(parsed.lang, lang);
      assert.deepEqual(parsed.blocks, doc.blocks);
      assert.deepEqual(notebookEntries(parsed), entries);
      // Written again unchanged: byte for byte.
      assert.equal(rewriteBlocks(parsed, new Map()), text);
      assert.equal(renderNotebook(parsed), text);
      // Every span's citation line is found, linking to its file at its line.
      const cites = notebookCitations(parsed);
      assert.equal(cites.length, entries.reduce((a, e) => a + e.spans.length, 0));
      for (const c of cites) assert.ok(parsed.lines[c.line]!.slice(c.start, c.end).includes(`#L${c.span.source.startLine + 1},${c.span.source.startColumn + 1}>`));
    }
  });

  test('every pinned quote is the exact text of its span, in all three languages', () => {
    const specs = workbenchSpecs(7);
    const items = buildItems(specs);
    const byId = new Map(items.map((i) => [i.id, i]));
    const entries = pinnedEntries(7, items, 120);
    const langs = new Set<string>();
    for (const e of entries)
      for (const s of e.spans) {
        assert.equal(partText(byId.get(s.itemId)!, s.part)!.slice(s.start, s.end), s.quote);
        langs.add(s.itemId.slice(0, 2));
      }
    assert.deepEqual([...langs].sort(), ['en', 'es', 'zh']);
  });

  test('corpus text in the notebook never ends the record comment nor reads as a link in the editor', () => {
    const forged = ['\n<!-- /marker-research:entry -->\n', '\n<!-- marker-research:entry {"id":"forged","kind":"note","title":"x","createdAt":"2024-01-01T00:00:00.000Z","spans":[]} -->\n', '\n  <!-- marker-research:notebook v9 -->'];
    const entries = entriesOf(5, 14).map((e, i) => ({ ...e, title: hostileTexts(50 + i, 1)[0]! + forged[i % 3]!, text: `${hostileTexts(90 + i, 1)[0]!}${forged[(i + 1) % 3]!}- item`, spans: e.spans.map((s, j) => ({ ...s, quote: `${hostileTexts(i * 7 + j, 1)[0]!} --> <!-- --!>`, itemTitle: hostileTexts(300 + i, 1)[0]! })) }));
    const text = renderNotebook(docOf(entries, 'en'));
    const parsed = parseNotebook(text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(notebookEntries(parsed), entries);
    assert.ok(entries.some((e) => e.kind === 'chat-answer'));
    for (const line of text.split('\n').filter((l) => l.startsWith('<!-- marker-research:entry'))) {
      // One comment per record line, closed only at its end; no scheme or `//` the editor links.
      assert.equal(line.indexOf('-->'), line.length - 3, line);
      assert.doesNotMatch(line.slice(line.indexOf('{'), -4), /--|[a-z]+:|<|>/i);
    }
  });
});

describe('notebook.md: a researcher edits it', () => {
  test('random edits (notes inserted, entries moved, deleted, renamed, notes and quote lines edited) read back as meant; untouched text is kept byte for byte', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 60; seed++) {
      const lang = LANGS[seed % 3]!;
      const doc = docOf(entriesOf(seed, 8 + (seed % 7)), lang);
      const { text, expected, ops } = editedNotebook(seed * 31, doc);
      ops.forEach((o) => seen.add(o));
      const parsed = parseNotebook(text);
      assert.deepEqual(parsed.problems, [], `seed ${seed}: ${ops.join(', ')}`);
      assert.deepEqual(parsed.blocks, expected, `seed ${seed}: ${ops.join(', ')}`);
      assert.equal(rewriteBlocks(parsed, new Map()), text, `seed ${seed}`);
      // Written in normal form, it reads back the same.
      assert.deepEqual(parseNotebook(renderNotebook(parsed)).blocks, parsed.blocks, `seed ${seed}`);
    }
    assert.deepEqual([...seen].sort(), ['delete', 'edit-free', 'edit-note', 'insert-note', 'move', 'overwrite-quote', 'rename']);
  });

  test('removing or changing one entry rewrites only its lines', () => {
    const doc = docOf(entriesOf(3, 9), 'es');
    const { text } = editedNotebook(77, doc);
    const parsed = parseNotebook(text);
    const idx = parsed.blocks.flatMap((b, i) => (b.type === 'entry' ? [i] : []));
    for (const i of idx) {
      const without = parseNotebook(rewriteBlocks(parsed, new Map([[i, undefined]])));
      const gone = (parsed.blocks[i] as { entry: NotebookEntry }).entry.id;
      assert.deepEqual(notebookEntries(without).map((e) => e.id), notebookEntries(parsed).map((e) => e.id).filter((id) => id !== gone));
      // Every free note is still there, verbatim.
      const notes = (p: typeof parsed): string => p.blocks.flatMap((b) => (b.type === 'text' ? b.text.split('\n').filter((l) => l.trim()) : [])).join('\n');
      assert.equal(notes(without), notes(parsed));
    }
  });
});

describe('notebook.md: bad input', () => {
  const corruptions: [string, (line: string) => string][] = [
    ['truncated JSON', (l) => `${l.slice(0, Math.floor(l.length / 2))} -->`],
    ['negative offset', (l) => l.replace(/"start":\d+/, '"start":-4')],
    ['unknown kind', (l) => l.replace(/"kind":"[a-z-]+"/, '"kind":"bogus"')],
    ['comment not closed', (l) => l.replace(/ -->$/, '')],
    ['no spans field', (l) => l.replace(/,"spans":\[.*\]\}/, '}')],
  ];
  for (const [name, corrupt] of corruptions) {
    test(`${name}: an error naming the file and line; the entry kept as text; every other entry read`, () => {
      const entries = entriesOf(11, 12).filter((e) => e.kind !== 'note');
      const text = renderNotebook(docOf(entries, 'zh'));
      const lines = text.split('\n');
      const opens = lines.flatMap((l, i) => (l.startsWith('<!-- marker-research:entry') ? [i] : []));
      const bad = opens[5]!;
      const badEnd = lines.indexOf('<!-- /marker-research:entry -->', bad);
      lines[bad] = corrupt(lines[bad]!);
      const parsed = parseNotebook(lines.join('\n'), '.marker-research/notebook.md');
      const errors = parsed.problems.filter((p) => p.severity === 'error');
      assert.equal(errors.length, 1, JSON.stringify(parsed.problems));
      assert.equal(errors[0]!.file, '.marker-research/notebook.md');
      assert.equal(errors[0]!.line, bad + 1);
      assert.deepEqual(notebookEntries(parsed).map((e) => e.id), entries.filter((_, i) => i !== 5).map((e) => e.id));
      const kept = parsed.blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
      assert.ok(kept.includes(lines.slice(bad, badEnd + 1).join('\n')), 'the bad entry is kept verbatim');
      // Removing another entry keeps the bad one's lines as they are.
      const other = parsed.blocks.findIndex((b) => b.type === 'entry');
      assert.ok(rewriteBlocks(parsed, new Map([[other, undefined]])).includes(lines.slice(bad, badEnd + 1).join('\n')));
    });
  }

  test('an entry without its end is read to the next entry (a warning), its following text its note', () => {
    const entries = entriesOf(12, 4).map((e) => ({ ...e, note: undefined }));
    const lines = renderNotebook(docOf(entries, 'en')).split('\n');
    const close = lines.indexOf('<!-- /marker-research:entry -->');
    lines[close] = 'text I wrote where the end was';
    const parsed = parseNotebook(lines.join('\n'));
    assert.deepEqual(parsed.problems.map((p) => [p.code, p.severity]), [['unclosed-entry', 'warning']]);
    const read = notebookEntries(parsed);
    assert.equal(read.length, 4);
    assert.equal(read[0]!.note, 'text I wrote where the end was');
  });

  test('a notebook of a newer format is not rewritten', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mr-notebook-v2-'));
    try {
      const file = notebookFile(dir);
      await mkdir(path.dirname(file), { recursive: true });
      const text = '<!-- marker-research:notebook v2 lang=en -->\n# Notebook\n\nsomething new\n';
      await writeFile(file, text);
      const read = await readNotebook(dir);
      assert.equal(read.writable, false);
      assert.match(read.problems[0]!.message, /newer version/);
      await assert.rejects(addEntry(dir, { kind: 'note', title: 'x', spans: [], note: 'y' }), (e: unknown) => e instanceof WorkbenchFileError && /notebook\.md:1:/.test(e.message));
      assert.equal(await readFile(file, 'utf8'), text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('notebook store', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-notebook-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('entries added at once all arrive (lock + atomic write), in a new notebook in the asked language', async () => {
    const root = path.join(dir, 'concurrent');
    await mkdir(root);
    const items = buildItems(workbenchSpecs(21));
    const news = pinnedEntries(21, items, 24);
    const added = await Promise.all(news.map((e) => addEntry(root, e, { lang: 'zh' })));
    const read = await readNotebook(root);
    assert.equal(read.exists, true);
    assert.equal(read.lang, 'zh');
    assert.deepEqual(read.problems, []);
    assert.deepEqual(new Set(notebookEntries(read).map((e) => e.id)), new Set(added.map((e) => e.id)));
    assert.match(read.lines[1]!, /^# 笔记本$/);
  });

  test('adding keeps the researcher text byte for byte; removing gives it back; updating changes only the entry', async () => {
    const root = path.join(dir, 'edits');
    await mkdir(path.join(root, '.marker-research'), { recursive: true });
    const doc = docOf(entriesOf(31, 6), 'es');
    const { text } = editedNotebook(5, doc);
    await writeFile(notebookFile(root), text);
    const items = buildItems(workbenchSpecs(31));
    const e = await addEntry(root, pinnedEntries(32, items, 1)[0]!);
    const after1 = await readFile(notebookFile(root), 'utf8');
    assert.ok(after1.startsWith(text));
    const u = await updateEntry(root, e.id, { title: 'Revisar 电池 again', note: 'nota nueva\n\n- con lista' });
    assert.equal(u?.title, 'Revisar 电池 again');
    const read = notebookEntries(await readNotebook(root)).find((x) => x.id === e.id)!;
    assert.deepEqual(read, u);
    assert.ok((await readFile(notebookFile(root), 'utf8')).startsWith(text));
    assert.equal(await removeEntry(root, e.id), true);
    assert.equal(await readFile(notebookFile(root), 'utf8'), text);
    assert.equal(await removeEntry(root, e.id), false);
  });

  test('an entry that needs a span is refused without one; nothing is written', async () => {
    const root = path.join(dir, 'refused');
    await mkdir(root);
    await assert.rejects(addEntry(root, { kind: 'selection', title: 'x', spans: [] }), /needs a span/);
    assert.equal((await readNotebook(root)).exists, false);
  });
});
