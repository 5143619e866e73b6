/**
 * Topics from a real stopword source (issue 21): no item topic, marker topic, comment theme or
 * goal topic is a stopword of its language (stopwords-iso, spoken fillers, words too general), and
 * a word common to nearly every item of the corpus is never a topic. Inputs are generated: items
 * whose texts are mostly stopwords and fillers of English, Spanish and Chinese (simplified and
 * traditional), drawn from stopwords-iso, mixed with generated topic words.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import stopwordsIso from 'stopwords-iso';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { CorpusItem } from '../../src/core/corpus/types';
import { extractItem } from '../../src/core/markers/extractive';
import { commentThemes } from '../../src/core/markers/extractiveComments';
import { generateMarkers } from '../../src/core/markers/generate';
import { COMMON_MIN_ITEMS, storedTopics, TopicStats, topicCandidates, topicCounts } from '../../src/core/markers/keyphrases';
import type { ItemMarkers } from '../../src/core/markers/schema';
import { readItemMarkers } from '../../src/core/markers/store';
import { SIMPLIFIED, TRADITIONAL } from '../../src/shared/hanziVariants';
import { foldText } from '../../src/shared/textFold';
import { englishForms, isStopword, isStopwordTopic, spanishForms, wordClass } from '../../src/core/text/stopwords';
import { commentsPart, itemOf, transcriptPart } from '../support/parts';
import { rng } from '../support/testing';

type Lang = 'en' | 'es' | 'zh' | 'zh-hant';
const ISO = stopwordsIso as Record<string, string[]>;
const baseLang = (l: Lang): 'en' | 'es' | 'zh' => (l === 'zh-hant' ? 'zh' : l);

/** stopwords-iso of a language and English, folded: the yardstick, independent of the product's lists. */
function isoSet(lang: 'en' | 'es' | 'zh'): Set<string> {
  return new Set([...ISO[lang]!, ...ISO['en']!].map((w) => foldText(w)));
}
const ISO_SETS = { en: isoSet('en'), es: isoSet('es'), zh: isoSet('zh') };
const FILLERS: Record<'en' | 'es' | 'zh', string[]> = {
  en: ['um', 'uh', 'mm-hmm', 'uh-huh', 'hmm', 'yeah', 'okay', 'gonna', 'probably', 'already', 'kinda'],
  es: ['eh', 'em', 'mmm', 'este', 'pues', 'o sea', 'tío', 'sabes', 'creo', 'vale', 'gente'],
  zh: ['嗯', '呃', '然后', '就是', '那个', '这个', '对对对', '觉得'],
};

