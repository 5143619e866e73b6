/**
 * The saved spam decision's format (src/core/markers/spamStore.ts, issue 25): the file keeps, per
 * item, the ids of the comments that are spam or showed a cue under their verdict (shared by every
 * comment that got it), and nothing for an item with neither. On generated corpora (en/es/zh;
 * spam of every class, a template posted under many items, genuine comments, a comment id that
 * repeats, items without comments) the decision read back equals the decided one (spam ids,
 * reasons, scores; every item with comments), a file of the old format is replaced, and the
 * file's bytes grow with the flagged comments, not with the comments: more genuine comments or
 * more items without spam add no byte.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openCorpus } from '../../src/core/corpus/openCorpus';
import { PartStore } from '../../src/core/corpus/partStore';
import type { SpamDecision } from '../../src/core/markers/spam';
import { persistedCorpusSpam, spamFile } from '../../src/core/markers/spamStore';
import { generateHam, generateSpam, type SpamLang } from '../support/spamGenerator';
import { rng } from '../support/testing';

const LANGS: SpamLang[] = ['en', 'es', 'zh'];
/** Posted under many items by one account: spam only across the corpus. */
const TEMPLATE: Record<SpamLang, string> = {
  en: 'Earn 500 dollars a day from home, message me on telegram now',
  es: 'Gana 500 dólares al día desde casa, escríbeme por telegram ya',
  zh: '在家每天轻松赚五百元，加我微信了解详情',
};
const WORDS: Record<SpamLang, string[]> = {
  en: ['river', 'bridge', 'battery', 'council', 'recipe', 'camera', 'winter', 'budget', 'harvest', 'museum', 'engine', 'garden', 'ticket', 'island', 'market', 'lesson'],
  es: ['río', 'puente', 'batería', 'consejo', 'receta', 'cámara', 'invierno', 'presupuesto', 'cosecha', 'museo', 'motor', 'jardín', 'billete', 'isla', 'mercado', 'lección'],
  zh: ['河流', '大桥', '电池', '议会', '菜谱', '相机', '冬天', '预算', '收成', '博物馆', '发动机', '花园', '车票', '海岛', '市场', '课程'],
};

interface Comment {
  comment_id: string;
  author: string;
  text: string;
  likes: number;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ter', 'su', 'ran', 'po', 'el', 'vi', 'dor', 'ba', 'nes', 'qui', 'to', 'fa', 'gul'];
const HAN = '山水火木金土日月风雨花草鸟鱼人心手口耳目天地东西南北春夏秋冬红黄蓝白黑大小多少高低长短新旧远近快慢';

/** A plain remark, different in every comment (no template, no cue): a few of the language's words and many made-up ones. */
function remark(lang: SpamLang, r: () => number): string {
  const w = WORDS[lang];
  const made = (): string => (lang === 'zh' ? Array.from({ length: 2 }, () => HAN[Math.floor(r() * HAN.length)]!).join('') : Array.from({ length: 2 + Math.floor(r() * 2) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]!).join(''));
  const words = Array.from({ length: 6 + Math.floor(r() * 6) }, (_, i) => (i % 3 === 0 ? w[Math.floor(r() * w.length)]! : made()));
  return lang === 'zh' ? `${words.join('')}。` : `${words.join(' ')}.`;
}

/** Writes an item: `comments` undefined writes none (a transcript only). */
async function writeItem(dir: string, id: string, comments: Comment[] | undefined): Promise<void> {
  const folder = path.join(dir, id);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'meta.json'), JSON.stringify({ title: id, url: `https://example.org/${id}` }));
  if (comments) await writeFile(path.join(folder, 'comments.jsonl'), comments.map((c) => JSON.stringify(c)).join('\n') + '\n');
  else await writeFile(path.join(folder, 'transcript.txt'), 'Host: a short talk about the river and the bridge.\n');
}

/**
 * A corpus composed of: items of each language with generated spam of every class (disguised),
 * generated genuine comments (including innocent uses of spam words), plain remarks, the
 * cross-item template, a repeated comment id; and items without comments.
 */
