/**
 * A goal's scope (issue 20): the content terms of a research question are its topic and nothing
 * of the question's own vocabulary (English, Spanish, simplified and traditional Chinese); the
 * overview goals the product writes have none; a goal the user writes is about the items that
 * mention its terms and lists the others (`no_matching_part`), or about every item when none
 * does; and the goals written offline say the number of items they cover — the same number as
 * their `item_ids`.
 *
 * Questions are composed from frames × generated topics (invented words, real words, Chinese
 * words from characters outside the question vocabulary) × numbers; corpora are generated (the
 * bench's synthetic corpora) or composed here in three languages, with offline markers.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateSyntheticCorpus } from '../../bench/syntheticCorpus';
import type { Corpus } from '../../src/core/corpus/types';
import { tokenize } from '../../src/core/search/tokenize';
import { goalAsksAboutComments, goalContentTerms, itemsMentioning } from '../../src/core/research/goalScope';
import { goalLanguage, overviewGoalText, type GoalLanguage, type ItemNoun } from '../../src/core/research/goalTopics';
import { extractiveGoals, goalFromText } from '../../src/core/research/plan';
import { openSession, type Session } from '../../src/core/research/session';
import { composeCorpus, withMarkers, type CorpusLanguage } from '../support/coverageCorpus';
import { rng } from '../support/testing';

const PROMPTS = path.join(__dirname, '..', '..', 'prompts');

let work: string;
before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mr-goal-scope-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}
function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

// ---- research-question frames -----------------------------------------------------------------

/** A question with a topic slot: `f(undefined, n)` is the question about everything. */
type Frame = (topic: string | undefined, n: number) => string;

const FRAMES: Record<'en' | 'es' | 'zh' | 'zh-Hant', Frame[]> = {
  en: [
    (t, n) => `What are the main facts, opinions and figures${t ? ` about ${t}` : ''} in all ${n} meetings?`,
    (t, n) => `How do commenters respond${t ? ` to ${t}` : ''} across all ${n} videos?`,
    (t, n) => `What do viewers say${t ? ` about ${t}` : ''} in each of the ${n} episodes?`,
    (t) => `Summarize the key points${t ? ` on ${t}` : ''} from every item.`,
    (t, n) => `Which opinions and data points${t ? ` on ${t}` : ''} do the ${n} recordings discuss?`,
    (t) => `What is said${t ? ` about ${t}` : ''} in the comments, and how does the audience react?`,
    // Questions about change over time (epic and deep runs): "change", "trend", "evolve" ask how, not about what.
    (t) => `How do the topics${t ? ` around ${t}` : ''} of the corpus change over time?`,
    (t, n) => `How have the opinions${t ? ` on ${t}` : ''} changed over the ${n} years?`,
    (t) => `What trends do the meetings show${t ? ` on ${t}` : ''}, and how do they evolve?`,
  ],
  es: [
    (t) => `¿Qué dicen los comentaristas${t ? ` sobre ${t}` : ''}?`,
    (t, n) => `¿Cuáles son los hechos, opiniones y cifras principales${t ? ` sobre ${t}` : ''} en las ${n} reuniones?`,
    (t) => `¿Cómo responde la audiencia${t ? ` a ${t}` : ''} en todos los vídeos?`,
    (t) => `Resumen de los datos clave${t ? ` de ${t}` : ''} en cada episodio.`,
    (t, n) => `¿Qué opinan los espectadores${t ? ` sobre ${t}` : ''} en los ${n} programas?`,
    (t) => `¿Cómo cambian los temas${t ? ` de ${t}` : ''} a lo largo del tiempo?`,
    (t) => `¿Cómo evolucionan las opiniones${t ? ` sobre ${t}` : ''} con los años?`,
    (t) => `¿Qué tendencias muestran las reuniones${t ? ` sobre ${t}` : ''}?`,
  ],
  zh: [
    (t) => (t ? `关于${t}有哪些观点？` : '有哪些观点？'),
    (t, n) => `全部 ${n} 场会议${t ? `中关于${t}` : ''}的主要事实、观点和数据是什么？`,
    (t) => `评论者如何回应${t ? `关于${t}的讨论` : ''}？`,
    (t) => `每个视频中${t ? `提到${t}的` : '的'}要点是什么？`,
    (t, n) => `${n} 个内容项里网友对${t ? `${t}的` : ''}反应如何？`,
    (t) => `${t ? `关于${t}的` : ''}各个话题随时间如何变化？`,
    (t) => `${t ? `${t}的` : ''}观点是怎样随着时间演变的？`,
    (t) => `会议中${t ? `关于${t}` : ''}有哪些趋势和发展？`,
  ],
  'zh-Hant': [
    (t) => (t ? `關於${t}有哪些觀點？` : '有哪些觀點？'),
    (t, n) => `全部 ${n} 場會議${t ? `中關於${t}` : ''}的主要事實、觀點和數據是什麼？`,
    (t) => `評論者如何回應${t ? `關於${t}的討論` : ''}？`,
    (t) => `觀眾對${t ? `${t}的` : ''}反應如何？`,
    (t) => `${t ? `關於${t}的` : ''}各個話題隨時間如何變化？`,
  ],
};

