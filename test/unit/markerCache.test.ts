/**
 * The marker cache (issue 10): an item's markers are reused only while everything they were made
 * from is the same — the item's content, the engine, the model, the prompt versions and (for a
 * model) the window settings. Changing the model or a prompt (which changes its version) must
 * regenerate. Also the marker files themselves: names, round trip, what a bad file reads as.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus, CorpusItem } from '../../src/core/corpus/types';
import type { StructuredRequest, StructuredResult } from '../../src/core/llm/types';
import { cacheKey, EXTRACTIVE_VERSION, generateMarkers, type MarkerEngine } from '../../src/core/markers/generate';
import type { MarkerModel, PromptName, PromptSource } from '../../src/core/markers/modelEngine';
import type { ItemMarkers, Marker } from '../../src/core/markers/schema';
import { allMarkers, markerFileName, markersDir, readItemMarkers, readMarkersIndex, writeItemMarkers, writeMarkersIndex } from '../../src/core/markers/store';
import { DEFAULT_DENSITY } from '../../src/core/markers/extractiveTranscript';
import { DEFAULT_WINDOW_SETTINGS, type WindowSettings } from '../../src/core/markers/windows';
import { itemOf, transcriptPart } from '../support/parts';

let work: string;
before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mr-markercache-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('cacheKey', () => {
  const item = itemOf('ev', { transcript: transcriptPart(['The battery lost a third of its range.']) }, 'sha-1');
  const versions = ['markers-comments@1', 'markers-transcript@1'];
  const key = (over: { item?: CorpusItem; engine?: 'openai' | 'ollama' | 'extractive'; model?: string | null; versions?: string[]; windows?: WindowSettings } = {}): string =>
    cacheKey(over.item ?? item, over.engine ?? 'openai', over.model === undefined ? 'gpt-4o-mini' : over.model, over.versions ?? versions, over.windows ?? DEFAULT_WINDOW_SETTINGS);

  test('is stable: the same inputs give the same key, 24 hex digits', () => {
    assert.equal(key(), key());
    assert.match(key(), /^[0-9a-f]{24}$/);
    assert.equal(key({ windows: { ...DEFAULT_WINDOW_SETTINGS } }), key(), 'equal settings, not the same object');
  });

  test('changes with the model name', () => {
    assert.notEqual(key({ model: 'gpt-4o' }), key());
    assert.notEqual(key({ model: 'qwen2.5:7b' }), key({ model: 'qwen2.5:14b' }));
  });

  test('changes with any prompt version', () => {
    assert.notEqual(key({ versions: ['markers-comments@1', 'markers-transcript@2'] }), key());
    assert.notEqual(key({ versions: ['markers-comments@2', 'markers-transcript@1'] }), key());
    assert.notEqual(key({ versions: ['markers-transcript@1'] }), key());
  });

  test('changes with the content, the engine and (for a model) the window settings', () => {
    assert.notEqual(key({ item: { ...item, contentHash: 'sha-2' } }), key());
    assert.notEqual(key({ engine: 'ollama' }), key());
    assert.notEqual(key({ windows: { ...DEFAULT_WINDOW_SETTINGS, windowWords: 2000 } }), key());
    assert.notEqual(key({ windows: { ...DEFAULT_WINDOW_SETTINGS, overlapWords: 0 } }), key());
    assert.notEqual(key({ windows: { ...DEFAULT_WINDOW_SETTINGS, windowLimit: 3 } }), key());
  });

  test('the comments judged spam (over the whole corpus) are part of the key, in any order', () => {
    const spam = (ids?: string[]): string => cacheKey(item, 'extractive', null, [EXTRACTIVE_VERSION], DEFAULT_WINDOW_SETTINGS, ids);
    assert.equal(spam([]), spam(), 'no spam: the key without spam');
    assert.notEqual(spam(['c1']), spam());
    assert.equal(spam(['c2', 'c1']), spam(['c1', 'c2']));
    assert.notEqual(spam(['c1', 'c2']), spam(['c1']));
    assert.notEqual(spam(['c1', 'c2']), spam(['c1c2']));
    assert.notEqual(spam(['c1']), spam(['c2']));
  });

  test('the extractive engine reads whole parts: window settings do not change its key', () => {
    const ex = (windows: WindowSettings): string => cacheKey(item, 'extractive', null, [EXTRACTIVE_VERSION], windows);
    assert.equal(ex({ windowWords: 2000, overlapWords: 0, windowLimit: 3 }), ex(DEFAULT_WINDOW_SETTINGS));
    assert.notEqual(cacheKey({ ...item, contentHash: 'sha-2' }, 'extractive', null, [EXTRACTIVE_VERSION], DEFAULT_WINDOW_SETTINGS), ex(DEFAULT_WINDOW_SETTINGS));
  });
});

/** An in-process model: one fact per window, quoting the window's first sentence; counts its calls. */
function fakeModel(name: string): MarkerModel & { calls: number } {
  const m = {
    provider: 'openai' as const,
    model: name,
    calls: 0,
    async complete<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
      m.calls++;
      const text = req.messages[req.messages.length - 1]!.content.split('\n').slice(1).join(' ');
      const first = /[^.!?]+[.!?]/.exec(text)?.[0].trim() ?? text;
      const value = { facts: [{ text: first, quote: first, topic: 'range', confidence: 0.8 }], opinions: [], datapoints: [], topics: ['range'] };
      return { value: value as T, usage: { promptTokens: 10, completionTokens: 5, estimated: false }, repaired: false, attempts: 1 };
    },
  };
  return m;
}

