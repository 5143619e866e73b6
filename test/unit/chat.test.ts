/**
 * Conversations offline (extractive responder) on a copy of the demo corpus after the README's
 * research run: citation questions load exactly the cited originals, questions about the report
 * answer from it, questions beyond it retrieve and cite new spans with numbers that continue the
 * report's, pronouns resolve from earlier turns (also across two one-shot CLI calls), and the
 * conversation file survives a reload (a bad line is reported, the rest loads).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openAskContext } from '../../src/core/ask/askContext';
import type { AskContext } from '../../src/core/ask/types';
import { runChatTurn } from '../../src/core/chat/chatTurn';
import { checkAnswerCitations, numberSpans } from '../../src/core/chat/citationNumbering';
import { chatsDir, createConversation, listConversations, loadConversation } from '../../src/core/chat/conversationStore';
import { loadCorpus } from '../../src/core/corpus/loader';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

/** The text of a stored range read straight from the original file (lines and columns zero-based). */
async function fileSlice(root: string, src: { file: string; startLine: number; startColumn: number; endLine: number; endColumn: number }): Promise<string> {
  const lines = (await readFile(path.join(root, src.file), 'utf8')).split('\n');
  if (src.startLine === src.endLine) return lines[src.startLine]!.slice(src.startColumn, src.endColumn);
  return [lines[src.startLine]!.slice(src.startColumn), ...lines.slice(src.startLine + 1, src.endLine), lines[src.endLine]!.slice(0, src.endColumn)].join('\n');
}

