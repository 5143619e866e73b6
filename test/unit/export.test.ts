/**
 * Export (issue 12): markers as CSV (RFC 4180 quoting of commas, quotes, line breaks; Chinese;
 * formula guard) and JSON; reports as Markdown with a linked sources appendix and as standalone
 * HTML with an anchor per citation and links to the original files; the CLI's `export` command.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { exportReportFile, reportPreviewFile, writeReportPreview } from '../../src/core/export/exportFiles';
import { markdownToHtml, renderInline } from '../../src/core/export/markdownHtml';
import { csvCell } from '../../src/core/export/csvCell';
import { MARKER_COLUMNS, markerRows, markersFormatOf, markersToCsv, markersToJson, type MarkerRow } from '../../src/core/export/markersExport';
import { defaultLinkStyle, replaceCitations, reportFormatOf, reportToHtml, reportToMarkdown, spanHref, stripSourceList } from '../../src/core/export/reportExport';
import { extractItem } from '../../src/core/markers/extractive';
import { TopicStats, topicCandidates } from '../../src/core/markers/keyphrases';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { allMarkers } from '../../src/core/markers/store';
import { sliceRange } from '../../src/core/research/citationLinks';
import type { ReportSources, SourceSpan } from '../../src/core/research/schema';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

/** A CSV parser (RFC 4180) for reading exports back. */
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

