/**
 * Context-length retries (issue 10), in process: a window the model rejects for context length is
 * retried as windows of at most 0.75× its words (smaller when the server states its limit), and
 * every word is still read. test/integration/contextLength.test.ts checks the same through the
 * real clients and the fake server; this file pins the rule itself (ContextLimit.reject,
 * shrinkWindow, readPart with an in-process model) so that a retry at 1.0× fails in the unit tier.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LlmError, type StructuredRequest, type StructuredResult } from '../../src/core/llm/types';
import { ContextLimit, readPart, statedContext, type MarkerModel, type PromptSource } from '../../src/core/markers/modelEngine';
import { transcriptWindowReplySchema, type TranscriptWindowReply } from '../../src/core/markers/schema';
import { MIN_WINDOW_WORDS, planWindows, shrinkWindow, splitWindow, type PartWindow } from '../../src/core/markers/windows';
import { countWords } from '../../src/core/text/words';
import { itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

const WORDS = 'battery range winter heater road speed charge cold test drive measured numbers car'.split(' ');

/** Turns of 5 to 40 words in sentences of 3 to 12 words, about `total` words in all. */
function turns(seed: number, total: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  let n = 0;
  while (n < total) {
    const len = 5 + Math.floor(r() * 36);
    const sentences: string[] = [];
    let w = 0;
    while (w < len) {
      const s = Math.min(len - w, 3 + Math.floor(r() * 10));
      sentences.push(`${Array.from({ length: s }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ')}.`);
      w += s;
    }
    out.push(sentences.join(' '));
    n += len;
  }
  return out;
}

const contextError = (message = "prompt exceeds the model's context: please reduce the length of the messages"): LlmError => new LlmError('context-length', message);

describe('ContextLimit.reject', () => {
  test('without a stated limit the retry size is 0.75× the rejected window, again and again', () => {
    const limit = new ContextLimit();
    const sizes = [1200];
    for (let k = 0; k < 4; k++) sizes.push(limit.reject(contextError(), sizes[sizes.length - 1]!, 2000, 1800));
    assert.deepEqual(sizes, [1200, 900, 675, 506, 379]);
    assert.equal(limit.rejections, 4);
    assert.equal(limit.maxWords, 379, 'the learned ceiling is the last retry size');
    assert.equal(limit.statedLimit, undefined);
    assert.equal(limit.maxPromptTokens, undefined);
  });

  test('the learned ceiling never drops below the floor, and only goes down', () => {
    const limit = new ContextLimit();
    assert.equal(limit.reject(contextError(), 30, 60, 40), 22);
    assert.equal(limit.maxWords, MIN_WINDOW_WORDS);
    limit.reject(contextError(), 1000, 1500, 1300);
    assert.equal(limit.maxWords, MIN_WINDOW_WORDS, 'a later, larger rejection does not raise it');
  });

  test('a stated limit that nearly fits still retries at most 0.75×', () => {
    const limit = new ContextLimit();
    // The server can take 10,000 tokens; the prompt was about 1,000: the stated room would allow more words, 0.75× caps it.
    const next = limit.reject(contextError('This model\'s maximum context length is 10000 tokens. However, your messages resulted in 10100 tokens.'), 800, 1000, 900);
    assert.equal(next, 600);
    assert.equal(limit.statedLimit, 10000);
  });

  test('a stated limit far below the prompt sizes the retry to fit it', () => {
    const limit = new ContextLimit();
    // 1,000 server tokens for a prompt the server counted at 4,000 (estimated 2,000, 1,800 of them text):
    // server tokens are 2× the estimate, so the prompt may hold 1000 × 0.8 / 2 = 400 estimated tokens,
    // 200 of them for overhead: 200 of 1,800 text tokens ≈ 1/9 of the 900 words.
    const next = limit.reject(contextError('maximum context length is 1000 tokens, however you requested 4000 tokens (resulted in 4000 tokens)'), 900, 2000, 1800);
    assert.equal(limit.statedLimit, 1000);
    assert.equal(limit.maxPromptTokens, 400);
    assert.equal(next, 100);
    assert.ok(next <= 0.75 * 900);
  });

  test('a stated limit without the prompt\'s size: server tokens are taken as estimated tokens', () => {
    const limit = new ContextLimit();
    const next = limit.reject(contextError('maximum context length is 1000 tokens'), 900, 2000, 1800);
    assert.equal(limit.maxPromptTokens, 800, '80 % of the stated limit');
    assert.equal(next, Math.floor((900 * (800 - 200)) / 1800));
    // No estimate of the rejected prompt: the same.
    const zero = new ContextLimit();
    zero.reject(contextError('maximum context length is 1000 tokens; your messages resulted in 4000 tokens'), 900, 0, 0);
    assert.equal(zero.maxPromptTokens, 800);
  });

  test('a window without text tokens: the retry size is 0.75×', () => {
    const limit = new ContextLimit();
    assert.equal(limit.reject(contextError('maximum context length is 1000 tokens'), 100, 500, 0), 75);
  });

  test('no room left for text and no text tokens: still 0.75×', () => {
    const limit = new ContextLimit();
    assert.equal(limit.reject(contextError('maximum context length is 1000 tokens'), 100, 900, 0), 75);
  });

  test('the ceiling only goes down: a later stated limit above an earlier one does not raise it', () => {
    const limit = new ContextLimit();
    limit.reject(contextError('maximum context length is 1000 tokens'), 900, 2000, 1800);
    limit.reject(contextError('maximum context length is 4000 tokens'), 400, 700, 500);
    assert.equal(limit.statedLimit, 1000);
    assert.equal(limit.maxPromptTokens, 800);
  });

  test('the limits stated by common servers are read', () => {
    assert.deepEqual(statedContext(contextError("This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.")), { limit: 4096, requested: 5000 });
    assert.deepEqual(statedContext(new Error('outer', { cause: contextError('the request exceeds the available context size (2048 tokens)') })), { limit: 2048 });
    assert.deepEqual(statedContext(contextError('too long')), {});
  });
});

