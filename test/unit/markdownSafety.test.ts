/**
 * Untrusted Markdown never reaches a report as markup (issue 19, class 1; and the CSV formula
 * guard of class 7). Hostile texts are GENERATED from parts (every link and autolink form, bare
 * URLs of many schemes, images, HTML and entities, fences, line breaks followed by `## Sources`
 * and forged `[1]` lines, backticks) and go through each escaper, the reducer of model Markdown,
 * and a real extractive research run on a corpus whose folder names, titles, speakers, transcript
 * lines and comments are hostile — then report.md, report.preview.md, the Markdown and HTML
 * exports, and the engine's document links and hovers are searched with a link detector that
 * mirrors VS Code's editor link computer and CommonMark/linkify/GFM: no link other than the
 * project's own citations and no HTML survives, and escaped text reads as the original.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { csvCell } from '../../src/core/export/csvCell';
import { exportReportFile, writeReportPreview } from '../../src/core/export/exportFiles';
import { exportedSources } from '../../src/core/export/reportExport';
import { generateMarkers } from '../../src/core/markers/generate';
import { citationHover, findCitations } from '../../src/core/research/citationLinks';
import { resolveCitations } from '../../src/core/research/citations';
import { readRun, runResearch } from '../../src/core/research/pipeline';
import { MarkdownReducer, reduceMarkdown } from '../../src/core/text/markdownReduce';
import { hoverText, markdownCode, markdownText } from '../../src/core/text/markdownSafe';
import { settingsSchema } from '../../src/shared/settings';
import { indexRequest, readableDocumentRequest } from '../../src/shared/lspProtocol';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { hostileNames, hostileTexts } from '../support/hostileMarkdown';
import { fencedLines, liveLinks, unescapeMarkdown, type LiveLink } from '../support/markdownLinks';
import { rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/g;

/** What a reader finds live, as lines to print when a check fails. */
const show = (found: readonly LiveLink[]): string => found.map((f) => `${f.kind} ${JSON.stringify(f.target)} in ${JSON.stringify(f.text.slice(0, 160))}`).join('\n');

/** `md` with our own link targets blanked out (what may stay a link), so the detector sees only the rest. */
function withoutOwn(md: string, own: readonly string[]): string {
  let out = md;
  for (const href of own) out = out.split(href).join(' '.repeat(href.length));
  return out;
}

describe('the link detector (a check of the check)', () => {
  test('finds every form the issue found, raw, and most generated hostile texts', () => {
    for (const raw of ['[free bike](command:workbench.action.terminal.new)', '<img src=x onerror=alert(1)>', 'a `b` [1]: command:evil', '<command:x>', 'https://evil.example', 'see www.evil.example', 'mail evil@example.com', '//evil.example/p', 'file:///etc/passwd', '![i](https://e.x/p.png)', '```\nhttps://in.code\n```']) {
      assert.ok(liveLinks(raw).length > 0, raw);
    }
    const texts = hostileTexts(19_000, 400);
    const live = texts.filter((s) => liveLinks(s).length > 0).length;
    assert.ok(live > texts.length * 0.6, `${live} of ${texts.length} raw texts hold something live`);
  });
});