function markersOf(corpus: Corpus): Map<string, ItemMarkers> {
  const stats = new TopicStats();
  for (const item of corpus.items) stats.addDocument(topicCandidates(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`));
  return new Map(
    corpus.items.map((item) => [
      item.id,
      { item_id: item.id, title: item.title, content_hash: item.contentHash, engine: 'extractive', model: null, prompt_version: null, cache_key: 'k', generated_at: '', ...extractItem(item, stats), usage: { promptTokens: 0, completionTokens: 0, calls: 0 } } satisfies ItemMarkers,
    ]),
  );
}

const row = (over: Partial<MarkerRow>): MarkerRow => ({
  item: 'i1', item_title: 'T', kind: 'FACT', text: 't', topic: 'x', speaker: '', time: '', file: 'i1/transcript.txt', line: 1, quote: 'q', part: 'transcript', grounded: true, engine: 'extractive', marker_id: 'i1:F:1', ...over,
});

describe('markers export', () => {
  test('CSV cells: commas, quotes, line breaks and edge spaces are quoted; quotes doubled; Chinese as is', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a, b'), '"a, b"');
    assert.equal(csvCell('he said "no"'), '"he said ""no"""');
    assert.equal(csvCell('line one\nline two'), '"line one\nline two"');
    assert.equal(csvCell('a\r\nb'), '"a\r\nb"');
    assert.equal(csvCell(' padded'), '" padded"');
    assert.equal(csvCell('续航，掉电百分之三十八'), '续航，掉电百分之三十八', 'a full-width comma is no separator');
    assert.equal(csvCell('续航, "冬季"'), '"续航, ""冬季"""');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(12), '12');
    assert.equal(csvCell(false), 'false');
  });

  test('CSV cells that a spreadsheet would run as formulas are guarded (corpus text is untrusted)', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvCell('+1 great video'), "'+1 great video");
    assert.equal(csvCell('@everyone'), "'@everyone");
    assert.equal(csvCell('-cmd|calc'), "'-cmd|calc");
    assert.equal(csvCell('-5'), '-5', 'a negative number is data');
    assert.equal(csvCell('-5 degrees'), "'-5 degrees", 'only a cell that is entirely a number may start with a sign');
    assert.equal(csvCell('=1+1', false), '=1+1', 'the guard can be turned off');
  });

  test('the CSV reads back to the same rows (BOM, header, CRLF, tricky text)', () => {
    const rows = [
      row({ text: 'Prices rose 41%, then fell', quote: 'He said "41 percent", twice' }),
      row({ text: '第一款车标称续航五百公里，实测只跑了三百一十公里。', speaker: '工程师', time: '0:15–0:27', item_title: '电动车冬季续航实测：零下十度掉电多少？' }),
      row({ text: 'two\nlines', quote: 'a\r\nb', line: null, grounded: false, file: '' }),
    ];
    const csv = markersToCsv(rows);
    assert.ok(csv.startsWith('\uFEFFitem,item_title,kind,text,topic,speaker,time,file,line,quote,'), 'BOM and header');
    assert.ok(csv.endsWith('\r\n'));
    const parsed = parseCsv(csv.slice(1));
    assert.deepEqual(parsed[0], [...MARKER_COLUMNS]);
    assert.equal(parsed.length, 4);
    assert.deepEqual(parsed.slice(1).map((r) => r[MARKER_COLUMNS.indexOf('text')]), rows.map((r) => r.text));
    assert.deepEqual(parsed.slice(1).map((r) => r[MARKER_COLUMNS.indexOf('quote')]), rows.map((r) => r.quote));
    assert.equal(parsed[2]![MARKER_COLUMNS.indexOf('speaker')], '工程师');
    assert.equal(parsed[3]![MARKER_COLUMNS.indexOf('line')], '');
    assert.ok(!markersToCsv(rows, { bom: false }).startsWith('\uFEFF'));
  });

  test('rows of the demo corpus: every marker, grounded in its file and line, speakers and comment authors', async () => {
    const corpus = await loadCorpus(DEMO);
    const markers = markersOf(corpus);
    const rows = markerRows(corpus, markers);
    assert.equal(rows.length, [...markers.values()].reduce((a, m) => a + allMarkers(m).length, 0));
    for (const r of rows.filter((x) => x.grounded)) {
      const original = await readFile(path.join(DEMO, r.file), 'utf8');
      const m = allMarkers(markers.get(r.item)!).find((x) => x.id === r.marker_id)!;
      const src = m.evidence[0]!.source;
      assert.equal(r.line, src.startLine + 1);
      assert.ok(sliceRange(original, src).replace(/\s+/g, ' ').length > 0, `${r.file}:${r.line} has text`);
      assert.ok(r.quote.length > 0);
    }
    const vtt = rows.find((r) => r.item === 'city-cycling-podcast' && r.part === 'transcript')!;
    assert.ok(vtt.speaker && /^\d+:\d\d(–\d+:\d\d)?$/.test(vtt.time), `speaker "${vtt.speaker}" time "${vtt.time}"`);
    const comment = rows.find((r) => r.part === 'comments' && r.speaker);
    assert.ok(comment, 'comment rows name their authors');
    assert.equal(comment.time, '', 'comments have no media time');
    const json = JSON.parse(markersToJson(rows)) as MarkerRow[];
    assert.deepEqual(json, rows);
    assert.ok(rows.some((r) => /\p{Script=Han}/u.test(r.text)), 'Chinese markers are exported');
  });

  test('the format follows the file name', () => {
    assert.equal(markersFormatOf('/x/out.CSV'), 'csv');
    assert.equal(markersFormatOf('out.json'), 'json');
    assert.equal(markersFormatOf('out.txt'), undefined);
    assert.equal(reportFormatOf('r.md'), 'md');
    assert.equal(reportFormatOf('r.HTML'), 'html');
    assert.equal(reportFormatOf('r.pdf'), undefined);
  });
});

describe('Markdown to HTML', () => {
  test('blocks and inlines; corpus text is escaped; unsafe links are dropped', () => {
    const html = markdownToHtml('# Title <b>\n\nA **bold** and _em_ `code<>` [site](https://example.com "t") [bad](javascript:alert(1))\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted <script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx < y\n```');
    assert.match(html, /<h1>Title &lt;b&gt;<\/h1>/);
    assert.match(html, /<strong>bold<\/strong> and <em>em<\/em> <code>code&lt;&gt;<\/code>/);
    assert.match(html, /<a href="https:\/\/example.com" title="t">site<\/a>/);
    assert.ok(!html.includes('javascript:'), 'no javascript: link');
    assert.match(html, /<ul><li>one<\/li><li>two<ul><li>nested<\/li><\/ul><\/li><\/ul>/);
    assert.match(html, /<ol><li>first<\/li><li>second<\/li><\/ol>/);
    assert.match(html, /<blockquote><p>quoted &lt;script&gt;<\/p><\/blockquote>/);
    assert.match(html, /<table><thead><tr><th>a<\/th><th>b<\/th><\/tr><\/thead><tbody><tr><td>1<\/td><td>2<\/td><\/tr><\/tbody><\/table>/);
    assert.match(html, /<pre><code>x &lt; y<\/code><\/pre>/);
    assert.ok(!/<script|<b>/.test(html));
    assert.equal(renderInline('snake_case_name and 2 * 3 * 4'), 'snake_case_name and 2 * 3 * 4', 'no emphasis inside words or around spaced operators');
    assert.equal(renderInline('\\*not em\\*'), '*not em*');
  });
});

