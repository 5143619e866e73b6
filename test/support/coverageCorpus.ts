/**
 * Corpora for the plan-coverage tests (issue 20), composed from parts with a seeded generator:
 * items in English, Spanish or Chinese, each talking about two topics of its language with
 * numbers, facts and opinions; dates (`published_at`) spread over two years or none; comments on
 * every item, some or none; optionally items with no text at all (a blank transcript, comments
 * that are all blank), titles as meetings, videos or plain items, plain or hostile (Markdown).
 * Markers are generated offline (extractive) on disk, as `marker-research markers` would.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { loadCorpus } from '../../src/core/corpus/loader';
import type { Corpus } from '../../src/core/corpus/types';
import { generateMarkers } from '../../src/core/markers/generate';
import { hostileTexts } from './hostileMarkdown';
import { rng } from './testing';

/** Languages of a composed corpus. */
export type CorpusLanguage = 'en' | 'es' | 'zh';

/** What a composed corpus is like; every field but `items` and `seed` has a default. */
export interface ComposeOptions {
  items: number;
  seed: number;
  lang?: CorpusLanguage;
  /** `published_at` on every item (spread over two years) — default true. */
  dated?: boolean;
  /** Which items have comments: every one, about half, none (default every one). */
  comments?: 'all' | 'some' | 'none';
  /** Items with no text to read (blank transcript or blank comments), added after the others. */
  noText?: number;
  /** What titles say: `meeting` (most titles name a meeting), `video` (video ids in meta), `item` (default). */
  noun?: 'meeting' | 'video' | 'item';
  /** Titles with Markdown in them (links, emphasis, HTML, brackets), generated. */
  hostileTitles?: boolean;
  /** Transcript lines per item (default 8): long items are read in chunks on a small budget. */
  lines?: number;
}

const TOPICS: Record<CorpusLanguage, string[]> = {
  en: ['battery range', 'coffee harvest', 'office rents', 'street food', 'cycling lanes', 'solar panels', 'river ferries', 'wheat prices', 'school meals', 'harbour cranes', 'rail tunnels', 'wind farms'],
  es: ['autonomía de baterías', 'cosecha de café', 'alquiler de oficinas', 'comida callejera', 'carriles bici', 'paneles solares', 'transbordadores fluviales', 'precio del trigo', 'comedores escolares', 'grúas portuarias', 'túneles ferroviarios', 'parques eólicos'],
  zh: ['电池续航', '咖啡收成', '办公租金', '街头小吃', '骑行道路', '光伏面板', '渡轮航线', '小麦价格', '校园午餐', '港口吊机', '铁路隧道', '风电场'],
};

type Line = (topic: string, other: string, a: number, b: number) => string;

