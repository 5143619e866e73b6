/**
 * Validation of what a model asks for (issue 10): content requests are checked one by one — shape
 * (the request schema), ids (a loaded item or marker is served whatever its id holds; an unknown
 * id must not look like a path) — and a rejected one gets a message the model can act on, without
 * taking the others down. Plans (edited by hand or by a model) are checked against the corpus.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { z } from 'zod';
import type { Corpus } from '../../src/core/corpus/types';
import { makeMarker } from '../../src/core/markers/build';
import { EXTRACTIVE_VERSION } from '../../src/core/markers/generate';
import type { ItemMarkers, Marker } from '../../src/core/markers/schema';
import { CondensedClaims, type CondensedState } from '../../src/core/research/condensedSource';
import { badId, RetrievalHandler, SourceRegistry } from '../../src/core/research/handler';
import { validatePlan } from '../../src/core/research/plan';
import { contentRequestSchema, researchConfigSchema } from '../../src/core/research/schema';
import { openSession, type Session } from '../../src/core/research/session';
import type { Logger } from '../../src/core/util/log';
import { itemOf, transcriptPart } from '../support/parts';

/** A logger that keeps every line, `level message` (test/support/testing.ts has one too, but loads the CLI). */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: (m) => lines.push(`debug ${m}`), info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

const ITEMS = {
  winter: ['The battery lost a third of its range in the cold.', 'The heat pump helped, but not enough.'],
  'season1/ep1': ['Fast charging took forty minutes instead of twenty-five.', 'The charger was outside in the snow.'],
  'a..b': ['Tyre pressure dropped overnight in the frost.'],
};

const corpus: Corpus = {
  root: '/corpus',
  items: Object.entries(ITEMS).map(([id, turns]) => itemOf(id, { transcript: transcriptPart(turns, `${id}/transcript.json`) })),
  problems: [],
  stats: { items: 3, transcripts: 3, commentParts: 0, words: 0, comments: 0, emptyComments: 0, skipped: 0, filesRead: 3 },
};

function markersOf(itemId: string): { record: ItemMarkers; fact: Marker } {
  const part = corpus.items.find((i) => i.id === itemId)!.transcript!;
  const fact = makeMarker(itemId, 'FACT', part.segments[0]!.text, 'range', 0.8, [
    { quote: part.segments[0]!.text, part: 'transcript', start: 0, end: part.segments[0]!.text.length, match: 'extractive', source: { file: part.file.relPath, startLine: 0, startColumn: 0, endLine: 0, endColumn: part.segments[0]!.text.length } },
  ]);
  const record: ItemMarkers = {
    item_id: itemId,
    title: itemId,
    content_hash: 'h',
    engine: 'extractive',
    model: null,
    prompt_version: EXTRACTIVE_VERSION,
    cache_key: 'k',
    generated_at: '',
    transcript_summary: { key_facts: [fact], key_opinions: [], key_datapoints: [], topic_areas: [], word_count: 10, total_markers: 1 },
    comments_summary: null,
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  };
  return { record, fact };
}

const MARKERS = new Map(Object.keys(ITEMS).map((id) => [id, markersOf(id).record]));
const FACT = (id: string): Marker => markersOf(id).fact;

function handler(config: Partial<ReturnType<typeof researchConfigSchema.parse>> = {}): RetrievalHandler {
  return new RetrievalHandler(corpus, MARKERS, researchConfigSchema.parse({ max_content_items_per_turn: 10, ...config }), new SourceRegistry());
}

const serve = (requests: unknown[], opts: { itemScores?: Map<string, number>; markerScores?: Map<string, number>; config?: Partial<ReturnType<typeof researchConfigSchema.parse>> } = {}) =>
  handler(opts.config).serveTurn(requests, { used: 0 }, { stepId: 's1', round: 1, ...(opts.itemScores ? { itemScores: opts.itemScores } : {}), ...(opts.markerScores ? { markerScores: opts.markerScores } : {}) });

describe('badId: what an unknown id may not be', () => {
  test('not a string, empty or blank', () => {
    for (const id of [undefined, null, 42, {}, ['a'], '', '   ', '\t\n']) assert.equal(badId(id), 'an id must be a non-empty string', JSON.stringify(id));
  });

  test('path-like: a slash, a backslash, "..", a NUL, or longer than 300 characters', () => {
    for (const id of ['a/b', '/etc/passwd', 'C:\\Windows', '..', 'x..y', 'nul\0byte', 'x'.repeat(301)]) assert.match(badId(id) ?? '', /looks like a path; ids are the item and marker ids of the overview$/, JSON.stringify(id));
    assert.equal(badId('a/b'), '"a/b" looks like a path; ids are the item and marker ids of the overview');
    assert.equal(badId(`${'y'.repeat(100)}/`), `"${'y'.repeat(80)}" looks like a path; ids are the item and marker ids of the overview`, 'the id is cut to 80 characters');
  });

  test('ordinary ids are well-formed', () => {
    for (const id of ['ok-id', 'ev_winter.range', 'a.b', '电动车续航', 'x'.repeat(300), 'ev:F:0123456789', ' padded ']) assert.equal(badId(id), undefined, id);
  });
});

