/**
 * Concurrent writers of one conversation lose nothing (issue 19, class 6): turns are numbered and
 * their new citations numbered inside the chats lock, against the conversation as it is on disk.
 * - six real `chat --conversation X` processes at once, with generated questions;
 * - many in-process turns at once on copies of the conversation loaded before any of them ran;
 * - `fitTurn` on generated clashes: every `[n]` of an answer still points at the span it cited.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openAskContext } from '../../src/core/ask/askContext';
import { runChatTurn } from '../../src/core/chat/chatTurn';
import { chatsDir, createConversation, fitTurn, loadConversation } from '../../src/core/chat/conversationStore';
import type { ChatCitation, ChatTurn, Conversation } from '../../src/core/chat/schema';
import { loadCorpus } from '../../src/core/corpus/loader';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { rng } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const PROMPTS = path.join(__dirname, '..', '..', 'prompts');
const MAIN = path.join(__dirname, '..', '..', 'src', 'cli', 'main.ts');

/** Questions composed from parts (seeded), so each run asks others. */
function questions(seed: number, n: number): string[] {
  const r = rng(seed);
  const asks = ['What did they say about', 'What was said about', 'Tell me about', 'What do the comments say about', 'Who talked about'];
  const topics = ['parking', 'injuries', 'bike lanes', 'the bakery', 'bread', 'the heat pump', 'power cuts', 'cyclists', 'prices', 'the food'];
  return Array.from({ length: n }, (_, i) => `${asks[Math.floor(r() * asks.length)]} ${topics[(i + Math.floor(r() * topics.length)) % topics.length]}?`);
}

/** Checks a conversation on disk: turns 1..n once each, one span per citation number, every `[n]` of an answer among its citations. */
function assertConsistent(c: Conversation, n: number, asked: readonly string[]): void {
  assert.deepEqual(c.turns.map((t) => t.turn), Array.from({ length: n }, (_, i) => i + 1), 'every turn kept, numbered 1..n');
  assert.deepEqual([...c.turns.map((t) => t.question)].sort(), [...asked].sort(), 'every question kept once');
  const byNumber = new Map<number, ChatCitation['span']>();
  for (const t of c.turns) {
    for (const cit of t.citations) {
      const seen = byNumber.get(cit.number);
      if (seen) assert.deepEqual([seen.item_id, seen.part, seen.start, seen.end], [cit.span.item_id, cit.span.part, cit.span.start, cit.span.end], `citation [${cit.number}] names one span`);
      else byNumber.set(cit.number, cit.span);
    }
    const own = new Set(t.citations.map((x) => x.number));
    for (const m of t.answer.matchAll(/\[(\d+)\]/g)) assert.ok(own.has(Number(m[1])), `turn ${t.turn}: [${m[1]}] is one of its citations`);
  }
}

describe('concurrent chat turns', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mr-chatconc-'));
    await cp(DEMO, dir, { recursive: true });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('six `chat --conversation X` processes at once: six turns, numbered 1..6, none lost', async () => {
    const asked = questions(Date.now() % 1000, 6);
    const runs = asked.map(
      (q) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'chat', dir, '--conversation', 'shared-x', '--message', q, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          let err = '';
          child.stdout.on('data', (d) => (out += d));
          child.stderr.on('data', (d) => (err += d));
          child.on('close', (code) => resolve({ code, out, err }));
        }),
    );
    const results = await Promise.all(runs);
    for (const r of results) assert.equal(r.code, 0, r.err);
    const turns = results.map((r) => (JSON.parse(r.out) as { turn: number }).turn).sort((a, b) => a - b);
    assert.deepEqual(turns, [1, 2, 3, 4, 5, 6], 'each process reports its own turn number');
    assertConsistent(await loadConversation(dir, 'shared-x'), 6, asked);
  });

  test('in one process: turns answered at once from the same stale copy are all kept, their citations renumbered', async () => {
    const corpus = await loadCorpus(dir);
    const ctx = await openAskContext(corpus, CorpusIndex.build(corpus));
    const base = await createConversation(dir, { runId: null, id: 'inproc' });
    const asked = questions(7, 8);
    // Every turn starts from a conversation with no turns, as two windows open on one conversation would.
    await Promise.all(asked.map(async (q) => runChatTurn(ctx, { header: base.header, turns: [], citations: [] }, q, { promptsDir: PROMPTS })));
    const kept = await loadConversation(dir, 'inproc');
    assertConsistent(kept, asked.length, asked);
    assert.ok(kept.citations.length > 0, 'the answers cite spans');
    assert.ok((await readFile(path.join(chatsDir(dir), 'inproc.jsonl'), 'utf8')).split('\n').filter(Boolean).length === asked.length + 1);
  });

  test('fitTurn: a clashing citation number moves to the next free one (or the number its span has), in the answer too', () => {
    const r = rng(19);
    for (let round = 0; round < 200; round++) {
      const span = (k: number): ChatCitation['span'] => ({ source_id: `C${k}`, item_id: `item-${k % 5}`, part: k % 2 ? 'transcript' : 'comments', start: k * 10, end: k * 10 + 5, source: { file: 'f', startLine: 0, startColumn: 0, endLine: 0, endColumn: 1 } });
      // On disk: citations 1..d with spans s(1..d); the turn was numbered against 1..b (b ≤ d) and added b+1..b+a.
      const d = 1 + Math.floor(r() * 6);
      const b = Math.floor(r() * (d + 1));
      const a = 1 + Math.floor(r() * 4);
      const diskSpan = (n: number): number => n; // disk citation n has span n
      const turnSpan = (n: number): number => (n <= b ? n : r() < 0.3 ? 1 + Math.floor(r() * d) : 100 + n + round);
      const onDisk: Conversation = { header: { kind: 'marker-research-conversation', version: 1, id: 'x', runId: null, createdAt: '', title: '' }, turns: [], citations: Array.from({ length: d }, (_, i) => ({ number: i + 1, span: span(diskSpan(i + 1)) })) };
      const cited = Array.from({ length: b + a }, (_, i) => ({ number: i + 1, span: span(turnSpan(i + 1)) }));
      const answer = cited.map((c) => `claim ${c.number} [${c.number}]`).join(' ') + ` joined [1, ${b + a}]`;
      const turn = { turn: 1, answer, citations: cited, loaded: [] } as unknown as ChatTurn;
      const fitted = fitTurn(onDisk, turn);
      const numberOf = new Map(fitted.citations.map((c) => [c.number, c.span]));
      // Each claim still points at the span it had.
      const place = (s: ChatCitation['span'] | undefined): unknown[] => [s?.item_id, s?.part, s?.start, s?.end];
      for (const [i, m] of [...fitted.answer.matchAll(/claim \d+ \[(\d+)\]/g)].entries()) assert.deepEqual(place(numberOf.get(Number(m[1]))), place(cited[i]!.span), `round ${round}: claim ${i + 1}`);
      // Numbers: a span known on disk keeps the disk's number; a new span never takes a disk number.
      for (const c of fitted.citations) {
        const disk = onDisk.citations.find((k) => k.number === c.number);
        if (disk) assert.deepEqual(place(disk.span), place(c.span), `round ${round}: [${c.number}] is the disk's span`);
      }
    }
  });
});
