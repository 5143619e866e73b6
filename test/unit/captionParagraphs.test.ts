/**
 * Caption transcripts in the readable view (issue 21, speech-aware units): generated auto-caption
 * and SRT-like transcripts (English, Spanish, Chinese; .srt/.vtt/.txt/.json; with and without
 * timestamps; unpunctuated and punctuated) are shown as paragraphs of whole sentences with one
 * header each (time range, or line range when untimed), of about 30–60 s or 40–120 words; every
 * span still maps exactly onto the document (the paragraph shows a caption's line break as a
 * space and the space before a sentence as a line break, character for character) and back;
 * annotations are where the document says; a meeting of speakers keeps its turns.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { CorpusItem, TextRange } from '../../src/core/corpus/types';
import { BLOCK_INDENT, layoutFullItem, TEXT_BELOW_HEADER, type ReadableItem } from '../../src/core/markers/fullItem';
import { readableAnnotations, readablePlaceAt, readableRanges } from '../../src/core/markers/readableSpans';
import { isCaptionTranscript, PARAGRAPH, readingSentences, segmentAtOffset, segmentEnd, transcriptParagraphs } from '../../src/core/markers/speechUnits';
import { countWords } from '../../src/core/text/words';
import { captionLines, writeCaptionItem, type CaptionFormat, type CaptionLang } from '../support/captionCorpus';
import { hostileTexts } from '../support/hostileMarkdown';
import { itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

interface Case {
  id: string;
  lang: CaptionLang;
  format: CaptionFormat;
  timed: boolean;
  punctuated: boolean;
}

const CASES: Case[] = [];
for (const lang of ['en', 'es', 'zh'] as const) {
  for (const format of ['srt', 'vtt', 'txt', 'json'] as const) {
    for (const timed of [true, false]) {
      if (!timed && (format === 'srt' || format === 'vtt')) continue; // cues always have times
      for (const punctuated of [false, true]) CASES.push({ id: `${lang}-${format}-${timed ? 'timed' : 'untimed'}-${punctuated ? 'punct' : 'auto'}`, lang, format, timed, punctuated });
    }
  }
}

/** The document's text of `ranges`, joined by newlines: what the highlight shows. */
function highlighted(layout: ReadableItem, ranges: readonly TextRange[]): string {
  const lines = layout.text.split('\n');
  return ranges.map((r) => {
    assert.equal(r.startLine, r.endLine, 'one range per line');
    return lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  }).join('\n');
}

/** Whitespace is one character for the paragraph view (a caption's line break shows as a space, the whitespace before a sentence as a line break). */
const folded = (s: string): string => s.replace(/\s/g, ' ');

