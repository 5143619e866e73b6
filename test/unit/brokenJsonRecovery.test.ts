/**
 * Recovery from broken JSON keeps only records that are exactly the bytes they claim to be.
 *
 * Valid transcripts (arrays of turns, objects with segments; three layouts) and comment files
 * (a JSON array, `{"comments": […]}`, JSONL; canonical and aliased text fields) are generated
 * from a seeded generator and broken once each: one `}`, `]`, `"` or `,` deleted, garbage
 * inserted, truncated at a random byte, or a key duplicated. For every record read back:
 * - its recorded place, read from the file, is a JSON string literal that decodes to its text;
 * - the smallest complete object around that place that parses on its own has that text, and
 *   the record's speaker and times (author, likes and id for a comment) are that object's;
 * and every record of the valid file that was not read back — while any of its bytes are left —
 * is reported by a problem naming the file and lines that overlap it.
 *
 * The demo corpus's broken transcript is reported, and every marker of it opens a place whose
 * text holds the marker's quote.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { parseComments, type ParsedComment } from '../../src/core/corpus/commentParsers';
import { decodeText } from '../../src/core/corpus/decode';
import { parseTranscript, type ParsedSegment } from '../../src/core/corpus/transcriptParsers';
import type { CorpusProblem, TextRange } from '../../src/core/corpus/types';
import { allMarkers, readItemMarkers } from '../../src/core/markers/store';
import { freshDemoCorpus } from '../support/demoCorpus';
import { rangeText } from '../support/spanText';
import { rng } from '../support/testing';

type Random = () => number;
const pick = <T>(random: Random, xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

// ---- generating valid files ---------------------------------------------------------------------

/** Words of record texts: JSON-significant characters, escapes, CJK and astral characters included. */
const WORDS = ['bike', 'lanes', 'data', 'says', '钵钵鸡', '续航', '零下十度', 'naïve', 'café', '🚲', 'brace {', 'close }', 'bracket ]', 'open [', 'comma,', 'colon:', 'quote "q"', 'back\\slash', 'tab\there', 'line\nbreak', '"', '\\'];
/** Names stay free of braces: the test finds a record's object by its braces. */
const NAMES = ['Host', 'Guest A', '主持人', 'Dr. "Q"', 'O\'Neil', 'speaker_1'];

function phrase(random: Random): string {
  return Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(random, WORDS)).join(' ');
}

