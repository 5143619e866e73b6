/**
 * Issue 10, class 4 — state stays inside the corpus. `.marker-research`, any folder in it, or a
 * state file being a symbolic link must never redirect a write (or a read) outside the real
 * corpus folder: every store refuses with an error naming the path and saying what to do, the
 * place the link points at stays untouched, and a symlinked state file is never read (its
 * content is not echoed). A corpus folder that is itself reached through a symlink still works.
 */
import assert from 'node:assert/strict';
import { cp, link, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EntityIndex } from '../../src/core/ask/entityIndex';
import { FlatVectorStore, vectorsDir } from '../../src/core/ask/vectorStore';
import { listConversations, loadConversation, saveConversation } from '../../src/core/chat/conversationStore';
import type { Conversation } from '../../src/core/chat/schema';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { markerFileName, markersDir, readItemMarkers, readMarkersIndex, writeItemMarkers, writeMarkersIndex } from '../../src/core/markers/store';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { RunWriter, runDir } from '../../src/core/research/runStore';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { writeFileAtomic } from '../../src/core/storage/atomic';

const DEMO = path.join(__dirname, '..', '..', 'samples', 'demo-corpus');
const SECRET = 'TOP-SECRET-CONTENT-do-not-echo';

let work: string;
let demoCorpus: Corpus;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mr-state-'));
  const root = path.join(work, 'demo');
  await cp(DEMO, root, { recursive: true });
  demoCorpus = await loadCorpus(root);
});
after(() => rm(work, { recursive: true, force: true }));

let n = 0;
/** A fresh corpus folder (only state matters here) and an outside folder. */
async function fresh(): Promise<{ root: string; outside: string }> {
  const base = path.join(work, `case-${n++}`);
  const root = path.join(base, 'corpus');
  const outside = path.join(base, 'outside');
  await mkdir(root, { recursive: true });
  await mkdir(outside, { recursive: true });
  return { root, outside };
}

/** Every file under `dir` (recursively). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

function markers(itemId: string): ItemMarkers {
  return {
    item_id: itemId,
    title: itemId,
    content_hash: 'h',
    engine: 'extractive',
    model: null,
    prompt_version: null,
    cache_key: 'k',
    generated_at: new Date(0).toISOString(),
    transcript_summary: null,
    comments_summary: null,
    coverage: { transcript: null, comments: null },
    usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
  } as unknown as ItemMarkers;
}

function conversation(id: string): Conversation {
  return { header: { kind: 'marker-research-conversation', version: 1, id, runId: null, createdAt: new Date(0).toISOString(), title: 't' }, turns: [], citations: [] };
}

/** Asserts a refusal: an Error naming `where` (a path) and saying it is a link / not a real file. */
function refusal(where: string): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof Error, String(e));
    assert.ok(e.message.includes(where), `names ${where}: ${e.message}`);
    assert.match(e.message, /symbolic link|not a (real|regular)|hard link/i, e.message);
    assert.ok(!e.message.includes(SECRET), `echoes the content: ${e.message}`);
    return true;
  };
}

/** Every store's write, against the corpus at `root`. */
function writers(root: string): [string, () => Promise<unknown>][] {
  const store = new FlatVectorStore({ provider: 'ollama', model: 'm' }, vectorsDir(root, { provider: 'ollama', model: 'm' }));
  store.upsertItem('item-1', 'h', [{ chunkId: 0, key: 'ab'.repeat(16), part: 'transcript', vector: new Float32Array([1, 0, 0]) }]);
  const rootedCorpus: Corpus = { ...demoCorpus, root };
  return [
    ['markers', () => writeItemMarkers(root, markers('item-1'))],
    ['markers index', () => writeMarkersIndex(root, { version: 1, items: {} })],
    ['search index', () => CorpusIndex.build(rootedCorpus).save(root)],
    ['entity index', () => EntityIndex.build(rootedCorpus).index.save(root)],
    ['vectors', () => store.save()],
    ['chats', () => saveConversation(root, conversation('c1'))],
    ['runs', () => new RunWriter(runDir(root, 'run-1')).usage({} as never)],
  ];
}