describe('report export', () => {
  let corpus: Corpus;
  let sources: ReportSources;
  const report = [
    '# Research report: bike lanes <and> coffee',
    '',
    'Injuries fell [1], coffee rose [2][1]. Code `[3]` and a link [1](x) stay.',
    '',
    '```',
    'a fenced [2]',
    '```',
    '',
    '## Sources',
    '',
    '[1] city-cycling-podcast · transcript · city-cycling-podcast/transcript.vtt:L15',
    '[2] coffee-market-report · transcript · coffee-market-report/transcript.txt:L2',
    '',
  ].join('\n');

  before(async () => {
    corpus = await loadCorpus(DEMO);
    /** The span of the transcript segment of `item` whose text starts with `start`. */
    const segmentSpan = (item: string, start: string): SourceSpan => {
      const it = corpus.items.find((i) => i.id === item)!;
      const seg = it.transcript!.segments.find((x) => x.text.startsWith(start))!;
      return { source_id: 'S', item_id: item, part: 'transcript', start: seg.offset, end: seg.offset + seg.text.length, source: { ...seg.source, file: it.transcript!.file.relPath, ...(seg.start !== undefined ? { startTime: seg.start } : {}), ...(seg.end !== undefined ? { endTime: seg.end } : {}), ...(seg.speaker ? { speakers: [seg.speaker] } : {}) } };
    };
    sources = {
      citations: [
        { number: 1, span: segmentSpan('city-cycling-podcast', 'Reported cyclist injuries') },
        { number: 2, span: segmentSpan('coffee-market-report', 'Arabica futures') },
        { number: 3, span: { ...segmentSpan('city-cycling-podcast', 'Reported cyclist injuries'), source: { ...segmentSpan('city-cycling-podcast', 'Reported cyclist injuries').source, file: '../../etc/passwd' } } },
      ],
    };
  });

  test('the plain source list of the run is replaced; citations are found outside code and links', () => {
    assert.ok(!stripSourceList(report).includes('## Sources'));
    assert.equal(stripSourceList('# R\n\n## Sources\n\nsome prose, not a list\n'), '# R\n\n## Sources\n\nsome prose, not a list\n', 'a Sources section with prose is kept');
    const replaced = replaceCitations(report, (n, k) => `<${n}.${k}>`);
    assert.match(replaced, /Injuries fell <1\.1>, coffee rose <2\.1><1\.2>\. Code `\[3\]` and a link \[1\]\(x\) stay\./);
    assert.match(replaced, /a fenced \[2\]/, 'fenced code is left alone');
  });

  test('links: relative inside the corpus folder, file URIs outside it; never outside the corpus', () => {
    const s1 = sources.citations[0]!.span;
    assert.equal(defaultLinkStyle(DEMO, path.join(DEMO, 'exports', 'r.md')), 'relative');
    assert.equal(defaultLinkStyle(DEMO, '/tmp/r.md'), 'file');
    const rel = spanHref(DEMO, s1, path.join(DEMO, '.marker-research', 'runs', 'r1', 'report.preview.md'), 'relative')!;
    assert.match(rel, /^\.\.\/\.\.\/\.\.\/city-cycling-podcast\/transcript\.vtt#L\d+,\d+-L\d+,\d+$/);
    const uri = spanHref(DEMO, s1, '/tmp/r.md', 'file')!;
    assert.equal(fileURLToPath(uri.replace(/#.*$/, '')), path.join(DEMO, 'city-cycling-podcast', 'transcript.vtt'));
    assert.equal(spanHref(DEMO, sources.citations[2]!.span, '/tmp/r.md', 'file'), undefined, 'a source outside the corpus gets no link');
    assert.equal(spanHref('/c', { ...s1, source: { ...s1.source, file: 'a b/t.json' } }, '/c/out.md', 'relative'), `a%20b/t.json#L${s1.source.startLine + 1},${s1.source.startColumn + 1}-L${s1.source.endLine + 1},${s1.source.endColumn + 1}`);
    assert.equal(spanHref('/c', s1, '/c/out.md', 'relative', 'start'), `city-cycling-podcast/transcript.vtt#L${s1.source.startLine + 1},${s1.source.startColumn + 1}`);
  });

  test('Markdown: every [n] links to its span with the quote as title; an appendix lists each source', () => {
    const md = reportToMarkdown({ markdown: report, sources, corpusRoot: DEMO, corpus, outFile: path.join(DEMO, 'report.md') });
    const s1 = sources.citations[0]!.span.source;
    const frag = `#L${s1.startLine + 1},${s1.startColumn + 1}`; // the span's start: what VS Code's Markdown preview follows
    assert.ok(md.includes(`Injuries fell [\\[1\\]](<city-cycling-podcast/transcript.vtt${frag}> "`), md.split('\n')[2]);
    assert.match(md, /coffee rose \[\\\[2\\\]\]\(<coffee-market-report\/transcript\.txt#L2,1> "[^"]+"\)\[\\\[1\\\]\]/);
    assert.ok(md.includes('Code `[3]` and a link \\[1\\](x) stay.'), 'a link of the report is text');
    assert.equal(md.match(/^## Sources$/gm)?.length, 1, 'one appendix');
    assert.match(md, /^1\. <a id="source-1"><\/a>\*\*\[1\]\*\* Protected Bike Lanes: What the Data Says · .*0:\d\d.* · \[city-cycling-podcast\/transcript\.vtt:\d+\]\(<city-cycling-podcast\/transcript\.vtt#L/m);
    assert.match(md, /^ {3}> Reported cyclist injuries/m, 'the quoted span');
    assert.match(md, /^3\. <a id="source-3"><\/a>\*\*\[3\]\*\* Protected Bike Lanes: What the Data Says · .* · \.\.\/\.\.\/etc\/passwd:\d+$/m, 'no link outside the corpus');
  });

  test('HTML: an anchor per citation and per source, back links, links to the original files, escaped text', () => {
    const html = reportToHtml({ markdown: report, sources, corpusRoot: DEMO, corpus, outFile: path.join(DEMO, 'report.html') });
    assert.ok(html.startsWith('<!DOCTYPE html>') && html.includes('<meta charset="utf-8">'));
    assert.match(html, /<title>Research report: bike lanes &lt;and&gt; coffee<\/title>/);
    assert.match(html, /<a class="cite" id="cite-1-1" href="#source-1" title="[^"]*Reported cyclist injuries[^"]*">\[1\]<\/a>/);
    assert.match(html, /<a class="cite" id="cite-2-1" href="#source-2"[^>]*>\[2\]<\/a><a class="cite" id="cite-1-2" href="#source-1"/);
    assert.match(html, /<li id="source-1" value="1"><strong>Protected Bike Lanes: What the Data Says<\/strong>.*<a href="city-cycling-podcast\/transcript\.vtt#L\d+,\d+-L\d+,\d+">city-cycling-podcast\/transcript\.vtt:\d+<\/a><a class="back" href="#cite-1-1"[^>]*>↩<\/a><a class="back" href="#cite-1-2"[^>]*>↩2<\/a><blockquote>Reported cyclist injuries/);
    assert.ok(html.includes('<code>[3]</code>'), 'code spans stay code');
    assert.ok(!html.includes('<and>'), 'report text is escaped');
    assert.ok(!html.includes('etc/passwd#'), 'no link outside the corpus');
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(new Set(ids).size, ids.length, 'anchors are unique');
    for (const m of html.matchAll(/href="#([^"]+)"/g)) assert.ok(ids.includes(m[1]), `#${m[1]!} has an anchor`);
  });
});

describe('export files and the CLI (a real extractive run on a copy of the demo corpus)', () => {
  let root: string;
  let dir: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-export-'));
    dir = path.join(root, 'corpus');
    await cp(DEMO, dir, { recursive: true, filter: (src) => !src.includes('.marker-research') });
    const r = await runCli(['research', dir]);
    assert.equal(r.code, 0, r.err);
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('export --markers out.csv / out.json and --report latest out.html / out.md', async () => {
    const csv = path.join(root, 'markers.csv');
    const html = path.join(dir, 'exports', 'report.html');
    const r1 = await runCli(['export', dir, '--markers', csv, '--report', 'latest', html]);
    assert.equal(r1.code, 0, r1.err);
    assert.match(r1.out, /markers: \d+ markers of 5 items → /);
    assert.match(r1.out, /report: run \S+ \(\d+ citations\) → /);
    const rows = parseCsv((await readFile(csv, 'utf8')).slice(1));
    assert.ok(rows.length > 10 && rows.every((r) => r.length === MARKER_COLUMNS.length), 'every row has every column');
    const page = await readFile(html, 'utf8');
    const links = [...page.matchAll(/<li id="source-\d+"[^>]*>.*?<a href="([^"#]+)#L\d+/g)].map((m) => decodeURIComponent(m[1]!));
    assert.ok(links.length > 0);
    for (const l of links) assert.ok((await stat(path.resolve(path.dirname(html), l))).isFile(), `${l} resolves to an original file`);
    const json = path.join(root, 'markers.json');
    const md = path.join(root, 'report.md');
    const r2 = await runCli(['export', dir, '--markers', json, '--report', 'latest', md, '--links', 'file']);
    assert.equal(r2.code, 0, r2.err);
    assert.ok((JSON.parse(await readFile(json, 'utf8')) as unknown[]).length === rows.length - 1);
    assert.match(await readFile(md, 'utf8'), /\[\\\[1\\\]\]\(<file:\/\/\//);
  });

  test('usage and failures say what is wrong', async () => {
    assert.equal((await runCli(['export', dir])).code, 2);
    assert.equal((await runCli(['export', dir, '--report', 'latest'])).code, 2);
    const bad = await runCli(['export', dir, '--markers', path.join(root, 'm.txt')]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /export: "m\.txt": markers are exported as \.csv or \.json/);
    const none = await runCli(['export', dir, '--report', 'no-such-run', path.join(root, 'x.html')]);
    assert.equal(none.code, 1);
    assert.match(none.err, /export: no run "no-such-run"/);
  });

  test('the report preview is report.md with linked citations, next to it in the run folder', async () => {
    const corpus = await loadCorpus(dir);
    const run = await exportReportFile(corpus, 'latest', path.join(root, 'r.md'));
    const file = await writeReportPreview(corpus, run.runId);
    assert.equal(file, reportPreviewFile(dir, run.runId));
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/\]\(<(\.\.\/\.\.\/\.\.\/[^>#]+)#L/g)) assert.ok((await stat(path.resolve(path.dirname(file), decodeURIComponent(m[1]!)))).isFile(), m[1]);
    assert.match(text, /\[\\\[1\\\]\]\(<\.\.\/\.\.\/\.\.\//);
  });
});
