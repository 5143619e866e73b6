/**
 * Report citations in the editor (issue 10), the details test/unit/citations.test.ts leaves open:
 * which brackets count as citations (fences, indentation, escapes, inline code), the exact
 * ranges, the link fragment, where a report lives, and the hover (labels, times, comment ids,
 * quote length, escaping of untrusted corpus text). Citation resolution in the report text
 * (`resolveCitations`) is checked here too: every number resolves, nothing dangles.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { citationHover, citationTarget, citedFile, findCitations, linesLabel, reportLocation, RUNS_DIR, selectionFragment, sliceRange } from '../../src/core/research/citationLinks';
import { hoverText } from '../../src/core/text/markdownSafe';
import { citedNumbers, resolveCitations } from '../../src/core/research/citations';
import type { SourceSpan } from '../../src/core/research/schema';
import type { Logger } from '../../src/core/util/log';

/** A logger that keeps every line, `level message` (test/support/testing.ts has one too, but loads the CLI). */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: (m) => lines.push(`debug ${m}`), info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

const ROOT = path.resolve('/corpus');

describe('findCitations', () => {
  test('ranges are exact: line, start at "[", end after "]"', () => {
    assert.deepEqual(findCitations('[1] a [22]\n\n  b[333]'), [
      { number: 1, line: 0, start: 0, end: 3 },
      { number: 22, line: 0, start: 6, end: 10 },
      { number: 333, line: 2, start: 3, end: 8 },
    ]);
  });

  test('a fence closes only with its own character; up to three spaces of indentation open one', () => {
    const text = ['   ```', '[1]', '~~~', '[2]', '```', '[3]', '    ```', '[4]'].join('\n');
    // "~~~" inside a ``` fence does not close it; an indented-by-4 line is not a fence.
    assert.deepEqual(findCitations(text).map((c) => c.number), [3, 4]);
    assert.deepEqual(findCitations(['~~~~', '[1]', '```', '[2]', '~~~~', '[3]'].join('\n')).map((c) => c.number), [3]);
    // CommonMark: a closing fence is at least as long as the opening one, with nothing after it.
    assert.deepEqual(findCitations(['~~~~', '[1]', '~~~', '[2]', '~~~~ x', '[3]', '~~~~~', '[4]'].join('\n')).map((c) => c.number), [4]);
  });

  test('a fence needs three backticks or tildes; one tilde starts no fence', () => {
    assert.deepEqual(findCitations('~5 minutes [1]\n[2]').map((c) => c.number), [1, 2]);
    assert.deepEqual(findCitations('~~ not a fence [1]\n[2]').map((c) => c.number), [1, 2]);
  });

  test('reference definitions need the colon right after the bracket, at most three spaces in', () => {
    assert.deepEqual(findCitations('[1]: http://x').length, 0);
    assert.deepEqual(findCitations('   [2]: http://x').length, 0);
    assert.deepEqual(findCitations('    [3]: code').map((c) => c.number), [3]);
    assert.deepEqual(findCitations('[4] : not a definition').map((c) => c.number), [4]);
    assert.deepEqual(findCitations('[12]: http://x\n[123]: y').length, 0);
  });

  test('inline code hides citations only inside it; an escaped bracket or a link target does not count', () => {
    const line = 'a `x [1] y` b [2] ``[3]`` c \\[4] d [5](u) e [6]';
    assert.deepEqual(findCitations(line).map((c) => [c.number, c.start]), [[2, 14], [6, line.lastIndexOf('[6]')]]);
    assert.deepEqual(findCitations('`[1]`[2]').map((c) => c.number), [2]);
    assert.deepEqual(findCitations('[1]`code`').map((c) => c.number), [1]);
  });

  test('numbers of one to six digits, not zero', () => {
    assert.deepEqual(findCitations('[0] [00] [7] [123456] [1234567]').map((c) => c.number), [7, 123456]);
  });
});