/** Syllables of invented words: no English or Spanish word, stopword or question word comes of them. */
const SYLLABLES = ['kor', 'vex', 'zun', 'dra', 'plik', 'mos', 'tev', 'quon', 'brax', 'nel', 'yud', 'ñal', 'ró', 'fisk', 'gorm'];
const REAL_WORDS = ['battery range', 'harbour cranes', 'rail tunnels', 'vivienda', 'sequía', 'inflación', 'ferrocarril', 'Katowice', 'lithium', 'paneles solares'];
/** Chinese characters in no phrase of the question vocabulary and no filler: words of them are topics. */
const HAN = [...'锂池续航桩伏咖啡豆骑盐湖稻麦铁矿港潮汐船桥隧茶棉纺织锌菌桑蚕'];
const HANT = [...'鋰續樁鐵礦橋紡織鋅蠶稻麥港潮汐船茶棉菌桑'];
/**
 * Chinese topic words with a particle, measure word or preposition inside them ("场" of 风电场,
 * "中" of 中国, "上" of 上海, "个" of 个人): the question's fillers, but not here.
 */
const HAN_WORDS = ['风电场', '中国市场', '上海港', '现场直播', '个人所得税', '下水道', '有机农业', '房地产市场', '立场', '上涨', '中東戰場', '個人隱私'];

/** A generated topic: one to three invented or real words, or a Chinese word of 2–4 characters. */
function topicOf(r: () => number): string {
  const roll = r();
  if (roll < 0.35) {
    const word = (): string => Array.from({ length: int(r, 2, 3) }, () => pick(r, SYLLABLES)).join('');
    const w = Array.from({ length: int(r, 1, 3) }, word).join(' ');
    return r() < 0.3 ? w[0]!.toUpperCase() + w.slice(1) : w;
  }
  if (roll < 0.5) return pick(r, REAL_WORDS);
  if (roll < 0.65) return pick(r, HAN_WORDS);
  const pool = roll < 0.85 ? HAN : HANT;
  return Array.from({ length: int(r, 2, 4) }, () => pick(r, pool)).join('');
}

/** The topic's search tokens, each once, in order (what a goal's content terms should be). */
function tokensOf(topic: string): string[] {
  return [...new Set(tokenize(topic))];
}