describe('shrinkWindow', () => {
  const part = transcriptPart(turns(7, 3000));
  const windows = planWindows(part, { windowWords: 800, overlapWords: 40, windowLimit: 0 });

  test('cuts a window into windows of at most 0.75× its words, keeping every word in order', () => {
    for (const w of windows) {
      const parts = shrinkWindow(w, undefined, part);
      assert.ok(parts.length >= 2, 'the window is split');
      const cap = Math.floor(w.words * 0.75);
      for (const p of parts) assert.ok(p.words <= cap && p.words > 0, `a part of ${p.words} words from a window of ${w.words} (cap ${cap})`);
      assert.equal(parts.reduce((a, p) => a + p.words, 0), w.words, 'no word lost or repeated');
      assert.equal(parts[0]!.start, w.start);
      assert.equal(parts[parts.length - 1]!.end, w.end);
      assert.equal(parts[0]!.startWord, w.startWord);
      assert.equal(parts[parts.length - 1]!.endWord, w.endWord);
      for (let k = 1; k < parts.length; k++) {
        assert.equal(parts[k]!.startWord, parts[k - 1]!.endWord, 'consecutive');
        assert.ok(parts[k]!.start >= parts[k - 1]!.end, 'in order');
      }
    }
  });

  test('a unit longer than the target is cut at word boundaries', () => {
    const long = transcriptPart([Array.from({ length: 120 }, (_, k) => `word${k}`).join(' ')]);
    const [w] = planWindows(long, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    const parts = splitWindow(w!, 50, long);
    assert.deepEqual(parts.map((p) => p.words), [50, 50, 20]);
    assert.deepEqual(parts.map((p) => long.text.slice(p.start, p.end).trim().split(' ')[0]), ['word0', 'word50', 'word100']);
    for (const p of parts) assert.equal(countWords(long.text.slice(p.start, p.end)), p.words);
  });
});

/** A model that rejects any window over `maxWords` words; it records the word range of every request. */
function smallModel(maxWords: number, message?: (words: number) => string): MarkerModel & { seen: { start: number; end: number; rejected: boolean }[] } {
  const seen: { start: number; end: number; rejected: boolean }[] = [];
  return {
    provider: 'openai',
    model: 'small-context',
    seen,
    async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const m = /words (\d+)–(\d+) of (\d+)/.exec(req.messages.map((x) => x.content).join('\n'));
      assert.ok(m, 'the window label gives its word range');
      const start = Number(m[1]);
      const end = Number(m[2]);
      const rejected = end - start > maxWords;
      seen.push({ start, end, rejected });
      if (rejected) throw contextError(message?.(end - start));
      const value: TranscriptWindowReply = { facts: [], opinions: [], datapoints: [], topics: [] };
      return { value: value as T, usage: { promptTokens: 1, completionTokens: 1, estimated: false }, repaired: false, attempts: 1 };
    },
  };
}

const prompts: PromptSource = async (name) => ({
  version: `${name}@1`,
  render: (vars) => [{ role: 'user', content: `${vars['window_label']}\n${vars['text']}` }],
});

