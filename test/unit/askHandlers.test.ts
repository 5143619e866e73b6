/**
 * The engine's ask requests through the protocol (an in-memory connection to
 * the real server) on a copy of the demo corpus with extractive markers: a
 * question answers with the view the sidebar shows and, for every hit, the
 * original file and range the client opens (the range's text is in the file
 * and carries the hit's words); the item scope; a hit place resolved on its
 * own; cancel through the request's token; errors with a reason.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { ENGINE_ERROR_CODE, indexRequest, type EngineErrorData } from '../../src/shared/lspProtocol';
import { askRequest, hitPlaceRequest, type AskResponse, type SpanPlace } from '../../src/shared/lspProtocol';
import { settingsSchema } from '../../src/shared/settings';
import { freshDemoCorpus } from '../support/demoCorpus';
import { startEngine, type EngineConnection } from '../support/engineConnection';
import { rangeText } from '../support/spanText';

const settings = settingsSchema.parse({});

/** Words of a quote (letters, at least 4 of them), lowercased. */
const wordsOf = (s: string): string[] => (s.toLowerCase().match(/\p{L}{4,}/gu) ?? []).slice(0, 6);

const isReason = (reason: string) => (e: unknown): boolean => e instanceof ResponseError && e.code === ENGINE_ERROR_CODE && (e.data as EngineErrorData | undefined)?.reason === reason;

describe('engine: ask requests through the protocol', () => {
  let work: string;
  let root: string;
  let engine: EngineConnection;
  let askId = 0;
  const ask = (question: string, extra: { itemId?: string | null; session?: string[] } = {}, token?: CancellationTokenSource): Promise<AskResponse> =>
    engine.client.sendRequest(askRequest.method, { settings, askId: ++askId, question, itemId: extra.itemId ?? null, session: extra.session ?? [] }, token?.token) as Promise<AskResponse>;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mr-ask-handlers-'));
    root = (await freshDemoCorpus(work, 'demo')).root;
    engine = await startEngine();
  });

  after(async () => {
    engine.close();
    await rm(work, { recursive: true, force: true });
  });

  test('before an index: a question is refused with reason no-corpus', async () => {
    await assert.rejects(ask('What do listeners say about the bike lanes?'), (e: unknown) => isReason('no-corpus')(e) && /Index Corpus/.test((e as Error).message));
  });

  test('cancel through the request token answers RequestCancelled; the next question is answered', async () => {
    await engine.client.sendRequest(indexRequest.method, { root, settings });
    const source = new CancellationTokenSource();
    const pending = ask('What did the reviewers say about the winter range of the heat pump?', {}, source);
    source.cancel();
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === -32800);
    assert.ok(engine.logs.some((l) => /ask #\d+: cancelled after/.test(l.message)), 'the engine logs the cancel');
    const r = await ask('What did the reviewers say about the winter range of the heat pump?');
    assert.ok(r.result.hits.length > 0);
  });

  test('a question answers with the sidebar view and, per hit, the original place whose text carries the hit', async () => {
    const r = await ask('What did the reviewers say about the winter range of the heat pump?');
    assert.equal(r.result.askId, askId);
    assert.match(r.result.query.line, /rules$/);
    assert.ok(r.result.hits.length > 0, 'hits');
    assert.equal(r.result.hits[0]!.itemId, 'ev-winter-range', 'the Chinese item is found for an English question');
    assert.equal(r.places.length, r.result.hits.length, 'one place per hit');
    let checked = 0;
    for (const [i, h] of r.result.hits.entries()) {
      const place = r.places[i];
      assert.ok(place, `hit ${i} has a place`);
      assert.deepEqual([place.itemId, place.part, place.start, place.end], [h.itemId, h.part, h.start, h.end], 'the place names the span the view shows');
      assert.ok(path.isAbsolute(place.path) && place.path.startsWith(root + path.sep), `${place.path} is inside the corpus`);
      assert.equal(place.where, h.where, 'file:line:column as the view shows it');
      const text = (await rangeText(place)).toLowerCase();
      assert.ok(text.trim().length > 0, `hit ${i}: the range has text`);
      const words = wordsOf(h.quote.replace(/…/g, ' '));
      if (!words.length) continue;
      const found = words.filter((w) => text.includes(w));
      assert.ok(found.length >= Math.ceil(words.length / 2), `hit ${i}: the range text carries the quote's words (${words.join(', ')}) — ${text.slice(0, 200)}`);
      checked++;
    }
    assert.ok(checked > 0, 'at least one hit quote was checked against its file');
  });

  test('limited to an item: the scope says so and every hit is of that item; an unknown item asks the whole corpus with a note', async () => {
    const r = await ask('What do listeners say about the bike lanes in the comments?', { itemId: 'city-cycling-podcast' });
    assert.deepEqual(r.result.scope?.itemId, 'city-cycling-podcast');
    assert.ok(r.result.hits.length > 0);
    assert.ok(r.result.hits.every((h) => h.itemId === 'city-cycling-podcast'));
    const gone = await ask('What do listeners say about the bike lanes?', { itemId: 'no-such-item' });
    assert.equal(gone.result.scope, null);
    assert.ok(gone.result.notes.some((n) => /not in the corpus any more/.test(n)));
  });

  test('a hit place on its own: the same place; a span past the end or of an unknown item is not-found', async () => {
    const r = await ask('What did Daniel say about protected lanes?');
    const h = r.result.hits[0]!;
    const place = (await engine.client.sendRequest(hitPlaceRequest.method, { itemId: h.itemId, part: h.part, start: h.start, end: h.end })) as SpanPlace;
    assert.deepEqual(place, r.places[0]);
    await assert.rejects(engine.client.sendRequest(hitPlaceRequest.method, { itemId: 'nope', part: 'transcript', start: 0, end: 5 }), isReason('not-found'));
    await assert.rejects(engine.client.sendRequest(hitPlaceRequest.method, { itemId: h.itemId, part: h.part, start: 0, end: 10_000_000 }), isReason('not-found'));
    await assert.rejects(engine.client.sendRequest(hitPlaceRequest.method, { itemId: h.itemId, part: 'elsewhere', start: 0, end: 5 }), isReason('bad-request'));
  });

  test('earlier questions resolve a pronoun', async () => {
    const r = await ask('And what did he say in the first 3 minutes?', { itemId: 'city-cycling-podcast', session: ['What did Daniel say about protected lanes?'] });
    assert.match(r.result.query.line, /Daniel/);
    assert.ok(r.result.query.entities.some((e) => e.fromSession));
  });
});