describe('the content request schema', () => {
  const ok = (r: unknown): boolean => contentRequestSchema.safeParse(r).success;

  test('each request type with its fields', () => {
    assert.ok(ok({ type: 'full_content_item', item_id: 'winter' }));
    assert.ok(ok({ type: 'full_content_item', item_id: 'winter', part: 'comments', chunk: 0 }));
    assert.ok(ok({ type: 'full_content_item', item_id: 'winter', part: 'transcript_with_comments', chunk: 3 }));
    assert.ok(ok({ type: 'by_marker', marker_id: 'm', context_words: 2000 }));
    assert.ok(ok({ type: 'by_marker', marker_id: 'm', context_words: 1 }));
    assert.ok(ok({ type: 'by_topic', topic: 'range', item_ids: ['winter'], max_results: 20 }));
    assert.ok(ok({ type: 'by_topic', topic: 'range', max_results: 1 }));
    assert.ok(ok({ type: 'selective_markers', item_id: 'winter', kinds: ['FACT', 'OPINION', 'DATA', 'ENGAGEMENT'] }));
  });

  test('condensed claims: an item, optionally parts, categories and a chunk', () => {
    assert.ok(ok({ type: 'condensed_claims', item_id: 'winter' }));
    assert.ok(ok({ type: 'condensed_claims', item_id: 'winter', part: 'transcript', categories: ['battery', 'charging'], chunk: 2 }));
    assert.equal(ok({ type: 'condensed_claims', item_id: 'winter', categories: [''] }), false);
    assert.equal(ok({ type: 'condensed_claims', item_id: 'winter', chunk: -1 }), false);
  });

  test('the JSON schema the model sees says what the optional fields mean', () => {
    const json = JSON.stringify(z.toJSONSchema(contentRequestSchema));
    for (const d of ['for an item sent in chunks: which chunk', 'only claims of these categories', 'for claims sent in chunks: which chunk']) assert.ok(json.includes(d), d);
  });

  test('out-of-range numbers, empty topics and kinds, unknown types and parts are refused', () => {
    for (const r of [
      { type: 'full_content_item', item_id: 'winter', chunk: -1 },
      { type: 'full_content_item', item_id: 'winter', chunk: 1.5 },
      { type: 'full_content_item', item_id: 'winter', part: 'video' },
      { type: 'full_content_item' },
      { type: 'by_marker', marker_id: 'm', context_words: 0 },
      { type: 'by_marker', marker_id: 'm', context_words: 2001 },
      { type: 'by_marker', marker_id: 'm', context_words: 2.5 },
      { type: 'by_topic', topic: '' },
      { type: 'by_topic', topic: 'range', max_results: 0 },
      { type: 'by_topic', topic: 'range', max_results: 21 },
      { type: 'by_topic', topic: 'range', item_ids: 'winter' },
      { type: 'selective_markers', item_id: 'winter', kinds: [] },
      { type: 'selective_markers', item_id: 'winter', kinds: ['NONSENSE'] },
      { type: 'everything' },
      { kind: 'by_topic', topic: 'x' },
      'give me everything',
      null,
    ]) assert.equal(ok(r), false, JSON.stringify(r));
  });
});