/** Prompts at the given versions; records which (name, language) pairs were asked for. */
function prompts(versions: Partial<Record<PromptName, number>> = {}, asked: string[] = []): PromptSource {
  return async (name, lang) => {
    asked.push(`${name}/${lang}`);
    return { version: `${name}@${versions[name] ?? 1}`, render: (vars) => [{ role: 'user', content: `${vars['window_label']}\n${vars['text']}` }] };
  };
}

async function corpusOf(name: string): Promise<Corpus> {
  const dir = path.join(work, name);
  await mkdir(path.join(dir, 'winter'), { recursive: true });
  await writeFile(path.join(dir, 'winter', 'transcript.txt'), 'The battery lost a third of its range in the cold.\nThe heat pump helped, but not enough.\n');
  await writeFile(path.join(dir, 'charging.transcript.txt'), 'A fast charge took forty minutes instead of twenty-five.\nThe charger was outside in the snow.\n');
  return loadCorpus(dir);
}

const statuses = (r: Awaited<ReturnType<typeof generateMarkers>>): string[] => r.items.map((i) => `${i.itemId}:${i.status}`).sort();

describe('generateMarkers: the cache is invalidated by model and prompt changes', () => {
  test('an unchanged model and prompts reuse every item; another model name regenerates every item', async () => {
    const corpus = await corpusOf('model-change');
    const model = fakeModel('model-a');
    const engine: MarkerEngine = { kind: 'model', model, prompts: prompts() };
    const first = await generateMarkers(corpus, { engine });
    assert.deepEqual(statuses(first), ['charging:generated', 'winter:generated']);
    assert.equal(first.generated, 2);
    const calls = model.calls;
    assert.ok(calls >= 2);

    const again = await generateMarkers(corpus, { engine });
    assert.deepEqual(statuses(again), ['charging:cached', 'winter:cached']);
    assert.equal(again.cached, 2);
    assert.equal(model.calls, calls, 'no model call for cached items');
    assert.deepEqual(again.usage, { promptTokens: 0, completionTokens: 0, calls: 0, failedCalls: 0 }, 'cached items cost nothing now');
    const cachedReport = again.items.find((i) => i.itemId === 'winter')!;
    assert.equal(cachedReport.markers, 1);
    assert.equal(cachedReport.grounded, 1);
    assert.equal(cachedReport.usage.calls, 1, 'the cached item reports the usage it was made with');

    const other = fakeModel('model-b');
    const changed = await generateMarkers(corpus, { engine: { kind: 'model', model: other, prompts: prompts() } });
    assert.deepEqual(statuses(changed), ['charging:generated', 'winter:generated']);
    assert.ok(other.calls >= 2, 'the new model was asked');
    const stored = await readItemMarkers(corpus.root, 'winter');
    assert.ok(stored.ok);
    assert.equal(stored.value.model, 'model-b');
  });

  test('a new version of either marker prompt regenerates every item', async () => {
    const corpus = await corpusOf('prompt-change');
    const model = fakeModel('model-a');
    await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts() } });
    const cached = await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts() } });
    assert.deepEqual(statuses(cached), ['charging:cached', 'winter:cached']);
    const before = (await readItemMarkers(corpus.root, 'winter')).ok;
    assert.ok(before);

    const t2 = await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts({ 'markers-transcript': 2 }) } });
    assert.deepEqual(statuses(t2), ['charging:generated', 'winter:generated']);
    const c2 = await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts({ 'markers-transcript': 2, 'markers-comments': 2 }) } });
    assert.deepEqual(statuses(c2), ['charging:generated', 'winter:generated'], 'the comments prompt counts even for items without comments');
    const stored = await readItemMarkers(corpus.root, 'winter');
    assert.ok(stored.ok);
    assert.equal(stored.value.prompt_version, 'markers-comments@2,markers-transcript@2', 'every version, sorted');
  });

  test('prompt versions: both prompts in both languages are asked; the stored version lists each once, sorted', async () => {
    const corpus = await corpusOf('versions');
    const asked: string[] = [];
    await generateMarkers(corpus, { engine: { kind: 'model', model: fakeModel('m'), prompts: prompts({ 'markers-transcript': 3 }, asked) } });
    for (const want of ['markers-transcript/en', 'markers-transcript/zh', 'markers-comments/en', 'markers-comments/zh']) assert.ok(asked.includes(want), `${want} asked: ${asked.join(', ')}`);
    const stored = await readItemMarkers(corpus.root, 'charging');
    assert.ok(stored.ok);
    assert.equal(stored.value.prompt_version, 'markers-comments@1,markers-transcript@3');
    // The stored key is the key of what it was made from.
    const item = corpus.items.find((i) => i.id === 'charging')!;
    assert.equal(stored.value.cache_key, cacheKey(item, 'openai', 'm', ['markers-comments@1', 'markers-transcript@3'], DEFAULT_WINDOW_SETTINGS));
    const index = await readMarkersIndex(corpus.root);
    assert.equal(index.items['charging']?.cache_key, stored.value.cache_key);
    assert.equal(index.items['charging']?.file, markerFileName('charging'));
  });

  test('window settings invalidate a model\'s markers, not the extractive engine\'s', async () => {
    const corpus = await corpusOf('windows');
    const model = fakeModel('m');
    await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts() } });
    const w = { windowWords: 500, overlapWords: 10, windowLimit: 0 };
    assert.deepEqual(statuses(await generateMarkers(corpus, { engine: { kind: 'model', model, prompts: prompts() }, windows: w })), ['charging:generated', 'winter:generated']);

    const ex = await corpusOf('windows-extractive');
    const first = await generateMarkers(ex, { engine: { kind: 'extractive' } });
    assert.equal(first.generated, 2);
    assert.deepEqual(statuses(await generateMarkers(ex, { engine: { kind: 'extractive' }, windows: w })), ['charging:cached', 'winter:cached']);
    const stored = await readItemMarkers(ex.root, 'winter');
    assert.ok(stored.ok);
    assert.equal(stored.value.prompt_version, EXTRACTIVE_VERSION);
    assert.equal(stored.value.engine, 'extractive');
    assert.equal(stored.value.model, null);
    // From the extractive engine to a model: regenerated.
    assert.deepEqual(statuses(await generateMarkers(ex, { engine: { kind: 'model', model, prompts: prompts() } })), ['charging:generated', 'winter:generated']);
  });

  test('the extractive engine\'s marker density is part of its version (the default is the plain version)', async () => {
    const corpus = await corpusOf('density');
    await generateMarkers(corpus, { engine: { kind: 'extractive' } });
    assert.deepEqual(statuses(await generateMarkers(corpus, { engine: { kind: 'extractive', density: DEFAULT_DENSITY } })), ['charging:cached', 'winter:cached']);
    assert.deepEqual(statuses(await generateMarkers(corpus, { engine: { kind: 'extractive', density: DEFAULT_DENSITY + 2 } })), ['charging:generated', 'winter:generated']);
    const stored = await readItemMarkers(corpus.root, 'winter');
    assert.ok(stored.ok);
    assert.equal(stored.value.prompt_version, `${EXTRACTIVE_VERSION}/density=${DEFAULT_DENSITY + 2}`);
    assert.deepEqual(statuses(await generateMarkers(corpus, { engine: { kind: 'extractive' } })), ['charging:generated', 'winter:generated']);
    assert.equal((await readItemMarkers(corpus.root, 'winter')).ok && (await readItemMarkers(corpus.root, 'winter') as { value: ItemMarkers }).value.prompt_version, EXTRACTIVE_VERSION);
  });

  test('changed content regenerates that item only; force regenerates all; a corrupt file is regenerated with a warning', async () => {
    const corpus = await corpusOf('content');
    const engine: MarkerEngine = { kind: 'model', model: fakeModel('m'), prompts: prompts() };
    await generateMarkers(corpus, { engine });
    await writeFile(path.join(corpus.root, 'winter', 'transcript.txt'), 'The battery lost half of its range in the cold.\n');
    const edited = await loadCorpus(corpus.root);
    assert.deepEqual(statuses(await generateMarkers(edited, { engine })), ['charging:cached', 'winter:generated']);
    assert.deepEqual(statuses(await generateMarkers(edited, { engine, force: true })), ['charging:generated', 'winter:generated']);

    await writeFile(path.join(markersDir(corpus.root), markerFileName('charging')), '{ not json');
    const warnings: string[] = [];
    const r = await generateMarkers(edited, { engine, log: { info: () => undefined, warn: (m) => warnings.push(m) } });
    assert.deepEqual(statuses(r), ['charging:generated', 'winter:cached']);
    assert.ok(warnings.some((w) => w.includes(markerFileName('charging')) && /regenerating/.test(w)), warnings.join('\n'));
  });
});