describe('markdownText: untrusted text in a Markdown document', () => {
  const texts = hostileTexts(19_001, 600);

  test('no link, autolink, image, HTML or bare URL survives, in any place of a line', () => {
    for (const s of texts) {
      const t = markdownText(s);
      assert.doesNotMatch(t, LINE_BREAKS, 'one line');
      for (const doc of [t, `- ${t}`, `## ${t}`, `> ${t}`, `1. ${t} [2]`, `text ${t}`, `**${t}**`, `_Goal: ${t}_`]) {
        const found = liveLinks(doc);
        assert.deepEqual(found, [], `${JSON.stringify(s)}\n${show(found)}`);
        assert.ok(!fencedLines(`${doc}\nafter`)[1], `no fence opens: ${JSON.stringify(s)}`);
      }
      // A bracket of the corpus is never a citation.
      assert.deepEqual(findCitations(`x ${t}`), [], JSON.stringify(s));
    }
  });

  test('reads as the original: unescaping gives back every character (line breaks as spaces)', () => {
    for (const s of texts) assert.equal(unescapeMarkdown(markdownText(s)), s.replace(LINE_BREAKS, ' '), JSON.stringify(s));
  });

  test('a name with a line break and a forged Sources list stays one line of text', () => {
    for (const name of hostileNames(19_002, 200)) {
      const doc = `# Report\n\n- finding [1]\n\n## Sources\n\n[1] ${markdownText(name)} — transcript · ${markdownText(`${name}/transcript.json`)}:L1\n`;
      assert.equal(doc.split('\n').length, 8, JSON.stringify(name));
      assert.equal(doc.match(/^## Sources$/gm)?.length, 1);
      assert.deepEqual(findCitations(doc).map((c) => c.number), [1, 1], JSON.stringify(name));
      assert.deepEqual(liveLinks(doc), []);
    }
  });
});

describe('hoverText and markdownCode: untrusted text in a hover', () => {
  const texts = hostileTexts(19_003, 600);

  test('a hover quote or title: no link, HTML or bare URL; every line stays in the quote; reads as the original', () => {
    for (const s of texts) {
      const h = hoverText(s);
      const doc = `**[1]** ${h}\n\n> ${h}`;
      const found = liveLinks(doc, { editor: false });
      assert.deepEqual(found, [], `${JSON.stringify(s)}\n${show(found)}`);
      assert.ok(fencedLines(doc).every((f) => !f), 'no fence');
      for (const line of h.split('\n')) assert.ok(line.trim() !== '', 'no blank line ends the quote');
      const back = h.replace(/\\([!-/:-@[-`{-~])|\\\n/g, (_m, c: string | undefined) => c ?? '\n').replace(/\u2060/g, '');
      assert.equal(back, s.replace(/[ \t]*(?:(?:\r\n|[\r\n\u0085\u2028\u2029])[ \t]*)+$/, '').replace(LINE_BREAKS, '\n'), JSON.stringify(s));
    }
  });

  test('a path as a code span: one span whatever its backticks, nothing live, the text kept', () => {
    for (const s of texts) {
      const c = markdownCode(s);
      const found = liveLinks(`\`x\` · ${c} · transcript`);
      assert.deepEqual(found, [], `${JSON.stringify(s)}\n${show(found)}`);
      const fence = /^`+/.exec(c)![0];
      assert.ok(c.endsWith(fence) && !c.slice(fence.length, -fence.length).includes(fence), JSON.stringify(c));
      assert.equal(c.slice(fence.length, -fence.length).replace(/\u2060/g, '').replace(/^ (.*) $/s, '$1'), s.replace(LINE_BREAKS, ' '));
    }
  });

  test('the citation hover: title, speakers, comment ids, path and quote of the corpus stay text', () => {
    const r = rng(19_004);
    const parts = hostileTexts(19_005, 400);
    for (let k = 0; k < 200; k++) {
      const p = (): string => parts[Math.floor(r() * parts.length)]!;
      const span = { source_id: 'S1', item_id: p(), part: 'comments' as const, start: 0, end: 5, source: { file: `${p()}/comments.json`, startLine: 2, startColumn: 0, endLine: 3, endColumn: 4, speakers: [p(), p()], commentIds: [p()] } };
      const hover = citationHover(1 + k, span, { title: p(), location: p(), quote: p() });
      const found = liveLinks(hover, { editor: false });
      assert.deepEqual(found, [], `${hover}\n${show(found)}`);
      assert.ok(fencedLines(hover).every((f) => !f));
    }
  });
});

describe('reduceMarkdown: model-written Markdown reduced to the safe subset', () => {
  const isCitation = (s: string): boolean => /^S\d+$/.test(s);
  const texts = hostileTexts(19_006, 600).map((s) => `Claim [S3] holds. ${s}`);

  test('no link, image, autolink, HTML, definition or bare URL survives; the citation does', () => {
    for (const s of texts) {
      const out = reduceMarkdown(s, { isCitation });
      const found = liveLinks(out);
      assert.deepEqual(found, [], `${JSON.stringify(s)}\n---\n${out}\n${show(found)}`);
      assert.ok(out.split('\n')[0]!.startsWith('Claim [S3] holds.'), out);
    }
  });

  test('every fence is closed and no heading poses as the report\'s: what is appended after the model text (the Sources) is outside code', () => {
    for (const s of texts) {
      const doc = `${reduceMarkdown(s, { isCitation, minHeading: 3 })}\n\n## Sources\n\n[1] a source`;
      const fenced = fencedLines(doc);
      assert.ok(!fenced.at(-1) && !fenced.at(-3), `${JSON.stringify(s)}\n---\n${doc}`);
      assert.deepEqual(doc.split('\n').filter((l, i) => !fenced[i] && /^#{1,2} /.test(l)), ['## Sources'], JSON.stringify(s));
    }
  });

  test('reducing again changes nothing (the report is reduced once more when exported)', () => {
    for (const s of texts) {
      const once = reduceMarkdown(s, { isCitation });
      assert.equal(reduceMarkdown(once, { isCitation }), once, JSON.stringify(s));
    }
  });

  test('streamed in pieces of any size, the reduction is the same', () => {
    const r = rng(19_007);
    for (const s of texts.slice(0, 200)) {
      const whole = reduceMarkdown(s, { isCitation });
      const red = new MarkdownReducer({ isCitation });
      let out = '';
      for (let i = 0; i < s.length; ) {
        const n = 1 + Math.floor(r() * 9);
        out += red.push(s.slice(i, i + n));
        i += n;
      }
      out += red.end();
      assert.equal(out, whole, JSON.stringify(s));
    }
  });

  test('resolving citations leaves the text as written (only the space of a removed citation is tidied)', () => {
    for (const s of hostileTexts(19_008, 300, { lineBreaks: false })) {
      const t = markdownText(s);
      const md = `A ${t} [S9] : and ${t} [S1].`;
      const r = resolveCitations(md, (id) => (id === 'S1' ? { source_id: 'S1', item_id: 'i', part: 'transcript', start: 0, end: 1, source: { file: 'i/t.txt', startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 } } : undefined));
      assert.equal(r.markdown, `A ${t}: and ${t} [1].`, JSON.stringify(s));
      assert.deepEqual(liveLinks(r.markdown), []);
    }
  });
});

describe('CSV: a cell a spreadsheet would run is text', () => {
  test('generated cells: formula starts are guarded unless the whole cell is a plain number', () => {
    const starts = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠', ' =', ' -'];
    const bodies = ["1+cmd|' /C calc'!A0", '1+HYPERLINK("http://evil.example","x")', 'SUM(A1:A9)', '5 degrees', '2+3', '12.5', 'cmd', '', '1e3', '.5'];
    const numbers = ['-12.5', '+3', '-0', '-.5', '+1e3', '-2E-4', '12', '0.75'];
    const r = rng(19_009);
    const parse = (cell: string): string => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
    for (let k = 0; k < 400; k++) {
      const s = `${starts[Math.floor(r() * starts.length)]!}${bodies[Math.floor(r() * bodies.length)]!}`;
      const plain = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(s);
      const back = parse(csvCell(s));
      assert.equal(back, plain ? s : `'${s}`, JSON.stringify(s));
    }
    for (const n of numbers) assert.equal(csvCell(n), n, `${n} is a number`);
    for (const s of ["-1+cmd|' /C calc'!A0", '-1+HYPERLINK("http://x")', '+1 great video']) assert.ok(parse(csvCell(s)).startsWith("'"), s);
  });
});

describe('a research run on a hostile corpus (extractive): report, preview, exports, links and hovers', () => {
  let work: string;
  let corpus: Corpus;
  let runDir: string;
  let runId: string;
  let engine: EngineConnection | undefined;
  const names = hostileNames(19_010, 6);
  const lines = hostileTexts(19_011, 60, { lineBreaks: false });

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-md-safety-'));
    const root = path.join(work, 'corpus');
    const sentence = (i: number): string => `Protected bike lanes cut cyclist injuries by ${20 + i} percent on the corridor, ${lines[i % lines.length]!} and shops kept their customers.`;
    for (const [k, name] of names.entries()) {
      const dir = path.join(root, name);
      await mkdir(dir, { recursive: true });
      const turns = Array.from({ length: 8 }, (_, i) => ({ speaker: lines[(k * 8 + i + 3) % lines.length]!.slice(0, 30), text: sentence(k * 8 + i), start: i * 10, end: i * 10 + 9 }));
      await writeFile(path.join(dir, 'transcript.json'), JSON.stringify({ turns }));
      const comments = Array.from({ length: 4 }, (_, i) => JSON.stringify({ comment_id: `c${i}`, author: lines[(k + i) % lines.length]!.slice(0, 40), text: `Bike lanes made my commute safer: ${lines[(k * 4 + i + 7) % lines.length]!}`, likes: 10 * i }));
      await writeFile(path.join(dir, 'comments.jsonl'), `${comments.join('\n')}\n`);
      await writeFile(path.join(dir, 'meta.json'), JSON.stringify({ title: `${lines[k]!} ${name}` }));
    }
    corpus = await loadCorpus(root);
    assert.equal(corpus.items.length, names.length, 'every hostile folder is an item');
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    const goal = `bike lanes and injuries ${lines[1]!}`;
    const result = await runResearch({ corpus, engine: 'extractive', promptsDir: PROMPTS }, { goal, complexity: 'medium' });
    runDir = result.runDir;
    runId = result.runId;
  });

  after(async () => {
    await engine?.close();
    await rm(work, { recursive: true, force: true });
  });

  test('report.md: corpus text is in it, as text; no link and no HTML; the Sources list is intact', async () => {
    const report = await readFile(path.join(runDir, 'report.md'), 'utf8');
    const run = await readRun(corpus.root, runId);
    const n = run.sources!.citations.length;
    assert.ok(n >= 3, `the report cites ${n} spans`);
    const found = liveLinks(report);
    assert.deepEqual(found, [], show(found));
    assert.ok((report.match(/\u2060/g) ?? []).length >= 3, 'hostile URLs of the corpus reached the report (broken)');
    assert.equal(report.match(/^## Sources$/gm)?.length, 1, 'one Sources heading');
    const list = report.slice(report.indexOf('\n## Sources\n'));
    assert.equal(list.split('\n').filter((l) => /^\[\d+\] /.test(l)).length, n, 'one line per source, none forged');
    assert.ok(!fencedLines(report).at(-2), 'the Sources list is not swallowed by a fence');
    assert.deepEqual([...new Set(findCitations(report).map((c) => c.number))].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i + 1), 'the citations are exactly the sources');
  });

  test('report.preview.md and the Markdown export: the only links are the citations and the appendix links to the cited files', async () => {
    const preview = await writeReportPreview(corpus, runId);
    const out = path.join(work, 'export.md');
    await exportReportFile(corpus, runId, out, { links: 'file' });
    const run = await readRun(corpus.root, runId);
    for (const [file, links] of [[preview, 'relative'], [out, 'file']] as const) {
      const md = await readFile(file, 'utf8');
      const own = exportedSources({ markdown: run.report!, sources: run.sources!, corpusRoot: corpus.root, corpus, outFile: file, links }, 'start')
        .concat(exportedSources({ markdown: run.report!, sources: run.sources!, corpusRoot: corpus.root, corpus, outFile: file, links }, 'range'))
        .map((s) => s.href!)
        .filter(Boolean);
      assert.ok(own.length > 0);
      const found = liveLinks(withoutOwn(md, own)).filter((f) => !(f.kind === 'link' && f.target.trim() === '') && !(f.kind === 'html' && /^<a id="source-\d+"><\/a>?$|^<\/a>$|^<a id="source-\d+">$/.test(f.target)));
      assert.deepEqual(found, [], `${file}\n${show(found)}`);
      const targets = liveLinks(md).filter((f) => f.kind === 'link').map((f) => f.target);
      for (const t of targets) assert.ok(own.includes(t), `${file}: a link to ${t} is not ours`);
      assert.equal(md.match(/^## Sources$/gm)?.length, 1, `${file}: one appendix`);
    }
  });

  test('the HTML export: every href is an anchor of the page or a cited file', async () => {
    const out = path.join(work, 'export.html');
    await exportReportFile(corpus, runId, out);
    const html = await readFile(out, 'utf8');
    const tags = [...html.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1]!.toLowerCase());
    assert.deepEqual([...new Set(tags)].filter((t) => !['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'h1', 'h2', 'h3', 'p', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'code', 'pre', 'blockquote', 'span', 'hr'].includes(t)), []);
    for (const m of html.matchAll(/href="([^"]*)"/g)) assert.match(m[1]!, /^#(?:source|cite)-\d+(?:-\d+)?$|^file:\/\/|^[^:]*$/, `href ${m[1]!}`);
    assert.doesNotMatch(html, /<(?:img|script|details|div)\b/i);
  });

  test('the engine: document links only to the evidence command, hovers and tooltips with nothing live', async () => {
    engine = await startEngine();
    await engine.client.sendRequest(indexRequest.method, { root: corpus.root, settings: settingsSchema.parse({}) });
    const file = path.join(runDir, 'report.md');
    const uri = pathToFileURL(file).toString();
    const text = await readFile(file, 'utf8');
    await engine.client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
    const links = (await engine.client.sendRequest('textDocument/documentLink', { textDocument: { uri } })) as { range: { start: { line: number; character: number } }; target: string; tooltip: string }[];
    assert.equal(links.length, findCitations(text).length, 'one link per citation');
    for (const l of links) {
      assert.match(l.target, /^command:markerResearch\.openEvidence\?/);
      // VS Code shows the tooltip as the label of a link in a trusted hover, escaping only `]` that has no backslash before it.
      const label = l.tooltip.replace(/(?<!\\)\]/g, '\\]');
      const hover = liveLinks(`[${label}](${l.target}) (ctrl + click)`, { editor: false });
      assert.deepEqual(hover.map((f) => f.target), [l.target], `tooltip ${JSON.stringify(l.tooltip)}\n${show(hover)}`);
      const h = (await engine.client.sendRequest('textDocument/hover', { textDocument: { uri }, position: l.range.start })) as { contents: { value: string } } | null;
      assert.ok(h, 'a hover on every citation');
      const found = liveLinks(h.contents.value, { editor: false });
      assert.deepEqual(found, [], `${h.contents.value}\n${show(found)}`);
    }
    // The readable view of each hostile item: its header links' tooltips are labels of trusted hovers too.
    for (const item of corpus.items) {
      const doc = (await engine.client.sendRequest(readableDocumentRequest.method, { itemId: item.id })) as { links: { tooltip: string }[] } | null;
      for (const l of doc?.links ?? []) {
        const label = l.tooltip.replace(/(?<!\\)\]/g, '\\]');
        const found = liveLinks(`[${label}](command:markerResearch.openOriginal?x)`, { editor: false });
        assert.deepEqual(found.map((f) => f.target), ['command:markerResearch.openOriginal?x'], `tooltip ${JSON.stringify(l.tooltip)}`);
      }
    }
  });
});