const TRANSCRIPT: Record<CorpusLanguage, Line[]> = {
  en: [
    (t, o) => `Host: Welcome back. Today we look at ${t} and at ${o}.`,
    (t, _o, a, b) => `Guest: The figures on ${t} rose by ${a} percent last year, and ${b} cities reported the same trend.`,
    (t) => `Host: I think ${t} matters more than most people believe, and I would argue the costs are underestimated.`,
    (_t, o, a) => `Guest: On ${o}, a survey of ${a * 10} households found that most of them changed their habits.`,
    (_t, o) => `Host: In my opinion ${o} will be the bigger story next year, because prices keep rising.`,
    (t, _o, a, b) => `Guest: In ${2000 + b} the council spent ${a} million on ${t}, twice what it planned.`,
    (t, o) => `Host: Honestly, I doubt that ${t} and ${o} can both grow at that pace.`,
    (t, _o, a) => `Guest: Our data shows ${a} new projects on ${t} this spring alone.`,
  ],
  es: [
    (t, o) => `Presentador: Bienvenidos. Hoy hablamos de ${t} y de ${o}.`,
    (t, _o, a, b) => `Invitada: Las cifras de ${t} subieron un ${a} por ciento el año pasado y ${b} ciudades lo confirmaron.`,
    (t) => `Presentador: Creo que ${t} importa más de lo que la gente piensa, y los costes están subestimados.`,
    (_t, o, a) => `Invitada: Sobre ${o}, una encuesta a ${a * 10} hogares mostró que la mayoría cambió sus hábitos.`,
    (_t, o) => `Presentador: En mi opinión ${o} será la gran noticia del año que viene, porque los precios no paran de subir.`,
    (t, _o, a, b) => `Invitada: En ${2000 + b} el ayuntamiento gastó ${a} millones en ${t}, el doble de lo previsto.`,
    (t, o) => `Presentador: Sinceramente, dudo que ${t} y ${o} puedan crecer a ese ritmo.`,
    (t, _o, a) => `Invitada: Nuestros datos muestran ${a} proyectos nuevos de ${t} solo esta primavera.`,
  ],
  zh: [
    (t, o) => `主持人：欢迎回来。今天我们来看${t}和${o}。`,
    (t, _o, a, b) => `嘉宾：去年${t}的数字上升了百分之${a}，有${b}个城市报告了同样的趋势。`,
    (t) => `主持人：我认为${t}比大多数人想象的更重要，成本被低估了。`,
    (_t, o, a) => `嘉宾：关于${o}，一项针对${a * 10}户家庭的调查发现大多数家庭改变了习惯。`,
    (_t, o) => `主持人：在我看来，${o}明年会是更大的新闻，因为价格一直在涨。`,
    (t, _o, a, b) => `嘉宾：${2000 + b}年市政府在${t}上花了${a}百万，是计划的两倍。`,
    (t, o) => `主持人：说实话，我怀疑${t}和${o}能不能同时保持这样的增速。`,
    (t, _o, a) => `嘉宾：我们的数据显示，仅今年春天就有${a}个关于${t}的新项目。`,
  ],
};

const COMMENTS: Record<CorpusLanguage, Line[]> = {
  en: [
    (t, _o, a) => `I think the ${t} numbers are wrong, ${a} percent is far too high.`,
    (t) => `Great episode, the part about ${t} was the best.`,
    (_t, o, a) => `Where I live ${o} costs ${a} dollars a month, nobody talks about that.`,
    (t, o) => `Honestly ${o} matters more than ${t}, in my opinion.`,
  ],
  es: [
    (t, _o, a) => `Creo que las cifras de ${t} están mal, un ${a} por ciento es demasiado.`,
    (t) => `Gran episodio, lo de ${t} fue lo mejor.`,
    (_t, o, a) => `Donde vivo ${o} cuesta ${a} euros al mes y nadie habla de eso.`,
    (t, o) => `Sinceramente ${o} importa más que ${t}, en mi opinión.`,
  ],
  zh: [
    (t, _o, a) => `我觉得${t}的数据有问题，百分之${a}太高了。`,
    (t) => `这期节目很好，讲${t}的部分最精彩。`,
    (_t, o, a) => `我们这里${o}每个月要${a}块钱，没人提这个。`,
    (t, o) => `说实话我觉得${o}比${t}更重要。`,
  ],
};

const NOUN_TITLES: Record<CorpusLanguage, Record<'meeting' | 'video' | 'item', (t: string, i: number) => string>> = {
  en: { meeting: (t, i) => `Council meeting ${i}: ${t}`, video: (t, i) => `${t} explained (part ${i})`, item: (t, i) => `Notes ${i} on ${t}` },
  es: { meeting: (t, i) => `Reunión del consejo ${i}: ${t}`, video: (t, i) => `${t} explicado (parte ${i})`, item: (t, i) => `Notas ${i} sobre ${t}` },
  zh: { meeting: (t, i) => `第${i}次会议：${t}`, video: (t, i) => `${t}解读（第${i}集）`, item: (t, i) => `关于${t}的笔记 ${i}` },
};

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** What {@link composeCorpus} wrote, by item id. */
export interface ComposedItem {
  id: string;
  title: string;
  topics: [string, string];
  comments: boolean;
  text: boolean;
  date?: string;
}

