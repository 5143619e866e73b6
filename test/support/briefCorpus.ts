/**
 * Meeting corpora for the evidence-brief tests (issue 22), composed with a seeded generator in
 * English, Spanish or Chinese: every meeting has speakers' turns of filler and backchannels
 * ("Yeah.", "Sí, sí.", "嗯。"), talk on other topics, and — in the first `mentioning` meetings —
 * turns about the topic of the goal at known places: a turn that says it once, a denser one that
 * says it twice (placed after the others), a figure (a data turn), an opinion, a repeat of
 * another turn in the same words, and a content-free turn that only echoes the topic ("Yeah,
 * solar, yeah."). The first meeting also has comments: one long comment that talks about the
 * topic in three sentences, a spam comment that names the topic, and short genuine ones.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { rng } from './testing';

export type BriefLang = 'en' | 'es' | 'zh';

/** What a language's meetings say. */
interface Vocabulary {
  /** The goal's topic as the test looks for it in the text. */
  topic: string;
  goal: string;
  speakers: string[];
  filler: string[];
  other: string[];
  once: (k: number) => string;
  twice: (k: number) => string;
  data: (k: number) => string;
  /** The figure of meeting k's `data`, as a table row shows it. */
  figure: (k: number) => string;
  opinion: (k: number) => string;
  echo: string;
  repeated: string;
  longComment: string;
  spam: string;
  shortComments: string[];
  title: (k: number) => string;
}

/** Chinese sites and figures by meeting (written in characters: "东楼", "五千二百元"). */
const ZH_SITE = ['东', '南', '西', '北', '中', '新'];
const ZH_THOUSANDS = ['五', '六', '七', '八', '九', '四'];

export const BRIEF_VOCABULARY: Record<BriefLang, Vocabulary> = {
  en: {
    topic: 'solar panels',
    goal: 'What did the team think about the solar panels on the depot roof?',
    speakers: ['Alice', 'Bruno', 'Chen', 'Dana'],
    filler: ['Yeah.', 'Mm-hmm.', 'Okay, okay.', 'Right, yeah, I mean, you know.', 'Uh-huh, sure.'],
    other: ['The bus routes change next month and the early buses leave half an hour sooner.', 'The library stays open until nine on weekends from now on.', 'We still need a new supplier for the printer paper and the toner.', 'The park benches near the fountain were painted green last week.'],
    once: (k) => `We also looked at solar panels for the building next to yard ${k}.`,
    twice: (k) => `The solar panels on the depot roof of site ${k} would pay for themselves, and the solar panels need little maintenance according to the engineers.`,
    data: (k) => `The supplier quoted ${4 + k},200 dollars for the solar panels of site ${k} including installation.`,
    figure: (k) => `${4 + k},200 dollars`,
    opinion: (k) => `I think the solar panels are worth it for site ${k} because the sun shines all day there.`,
    echo: 'Yeah, solar, yeah.',
    repeated: 'The bus routes change next month and the early buses leave half an hour sooner.',
    longComment: 'The solar panels on our street halved our electricity bill. Our solar panels also survived the hail storm in May. I would install solar panels again tomorrow without thinking twice.',
    spam: 'Check out my channel for free solar panels tips!!! Subscribe now and visit www.free-solar-gifts.example for free gifts',
    shortComments: ['Great meeting summary, thanks for posting it.', 'The part about the bus routes was useful for my commute.'],
    title: (k) => `Team meeting ${k}`,
  },
  es: {
    topic: 'paneles solares',
    goal: '¿Qué opinó el equipo sobre los paneles solares del tejado del almacén?',
    speakers: ['Lucía', 'Mateo', 'Carmen', 'Diego'],
    filler: ['Sí, sí.', 'Vale.', 'Bueno, o sea, ya sabes.', 'Claro, claro.', 'Ajá, sí.'],
    other: ['Las rutas de autobús cambian el mes que viene y los primeros salen media hora antes.', 'La biblioteca abrirá hasta las nueve los fines de semana a partir de ahora.', 'Todavía necesitamos un proveedor nuevo para el papel de la impresora y el tóner.', 'Los bancos del parque junto a la fuente se pintaron de verde la semana pasada.'],
    once: (k) => `También estudiamos los paneles solares para el edificio junto al patio ${k}.`,
    twice: (k) => `Los paneles solares del tejado del almacén de la sede ${k} se pagarían solos, y los paneles solares necesitan poco mantenimiento según los ingenieros.`,
    data: (k) => `El proveedor presupuestó ${4 + k}.200 euros para los paneles solares de la sede ${k} con la instalación incluida.`,
    figure: (k) => `${4 + k}.200 euros`,
    opinion: (k) => `Creo que los paneles solares merecen la pena en la sede ${k} porque allí da el sol todo el día.`,
    echo: 'Sí, solares, sí.',
    repeated: 'Las rutas de autobús cambian el mes que viene y los primeros salen media hora antes.',
    longComment: 'Los paneles solares de nuestra calle redujeron la factura de la luz a la mitad. Nuestros paneles solares también aguantaron el granizo de mayo. Volvería a instalar paneles solares mañana mismo sin pensarlo.',
    spam: 'Suscríbete a mi canal para trucos de paneles solares gratis!!! visita www.paneles-gratis.example y gana regalos',
    shortComments: ['Muy buen resumen de la reunión, gracias por subirlo.', 'Lo de las rutas de autobús me sirve para ir al trabajo.'],
    title: (k) => `Reunión semanal ${k}`,
  },
  zh: {
    topic: '太阳能板',
    goal: '团队对仓库屋顶的太阳能板有什么看法？',
    speakers: ['王经理', '李工程师', '陈设计师', '赵主任'],
    filler: ['嗯。', '对对对。', '好的好的。', '嗯嗯，是的。', '那个，就是说，嗯。'],
    other: ['公交线路下个月要调整，早班车会提前半小时发车。', '图书馆周末的开放时间延长到晚上九点。', '打印纸和墨粉还需要找一个新的供应商来采购。', '喷泉旁边的公园长椅上周刷成了绿色。'],
    once: (k) => `我们也研究了${ZH_SITE[k % 6]}楼安装太阳能板的方案。`,
    twice: (k) => `${ZH_SITE[k % 6]}区仓库屋顶的太阳能板几年就能回本，而且工程师说太阳能板几乎不需要维护保养。`,
    data: (k) => `供应商报价说${ZH_SITE[k % 6]}楼的太阳能板一共${ZH_THOUSANDS[k % 6]}千二百元，包括安装费用。`,
    figure: (k) => `${ZH_THOUSANDS[k % 6]}千二百元`,
    opinion: (k) => `我觉得${ZH_SITE[k % 6]}楼很值得安装太阳能板，因为那里日照时间很长。`,
    echo: '嗯，太阳能板，嗯。',
    repeated: '公交线路下个月要调整，早班车会提前半小时发车。',
    longComment: '我们这条街装了太阳能板以后电费减半了。我家的太阳能板五月份的冰雹也扛住了。如果重新选择我明天还会安装太阳能板。',
    spam: '关注我的频道免费领取太阳能板教程！！！加微信 solar888 领红包 www.free-solar.example',
    shortComments: ['会议总结写得很好，谢谢分享。', '公交线路调整的部分对我上班很有用。'],
    title: (k) => `项目会议 ${k}`,
  },
};