describe('goalContentTerms: the topic of a research question, without the question', () => {
  test('frames alone give no terms; frames with a topic give exactly the topic\'s tokens (English, Spanish, simplified and traditional Chinese)', () => {
    const r = rng(3001);
    let cases = 0;
    for (const [lang, frames] of Object.entries(FRAMES)) {
      for (const [i, frame] of frames.entries()) {
        for (let k = 0; k < 40; k++) {
          const n = int(r, 2, 500);
          assert.deepEqual(goalContentTerms(frame(undefined, n)), [], `${lang} frame ${i}: "${frame(undefined, n)}"`);
          const topic = topicOf(r);
          const q = frame(topic, n);
          assert.deepEqual(goalContentTerms(q), tokensOf(topic), `${lang} frame ${i}: "${q}"`);
          cases++;
        }
      }
    }
    assert.ok(cases >= 500, `${cases} questions`);
  });

  test('the overview goals the product writes have no content terms (every language, noun, count, with and without comments)', () => {
    const r = rng(3002);
    for (const lang of ['en', 'es', 'zh'] as GoalLanguage[]) {
      for (const noun of ['meeting', 'video', 'item'] as ItemNoun[]) {
        for (const hasComments of [false, true]) {
          for (let k = 0; k < 12; k++) {
            const titles = Array.from({ length: int(r, 2, 150) }, (_, i) => `${topicOf(r)} ${i}`);
            const g = overviewGoalText(lang, noun, titles, hasComments);
            assert.deepEqual(goalContentTerms(g.title), [], `${lang}/${noun}: "${g.title}"`);
            assert.equal(goalAsksAboutComments(g.title), hasComments, `"${g.title}" asks about the comments iff there are comments`);
          }
          // One item: the goal names it by its title, and only the title's words are its terms.
          const title = topicOf(r);
          const one = overviewGoalText(lang, noun, [title], hasComments);
          const titleTokens = new Set(tokenize(title));
          assert.ok(goalContentTerms(one.title).every((t) => titleTokens.has(t)), `${lang}/${noun}: "${one.title}" → ${JSON.stringify(goalContentTerms(one.title))}`);
        }
      }
    }
  });

  test('goalAsksAboutComments: the commenters\' side named in any of the three languages, not otherwise', () => {
    const r = rng(3003);
    const asks = [FRAMES.en[1]!, FRAMES.en[2]!, FRAMES.en[5]!, FRAMES.es[0]!, FRAMES.es[2]!, FRAMES.es[4]!, FRAMES.zh[2]!, FRAMES.zh[4]!, FRAMES['zh-Hant'][2]!, FRAMES['zh-Hant'][3]!];
    const not = [FRAMES.en[0]!, FRAMES.en[3]!, FRAMES.es[1]!, FRAMES.es[3]!, FRAMES.zh[0]!, FRAMES.zh[1]!, FRAMES['zh-Hant'][0]!];
    for (let k = 0; k < 30; k++) {
      // Topics of invented words or Chinese characters never name the audience themselves.
      const topic = r() < 0.5 ? pick(r, SYLLABLES) + pick(r, SYLLABLES) : pick(r, HAN) + pick(r, HAN);
      for (const f of asks) assert.ok(goalAsksAboutComments(f(topic, k + 2)), f(topic, k + 2));
      for (const f of not) assert.ok(!goalAsksAboutComments(f(topic, k + 2)), f(topic, k + 2));
    }
  });
});

// ---- goalFromText over composed corpora --------------------------------------------------------

async function sessionOf(corpus: Corpus): Promise<Session> {
  return openSession({ corpus, engine: 'extractive', promptsDir: PROMPTS });
}

/** The items whose text (transcript and comments) has one of `terms` among its search tokens. */
function mentioning(corpus: Corpus, terms: readonly string[]): string[] {
  return corpus.items.filter((it) => {
    const toks = new Set(tokenize(`${it.transcript?.text ?? ''}\n${it.comments?.text ?? ''}`));
    return terms.some((t) => toks.has(t));
  }).map((it) => it.id);
}

const TOPIC_FRAMES: Record<CorpusLanguage, Frame[]> = { en: FRAMES.en, es: FRAMES.es, zh: FRAMES.zh };
/** The corpus's topics (see coverageCorpus.ts) as a researcher would ask about them. */
const ASKED: Record<CorpusLanguage, string[]> = {
  en: ['battery range', 'ferries', 'wheat prices', 'harbour cranes', 'tunnels', 'school meals'],
  es: ['café', 'carriles bici', 'trigo', 'grúas portuarias', 'túneles', 'parques eólicos'],
  zh: ['电池续航', '渡轮航线', '小麦价格', '港口吊机', '铁路隧道', '风电场'],
};

