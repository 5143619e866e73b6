/**
 * The readable view (a Markdown document read raw in VS Code's text editor) has no live link made
 * of corpus text (issue 19, class 1): generated hostile titles, speakers, authors, ids, metadata
 * and turn and comment texts are run through `layoutFullItem`, and the document is searched the
 * way the Markdown language's link finder searches it (vscode-markdown-languageservice: inline
 * `[…](…)`, `[…]: …` definitions and `<scheme:…>` autolinks, anywhere but in code blocks) — a
 * unit's text must be an indented code block, not a paragraph's continuation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CorpusItem } from '../../src/core/corpus/types';
import { layoutFullItem } from '../../src/core/markers/fullItem';
import { hostileTexts } from '../support/hostileMarkdown';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

const r = String.raw;
/** The language service's patterns (links whose target has a scheme are the dangerous ones). */
const INLINE = new RegExp(`${r`(\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]\(\s*)`}${r`([^\s\(\)\<](?:[^\s\(\)]|\([^\s\(\)]*?\))*|<[^<>]+>)`}${r`\s*(?:"[^"]*"|'[^']*'|\([^\(\)]*\))?\s*\)`}`, 'g');
const AUTOLINK = /<(\w+:[^>\s]+)>/g;
const DEFINITION = /^([\t ]*\[(?!\^)((?:\\\]|[^\]])+)\]:\s*)([^<]\S*|<[^>]+>)/gm;
const HAS_SCHEME = (l: string): boolean => /^[a-z-][a-z-]+:/i.test(l.replace(/^<(.*)>$/, '$1'));

/** Lines that are in an indented code block (CommonMark: 4+ spaces, not continuing a paragraph). */
function codeBlockLines(lines: readonly string[]): boolean[] {
  const code: boolean[] = [];
  let paragraph = false;
  for (const l of lines) {
    const blank = l.trim() === '';
    const indented = /^ {4}/.test(l);
    const inCode: boolean = !blank && indented && (!paragraph || code[code.length - 1] === true);
    const continuesCode = blank && code[code.length - 1] === true;
    code.push(inCode || continuesCode);
    paragraph = !blank && !inCode && !/^#{1,6} /.test(l);
  }
  return code;
}

/** Scheme links a reader of the raw document can Ctrl+click, outside code blocks. */
function liveLinks(doc: string): string[] {
  const lines = doc.split('\n');
  const code = codeBlockLines(lines);
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const found: string[] = [];
  for (const m of doc.matchAll(INLINE)) if (HAS_SCHEME(m[2]!) && !code[lineOf(m.index! + m[1]!.length)]) found.push(m[0]);
  for (const m of doc.matchAll(AUTOLINK)) if (!code[lineOf(m.index!)]) found.push(m[0]);
  for (const m of doc.matchAll(DEFINITION)) if (HAS_SCHEME(m[3]!) && !code[lineOf(m.index!)]) found.push(m[0]);
  return found;
}

/** An item whose every corpus value is hostile. */
function hostileItem(seed: number): CorpusItem {
  const texts = hostileTexts(seed, 40);
  const names = hostileTexts(seed + 1, 40, { lineBreaks: true });
  const pick = rng(seed + 2);
  const one = (xs: string[]): string => xs[Math.floor(pick() * xs.length)]!;
  const turns = Array.from({ length: 8 }, (_, i) => ({ text: one(texts), speaker: one(names), start: i * 5, end: i * 5 + 4 }));
  const comments = commentsPart(Array.from({ length: 8 }, () => one(texts)));
  for (const c of comments.comments) {
    c.author = one(names);
    c.id = one(names);
    c.publishedAt = one(names);
    if (pick() < 0.4) c.parentId = one(names);
  }
  const item = itemOf(one(names), { transcript: transcriptPart(turns), comments });
  item.title = one(names);
  item.meta = { source: one(names), url: one(texts) };
  return item;
}

describe('the readable view has no live link made of corpus text', () => {
  test('the detector finds the links of the issue in plain Markdown (a check of the check)', () => {
    assert.equal(liveLinks('[free bike](command:workbench.action.terminal.new)').length, 1);
    assert.equal(liveLinks('x <command:x>').length, 1);
    assert.equal(liveLinks('[1]: command:x').length, 1);
    // a unit's text right under a paragraph line is that paragraph's, not code
    assert.equal(liveLinks('[1] · line 3\n    [free](command:x)').length, 1);
    assert.equal(liveLinks('[1] · line 3\n\n    [free](command:x)').length, 0);
  });

  test('200 items with hostile titles, speakers, authors, ids, metadata, turns and comments', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const item = hostileItem(seed * 7);
      const doc = layoutFullItem(item).text;
      assert.deepEqual(liveLinks(doc), [], `seed ${seed}:\n${doc}`);
    }
  });
});