/** Every retry of a rejected window (a later request inside its range) is at most 0.75× it; the accepted windows cover every word. */
function checkRetries(seen: readonly { start: number; end: number; rejected: boolean }[], total: number): void {
  seen.forEach((rej, k) => {
    if (!rej.rejected) return;
    const retries = seen.slice(k + 1).filter((w) => w.start >= rej.start && w.end <= rej.end);
    assert.ok(retries.length > 0, `the rejected window ${rej.start}–${rej.end} is retried`);
    for (const r of retries) assert.ok(r.end - r.start <= 0.75 * (rej.end - rej.start), `${r.start}–${r.end} (${r.end - r.start} words) retried from ${rej.start}–${rej.end} (${rej.end - rej.start} words)`);
  });
  const accepted = seen.filter((w) => !w.rejected).sort((a, b) => a.start - b.start);
  let reach = 0;
  for (const w of accepted) {
    assert.ok(w.start <= reach, `words ${reach}–${w.start} never accepted`);
    reach = Math.max(reach, w.end);
  }
  assert.equal(reach, total, 'every word read');
}

describe('readPart: windows rejected for context length', () => {
  test('no limit stated: each retry is at most 0.75× the rejected window, down to a size that fits', async () => {
    const part = transcriptPart(turns(3, 2500));
    const model = smallModel(300);
    const { outcomes, coverage } = await readPart(itemOf('ev', { transcript: part }), part, { model, prompts, windows: { windowWords: 1000, overlapWords: 0, windowLimit: 0 }, lang: 'en' }, 'markers-transcript', transcriptWindowReplySchema);
    checkRetries(model.seen, part.wordCount);
    assert.ok(model.seen.filter((w) => w.rejected).length >= 2, 'shrunk more than once (1000 → 750 → 562 → 421 → 315 → 236)');
    assert.equal(coverage.complete, true);
    assert.equal(coverage.wordsSeen, part.wordCount);
    assert.ok(coverage.shrunkWindows > 0);
    assert.equal(outcomes.reduce((a, o) => a + o.window.words, 0), part.wordCount, 'no word read twice without overlap');
  });

  test('a stated limit: the retry goes straight to a size that fits, still at most 0.75×', async () => {
    const part = transcriptPart(turns(5, 1500));
    const model = smallModel(300, (words) => `This model's maximum context length is 600 tokens. However, your messages resulted in ${Math.round(words * 1.4)} tokens.`);
    await readPart(itemOf('ev', { transcript: part }), part, { model, prompts, windows: { windowWords: 1200, overlapWords: 0, windowLimit: 0 }, lang: 'en' }, 'markers-transcript', transcriptWindowReplySchema);
    checkRetries(model.seen, part.wordCount);
    // Without the limit: 1200 → 900 → 675 → 506 → 379 → 284, five rejections; with it, the first retry is near the fit.
    assert.ok(model.seen.filter((w) => w.rejected).length <= 2, `rejections: ${JSON.stringify(model.seen.filter((w) => w.rejected))}`);
  });

  test('a small window rejected with a tiny stated limit is retried at most 0.75× (not at the floor size)', async () => {
    // 48 words: 0.75× is 36, below MIN_WINDOW_WORDS (40); the stated limit asks for even less.
    const part = transcriptPart(['battery range winter heater road speed charge cold test drive measured numbers car battery range winter heater road speed charge cold test drive measured numbers.', 'car battery range winter heater road speed charge cold test drive measured numbers car battery range winter heater road speed charge cold test.']);
    assert.equal(part.wordCount, 48);
    const model = smallModel(45, () => 'maximum context length is 20 tokens; your messages resulted in 90 tokens');
    const windows: PartWindow[] = planWindows(part, { windowWords: 4000, overlapWords: 0, windowLimit: 0 });
    assert.equal(windows.length, 1);
    const log: string[] = [];
    await readPart(itemOf('ev', { transcript: part }), part, { model, prompts, windows: { windowWords: 4000, overlapWords: 0, windowLimit: 0 }, lang: 'en', log: (m) => log.push(m) }, 'markers-transcript', transcriptWindowReplySchema).catch(() => undefined);
    const [first, ...rest] = model.seen;
    assert.deepEqual(first, { start: 0, end: 48, rejected: true });
    assert.ok(rest.length > 0, 'retried');
    for (const r of rest) assert.ok(r.end - r.start <= 36, `retry of ${r.end - r.start} words`);
    // What the log says the retry size is: also at most 0.75× (36 words), not the 40-word floor.
    const said = log.map((l) => /a window of 48 words was rejected .*retrying it as windows of at most (\d+) words/.exec(l)?.[1]).filter(Boolean);
    assert.equal(said.length, 1, log.join('\n'));
    assert.ok(Number(said[0]) <= 36, log[0]);
  });
});
