/**
 * The items' languages are saved beside the index (savedLanguages.ts): on a generated corpus of
 * every transcript format plus Chinese and Spanish items, a first question writes them; a new
 * process reads no window of an unchanged item to know the corpus's languages; an item whose
 * content changed is judged again (only its windows read); an unreadable file is worked out afresh.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { askCorpus } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import { corpusLanguages, type ChunkSource } from '../../src/core/ask/crossLanguage/corpusLanguages';
import { languagesFile, saveLanguages } from '../../src/core/ask/crossLanguage/savedLanguages';
import { openCorpus } from '../../src/core/corpus/openCorpus';
import type { Corpus } from '../../src/core/corpus/types';
import { CorpusIndex } from '../../src/core/search/corpusIndex';
import { ALL_FORMATS, writeFormatCorpus } from '../support/formatCorpus';

const ZH = ['我们今天讨论电池的价格，大家觉得怎么样？', '这个问题很重要，价格下降了百分之二十。', '观众在评论里也提到了续航和充电的时间。'];
const ES = ['Hoy hablamos del precio de las baterías y de lo que piensan los oyentes.', 'La verdad es que el mercado ha cambiado mucho en los últimos años.', 'Los comentarios dicen que la autonomía importa más que el precio.'];

async function writeItem(dir: string, id: string, lines: readonly string[]): Promise<void> {
  await mkdir(path.join(dir, id), { recursive: true });
  const turns = Array.from({ length: 30 }, (_, i) => ({ speaker: i % 2 ? 'B' : 'A', text: lines[i % lines.length], start: i * 5, end: i * 5 + 4 }));
  await writeFile(path.join(dir, id, 'transcript.json'), JSON.stringify({ turns }));
}

/** The index as a chunk source that counts the windows whose text is read, by item. */
function counting(index: CorpusIndex): { source: ChunkSource; read: Map<string, number> } {
  const read = new Map<string, number>();
  const source: ChunkSource = {
    itemChunkIds: (id) => index.itemChunkIds(id),
    chunk: (id) => index.chunk(id),
    storedChunkText: (id) => {
      const itemId = index.chunk(id)!.itemId;
      read.set(itemId, (read.get(itemId) ?? 0) + 1);
      return index.storedChunkText(id);
    },
  };
  return { source, read };
}

async function open(dir: string): Promise<{ corpus: Corpus; index: CorpusIndex }> {
  const corpus = await openCorpus(dir);
  const { index } = await CorpusIndex.open(corpus);
  await openAskContext(corpus, index, { markers: new Map() });
  return { corpus, index };
}

describe('saved item languages', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-langs-'));
    await writeFormatCorpus(dir, { seed: 3, formats: ALL_FORMATS, perFormat: 2 });
    await writeItem(dir, 'zh-episode', ZH);
    await writeItem(dir, 'es-episode', ES);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a first question saves them; a new process reads no window to know them', async () => {
    const first = await open(dir);
    const ctx = await openAskContext(first.corpus, first.index, { markers: new Map() });
    await askCorpus(ctx, { question: '关于价格说了什么？' });
    assert.ok((await stat(languagesFile(dir))).size > 0, 'languages.json written after the question');
    const { source: s1, read: r1 } = counting(first.index);
    const langs = corpusLanguages(first.corpus, { index: s1 });
    assert.deepEqual([...langs].sort(), ['en', 'es', 'zh']);
    assert.equal(r1.size, 0, 'the same process knows them already');

    const second = await open(dir);
    const { source, read } = counting(second.index);
    assert.deepEqual([...corpusLanguages(second.corpus, { index: source })].sort(), ['en', 'es', 'zh']);
    assert.deepEqual([...read.keys()], [], 'no window read in the new process');
    assert.equal(await saveLanguages(second.corpus), false, 'nothing new to save');
  });

  test('an item whose content changed is judged again, alone', async () => {
    await writeItem(dir, 'zh-episode', ES);
    const reopened = await open(dir);
    const { source, read } = counting(reopened.index);
    assert.deepEqual([...corpusLanguages(reopened.corpus, { index: source })].sort(), ['en', 'es']);
    assert.deepEqual([...read.keys()], ['zh-episode'], 'only the changed item read');
    assert.ok(await saveLanguages(reopened.corpus), 'the changed item saved');
    const again = await open(dir);
    const c = counting(again.index);
    corpusLanguages(again.corpus, { index: c.source });
    assert.equal(c.read.size, 0);
  });

  test('an unreadable file: worked out afresh, then written again', async () => {
    await writeFile(languagesFile(dir), '{"version": 1, "items": [');
    const reopened = await open(dir);
    const { source, read } = counting(reopened.index);
    assert.deepEqual([...corpusLanguages(reopened.corpus, { index: source })].sort(), ['en', 'es']);
    assert.equal(read.size, reopened.corpus.items.filter((i) => reopened.index.itemChunkIds(i.id).length).length, 'every item with windows read');
    assert.ok(await saveLanguages(reopened.corpus));
  });
});