describe('chat (extractive) over a research report and the corpus', () => {
  let dir: string;
  let runId: string;
  let ctx: AskContext;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mr-chat-'));
    await cp(DEMO, dir, { recursive: true });
    const r = await runCli(['research', dir, '--json']);
    assert.equal(r.code, 0, r.err);
    runId = (JSON.parse(r.out) as { runId: string }).runId;
    const corpus = await loadCorpus(dir);
    ctx = await openAskContext(corpus, CorpusIndex.build(corpus));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a citation question loads exactly the cited original, with context, and shows it verbatim', async () => {
    const conv = await createConversation(dir, { runId });
    const turn = await runChatTurn(ctx, conv, '引用3的原文是什么？', { promptsDir: PROMPTS });
    assert.equal(turn.mode, 'citation');
    assert.deepEqual(turn.loaded.map((l) => l.number), [3]);
    const c3 = conv.citations.find((c) => c.number === 3)!;
    // A cited sentence may run over a caption's line break, which the part's text reads as a space.
    assert.equal(turn.loaded[0]!.text, (await fileSlice(dir, c3.span.source)).replace(/\s*\n\s*/g, ' '), 'the loaded text is the original file slice');
    assert.ok(turn.loaded[0]!.before.length > 0 || turn.loaded[0]!.after.length > 0, 'some context around it');
    assert.ok(turn.answer.includes(turn.loaded[0]!.text), 'shown verbatim');
    assert.deepEqual(turn.citations.map((c) => c.number), [3]);
    const two = await runChatTurn(ctx, conv, 'What do [1][5] say?', { promptsDir: PROMPTS });
    assert.deepEqual(two.loaded.map((l) => l.number), [1, 5]);
    const none = await runChatTurn(ctx, conv, 'What does source 999 say?', { promptsDir: PROMPTS });
    assert.deepEqual(none.loaded, []);
    assert.ok(none.notes.some((n) => /no citation \[999\]/.test(n)));
  });

  test('a question about the findings is answered from the report, every [n] resolving to a stored span', async () => {
    const conv = await createConversation(dir, { runId });
    const turn = await runChatTurn(ctx, conv, 'What is the main conclusion?', { promptsDir: PROMPTS });
    assert.equal(turn.mode, 'report');
    assert.equal(turn.engine, 'extractive');
    const nums = [...turn.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    assert.ok(nums.length > 0, 'the answer cites');
    for (const n of nums) assert.ok(conv.citations.some((c) => c.number === n && c.span.source.file), `[${n}] resolves`);
  });

  test('a question beyond the report retrieves and cites new spans, numbered after the report', async () => {
    const conv = await createConversation(dir, { runId });
    const reportMax = Math.max(...conv.citations.map((c) => c.number));
    const turn = await runChatTurn(ctx, conv, 'What did Daniel say about retail sales and parking?', { promptsDir: PROMPTS });
    assert.equal(turn.mode, 'corpus');
    assert.ok(turn.citations.length > 0);
    for (const c of turn.citations) {
      assert.ok(c.number > reportMax, `[${c.number}] continues the report's numbering (${reportMax})`);
      assert.equal(c.span.item_id, 'city-cycling-podcast');
      assert.match(await fileSlice(dir, c.span.source), /parking|Sales/);
    }
    // Asking again cites the same span with the same number.
    const again = await runChatTurn(ctx, conv, 'What did Daniel say about retail sales and parking?', { promptsDir: PROMPTS });
    assert.deepEqual(again.citations.map((c) => c.number), turn.citations.map((c) => c.number));
  });

  test('a pronoun resolves from an earlier turn; the conversation reloads; a bad line is reported, the rest loads', async () => {
    const conv = await createConversation(dir, { runId: null });
    await runChatTurn(ctx, conv, 'What did Daniel say about retail sales?', { promptsDir: PROMPTS });
    const t2 = await runChatTurn(ctx, conv, 'And what did he say about injuries?', { promptsDir: PROMPTS });
    assert.deepEqual(t2.query.entities.map((e) => e.label), ['Daniel']);
    assert.match(t2.answer, /injuries/);
    await appendFile(path.join(chatsDir(dir), `${conv.header.id}.jsonl`), '{"turn": "broken"\n');
    const problems: string[] = [];
    const back = await loadConversation(dir, conv.header.id, problems);
    assert.equal(back.turns.length, 2);
    assert.match(problems[0] ?? '', /\.jsonl:4:/);
    assert.ok((await listConversations(dir)).some((s) => s.id === conv.header.id && s.turns === 2));
  });

  test('CLI: chat --run latest --message … --json, and a pronoun across two calls of the same conversation', async () => {
    const r1 = await runCli(['chat', dir, '--run', 'latest', '--conversation', 'cli-1', '--message', '引用3的原文是什么？', '--json']);
    assert.equal(r1.code, 0, r1.err);
    const j1 = JSON.parse(r1.out) as { conversation: string; turn: number; answer: string; loaded: number[]; citations: { number: number; span: { item_id: string } }[]; query: { intent: string }; usage: unknown; ms: number };
    assert.equal(j1.conversation, 'cli-1');
    assert.equal(j1.query.intent, 'citation_lookup');
    assert.deepEqual(j1.loaded, [3]);
    const r2 = await runCli(['chat', dir, '--run', 'latest', '--conversation', 'cli-1', '--message', 'What did Daniel say about parking?', '--json']);
    const r3 = await runCli(['chat', dir, '--run', 'latest', '--conversation', 'cli-1', '--message', 'And what did he say about injuries?', '--json']);
    assert.equal(r3.code, 0, r3.err);
    const j3 = JSON.parse(r3.out) as { turn: number; query: { entities: string[] } };
    assert.equal(j3.turn, 3);
    assert.deepEqual(j3.query.entities, ['Daniel']);
    assert.equal(r2.code, 0);
    const bad = await runCli(['chat', dir, '--run', 'nope', '--message', 'x']);
    assert.equal(bad.code, 2);
  });

  test('CLI: the interactive prompt answers line by line; /sources lists the citations; /quit leaves', () => {
    const main = path.join(__dirname, '..', '..', 'src', 'cli', 'main.ts');
    const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'chat', dir, '--run', 'latest'], { input: 'What does [2] say?\n/sources\n/quit\n', encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Ask a question/);
    // Where [1] and [2] point comes from the report's own source list.
    const sources = JSON.parse(readFileSync(path.join(dir, '.marker-research', 'runs', runId, 'report.sources.json'), 'utf8')) as { citations: { number: number; span: { source: { file: string; startLine: number } } }[] };
    const at = (n: number): string => {
      const c = sources.citations.find((x) => x.number === n)!;
      return `${c.span.source.file}:${c.span.source.startLine + 1}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    };
    assert.match(r.stdout, new RegExp(`\\*\\*\\[2\\] ${at(2)}`));
    assert.match(r.stdout, new RegExp(`\\[1\\] ${at(1)}`), '/sources lists the report citations');
  });
});

describe('citation numbers', () => {
  test('unknown numbers are removed from an answer, known ones kept in order', () => {
    const r = checkAnswerCitations('Range fell [2][9]. Costs rose [1, 9] and [3].', new Set([1, 2, 3]));
    assert.equal(r.text, 'Range fell [2]. Costs rose [1] and [3].');
    assert.deepEqual(r.used, [2, 1, 3]);
    assert.deepEqual(r.removed, [9]);
  });
  test('a new span gets the next number; the same span keeps its number', async () => {
    const corpus = await loadCorpus(DEMO);
    const item = corpus.items.find((i) => i.id === 'city-cycling-podcast')!;
    const span = { itemId: item.id, part: 'transcript' as const, start: 0, end: 40 };
    const first = numberSpans([], [span, { ...span, end: 60 }, span], corpus);
    assert.deepEqual(first.map((c) => c.number), [1, 2]);
    assert.deepEqual(numberSpans(first, [span], corpus).map((c) => c.number), [1]);
  });
});
