import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ASK_MAX_QUESTION_CHARS, ASK_MAX_SESSION, ASK_STRATEGIES, corpusToHostSchema, researchToHostSchema, webviewToHostSchema } from '../../src/shared/webviewProtocol';
import { STRATEGY_NAMES } from '../../src/core/ask/query';

describe('webview → host messages are parsed, not trusted', () => {
  test('accepts the declared messages', () => {
    assert.ok(webviewToHostSchema.safeParse({ type: 'ready' }).success);
    assert.ok(webviewToHostSchema.safeParse({ type: 'openItem', itemId: 'x', part: 'comments' }).success);
  });
  test('rejects unknown types and malformed fields', () => {
    for (const bad of [null, 'ready', { type: 'eval', code: '1' }, { type: 'openItem', itemId: 3, part: 'transcript' }, { type: 'openItem', itemId: 'x', part: '../etc' }, { type: 'openProblem', index: -1 }]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('the research messages', () => {
  test('resumeResearch: a run id (a folder name)', () => {
    const r = webviewToHostSchema.safeParse({ type: 'resumeResearch', runId: '2024-05-01T10-00-00-abc123' });
    assert.ok(r.success);
    assert.equal(r.data.type === 'resumeResearch' && r.data.runId, '2024-05-01T10-00-00-abc123');
  });
  test('resumeResearch: rejects a missing, empty, non-string or path-like run id', () => {
    for (const bad of [
      { type: 'resumeResearch' },
      { type: 'resumeResearch', runId: '' },
      { type: 'resumeResearch', runId: 7 },
      { type: 'resumeResearch', runId: null },
      { type: 'resumeResearch', runId: '..' },
      { type: 'resumeResearch', runId: '.' },
      { type: 'resumeResearch', runId: '../other-corpus/run' },
      { type: 'resumeResearch', runId: 'a/b' },
      { type: 'resumeResearch', runId: 'a\\b' },
      { type: 'resumeResearch', runId: 'x'.repeat(201) },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('the Ask box messages', () => {
  test('ask: the question is trimmed; the item in focus or null; earlier questions', () => {
    const r = webviewToHostSchema.safeParse({ type: 'ask', question: '  what did he say about prices?  ', itemId: null, session: ['Who talks about coffee?'] });
    assert.ok(r.success);
    assert.equal(r.data.type === 'ask' && r.data.question, 'what did he say about prices?');
    assert.ok(webviewToHostSchema.safeParse({ type: 'ask', question: '零下十度掉电多少？', itemId: 'ev-winter-range', session: [] }).success);
  });
  test('ask: rejects empty, over-long, untyped and oversized sessions', () => {
    const ok = { type: 'ask', question: 'q', itemId: null, session: [] };
    for (const bad of [
      { ...ok, question: '   ' },
      { ...ok, question: 'x'.repeat(ASK_MAX_QUESTION_CHARS + 1) },
      { ...ok, question: 3 },
      { ...ok, itemId: undefined },
      { ...ok, itemId: '' },
      { ...ok, session: 'earlier' },
      { ...ok, session: [''] },
      { ...ok, session: [7] },
      { ...ok, session: Array.from({ length: ASK_MAX_SESSION + 1 }, (_, i) => `q${i}`) },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad).slice(0, 120));
    }
  });
  test('openHit: a non-empty span of a part', () => {
    assert.ok(webviewToHostSchema.safeParse({ type: 'openHit', itemId: 'x', part: 'transcript', start: 0, end: 10 }).success);
    for (const bad of [
      { type: 'openHit', itemId: 'x', part: 'transcript', start: 5, end: 5 },
      { type: 'openHit', itemId: 'x', part: 'transcript', start: 9, end: 3 },
      { type: 'openHit', itemId: 'x', part: 'transcript', start: -1, end: 3 },
      { type: 'openHit', itemId: 'x', part: 'transcript', start: 0.5, end: 3 },
      { type: 'openHit', itemId: 'x', part: 'meta', start: 0, end: 3 },
      { type: 'openHit', itemId: 'x', part: 'comments', start: '0', end: 3 },
    ]) {
      assert.equal(webviewToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
  test("the strategy names the box knows are core's", () => {
    assert.deepEqual([...ASK_STRATEGIES], [...STRATEGY_NAMES]);
  });
});

describe('each sidebar view has its own half of the protocol', () => {
  test('Corpus & Markers: items, markers, the Ask box; not research', () => {
    for (const ok of [{ type: 'ready' }, { type: 'openMarker', itemId: 'a', markerId: 'a:F:1' }, { type: 'ask', question: 'q', itemId: null, session: [] }, { type: 'openModelSettings' }, { type: 'generateMarkers' }]) {
      assert.ok(corpusToHostSchema.safeParse(ok).success, JSON.stringify(ok));
    }
    for (const bad of [{ type: 'runResearch' }, { type: 'resumeResearch', runId: 'r1' }, { type: 'discoverGoals' }, { type: 'cancel' }]) {
      assert.equal(corpusToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
  test('Research: goals, plans, runs; not the corpus tree or the Ask box', () => {
    for (const ok of [{ type: 'ready' }, { type: 'runResearch' }, { type: 'planResearch', goal: { text: 'what do viewers think?' } }, { type: 'showRun', runId: 'r1' }, { type: 'cancel' }, { type: 'indexCorpus' }]) {
      assert.ok(researchToHostSchema.safeParse(ok).success, JSON.stringify(ok));
    }
    for (const bad of [{ type: 'openMarker', itemId: 'a', markerId: 'x' }, { type: 'ask', question: 'q', itemId: null, session: [] }, { type: 'openHit', itemId: 'x', part: 'transcript', start: 0, end: 3 }, { type: 'planResearch', goal: { text: 'x' } }]) {
      assert.equal(researchToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