async function writeMixedCorpus(dir: string, seed: number, items: number): Promise<void> {
  const r = rng(seed);
  for (let k = 0; k < items; k++) {
    const lang = LANGS[k % 3]!;
    const id = `item-${String(k).padStart(3, '0')}-${lang}`;
    if (k % 7 === 6) {
      await writeItem(dir, id, undefined);
      continue;
    }
    const spam = generateSpam(lang, seed + k, 1).filter(() => r() < 0.3);
    const ham = generateHam(lang, seed * 3 + k, 1).filter(() => r() < 0.5);
    const texts = [...spam.map((c) => c.text), ...ham.map((c) => c.text), ...Array.from({ length: 5 + Math.floor(r() * 10) }, () => remark(lang, r))];
    if (k % 2 === 0) texts.push(TEMPLATE[lang]);
    const comments = texts.map((text, i) => ({ comment_id: `c${k}-${i}`, author: `user${Math.floor(r() * 40)}`, text, likes: Math.floor(r() * 50) }));
    // A comment id that repeats (exports have them): a spam text and a genuine one under one id.
    if (k % 5 === 0 && spam.length) comments.push({ comment_id: comments[0]!.comment_id, author: 'user1', text: remark(lang, r), likes: 1 });
    comments.sort(() => r() - 0.5);
    await writeItem(dir, id, comments);
  }
}

/** A decision as plain sorted data: every item's spam ids, reasons and scores. */
function plain(spam: ReadonlyMap<string, SpamDecision>): unknown {
  return [...spam].sort(([a], [b]) => a.localeCompare(b)).map(([id, d]) => [id, [...d.ids].sort(), [...d.reasons].sort(), [...d.scores].sort()]);
}

const open = async (dir: string): Promise<{ corpus: Awaited<ReturnType<typeof openCorpus>>; parts: PartStore }> => {
  const parts = new PartStore(1);
  return { corpus: await openCorpus(dir, { parts }), parts };
};

