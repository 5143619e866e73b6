import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHAT_MAX_QUESTION_CHARS, chatToHostSchema, citedNumbers, parseAnswer, parseInline } from '../../src/shared/chatProtocol';
import { webviewToHostSchema } from '../../src/shared/webviewProtocol';

describe('chat webview → host messages are parsed, not trusted', () => {
  test('accepts the declared messages', () => {
    for (const ok of [
      { type: 'ready' },
      { type: 'ask', conversationId: null, question: 'What is the main conclusion?' },
      { type: 'ask', conversationId: '20261122-231345-0a1b', question: '引用3的原文是什么？' },
      { type: 'stop' },
      { type: 'newConversation', runId: '20261122-231345-006e' },
      { type: 'newConversation', runId: null },
      { type: 'openConversation', conversationId: '20261122-231345-0a1b' },
      { type: 'openCitation', conversationId: null, number: 2 },
      { type: 'openReport', runId: '20261122-231345-006e' },
    ]) {
      assert.ok(chatToHostSchema.safeParse(ok).success, JSON.stringify(ok));
    }
  });

  test('the question is trimmed', () => {
    const r = chatToHostSchema.safeParse({ type: 'ask', conversationId: null, question: '  What does [2] say?  ' });
    assert.ok(r.success);
    assert.equal(r.data.type === 'ask' && r.data.question, 'What does [2] say?');
  });

  test('rejects unknown types, paths for ids, bad numbers and oversized questions', () => {
    const ask = { type: 'ask', conversationId: null, question: 'q' };
    for (const bad of [
      null,
      'ready',
      { type: 'eval', code: '1' },
      { ...ask, question: '   ' },
      { ...ask, question: 'x'.repeat(CHAT_MAX_QUESTION_CHARS + 1) },
      { ...ask, question: 7 },
      { ...ask, conversationId: undefined },
      { ...ask, conversationId: '../../etc/passwd' },
      { ...ask, conversationId: 'a/b' },
      { ...ask, conversationId: '' },
      { type: 'newConversation', runId: '..' },
      { type: 'newConversation', runId: '../x' },
      { type: 'newConversation' },
      { type: 'openConversation', conversationId: 'x.jsonl' },
      { type: 'openCitation', conversationId: null, number: 0 },
      { type: 'openCitation', conversationId: null, number: 1.5 },
      { type: 'openCitation', conversationId: null, number: '2' },
      { type: 'openReport', runId: 'a\\b' },
    ]) {
      assert.equal(chatToHostSchema.safeParse(bad).success, false, JSON.stringify(bad)?.slice(0, 120));
    }
  });

  test('the sidebar\'s "Ask about this report" names a run', () => {
    assert.ok(webviewToHostSchema.safeParse({ type: 'askFollowup', runId: '20261122-231345-006e' }).success);
    for (const bad of [{ type: 'askFollowup' }, { type: 'askFollowup', runId: '../x' }, { type: 'askFollowup', runId: 3 }]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('the minimal Markdown of answers', () => {
  test('inline: bold, code and citation numbers; everything else stays text (HTML included)', () => {
    assert.deepEqual(parseInline('Trips rose **48 percent** [1], see `report.md` [2, 3].'), [
      { kind: 'text', text: 'Trips rose ' },
      { kind: 'bold', pieces: [{ kind: 'text', text: '48 percent' }] },
      { kind: 'text', text: ' ' },
      { kind: 'cite', number: 1 },
      { kind: 'text', text: ', see ' },
      { kind: 'code', text: 'report.md' },
      { kind: 'text', text: ' ' },
      { kind: 'cite', number: 2 },
      { kind: 'cite', number: 3 },
      { kind: 'text', text: '.' },
    ]);
    assert.deepEqual(parseInline('<img src=x onerror=alert(1)> [link](http://x)'), [{ kind: 'text', text: '<img src=x onerror=alert(1)> [link](http://x)' }]);
    assert.deepEqual(parseInline('[1][2]'), [{ kind: 'cite', number: 1 }, { kind: 'cite', number: 2 }]);
  });

  test('blocks: paragraphs, headings, bullet and numbered lists', () => {
    const blocks = parseAnswer('## Findings\n\nCycling rose [1].\nInjuries fell [2].\n\n- first [1]\n- second\n  continued\n\n1. one\n2. two\n\nLast.');
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['heading', 'paragraph', 'list', 'list', 'paragraph'],
    );
    const para = blocks[1]!;
    assert.ok(para.kind === 'paragraph');
    assert.deepEqual(para.pieces, [{ kind: 'text', text: 'Cycling rose ' }, { kind: 'cite', number: 1 }, { kind: 'text', text: '. Injuries fell ' }, { kind: 'cite', number: 2 }, { kind: 'text', text: '.' }]);
    const bullets = blocks[2]!;
    assert.ok(bullets.kind === 'list' && !bullets.ordered);
    assert.equal(bullets.items.length, 2);
    assert.deepEqual(bullets.items[1], [{ kind: 'text', text: 'second continued' }]);
    const numbered = blocks[3]!;
    assert.ok(numbered.kind === 'list' && numbered.ordered && numbered.items.length === 2);
  });

  test('quotes, and citations inside bold text (a cited original\'s heading)', () => {
    const blocks = parseAnswer('**[2] city-cycling-podcast/transcript.vtt:21 · 1:02 · Daniel**\n\n> Sales tax receipts grew 6 percent. [2]\n> second line\nAfter.');
    assert.deepEqual(blocks, [
      { kind: 'paragraph', pieces: [{ kind: 'bold', pieces: [{ kind: 'cite', number: 2 }, { kind: 'text', text: ' city-cycling-podcast/transcript.vtt:21 · 1:02 · Daniel' }] }] },
      { kind: 'quote', pieces: [{ kind: 'text', text: 'Sales tax receipts grew 6 percent. ' }, { kind: 'cite', number: 2 }, { kind: 'text', text: ' second line' }] },
      { kind: 'paragraph', pieces: [{ kind: 'text', text: 'After.' }] },
    ]);
  });

  test('an answer streamed in pieces parses at every length without throwing', () => {
    const full = '**Main conclusion**: trips rose [1] and injuries fell [2].\n\n- a [3]\n- b';
    for (let i = 0; i <= full.length; i++) assert.ok(Array.isArray(parseAnswer(full.slice(0, i))));
  });

  test('citedNumbers: in order of first appearance', () => {
    assert.deepEqual(citedNumbers('A [3] b [1, 3] c [2][3] [x](y) [4](http://z)'), [3, 1, 2]);
  });
});
