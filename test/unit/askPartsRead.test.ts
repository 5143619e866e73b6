/**
 * Ask on a lazily held corpus (issue 25): a question parses the parts of the items its hits and
 * scope name, never every item's. A generated corpus (en/es/zh items, timed transcripts with
 * speakers, comments with a spam template repeated across items, descriptions with chapters) is
 * opened as the engine and the CLI open it (openCorpus, a part store of one word: every read of an
 * item not just read parses it again), and the parses of each question (summary, clip, time,
 * reception, entity, topic; corpus-wide and on one item; in English, Spanish and Chinese) are
 * counted on 20 items and on 200: the same bound for both.
 *
 * The corpus's spam decision is persisted: a second open reads it (no item parsed for it), and a
 * change of one item's comments makes it decided again.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { askCorpus } from '../../src/core/ask/ask';
import { openAskContext } from '../../src/core/ask/askContext';
import type { AskContext } from '../../src/core/ask/types';
import { openCorpus, openSearchIndex } from '../../src/core/corpus/openCorpus';
import { PartStore } from '../../src/core/corpus/partStore';
import { corpusSpam } from '../../src/core/markers/spamFree';
import { persistedCorpusSpam, spamFile } from '../../src/core/markers/spamStore';
import { rng } from '../support/testing';

type Lang = 'en' | 'es' | 'zh';
const LANGS: Lang[] = ['en', 'es', 'zh'];

const WORDS: Record<Lang, string[]> = {
  en: ['battery', 'prices', 'supply', 'chain', 'market', 'growth', 'regulation', 'delivery', 'plan', 'costs', 'factory', 'team', 'budget', 'weather', 'coffee'],
  es: ['batería', 'precios', 'cadena', 'suministro', 'mercado', 'crecimiento', 'regulación', 'entrega', 'plan', 'costes', 'fábrica', 'equipo', 'presupuesto', 'clima', 'café'],
  zh: ['电池', '价格', '供应链', '市场', '增长', '监管', '交付', '计划', '成本', '工厂', '团队', '预算', '天气', '咖啡', '公司'],
};
const SPEAKERS: Record<Lang, string[]> = { en: ['Host', 'Maria Lopez', 'David Chen'], es: ['Presentador', 'Lucía Gómez', 'Pablo Ruiz'], zh: ['主持人', '王伟', '李娜'] };
const COMMENTS: Record<Lang, string[]> = {
  en: ['I think the battery prices are too high this year', 'Great point about the supply chain at 1:30', 'The host was right about regulation', 'Not convinced by the market growth numbers'],
  es: ['Creo que los precios de la batería son muy altos', 'Buen punto sobre la cadena de suministro en 1:30', 'El presentador tiene razón sobre la regulación', 'No me convencen las cifras del mercado'],
  zh: ['我觉得电池价格今年太高了', '关于供应链的观点很好 1:30', '主持人说的监管问题是对的', '市场增长的数字不太可信'],
};
/** The template a spammer posts under many items: spam only across the corpus. */
const SPAM = 'Earn 500 dollars a day from home, message me on telegram now';

function sentence(lang: Lang, r: () => number, n: number): string {
  const w = WORDS[lang];
  const picked = Array.from({ length: n }, () => w[Math.floor(r() * w.length)]!);
  return lang === 'zh' ? `${picked.join('')}。` : `${picked.join(' ')}.`;
}

/** Writes item `k` of a generated corpus (its language by `k`). */
async function writeItem(dir: string, k: number): Promise<void> {
  const lang = LANGS[k % 3]!;
  const r = rng(k * 7919 + 13);
  const id = `item-${String(k).padStart(4, '0')}-${lang}`;
  const folder = path.join(dir, id);
  await mkdir(folder, { recursive: true });
  const turns = Array.from({ length: 40 }, (_, i) => ({ speaker: SPEAKERS[lang][i % 3], text: `${sentence(lang, r, 12)} ${sentence(lang, r, 14)} ${sentence(lang, r, 10)}`, start: i * 15, end: i * 15 + 14 }));
  await writeFile(path.join(folder, 'transcript.json'), JSON.stringify({ title: `${lang} episode ${k}`, turns }));
  const description = k % 2 ? '0:00 Intro\n3:00 Prices\n6:00 Market' : 'An episode.';
  await writeFile(path.join(folder, 'meta.json'), JSON.stringify({ title: `${lang} episode ${k}`, description, url: `https://example.org/${id}`, duration: 600 }));
  const comments = Array.from({ length: 12 }, (_, i) => ({ comment_id: `c${i}`, author: `user${(k + i) % 17}`, text: `${COMMENTS[lang][i % 4]} ${sentence(lang, r, 6)}`, likes: Math.floor(r() * 100) }));
  comments.push({ comment_id: 'spam', author: 'promo', text: SPAM, likes: 0 });
  await writeFile(path.join(folder, 'comments.jsonl'), comments.map((c) => JSON.stringify(c)).join('\n') + '\n');
}