/** A JSON string literal for `s`, now and then with a `\uXXXX` escape for a non-ASCII character. */
function literal(random: Random, s: string): string {
  const lit = JSON.stringify(s);
  return random() < 0.3 ? lit.replace(/[é续]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : lit;
}

interface GenRecord {
  /** Offsets of the record's object in the valid text. */
  start: number;
  end: number;
  /** Each field's `"key": value` place in the valid text. */
  fields: { key: string; start: number; end: number }[];
}

interface GenFile {
  text: string;
  records: GenRecord[];
  format: 'transcript' | 'comments-json' | 'comments-jsonl';
}

type Layout = 'lines' | 'pretty' | 'compact';

/** Appends records to `out` in a layout, remembering where each record and field is. */
function writeRecords(out: { text: string }, recs: [string, string][][], layout: Layout, indent: string): GenRecord[] {
  const placed: GenRecord[] = [];
  recs.forEach((fields, i) => {
    if (i > 0) out.text += layout === 'compact' ? ',' : ',\n';
    if (layout !== 'compact') out.text += indent;
    const start = out.text.length;
    out.text += '{';
    const fs: GenRecord['fields'] = [];
    fields.forEach(([key, value], k) => {
      if (k > 0) out.text += layout === 'pretty' ? ',' : ', ';
      if (layout === 'pretty') out.text += `\n${indent}  `;
      const fStart = out.text.length;
      out.text += `${JSON.stringify(key)}: ${value}`;
      fs.push({ key, start: fStart, end: out.text.length });
    });
    if (layout === 'pretty') out.text += `\n${indent}`;
    out.text += '}';
    placed.push({ start, end: out.text.length, fields: fs });
  });
  return placed;
}

function shuffled<T>(random: Random, xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

function genTranscript(random: Random, count?: number): GenFile {
  const key = random() < 0.6 ? 'turns' : 'segments';
  const n = count ?? 2 + Math.floor(random() * 7);
  let t = 0;
  const recs = Array.from({ length: n }, () => {
    const fields: [string, string][] = [['text', literal(random, phrase(random))]];
    if (key === 'turns' || random() < 0.5) fields.push(['speaker', literal(random, pick(random, NAMES))]);
    if (key === 'segments' || random() < 0.4) {
      const d = Math.round(random() * 90) / 10 + 0.5;
      fields.push(['start', String(t)], ['end', String(Math.round((t + d) * 10) / 10)]);
      t = Math.round((t + d) * 10) / 10;
    }
    return shuffled(random, fields);
  });
  const layout = pick(random, ['lines', 'pretty', 'compact'] as const);
  const nl = layout === 'compact' ? '' : '\n';
  const out = { text: '' };
  const titleFirst = random() < 0.7;
  out.text += `{${nl}${layout === 'compact' ? '' : '  '}`;
  if (titleFirst) out.text += `"title": ${literal(random, phrase(random))},${nl}${layout === 'compact' ? '' : '  '}`;
  out.text += `"${key}": [${nl}`;
  const records = writeRecords(out, recs, layout, '    ');
  out.text += `${nl}${layout === 'compact' ? '' : '  '}]`;
  if (!titleFirst) out.text += `,${nl}  "title": ${literal(random, phrase(random))}`;
  out.text += `${nl}}\n`;
  return { text: out.text, records, format: 'transcript' };
}

const TEXT_KEYS = ['text', 'text', 'textOriginal', 'content', 'body'];

function commentRecords(random: Random, n: number): [string, string][][] {
  return Array.from({ length: n }, (_, i) => {
    const fields: [string, string][] = [
      ['comment_id', JSON.stringify(`c${i + 1}`)],
      ['author', literal(random, pick(random, NAMES))],
      [pick(random, TEXT_KEYS), literal(random, phrase(random))],
    ];
    if (random() < 0.6) fields.push(['likes', String(Math.floor(random() * 500))]);
    return shuffled(random, fields);
  });
}

function genCommentsJson(random: Random, count?: number): GenFile {
  const recs = commentRecords(random, count ?? 2 + Math.floor(random() * 7));
  const layout = pick(random, ['lines', 'pretty', 'compact'] as const);
  const nl = layout === 'compact' ? '' : '\n';
  const out = { text: '' };
  const wrapped = random() < 0.5;
  out.text += wrapped ? `{${nl}  "comments": [${nl}` : `[${nl}`;
  const records = writeRecords(out, recs, layout, wrapped ? '    ' : '  ');
  out.text += wrapped ? `${nl}  ]${nl}}\n` : `${nl}]\n`;
  return { text: out.text, records, format: 'comments-json' };
}

function genCommentsJsonl(random: Random): GenFile {
  const recs = commentRecords(random, 2 + Math.floor(random() * 7));
  const out = { text: '' };
  const records: GenRecord[] = [];
  for (const r of recs) {
    records.push(...writeRecords(out, [r], 'compact', ''));
    out.text += '\n';
  }
  return { text: out.text, records, format: 'comments-jsonl' };
}

// ---- breaking them -----------------------------------------------------------------------------

interface Broken {
  /** What was done, for messages. */
  what: string;
  bytes: Buffer;
  /** Where an offset of the valid text is in the broken text; undefined when it was cut off. */
  map: (offset: number) => number | undefined;
}

const GARBAGE = ['@', '}', ']', '{', '"', ',', ':', 'null', '\\', 'xyz', '{"', '"}', '[', ' , ', '}]', '\n'];

function edit(text: string, at: number, del: number, ins: string, what: string): Broken {
  const broken = text.slice(0, at) + ins + text.slice(at + del);
  return {
    what: `${what} at ${at}`,
    bytes: Buffer.from(broken, 'utf8'),
    map: (o) => (o < at ? o : o >= at + del ? o - del + ins.length : at),
  };
}

function breakFile(random: Random, f: GenFile): Broken {
  const text = f.text;
  const kind = Math.floor(random() * 4);
  if (kind === 0) {
    const ch = pick(random, ['}', ']', '"', ','] as const);
    const at: number[] = [];
    for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) at.push(i);
    if (at.length) return edit(text, pick(random, at), 1, '', `deleted ${ch}`);
  }
  if (kind === 1 || kind === 0) {
    const g = pick(random, GARBAGE);
    return edit(text, Math.floor(random() * text.length), 0, g, `inserted ${JSON.stringify(g)}`);
  }
  if (kind === 2) {
    const all = Buffer.from(text, 'utf8');
    const cut = Math.floor(random() * all.length);
    // Characters whose bytes are all before the cut are kept.
    let kept = 0;
    let bytes = 0;
    for (const ch of text) {
      const n = Buffer.byteLength(ch, 'utf8');
      if (bytes + n > cut) break;
      bytes += n;
      kept += ch.length;
    }
    return { what: `truncated at byte ${cut}`, bytes: all.subarray(0, cut), map: (o) => (o < kept ? o : undefined) };
  }
  const rec = pick(random, f.records);
  const field = pick(random, rec.fields);
  const original = text.slice(field.start, field.end);
  const value = random() < 0.5 ? original.slice(original.indexOf(':') + 2) : literal(random, phrase(random));
  return edit(text, field.end, 0, `, ${JSON.stringify(field.key)}: ${value}`, `duplicated key ${field.key}`);
}

// ---- checking what was read ---------------------------------------------------------------------

function lineStartsOf(text: string): number[] {
  const s = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') s.push(i + 1);
  return s;
}

const offsetOf = (starts: readonly number[], line: number, column: number): number => starts[line]! + column;
const lineOf = (starts: readonly number[], offset: number): number => {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
  }
  return lo;
};