/** A topic is a stopword by the yardstick: every word of it is in stopwords-iso (or a filler), or it is one Han character. */
function isoStopTopic(topic: string, lang: 'en' | 'es' | 'zh'): boolean {
  const f = foldText(topic).trim();
  if (/\p{Script=Han}/u.test(f)) return [...f].length < 2 || ISO_SETS.zh.has(f) || FILLERS.zh.includes(f);
  const ws = f.split(/\s+/).filter(Boolean);
  return ws.every((w) => ISO_SETS[lang].has(w) || FILLERS[lang].map((x) => foldText(x)).includes(w) || ws.join(' ') === foldText('o sea'));
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** Pronounceable generated words that are no stopword of any list ("zorvani", "kulemo"). */
function latinWords(r: () => number, n: number): string[] {
  const cons = 'bdfgklmnprstvz';
  const vows = 'aeiou';
  const out = new Set<string>();
  while (out.size < n) {
    let w = '';
    const syll = 3 + Math.floor(r() * 2);
    for (let i = 0; i < syll; i++) w += pick(r, [...cons]) + pick(r, [...vows]);
    if (!ISO_SETS.en.has(w) && !ISO_SETS.es.has(w) && !/mente$|(?:ar|er|ir|ando|iendo|ado|ido)$/.test(w)) out.add(w);
  }
  return [...out];
}

/** Two-character Chinese nouns (the segmenter knows them), none a stopword of stopwords-iso. */
const ZH_NOUNS = [
  '电池', '教育', '医院', '汽车', '音乐', '电影', '足球', '经济', '历史', '科学', '工程', '农业', '旅游', '银行', '市场', '医生', '学生', '老师',
  '公司', '政府', '城市', '环境', '能源', '技术', '数据', '网络', '手机', '电脑', '森林', '河流', '火车', '机场', '超市', '工厂', '医疗', '法律',
].filter((w) => !ISO_SETS.zh.has(w));

const toTraditional = new Map<string, string>();
{
  const t = [...TRADITIONAL];
  const s = [...SIMPLIFIED];
  for (let i = 0; i < t.length; i++) if (!toTraditional.has(s[i]!)) toTraditional.set(s[i]!, t[i]!);
}
const traditional = (text: string): string => [...text].map((c) => toTraditional.get(c) ?? c).join('');

/** Stopwords to fill sentences with: stopwords-iso of the language (words of letters only) and its fillers. */
function fillWords(lang: 'en' | 'es' | 'zh'): string[] {
  const iso = ISO[lang]!.filter((w) => (lang === 'zh' ? /^\p{Script=Han}+$/u.test(w) : /^\p{L}+$/u.test(w)));
  return [...iso, ...FILLERS[lang]];
}

interface Generated {
  items: CorpusItem[];
  /** Each item's own topic words (in that item only). */
  own: string[][];
  /** The word in every item. */
  everywhere: string;
}

/**
 * `n` items in `lang`: transcripts of turns that are mostly stopwords and fillers with a topic word
 * or two, and some content-rich turns; comments likewise. Each item has words of its own, words
 * shared with a few others, and `everywhere` in every item, more often than any other.
 */
function generate(lang: Lang, seed: number, n: number): Generated {
  const r = rng(seed);
  const base = baseLang(lang);
  const zh = base === 'zh';
  const fill = fillWords(base);
  const topicPool = zh ? ZH_NOUNS : latinWords(r, 40);
  const everywhere = topicPool[0]!;
  const shared = topicPool.slice(1, 6);
  const items: CorpusItem[] = [];
  const own: string[][] = [];
  const sentence = (words: string[]): string => (zh ? `${words.join('')}。` : `${words.join(' ')}.`);
  for (let i = 0; i < n; i++) {
    const mine = zh ? topicPool.slice(6 + i * 4, 10 + i * 4) : topicPool.slice(6 + i * 4, 10 + i * 4);
    own.push(mine);
    const content = (): string[] => [pick(r, mine), pick(r, fill), pick(r, mine), pick(r, shared), pick(r, fill), everywhere, pick(r, mine), pick(r, fill)];
    const stopRun = (k: number): string[] => Array.from({ length: k }, () => pick(r, fill));
    const turns: string[] = [];
    for (let t = 0; t < 60; t++) {
      const roll = r();
      const words = roll < 0.5 ? [...stopRun(8), everywhere, ...stopRun(4)] : roll < 0.75 ? [...stopRun(6), pick(r, mine), ...stopRun(6)] : [...content(), ...stopRun(3)];
      turns.push(sentence(words));
    }
    const comments: string[] = [];
    for (let c = 0; c < 40; c++) {
      const roll = r();
      comments.push(sentence(roll < 0.4 ? [...stopRun(5), everywhere, ...stopRun(2)] : roll < 0.7 ? [...stopRun(4), pick(r, mine), pick(r, mine), ...stopRun(3)] : content()));
    }
    const conv = (s: string): string => (lang === 'zh-hant' ? traditional(s) : s);
    items.push(itemOf(`${lang}-${seed}-${i}`, { transcript: transcriptPart(turns.map(conv)), comments: commentsPart(comments.map(conv)) }));
  }
  const conv = (s: string): string => (lang === 'zh-hant' ? traditional(s) : s);
  return { items, own: own.map((o) => o.map(conv)), everywhere: conv(everywhere) };
}

function statsOf(items: readonly CorpusItem[]): TopicStats {
  const stats = new TopicStats();
  for (const item of items) stats.addDocument(topicCounts(`${item.transcript?.text ?? ''}\n${item.comments?.text ?? ''}`).keys());
  return stats;
}

/** Every topic field of an item's extractive result. */
function topicsOf(r: ReturnType<typeof extractItem>): string[] {
  return storedTopics({ transcript_summary: r.transcript_summary, comments_summary: r.comments_summary } as ItemMarkers);
}

const LANGS: Lang[] = ['en', 'es', 'zh', 'zh-hant'];

describe('topics: never a stopword of their language', () => {
  for (const lang of LANGS) {
    test(`${lang}: item topics, marker topics and comment themes of stopword-heavy items`, () => {
      let checked = 0;
      for (const seed of [1, 2, 3]) {
        const g = generate(lang, seed, 6);
        const stats = statsOf(g.items);
        g.items.forEach((item, i) => {
          const r = extractItem(item, stats);
          const topics = topicsOf(r);
          assert.ok(r.transcript_summary!.topic_areas.length > 0 && r.comments_summary!.major_themes.length > 0, `${item.id}: has topics and themes`);
          for (const t of topics) {
            checked++;
            assert.ok(!isoStopTopic(t, baseLang(lang)), `${item.id}: "${t}" is a stopword (stopwords-iso) — topics ${topics.join(' · ')}`);
            assert.ok(!isStopwordTopic(t, baseLang(lang)), `${item.id}: "${t}" is a stopword topic`);
          }
          // Not vacuous: the item's own words are found.
          const areas = r.transcript_summary!.topic_areas.map((t) => foldText(t));
          assert.ok(g.own[i]!.some((w) => areas.some((a) => a.includes(foldText(w)))), `${item.id}: its own words ${g.own[i]!.join(' ')} among ${areas.join(' · ')}`);
        });
      }
      assert.ok(checked > 100, `${checked} topics checked`);
    });
  }
});

describe('topics: a word in nearly every item of the corpus is never one', () => {
  for (const lang of LANGS) {
    test(`${lang}: the word in every item is in no topic field, although it is the most frequent`, () => {
      for (const seed of [4, 5]) {
        const g = generate(lang, seed, COMMON_MIN_ITEMS + 1);
        const stats = statsOf(g.items);
        const everywhere = foldText(g.everywhere);
        for (const item of g.items) {
          // The premise: it is the item's most frequent candidate.
          const tf = topicCounts(item.transcript!.text);
          const top = [...tf].sort((a, b) => b[1] - a[1])[0]![0];
          assert.equal(foldText(top), everywhere, `${item.id}: most frequent candidate`);
          for (const t of topicsOf(extractItem(item, stats))) assert.notEqual(foldText(t), everywhere, `${item.id}: "${t}" is in every item`);
        }
      }
    });
  }

  test('below the minimum number of items nothing is common: a small corpus keeps its topics', () => {
    const g = generate('en', 6, COMMON_MIN_ITEMS - 1);
    const stats = statsOf(g.items);
    assert.equal(stats.common(g.everywhere), false);
    assert.ok(g.items.some((item) => extractItem(item, stats).transcript_summary!.topic_areas.includes(g.everywhere)));
  });

  test('comment themes rank by distinctiveness: a word of this item only before one shared with other items', () => {
    const r = rng(7);
    const [mine, shared, ...others] = latinWords(r, 12);
    const fill = fillWords('en');
    const stop = (k: number): string => Array.from({ length: k }, () => pick(r, fill)).join(' ');
    // In this item both are in as many comments; the shared one is in three of six items.
    const texts = Array.from({ length: 30 }, (_, i) => `${stop(3)} ${i % 2 ? mine : shared} ${stop(2)} ${others[i % others.length]}.`);
    const stats = new TopicStats();
    stats.addDocument(topicCandidates(texts.join('\n')));
    for (let i = 0; i < 5; i++) stats.addDocument(topicCandidates(`${i < 2 ? shared : ''} ${others[i]} ${stop(4)}`));
    const themes = commentThemes(texts, stats, 6, 'en');
    assert.ok(themes.indexOf(mine!) >= 0 && (themes.indexOf(shared!) < 0 || themes.indexOf(mine!) < themes.indexOf(shared!)), themes.join(' · '));
  });
});

describe('the stopword lists', () => {
  test('every stopwords-iso word of en, es and zh is a stopword, in any case, with or without accents, in traditional script', () => {
    for (const lang of ['en', 'es', 'zh'] as const) {
      for (const w of ISO[lang]!) {
        assert.ok(isStopword(w, lang), `${lang}: ${w}`);
        if (lang === 'zh') assert.ok(isStopword(traditional(w), 'zh'), `zh-hant: ${traditional(w)}`);
        else {
          assert.ok(isStopword(w.toUpperCase(), lang), `${lang}: ${w.toUpperCase()}`);
          assert.ok(isStopword(w.normalize('NFKD').replace(/\p{M}+/gu, ''), lang), `${lang}: ${w} without accents`);
        }
      }
    }
  });

  test('spoken fillers and the issue examples are stopwords; generated content words are not', () => {
    for (const w of ['creo', 'era', 'hecho', 'sabes', 'ahora', 'tío', 'gente', 'tengas', 'soy', 'son', 'pienso', 'dijiste', 'Mmm', 'ehh']) assert.ok(isStopword(w, 'es'), w);
    for (const w of ['mm-hmm', 'Mm-hmm', 'already', 'probably', 'uh-huh', 'ummm', 'yeah', 'talked', 'thinking']) assert.ok(isStopword(w, 'en'), w);
    for (const w of ['嗯', '呃', '然后', '然後', '這個', '我們的', '两个', '這次', '东西', '東西']) assert.ok(isStopword(w, 'zh'), w);
    const r = rng(8);
    for (const w of latinWords(r, 200)) {
      assert.equal(wordClass(w, 'en'), 'content', w);
      assert.equal(wordClass(w, 'es'), 'content', w);
    }
    for (const w of ZH_NOUNS) {
      assert.equal(wordClass(w, 'zh'), 'content', w);
      assert.equal(wordClass(traditional(w), 'zh'), 'content', traditional(w));
    }
  });

  test('verb paradigms are generated: regular forms of English and Spanish lemmas', () => {
    assert.deepEqual(englishForms('talk'), ['talk', 'talks', 'talked', 'talking']);
    assert.deepEqual(englishForms('stop'), ['stop', 'stops', 'stopped', 'stopping']);
    assert.deepEqual(englishForms('hope'), ['hope', 'hopes', 'hoped', 'hoping']);
    assert.deepEqual(englishForms('see'), ['see', 'sees', 'seeing']);
    const hablar = spanishForms('hablar');
    for (const f of ['hablo', 'hablas', 'hablamos', 'hablé', 'habló', 'hablaba', 'hablando', 'hablado', 'hablaré', 'hablaría', 'hablarlo']) assert.ok(hablar.includes(f), f);
    assert.deepEqual(spanishForms('ver'), ['ver'], 'a one-letter stem spells nouns ("vida"): its forms are listed by hand');
  });

  test('phrases: a function word at either edge, or stopwords only, make a stopword topic; a general word beside a content word does not', () => {
    const r = rng(9);
    for (const [lang, fnWords, openWords] of [
      ['en', ['the', 'of', 'probably', 'yeah', 'talked', 'mm-hmm'], ['work', 'new', 'people', 'world']],
      ['es', ['la', 'creo', 'era', 'sabes', 'tío', 'pienso'], ['nueva', 'trabajo', 'gente', 'tiempo']],
    ] as const) {
      for (const w of latinWords(r, 30)) {
        const f = pick(r, fnWords);
        const o = pick(r, openWords);
        assert.ok(isStopwordTopic(`${f} ${w}`, lang) && isStopwordTopic(`${w} ${f}`, lang), `${lang}: ${f} ${w}`);
        assert.ok(!isStopwordTopic(`${o} ${w}`, lang) && !isStopwordTopic(`${w} ${o}`, lang), `${lang}: ${o} ${w}`);
        assert.ok(isStopwordTopic(`${o} ${pick(r, openWords)}`, lang), `${lang}: stopwords only`);
      }
    }
  });
});

describe('generation: corpus document frequencies without stale caches', () => {
  test('adding items keeps the others cached, except those whose topics became common to nearly every item', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mr-topic-df-'));
    try {
      const r = rng(10);
      const words = latinWords(r, 60);
      const [everywhere] = words;
      const fill = fillWords('en');
      const stop = (k: number): string => Array.from({ length: k }, () => pick(r, fill)).join(' ');
      const writeItem = async (i: number, withEverywhere: boolean): Promise<void> => {
        // The word in every item is the most frequent of each (three times a line); the item's own words share the rest.
        const mine = words.slice(1 + i * 8, 9 + i * 8);
        const lines = Array.from({ length: 40 }, (_, t) => {
          const w = withEverywhere ? everywhere! : pick(r, mine);
          // Enough of the item's own words that a line is content, not filler (markers never rest on content-free talk).
          return `Speaker ${t % 2 ? 'A' : 'B'}: ${stop(2)} ${w} ${stop(1)} ${pick(r, mine)} ${stop(1)} ${w} ${stop(1)} ${pick(r, mine)} ${stop(1)} ${pick(r, mine)} ${stop(1)} ${w} ${stop(1)}.`;
        });
        await mkdir(path.join(dir, `item-${i}`), { recursive: true });
        await writeFile(path.join(dir, `item-${i}`, 'transcript.txt'), `${lines.join('\n')}\n`);
      };
      const topicsOfItem = async (id: string): Promise<string[]> => {
        const m = await readItemMarkers(dir, id);
        assert.ok(m.ok, id);
        return storedTopics(m.value);
      };
      // Four items, all with the word: too few items to call anything common, so it is a topic.
      for (let i = 0; i < COMMON_MIN_ITEMS - 1; i++) await writeItem(i, true);
      let report = await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
      assert.equal(report.generated, COMMON_MIN_ITEMS - 1);
      const before = new Map<string, string[]>();
      for (const x of report.items) before.set(x.itemId, await topicsOfItem(x.itemId));
      assert.ok([...before.values()].some((ts) => ts.includes(everywhere!)), `the premise: the word is a topic of some item: ${everywhere} not in ${JSON.stringify([...before])}`);
      // A fifth item with the word: now it is in every item of five; the items that had it as a topic are made again.
      await writeItem(COMMON_MIN_ITEMS - 1, true);
      report = await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
      for (const x of report.items) {
        const expected = !before.has(x.itemId) || before.get(x.itemId)!.includes(everywhere!) ? 'generated' : 'cached';
        assert.equal(x.status, expected, x.itemId);
        assert.ok(!(await topicsOfItem(x.itemId)).includes(everywhere!), `${x.itemId}: the common word is no topic`);
      }
      // A sixth item without it (the word is still in five of six): every other item stays cached.
      await writeItem(COMMON_MIN_ITEMS, false);
      report = await generateMarkers(await loadCorpus(dir), { engine: { kind: 'extractive' } });
      assert.equal(report.generated, 1);
      assert.equal(report.cached, COMMON_MIN_ITEMS);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