async function writeCorpus(dir: string, items: number): Promise<void> {
  for (let k = 0; k < items; k++) await writeItem(dir, k);
}

/** Opens the corpus as the engine and the CLI do, with a part store of one word: every item read is counted. */
async function openWarm(dir: string): Promise<{ ctx: AskContext; parts: PartStore }> {
  const parts = new PartStore(1);
  const corpus = await openCorpus(dir, { parts });
  const { index } = await openSearchIndex(corpus);
  const ctx = await openAskContext(corpus, index, { markers: new Map() });
  return { ctx, parts };
}

const QUESTIONS: { intent: string; q: Record<Lang, string> }[] = [
  { intent: 'summary', q: { en: 'Summarize the discussion about supply chains', es: 'Resume la discusión sobre la cadena de suministro', zh: '总结一下关于供应链的讨论' } },
  { intent: 'clip', q: { en: 'Which moments would make good short clips?', es: '¿Qué momentos serían buenos clips cortos?', zh: '哪些片段适合做短视频？' } },
  { intent: 'time', q: { en: 'What was said about battery costs in the first 5 minutes?', es: '¿Qué se dijo sobre los costes de la batería en los primeros 5 minutos?', zh: '前5分钟关于电池成本说了什么？' } },
  { intent: 'reception', q: { en: 'What do viewers think about the prices?', es: '¿Qué opinan los espectadores sobre los precios?', zh: '观众对价格有什么看法？' } },
  { intent: 'entity', q: { en: 'What did Maria Lopez say about regulation?', es: '¿Qué dijo Lucía Gómez sobre la regulación?', zh: '王伟对监管说了什么？' } },
  { intent: 'topic', q: { en: 'Which themes keep coming back across the episodes?', es: '¿Qué temas se repiten en los episodios?', zh: '这些节目反复谈到哪些主题？' } },
];