function marker(kind: Marker['kind'], text: string): Marker {
  return { id: `x:${kind[0]}:${createHash('sha256').update(text).digest('hex').slice(0, 10)}`, kind, text, topic: 't', confidence: 0.5, evidence: [], grounded: false };
}

function record(itemId: string, over: Partial<ItemMarkers> = {}): ItemMarkers {
  return {
    item_id: itemId,
    title: 'T',
    content_hash: 'h',
    engine: 'extractive',
    model: null,
    prompt_version: EXTRACTIVE_VERSION,
    cache_key: 'k',
    generated_at: '2025-01-01T00:00:00.000Z',
    transcript_summary: { key_facts: [marker('FACT', 'f1')], key_opinions: [marker('OPINION', 'o1')], key_datapoints: [marker('DATA', 'd1')], topic_areas: [], word_count: 3, total_markers: 3 },
    comments_summary: {
      key_facts_from_comments: [marker('FACT', 'cf1')],
      key_opinions_from_comments: [marker('OPINION', 'co1')],
      key_datapoints_from_comments: [marker('DATA', 'cd1')],
      major_themes: [],
      sentiment_overview: 'mixed',
      top_engagement_markers: [marker('ENGAGEMENT', 'ce1')],
      total_comments: 1,
      total_markers: 4,
    },
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
    ...over,
  };
}