describe('caption transcripts in the readable view: paragraphs with one header each', () => {
  let dir: string;
  const items = new Map<string, CorpusItem>();
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-captions-'));
    let seed = 0;
    for (const c of CASES) await writeCaptionItem(dir, c.id, captionLines({ lang: c.lang, lines: 260, timed: c.timed, punctuated: c.punctuated, seed: ++seed * 7919 }), c.format);
    // Past an hour: times with hours.
    await writeCaptionItem(dir, 'es-long', captionLines({ lang: 'es', lines: 120, timed: true, seed: 99, offsetSeconds: 3590 }), 'vtt');
    // A meeting: speakers' punctuated turns, with short backchannels between.
    await mkdir(path.join(dir, 'meeting'));
    const r = rng(5);
    const turns = Array.from({ length: 60 }, (_, i) => ({
      speaker: ['Project Manager', 'PhD A', 'Marketing'][i % 3],
      text: i % 4 === 3 ? 'Yeah .' : `We looked at the ${['remote', 'battery', 'budget', 'schedule'][Math.floor(r() * 4)]} again and it is ${i} percent better than before .`,
      start: i * 5,
      end: i * 5 + 4,
    }));
    await writeFile(path.join(dir, 'meeting', 'transcript.json'), JSON.stringify({ turns }));
    for (const item of (await loadCorpus(dir)).items) items.set(item.id, item);
    assert.equal(items.size, CASES.length + 2);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('every generated caption transcript is shown as paragraphs, one header each, far fewer than its lines', () => {
    for (const c of CASES) {
      const item = items.get(c.id)!;
      const t = item.transcript!;
      assert.ok(isCaptionTranscript(t), `${c.id}: a caption transcript`);
      const layout = layoutFullItem(item);
      const lines = layout.text.split('\n');
      const blocks = layout.blocks.filter((b) => b.part === 'transcript');
      const paragraphs = transcriptParagraphs(t);
      assert.equal(blocks.length, paragraphs.length, c.id);
      assert.ok(blocks.length * 5 <= t.segments.length, `${c.id}: ${blocks.length} paragraphs for ${t.segments.length} lines`);
      assert.ok(lines.includes(`## Transcript (${t.segments.length} caption lines in ${paragraphs.length} paragraphs)`), c.id);
      // One header per paragraph: the only line of the transcript section that is not a paragraph's text or blank.
      const section = lines.slice(lines.indexOf(`## Transcript (${t.segments.length} caption lines in ${paragraphs.length} paragraphs)`) + 1, lines.indexOf('## Comments'));
      const headers = section.filter((l) => l.trim() && !l.startsWith(' '.repeat(BLOCK_INDENT)));
      assert.equal(headers.length, paragraphs.length, `${c.id}: one header per paragraph`);
      const header = c.timed ? /^¶ (\d+) · \d+:\d\d(?::\d\d)? → \d+:\d\d(?::\d\d)? · lines? \d+(?:–\d+)?$/ : /^¶ (\d+) · lines? \d+(?:–\d+)?$/;
      blocks.forEach((b, k) => {
        const m = header.exec(lines[b.header]!);
        assert.ok(m, `${c.id}: header "${lines[b.header]}"`);
        assert.equal(Number(m[1]), k + 1);
        assert.equal(lines[b.header + 1], '', `${c.id}: a blank line under the header (the text is a code block)`);
        // The header's line range is the first and last caption line of the paragraph in the file.
        const p = paragraphs[k]!;
        const range = /lines? (\d+)(?:–(\d+))?$/.exec(lines[b.header]!)!;
        assert.equal(Number(range[1]), t.segments[p.first]!.source.startLine + 1);
        assert.equal(Number(range[2] ?? range[1]), Math.max(t.segments[p.first]!.source.startLine, t.segments[p.last]!.source.endLine) + 1);
      });
    }
  });

  test('paragraphs: consecutive, covering the text; about 40–120 words (untimed) or 30–60 s (timed); sentences whole, one to a line', () => {
    for (const c of CASES) {
      const t = items.get(c.id)!.transcript!;
      const ps = transcriptParagraphs(t);
      const sentences = readingSentences(t);
      assert.equal(ps[0]!.start, 0);
      assert.equal(ps[ps.length - 1]!.end, t.text.length);
      for (let k = 1; k < ps.length; k++) {
        assert.equal(ps[k]!.start, ps[k - 1]!.end + 1, `${c.id}: one separator between paragraphs`);
        assert.match(t.text[ps[k]!.start - 1]!, /\s/, `${c.id}: the separator is whitespace`);
      }
      const starts = new Set(sentences.map((s) => s.start));
      for (const [k, p] of ps.entries()) {
        // A paragraph (after the first) starts with a sentence, and no sentence crosses two paragraphs.
        if (k > 0) assert.ok(starts.has(p.start), `${c.id}: paragraph ${k + 1} starts with a sentence`);
        const inside = sentences.filter((s) => s.start >= p.start && s.start < p.end);
        for (const s of inside) assert.ok(s.end <= p.end, `${c.id}: sentence at ${s.start} crosses paragraphs`);
        const words = inside.reduce((n, s) => n + countWords(s.text), 0);
        const last = k === ps.length - 1;
        // The upper bound holds where the paragraph could be cut: before a sentence that follows
        // whitespace (Chinese sentences inside a caption line follow none); it is never far off.
        const cuttable = inside.length > 1 && inside.slice(1).every((s) => /\s/.test(t.text[s.start - 1]!));
        if (!c.timed) {
          if (!last) assert.ok(words >= PARAGRAPH.minWords, `${c.id}: paragraph ${k + 1} has ${words} words`);
          if (cuttable) assert.ok(words <= PARAGRAPH.maxWords, `${c.id}: paragraph ${k + 1} has ${words} words`);
          assert.ok(words <= 2 * PARAGRAPH.maxWords, `${c.id}: paragraph ${k + 1} has ${words} words`);
        } else if (inside.length) {
          const segAt = (o: number): number => segmentAtOffset(t.segments, o);
          const t0 = k === 0 ? t.segments[0]!.start! : t.segments[segAt(inside[0]!.start)]!.start!;
          const t1 = Math.max(...inside.map((s) => segmentEnd(t.segments, segAt(s.end - 1))!));
          if (!last) assert.ok(t1 - t0 >= PARAGRAPH.minSeconds, `${c.id}: paragraph ${k + 1} lasts ${t1 - t0} s`);
          if (cuttable) assert.ok(t1 - t0 <= PARAGRAPH.maxSeconds + 1e-6, `${c.id}: paragraph ${k + 1} lasts ${t1 - t0} s`);
          assert.ok(t1 - t0 <= 2 * PARAGRAPH.maxSeconds, `${c.id}: paragraph ${k + 1} lasts ${t1 - t0} s`);
        }
      }
      // In the document, every sentence that follows whitespace starts a line of its paragraph.
      const layout = layoutFullItem(items.get(c.id)!);
      let lineStarts = 0;
      for (const s of sentences) {
        if (!/\s/.test(t.text[s.start - 1] ?? '')) continue;
        const [r] = readableRanges(layout, 'transcript', s.start, s.end);
        assert.equal(r!.startColumn, BLOCK_INDENT, `${c.id}: sentence at ${s.start} starts a line`);
        lineStarts++;
      }
      // (Chinese sentences of a punctuated caption mostly start inside a line, after no space.)
      if (c.lang !== 'zh' || !c.punctuated) assert.ok(lineStarts * 2 >= sentences.length, `${c.id}: ${lineStarts} of ${sentences.length} sentences start a line`);
    }
  });

  test('spans open exactly: every sentence, every caption line and random spans (a space for a caption break), and back', () => {
    const r = rng(21);
    for (const c of CASES) {
      const item = items.get(c.id)!;
      const t = item.transcript!;
      const layout = layoutFullItem(item);
      const exact = (a: number, b: number): void => {
        const got = highlighted(layout, readableRanges(layout, 'transcript', a, b));
        const want = t.text.slice(a, b);
        assert.equal(got.length, want.length, `${c.id} [${a}, ${b}) length`);
        assert.equal(folded(got), folded(want), `${c.id} [${a}, ${b})`);
      };
      for (const s of readingSentences(t)) exact(s.start, s.end);
      for (const s of t.segments) exact(s.offset, s.offset + s.text.length);
      for (const p of transcriptParagraphs(t)) {
        exact(p.start, p.end);
        exact(Math.max(0, p.end - 3), Math.min(t.text.length, p.end + 4)); // across two paragraphs
      }
      for (let i = 0; i < 200; i++) {
        const a = Math.floor(r() * t.text.length);
        exact(a, Math.min(t.text.length, a + Math.floor(r() * (i % 4 === 0 ? 900 : 60))));
      }
      // Back: the place of every character's range is its offset.
      for (let i = 0; i < 200; i++) {
        const k = Math.floor(r() * t.text.length);
        if (/\s/.test(t.text[k]!)) continue;
        const [range] = readableRanges(layout, 'transcript', k, k + 1);
        assert.equal(readablePlaceAt(layout, range!.startLine, range!.startColumn)!.offset, k, `${c.id} offset ${k}`);
      }
      // A paragraph's header is the paragraph's start.
      for (const b of layout.blocks.filter((x) => x.part === 'transcript')) assert.equal(readablePlaceAt(layout, b.header, 0)!.offset, b.offset);
    }
  });

  test('annotations: the document says where each one is; headers hold none', () => {
    let seen = 0;
    for (const c of CASES) {
      const item = items.get(c.id)!;
      const layout = layoutFullItem(item);
      const lines = layout.text.split('\n');
      const marks = readableAnnotations(layout);
      for (const m of marks) assert.match(lines[m.line]!.slice(m.start, m.end), /^\[[^\]]+\]$/, `${c.id}: line ${m.line}`);
      // Every annotation of the paragraphs' lines is one of them.
      const expected = layout.blocks.filter((b) => b.part === 'transcript').reduce((n, b) => n + (b.text.match(/\[[^\]\n]+\]/g)?.length ?? 0), 0);
      assert.equal(marks.length, expected, c.id);
      for (const b of layout.blocks) assert.doesNotMatch(lines[b.header]!, /\[[^\]]+\]/, `${c.id}: header`);
      seen += marks.length;
    }
    assert.ok(seen > CASES.length, `${seen} annotations`);
  });

  test('past an hour: times with hours; never ISO', () => {
    const layout = layoutFullItem(items.get('es-long')!);
    const headers = layout.blocks.map((b) => layout.text.split('\n')[b.header]!);
    assert.ok(headers.some((h) => /^¶ \d+ · 0:59:\d\d → 1:00:\d\d · /.test(h) || /^¶ \d+ · 1:\d\d:\d\d → 1:\d\d:\d\d · /.test(h)), headers.join('\n'));
    assert.doesNotMatch(layout.text, /\d{2}:\d{2}:\d{2}[.,]\d{3}|T\d{2}:\d{2}/);
  });

  test('a meeting of speakers keeps its turns: one header per turn, with the speaker', () => {
    const item = items.get('meeting')!;
    assert.equal(isCaptionTranscript(item.transcript!), false);
    const layout = layoutFullItem(item);
    const lines = layout.text.split('\n');
    const blocks = layout.blocks.filter((b) => b.part === 'transcript');
    assert.equal(blocks.length, item.transcript!.segments.length);
    blocks.forEach((b, i) => {
      assert.equal(b.shown, undefined);
      assert.match(lines[b.header]!, new RegExp(`^\\[${i + 1}\\] · \\d+:\\d\\d → \\d+:\\d\\d · (Project Manager|PhD A|Marketing) · line \\d+$`));
      assert.equal(lines[b.header + TEXT_BELOW_HEADER], `${' '.repeat(BLOCK_INDENT)}${b.text}`);
    });
  });

  test('hostile caption lines (links, headings, fences, HTML, line breaks) stay inside the paragraphs\' code blocks', () => {
    let captions = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const lines = captionLines({ lang: (['en', 'es', 'zh'] as const)[seed % 3], lines: 120, timed: seed % 2 === 0, seed });
      const hostile = hostileTexts(seed, 30);
      const r = rng(seed);
      const turns = lines.map((l) => ({ ...l, text: r() < 0.2 ? hostile[Math.floor(r() * hostile.length)]! : l.text }));
      const item = itemOf(`hostile-${seed}`, { transcript: transcriptPart(turns) });
      const t = item.transcript!;
      if (!isCaptionTranscript(t)) continue;
      const layout = layoutFullItem(item);
      const doc = layout.text.split('\n');
      for (const b of layout.blocks) {
        assert.equal(doc[b.header + 1], '', `seed ${seed}: a blank line under the header`);
        const n = (b.shown ?? b.text).split('\n').length;
        for (let i = 0; i < n; i++) assert.ok(doc[b.header + TEXT_BELOW_HEADER + i]!.startsWith(' '.repeat(BLOCK_INDENT)), `seed ${seed}: line ${b.header + TEXT_BELOW_HEADER + i} is not indented: ${doc[b.header + TEXT_BELOW_HEADER + i]}`);
        assert.doesNotMatch(doc[b.header]!, /[[\]<]/, `seed ${seed}: header`);
      }
      const a = Math.floor(r() * t.text.length);
      const z = Math.min(t.text.length, a + 300);
      assert.equal(folded(highlighted(layout, readableRanges(layout, 'transcript', a, z))), folded(t.text.slice(a, z)), `seed ${seed}`);
      captions++;
    }
    assert.ok(captions >= 30, `${captions} of 60 hostile transcripts read as captions`);
  });
});