/** Parses per question on a corpus of `items` items (warm: index, entities and spam decision persisted by a first open). */
async function parsesPerQuestion(items: number): Promise<Map<string, { read: number; outside: number }>> {
  const dir = await mkdtemp(path.join(tmpdir(), `mr-askparts-${items}-`));
  try {
    await writeCorpus(dir, items);
    // A first open builds and saves the index, the entity index and the spam decision.
    const first = await openWarm(dir);
    await persistedCorpusSpam(first.ctx.corpus);
    const { ctx, parts } = await openWarm(dir);
    const out = new Map<string, { read: number; outside: number }>();
    const oneItem = ctx.corpus.items[4]!.id;
    const read = new Set<string>();
    const stacks = new Map<string, number>();
    parts.onReparse = (id) => {
      read.add(id);
      if (!process.env['ASKPARTS_STACKS']) return;
      const at = (new Error().stack ?? '').split('\n').slice(3, 9).map((l) => l.trim().replace(/^at /, '').replace(/\(\/work\/main\//, '(')).join(' < ');
      stacks.set(at, (stacks.get(at) ?? 0) + 1);
    };
    for (const { intent, q } of QUESTIONS) {
      for (const lang of LANGS) {
        for (const itemId of [undefined, oneItem]) {
          read.clear();
          stacks.clear();
          const r = await askCorpus(ctx, { question: q[lang], ...(itemId ? { itemId } : {}) });
          const named = new Set([...r.hits.map((h) => h.itemId), ...r.passages.map((p) => p.itemId), ...(itemId ? [itemId] : [])]);
          out.set(`${intent} ${lang} ${itemId ? 'item' : 'corpus'}`, { read: read.size, outside: [...read].filter((id) => !named.has(id)).length });
          if (stacks.size && read.size > 12 && items > 20) process.stderr.write(`${items} ${intent} ${lang} ${itemId ? 'item' : 'corpus'}: ${read.size} items\n${[...stacks].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, n]) => `  ${n} ${k}`).join('\n')}\n`);
        }
      }
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Ask reads the parts of the items its hits name, not of the corpus', () => {
  test('items parsed per question: those its hits and passages name (a few more a strategy examines), on 20 items as on 200, every intent, en/es/zh', async (t) => {
    const small = await parsesPerQuestion(20);
    const large = await parsesPerQuestion(200);
    const rows = [...large].map(([k, n]) => `${k}: ${JSON.stringify(small.get(k))} on 20 items, ${JSON.stringify(n)} on 200`);
    t.diagnostic(rows.join('\n'));
    // Besides the hits' and passages' items, a strategy may read a fixed few: clip analyses 5 items, entity reads the turns of 10.
    for (const [k, n] of large) assert.ok(n.outside <= 10, `${k}: ${n.outside} items read that no hit or passage names\n${rows.join('\n')}`);
    // Not the corpus: the same bound on 20 items and on 200 (k = 10 hits, passages of 2,000 words).
    for (const [k, n] of [...small, ...large]) assert.ok(n.read <= 30, `${k}: ${n.read} items read\n${rows.join('\n')}`);
  });
});

describe('the corpus spam decision is persisted', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mr-spamstore-'));
    await writeCorpus(dir, 30);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('decided once, saved; a second open reads it without parsing an item; one item\'s comments changed: decided again', async () => {
    const parts1 = new PartStore(1);
    const c1 = await openCorpus(dir, { parts: parts1 });
    const r1 = await persistedCorpusSpam(c1);
    assert.equal(r1.source, 'decided');
    assert.ok(parts1.reparsed >= 30, `every item with comments parsed to decide (${parts1.reparsed})`);
    const spamIds = [...r1.spam].filter(([, d]) => d.ids.has('spam')).length;
    assert.equal(spamIds, 30, 'the template posted under every item is spam in every item');
    const saved = JSON.parse(await readFile(spamFile(dir), 'utf8')) as { detector: string };
    assert.ok(saved.detector.length > 0);

    const parts2 = new PartStore(1);
    const c2 = await openCorpus(dir, { parts: parts2 });
    const r2 = await persistedCorpusSpam(c2);
    assert.equal(r2.source, 'saved');
    assert.equal(parts2.reparsed, 0, 'nothing parsed: the decision was read');
    // The synchronous readers (markers, reception) get the saved decision: still nothing parsed.
    const sync = corpusSpam(c2);
    assert.equal(parts2.reparsed, 0);
    const plain = (m: typeof sync): unknown => [...m].sort(([a], [b]) => a.localeCompare(b)).map(([id, d]) => [id, [...d.ids].sort(), [...d.reasons].sort(), [...d.scores].sort()]);
    assert.deepEqual(plain(sync), plain(r1.spam), 'the saved decision is the decided one');

    // One item's comments change: the spam template leaves it, a new template appears in it.
    const changed = c2.items[7]!;
    const file = path.join(dir, changed.id, 'comments.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l && !l.includes(SPAM));
    await writeFile(file, lines.join('\n') + '\n');
    const parts3 = new PartStore(1);
    const c3 = await openCorpus(dir, { parts: parts3 });
    const r3 = await persistedCorpusSpam(c3);
    assert.equal(r3.source, 'decided', 'a changed item makes the corpus-wide decision stale');
    assert.equal(r3.spam.get(changed.id)?.ids.has('spam') ?? false, false);
    assert.equal([...r3.spam].filter(([, d]) => d.ids.has('spam')).length, 29);
    const c4 = await openCorpus(dir, { parts: new PartStore(1) });
    assert.equal((await persistedCorpusSpam(c4)).source, 'saved', 'the new decision was saved');

    // A file made by another detector, or that does not validate, is never used.
    const text = await readFile(spamFile(dir), 'utf8');
    await writeFile(spamFile(dir), text.replace(/"detector":"[^"]*"/, '"detector":"other"'));
    assert.equal((await persistedCorpusSpam(await openCorpus(dir, { parts: new PartStore(1) }))).source, 'decided');
    await writeFile(spamFile(dir), '{"version":1');
    assert.equal((await persistedCorpusSpam(await openCorpus(dir, { parts: new PartStore(1) }))).source, 'decided');
  });

  test('a corpus that is no folder (made in memory) gets its decision without a file, and a question never fails for it', async () => {
    const c = await openCorpus(dir, { parts: new PartStore(1) });
    const root = path.join(dir, 'no-such-folder');
    const r = await persistedCorpusSpam({ ...c, root });
    assert.equal(r.source, 'decided');
    assert.equal(r.saveError, undefined);
    assert.equal([...r.spam].filter(([, d]) => d.ids.has('spam')).length, 29);
    await assert.rejects(readFile(spamFile(root), 'utf8'), { code: 'ENOENT' }, 'nothing written, no folder made');
  });
});
