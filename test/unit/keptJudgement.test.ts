/**
 * A comment that says nothing is left out of Ask's hits on the text the index kept, without parsing
 * its item (keptJudgement.ts): the judgement made on the kept text equals the one made on the parsed
 * part for every comment of a generated corpus (en/es/zh, comments that say something and comments
 * that do not, long parts whose start, middle and end are in different languages), and a corpus-wide question whose candidates are mostly such comments parses only
 * the items its hits name while it retrieves.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openAskContext } from '../../src/core/ask/askContext';
import { hybridRetrieve } from '../../src/core/ask/hybridRetriever';
import { understand } from '../../src/core/ask/understand';
import { keptSpanJudgement } from '../../src/core/ask/keptJudgement';
import { spanJudgement } from '../../src/core/ask/partMemos';
import { openCorpus, openSearchIndex } from '../../src/core/corpus/openCorpus';
import { PartStore } from '../../src/core/corpus/partStore';
import type { CorpusItem } from '../../src/core/corpus/types';
import { persistedCorpusSpam } from '../../src/core/markers/spamStore';
import { rng } from '../support/testing';

type Lang = 'en' | 'es' | 'zh';
const LANGS: Lang[] = ['en', 'es', 'zh'];
const TERM: Record<Lang, string> = { en: 'prices', es: 'precios', zh: '价格' };
/** Comments that say nothing but the term, and comments that say something about it. */
const EMPTY: Record<Lang, string[]> = {
  en: ['yeah yeah prices yeah', 'lol lol prices lol', 'haha prices haha lol', 'ok ok prices ok', 'lol', 'haha lol', 'first!', '😂😂'],
  es: ['jaja jaja precios jaja', 'sí sí precios sí', 'jajaja precios jaja jeje', 'vale vale precios vale', 'jajaja', 'sí sí', 'primero!', '😂😂'],
  zh: ['价格哈哈哈', '哈哈哈价格哈哈', '对对对价格对对', '价格哈哈哈哈', '哈哈哈', '对对对', '嗯嗯', '😂😂'],
};
const FULL: Record<Lang, string[]> = {
  en: ['The battery prices went up because the factory changed its supplier last spring', 'Coffee prices depend on the weather in Brazil and on freight costs'],
  es: ['Los precios de la batería subieron porque la fábrica cambió de proveedor en primavera', 'Los precios del café dependen del clima en Brasil y del flete'],
  zh: ['电池价格上涨是因为工厂去年春天更换了供应商', '咖啡价格取决于巴西的天气和运费成本'],
};

/** Words of long comments parts (no question term among them). */
const SALAD: Record<Lang, string[]> = {
  en: 'the factory changed its supplier last spring and coffee depends on weather in brazil with freight we think you know that it was so'.split(' '),
  es: 'la fábrica cambió de proveedor en primavera y el café depende del clima en brasil con flete creo que eso es lo que pasa pues'.split(' '),
  zh: ['工厂', '去年', '春天', '更换', '供应商', '咖啡', '取决于', '巴西', '天气', '运费', '成本', '我们', '觉得', '就是'],
};

async function writeCorpus(dir: string, items: number): Promise<void> {
  for (let k = 0; k < items; k++) {
    const lang = LANGS[k % 3]!;
    const r = rng(k * 31 + 7);
    const folder = path.join(dir, `item-${String(k).padStart(3, '0')}-${lang}`);
    await mkdir(folder, { recursive: true });
    const turns = Array.from({ length: 12 }, (_, i) => ({ speaker: i % 2 ? 'Host' : 'Guest', text: FULL[lang][i % 2]!, start: i * 20, end: i * 20 + 18 }));
    await writeFile(path.join(folder, 'transcript.json'), JSON.stringify({ title: `${lang} episode ${k}`, turns }));
    // Most items' comments say nothing but the term; every fifth item has one that says something.
    const texts = Array.from({ length: 8 }, () => EMPTY[lang][Math.floor(r() * EMPTY[lang].length)]!);
    if (k % 5 === 0) texts.push(FULL[lang][k % 2]!);
    // Every fifteenth item has a long comments part (over 20,000 characters) whose start, middle and end are in different languages: its language is judged on the slices the detector samples.
    // Its comments are word salads of that language without the question's term, each its own (no template for the spam detector).
    if (k % 15 === 14)
      for (let i = 0; i < 1_200; i++) {
        const l = LANGS[(k + Math.floor((i * 3) / 1_200)) % 3]!;
        const words = SALAD[l];
        const n = 10 + Math.floor(r() * 8);
        texts.push(Array.from({ length: n }, () => words[Math.floor(r() * words.length)]!).join(l === 'zh' ? '' : ' '));
      }
    await writeFile(path.join(folder, 'comments.jsonl'), texts.map((text, i) => JSON.stringify({ comment_id: `c${i}`, author: `u${(k + i) % 23}`, text, likes: Math.floor(r() * 50) })).join('\n') + '\n');
  }
}