/**
 * Writes a composed corpus under `dir` (replacing what was there) and returns what it wrote; the
 * same options give the same files.
 */
export async function writeComposedCorpus(dir: string, o: ComposeOptions): Promise<ComposedItem[]> {
  const r = rng(o.seed);
  const lang = o.lang ?? 'en';
  const topics = TOPICS[lang];
  const hostile = o.hostileTitles ? hostileTexts(o.seed, o.items + (o.noText ?? 0), { lineBreaks: false }) : [];
  await rm(dir, { recursive: true, force: true });
  const out: ComposedItem[] = [];
  const total = o.items + (o.noText ?? 0);
  const start = Date.UTC(2021, 0, 1);
  for (let i = 0; i < total; i++) {
    const id = `item-${String(i + 1).padStart(3, '0')}`;
    const folder = path.join(dir, id);
    await mkdir(folder, { recursive: true });
    const t = pick(r, topics);
    const other = pick(r, topics.filter((x) => x !== t));
    const noun = o.noun ?? 'item';
    const plain = NOUN_TITLES[lang][noun](t, i + 1);
    const title = o.hostileTitles ? `${plain} ${hostile[i]!}` : plain;
    const date = (o.dated ?? true) ? new Date(start + Math.floor((i / total) * 700 + r() * 20) * 86_400_000).toISOString() : undefined;
    const hasText = i < o.items;
    const withComments = hasText && (o.comments === 'none' ? false : o.comments === 'some' ? r() < 0.5 : true);
    await writeFile(path.join(folder, 'meta.json'), JSON.stringify({ title, ...(noun === 'video' ? { source: 'youtube', video_id: `v${i}` } : {}), ...(date ? { published_at: date } : {}), language: lang }));
    if (!hasText) {
      // No text to read: a blank transcript of one turn, or comments that are all blank.
      if (i % 2) await writeFile(path.join(folder, 'transcript.json'), JSON.stringify({ turns: [{ speaker: 'A', text: ' ' }] }));
      else await writeFile(path.join(folder, 'comments.jsonl'), `${JSON.stringify({ comment_id: 'c1', text: '   ' })}\n`);
      out.push({ id, title, topics: [t, other], comments: false, text: false, ...(date ? { date } : {}) });
      continue;
    }
    const lines = TRANSCRIPT[lang];
    const n = o.lines ?? 8;
    const transcript = Array.from({ length: n }, (_, k) => lines[k % lines.length]!(t, other, 5 + Math.floor(r() * 90), 2 + Math.floor(r() * 20)));
    await writeFile(path.join(folder, 'transcript.txt'), `${transcript.join('\n')}\n`);
    if (withComments) {
      const cs = Array.from({ length: 3 + Math.floor(r() * 4) }, (_, k) => ({ comment_id: `${id}-c${k}`, author: `user${Math.floor(r() * 40)}`, text: pick(r, COMMENTS[lang])(t, other, 5 + Math.floor(r() * 90), 0), likes: Math.floor(r() * 50) }));
      await writeFile(path.join(folder, 'comments.jsonl'), `${cs.map((c) => JSON.stringify(c)).join('\n')}\n`);
    }
    out.push({ id, title, topics: [t, other], comments: withComments, text: true, ...(date ? { date } : {}) });
  }
  return out;
}

/** {@link writeComposedCorpus}, then offline (extractive) markers for every item; the corpus loaded. */
export async function composeCorpus(dir: string, o: ComposeOptions): Promise<{ corpus: Corpus; items: ComposedItem[] }> {
  const items = await writeComposedCorpus(dir, o);
  const first = await loadCorpus(dir);
  await generateMarkers(first, { engine: { kind: 'extractive' } });
  return { corpus: await loadCorpus(dir), items };
}

/** Offline markers for a corpus already on disk (a generated synthetic corpus); the corpus loaded again. */
export async function withMarkers(dir: string): Promise<Corpus> {
  const first = await loadCorpus(dir);
  await generateMarkers(first, { engine: { kind: 'extractive' } });
  return loadCorpus(dir);
}