describe('the saved spam decision keeps what gives the same decision back', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mr-spamformat-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  for (const seed of [11, 29, 47]) {
    test(`read back equal to the decided one, seed ${seed} (en/es/zh, spam and genuine comments)`, async () => {
      const dir = path.join(root, `mixed-${seed}`);
      await writeMixedCorpus(dir, seed, 36);
      const first = await open(dir);
      const decided = await persistedCorpusSpam(first.corpus);
      assert.equal(decided.source, 'decided');
      const flagged = [...decided.spam.values()].reduce((a, d) => a + d.ids.size, 0);
      const cued = [...decided.spam.values()].reduce((a, d) => a + d.scores.size, 0);
      assert.ok(flagged >= 12, `spam in the corpus (${flagged})`);
      assert.ok(decided.spam.size < first.corpus.items.length, 'items without comments have no decision');

      const second = await open(dir);
      const read = await persistedCorpusSpam(second.corpus);
      assert.equal(read.source, 'saved');
      assert.equal(second.parts.reparsed, 0, 'nothing parsed to read it');
      assert.deepEqual([...read.spam.keys()], [...decided.spam.keys()], 'every item with comments, in corpus order');
      assert.deepEqual(plain(read.spam), plain(decided.spam));

      // What is kept: each flagged or cued comment once; items with neither not at all.
      const file = JSON.parse(await readFile(spamFile(dir), 'utf8')) as { version: number; items: Record<string, Record<string, string[]>> };
      assert.equal(file.version, 2);
      const listed = Object.values(file.items).reduce((a, v) => a + Object.values(v).reduce((b, ids) => b + ids.length, 0), 0);
      const distinct = [...decided.spam.values()].reduce((a, d) => a + new Set([...d.ids, ...d.scores.keys()]).size, 0);
      assert.equal(listed, distinct, `${listed} comments listed for ${flagged} spam and ${cued} scored`);
      for (const [id, d] of decided.spam) assert.equal(id in file.items, d.ids.size + d.scores.size > 0, `${id} listed only with a flagged or cued comment`);
    });
  }

  test('a file of the old format is replaced by the new one', async () => {
    const dir = path.join(root, 'old-format');
    await writeMixedCorpus(dir, 5, 18);
    const decided = await persistedCorpusSpam((await open(dir)).corpus);
    const now = JSON.parse(await readFile(spamFile(dir), 'utf8')) as { detector: string; key: string };
    // The same decision for the same content and detector, as format 1 wrote it.
    const items = Object.fromEntries([...decided.spam].map(([id, d]) => [id, { ids: [...d.ids], reasons: [...d.reasons], scores: [...d.scores] }]));
    await writeFile(spamFile(dir), JSON.stringify({ version: 1, detector: now.detector, key: now.key, items }));
    const again = await open(dir);
    const r = await persistedCorpusSpam(again.corpus);
    assert.equal(r.source, 'decided', 'format 1 is not read');
    assert.ok(again.parts.reparsed > 0);
    const replaced = JSON.parse(await readFile(spamFile(dir), 'utf8')) as { version: number };
    assert.equal(replaced.version, 2);
    assert.deepEqual(plain(r.spam), plain(decided.spam));
    assert.equal((await persistedCorpusSpam((await open(dir)).corpus)).source, 'saved');
  });

  test('bytes grow with the flagged comments, not with the comments or the items', async () => {
    /** Items of each language, `spam` template comments and `plain` remarks each; `clean` more items with remarks only. */
    const bytesOf = async (name: string, o: { items: number; spam: number; plain: number; clean: number }): Promise<{ bytes: number; flagged: number; idBytes: number }> => {
      const dir = path.join(root, name);
      const r = rng(7);
      for (let k = 0; k < o.items + o.clean; k++) {
        const lang = LANGS[k % 3]!;
        const comments: Comment[] = Array.from({ length: o.plain }, (_, i) => ({ comment_id: `p${String(k).padStart(3, '0')}x${String(i).padStart(4, '0')}`, author: `a${k}-${i}`, text: remark(lang, r), likes: i % 9 }));
        if (k < o.items) for (let i = 0; i < o.spam; i++) comments.push({ comment_id: `s${String(k).padStart(3, '0')}x${String(i).padStart(4, '0')}`, author: 'promo', text: `${TEMPLATE[lang]} ${i % 4}`, likes: 0 });
        await writeItem(dir, `item-${String(k).padStart(3, '0')}`, comments);
      }
      const { spam } = await persistedCorpusSpam((await open(dir)).corpus);
      let flagged = 0;
      let idBytes = 0;
      for (const d of spam.values()) {
        for (const id of new Set([...d.ids, ...d.scores.keys()])) {
          flagged++;
          idBytes += id.length;
        }
      }
      return { bytes: (await stat(spamFile(dir))).size, flagged, idBytes };
    };
    const base = await bytesOf('b-base', { items: 12, spam: 4, plain: 10, clean: 0 });
    const moreComments = await bytesOf('b-comments', { items: 12, spam: 4, plain: 80, clean: 0 });
    const moreItems = await bytesOf('b-items', { items: 12, spam: 4, plain: 10, clean: 30 });
    const moreSpam = await bytesOf('b-spam', { items: 12, spam: 16, plain: 10, clean: 0 });
    const rows = JSON.stringify({ base, moreComments, moreItems, moreSpam });
    assert.equal(base.flagged, 48, `every template copy is spam, no remark is cued: ${rows}`);
    // Eight times the genuine comments, or 30 more items without spam: not one byte more.
    assert.equal(moreComments.flagged, base.flagged, rows);
    assert.equal(moreComments.bytes, base.bytes, rows);
    assert.equal(moreItems.bytes, base.bytes, rows);
    // Each added spam comment costs its id, its quotes and a comma.
    assert.equal(moreSpam.flagged, 4 * base.flagged, rows);
    assert.ok(moreSpam.bytes - base.bytes <= moreSpam.idBytes - base.idBytes + 3 * (moreSpam.flagged - base.flagged), rows);
    // All told: the ids, and a fixed few hundred bytes (header, verdicts, item keys).
    assert.ok(moreSpam.bytes <= moreSpam.idBytes + 3 * moreSpam.flagged + 12 * 24 + 600, rows);
  });
});