describe('goalFromText: the items a user\'s goal is about, and the others listed', () => {
  for (const lang of ['en', 'es', 'zh'] as const) {
    test(`${lang}: items that mention none of the goal's terms are left out (no_matching_part); a goal matching nothing covers every item`, async () => {
      const { corpus } = await composeCorpus(path.join(work, `from-text-${lang}`), { items: 18, seed: 50 + lang.length, lang, comments: 'some' });
      const s = await sessionOf(corpus);
      const all = corpus.items.map((i) => i.id);
      const r = rng(3100 + lang.length);
      const figures: string[] = [];
      for (const asked of ASKED[lang]) {
        const frame = pick(r, TOPIC_FRAMES[lang]);
        const q = frame(asked, int(r, 2, 40));
        const terms = goalContentTerms(q);
        assert.deepEqual(terms, tokensOf(asked), q);
        const expected = mentioning(corpus, terms);
        const g = goalFromText(s, q);
        if (!expected.length) continue;
        assert.deepEqual([...g.item_ids].sort(), [...expected].sort(), `"${q}": the items that mention ${terms.join(', ')}`);
        const left = g.left_out ?? [];
        assert.deepEqual(left.map((x) => x.item_id).sort(), all.filter((id) => !expected.includes(id)).sort(), `"${q}": every other item is listed`);
        assert.ok(left.every((x) => x.reason === 'no_matching_part' && x.detail?.includes(terms[0]!)), JSON.stringify(left[0]));
        figures.push(`"${asked}": ${g.item_ids.length} in, ${left.length} left out`);
      }
      assert.ok(figures.length >= 4, `most asked topics occur in the corpus: ${figures.join('; ')}`);
      // Topics no item mentions: the goal is about every item, said in a notice.
      for (let k = 0; k < 6; k++) {
        const invented = Array.from({ length: 3 }, () => pick(r, SYLLABLES)).join('');
        const q = pick(r, TOPIC_FRAMES[lang])(invented, k + 3);
        const before = s.notes.length;
        const g = goalFromText(s, q);
        assert.deepEqual([...g.item_ids].sort(), [...all].sort(), q);
        assert.equal(g.left_out, undefined);
        assert.equal(s.notes.length, before + 1, 'a notice says no item mentions the terms');
        assert.match(s.notes.at(-1)!, lang === 'zh' ? /没有内容项提到/ : /no item mentions/);
      }
      // A question about everything: every item, nothing left out, no notice.
      for (const f of TOPIC_FRAMES[lang]) {
        const before = s.notes.length;
        const g = goalFromText(s, f(undefined, 18));
        assert.deepEqual([...g.item_ids].sort(), [...all].sort());
        assert.equal(g.left_out, undefined);
        assert.equal(s.notes.length, before);
      }
      console.log(`# goalFromText ${lang}: ${figures.join('; ')}`);
    });
  }

  test('itemsMentioning reads the text through the index (not only markers), within the given items', async () => {
    const { corpus } = await composeCorpus(path.join(work, 'mentioning'), { items: 14, seed: 77, lang: 'en', comments: 'all' });
    const s = await sessionOf(corpus);
    const r = rng(3200);
    for (let k = 0; k < 20; k++) {
      const terms = tokensOf(pick(r, ASKED.en));
      const reach = corpus.items.map((i) => i.id).filter(() => r() < 0.7);
      const got = itemsMentioning(s.searchIndex(), terms, reach);
      assert.deepEqual([...got].sort(), mentioning(corpus, terms).filter((id) => reach.includes(id)).sort(), terms.join(' '));
    }
    assert.deepEqual(itemsMentioning(s.searchIndex(), [], corpus.items.map((i) => i.id)), []);
  });
});

// ---- goal texts and their counts -----------------------------------------------------------------

const COUNT_NOUNS = 'items?|videos?|meetings?|contenidos?|vídeos?|reuniones|reunión|个内容项|个视频|场会议';