describe('comments judged on the index\'s kept text', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-kept-judgement-'));
    await writeCorpus(dir, 90);
    // A first open builds and saves the index.
    const corpus = await openCorpus(dir, { parts: new PartStore(1) });
    await openSearchIndex(corpus);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('the kept text gives the parsed part\'s judgement for every comment (and empty ones are among them)', async () => {
    const corpus = await openCorpus(dir, { parts: new PartStore(1) });
    const { index } = await openSearchIndex(corpus);
    let compared = 0;
    let empty = 0;
    const longJudged = new Set<string>();
    for (const shell of corpus.items) {
      const item = index.item(shell.id) as CorpusItem;
      const part = item.comments!;
      const long = part.text.length > 20_000;
      for (const c of part.comments) {
        const want = spanJudgement(part, c.offset, c.offset + c.text.length);
        const got = keptSpanJudgement(index, item.id, 'comments', c.offset, c.offset + c.text.length);
        // A long part may hold a comment the index did not keep (spam) where the language is sampled: then no kept judgement (the caller parses).
        if (long && got === undefined) continue;
        assert.deepEqual(got, want, `${item.id} ${c.id} ${JSON.stringify(c.text)}`);
        compared++;
        if (want.empty) empty++;
        if (long) longJudged.add(item.id);
      }
    }
    assert.ok(compared >= 4_000 && empty >= 300, `${compared} comments compared, ${empty} that say nothing`);
    assert.ok(longJudged.size >= 4, `long parts judged on kept text: ${[...longJudged].join(', ')}`);
  });

  test('retrieval for a question about comments parses only the items of its hits (candidates that say nothing are left out unparsed)', async () => {
    // The spam decision saved by a first open: deciding it parses every item's comments, once.
    await persistedCorpusSpam(await openCorpus(dir, { parts: new PartStore(1) }));
    const parts = new PartStore(1);
    const corpus = await openCorpus(dir, { parts });
    const { index } = await openSearchIndex(corpus);
    const ctx = await openAskContext(corpus, index, { markers: new Map() });
    for (const lang of LANGS) {
      const question = { en: `What do viewers think about the ${TERM.en}?`, es: `¿Qué opinan los espectadores sobre los ${TERM.es}?`, zh: `观众对${TERM.zh}有什么看法？` }[lang];
      const { query } = await understand({ question }, { entities: ctx.entities, corpus, index, vectors: false });
      const read = new Set<string>();
      const stacks = new Set<string>();
      parts.onReparse = (id) => {
        read.add(id);
        stacks.add((new Error().stack ?? '').split('\n').slice(3, 8).map((l) => l.trim()).join(' < '));
      };
      const r = await hybridRetrieve(query, ctx, { k: 10 });
      parts.onReparse = undefined;
      const named = new Set(r.hits.map((h) => h.itemId));
      assert.ok(r.hits.some((h) => h.part === 'comments'), `${lang}: comments among the hits`);
      const outside = [...read].filter((id) => !named.has(id));
      assert.deepEqual(outside, [], `${lang}: items parsed that no hit names\n${[...stacks].join('\n')}`);
      for (const h of r.hits) if (h.part === 'comments') assert.ok(!spanJudgement((index.item(h.itemId) as CorpusItem).comments!, h.start, h.end).empty, `${lang}: a hit that says nothing: ${h.text}`);
    }
  });
});
