import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { citationHover, citationTarget, citedFile, findCitations, reportLocation, selectionFragment, sliceRange } from '../../src/core/research/citationLinks';
import type { SourceSpan } from '../../src/core/research/schema';

const ROOT = path.resolve('/corpus');

describe('report citations: parsing', () => {
  test('each number of [2][5] is a citation of its own, with its range', () => {
    const text = '# Report\n\nLanes cut injuries [2][5].\nSee [12] too.';
    assert.deepEqual(findCitations(text), [
      { number: 2, line: 2, start: 19, end: 22 },
      { number: 5, line: 2, start: 22, end: 25 },
      { number: 12, line: 3, start: 4, end: 8 },
    ]);
  });

  test('skips links, reference definitions, escapes, inline code, fenced code and [0]', () => {
    const text = [
      'A [link](https://x) and [3](y) are not citations; \\[4] neither; `[5]` neither; [0] neither.',
      '[6]: https://example.com',
      '```',
      'code [7]',
      '```',
      '~~~md',
      '[8]',
      '~~~',
      'but [9] is, and so is 中文[10]。',
    ].join('\n');
    assert.deepEqual(findCitations(text).map((c) => c.number), [9, 10]);
    const ten = findCitations(text).find((c) => c.number === 10)!;
    assert.equal(text.split('\n')[ten.line]!.slice(ten.start, ten.end), '[10]');
  });

  test('CRLF line endings keep the columns', () => {
    assert.deepEqual(findCitations('x\r\ny [1]\r\n'), [{ number: 1, line: 1, start: 2, end: 5 }]);
  });
});

describe('report citations: link targets', () => {
  const source = { file: 'city-cycling-podcast/transcript.vtt', startLine: 20, startColumn: 0, endLine: 21, endColumn: 12 };

  test('the target is the original file URI with a one-based selection fragment', () => {
    assert.equal(selectionFragment(source), 'L21,1-L22,13');
    const want = `${pathToFileURL(path.join(ROOT, 'city-cycling-podcast', 'transcript.vtt')).toString()}#L21,1-L22,13`;
    assert.equal(citationTarget(ROOT, source), want);
  });

  test('file names with spaces and CJK are URI-encoded', () => {
    const t = citationTarget(ROOT, { ...source, file: '电动车 test/transcript.json' })!;
    assert.match(t, /^file:\/\/\/.*%E7%94%B5.*%20test\/transcript\.json#L21,1-L22,13$/);
  });

  test('a cited path outside the corpus gets no link', () => {
    assert.equal(citationTarget(ROOT, { ...source, file: '../etc/passwd' }), undefined);
    assert.equal(citedFile(ROOT, '/etc/passwd'), undefined);
    assert.equal(citedFile(ROOT, ''), undefined);
  });

  test('a report is recognised by its place under .marker-research/runs/<id>/', () => {
    const file = path.join(ROOT, '.marker-research', 'runs', 'r-1', 'report.md');
    assert.deepEqual(reportLocation(file), { corpusRoot: ROOT, runId: 'r-1', runDir: path.dirname(file) });
    assert.equal(reportLocation(path.join(ROOT, 'notes', 'report.md')), undefined);
    assert.equal(reportLocation(path.join(ROOT, '.marker-research', 'runs', 'r-1', 'plan.md')), undefined);
  });
});

describe('report citations: hover', () => {
  test('slices the cited range out of the original text', () => {
    const text = 'line one\nline two is here\nline three';
    assert.equal(sliceRange(text, { startLine: 1, startColumn: 5, endLine: 1, endColumn: 8 }), 'two');
    assert.equal(sliceRange(text, { startLine: 0, startColumn: 5, endLine: 2, endColumn: 4 }), 'one\nline two is here\nline');
    assert.equal(sliceRange(text, { startLine: 9, startColumn: 0, endLine: 9, endColumn: 1 }), '');
  });

  test('shows title, file:lines, time, speakers and the quote, escaped', () => {
    const span: SourceSpan = {
      source_id: 'S1', item_id: 'city', part: 'transcript', start: 0, end: 10,
      source: { file: 'city/transcript.vtt', startLine: 20, startColumn: 0, endLine: 21, endColumn: 5, startTime: 62.5, endTime: 70, speakers: ['Daniel'] },
    };
    const md = citationHover(3, span, { title: 'Bike *lanes*', quote: 'Injuries fell [a](javascript:x) 40%' });
    assert.match(md, /^\*\*\[3\]\*\* Bike \\\*lanes\\\*/);
    assert.match(md, /`city\/transcript\.vtt:21-22` · transcript · 1:02–1:10 · Daniel/);
    assert.match(md, /^> Injuries fell \\\[a\\\]\(javascript\u2060:x\) 40%$/m);
  });
});
