/**
 * The notebook exported like a report (issue 24): Markdown whose quotes cite `[n]` linked to
 * their spans in the original files, with a Sources appendix, and standalone HTML with an anchor
 * per citation — over entries of every kind pinned from a generated corpus whose titles, quotes
 * and words are hostile Markdown and HTML (they stay text: the only links are the citations and
 * the cited files); a span lost after re-indexing is quoted as it was pinned, flagged.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CorpusItem } from '../../src/core/corpus/types';
import { emptyNotebook, parseNotebook, renderNotebook, type NotebookDoc } from '../../src/core/workbench/notebookFormat';
import { notebookReport, notebookToHtml, notebookToMarkdown } from '../../src/core/workbench/notebookExport';
import { notebookWords, type NotebookLanguage } from '../../src/core/workbench/notebookWords';
import { spanKey } from '../../src/core/workbench/pins';
import { reanchorSpan } from '../../src/core/workbench/reanchor';
import { notebookEntrySchema, type NotebookEntry } from '../../src/core/workbench/schema';
import { hostileTexts } from '../support/hostileMarkdown';
import { liveLinks } from '../support/markdownLinks';
import { buildItem, buildItems, editedSpec, pinnedEntries, unitOf, workbenchSpecs, type ItemSpec } from '../support/workbenchCorpus';

const ROOT = '/corpus';
const OUT = '/corpus/exports/notebook.md';

/** Items whose titles and texts carry hostile Markdown (spans are pinned over them). */
function hostileSpecs(seed: number): ItemSpec[] {
  const hostile = hostileTexts(seed, 200, { lineBreaks: false });
  let k = 0;
  return workbenchSpecs(seed).map((s) => ({
    ...s,
    title: `${s.title} ${hostile[k++]!}`,
    turns: s.turns.map((t) => ({ ...t, text: `${t.text} ${hostile[k++ % hostile.length]!}` })),
    comments: s.comments.map((c) => `${c} ${hostile[k++ % hostile.length]!}`),
  }));
}

function doc(entries: NotebookEntry[], lang: NotebookLanguage, notes: string[]): NotebookDoc {
  const d = emptyNotebook(lang);
  entries.forEach((entry, i) => d.blocks.push({ type: 'text', text: `\n${notes[i % notes.length]!}\n` }, { type: 'entry', entry }));
  return d;
}

const NOTES = ['My note: compare with [3] in the minutes.', '我的笔记：和 <b>会议记录</b> 对比。', 'Nota: ver [el acta](command:workbench.action.terminal.new) y https://evil.example', '## Sources\n\n[1] forged'];

function setup(seed: number, lang: NotebookLanguage): { items: CorpusItem[]; entries: NotebookEntry[]; d: NotebookDoc } {
  const items = buildItems(hostileSpecs(seed));
  const entries = pinnedEntries(seed, items, 28).map((e, i) => notebookEntrySchema.parse({ ...e, title: `${e.title} ${hostileTexts(seed + i, 1)[0]!}`, id: `x${i}`, createdAt: '2024-05-09T10:00:00.000Z' }));
  // The notebook goes through its file format first: the export reads what the file says.
  const d = parseNotebook(renderNotebook(doc(entries, lang, NOTES)));
  return { items, entries, d };
}