/** A composed meeting and where its topic turns are. */
export interface BriefMeeting {
  id: string;
  title: string;
  mentions: boolean;
  turns: { speaker: string; text: string }[];
}

/**
 * Writes `items` meetings (transcript.json with speakers and times, meta.json with a title); the
 * first `mentioning` talk about the topic; the first also has comments.
 */
export async function writeBriefCorpus(dir: string, lang: BriefLang, o: { items: number; mentioning: number; seed: number }): Promise<BriefMeeting[]> {
  const V = BRIEF_VOCABULARY[lang];
  const r = rng(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: BriefMeeting[] = [];
  for (let k = 1; k <= o.items; k++) {
    const id = `meeting-${String(k).padStart(2, '0')}`;
    const mentions = k <= o.mentioning;
    const turns: { speaker: string; text: string }[] = [];
    const say = (text: string): void => {
      turns.push({ speaker: pick(V.speakers), text });
    };
    for (let i = 0; i < 24; i++) say(r() < 0.5 ? pick(V.filler) : pick(V.other));
    if (mentions) {
      // The topic turns at known places: the weaker ones first, the densest last, fillers between.
      const topicTurns = [V.once(k), V.echo, V.opinion(k), V.data(k), V.repeated, V.twice(k)];
      topicTurns.forEach((t, j) => turns.splice(4 + j * 3, 0, { speaker: V.speakers[j % V.speakers.length]!, text: t }));
      say(V.repeated);
    }
    const dirItem = path.join(dir, id);
    await mkdir(dirItem, { recursive: true });
    await writeFile(path.join(dirItem, 'meta.json'), JSON.stringify({ title: V.title(k) }));
    await writeFile(path.join(dirItem, 'transcript.json'), JSON.stringify({ turns: turns.map((t, i) => ({ ...t, start: i * 10, end: i * 10 + 9 })) }, null, 1));
    if (k === 1) {
      const comments = [
        { comment_id: 'c1', author: 'neighbour_ana', text: V.longComment, likes: 41 },
        { comment_id: 'c2', author: 'promo_bot', text: V.spam, likes: 0 },
        ...V.shortComments.map((text, j) => ({ comment_id: `c${j + 3}`, author: `viewer${j}`, text, likes: 3 + j })),
      ];
      await writeFile(path.join(dirItem, 'comments.jsonl'), `${comments.map((c) => JSON.stringify(c)).join('\n')}\n`);
    }
    out.push({ id, title: V.title(k), mentions, turns });
  }
  return out;
}