describe('link targets and report locations', () => {
  test('the fragment is one-based', () => {
    assert.equal(selectionFragment({ startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 }), 'L1,1-L1,1');
    assert.equal(selectionFragment({ startLine: 4, startColumn: 9, endLine: 6, endColumn: 2 }), 'L5,10-L7,3');
  });

  test('files inside the corpus get a file URI; the corpus folder itself and anything outside none', () => {
    assert.equal(citedFile(ROOT, 'a/b.txt'), path.join(ROOT, 'a', 'b.txt'));
    assert.equal(citedFile(ROOT, '.'), undefined);
    assert.equal(citedFile(ROOT, 'a/../../x'), undefined);
    assert.equal(citationTarget(ROOT, { file: '../x', startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 }), undefined);
    assert.match(citationTarget(ROOT, { file: 'a/b.txt', startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 })!, /^file:\/\/\/(.*\/)?corpus\/a\/b\.txt#L1,1-L1,2$/);
  });

  test('a report is report.md directly in a run folder of runs/ of .marker-research', () => {
    assert.equal(RUNS_DIR, path.join('.marker-research', 'runs'));
    const file = path.join(ROOT, '.marker-research', 'runs', 'r1', 'report.md');
    assert.deepEqual(reportLocation(file), { corpusRoot: ROOT, runId: 'r1', runDir: path.join(ROOT, '.marker-research', 'runs', 'r1') });
    assert.equal(reportLocation(path.join(ROOT, 'marker-research', 'runs', 'r1', 'report.md')), undefined);
    assert.equal(reportLocation(path.join(ROOT, '.marker-research', 'run', 'r1', 'report.md')), undefined);
    assert.equal(reportLocation(path.join(ROOT, '.marker-research', 'runs', 'report.md')), undefined);
  });
});

describe('hover', () => {
  const span = (source: Partial<SourceSpan['source']> = {}, part: SourceSpan['part'] = 'transcript'): SourceSpan => ({
    source_id: 'S1',
    item_id: 'city_pod',
    part,
    start: 0,
    end: 10,
    source: { file: 'city/transcript.vtt', startLine: 3, startColumn: 0, endLine: 3, endColumn: 5, ...source },
  });

  test('one line or a line range; the item id (escaped) when there is no title', () => {
    assert.equal(linesLabel({ file: 'f.txt', startLine: 3, endLine: 3 }), 'f.txt:4');
    assert.equal(linesLabel({ file: 'f.txt', startLine: 3, endLine: 5 }), 'f.txt:4-6');
    assert.equal(citationHover(2, span()), '**[2]** city_pod\n\n`city/transcript.vtt:4` · transcript');
  });

  test('times: a range when the end is later, the start alone otherwise; comment ids and speakers escaped', () => {
    assert.match(citationHover(1, span({ startTime: 5, endTime: 65 })), / · 0:05–1:05$/);
    assert.match(citationHover(1, span({ startTime: 5, endTime: 5 })), / · 0:05$/);
    assert.match(citationHover(1, span({ startTime: 5 })), / · 0:05$/);
    assert.match(citationHover(1, span({ startTime: 0, endTime: 3 })), / · 0:00–0:03$/);
    assert.equal(citationHover(1, span({ speakers: ['A_b', 'C'], commentIds: ['c*1', 'c2'] }, 'comments')).split('\n')[2], '`city/transcript.vtt:4` · comments · A_b, C · comment c\\*1, c2');
    assert.equal(citationHover(1, span({ speakers: [], commentIds: [] })).split('\n')[2], '`city/transcript.vtt:4` · transcript');
  });

  test('the quote: trimmed, every line quoted and escaped, cut at the maximum with an ellipsis', () => {
    const h = citationHover(1, span(), { quote: '  first *line*\r\nsecond  ' });
    assert.deepEqual(h.split('\n').slice(3), ['', '> first \\*line\\*', '> second']);
    assert.deepEqual(citationHover(1, span(), { quote: 'one\ntwo' }).split('\n').slice(4), ['> one', '> two']);
    assert.equal(citationHover(1, span(), { quote: 'abcdef', maxQuoteChars: 3 }).split('\n').pop(), '> abc…');
    assert.equal(citationHover(1, span(), { quote: 'abc', maxQuoteChars: 3 }).split('\n').pop(), '> abc');
    assert.equal(citationHover(1, span(), { quote: 'x'.repeat(1201) }).split('\n').pop(), `> ${'x'.repeat(1200)}…`);
    assert.equal(citationHover(1, span(), { quote: '   ' }).split('\n').length, 3, 'a blank quote adds nothing');
  });

  test('hoverText escapes what would be markup, and nothing else', () => {
    assert.equal(hoverText('\\`*_{}[]()#+-.!|<>~&$'), '\\\\\\`\\*\\_{}\\[\\]()\\#+-.!\\|\\<>\\~\\&\\$');
    assert.equal(hoverText('plain text, 中文 "quotes"'), 'plain text, 中文 "quotes"');
  });

  test('sliceRange: CRLF text, a range past the end, a range ending past the last line', () => {
    const text = 'one\r\ntwo three\r\nfour';
    assert.equal(sliceRange(text, { startLine: 1, startColumn: 4, endLine: 1, endColumn: 9 }), 'three');
    assert.equal(sliceRange(text, { startLine: 0, startColumn: 1, endLine: 2, endColumn: 2 }), 'ne\ntwo three\nfo');
    assert.equal(sliceRange(text, { startLine: 1, startColumn: 0, endLine: 7, endColumn: 2 }), 'two three\nfour');
    assert.equal(sliceRange(text, { startLine: 3, startColumn: 0, endLine: 3, endColumn: 2 }), '');
    assert.equal(sliceRange(text, { startLine: 1, startColumn: 0, endLine: 3, endColumn: 2 }), 'two three\nfour', 'ending on the line after the last');
  });
});

describe('resolveCitations', () => {
  const spans = new Map<string, SourceSpan>(
    ['S1', 'S2', 'S3'].map((id, k) => [id, { source_id: id, item_id: 'ev', part: 'transcript', start: k * 10, end: k * 10 + 5, source: { file: 'ev/t.txt', startLine: k, startColumn: 0, endLine: k, endColumn: 5 } }]),
  );
  spans.set('ev:F:0123456789', { ...spans.get('S2')!, source_id: 'S9', marker_id: 'ev:F:0123456789' });
  const resolve = (id: string): SourceSpan | undefined => spans.get(id);

  test('numbers in order of first use; a span cited by two ids gets one number; separators of every kind', () => {
    const r = resolveCitations('A [S2]. B [S1, S3]. C [S3；S2]. D [ev:F:0123456789]. E [S1 S1].', resolve);
    assert.equal(r.markdown, 'A [1]. B [2][3]. C [3][1]. D [1]. E [2].');
    assert.deepEqual(r.sources.citations.map((c) => [c.number, c.span.source_id]), [[1, 'S2'], [2, 'S1'], [3, 'S3']]);
    assert.deepEqual(r.removed, []);
  });

  test('unknown ids and bare numbers are removed, logged, and leave no stray space', () => {
    const log = recordingLogger();
    const r = resolveCitations('Range drops [S9]. Heat [7] pump [S1]\t[S8] helps  a lot [S4] !', resolve, log);
    // Only the space a removal leaves is tidied: the text's own spacing is written as it is.
    assert.equal(r.markdown, 'Range drops. Heat pump [1] helps  a lot!');
    assert.deepEqual(r.removed, ['S9', '7', 'S8', 'S4']);
    assert.deepEqual(log.lines, ['S9', '7', 'S8', 'S4'].map((t) => `warn research: removed a citation that does not resolve to a source span: [${t}]`));
    assert.deepEqual(citedNumbers(r.markdown), [1]);
  });

  test('brackets that are not citations stay: words, links, empty, too long, nested', () => {
    const md = 'See [note] and [S1](http://x) and [] and [S1 and more] and [[S1]] end.';
    const r = resolveCitations(md, resolve);
    assert.equal(r.markdown, 'See [note] and [S1](http://x) and [] and [S1 and more] and [[1]] end.');
    assert.equal(resolveCitations(`[${'S1 '.repeat(140)}]`, resolve).markdown, `[${'S1 '.repeat(140)}]`, 'over 400 characters: not a citation');
    assert.equal(resolveCitations('x [S1,\nS2]', resolve).markdown, 'x [S1,\nS2]', 'a bracket does not span lines');
  });

  test('what counts as a citation token: S<n>, a bare number, a marker id — whole tokens only', () => {
    const ids = new Map<string, SourceSpan>([['season1_ep1:F:0123456789', spans.get('S1')!], ['ab:F:0123456789', spans.get('S2')!]]);
    const r = (md: string): string => resolveCitations(md, (id) => ids.get(id) ?? spans.get(id)).markdown;
    for (const kept of ['[XS1]', '[S1x]', '[7a]', '[x:Q:0123456789]', '[ab:F:0123456789a]', '[ab:F:012345678g]', '[:F:0123456789]', '[a b:F:0123456789 c]', '[S]']) assert.equal(r(`see ${kept} here`), `see ${kept} here`, kept);
    assert.equal(r('see [77] here'), 'see here', 'a bare number of two digits is removed');
    assert.equal(r('see [season1_ep1:F:0123456789] and [ab:F:0123456789]'), 'see [1] and [2]');
    assert.equal(r('see [x:O:0123456789] and [y:D:abcdef0123] [z:E:0000000000].'), 'see and.', 'unknown marker ids are removed');
    assert.equal(r('see [S1,] and [, S2] and [S1;S3]'), 'see [1] and [2] and [1][3]');
    assert.equal(r('see [,] and [ ] here'), 'see [,] and [ ] here', 'separators alone are no citation');
  });

  test('removed citations without a logger: no error', () => {
    assert.equal(resolveCitations('x [S9].', resolve).markdown, 'x.');
  });

  test('Chinese punctuation: the space before it is tidied too', () => {
    assert.equal(resolveCitations('续航下降 [S7]。见 [S1]，完', resolve).markdown, '续航下降。见 [1]，完');
  });

  test('citedNumbers: every [n] outside links', () => {
    assert.deepEqual(citedNumbers('a [1][2] b [3](x) [4] [12]'), [1, 2, 4, 12]);
  });
});