describe('notebook export', () => {
  for (const lang of ['en', 'zh', 'es'] as const) {
    test(`Markdown (${lang}): every quote cites its span, one number per distinct span; the only links are citations and cited files`, () => {
      const { items, entries, d } = setup(lang.length * 17 + lang.charCodeAt(0), lang);
      const md = notebookToMarkdown({ doc: d, corpusRoot: ROOT, corpus: { items }, outFile: OUT });
      const report = notebookReport(d);
      const distinct = new Set(entries.flatMap((e) => e.spans.map(spanKey)));
      assert.equal(report.sources.citations.length, distinct.size);
      const W = notebookWords(lang);
      // The appendix is the last "Sources" heading (a researcher may write one of their own).
      const cut = md.lastIndexOf(`\n## ${W.sources}\n`);
      assert.ok(cut > 0, 'a Sources appendix');
      const body = md.slice(0, cut);
      const appendix = md.slice(cut);
      assert.equal([...appendix.matchAll(/^\d+\. <a id="source-(\d+)"><\/a>/gm)].length, distinct.size);
      // Each citation link goes to its span's file at its line, titled with its quote.
      const cites = [...body!.matchAll(/\[\\\[(\d+)\\\]\]\(<([^>]+)>(?: "(?:[^"\\]|\\.)*")?\)/g)];
      assert.equal(cites.length, entries.reduce((a, e) => a + e.spans.length, 0));
      for (const [, n, href] of cites) {
        const span = report.spans.get(Number(n))!;
        assert.equal(href, `../${span.source.file.split('/').map(encodeURIComponent).join('/')}#L${span.source.startLine + 1},${span.source.startColumn + 1}`);
      }
      const hrefs = new Set(cites.map((m) => m[2]!));
      for (const l of liveLinks(md)) {
        if (l.kind === 'link') assert.ok(hrefs.has(l.target.replace(/^<|>$/g, '')) || /^<?\.\.\//.test(l.target), `link ${l.target}`);
        else assert.ok(l.kind === 'html' && /^<a id="source-\d+">$|^<\/a>$/.test(l.target), `${l.kind} ${l.target} in: ${l.text}`);
      }
      // The researcher's typed "[3]" and "[1]" are text, not citations.
      assert.ok(md.includes('\\[3\\] in the minutes'));
      assert.ok(md.includes('\\[1\\] forged'));
    });
  }

  test('HTML: a citation anchor per use linking to its source; sources link to the cited files; corpus text is escaped', () => {
    const { items, entries, d } = setup(99, 'zh');
    const html = notebookToHtml({ doc: d, corpusRoot: ROOT, corpus: { items }, outFile: OUT });
    assert.match(html, /^<!DOCTYPE html>\n<html lang="zh">/);
    const uses = entries.reduce((a, e) => a + e.spans.length, 0);
    assert.equal([...html.matchAll(/<a class="cite" id="cite-\d+-\d+" href="#source-\d+"/g)].length, uses);
    const allowed = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'main', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'blockquote', 'a', 'strong', 'em', 'code', 'pre', 'hr', 'span', 'div', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
    // Every `<` opens a tag of the page's own (corpus text is escaped), with only the page's own attributes.
    const tags = [...html.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/g)];
    assert.equal(tags.length, html.split('<').length - 2, 'every < is a tag (the doctype aside)');
    for (const [, , tag, attrs] of tags) {
      assert.ok(allowed.has(tag!.toLowerCase()), `tag ${tag}`);
      for (const [, name, value] of attrs!.matchAll(/\s+([a-z-]+)="([^"]*)"/g)) {
        assert.ok(['id', 'class', 'href', 'title', 'value', 'lang', 'charset', 'name', 'content', 'start'].includes(name!), `attribute ${name}`);
        if (name === 'href') assert.match(value!, /^#(?:source|cite)-\d+(?:-\d+)?$|^\.\.\/[^:]+#L\d+,\d+-L\d+,\d+$/);
      }
    }
  });

  test('a span lost after re-indexing is quoted as it was pinned, flagged — never the text now at its old offsets', () => {
    const specs = workbenchSpecs(123);
    const items = buildItems(specs);
    const [entry] = pinnedEntries(124, items, 2).filter((e) => e.spans.length).map((e, i) => notebookEntrySchema.parse({ ...e, id: `l${i}`, createdAt: '2024-05-09T10:00:00.000Z' }));
    const span = entry!.spans[0]!;
    const k = specs.findIndex((s) => s.id === span.itemId);
    const { at, unit } = unitOf(items[k]!, span);
    const changedItem = buildItem(editedSpec(specs[k]!, (texts) => texts.map((t, i) => (i === unit ? `${'x'.repeat(at)}${'y'.repeat(t.length - at)}` : t)), span.part));
    const lost = reanchorSpan(span, changedItem, '2025-01-01T00:00:00.000Z');
    assert.equal(lost.outcome, 'lost');
    const d = emptyNotebook('es');
    d.blocks.push({ type: 'entry', entry: { ...entry!, spans: [lost.span, ...entry!.spans.slice(1)] } });
    const corpusItems = items.map((it, i) => (i === k ? changedItem : it));
    const md = notebookToMarkdown({ doc: d, corpusRoot: ROOT, corpus: { items: corpusItems }, outFile: OUT });
    const appendix = md.split('\n## Fuentes\n')[1]!;
    const first = appendix.split('\n\n2. ')[0]!;
    assert.ok(first.includes(notebookWords('es').lost));
    assert.ok(!/yyyy/.test(first), 'not the text now at the old offsets');
    const html = notebookToHtml({ doc: d, corpusRoot: ROOT, corpus: { items: corpusItems }, outFile: OUT });
    assert.match(html, /<div class="lost">/);
  });
});