describe('a .marker-research that is a symlink', () => {
  test('every store refuses to write through it; the target stays empty', async () => {
    const { root, outside } = await fresh();
    const state = path.join(root, '.marker-research');
    await symlink(outside, state, 'dir');
    for (const [name, write] of writers(root)) {
      await assert.rejects(write(), refusal(state), `${name} wrote through the link`);
    }
    assert.deepEqual(await filesUnder(outside), [], 'nothing was written outside the corpus');
    assert.ok((await lstat(state)).isSymbolicLink(), 'the link itself is left alone');
  });

  test('every reader refuses to read through it (no content echoed)', async () => {
    const { root, outside } = await fresh();
    // Plant state-shaped files outside, then link them in.
    await mkdir(path.join(outside, 'markers'), { recursive: true });
    await writeFile(path.join(outside, 'markers', markerFileName('item-1')), `${SECRET}\n`);
    await writeFile(path.join(outside, 'markers', 'index.json'), JSON.stringify({ version: 1, items: { planted: { content_hash: 'x', cache_key: 'y', file: 'z' } } }));
    await mkdir(path.join(outside, 'chats'), { recursive: true });
    await writeFile(path.join(outside, 'chats', 'c1.jsonl'), `${JSON.stringify(conversation('c1').header)}\n`);
    await symlink(outside, path.join(root, '.marker-research'), 'dir');

    const read = await readItemMarkers(root, 'item-1');
    assert.equal(read.ok, false);
    assert.ok(!read.ok && !read.missing && read.error !== undefined, `a refused read is reported, not "missing": ${JSON.stringify(read)}`);
    assert.ok(!read.ok && !String(read.error).includes(SECRET), `content echoed: ${JSON.stringify(read)}`);
    assert.match(!read.ok ? String(read.error) : '', /symbolic link/i);
    assert.deepEqual((await readMarkersIndex(root)).items, {}, 'the planted index is not read');
    await assert.rejects(loadConversation(root, 'c1'), refusal(path.join(root, '.marker-research')));
    assert.deepEqual(await listConversations(root), []);
  });
});

describe('a symlink deeper inside .marker-research', () => {
  for (const sub of ['markers', 'index', 'vectors', 'chats', 'runs']) {
    test(`.marker-research/${sub} → outside: refused`, async () => {
      const { root, outside } = await fresh();
      await mkdir(path.join(root, '.marker-research'), { recursive: true });
      const link = path.join(root, '.marker-research', sub);
      await symlink(outside, link, 'dir');
      let refused = 0;
      for (const [, write] of writers(root)) {
        await write().then(
          () => undefined,
          (e: unknown) => {
            refusal(link)(e);
            refused++;
          },
        );
      }
      assert.ok(refused >= 1, 'the store of that folder refused');
      assert.deepEqual(await filesUnder(outside), [], 'nothing was written outside the corpus');
    });
  }

  test('a run folder that is a symlink: refused', async () => {
    const { root, outside } = await fresh();
    await mkdir(path.join(root, '.marker-research', 'runs'), { recursive: true });
    const link = runDir(root, 'run-1');
    await symlink(outside, link, 'dir');
    await assert.rejects(new RunWriter(link).extra('plan.json', { steps: [] }), refusal(link));
    assert.deepEqual(await filesUnder(outside), []);
  });
});

