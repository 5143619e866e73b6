/**
 * `marker-research ask --json` and `eval ask --json` offline, on a copy of the demo corpus with a
 * small labelled ask.jsonl written here.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/testing';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');

const LABELS = [
  { query_id: 'a1', item_id: 'ev-winter-range', session: [], query: '这期视频的主要内容是什么？', intent: 'summary', entities: [], time_constraint: null, part: null, citation_numbers: [] },
  { query_id: 'a2', item_id: 'city-cycling-podcast', session: [], query: 'What do listeners say about the bike lanes in the comments?', intent: 'analyze_reception', entities: [], time_constraint: null, part: 'comments', citation_numbers: [] },
  { query_id: 'a3', item_id: 'ev-winter-range', session: ['续航掉了多少？'], query: '引用 2 说的是什么？', intent: 'citation_lookup', entities: [], time_constraint: null, part: null, citation_numbers: [2] },
  { query_id: 'a4', item_id: 'city-cycling-podcast', session: [], query: 'What was said in the first 2 minutes?', intent: 'summary', entities: [], time_constraint: { start_s: 0, end_s: 120 }, part: null, citation_numbers: [] },
];

describe('ask and eval ask', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mr-ask-'));
    await cp(DEMO, dir, { recursive: true });
    await writeFile(path.join(dir, 'ask.jsonl'), `${LABELS.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('ask --json: the understood query and hits with matchedBy', async () => {
    const r = await runCli(['ask', dir, 'What did the reviewers say about the winter range of the heat pump?', '--json']);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { query: Record<string, unknown>; hits: { itemId: string; matchedBy: string[]; source: unknown; text: string }[]; ms: number };
    for (const k of ['intent', 'entities', 'keywords', 'timeConstraint', 'part', 'citationNumbers', 'resolvedQuery', 'confidence', 'strategies']) assert.ok(k in j.query, k);
    assert.ok(j.hits.length > 0, 'the Chinese item is found for an English question');
    assert.equal(j.hits[0]!.itemId, 'ev-winter-range');
    for (const h of j.hits) assert.ok(h.matchedBy.length && h.source && h.text);
    assert.equal(typeof j.ms, 'number');
  });

  test('ask with --item, --history and a time phrase; the readable form names file:line and strategies', async () => {
    const r = await runCli(['ask', dir, 'And what did he say in the first 3 minutes?', '--item', 'city-cycling-podcast', '--history', 'What did Daniel say about protected lanes?', '--explain']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /understood: search_entity · Daniel · 0:00–3:00/);
    assert.match(r.out, /transcript\.vtt:\d+/);
    assert.match(r.out, /\[(?:entity|keyword)/);
  });

  test('ask --run latest: a citation number resolves to the span the report cites', async () => {
    const research = await runCli(['research', dir, '--json']);
    assert.equal(research.code, 0, research.err);
    const sources = JSON.parse(await readFile(path.join(dir, '.marker-research', 'runs', (JSON.parse(research.out) as { runId: string }).runId, 'report.sources.json'), 'utf8')) as { citations: { number: number; span: { item_id: string; start: number; end: number } }[] };
    const second = sources.citations.find((c) => c.number === 2)!;
    const r = await runCli(['ask', dir, '引用 2 说的是什么？', '--run', 'latest', '--json']);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as { query: { intent: string; citationNumbers: number[] }; hits: { itemId: string; start: number; end: number; matchedBy: string[] }[] };
    assert.equal(j.query.intent, 'citation_lookup');
    assert.deepEqual(j.query.citationNumbers, [2]);
    assert.deepEqual([j.hits[0]!.itemId, j.hits[0]!.start, j.hits[0]!.end], [second.span.item_id, second.span.start, second.span.end]);
    assert.deepEqual(j.hits[0]!.matchedBy, ['citation']);
    const missing = await runCli(['ask', dir, 'What does [999] say?', '--run', 'latest', '--json']);
    assert.match(missing.err, /no citation \[999\]/);
  });

  test('ask rejects an unknown item with a usage error', async () => {
    const r = await runCli(['ask', dir, 'anything', '--item', 'nope']);
    assert.equal(r.code, 2);
    assert.match(r.err, /no item "nope"/);
  });

  test('eval ask --json: every metric, the bad line reported with its number', async () => {
    const r = await runCli(['eval', 'ask', dir, '--json']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /ask\.jsonl:5:/);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    assert.equal(j.queries, 4);
    for (const k of ['intent_accuracy', 'entity_f1', 'time_accuracy', 'citation_accuracy', 'coref_accuracy', 'hit_at_5', 'recall_at_budget', 'p50_ms', 'p95_ms', 'confusion']) assert.ok(k in j, k);
    assert.equal(j.intent_accuracy, 1);
    assert.equal(j.time_accuracy, 1);
    assert.equal(j.citation_accuracy, 1);
  });
});