function hasDuplicateKey(node: Node | undefined): boolean {
  const keys = (node?.children ?? []).map((p) => p.children?.[0]?.value as string);
  return new Set(keys).size !== keys.length;
}

/**
 * The smallest complete object around `[from, to)` of `text` that parses on its own as strict
 * JSON: the test's own reading, by brute force over brace pairs (the files are small).
 */
function enclosingObject(text: string, from: number, to: number): { value: Record<string, unknown>; start: number; end: number; duplicate: boolean } | undefined {
  for (let s = from - 1; s >= Math.max(0, from - 4000); s--) {
    if (text[s] !== '{') continue;
    for (let e = to; e < Math.min(text.length, to + 4000); e++) {
      if (text[e] !== '}') continue;
      const slice = text.slice(s, e + 1);
      let value: unknown;
      try {
        value = JSON.parse(slice);
      } catch {
        continue;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
      const errors: ParseError[] = [];
      const tree = parseTree(slice, errors);
      return { value: value as Record<string, unknown>, start: s, end: e + 1, duplicate: hasDuplicateKey(tree) };
    }
  }
  return undefined;
}

/** Checks a record read back: exact text at its place, and its other fields from the same object. Returns its text span. */
function checkRecord(text: string, starts: readonly number[], source: TextRange, got: { text: string; fields: Record<string, unknown> }, textKeys: readonly string[], label: string): [number, number] {
  const a = offsetOf(starts, source.startLine, source.startColumn);
  const b = offsetOf(starts, source.endLine, source.endColumn);
  assert.equal(text[a - 1], '"', `${label}: the text's place starts right after a quote`);
  assert.equal(text[b], '"', `${label}: the text's place ends at a quote`);
  assert.equal(JSON.parse(text.slice(a - 1, b + 1)), got.text, `${label}: the bytes at the text's place decode to its text`);
  const obj = enclosingObject(text, a - 1, b + 1);
  assert.ok(obj, `${label}: the text sits in a complete object that parses on its own`);
  assert.ok(!obj.duplicate, `${label}: that object has no key twice (${text.slice(obj.start, obj.end)})`);
  assert.ok(textKeys.some((k) => obj.value[k] === got.text), `${label}: that object's text is the record's text (${text.slice(obj.start, obj.end)})`);
  for (const [k, v] of Object.entries(got.fields)) {
    assert.deepEqual(v, obj.value[k] ?? undefined, `${label}: ${k} comes from the same object (${text.slice(obj.start, obj.end)})`);
  }
  return [a, b];
}

/** Every record of the valid file not read back, with bytes left, is reported by a problem overlapping its lines. */
function checkLost(relPath: string, f: GenFile, broken: Broken, text: string, starts: readonly number[], read: [number, number][], problems: readonly CorpusProblem[], label: string): number {
  let lost = 0;
  for (const [i, r] of f.records.entries()) {
    const s = broken.map(r.start);
    if (s === undefined || s >= text.length) continue; // cut off entirely: no bytes left to point at
    const e = Math.min(broken.map(r.end - 1) ?? text.length - 1, text.length - 1) + 1;
    if (read.some(([a, b]) => a >= s && b <= e)) continue;
    lost++;
    const first = lineOf(starts, s);
    const last = lineOf(starts, Math.max(s, e - 1));
    // In a JSON file the first syntax error is a note about the file, not about a record (in JSONL it is the line's own).
    const summary = (p: CorpusProblem): boolean => p.code === 'invalid-json' && f.format !== 'comments-jsonl';
    const reported = problems.some((p) => p.file === relPath && !summary(p) && p.line !== undefined && p.line <= last && (p.endLine ?? p.line) >= first);
    assert.ok(reported, `${label}: record ${i} (lines ${first + 1}–${last + 1}) was not read and no problem names those lines: ${JSON.stringify(problems)}\n${text}`);
  }
  return lost;
}

function checkTranscript(f: GenFile, broken: Broken, label: string): { read: number; lost: number } {
  const rel = 'item/transcript.json';
  const text = decodeText(broken.bytes).text;
  const starts = lineStartsOf(text);
  const r = parseTranscript(text, 'json', rel);
  const spans = r.segments.map((seg: ParsedSegment, k) =>
    checkRecord(text, starts, seg.source, { text: seg.text, fields: { speaker: seg.speaker, start: seg.start, end: seg.end } }, ['text'], `${label}, segment ${k}`),
  );
  for (const p of r.problems) assert.equal(p.file, rel, `${label}: problems name the file`);
  return { read: spans.length, lost: checkLost(rel, f, broken, text, starts, spans, r.problems, label) };
}

function checkComments(f: GenFile, broken: Broken, label: string): { read: number; lost: number } {
  const rel = f.format === 'comments-json' ? 'item/comments.json' : 'item/comments.jsonl';
  const text = decodeText(broken.bytes).text;
  const starts = lineStartsOf(text);
  const r = parseComments(text, f.format === 'comments-json' ? 'json' : 'jsonl', rel);
  const spans = r.comments.map((c: ParsedComment, k) => {
    const fields: Record<string, unknown> = { author: c.author, likes: c.likes };
    if (!/^(index|line)-/.test(c.id)) fields['comment_id'] = c.id;
    return checkRecord(text, starts, c.source, { text: c.text, fields }, TEXT_KEYS, `${label}, comment ${k}`);
  });
  for (const p of r.problems) assert.equal(p.file, rel, `${label}: problems name the file`);
  return { read: spans.length, lost: checkLost(rel, f, broken, text, starts, spans, r.problems, label) };
}

// ---- the tests ----------------------------------------------------------------------------------

describe('broken JSON: a record read back is exactly its bytes, a record lost is reported', () => {
  const CASES = 400;

  test('valid files read every record, each at its exact place (the generator and the checks agree)', () => {
    const random = rng(1);
    for (let k = 0; k < 60; k++) {
      for (const gen of [genTranscript, genCommentsJson, genCommentsJsonl]) {
        const f = gen(random);
        const intact: Broken = { what: 'intact', bytes: Buffer.from(f.text, 'utf8'), map: (o) => o };
        const { read, lost } = f.format === 'transcript' ? checkTranscript(f, intact, `valid ${f.format} ${k}`) : checkComments(f, intact, `valid ${f.format} ${k}`);
        assert.equal(read, f.records.length, `valid ${f.format} ${k}: every record read\n${f.text}`);
        assert.equal(lost, 0);
      }
    }
  });

  for (const [name, gen, seed] of [
    ['transcripts (turns and segments, three layouts)', genTranscript, 11],
    ['comments.json (an array, or {"comments": […]})', genCommentsJson, 12],
    ['comments.jsonl', genCommentsJsonl, 13],
  ] as const) {
    test(`${name}: ${CASES} files, each broken once`, () => {
      const random = rng(seed);
      let read = 0;
      let lost = 0;
      const kinds = new Set<string>();
      for (let k = 0; k < CASES; k++) {
        const f = gen(random);
        const broken = breakFile(random, f);
        kinds.add(broken.what.replace(/ at \d+| at byte \d+|(key|inserted) .*/g, '$1'));
        const label = `${name} #${k} (${broken.what})`;
        const r = f.format === 'transcript' ? checkTranscript(f, broken, label) : checkComments(f, broken, label);
        read += r.read;
        lost += r.lost;
      }
      // The generator really breaks files, and recovery really reads records back from them.
      assert.ok(lost > CASES / 4, `records were lost and reported (${lost})`);
      assert.ok(read > CASES, `records were read back (${read})`);
      assert.ok(kinds.size >= 6, `every kind of breakage ran: ${[...kinds].join(', ')}`);
    });
  }

  test('a missing } no longer files the next turn under this one: the next turns are read at their own place', () => {
    const random = rng(5);
    for (let k = 0; k < 100; k++) {
      const f = genTranscript(random);
      const victim = Math.floor(random() * (f.records.length - 1));
      const rec = f.records[victim]!;
      const broken = edit(f.text, rec.end - 1, 1, '', 'deleted }');
      const text = broken.bytes.toString('utf8');
      const r = parseTranscript(text, 'json', 't.json');
      const label = `#${k}: turn ${victim} lost its }\n${text}`;
      // Every turn after the broken one is read back, and the broken one is reported.
      assert.equal(r.segments.length, f.records.length - 1, label);
      const starts = lineStartsOf(text);
      for (const [i, seg] of r.segments.entries()) {
        checkRecord(text, starts, seg.source, { text: seg.text, fields: { speaker: seg.speaker, start: seg.start, end: seg.end } }, ['text'], `${label}, segment ${i}`);
      }
      assert.ok(r.problems.some((p) => p.code === 'record-skipped' && p.line === lineOf(starts, rec.start)), label);
    }
  });
});

describe('many records missing their } (their open braces nest deeper than the parser’s limit)', () => {
  /** `text` with the characters at `positions` deleted. */
  function deleteAll(text: string, positions: number[], what: string): Broken {
    const at = [...positions].sort((a, b) => a - b);
    let broken = '';
    let from = 0;
    for (const p of at) {
      broken += text.slice(from, p);
      from = p + 1;
    }
    broken += text.slice(from);
    const before = (o: number): number => {
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (at[mid]! < o) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return { what, bytes: Buffer.from(broken, 'utf8'), map: (o) => o - before(o) };
  }

  for (const [name, gen] of [['transcripts', genTranscript], ['comments.json', genCommentsJson]] as const) {
    test(`${name}: 100–250 records, 70 or more of them without their }: every other record is read back at its place, each broken one reported`, () => {
      const random = rng(name.length * 101);
      for (let k = 0; k < 6; k++) {
        const n = 100 + Math.floor(random() * 150);
        const f = gen(random, n);
        const victims = shuffled(random, f.records.map((_, i) => i)).slice(0, 70 + Math.floor(random() * (n - 80)));
        const broken = deleteAll(f.text, victims.map((i) => f.records[i]!.end - 1), `${victims.length} of ${n} records lost their }`);
        const label = `${name} #${k} (${broken.what})`;
        const r = f.format === 'transcript' ? checkTranscript(f, broken, label) : checkComments(f, broken, label);
        assert.equal(r.read, n - victims.length, `${label}: every record that kept its braces is read`);
        assert.equal(r.lost, victims.length, `${label}: every broken record is reported`);
      }
    });
  }
});

describe('the demo corpus', () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-broken-json-'));
  });
  after(() => rm(work, { recursive: true, force: true }));

  test('its broken transcript is reported, turn by turn, and every marker of it opens a place that holds its quote', async () => {
    const corpus = await freshDemoCorpus(work, 'demo');
    const rel = 'food-vlog-broken/transcript.json';
    const problems = corpus.problems.filter((p) => p.file === rel);
    assert.ok(problems.some((p) => p.code === 'invalid-json' && p.line === 5), JSON.stringify(problems));
    assert.ok(problems.some((p) => p.code === 'record-skipped' && p.line === 4), `the turn that never closes (line 5) is reported: ${JSON.stringify(problems)}`);
    const item = corpus.items.find((i) => i.id === 'food-vlog-broken')!;
    const file = path.join(corpus.root, rel);
    const text = decodeText(Buffer.from(await import('node:fs/promises').then((fs) => fs.readFile(file)))).text;
    const starts = lineStartsOf(text);
    for (const seg of item.transcript!.segments) {
      checkRecord(text, starts, seg.source, { text: seg.text, fields: { speaker: seg.speaker } }, ['text'], `segment ${seg.index}`);
    }
    const markers = await readItemMarkers(corpus.root, 'food-vlog-broken');
    assert.ok(markers.ok, 'the item has markers');
    let opened = 0;
    for (const m of allMarkers(markers.value)) {
      for (const e of m.evidence) {
        const at = await rangeText({ path: path.join(corpus.root, e.source.file), range: e.source });
        assert.ok(at.includes(e.quote), `${m.kind} marker "${e.quote}" opens ${e.source.file}:${e.source.startLine + 1}, which reads "${at}"`);
        if (e.source.file === rel) opened++;
      }
    }
    assert.ok(opened > 0, 'some marker opens the broken transcript');
  });
});