describe('marker files', () => {
  test('file names: a safe id is kept; anything replaced gets a hash of the id, so ids never collide', () => {
    assert.equal(markerFileName('ev-winter_range.2'), 'ev-winter_range.2.json');
    assert.equal(markerFileName('电动车续航'), '电动车续航.json');
    const hash = (id: string): string => createHash('sha256').update(id).digest('hex').slice(0, 8);
    assert.equal(markerFileName('season1/ep1'), `season1_ep1-${hash('season1/ep1')}.json`);
    assert.equal(markerFileName('a b'), `a_b-${hash('a b')}.json`);
    assert.notEqual(markerFileName('season1/ep1'), markerFileName('season1_ep1'));
    const long = 'x'.repeat(130);
    assert.equal(markerFileName(long), `${'x'.repeat(120)}-${hash(long)}.json`);
    assert.notEqual(markerFileName(`${long}a`), markerFileName(`${long}b`));
    assert.equal(markerFileName('../../etc/passwd').includes('/'), false);
  });

  test('written markers read back equal; the file is JSON under .marker-research/markers/', async () => {
    const root = path.join(work, 'files');
    await mkdir(root);
    const rec = record('season1/ep1');
    const file = await writeItemMarkers(root, rec);
    assert.equal(file, path.join(root, '.marker-research', 'markers', markerFileName('season1/ep1')));
    assert.equal(markersDir(root), path.join(root, '.marker-research', 'markers'));
    const text = await readFile(file, 'utf8');
    assert.ok(text.endsWith('}\n'));
    assert.deepEqual(JSON.parse(text), rec);
    assert.deepEqual(await readItemMarkers(root, 'season1/ep1'), { ok: true, value: rec });
  });

  test('an invalid record is not written', async () => {
    await assert.rejects(writeItemMarkers(path.join(work, 'invalid'), { ...record('a'), cache_key: 5 } as unknown as ItemMarkers));
    assert.deepEqual(await readItemMarkers(path.join(work, 'invalid'), 'a'), { ok: false, missing: true });
  });

  test('reading: missing, not JSON, not the schema — each says so, with the file', async () => {
    const root = path.join(work, 'bad');
    assert.deepEqual(await readItemMarkers(root, 'none'), { ok: false, missing: true });
    await mkdir(markersDir(root), { recursive: true });
    await writeFile(path.join(markersDir(root), 'broken.json'), '{ nope');
    const broken = await readItemMarkers(root, 'broken');
    assert.equal(broken.ok, false);
    assert.ok(!broken.ok && !broken.missing && broken.error?.startsWith(`${path.join(markersDir(root), 'broken.json')}: `), JSON.stringify(broken));
    await writeFile(path.join(markersDir(root), 'wrong.json'), JSON.stringify({ ...record('wrong'), cache_key: 7 }));
    const wrong = await readItemMarkers(root, 'wrong');
    assert.ok(!wrong.ok && !wrong.missing && wrong.error === `${path.join(markersDir(root), 'wrong.json')}: cache_key: ${'Invalid input: expected string, received number'}`, JSON.stringify(wrong));
    await writeFile(path.join(markersDir(root), 'empty.json'), JSON.stringify({ ...record('empty'), transcript_summary: { ...record('x').transcript_summary, key_facts: [{}] } }));
    const nested = await readItemMarkers(root, 'empty');
    assert.ok(!nested.ok && /: transcript_summary\.key_facts\.0\.id: /.test(nested.error ?? ''), JSON.stringify(nested));
  });

  test('a marker file that is a symbolic link is refused unread', async () => {
    const root = path.join(work, 'link');
    await mkdir(markersDir(root), { recursive: true });
    const outside = path.join(work, 'outside.json');
    await writeFile(outside, JSON.stringify(record('linked')));
    await symlink(outside, path.join(markersDir(root), 'linked.json'));
    const r = await readItemMarkers(root, 'linked');
    assert.ok(!r.ok && !r.missing && /symbolic link/.test(r.error ?? ''), JSON.stringify(r));
  });

  test('the index: written and read back; missing or invalid reads as empty', async () => {
    const root = path.join(work, 'index');
    await mkdir(root);
    assert.deepEqual(await readMarkersIndex(root), { version: 1, items: {} });
    const index = { version: 1 as const, items: { a: { file: 'a.json', cache_key: 'k', engine: 'extractive' as const, total_markers: 2, grounded: 1 } } };
    await writeMarkersIndex(root, index);
    assert.deepEqual(await readMarkersIndex(root), index);
    assert.ok((await readFile(path.join(markersDir(root), 'index.json'), 'utf8')).endsWith('}\n'));
    await writeFile(path.join(markersDir(root), 'index.json'), JSON.stringify({ version: 2, items: {} }));
    assert.deepEqual(await readMarkersIndex(root), { version: 1, items: {} });
    await writeFile(path.join(markersDir(root), 'index.json'), 'not json');
    assert.deepEqual(await readMarkersIndex(root), { version: 1, items: {} });
  });

  test('allMarkers: transcript facts, opinions, data, then comment facts, opinions, data, engagement', () => {
    assert.deepEqual(allMarkers(record('a')).map((m) => m.text), ['f1', 'o1', 'd1', 'cf1', 'co1', 'cd1', 'ce1']);
    assert.deepEqual(allMarkers(record('a', { transcript_summary: null })).map((m) => m.text), ['cf1', 'co1', 'cd1', 'ce1']);
    assert.deepEqual(allMarkers(record('a', { comments_summary: null })).map((m) => m.text), ['f1', 'o1', 'd1']);
  });
});