/** The counts a goal's sentences state: items it covers (title, rationale) and "comes up in D of T". */
function statedCounts(lang: GoalLanguage, title: string, rationale: string): { title?: number; rationale?: number; df?: number; of?: number; all?: number } {
  const num = (re: RegExp, text: string, k = 1): number | undefined => {
    const m = re.exec(text);
    return m ? Number(m[k]) : undefined;
  };
  if (lang === 'zh') {
    return {
      all: num(/全部 (\d+) /u, title),
      title: num(new RegExp(`(\\d+) (?:${COUNT_NOUNS})（`, 'u'), title),
      rationale: num(new RegExp(`^(\\d+) (?:${COUNT_NOUNS})中有`, 'u'), rationale),
      of: num(/只出现在 (\d+) \S+中的 (\d+) /u, rationale, 1),
      df: num(/只出现在 (\d+) \S+中的 (\d+) /u, rationale, 2),
    };
  }
  if (lang === 'es') {
    return {
      all: num(/de (?:los|las) (\d+) /u, title),
      title: num(new RegExp(`en (\\d+) (?:${COUNT_NOUNS}): `, 'u'), title),
      rationale: num(new RegExp(`en (\\d+) (?:${COUNT_NOUNS}) sobre `, 'u'), rationale),
      df: num(/aparece en (\d+) de (\d+) /u, rationale, 1),
      of: num(/aparece en (\d+) de (\d+) /u, rationale, 2),
    };
  }
  return {
    all: num(/in all (\d+) /u, title),
    title: num(new RegExp(`in (\\d+) (?:${COUNT_NOUNS}): `, 'u'), title),
    rationale: num(new RegExp(`markers? in (\\d+) (?:${COUNT_NOUNS}) on `, 'u'), rationale),
    df: num(/comes up in (\d+) of (\d+) /u, rationale, 1),
    of: num(/comes up in (\d+) of (\d+) /u, rationale, 2),
  };
}

describe('goal texts and their counts agree', () => {
  test('every goal of extractiveGoals says the number of items it covers, and the overview covers all (synthetic and composed corpora, three languages)', async () => {
    const corpora: { name: string; corpus: Corpus }[] = [];
    for (const [k, n] of [12, 30, 45].entries()) {
      const dir = path.join(work, `counts-syn-${n}`);
      await generateSyntheticCorpus(dir, { items: n, wordsPerItem: 200, seed: 300 + k });
      corpora.push({ name: `synthetic ${n}`, corpus: await withMarkers(dir) });
    }
    for (const [k, lang] of (['en', 'es', 'zh'] as const).entries()) {
      for (const [j, noun] of (['meeting', 'video', 'item'] as const).entries()) {
        const { corpus } = await composeCorpus(path.join(work, `counts-${lang}-${noun}`), { items: 9 + 4 * j + k, seed: 310 + 3 * k + j, lang, noun, comments: j === 2 ? 'none' : 'some', dated: j !== 1 });
        corpora.push({ name: `${lang} ${noun}`, corpus });
      }
    }
    let goals = 0;
    let topicGoals = 0;
    for (const { name, corpus } of corpora) {
      const s = await sessionOf(corpus);
      const lang = goalLanguage(s.inputs);
      const n = corpus.items.length;
      for (const g of extractiveGoals(s, 6)) {
        goals++;
        const c = statedCounts(lang, g.title, g.rationale);
        const label = `${name} (${lang}) ${g.goal_id}: "${g.title}" / "${g.rationale}" (${g.item_ids.length} item ids)`;
        assert.equal(new Set(g.item_ids).size, g.item_ids.length, `${label}: item ids once each`);
        if (g.goal_id === 'g1') {
          assert.deepEqual([...g.item_ids].sort(), corpus.items.map((i) => i.id).sort(), `${label}: the overview is about every item`);
          assert.equal(c.all, n, `${label}: "all N" is the corpus`);
          continue;
        }
        topicGoals++;
        if (g.item_ids.length > 1) assert.equal(c.title, g.item_ids.length, `${label}: the title's count`);
        assert.equal(c.rationale, g.item_ids.length, `${label}: the rationale's count`);
        if (c.df !== undefined || g.item_ids.length < n) {
          assert.equal(c.df, g.item_ids.length, `${label}: "comes up in D of N": D is the goal's items`);
          assert.equal(c.of, n, `${label}: "… of N": N is the corpus`);
        }
      }
    }
    assert.ok(topicGoals >= 10, `${topicGoals} topic goals checked`);
    console.log(`# goal counts: ${goals} goals (${topicGoals} topic goals) over ${corpora.length} corpora, every stated count equals item_ids.length`);
  });
});