describe('a state file that is a symlink', () => {
  test('a symlinked marker file is neither written through nor read (content not echoed)', async () => {
    const { root, outside } = await fresh();
    await mkdir(markersDir(root), { recursive: true });
    const target = path.join(outside, 'victim.txt');
    await writeFile(target, `${SECRET}\n`);
    const file = path.join(markersDir(root), markerFileName('item-1'));
    await symlink(target, file);

    const read = await readItemMarkers(root, 'item-1');
    assert.ok(!read.ok && !read.missing, `refused, reported: ${JSON.stringify(read)}`);
    assert.ok(!read.ok && read.error !== undefined && read.error.includes(file), `names the file: ${JSON.stringify(read)}`);
    assert.ok(!read.ok && !String(read.error).includes(SECRET), `content echoed: ${JSON.stringify(read)}`);

    await assert.rejects(writeItemMarkers(root, markers('item-1')), refusal(file));
    assert.equal(await readFile(target, 'utf8'), `${SECRET}\n`, 'the target is untouched');
    assert.ok((await lstat(file)).isSymbolicLink(), 'the link is left for the user to remove');
  });

  test('a hard-linked marker file (sharing its content with a file outside) is neither read nor written', async () => {
    const { root, outside } = await fresh();
    await mkdir(markersDir(root), { recursive: true });
    const target = path.join(outside, 'victim.txt');
    await writeFile(target, `${SECRET}\n`);
    const file = path.join(markersDir(root), markerFileName('item-1'));
    await link(target, file);

    const read = await readItemMarkers(root, 'item-1');
    assert.ok(!read.ok && !read.missing, `refused, reported: ${JSON.stringify(read)}`);
    assert.ok(!read.ok && /hard link/.test(String(read.error)) && String(read.error).includes(file), `names the file and why: ${JSON.stringify(read)}`);
    assert.ok(!read.ok && !String(read.error).includes(SECRET), `content echoed: ${JSON.stringify(read)}`);
    await assert.rejects(writeItemMarkers(root, markers('item-1')), refusal(file));
    assert.equal(await readFile(target, 'utf8'), `${SECRET}\n`, 'the target is untouched');
  });

  test('symlinked index, entity and vector manifest files are not read', async () => {
    const { root, outside } = await fresh();
    const target = path.join(outside, 'victim.json');
    await writeFile(target, SECRET);
    await mkdir(path.join(root, '.marker-research', 'index'), { recursive: true });
    await symlink(target, path.join(root, '.marker-research', 'index', 'manifest.json'));
    await symlink(target, path.join(root, '.marker-research', 'index', 'entities.json'));
    const vdir = vectorsDir(root, { provider: 'ollama', model: 'm' });
    await mkdir(vdir, { recursive: true });
    await symlink(target, path.join(vdir, 'manifest.json'));
    await assert.rejects(CorpusIndex.load(root), refusal(path.join(root, '.marker-research', 'index', 'manifest.json')));
    await assert.rejects(EntityIndex.load(root), refusal(path.join(root, '.marker-research', 'index', 'entities.json')));
    const { problems } = await FlatVectorStore.open(root, { provider: 'ollama', model: 'm' });
    assert.ok(problems.some((p) => /symbolic link/i.test(p)), problems.join('\n'));
    for (const p of problems) assert.ok(!p.includes(SECRET), p);
  });

  test('writeFileAtomic itself refuses a symlinked target anywhere under .marker-research', async () => {
    const { root, outside } = await fresh();
    const target = path.join(outside, 'victim.txt');
    await writeFile(target, 'keep');
    await mkdir(path.join(root, '.marker-research', 'condensed'), { recursive: true });
    const file = path.join(root, '.marker-research', 'condensed', 'index.json');
    await symlink(target, file);
    await assert.rejects(writeFileAtomic(file, '{}'), refusal(file));
    assert.equal(await readFile(target, 'utf8'), 'keep');
  });
});

describe('what still works', () => {
  test('real folders: every store writes, and state reads back', async () => {
    const { root } = await fresh();
    for (const [name, write] of writers(root)) await assert.doesNotReject(write(), name);
    const read = await readItemMarkers(root, 'item-1');
    assert.ok(read.ok, JSON.stringify(read));
    assert.ok((await loadConversation(root, 'c1')).header.id === 'c1');
    assert.ok(await CorpusIndex.load(root));
    assert.ok(await EntityIndex.load(root));
    const { store, problems } = await FlatVectorStore.open(root, { provider: 'ollama', model: 'm' });
    assert.deepEqual(problems, []);
    assert.deepEqual(store.itemIds(), ['item-1']);
  });

  test('a corpus folder reached through a symlink still works (its real folder holds the state)', async () => {
    const { root, outside } = await fresh();
    const alias = path.join(outside, 'alias');
    await symlink(root, alias, 'dir');
    await writeItemMarkers(alias, markers('item-1'));
    assert.ok((await readItemMarkers(alias, 'item-1')).ok);
    assert.ok((await lstat(path.join(root, '.marker-research', 'markers', markerFileName('item-1')))).isFile());
  });
});