describe('serving requests: validation one by one', () => {
  test('a malformed request is rejected with the path of what is wrong; the others are served', () => {
    const turn = serve([
      { type: 'selective_markers', item_id: 'winter', kinds: ['NONSENSE'] },
      { type: 'by_topic', topic: '' },
      'just text',
      { type: 'full_content_item', item_id: 'winter' },
    ]);
    assert.deepEqual(turn.entries.map((e) => e.status), ['rejected', 'rejected', 'rejected', 'served']);
    assert.equal(turn.rejected, 3);
    assert.match(turn.entries[0]!.reason ?? '', /^malformed request: kinds\.0: /);
    assert.match(turn.entries[1]!.reason ?? '', /^malformed request: topic: /);
    assert.match(turn.entries[2]!.reason ?? '', /^malformed request: request: /);
    assert.match(turn.text, /### Request 1: selective_markers winter — rejected: malformed request: kinds\.0: .*Use only the item ids and marker ids listed in the overview\./);
    assert.match(turn.text, /### Request 3 — rejected: malformed request: request: /);
    assert.match(turn.text, /### Request 4: full_content_item winter — served\n/);
  });

  test('unknown ids are rejected — as paths when they look like one, as unknown otherwise', () => {
    const turn = serve([
      { type: 'full_content_item', item_id: '../secrets' },
      { type: 'full_content_item', item_id: 'nope' },
      { type: 'selective_markers', item_id: 'gone', kinds: ['FACT'] },
      { type: 'by_marker', marker_id: 'x:F:0123456789' },
      { type: 'by_marker', marker_id: '../x:F:0123456789' },
      { type: 'by_topic', topic: 'range', item_ids: ['winter', 'nope'] },
      { type: 'by_topic', topic: 'range', item_ids: ['..\\x'] },
      { type: 'full_content_item', item_id: `${'z'.repeat(90)}` },
    ]);
    assert.deepEqual(turn.entries.map((e) => e.reason), [
      '"../secrets" looks like a path; ids are the item and marker ids of the overview',
      'unknown item id "nope"',
      'unknown item id "gone"',
      'unknown marker id "x:F:0123456789"',
      '"../x:F:0123456789" looks like a path; ids are the item and marker ids of the overview',
      'unknown item id "nope"',
      '"..\\x" looks like a path; ids are the item and marker ids of the overview',
      `unknown item id "${'z'.repeat(80)}"`,
    ]);
    assert.ok(turn.entries.every((e) => e.status === 'rejected' && e.served.length === 0));
    assert.equal(turn.sources.length, 0);
  });

  test('loaded items and their markers are served whatever their ids hold ("/", "..")', () => {
    const turn = serve([
      { type: 'full_content_item', item_id: 'season1/ep1' },
      { type: 'selective_markers', item_id: 'a..b', kinds: ['FACT'] },
      { type: 'by_marker', marker_id: FACT('season1/ep1').id },
      { type: 'by_topic', topic: 'charging', item_ids: ['season1/ep1'] },
    ]);
    assert.deepEqual(turn.entries.map((e) => e.status), ['served', 'served', 'served', 'served'], JSON.stringify(turn.entries.map((e) => e.reason)));
    assert.equal(turn.rejected, 0);
    assert.ok(turn.sources.some((s) => s.item_id === 'season1/ep1'));
    assert.ok(turn.sources.some((s) => s.item_id === 'a..b'));
  });

  test('an unknown marker id is cut to 80 characters in the message', () => {
    const id = `${'m'.repeat(90)}:F:0123456789`;
    assert.equal(serve([{ type: 'by_marker', marker_id: id }]).entries[0]!.reason, `unknown marker id "${'m'.repeat(80)}"`);
  });

  test('a marker request ranks by its marker\'s score plus its item\'s', () => {
    const turn = serve(
      [
        { type: 'full_content_item', item_id: 'a..b' },
        { type: 'by_marker', marker_id: FACT('winter').id },
      ],
      { itemScores: new Map([['winter', 5], ['a..b', 3]]), markerScores: new Map([[FACT('winter').id, 0]]), config: { max_content_items_per_turn: 1 } },
    );
    assert.deepEqual(turn.entries.map((e) => e.status), ['deferred', 'served']);
  });

  test('requests are taken by relevance (marker, then item score), then in order; the per-turn item limit defers the rest', () => {
    const itemScores = new Map([['season1/ep1', 5], ['winter', 1]]);
    const turn = serve(
      [
        { type: 'full_content_item', item_id: 'winter' },
        { type: 'full_content_item', item_id: 'a..b' },
        { type: 'full_content_item', item_id: 'season1/ep1' },
      ],
      { itemScores, config: { max_content_items_per_turn: 2 } },
    );
    assert.deepEqual(turn.entries.map((e) => e.status), ['served', 'deferred', 'served']);
    assert.deepEqual(turn.deferred, ['a..b']);
    // The first served (highest score) got the first source id.
    assert.equal(turn.sources[0]!.item_id, 'season1/ep1');

    const markerScores = new Map([[FACT('a..b').id, 9]]);
    const byMarker = serve(
      [
        { type: 'full_content_item', item_id: 'season1/ep1' },
        { type: 'by_marker', marker_id: FACT('a..b').id },
        { type: 'by_topic', topic: 'battery range', item_ids: ['winter'] },
      ],
      { itemScores, markerScores, config: { max_content_items_per_turn: 1 } },
    );
    assert.deepEqual(byMarker.entries.map((e) => e.status), ['deferred', 'served', 'served'], 'the marker (score 9) goes first; by_topic names no new item');
  });

  test('by_topic takes the best score of its items', () => {
    const turn = serve(
      [
        { type: 'full_content_item', item_id: 'winter' },
        { type: 'by_topic', topic: 'charging', item_ids: ['a..b', 'season1/ep1'] },
      ],
      { itemScores: new Map([['winter', 2], ['season1/ep1', 3]]) },
    );
    assert.deepEqual(turn.entries.map((e) => e.status), ['served', 'served']);
    // Served in order of relevance: the topic request (score 3) first, so its passage got S1.
    assert.equal(turn.entries[1]!.served[0]!.source_id, 'S1');
    assert.equal(turn.entries[1]!.served[0]!.item_id, 'season1/ep1');
    const unscored = serve([
      { type: 'full_content_item', item_id: 'winter' },
      { type: 'by_topic', topic: 'charging', item_ids: ['a..b', 'season1/ep1'] },
    ]);
    assert.equal(unscored.entries[0]!.served[0]!.source_id, 'S1', 'equal scores: in the order asked');
  });
});

describe('condensed claims requests', () => {
  const condensedItem = (itemId: string) => ({
    item_id: itemId, title: itemId, content_hash: 'h', model: 'm', prompt_version: 'condense@1', cache_key: 'k', generated_at: '2025-01-01T00:00:00Z',
    claims: [], categories: [], coverage: { transcript: null, comments: null }, usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  });
  const states: CondensedState[] = [
    { status: 'fresh', itemId: 'winter', condensed: condensedItem('winter'), claims: [] },
    { status: 'stale', itemId: 'season1/ep1', reason: 'the condensation of "season1/ep1" is stale' },
    { status: 'invalid', itemId: 'a..b', reason: 'the condensation of "a..b" cannot be used' },
  ];
  const h = (): RetrievalHandler => new RetrievalHandler(corpus, MARKERS, researchConfigSchema.parse({ max_content_items_per_turn: 10 }), new SourceRegistry(), undefined, new CondensedClaims(states));
  const instead = 'Request full_content_item (or by_topic / selective_markers) for this item instead.';

  test('only a fresh condensation of a known item is served; the others are refused with their reason and what to do instead', () => {
    const turn = h().serveTurn(
      [
        { type: 'condensed_claims', item_id: 'nope' },
        { type: 'condensed_claims', item_id: '../x' },
        { type: 'condensed_claims', item_id: 'season1/ep1' },
        { type: 'condensed_claims', item_id: 'a..b' },
        { type: 'condensed_claims', item_id: 'winter' },
      ],
      { used: 0 },
      { stepId: 's1', round: 1 },
    );
    assert.deepEqual(turn.entries.map((e) => e.status), ['rejected', 'rejected', 'rejected', 'rejected', 'served']);
    assert.deepEqual(turn.entries.slice(0, 4).map((e) => e.reason), [
      'unknown item id "nope"',
      '"../x" looks like a path; ids are the item and marker ids of the overview',
      'the condensation of "season1/ep1" is stale',
      'the condensation of "a..b" cannot be used',
    ]);
    assert.ok(turn.text.includes(`### Request 3: condensed_claims season1/ep1 — rejected: the condensation of "season1/ep1" is stale. ${instead}`), turn.text);
    assert.ok(turn.text.includes('### Request 1: condensed_claims nope — rejected: unknown item id "nope". Use only the item ids and marker ids listed in the overview.'), turn.text);
  });

  test('an item never condensed (or no condensations at all) is refused, saying so', () => {
    const none = handler().serveTurn([{ type: 'condensed_claims', item_id: 'winter' }], { used: 0 }, { stepId: 's1', round: 1 });
    assert.equal(none.entries[0]!.reason, '"winter" has no condensed claims (it was not condensed)');
    assert.ok(none.text.endsWith(instead));
    const other = new RetrievalHandler(corpus, MARKERS, researchConfigSchema.parse({}), new SourceRegistry(), undefined, new CondensedClaims([states[0]!])).serveTurn(
      [{ type: 'condensed_claims', item_id: 'a..b' }],
      { used: 0 },
      { stepId: 's1', round: 1 },
    );
    assert.equal(other.entries[0]!.reason, '"a..b" has no condensed claims (it was not condensed)');
  });

  test('a condensed claims request counts its item against the per-turn limit, by the item\'s score', () => {
    const turn = new RetrievalHandler(corpus, MARKERS, researchConfigSchema.parse({ max_content_items_per_turn: 1 }), new SourceRegistry(), undefined, new CondensedClaims(states)).serveTurn(
      [
        { type: 'full_content_item', item_id: 'a..b' },
        { type: 'condensed_claims', item_id: 'winter' },
      ],
      { used: 0 },
      { stepId: 's1', round: 1, itemScores: new Map([['winter', 2], ['a..b', 1]]) },
    );
    assert.deepEqual(turn.entries.map((e) => e.status), ['deferred', 'served']);
  });
});

describe('plan validation', () => {
  let s: Session;
  const log = recordingLogger();
  before(async () => {
    s = await openSession({ corpus, engine: 'extractive', promptsDir: 'prompts', markers: MARKERS, log });
  });
  const step = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ step_id: 's1', goal: 'g', required_content_items: ['winter'], required_data: 'transcript', marker_relevance: [], retrieval_strategy: 'markers_only', ...over });

  test('a valid plan comes back as it was', () => {
    const plan = { goal: 'g', complexity: 'light', steps: [step({ marker_relevance: [FACT('winter').id] }), step({ step_id: 's2', required_content_items: ['season1/ep1', 'a..b'] })] };
    assert.deepEqual(validatePlan(s, plan), plan);
  });

  test('a schema error names the field', () => {
    assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'light', steps: [] }), /^Error: research: plan: steps: /);
    assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'huge', steps: [step()] }), /^Error: research: plan: complexity: /);
    assert.throws(() => validatePlan(s, 'plan'), /^Error: research: plan: : /);
    assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'light', steps: [step({ goal: 7 })] }), /^Error: research: plan: steps\.0\.goal: /);
  });

  test('unknown item ids are refused, listing up to ten', () => {
    const ids = Array.from({ length: 12 }, (_, k) => `nope${k}`);
    assert.throws(() => validatePlan(s, { goal: 'g', complexity: 'light', steps: [step({ required_content_items: ['winter', ...ids] })] }), (e: Error) => e.message === `research: plan: unknown item ids: ${ids.slice(0, 10).join(', ')}`);
  });

  test('no unknown marker ids: no warning', () => {
    const before = log.lines.length;
    validatePlan(s, { goal: 'g', complexity: 'light', steps: [step({ marker_relevance: [FACT('winter').id] })] });
    assert.deepEqual(log.lines.slice(before), []);
  });

  test('the warning lists up to ten unknown marker ids', () => {
    const ids = Array.from({ length: 12 }, (_, k) => `winter:F:${String(k).padStart(10, '0')}`);
    const out = validatePlan(s, { goal: 'g', complexity: 'light', steps: [step({ marker_relevance: ids })] });
    assert.deepEqual(out.steps[0]!.marker_relevance, []);
    assert.equal(log.lines[log.lines.length - 1], `warn research: plan: dropping unknown marker ids: ${ids.slice(0, 10).join(', ')}`);
  });

  test('unknown marker ids are dropped with a warning; known ones kept', () => {
    const known = FACT('winter').id;
    const out = validatePlan(s, { goal: 'g', complexity: 'light', steps: [step({ marker_relevance: [known, 'winter:F:0000000000'] })] });
    assert.deepEqual(out.steps[0]!.marker_relevance, [known]);
    assert.ok(log.lines.some((l) => l === 'warn research: plan: dropping unknown marker ids: winter:F:0000000000'), log.lines.join('\n'));
  });

  test('step ids must be safe and unique ignoring case, unless renaming is asked for', () => {
    const two = (a: string, b: string) => ({ goal: 'g', complexity: 'light', steps: [step({ step_id: a }), step({ step_id: b })] });
    assert.throws(() => validatePlan(s, two('s1', 'S1')), (e: Error) => e.message === 'research: plan: step ids must be unique (also ignoring case): "S1"');
    assert.throws(() => validatePlan(s, two('s1', '../evil')), (e: Error) => e.message === 'research: plan: step id "../evil" may only contain letters, digits, \'_\' and \'-\' (at most 80)');
    assert.throws(() => validatePlan(s, two('a b', 's2')), /step id "a b" may only contain/);
    assert.throws(() => validatePlan(s, two('x'.repeat(90), 's2')), (e: Error) => e.message === `research: plan: step id "${'x'.repeat(80)}" may only contain letters, digits, '_' and '-' (at most 80)`);
    const renamed = validatePlan(s, two('s1', 'S1'), { renameIds: true });
    assert.deepEqual(renamed.steps.map((x) => x.step_id), ['s1', 'S1_2']);
    assert.deepEqual(validatePlan(s, two('../evil', 'ok'), { renameIds: true }).steps.map((x) => x.step_id), ['evil', 'ok']);
  });
});
